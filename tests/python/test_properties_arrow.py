"""Property: ``write_arrow_batch`` of random pyarrow batches to log tables of every Fluss type
(both log formats). A batch of the table's types (also sliced) must be accepted and read back
equal; a batch with a column renamed, missing or extra, a null in a NOT NULL column or level,
a CHAR value too long or ending in U+0000, a TIME outside the day or finer than milliseconds,
or a TIMESTAMP finer than its precision must be refused naming the column; a column of
another Arrow type may be either cast (then every value must read back unchanged) or refused
naming the column. Batches accepted around refused ones are all read back.
"""

from __future__ import annotations

import datetime as dt
import decimal
import itertools
import math

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import strategies as st

import fluss
from conftest import new_table
from property_model import (EPOCH, ERRORS, UTC, Outcomes, T, _unit, arrow_type, assert_read_back,
                            column_list, draw_many, every_type_columns, examples, expect, field, flush_and_scan, readback,
                            run_property, schema, valid_values, watchdog)  # noqa: F401 (watchdog: autouse fixture)

ID = ("id", T("bigint", nullable=False))
UNITS = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}


def to_python(t: T, c):
    """The plain Python value (as pyarrow takes it) of canonical value ``c`` of type ``t``."""
    tag = c[0]
    if tag == "null":
        return None
    if tag == "nan":
        return math.nan
    if tag in ("b", "i", "s", "y"):
        return c[1]
    if tag == "f":
        return c[2]
    if tag == "d":
        return decimal.Decimal(c[1]).scaleb(-t.s, context=decimal.Context(prec=100))
    if tag == "date":
        return dt.date.fromordinal(c[1])
    if tag == "t":
        return (dt.datetime.min + dt.timedelta(microseconds=c[1])).time()
    if tag == "ts":
        v = pd.Timestamp(c[1], unit="ns") if _unit(t.n) == "ns" else EPOCH + dt.timedelta(microseconds=c[1] // 1000)
        return v.replace(tzinfo=UTC) if t.kind == "timestamp_ltz" else v
    if tag == "a":
        return [to_python(t.children[0], x) for x in c[1]]
    if tag == "m":
        return [(to_python(t.children[0], k), to_python(t.children[1], v)) for k, v in c[1]]
    if tag == "r":
        return {n: to_python(ct, x) for (n, ct), x in zip(t.children, c[1])}
    raise AssertionError(c)


def arrow_canon(t: T, a: pa.Array) -> list:
    """Canonical values of an Arrow column of type ``t``; top-level TIME/TIMESTAMP/DATE from
    their integers (no Python datetime range limit)."""
    if t.kind in ("time", "timestamp", "timestamp_ltz", "date"):
        ints = a.cast(pa.int32() if t.kind == "date" or pa.types.is_time32(a.type) else pa.int64()).to_pylist()
        if t.kind == "date":
            return [("null",) if x is None else ("date", x + 719163) for x in ints]
        per = UNITS[_unit(t.n)]
        tag = "t" if t.kind == "time" else "ts"
        scale = 10**6 // per if tag == "t" and per <= 10**6 else 10**9 // per
        if tag == "t" and per > 10**6:
            return [("null",) if x is None else ("t", x // 1000) for x in ints]
        return [("null",) if x is None else (tag, x * scale) for x in ints]
    return [readback(t, v) for v in a.to_pylist()]


def _alt_types(t: T) -> list:
    """Other Arrow types a column of ``t`` may arrive as."""
    want = arrow_type(t)
    alts = [pa.string(), pa.int64(), pa.float64(), pa.large_string(), pa.binary(), pa.int16(), pa.float32(),
            pa.timestamp("ns"), pa.timestamp("s", tz="Asia/Tokyo"), pa.time64("ns"), pa.decimal128(38, 10)]
    if pa.types.is_integer(want):
        alts += [pa.int8(), pa.int32()]
    if pa.types.is_timestamp(want):
        alts += [pa.timestamp(u, tz=want.tz) for u in ("s", "ms", "us", "ns")]
    if pa.types.is_fixed_size_binary(want):
        alts += [pa.binary(), pa.large_binary(), pa.binary(want.byte_width + 1)]
    if pa.types.is_list(want):
        alts += [pa.list_(pa.field("item", want.value_type)), pa.large_list(want.value_type)]
    if pa.types.is_struct(want) or pa.types.is_map(want):
        alts += [pa.struct([pa.field(f.name + "_", f.type) for f in (want if pa.types.is_struct(want) else [])])]
    return [a for a in alts if not a.equals(want)]


def batches(columns, ids):
    """(batch, must, expected rows) with must one of "accept", "refuse", "either"."""
    body = columns[1:]

    @st.composite
    def build(draw):
        n = draw(st.integers(0, 4))
        rows = [[to_python(t, expect(t, draw(valid_values(t)), name)) for name, t in body] for _ in range(n)]
        arrays = [pa.array([next(ids) for _ in range(n)], pa.int64())]
        arrays += [pa.array([r[i] for r in rows], type=arrow_type(t)) for i, (_, t) in enumerate(body)]
        fields = [field(nm, t) for nm, t in columns]
        expected = [[arrow_canon(t, a) for (_, t), a in zip(columns, arrays)]]
        must = "accept"
        kind = draw(st.sampled_from(["valid", "slice", "alt_type", "null", "rename", "missing", "extra", "char",
                                     "raw_time"]))
        suits = {"char": ("char",), "raw_time": ("time", "timestamp", "timestamp_ltz")}.get(kind)
        fitting = [k for k in range(1, len(columns)) if suits is None or columns[k][1].kind in suits]
        i = draw(st.sampled_from(fitting or list(range(1, len(columns)))))
        name, t = columns[i]
        path = [name]
        if kind == "slice" and n:
            off = draw(st.integers(0, n))
            length = draw(st.integers(0, n - off))
            arrays = [a.slice(off, length) for a in arrays]
            expected = [[col[off:off + length] for col in expected[0]]]
        elif kind == "alt_type":
            alt = draw(st.sampled_from(_alt_types(t)))
            try:
                arrays[i] = arrays[i].cast(alt, safe=True)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
                try:
                    arrays[i] = pa.array([str(x) for x in arrays[i].to_pylist()], alt) if n else pa.array([], alt)
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError, ValueError, TypeError):
                    arrays[i] = pa.nulls(n, alt)
            fields[i] = pa.field(name, arrays[i].type, t.nullable)
            must = "either"
            try:  # what the batch holds, in the table's type (a cast that loses nothing)
                expected[0][i] = arrow_canon(t, arrays[i].cast(arrow_type(t), safe=True))
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
                pass
        elif kind == "null" and n:
            if t.nullable and not t.nested:
                kind = "valid"
            else:
                # a null at the top (NOT NULL column), or in the first NOT NULL level inside
                vals = arrays[i].to_pylist()
                vals[0] = None
                loose = pa.field(name, arrays[i].type, True)
                arrays[i] = pa.array(vals, type=arrays[i].type)
                fields[i] = loose
                must = "refuse" if not t.nullable else "accept"
                expected[0][i] = arrow_canon(t, arrays[i]) if must == "accept" else expected[0][i]
        elif kind == "rename":
            fields[i] = pa.field(name + "x", fields[i].type, fields[i].nullable, fields[i].metadata)
            must, path = "refuse", [name, name + "x"]
        elif kind == "missing":
            del arrays[i], fields[i]
            must, path = "refuse", ["columns"]
        elif kind == "extra":
            arrays.append(pa.nulls(len(arrays[0]), pa.int32()))
            fields.append(pa.field("extra", pa.int32()))
            must, path = "refuse", ["columns", "extra"]
        elif kind == "char" and t.kind == "char" and n:
            bad = draw(st.sampled_from(["x" * (t.n + 1), "a\x00", "é" * t.n]))
            vals = arrays[i].to_pylist()
            vals[draw(st.integers(0, n - 1))] = bad
            arrays[i] = pa.array(vals, pa.string())
            must = "refuse" if len(bad.encode()) > t.n or bad.endswith("\x00") else "accept"
            expected[0][i] = arrow_canon(t, arrays[i])
        elif kind == "raw_time" and t.kind in ("time", "timestamp", "timestamp_ltz") and n:
            # a raw integer in the column's unit: TIME within the day, whole milliseconds and
            # p digits; TIMESTAMP(p) p digits
            per = UNITS[_unit(t.n)]
            unit_digits = len(str(per)) - 1
            storage = pa.int32() if pa.types.is_time32(arrays[i].type) else pa.int64()
            if t.kind == "time":
                day = 86400 * per
                step = 10 ** (unit_digits - min(t.n, 3))
                raw = draw(st.one_of(st.integers(-day, 2 * day), st.sampled_from([-1, day, day - 1, 0, step, step + 1])))
                ok = 0 <= raw < day and raw % step == 0
            else:
                step = 10 ** (unit_digits - t.n)
                span = min(253402300799 * per, 2**63 - 1)  # 1970 .. 9999
                raw = draw(st.one_of(st.integers(-span // 3, span), st.sampled_from([step, step + 1, -step - 1])))
                ok = raw % step == 0
            vals = arrays[i].cast(storage).to_pylist()
            vals[draw(st.integers(0, n - 1))] = raw
            arrays[i] = pa.array(vals, storage).cast(arrays[i].type)
            must = "accept" if ok else "refuse"
            expected[0][i] = arrow_canon(t, arrays[i])
        batch = pa.RecordBatch.from_arrays(arrays, schema=pa.schema(fields))
        rows = [list(r) for r in zip(*expected[0])] if expected[0] else []
        return batch, must, path, rows

    return build()


async def _arrow_property(conn, admin, database, name, columns, log_format, n_examples):
    columns = [ID] + columns
    table = await new_table(conn, admin, database, name, schema(columns), bucket_count=1, log_format=log_format)
    writer = await table.new_append_writer()
    ids = itertools.count()
    accepted = {}
    outcomes = Outcomes(f"write_arrow_batch {name} ({log_format})")

    def check(example):
        batch, must, path, rows = example
        try:
            writer.write_arrow_batch(batch)
        except ERRORS as e:
            msg = getattr(e, "message", str(e))
            assert must != "accept", f"refused a valid batch {batch.schema} {batch.to_pydict()!r}: {msg}"
            assert any(f"'{p}" in msg or p in msg for p in path), f"error names none of {path}: {msg}"
            outcomes.refused += 1
            return
        assert must != "refuse", f"accepted a batch that must be refused at {path}: {batch.to_pydict()!r}"
        for r in rows:
            accepted[r[0][1]] = tuple(r)
        outcomes.accepted += 1

    run_property(batches(columns, ids), check, n_examples)
    got_table = await flush_and_scan(writer, table)
    got_cols = [arrow_canon(t, got_table.column(n).combine_chunks()) for n, t in columns]
    got = {r[0][1]: tuple(r) for r in zip(*got_cols)} if got_table.num_rows else {}
    assert_read_back(accepted, got, lambda i: f"row id {i} of an accepted batch")
    outcomes.report()
    return outcomes


@pytest.mark.parametrize("log_format", ["ARROW", "INDEXED"])
async def test_write_arrow_batch_every_type(conn, admin, database, log_format):
    out = await _arrow_property(conn, admin, database, "arrow_every_" + log_format.lower(), every_type_columns(),
                                log_format, examples(100))
    assert out.accepted > 0 and out.refused > 0


async def test_write_arrow_batch_random_schemas(conn, admin, database):
    for k, columns in enumerate(draw_many(column_list(), examples(2, 10))):
        await _arrow_property(conn, admin, database, f"arrow_random_{k}", columns, ["ARROW", "INDEXED"][k % 2],
                              examples(50))


@pytest.mark.parametrize("log_format", ["ARROW", "INDEXED"])
async def test_arrow_values_outside_the_fluss_type_are_refused_in_every_log_format(conn, admin, database, log_format):
    # (found by the property) an ARROW log table took TIME values outside the day and
    # TIMESTAMP(0) values beyond the millisecond range, which INDEXED tables and appends refuse.
    s = pa.schema([pa.field("id", pa.int32()), pa.field("t", pa.time32("s")), pa.field("ts", pa.timestamp("s")),
                   pa.field("ch", pa.string(), metadata={"fluss.char_length": "3"})])
    table = await new_table(conn, admin, database, "outside_" + log_format.lower(), s, bucket_count=1,
                            log_format=log_format)
    writer = await table.new_append_writer()

    def batch(i, t=None, ts=None, ch=None):
        return pa.record_batch([pa.array([i], pa.int32()), pa.array([t], pa.time32("s")),
                                pa.array([ts], pa.timestamp("s")), pa.array([ch], pa.string())], schema=s)

    writer.write_arrow_batch(batch(1, 86399, -(2**40), "ab"))
    for bad, column in [(batch(2, t=86400), "t"), (batch(3, t=-1), "t"), (batch(4, ts=2**62), "ts"),
                        (batch(5, ch="a\x00"), "ch")]:
        with pytest.raises(fluss.FlussError) as e:
            writer.write_arrow_batch(bad)
        assert f"column '{column}'" in e.value.message, e.value.message
    got = await flush_and_scan(writer, table)
    assert got.column("id").to_pylist() == [1]
    assert got.column("t").cast(pa.int32()).to_pylist() == [86399]
    assert got.column("ts").cast(pa.int64()).to_pylist() == [-(2**40)]
