"""Partitioned tables under faults: writes to the partitions of a log table and of a primary-key
table and a scan of the partitions across a leader kill, and a partition dropped mid-scan."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Dict, List, Set, Tuple

import pyarrow as pa
import pytest

import fluss
from conftest import (
    PAD,
    BackgroundPoll,
    bucket_leaders,
    close_quietly,
    connect,
    dup_count,
    new_table,
    pick,
    read_changelog,
    record_stats,
    retry,
    ts_id,
    victim_of,
)

REGIONS = ["r0", "r1", "r2"]
LOG_SCHEMA = fluss.Schema(pa.schema([("id", pa.int64()), ("region", pa.string()), ("pad", pa.string())]))
KV_SCHEMA = fluss.Schema(pa.schema([pa.field("id", pa.int64(), nullable=False),
                                    pa.field("region", pa.string(), nullable=False), pa.field("v", pa.int64())]),
                         primary_keys=["id", "region"])


def region(i: int) -> str:
    return REGIONS[i % len(REGIONS)]


def log_row(i: int) -> dict:
    return {"id": i, "region": region(i), "pad": PAD}


def kv_row(i: int) -> dict:
    return {"id": i, "region": region(i), "v": i * 7}


async def partitioned_table(conn, admin, prefix: str, schema: fluss.Schema, bucket_keys=None):
    """A fresh table partitioned by region (partitions r0, r1, r2; 3 buckets each; replication
    factor 3); returns (path, table, {partition name: partition id})."""
    path, table = await new_table(conn, admin, prefix, schema=schema, bucket_keys=bucket_keys,
                                  partition_keys=["region"], partitions=REGIONS)
    ids = {p.partition_name: p.partition_id for p in await retry(lambda: admin.list_partition_infos(path))}
    assert sorted(ids) == REGIONS, ids
    return path, table, ids


async def led_by(admin, path, partition_ids: Dict[str, int], ts: int) -> Set[Tuple[int, int]]:
    """The (partition id, bucket) of ``path`` that tablet server ``ts`` leads."""
    out = set()
    for name, pid in partition_ids.items():
        for b, leader in (await bucket_leaders(admin, path, name) or {}).items():
            if leader == ts:
                out.add((pid, b))
    return out


async def partition_ends(admin, path, partition_ids: Dict[str, int]) -> Dict[Tuple[int, int], int]:
    """{(partition id, bucket): latest offset} of every partition bucket."""
    out = {}
    for name, pid in partition_ids.items():
        offs = await retry(lambda: asyncio.wait_for(
            admin.list_partition_offsets(path, name, [0, 1, 2], fluss.OffsetType.LATEST), 60))
        out.update({(pid, b): o for b, o in offs.items()})
    return out


# ------------------------------------------------------------------------------- kill during writes and scans


@pytest.mark.soak_scenario
async def test_partitioned_writes_and_scans_across_a_leader_kill(cluster, soak_run):
    """kill -9 of a tablet server leading buckets of both a partitioned log table and a
    partitioned primary-key table (3 partitions x 3 buckets each), then its restart, while rows
    are appended (short 30,000, long 120,000) and upserted (half as many, distinct keys) to every
    partition and a record scanner polls every partition bucket of the log table. Every row
    whose handle succeeded is read back exactly once: by the poller (offsets of each partition
    bucket contiguous from 0, no record twice), by a bounded read after the restart, and in the
    primary-key table's changelog (one +I per key, nothing else) and by lookups; rows whose
    handle failed at most once.

    Server behaviour (Fluss 0.9.1) this needs the fault profile's
    log.replica.min-in-sync-replicas-number 2 for (tools/local-cluster): right after the
    partitions are created a leader may shrink a bucket's ISR to itself, and under these writes
    the followers may not rejoin before the kill; with the default 1 the writes are acknowledged
    by that leader alone, the bucket has no leader after the kill, and the restarted server
    truncates its log to its last checkpointed high watermark before leading again (97
    acknowledged upserts lost in one run; the writer then got OUT_OF_ORDER_SEQUENCE: the server
    had forgotten sequences it acknowledged)."""
    n = pick(30_000, 120_000)
    conn = await connect(cluster, {"client.request-timeout": "5s"})
    try:
        admin = await conn.get_admin()
        log_path, log_table, log_ids = await partitioned_table(conn, admin, "f_kill_plog", LOG_SCHEMA, ["id"])
        kv_path, kv_table, kv_ids = await partitioned_table(conn, admin, "f_kill_pkv", KV_SCHEMA)
        victim, _ = await victim_of(admin, log_path, 0, REGIONS[0])
        log_victim = await led_by(admin, log_path, log_ids, ts_id(victim))
        kv_victim = await led_by(admin, kv_path, kv_ids, ts_id(victim))
        assert log_victim and kv_victim, f"{victim} leads {log_victim} of the log table and {kv_victim} of the kv table"
        every_log_bucket = {(pid, b) for pid in log_ids.values() for b in range(3)}

        scanner = await log_table.new_scan().create_log_scanner()
        scanner.subscribe_partition_buckets({key: fluss.EARLIEST_OFFSET for key in every_log_bucket})
        poller = BackgroundPoll(scanner)
        appender = await log_table.new_append_writer()
        upserter = kv_table.new_upsert()
        log_handles, kv_handles = [], []
        chunk = 200
        kill_at = n // 3
        pace = pick(20, 40) * chunk / (n - kill_at)
        fault = None
        first_after = None  # the first id written once the victim was gone
        for s in range(0, n, chunk):
            if s >= kill_at and fault is None:
                fault = cluster.crash_soon(victim)
            if first_after is None and fault is not None and fault.killed_at is not None:
                first_after = s
            for i in range(s, min(s + chunk, n)):
                log_handles.append(appender.append(log_row(i)))
                if i % 2 == 0:
                    kv_handles.append((i, upserter.upsert(kv_row(i))))
            await asyncio.sleep(pace if s >= kill_at else 0)
        await asyncio.wait_for(fault, 300)
        log_results = await asyncio.wait_for(
            asyncio.gather(*(h.wait() for h in log_handles), return_exceptions=True), 300)
        kv_results = await asyncio.wait_for(
            asyncio.gather(*(h.wait() for _, h in kv_handles), return_exceptions=True), 300)
        log_failed = {i for i, r in enumerate(log_results) if isinstance(r, BaseException)}
        kv_failed = {i for (i, _), r in zip(kv_handles, kv_results) if isinstance(r, BaseException)}
        await poller.finish(n)

        # The poller: every record once, offsets contiguous per partition bucket.
        gaps = poller.offset_gaps()
        polled_ids = [r.row["id"] for r in poller.records]
        misplaced = [r for r in poller.records if r.row["region"] != region(r.row["id"])
                     or log_ids[r.row["region"]] != r.bucket.partition_id]
        # A bounded read after the restart.
        reader = await log_table.new_scan().create_batch_scanner()
        reader.subscribe_partition_buckets({key: fluss.EARLIEST_OFFSET for key in every_log_bucket})
        read_ids = (await asyncio.wait_for(reader.to_arrow_async(), 180)).column("id").to_pylist()
        log_must = set(range(n)) - log_failed

        # The primary-key table: its changelog and lookups.
        kv_ends = await partition_ends(admin, kv_path, kv_ids)
        changes = await kv_table.new_scan().create_log_scanner()
        changes.subscribe_partition_buckets({key: fluss.EARLIEST_OFFSET for key in kv_ends})
        records, problems = await read_changelog(changes, {key: end - 1 for key, end in kv_ends.items()}, bound=300)
        kv_written = {i for i, _ in kv_handles}
        kv_must = kv_written - kv_failed
        inserted = [r.row["id"] for r in records if r.change_type.short_string() == "+I"]
        not_inserts = [r for r in records if r.change_type.short_string() != "+I"]
        wrong_rows = [r for r in records if r.row != kv_row(r.row["id"]) or kv_ids[r.row["region"]] != r.bucket.partition_id]
        lookuper = kv_table.new_lookup()
        keys = sorted(kv_written)
        found = []
        for s in range(0, len(keys), 500):
            part = keys[s:s + 500]
            found += await asyncio.wait_for(
                asyncio.gather(*(lookuper.lookup({"id": i, "region": region(i)}) for i in part)), 180)
        wrong_lookups = [(i, row) for i, row in zip(keys, found)
                         if row != kv_row(i) and not (row is None and i in kv_failed)]

        recover = poller.recovery(log_victim, fault.killed_at, n if first_after is None else first_after)
        lost = len(log_must - set(polled_ids)) + len(log_must - set(read_ids)) + len(kv_must - set(inserted))
        duplicated = poller.repeats() + dup_count(read_ids) + dup_count(inserted)
        present_failed = len(log_failed & set(read_ids)) + len(kv_failed & set(inserted))
        record_stats("kill_partitioned", rows=n + len(kv_written), acked=len(log_must) + len(kv_must), lost=lost,
                     duplicated=duplicated, failed_but_present=present_failed,
                     failed=len(log_failed) + len(kv_failed), recover_s=round(max(recover), 2) if recover else float("nan"),
                     victim=victim)
        assert poller.repeats() == 0, f"{poller.repeats()} records polled twice"
        assert not gaps, {key: f"{c} records, not offsets 0..{c - 1}" for key, c in gaps.items()}
        assert not misplaced, misplaced[:5]
        assert dup_count(polled_ids) == 0 and log_must <= set(polled_ids) <= set(range(n)), (
            f"poller: {len(log_must - set(polled_ids))} acknowledged rows missing, {dup_count(polled_ids)} twice")
        assert dup_count(read_ids) == 0 and log_must <= set(read_ids) <= set(range(n)), (
            f"bounded read: {len(log_must - set(read_ids))} acknowledged rows missing, {dup_count(read_ids)} twice")
        assert not problems, problems[:5]
        assert not not_inserts, not_inserts[:5]
        assert not wrong_rows, wrong_rows[:5]
        assert dup_count(inserted) == 0 and kv_must <= set(inserted) <= kv_written, (
            f"changelog: {len(kv_must - set(inserted))} acknowledged upserts missing, {dup_count(inserted)} twice")
        assert not wrong_lookups, wrong_lookups[:5]
        # The poller read the victim's buckets again after the kill.
        assert len(recover) == len(log_victim), (recover, log_victim)
    finally:
        close_quietly(conn)


# ------------------------------------------------------------------------------- a partition dropped mid-scan


@pytest.mark.soak_scenario
async def test_partition_dropped_mid_scan_leaves_and_the_others_are_read_whole(cluster, soak_run, caplog):
    """A partition dropped while two scanners read the table (3 partitions x 3 buckets, short
    30,000 rows, long 90,000; small batches and fetches, so reads take many rounds): a polling
    batch scanner that has read part of every partition, and a to_arrow_async() (of another
    connection, fetching ~1 batch per request) started 0.2 s before the drop. As README and LogScanner.subscribe_partition say: no error, no hang; the
    dropped partition leaves a scanner's subscription once the coordinator confirms it is gone,
    with one warning on the ``fluss`` logger naming the table and the partition id; its rows
    read before are each there once; every row of the other partitions is read exactly once,
    and rows appended to them afterwards are polled. (The bounded read races the drop: it may
    finish the dropped partition first; then it has every row and no warning.)"""
    n = pick(30_000, 90_000)
    assert n % 3 == 0
    conn = await connect(cluster, {"client.request-timeout": "10s", "writer.batch.size": "8kb",
                                   "client.scanner.log.fetch.max-bytes-for-bucket": "16kb",
                                   "client.scanner.log.fetch.max-bytes": "48kb"})
    try:
        admin = await conn.get_admin()
        path, table, ids = await partitioned_table(conn, admin, "f_drop_scan", LOG_SCHEMA, ["id"])
        writer = await table.new_append_writer()
        for s in range(0, n, 5000):
            for i in range(s, min(s + 5000, n)):
                writer.append(log_row(i))
            await asyncio.sleep(0)
        await asyncio.wait_for(writer.flush(), 180)
        every = {(pid, b): fluss.EARLIEST_OFFSET for pid in ids.values() for b in range(3)}
        dropped, kept = REGIONS[1], [REGIONS[0], REGIONS[2]]
        by_region = {r: [i for i in range(n) if region(i) == r] for r in REGIONS}
        marker = f"partition {ids[dropped]} "

        def warnings() -> List[str]:
            return [m for m in caplog.messages if marker in m]

        poller = await table.new_scan().create_batch_scanner()
        poller.subscribe_partition_buckets(every)
        polled: Dict[str, List[int]] = {r: [] for r in REGIONS}

        async def poll_once():
            for rb in await asyncio.wait_for(poller.poll_batches_async(1000), 60):
                polled[rb.batch.column(1)[0].as_py()].extend(rb.batch.column(0).to_pylist())

        deadline = time.monotonic() + 120
        while not all(polled[r] for r in REGIONS):
            assert time.monotonic() < deadline, {r: len(v) for r, v in polled.items()}
            await poll_once()
        partial = len(polled[dropped])
        # The bounded read fetches about one batch per leader per request (it takes ~1 s on an
        # idle machine), so the drop lands while it runs.
        reader_conn = await connect(cluster, {"client.request-timeout": "10s",
                                              "client.scanner.log.fetch.max-bytes": "1kb",
                                              "client.scanner.log.fetch.max-bytes-for-bucket": "1kb"})
        reader = await (await reader_conn.get_table(path)).new_scan().create_batch_scanner()
        reader.subscribe_partition_buckets(every)
        with caplog.at_level(logging.WARNING, logger="fluss"):
            read = asyncio.ensure_future(reader.to_arrow_async())
            await asyncio.sleep(0.2)
            await asyncio.wait_for(admin.drop_partition(path, {"region": dropped}), 60)
            t_drop = time.monotonic()
            try:
                got = await asyncio.wait_for(read, 180)
            finally:
                close_quietly(reader_conn)
            reader_warned = len(warnings())  # the poller has not polled since the drop
            deadline = time.monotonic() + 120
            while not all(len(polled[r]) >= len(by_region[r]) for r in kept) or len(warnings()) == reader_warned:
                assert time.monotonic() < deadline, ({r: len(v) for r, v in polled.items()}, caplog.messages)
                await poll_once()
            took = time.monotonic() - t_drop
            # Rows appended to a surviving partition (n % 3 == 0: r0) afterwards are polled.
            for i in (n, n + 3):
                writer.append(log_row(i))
            await asyncio.wait_for(writer.flush(), 60)
            deadline = time.monotonic() + 60
            while not {n, n + 3} <= set(polled[REGIONS[0]]):
                assert time.monotonic() < deadline, "rows appended after the drop were not polled"
                await poll_once()
            await poll_once()
        read_by_region: Dict[str, List[int]] = {r: [] for r in REGIONS}
        for i, r in zip(got.column("id").to_pylist(), got.column("region").to_pylist()):
            read_by_region[r].append(i)
        lost = sum(len(set(by_region[r]) - set(d[r])) for d in (polled, read_by_region) for r in kept)
        record_stats("drop_partition_scan", rows=n, acked=n, lost=lost,
                     duplicated=sum(dup_count(v) for d in (polled, read_by_region) for v in d.values()),
                     failed_but_present=0, dropped_rows_polled=len(polled[dropped]),
                     dropped_rows_read=len(read_by_region[dropped]), partial_at_drop=partial,
                     read_saw_drop=bool(reader_warned), recover_s=round(took, 2))
        assert len(warnings()) == reader_warned + 1 and reader_warned <= 1, caplog.messages
        assert all("does not exist on the server" in m and path.table_path_str() in m for m in warnings()), warnings()
        extra = {REGIONS[0]: [n, n + 3]}
        for name, d, more in (("poller", polled, extra), ("to_arrow", read_by_region, {})):
            for r in kept:
                assert sorted(d[r]) == sorted(by_region[r] + more.get(r, [])), (name, r, len(d[r]))
            assert dup_count(d[dropped]) == 0 and set(d[dropped]) <= set(by_region[dropped]), name
        if not reader_warned:  # the bounded read finished before the drop reached it
            assert sorted(read_by_region[dropped]) == by_region[dropped], len(read_by_region[dropped])
        # The drop came mid-scan for the poller: it had read part of the dropped partition only.
        assert partial < len(by_region[dropped]), partial
    finally:
        close_quietly(conn)
