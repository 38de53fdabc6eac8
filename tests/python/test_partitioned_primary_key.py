"""Partitioned primary-key tables on the real cluster: upserts, deletes and lookups with the
partition columns in the key, a lookup in a partition that does not exist is None, prefix
lookups within one partition, and the same key in two partitions holds two rows."""

from __future__ import annotations

import asyncio

import pyarrow as pa
import pytest

import fluss

USERS = pa.schema([pa.field("user_id", pa.int32()), pa.field("region", pa.string()), pa.field("score", pa.int64())])


async def users_table(admin, database, regions, name="users", bucket_count=2):
    path = fluss.TablePath(database, name)
    schema = fluss.Schema(USERS, primary_keys=["user_id", "region"])
    await admin.create_table(path, fluss.TableDescriptor(schema, partition_keys=["region"], bucket_count=bucket_count))
    for r in regions:
        await admin.create_partition(path, {"region": r})
    return path


async def test_upsert_delete_lookup_per_partition(conn, admin, database):
    path = await users_table(admin, database, ["US", "EU"])
    table = await conn.get_table(path)
    writer = table.new_upsert()
    for i in range(20):
        writer.upsert({"user_id": i, "region": "US", "score": i * 100})
        writer.upsert({"user_id": i, "region": "EU", "score": -i})
    await writer.flush()
    writer.upsert({"user_id": 3, "region": "US", "score": 3333})
    writer.delete({"user_id": 4, "region": "EU"})
    await writer.flush()

    lookuper = table.new_lookup()
    for i in range(20):
        us = await lookuper.lookup({"user_id": i, "region": "US"})
        assert us == {"user_id": i, "region": "US", "score": 3333 if i == 3 else i * 100}
        eu = await lookuper.lookup({"user_id": i, "region": "EU"})
        assert eu == (None if i == 4 else {"user_id": i, "region": "EU", "score": -i})


async def test_lookup_in_a_partition_that_does_not_exist_is_none(conn, admin, database):
    path = await users_table(admin, database, ["US"])
    table = await conn.get_table(path)
    writer = table.new_upsert()
    writer.upsert({"user_id": 1, "region": "US", "score": 1})
    await writer.flush()
    lookuper = table.new_lookup()
    assert await lookuper.lookup({"user_id": 1, "region": "MARS"}) is None
    assert await lookuper.lookup({"user_id": 1, "region": "US"}) == {"user_id": 1, "region": "US", "score": 1}
    # A partition created afterwards is found by the same lookuper.
    await admin.create_partition(path, {"region": "MARS"})
    writer.upsert({"user_id": 1, "region": "MARS", "score": 2})
    await writer.flush()
    assert await lookuper.lookup({"user_id": 1, "region": "MARS"}) == {"user_id": 1, "region": "MARS", "score": 2}


async def test_upsert_to_a_missing_partition_fails_with_partition_not_exists(conn, admin, database):
    path = await users_table(admin, database, ["US"])
    table = await conn.get_table(path)
    writer = table.new_upsert()
    good = writer.upsert({"user_id": 1, "region": "US", "score": 1})
    bad = writer.upsert({"user_id": 1, "region": "EU", "score": 1})
    with pytest.raises(fluss.FlussError) as e:
        await writer.flush()
    assert e.value.error_code == 36 and "EU" in str(e.value)
    with pytest.raises(fluss.FlussError):
        await bad.wait()
    await good.wait()
    assert await table.new_lookup().lookup({"user_id": 1, "region": "US"}) == {"user_id": 1, "region": "US", "score": 1}


async def test_lookup_key_without_the_partition_column_is_refused(conn, admin, database):
    path = await users_table(admin, database, ["US"])
    table = await conn.get_table(path)
    with pytest.raises(fluss.FlussError) as e:
        await table.new_lookup().lookup({"user_id": 1, "region": None})
    assert "region" in str(e.value)


async def test_prefix_lookup_within_a_partition(conn, admin, database):
    schema = pa.schema([pa.field("tenant", pa.int32()), pa.field("day", pa.string()), pa.field("item", pa.int32()),
                        pa.field("qty", pa.int64())])
    path = fluss.TablePath(database, "orders")
    await admin.create_table(path, fluss.TableDescriptor(
        fluss.Schema(schema, primary_keys=["tenant", "day", "item"]), partition_keys=["day"],
        bucket_count=3, bucket_keys=["tenant"]))
    for d in ["2025-01-01", "2025-01-02"]:
        await admin.create_partition(path, {"day": d})
    table = await conn.get_table(path)
    writer = table.new_upsert()
    for tenant in range(4):
        for item in range(3):
            writer.upsert({"tenant": tenant, "day": "2025-01-01", "item": item, "qty": tenant * 10 + item})
            writer.upsert({"tenant": tenant, "day": "2025-01-02", "item": item, "qty": -(tenant * 10 + item)})
    await writer.flush()
    prefix = table.new_lookup().lookup_by(["day", "tenant"])
    rows = await prefix.lookup({"tenant": 2, "day": "2025-01-02"})
    assert sorted((r["item"], r["qty"]) for r in rows) == [(0, -20), (1, -21), (2, -22)]
    rows = await prefix.lookup({"tenant": 3, "day": "2025-01-01"})
    assert sorted((r["item"], r["qty"]) for r in rows) == [(0, 30), (1, 31), (2, 32)]
    assert await prefix.lookup({"tenant": 3, "day": "2025-01-03"}) == []


async def test_limit_scans_of_partitions(conn, admin, database):
    path = await users_table(admin, database, ["US", "EU"], bucket_count=1)
    table = await conn.get_table(path)
    writer = table.new_upsert()
    for i in range(5):
        writer.upsert({"user_id": i, "region": "US", "score": i})
        writer.upsert({"user_id": i, "region": "EU", "score": -i})
    await writer.flush()
    info = table.get_table_info()
    ids = {p.partition_name: p.partition_id for p in await admin.list_partition_infos(path)}
    eu = await table.new_scan().limit(100).create_bucket_batch_scanner(
        fluss.TableBucket.with_partition(info.table_id, ids["EU"], 0)).to_arrow()
    assert sorted(zip(eu.column("user_id").to_pylist(), eu.column("region").to_pylist(),
                      eu.column("score").to_pylist())) == [(i, "EU", -i) for i in range(5)]
    two = await table.new_scan().limit(2).create_bucket_batch_scanner(
        fluss.TableBucket.with_partition(info.table_id, ids["US"], 0)).to_arrow()
    assert two.num_rows == 2 and set(two.column("region").to_pylist()) == {"US"}
    with pytest.raises(fluss.FlussError) as e:
        table.new_scan().limit(1).create_bucket_batch_scanner(0)
    assert "partitioned" in str(e.value)
    await admin.drop_partition(path, {"region": "EU"})
    gone = table.new_scan().limit(1).create_bucket_batch_scanner(
        fluss.TableBucket.with_partition(info.table_id, ids["EU"], 0))
    with pytest.raises(fluss.FlussError) as e:
        # The coordinator forgets a dropped partition within moments; until then it is read.
        for _ in range(200):
            await gone.to_arrow()
            gone = table.new_scan().limit(1).create_bucket_batch_scanner(
                fluss.TableBucket.with_partition(info.table_id, ids["EU"], 0))
            await asyncio.sleep(0.05)
    assert e.value.error_code == 36, e.value


async def test_limit_scan_of_a_partitioned_log_table(conn, admin, database):
    path = fluss.TablePath(database, "plog")
    schema = pa.schema([pa.field("id", pa.int32()), pa.field("region", pa.string())])
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema), partition_keys=["region"],
                                                         bucket_count=1))
    await admin.create_partition(path, {"region": "US"})
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    for i in range(10):
        writer.append({"id": i, "region": "US"})
    await writer.flush()
    pid = (await admin.list_partition_infos(path))[0].partition_id
    t = await table.new_scan().limit(4).create_bucket_batch_scanner(
        fluss.TableBucket.with_partition(table.get_table_info().table_id, pid, 0)).to_arrow()
    assert t.column("id").to_pylist() == [6, 7, 8, 9]  # the last records, as Java's LimitBatchScanner


async def test_old_handles_after_a_partition_is_dropped_and_recreated(bootstrap_servers, admin, database):
    # A request timeout well above what the test needs: a lookup stuck on the old partition id
    # would fail with 25 instead of answering.
    conn = await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": bootstrap_servers,
                                                             "client.request-timeout": "20 s"}))
    try:
        path = await users_table(admin, database, ["A", "B"], bucket_count=1)
        table = await conn.get_table(path)
        writer = table.new_upsert()
        writer.upsert({"user_id": 1, "region": "A", "score": 1})
        writer.upsert({"user_id": 1, "region": "B", "score": 10})
        await writer.flush()
        lookuper = table.new_lookup()
        prefix = table.new_lookup()
        assert await lookuper.lookup({"user_id": 1, "region": "A"}) == {"user_id": 1, "region": "A", "score": 1}
        await admin.drop_partition(path, {"region": "A"})
        await admin.create_partition(path, {"region": "A"})
        # The re-created partition is empty, and the old writer writes into it.
        for _ in range(200):
            if await lookuper.lookup({"user_id": 1, "region": "A"}) is None:
                break
            await asyncio.sleep(0.05)  # the server still answers from the dropped replica
        else:
            raise AssertionError("the dropped partition's row stayed visible")
        writer.upsert({"user_id": 2, "region": "A", "score": 2})
        await writer.flush()
        assert await lookuper.lookup({"user_id": 2, "region": "A"}) == {"user_id": 2, "region": "A", "score": 2}
        assert await prefix.lookup({"user_id": 1, "region": "B"}) == {"user_id": 1, "region": "B", "score": 10}
    finally:
        conn.close()
