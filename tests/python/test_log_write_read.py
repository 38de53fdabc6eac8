"""Appending to log tables and reading back exact values with the batch scanner."""

import asyncio
import datetime as dt
import decimal

import pyarrow as pa
import pytest

import fluss
from conftest import read_all


async def test_10000_rows_three_buckets_read_back_once(conn, admin, database):
    path = fluss.TablePath(database, "ten_k")
    schema = pa.schema([("id", pa.int64()), ("name", pa.string()), ("score", pa.float64())])
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema), bucket_count=3))
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    expected = {}
    for i in range(10_000):
        row = {"id": i, "name": f"user-{i}", "score": i * 0.5}
        expected[i] = row
        if i % 3 == 0:
            writer.append(row)
        elif i % 3 == 1:
            writer.append([i, f"user-{i}", i * 0.5])
        else:
            writer.append((i, f"user-{i}", i * 0.5))
    await writer.flush()

    result = await read_all(table, 3)
    assert result.schema == schema
    assert result.num_rows == 10_000
    rows = result.to_pylist()
    ids = [r["id"] for r in rows]
    assert sorted(ids) == list(range(10_000))  # every row exactly once
    for r in rows:
        assert r == expected[r["id"]]

    # Rows spread over all three buckets (sticky assignment moves on when a batch closes).
    offsets = await admin.list_offsets(path, bucket_ids=[0, 1, 2], offset_type="latest")
    assert sum(offsets.values()) == 10_000
    # A second read from the same scanner position returns nothing more.


async def test_empty_table_reads_empty_at_once(conn, admin, database):
    path = fluss.TablePath(database, "empty")
    schema = pa.schema([("a", pa.int32()), ("b", pa.string())])
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema), bucket_count=2))
    table = await conn.get_table(path)
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_buckets({0: fluss.EARLIEST_OFFSET, 1: fluss.EARLIEST_OFFSET})
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    result = scanner.to_arrow()
    assert loop.time() - t0 < 2.0
    assert result.num_rows == 0
    assert result.schema == schema
    df = scanner.to_pandas()
    assert list(df.columns) == ["a", "b"] and len(df) == 0


async def test_scanner_resumes_from_its_position(conn, admin, database):
    path = fluss.TablePath(database, "resume")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(pa.schema([("a", pa.int32())]))))
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    for i in range(5):
        writer.append({"a": i})
    await writer.flush()
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)
    assert scanner.to_arrow().column("a").to_pylist() == [0, 1, 2, 3, 4]
    assert scanner.to_arrow().num_rows == 0
    for i in range(5, 8):
        writer.append({"a": i})
    await writer.flush()
    assert (await scanner.to_arrow_async()).column("a").to_pylist() == [5, 6, 7]
    # Start at an explicit offset, and at LATEST (nothing written since).
    s2 = await table.new_scan().create_batch_scanner()
    s2.subscribe(bucket_id=0, start_offset=6)
    assert s2.to_arrow().column("a").to_pylist() == [6, 7]
    s3 = await table.new_scan().create_batch_scanner()
    s3.subscribe(bucket_id=0, start_offset=fluss.LATEST_OFFSET)
    assert s3.to_arrow().num_rows == 0
    with pytest.raises(fluss.FlussError) as e:
        s3.subscribe(bucket_id=1, start_offset=0)
    assert "bucket 1" in e.value.message


SEED_SCHEMA = pa.schema([
    pa.field("b", pa.bool_()),
    pa.field("i8", pa.int8()),
    pa.field("i16", pa.int16()),
    pa.field("i32", pa.int32()),
    pa.field("i64", pa.int64()),
    pa.field("f32", pa.float32()),
    pa.field("f64", pa.float64()),
    pa.field("s", pa.string()),
    pa.field("bin", pa.binary()),
    pa.field("d", pa.date32()),
    pa.field("t", pa.time32("ms")),
    pa.field("ts", pa.timestamp("us")),
    pa.field("ts_ltz", pa.timestamp("us", tz="UTC")),
    pa.field("dec", pa.decimal128(10, 2)),
])


async def test_every_seed_type_round_trips_with_nulls(conn, admin, database):
    path = fluss.TablePath(database, "types")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(SEED_SCHEMA), bucket_count=1))
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    utc = dt.timezone.utc
    row1 = {
        "b": True, "i8": -128, "i16": 32767, "i32": -2147483648, "i64": 9223372036854775807,
        "f32": 1.5, "f64": -2.25, "s": "héllo ✓", "bin": b"\x00\x01\xff",
        "d": dt.date(2024, 2, 29), "t": dt.time(23, 59, 59, 999000),
        "ts": dt.datetime(2024, 1, 2, 3, 4, 5, 123456),
        "ts_ltz": dt.datetime(2024, 1, 2, 3, 4, 5, 654321, tzinfo=dt.timezone(dt.timedelta(hours=2))),
        "dec": decimal.Decimal("12345678.91"),
    }
    row2 = {k: None for k in SEED_SCHEMA.names}
    row3 = {"b": False, "i8": 0, "i16": 0, "i32": 0, "i64": -1, "f32": 0.0, "f64": 1e300, "s": "",
            "bin": b"", "d": dt.date(1969, 12, 31), "t": dt.time(0, 0), "ts": dt.datetime(1960, 6, 1, 12, 0),
            "ts_ltz": dt.datetime(2000, 1, 1), "dec": decimal.Decimal("-0.01")}
    h1 = writer.append(row1)
    writer.append(row2)
    writer.append(list(row3.values()))
    await writer.flush()
    await h1.wait()

    result = await read_all(table, 1)
    assert result.schema == SEED_SCHEMA  # equal Arrow types, the time zone included
    got = result.to_pylist()
    assert len(got) == 3
    expected1 = dict(row1)
    expected1["ts_ltz"] = dt.datetime(2024, 1, 2, 1, 4, 5, 654321, tzinfo=utc)  # converted to UTC
    assert got[0] == expected1
    assert got[1] == row2
    expected3 = dict(row3)
    expected3["ts_ltz"] = dt.datetime(2000, 1, 1, tzinfo=utc)  # naive = UTC
    assert got[2] == expected3


async def test_write_arrow_batch_table_and_pandas(conn, admin, database):
    path = fluss.TablePath(database, "arrow_in")
    schema = pa.schema([("id", pa.int32()), ("name", pa.string()), ("score", pa.float32())])
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema), bucket_count=2))
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    batch = pa.record_batch([pa.array([1, 2], pa.int32()), pa.array(["a", None]), pa.array([0.5, 1.5], pa.float32())],
                            schema=schema)
    handle = writer.write_arrow_batch(batch)
    await handle.wait()
    writer.write_arrow(pa.Table.from_batches([batch.slice(0, 1)]))
    import pandas as pd
    writer.write_pandas(pd.DataFrame({"id": [7], "name": ["p"], "score": [2.5]}))
    await writer.flush()
    result = await read_all(table, 2)
    rows = sorted(result.to_pylist(), key=lambda r: (r["id"], r["name"] or ""))
    assert rows == [
        {"id": 1, "name": "a", "score": 0.5},
        {"id": 1, "name": "a", "score": 0.5},
        {"id": 2, "name": None, "score": 1.5},
        {"id": 7, "name": "p", "score": 2.5},
    ]


async def test_column_projection(conn, admin, database):
    path = fluss.TablePath(database, "proj")
    schema = pa.schema([("id", pa.int32()), ("name", pa.string()), ("score", pa.float32())])
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema)))
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    writer.append({"id": 1, "name": "Alice", "score": 95.5})
    writer.append({"id": 2, "name": "Bob", "score": 87.0})
    await writer.flush()
    s1 = await table.new_scan().project([2, 0]).create_batch_scanner()
    s1.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)
    r1 = s1.to_arrow()
    assert r1.schema.names == ["score", "id"]
    assert r1.to_pylist() == [{"score": 95.5, "id": 1}, {"score": 87.0, "id": 2}]
    s2 = await table.new_scan().project_by_name(["name"]).create_batch_scanner()
    s2.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)
    assert s2.to_arrow().to_pylist() == [{"name": "Alice"}, {"name": "Bob"}]
    with pytest.raises(fluss.FlussError):
        table.new_scan().project([3])
    with pytest.raises(fluss.FlussError) as e:
        table.new_scan().project_by_name(["nope"])
    assert "nope" in e.value.message


async def test_batches_larger_than_the_bucket_fetch_limit_read_back_exactly(bootstrap_servers, admin, database):
    """Batches of ~400 KB in 8 buckets, read with a 16 KB per-bucket fetch limit: the server cuts
    every answer but the first one's at 16 KB; the scanner then asks for the cut batch's whole
    size, and every row comes back once, in order per bucket."""
    path = fluss.TablePath(database, "big_batches")
    schema = pa.schema([("id", pa.int64()), ("text", pa.string())])
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema), bucket_count=8))
    config = {"bootstrap.servers": bootstrap_servers, "client.scanner.log.fetch.max-bytes-for-bucket": "16kb",
              "client.writer.batch-size": "512kb"}
    conn = await fluss.FlussConnection.connect(fluss.Config(config))
    try:
        table = await conn.get_table(path)
        writer = await table.new_append_writer()
        n = 40_000
        for start in range(0, n, 5_000):  # one Arrow batch per write: each goes whole to a bucket
            ids = list(range(start, start + 5_000))
            writer.write_arrow_batch(pa.record_batch([pa.array(ids, pa.int64()),
                                                      pa.array([f"row-{i:08d}-" + "x" * 60 for i in ids])],
                                                     schema=schema))
        await writer.flush()
        got = (await read_all(table, 8)).to_pydict()
        assert sorted(got["id"]) == list(range(n))
        assert all(t == f"row-{i:08d}-" + "x" * 60 for i, t in zip(got["id"], got["text"]))
    finally:
        conn.close()
