"""Every Fluss data type on every path, nested types included, against the real cluster.

ARRAY, MAP and ROW, nested in each other with nullability kept at every level, plus CHAR(n),
BINARY(n), TIME and TIMESTAMP / TIMESTAMP_LTZ at every Arrow unit: written as Python rows and
as Arrow batches to log tables (ARROW and INDEXED log formats) and to primary-key tables
(COMPACTED and INDEXED kv formats), then read back through the batch scanner (Arrow), the
record scanner (rows), projections, lookups, prefix lookups, partial updates and the
changelog; each read compares exact values and Arrow types. Bad values raise FlussError naming
the column and the path inside it, and nothing queued before is lost.
"""

from __future__ import annotations

import datetime as dt
import decimal

import pyarrow as pa
import pytest

import fluss
from conftest import new_table, poll_records, read_all

UTC = dt.timezone.utc
D = decimal.Decimal

GEO = pa.struct([pa.field("lat", pa.float64()), pa.field("lon", pa.float64())])
ADDRESS = pa.struct([pa.field("city", pa.string()), pa.field("zip", pa.int32(), nullable=False), pa.field("geo", GEO)])
EVENT = pa.struct([pa.field("ts", pa.timestamp("us")), pa.field("amount", pa.decimal128(20, 2)),
                   pa.field("raw", pa.binary())])

# Every nested shape the issue names, with NOT NULL at inner levels.
NESTED = [
    pa.field("tags", pa.list_(pa.string())),
    pa.field("scores", pa.list_(pa.field("item", pa.int32(), nullable=False))),
    pa.field("attrs", pa.map_(pa.string(), pa.int64())),
    pa.field("address", ADDRESS),
    pa.field("matrix", pa.list_(pa.list_(pa.int16()))),
    pa.field("events", pa.list_(EVENT)),
    pa.field("m2", pa.map_(pa.int32(), pa.list_(pa.string()))),
    pa.field("flags", pa.list_(pa.bool_()), nullable=False),
]
COLUMN_TYPES = [
    "array<string>",
    "array<int NOT NULL>",
    "map<string,bigint>",
    "row<city string, zip int NOT NULL, geo row<lat double, lon double>>",
    "array<array<smallint>>",
    "array<row<ts timestamp(6), amount decimal(20,2), raw bytes>>",
    "map<int,array<string>>",
    "array<boolean> NOT NULL",
]

LONG = "a string longer than seven bytes"


def nested_values(i: int) -> dict:
    """Row i's nested values as the reader returns them (maps as lists of pairs)."""
    if i % 4 == 3:  # nulls at the top of every nullable column; empty NOT NULL list
        return {"tags": None, "scores": None, "attrs": None, "address": None, "matrix": None, "events": None,
                "m2": None, "flags": []}
    return {
        "tags": ["x", None, LONG + str(i), ""][: 1 + i % 4],
        "scores": list(range(i, i + i % 3)),  # empty for i % 3 == 0
        "attrs": [("k", i), ("none", None), (LONG, -(2 ** 40))] if i % 2 else [],
        "address": {"city": None if i % 2 else f"city{i}", "zip": 10000 + i,
                    "geo": None if i % 3 == 2 else {"lat": i + 0.5, "lon": None}},
        "matrix": [[1, None], [], None, [-32768, 32767]] if i % 2 == 0 else [[i]],
        "events": [{"ts": dt.datetime(2024, 1, 1, 12, 0, 0, 123456) + dt.timedelta(days=i),
                    "amount": D("-12345678901234567.89") if i % 2 else D("0.01"), "raw": bytes(range(i % 10))},
                   None, {"ts": None, "amount": None, "raw": None}],
        "m2": [(i, ["a", LONG]), (-1, None), (7, [])],
        "flags": [True, False, bool(i % 2)],
    }


def as_input(row: dict, i: int) -> dict:
    """The same row as Python input, in the other accepted spellings: maps as dicts on even
    rows i (lists of pairs on odd ones), ROW values as lists by position on odd rows."""
    out = dict(row)
    for m in ("attrs", "m2"):
        if out[m] is not None and i % 2 == 0:
            out[m] = dict(out[m])
    if out["address"] is not None and i % 2:
        a = out["address"]
        out["address"] = [a.get("city"), a.get("zip"), a.get("geo")]
    return out


async def _make(conn, admin, database, name, schema, pk=None, **kw):
    return await new_table(conn, admin, database, name, schema, pk, bucket_count=1, **kw)


def test_schema_spells_fluss_types_and_refuses_types_without_one():
    schema = fluss.Schema(pa.schema([pa.field("id", pa.int32())] + NESTED))
    assert schema.get_column_types() == ["int"] + COLUMN_TYPES
    scalar = fluss.Schema(pa.schema([
        pa.field("c", pa.string(), metadata={"fluss.char_length": "3"}),
        pa.field("b", pa.binary(16)),
        pa.field("t0", pa.time32("s")), pa.field("t9", pa.time64("ns")),
        pa.field("ts3", pa.timestamp("ms"), nullable=False), pa.field("ltz6", pa.timestamp("us", tz="Asia/Tokyo")),
    ]))
    assert scalar.get_column_types() == ["char(3)", "binary(16)", "time(0)", "time(9)", "timestamp(3) NOT NULL",
                                         "timestamp_ltz(6)"]
    for field, path in [(pa.field("u", pa.uint32()), "u"),
                        (pa.field("tags", pa.list_(pa.uint8())), "tags[]"),
                        (pa.field("address", pa.struct([pa.field("zip", pa.float16())])), "address.zip"),
                        (pa.field("big", pa.large_list(pa.int32())), "big"),
                        (pa.field("d", pa.dictionary(pa.int32(), pa.string())), "d")]:
        with pytest.raises(fluss.FlussError) as e:
            fluss.Schema(pa.schema([pa.field("id", pa.int32()), field]))
        assert e.value.error_code == -2
        assert f"column '{path}'" in e.value.message and "no Fluss equivalent" in e.value.message


async def test_table_info_gives_back_the_nested_schema(conn, admin, database):
    schema = pa.schema([pa.field("id", pa.int32())] + NESTED)
    table = await _make(conn, admin, database, "schema_back", schema)
    info = await admin.get_table(fluss.TablePath(database, "schema_back"))
    got = info.get_schema().arrow_schema
    assert got.equals(schema), f"{got}\n!=\n{schema}"
    # Nullability at every level, field by field.
    for g, w in zip(got, schema):
        assert str(g.type) == str(w.type) and g.nullable == w.nullable, g.name
    assert info.get_schema().get_column_types() == ["int"] + COLUMN_TYPES
    assert table.get_table_info().get_schema().arrow_schema.equals(schema)


@pytest.mark.parametrize("log_format", ["ARROW", "INDEXED"])
async def test_log_table_rows_and_arrow_round_trip(conn, admin, database, log_format):
    schema = pa.schema([pa.field("id", pa.int32())] + NESTED)
    table = await _make(conn, admin, database, "log_" + log_format.lower(), schema, log_format=log_format)
    expected = [dict(id=i, **nested_values(i)) for i in range(8)]
    writer = await table.new_append_writer()
    for i, row in enumerate(expected[:4]):
        writer.append(as_input(row, i))
    for i, row in enumerate(expected[4:6], 4):  # positional rows
        writer.append([as_input(row, i)[f.name] for f in schema])
    # Arrow input: pyarrow's own spellings (nullable list items named "item", inferred types)
    # are cast to the table's where every value fits.
    arrow_rows = pa.Table.from_pylist(expected[6:8], schema=schema)
    loose = pa.table({f.name: pa.array(arrow_rows.column(f.name).to_pylist(),
                                       type=_loosen(f.type) if pa.types.is_nested(f.type) else f.type)
                      for f in schema})
    writer.write_arrow(loose)
    await writer.flush()

    got = await read_all(table, 1)
    assert got.schema.equals(schema), f"{got.schema}\n!=\n{schema}"
    assert got.to_pylist() == expected

    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe(0, fluss.EARLIEST_OFFSET)
    records = await poll_records(scanner, len(expected))
    assert [r.row for r in records] == expected

    # Projection of nested columns (pushed down to the server for ARROW tables).
    scanner = await table.new_scan().project_by_name(["events", "id", "address"]).create_batch_scanner()
    scanner.subscribe(0, fluss.EARLIEST_OFFSET)
    projected = scanner.to_arrow()
    assert projected.schema.names == ["events", "id", "address"]
    assert projected.schema.field("events").type == pa.list_(EVENT)
    assert projected.to_pylist() == [{"events": r["events"], "id": r["id"], "address": r["address"]} for r in expected]


def _loosen(t: pa.DataType) -> pa.DataType:
    """The type pyarrow would infer: nullable children, int64 integers."""
    if pa.types.is_list(t):
        return pa.list_(_loosen(t.value_type))
    if pa.types.is_map(t):
        return pa.map_(_loosen(t.key_type), _loosen(t.item_type))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, _loosen(f.type)) for f in t])
    if pa.types.is_integer(t):
        return pa.int64()
    return t


@pytest.mark.parametrize("kv_format", ["COMPACTED", "INDEXED"])
async def test_primary_key_table_lookups_prefix_lookups_partial_updates_and_changelog(conn, admin, database, kv_format):
    # (A partial update needs every column outside the primary key nullable: flags is here.)
    nested = [f.with_nullable(True) for f in NESTED]
    schema = pa.schema([pa.field("user", pa.int32()), pa.field("seq", pa.int64())] + nested + [pa.field("note", pa.string())])
    table = await new_table(conn, admin, database, "pk_" + kv_format.lower(), schema, ["user", "seq"],
                            bucket_count=2, bucket_keys=["user"], kv_format=kv_format)
    rows = [dict(user=u, seq=s, **nested_values(u * 3 + s), note=f"n{u}.{s}") for u in range(3) for s in range(3)]
    writer = table.new_upsert()
    for r in rows:
        writer.upsert(as_input(r, r["user"] * 3 + r["seq"]))
    await writer.flush()

    lookuper = table.new_lookup()
    for r in rows:
        assert await lookuper.lookup({"user": r["user"], "seq": r["seq"]}) == r
    assert await lookuper.lookup([9, 9]) is None
    prefix = table.new_lookup().lookup_by(["user"]).create_lookuper()
    for u in range(3):
        got = sorted(await prefix.lookup({"user": u}), key=lambda x: x["seq"])
        assert got == [r for r in rows if r["user"] == u]

    # A partial update of nested columns keeps the others.
    partial = table.new_upsert(columns=["user", "seq", "address", "tags"])
    new_address = {"city": "moved", "zip": 1, "geo": {"lat": None, "lon": -1.25}}
    await partial.upsert({"user": 1, "seq": 1, "address": new_address, "tags": [LONG, LONG]}).wait()
    updated = dict(rows[4], address=new_address, tags=[LONG, LONG])
    assert await lookuper.lookup([1, 1]) == updated
    await writer.delete([2, 2]).wait()
    assert await lookuper.lookup([2, 2]) is None

    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe_buckets({0: fluss.EARLIEST_OFFSET, 1: fluss.EARLIEST_OFFSET})
    records = await poll_records(scanner, len(rows) + 3)
    changes = [(r.change_type, r.row) for r in records]
    assert sorted((c.value, row["user"], row["seq"]) for c, row in changes) == sorted(
        [(fluss.ChangeType.Insert.value, r["user"], r["seq"]) for r in rows]
        + [(fluss.ChangeType.UpdateBefore.value, 1, 1), (fluss.ChangeType.UpdateAfter.value, 1, 1),
           (fluss.ChangeType.Delete.value, 2, 2)])
    by_kind = {(c, row["user"], row["seq"]): row for c, row in changes}
    for r in rows:
        assert by_kind[(fluss.ChangeType.Insert, r["user"], r["seq"])] == r
    assert by_kind[(fluss.ChangeType.UpdateBefore, 1, 1)] == rows[4]
    assert by_kind[(fluss.ChangeType.UpdateAfter, 1, 1)] == updated
    assert by_kind[(fluss.ChangeType.Delete, 2, 2)] == rows[8]


SCALARS = pa.schema([
    pa.field("id", pa.int32()),
    pa.field("c3", pa.string(), metadata={"fluss.char_length": "3"}),
    pa.field("b4", pa.binary(4)),
    pa.field("t0", pa.time32("s")), pa.field("t3", pa.time32("ms")),
    pa.field("t6", pa.time64("us")), pa.field("t9", pa.time64("ns")),
    pa.field("ts0", pa.timestamp("s")), pa.field("ts3", pa.timestamp("ms")),
    pa.field("ts6", pa.timestamp("us")), pa.field("ts9", pa.timestamp("ns")),
    pa.field("ltz0", pa.timestamp("s", tz="UTC")), pa.field("ltz3", pa.timestamp("ms", tz="UTC")),
    pa.field("ltz6", pa.timestamp("us", tz="UTC")), pa.field("ltz9", pa.timestamp("ns", tz="UTC")),
    pa.field("nested_ts", pa.list_(pa.timestamp("ns"))),
    # precisions between the units' own (fluss.precision metadata)
    pa.field("ts2", pa.timestamp("ms"), metadata={"fluss.precision": "2"}),
    pa.field("t5", pa.time64("us"), metadata={"fluss.precision": "5"}),
    pa.field("ltz8", pa.timestamp("ns", tz="UTC"), metadata={"fluss.precision": "8"}),
])


def _scalar_arrow() -> pa.Table:
    """Two rows of every unit, with sub-second parts each unit keeps (TIME keeps milliseconds on
    the wire: finer parts are zero); the second row is all nulls but the id."""
    base = 1_700_000_000
    cols = {
        "id": [1, 2], "c3": ["ab", None], "b4": [b"\x00\x01\x00\x03", None],
        "t0": [3723, None], "t3": [3723004, None], "t6": [3723004000, None], "t9": [3723004000000, None],
        "ts0": [base, None], "ts3": [base * 1000 + 7, None], "ts6": [base * 10 ** 6 + 7, None],
        "ts9": [base * 10 ** 9 + 7, None], "ltz0": [-base, None], "ltz3": [base * 1000 + 7, None],
        "ltz6": [-(base * 10 ** 6) - 7, None], "ltz9": [base * 10 ** 9 + 123456789, None],
        "nested_ts": [[base * 10 ** 9 + 1, None, -1], None],
        "ts2": [base * 1000 + 990, None], "t5": [3723004000, None], "ltz8": [base * 10 ** 9 + 10, None],
    }
    return pa.table({f.name: pa.array(cols[f.name], type=f.type) for f in SCALARS}, schema=SCALARS)


@pytest.mark.parametrize("kind", ["ARROW", "INDEXED", "COMPACTED-PK", "INDEXED-PK"])
async def test_char_binary_and_every_time_unit_round_trip(conn, admin, database, kind):
    expected = _scalar_arrow()
    name = "scalars_" + kind.lower().replace("-", "_")
    if kind.endswith("PK"):
        table = await new_table(conn, admin, database, name, SCALARS, ["id"], bucket_count=1,
                                kv_format=kind.split("-")[0])
        writer = table.new_upsert()
        for row in expected.to_pylist():
            writer.upsert(row)
        await writer.flush()
        lookuper = table.new_lookup()
        for row in expected.to_pylist():
            assert await lookuper.lookup({"id": row["id"]}) == row
        scanner = await table.new_scan().create_log_scanner()
        scanner.subscribe(0, fluss.EARLIEST_OFFSET)
        assert [r.row for r in await poll_records(scanner, 2)] == expected.to_pylist()
    else:
        table = await new_table(conn, admin, database, name, SCALARS, bucket_count=1, log_format=kind)
        writer = await table.new_append_writer()
        writer.append(expected.to_pylist()[0])
        writer.write_arrow_batch(expected.to_batches()[0].slice(1))
        await writer.flush()
        got = await read_all(table, 1)
        assert got.schema.equals(SCALARS, check_metadata=True) or got.schema.equals(SCALARS)
        assert got.equals(expected), f"{got}\n!=\n{expected}"
        assert got.schema.field("c3").metadata == {b"fluss.char_length": b"3"}
    info = await admin.get_table(fluss.TablePath(database, name))
    id_type = "int NOT NULL" if kind.endswith("PK") else "int"
    assert info.get_schema().get_column_types() == [
        id_type, "char(3)", "binary(4)", "time(0)", "time(3)", "time(6)", "time(9)", "timestamp(0)", "timestamp(3)",
        "timestamp(6)", "timestamp(9)", "timestamp_ltz(0)", "timestamp_ltz(3)", "timestamp_ltz(6)", "timestamp_ltz(9)",
        "array<timestamp(9)>", "timestamp(2)", "time(5)", "timestamp_ltz(8)"]


async def test_indexed_kv_tables_refuse_binary_values_ending_in_zero(conn, admin, database):
    # Fluss 0.9.1 strips trailing 0x00 bytes of BINARY(n) values in INDEXED rows and then fails
    # the whole PutKv batch building its changelog; the client refuses such a value up front.
    schema = pa.schema([pa.field("id", pa.int32()), pa.field("b", pa.binary(2))])
    table = await new_table(conn, admin, database, "indexed_binary", schema, ["id"], bucket_count=1, kv_format="INDEXED")
    writer = table.new_upsert()
    writer.upsert({"id": 1, "b": b"\x00\x01"})
    with pytest.raises(fluss.FlussError) as e:
        writer.upsert({"id": 2, "b": b"\x01\x00"})
    assert "column 'b' (BINARY(2)): a value ending in a 0x00 byte" in e.value.message
    await writer.flush()
    assert await table.new_lookup().lookup({"id": 1}) == {"id": 1, "b": b"\x00\x01"}
    assert await table.new_lookup().lookup({"id": 2}) is None


async def test_bad_values_name_the_column_and_path_and_lose_nothing_queued(conn, admin, database):
    schema = pa.schema([pa.field("id", pa.int32()), pa.field("c2", pa.string(), metadata={"fluss.char_length": "2"}),
                        pa.field("b2", pa.binary(2))] + NESTED)
    table = await _make(conn, admin, database, "bad_values", schema)
    writer = await table.new_append_writer()
    good = dict(id=0, c2="ok", b2=b"\x01\x02", **nested_values(0))
    writer.append(as_input(good, 0))
    cases = [
        ({"tags": ["a", "b", "c", 5]}, "column 'tags[3]': expected str, got int"),
        ({"scores": [1, None]}, "column 'scores[1]' (INT NOT NULL): the value is null"),
        ({"scores": [1, 2 ** 40]}, "column 'scores[1]' (INT NOT NULL): value 1099511627776 is out of range"),
        ({"address": {"city": "c", "zip": None}}, "column 'address.zip' (INT NOT NULL): the value is null"),
        ({"address": {"city": "c", "zip": "x"}}, "column 'address.zip': expected int, got str"),
        ({"address": {"city": "c", "zip": 1, "street": "s"}}, "column 'address': 'street' is not a field of the row"),
        ({"address": ["c", 1]}, "column 'address': a row of 2 value(s) for 3 field(s)"),
        ({"attrs": {"k": "v"}}, "column 'attrs[0].value': expected int, got str"),
        ({"attrs": [("k", 1, 2)]}, "column 'attrs[0]': expected a (key, value) pair, got tuple"),
        ({"attrs": {None: 1}}, "column 'attrs[0].key': a map key must not be None"),
        ({"m2": {1: ["a", 2]}}, "column 'm2[0].value[1]': expected str, got int"),
        ({"attrs": [("k", 1), ("j", 2), ("k", 3)]}, "column 'attrs' (MAP<STRING NOT NULL, BIGINT>): entries 0 and 2 have the same key"),
        ({"matrix": [[1], [2, "x"]]}, "column 'matrix[1][1]': expected int, got str"),
        ({"matrix": [[1], [2, 40000]]}, "column 'matrix[1][1]' (SMALLINT): value 40000 is out of range"),
        ({"events": [{"ts": None, "amount": D("1.234"), "raw": None}]},
         "column 'events[0].amount': value 1.234 has more than 2 fractional digits"),
        ({"tags": "abc"}, "column 'tags': expected a list for an array, got str"),
        ({"flags": None}, "column 'flags' is NOT NULL but the value is null"),
        ({"c2": "abc"}, "column 'c2' (CHAR(2)): value has 3 bytes, more than 2"),
        ({"b2": b"\x01"}, "column 'b2' (BINARY(2)): value has 1 bytes, expected 2"),
    ]
    for change, message in cases:
        with pytest.raises(fluss.FlussError) as e:
            writer.append(dict(good, **change))
        assert e.value.error_code == -2
        assert message in e.value.message, (change, e.value.message)
    # Arrow input: a null where the table's nested type is NOT NULL, named by its path.
    bad = pa.table({f.name: pa.array([None], type=f.type) if f.name not in ("id", "flags", "scores")
                    else pa.array([[1, None]], type=pa.list_(pa.int64())) if f.name == "scores"
                    else pa.array([[True]], type=f.type) if f.name == "flags" else pa.array([9], type=pa.int32())
                    for f in schema})
    with pytest.raises(fluss.FlussError) as e:
        writer.write_arrow(bad)
    assert "column 'scores[]' is NOT NULL but has 1 null" in e.value.message, e.value.message
    await writer.flush()
    got = await read_all(table, 1)
    assert got.to_pylist() == [good]


async def test_partitioned_table_and_pandas_with_nested_columns(conn, admin, database):
    import pandas as pd

    schema = pa.schema([pa.field("id", pa.int32()), pa.field("region", pa.string()),
                        pa.field("tags", pa.list_(pa.string())), pa.field("address", ADDRESS)])
    path = fluss.TablePath(database, "nested_parts")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema), partition_keys=["region"],
                                                         bucket_count=1))
    for region in ("EU", "US"):
        await admin.create_partition(path, {"region": region})
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    writer.append({"id": 1, "region": "EU", "tags": ["a"], "address": {"city": "x", "zip": 1, "geo": None}})
    # pandas: lists and dicts in object columns; the batch is split per partition in C++.
    df = pd.DataFrame({"id": [2, 3], "region": ["US", "EU"], "tags": [[LONG, None], []],
                       "address": [None, {"city": None, "zip": 3, "geo": {"lat": 1.0, "lon": 2.0}}]})
    writer.write_pandas(df)
    await writer.flush()
    scanner = await table.new_scan().create_batch_scanner()
    for p in await admin.list_partition_infos(path):
        scanner.subscribe_partition(p.partition_id, 0, fluss.EARLIEST_OFFSET)
    got = scanner.to_arrow()
    assert got.schema.equals(schema)
    assert sorted(got.to_pylist(), key=lambda r: r["id"]) == [
        {"id": 1, "region": "EU", "tags": ["a"], "address": {"city": "x", "zip": 1, "geo": None}},
        {"id": 2, "region": "US", "tags": [LONG, None], "address": None},
        {"id": 3, "region": "EU", "tags": [], "address": {"city": None, "zip": 3, "geo": {"lat": 1.0, "lon": 2.0}}},
    ]
    assert scanner.to_pandas().shape == (0, 4)


async def test_values_finer_or_longer_than_the_type_are_refused_on_every_path(conn, admin, database):
    # (found by trying to break it) TIME keeps milliseconds, a TIMESTAMP(p) p digits and a
    # CHAR(n) n bytes: a value beyond that is refused by append and by Arrow input alike, at
    # the top and inside nested values, instead of being cut or stored out of its type.
    char3 = {"fluss.char_length": "3"}
    schema = pa.schema([
        pa.field("id", pa.int32()),
        pa.field("t6", pa.time64("us")),
        pa.field("ts4", pa.timestamp("us"), metadata={"fluss.precision": "4"}),
        pa.field("ch", pa.string(), metadata=char3),
        pa.field("times", pa.list_(pa.time64("ns"))),
        pa.field("addr", pa.struct([pa.field("city", pa.string(), metadata=char3),
                                    pa.field("zip", pa.int32(), nullable=False)])),
        pa.field("b2", pa.binary(2)),
    ])
    for log_format in ("ARROW", "INDEXED"):
        table = await _make(conn, admin, database, "finer_" + log_format.lower(), schema, log_format=log_format)
        writer = await table.new_append_writer()
        good = {"id": 1, "t6": dt.time(1, 2, 3, 456000), "ts4": dt.datetime(2024, 1, 1, 0, 0, 0, 456700),
                "ch": "abc", "times": [dt.time(0, 0, 0, 1000)], "addr": {"city": "Rom", "zip": 1}, "b2": b"ab"}
        writer.append(good)
        bad_rows = [  # (change, its path in Arrow input, the append message)
            ({"t6": dt.time(1, 2, 3, 456789)}, "t6",
             "column 't6' (TIME(6)): value 3723456789 has a fraction of a millisecond"),
            ({"ts4": dt.datetime(2024, 1, 1, 0, 0, 0, 456789)}, "ts4",
             "column 'ts4' (TIMESTAMP(4)): value 1704067200456789 has more than 4 fractional digits of the second"),
            ({"ch": "abcd"}, "ch", "column 'ch' (CHAR(3)): value has 4 bytes, more than 3"),
            ({"times": [dt.time(0, 0, 0, 1)]}, "times[]",
             "column 'times[0]' (TIME(9)): value 1000 has a fraction of a millisecond"),
            ({"addr": {"city": "Paris", "zip": 1}}, "addr.city",
             "column 'addr.city' (CHAR(3)): value has 5 bytes, more than 3"),
        ]
        for change, path, message in bad_rows:
            with pytest.raises(fluss.FlussError) as e:
                writer.append(dict(good, **change))
            assert message in e.value.message, (change, e.value.message)
            with pytest.raises(fluss.FlussError) as e:
                writer.write_arrow(pa.Table.from_pylist([dict(good, **change)], schema=schema))
            assert e.value.error_code == -2
            assert f"column '{path}'" in e.value.message, (change, e.value.message)
        # pyarrow's own spellings are cast (binary -> binary(2), nullable struct fields), and a
        # null in a NOT NULL struct field is named by its path, not by pyarrow's cast.
        loose = pa.schema([pa.field(f.name, _loosen(f.type) if pa.types.is_nested(f.type) else
                                    pa.binary() if f.name == "b2" else f.type, metadata=f.metadata) for f in schema])
        writer.write_arrow(pa.Table.from_pylist([dict(good, id=2)], schema=loose))
        with pytest.raises(fluss.FlussError) as e:
            writer.write_arrow(pa.Table.from_pylist([dict(good, id=3, addr={"city": "a", "zip": None})], schema=loose))
        assert "column 'addr.zip' is NOT NULL but has 1 null" in e.value.message, e.value.message
        await writer.flush()
        assert [r["id"] for r in (await read_all(table, 1)).to_pylist()] == [1, 2]

    # A TIME primary key finer than milliseconds would make two keys one row: refused.
    pk = await new_table(conn, admin, database, "time_pk", pa.schema([pa.field("t", pa.time64("us")),
                                                                     pa.field("v", pa.int32())]), ["t"])
    with pytest.raises(fluss.FlussError) as e:
        pk.new_upsert().upsert({"t": dt.time(1, 2, 3, 456789), "v": 1})
    assert "fraction of a millisecond" in e.value.message


def test_type_strings_quote_odd_field_names_and_metadata_must_fit_its_type():
    s = fluss.Schema(pa.schema([pa.field("r", pa.struct([pa.field("a,b", pa.int32()), pa.field("c> d", pa.string()),
                                                         pa.field("x`y", pa.bool_()), pa.field("ok_1", pa.int8())]))]))
    assert s.get_column_types() == ["row<`a,b` int, `c> d` string, `x``y` boolean, ok_1 tinyint>"]
    for field, what in [(pa.field("i", pa.int32(), metadata={"fluss.precision": "3"}), "fluss.precision"),
                        (pa.field("b", pa.binary(), metadata={"fluss.char_length": "3"}), "fluss.char_length")]:
        with pytest.raises(fluss.FlussError) as e:
            fluss.Schema(pa.schema([field]))
        assert what in e.value.message and f"column '{field.name}'" in e.value.message
