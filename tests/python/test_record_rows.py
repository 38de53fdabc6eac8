"""Record scanners build row dicts natively from the Arrow buffers (python/src/arrow_rows.cc) and
writers hand out one handle per batch (python/src/writers.cc): the values must be exactly what
pyarrow's to_pylist gives, for every type, and the objects must behave like plain Python ones."""

import datetime
import decimal
import gc
import time

import pyarrow as pa
import pytest

import fluss
from conftest import read_all

# Every Fluss type: the flat ones the native path converts, then the ones it leaves to pyarrow.
SCHEMA = pa.schema([
    ("b", pa.bool_()),
    ("i8", pa.int8()),
    ("i16", pa.int16()),
    ("i32", pa.int32()),
    ("i64", pa.int64()),
    ("f32", pa.float32()),
    ("f64", pa.float64()),
    ("s", pa.string()),
    ("bin", pa.binary()),
    ("fixed", pa.binary(3)),
    ("d", pa.date32()),
    ("t", pa.time32("ms")),
    ("ts", pa.timestamp("us")),
    ("tsz", pa.timestamp("us", tz="UTC")),
    ("dec", pa.decimal128(12, 3)),
    ("arr", pa.list_(pa.int32())),
    ("m", pa.map_(pa.string(), pa.int64())),
    ("r", pa.struct([("x", pa.int32()), ("y", pa.string())])),
])

ROWS = [
    {"b": True, "i8": -128, "i16": 32767, "i32": -2**31, "i64": 2**63 - 1, "f32": 1.5, "f64": -0.1,
     "s": "héllo wörld ✓", "bin": b"\x00\xff", "fixed": b"abc", "d": datetime.date(2024, 2, 29),
     "t": datetime.time(23, 59, 59, 999000), "ts": datetime.datetime(1999, 12, 31, 23, 59, 59, 123456),
     "tsz": datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc), "dec": decimal.Decimal("-123456789.012"),
     "arr": [1, None, 3], "m": [("k", 1), ("z", None)], "r": {"x": 7, "y": "seven"}},
    {"b": False, "i8": 127, "i16": -32768, "i32": 2**31 - 1, "i64": -2**63, "f32": -3.25e-5, "f64": float("inf"),
     "s": "", "bin": b"", "fixed": b"\x00\x00\x00", "d": datetime.date(1, 1, 1), "t": datetime.time(0, 0),
     "ts": datetime.datetime(1970, 1, 1), "tsz": datetime.datetime(1969, 7, 20, 20, 17, tzinfo=datetime.timezone.utc),
     "dec": decimal.Decimal("0.000"), "arr": [], "m": [], "r": {"x": None, "y": None}},
    {name: None for name in SCHEMA.names},
]


async def _poll_records(table, n, buckets=1):
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(buckets)})
    records = []
    deadline = time.monotonic() + 30
    while len(records) < n and time.monotonic() < deadline:
        records += await scanner.poll_async(5000)
    return records


async def _id_table(conn, admin, database, name):
    """A new one-bucket table of one BIGINT column `id`, and an append writer of it."""
    path = fluss.TablePath(database, name)
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(pa.schema([("id", pa.int64())])), bucket_count=1))
    table = await conn.get_table(path)
    return table, await table.new_append_writer()


async def test_record_rows_equal_pyarrow_values_for_every_type(conn, admin, database):
    path = fluss.TablePath(database, "record_rows_types")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(SCHEMA), bucket_count=1))
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    for row in ROWS:
        writer.append(row)
    await writer.flush()
    records = await _poll_records(table, len(ROWS))
    rows = [r.row for r in records]
    assert rows == (await read_all(table, 1)).to_pylist()
    assert rows[0] == ROWS[0]
    assert rows[2] == ROWS[2]
    # f32 keeps the float32 value; inf stays inf
    assert rows[1]["f32"] == float(pa.scalar(-3.25e-5, pa.float32()).as_py()) and rows[1]["f64"] == float("inf")
    assert {k: v for k, v in rows[1].items() if k not in ("f32",)} == {k: v for k, v in ROWS[1].items() if k != "f32"}
    assert [type(v) for v in rows[0].values()] == [type(v) for v in ROWS[0].values()]
    assert [r.offset for r in records] == [0, 1, 2]


async def test_records_are_read_only_and_not_tracked_by_the_gc(conn, admin, database):
    table, writer = await _id_table(conn, admin, database, "record_rows_ro")
    writer.append({"id": 5})
    await writer.flush()
    (record,) = await _poll_records(table, 1)
    assert isinstance(record, fluss.ScanRecord)
    assert (record.offset, record.row, record.change_type) == (0, {"id": 5}, fluss.ChangeType.AppendOnly)
    for name in ("bucket", "offset", "timestamp", "change_type", "row"):
        with pytest.raises(AttributeError, match="read-only"):
            setattr(record, name, None)
        with pytest.raises(AttributeError, match="read-only"):
            delattr(record, name)
    assert not gc.is_tracked(record)
    assert "offset=0" in repr(record) and "'id': 5" in repr(record)
    # One made by hand behaves the same.
    tb = fluss.TableBucket(1, 2)
    made = fluss.ScanRecord(tb, 3, 4, fluss.ChangeType.Insert, {"a": 1})
    assert (made.bucket, made.offset, made.timestamp, made.change_type, made.row) == (tb, 3, 4, fluss.ChangeType.Insert, {"a": 1})
    with pytest.raises(AttributeError):
        made.offset = 9


async def test_rows_of_one_batch_share_one_handle(bootstrap_servers, admin, database):
    # A batch timeout no pause of a loaded machine reaches: the 100 rows stay in one batch.
    conn = await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": bootstrap_servers,
                                                             "client.writer.batch-timeout": "10 min"}))
    try:
        await _check_one_handle_per_batch(conn, admin, database)
    finally:
        conn.close()


async def _check_one_handle_per_batch(conn, admin, database):
    table, writer = await _id_table(conn, admin, database, "record_rows_handles")
    handles = [writer.append({"id": i}) for i in range(100)]
    assert all(h is handles[0] for h in handles)  # one open batch, one handle object
    await writer.flush()
    after = writer.append({"id": 100})  # a new batch after the flush: a new handle
    assert after is not handles[0]
    await writer.flush()  # (the batch timeout is 10 min: flush sends it)
    await after.wait()
    assert handles[0].done and after.done
    assert (await read_all(table, 1)).column("id").to_pylist() == list(range(101))


async def test_append_argument_errors(conn, admin, database):
    table, writer = await _id_table(conn, admin, database, "record_rows_args")
    writer.append({"id": 1})
    with pytest.raises(fluss.FlussError, match="dict, list or tuple"):
        writer.append(None)
    with pytest.raises(TypeError):
        writer.append()
    with pytest.raises(TypeError):
        writer.append({"id": 2}, {"id": 3})
    with pytest.raises(fluss.FlussError, match="'id'"):
        writer.append({"id": "two"})
    writer.append([4])
    await writer.flush()
    assert (await read_all(table, 1)).column("id").to_pylist() == [1, 4]


async def test_lookup_rows_equal_pyarrow_values_for_every_type(conn, admin, database):
    from conftest import new_table

    schema = pa.schema([pa.field("id", pa.int64(), nullable=False)] + list(SCHEMA))
    table = await new_table(conn, admin, database, "record_rows_lookup", schema, ["id"], bucket_count=2)
    writer = table.new_upsert()
    expected = [{"id": i, **row} for i, row in enumerate(ROWS)]
    for row in expected:
        writer.upsert(row)
    await writer.flush()
    lookuper = table.new_lookup()
    got = [await lookuper.lookup({"id": i}) for i in range(len(ROWS))]
    assert got[0] == expected[0] and got[2] == expected[2]
    assert got == [{k: (pa.scalar(v, pa.float32()).as_py() if k == "f32" and v is not None else v) for k, v in row.items()}
                   for row in expected]
    assert await lookuper.lookup({"id": 99}) is None
