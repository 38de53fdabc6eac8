"""Nested types (ARRAY, MAP, ROW, nested in each other, NULL at every level) agree with the
official Java client, both ways, value for value.

Log tables, log formats ARROW and INDEXED (2 buckets): our client appends rows (row by row with
every input spelling: ROW as a dict or a list by position, MAP as a dict or a list of pairs;
and through write_arrow), the Java client appends rows of its own (tests/java/run-reader.sh
append, AppendTable.java); then

  (a) the Java client reads every row (ReadTable), whole and with a projection of nested
      columns: each of ours (and of its own) is exactly the value written;
  (b) our client reads every row with create_batch_scanner().to_arrow() (Arrow types equal to
      the table schema's), whole and projected, and with create_log_scanner().poll(): each of
      Java's (and of ours) is exactly the value written.

Primary-key tables, kv formats COMPACTED and INDEXED (3 buckets): our client upserts half the
keys, Java (PkTool upsert) the other half and overwrites some of ours, ours overwrites some of
Java's and partially updates keys of both (a scalar and a nested column: the server merges the
rest of the stored row, nested values included); then

  (c) the Java Lookuper looks up every key: exactly the last value written, by either client;
  (d) our table.new_lookup() looks up every key: the same.

The values come from a seeded generator walking the Arrow type (so every level of every column
gets NULLs where it is nullable, empty and one-element and long containers, strings and bytes
of <= 7 bytes (stored inline in a BinaryArray slot) and longer (stored out of line), non-ASCII,
every scalar edge), plus hand-written rows: every nullable column NULL, every container empty,
a NULL at every nullable level, long values everywhere.

Comparisons are exact: same Python types, floats bit for bit (NaN, -0.0), decimals digit for
digit, timestamps to the microsecond, map entries in the order written; except that what the
Java log scanner reads is compared with the entries of each map sorted by key, since it hands
maps out in HashMap order (_maps_in_key_order); its lookups keep the order.

Pre-1970 timestamps are whole milliseconds in ARROW tables: the 0.9.1 Java Arrow reader cannot
read a pre-1970 value with sub-millisecond digits (see test_java_reader.py); the INDEXED and
kv tables carry such values too.

Needs java and mvn on PATH (fails otherwise); the first run builds tests/java.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import decimal
import json
import math
import random

import pyarrow as pa
import pytest

import fluss
from conftest import new_table, poll_records
from java_client import UTC, f32, java_tool, run_java, same_value, to_java_row

D = decimal.Decimal


def F(name, t, nullable=True):
    return pa.field(name, t, nullable=nullable)


def _list(t, nullable=True):
    return pa.list_(pa.field("item", t, nullable=nullable))


GEO = pa.struct([F("lat", pa.float64()), F("lon", pa.float64())])
ADDRESS = pa.struct([F("city", pa.string()), F("zip", pa.int32(), False), F("geo", GEO)])
EVENT = pa.struct([F("ts", pa.timestamp("us")), F("amount", pa.decimal128(20, 2)), F("raw", pa.binary())])
POINT = pa.struct([F("x", pa.int32()), F("y", pa.string())])

NESTED_FIELDS = [
    F("tags", _list(pa.string())),
    F("scores", _list(pa.int32(), nullable=False)),
    F("attrs", pa.map_(pa.string(), pa.int64())),
    F("address", ADDRESS),
    F("matrix", _list(_list(pa.int32()))),
    F("events", _list(EVENT)),
    F("m2", pa.map_(pa.int32(), _list(pa.string()))),
    F("lm", _list(pa.map_(pa.string(), POINT))),  # MAP inside ARRAY, ROW as map value
    # one array per element slot kind (BinaryArray slots of 1, 2, 4 and 8 bytes, compact and
    # non-compact DECIMAL and TIMESTAMP, BYTES and BINARY(n) inline or out of line)
    F("bools", _list(pa.bool_())),
    F("tinys", _list(pa.int8())),
    F("smalls", _list(pa.int16(), nullable=False)),
    F("longs", _list(pa.int64())),
    F("floats", _list(pa.float32())),
    F("doubles", _list(pa.float64(), nullable=False)),
    F("days", _list(pa.date32())),
    F("times", _list(pa.time32("ms"))),
    F("ts3s", _list(pa.timestamp("ms"))),
    F("ltzs", _list(pa.timestamp("us", tz="UTC"))),
    F("decs", _list(pa.decimal128(10, 2))),
    F("dec38s", _list(pa.decimal128(38, 10))),
    F("bins", _list(pa.binary())),
    F("fixed", _list(pa.binary(4))),
    # every scalar type as a field of a nested row
    F("scalars", pa.struct([F("b", pa.bool_()), F("i8", pa.int8()), F("i16", pa.int16()), F("i64", pa.int64(), False),
                            F("f", pa.float32()), F("d", pa.date32()), F("t", pa.time32("ms")),
                            F("ts3", pa.timestamp("ms")), F("ltz", pa.timestamp("us", tz="UTC")),
                            F("dec", pa.decimal128(10, 2)), F("dec38", pa.decimal128(38, 10)),
                            F("bin4", pa.binary(4)), F("s", pa.string())])),
]

LOG_SCHEMA = pa.schema([
    F("id", pa.int64()),
    F("name", pa.string()),
    *NESTED_FIELDS,
    F("price", pa.decimal128(10, 2)),
    F("day", pa.date32()),
    F("ratio", pa.float32()),
    F("ts_ltz", pa.timestamp("us", tz="UTC")),
])

PK_SCHEMA = pa.schema([F("pk", pa.int32(), False), *NESTED_FIELDS, F("note", pa.string())])


# ---- values, in the form our readers return them (ROW a dict, MAP a list of (key, value)
# tuples, FLOAT rounded to float32, TIMESTAMP_LTZ aware in UTC)

# <= 7 UTF-8 bytes are stored inline in an array slot, longer ones out of line
STRINGS = ["", "a", "é", "日本", "seven77", "eight888", "日本語", "ключ-ключ", "héllo ✓ \"q\" back\\slash\nnl\ttab \x01 😀",
           "x" * 200, "long string " * 30]
BYTES = [b"", b"\x00", b"\xff", bytes(range(7)), bytes(range(8)), b"\x80" * 9, bytes(range(256))]


def _scalar(t: pa.DataType, rng: random.Random, arrow: bool):
    if pa.types.is_boolean(t):
        return rng.random() < 0.5
    if pa.types.is_integer(t):
        bits = t.bit_width
        lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
        return min(hi, max(lo, rng.choice([lo, hi, 0, -1, 1, 127, 128, rng.randint(lo, hi), rng.randint(-1000, 1000)])))
    if pa.types.is_float32(t):
        return f32(rng.choice([0.1, -0.0, math.inf, -math.inf, math.nan, 3.4028234663852886e38, 1.5, 1e-45,
                               rng.uniform(-1e6, 1e6)]))
    if pa.types.is_float64(t):
        return rng.choice([1e300, -2.5e-300, 5e-324, -0.0, math.nan, math.inf, -math.inf, 0.1, rng.uniform(-1e9, 1e9)])
    if pa.types.is_string(t):
        return rng.choice(STRINGS) if rng.random() < 0.7 else f"s{rng.randint(0, 10**rng.randint(1, 12))}"
    if pa.types.is_fixed_size_binary(t):
        return bytes(rng.randrange(256) for _ in range(t.byte_width))
    if pa.types.is_binary(t):
        return rng.choice(BYTES) if rng.random() < 0.6 else bytes(rng.randrange(256) for _ in range(rng.randint(0, 20)))
    if pa.types.is_date(t):
        return rng.choice([dt.date(1970, 1, 1), dt.date(1969, 12, 31), dt.date(1, 1, 1), dt.date(9999, 12, 31),
                           dt.date(2024, 2, 29), dt.date(1970, 1, 1) + dt.timedelta(days=rng.randint(-30000, 30000))])
    if pa.types.is_time(t):
        ms = rng.choice([0, 86_399_999, 1, 128, rng.randrange(86_400_000)])
        return (dt.datetime(2000, 1, 1) + dt.timedelta(milliseconds=ms)).time()
    if pa.types.is_timestamp(t):
        us = rng.choice([0, -1000, 1, -1, 1_500_123, 10**15, -(10**15) + 7, rng.randint(-2 * 10**15, 2 * 10**15)])
        if t.unit == "ms" or (arrow and us < 0):
            us -= us % 1000  # whole ms (see the module docstring for pre-1970 values on ARROW)
        v = dt.datetime(1970, 1, 1) + dt.timedelta(microseconds=us)
        return v.replace(tzinfo=UTC) if t.tz else v
    if pa.types.is_decimal(t):
        top = 10**t.precision - 1
        unscaled = rng.choice([0, 1, -1, top, -top, 127, -129, 2**63, -(2**63) - 1, rng.randint(-top, top)])
        unscaled = max(-top, min(top, unscaled))
        return D(f"{unscaled}E-{t.scale}").quantize(D(1).scaleb(-t.scale), context=decimal.Context(prec=100))
    raise AssertionError(f"no values for {t}")


def _value(t: pa.DataType, nullable: bool, rng: random.Random, arrow: bool, depth: int = 0):
    """A random value of Arrow type ``t`` (NULL only where nullable), in the form our readers return."""
    if nullable and rng.random() < 0.15:
        return None
    if pa.types.is_map(t) or pa.types.is_list(t):
        n = rng.choice([0, 1, 1, 2, 3, 5] + ([40] if depth == 0 else []))
        if pa.types.is_list(t):
            f = t.value_field
            return [_value(f.type, f.nullable, rng, arrow, depth + 1) for _ in range(n)]
        keys = []
        for _ in range(n):
            k = _scalar(t.key_type, rng, arrow)
            if k not in keys:
                keys.append(k)
        f = t.item_field
        return [(k, _value(f.type, f.nullable, rng, arrow, depth + 1)) for k in keys]
    if pa.types.is_struct(t):
        return {f.name: _value(f.type, f.nullable, rng, arrow, depth + 1) for f in t}
    return _scalar(t, rng, arrow)


def _spelled(t: pa.DataType, v, rng: random.Random):
    """``v`` in one of the input spellings our writer takes: ROW as a dict or a list by position,
    MAP as a list of pairs or a dict, ARRAY as a list or a tuple."""
    if v is None:
        return None
    if pa.types.is_map(t):
        pairs = [(k, _spelled(t.item_type, x, rng)) for k, x in v]
        return dict(pairs) if rng.random() < 0.5 else pairs
    if pa.types.is_list(t):
        items = [_spelled(t.value_type, e, rng) for e in v]
        return tuple(items) if rng.random() < 0.2 else items
    if pa.types.is_struct(t):
        values = {f.name: _spelled(f.type, v[f.name], rng) for f in t}
        return list(values.values()) if rng.random() < 0.4 else values
    return v


def _edge_rows(schema: pa.Schema, key: str, first: int) -> list[dict]:
    """Hand-written rows: every nullable column NULL; every container empty; a NULL at every
    nullable level; long values everywhere."""
    nested = {f.name for f in NESTED_FIELDS}
    null_row = {f.name: None for f in schema}
    empty = {n: [] for n in nested} | {
        "address": {"city": "", "zip": 0, "geo": {"lat": None, "lon": None}},
        "scalars": {f.name: None for f in schema.field("scalars").type} | {"i64": 0},
    }
    nulls_inside = {
        "tags": [None], "scores": [0], "attrs": [("k", None)], "address": {"city": None, "zip": -1, "geo": None},
        "matrix": [None, [None], []], "events": [None, {"ts": None, "amount": None, "raw": None}],
        "m2": [(0, None), (1, [None]), (2, [])], "lm": [None, [], [("a", None)], [("b", {"x": None, "y": None})]],
        "bools": [None, True], "tinys": [None], "smalls": [-1], "longs": [None, None, 5], "floats": [None],
        "doubles": [-0.0], "days": [None], "times": [None], "ts3s": [None], "ltzs": [None], "decs": [None],
        "dec38s": [None], "bins": [None, b""], "fixed": [None],
        "scalars": {f.name: None for f in schema.field("scalars").type} | {"i64": -1},
    }
    long_s = "long value " * 50
    longs = {
        "tags": [long_s, "é" * 300, "a", ""], "scores": list(range(-150, 150)),
        "attrs": [(long_s + str(i), i * 10**15) for i in range(30)],
        "address": {"city": long_s, "zip": 2**31 - 1, "geo": {"lat": 48.8566, "lon": 2.3522}},
        "matrix": [list(range(k * 10, k * 10 + 20)) for k in range(20)],
        "events": [{"ts": dt.datetime(2024, 1, 2, 3, 4, 5, 654321), "amount": D("-999999999999999999.99"),
                    "raw": bytes(range(256)) * 2}] * 3,
        "m2": [(2**31 - 1, [long_s] * 5), (-(2**31), ["x" * 8, "y" * 7])],
        "lm": [[(long_s, {"x": 1, "y": long_s})]] * 4,
        "bools": [True, False] * 100, "tinys": list(range(-128, 128)), "smalls": list(range(-32768, 32768, 257)),
        "longs": [2**63 - 1, -(2**63)] * 30, "floats": [f32(i / 7) for i in range(100)],
        "doubles": [i / 7 for i in range(100)],
        "days": [dt.date(1970, 1, 1) + dt.timedelta(days=i * 97) for i in range(-50, 50)],
        "times": [dt.time(23, 59, 59, 999000)] * 50,
        "ts3s": [dt.datetime(1970, 1, 1) + dt.timedelta(milliseconds=i * 10**9 + 7) for i in range(-20, 20)],
        "ltzs": [dt.datetime(2024, 1, 2, 3, 4, 5, 654321, tzinfo=UTC)] * 40,
        "decs": [D("99999999.99"), D("-99999999.99")] * 30,
        "dec38s": [D("9999999999999999999999999999.9999999999"), D("-0.0000000001")] * 20,
        "bins": [bytes(range(256)) * 4, b"12345678"], "fixed": [b"\x00\x01\x02\x03"] * 64,
        "scalars": {"b": True, "i8": -128, "i16": 32767, "i64": 2**63 - 1, "f": f32(-3.4028234663852886e38),
                    "d": dt.date(9999, 12, 31), "t": dt.time(12, 0, 0, 1000), "ts3": dt.datetime(2100, 1, 1, 0, 0, 0, 1000),
                    "ltz": dt.datetime(1970, 1, 1, 0, 0, 0, 1, tzinfo=UTC), "dec": D("-0.01"),
                    "dec38": D("-9999999999999999999999999999.9999999999"), "bin4": b"\xff\xfe\xfd\xfc", "s": long_s},
    }
    rows = []
    for i, nested_values in enumerate([{}, empty, nulls_inside, longs]):
        row = dict(null_row)
        row.update(nested_values)
        row[key] = first + i
        if nested_values and "name" in row:
            row.update(name=long_s, price=D("-0.01"), day=dt.date(1969, 12, 31), ratio=f32(0.1),
                       ts_ltz=dt.datetime(1969, 12, 31, 23, 59, 59, 999000, tzinfo=UTC))
        rows.append(row)
    return rows


def _rows(schema: pa.Schema, key: str, first: int, count: int, seed: int, arrow: bool) -> list[dict]:
    rng = random.Random(seed)
    rows = _edge_rows(schema, key, first)
    for i in range(len(rows), count):
        row = {f.name: _value(f.type, f.nullable, rng, arrow) for f in schema}
        row[key] = first + i
        rows.append(row)
    return rows


# ---- comparisons

def _first_difference(a, b, path: str = "") -> str:
    """Where ``a`` and ``b`` (not _same) first differ, as a path and both values."""
    if type(a) is type(b) and isinstance(a, (list, tuple)) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if not same_value(x, y):
                return _first_difference(x, y, f"{path}[{i}]")
    if type(a) is type(b) and isinstance(a, dict) and list(a) == list(b):
        for k in a:
            if not same_value(a[k], b[k]):
                return _first_difference(a[k], b[k], f"{path}.{k}")
    return f"at {path or 'top'}: got {a!r}, expected {b!r}"


def _check_rows(mismatches: list, what: str, key: str, got: list, expected: list, who) -> None:
    """Same rows (by key), same columns in the same order, every value _same."""
    got_by_key = {}
    for r in got:
        assert r[key] not in got_by_key, f"{what}: key {r[key]} read twice"
        got_by_key[r[key]] = r
    exp_keys = [r[key] for r in expected]
    if sorted(got_by_key) != sorted(exp_keys):
        mismatches.append(f"{what}: keys {sorted(got_by_key)}, expected {sorted(exp_keys)}")
    for e in expected:
        g = got_by_key.get(e[key])
        if g is None:
            continue
        if list(g) != list(e):
            mismatches.append(f"{what}: {key}={e[key]} (written by {who(e[key])}): columns {list(g)}, expected {list(e)}")
            continue
        for c in e:
            if not same_value(g[c], e[c]):
                mismatches.append(f"{what}: {key}={e[key]} (written by {who(e[key])}) column {c}: "
                                  + _first_difference(g[c], e[c]))


def _maps_in_key_order(t: pa.DataType, v):
    """A Java JSON value (to_java's form) with the [key, value] pairs of every MAP level sorted by
    key. The Java log scanner hands out maps in HashMap order: its CompletedFetch copies each
    row with InternalRow.createDeepFieldGetter, which builds every GenericMap from a HashMap.
    So what Java *reads* from a log is compared as a set of entries (values still exact); its
    lookups, and everything our client reads, keep the order written."""
    if v is None:
        return None
    if pa.types.is_map(t):
        pairs = [[k, _maps_in_key_order(t.item_type, x)] for k, x in v]
        return sorted(pairs, key=lambda p: json.dumps(p[0]))
    if pa.types.is_list(t):
        return [_maps_in_key_order(t.value_type, e) for e in v]
    if pa.types.is_struct(t):
        return {f.name: _maps_in_key_order(f.type, v[f.name]) for f in t}
    return v


def _java_log_row(schema: pa.Schema, row: dict) -> dict:
    return {n: _maps_in_key_order(schema.field(n).type, v) for n, v in row.items()}


def _report(mismatches: list) -> None:
    assert not mismatches, f"{len(mismatches)} mismatches:\n" + "\n".join(m[:1500] for m in mismatches[:30])


def _json_lines(schema: pa.Schema, rows: list, names=None) -> list[str]:
    return [json.dumps(to_java_row(schema, r, names), ensure_ascii=False, allow_nan=False) for r in rows]


def _record_row(record) -> dict:
    row = record.row
    return dict(row) if not isinstance(row, dict) else row


# ---- log tables

LOG_FORMATS = ["ARROW", "INDEXED"]
PROJECTION = ["events", "id", "m2", "address", "lm"]  # not in table order: both clients reorder


@pytest.mark.parametrize("log_format", LOG_FORMATS)
async def test_nested_log_table_both_ways(conn, admin, database, bootstrap_servers, log_format):
    java_tool()  # fails early when java or mvn is missing
    schema = LOG_SCHEMA
    name = f"nested_log_{log_format.lower()}"
    table = await new_table(conn, admin, database, name, schema, bucket_count=2, bucket_keys=["id"],
                            log_format=log_format)  # rows hashed over both buckets
    info = await admin.get_table(table.get_table_path())
    assert info.get_properties()["table.log.format"] == log_format
    arrow = log_format == "ARROW"

    ours = _rows(schema, "id", 0, 60, seed=1, arrow=arrow)           # ids 0..59
    ours_arrow = _rows(schema, "id", 100, 30, seed=2, arrow=arrow)   # ids 100..129, through write_arrow
    java = _rows(schema, "id", 1000, 60, seed=3, arrow=arrow)        # ids 1000..1059, by the Java client

    def who(i):
        return "Java" if i >= 1000 else ("ours (write_arrow)" if i >= 100 else "ours (append)")

    # ours: row by row in every input spelling, then an Arrow table
    rng = random.Random(4)
    writer = await table.new_append_writer()
    handles = []
    for row in ours:
        spelled = {f.name: _spelled(f.type, row[f.name], rng) for f in schema}
        if rng.random() < 0.3:
            handles.append(writer.append([spelled[n] for n in schema.names]))
        else:
            handles.append(writer.append(spelled))
    writer.write_arrow(pa.Table.from_pylist(ours_arrow, schema=schema))
    await writer.flush()
    for h in handles:
        await h.wait()

    # Java appends its rows
    out = await run_java(["append", bootstrap_servers, database, name], _json_lines(schema, java))
    assert json.loads(out[-1]) == {"appended": len(java)}

    everything = ours + ours_arrow + java
    offsets = await admin.list_offsets(table.get_table_path(), bucket_ids=[0, 1], offset_type="latest")
    assert sum(offsets.values()) == len(everything)
    assert all(o > 0 for o in offsets.values()), offsets

    # (a) Java reads every row, whole and projected, beside (b) our batch scanners (whole and
    # projected) and log scanner
    java_read = run_java([bootstrap_servers, database, name])
    java_read_projected = run_java([bootstrap_servers, database, name, ",".join(PROJECTION)])

    async def batch_read(projection=None):
        scan = table.new_scan()
        if projection:
            scan = scan.project_by_name(projection)
        scanner = await scan.create_batch_scanner()
        scanner.subscribe_buckets({0: fluss.EARLIEST_OFFSET, 1: fluss.EARLIEST_OFFSET})
        return await scanner.to_arrow_async()

    async def log_read():
        scanner = await table.new_scan().create_log_scanner()
        scanner.subscribe_buckets({0: fluss.EARLIEST_OFFSET, 1: fluss.EARLIEST_OFFSET})
        return await poll_records(scanner, len(everything), timeout_s=30)

    java_lines, java_projected_lines, arrow_table, projected_table, records = await asyncio.gather(
        java_read, java_read_projected, batch_read(), batch_read(PROJECTION), log_read())

    mismatches = []
    _check_rows(mismatches, f"{log_format}: Java ReadTable", "id",
                [_java_log_row(schema, json.loads(line)) for line in java_lines],
                [_java_log_row(schema, to_java_row(schema, r)) for r in everything], who)
    _check_rows(mismatches, f"{log_format}: Java ReadTable {','.join(PROJECTION)}", "id",
                [_java_log_row(schema, json.loads(line)) for line in java_projected_lines],
                [_java_log_row(schema, to_java_row(schema, r, PROJECTION)) for r in everything], who)

    assert arrow_table.schema == schema, f"{arrow_table.schema}\n!=\n{schema}"
    for f in schema:
        got = arrow_table.schema.field(f.name)
        assert got.type == f.type and got.nullable == f.nullable, f"{f.name}: {got} != {f}"
    _check_rows(mismatches, f"{log_format}: our to_arrow", "id", arrow_table.to_pylist(), everything, who)
    assert projected_table.schema == pa.schema([schema.field(n) for n in PROJECTION]), projected_table.schema
    _check_rows(mismatches, f"{log_format}: our to_arrow {','.join(PROJECTION)}", "id", projected_table.to_pylist(),
                [{n: r[n] for n in PROJECTION} for r in everything], who)

    assert len(records) == len(everything)
    assert all(r.change_type.short_string() == "+A" for r in records), {r.change_type.short_string() for r in records}
    _check_rows(mismatches, f"{log_format}: our log scanner poll", "id", [_record_row(r) for r in records],
                everything, who)
    _report(mismatches)


# ---- primary-key tables

KV_FORMATS = ["COMPACTED", "INDEXED"]


@pytest.mark.parametrize("kv_format", KV_FORMATS)
async def test_nested_primary_key_table_both_ways(conn, admin, database, bootstrap_servers, kv_format):
    java_tool()  # fails early when java or mvn is missing
    schema = PK_SCHEMA
    name = f"nested_pk_{kv_format.lower()}"
    table = await new_table(conn, admin, database, name, schema, ["pk"], bucket_count=3, kv_format=kv_format)
    info = await admin.get_table(table.get_table_path())
    assert info.get_properties()["table.kv.format"] == kv_format
    java_args = [bootstrap_servers, database, name]

    n = 40
    ours = _rows(schema, "pk", 0, n, seed=11, arrow=False)       # keys 0..39
    java = _rows(schema, "pk", n, n, seed=12, arrow=False)       # keys 40..79
    java_over = [dict(r, pk=k) for k, r in zip(range(2, n, 5), _rows(schema, "pk", 0, n, seed=13, arrow=False))]
    ours_over = [dict(r, pk=k) for k, r in zip(range(n + 3, 2 * n, 5), _rows(schema, "pk", 0, n, seed=14, arrow=False))]
    expected = {}  # key -> (who wrote it last, the row)

    # ours upserts keys 0..39, in every input spelling
    rng = random.Random(15)
    writer = table.new_upsert()
    for row in ours:
        writer.upsert({f.name: _spelled(f.type, row[f.name], rng) for f in schema})
        expected[row["pk"]] = ("ours", row)
    await writer.flush()

    # Java upserts keys 40..79 and overwrites some of ours
    out = await run_java(["pk", "upsert", *java_args], _json_lines(schema, java + java_over))
    assert json.loads(out[-1]) == {"upserted": len(java) + len(java_over), "deleted": 0}
    for row in java:
        expected[row["pk"]] = ("Java", row)
    for row in java_over:
        expected[row["pk"]] = ("Java (overwrote ours)", row)

    # ours overwrites some of Java's
    for row in ours_over:
        writer.upsert({f.name: _spelled(f.type, row[f.name], rng) for f in schema})
        expected[row["pk"]] = ("ours (overwrote Java)", row)
    await writer.flush()

    # ours partially updates keys of both writers (note and m2): the server merges each with the
    # stored row, decoding and re-encoding the nested values it keeps
    partial = table.new_upsert(columns=["pk", "note", "m2"])
    for k in range(1, 2 * n, 6):
        last, old = expected[k]
        values = {"note": f"partial {k} " + "é" * (k % 9), "m2": _value(schema.field("m2").type, True, rng, False)}
        partial.upsert({"pk": k, **{c: _spelled(schema.field(c).type, v, rng) for c, v in values.items()}})
        expected[k] = (f"{last}, then ours (partial update of note, m2)", dict(old, **values))
    await partial.flush()

    offsets = await admin.list_offsets(table.get_table_path(), bucket_ids=[0, 1, 2], offset_type="latest")
    assert all(offsets[b] > 0 for b in range(3)), offsets

    keys = sorted(expected)
    lookuper = table.new_lookup()
    java_found, ours_found = await asyncio.gather(
        run_java(["pk", "lookup", *java_args], [json.dumps({"pk": k}) for k in keys]),
        asyncio.gather(*(lookuper.lookup({"pk": k}) for k in keys)))

    def who(k):
        return expected[k][0]

    rows = [expected[k][1] for k in keys]
    assert len(java_found) == len(keys)
    mismatches = []
    # (c) the Java Lookuper
    _check_rows(mismatches, f"{kv_format}: Java lookup", "pk", [json.loads(line) for line in java_found if line != "null"],
                [to_java_row(schema, r) for r in rows], who)
    # (d) our lookups
    assert all(r is not None for r in ours_found), [k for k, r in zip(keys, ours_found) if r is None]
    _check_rows(mismatches, f"{kv_format}: our lookup", "pk", list(ours_found), rows, who)
    _report(mismatches)
