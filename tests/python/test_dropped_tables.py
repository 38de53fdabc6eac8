"""Handles of a dropped table, or of one dropped and re-created under the same name: lookups,
prefix lookups and limit scans fail at once with TABLE_NOT_EXIST (7), as writes do, instead of
retrying until client.request-timeout."""

from __future__ import annotations

import asyncio

import pyarrow as pa
import pytest

import fluss

SCHEMA = pa.schema([pa.field("k", pa.int32()), pa.field("g", pa.int32()), pa.field("v", pa.string())])


async def make(admin, path):
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(SCHEMA, primary_keys=["g", "k"]),
                                                         bucket_count=2, bucket_keys=["g"]))


async def check_gone(table):
    # A tablet server stops the dropped table's replicas shortly after the coordinator dropped
    # it, and answers until then: look up until it stops answering.
    for _ in range(200):
        try:
            await table.new_lookup().lookup({"k": 1, "g": 1})
        except fluss.FlussError as e:
            assert e.error_code == 7, e
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("lookups of the dropped table kept being answered")
    with pytest.raises(fluss.FlussError) as e:
        await table.new_lookup().lookup_by(["g"]).lookup({"g": 1})
    assert e.value.error_code == 7, e.value
    with pytest.raises(fluss.FlussError) as e:
        await table.new_scan().limit(5).create_bucket_batch_scanner(0).to_arrow()
    assert e.value.error_code == 7, e.value
    writer = table.new_upsert()
    writer.upsert({"k": 2, "g": 2, "v": "late"})
    with pytest.raises(fluss.FlussError) as e:
        await writer.flush()
    assert e.value.error_code == 7, e.value


@pytest.mark.parametrize("recreate", [False, True], ids=["dropped", "recreated"])
async def test_handle_of_a_dropped_table_fails_with_table_not_exist(bootstrap_servers, admin, database, recreate):
    # A request timeout far above the test's runtime: waiting for it would show as code 25.
    conn = await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": bootstrap_servers,
                                                             "client.request-timeout": "10 min",
                                                             "client.writer.delivery-timeout": "10 min"}))
    try:
        path = fluss.TablePath(database, "gone")
        await make(admin, path)
        table = await conn.get_table(path)
        writer = table.new_upsert()
        writer.upsert({"k": 1, "g": 1, "v": "a"})
        await writer.flush()
        assert await table.new_lookup().lookup({"k": 1, "g": 1}) == {"k": 1, "g": 1, "v": "a"}
        await admin.drop_table(path)
        if recreate:
            await make(admin, path)
        await check_gone(table)
        if recreate:
            fresh = await conn.get_table(path)
            assert await fresh.new_lookup().lookup({"k": 1, "g": 1}) is None
    finally:
        conn.close()
