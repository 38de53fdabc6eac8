"""Log scanners of partitioned tables on the real cluster: subscriptions per partition bucket
(EARLIEST, LATEST, explicit offsets), unsubscribe_partition, records that name their partition
(ids as list_partition_infos gives them), bounded reads over several partitions, a partition
dropped mid-scan while another keeps flowing, and the bucket calls refused on the wrong kind of
table."""

from __future__ import annotations

import asyncio
import logging
import time

import pyarrow as pa
import pytest

import fluss

SCHEMA = pa.schema([pa.field("id", pa.int32()), pa.field("region", pa.string()), pa.field("value", pa.int64())])


async def make_table(admin, database, name, regions, bucket_count=1):
    path = fluss.TablePath(database, name)
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(SCHEMA), partition_keys=["region"],
                                                         bucket_count=bucket_count, bucket_keys=["id"]))
    for r in regions:
        await admin.create_partition(path, {"region": r})
    ids = {p.partition_name: p.partition_id for p in await admin.list_partition_infos(path)}
    assert sorted(ids) == sorted(regions)
    return path, ids


async def write(table, rows):
    writer = await table.new_append_writer()
    for i, region in rows:
        writer.append({"id": i, "region": region, "value": i * 10})
    await writer.flush()


async def poll_records(scanner, count, timeout_s=20.0):
    """Records until ``count`` arrived (the test fails on a poll error or after timeout_s)."""
    out = []
    deadline = time.monotonic() + timeout_s
    while len(out) < count and time.monotonic() < deadline:
        out.extend(await scanner.poll_async(500))
    return out


def key(record):
    """(partition_id, bucket, offset, id, region, value) of a ScanRecord."""
    r = record.row
    return (record.bucket.partition_id, record.bucket.bucket_id, record.offset, r["id"], r["region"], r["value"])


async def test_records_name_their_partition_and_bucket(conn, admin, database):
    path, ids = await make_table(admin, database, "events", ["US", "EU"], bucket_count=2)
    table = await conn.get_table(path)
    table_id = table.get_table_info().table_id
    await write(table, [(i, "US") for i in range(10)] + [(i, "EU") for i in range(10, 20)])
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_partition_buckets({(pid, b): fluss.EARLIEST_OFFSET for pid in ids.values() for b in (0, 1)})
    batches = []
    deadline = time.monotonic() + 20
    while sum(b.batch.num_rows for b in batches) < 20 and time.monotonic() < deadline:
        batches.extend(await scanner.poll_batches_async(500))
    by_partition = {}
    for b in batches:
        assert b.bucket.table_id == table_id
        assert b.bucket == fluss.TableBucket.with_partition(table_id, b.bucket.partition_id, b.bucket.bucket_id)
        assert b.bucket.bucket_id in (0, 1)
        assert b.last_offset - b.base_offset + 1 == b.batch.num_rows
        by_partition.setdefault(b.bucket.partition_id, []).extend(b.batch.to_pylist())
    assert sorted(by_partition) == sorted(ids.values())
    assert sorted((r["id"], r["region"], r["value"]) for r in by_partition[ids["US"]]) == [(i, "US", i * 10) for i in range(10)]
    assert sorted((r["id"], r["region"], r["value"]) for r in by_partition[ids["EU"]]) == [(i, "EU", i * 10) for i in range(10, 20)]


async def test_earliest_latest_and_explicit_offsets_per_partition_bucket(conn, admin, database):
    path, ids = await make_table(admin, database, "offsets", ["US", "EU"], bucket_count=2)
    us, eu = ids["US"], ids["EU"]
    table = await conn.get_table(path)
    await write(table, [(i, "US") for i in range(10)] + [(i, "EU") for i in range(10, 20)])
    # Where every row is: (partition, bucket) -> [(offset, id)].
    everything = await table.new_scan().create_log_scanner()
    everything.subscribe_partition_buckets({(p, b): fluss.EARLIEST_OFFSET for p in (us, eu) for b in (0, 1)})
    placed = {}
    for r in await poll_records(everything, 20):
        placed.setdefault((r.bucket.partition_id, r.bucket.bucket_id), []).append((r.offset, r.row["id"]))
    assert sum(len(v) for v in placed.values()) == 20
    for rows in placed.values():
        assert [o for o, _ in rows] == list(range(len(rows)))  # offsets 0.. in order per bucket
    assert all(len(placed.get((p, b), [])) >= 1 for p in (us, eu) for b in (0, 1)), placed

    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe_partition(us, 0, 1)                           # explicit offset
    scanner.subscribe_partition(us, 1, fluss.LATEST_OFFSET)         # only what comes later
    scanner.subscribe_partition(eu, 0, fluss.EARLIEST_OFFSET)
    last_eu1 = len(placed[(eu, 1)]) - 1
    scanner.subscribe_partition_buckets({(eu, 1): last_eu1})
    expected = ([(us, 0, o, i) for o, i in placed[(us, 0)] if o >= 1] + [(eu, 0, o, i) for o, i in placed[(eu, 0)]] +
                [(eu, 1, o, i) for o, i in placed[(eu, 1)] if o == last_eu1])
    got = await poll_records(scanner, len(expected))
    assert sorted(k[:4] for k in map(key, got)) == sorted(expected)
    assert all(k[4] == ("US" if k[0] == us else "EU") and k[5] == k[3] * 10 for k in map(key, got))
    assert await scanner.poll_async(300) == []
    # New rows: every bucket of US (the LATEST one included) goes on from where it was.
    await write(table, [(i, "US") for i in range(100, 110)])
    new = await poll_records(scanner, 10)
    assert sorted(k[3] for k in map(key, new)) == list(range(100, 110))
    assert {k[0] for k in map(key, new)} == {us}
    ends = {b: len(placed[(us, b)]) for b in (0, 1)}
    for k in map(key, new):
        assert k[2] >= ends[k[1]]  # after the rows that were there at subscribe time


async def test_unsubscribe_partition(conn, admin, database):
    path, ids = await make_table(admin, database, "unsub", ["US", "EU"])
    table = await conn.get_table(path)
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe_partition_buckets({(ids["US"], 0): fluss.EARLIEST_OFFSET, (ids["EU"], 0): fluss.EARLIEST_OFFSET})
    await write(table, [(1, "US"), (2, "EU")])
    got = await poll_records(scanner, 2)
    assert sorted(key(r) for r in got) == sorted([(ids["US"], 0, 0, 1, "US", 10), (ids["EU"], 0, 0, 2, "EU", 20)])
    scanner.unsubscribe_partition(ids["EU"], 0)
    scanner.unsubscribe_partition(ids["EU"], 0)  # not subscribed: no error
    await write(table, [(3, "EU"), (4, "US")])
    assert [key(r) for r in await poll_records(scanner, 1)] == [(ids["US"], 0, 1, 4, "US", 40)]
    assert await scanner.poll_async(300) == []


async def test_to_arrow_and_to_pandas_over_two_partitions(conn, admin, database):
    path, ids = await make_table(admin, database, "bounded", ["US", "EU", "APAC"])
    table = await conn.get_table(path)
    await write(table, [(1, "US"), (2, "EU"), (3, "APAC"), (4, "US"), (5, "EU")])
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_partition(ids["US"], 0, fluss.EARLIEST_OFFSET)
    scanner.subscribe_partition(ids["EU"], 0, fluss.EARLIEST_OFFSET)
    t = scanner.to_arrow()
    assert t.schema == SCHEMA
    assert sorted(t.to_pylist(), key=lambda r: r["id"]) == [
        {"id": 1, "region": "US", "value": 10}, {"id": 2, "region": "EU", "value": 20},
        {"id": 4, "region": "US", "value": 40}, {"id": 5, "region": "EU", "value": 50}]
    assert scanner.to_arrow().num_rows == 0  # at the end of both
    await write(table, [(6, "EU"), (7, "APAC")])
    assert scanner.to_pandas().to_dict("records") == [{"id": 6, "region": "EU", "value": 60}]
    projected = await table.new_scan().project_by_name(["value", "id"]).create_batch_scanner()
    projected.subscribe_partition_buckets({(pid, 0): fluss.EARLIEST_OFFSET for pid in ids.values()})
    t = await projected.to_arrow_async()
    assert t.column_names == ["value", "id"]
    assert sorted(t.column("id").to_pylist()) == [1, 2, 3, 4, 5, 6, 7]
    assert sorted(t.column("value").to_pylist()) == [10, 20, 30, 40, 50, 60, 70]


async def test_dropped_partition_leaves_while_another_keeps_flowing(conn, admin, database, caplog):
    path, ids = await make_table(admin, database, "dropped", ["US", "EU"])
    table = await conn.get_table(path)
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe_partition_buckets({(ids["US"], 0): fluss.EARLIEST_OFFSET, (ids["EU"], 0): fluss.EARLIEST_OFFSET})
    await write(table, [(1, "US"), (2, "EU")])
    assert len(await poll_records(scanner, 2)) == 2
    with caplog.at_level(logging.WARNING, logger="fluss"):
        await admin.drop_partition(path, {"region": "EU"})
        # Rows written to the surviving partition after the drop are read; no poll fails.
        await write(table, [(3, "US"), (4, "US")])
        got = await poll_records(scanner, 2)
        assert [key(r) for r in got] == [(ids["US"], 0, 1, 3, "US", 30), (ids["US"], 0, 2, 4, "US", 40)]
        deadline = time.monotonic() + 10
        while not any(str(ids["EU"]) in m for m in caplog.messages) and time.monotonic() < deadline:
            assert await scanner.poll_async(200) == []
    dropped = [m for m in caplog.messages if "partition" in m and str(ids["EU"]) in m]
    assert len(dropped) == 1, caplog.messages
    assert "does not exist on the server" in dropped[0] and path.table_path_str() in dropped[0]
    await write(table, [(5, "US")])
    assert [r.row for r in await poll_records(scanner, 1)] == [{"id": 5, "region": "US", "value": 50}]


async def test_partition_dropped_before_to_arrow_is_left_out(conn, admin, database, caplog):
    path, ids = await make_table(admin, database, "dropped_before", ["US", "EU"])
    table = await conn.get_table(path)
    await write(table, [(1, "US"), (2, "EU"), (3, "US")])
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_partition_buckets({(ids["US"], 0): fluss.EARLIEST_OFFSET, (ids["EU"], 0): fluss.LATEST_OFFSET})
    await admin.drop_partition(path, {"region": "EU"})
    with caplog.at_level(logging.WARNING, logger="fluss"):
        t = scanner.to_arrow()
    assert sorted(t.column("id").to_pylist()) == [1, 3]
    assert any(str(ids["EU"]) in m for m in caplog.messages), caplog.messages


async def test_async_iteration_over_partitions(conn, admin, database):
    path, ids = await make_table(admin, database, "aiter", ["US", "EU"])
    table = await conn.get_table(path)
    await write(table, [(1, "US"), (2, "EU")])
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_partition_buckets({(pid, 0): fluss.EARLIEST_OFFSET for pid in ids.values()})
    seen = {}

    async def collect():
        async for item in scanner:
            for row in item.batch.to_pylist():
                seen[row["id"]] = item.bucket.partition_id
            if len(seen) == 2:
                return

    await asyncio.wait_for(collect(), 20)
    assert seen == {1: ids["US"], 2: ids["EU"]}
    assert scanner.poll_arrow(200).num_rows == 0


async def test_bucket_calls_refused_on_the_wrong_kind_of_table(conn, admin, database):
    path, ids = await make_table(admin, database, "refused", ["US"], bucket_count=2)
    table = await conn.get_table(path)
    scanner = await table.new_scan().create_log_scanner()
    for call in (lambda: scanner.subscribe(0, fluss.EARLIEST_OFFSET),
                 lambda: scanner.subscribe_buckets({0: fluss.EARLIEST_OFFSET}),
                 lambda: scanner.unsubscribe(0)):
        with pytest.raises(fluss.FlussError, match="is partitioned: use subscribe_partition") as e:
            call()
        assert e.value.error_code == -2
    us = ids["US"]
    bad = [
        (lambda: scanner.subscribe_partition(-1, 0, 0), "partition_id must be an int >= 0, got -1"),
        (lambda: scanner.subscribe_partition("1", 0, 0), "partition_id must be an int >= 0, got '1'"),
        (lambda: scanner.subscribe_partition(True, 0, 0), "partition_id must be an int >= 0, got True"),
        (lambda: scanner.subscribe_partition(us, 2, 0), "bucket 2 is outside table"),
        (lambda: scanner.subscribe_partition(us, -1, 0), "bucket_id must be an int >= 0, got -1"),
        (lambda: scanner.subscribe_partition(us, 0, -3), "start_offset must be an offset >= 0"),
        (lambda: scanner.subscribe_partition(us, 0, 1.5), "start_offset must be an offset >= 0"),
        (lambda: scanner.subscribe_partition_buckets({us: 0}), r"keys must be \(partition_id, bucket_id\) tuples"),
        (lambda: scanner.subscribe_partition_buckets([(us, 0)]), "must be a dict"),
        (lambda: scanner.unsubscribe_partition(us, "0"), "bucket_id must be an int >= 0"),
    ]
    for call, message in bad:
        with pytest.raises(fluss.FlussError, match=message) as e:
            call()
        assert e.value.error_code == -2
    # A bad item subscribes none of the items.
    with pytest.raises(fluss.FlussError, match="bucket 5 is outside"):
        scanner.subscribe_partition_buckets({(us, 0): fluss.EARLIEST_OFFSET, (us, 1): fluss.EARLIEST_OFFSET,
                                             (us, 5): fluss.EARLIEST_OFFSET})
    await write(table, [(1, "US")])
    with pytest.raises(fluss.FlussError, match="no subscription"):
        scanner.poll(100)
    # A non-partitioned table refuses the partition calls.
    plain = fluss.TablePath(database, "plain")
    await admin.create_table(plain, fluss.TableDescriptor(fluss.Schema(SCHEMA), bucket_count=1))
    plain_scanner = await (await conn.get_table(plain)).new_scan().create_batch_scanner()
    for call in (lambda: plain_scanner.subscribe_partition(0, 0, 0),
                 lambda: plain_scanner.subscribe_partition_buckets({(0, 0): 0}),
                 lambda: plain_scanner.unsubscribe_partition(0, 0)):
        with pytest.raises(fluss.FlussError, match="is not partitioned: use subscribe"):
            call()
    plain_scanner.subscribe(0, fluss.EARLIEST_OFFSET)


async def test_blocking_polls_over_partitions(conn, admin, database):
    path, ids = await make_table(admin, database, "blocking", ["US", "EU"])
    table = await conn.get_table(path)
    await write(table, [(1, "US"), (2, "EU"), (3, "US")])
    offsets = {(pid, 0): fluss.EARLIEST_OFFSET for pid in ids.values()}
    arrow_scanner = await table.new_scan().create_batch_scanner()
    arrow_scanner.subscribe_partition_buckets(offsets)
    rows = []
    deadline = time.monotonic() + 20
    while len(rows) < 3 and time.monotonic() < deadline:
        t = arrow_scanner.poll_arrow(500)
        assert t.schema == SCHEMA
        rows.extend(t.to_pylist())
    assert sorted(r["id"] for r in rows) == [1, 2, 3]
    assert arrow_scanner.poll_arrow(200).num_rows == 0
    record_scanner = await table.new_scan().create_log_scanner()
    record_scanner.subscribe_partition_buckets(offsets)
    records = []
    deadline = time.monotonic() + 20
    while len(records) < 3 and time.monotonic() < deadline:
        records.extend(record_scanner.poll(500))
    assert sorted(key(r) for r in records) == sorted([(ids["US"], 0, 0, 1, "US", 10), (ids["EU"], 0, 0, 2, "EU", 20),
                                                      (ids["US"], 0, 1, 3, "US", 30)])
    assert f"partition_id={ids['US']}, bucket=0" in repr(next(r for r in records if r.row["id"] == 1))


async def test_changelog_of_a_partitioned_primary_key_table(conn, admin, database):
    path = fluss.TablePath(database, "users")
    schema = fluss.Schema(pa.schema([pa.field("user_id", pa.int32()), pa.field("region", pa.string()),
                                     pa.field("score", pa.int64())]), primary_keys=["user_id", "region"])
    await admin.create_table(path, fluss.TableDescriptor(schema, partition_keys=["region"], bucket_count=1))
    for r in ("US", "EU"):
        await admin.create_partition(path, {"region": r})
    ids = {p.partition_name: p.partition_id for p in await admin.list_partition_infos(path)}
    table = await conn.get_table(path)
    writer = table.new_upsert()
    writer.upsert({"user_id": 1, "region": "US", "score": 10})
    writer.upsert({"user_id": 1, "region": "EU", "score": 20})
    await writer.flush()
    writer.upsert({"user_id": 1, "region": "US", "score": 11})
    writer.delete({"user_id": 1, "region": "EU"})
    await writer.flush()
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe_partition_buckets({(pid, 0): fluss.EARLIEST_OFFSET for pid in ids.values()})
    records = await poll_records(scanner, 5)
    got = sorted((r.bucket.partition_id, r.offset, r.change_type.short_string(), r.row["score"]) for r in records)
    assert got == sorted([(ids["US"], 0, "+I", 10), (ids["US"], 1, "-U", 10), (ids["US"], 2, "+U", 11),
                          (ids["EU"], 0, "+I", 20), (ids["EU"], 1, "-D", 20)])


async def test_partition_arguments_of_numpy_ints_and_out_of_range(conn, admin, database):
    import numpy as np
    path = fluss.TablePath(database, "np_args")
    schema = pa.schema([pa.field("id", pa.int32()), pa.field("region", pa.string())])
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema), partition_keys=["region"],
                                                         bucket_count=2))
    await admin.create_partition(path, {"region": "US"})
    pid = (await admin.list_partition_infos(path))[0].partition_id
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    writer.append({"id": 7, "region": "US"})
    await writer.flush()
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_partition_buckets({(np.int64(pid), np.int32(b)): fluss.EARLIEST_OFFSET for b in range(2)})
    assert scanner.to_arrow().column("id").to_pylist() == [7]
    for args in [(pid, 0, 10**30), (pid, 0, -3), (2**63, 0, 0), (pid, 2, 0)]:
        with pytest.raises(fluss.FlussError) as e:
            scanner.subscribe_partition(*args)
        assert e.value.error_code == -2, args
    with pytest.raises(fluss.FlussError) as e:
        scanner.unsubscribe_partition(pid, 5)
    assert e.value.error_code == -2 and "outside" in str(e.value)
    scanner.unsubscribe_partition(np.int64(pid), 1)  # subscribed: fine; unsubscribed again: a no-op
    scanner.unsubscribe_partition(pid, 1)
