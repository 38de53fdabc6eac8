"""Our primary-key writes and lookups are byte-compatible with the official Java client.

For each table below (key types, composite keys interleaved with value columns, a bucket key
that is a proper prefix of the primary key, both `table.kv.format`s, 3 or 4 buckets, every
value type with nulls and non-ASCII strings), the two clients write and delete keys of each
other's and then both look every key up (tests/java/run-reader.sh pk, PkTool.java,
fluss-client 0.9.1-incubating):

1. ours upserts half the keys (A), deletes some of them;
2. Java upserts the other half (B), overwrites some of A and deletes others of A;
3. ours overwrites some of B and deletes others of B;
4. Java and ours each look up every key (A and B), and prefix-look-up every bucket-key value
   where the bucket key is a proper prefix of the primary key.

Every lookup must return exactly the last value written (by whichever client), deleted keys
none. A key one client encodes (or buckets) differently from the other shows up as "not
found", a stale value after an overwrite or delete, or an extra row in a prefix. Mismatches
are collected per direction, so a failure names which client wrote, which read, the key and
the column.

Needs java and mvn on PATH (fails otherwise); the first run builds tests/java.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import decimal
import itertools
import json
import math
from typing import Callable, Optional

import pyarrow as pa
import pytest

from conftest import new_table
from java_client import UTC, f32, java_tool, run_java, same_value, to_java, to_java_row

D = decimal.Decimal

# Strings that stress the encodings: empty, non-ASCII of 2, 3 and 4 UTF-8 bytes, JSON escapes,
# and lengths around the one-byte varint limit (127/128 bytes).
STRINGS = ["", "a", "é", "héllo ✓", "日本語", "😀🚀", "quote \" back\\slash\nnl\ttab \x01", "x" * 127, "y" * 128,
           "Zürich–Ŝ", "ключ"]


# ---- values of non-key columns: by Arrow type, row index and variant (who wrote it, when)

def _value(t: pa.DataType, i: int, variant: int):
    j = i * 7 + variant * 3
    if pa.types.is_boolean(t):
        return j % 2 == 0
    if pa.types.is_int8(t):
        return [-128, 127, 0, -1][j % 4] if j % 3 == 0 else (j * 37) % 256 - 128
    if pa.types.is_int16(t):
        return [-32768, 32767, 255, 256][j % 4] if j % 3 == 0 else (j * 1237) % 65536 - 32768
    if pa.types.is_int32(t):
        return [-(2**31), 2**31 - 1, 127, 128][j % 4] if j % 3 == 0 else j * 7919 - 300_000
    if pa.types.is_int64(t):
        return [-(2**63), 2**63 - 1, -1, 2**53 + 1][j % 4] if j % 3 == 0 else j * 10**12 - 7
    if pa.types.is_float32(t):
        return f32([0.1, -3.4028234663852886e38, math.inf, -0.0, math.nan][j % 5] if j % 2 else j / 3 - 5)
    if pa.types.is_float64(t):
        return [1e300, -2.5e-300, 5e-324, -math.inf, math.nan, -0.0][j % 6] if j % 2 else j * 0.1 - 2.5
    if pa.types.is_string(t):
        return STRINGS[j % len(STRINGS)] + f"·{i}·{variant}"
    if pa.types.is_fixed_size_binary(t):
        return bytes((j * 53 + k * 101) % 256 for k in range(t.byte_width))
    if pa.types.is_binary(t):
        return bytes((j * 31 + k) % 256 for k in range(j % 20))
    if pa.types.is_date(t):
        return dt.date(1970, 1, 1) + dt.timedelta(days=(j * 4099) % 80000 - 30000)
    if pa.types.is_time(t):
        return (dt.datetime(2000, 1, 1) + dt.timedelta(milliseconds=(j * 9_876_543) % 86_400_000)).time()
    if pa.types.is_timestamp(t):
        us = (j * 987_654_321_123) % (4 * 10**15) - 2 * 10**15  # 1906 .. 2033, both sides of 1970
        if t.unit in ("s", "ms"):
            us -= us % 1000
        v = dt.datetime(1970, 1, 1) + dt.timedelta(microseconds=us)
        return v.replace(tzinfo=UTC) if t.tz else v
    if pa.types.is_decimal(t):
        unscaled = (j * 1_234_567_891_011) % (10 ** min(t.precision, 30)) * (-1) ** j
        if j % 5 == 0:
            unscaled = (10**t.precision - 1) * (-1) ** j  # the largest magnitude
        return _decimal(unscaled, t.scale)
    raise AssertionError(f"no sample values for {t}")


def _decimal(unscaled: int, scale: int) -> D:
    """unscaled * 10^-scale, exactly (Decimal arithmetic would round to 28 digits)."""
    return D(f"{unscaled}E-{scale}")


def _null_here(i: int, variant: int, column: int) -> bool:
    return (i + variant + column) % 5 == 0


# ---- the tables

@dataclasses.dataclass
class Case:
    id: str
    fields: list
    primary_keys: list
    keys: Callable[[], list]  # 2N distinct keys, dicts of the primary-key columns
    bucket_count: int = 3
    bucket_keys: Optional[list] = None
    kv_format: Optional[str] = None

    @property
    def schema(self) -> pa.Schema:
        return pa.schema(self.fields)

    @property
    def prefix(self) -> Optional[list]:
        """The prefix-lookup columns: the bucket key, when it is a proper prefix of the primary key."""
        bk = self.bucket_keys
        return bk if bk and bk != self.primary_keys and self.primary_keys[: len(bk)] == bk else None


def _distinct(values, n: int, column: str) -> list:
    out = []
    for v in values:
        if v not in out:
            out.append(v)
        if len(out) == n:
            return [{column: v} for v in out]
    raise AssertionError("not enough keys")


def _int_keys():
    edges = [0, 1, -1, 127, 128, -128, -129, 16383, 16384, 2**31 - 1, -(2**31), 2**21, -(2**21)]
    return _distinct(itertools.chain(edges, (i * 104_729 - 3_000_000 for i in range(200))), 60, "id")


def _string_keys():
    return _distinct(itertools.chain(STRINGS, (f"k-{i}-{STRINGS[i % len(STRINGS)][:3]}" for i in range(200))), 60, "k")


def _date_keys():
    edges = [dt.date(1970, 1, 1), dt.date(1969, 12, 31), dt.date(1, 1, 1), dt.date(9999, 12, 31), dt.date(2000, 2, 29),
             dt.date(1900, 1, 1)]
    return _distinct(itertools.chain(edges, (dt.date(1950, 1, 1) + dt.timedelta(days=i * 397) for i in range(200))),
                     50, "k")


def _ts_keys(unit: str):
    def keys():
        edges = [dt.datetime(1970, 1, 1), dt.datetime(1969, 12, 31, 23, 59, 59, 999000), dt.datetime(2024, 2, 29, 12),
                 dt.datetime(1900, 1, 1, 0, 0, 0, 1000), dt.datetime(9999, 12, 31, 23, 59, 59, 999000)]
        if unit == "us":
            edges += [dt.datetime(1969, 12, 31, 23, 59, 59, 999999), dt.datetime(1970, 1, 1, 0, 0, 0, 1),
                      dt.datetime(1, 1, 1, 0, 0, 0, 1), dt.datetime(2024, 1, 2, 3, 4, 5, 654321)]
        step = dt.timedelta(days=123, seconds=4567, microseconds=891_000 if unit == "ms" else 891_234)
        return _distinct(itertools.chain(edges, (dt.datetime(1960, 1, 1) + i * step for i in range(200))), 50, "k")
    return keys


def _decimal_keys(precision: int):
    def keys():
        top = _decimal(10**precision - 1, 2)
        edges = [D("0.00"), D("0.01"), D("-0.01"), D("1.27"), D("1.28"), D("-1.28"), D("-1.29"), D("2.55"), D("2.56"),
                 D("-2.56"), D("327.67"), D("327.68"), D("-327.68"), top, -top, D("12.34")]
        if precision > 18:
            edges += [_decimal(2**63, 2), _decimal(-(2**63) - 1, 2), _decimal(2**64, 2), D("999999999999999999.99")]
        gen = (_decimal((i * 7_777_777_777_777 + 13) % 10**precision * (-1) ** i, 2) for i in range(200))
        return _distinct(itertools.chain(edges, gen), 50, "k")
    return keys


def _bytes_keys():
    edges = [b"", b"\x00", b"\xff", b"\x80", b"\x00\x00", b"\x7f\x80\xff", bytes(range(256)), b"k" * 128]
    return _distinct(itertools.chain(edges, (bytes((i * 37 + k) % 256 for k in range(i % 9)) + i.to_bytes(2, "big")
                                             for i in range(200))), 50, "k")


def _ltz_keys():
    base = dt.datetime(1970, 1, 1, tzinfo=UTC)
    edges = [base, base - dt.timedelta(microseconds=1), base + dt.timedelta(microseconds=1),
             dt.datetime(2024, 1, 2, 3, 4, 5, 654321, tzinfo=dt.timezone(dt.timedelta(hours=2)))]
    step = dt.timedelta(days=211, seconds=777, microseconds=123_457)
    return _distinct(itertools.chain(edges, (base - 60 * step + i * step for i in range(200))), 50, "k")


def _time_keys():
    edges = [dt.time(0), dt.time(23, 59, 59, 999000), dt.time(0, 0, 0, 1000), dt.time(0, 0, 0, 128000), dt.time(12)]
    gen = ((dt.datetime(2000, 1, 1) + dt.timedelta(milliseconds=i * 1_234_567)).time() for i in range(200))
    return _distinct(itertools.chain(edges, gen), 50, "k")


def _small_int_keys():
    combos = itertools.product([True, False], [-128, -1, 0, 1, 127], [-32768, -1, 0, 255, 256, 32767])
    return [{"flag": f, "tiny": t, "small": s} for f, t, s in combos]


def _composite_keys():
    a_values = [0, 1, -1, 2, 7, 300, 4096, 2**63 - 1, -(2**63), 123_456_789_012]  # enough to reach every bucket
    b_values = ["", "b", "é", "😀", "b" * 130, "ключ-2"]
    keys = [{"a": a, "b": b} for a in a_values for b in b_values]
    # interleave, so both halves (ours, Java's) hold rows of every prefix
    return keys[0::2] + keys[1::2]


def _typed_prefix_keys():
    days = [dt.date(1970, 1, 1), dt.date(1969, 12, 31), dt.date(2024, 2, 29), dt.date(1900, 1, 1), dt.date(1, 1, 1),
            dt.date(2000, 7, 15)]
    times = [dt.datetime(1970, 1, 1), dt.datetime(1969, 12, 31, 23, 59, 59, 999999), dt.datetime(2024, 5, 6, 7, 8, 9, 1),
             dt.datetime(1999, 12, 31, 23, 59, 59, 500000), dt.datetime(2100, 1, 1, 0, 0, 0, 123),
             dt.datetime(1950, 6, 1, 12, 0, 0, 1500), dt.datetime(2038, 1, 19, 3, 14, 8)]
    keys = [{"d": d, "t": t} for d in days for t in times]
    return keys[0::2] + keys[1::2]


def F(name, t):
    return pa.field(name, t)


VALUE_FIELDS = [  # every value type: the row encodings (COMPACTED and INDEXED)
    F("b", pa.bool_()), F("i8", pa.int8()), F("i16", pa.int16()), F("i32", pa.int32()), F("i64", pa.int64()),
    F("f32", pa.float32()), F("f64", pa.float64()), F("s", pa.string()), F("bin", pa.binary()),
    F("bin4", pa.binary(4)), F("day", pa.date32()), F("tm", pa.time32("ms")), F("ts3", pa.timestamp("ms")),
    F("ts6", pa.timestamp("us")), F("ts9", pa.timestamp("ns")), F("ltz3", pa.timestamp("ms", tz="UTC")),
    F("ltz6", pa.timestamp("us", tz="UTC")), F("dec10", pa.decimal128(10, 2)), F("dec20", pa.decimal128(20, 2)),
    F("dec38", pa.decimal128(38, 10)), F("s2", pa.string()),
]
SMALL_VALUES = [F("v", pa.string()), F("n", pa.int64())]


CASES = [
    Case("int_key_every_value_type_compacted", [F("id", pa.int32())] + VALUE_FIELDS, ["id"], _int_keys,
         bucket_count=4, kv_format="COMPACTED"),
    Case("int_key_every_value_type_indexed", [F("id", pa.int32())] + VALUE_FIELDS, ["id"], _int_keys,
         bucket_count=4, kv_format="INDEXED"),
    Case("string_key", [F("v", pa.string()), F("k", pa.string()), F("n", pa.int64())], ["k"], _string_keys,
         bucket_count=4),
    Case("date_key", [F("k", pa.date32())] + SMALL_VALUES, ["k"], _date_keys),
    Case("timestamp3_key", [F("k", pa.timestamp("ms"))] + SMALL_VALUES, ["k"], _ts_keys("ms"), bucket_count=4),
    Case("timestamp6_key", [F("k", pa.timestamp("us"))] + SMALL_VALUES, ["k"], _ts_keys("us"), bucket_count=4),
    Case("bytes_key", [F("k", pa.binary())] + SMALL_VALUES, ["k"], _bytes_keys, bucket_count=4),
    Case("timestamp_ltz6_key", [F("k", pa.timestamp("us", tz="UTC"))] + SMALL_VALUES, ["k"], _ltz_keys),
    Case("time_key", [F("k", pa.time32("ms"))] + SMALL_VALUES, ["k"], _time_keys, bucket_count=4),
    Case("decimal10_key", [F("k", pa.decimal128(10, 2))] + SMALL_VALUES, ["k"], _decimal_keys(10)),
    Case("decimal20_key", [F("k", pa.decimal128(20, 2))] + SMALL_VALUES, ["k"], _decimal_keys(20), bucket_count=4),
    Case("bool_tinyint_smallint_key",
         [F("small", pa.int16()), F("v", pa.string()), F("flag", pa.bool_()), F("tiny", pa.int8()), F("n", pa.int64())],
         ["flag", "tiny", "small"], _small_int_keys, bucket_count=4),
    Case("composite_interleaved", [F("a", pa.int64()), F("v", pa.string()), F("b", pa.string()), F("n", pa.int32())],
         ["a", "b"], _composite_keys),
    Case("composite_bucket_key_a_compacted",
         [F("a", pa.int64()), F("v", pa.string()), F("b", pa.string()), F("n", pa.int32())],
         ["a", "b"], _composite_keys, bucket_count=4, bucket_keys=["a"], kv_format="COMPACTED"),
    Case("composite_bucket_key_a_indexed",
         [F("a", pa.int64()), F("v", pa.string()), F("b", pa.string()), F("n", pa.int32())],
         ["a", "b"], _composite_keys, bucket_count=3, bucket_keys=["a"], kv_format="INDEXED"),
    Case("date_timestamp_bucket_key_date",
         [F("v", pa.string()), F("d", pa.date32()), F("n", pa.decimal128(20, 2)), F("t", pa.timestamp("us"))],
         ["d", "t"], _typed_prefix_keys, bucket_count=3, bucket_keys=["d"]),
]


# ---- rows and comparisons

def _row(case: Case, key: dict, i: int, variant: int) -> dict:
    row = {}
    for c, f in enumerate(case.schema):
        if f.name in key:
            row[f.name] = key[f.name]
        elif _null_here(i, variant, c):
            row[f.name] = None
        else:
            row[f.name] = _value(f.type, i, variant)
    return row


def _ours(schema: pa.Schema, row: dict) -> dict:
    """``row`` as our lookups return it: FLOAT rounded to float32, TIMESTAMP_LTZ aware in UTC."""
    out = {}
    for f in schema:
        v = row[f.name]
        if v is not None and pa.types.is_float32(f.type):
            v = f32(v)
        elif v is not None and pa.types.is_timestamp(f.type) and f.type.tz:
            v = v.astimezone(UTC)
        out[f.name] = v
    return out


def _diff(got: Optional[dict], expected: Optional[dict]) -> str:
    if got is None or expected is None:
        return f"got {got!r}, expected {expected!r}"
    if list(got) != list(expected):
        return f"columns {list(got)}, expected {list(expected)}"
    return "; ".join(f"column {k}: got {got[k]!r}, expected {expected[k]!r}"
                     for k in expected if not same_value(got[k], expected[k]))


def _key_text(schema: pa.Schema, key: dict) -> str:
    return json.dumps(to_java_row(schema, key, list(key)), ensure_ascii=False)


def _check(mismatches: list, what: str, schema: pa.Schema, key: dict, got, expected) -> None:
    ok = (got is None and expected is None) or (got is not None and expected is not None and same_value(got, expected))
    if not ok:
        mismatches.append(f"{what}: key {_key_text(schema, key)}: {_diff(got, expected)}")


def _rows_sort_key(r: dict) -> str:
    return json.dumps(r, sort_keys=True, default=str, ensure_ascii=False)


def _check_rows(mismatches: list, what: str, prefix_text: str, got: list, expected: list) -> None:
    got = sorted(got, key=_rows_sort_key)
    expected = sorted(expected, key=_rows_sort_key)
    if len(got) != len(expected) or not all(same_value(g, e) for g, e in zip(got, expected)):
        mismatches.append(f"{what}: prefix {prefix_text}: got {len(got)} rows {got!r}, expected {len(expected)} "
                          f"rows {expected!r}")


def _report(mismatches: list, case: Case) -> None:
    assert not mismatches, f"{case.id}: {len(mismatches)} mismatches:\n" + "\n".join(mismatches[:40])


def _json_lines(schema: pa.Schema, rows: list, names=None) -> list:
    return [json.dumps(to_java_row(schema, r, names), ensure_ascii=False, allow_nan=False) for r in rows]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_primary_key_tables_agree_with_java(conn, admin, database, bootstrap_servers, tmp_path, case):
    java_tool()  # fails early when java or mvn is missing
    schema, pk = case.schema, case.primary_keys
    table = await new_table(conn, admin, database, case.id, schema, pk, bucket_count=case.bucket_count,
                            bucket_keys=case.bucket_keys, kv_format=case.kv_format)
    path = table.get_table_path()
    java_args = [bootstrap_servers, database, case.id]

    keys = case.keys()
    n = len(keys) // 2
    ours_keys, java_keys = keys[:n], keys[n:]
    expected = {}  # index into keys -> (who wrote it last, the row as written, or None)

    # 1. ours: upsert A; delete every 5th (from 1)
    writer = table.new_upsert()
    for i, key in enumerate(ours_keys):
        row = _row(case, key, i, 0)
        writer.upsert(row)
        expected[i] = ("ours", row)
    await writer.flush()
    for i in range(1, n, 5):
        await writer.delete(ours_keys[i]).wait()
        expected[i] = ("ours (deleted)", None)

    # 2. Java: upsert B, overwrite every 5th of A (from 3), delete every 5th of A (from 2)
    java_rows = []
    for i, key in enumerate(java_keys):
        row = _row(case, key, n + i, 1)
        java_rows.append(row)
        expected[n + i] = ("Java", row)
    for i in range(3, n, 5):
        row = _row(case, ours_keys[i], i, 2)
        java_rows.append(row)
        expected[i] = ("Java (overwrote ours)", row)
    java_deletes = [ours_keys[i] for i in range(2, n, 5)]
    for i in range(2, n, 5):
        expected[i] = ("Java (deleted ours)", None)
    deletes_file = tmp_path / "deletes.jsonl"
    deletes_file.write_text("".join(line + "\n" for line in _json_lines(schema, java_deletes, pk)), encoding="utf-8")
    out = await run_java(["pk", "upsert", *java_args, str(deletes_file)], _json_lines(schema, java_rows))
    assert json.loads(out[-1]) == {"upserted": len(java_rows), "deleted": len(java_deletes)}

    # 3. ours: overwrite every 4th of B (from 0), delete every 4th of B (from 1)
    for i in range(0, n, 4):
        row = _row(case, java_keys[i], n + i, 3)
        writer.upsert(row)
        expected[n + i] = ("ours (overwrote Java)", row)
    for i in range(1, n, 4):
        writer.delete(java_keys[i])
        expected[n + i] = ("ours (deleted Java)", None)
    await writer.flush()

    # The keys are spread over every bucket (so a bucket computed differently cannot go unseen).
    offsets = await admin.list_offsets(path, bucket_ids=list(range(case.bucket_count)), offset_type="latest")
    assert all(offsets[b] > 0 for b in range(case.bucket_count)), offsets

    # 4. Every key looked up by both clients; every prefix by both, all at once.
    prefix_values = []
    if case.prefix:
        for key in keys:
            p = {c: key[c] for c in case.prefix}
            if p not in prefix_values:
                prefix_values.append(p)
    lookuper = table.new_lookup()
    java_lookup = run_java(["pk", "lookup", *java_args], _json_lines(schema, keys, pk))
    java_prefix = (run_java(["pk", "prefix", *java_args, ",".join(case.prefix)],
                            _json_lines(schema, prefix_values, case.prefix)) if case.prefix else asyncio.sleep(0, []))
    ours = asyncio.gather(*(lookuper.lookup(k) for k in keys))
    if case.prefix:
        prefix_lookuper = table.new_lookup().lookup_by(case.prefix).create_lookuper()
        ours_prefix = asyncio.gather(*(prefix_lookuper.lookup(p) for p in prefix_values))
    else:
        ours_prefix = asyncio.sleep(0, [])
    java_found, java_prefix_found, ours_found, ours_prefix_found = await asyncio.gather(
        java_lookup, java_prefix, ours, ours_prefix)

    mismatches = []
    assert len(java_found) == len(keys)
    for i, key in enumerate(keys):
        writer_name, row = expected[i]
        _check(mismatches, f"written by {writer_name}, Java lookup", schema, key, json.loads(java_found[i]),
               None if row is None else to_java_row(schema, row))
        _check(mismatches, f"written by {writer_name}, our lookup", schema, key, ours_found[i],
               None if row is None else _ours(schema, row))

    if case.prefix:
        assert len(java_prefix_found) == len(prefix_values)
        for p, java_rows_of_p, ours_rows_of_p in zip(prefix_values, java_prefix_found, ours_prefix_found):
            live = [row for _, row in (expected[i] for i, k in enumerate(keys)
                                       if {c: k[c] for c in case.prefix} == p) if row is not None]
            text = _key_text(schema, p)
            _check_rows(mismatches, "Java prefix lookup", text, json.loads(java_rows_of_p),
                        [to_java_row(schema, r) for r in live])
            _check_rows(mismatches, "our prefix lookup", text, ours_rows_of_p, [_ours(schema, r) for r in live])
    _report(mismatches, case)
