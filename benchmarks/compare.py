#!/usr/bin/env python3
"""Side-by-side benchmark: our client (fluss-cpp) vs pyfluss 1.0.0, on one local Fluss cluster.

    bash benchmarks/setup_pyfluss.sh                    # once: .venv-pyfluss with pyfluss 1.0.0
    python3 benchmarks/compare.py --rows 200000         # quick profile (all workloads, 3 pairs)
    python3 benchmarks/compare.py                       # full: 1M rows, W1,W2,W3, NONE+ZSTD, 3 pairs
    python3 benchmarks/compare.py --workloads W1 --compressions ZSTD --pairs 5
    python3 benchmarks/compare.py --workloads W4,W5 --rows 20000 --w5-seconds 3   # PK quick profile
    python3 benchmarks/compare.py --report benchmarks/results/<stamp>.jsonl   # re-print a report

Every client run is its own process (driver.py): ours under this Python, pyfluss under
.venv-pyfluss/bin/python. Runs are interleaved A B A B ... (ours first in every pair), one pair
after the other, so drift hits both clients alike. Raw results go to
benchmarks/results/<stamp>.jsonl (one JSON object per line); the report is printed at the end.
See benchmarks/README.md for how to read it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DRIVER = os.path.join(HERE, "driver.py")
RESULTS = os.path.join(HERE, "results")
CLIENTS = ("ours", "pyfluss")
WORKLOADS = ("W1", "W1B", "W2", "W3", "W4", "W5")
PK_WORKLOADS = ("W4", "W5")  # primary-key table: run once per pair, under NONE (see README)

sys.path.insert(0, HERE)
from driver import PK_OPTIONS, add_pk_options, pk_option_argv  # noqa: E402

# Phase order in the report (W5's levels, W5.inflight_<n>, follow in the order of n).
PHASES = ["W1.append_dicts", "W1.read_to_arrow", "W1.poll_records", "W1b.append_tuples", "W2.write_arrow_batch", "W3.scan_all", "W3.scan_all_warm",
          "W3.scan_one_col",
          "W3.first_batch", "W4.insert", "W4.update"]


def _phase_key(name):
    # "<phase>@<n>": the phase on an n-bucket table (--bucket-sweep), after the phase itself
    base, _, buckets = name.partition("@")
    if base in PHASES:
        return (PHASES.index(base), int(buckets) if buckets.isdigit() else -1, name)
    tail = name.rsplit("_", 1)[-1]
    return (len(PHASES), int(tail) if tail.isdigit() else 0, name)


def _known_phase(name) -> bool:
    return name.partition("@")[0] in PHASES or name.startswith("W5.inflight_")


# ================================================================================ conditions


def _sh(cmd, timeout=20) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout).stdout.strip()
    except Exception as e:  # noqa: BLE001
        return f"? ({e})"


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def _server_info() -> dict:
    """Fluss server version and process count, read from the running JVMs' command lines."""
    versions, roles = set(), defaultdict(int)
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        m = re.search(r"fluss-server-([0-9][^/: ]*?)\.jar", cmd)
        if not m:
            continue
        versions.add(m.group(1))
        if "tablet.TabletServer" in cmd:
            roles["tablet servers"] += 1
        elif "coordinator.CoordinatorServer" in cmd:
            roles["coordinator"] += 1
        elif "zookeeper" in cmd:
            roles["zookeeper"] += 1
    return {"server_version": ", ".join(sorted(versions)) or "unknown (no local fluss-server JVM found)",
            "server_processes": dict(roles)}


def _ours_build() -> dict:
    info = {}
    try:
        import tomllib

        with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
            info["build_type"] = tomllib.load(f).get("tool", {}).get("scikit-build", {}).get("cmake", {}).get("build-type")
    except Exception:  # noqa: BLE001
        pass
    out = _sh([sys.executable, "-c", "import fluss._fluss as m; print(m.__file__)"])
    if out and os.path.exists(out):
        info["native_module"] = out
        info["native_module_mtime"] = dt.datetime.fromtimestamp(os.path.getmtime(out)).isoformat(timespec="seconds")
        comment = _sh(["readelf", "-p", ".comment", out])
        info["compiler"] = "; ".join(sorted({m.strip() for m in re.findall(r"\]\s+(.+)", comment)})) or "?"
    info["git"] = _sh(["git", "-C", ROOT, "describe", "--always", "--dirty"])
    return info


def zstd_ceiling(rows=200_000, seconds=1.0) -> dict:
    """One core's zstd level-3 compress/decompress speed over the dataset's Arrow buffers (what
    the clients compress for a ZSTD table), in logical MB/s."""
    import pyarrow as pa

    from dataset import Dataset

    ds = Dataset(rows, 7)
    bufs = [b for batch in ds.record_batches(65536) for col in batch.columns for b in col.buffers() if b is not None]
    codec = pa.Codec("zstd", compression_level=3)
    raw = sum(b.size for b in bufs)
    comp = [codec.compress(b) for b in bufs]
    out = {"raw_bytes": raw, "ratio": sum(c.size for c in comp) / raw}
    for name, fn in (("compress", lambda: [codec.compress(b) for b in bufs]),
                     ("decompress", lambda: [codec.decompress(c, decompressed_size=b.size) for c, b in zip(comp, bufs)])):
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            fn()
            n += 1
        out[f"{name}_mb_per_s"] = n * raw / 1e6 / (time.perf_counter() - t0)
    return out


def conditions(args, pyfluss_python) -> dict:
    import pyarrow as pa

    venv_versions = _sh([pyfluss_python, "-c",
                         "import sys, pyarrow, fluss; from importlib.metadata import version as v; "
                         "print(v('pyfluss'), pyarrow.__version__, sys.version.split()[0], v('numpy'), v('pandas'))"]).split()
    return {
        "kind": "conditions",
        "date": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "host": platform.node(),
        "cpu_model": _cpu_model(),
        "cores": os.cpu_count(),
        "affinity": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "pinning": "none (client and server share the machine's cores)",
        "loadavg_at_start": os.getloadavg(),
        "kernel": platform.release(),
        **_server_info(),
        "bootstrap": args.bootstrap,
        "ours": {"distribution": "fluss-cpp", "version": _safe_version("fluss-cpp"), **_ours_build(),
                 "python": platform.python_version(), "pyarrow": pa.__version__,
                 "numpy": _safe_version("numpy"), "executable": sys.executable},
        "pyfluss": {"version": venv_versions[0] if len(venv_versions) > 0 else "?",
                    "pyarrow": venv_versions[1] if len(venv_versions) > 1 else "?",
                    "python": venv_versions[2] if len(venv_versions) > 2 else "?",
                    "numpy": venv_versions[3] if len(venv_versions) > 3 else "?",
                    "pandas": venv_versions[4] if len(venv_versions) > 4 else "?",
                    "executable": pyfluss_python},
        "dataset": {"rows": args.rows, "seed": args.seed, "buckets": args.buckets, "batch_rows": args.batch_rows,
                    "project_column": args.project_column},
        "pk": {dest: getattr(args, dest) for dest in (f[2:].replace("-", "_") for f, _ in PK_OPTIONS)},
        "workloads": args.workloads, "compressions": args.compressions, "pairs": args.pairs,
        "zstd3_ceiling": zstd_ceiling(),
    }


def _safe_version(dist):
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:  # noqa: BLE001
        return None


def _java_version() -> str:
    try:
        r = subprocess.run(["java", "-version"], capture_output=True, text=True, timeout=20)
        return (r.stderr or r.stdout).splitlines()[0]
    except Exception as e:  # noqa: BLE001
        return f"? ({e})"


# ================================================================================ running


def _append(path, rec):
    with open(path, "a") as f:
        f.write(json.dumps(rec, default=str) + "\n")


def run_one(args, client, python, group, compression, pair, results_path, stamp, extra=(), role="run",
            buckets=None) -> dict:
    """One driver process. `buckets`: a --bucket-sweep run on a table of that many buckets
    (its phases are recorded as "<phase>@<buckets>"); None: --buckets."""
    tag = "" if buckets is None else f"b{buckets}"
    run_id = f"{client}-{group.replace(',', '')}{tag}-{compression}-p{pair}-{stamp}" + ("" if role == "run" else f"-{role}")
    prefix = f"b{stamp.replace('-', '')}_{client}_{group.replace(',', '').lower()}{tag}_{compression.lower()}_p{pair}"
    if buckets is not None:
        extra = [*extra, "--phase-suffix", f"@{buckets}"]
    timeout = group_timeout(args, group)
    cmd = [python, DRIVER, "--client", client, "--workloads", group, "--compression", compression,
           "--rows", str(args.rows), "--seed", str(args.seed), "--batch-rows", str(args.batch_rows),
           "--project-column", args.project_column, "--buckets", str(args.buckets if buckets is None else buckets),
           "--bootstrap", args.bootstrap, "--database", args.database, "--table-prefix", prefix,
           "--run-id", run_id, "--pair", str(pair), "--phase-timeout", str(timeout),
           "--result-file", results_path, *pk_option_argv(args), *extra]
    env = _driver_env()
    log_path = os.path.join(RESULTS, f"{stamp}.logs", f"{run_id}.stderr")
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    t0 = time.time()
    print(f"  {'pair ' + str(pair) if role == 'run' else role:<7} {group:<6} {compression:<4} {client:<7} ... ", end="", flush=True)
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT, start_new_session=True)
        status = None
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            status = "timeout"
            # our own child, in its own session: end its process group by id
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=10)
            except Exception:  # noqa: BLE001
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()
            rc = proc.returncode
    wall = time.time() - t0
    with open(log_path) as f:
        tail = f.read()[-3000:]
    if status is None:
        status = "ok" if rc == 0 else ("void" if rc == 2 else "failed")
    # the driver's last record: a process that dies after it (at interpreter exit) has
    # recorded every phase already
    ended = next((r.get("status") for r in load(results_path) if r.get("kind") == "run_end" and r.get("run_id") == run_id), None)
    rec = {"kind": "run", "run_id": run_id, "client": client, "group": group, "compression": compression,
           "pair": pair, "role": role, "status": status, "run_end": ended, "returncode": rc, "wall_s": wall, "stderr_tail": tail, "log": log_path,
           "time": time.time()}
    _append(results_path, rec)
    print(f"{status} ({wall:.1f}s)", flush=True)
    if status != "ok":
        cleanup(args, prefix, client)  # drop what the run left behind
    return rec


def _driver_env():
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


def cleanup(args, prefix, client=CLIENTS[0]):
    """Drops the tables of --database starting with ``prefix``, with ``client`` or else the other."""
    for c in (client, *[o for o in CLIENTS if o != client]):
        r = subprocess.run([args.python_of[c], DRIVER, "--client", c, "--cleanup", prefix, "--bootstrap", args.bootstrap,
                            "--database", args.database], capture_output=True, text=True, env=_driver_env(), cwd=ROOT,
                           timeout=120)
        if r.returncode == 0:
            return


def group_timeout(args, group) -> float:
    """--timeout, plus W5's fixed windows: warm-up, window and 5 s of draining per level."""
    if "W5" not in group.split(","):
        return args.timeout
    levels = [x for x in args.w5_levels.split(",") if x.strip()]
    return args.timeout + len(levels) * (args.w5_warmup + args.w5_seconds + 5)


# ================================================================================ report


def load(path):
    recs = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                try:
                    recs.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
    return recs


def _fmt(x, digits=3):
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    ax = abs(x)
    if ax >= 1e6:
        return f"{x / 1e6:.2f}M"
    if ax >= 1e4:
        return f"{x / 1e3:.1f}k"
    if ax >= 100:
        return f"{x:.0f}"
    if ax >= 10:
        return f"{x:.1f}"
    return f"{x:.{digits}f}"


def _table(headers, rows, align=None):
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h)) for i, h in enumerate(headers)]
    align = align or ["<"] + [">"] * (len(headers) - 1)
    line = lambda cells: "  ".join(f"{str(c):{a}{w}}" for c, a, w in zip(cells, align, widths))  # noqa: E731
    out = [line(headers), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in rows]
    return "\n".join(out)


# (metric key, label, orientation) — "rate": ours/theirs; "cost": theirs/ours
RAW_METRICS = [
    ("wall_s", "wall s"),
    ("rows_per_s", "rows/s"),
    ("mb_per_s", "MB/s"),
    ("cpu_s", "CPU s"),
    ("cpu_util", "cores"),
    ("cpu_s_per_gb", "CPU s/GB"),
    ("cpu_s_per_mrows", "CPU s/Mrow"),
    ("peak_rss_mib", "peak RSS MiB"),
    ("peak_rss_delta_mib", "RSS growth MiB"),
]
RATIOS = [
    ("rows_per_s", "rows/s", "rate"),
    ("mb_per_s", "MB/s", "rate"),
    ("cpu_s_per_gb", "CPU s/GB", "cost"),
    ("cpu_s_per_mrows", "CPU s/Mrow", "cost"),
    ("peak_rss_mib", "peak RSS", "cost"),
]
# W4: one row = one upsert, so CPU s per million rows = CPU microseconds per op
UPSERT_METRICS = [
    ("wall_s", "wall s"),
    ("rows_per_s", "ops/s"),
    ("mb_per_s", "MB/s"),
    ("cpu_s", "CPU s"),
    ("cpu_util", "cores"),
    ("cpu_s_per_mrows", "CPU us/op"),
    ("peak_rss_mib", "peak RSS MiB"),
    ("peak_rss_delta_mib", "RSS growth MiB"),
]
UPSERT_RATIOS = [
    ("rows_per_s", "ops/s", "rate"),
    ("cpu_s_per_mrows", "CPU us/op", "cost"),
    ("peak_rss_mib", "peak RSS", "cost"),
]
LOOKUP_METRICS = [
    ("rows", "ops"),
    ("rows_per_s", "ops/s"),
    ("p50_ms", "p50 ms"),
    ("p99_ms", "p99 ms"),
    ("p999_ms", "p99.9 ms"),
    ("cpu_s", "CPU s"),
    ("cpu_util", "cores"),
    ("cpu_s_per_mrows", "CPU us/op"),
    ("peak_rss_mib", "peak RSS MiB"),
]
LOOKUP_RATIOS = [
    ("rows_per_s", "ops/s", "rate"),
    ("p50_ms", "p50", "cost"),
    ("p99_ms", "p99", "cost"),
    ("cpu_s_per_mrows", "CPU us/op", "cost"),
]
# W3.first_batch: the rows of the first batch differ between the clients, so wall and CPU
# seconds are compared, not rates
FIRST_BATCH_METRICS = [
    ("rows", "rows"),
    ("wall_s", "wall s"),
    ("cpu_s", "CPU s"),
    ("peak_rss_delta_mib", "RSS growth MiB"),
]
FIRST_BATCH_RATIOS = [
    ("wall_s", "wall s", "cost"),
    ("cpu_s", "CPU s", "cost"),
]


def _workload_of(name) -> str:
    return name.split(".")[0]


# (title, which phases, raw metrics, ratios): one pair of tables each
SECTIONS = [
    ("W1-W3, log tables", lambda n: _workload_of(n) in ("W1", "W1b", "W2", "W3") and not n.startswith("W3.first_batch"),
     RAW_METRICS, RATIOS),
    ("W3, time to first batch (fresh scanner, subscribe to the first non-empty poll_arrow)",
     lambda n: n.startswith("W3.first_batch"), FIRST_BATCH_METRICS, FIRST_BATCH_RATIOS),
    ("W4, upserts", lambda n: _workload_of(n) == "W4", UPSERT_METRICS, UPSERT_RATIOS),
    ("W5, point lookups", lambda n: _workload_of(n) == "W5", LOOKUP_METRICS, LOOKUP_RATIOS),
]


def report(results_path) -> str:
    recs = load(results_path)
    cond = next((r for r in recs if r.get("kind") == "conditions"), {})
    runs = {r["run_id"]: r for r in recs if r.get("kind") == "run"}
    starts = {r["run_id"]: r for r in recs if r.get("kind") == "run_start"}
    stored = defaultdict(list)
    for r in recs:
        if r.get("kind") == "stored" and r.get("stored_bytes"):
            stored[(r["workload"], r["compression"], r["client"])].append(r["stored_bytes"] / r["logical_bytes"])
    # phase results: (phase, compression, client, pair) -> rec (ok ones only for the numbers)
    phases = {}
    bad = []
    for r in recs:
        if r.get("kind") != "phase":
            continue
        key = (r["phase"], r["compression"], r["client"], r["pair"])
        if r["status"] == "ok":
            phases[key] = r
        else:
            bad.append(r)
    out = []
    # ------------------------------------------------------------------ conditions
    out.append("== Conditions ==")
    if cond:
        o, p = cond.get("ours", {}), cond.get("pyfluss", {})
        z = cond.get("zstd3_ceiling", {})
        ds = cond.get("dataset", {})
        out += [
            f"date            {cond.get('date')}",
            f"CPU             {cond.get('cpu_model')}, {cond.get('cores')} cores ({cond.get('affinity')} usable), "
            f"{cond.get('pinning')}; load avg at start {tuple(round(x, 2) for x in cond.get('loadavg_at_start', []))}",
            f"server          Apache Fluss {cond.get('server_version')} at {cond.get('bootstrap')}, "
            f"{cond.get('server_processes')} (same machine); JDK: {cond.get('java_version')}",
            f"ours            fluss-cpp {o.get('version')} (git {o.get('git')}, {o.get('build_type')}, {o.get('compiler')}, "
            f"module built {o.get('native_module_mtime')}), "
            f"Python {o.get('python')}, pyarrow {o.get('pyarrow')}, numpy {o.get('numpy')}",
            f"pyfluss         pyfluss {p.get('version')} (PyPI wheel), Python {p.get('python')}, pyarrow {p.get('pyarrow')}, "
            f"numpy {p.get('numpy')}, pandas {p.get('pandas')}",
            f"dataset         {ds.get('rows')} rows, seed {ds.get('seed')}, narrow schema (id BIGINT, k INT, ts BIGINT, v DOUBLE, "
            f"s STRING 16-32, flag BOOLEAN), {ds.get('buckets')}-bucket log tables, W2 batches of {ds.get('batch_rows')} rows, "
            f"W3 one column = {ds.get('project_column')}",
            f"runs            workloads {cond.get('workloads')}, compression {cond.get('compressions')}, "
            f"{cond.get('pairs')} pairs interleaved (ours, pyfluss, ours, pyfluss, ...)",
            "knobs           batch size 2 MiB (pyfluss dynamic batch size off), batch timeout 100 ms, acks all, retries max, "
            "buffer 64 MiB, request max 10 MiB, idempotence on, fetch max 16 MiB / 1 MiB per bucket, fetch min 1 B, "
            "fetch wait 500 ms, pyfluss max in-flight requests per bucket 5 (ours: no such key), "
            "sticky bucket assignment (set explicitly in each client's key names: see run_start.config in the JSONL)",
        ]
        pk = cond.get("pk")
        if pk and any(w in str(cond.get("workloads")) for w in PK_WORKLOADS):
            out.append(
                f"primary key     id BIGINT PK, k INT, v DOUBLE, s STRING 16-32, ts BIGINT, {ds.get('buckets')} buckets, "
                f"under NONE only; W4 {ds.get('rows')} new keys then {pk.get('updates') or ds.get('rows')} updates of random "
                f"keys, each phase checked by {pk.get('gate_sample')} lookups (+1/20 missing keys); W5 a table of "
                f"{pk.get('w5_keys') or ds.get('rows')} keys per client, loaded once by that client, in flight "
                f"{pk.get('w5_levels')}, {pk.get('w5_warmup')} s warm-up + {pk.get('w5_seconds')} s per level, "
                f"{pk.get('w5_miss_ratio')} misses, Lookupers {pk.get('w5_lookupers')}, every answer checked")
        if z:
            out.append(f"zstd-3 ceiling  one core, pyarrow codec on this dataset's Arrow buffers: compress "
                       f"{z.get('compress_mb_per_s', 0):.0f} MB/s, decompress {z.get('decompress_mb_per_s', 0):.0f} MB/s, "
                       f"ratio {z.get('ratio', 0):.3f}")
        if stored:
            parts = [f"{w} {c} {cl}: {statistics.median(v):.3f}" for (w, c, cl), v in sorted(stored.items())]
            out.append("stored/logical  (server log bytes / logical Arrow bytes, median) " + "; ".join(parts))
    out.append(f"raw results     {results_path}")
    out.append("")

    names = sorted({n for n in {k[0] for k in phases} | {b["phase"] for b in bad} if _known_phase(n)},
                   key=_phase_key)
    all_pairs = sorted({r["pair"] for r in runs.values() if r.get("role", "run") == "run"} | {k[3] for k in phases})
    for title, in_section, raw_metrics, ratios in SECTIONS:
        combos = [(name, comp) for name in names if in_section(name) for comp in ("NONE", "ZSTD")
                  if any(k[0] == name and k[1] == comp for k in phases)
                  or any(b["phase"] == name and b["compression"] == comp for b in bad)]
        if combos:
            out += _raw_medians(title, combos, phases, runs, all_pairs, raw_metrics)
            out += _ratios(title, combos, phases, all_pairs, ratios)

    # ------------------------------------------------------------------ per run
    out.append("== Per run: rows/s (CPU s) of each phase, in run order ==")
    rows = []
    for run in sorted(runs.values(), key=lambda r: r["time"]):
        cells = []
        for name in names:
            rec = phases.get((name, run["compression"], run["client"], run["pair"]))
            if rec and _phase_in_group(name, run["group"]) and run.get("role", "run") == "run":
                cells.append(f"{name.split('.')[1]} {_fmt(rec['rows_per_s'])} ({rec['cpu_s']:.2f})")
        label = f"p{run['pair']}" if run.get("role", "run") == "run" else run["role"]
        rows.append([f"{label} {run['group'].replace(',', '+')} {run['compression']} {run['client']}", run["status"], f"{run['wall_s']:.1f}", "; ".join(cells) or "-"])
    out.append(_table(["run", "status", "proc s", "phases"], rows, ["<", "<", ">", "<"]))
    out.append("")

    # ------------------------------------------------------------------ failures
    failed_runs = [r for r in runs.values() if r["status"] != "ok"]
    out.append(f"== Failed / void runs: {len(failed_runs)} of {len(runs)} ==")
    for r in sorted(failed_runs, key=lambda r: r["time"]):
        out.append(f"- {r['run_id']}: {r['status']} (exit {r['returncode']}, {r['wall_s']:.1f}s), log {r['log']}")
        for b in bad:
            if b["run_id"] == r["run_id"]:
                msg = b.get("error") or "; ".join(b.get("problems") or []) or ""
                out.append(f"    {b['phase']}: {b['status']}: {msg}")
        if r["status"] != "timeout" and r.get("run_end") and r["returncode"] not in (0, 2, 3):
            out.append(f"    the process died (exit {r['returncode']}) after its last record, run_end {r['run_end']}: "
                       "the phases it recorded stand")
        if r["status"] == "timeout":
            last = [ln for ln in r.get("stderr_tail", "").splitlines() if ln.strip()][-3:]
            out.append("    killed after the run timeout; last stderr lines: " + " | ".join(last))
    started_without_run = [rid for rid in starts if rid not in runs]
    for rid in started_without_run:
        out.append(f"- {rid}: started, no run record (compare.py interrupted?)")
    return "\n".join(out)


def _raw_medians(title, combos, phases, runs, all_pairs, metrics) -> list:
    out = [f"== Raw medians per client (valid runs only): {title} =="]
    rows = []
    for name, comp in combos:
        for client in CLIENTS:
            vals = [phases[(name, comp, client, p)] for p in all_pairs if (name, comp, client, p) in phases]
            attempted = len({r["pair"] for r in runs.values() if r["client"] == client and r["compression"] == comp
                             and r.get("role", "run") == "run" and _phase_in_group(name, r["group"])}) or len(vals)
            row = [name, comp, client, f"{len(vals)}/{attempted}"]
            for key, _ in metrics:
                xs = [v[key] for v in vals if v.get(key) is not None]
                row.append(_fmt(statistics.median(xs)) if xs else "-")
            rows.append(row)
    out.append(_table(["phase", "comp", "client", "ok/runs"] + [lbl for _, lbl in metrics], rows))
    return out + [""]


def _ratios(title, combos, phases, all_pairs, ratios) -> list:
    out = [f"== ours vs pyfluss: median of per-pair ratios [min-max], >1 means ours is better: {title} ==",
           "   (rates: ours/theirs; costs: theirs/ours; a pair counts only when both runs of it are valid)"]
    rows = []
    geo = defaultdict(list)
    for name, comp in combos:
        row = [name, comp]
        npairs = 0
        for key, lbl, kind in ratios:
            rs = []
            for p in all_pairs:
                a, b = phases.get((name, comp, "ours", p)), phases.get((name, comp, "pyfluss", p))
                if not a or not b or not a.get(key) or not b.get(key):
                    continue
                rs.append(a[key] / b[key] if kind == "rate" else b[key] / a[key])
            npairs = max(npairs, len(rs))
            if rs:
                med = statistics.median(rs)
                geo[lbl].append(med)
                row.append(f"{med:.2f} [{min(rs):.2f}-{max(rs):.2f}]")
            else:
                row.append("n/a")
        rows.append(row[:2] + [str(npairs)] + row[2:])
    if rows:
        gm = ["geometric mean", "", ""]
        for _, lbl, _ in ratios:
            xs = geo.get(lbl, [])
            gm.append(f"{math.exp(sum(math.log(x) for x in xs) / len(xs)):.2f} ({len(xs)} phases)" if xs else "n/a")
        rows.append(gm)
    out.append(_table(["phase", "comp", "pairs"] + [lbl for _, lbl, _ in ratios], rows))
    return out + [""]


def _phase_in_group(phase, group) -> bool:
    w = phase.split(".")[0].upper()
    return w in group.upper().split(",")


# ================================================================================ main


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pairs", type=int, default=3, help="A/B pairs per workload and regime (default 3)")
    p.add_argument("--workloads", default="W1,W1b,W2,W3", help="comma-separated subset of W1,W1b,W2,W3,W4,W5")
    p.add_argument("--compressions", default="NONE,ZSTD", help="table.log.arrow.compression.type values")
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--batch-rows", type=int, default=65536)
    p.add_argument("--project-column", default="id")
    p.add_argument("--buckets", type=int, default=3)
    p.add_argument("--bucket-sweep", default="", metavar="N,N,...",
                   help="also run W3 (scan_all, scan_one_col, first_batch) on tables of these bucket counts, "
                        "once per pair and compression; phases reported as W3.<phase>@<N>")
    p.add_argument("--bootstrap", default="127.0.0.1:9123")
    p.add_argument("--database", default="bench")
    p.add_argument("--timeout", type=float, default=None,
                   help="seconds before a run is killed and recorded as a timeout (default 120 + 300 per million rows)")
    add_pk_options(p)
    p.add_argument("--ours-python", default=sys.executable)
    p.add_argument("--pyfluss-python", default=os.path.join(ROOT, ".venv-pyfluss", "bin", "python"))
    p.add_argument("--report", metavar="JSONL", help="only print the report of an earlier run")
    args = p.parse_args(argv)

    if args.report:
        print(report(args.report))
        return 0

    workloads = [w.strip().upper() for w in args.workloads.split(",") if w.strip()]
    if not workloads or any(w not in WORKLOADS for w in workloads):
        p.error("--workloads: subset of " + ",".join(WORKLOADS))
    compressions = [c.strip().upper() for c in args.compressions.split(",") if c.strip()]
    if any(c not in ("NONE", "ZSTD") for c in compressions):
        p.error("--compressions: NONE and/or ZSTD")
    if args.timeout is None:
        args.timeout = 120 + 300 * args.rows / 1e6
    if not os.path.exists(args.pyfluss_python):
        p.error(f"{args.pyfluss_python} not found: run  bash benchmarks/setup_pyfluss.sh")
    if os.path.realpath(sys.prefix) == os.path.realpath(os.path.join(ROOT, ".venv-pyfluss")) and args.ours_python == sys.executable:
        p.error("run compare.py with the Python where our package (fluss-cpp) is installed, not .venv-pyfluss")
    try:
        sweep = [int(x) for x in args.bucket_sweep.split(",") if x.strip()]
    except ValueError:
        p.error("--bucket-sweep: comma-separated bucket counts")
    if any(n < 1 for n in sweep):
        p.error("--bucket-sweep: bucket counts of at least 1")
    args.python_of = {"ours": args.ours_python, "pyfluss": args.pyfluss_python}
    args.workloads = ",".join(workloads)
    args.compressions = ",".join(compressions)

    groups = []
    w1 = [w for w in ("W1", "W1B") if w in workloads]
    if w1:
        groups.append(",".join(w1))
    w23 = [w for w in ("W2", "W3") if w in workloads]
    if w23:
        groups.append(",".join(w23))
    # W4 and W5 once per pair, under NONE only: the clients send KV batches, which neither
    # compresses; the regime would only change how the server writes the changelog
    groups += [w for w in PK_WORKLOADS if w in workloads]
    runs_of = {g: ["NONE"] if g in PK_WORKLOADS else compressions for g in groups}

    os.makedirs(RESULTS, exist_ok=True)
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    results_path = os.path.join(RESULTS, f"{stamp}.jsonl")
    print(f"results: {results_path}", flush=True)
    cond = conditions(args, args.pyfluss_python)
    cond["java_version"] = _java_version()
    cond["timeout_s"] = args.timeout
    _append(results_path, cond)
    n = args.pairs * (sum(len(c) for c in runs_of.values()) + len(sweep) * len(compressions)) * len(CLIENTS)
    print(f"{n} runs: {args.pairs} pairs x {runs_of} x {CLIENTS}; "
          f"{args.rows} rows; timeout {args.timeout:.0f}s per run (W5: {group_timeout(args, 'W5'):.0f}s)", flush=True)
    # W5: one table per client, loaded (and checked) once by that client before the first pair;
    # not one for both: pyfluss buckets most BIGINT keys unlike the Java client and ours (README)
    w5_tables = {c: f"b{stamp.replace('-', '')}_w5_{c}" for c in CLIENTS}
    no_w5 = set()
    try:
        if "W5" in groups:
            for c in CLIENTS:
                rec = run_one(args, c, args.python_of[c], "W5", "NONE", 0, results_path, stamp,
                              extra=["--w5-table", w5_tables[c], "--w5-preload-only"], role="preload")
                if rec["status"] != "ok":
                    print(f"  W5 preload of {c} failed: its W5 runs are skipped", flush=True)
                    no_w5.add(c)
        for pair in range(1, args.pairs + 1):
            for group in groups:
                for comp in runs_of[group]:
                    for client in CLIENTS:
                        if group == "W5" and client in no_w5:
                            continue
                        extra = ["--w5-table", w5_tables[client]] if group == "W5" else []
                        run_one(args, client, args.python_of[client], group, comp, pair, results_path, stamp, extra)
            for buckets in sweep:
                for comp in compressions:
                    for client in CLIENTS:
                        run_one(args, client, args.python_of[client], "W3", comp, pair, results_path, stamp,
                                buckets=buckets)
    except KeyboardInterrupt:
        print("\ninterrupted; reporting what finished", flush=True)
    finally:
        if "W5" in runs_of:
            for c in CLIENTS:
                cleanup(args, w5_tables[c], c)
    print()
    print(report(results_path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
