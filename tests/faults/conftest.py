"""Fault-suite fixtures: a real 3-tablet-server cluster of its own (replication factor 3), driven
through tools/local-cluster's kill / freeze / thaw / restart verbs, restored after every test.

The cluster lives in $FLUSS_FAULTS_HOME (default <root>/.local-cluster/faults, inside the ignored
default home), coordinator port $FLUSS_FAULTS_PORT (9223, tablet servers 9224-9226), ZooKeeper
$FLUSS_FAULTS_ZK_PORT (2191), so it runs next to the default cluster (9123/2181). A running fault
cluster is reused; it is left running at the end (tools/local-cluster stop with
LOCAL_CLUSTER_HOME set stops it; tools/fault-soak does).

Modes: FLUSS_FAULTS_MODE=short (default, CI) or long (bigger volumes, more cycles).
"""

from __future__ import annotations

import asyncio
import faulthandler
import json
import os
import pathlib
import re
import socket
import subprocess
import sys
import threading
import _thread
import time
import uuid
from typing import Dict, List, Optional, Sequence

import pyarrow as pa
import pytest

import fluss

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from served_tables import wait_until_served  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
LC = str(ROOT / "tools" / "local-cluster")
HOME = os.environ.get("FLUSS_FAULTS_HOME", str(ROOT / ".local-cluster" / "faults"))
PORT = int(os.environ.get("FLUSS_FAULTS_PORT", "9223"))
ZK_PORT = int(os.environ.get("FLUSS_FAULTS_ZK_PORT", "2191"))
NUM_TS = 3
MODE = os.environ.get("FLUSS_FAULTS_MODE", "short")
assert MODE in ("short", "long"), f"FLUSS_FAULTS_MODE must be short or long, got {MODE!r}"
LONG = MODE == "long"
#: A test still running after this many seconds is interrupted (tracebacks go to stderr).
TEST_LIMIT_S = float(os.environ.get("FLUSS_FAULTS_TEST_LIMIT", "1800" if LONG else "300"))
#: Soak scenarios (pytest marker soak_scenario) are repeated this many times (tools/fault-soak sets it).
SOAK_RUNS = int(os.environ.get("FLUSS_FAULTS_SOAK_RUNS", "1"))
#: JSON lines of per-run numbers of the soak scenarios go here (tools/fault-soak reads them).
STATS_FILE = os.environ.get("FLUSS_FAULTS_STATS")


_LC_ENV = dict(os.environ, LOCAL_CLUSTER_HOME=HOME, LOCAL_CLUSTER_ZK_PORT=str(ZK_PORT))


def pick(short, long):
    """The value for the current mode."""
    return long if LONG else short


# ------------------------------------------------------------------------------- cluster


class ClusterError(RuntimeError):
    pass


class Cluster:
    """The fault cluster, acted on only through tools/local-cluster (pid files, never by name)."""

    def __init__(self):
        self.port = PORT
        self.bootstrap = f"127.0.0.1:{PORT}"
        self.logs = pathlib.Path(HOME) / "logs"

    # ---- tools/local-cluster

    def lc(self, *args: str, check: bool = True, timeout: float = 400) -> subprocess.CompletedProcess:
        p = subprocess.run([LC, *args], env=_LC_ENV, capture_output=True, text=True, timeout=timeout)
        if check and p.returncode != 0:
            raise ClusterError(f"tools/local-cluster {' '.join(args)} exited {p.returncode}:\n{p.stderr[-3000:]}")
        return p

    def start(self) -> None:
        p = self.lc("start", "--tablet-servers", str(NUM_TS), "--port", str(PORT), timeout=900)
        line = p.stdout.strip().splitlines()[-1]
        assert line == f"bootstrap.servers={self.bootstrap}", line

    def status(self) -> Dict[str, str]:
        """{process: up | frozen | down}; {} when no cluster state exists."""
        p = self.lc("status", check=False, timeout=60)
        out = {}
        for line in p.stdout.splitlines():
            m = re.match(r"\s+(ts-\d+|cs|zk): (up|frozen|down)\b", line)
            if m:
                out[m.group(1)] = m.group(2)
        return out

    def kill(self, proc: str, wait: bool = True) -> None:
        """SIGKILL; for a tablet server with ``wait``, returns once the coordinator declared it dead."""
        self.lc("kill", *(["--wait"] if wait and proc != "cs" else []), proc)

    def freeze(self, proc: str) -> None:
        self.lc("freeze", proc)

    def thaw(self, proc: str) -> None:
        self.lc("thaw", proc)

    def restart(self, proc: str) -> None:
        """Starts a killed process again; returns when it is ready (see tools/local-cluster)."""
        self.lc("restart", proc)

    # ---- async twins: the event loop (writers, scanners, tickers) keeps running meanwhile

    async def akill(self, proc: str, wait: bool = True) -> None:
        await asyncio.to_thread(self.kill, proc, wait)

    async def afreeze(self, proc: str) -> None:
        await asyncio.to_thread(self.freeze, proc)

    async def athaw(self, proc: str) -> None:
        await asyncio.to_thread(self.thaw, proc)

    async def arestart(self, proc: str) -> None:
        await asyncio.to_thread(self.restart, proc)

    def crash_soon(self, proc: str) -> "Crash":
        """kill -9 of tablet server ``proc`` and, once the coordinator declared it dead, its
        restart, as a task while the caller goes on writing or reading; await it afterwards."""
        return Crash(self, proc)

    # ---- the coordinator's view, from cs.log

    def _cs_lines(self) -> List[str]:
        try:
            return (self.logs / "cs.log").read_text(errors="replace").splitlines()
        except FileNotFoundError:
            return []

    def dead_count(self, ts_id: int) -> int:
        """How often the current coordinator declared tablet server ``ts_id`` dead."""
        pat = f"Tablet server failure callback for {ts_id}."
        return sum(1 for ln in self._cs_lines() if ln.endswith(pat))

    def dead_in_cs_view(self) -> List[int]:
        """Tablet servers the coordinator declared dead and has not seen come back since."""
        last: Dict[int, str] = {}
        for ln in self._cs_lines():
            m = re.search(r"Tablet server failure callback for (\d+)\.$", ln)
            if m:
                last[int(m.group(1))] = "dead"
                continue
            m = re.search(r"New tablet server callback for tablet server (\d+)$", ln)
            if m:
                last[int(m.group(1))] = "up"
        return sorted(t for t, s in last.items() if s == "dead")

    async def await_dead(self, ts_id: int, since: int, bound: float = 90) -> float:
        """Waits until the coordinator declared ``ts_id`` dead once more than ``since`` times
        (``dead_count`` before the fault); returns the seconds waited."""
        t0 = time.monotonic()
        while self.dead_count(ts_id) <= since:
            if time.monotonic() - t0 > bound:
                raise ClusterError(f"the coordinator did not declare ts-{ts_id} dead within {bound}s")
            await asyncio.sleep(0.2)
        return time.monotonic() - t0

    # ---- restore

    def restore(self) -> None:
        """Thaws what is frozen, restarts what is down (cs first), waits until the coordinator
        sees every tablet server; falls back to stop + start."""
        try:
            st = self.status()
            if not st or st.get("zk") != "up":
                raise ClusterError(f"status {st}")
            for proc, s in st.items():
                if s == "frozen":
                    self.thaw(proc)
            if st.get("cs") == "down":
                self.restart("cs")
            for i in range(NUM_TS):
                if st.get(f"ts-{i}") == "down":
                    self.restart(f"ts-{i}")
            deadline = time.monotonic() + 60
            while self.dead_in_cs_view():
                if time.monotonic() > deadline:
                    for t in self.dead_in_cs_view():  # thawed but never re-registered
                        self.kill(f"ts-{t}", wait=False)
                        self.restart(f"ts-{t}")
                    break
                time.sleep(0.25)
            st = self.status()
            if any(s != "up" for s in st.values()) or len(st) != NUM_TS + 2:
                raise ClusterError(f"status after restore: {st}")
        except (ClusterError, subprocess.TimeoutExpired) as e:
            sys.stderr.write(f"\nfault cluster restore failed ({e}); restarting it\n")
            self.lc("stop", check=False, timeout=600)
            self.start()


class Crash:
    """A running Cluster.crash_soon: awaitable (it ends once the server is back);
    ``killed_at`` is the monotonic time the process was gone (None before), so what is
    acknowledged or read after it was served by another server."""

    def __init__(self, cluster: Cluster, proc: str):
        self.killed_at: Optional[float] = None
        self._task = asyncio.ensure_future(self._run(cluster, proc))

    async def _run(self, cluster: Cluster, proc: str) -> None:
        since = cluster.dead_count(ts_id(proc))
        await cluster.akill(proc, wait=False)
        self.killed_at = time.monotonic()
        await cluster.await_dead(ts_id(proc), since)
        await cluster.arestart(proc)

    def __await__(self):
        return self._task.__await__()


@pytest.fixture(scope="session")
def cluster() -> Cluster:
    c = Cluster()
    c.start()
    c.restore()
    os.environ["FLUSS_FAULTS_BOOTSTRAP_SERVERS"] = c.bootstrap
    return c


_CREATED: List[fluss.TablePath] = []


@pytest.fixture(autouse=True)
async def _restore_after_test(cluster):
    """Every test starts on a whole, unfrozen cluster, even when the previous one failed; the
    tables it made are dropped (fewer buckets for every later restart to recover)."""
    yield
    await asyncio.to_thread(cluster.restore)
    paths = list(_CREATED)
    _CREATED.clear()
    if not paths:
        return
    try:
        c = await connect(cluster)
        try:
            a = await c.get_admin()
            for p in paths:
                await asyncio.wait_for(a.drop_table(p, ignore_if_not_exists=True), 30)
        finally:
            c.close()
    except (fluss.FlussError, asyncio.TimeoutError) as e:
        sys.stderr.write(f"\nnote: dropping the test's tables failed: {e}\n")


@pytest.fixture(autouse=True)
def _watchdog(request):
    """Interrupts a test that hangs (a client call that never returns) after TEST_LIMIT_S."""
    def fire():
        sys.stderr.write(f"\n{request.node.nodeid}: still running after {TEST_LIMIT_S}s; tracebacks:\n")
        faulthandler.dump_traceback(all_threads=True)
        _thread.interrupt_main()

    t = threading.Timer(TEST_LIMIT_S, fire)
    t.daemon = True
    t.start()
    yield
    t.cancel()


def pytest_generate_tests(metafunc):
    if "soak_run" in metafunc.fixturenames:
        metafunc.parametrize("soak_run", range(SOAK_RUNS), ids=[f"run{i}" for i in range(SOAK_RUNS)])


def record_stats(scenario: str, **numbers) -> None:
    """One JSON line per soak-scenario run, for tools/fault-soak."""
    line = json.dumps({"scenario": scenario, **numbers})
    sys.stderr.write(f"\nstats: {line}\n")
    if STATS_FILE:
        with open(STATS_FILE, "a") as f:
            f.write(line + "\n")


# ------------------------------------------------------------------------------- client helpers


def config(cluster: Cluster, props: Optional[dict] = None, bootstrap: Optional[str] = None):
    """A fluss.Config for the fault cluster: ``props`` plus its bootstrap.servers."""
    return fluss.Config({"bootstrap.servers": bootstrap or cluster.bootstrap, **(props or {})})


async def connect(cluster: Cluster, props: Optional[dict] = None, bound: float = 60):
    return await asyncio.wait_for(fluss.FlussConnection.connect(config(cluster, props)), bound)


def close_quietly(conn) -> None:
    """close() that does not mask a test's own failure (close flushes and may raise)."""
    try:
        conn.close()
    except fluss.FlussError as e:
        sys.stderr.write(f"\nnote: close: {e}\n")


@pytest.fixture
async def conn(cluster):
    c = await connect(cluster, {"client.request-timeout": "10s"})
    yield c
    try:
        c.close()
    except fluss.FlussError:
        pass


@pytest.fixture
async def admin(conn):
    return await conn.get_admin()


SCHEMA = pa.schema([("id", pa.int64()), ("k", pa.int32()), ("pad", pa.string())])
PAD = "p" * 40


def rows_batch(start: int, n: int, keys: int = 12) -> pa.RecordBatch:
    """Rows id = start .. start+n-1, k = id % keys (the bucket key of keyed tables)."""
    ids = pa.array(range(start, start + n), pa.int64())
    return pa.record_batch([ids, pa.array([i % keys for i in range(start, start + n)], pa.int32()),
                            pa.array([PAD] * n)], schema=SCHEMA)


def row(i: int, keys: int = 12) -> dict:
    return {"id": i, "k": i % keys, "pad": PAD}


def unique_name(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


async def new_table(conn, admin, prefix: str, buckets: int = 3, keyed: bool = False, bound: float = 90, *,
                    schema: Optional[fluss.Schema] = None, bucket_keys: Optional[List[str]] = None,
                    partition_keys: Optional[List[str]] = None, partitions: Sequence[str] = ()):
    """A fresh table fluss.<prefix>_<uuid> (replication factor 3); returns (path, table) once
    every bucket (of every partition) has a leader that answers ListOffsets.

    By default a log table of SCHEMA (bucket key k when ``keyed``); ``schema`` (a fluss.Schema,
    with primary keys for a primary-key table), ``bucket_keys``, ``partition_keys`` and the
    ``partitions`` to create (values of the one partition key) make the other kinds."""
    desc = fluss.TableDescriptor(schema or fluss.Schema(SCHEMA), bucket_count=buckets,
                                 bucket_keys=bucket_keys or (["k"] if keyed else None), partition_keys=partition_keys,
                                 properties={"table.replication.factor": "3"})

    async def ready(path):
        if not partition_keys:
            await asyncio.wait_for(admin.list_offsets(path, list(range(buckets)), fluss.OffsetType.LATEST), 30)
        for value in partitions:
            await asyncio.wait_for(
                admin.list_partition_offsets(path, value, list(range(buckets)), fluss.OffsetType.LATEST), 30)

    for attempt in range(3):
        path = fluss.TablePath("fluss", unique_name(prefix))
        await asyncio.wait_for(admin.create_table(path, desc), bound)
        _CREATED.append(path)
        # A partition of a table the coordinator missed would wedge it (tests/support/served_tables.py).
        if partition_keys and not await asyncio.wait_for(
                wait_until_served(admin, path, pathlib.Path(HOME) / "logs" / "cs.log", 30), bound):
            sys.stderr.write(f"\nnote: the coordinator missed {path}; creating another\n")
            continue
        for value in partitions:
            await asyncio.wait_for(admin.create_partition(path, {partition_keys[0]: value}), bound)
        deadline = time.monotonic() + 30
        while True:
            try:
                await ready(path)
                return path, await asyncio.wait_for(conn.get_table(path), bound)
            except (fluss.FlussError, asyncio.TimeoutError) as e:
                if time.monotonic() > deadline:
                    # Server race (Fluss 0.9.1), seen right after a coordinator restart while
                    # another table was being dropped: the table is registered in ZooKeeper but
                    # the coordinator never assigns its bucket leaders. Use another table.
                    sys.stderr.write(f"\nnote: {path} has no bucket leaders after 30s ({e}); creating another\n")
                    break
                await asyncio.sleep(0.5)
    raise AssertionError(f"3 new tables in a row got no bucket leaders within 30s")


async def bucket_leaders(admin, path, partition: Optional[str] = None) -> Optional[Dict[int, int]]:
    """{bucket: tablet server id} of the table (or of its partition ``partition``), fresh from
    the coordinator, when the client has it."""
    if not hasattr(admin, "_bucket_leaders"):
        return None
    return dict(await asyncio.wait_for(admin._bucket_leaders(path, partition), 30))


async def leader_proc(admin, path, bucket: int = 0, partition: Optional[str] = None) -> str:
    """The process id (ts-N) leading ``bucket`` (of ``partition``); ts-0 when the client cannot
    tell (3 buckets on 3 servers: each server usually leads one bucket)."""
    leaders = await bucket_leaders(admin, path, partition)
    if leaders is None:
        return "ts-0"
    return f"ts-{leaders[bucket]}"


async def victim_of(admin, path, bucket: int = 0, partition: Optional[str] = None):
    """(ts-N, {buckets it leads}): the tablet server leading ``bucket`` (of ``partition``) and
    every bucket of the table (or partition) it leads; (ts-0, {bucket}) when the client cannot
    tell."""
    leaders = await bucket_leaders(admin, path, partition)
    if leaders is None:
        return "ts-0", {bucket}
    return f"ts-{leaders[bucket]}", {b for b, t in leaders.items() if t == leaders[bucket]}


def ts_id(proc: str) -> int:
    return int(proc.split("-")[1])


async def latest_offsets(admin, path, buckets: int = 3, bound: float = 60) -> Dict[int, int]:
    return await asyncio.wait_for(admin.list_offsets(path, list(range(buckets)), fluss.OffsetType.LATEST), bound)


async def retry(fn, bound: float = 90, what: str = "call"):
    """``await fn()`` again after retriable FlussErrors, for setup steps that must succeed."""
    deadline = time.monotonic() + bound
    while True:
        try:
            return await asyncio.wait_for(fn(), max(1.0, deadline - time.monotonic()))
        except fluss.FlussError as e:
            if not e.is_retriable() or time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)


async def read_buckets(admin, path, table, buckets: int = 3, bound: float = 180):
    """Every record of every bucket, read with poll_batches to the current latest offsets.
    Returns ({bucket: [ids in offset order]}, [problems]): a problem is an offset gap or
    overlap between consecutive batches of a bucket (a missed or repeated record)."""
    ends = await retry(lambda: latest_offsets(admin, path, buckets), what="list_offsets")
    starts = await retry(lambda: asyncio.wait_for(
        admin.list_offsets(path, list(range(buckets)), fluss.OffsetType.EARLIEST), 60), what="list_offsets")
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(buckets)})
    ids: Dict[int, List[int]] = {b: [] for b in range(buckets)}
    nxt = dict(starts)
    problems: List[str] = []
    deadline = time.monotonic() + bound
    while any(nxt[b] < ends[b] for b in range(buckets)):
        if time.monotonic() > deadline:
            raise AssertionError(f"read_buckets: at {nxt}, want {ends} after {bound}s")
        for rb in await asyncio.wait_for(scanner.poll_batches_async(1000), 60):
            b = rb.bucket.bucket_id
            if rb.base_offset != nxt[b]:
                problems.append(f"bucket {b}: batch at offset {rb.base_offset}, expected {nxt[b]}")
            ids[b].extend(rb.batch.column(0).to_pylist())
            nxt[b] = rb.last_offset + 1
    return ids, problems


async def read_all_ids(table, buckets: int = 3, bound: float = 180) -> List[int]:
    """Every id of the table, by a batch scanner's to_arrow_async (EARLIEST, all buckets)."""
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(buckets)})
    t = await asyncio.wait_for(scanner.to_arrow_async(), bound)
    return t.column("id").to_pylist()


async def read_changelog(scanner, last: Dict[tuple, int], bound: float = 180):
    """Polls the record scanner ``scanner`` (subscribed by the caller) until, for every
    ``(partition_id, bucket_id)`` in ``last`` (partition_id None for a non-partitioned table),
    the record at offset ``last[...]`` arrived (-1: the bucket is empty). Returns
    (records, [problems]): a problem is a record at or below an offset already seen in its bucket
    (a repeat) or beyond ``last``. The caller makes the record at ``last`` exist: a batch with no
    records (a primary-key table's answer to deletes of absent keys) takes an offset that no
    record shows."""
    records = []
    problems: List[str] = []
    top: Dict[tuple, int] = {}
    deadline = time.monotonic() + bound
    while any(top.get(key, -1) < off for key, off in last.items()):
        if time.monotonic() > deadline:
            raise AssertionError(f"read_changelog: at {top}, want {last} after {bound}s")
        for r in await asyncio.wait_for(scanner.poll_async(1000), 60):
            key = (r.bucket.partition_id, r.bucket.bucket_id)
            if r.offset <= top.get(key, -1) or r.offset > last.get(key, -1):
                problems.append(f"{key}: record at offset {r.offset} after offset {top.get(key, -1)} "
                                f"(last {last.get(key)})")
            top[key] = max(top.get(key, -1), r.offset)
            records.append(r)
    return records, problems


class BackgroundPoll:
    """A record scanner (subscribed by the caller) polled by a task from construction on:
    ``records`` in arrival order, ``arrivals[(partition_id, bucket_id)]`` = [(monotonic time,
    row id)] (partition_id None for a non-partitioned table). ``await finish(want)`` once the
    writes are done: polls on until ``want`` records came, or 90 s more (the assertions then
    say what is missing)."""

    def __init__(self, scanner):
        self.scanner = scanner
        self.records: list = []
        self.arrivals: Dict[tuple, List[tuple]] = {}
        self._stop = 0.0
        self._want = 0
        self._task = asyncio.ensure_future(self._run())

    async def _run(self):
        while not self._stop or (len(self.records) < self._want and time.monotonic() < self._stop + 90):
            got = await asyncio.wait_for(self.scanner.poll_async(500), 60)
            now = time.monotonic()
            for r in got:
                self.arrivals.setdefault((r.bucket.partition_id, r.bucket.bucket_id), []).append((now, r.row["id"]))
            self.records.extend(got)

    async def finish(self, want: int, bound: float = 240) -> None:
        self._want = want
        self._stop = time.monotonic()
        try:
            await asyncio.wait_for(self._task, bound)
        finally:
            self._task.cancel()

    def offset_gaps(self) -> Dict[tuple, int]:
        """{(partition_id, bucket_id): records} of the buckets whose offsets are not 0, 1, ..."""
        offsets: Dict[tuple, List[int]] = {}
        for r in self.records:
            offsets.setdefault((r.bucket.partition_id, r.bucket.bucket_id), []).append(r.offset)
        return {key: len(o) for key, o in offsets.items() if o != list(range(len(o)))}

    def repeats(self) -> int:
        """Records polled more than once (same bucket and offset)."""
        seen = [(r.bucket.partition_id, r.bucket.bucket_id, r.offset) for r in self.records]
        return len(seen) - len(set(seen))

    def recovery(self, buckets, since: float, first_id: int) -> List[float]:
        """Seconds from ``since`` (a Crash's killed_at) to the first record with id >=
        ``first_id`` (the first row written after ``since``, so stored by a new leader) of each
        of ``buckets`` ((partition_id, bucket_id) keys) that has one: recovery as the poller saw
        it."""
        return [min(t for t, i in self.arrivals[key] if i >= first_id) - since
                for key in buckets if any(i >= first_id for _, i in self.arrivals.get(key, []))]


def dup_count(ids: List[int]) -> int:
    return len(ids) - len(set(ids))


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Ticker:
    """A 10 ms ticker task: counts how often the event loop let it run."""

    def __init__(self):
        self.ticks = 0
        self._task = None

    async def _run(self):
        while True:
            await asyncio.sleep(0.01)
            self.ticks += 1

    def __enter__(self):
        self._task = asyncio.ensure_future(self._run())
        return self

    def __exit__(self, *exc):
        self._task.cancel()
