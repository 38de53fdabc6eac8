"""The benchmark dataset: the narrow schema of benchmarks.md, generated from a fixed seed.

Imported by driver.py under both interpreters (system Python for ours, .venv-pyfluss for
pyfluss); both environments pin the same numpy and pyarrow, so the same seed gives the same rows.

Columns: id BIGINT (0..n-1), k INT (uniform int32), ts BIGINT (epoch ms, increasing),
v DOUBLE (multiples of 1/1024 below 1024, so sums are exact in any order), s STRING (16-32
ASCII alphanumerics), flag BOOLEAN.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

COLUMNS = ["id", "k", "ts", "v", "s", "flag"]
ARROW_SCHEMA = pa.schema(
    [
        pa.field("id", pa.int64()),
        pa.field("k", pa.int32()),
        pa.field("ts", pa.int64()),
        pa.field("v", pa.float64()),
        pa.field("s", pa.string()),
        pa.field("flag", pa.bool_()),
    ]
)
# W4/W5: the primary-key table (id is its primary key and bucket key)
PK_COLUMNS = ["id", "k", "v", "s", "ts"]
PK_ARROW_SCHEMA = pa.schema([ARROW_SCHEMA.field(c) for c in PK_COLUMNS])
_ALPHABET = np.frombuffer(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", dtype=np.uint8)
TS_BASE = 1_700_000_000_000


class Dataset:
    """Column arrays (numpy, plus a list of str for ``s``) for ``n`` rows from ``seed``."""

    def __init__(self, n: int, seed: int = 42):
        rng = np.random.default_rng(seed)
        self.n = n
        self.seed = seed
        self.id = np.arange(n, dtype=np.int64)
        self.k = rng.integers(-(2**31), 2**31, size=n, dtype=np.int64).astype(np.int32)
        self.ts = TS_BASE + np.cumsum(rng.integers(0, 50, size=n, dtype=np.int64))
        self.v = rng.integers(0, 1024 * 1024, size=n, dtype=np.int64).astype(np.float64) / 1024.0
        lengths = rng.integers(16, 33, size=n, dtype=np.int64)
        chars = _ALPHABET[rng.integers(0, len(_ALPHABET), size=int(lengths.sum()), dtype=np.int64)]
        blob = chars.tobytes().decode("ascii")
        ends = np.cumsum(lengths).tolist()
        starts = [0] + ends[:-1]
        self.s = [blob[a:b] for a, b in zip(starts, ends)]
        self.string_bytes = int(lengths.sum())
        self.flag = rng.random(size=n) < 0.5
        self._expected = {}
        self.expected = self.expected_for(COLUMNS)

    def expected_for(self, columns) -> dict:
        """Checksums (see checksum_columns) of the dataset restricted to ``columns``."""
        key = tuple(columns)
        if key not in self._expected:
            arrays = {
                "id": lambda: pa.array(self.id),
                "k": lambda: pa.array(self.k),
                "ts": lambda: pa.array(self.ts),
                "v": lambda: pa.array(self.v),
                "s": lambda: pa.array(self.s, pa.string()),
                "flag": lambda: pa.array(self.flag),
            }
            self._expected[key] = checksum_columns({c: arrays[c]() for c in columns})
        return self._expected[key]

    def mismatches(self, table: pa.Table) -> list:
        """Problems with ``table`` (all columns) as a part of the dataset: each row must equal
        the dataset's row of its ``id``, and no id may repeat. Empty when it matches."""
        ids = table.column("id").to_numpy()
        problems = []
        if len(np.unique(ids)) != len(ids):
            problems.append("duplicate ids")
        if len(ids) and (ids.min() < 0 or ids.max() >= self.n):
            return problems + ["ids outside the dataset"]
        want = {
            "id": self.id[ids], "k": self.k[ids], "ts": self.ts[ids], "v": self.v[ids],
            "s": [self.s[i] for i in ids.tolist()], "flag": self.flag[ids],
        }
        for c in COLUMNS:
            got = table.column(c).to_pylist()
            exp = want[c].tolist() if hasattr(want[c], "tolist") else want[c]
            if got != exp:
                problems.append(f"column {c} differs from the dataset")
        return problems

    # ----------------------------------------------------------------- shapes the drivers feed

    def dicts(self) -> list:
        """One dict per row, values as plain Python objects (int, float, str, bool)."""
        cols = (self.id.tolist(), self.k.tolist(), self.ts.tolist(), self.v.tolist(), self.s, self.flag.tolist())
        return [
            {"id": a, "k": b, "ts": c, "v": d, "s": e, "flag": f}
            for a, b, c, d, e, f in zip(*cols)
        ]

    def pk_dicts(self, ids=None) -> list:
        """One dict per row of the primary-key schema (PK_COLUMNS); ``ids`` replaces ``id``."""
        ids = self.id if ids is None else ids
        cols = (ids.tolist(), self.k.tolist(), self.v.tolist(), self.s, self.ts.tolist())
        return [{"id": a, "k": b, "v": c, "s": d, "ts": e} for a, b, c, d, e in zip(*cols)]

    def tuples(self) -> list:
        cols = (self.id.tolist(), self.k.tolist(), self.ts.tolist(), self.v.tolist(), self.s, self.flag.tolist())
        return list(zip(*cols))

    def record_batches(self, batch_rows: int = 65536) -> list:
        """``pa.RecordBatch`` objects of ``batch_rows`` rows, each owning its buffers (offset 0)."""
        out = []
        for lo in range(0, self.n, batch_rows):
            hi = min(lo + batch_rows, self.n)
            out.append(
                pa.record_batch(
                    [
                        pa.array(self.id[lo:hi].copy()),
                        pa.array(self.k[lo:hi].copy()),
                        pa.array(self.ts[lo:hi].copy()),
                        pa.array(self.v[lo:hi].copy()),
                        pa.array(self.s[lo:hi], pa.string()),
                        pa.array(self.flag[lo:hi]),
                    ],
                    schema=ARROW_SCHEMA,
                )
            )
        return out

    # ----------------------------------------------------------------- logical sizes

    def logical_bytes(self, columns=None) -> int:
        """Uncompressed Arrow bytes of the rows (no nulls, so no validity bitmaps): fixed widths,
        int32 offsets plus characters for ``s``, one bit per row for ``flag``."""
        n = self.n
        size = {
            "id": 8 * n,
            "k": 4 * n,
            "ts": 8 * n,
            "v": 8 * n,
            "s": 4 * (n + 1) + self.string_bytes,
            "flag": (n + 7) // 8,
        }
        return sum(size[c] for c in (columns or COLUMNS))


def checksum_columns(cols: dict) -> dict:
    """Order-independent checksums of whichever of the narrow columns are present.

    ``cols`` maps column name to a pyarrow Array or ChunkedArray. Every value is an exact
    integer (``v`` sums exactly because every value is a multiple of 1/1024 below 1024)."""
    out = {}
    n = None
    for name, arr in cols.items():
        n = len(arr)
        if name in ("id", "k", "ts"):
            # sums modulo 2**64: exact, order independent, no overflow for any row count
            a = np.asarray(arr.to_numpy(zero_copy_only=False)).astype(np.int64).view(np.uint64)
            with np.errstate(over="ignore"):
                out[f"sum_{name}"] = int(a.sum(dtype=np.uint64))
                if name == "id":
                    out["sum_id_sq"] = int((a * a).sum(dtype=np.uint64))
            if name == "id":
                out["distinct_id"] = int(pc.count_distinct(arr).as_py())
        elif name == "v":
            out["sum_v_x1024"] = int(round((pc.sum(arr).as_py() or 0.0) * 1024))
        elif name == "s":
            out["sum_len_s"] = int(pc.sum(pc.utf8_length(arr)).as_py() or 0)
            # a cheap content check: sum of every string's first byte (ASCII)
            out["sum_first_char_s"] = _first_byte_sum(arr)
        elif name == "flag":
            out["sum_flag"] = int(pc.sum(pc.cast(arr, pa.int64())).as_py() or 0)
        out[f"nulls_{name}"] = int(arr.null_count)
    out["count"] = int(n or 0)
    return out


def _first_byte_sum(arr) -> int:
    """Sum of the first byte of every string (they are ASCII and at least 16 long)."""
    if isinstance(arr, pa.ChunkedArray):
        return sum(_first_byte_sum(c) for c in arr.chunks)
    a = arr.cast(pa.string())
    offsets = np.frombuffer(a.buffers()[1], dtype=np.int32)[a.offset : a.offset + len(a)]
    data = np.frombuffer(a.buffers()[2], dtype=np.uint8)
    return int(data[offsets].astype(np.int64).sum()) if len(a) else 0


class PkDataset:
    """W4 and W5 on the primary-key table (PK_COLUMNS, primary key ``id``), from a fixed seed.

    Phase 1 (inserts): ``n`` rows with the new keys 0..n-1, the values of ``Dataset(n, seed)``.
    Phase 2 (updates): ``updates`` rows, each with a key drawn uniformly from 0..n-1 (repeats
    allowed: the last write of a key wins) and the values of ``Dataset(updates, seed + 1)``.
    W5 looks up the phase-1 table. Every expected row is a dict equal to what a lookup returns.
    """

    def __init__(self, n: int, updates: int = 0, seed: int = 42):
        self.n, self.updates, self.seed = n, updates, seed
        self.base = Dataset(n, seed)
        self.upd = Dataset(updates, seed + 1)
        self.update_ids = np.random.default_rng([seed, 4]).integers(0, n, size=updates, dtype=np.int64)
        # index into the updates of each key's last update, -1 for a key never updated
        self.last_update = np.full(n, -1, dtype=np.int64)
        np.maximum.at(self.last_update, self.update_ids, np.arange(updates, dtype=np.int64))

    def insert_dicts(self) -> list:
        return self.base.pk_dicts()

    def update_dicts(self) -> list:
        return self.upd.pk_dicts(self.update_ids)

    def logical_bytes(self, phase: str) -> int:
        """Uncompressed Arrow bytes of a phase's rows (see Dataset.logical_bytes)."""
        return (self.base if phase == "insert" else self.upd).logical_bytes(PK_COLUMNS)

    def expected_row(self, key: int, after_updates: bool):
        """The row a lookup of ``key`` must return (None for a key that was never written)."""
        if not 0 <= key < self.n:
            return None
        j = int(self.last_update[key]) if after_updates else -1
        src, i = (self.upd, j) if j >= 0 else (self.base, key)
        return {"id": key, "k": int(src.k[i]), "v": float(src.v[i]), "s": src.s[i], "ts": int(src.ts[i])}

    def gate_keys(self, sample: int, misses: int) -> list:
        """A fixed sample of existing keys (without repeats) plus ``misses`` keys never written."""
        rng = np.random.default_rng([self.seed, 5])
        hits = rng.choice(self.n, size=min(sample, self.n), replace=False).tolist()
        return hits + [self.n + int(x) for x in rng.choice(self.n, size=misses, replace=False)]

    def lookup_keys(self, count: int, miss_ratio: float) -> tuple:
        """W5's key sequence: ``count`` key dicts (a ``miss_ratio`` share of them keys that do not
        exist, n..2n-1), and the row each must return (None for a miss)."""
        rng = np.random.default_rng([self.seed, 6])
        miss = rng.random(count) < miss_ratio
        keys = np.where(miss, rng.integers(self.n, 2 * self.n, size=count), rng.integers(0, self.n, size=count))
        keys = keys.tolist()
        return [{"id": k} for k in keys], [self.expected_row(k, False) for k in keys]
