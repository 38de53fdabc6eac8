"""Primary-key tables under faults: a bucket leader killed during upserts and deletes (lookups
and the changelog both checked against the acknowledged writes), lookups and prefix lookups
across a leader kill and with a frozen leader."""

from __future__ import annotations

import asyncio
import random
import time
from collections import defaultdict
from typing import Dict, List, Optional, Set, Tuple

import pyarrow as pa
import pytest

import fluss
from conftest import (
    PAD,
    bucket_leaders,
    close_quietly,
    connect,
    latest_offsets,
    new_table,
    pick,
    read_changelog,
    record_stats,
    retry,
    ts_id,
    victim_of,
)

#: Primary key (k, sub), bucket key k: a prefix lookup by k reads every sub of a key.
KV_SCHEMA = fluss.Schema(pa.schema([pa.field("k", pa.int32(), nullable=False), pa.field("sub", pa.int32(), nullable=False),
                                    pa.field("v", pa.int64()), pa.field("pad", pa.string())]),
                         primary_keys=["k", "sub"])
#: Rows written once before any fault: keys STATIC_BASE .. STATIC_BASE + STATIC_KEYS - 1, each
#: with subs 0 .. STATIC_SUBS - 1 and value static_value(k, sub). Lookups check them; the
#: changing keys of the upsert scenario are below STATIC_BASE.
STATIC_BASE = 1_000_000
STATIC_KEYS = 120
STATIC_SUBS = 4


def static_value(k: int, sub: int) -> int:
    return k * 10 + sub


def kv_row(k: int, sub: int, v: int) -> dict:
    return {"k": k, "sub": sub, "v": v, "pad": PAD}


async def kv_table(conn, admin, prefix: str):
    """A fresh primary-key table (3 buckets, replication factor 3) holding the static rows;
    returns (path, table, {static key: bucket} (buckets as the changelog shows them), the
    tablet server leading bucket 0 (ts-N), the buckets it leads)."""
    path, table = await new_table(conn, admin, prefix, schema=KV_SCHEMA, bucket_keys=["k"])
    writer = table.new_upsert()
    for k in range(STATIC_BASE, STATIC_BASE + STATIC_KEYS):
        for sub in range(STATIC_SUBS):
            writer.upsert(kv_row(k, sub, static_value(k, sub)))
    await asyncio.wait_for(writer.flush(), 120)
    ends = await retry(lambda: latest_offsets(admin, path))
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
    records, problems = await read_changelog(scanner, {(None, b): ends[b] - 1 for b in range(3)})
    assert not problems, problems[:5]
    assert sorted((r.change_type.short_string(), r.row["k"], r.row["sub"], r.row["v"]) for r in records) == sorted(
        ("+I", k, sub, static_value(k, sub))
        for k in range(STATIC_BASE, STATIC_BASE + STATIC_KEYS) for sub in range(STATIC_SUBS))
    victim, victim_buckets = await victim_of(admin, path)
    return path, table, {r.row["k"]: r.bucket.bucket_id for r in records}, victim, victim_buckets


# ------------------------------------------------------------------------------- the changelog against the writes


def check_changelog(ops: List[Tuple[int, Optional[int]]], failed: Set[int],
                    events: Dict[int, List[Tuple[str, int]]]):
    """Replays the writer's operations key by key against the changelog.

    ``ops[i]`` is (key, value) for an upsert of value i (values are the operation's index, so
    each upsert is recognisable) or (key, None) for a delete; ``failed`` the indexes whose
    handle failed; ``events[key]`` the key's changelog as (change type, v) in offset order.

    An operation applied to state s (None: no row) must appear as: upsert v -> +I v (s None)
    or -U s, +U v; delete -> -D s (s not None), nothing when s is None (no row to delete).
    Acknowledged operations must appear in order; a failed one may or may not (the server may
    have stored it before the failure): it counts as applied when its records come next.
    Returns ({key: final state}, applied failed count, lost, duplicated, [problems]); lost
    counts acknowledged upserts whose value is in no +I/+U record of the key, duplicated the
    +I/+U records repeating a value (or naming a value never written to the key).
    """
    by_key: Dict[int, List[Tuple[int, Optional[int]]]] = defaultdict(list)
    for i, (k, v) in enumerate(ops):
        by_key[k].append((i, v))
    final: Dict[int, Optional[int]] = {}
    applied_failed = lost = duplicated = 0
    problems: List[str] = []
    for k in sorted(set(by_key) | set(events)):
        kops, ev = by_key.get(k, []), events.get(k, [])
        written = {v: i in failed for i, v in kops if v is not None}
        seen: Dict[int, int] = defaultdict(int)
        for ct, v in ev:
            if ct in ("+I", "+U"):
                seen[v] += 1
        lost += sum(1 for v, was_failed in written.items() if not was_failed and v not in seen)
        duplicated += sum(n - 1 for n in seen.values()) + sum(n for v, n in seen.items() if v not in written)
        pos, state, problem = 0, None, None
        for i, v in kops:
            if v is None:
                want = [("-D", state)] if state is not None else []
            else:
                want = [("+I", v)] if state is None else [("-U", state), ("+U", v)]
            got = ev[pos:pos + len(want)]
            if want and got == want:
                pos += len(want)
                state = v
                applied_failed += i in failed
            elif want and i not in failed:
                what = "delete" if v is None else f"upsert v={v}"
                problem = f"key {k}: acknowledged {what} (operation {i}) wants {want} at record {pos}, found {got}"
                break
        if problem is None and pos != len(ev):
            problem = f"key {k}: {len(ev) - pos} record(s) after the last write: {ev[pos:pos + 4]}"
        if problem:
            problems.append(problem)
        final[k] = state
    return final, applied_failed, lost, duplicated, problems


def test_changelog_replay_finds_missing_repeated_and_reordered_writes():
    """check_changelog on hand-made changelogs (no fault needed): the replay of the upsert
    scenario accepts exactly the changelogs the writes give and names each kind of defect."""
    ops = [(1, 0), (1, 1), (1, None), (2, None), (2, 4)]  # k1: upsert 0, upsert 1, delete; k2: delete, upsert 4
    good = {1: [("+I", 0), ("-U", 0), ("+U", 1), ("-D", 1)], 2: [("+I", 4)]}
    assert check_changelog(ops, set(), good) == ({1: None, 2: 4}, 0, 0, 0, [])

    def verdict(events, failed=()):
        _, applied_failed, lost, duplicated, problems = check_changelog(ops, set(failed), {**good, **events})
        return applied_failed, lost, duplicated, len(problems)

    assert verdict({1: [("+I", 0), ("-D", 0)]}) == (0, 1, 0, 1)  # upsert 1 missing
    assert verdict({1: [("+I", 0), ("-D", 0)]}, failed=[1]) == (0, 0, 0, 0)  # ... it had failed
    assert verdict({1: good[1]}, failed=[1]) == (1, 0, 0, 0)  # a failed write the server stored
    assert verdict({1: [("+I", 0), ("-U", 0), ("+U", 1), ("-U", 1), ("+U", 1), ("-D", 1)]}) == (0, 0, 1, 1)  # twice
    assert verdict({1: [("+I", 0), ("-U", 0), ("+U", 1), ("-U", 1), ("+U", 0), ("-D", 0)]}) == (0, 0, 1, 1)  # reordered
    assert verdict({1: [("+I", 0), ("-U", 0), ("+U", 1)]}) == (0, 0, 0, 1)  # the delete missing
    assert verdict({1: [("+I", 0), ("-U", 7), ("+U", 1), ("-D", 1)]}) == (0, 0, 0, 1)  # wrong row before
    assert verdict({2: [("+I", 4), ("-D", 4)]}) == (0, 0, 0, 1)  # a record no write explains
    assert verdict({2: [("-D", 4), ("+I", 4)]}) == (0, 0, 0, 1)  # the delete of no row shows a record


async def lookup_all(lookuper, keys, bound: float = 180) -> Dict[tuple, Optional[dict]]:
    """{key tuple: lookup result} for the (k, sub) ``keys``, 500 lookups in flight at a time."""
    out = {}
    keys = list(keys)
    for s in range(0, len(keys), 500):
        chunk = keys[s:s + 500]
        got = await asyncio.wait_for(
            asyncio.gather(*(lookuper.lookup({"k": k, "sub": sub}) for k, sub in chunk)), bound)
        out.update(zip(chunk, got))
    return out


@pytest.mark.soak_scenario
async def test_leader_kill_during_upserts_and_deletes(cluster, soak_run):
    """kill -9 of a bucket leader during upserts and deletes (short 30,000 operations on 3,000
    keys, long 150,000 on 10,000; 30 % deletes, many of keys without a row), then its restart.

    "Exactly once" for a primary-key table: the table is a function of the writes applied, so
    what can be checked is that every acknowledged write was applied once, in the writer's
    order. A retried batch (same writer id and batch sequence: idempotent writes) is applied by
    the server once (it answers a duplicate as written and drops the repeat from its kv buffer),
    so a retry never shows. Checked: (1) the changelog (the kv table's log, read from the
    start) holds, key by key, exactly the records the writes give when replayed in order:
    upsert -> +I (no row) or -U old, +U new; delete of a row -> -D old; delete of no row ->
    nothing. No acknowledged write missing, no record repeated (a re-applied upsert would show
    as an extra -U/+U of equal rows, an old one out of order as a wrong before-image). Writes
    whose handle failed may be present or not (the server may have stored them); the replay
    takes them where their records come next and counts them. (2) A lookup of every key
    returns the state of that replay: the row of the last applied upsert, or None after a
    delete. (3) Offsets of each bucket increase (no record read twice)."""
    n = pick(30_000, 150_000)
    nkeys = pick(3_000, 10_000)
    seed = 7919 * (soak_run + 1)
    rng = random.Random(seed)
    conn = await connect(cluster, {"client.request-timeout": "5s"})
    try:
        admin = await conn.get_admin()
        path, table, static_bucket, victim, victim_buckets = await kv_table(conn, admin, "f_kill_upsert")
        writer = table.new_upsert()
        ops: List[Tuple[int, Optional[int]]] = []
        handles = []
        sample = []  # (operation index, future of its handle's wait)
        done_at: Dict[int, float] = {}
        kill_at = n // 3
        pace = pick(20, 40) * 500 / (n - kill_at)  # seconds per 500 operations after the kill
        fault = None
        for i in range(n):
            if i == kill_at:
                fault = cluster.crash_soon(victim)
            k = rng.randrange(nkeys)
            if rng.random() < 0.3:
                ops.append((k, None))
                h = writer.delete({"k": k, "sub": 0})
            else:
                ops.append((k, i))
                h = writer.upsert(kv_row(k, 0, i))
            handles.append(h)
            if i >= kill_at and i % 50 == 0:
                f = asyncio.ensure_future(h.wait())
                f.add_done_callback(lambda _f, i=i: done_at.setdefault(i, time.monotonic()))
                sample.append((i, f))
            if i >= kill_at and i % 500 == 499:
                await asyncio.sleep(pace)  # the rest spans the failover and the restart
            elif i % 1000 == 999:
                await asyncio.sleep(0)
        await asyncio.wait_for(fault, 300)
        results = await asyncio.wait_for(asyncio.gather(*(h.wait() for h in handles), return_exceptions=True), 300)
        failed = {i for i, r in enumerate(results) if isinstance(r, BaseException)}
        await asyncio.wait_for(asyncio.gather(*(f for _, f in sample), return_exceptions=True), 60)

        # One more row per bucket, so every bucket's log ends with a batch that has records (a
        # batch of deletes of absent keys takes an offset that no record shows).
        last_static = {}
        for k, b in sorted(static_bucket.items()):
            last_static[b] = k
        for b, k in last_static.items():
            writer.upsert(kv_row(k, 0, -1))
        await asyncio.wait_for(writer.flush(), 120)
        ends = await retry(lambda: latest_offsets(admin, path))
        scanner = await table.new_scan().create_log_scanner()
        scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
        records, problems = await read_changelog(scanner, {(None, b): ends[b] - 1 for b in range(3)}, bound=300)

        events: Dict[int, List[Tuple[str, int]]] = defaultdict(list)
        static_events = []
        bucket_of: Dict[int, int] = {}
        for r in records:  # offset order within each bucket; a key lives in one bucket
            k = r.row["k"]
            if k >= STATIC_BASE:
                static_events.append((r.change_type.short_string(), k, r.row["sub"], r.row["v"]))
                continue
            assert r.row["sub"] == 0 and r.row["pad"] == PAD, r
            events[k].append((r.change_type.short_string(), r.row["v"]))
            bucket_of[k] = r.bucket.bucket_id
        final, applied_failed, lost, duplicated, mismatches = check_changelog(ops, failed, events)

        lookuper = table.new_lookup()
        got = await lookup_all(lookuper, [(k, 0) for k in range(nkeys)])
        wrong_lookups = [(k, row, final.get(k)) for (k, _), row in got.items()
                         if row != (None if final.get(k) is None else kv_row(k, 0, final[k]))]

        # Time to recover: the first acknowledgement on each of the victim's buckets once it was
        # gone (so from its new leader; the other buckets acknowledge at once).
        first_ack: Dict[int, float] = {}
        for i, f in sample:
            b = bucket_of.get(ops[i][0])
            if b in victim_buckets and not f.exception() and done_at.get(i, 0) > fault.killed_at:
                first_ack[b] = min(first_ack.get(b, done_at[i]), done_at[i])
        recover_s = (max(first_ack.values()) - fault.killed_at) if first_ack else float("nan")
        record_stats("kill_upsert", rows=n, acked=n - len(failed), lost=lost, duplicated=duplicated,
                     failed_but_present=applied_failed, failed=len(failed), mismatched_keys=len(mismatches),
                     lookups=len(got), wrong_lookups=len(wrong_lookups), recover_s=round(recover_s, 2),
                     victim=victim, seed=seed)
        assert not problems, problems[:5]
        assert not mismatches, f"{len(mismatches)} keys whose changelog does not replay their writes: {mismatches[:5]}"
        assert lost == 0 and duplicated == 0, (lost, duplicated)
        assert not wrong_lookups, f"{len(wrong_lookups)} lookups differ from the replay: {wrong_lookups[:5]}"
        want_static = [("+I", k, sub, static_value(k, sub))
                       for k in range(STATIC_BASE, STATIC_BASE + STATIC_KEYS) for sub in range(STATIC_SUBS)]
        want_static += [(ct, k, 0, v) for k in last_static.values() for ct, v in (("-U", static_value(k, 0)), ("+U", -1))]
        assert sorted(static_events) == sorted(want_static)
        # Every bucket of the victim took writes on its new leader (the scenario did what it says).
        assert set(first_ack) == victim_buckets, (first_ack, victim_buckets)
    finally:
        close_quietly(conn)


# ------------------------------------------------------------------------------- lookups across faults


class LookupLoad:
    """Point and prefix lookups of the static rows from ``workers`` tasks (each pausing
    ``pause`` s between lookups, so the load slows the cluster little), every outcome recorded:
    (kind, key, bucket, start, end, 'ok' | 'wrong' | 'error' | 'hung', error)."""

    def __init__(self, table, static_bucket: Dict[int, int], bound: float, workers: int = 12, pause: float = 0.02):
        self.point = table.new_lookup()
        self.prefix = self.point.lookup_by(["k"])
        self.bucket = static_bucket
        self.bound = bound
        self.pause = pause
        self.outcomes: List[tuple] = []
        self._stop = False
        self._tasks = [asyncio.ensure_future(self._run(w)) for w in range(workers)]

    async def _one(self, rng: random.Random) -> None:
        k = rng.randrange(STATIC_BASE, STATIC_BASE + STATIC_KEYS)
        if rng.random() < 0.5:
            kind, sub = "point", rng.randrange(STATIC_SUBS)
            call, want = self.point.lookup({"k": k, "sub": sub}), kv_row(k, sub, static_value(k, sub))
        else:
            kind = "prefix"
            call, want = self.prefix.lookup({"k": k}), [kv_row(k, s, static_value(k, s)) for s in range(STATIC_SUBS)]
        t0 = time.monotonic()
        status, err = "ok", None
        try:
            got = await asyncio.wait_for(call, self.bound)
            if kind == "prefix":
                got = sorted(got, key=lambda r: r["sub"])
            if got != want:
                status, err = "wrong", got
        except fluss.FlussError as e:
            status, err = "error", e
        except asyncio.TimeoutError:
            status = "hung"
        self.outcomes.append((kind, k, self.bucket[k], t0, time.monotonic(), status, err))

    async def _run(self, w: int) -> None:
        rng = random.Random(w)
        while not self._stop:
            await self._one(rng)
            await asyncio.sleep(self.pause)

    async def stop(self) -> None:
        self._stop = True
        await asyncio.gather(*self._tasks)

    def served(self, buckets: Set[int], after: float, kind: str) -> List[tuple]:
        """Correct lookups of ``kind`` on ``buckets`` started after ``after``."""
        return [o for o in self.outcomes if o[0] == kind and o[2] in buckets and o[3] > after and o[5] == "ok"]


@pytest.mark.soak_scenario
async def test_lookups_and_prefix_lookups_across_a_leader_kill(cluster, soak_run):
    """Point and prefix lookups run from 12 tasks while a bucket leader is killed (kill -9) and
    restarted (client.request-timeout 60s, far above the ~10 s failover): every lookup returns
    the exact row(s); lookups of the victim's buckets started after the kill complete once a new
    leader serves them (the restarted server rejoins as a follower, so no lookup after the kill
    was answered by it)."""
    timeout_s = 60
    conn = await connect(cluster, {"client.request-timeout": f"{timeout_s}s"})
    try:
        admin = await conn.get_admin()
        path, table, static_bucket, victim, victim_buckets = await kv_table(conn, admin, "f_kill_lookup")
        load = LookupLoad(table, static_bucket, bound=3 * timeout_s)
        await asyncio.sleep(1.0)  # lookups flow (leaders cached) before the kill
        fault = cluster.crash_soon(victim)
        await asyncio.wait_for(fault, 300)
        t_kill = fault.killed_at
        await asyncio.sleep(1.0)
        await load.stop()
        after = await bucket_leaders(admin, path)
        bad = [o for o in load.outcomes if o[5] != "ok"]
        # Lookups of the victim's buckets started once it was gone: the first to complete ends
        # the failover as lookups see it.
        later = [o for o in load.outcomes if o[2] in victim_buckets and o[3] > t_kill]
        recover_s = min((o[4] - t_kill for o in later), default=float("nan"))
        record_stats("kill_lookup", rows=len(load.outcomes), acked=len(load.outcomes), lost=len(bad), duplicated=0,
                     failed_but_present=0, after_kill=len(later), recover_s=round(recover_s, 2), victim=victim)
        assert not bad, f"{len(bad)} of {len(load.outcomes)} lookups not answered right: {bad[:5]}"
        for kind in ("point", "prefix"):
            assert load.served(victim_buckets, t_kill, kind), f"no {kind} lookup of the victim's buckets after the kill"
        if after is not None:
            assert all(after[b] != ts_id(victim) for b in victim_buckets), (after, victim)
    finally:
        close_quietly(conn)


@pytest.mark.soak_scenario
async def test_lookups_with_a_frozen_leader_complete_or_time_out(cluster, soak_run):
    """A bucket leader frozen (SIGSTOP) while point and prefix lookups run (client.request-timeout
    5s): each lookup returns the exact row(s), on the old leader before the freeze or on a new
    one after the failover, or raises a retriable timeout (error_code 25) within a bound set by
    the request timeout; none hangs. A lookup has client.request-timeout from its call; a request
    sent just before that may take one more request timeout to time out, so the bound is
    2 x request-timeout plus 20 s of slack for a loaded machine. Lookups of the victim's buckets
    made after the coordinator moved its leadership succeed on the new leader.

    Server behaviour (Fluss 0.9.1), not the client's: the new leader may not answer lookups of
    the frozen leader's buckets for up to ~30 s after the freeze (3 of 10 soak runs: ~25 s after
    the failover). Becoming leader, it shuts down its replica fetcher thread from the frozen
    server, which waits for its fetch request there to time out (ReplicaFetcherThread's fixed
    30 s; the tablet server logs "ReplicaFetcherThread - Shutting down" at the failover and
    "Stopped" ~23 s later). Meanwhile the client's lookups time out at client.request-timeout
    as they should, and the wait below for a lookup on the new leader allows for it."""
    timeout_s = 5
    bound = 2 * timeout_s + 20
    conn = await connect(cluster, {"client.request-timeout": f"{timeout_s}s"})
    try:
        admin = await conn.get_admin()
        path, table, static_bucket, victim, victim_buckets = await kv_table(conn, admin, "f_frozen_lookup")
        load = LookupLoad(table, static_bucket, bound=6 * timeout_s + 60)
        await asyncio.sleep(1.0)
        since = cluster.dead_count(ts_id(victim))
        t_freeze = time.monotonic()
        await cluster.afreeze(victim)
        await cluster.await_dead(ts_id(victim), since, bound=120)
        t_dead = time.monotonic()
        # Until lookups of both kinds succeed on the victim's buckets again (bounded; the server
        # may take ~30 s after the freeze, see above).
        deadline = t_dead + 4 * timeout_s + 60
        while time.monotonic() < deadline and not all(load.served(victim_buckets, t_dead, k) for k in ("point", "prefix")):
            await asyncio.sleep(0.5)
        await load.stop()
        await cluster.athaw(victim)
        took = {o[5]: 0 for o in load.outcomes}
        for o in load.outcomes:
            took[o[5]] += 1
        bad = [o for o in load.outcomes
               if o[5] in ("wrong", "hung") or (o[5] == "error" and not (o[6].error_code == 25 and o[6].is_retriable()))]
        slow = [(o[0], o[1], round(o[4] - o[3], 1), o[5]) for o in load.outcomes if o[4] - o[3] > bound]
        timed_out = [o for o in load.outcomes if o[5] == "error" and o[2] in victim_buckets]
        recover = [o[4] - t_dead for o in load.served(victim_buckets, t_dead, "point")]
        print("frozen-leader lookups:", took, f"max {max(o[4] - o[3] for o in load.outcomes):.1f}s")
        record_stats("frozen_lookup", rows=len(load.outcomes), acked=took.get("ok", 0), lost=len(bad), duplicated=0,
                     failed_but_present=0, timeouts=len(timed_out), slow=len(slow),
                     recover_s=round(min(recover), 2) if recover else float("nan"), victim=victim)
        assert not bad, f"{len(bad)} lookups wrong, hung or failed otherwise than by a retriable timeout: {bad[:5]}"
        assert not slow, f"{len(slow)} lookups took more than {bound}s (request timeout {timeout_s}s): {slow[:5]}"
        for kind in ("point", "prefix"):
            assert load.served(victim_buckets, t_dead, kind), f"no {kind} lookup succeeded on the new leader"
        # The freeze was seen: lookups sent to the frozen leader timed out; other buckets went on.
        assert timed_out, "no lookup of the frozen leader's buckets timed out"
        others = set(range(3)) - victim_buckets
        assert not others or any(o[2] in others and o[5] == "ok" and t_freeze < o[3] < t_dead for o in load.outcomes)
    finally:
        close_quietly(conn)
