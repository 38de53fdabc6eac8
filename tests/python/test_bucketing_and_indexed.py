"""Bucket assignment with bucket keys (Java's buckets), the INDEXED log format, Arrow casts."""

import datetime as dt
import decimal

import pyarrow as pa
import pytest

import fluss
from conftest import read_all


async def _bucket_of_each_row(table, num_buckets, key):
    out = {}
    for b in range(num_buckets):
        scanner = await table.new_scan().create_batch_scanner()
        scanner.subscribe(bucket_id=b, start_offset=fluss.EARLIEST_OFFSET)
        for row in scanner.to_arrow().to_pylist():
            out[key(row)] = b
    return out


# Expected buckets: the Java-verified vectors of protocol-data.md section 7.2 (CompactedKey
# bytes, Fluss murmur variant with sign-extended tail bytes, MathUtils.murmurHash, % buckets).
@pytest.mark.parametrize("num_buckets,expected", [
    (16, {1: 12, 128: 2, -1: 10}),
    (3, {1: 0, 128: 1, -1: 0}),
    (7, {1: 4, 128: 2, -1: 1}),
])
async def test_int_bucket_key_matches_java(conn, admin, database, num_buckets, expected):
    path = fluss.TablePath(database, f"int_key_{num_buckets}")
    schema = fluss.Schema(pa.schema([("k", pa.int32()), ("v", pa.string())]))
    await admin.create_table(path, fluss.TableDescriptor(schema, bucket_count=num_buckets, bucket_keys=["k"]))
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    for k in expected:
        writer.append({"k": k, "v": str(k)})
        writer.append([k, "again"])  # the same key always lands in the same bucket
    await writer.flush()
    got = await _bucket_of_each_row(table, num_buckets, lambda r: (r["k"], r["v"]))
    for k, b in expected.items():
        assert got[(k, str(k))] == b, (k, got)
        assert got[(k, "again")] == b


async def test_string_bigint_and_composite_keys_match_java(conn, admin, database):
    cases = [
        ("s_key", pa.schema([("s", pa.string()), ("n", pa.int32())]), ["s"],
         [({"s": "a", "n": 1}, 11), ({"s": "abc", "n": 2}, 15)]),
        ("big_key", pa.schema([("b", pa.int64()), ("n", pa.int32())]), ["b"], [({"b": -1, "n": 1}, 7)]),
        ("pair_key", pa.schema([("i", pa.int32()), ("s", pa.string())]), ["i", "s"], [({"i": 1, "s": "a"}, 5)]),
    ]
    for name, arrow_schema, keys, rows in cases:
        path = fluss.TablePath(database, name)
        await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(arrow_schema), bucket_count=16,
                                                             bucket_keys=keys))
        table = await conn.get_table(path)
        writer = await table.new_append_writer()
        for row, _ in rows:
            writer.append(row)
        await writer.flush()
        got = await _bucket_of_each_row(table, 16, lambda r: tuple(sorted(r.items())))
        for row, bucket in rows:
            assert got[tuple(sorted(row.items()))] == bucket, (name, row, got)


async def test_arrow_batch_into_bucket_keyed_table_is_split_by_key(conn, admin, database):
    path = fluss.TablePath(database, "arrow_keyed")
    schema = pa.schema([("k", pa.int32()), ("v", pa.int64())])
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema), bucket_count=16, bucket_keys=["k"]))
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    handle = writer.write_arrow_batch(pa.record_batch([pa.array([1, 128, -1], pa.int32()), pa.array([10, 20, 30])],
                                                      schema=schema))
    await handle.wait()
    got = await _bucket_of_each_row(table, 16, lambda r: r["k"])
    assert got == {1: 12, 128: 2, -1: 10}


async def test_null_bucket_key_is_rejected(conn, admin, database):
    path = fluss.TablePath(database, "null_key")
    schema = fluss.Schema(pa.schema([("k", pa.int32()), ("v", pa.string())]))
    await admin.create_table(path, fluss.TableDescriptor(schema, bucket_count=2, bucket_keys=["k"]))
    writer = await (await conn.get_table(path)).new_append_writer()
    with pytest.raises(fluss.FlussError) as e:
        writer.append({"k": None, "v": "x"})
    assert "'k'" in e.value.message


INDEXED_SCHEMA = pa.schema([
    pa.field("id", pa.int32()),
    pa.field("name", pa.string()),
    pa.field("amount", pa.decimal128(20, 3)),
    pa.field("small", pa.decimal128(6, 2)),
    pa.field("ts", pa.timestamp("us")),
    pa.field("ts_ms", pa.timestamp("ms", tz="UTC")),
    pa.field("d", pa.date32()),
    pa.field("t", pa.time32("ms")),
    pa.field("flag", pa.bool_()),
    pa.field("raw", pa.binary()),
    pa.field("f", pa.float64()),
])


async def test_indexed_log_format_written_and_read(conn, admin, database):
    path = fluss.TablePath(database, "indexed")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(INDEXED_SCHEMA), bucket_count=2,
                                                         log_format="INDEXED"))
    info = await admin.get_table(path)
    assert info.get_properties()["table.log.format"] == "INDEXED"
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    utc = dt.timezone.utc
    rows = [
        {"id": 1, "name": "one", "amount": decimal.Decimal("12345678901234567.891"), "small": decimal.Decimal("-1.25"),
         "ts": dt.datetime(1969, 12, 31, 23, 59, 59, 999999), "ts_ms": dt.datetime(2024, 5, 6, 7, 8, 9, 123000, tzinfo=utc),
         "d": dt.date(2000, 1, 1), "t": dt.time(12, 34, 56, 789000), "flag": True, "raw": b"\x00\xff", "f": 1.5},
        {k: None for k in INDEXED_SCHEMA.names} | {"id": 2},
    ]
    for r in rows:
        writer.append(r)
    arrow_rows = pa.Table.from_pylist([rows[0] | {"id": 3}], schema=INDEXED_SCHEMA).to_batches()[0]
    writer.write_arrow_batch(arrow_rows)
    await writer.flush()
    result = await read_all(table, 2)
    assert result.schema == INDEXED_SCHEMA
    got = sorted(result.to_pylist(), key=lambda r: r["id"])
    assert got == [rows[0], rows[1], rows[0] | {"id": 3}]
    # Projection is applied in the client for INDEXED tables, in the requested order.
    scanner = await table.new_scan().project_by_name(["flag", "id"]).create_batch_scanner()
    scanner.subscribe_buckets({0: fluss.EARLIEST_OFFSET, 1: fluss.EARLIEST_OFFSET})
    projected = scanner.to_arrow()
    assert projected.schema.names == ["flag", "id"]
    assert sorted(projected.to_pylist(), key=lambda r: r["id"]) == [
        {"flag": True, "id": 1}, {"flag": None, "id": 2}, {"flag": True, "id": 3}]
    # And the record scanner polls INDEXED batches too.
    rs = await table.new_scan().create_log_scanner()
    rs.subscribe_buckets({0: fluss.EARLIEST_OFFSET, 1: fluss.EARLIEST_OFFSET})
    seen = []
    for _ in range(10):
        seen += rs.poll(timeout_ms=1000)
        if len(seen) == 3:
            break
    assert sorted(r.row["id"] for r in seen) == [1, 2, 3]


async def test_arrow_input_types_outside_the_table_are_cast_when_lossless(conn, admin, database):
    path = fluss.TablePath(database, "casts")
    schema = pa.schema([("s", pa.string()), ("n", pa.int64()), ("ts", pa.timestamp("us"))])
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema)))
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    batch = pa.record_batch([pa.array(["x"], pa.large_string()), pa.array([7], pa.int32()),
                             pa.array([1_000], pa.timestamp("ms"))], names=["s", "n", "ts"])
    await writer.write_arrow_batch(batch).wait()
    assert (await read_all(table, 1)).to_pylist() == [
        {"s": "x", "n": 7, "ts": dt.datetime(1970, 1, 1, 0, 0, 1)}]
    # Integers of another width or sign are taken value by value: a uint64 beyond BIGINT is not.
    bad = pa.record_batch([pa.array(["x"]), pa.array([2**63], pa.uint64()), pa.array([1], pa.timestamp("us"))],
                          names=["s", "n", "ts"])
    with pytest.raises(fluss.FlussError) as e:
        writer.write_arrow_batch(bad)
    assert "'n'" in e.value.message and "uint64" in e.value.message
    lossy = pa.record_batch([pa.array(["x"]), pa.array([7]), pa.array([1001], pa.timestamp("ns"))],
                            names=["s", "n", "ts"])
    with pytest.raises(fluss.FlussError) as e:
        writer.write_arrow_batch(lossy)
    assert "'ts'" in e.value.message


async def test_uint64_schema_is_rejected_naming_the_field(admin, database):
    with pytest.raises(fluss.FlussError) as e:
        await admin.create_table(fluss.TablePath(database, "u64"),
                                 fluss.TableDescriptor(fluss.Schema(pa.schema([("id", pa.int32()), ("big", pa.uint64())]))))
    assert "'big'" in e.value.message
