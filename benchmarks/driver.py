#!/usr/bin/env python3
"""One benchmark run of one client in its own process (see benchmarks/README.md).

    python driver.py --client ours ...                     # system Python, our package `fluss`
    .venv-pyfluss/bin/python driver.py --client pyfluss ...  # pyfluss 1.0.0, also `import fluss`

A run creates its own table(s) in --database, runs the selected workloads' phases, checks every
read-back (row count + checksums; a wrong one voids the run) and drops its tables. Each phase's
result is appended to --result-file as one JSON line as soon as it is known, so a later hang or
crash still leaves the earlier phases (compare.py kills the process on timeout).

Workloads (one compression regime per run, --compression NONE|ZSTD):
  W1  append --rows dicts (prepared before the window) + flush   -> phase W1.append_dicts
      then read everything back with to_arrow                   -> phase W1.read_to_arrow
      and with a record scanner's poll, every record's row dict -> phase W1.poll_records
  W1B append --rows tuples (prepared before the window) + flush  -> phase W1b.append_tuples
      (checked by an untimed read-back)
  W2  write_arrow_batch of --batch-rows-row RecordBatches + flush -> phase W2.write_arrow_batch
      (checked by an untimed read-back, or by W3 when it runs in the same process)
  W3  scan the table to Arrow, all columns                       -> phase W3.scan_all
      the same again, the first result freed (a warm read)      -> phase W3.scan_all_warm
      and one column through a projection                       -> phase W3.scan_one_col
      and, on a fresh scanner, poll_arrow until the first batch  -> phase W3.first_batch
      (the table is W2's when W2 ran in this process, else it is loaded untimed first)
  W4  primary-key table (id BIGINT PK, k INT, v DOUBLE, s STRING, ts BIGINT), dicts prepared
      before each window, one upsert writer:
      upsert --rows new keys + flush                            -> phase W4.insert
      upsert --updates random existing keys + flush             -> phase W4.update
      each checked by lookups of a fixed sample of keys (last write, and missing keys -> None)
  W5  point lookups on a preloaded primary-key table of --w5-keys keys, 95% hits: for each
      of --w5-levels in flight (asyncio tasks each awaiting lookup), --w5-warmup s untimed,
      then a --w5-seconds window; every answer is checked    -> phase W5.inflight_<level>
      (the table is --w5-table, preloaded by an earlier --w5-preload-only run, or this run's)
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import math
import os
import platform
import resource
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402

from dataset import ARROW_SCHEMA, COLUMNS, PK_ARROW_SCHEMA, Dataset, PkDataset, checksum_columns  # noqa: E402

MiB = 1024 * 1024

# The knobs, identical in meaning for both clients; each client's own key names below.
KNOBS = {
    "batch_size": 2 * MiB,
    "batch_timeout_ms": 100,
    "acks": "all",
    "retries": 2147483647,
    "request_max_size": 10 * MiB,
    "buffer_memory": 64 * MiB,
    "idempotence": True,
    "fetch_max_bytes": 16 * MiB,
    "fetch_max_bytes_for_bucket": 1 * MiB,
    "fetch_min_bytes": 1,
    "fetch_wait_max_ms": 500,
    "connect_timeout_ms": 120000,
    # lookups (pyfluss 1.0.0 has no keys for them: these are its fixed values, the Java client's defaults)
    "lookup_max_batch_size": 128,
    "lookup_max_inflight_requests": 128,
}


def _import_fluss(client: str):
    """Imports `fluss`, retrying a little: the other engineer may be reinstalling our package."""
    last = None
    for attempt in range(10):
        try:
            import fluss  # noqa: F401

            return fluss
        except Exception as e:  # ImportError, or a half-written .so
            last = e
            for m in [m for m in sys.modules if m == "fluss" or m.startswith("fluss.")]:
                del sys.modules[m]
            time.sleep(3)
    raise RuntimeError(f"cannot import fluss for client {client}: {last!r}")


# ================================================================================ client adapters


class _Client:
    name = "?"

    def __init__(self, fluss, args):
        self.f = fluss
        self.args = args

    def version_info(self) -> dict:
        raise NotImplementedError


class OursClient(_Client):
    """Our package (distribution fluss-cpp), seed API."""

    name = "ours"

    def config(self) -> dict:
        k = KNOBS
        return {
            "bootstrap.servers": self.args.bootstrap,
            "writer.batch.size": str(k["batch_size"]),
            "client.writer.batch-timeout": str(k["batch_timeout_ms"]),
            "writer.acks": k["acks"],
            "writer.retries": str(k["retries"]),
            "request.max.size": str(k["request_max_size"]),
            "client.writer.buffer.memory-size": str(k["buffer_memory"]),
            "client.writer.enable-idempotence": "true" if k["idempotence"] else "false",
            "client.scanner.log.fetch.max-bytes": str(k["fetch_max_bytes"]),
            "client.scanner.log.fetch.max-bytes-for-bucket": str(k["fetch_max_bytes_for_bucket"]),
            "client.scanner.log.fetch.min-bytes": str(k["fetch_min_bytes"]),
            "client.scanner.log.fetch.wait-max-time": str(k["fetch_wait_max_ms"]),
            "client.connect-timeout": str(k["connect_timeout_ms"]),
            "client.lookup.max-batch-size": str(k["lookup_max_batch_size"]),
            "client.lookup.max-inflight-requests": str(k["lookup_max_inflight_requests"]),
        }

    def version_info(self) -> dict:
        from importlib.metadata import version

        return {
            "client": "ours",
            "distribution": "fluss-cpp",
            "version": version("fluss-cpp"),
            "module_version": getattr(self.f, "__version__", None),
            "module_file": self.f.__file__,
        }

    async def connect(self):
        self.conn = await self.f.FlussConnection.connect(self.f.Config(self.config()))
        self.admin = await self.conn.get_admin()

    async def create_database(self, db):
        await self.admin.create_database(db, ignore_if_exists=True)

    async def create_table(self, path, descriptor):
        await self.admin.create_table(path, descriptor, ignore_if_exists=False)

    async def table_properties(self, path) -> dict:
        return (await self.admin.get_table(path)).get_properties()

    async def get_table(self, path):
        return await self.conn.get_table(path)

    async def new_writer(self, table):
        return await table.new_append_writer()

    async def new_upsert_writer(self, table):
        return table.new_upsert()

    async def new_lookuper(self, table):
        return table.new_lookup()

    async def new_scanner(self, table, columns=None):
        scan = table.new_scan()
        if columns:
            scan = scan.project_by_name(list(columns))
        return await scan.create_batch_scanner()

    async def read_all(self, scanner, num_buckets):
        """Timed: subscribe every bucket from EARLIEST_OFFSET, then to_arrow."""
        scanner.subscribe_buckets({b: self.f.EARLIEST_OFFSET for b in range(num_buckets)})
        return scanner.to_arrow()

    async def new_record_scanner(self, table):
        return await table.new_scan().create_log_scanner()

    async def poll(self, scanner, timeout_ms):
        return await scanner.poll_async(timeout_ms)

    async def poll_arrow(self, scanner, timeout_ms):
        return await scanner.poll_arrow_async(timeout_ms)

    async def drop_table(self, path):
        await self.admin.drop_table(path, ignore_if_not_exists=True)

    async def close(self):
        self.conn.close()


class PyflussClient(_Client):
    """pyfluss 1.0.0 (PyPI), its HEAD-style API (section 3 of docs/python-api.md), checked against
    the installed package's fluss/__init__.pyi."""

    name = "pyfluss"

    def config(self) -> dict:
        k = KNOBS
        return {
            "bootstrap.servers": self.args.bootstrap,
            "writer.batch-size": str(k["batch_size"]),
            # pyfluss grows/shrinks batches by default (ours has no such thing): pin it to the
            # fixed batch size so both clients build the same 2 MiB batches.
            "writer.dynamic-batch-size.enabled": "false",
            "writer.batch-timeout-ms": str(k["batch_timeout_ms"]),
            "writer.acks": k["acks"],
            "writer.retries": str(k["retries"]),
            "writer.request-max-size": str(k["request_max_size"]),
            "writer.buffer.memory-size": str(k["buffer_memory"]),
            "writer.enable-idempotence": "true" if k["idempotence"] else "false",
            "writer.bucket.no-key-assigner": "sticky",
            # pyfluss's (and the Java client's) default; ours has no such knob (see README)
            "writer.max-inflight-requests-per-bucket": "5",
            "scanner.log.fetch.max-bytes": str(k["fetch_max_bytes"]),
            "scanner.log.fetch.max-bytes-for-bucket": str(k["fetch_max_bytes_for_bucket"]),
            "scanner.log.fetch.min-bytes": str(k["fetch_min_bytes"]),
            "scanner.log.fetch.wait-max-time-ms": str(k["fetch_wait_max_ms"]),
            "connect-timeout": str(k["connect_timeout_ms"]),
        }

    def version_info(self) -> dict:
        from importlib.metadata import version

        return {
            "client": "pyfluss",
            "distribution": "pyfluss",
            "version": version("pyfluss"),
            "module_version": getattr(self.f, "__version__", None),
            "module_file": self.f.__file__,
        }

    async def connect(self):
        self.conn = await self.f.FlussConnection.create(self.f.Config(self.config()))
        self.admin = self.conn.get_admin()  # synchronous in pyfluss 1.0.0

    async def create_database(self, db):
        await self.admin.create_database(db, ignore_if_exists=True)

    async def create_table(self, path, descriptor):
        await self.admin.create_table(path, descriptor, ignore_if_exists=False)

    async def table_properties(self, path) -> dict:
        return (await self.admin.get_table_info(path)).get_properties()

    async def get_table(self, path):
        return await self.conn.get_table(path)

    async def new_writer(self, table):
        return table.new_append().create_writer()

    async def new_upsert_writer(self, table):
        return table.new_upsert().create_writer()

    async def new_lookuper(self, table):
        # One Lookuper holds a lock across each lookup (see README): lookups through the same
        # Lookuper run one at a time, each waiting out the 100 ms lookup batch window.
        return table.new_lookup().create_lookuper()

    async def new_scanner(self, table, columns=None):
        scan = table.new_scan()
        if columns:
            scan = scan.project_by_name(list(columns))
        return await scan.create_record_batch_log_scanner()

    async def read_all(self, scanner, num_buckets):
        scanner.subscribe_buckets({b: self.f.EARLIEST_OFFSET for b in range(num_buckets)})
        return await scanner.to_arrow()

    async def new_record_scanner(self, table):
        return await table.new_scan().create_log_scanner()

    async def poll(self, scanner, timeout_ms):
        return await scanner.poll(timeout_ms)  # ScanRecords: iterating yields every ScanRecord

    async def poll_arrow(self, scanner, timeout_ms):
        return await scanner.poll_arrow(timeout_ms)

    async def drop_table(self, path):
        await self.admin.drop_table(path, ignore_if_not_exists=True)

    async def close(self):
        await self.conn.close()


CLIENTS = {"ours": OursClient, "pyfluss": PyflussClient}


# ================================================================================ measurement


def _rss_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _reset_peak_rss() -> bool:
    """Resets VmHWM to the current RSS (Linux >= 4.0), so the peak covers the window only."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


class Window:
    """Wall clock, getrusage(RUSAGE_SELF) user+sys CPU (all threads) and peak RSS over a block."""

    def __enter__(self):
        self.rss_before_kib = _rss_kib("VmRSS")
        self.peak_reset = _reset_peak_rss()
        self.ru0 = resource.getrusage(resource.RUSAGE_SELF)
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.t1 = time.perf_counter()
        self.ru1 = resource.getrusage(resource.RUSAGE_SELF)
        self.peak_kib = _rss_kib("VmHWM") if self.peak_reset else self.ru1.ru_maxrss
        return False

    def metrics(self, rows: int, logical_bytes: int) -> dict:
        wall = self.t1 - self.t0
        user = self.ru1.ru_utime - self.ru0.ru_utime
        sys_ = self.ru1.ru_stime - self.ru0.ru_stime
        cpu = user + sys_
        return {
            "rows": rows,
            "logical_bytes": logical_bytes,
            "wall_s": wall,
            "rows_per_s": rows / wall if wall > 0 else None,
            "mb_per_s": logical_bytes / 1e6 / wall if wall > 0 else None,
            "cpu_user_s": user,
            "cpu_sys_s": sys_,
            "cpu_s": cpu,
            "cpu_util": cpu / wall if wall > 0 else None,
            "cpu_s_per_gb": cpu / (logical_bytes / 1e9) if logical_bytes else None,
            "cpu_s_per_mrows": cpu / (rows / 1e6) if rows else None,
            "rss_before_mib": self.rss_before_kib / 1024,
            "peak_rss_mib": self.peak_kib / 1024,
            "peak_rss_delta_mib": (self.peak_kib - self.rss_before_kib) / 1024,
            "peak_rss_window_only": self.peak_reset,
        }


async def timed_writes(write, items, writer, timeout) -> Window:
    """The window of W1, W2 and W4: from the first ``write(item)`` to ``writer.flush()`` returned."""
    with Window() as w:
        for item in items:
            write(item)
        await asyncio.wait_for(writer.flush(), timeout)
    return w


# ================================================================================ the run


class Run:
    def __init__(self, args):
        self.args = args
        self.phase = None  # set by the W4/W5 functions, for the failure record
        self.out = open(args.result_file, "a", buffering=1)
        self.base = {
            "run_id": args.run_id,
            "client": args.client,
            "pair": args.pair,
            "compression": args.compression,
            "rows_requested": args.rows,
            "seed": args.seed,
            "pid": os.getpid(),
        }

    def emit(self, **rec):
        rec = {**self.base, **rec, "time": time.time()}
        if rec.get("kind") == "phase" and self.args.phase_suffix:
            rec["phase"] += self.args.phase_suffix
        self.out.write(json.dumps(rec, default=str) + "\n")
        self.out.flush()

    def log(self, msg):
        print(f"[{self.args.client} {self.args.run_id}] {msg}", file=sys.stderr, flush=True)


def _verify(table: pa.Table, ds: Dataset, columns) -> tuple:
    """(ok, details) for a read-back: column names and types, row count and checksums."""
    problems = []
    if table.schema.names != list(columns):
        problems.append(f"columns {table.schema.names} != {list(columns)}")
    else:
        for c in columns:
            if table.schema.field(c).type != ARROW_SCHEMA.field(c).type:
                problems.append(f"column {c}: type {table.schema.field(c).type} != {ARROW_SCHEMA.field(c).type}")
    want = ds.expected_for(columns)
    got = checksum_columns({c: table[c] for c in columns}) if not problems else {"count": table.num_rows}
    for key, val in want.items():
        if got.get(key) != val:
            problems.append(f"{key}: got {got.get(key)} want {val}")
    return (not problems), {"checksum_got": got, "checksum_want": want, "problems": problems}


async def cleanup(args) -> int:
    """Drops every table of --database whose name starts with --cleanup (after a killed run)."""
    fluss = _import_fluss(args.client)
    client = CLIENTS[args.client](fluss, args)
    await client.connect()
    try:
        if not await client.admin.database_exists(args.database):
            return 0
        for name in await client.admin.list_tables(args.database):
            if name.startswith(args.cleanup):
                await client.drop_table(fluss.TablePath(args.database, name))
                print(f"dropped {args.database}.{name}", file=sys.stderr)
    finally:
        await client.close()
    return 0


def _stored_bytes(data_dir, database, table) -> int | None:
    """Bytes of the table's log segments on the tablet servers' disks, when they are local
    (<data dir>/ts-*/<db>/<table>-<id>/log-<bucket>/*.log): shows whether batches were compressed."""
    if not data_dir or not os.path.isdir(data_dir):
        return None
    total, seen = 0, False
    for ts in os.listdir(data_dir):
        db_dir = os.path.join(data_dir, ts, database)
        if not os.path.isdir(db_dir):
            continue
        for d in os.listdir(db_dir):
            if d.rsplit("-", 1)[0] != table:
                continue
            for root, _, files in os.walk(os.path.join(db_dir, d)):
                for f in files:
                    if f.endswith(".log"):
                        seen = True
                        total += os.path.getsize(os.path.join(root, f))
    return total if seen else None


# ================================================================================ W4 / W5: primary-key table


def pk_descriptor(fluss, args, props):
    return fluss.TableDescriptor(fluss.Schema(PK_ARROW_SCHEMA, primary_keys=["id"]), bucket_count=args.buckets,
                                 properties=props)


async def lookup_gate(client, table, pk: PkDataset, keys, after_updates: bool, concurrency: int) -> dict:
    """Untimed check: looks ``keys`` up (``concurrency`` tasks, each with its own Lookuper, so
    that pyfluss's per-Lookuper lock does not serialize them) and compares every answer with
    the last write of the key (None for a key never written)."""
    lookupers = [await client.new_lookuper(table) for _ in range(max(1, min(concurrency, len(keys))))]
    todo = iter(keys)
    counts = {"checked": 0, "hits": 0, "misses": 0, "wrong": 0}
    problems = []

    async def worker(lookuper):
        for key in todo:  # shared iterator: each key is looked up once
            got = await lookuper.lookup({"id": key})
            want = pk.expected_row(key, after_updates)
            counts["checked"] += 1
            counts["hits" if want is not None else "misses"] += 1
            if got != want:
                counts["wrong"] += 1
                if len(problems) < 5:
                    problems.append(f"key {key}: got {got!r}, want {want!r}")

    await asyncio.gather(*(worker(lk) for lk in lookupers))
    if counts["wrong"]:
        problems.insert(0, f"{counts['wrong']} of {counts['checked']} gate lookups wrong")
    return {"gate": counts, "problems": problems}


def _gate_keys(args, pk):
    return pk.gate_keys(args.gate_sample, max(1, args.gate_sample // 20))


async def w4_upserts(run, client, args, fresh_table, props) -> bool:
    """W4: upsert --rows new keys (phase W4.insert), then --updates random existing keys
    (W4.update), one writer, flush at the end of each phase; a lookup gate after each."""
    run.phase = "W4.prepare"
    pk = PkDataset(args.rows, args.updates, args.seed)
    path, table = await fresh_table("w4", pk_descriptor(client.f, args, props))
    run.emit(kind="table", workload="W4", table=path.table_path_str(), properties=await client.table_properties(path))
    writer = await client.new_upsert_writer(table)
    upsert = writer.upsert
    gate_keys = _gate_keys(args, pk)
    ok_all = True
    for name, make_rows, n, kind in (("W4.insert", pk.insert_dicts, pk.n, "insert"),
                                     ("W4.update", pk.update_dicts, pk.updates, "update")):
        if n == 0:
            continue
        run.phase = name
        rows = make_rows()  # before the window
        run.log(f"{name}: {len(rows)} upserts")
        w = await timed_writes(upsert, rows, writer, args.phase_timeout)
        del rows
        run.phase = f"{name}.gate"
        gate = await asyncio.wait_for(lookup_gate(client, table, pk, gate_keys, kind == "update", args.gate_concurrency),
                                      args.phase_timeout)
        ok = not gate["problems"]
        run.emit(kind="phase", phase=name, status="ok" if ok else "void", **w.metrics(n, pk.logical_bytes(kind)),
                 verified_by="lookups of a fixed sample of keys", **gate)
        ok_all = ok_all and ok
    return ok_all


async def w5_preload(run, client, args, table, pk) -> bool:
    """Untimed: upserts W5's keys 0..n-1 and checks them with the lookup gate."""
    run.phase = "W5.preload"
    writer = await client.new_upsert_writer(table)
    wall = (await timed_writes(writer.upsert, pk.insert_dicts(), writer, args.phase_timeout)).metrics(pk.n, 0)["wall_s"]
    gate = await asyncio.wait_for(lookup_gate(client, table, pk, _gate_keys(args, pk), False, args.gate_concurrency),
                                  args.phase_timeout)
    run.log(f"W5.preload: {pk.n} keys in {wall:.1f}s, gate {gate['gate']} {gate['problems'] or 'ok'}")
    run.emit(kind="preload", workload="W5", keys=pk.n, wall_s=wall, **gate)
    return not gate["problems"]


def latency_summary(lat_ns) -> dict:
    """Percentiles in ms from a log histogram of 100 buckets per decade (each 2.3% wide; a
    percentile is its bucket's geometric middle, so within 1.2%), and the histogram itself."""
    if not lat_ns:
        return {}
    a = np.maximum(np.asarray(lat_ns, dtype=np.float64), 1.0)
    idx = np.floor(np.log10(a) * 100).astype(np.int64)
    first = int(idx.min())
    counts = np.bincount(idx - first)
    cum = np.cumsum(counts)
    out = {"latency_histogram": {"unit": "ns", "buckets_per_decade": 100, "first_bucket": first,
                                 "counts": counts.tolist()}}
    for q, key in ((0.5, "p50_ms"), (0.9, "p90_ms"), (0.99, "p99_ms"), (0.999, "p999_ms")):
        b = int(np.searchsorted(cum, math.ceil(q * int(cum[-1]))))
        out[key] = 10 ** ((first + b + 0.5) / 100) / 1e6
    out["max_ms"] = float(a.max()) / 1e6
    return out


async def lookup_level(lookups, keys, expected, warmup_s, seconds, timeout) -> tuple:
    """One W5 level: a task per entry of ``lookups`` (a bound ``lookup`` method), each awaiting
    one lookup at a time, the keys taken in turn from ``keys``; ``warmup_s`` untimed, then a
    ``seconds`` window in which every completed lookup's latency is recorded. Every answer (also
    in the warm-up) is compared with ``expected``. Returns (window, latencies in ns, state)."""
    st = type("LevelState", (), {})()
    st.measuring, st.stop, st.wrong, st.examples = False, False, 0, []
    lat = []
    record = lat.append
    take = itertools.count().__next__
    m = len(keys)
    clock = time.perf_counter_ns

    async def worker(lookup):
        while not st.stop:
            j = take() % m
            t0 = clock()
            got = await lookup(keys[j])
            t1 = clock()
            if st.measuring:
                record(t1 - t0)
            if got != expected[j]:
                st.wrong += 1
                if len(st.examples) < 5:
                    st.examples.append(f"{keys[j]}: got {got!r}, want {expected[j]!r}")

    tasks = [asyncio.ensure_future(worker(lk)) for lk in lookups]
    try:
        await asyncio.sleep(warmup_s)
        with Window() as w:
            st.measuring = True
            await asyncio.sleep(seconds)
            st.measuring = False
    finally:
        st.stop = True
        # lookups still queued (pyfluss: behind one Lookuper's lock) need not finish: cancel
        # what is still pending after a grace period; a worker's own error is raised
        _, pending = await asyncio.wait(tasks, timeout=min(timeout, 5))
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for t in tasks:
            if t not in pending and t.exception() is not None:
                raise t.exception()
    return w, lat, st


async def w5_lookups(run, client, args, fresh_table, props) -> bool:
    """W5: point lookups with each of --w5-levels in flight on a table of --w5-keys keys."""
    run.phase = "W5.prepare"
    fluss = client.f
    pk = PkDataset(args.w5_keys, 0, args.seed)
    desc = pk_descriptor(fluss, args, props)
    if args.w5_table and not args.w5_preload_only:
        path = fluss.TablePath(args.database, args.w5_table)  # preloaded by an earlier process
        table = await client.get_table(path)
    else:
        path, table = await fresh_table("w5", desc, name=args.w5_table, keep=args.w5_preload_only)
        if not await w5_preload(run, client, args, table, pk):
            return False
        if args.w5_preload_only:
            return True
    run.emit(kind="table", workload="W5", table=path.table_path_str(), properties=await client.table_properties(path))
    keys, expected = pk.lookup_keys(args.w5_key_count, args.w5_miss_ratio)  # before the windows
    levels = [int(x) for x in args.w5_levels.split(",") if x.strip()]
    if args.w5_lookupers == "shared":
        shared = await client.new_lookuper(table)
        pool = [shared] * max(levels)
    else:
        pool = [await client.new_lookuper(table) for _ in range(max(levels))]
    ok_all = True
    for level in levels:
        name = f"W5.inflight_{level}"
        run.phase = name
        run.log(f"{name}: {args.w5_warmup:g}s warm-up + {args.w5_seconds:g}s, lookupers {args.w5_lookupers}")
        w, lat, st = await lookup_level([lk.lookup for lk in pool[:level]], keys, expected, args.w5_warmup,
                                        args.w5_seconds, args.phase_timeout)
        problems = ([f"{st.wrong} lookups returned a wrong row or None (warm-up included)"] + st.examples) if st.wrong else []
        if not lat:
            problems.append("no lookup completed in the window")
        ok = not problems
        run.emit(kind="phase", phase=name, status="ok" if ok else "void", in_flight=level,
                 lookupers=args.w5_lookupers, miss_ratio=args.w5_miss_ratio, **w.metrics(len(lat), 0),
                 **latency_summary(lat), wrong=st.wrong, problems=problems)
        del lat
        ok_all = ok_all and ok
    return ok_all


async def main_async(args) -> int:
    if args.cleanup:
        return await cleanup(args)
    run = Run(args)
    fluss = _import_fluss(args.client)
    client = CLIENTS[args.client](fluss, args)
    info = client.version_info()
    if args.client == "ours" and info["version"] is None:
        raise RuntimeError("not our package")
    run.emit(kind="run_start", client_info=info, python=platform.python_version(), pyarrow=pa.__version__,
             config=client.config(), executable=sys.executable)

    workloads = [w.strip().upper() for w in args.workloads.split(",") if w.strip()]
    if any(w in workloads for w in ("W1", "W1B", "W2", "W3")):
        t_prep = time.perf_counter()
        ds = Dataset(args.rows, args.seed)
        run.log(f"dataset {ds.n} rows generated in {time.perf_counter() - t_prep:.1f}s")
        all_bytes = ds.logical_bytes()
    props = {"table.log.arrow.compression.type": args.compression}
    if args.compression == "ZSTD":
        props["table.log.arrow.compression.zstd.level"] = "3"

    created = []
    status = "ok"
    phase = "connect"
    try:
        await client.connect()
        await client.create_database(args.database)

        async def fresh_table(tag, desc=None, name=None, keep=False):
            path = fluss.TablePath(args.database, name or f"{args.table_prefix}_{tag}")
            await client.drop_table(path)  # leftovers of an earlier killed run with the same id
            if desc is None:
                desc = fluss.TableDescriptor(fluss.Schema(ARROW_SCHEMA), bucket_count=args.buckets, properties=props)
            await client.create_table(path, desc)
            if not keep:
                created.append(path)
            return path, await client.get_table(path)

        async def read_phase(name, table, columns, timed=True):
            scanner = await client.new_scanner(table, None if columns == COLUMNS else columns)
            with Window() as w:
                result = await asyncio.wait_for(client.read_all(scanner, args.buckets), args.phase_timeout)
            ok, details = _verify(result, ds, columns)
            rows = result.num_rows
            if timed:
                run.emit(kind="phase", phase=name, status="ok" if ok else "void",
                         **w.metrics(rows, ds.logical_bytes(columns)), **details,
                         result_nbytes=result.nbytes, result_chunks=result[columns[0]].num_chunks)
            del result
            return ok, details

        async def first_batch_phase(name, table):
            """Timed: subscribe every bucket from EARLIEST_OFFSET, then poll_arrow until the
            first non-empty answer (time to first batch, on a fresh scanner). Its rows are
            checked against the dataset after the window (Dataset.mismatches)."""
            scanner = await client.new_scanner(table)
            with Window() as w:
                scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(args.buckets)})
                deadline = time.monotonic() + args.phase_timeout
                first = None
                while first is None and time.monotonic() < deadline:
                    got = await client.poll_arrow(scanner, 1000)
                    if got.num_rows:
                        first = got
            problems = ["no batch within the phase timeout"] if first is None else ds.mismatches(first)
            run.emit(kind="phase", phase=name, status="void" if problems else "ok",
                     **w.metrics(first.num_rows if first is not None else 0, 0), problems=problems)
            return not problems

        async def poll_phase(name, table):
            """Timed: subscribe every bucket from EARLIEST_OFFSET, then poll until every row has
            arrived, taking each record's row dict. The rows are checked after the window."""
            scanner = await client.new_record_scanner(table)
            rows = []
            take = rows.append
            with Window() as w:
                scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(args.buckets)})
                deadline = time.monotonic() + args.phase_timeout
                while len(rows) < ds.n and time.monotonic() < deadline:
                    for record in await client.poll(scanner, 1000):
                        take(record.row)
            result = pa.Table.from_pylist(rows, schema=ARROW_SCHEMA)
            ok, details = _verify(result, ds, COLUMNS)
            run.emit(kind="phase", phase=name, status="ok" if ok else "void",
                     **w.metrics(len(rows), ds.logical_bytes(COLUMNS)), **details)
            del rows, result
            return ok

        # ---------------------------------------------------------------------- W1
        if "W1" in workloads:
            phase = "W1.prepare"
            path, table = await fresh_table("w1")
            run.emit(kind="table", workload="W1", table=path.table_path_str(),
                     properties=await client.table_properties(path))
            rows = ds.dicts()  # before the window
            writer = await client.new_writer(table)
            append = writer.append
            phase = "W1.append_dicts"
            run.log(f"{phase}: {len(rows)} rows")
            w = await timed_writes(append, rows, writer, args.phase_timeout)
            del rows
            run.emit(kind="stored", workload="W1", stored_bytes=_stored_bytes(args.server_data_dir, args.database, path.table_name),
                     logical_bytes=all_bytes)
            # not yet known to be correct: status set by the read-back below
            m = w.metrics(ds.n, all_bytes)
            phase = "W1.read_to_arrow"
            run.log(phase)
            ok, details = await read_phase(phase, table, COLUMNS)
            run.emit(kind="phase", phase="W1.append_dicts", status="ok" if ok else "void", **m,
                     verified_by="W1.read_to_arrow", problems=details["problems"])
            if not ok:
                status = "void"

            phase = "W1.poll_records"
            run.log(phase)
            if not await poll_phase(phase, table):
                status = "void"

        # ---------------------------------------------------------------------- W1b
        if "W1B" in workloads:
            phase = "W1b.prepare"
            path, table = await fresh_table("w1b")
            rows = ds.tuples()  # before the window
            writer = await client.new_writer(table)
            phase = "W1b.append_tuples"
            run.log(f"{phase}: {len(rows)} rows")
            w = await timed_writes(writer.append, rows, writer, args.phase_timeout)
            del rows
            m = w.metrics(ds.n, all_bytes)
            phase = "W1b.verify"
            ok, details = await read_phase(phase, table, COLUMNS, timed=False)
            run.emit(kind="phase", phase="W1b.append_tuples", status="ok" if ok else "void", **m,
                     verified_by="untimed read-back", problems=details["problems"])
            if not ok:
                status = "void"

        # ---------------------------------------------------------------------- W2 / W3
        if "W2" in workloads or "W3" in workloads:
            path, table = await fresh_table("w23")
            run.emit(kind="table", workload="W2/W3", table=path.table_path_str(),
                     properties=await client.table_properties(path))
            batches = ds.record_batches(args.batch_rows)  # before the window
            writer = await client.new_writer(table)
            wab = writer.write_arrow_batch
            if "W2" in workloads:
                phase = "W2.write_arrow_batch"
                run.log(f"{phase}: {len(batches)} batches of <= {args.batch_rows} rows")
                w = await timed_writes(wab, batches, writer, args.phase_timeout)
                m = w.metrics(ds.n, all_bytes)
            else:
                phase = "W3.load"
                run.log(f"{phase} (untimed)")
                for b in batches:
                    wab(b)
                await asyncio.wait_for(writer.flush(), args.phase_timeout)
            del batches
            run.emit(kind="stored", workload="W2/W3", stored_bytes=_stored_bytes(args.server_data_dir, args.database, path.table_name),
                     logical_bytes=all_bytes)
            if "W3" in workloads:
                phase = "W3.scan_all"
                run.log(phase)
                ok_all, details = await read_phase(phase, table, COLUMNS)
                # The same scan again in this process, the first one's result freed: the
                # difference to scan_all is what a first read costs over a warm one.
                phase = "W3.scan_all_warm"
                run.log(phase)
                ok_warm, _ = await read_phase(phase, table, COLUMNS)
                phase = "W3.scan_one_col"
                run.log(phase)
                ok_one, d1 = await read_phase(phase, table, [args.project_column])
                phase = "W3.first_batch"
                run.log(phase)
                ok_first = await first_batch_phase(phase, table)
                if not (ok_all and ok_warm and ok_one and ok_first):
                    status = "void"
                verified_by = "W3.scan_all"
            else:
                phase = "W2.verify"
                ok_all, details = await read_phase(phase, table, COLUMNS, timed=False)
                verified_by = "untimed read-back"
            if "W2" in workloads:
                run.emit(kind="phase", phase="W2.write_arrow_batch", status="ok" if ok_all else "void", **m,
                         verified_by=verified_by, problems=details["problems"])
                if not ok_all:
                    status = "void"

        # ---------------------------------------------------------------------- W4 / W5
        if "W4" in workloads and not await w4_upserts(run, client, args, fresh_table, props):
            status = "void"
        if "W5" in workloads and not await w5_lookups(run, client, args, fresh_table, props):
            status = "void"
        phase = "cleanup"
    except BaseException as e:  # noqa: BLE001 - every failure is recorded
        status = "failed"
        phase = run.phase or phase
        tb = traceback.format_exc()
        run.log(f"FAILED in {phase}: {e!r}\n{tb}")
        run.emit(kind="phase", phase=phase, status="failed",
                 error=f"{type(e).__name__}: {e}", traceback=tb[-4000:])
    finally:
        for path in created:
            try:
                if not args.keep_tables:
                    await asyncio.wait_for(client.drop_table(path), 60)
            except BaseException as e:  # noqa: BLE001
                run.log(f"drop {path} failed: {e!r}")
                run.emit(kind="cleanup_failed", table=str(path), error=repr(e))
        try:
            await asyncio.wait_for(client.close(), 60)
        except BaseException as e:  # noqa: BLE001
            run.log(f"close failed: {e!r}")
            run.emit(kind="close_failed", error=f"{type(e).__name__}: {e}")
    run.emit(kind="run_end", status=status, max_rss_mib=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return {"ok": 0, "void": 2}.get(status, 3)


# W4/W5 options, shared with compare.py (which passes them on to every W4/W5 run)
PK_OPTIONS = [
    ("--updates", dict(type=int, default=None, help="W4 phase-2 updates of random existing keys (default --rows)")),
    ("--gate-sample", dict(type=int, default=4000, help="W4/W5 gate: existing keys looked up after each W4 phase and "
                                                        "after the W5 preload (plus 1/20 as many missing keys)")),
    ("--gate-concurrency", dict(type=int, default=128, help="lookups in flight during a gate (one Lookuper each)")),
    ("--w5-keys", dict(type=int, default=None, help="keys of the W5 table (default --rows)")),
    ("--w5-levels", dict(default="1,4,16,64,256", help="lookups in flight, one W5 phase each")),
    ("--w5-seconds", dict(type=float, default=20, help="timed window per W5 level")),
    ("--w5-warmup", dict(type=float, default=5, help="untimed warm-up before each W5 level, at that level")),
    ("--w5-miss-ratio", dict(type=float, default=0.05, help="share of W5 lookups of keys that do not exist")),
    ("--w5-key-count", dict(type=int, default=200_000, help="length of W5's prepared key sequence (cycled)")),
    ("--w5-lookupers", dict(choices=["shared", "per-task"], default="shared",
                            help="W5: one Lookuper shared by every task (default), or one per task")),
]


def add_pk_options(parser):
    for flag, kw in PK_OPTIONS:
        parser.add_argument(flag, **kw)


def pk_option_argv(args) -> list:
    """The PK_OPTIONS of ``args`` as driver arguments (those left at None are not passed)."""
    argv = []
    for flag, _ in PK_OPTIONS:
        value = getattr(args, flag[2:].replace("-", "_"))
        if value is not None:
            argv += [flag, str(value)]
    return argv


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--client", required=True, choices=sorted(CLIENTS))
    p.add_argument("--workloads", default="W1", help="comma-separated subset of W1,W1b,W2,W3,W4,W5")
    p.add_argument("--compression", default="NONE", choices=["NONE", "ZSTD"])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--batch-rows", type=int, default=65536, help="rows per RecordBatch in W2/W3")
    p.add_argument("--project-column", default="id", choices=COLUMNS, help="the column W3.scan_one_col keeps")
    p.add_argument("--buckets", type=int, default=3)
    p.add_argument("--phase-suffix", default="", help="appended to every phase name recorded (compare.py --bucket-sweep: @<buckets>)")
    add_pk_options(p)
    p.add_argument("--w5-table", default=None,
                   help="table of --database preloaded by an earlier --w5-preload-only run (not dropped); "
                        "default: a table of this run, preloaded untimed")
    p.add_argument("--w5-preload-only", action="store_true", help="create and preload --w5-table, then exit")
    p.add_argument("--bootstrap", default="127.0.0.1:9123")
    p.add_argument("--database", default="bench")
    p.add_argument("--table-prefix", default=None, help="default: <client>_<run id>")
    p.add_argument("--run-id", default=None)
    p.add_argument("--pair", type=int, default=0)
    p.add_argument("--phase-timeout", type=float, default=600, help="seconds for one flush or one to_arrow")
    p.add_argument("--keep-tables", action="store_true")
    p.add_argument("--result-file", default="/dev/stdout")
    p.add_argument("--server-data-dir", default=os.environ.get("FLUSS_DATA_DIR", os.path.join(os.path.dirname(HERE), ".local-cluster", "data")),
                   help="local cluster data dir, to report the bytes stored per table (informational)")
    p.add_argument("--cleanup", metavar="PREFIX", default=None, help="only drop tables of --database starting with PREFIX")
    a = p.parse_args(argv)
    if a.run_id is None:
        a.run_id = f"{a.client}-{os.getpid()}"
    if a.table_prefix is None:
        a.table_prefix = a.run_id.replace("-", "_").replace(".", "_").lower()
    if a.updates is None:
        a.updates = a.rows
    if a.w5_keys is None:
        a.w5_keys = a.rows
    if a.w5_preload_only and not a.w5_table:
        p.error("--w5-preload-only needs --w5-table")
    return a


def main(argv=None) -> int:
    args = parse_args(argv)
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
