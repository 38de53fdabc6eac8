"""Primary-key tables: upsert, update, delete and partial updates, read back by lookup with the
exact values; both KV formats; composite keys interleaved with value columns; bad input
rejected before anything is sent, keeping what was queued."""

import datetime as dt
import decimal

import pyarrow as pa
import pytest

import fluss
from conftest import new_table

USERS = pa.schema([
    pa.field("id", pa.int32()),
    pa.field("name", pa.string()),
    pa.field("age", pa.int64()),
    pa.field("city", pa.string()),
])


async def users_table(conn, admin, database, name="users", kv_format=None, bucket_count=3):
    return await new_table(conn, admin, database, name, USERS, ["id"], bucket_count=bucket_count,
                           kv_format=kv_format)


@pytest.mark.parametrize("kv_format", ["COMPACTED", "INDEXED"])
async def test_upsert_update_delete_read_back_by_lookup(conn, admin, database, kv_format):
    table = await users_table(conn, admin, database, kv_format=kv_format)
    assert (await admin.get_table(table.get_table_path())).get_properties()["table.kv.format"] == kv_format
    writer = table.new_upsert()
    writer.upsert({"id": 1, "name": "Alice", "age": 25, "city": "Oslo"})
    writer.upsert([2, "Bob", 30, None])
    writer.upsert((3, "Carol", 35, "Rome"))
    await writer.flush()
    lookuper = table.new_lookup()
    assert await lookuper.lookup({"id": 1}) == {"id": 1, "name": "Alice", "age": 25, "city": "Oslo"}
    assert await lookuper.lookup([2]) == {"id": 2, "name": "Bob", "age": 30, "city": None}
    assert await lookuper.lookup((3,)) == {"id": 3, "name": "Carol", "age": 35, "city": "Rome"}
    assert await lookuper.lookup({"id": 4}) is None

    # Update: the whole row is replaced.
    await writer.upsert({"id": 1, "name": "Alice", "age": 26}).wait()
    assert await lookuper.lookup({"id": 1}) == {"id": 1, "name": "Alice", "age": 26, "city": None}

    # Delete, then the key is gone; deleting a missing key is no error.
    await writer.delete({"id": 2}).wait()
    await writer.delete([99]).wait()
    assert await lookuper.lookup({"id": 2}) is None
    assert await lookuper.lookup({"id": 3}) == {"id": 3, "name": "Carol", "age": 35, "city": "Rome"}

    # Upserting a deleted key inserts it again.
    await writer.upsert({"id": 2, "name": "Bob", "age": 31, "city": "Kyiv"}).wait()
    assert await lookuper.lookup({"id": 2}) == {"id": 2, "name": "Bob", "age": 31, "city": "Kyiv"}


@pytest.mark.parametrize("kv_format", ["COMPACTED", "INDEXED"])
async def test_partial_update_leaves_other_columns_untouched(conn, admin, database, kv_format):
    table = await users_table(conn, admin, database, kv_format=kv_format)
    writer = table.new_upsert()
    writer.upsert({"id": 1, "name": "Alice", "age": 25, "city": "Oslo"})
    writer.upsert({"id": 2, "name": "Bob", "age": 30, "city": "Rome"})
    await writer.flush()

    by_name = table.new_upsert(columns=["id", "age"])
    assert by_name.target_columns == ["id", "age"]
    by_name.upsert({"id": 1, "age": 27})
    # A list row holds the target columns in the order given.
    by_index = table.new_upsert(column_indices=[3, 0])
    assert by_index.target_columns == ["city", "id"]
    by_index.upsert(["Paris", 2])
    await by_name.flush()
    await by_index.flush()
    lookuper = table.new_lookup()
    assert await lookuper.lookup({"id": 1}) == {"id": 1, "name": "Alice", "age": 27, "city": "Oslo"}
    assert await lookuper.lookup({"id": 2}) == {"id": 2, "name": "Bob", "age": 30, "city": "Paris"}

    # A partial update of a new key: the other columns are null.
    await by_name.upsert({"id": 3, "age": 40}).wait()
    assert await lookuper.lookup({"id": 3}) == {"id": 3, "name": None, "age": 40, "city": None}
    # A partial writer deletes by key like any other.
    await by_name.delete({"id": 3}).wait()
    assert await lookuper.lookup({"id": 3}) is None


async def test_builder_spelling_of_pyfluss(conn, admin, database):
    table = await users_table(conn, admin, database)
    full = table.new_upsert().create_writer()
    assert full.target_columns == ["id", "name", "age", "city"]
    full.upsert({"id": 1, "name": "Alice", "age": 25, "city": "Oslo"})
    await full.flush()
    partial = table.new_upsert().partial_update_by_name(["id", "city"]).create_writer()
    assert isinstance(partial, fluss.UpsertWriter) and partial.target_columns == ["id", "city"]
    await partial.upsert({"id": 1, "city": "Bergen"}).wait()
    by_index = table.new_upsert().partial_update_by_index([0, 2]).create_writer()
    await by_index.upsert((1, 26)).wait()
    lookuper = table.new_lookup().create_lookuper()
    assert isinstance(lookuper, fluss.Lookuper)
    assert await lookuper.lookup({"id": 1}) == {"id": 1, "name": "Alice", "age": 26, "city": "Bergen"}
    # The builder methods leave the writer they were called on as it was.
    assert full.target_columns == ["id", "name", "age", "city"]


# Primary key (user_id, region, day) spread among value columns, in an order of its own.
INTERLEAVED = pa.schema([
    pa.field("region", pa.string()),
    pa.field("amount", pa.int64()),
    pa.field("user_id", pa.int32()),
    pa.field("note", pa.string()),
    pa.field("day", pa.date32()),
    pa.field("score", pa.float64()),
])


@pytest.mark.parametrize("kv_format", ["COMPACTED", "INDEXED"])
async def test_composite_key_interleaved_with_value_columns(conn, admin, database, kv_format):
    table = await new_table(conn, admin, database, "interleaved", INTERLEAVED, ["user_id", "region", "day"],
                            bucket_count=4, kv_format=kv_format)
    writer = table.new_upsert()
    d1, d2 = dt.date(2024, 1, 1), dt.date(2024, 1, 2)
    rows = {}
    for uid in range(20):
        for region in ("eu", "us"):
            for day in (d1, d2):
                row = {"region": region, "amount": uid * 100, "user_id": uid, "note": f"{region}-{uid}",
                       "day": day, "score": uid / 4}
                rows[(uid, region, day)] = row
                writer.upsert(row)
    await writer.flush()
    lookuper = table.new_lookup()
    for (uid, region, day), row in rows.items():
        assert await lookuper.lookup({"user_id": uid, "region": region, "day": day}) == row
    # list/tuple keys in primary-key order (not table order)
    assert await lookuper.lookup([7, "us", d2]) == rows[(7, "us", d2)]
    assert await lookuper.lookup((7, "eu", d1)) == rows[(7, "eu", d1)]
    assert await lookuper.lookup((7, "eu", dt.date(2024, 1, 3))) is None

    # Update one key; delete by a tuple key in primary-key order; the neighbours stay.
    await writer.upsert({"region": "eu", "amount": -1, "user_id": 7, "note": None, "day": d1, "score": 0.5}).wait()
    await writer.delete((7, "us", d2)).wait()
    assert await lookuper.lookup((7, "eu", d1)) == {"region": "eu", "amount": -1, "user_id": 7, "note": None,
                                                    "day": d1, "score": 0.5}
    assert await lookuper.lookup((7, "us", d2)) is None
    assert await lookuper.lookup((7, "us", d1)) == rows[(7, "us", d1)]
    assert await lookuper.lookup({"day": d2, "user_id": 7, "region": "eu"}) == rows[(7, "eu", d2)]

    # Partial update by names in any order: a list row follows that order.
    partial = table.new_upsert(columns=["day", "note", "user_id", "region"])
    await partial.upsert([d2, "patched", 8, "us"]).wait()
    assert await lookuper.lookup((8, "us", d2)) == dict(rows[(8, "us", d2)], note="patched")


ALL_TYPES = pa.schema([
    pa.field("id", pa.int32()),
    pa.field("b", pa.bool_()),
    pa.field("i8", pa.int8()),
    pa.field("i16", pa.int16()),
    pa.field("i64", pa.int64()),
    pa.field("f32", pa.float32()),
    pa.field("f64", pa.float64()),
    pa.field("s", pa.string()),
    pa.field("bin", pa.binary()),
    pa.field("fixed", pa.binary(4)),
    pa.field("dec", pa.decimal128(10, 2)),
    pa.field("big_dec", pa.decimal128(38, 10)),
    pa.field("d", pa.date32()),
    pa.field("t_s", pa.time32("s")),
    pa.field("t_ms", pa.time32("ms")),
    pa.field("ts_ms", pa.timestamp("ms")),
    pa.field("ts_us", pa.timestamp("us")),
    pa.field("ts_ns", pa.timestamp("ns")),
    pa.field("ltz_ms", pa.timestamp("ms", tz="UTC")),
    pa.field("ltz_us", pa.timestamp("us", tz="UTC")),
])

UTC = dt.timezone.utc
TYPED_ROW = {
    "id": 1, "b": True, "i8": -128, "i16": 32767, "i64": -(2**63), "f32": 1.5, "f64": -2.25e300,
    "s": "héllo ✓", "bin": b"\x00\xffraw", "fixed": b"abcd",
    "dec": decimal.Decimal("-12345678.91"), "big_dec": decimal.Decimal("1234567890123456789012345678.0123456789"),
    "d": dt.date(1969, 12, 31), "t_s": dt.time(23, 59, 59), "t_ms": dt.time(12, 30, 1, 123000),
    "ts_ms": dt.datetime(2024, 2, 29, 23, 59, 59, 999000), "ts_us": dt.datetime(1900, 1, 1, 0, 0, 0, 1),
    "ts_ns": dt.datetime(2262, 4, 11, 0, 0, 0, 123456),
    "ltz_ms": dt.datetime(2024, 6, 1, 12, 0, 0, 5000, tzinfo=UTC),
    "ltz_us": dt.datetime(1970, 1, 1, 0, 0, 0, 1, tzinfo=UTC),
}


@pytest.mark.parametrize("kv_format", ["COMPACTED", "INDEXED"])
async def test_every_column_type_through_upsert_and_lookup(conn, admin, database, kv_format):
    table = await new_table(conn, admin, database, "all_types", ALL_TYPES, ["id"], bucket_count=2, kv_format=kv_format)
    writer = table.new_upsert()
    nulls = {name: None for name in ALL_TYPES.names}
    nulls["id"] = 2
    # An aware datetime in another zone is stored as its UTC instant.
    plus2 = dict(TYPED_ROW, id=3, ltz_ms=dt.datetime(2024, 6, 1, 14, 0, 0, 5000, tzinfo=dt.timezone(dt.timedelta(hours=2))))
    writer.upsert(TYPED_ROW)
    writer.upsert(nulls)
    writer.upsert(plus2)
    await writer.flush()
    lookuper = table.new_lookup()
    assert await lookuper.lookup({"id": 1}) == TYPED_ROW
    assert await lookuper.lookup({"id": 2}) == nulls
    assert (await lookuper.lookup({"id": 3}))["ltz_ms"] == TYPED_ROW["ltz_ms"]
    # The values come back as scanners return them.
    got = await lookuper.lookup({"id": 1})
    assert type(got["dec"]) is decimal.Decimal and got["ltz_us"].tzinfo is not None and got["ts_us"].tzinfo is None


KEY_TYPES = pa.schema([
    pa.field("s", pa.string()),
    pa.field("d", pa.date32()),
    pa.field("ts", pa.timestamp("us")),
    pa.field("dec", pa.decimal128(12, 3)),
    pa.field("bin", pa.binary()),
    pa.field("i8", pa.int8()),
    pa.field("v", pa.string()),
])


@pytest.mark.parametrize("kv_format", ["COMPACTED", "INDEXED"])
async def test_key_columns_of_many_types(conn, admin, database, kv_format):
    pk = ["s", "d", "ts", "dec", "bin", "i8"]
    table = await new_table(conn, admin, database, "key_types", KEY_TYPES, pk, bucket_count=3, kv_format=kv_format)
    writer = table.new_upsert()
    rows = [{"s": f"k{i}", "d": dt.date(2020, 1, 1 + i), "ts": dt.datetime(2020, 1, 1, 0, 0, i, i),
             "dec": decimal.Decimal(f"{i}.125"), "bin": bytes([i, 255 - i]), "i8": -i, "v": f"value {i}"}
            for i in range(10)]
    for row in rows:
        writer.upsert(row)
    await writer.flush()
    lookuper = table.new_lookup()
    for row in rows:
        assert await lookuper.lookup([row[k] for k in pk]) == row
    await writer.delete({k: rows[4][k] for k in pk}).wait()
    assert await lookuper.lookup({k: rows[4][k] for k in pk}) is None
    assert await lookuper.lookup({k: rows[5][k] for k in pk}) == rows[5]
