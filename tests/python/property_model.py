"""The model behind the property-based tests (test_properties_*.py): Fluss column types, their
pyarrow spelling, Hypothesis strategies for types and for values (in range and hostile), and a
reference of what the client must do with each Python value.

``expect(t, value, at)`` is the reference: the value's canonical form when the client must
accept it, or ``Refused`` with the paths (``tags[3]``, ``attrs[0].key``, ``address.zip``) the
error may name. ``readback(t, value)`` gives the canonical form of a value read back (scanner
rows, ``to_arrow().to_pylist()``, lookups, the changelog), so "reads back equal" is
``expect(...) == readback(...)``. The rules are the README's "Data types" table and the
append/upsert docstrings:

- integers: ``int`` or numpy integers in the column's range; never ``bool``/``float``;
- FLOAT/DOUBLE: ``float``, numpy numbers, and ``int`` only when the float type holds it
  exactly (as pyarrow); FLOAT rounds to the nearest float32, but a finite value beyond float32
  is refused (it would read back as inf);
- STRING/CHAR(n): ``str`` (UTF-8 encodable); CHAR(n) at most n UTF-8 bytes, not ending in
  U+0000 (Fluss pads CHAR values with 0x00 and strips it when reading);
- BYTES/BINARY(n): ``bytes``/``bytearray``; BINARY(n) exactly n bytes (in a table of kv format
  INDEXED a value ending in 0x00 that is a field of a row, the table's or a nested ROW's, is
  refused, a Fluss 0.9 server limit);
- DECIMAL(p,s): ``decimal.Decimal`` (finite) or ``int``, exactly representable at scale s with
  at most p digits;
- DATE ``date`` (not ``datetime``); TIME(p) a naive ``time`` whose fraction fits p digits and
  whole milliseconds; TIMESTAMP(p) a naive ``datetime``/``pandas.Timestamp``/
  ``numpy.datetime64``, TIMESTAMP_LTZ(p) the same, aware or naive (UTC); fractions finer than
  p digits refused; ``pandas.NaT``/``numpy.datetime64('NaT')`` are null;
- ARRAY a list/tuple (or another sequence but str/bytes/dict/set), MAP a dict or a list of
  (key, value) pairs with distinct non-null keys, ROW a dict by field name (missing: null) or
  a list/tuple by position; NOT NULL at every level.

Hypothesis settings profiles: ``ci`` (default: a short, derandomized run) and ``long``
(``FLUSS_HYPOTHESIS_PROFILE=long``: many more examples); neither writes an example database.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import decimal
import faulthandler
import functools
import math
import os
import struct
from dataclasses import dataclass
from typing import List, Optional, Tuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from fluss import EARLIEST_OFFSET, FlussError

# ---- settings profiles

_COMMON = dict(database=None, deadline=None, derandomize=True, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                      HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])
# ci: no shrinking (a failing row of 30 columns can take minutes to shrink; the failure message
# shows the example and the reference's verdict as found).
settings.register_profile("ci", max_examples=150, phases=[Phase.explicit, Phase.reuse, Phase.generate], **_COMMON)
settings.register_profile("long", max_examples=3000, **dict(_COMMON, derandomize=False))
PROFILE = os.environ.get("FLUSS_HYPOTHESIS_PROFILE", "ci")
settings.load_profile(PROFILE)


def examples(ci: int, long: Optional[int] = None) -> int:
    """Examples for one property (or tables for a test): ``ci`` in the ci profile, ``long`` (by
    default 20 times ``ci``) in the long one."""
    if PROFILE != "long":
        return ci
    return ci * 20 if long is None else long


# ---- types

UTC = dt.timezone.utc
EPOCH = dt.datetime(1970, 1, 1)
D = decimal.Decimal
INT_RANGE = {"tinyint": 8, "smallint": 16, "int": 32, "bigint": 64}
SCALARS = ["boolean", "tinyint", "smallint", "int", "bigint", "float", "double", "string", "char", "bytes",
           "binary", "decimal", "date", "time", "timestamp", "timestamp_ltz"]
KEY_KINDS = [k for k in SCALARS]  # every scalar may be a primary key, a map key, a bucket key


@dataclass(frozen=True)
class T:
    """A Fluss type: ``kind`` (one of SCALARS or array/map/row), ``n`` (CHAR/BINARY length,
    TIME/TIMESTAMP precision, DECIMAL precision), ``s`` (DECIMAL scale), ``children``
    (array: (T,); map: (key T, value T); row: ((name, T), ...))."""

    kind: str
    nullable: bool = True
    n: int = 0
    s: int = 0
    children: tuple = ()

    def not_null(self) -> "T":
        return T(self.kind, False, self.n, self.s, self.children)

    @property
    def nested(self) -> bool:
        return self.kind in ("array", "map", "row")

    def __str__(self) -> str:
        k = self.kind
        if k in ("char", "binary", "time", "timestamp", "timestamp_ltz"):
            k = f"{k}({self.n})"
        elif k == "decimal":
            k = f"decimal({self.n},{self.s})"
        elif k == "array":
            k = f"array<{self.children[0]}>"
        elif k == "map":
            k = f"map<{self.children[0]},{self.children[1]}>"
        elif k == "row":
            k = "row<" + ", ".join(f"{n} {t}" for n, t in self.children) + ">"
        return k + ("" if self.nullable else " NOT NULL")


def _unit(p: int) -> str:
    return "s" if p == 0 else "ms" if p <= 3 else "us" if p <= 6 else "ns"


def arrow_type(t: T) -> pa.DataType:
    k = t.kind
    simple = {"boolean": pa.bool_(), "tinyint": pa.int8(), "smallint": pa.int16(), "int": pa.int32(),
              "bigint": pa.int64(), "float": pa.float32(), "double": pa.float64(), "string": pa.string(),
              "char": pa.string(), "bytes": pa.binary(), "date": pa.date32()}
    if k in simple:
        return simple[k]
    if k == "binary":
        return pa.binary(t.n)
    if k == "decimal":
        return pa.decimal128(t.n, t.s)
    if k == "time":
        u = _unit(t.n)
        return pa.time32(u) if u in ("s", "ms") else pa.time64(u)
    if k == "timestamp":
        return pa.timestamp(_unit(t.n))
    if k == "timestamp_ltz":
        return pa.timestamp(_unit(t.n), tz="UTC")
    if k == "array":
        return pa.list_(field("item", t.children[0]))
    if k == "map":
        return pa.map_(field("key", t.children[0]), field("value", t.children[1]))
    if k == "row":
        return pa.struct([field(n, c) for n, c in t.children])
    raise AssertionError(k)


def field(name: str, t: T) -> pa.Field:
    """The pyarrow field of a column (or element, key, value, ROW field) of type ``t``."""
    md = None
    if t.kind == "char":
        md = {"fluss.char_length": str(t.n)}
    elif t.kind in ("time", "timestamp", "timestamp_ltz") and t.n not in (0, 3, 6, 9):
        md = {"fluss.precision": str(t.n)}
    return pa.field(name, arrow_type(t), nullable=t.nullable, metadata=md)


def schema(columns: List[Tuple[str, T]]) -> pa.Schema:
    return pa.schema([field(n, t) for n, t in columns])


# ---- type strategies

def scalar_types(kinds=SCALARS) -> st.SearchStrategy[T]:
    def build(kind, a, b):
        if kind in ("char", "binary"):
            return T(kind, n=1 + a % 6)
        if kind in ("time", "timestamp", "timestamp_ltz"):
            return T(kind, n=a % 10)
        if kind == "decimal":
            p = 1 + a % 38
            return T(kind, n=p, s=b % (p + 1))
        return T(kind)
    return st.builds(build, st.sampled_from(kinds), st.integers(0, 100), st.integers(0, 100))


def nullability(t: T, nullable: bool) -> T:
    return t if nullable else t.not_null()


def types(max_leaves: int = 6) -> st.SearchStrategy[T]:
    """Any Fluss type, nested ones to a few levels, NOT NULL at any level (map keys always)."""
    def extend(inner):
        names = st.lists(st.sampled_from(["a", "b", "c", "zip", "x y", "f.1"]), min_size=1, max_size=3, unique=True)
        return st.one_of(
            st.builds(lambda c, nn: T("array", children=(nullability(c, nn),)), inner, st.booleans()),
            st.builds(lambda k, v, nn: T("map", children=(k.not_null(), nullability(v, nn))),
                      scalar_types(), inner, st.booleans()),
            names.flatmap(lambda ns: st.tuples(*[st.tuples(inner, st.booleans()) for _ in ns]).map(
                lambda cs: T("row", children=tuple((n, nullability(c, nn)) for n, (c, nn) in zip(ns, cs))))),
        )
    return st.recursive(scalar_types(), extend, max_leaves=max_leaves)


def column_list(count: st.SearchStrategy[int] = st.integers(1, 6)) -> st.SearchStrategy[List[Tuple[str, T]]]:
    """Columns ``c00, c01, ...`` of random types, each nullable or NOT NULL."""
    return count.flatmap(lambda n: st.lists(st.tuples(types(), st.booleans()), min_size=n, max_size=n)).map(
        lambda ts: [(f"c{i:02d}", nullability(t, nn)) for i, (t, nn) in enumerate(ts)])


#: One column of every scalar type (every TIME/TIMESTAMP precision class, CHAR, BINARY, compact
#: and non-compact DECIMAL) and the nested shapes README names, NOT NULL at inner levels.
def every_type_columns() -> List[Tuple[str, T]]:
    cols = [T("boolean"), T("tinyint"), T("smallint"), T("int"), T("bigint"), T("float"), T("double"),
            T("string"), T("char", n=3), T("bytes"), T("binary", n=4), T("decimal", n=5, s=2),
            T("decimal", n=38, s=10), T("decimal", n=18, s=0), T("date"), T("time", n=0), T("time", n=3),
            T("time", n=5), T("time", n=9), T("timestamp", n=0), T("timestamp", n=2), T("timestamp", n=6),
            T("timestamp", n=9), T("timestamp_ltz", n=3), T("timestamp_ltz", n=4), T("timestamp_ltz", n=9),
            T("array", children=(T("int", nullable=False),)),
            T("array", children=(T("array", children=(T("string"),)),)),
            T("map", children=(T("string", nullable=False), T("bigint"))),
            T("map", children=(T("int", nullable=False), T("array", children=(T("char", n=2),)))),
            T("row", children=(("city", T("string")), ("zip", T("int", nullable=False)),
                               ("geo", T("row", children=(("lat", T("double")), ("lon", T("double"))))))),
            T("array", children=(T("row", children=(("ts", T("timestamp", n=6)), ("amount", T("decimal", n=20, s=2)),
                                                    ("raw", T("binary", n=2)))),)),
            T("bigint", nullable=False)]
    return [(f"c{i:02d}", t) for i, t in enumerate(cols)]


# ---- the reference: what the client must do with a value

class Refused(Exception):
    """The value must be refused; ``paths`` are the places the error may name."""

    def __init__(self, paths: List[str]):
        super().__init__(paths)
        self.paths = paths


@dataclass(frozen=True)
class Ctx:
    """Where the value goes: ``kv_indexed`` for a table of kv format INDEXED."""

    kv_indexed: bool = False


NULL = ("null",)


def _is_nat(v) -> bool:
    return v is pd.NaT or (isinstance(v, np.datetime64) and np.isnat(v))


def _float32(x: float) -> Optional[float]:
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return None


def _float_canon(x: float):
    return ("nan",) if math.isnan(x) else ("f", math.copysign(1.0, x), x)


_NP_DT_NS = {"W": 7 * 86400 * 10**9, "D": 86400 * 10**9, "h": 3600 * 10**9, "m": 60 * 10**9, "s": 10**9,
             "ms": 10**6, "us": 10**3, "ns": 1}


def _ns_of_naive(d: dt.datetime) -> int:
    delta = d.replace(tzinfo=None) - EPOCH
    return (delta.days * 86400 + delta.seconds) * 10**9 + delta.microseconds * 1000


TS_MIN_NS = _ns_of_naive(dt.datetime.min)
TS_MAX_NS = _ns_of_naive(dt.datetime.max) + 999


def _timestamp_ns(v, ltz: bool, at: str) -> int:
    """Nanoseconds since the epoch of a timestamp input (naive: as is / UTC for ltz)."""
    if isinstance(v, np.datetime64):
        unit, step = np.datetime_data(v.dtype)
        if unit not in _NP_DT_NS:
            raise Refused([at])
        return int(v.astype("int64")) * step * _NP_DT_NS[unit]
    if not isinstance(v, dt.datetime):
        raise Refused([at])
    ns_extra = v.nanosecond if isinstance(v, pd.Timestamp) else 0
    off = v.utcoffset()
    if off is not None:
        if not ltz:
            raise Refused([at])
        off_ns = (off.days * 86400 + off.seconds) * 10**9 + off.microseconds * 1000
    else:
        off_ns = 0
    return _ns_of_naive(v) + ns_extra - off_ns


def expect(t: T, v, at: str, ctx: Ctx = Ctx(), in_row: bool = True):
    """The canonical form the client must store for Python value ``v`` in a column (or element)
    of type ``t`` at path ``at`` (``in_row``: a field of the table's row or of a ROW value, not an
    ARRAY element or MAP entry); raises Refused naming every path it may report."""
    if v is None or (_is_nat(v) and t.kind in ("date", "time", "timestamp", "timestamp_ltz")):
        if not t.nullable:
            raise Refused([at])
        return NULL
    k = t.kind
    is_np_bool = isinstance(v, np.bool_)
    if k == "boolean":
        if isinstance(v, (bool, np.bool_)):
            return ("b", bool(v))
        raise Refused([at])
    if k in INT_RANGE:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise Refused([at])
        bits = INT_RANGE[k]
        if not -(2 ** (bits - 1)) <= int(v) < 2 ** (bits - 1):
            raise Refused([at])
        return ("i", int(v))
    if k in ("float", "double"):
        if isinstance(v, (bool, np.bool_)):
            raise Refused([at])
        if isinstance(v, (int, np.integer)):
            i = int(v)
            f = float(i) if abs(i) < 2**1024 else math.inf
            if k == "float":
                f = _float32(f) if math.isfinite(f) else None
            if f is None or f != i:
                raise Refused([at])  # not exactly representable (pyarrow refuses it too)
            return _float_canon(f)
        if isinstance(v, (float, np.floating)):
            f = float(v)
            if k == "float" and not math.isnan(f):
                r = _float32(f)
                if r is None:
                    raise Refused([at])  # finite beyond float32: would read back as inf
                f = r
            return _float_canon(f)
        raise Refused([at])
    if k in ("string", "char"):
        if not isinstance(v, str):
            raise Refused([at])
        try:
            b = v.encode("utf-8")
        except UnicodeEncodeError:
            raise Refused([at]) from None
        if k == "char" and (len(b) > t.n or b.endswith(b"\x00")):
            raise Refused([at])
        return ("s", v)
    if k in ("bytes", "binary"):
        if not isinstance(v, (bytes, bytearray)):
            raise Refused([at])
        b = bytes(v)
        if k == "binary" and (len(b) != t.n or (ctx.kv_indexed and in_row and b.endswith(b"\x00"))):
            raise Refused([at])
        return ("y", b)
    if k == "decimal":
        if isinstance(v, bool) or not isinstance(v, (int, decimal.Decimal)):
            raise Refused([at])
        if isinstance(v, decimal.Decimal) and not v.is_finite():
            raise Refused([at])
        d = decimal.Decimal(v)
        sign, digits, exp = d.as_tuple()
        if not any(digits):
            return ("d", 0)
        # the value times 10**s must be an integer with at most p digits
        if exp + t.s < 0 and any(digits[max(0, len(digits) + exp + t.s):]):
            raise Refused([at])
        if len(digits) + exp + t.s > t.n + 2:  # cheap bound before the exact integer
            raise Refused([at])
        with decimal.localcontext() as c:
            c.prec = 200
            scaled = int(d.scaleb(t.s))
        if abs(scaled) >= 10**t.n:
            raise Refused([at])
        return ("d", scaled)
    if k == "date":
        if not isinstance(v, dt.date) or isinstance(v, dt.datetime):
            raise Refused([at])
        return ("date", v.toordinal())
    if k == "time":
        if not isinstance(v, dt.time) or v.tzinfo is not None:
            raise Refused([at])
        us = ((v.hour * 60 + v.minute) * 60 + v.second) * 10**6 + v.microsecond
        step_us = max(1000, 10 ** (6 - t.n))  # TIME keeps milliseconds
        if us % step_us:
            raise Refused([at])
        return ("t", us)
    if k in ("timestamp", "timestamp_ltz"):
        ns = _timestamp_ns(v, k == "timestamp_ltz", at)
        if ns % 10 ** (9 - t.n):
            raise Refused([at])
        # Python reads back years 1..9999 only: a value outside (numpy, or an aware datetime
        # shifted to UTC) is refused rather than stored unreadable; TIMESTAMP(7..9) is an
        # int64 of nanoseconds.
        if not TS_MIN_NS <= ns <= TS_MAX_NS or (_unit(t.n) == "ns" and not -(2**63) <= ns < 2**63):
            raise Refused([at])
        return ("ts", ns)
    if k == "array":
        if not _positional(v):
            raise Refused([at])
        return ("a", tuple(_gather([(t.children[0], x, f"{at}[{i}]") for i, x in enumerate(v)], ctx)))
    if k == "map":
        if isinstance(v, dict):
            pairs = list(v.items())
        elif _positional(v):
            pairs = list(v)
        else:
            raise Refused([at])
        errors, out = [], []
        for i, p in enumerate(pairs):
            if not isinstance(p, (tuple, list)) or len(p) != 2:
                errors.append(f"{at}[{i}]")
                continue
            try:
                if p[0] is None:
                    raise Refused([f"{at}[{i}].key"])
                out.append(tuple(_gather([(t.children[0], p[0], f"{at}[{i}].key"),
                                          (t.children[1], p[1], f"{at}[{i}].value")], ctx)))
            except Refused as e:
                errors.extend(e.paths)
        if errors:
            raise Refused(errors)
        keys = [kv[0] for kv in out]
        if len(set(keys)) != len(keys):
            raise Refused([at])
        return ("m", tuple(out))
    if k == "row":
        names = [n for n, _ in t.children]
        if isinstance(v, dict):
            if any(key not in names for key in v):
                raise Refused([at])
            items = [(c, v.get(n), f"{at}.{n}") for n, c in t.children]
        elif isinstance(v, (list, tuple)):
            if len(v) != len(names):
                raise Refused([at])
            items = [(c, x, f"{at}.{n}") for (n, c), x in zip(t.children, v)]
        else:
            raise Refused([at])
        return ("r", tuple(_gather(items, ctx, in_row=True)))
    raise AssertionError(k)


def _positional(v) -> bool:
    return isinstance(v, (list, tuple, np.ndarray))


def _gather(items, ctx: Ctx, in_row: bool = False) -> list:
    """expect() of each (type, value, path), with every refused path of all of them."""
    errors, out = [], []
    for t, v, at in items:
        try:
            out.append(expect(t, v, at, ctx, in_row=in_row))
        except Refused as e:
            errors.extend(e.paths)
    if errors:
        raise Refused(errors)
    return out


def expect_row(columns: List[Tuple[str, T]], row, ctx: Ctx = Ctx()) -> tuple:
    """The canonical row for a dict (missing keys: null) or list/tuple row; Refused naming the
    columns (``row`` for a wrong shape)."""
    names = [n for n, _ in columns]
    if isinstance(row, dict):
        extra = [k for k in row if k not in names]
        if extra:
            raise Refused([extra[0]])
        items = [(t, row.get(n), n) for n, t in columns]
    elif isinstance(row, (list, tuple)):
        if len(row) != len(columns):
            raise Refused(["row"])
        items = [(t, v, n) for (n, t), v in zip(columns, row)]
    else:
        raise Refused(["row"])
    return tuple(_gather(items, ctx, in_row=True))


# ---- what was read back

def readback(t: T, v):
    """The canonical form of a value read back (pyarrow's to_pylist spelling)."""
    if v is None:
        return NULL
    k = t.kind
    if k == "boolean":
        assert isinstance(v, bool), v
        return ("b", v)
    if k in INT_RANGE:
        assert isinstance(v, int) and not isinstance(v, bool), v
        return ("i", v)
    if k in ("float", "double"):
        assert isinstance(v, float), v
        return _float_canon(v)
    if k in ("string", "char"):
        assert isinstance(v, str), v
        return ("s", v)
    if k in ("bytes", "binary"):
        assert isinstance(v, bytes), v
        return ("y", v)
    if k == "decimal":
        assert isinstance(v, decimal.Decimal), v
        with decimal.localcontext() as c:
            c.prec = 200
            return ("d", int(v.scaleb(t.s)))
    if k == "date":
        assert type(v) is dt.date, v
        return ("date", v.toordinal())
    if k == "time":
        assert isinstance(v, dt.time) and v.tzinfo is None, v
        return ("t", ((v.hour * 60 + v.minute) * 60 + v.second) * 10**6 + v.microsecond)
    if k in ("timestamp", "timestamp_ltz"):
        assert isinstance(v, dt.datetime), v
        assert (v.tzinfo is not None) == (k == "timestamp_ltz"), (t, v)
        return ("ts", _timestamp_ns(v, True, "?"))
    if k == "array":
        return ("a", tuple(readback(t.children[0], x) for x in v))
    if k == "map":
        return ("m", tuple((readback(t.children[0], a), readback(t.children[1], b)) for a, b in v))
    if k == "row":
        assert list(v) == [n for n, _ in t.children], v
        return ("r", tuple(readback(c, v[n]) for n, c in t.children))
    raise AssertionError(k)


def readback_row(columns: List[Tuple[str, T]], row: dict) -> tuple:
    assert list(row) == [n for n, _ in columns], list(row)
    return tuple(readback(t, row[n]) for n, t in columns)


# ---- value strategies

_TZS = st.one_of(st.just(UTC), st.builds(lambda m: dt.timezone(dt.timedelta(minutes=m)), st.integers(-1439, 1439)),
                 st.builds(lambda us: dt.timezone(dt.timedelta(microseconds=us)),
                           st.integers(-86_399_999_999, 86_399_999_999)))


def _fraction(p: int, digits_max: int = 6) -> st.SearchStrategy[int]:
    """Microseconds with at most p fractional digits of the second."""
    step = 10 ** max(0, digits_max - p)
    return st.integers(0, 10**digits_max // step - 1).map(lambda x: x * step)


def _datetimes(p: int, ns_range: bool) -> st.SearchStrategy[dt.datetime]:
    lo, hi = (dt.datetime(1677, 9, 22), dt.datetime(2262, 4, 10)) if ns_range else (dt.datetime.min, dt.datetime.max)
    return st.tuples(st.datetimes(lo, hi), _fraction(p)).map(lambda x: x[0].replace(microsecond=x[1]))


@functools.lru_cache(maxsize=None)
def valid_values(t: T, ctx: Ctx = Ctx(), in_row: bool = True) -> st.SearchStrategy:
    """Values the client must accept for ``t`` (in several accepted spellings)."""
    nulls = st.just(None) if t.nullable else st.nothing()
    k = t.kind
    if k == "boolean":
        s = st.one_of(st.booleans(), st.builds(np.bool_, st.booleans()))
    elif k in INT_RANGE:
        bits = INT_RANGE[k]
        ints = st.integers(-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
        np_t = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}[bits]
        s = st.one_of(ints, ints.map(np_t), st.sampled_from([-(2 ** (bits - 1)), 2 ** (bits - 1) - 1, 0]))
    elif k == "float":
        s = st.one_of(st.floats(width=32), st.floats(width=32).map(np.float32), st.integers(-2**24, 2**24))
    elif k == "double":
        s = st.one_of(st.floats(), st.floats().map(np.float64), st.integers(-2**53, 2**53),
                      st.integers(-2**31, 2**31).map(np.int64))
    elif k == "string":
        s = st.text(max_size=20)
    elif k == "char":
        s = st.text(max_size=t.n).filter(lambda x: len(x.encode("utf-8", "surrogatepass")) <= t.n
                                         and not x.endswith("\x00"))
    elif k == "bytes":
        s = st.one_of(st.binary(max_size=20), st.binary(max_size=5).map(bytearray))
    elif k == "binary":
        s = st.binary(min_size=t.n, max_size=t.n)
        if ctx.kv_indexed and in_row:
            s = s.filter(lambda b: not b.endswith(b"\x00"))
    elif k == "decimal":
        lim = 10**t.n - 1
        scaled = st.one_of(st.integers(-lim, lim), st.sampled_from([lim, -lim, 0]))
        exact = decimal.Context(prec=100)
        s = st.one_of(scaled.map(lambda x: D(x).scaleb(-t.s, context=exact)),
                      st.integers(-(10 ** (t.n - t.s) - 1), 10 ** (t.n - t.s) - 1))
    elif k == "date":
        s = st.dates()
    elif k == "time":
        ms_step = max(1000, 10 ** (6 - t.n))
        s = st.builds(lambda x: (dt.datetime.min + dt.timedelta(microseconds=x * ms_step)).time(),
                      st.integers(0, 86_400_000_000 // ms_step - 1))
    elif k in ("timestamp", "timestamp_ltz"):
        ns_range = _unit(t.n) == "ns"
        base = _datetimes(t.n, ns_range)
        spellings = [base]
        if ns_range:
            spellings.append(st.tuples(base, _fraction(t.n - 6 if t.n > 6 else 0, 3)).map(
                lambda x: pd.Timestamp(x[0]) + pd.Timedelta(nanoseconds=x[1] if t.n > 6 else 0)))
        spellings.append(st.builds(lambda d: np.datetime64(d.replace(microsecond=0), "s"),
                                   _datetimes(0, True)))
        if k == "timestamp_ltz":
            spellings.append(st.tuples(_datetimes(t.n, True), _TZS).map(
                lambda x: x[0].replace(tzinfo=UTC).astimezone(x[1])))
        s = st.one_of(*spellings)
    elif k == "array":
        s = st.lists(valid_values(t.children[0], ctx, False), max_size=4)
        s = st.one_of(s, s.map(tuple))
    elif k == "map":
        kt, vt = t.children
        pairs = st.lists(st.tuples(valid_values(kt, ctx, False), valid_values(vt, ctx, False)), max_size=4,
                         unique_by=lambda kv: _key_id(kt, kv[0]))
        s = st.one_of(pairs, pairs.map(lambda ps: {a: b for a, b in ps} if all(_hashable(a) for a, _ in ps) else ps))
    elif k == "row":
        fields = [st.tuples(st.just(n), valid_values(c, ctx, True)) for n, c in t.children]
        by_name = st.tuples(*fields).map(lambda fs: {n: v for n, v in fs if v is not None})
        by_pos = st.tuples(*fields).map(lambda fs: [v for _, v in fs])
        s = st.one_of(by_name, by_pos)
    else:
        raise AssertionError(k)
    return st.one_of(s, nulls)


def _hashable(v) -> bool:
    try:
        hash(v)
        return True
    except TypeError:
        return False


def _key_id(t: T, v):
    """Equal for map keys the client takes as one key."""
    try:
        return repr(expect(t, v, "k"))
    except Refused:
        return repr(v)


@functools.lru_cache(maxsize=None)
def _wrong_kind_values() -> st.SearchStrategy:
    """Values of every Python kind, for a column of any type."""
    return st.one_of(
        st.sampled_from([True, False, 0, 1, -1, 2**63, -(2**63) - 1, 2**64, 2**200, 1.5, -0.0, math.nan, math.inf,
                         "1", "", "\x00", "\ud800", b"", b"\x00", bytearray(b"ab"), D("1.5"), D("NaN"), D("-Infinity"),
                         D("1E+1000"), D("1E-1000"), dt.date(2024, 1, 1), dt.datetime(2024, 1, 1),
                         dt.datetime(2024, 1, 1, tzinfo=UTC), dt.time(1, 2, 3), dt.time(1, 2, 3, tzinfo=UTC),
                         dt.timedelta(1), [], (), {}, set(), frozenset(), object, pd.NaT, np.datetime64("NaT"),
                         np.int8(-1), np.uint64(2**64 - 1), np.float32(1.5), np.float64(math.nan), np.bool_(True),
                         np.str_("np"), np.bytes_(b"np"), np.datetime64("2024-01-01", "Y"), np.datetime64(1, "ps"),
                         np.array([1, 2]), memoryview(b"ab"), [None], [1, "a"], {"k": None}, {None: 1}]),
        st.integers(), st.floats(), st.text(max_size=8), st.binary(max_size=8))


@functools.lru_cache(maxsize=None)
def hostile_values(t: T, ctx: Ctx = Ctx(), in_row: bool = True) -> st.SearchStrategy:
    """Values near or past the edges of ``t``, of other types, and misshapen nested values (the
    reference decides which ones must be refused)."""
    k = t.kind
    near: List[st.SearchStrategy] = [_wrong_kind_values()]
    if not t.nullable:
        near.append(st.just(None))
    if k in INT_RANGE:
        b = INT_RANGE[k]
        edges = [-(2 ** (b - 1)) - 1, 2 ** (b - 1), 2**64, -(2**64)]
        near += [st.sampled_from(edges), st.sampled_from(edges).map(lambda x: np.int64(x) if -2**63 <= x < 2**63
                                                                   else np.uint64(x) if 0 <= x < 2**64 else x),
                 st.sampled_from([np.uint8(255), np.int16(-1), np.uint32(2**32 - 1)])]
    elif k in ("float", "double"):
        near += [st.sampled_from([3.5e38, -3.5e38, 3.4028235e38, 1e-46, 5e-324, 2**24 + 1, 2**53 + 1, -(2**63),
                                  2**1024, np.int64(2**53 + 1), np.uint64(2**64 - 1), np.float16(1.5),
                                  np.longdouble(1.5)]), st.floats(allow_nan=True)]
    elif k in ("string", "char"):
        near += [st.text(min_size=max(0, t.n - 1), max_size=t.n + 2), st.text(max_size=4).map(lambda s: s + "\x00"),
                 st.sampled_from(["é" * max(1, t.n), "日本", "\ud83d", "a\x00b"])]
    elif k in ("bytes", "binary"):
        near += [st.binary(min_size=max(0, t.n - 1), max_size=t.n + 1), st.binary(max_size=t.n).map(lambda b: b + b"\x00"),
                 st.text(max_size=4)]
    elif k == "decimal":
        near += [st.integers(-(10 ** (t.n + 1)), 10 ** (t.n + 1)).map(lambda x: D(x).scaleb(-t.s - 1)),
                 st.sampled_from([D(10**t.n), D("9" * 38 + "9"), D("3" + "0" * 38), D("-3" + "0" * 38),
                                  D("1E+999999999999"), D("0E+999999999999"), D("0E-999999999999"), D("-0"),
                                  D("1E-999999999999"), D("sNaN"), 10**40, D(10) ** 37 * 3]),
                 st.decimals(allow_nan=True, allow_infinity=True, places=None)]
    elif k == "date":
        near += [st.datetimes(), st.dates().map(lambda d: pd.Timestamp(d))]
    elif k == "time":
        near += [st.times(), st.times(timezones=_TZS), st.just(dt.time(23, 59, 59, 999999))]
    elif k in ("timestamp", "timestamp_ltz"):
        near += [st.datetimes(), st.datetimes(timezones=_TZS),
                 st.sampled_from([dt.datetime(2262, 4, 11, 23, 47, 16, 854775), dt.datetime(2262, 4, 11, 23, 47, 16, 999999),
                                  dt.datetime(1677, 9, 21, 0, 12, 43, 145225), dt.datetime.max, dt.datetime.min,
                                  dt.datetime.min.replace(tzinfo=dt.timezone(dt.timedelta(hours=1))),
                                  dt.datetime.max.replace(tzinfo=dt.timezone(dt.timedelta(hours=-1))),
                                  pd.Timestamp("2024-01-01 00:00:00.000000005"), pd.Timestamp("2024-01-01", tz="Asia/Tokyo"),
                                  pd.Timestamp("2024-01-01 00:00:00.000001", tz="UTC"),
                                  np.datetime64("2024-01-01T00:00:00.123456789", "ns"), np.datetime64(3, "W"),
                                  np.datetime64(5, "10ms"), np.datetime64("2024-01", "M"), np.datetime64(2**62, "s")])]
    elif k == "array":
        item = st.one_of(valid_values(t.children[0], ctx, False), hostile_values(t.children[0], ctx, False))
        near += [st.lists(item, max_size=3), st.just("abc"), st.just({1: 2}), st.sets(st.integers(), max_size=2),
                 st.lists(valid_values(t.children[0], ctx, False), max_size=3).map(lambda xs: iter(xs))]
    elif k == "map":
        kt, vt = t.children
        keys = st.one_of(valid_values(kt, ctx, False), hostile_values(kt, ctx, False))
        vals = st.one_of(valid_values(vt, ctx, False), hostile_values(vt, ctx, False))
        near += [st.lists(st.tuples(keys, vals), max_size=3),
                 st.lists(valid_values(kt, ctx, False), min_size=1, max_size=2).map(lambda ks: [(ks[0], None), (ks[0], None)]),
                 st.lists(st.one_of(st.tuples(keys), st.tuples(keys, vals, vals), keys), min_size=1, max_size=2)]
    elif k == "row":
        n = len(t.children)
        fields = [st.one_of(valid_values(c, ctx, True), hostile_values(c, ctx, True)) for _, c in t.children]
        near += [st.tuples(*fields).map(list),
                 st.tuples(*fields).map(lambda fs: {name: v for (name, _), v in zip(t.children, fs)}),
                 st.lists(st.integers(), min_size=n + 1, max_size=n + 2),
                 st.just({"no such field": 1})]
    return st.one_of(*near)


def row_values(columns: List[Tuple[str, T]], ctx: Ctx = Ctx(), fixed=None) -> st.SearchStrategy[tuple]:
    """A row's values: every column valid, or with one (sometimes two) column hostile.
    ``fixed``: {column name: strategy} overriding a column (e.g. a primary key)."""
    fixed = fixed or {}
    valid = [fixed[n] if n in fixed else valid_values(t, ctx) for n, t in columns]
    hostile = [fixed[n] if n in fixed else hostile_values(t, ctx) for n, t in columns]
    bad = st.one_of(st.just(frozenset()), st.sets(st.integers(0, len(columns) - 1), max_size=2))

    @st.composite
    def rows(draw):
        b = draw(bad)
        return tuple(draw(hostile[i] if i in b else valid[i]) for i in range(len(columns)))

    return rows()


def spell(columns: List[Tuple[str, T]], values: tuple, how: str, omit_nulls: bool = True):
    """The row as ``how`` ('dict', 'tuple', 'list') spells it; dicts leave None values out."""
    if how == "dict":
        return {n: v for (n, _), v in zip(columns, values) if not (omit_nulls and v is None)}
    return tuple(values) if how == "tuple" else list(values)


def names_one_of(message: str, paths: List[str]) -> bool:
    """Whether the error message names one of the paths (quoted as the client quotes them, or
    as the argument ``row``)."""
    for p in paths:
        if p == "row":  # the row (or key) as a whole: its shape or length
            if any(w in message for w in ("row", "key", "columns")):
                return True
        elif f"'{p}'" in message or f"'{p}[" in message or f"'{p}." in message:
            return True
    return False


# ---- running properties inside an async test

def draw_many(strategy: st.SearchStrategy, n: int) -> list:
    """``n`` examples of ``strategy`` (fewer when it has fewer), the same on every ci run: for
    the few random schemas a test makes tables of."""
    out: list = []

    @settings(max_examples=n, phases=[Phase.generate])
    @given(strategy)
    def collect(x):
        out.append(x)

    collect()
    return out[:n]


def run_property(strategy: st.SearchStrategy, check, max_examples: int) -> None:
    """Runs ``check(example)`` for ``max_examples`` examples of ``strategy`` (shrinking a failure
    as Hypothesis does). Synchronous: called from an async test, so calls that need a running
    loop (append on an event-loop thread) see it."""
    @settings(max_examples=max_examples)
    @given(strategy)
    def prop(x):
        _arm_watchdog()  # per example: a hang fails within minutes, however long the run
        check(x)

    prop()


async def bounded(awaitable, seconds: float = 60.0, what: str = "call"):
    """``await awaitable``, failing the test (not blocking CI) when it takes over ``seconds``."""
    _arm_watchdog()
    try:
        return await asyncio.wait_for(awaitable, seconds)
    except asyncio.TimeoutError:
        raise AssertionError(f"{what} did not complete within {seconds} s (hang)") from None


async def flush_and_scan(writer, table) -> pa.Table:
    """Flushes ``writer`` and reads bucket 0 of ``table`` (a log table) from the earliest
    offset to its end through the batch scanner, each step bounded."""
    await bounded(writer.flush(), 60, "flush")
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe(0, EARLIEST_OFFSET)
    return await bounded(scanner.to_arrow_async(), 60, "to_arrow")


HANG_SECONDS = 180


def _arm_watchdog() -> None:
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True)


@pytest.fixture(autouse=True)
def watchdog():
    """A synchronous call that hangs (no await for wait_for to cancel) ends the run with every
    thread's traceback after HANG_SECONDS without a new example (re-armed by run_property per
    example), rather than blocking CI until its own timeout."""
    _arm_watchdog()
    yield
    faulthandler.cancel_dump_traceback_later()


ERRORS = (FlussError, TypeError, ValueError)


class Outcomes:
    """Counts what a property saw (reported by the long run)."""

    def __init__(self, name: str):
        self.name = name
        self.accepted = 0
        self.refused = 0

    def report(self) -> None:
        print(f"\n[{PROFILE}] {self.name}: {self.accepted} accepted, {self.refused} refused")


def call_refused_or_accepted(call, arg, refused: Optional[Refused], describe: str) -> bool:
    """Calls ``call(arg)``; True when it was accepted. Refused (FlussError, TypeError or
    ValueError) must match the reference: only values it refuses, with a message naming one of
    the paths. Any other exception propagates (a defect)."""
    try:
        call(arg)
    except ERRORS as e:
        msg = getattr(e, "message", None) or str(e)
        assert refused is not None, f"{describe}: refused a valid value {arg!r}: {type(e).__name__}: {msg}"
        assert names_one_of(msg, refused.paths), f"{describe}: error for {arg!r} names none of {refused.paths}: {msg}"
        return False
    assert refused is None, f"{describe}: accepted {arg!r}, which must be refused (at {refused.paths})"
    return True


def assert_read_back(accepted: dict, got: dict, describe) -> None:
    """Every accepted row (canonical, by id) was read back and equal, and no other row was: no
    accepted write lost around refused ones. ``describe(id)`` names a row's input."""
    missing = sorted(set(accepted) - set(got))
    assert not missing, f"{len(missing)} accepted rows lost, e.g. {describe(missing[0])}"
    assert set(got) == set(accepted), f"rows read back that were refused: {sorted(set(got) - set(accepted))[:5]}"
    for i, want in accepted.items():
        assert got[i] == want, f"{describe(i)} read back as {got[i]!r}, expected {want!r}"
