"""Writes to partitioned log tables on the real cluster: every row lands in its partition (append,
write_arrow_batch, write_pandas), partitions created after the writer was made are found, a row
for a missing partition fails its handle and flush with PARTITION_NOT_EXISTS while the rest is
written, and client.writer.dynamic-create-partition.enabled creates it instead."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pytest

import fluss

SCHEMA = pa.schema([pa.field("id", pa.int32()), pa.field("region", pa.string()), pa.field("value", pa.int64())])


async def make_table(admin, database, name, regions, bucket_count=1, schema=SCHEMA, partition_keys=("region",),
                     bucket_keys=None):
    path = fluss.TablePath(database, name)
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema), partition_keys=list(partition_keys),
                                                         bucket_count=bucket_count, bucket_keys=bucket_keys))
    for r in regions:
        await admin.create_partition(path, {partition_keys[0]: r})
    return path


async def partition_ids(admin, path):
    return {p.partition_name: p.partition_id for p in await admin.list_partition_infos(path)}


async def read_partition(table, partition_id, bucket_count=1):
    """Every row of one partition, in offset order per bucket."""
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_partition_buckets({(partition_id, b): fluss.EARLIEST_OFFSET for b in range(bucket_count)})
    t = scanner.to_arrow()
    return sorted(zip(*[t.column(c).to_pylist() for c in t.column_names]))


async def row_counts(admin, path, names, bucket_count=1):
    """Rows per partition from the latest offsets (ListOffsets at the leaders)."""
    out = {}
    for n in names:
        offsets = await admin.list_partition_offsets(path, n, list(range(bucket_count)), "latest")
        out[n] = sum(offsets.values())
    return out


async def test_append_routes_every_row_to_its_partition(conn, admin, database):
    path = await make_table(admin, database, "events", ["US", "EU", "APAC"], bucket_count=2)
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    rows = [{"id": i, "region": ["US", "EU", "APAC"][i % 3], "value": i * 10} for i in range(30)]
    for r in rows:
        writer.append(r)
    await writer.flush()
    ids = await partition_ids(admin, path)
    assert await row_counts(admin, path, ["US", "EU", "APAC"], 2) == {"US": 10, "EU": 10, "APAC": 10}
    for region in ["US", "EU", "APAC"]:
        got = await read_partition(table, ids[region], 2)
        assert got == sorted((r["id"], r["region"], r["value"]) for r in rows if r["region"] == region)


async def test_partition_created_after_the_writer_is_found(conn, admin, database):
    path = await make_table(admin, database, "late", ["US"])
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    writer.append({"id": 1, "region": "US", "value": 1})
    await writer.flush()
    await admin.create_partition(path, {"region": "EU"})
    handle = writer.append({"id": 2, "region": "EU", "value": 2})
    await writer.flush()
    await handle.wait()
    ids = await partition_ids(admin, path)
    assert await read_partition(table, ids["EU"]) == [(2, "EU", 2)]
    assert await read_partition(table, ids["US"]) == [(1, "US", 1)]


async def test_missing_partition_fails_its_rows_and_flush_but_keeps_the_rest(conn, admin, database):
    path = await make_table(admin, database, "missing", ["US"])
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    ok = writer.append({"id": 1, "region": "US", "value": 1})
    bad = writer.append({"id": 2, "region": "MARS", "value": 2})
    ok2 = writer.append({"id": 3, "region": "US", "value": 3})
    with pytest.raises(fluss.FlussError) as flushed:
        await writer.flush()
    assert flushed.value.error_code == 36, flushed.value
    assert "MARS" in str(flushed.value)
    with pytest.raises(fluss.FlussError) as handled:
        await bad.wait()
    assert handled.value.error_code == 36 and "MARS" in str(handled.value)
    await ok.wait()
    await ok2.wait()
    # The writer goes on: later rows of existing partitions are written, the failure was reported.
    writer.append({"id": 4, "region": "US", "value": 4})
    await writer.flush()
    ids = await partition_ids(admin, path)
    assert list(ids) == ["US"]  # nothing was created
    assert await read_partition(table, ids["US"]) == [(1, "US", 1), (3, "US", 3), (4, "US", 4)]


async def test_dynamic_partition_creation_when_enabled(bootstrap_servers, admin, database):
    path = await make_table(admin, database, "dynamic", ["US"])
    c = await fluss.FlussConnection.connect(fluss.Config({
        "bootstrap.servers": bootstrap_servers, "client.writer.dynamic-create-partition.enabled": "true"}))
    try:
        table = await c.get_table(path)
        writer = await table.new_append_writer()
        for i, region in enumerate(["US", "EU", "EU", "APAC"]):
            writer.append({"id": i, "region": region, "value": i})
        await writer.flush()
        ids = await partition_ids(admin, path)
        assert sorted(ids) == ["APAC", "EU", "US"]
        assert await read_partition(table, ids["EU"]) == [(1, "EU", 1), (2, "EU", 2)]
        assert await read_partition(table, ids["APAC"]) == [(3, "APAC", 3)]
    finally:
        c.close()


async def test_write_arrow_batch_splits_per_partition_in_order(conn, admin, database):
    path = await make_table(admin, database, "arrow", ["US", "EU", "APAC"])
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    regions = ["US", "EU", "APAC", "EU", "US", "US", "APAC"] * 50
    batch = pa.RecordBatch.from_pydict(
        {"id": list(range(len(regions))), "region": regions, "value": [i * 7 for i in range(len(regions))]},
        schema=SCHEMA)
    handle = writer.write_arrow_batch(batch)
    await writer.flush()
    await handle.wait()
    ids = await partition_ids(admin, path)
    for region in ["US", "EU", "APAC"]:
        scanner = await table.new_scan().create_batch_scanner()
        scanner.subscribe_partition(partition_id=ids[region], bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)
        t = scanner.to_arrow()
        want = [i for i, r in enumerate(regions) if r == region]
        assert t.column("id").to_pylist() == want  # offset order = input order
        assert t.column("region").to_pylist() == [region] * len(want)
        assert t.column("value").to_pylist() == [i * 7 for i in want]


async def test_write_pandas_and_bucket_keys_split_per_partition_and_bucket(conn, admin, database):
    path = await make_table(admin, database, "pandas", ["US", "EU"], bucket_count=3, bucket_keys=["id"])
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    df = pd.DataFrame({"id": pd.array(range(60), dtype="int32"), "region": ["US", "EU"] * 30,
                       "value": pd.array([i * 3 for i in range(60)], dtype="int64")})
    writer.write_pandas(df)
    await writer.flush()
    ids = await partition_ids(admin, path)
    for region in ["US", "EU"]:
        got = await read_partition(table, ids[region], 3)
        assert got == sorted((i, region, i * 3) for i in range(60) if (i % 2 == 0) == (region == "US"))
    # Rows with one id went to one bucket in each partition: the same id in both partitions,
    # written again, goes to the same bucket number (bucketing ignores the partition).
    assert sum((await admin.list_partition_offsets(path, "US", [0, 1, 2], "latest")).values()) == 30


async def test_write_arrow_batch_with_a_bad_partition_value_writes_nothing(conn, admin, database):
    path = await make_table(admin, database, "badvalue", ["US"])
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    queued = writer.append({"id": 0, "region": "US", "value": 0})
    batch = pa.RecordBatch.from_pydict({"id": [1, 2], "region": ["US", None], "value": [1, 2]}, schema=SCHEMA)
    with pytest.raises(fluss.FlussError) as e:
        writer.write_arrow_batch(batch)
    assert "region" in str(e.value) and "row 1" in str(e.value)
    with pytest.raises(fluss.FlussError) as e:
        writer.append({"id": 3, "region": "U S", "value": 3})
    assert "region" in str(e.value)
    await writer.flush()
    await queued.wait()
    ids = await partition_ids(admin, path)
    assert await read_partition(table, ids["US"]) == [(0, "US", 0)]


async def test_two_partition_keys_of_other_types(conn, admin, database):
    schema = pa.schema([pa.field("id", pa.int32()), pa.field("day", pa.date32()), pa.field("shard", pa.int16())])
    path = fluss.TablePath(database, "twokeys")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema), partition_keys=["day", "shard"],
                                                         bucket_count=1))
    await admin.create_partition(path, {"day": "2025-05-27", "shard": "3"})
    await admin.create_partition(path, {"day": "2025-05-28", "shard": "-1"})
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    import datetime
    d1, d2 = datetime.date(2025, 5, 27), datetime.date(2025, 5, 28)
    writer.append({"id": 1, "day": d1, "shard": 3})
    writer.append({"id": 2, "day": d2, "shard": -1})
    writer.append({"id": 3, "day": d1, "shard": 3})
    await writer.flush()
    ids = await partition_ids(admin, path)
    assert sorted(ids) == ["2025-05-27$3", "2025-05-28$-1"]
    assert await read_partition(table, ids["2025-05-27$3"]) == [(1, d1, 3), (3, d1, 3)]
    assert await read_partition(table, ids["2025-05-28$-1"]) == [(2, d2, -1)]


async def test_auto_partitioned_table_is_created_listed_written_and_read(conn, admin, database):
    import asyncio
    path = fluss.TablePath(database, "auto")
    schema = pa.schema([pa.field("id", pa.int32()), pa.field("dt", pa.string()), pa.field("value", pa.int64())])
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema), partition_keys=["dt"], bucket_count=1,
                                                         properties={"table.auto-partition.enabled": "true",
                                                                     "table.auto-partition.time-unit": "DAY",
                                                                     "table.auto-partition.num-precreate": "2"}))
    info = (await conn.get_table(path)).get_table_info()
    assert info.get_properties()["table.auto-partition.enabled"] == "true"
    # The coordinator creates the current and the next partition itself, right after the table.
    names = []
    for _ in range(200):
        names = sorted(p.partition_name for p in await admin.list_partition_infos(path))
        if len(names) >= 2:
            break
        await asyncio.sleep(0.1)
    assert len(names) == 2 and all(len(n) == 8 and n.isdigit() for n in names), names  # yyyyMMdd
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    for i, n in enumerate(names * 2):
        writer.append({"id": i, "dt": n, "value": i})
    await writer.flush()
    ids = await partition_ids(admin, path)
    assert await read_partition(table, ids[names[0]]) == [(0, names[0], 0), (2, names[0], 2)]
    assert await read_partition(table, ids[names[1]]) == [(1, names[1], 1), (3, names[1], 3)]


async def test_partition_dropped_while_writing_fails_only_its_rows(conn, admin, database):
    import asyncio
    path = await make_table(admin, database, "dropped", ["US", "EU"])
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    writer.append({"id": 0, "region": "US", "value": 0})
    writer.append({"id": 0, "region": "EU", "value": 0})
    await writer.flush()
    await admin.drop_partition(path, {"region": "EU"})
    # The tablet server stops the dropped partition's replica shortly after the coordinator
    # dropped it; writes that reach it before are still acknowledged. Write until they fail.
    us_ids = [0]
    failure = None
    for i in range(1, 201):
        gone = writer.append({"id": i, "region": "EU", "value": i})
        kept = writer.append({"id": i, "region": "US", "value": i})
        us_ids.append(i)
        try:
            await writer.flush()
        except fluss.FlussError as e:
            failure = e
            await kept.wait()  # the other partition's rows of the same flush are written
            with pytest.raises(fluss.FlussError) as handle_error:
                await gone.wait()
            assert handle_error.value.error_code == 36
            break
        await asyncio.sleep(0.05)
    assert failure is not None, "writes to the dropped partition kept succeeding"
    assert failure.error_code == 36 and "'EU'" in str(failure), failure
    # Re-created under the same name: a new partition id, and the same writer writes to it.
    await admin.create_partition(path, {"region": "EU"})
    writer.append({"id": 1000, "region": "EU", "value": 5})
    await writer.flush()
    ids = await partition_ids(admin, path)
    assert await read_partition(table, ids["US"]) == [(i, "US", i) for i in us_ids]
    assert await read_partition(table, ids["EU"]) == [(1000, "EU", 5)]


async def test_partition_values_of_other_types_in_specs(conn, admin, database):
    import datetime
    schema = pa.schema([pa.field("id", pa.int32()), pa.field("flag", pa.bool_()), pa.field("day", pa.date32())])
    path = fluss.TablePath(database, "typed_specs")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema), partition_keys=["flag", "day"],
                                                         bucket_count=1))
    day = datetime.date(2025, 5, 27)
    await admin.create_partition(path, {"flag": True, "day": day})  # spelled as rows are: true$2025-05-27
    infos = await admin.list_partition_infos(path)
    assert [p.partition_name for p in infos] == ["true$2025-05-27"]
    assert [p.partition_name for p in await admin.list_partition_infos(path, partition_spec={"flag": True})] == \
        ["true$2025-05-27"]
    assert await admin.list_partition_infos(path, partition_spec={"flag": False}) == []
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    writer.append({"id": 1, "flag": True, "day": day})
    await writer.flush()
    assert await read_partition(table, infos[0].partition_id) == [(1, True, day)]
    with pytest.raises(fluss.FlussError) as e:
        await admin.create_partition(path, {"flag": 1.5, "day": day})
    assert "flag" in str(e.value) and e.value.error_code == -2
    for bad in ["", None, 3]:
        with pytest.raises(fluss.FlussError) as e:
            await admin.list_partition_offsets(path, bad, [0], "latest")
        assert e.value.error_code == -2 and "partition_name" in str(e.value)
