"""Readers under faults: bounded reads after a failover, polls across killed and frozen
leaders, cancelled reads."""

from __future__ import annotations

import asyncio
import time

import pytest

import fluss
from conftest import (
    BackgroundPoll,
    close_quietly,
    connect,
    dup_count,
    latest_offsets,
    leader_proc,
    new_table,
    pick,
    record_stats,
    retry,
    rows_batch,
    victim_of,
)


async def _write(table, start: int, n: int, chunk: int = 5000, bound: float = 180) -> None:
    writer = await table.new_append_writer()
    for s in range(start, start + n, chunk):
        writer.write_arrow_batch(rows_batch(s, min(chunk, start + n - s)))
    await asyncio.wait_for(writer.flush(), bound)


# ------------------------------------------------------------------------------- contract 2


@pytest.mark.soak_scenario
async def test_bounded_read_after_failover_sees_every_bucket(cluster, soak_run):
    """30,000 rows over 3 buckets (acks all); a table handle whose metadata still names the old
    leader; kill -9 of that leader, failover, restart (it rejoins as a follower); at once, a
    bounded read from the stale handle returns exactly the 30,000 rows, each once, and the
    latest offsets sum to 30,000."""
    n = 30_000
    conn = await connect(cluster, {"client.request-timeout": "10s"})
    try:
        admin = await conn.get_admin()
        path, table = await new_table(conn, admin, "f_failover_read")
        await _write(table, 0, n)
        stale = await conn.get_table(path)
        warm = await stale.new_scan().create_batch_scanner()
        warm.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
        assert (await asyncio.wait_for(warm.to_arrow_async(), 120)).num_rows == n  # leaders cached
        victim = await leader_proc(admin, path, 0)
        t_kill = time.monotonic()
        await cluster.akill(victim, wait=True)
        await cluster.arestart(victim)
        scanner = await stale.new_scan().create_batch_scanner()
        scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
        got = await asyncio.wait_for(scanner.to_arrow_async(), 180)
        recover_s = time.monotonic() - t_kill
        ids = got.column("id").to_pylist()
        offsets = await retry(lambda: latest_offsets(admin, path))
        lost = n - len(set(ids) & set(range(n)))
        record_stats("failover_bounded_read", rows=n, lost=lost, duplicated=dup_count(ids), failed_but_present=0,
                     recover_s=round(recover_s, 2), victim=victim)
        assert sorted(ids) == list(range(n)), f"{len(ids)} rows, {len(set(ids))} distinct (want {n})"
        assert sum(offsets.values()) == n, offsets
    finally:
        close_quietly(conn)


# ------------------------------------------------------------------------------- contract 6


async def test_cancelled_to_arrow_async_loses_nothing(cluster):
    """Cancelling scanner.to_arrow_async() mid-read loses nothing: the next to_arrow_async() on
    the same scanner returns what the cancelled one had not delivered, so together every row
    comes back exactly once."""
    n = pick(200_000, 300_000)
    conn = await connect(cluster, {"client.request-timeout": "30s"})
    try:
        admin = await conn.get_admin()
        path, table = await new_table(conn, admin, "f_cancel_read")
        await _write(table, 0, n, chunk=20_000)
        cancelled = 0
        for delay in (0.0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.4):
            scanner = await table.new_scan().create_batch_scanner()
            scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
            task = asyncio.ensure_future(scanner.to_arrow_async())
            await asyncio.sleep(delay)
            task.cancel()
            first = []
            try:
                first = (await task).column("id").to_pylist()  # finished before the cancel
            except asyncio.CancelledError:
                cancelled += 1
            rest = (await asyncio.wait_for(scanner.to_arrow_async(), 180)).column("id").to_pylist()
            ids = first + rest
            assert sorted(ids) == list(range(n)), (
                f"cancel after {delay}s: {len(first)} + {len(rest)} rows, {len(set(ids))} distinct (want {n})")
        assert cancelled > 0, "no to_arrow_async was still running when cancelled"
    finally:
        close_quietly(conn)


# ------------------------------------------------------------------------------- contract 7


async def test_poll_returns_by_its_own_timeout_when_a_leader_freezes(cluster):
    """client.request-timeout 30s, every bucket subscribed, a leader frozen: poll_async(2000)
    returns (records or empty) well before the request timeout; after the thaw polling goes on
    and every record arrives exactly once."""
    n = 3000
    conn = await connect(cluster, {"client.request-timeout": "30s"})
    try:
        admin = await conn.get_admin()
        path, table = await new_table(conn, admin, "f_frozen_poll")
        await _write(table, 0, n)
        scanner = await table.new_scan().create_log_scanner()
        scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
        records = []
        deadline = time.monotonic() + 120
        while len(records) < n and time.monotonic() < deadline:
            records += await asyncio.wait_for(scanner.poll_async(2000), 60)
        assert len(records) == n
        victim = await leader_proc(admin, path, 0)
        await cluster.afreeze(victim)
        took = []
        for _ in range(3):  # the first fetch to the frozen leader is in flight during these
            t0 = time.monotonic()
            records += await asyncio.wait_for(scanner.poll_async(2000), 60)
            took.append(time.monotonic() - t0)
        assert max(took) < 12, f"poll_async(2000) took {[round(t, 1) for t in took]} s with a frozen leader"
        await cluster.athaw(victim)
        await asyncio.to_thread(cluster.restore)
        await _write(table, n, n)
        deadline = time.monotonic() + 180
        while len(records) < 2 * n and time.monotonic() < deadline:
            records += await asyncio.wait_for(scanner.poll_async(2000), 60)
        ids = [r.row["id"] for r in records]
        assert sorted(ids) == list(range(2 * n)), f"{len(ids)} records, {len(set(ids))} distinct (want {2 * n})"
    finally:
        close_quietly(conn)


# ------------------------------------------------------------------------------- poll across a leader kill


@pytest.mark.soak_scenario
async def test_record_scanner_polls_across_a_leader_kill(cluster, soak_run):
    """A record scanner polling continuously while a bucket leader is killed and restarted
    (writes go on meanwhile) sees every record once: offsets of each bucket contiguous from 0,
    no repeats, every id."""
    n = pick(20_000, 100_000)
    conn = await connect(cluster, {"client.request-timeout": "5s"})
    try:
        admin = await conn.get_admin()
        path, table = await new_table(conn, admin, "f_kill_poll")
        scanner = await table.new_scan().create_log_scanner()
        scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
        victim, victim_buckets = await victim_of(admin, path)
        writer = await table.new_append_writer()
        poller = BackgroundPoll(scanner)
        chunk = 200
        kill_at = n // 3
        fault = None
        first_after = None  # the first id written once the victim was gone
        pace = pick(20, 40) * chunk / n
        for s in range(0, n, chunk):
            if s >= kill_at and fault is None:
                fault = cluster.crash_soon(victim)
            if first_after is None and fault is not None and fault.killed_at is not None:
                first_after = s
            writer.write_arrow_batch(rows_batch(s, min(chunk, n - s)))
            await asyncio.sleep(pace)
        await asyncio.wait_for(writer.flush(), 300)
        await asyncio.wait_for(fault, 300)
        await poller.finish(n)
        ids = [r.row["id"] for r in poller.records]
        gaps = poller.offset_gaps()
        recover = poller.recovery([(None, b) for b in victim_buckets], fault.killed_at, n if first_after is None else first_after)
        record_stats("kill_poll", rows=n, lost=n - len(set(ids) & set(range(n))), duplicated=poller.repeats(),
                     failed_but_present=0, recover_s=round(max(recover), 2) if recover else float("nan"), victim=victim)
        assert poller.repeats() == 0, f"{poller.repeats()} records repeated"
        assert not gaps, {key: f"{c} records, not offsets 0..{c - 1}" for key, c in gaps.items()}
        assert sorted(ids) == list(range(n)), f"{len(ids)} records, {len(set(ids))} distinct (want {n})"
    finally:
        close_quietly(conn)
