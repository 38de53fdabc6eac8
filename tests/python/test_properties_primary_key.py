"""Property: ``upsert``, ``delete`` and ``lookup`` of random rows and keys (in range and hostile)
on primary-key tables of both kv formats. Each call either raises FlussError/TypeError/
ValueError naming the column (or the path inside it), or takes effect: at the end every key
looks up to the row the model of the table holds (None when deleted), and the changelog
replayed gives the same table, so no accepted write is lost around refused ones.

One table per schema; writes of all examples accumulate and are read back once.
"""

from __future__ import annotations

import asyncio
import itertools

import pyarrow as pa
import pytest
from hypothesis import strategies as st

import fluss
from conftest import new_table
from property_model import (Ctx, Outcomes, Refused, T, bounded, call_refused_or_accepted, column_list, draw_many,
                            every_type_columns, examples, expect_row, hostile_values, names_one_of, readback_row, row_values,
                            run_property, schema, scalar_types, spell, valid_values, watchdog)  # noqa: F401

# Primary keys of every scalar type but FLOAT/DOUBLE (a NaN key has many bit patterns).
KEY_KINDS = ["boolean", "tinyint", "smallint", "int", "bigint", "string", "char", "bytes", "binary", "decimal",
             "date", "time", "timestamp", "timestamp_ltz"]


def key_columns(k: int):
    return st.lists(scalar_types(KEY_KINDS), min_size=k, max_size=k).map(
        lambda ts: [(f"k{i}", t.not_null()) for i, t in enumerate(ts)])


async def _primary_key_property(conn, admin, database, name, keys, values, kv_format, n_examples):
    columns = keys + values
    key_names = [n for n, _ in keys]
    table = await new_table(conn, admin, database, name, schema(columns), key_names, bucket_count=2,
                            kv_format=kv_format)
    ctx = Ctx(kv_indexed=kv_format == "INDEXED")
    # Keys come from a small pool, so upserts replace rows and deletes find them.
    pool = draw_many(st.tuples(*[valid_values(t, ctx) for _, t in keys]), 12)
    key = st.one_of(st.sampled_from(pool), st.tuples(*[st.one_of(valid_values(t, ctx), hostile_values(t, ctx))
                                                       for _, t in keys]))
    row = row_values(columns, ctx, fixed={n: st.just(None) for n in key_names}).flatmap(
        lambda vs: key.map(lambda k: k + vs[len(keys):]))
    how = st.sampled_from(["dict", "tuple", "list"])
    op = st.one_of(st.tuples(st.just("upsert"), row, how), st.tuples(st.just("delete"), key, how),
                   st.tuples(st.just("lookup"), key, how))

    writer = table.new_upsert()
    # canonical key -> canonical row; canonical key -> a key spelling written; lookups to make
    state, spelled, probes = {}, {}, []
    changes = itertools.count()
    expected_changes = 0
    outcomes = Outcomes(f"upsert/delete {name} ({kv_format})")

    def check(example):
        nonlocal expected_changes
        kind, vals, spelling = example
        if kind == "upsert":
            r = spell(columns, vals, spelling)
            try:
                want, refused = expect_row(columns, r, ctx), None
            except Refused as e:
                want, refused = None, e
            if call_refused_or_accepted(writer.upsert, r, refused, f"upsert to {name}"):
                k = want[:len(keys)]
                expected_changes += 2 if k in state else 1
                state[k] = want
                spelled[k] = tuple(vals[:len(keys)])
                outcomes.accepted += 1
            else:
                outcomes.refused += 1
            return
        k_in = spell(keys, vals, spelling)
        try:
            k, refused = expect_row(keys, k_in), None
        except Refused as e:
            k, refused = None, e
        if kind == "lookup":
            probes.append((k_in, k, refused))
        elif call_refused_or_accepted(writer.delete, k_in, refused, f"delete from {name}"):
            if k in state:
                expected_changes += 1
                del state[k]
            spelled[k] = tuple(vals)
            outcomes.accepted += 1
        else:
            outcomes.refused += 1

    run_property(op, check, n_examples)
    await bounded(writer.flush(), 60, "flush")

    lookuper = table.new_lookup()
    probes += [(k_in, k, None) for k, k_in in spelled.items()]  # every key written: its row or None
    for k_in, k, refused in probes:
        try:
            got = await bounded(lookuper.lookup(k_in), 30, "lookup")
        except (fluss.FlussError, TypeError, ValueError) as e:
            assert refused is not None, f"lookup refused a valid key {k_in!r}: {e}"
            assert names_one_of(str(e), refused.paths), f"lookup {k_in!r}: error names none of {refused.paths}: {e}"
            continue
        assert refused is None, f"lookup accepted {k_in!r}, which must be refused (at {refused.paths})"
        want = state.get(k)
        assert (None if got is None else readback_row(columns, got)) == want, f"lookup {k_in!r}: {got!r} != {want!r}"
    # The changelog replayed: +I/+U set the row, -D removes it.
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe_buckets({0: fluss.EARLIEST_OFFSET, 1: fluss.EARLIEST_OFFSET})
    records = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while len(records) < expected_changes and loop.time() < deadline:
        records.extend(await bounded(scanner.poll_async(500), 30, "poll"))
    assert len(records) == expected_changes, f"{len(records)} changelog records, expected {expected_changes}"
    replayed = {}
    for rec in records:
        r = readback_row(columns, rec.row)
        if rec.change_type in (fluss.ChangeType.Insert, fluss.ChangeType.UpdateAfter):
            replayed[r[:len(keys)]] = r
        elif rec.change_type == fluss.ChangeType.Delete:
            assert replayed.pop(r[:len(keys)], None) is not None, f"delete of a row not in the changelog: {rec.row}"
    diff = [(k, replayed.get(k), state.get(k)) for k in set(replayed) | set(state) if replayed.get(k) != state.get(k)]
    assert not diff, f"{len(diff)} keys differ (key, changelog, model), e.g. {diff[0]!r}\nin {columns}"
    outcomes.report()
    return outcomes


@pytest.mark.parametrize("kv_format", ["COMPACTED", "INDEXED"])
async def test_upsert_delete_lookup_every_type(conn, admin, database, kv_format):
    keys = [("k0", T("int", nullable=False)), ("k1", T("string", nullable=False))]
    values = every_type_columns()
    out = await _primary_key_property(conn, admin, database, "every_" + kv_format.lower(), keys, values, kv_format,
                                      examples(150))
    assert out.accepted > 0 and out.refused > 0


async def test_upsert_delete_lookup_random_schemas(conn, admin, database):
    tables = draw_many(st.tuples(st.integers(1, 2).flatmap(key_columns), column_list(st.integers(1, 4))), examples(3, 15))
    for i, (keys, values) in enumerate(tables):
        await _primary_key_property(conn, admin, database, f"random_{i}", keys, values,
                                    ["COMPACTED", "INDEXED"][i % 2], examples(60))


async def test_nested_char_reads_back_unpadded_from_the_changelog_of_an_indexed_table(conn, admin, database):
    # (found by the property) CHAR(n) values inside ARRAY/ROW came out of the changelog of a kv
    # format INDEXED table with their 0x00 padding ('' as '\x00\x00'); lookups were right.
    char2 = {"fluss.char_length": "2"}
    s = pa.schema([pa.field("k", pa.int32(), nullable=False),
                   pa.field("tags", pa.list_(pa.field("item", pa.string(), metadata=char2))),
                   pa.field("r", pa.struct([pa.field("c", pa.string(), metadata=char2)])),
                   pa.field("m", pa.map_(pa.field("key", pa.string(), nullable=False, metadata=char2),
                                         pa.field("value", pa.string(), metadata=char2)))])
    table = await new_table(conn, admin, database, "nested_char", s, ["k"], bucket_count=1, kv_format="INDEXED")
    row = {"k": 1, "tags": ["", "a", None, "ab"], "r": {"c": "x"}, "m": [("", "b"), ("cd", "")]}
    await bounded(table.new_upsert().upsert(row).wait(), 60, "upsert")
    assert await bounded(table.new_lookup().lookup({"k": 1}), 30, "lookup") == row
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe(0, fluss.EARLIEST_OFFSET)
    records = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while not records and loop.time() < deadline:
        records.extend(await bounded(scanner.poll_async(500), 30, "poll"))
    assert [r.row for r in records] == [row]


@pytest.mark.parametrize("kv_format", ["COMPACTED", "INDEXED"])
async def test_binary_ending_in_zero_inside_a_row_value(conn, admin, database, kv_format):
    # (found by the property) In a kv format INDEXED table, a BINARY(n) field of a ROW value (at
    # any depth, also a row inside an array) ending in 0x00 failed its whole batch on the server
    # (IndexOutOfBoundsException): refused now naming its path, the rows queued before written.
    # Array elements and map entries of BINARY(n) are stored whole, and COMPACTED takes all.
    s = pa.schema([pa.field("k", pa.int32(), nullable=False), pa.field("r", pa.struct([("b", pa.binary(2))])),
                   pa.field("rs", pa.list_(pa.struct([("b", pa.binary(2))]))), pa.field("bs", pa.list_(pa.binary(2)))])
    table = await new_table(conn, admin, database, "row_binary_" + kv_format.lower(), s, ["k"], bucket_count=1,
                            kv_format=kv_format)
    writer = table.new_upsert()
    rows = [{"k": 1, "r": {"b": b"a\x01"}, "rs": [{"b": b"\x00a"}], "bs": [b"a\x00"]}]
    writer.upsert(rows[0])
    for i, (bad, path) in enumerate([({"r": {"b": b"a\x00"}}, "r.b"), ({"rs": [{"b": b"ok"}, {"b": b"\x00\x00"}]}, "rs[1].b")]):
        row = dict({"k": 2 + i}, **bad)
        if kv_format == "INDEXED":
            with pytest.raises(fluss.FlussError) as e:
                writer.upsert(row)
            assert f"column '{path}' (BINARY(2))" in e.value.message, e.value.message
        else:
            writer.upsert(row)
            rows.append(dict({"r": None, "rs": None, "bs": None}, **row))
    await bounded(writer.flush(), 60, "flush")
    lookuper = table.new_lookup()
    for row in rows:
        assert await bounded(lookuper.lookup({"k": row["k"]}), 30, "lookup") == row
