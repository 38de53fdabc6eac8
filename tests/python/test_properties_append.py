"""Property: ``append`` of random rows (dicts, tuples, lists; values in range and hostile) to log
tables of every Fluss type, nested ones included, in both log formats. Each call either raises
FlussError/TypeError/ValueError naming the column (or the path inside it), or the row reads
back equal (batch scanner and record scanner); rows accepted around refused ones are all read
back (bad input loses nothing queued). The reference is property_model.expect.

Cluster round trips stay few: one table per schema, rows of all examples accumulated and read
back once per table.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import decimal
import itertools
import math

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import strategies as st

import fluss
from conftest import new_table
from property_model import (Outcomes, Refused, T, assert_read_back, bounded, call_refused_or_accepted, column_list,
                            draw_many, every_type_columns, examples, expect_row, flush_and_scan, readback_row, row_values,
                            run_property, schema, spell, watchdog)  # noqa: F401 (watchdog: autouse fixture)

ID = ("id", T("bigint", nullable=False))


async def _flush_and_read_back(writer, table, columns, count):
    """Flushes, then {id: canonical row} through the batch scanner (to_arrow) and the same
    through the record scanner (poll); asserts both agree."""
    got = await flush_and_scan(writer, table)
    by_arrow = {r["id"]: readback_row(columns, r) for r in got.to_pylist()}
    assert len(by_arrow) == got.num_rows, "a row id read back twice"
    log = await table.new_scan().create_log_scanner()
    log.subscribe(0, fluss.EARLIEST_OFFSET)
    records = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while len(records) < count and loop.time() < deadline:
        records.extend(await bounded(log.poll_async(500), 30, "poll"))
    by_poll = {r.row["id"]: readback_row(columns, r.row) for r in records}
    assert by_poll == by_arrow
    return by_arrow


async def _append_property(conn, admin, database, name, columns, log_format, n_examples):
    columns = [ID] + columns
    table = await new_table(conn, admin, database, name, schema(columns), bucket_count=1, log_format=log_format)
    writer = await table.new_append_writer()
    ids = itertools.count()
    accepted, inputs = {}, {}
    outcomes = Outcomes(f"append {name} ({log_format})")
    strategy = st.tuples(row_values(columns[1:]), st.sampled_from(["dict", "tuple", "list"]))

    def check(example):
        values, how = example
        i = next(ids)
        row = spell(columns, (i,) + values, how)
        try:
            want, refused = expect_row(columns, row), None
        except Refused as r:
            want, refused = None, r
        if call_refused_or_accepted(writer.append, row, refused, f"append to {name}"):
            accepted[i], inputs[i] = want, row
            outcomes.accepted += 1
        else:
            outcomes.refused += 1

    run_property(strategy, check, n_examples)
    got = await _flush_and_read_back(writer, table, columns, len(accepted))
    assert_read_back(accepted, got, lambda i: f"row {inputs[i]!r}")
    outcomes.report()
    return outcomes


@pytest.mark.parametrize("log_format", ["ARROW", "INDEXED"])
async def test_append_every_type(conn, admin, database, log_format):
    out = await _append_property(conn, admin, database, "every_" + log_format.lower(), every_type_columns(),
                                 log_format, examples(150))
    assert out.accepted > 0 and out.refused > 0


async def test_append_random_schemas(conn, admin, database):
    for k, columns in enumerate(draw_many(column_list(), examples(3, 15))):
        await _append_property(conn, admin, database, f"random_{k}", columns, ["ARROW", "INDEXED"][k % 2],
                               examples(60))


UTC_PLUS_1US = dt.timezone(dt.timedelta(microseconds=1))
REGRESSIONS = [  # (column, value, read back or None when refused with the column named); found by the properties
    ("ltz6", dt.datetime(2000, 1, 1, 0, 0, 0, 1, tzinfo=UTC_PLUS_1US), dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)),
    ("ltz6", dt.datetime(2000, 1, 1, 0, 0, 0, 3, tzinfo=UTC_PLUS_1US), dt.datetime(2000, 1, 1, 0, 0, 0, 2, tzinfo=dt.timezone.utc)),
    ("ltz6", dt.datetime.min.replace(tzinfo=dt.timezone(dt.timedelta(hours=1))), None),  # before year 1 in UTC
    ("ts9", dt.datetime(2262, 4, 11, 23, 47, 16, 999999), None),  # past int64 nanoseconds (wrapped to 1677)
    ("ts6", pd.Timestamp("2024-01-01 00:00:00.000000005"), None),  # nanoseconds a TIMESTAMP(6) cannot keep
    ("ts0", np.datetime64("10000-01-01", "D"), None),  # after year 9999
    ("t3", dt.time(1, 2, 3, tzinfo=dt.timezone.utc), None),  # TIME has no time zone
    ("f32", 1e300, None), ("f32", 2**24 + 1, None), ("f32", 2**24, 16777216.0), ("f32", 0.1, 0.10000000149011612),
    ("f64", 2**53 + 1, None), ("f64", np.uint64(2**64 - 1), None), ("f64", np.int64(-7), -7.0),
    ("dec38", decimal.Decimal("3" + "0" * 38), None),  # 39 digits (wrapped in 128 bits)
    ("dec38", decimal.Decimal("1E+999999999999"), None),  # (hung, a digit per power of ten)
    ("dec38", decimal.Decimal("0E+999999999999"), decimal.Decimal(0)),
    ("dec52", decimal.Decimal("0E-50"), decimal.Decimal(0)),  # (refused)
    ("dec52", decimal.Decimal("1E-999999999999"), None),
    ("ch3", "a\x00", None), ("ch3", "\x00", None), ("ch3", "a\x00b", "a\x00b"),  # (read back stripped)
    ("tags", ["ok", "b\x00"], None),
    ("fm", [(0.1, 1), (0.10000000000000002, 2)], None),  # one FLOAT key once rounded (was stored twice)
    ("fm", [(math.nan, 1), (-math.nan, 2)], None),  # NaNs are one key, as in Java
    ("fm", [(0.0, 1), (-0.0, 2)], [(0.0, 1), (-0.0, 2)]),
]


@pytest.mark.parametrize("log_format", ["ARROW", "INDEXED"])
async def test_defects_found_by_the_properties_stay_fixed(conn, admin, database, log_format):
    s = pa.schema([pa.field("id", pa.int32()), pa.field("ltz6", pa.timestamp("us", tz="UTC")),
                   pa.field("ts9", pa.timestamp("ns")), pa.field("ts6", pa.timestamp("us")),
                   pa.field("ts0", pa.timestamp("s")), pa.field("t3", pa.time32("ms")), pa.field("f32", pa.float32()),
                   pa.field("f64", pa.float64()), pa.field("dec38", pa.decimal128(38, 0)),
                   pa.field("dec52", pa.decimal128(5, 2)),
                   pa.field("ch3", pa.string(), metadata={"fluss.char_length": "3"}),
                   pa.field("tags", pa.list_(pa.field("item", pa.string(), metadata={"fluss.char_length": "2"}))),
                   pa.field("fm", pa.map_(pa.float32(), pa.int32()))])
    table = await new_table(conn, admin, database, "regressions_" + log_format.lower(), s, bucket_count=1,
                            log_format=log_format)
    writer = await table.new_append_writer()
    want = {}
    for i, (column, value, back) in enumerate(REGRESSIONS):
        if back is None:
            with pytest.raises(fluss.FlussError) as e:
                writer.append({"id": i, column: value})
            assert f"column '{column}" in e.value.message, e.value.message
        else:
            writer.append({"id": i, column: value})
            want[i] = (column, back)
    got = {r["id"]: r for r in (await flush_and_scan(writer, table)).to_pylist()}
    assert sorted(got) == sorted(want)
    for i, (column, back) in want.items():
        assert got[i][column] == back and type(got[i][column]) is type(back), (REGRESSIONS[i], got[i][column])
