"""Schema changes on three tablet servers: the tablet servers learn a new schema a moment after
the coordinator (writes with the new schema id meanwhile get SCHEMA_NOT_EXIST, which the writer
retries), so a write through a handle taken right after alter_table succeeds, reads back with
the new column, and every row is there once."""

from __future__ import annotations

import asyncio

import pyarrow as pa

import fluss

from conftest import PAD, close_quietly, connect, new_table, read_all_ids, rows_batch


async def test_write_right_after_alter_table_is_retried_until_the_servers_know_the_schema(cluster):
    conn = await connect(cluster, {"client.request-timeout": "10s", "client.writer.delivery-timeout": "60s"})
    try:
        admin = await conn.get_admin()
        for attempt in range(3):
            path, table = await new_table(conn, admin, f"f_alter{attempt}")
            writer = await table.new_append_writer()
            writer.write_arrow_batch(rows_batch(0, 10))
            await asyncio.wait_for(writer.flush(), 60)
            await asyncio.wait_for(admin.alter_table(path, add_columns=[pa.field("extra", pa.string())]), 60)
            fresh = await conn.get_table(path)
            new_writer = await fresh.new_append_writer()
            handles = [new_writer.append({"id": i, "k": i % 12, "pad": PAD, "extra": f"e{i}"}) for i in range(10, 20)]
            await asyncio.wait_for(new_writer.flush(), 90)
            for h in handles:
                await h.wait()
            assert sorted(await read_all_ids(fresh)) == list(range(20))
            scanner = await fresh.new_scan().create_batch_scanner()
            scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
            t = scanner.to_arrow()
            extra = dict(zip(t.column("id").to_pylist(), t.column("extra").to_pylist()))
            assert extra == {**{i: None for i in range(10)}, **{i: f"e{i}" for i in range(10, 20)}}
    finally:
        close_quietly(conn)
