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
import itertools

import pytest
from hypothesis import strategies as st

import fluss
from conftest import new_table
from property_model import (Outcomes, Refused, T, bounded, call_refused_or_accepted, column_list, draw_many,
                            every_type_columns, examples, expect_row, readback_row, row_values, run_property,
                            schema, spell, watchdog)  # noqa: F401 (watchdog: autouse fixture)

ID = ("id", T("bigint", nullable=False))


async def _read_back(table, columns, count):
    """{id: canonical row} through the batch scanner (to_arrow) and the same through the
    record scanner (poll); asserts both agree."""
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe(0, fluss.EARLIEST_OFFSET)
    got = await bounded(scanner.to_arrow_async(), 60, "to_arrow")
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
    await bounded(writer.flush(), 60, "flush")
    got = await _read_back(table, columns, len(accepted))
    missing = sorted(set(accepted) - set(got))
    assert not missing, f"{len(missing)} accepted rows lost, e.g. {inputs[missing[0]]!r}"
    assert set(got) == set(accepted), f"rows read back that were refused: {sorted(set(got) - set(accepted))[:5]}"
    for i, want in accepted.items():
        assert got[i] == want, f"row {inputs[i]!r} read back as {got[i]!r}, expected {want!r}"
    outcomes.report()
    return outcomes


@pytest.mark.parametrize("log_format", ["ARROW", "INDEXED"])
async def test_append_every_type(conn, admin, database, log_format):
    out = await _append_property(conn, admin, database, "every_" + log_format.lower(), every_type_columns(),
                                 log_format, examples(150))
    assert out.accepted > 0 and out.refused > 0


async def test_append_random_schemas(conn, admin, database):
    for k, columns in enumerate(draw_many(column_list(), examples(3))):
        await _append_property(conn, admin, database, f"random_{k}", columns, ["ARROW", "INDEXED"][k % 2],
                               examples(60))
