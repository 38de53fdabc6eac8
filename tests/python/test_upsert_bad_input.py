"""Bad input to upsert writers raises FlussError naming the problem before anything is sent,
and the writes queued before and after it are stored."""

import pyarrow as pa
import pytest

import fluss
from conftest import new_table

SCHEMA = pa.schema([
    pa.field("id", pa.int32()),
    pa.field("region", pa.string()),
    pa.field("name", pa.string()),
    pa.field("age", pa.int64()),
    pa.field("code", pa.string(), nullable=False),
])


async def make_table(conn, admin, database):
    return await new_table(conn, admin, database, "bad_input", SCHEMA, ["id", "region"], bucket_count=2)


BAD_WRITERS = [
    (dict(columns=["id", "region", "age"], column_indices=[0, 1, 3]), "not both"),
    (dict(columns=["id", "age"]), "'region'"),            # a primary-key column left out
    (dict(column_indices=[1, 3]), "'id'"),
    (dict(columns=["id", "region", "agee"]), "agee"),     # unknown column
    (dict(column_indices=[0, 1, 9]), "9"),                # index out of range
    (dict(columns=["id", "region", "id"]), "twice"),
    (dict(columns="id"), "list of column names"),
    (dict(columns=["id", "region", "age"]), "code"),      # NOT NULL non-key column left out (Fluss rule)
]


@pytest.mark.parametrize("kwargs,named", BAD_WRITERS, ids=[str(i) for i in range(len(BAD_WRITERS))])
async def test_bad_upsert_writer_arguments(conn, admin, database, kwargs, named):
    table = await make_table(conn, admin, database)
    with pytest.raises(fluss.FlussError) as e:
        table.new_upsert(**kwargs)
    assert named in e.value.message, e.value.message
    assert e.value.error_code == -2


BAD_ROWS = [
    ({"id": None, "region": "eu", "code": "x"}, "id"),        # null primary-key column
    ({"region": "eu", "code": "x"}, "id"),                    # missing primary-key column
    ({"id": 1, "region": None, "code": "x"}, "region"),
    ({"id": 1, "region": "eu", "code": None}, "code"),        # null in a NOT NULL column
    ({"id": 1, "region": "eu"}, "code"),                      # NOT NULL column missing
    ({"id": 1, "region": "eu", "code": "x", "zip": 1}, "zip"),  # unknown key
    ({"id": "1", "region": "eu", "code": "x"}, "id"),          # wrong type
    ({"id": 2**40, "region": "eu", "code": "x"}, "id"),        # out of range
    ([1, "eu", "x"], "5 columns"),
    (7, "dict, list or tuple"),
]


@pytest.mark.parametrize("bad_row,named", BAD_ROWS, ids=[str(i) for i in range(len(BAD_ROWS))])
async def test_bad_row_is_rejected_and_queued_writes_are_kept(conn, admin, database, bad_row, named):
    table = await make_table(conn, admin, database)
    writer = table.new_upsert()
    before = writer.upsert({"id": 10, "region": "eu", "name": "before", "age": 1, "code": "a"})
    with pytest.raises(fluss.FlussError) as e:
        writer.upsert(bad_row)
    assert named in e.value.message, e.value.message
    assert e.value.error_code == -2
    writer.upsert([11, "us", "after", None, "b"])
    await writer.flush()
    await before.wait()
    lookuper = table.new_lookup()
    assert await lookuper.lookup({"id": 10, "region": "eu"}) == {"id": 10, "region": "eu", "name": "before",
                                                                 "age": 1, "code": "a"}
    assert await lookuper.lookup([11, "us"]) == {"id": 11, "region": "us", "name": "after", "age": None, "code": "b"}


BAD_DELETES = [
    ({"id": 10}, "region"),                      # key column missing
    ({"id": 10, "region": None}, "region"),      # null key column
    ({"id": 10, "region": "eu", "name": "x"}, "'name'"),  # not a key column
    ([10], "2 columns"),
    (("eu", 10), "id"),                          # primary-key order is (id, region)
]


@pytest.mark.parametrize("key,named", BAD_DELETES, ids=[str(i) for i in range(len(BAD_DELETES))])
async def test_bad_delete_key_is_rejected_and_queued_writes_are_kept(conn, admin, database, key, named):
    table = await make_table(conn, admin, database)
    writer = table.new_upsert()
    writer.upsert({"id": 10, "region": "eu", "name": "kept", "age": 1, "code": "a"})
    with pytest.raises(fluss.FlussError) as e:
        writer.delete(key)
    assert named in e.value.message, e.value.message
    assert e.value.error_code == -2
    await writer.flush()
    assert (await table.new_lookup().lookup((10, "eu")))["name"] == "kept"


async def test_partial_row_holds_only_the_target_columns(conn, admin, database):
    schema = pa.schema([pa.field("id", pa.int32()), pa.field("a", pa.string()), pa.field("b", pa.int64())])
    table = await new_table(conn, admin, database, "partial_rows", schema, ["id"])
    full = table.new_upsert()
    await full.upsert({"id": 1, "a": "x", "b": 1}).wait()
    writer = table.new_upsert(columns=["id", "b"])
    for row, named in (({"id": 1, "a": "y", "b": 2}, "'a'"), ([1, "y", 2], "2 columns"), ({"id": None, "b": 2}, "id")):
        with pytest.raises(fluss.FlussError) as e:
            writer.upsert(row)
        assert named in e.value.message, e.value.message
    await writer.upsert({"id": 1, "b": 3}).wait()
    assert await table.new_lookup().lookup([1]) == {"id": 1, "a": "x", "b": 3}
