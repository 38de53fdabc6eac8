"""Writers under faults: delivery timeouts, frozen and killed leaders, full buffers."""

from __future__ import annotations

import asyncio
import logging
import re
import time

import pyarrow as pa
import pytest

import fluss
from conftest import (
    NUM_TS,
    Ticker,
    close_quietly,
    connect,
    dup_count,
    latest_offsets,
    leader_proc,
    new_table,
    pick,
    read_all_ids,
    read_buckets,
    read_changelog,
    record_stats,
    row,
    rows_batch,
)

ALL_TS = [f"ts-{i}" for i in range(NUM_TS)]


async def _outcome(aw, bound: float):
    """('ok', value) | ('error', FlussError) | ('hung', None) for an awaitable bounded by ``bound``."""
    try:
        return "ok", await asyncio.wait_for(aw, bound)
    except fluss.FlussError as e:
        return "error", e
    except asyncio.TimeoutError:
        return "hung", None


# ------------------------------------------------------------------------------- contract 1


async def test_flush_raises_for_rows_failed_by_delivery_timeout(cluster):
    """All tablet servers frozen past client.writer.delivery-timeout: fire-and-forget appends
    fail, the next flush raises FlussError naming how many rows failed and why; a flush after
    that (no new failures) is OK, and the writer works again once the servers are back."""
    conn = await connect(cluster, {"client.request-timeout": "3s", "client.writer.delivery-timeout": "8s"})
    try:
        admin = await conn.get_admin()
        path, table = await new_table(conn, admin, "f_delivery")
        writer = await table.new_append_writer()
        writer.write_arrow_batch(rows_batch(0, 30))
        await asyncio.wait_for(writer.flush(), 60)  # leaders known, writer id assigned

        for p in ALL_TS:
            await cluster.afreeze(p)
        for i in range(1000, 1100):
            writer.append(row(i))  # fire and forget
        status, err = await _outcome(writer.flush(), 90)
        assert status == "error", f"flush with every tablet server frozen past the delivery timeout: {status}"
        assert re.search(r"\b100 rows?\b", err.message), err.message
        assert re.search(r"time", err.message, re.I), err.message  # says why (delivery timeout)
        for p in ALL_TS:
            await cluster.athaw(p)

        # No new failure since: flush is OK.
        status, err = await _outcome(writer.flush(), 60)
        assert status == "ok", f"second flush: {status} {err}"
        # The servers are back (they re-register after the thaw): new writes go through. The
        # first may still time out (3 s request timeout) while a thawed server catches up on a
        # loaded machine (seen in CI); such an attempt fails with 25 and is tried with new rows.
        await asyncio.to_thread(cluster.restore)
        acked_base = None
        for attempt in range(10):
            base = 2000 + 100 * attempt
            writer.write_arrow_batch(rows_batch(base, 30))
            status, err = await _outcome(writer.flush(), 120)
            assert status != "hung", f"flush after the restore, attempt {attempt + 1}: hung"
            if status == "ok":
                acked_base = base
                break
            assert err.error_code == 25, err
        assert acked_base is not None, "no write went through in 10 attempts after the servers were back"
        ids = await read_all_ids(table)
        # The 100 failed rows and the rows of timed-out attempts may or may not have reached a
        # log (a frozen server still had them in its socket); everything acknowledged is there
        # exactly once, and nothing else.
        acked = [i for i in ids if i < 1000 or acked_base <= i < acked_base + 100]
        assert sorted(acked) == list(range(30)) + list(range(acked_base, acked_base + 30))
        assert all(i < acked_base + 100 for i in ids), sorted(ids)
        assert dup_count(ids) == 0
    finally:
        close_quietly(conn)


# ------------------------------------------------------------------------------- contract 3


async def test_frozen_leader_during_writes_every_handle_succeeds(cluster):
    """A bucket leader frozen mid-write (request-timeout 5s, delivery-timeout 60s): every
    handle succeeds after the failover, nothing is reported failed, every row is read back
    exactly once."""
    conn = await connect(cluster, {"client.request-timeout": "5s", "client.writer.delivery-timeout": "60s"})
    try:
        admin = await conn.get_admin()
        path, table = await new_table(conn, admin, "f_frozen_write")
        victim = await leader_proc(admin, path, 0)
        writer = await table.new_append_writer()
        handles = []
        n = 3000
        frozen_at = n // 3
        for i in range(n):
            if i == frozen_at:
                # The rows so far acknowledged first (acks all, min in-sync replicas 2): a
                # follower is then in the ISR, so the coordinator can elect it. Frozen before
                # that, on a loaded machine, the ISR was still [leader] and Fluss left the
                # bucket without a leader ("Elect result is empty"; seen in a CI run).
                await asyncio.wait_for(writer.flush(), 120)
                await cluster.afreeze(victim)
            handles.append(writer.append(row(i)))
            if i % 100 == 99:
                await asyncio.sleep(0.02)  # a paced producer: the freeze lands mid-write
        results = await asyncio.wait_for(asyncio.gather(*(h.wait() for h in handles), return_exceptions=True), 180)
        failed = [(i, r) for i, r in enumerate(results) if isinstance(r, BaseException)]
        await cluster.athaw(victim)
        assert not failed, f"{len(failed)} handles failed, first: {failed[0]}"
        await asyncio.wait_for(writer.flush(), 60)
        ids = await read_all_ids(table)
        assert sorted(ids) == list(range(n)), f"{len(ids)} rows, {dup_count(ids)} duplicated"
    finally:
        close_quietly(conn)


# ------------------------------------------------------------------------------- contract 5


async def test_full_buffer_append_raises_at_once_and_wait_for_capacity_waits(cluster):
    """On the event loop, a full writer buffer (servers frozen) makes append raise a retriable
    FlussError at once instead of blocking; ``await writer.wait_for_capacity()`` waits while a
    10 ms ticker keeps ticking, and returns once the servers are back."""
    # buffer.wait-timeout 20s: a blocking append (the old behaviour) would stall the loop 20s.
    conn = await connect(cluster, {"client.writer.buffer.memory-size": "64kb", "writer.batch.size": "8kb",
                                   "client.request-timeout": "5s", "client.writer.buffer.wait-timeout": "20s"})
    try:
        admin = await conn.get_admin()
        path, table = await new_table(conn, admin, "f_full_buffer")
        writer = await table.new_append_writer()
        writer.append(row(0))
        await asyncio.wait_for(writer.flush(), 60)
        for p in ALL_TS:
            await cluster.afreeze(p)
        accepted = [0]
        full = None
        slowest = 0.0
        with Ticker():
            for i in range(1, 20_000):
                t0 = time.monotonic()
                try:
                    writer.append(row(i))
                except fluss.FlussError as e:
                    full = e
                    slowest = max(slowest, time.monotonic() - t0)
                    break
                slowest = max(slowest, time.monotonic() - t0)
                accepted.append(i)
                if i % 50 == 0:
                    await asyncio.sleep(0)
        assert full is not None, "20,000 appends into a 64 kb buffer with frozen servers never reported a full buffer"
        assert slowest < 5, f"an append blocked the event loop for {slowest:.1f}s (buffer wait-timeout is 20s)"
        assert full.is_retriable(), full.message
        assert hasattr(writer, "wait_for_capacity"), "AppendWriter.wait_for_capacity() is missing"

        with Ticker() as ticker:
            waiting = asyncio.ensure_future(writer.wait_for_capacity())
            await asyncio.sleep(1.0)
            assert not waiting.done(), "wait_for_capacity returned while the buffer is still full"
            assert ticker.ticks >= 10, f"the ticker ticked {ticker.ticks} times in 1s of wait_for_capacity"
            for p in ALL_TS:
                await cluster.athaw(p)
            await asyncio.wait_for(waiting, 120)
        writer.append(row(50_000))
        await asyncio.wait_for(writer.flush(), 120)
        ids = await read_all_ids(table)
        assert sorted(ids) == accepted + [50_000], f"{len(ids)} rows read, {len(accepted) + 1} accepted"
    finally:
        close_quietly(conn)


# ------------------------------------------------------------------------------- kill during appends


@pytest.mark.soak_scenario
@pytest.mark.parametrize("handles", [True, False], ids=["handles", "fire_and_forget"])
async def test_leader_kill_during_idempotent_appends(cluster, handles, soak_run, caplog):
    """kill -9 of a bucket leader during idempotent appends (short 60,000 rows, long 300,000),
    then its restart: every row whose handle succeeded (handles) or that precedes a successful
    flush (fire and forget) is read back exactly once, and each bucket's ids are increasing in
    offset order (the writer's order)."""
    n = pick(60_000, 300_000)
    flush_every = 5_000
    caplog.set_level(logging.DEBUG, logger="fluss")
    conn = await connect(cluster, {"client.request-timeout": "5s"})
    try:
        admin = await conn.get_admin()
        path, table = await new_table(conn, admin, "f_kill_append", keyed=True)
        victim = await leader_proc(admin, path, 0)
        writer = await table.new_append_writer()
        loop = asyncio.get_running_loop()
        kill_at = n // 3
        pace = pick(20, 40) * 500 / (n - kill_at)  # seconds per 500 rows after the kill
        fault = None
        hs = []
        sample = []  # (id, future of the handle's wait, completion time list)
        done_at = {}
        good_flushes = []  # rows before each successful flush: ids < bound
        flush_errors = []
        for i in range(n):
            if i == kill_at:
                fault = cluster.crash_soon(victim)
            h = writer.append(row(i))
            if handles:
                hs.append(h)
            if i % 50 == 0 and i >= kill_at:
                f = asyncio.ensure_future(h.wait())
                f.add_done_callback(lambda _f, i=i: done_at.setdefault(i, time.monotonic()))
                sample.append((i, f))
            if not handles and i % flush_every == flush_every - 1:
                try:
                    await asyncio.wait_for(writer.flush(), 180)
                    good_flushes.append(i + 1)
                except fluss.FlussError as e:
                    flush_errors.append(e)
            elif i >= kill_at and i % 500 == 499:
                await asyncio.sleep(pace)  # the rest spans the failover and the restart
            elif i % 1000 == 999:
                await asyncio.sleep(0)
        await asyncio.wait_for(fault, 300)
        failed_ids = set()
        if handles:
            results = await asyncio.wait_for(asyncio.gather(*(h.wait() for h in hs), return_exceptions=True), 300)
            failed_ids = {i for i, r in enumerate(results) if isinstance(r, BaseException)}
            must = [i for i in range(n) if i not in failed_ids]
        else:
            try:
                await asyncio.wait_for(writer.flush(), 300)
                good_flushes.append(n)
            except fluss.FlussError as e:
                flush_errors.append(e)
            must = list(range(max(good_flushes, default=0)))
        await asyncio.wait_for(asyncio.gather(*(f for _, f in sample), return_exceptions=True), 300)
        by_bucket, problems = await read_buckets(admin, path, table)
        # Time to recover: the stalled bucket's first acknowledgement once the victim was gone
        # (buckets on other leaders acknowledge at once).
        bucket_of = {i: b for b, xs in by_bucket.items() for i in xs}
        first_ack = {}
        for i, f in sample:
            if not f.exception() and done_at.get(i, 0) > fault.killed_at and i in bucket_of:
                b = bucket_of[i]
                first_ack[b] = min(first_ack.get(b, done_at[i]), done_at[i])
        recover_s = (max(first_ack.values()) - fault.killed_at) if first_ack else float("nan")
        ids = [i for b in sorted(by_bucket) for i in by_bucket[b]]
        present = set(ids)
        lost = [i for i in must if i not in present]
        dups = dup_count(ids)
        unordered = [b for b, xs in by_bucket.items() if any(x >= y for x, y in zip(xs, xs[1:]))]
        record_stats("kill_append_" + ("handles" if handles else "fire_and_forget"), rows=n, acked=len(must), lost=len(lost),
                     duplicated=dups, failed_but_present=len(failed_ids & present), failed=len(failed_ids),
                     flush_errors=len(flush_errors), recover_s=round(recover_s, 2), victim=victim)
        assert not problems, problems[:5]
        assert not lost, f"{len(lost)} acknowledged rows lost, first {lost[:5]}"
        assert dups == 0, f"{dups} rows duplicated"
        assert not unordered, f"buckets {unordered}: ids not increasing in offset order"
        assert present <= set(range(n))
        # The core told the "fluss" logger what happened: the lost connection, the retried
        # batches and bucket 0's leader moving away from the victim.
        lines = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "fluss"]
        victim_id = victim.split("-")[1]
        assert any(lvl == logging.WARNING and " lost: " in m for lvl, m in lines), lines[-20:]
        assert any(lvl == logging.INFO and m.startswith("retrying a batch of ") for lvl, m in lines), lines[-20:]
        assert any(lvl == logging.INFO and "bucket 0" in m and f"leader moved from tablet server {victim_id} to " in m
                   for lvl, m in lines), lines[-20:]
    finally:
        close_quietly(conn)


# ------------------------------------------------------------------------------- frozen leader: every call is bounded


async def test_frozen_leader_every_call_returns_or_fails_retriably(cluster):
    """With a bucket leader frozen (request-timeout 5s), list_offsets, poll, to_arrow, flush and
    handle.wait each return, raise a retriable error within their bound, or complete on the new
    leader after the failover (~6-8 s: ZooKeeper session timeout)."""
    conn = await connect(cluster, {"client.request-timeout": "5s", "client.writer.delivery-timeout": "60s"})
    try:
        admin = await conn.get_admin()
        path, table = await new_table(conn, admin, "f_frozen_calls")
        writer = await table.new_append_writer()
        writer.write_arrow_batch(rows_batch(0, 3000))
        await asyncio.wait_for(writer.flush(), 60)
        poller = await table.new_scan().create_log_scanner()
        poller.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
        seen = []
        while len(seen) < 3000:
            seen += await asyncio.wait_for(poller.poll_async(2000), 60)
        victim = await leader_proc(admin, path, 0)
        await cluster.afreeze(victim)

        async def append_flush():
            writer.write_arrow_batch(rows_batch(3000, 300))
            return await writer.flush()

        async def to_arrow():
            s = await table.new_scan().create_batch_scanner()
            s.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
            return await s.to_arrow_async()

        h = writer.append(row(9999))
        calls = {
            "list_offsets": (admin.list_offsets(path, [0, 1, 2], fluss.OffsetType.LATEST), 45),
            "poll": (poller.poll_async(2000), 45),
            "to_arrow": (to_arrow(), 120),
            "flush": (append_flush(), 120),
            "handle.wait": (h.wait(), 120),
        }
        names = list(calls)
        outcomes = await asyncio.gather(*(_outcome(aw, bound) for aw, bound in calls.values()))
        await cluster.athaw(victim)
        report = {n: (s, (v.message if s == "error" else None)) for n, (s, v) in zip(names, outcomes)}
        print("frozen-leader outcomes:", report)
        # Observed (client of 2026-12-01, request-timeout 5s): list_offsets and to_arrow raise a
        # retriable timeout (25, "LIST_OFFSETS to <frozen leader> got no answer within 5000 ms");
        # poll returns (records of the other buckets or empty); flush and handle.wait complete on
        # the new leader after the failover.
        for name, (status, value) in zip(names, outcomes):
            assert status != "hung", f"{name} did not return within {calls[name][1]}s with a frozen leader"
            if status == "error":
                assert value.is_retriable(), f"{name} raised a non-retriable error: {value.error_code} {value.message}"
        if outcomes[2][0] == "ok":  # to_arrow on the new leader: everything written before the freeze
            got = outcomes[2][1].column("id").to_pylist()
            assert dup_count(got) == 0 and set(range(3000)) <= set(got)
    finally:
        close_quietly(conn)


# ------------------------------------------------------------------------------- a writer id replaced while a write is in doubt


@pytest.mark.parametrize("kind", ["log", "kv"])
async def test_write_in_doubt_is_not_stored_twice_after_a_writer_id_reset(cluster, kind):
    """Regression (client defect, fixed): a bucket leader frozen for 3.3 s, well inside the
    ZooKeeper session (6 s, pinged every 2 s: it stays leader), longer than
    client.writer.delivery-timeout (2.9 s; request-timeout 1 s) while one row is written every
    20 ms. The first batches sent to the frozen leader wait in its socket; the oldest expires
    after its third attempt (3 s), which makes the writer take a new writer id; batches sent
    before under the old id and not answered were then sent again under the new id, and the
    thawed leader stored both copies (15 acknowledged rows twice in the first trial). Now such a
    batch fails with UNKNOWN_WRITER_ID_EXCEPTION (33; the server may have stored it, once) and
    no row is stored twice: every acknowledged row exactly once, a failed one at most once (a
    primary-key table: one +I per key in the changelog, never a -U/+U of equal rows)."""
    conn = await connect(cluster, {"client.request-timeout": "1s", "client.writer.delivery-timeout": "2900ms"})
    try:
        admin = await conn.get_admin()
        if kind == "log":
            path, table = await new_table(conn, admin, "f_reset_log", buckets=1)
            writer = await table.new_append_writer()
            write = writer.append
        else:
            schema = fluss.Schema(pa.schema([pa.field("id", pa.int64(), nullable=False), ("k", pa.int32()),
                                             ("pad", pa.string())]), primary_keys=["id"])
            path, table = await new_table(conn, admin, "f_reset_kv", buckets=1, schema=schema)
            writer = table.new_upsert()
            write = writer.upsert
        await asyncio.wait_for(write(row(0)).wait(), 60)  # writer id, leader known
        victim = await leader_proc(admin, path, 0)
        handles = {}

        async def produce():
            for i in range(1, 300):
                handles[i] = write(row(i))
                await asyncio.sleep(0.02)

        producer = asyncio.ensure_future(produce())
        await asyncio.sleep(0.1)
        await cluster.afreeze(victim)
        await asyncio.sleep(3.3)
        await cluster.athaw(victim)
        await asyncio.wait_for(producer, 60)
        results = await asyncio.wait_for(asyncio.gather(*(h.wait() for h in handles.values()), return_exceptions=True),
                                         120)
        failed = {i for i, r in zip(handles, results) if isinstance(r, BaseException)}
        in_doubt = [r for r in results if isinstance(r, fluss.FlussError) and r.error_code == 33]
        await asyncio.to_thread(cluster.restore)
        if kind == "log":
            ids = await read_all_ids(table, buckets=1)
            changes = []
        else:
            end = (await latest_offsets(admin, path, buckets=1))[0]
            scanner = await table.new_scan().create_log_scanner()
            scanner.subscribe(0, fluss.EARLIEST_OFFSET)
            records, problems = await read_changelog(scanner, {(None, 0): end - 1})
            assert not problems, problems[:5]
            ids = [r.row["id"] for r in records if r.change_type.short_string() == "+I"]
            changes = [(r.change_type.short_string(), r.row["id"]) for r in records
                       if r.change_type.short_string() != "+I"]
        leader_after = await leader_proc(admin, path, 0)
        print(f"{kind}: {len(failed)} writes failed, {len(in_doubt)} of them in doubt after the writer id reset; "
              f"leader {victim} -> {leader_after}")
        twice = sorted(i for i in set(ids) if ids.count(i) > 1)
        assert not twice, (f"{len(twice)} rows stored twice ({len([i for i in twice if i not in failed])} "
                           f"acknowledged): {twice[:10]}")
        assert not changes, f"a key written once has updates in the changelog: {changes[:6]}"
        missing = sorted(set(range(300)) - failed - set(ids))
        assert not missing, f"{len(missing)} acknowledged rows missing: {missing[:10]}"
    finally:
        close_quietly(conn)
