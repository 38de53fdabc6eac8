"""Rows written under different schema ids of one table (after admin.alter_table adds a column)
read back through every reader, each row decoded with its own schema and matched by column id:
a column the rows lack reads as None, a column the reader's handle lacks is left out."""


import pyarrow as pa
import pytest

import fluss
from conftest import new_table, poll_records

BASE = pa.schema([pa.field("id", pa.int32(), nullable=False), pa.field("name", pa.string())])
EXTRA = pa.field("score", pa.int64())
NEW = pa.schema(list(BASE) + [EXTRA])


async def read_all(table, columns=None):
    scan = table.new_scan()
    if columns:
        scan = scan.project_by_name(columns)
    scanner = await scan.create_batch_scanner()
    scanner.subscribe_buckets({0: fluss.EARLIEST_OFFSET})
    return scanner.to_arrow()


async def alter_and_reopen(conn, admin, table):
    path = table.get_table_path()
    await admin.alter_table(path, add_columns=[EXTRA])
    info = await admin.get_table(path)
    assert info.schema_id == 2
    new = await conn.get_table(path)
    assert new.get_table_info().schema_id == 2
    return new


@pytest.mark.parametrize("log_format", ["ARROW", "INDEXED"])
async def test_log_table_reads_rows_of_both_schemas(conn, admin, database, log_format):
    old = await new_table(conn, admin, database, "evolve_log", BASE, bucket_count=1, log_format=log_format)
    writer = await old.new_append_writer()
    for i in range(3):
        writer.append({"id": i, "name": f"old{i}"})
    await writer.flush()

    new = await alter_and_reopen(conn, admin, old)
    new_writer = await new.new_append_writer()
    for i in range(3, 5):
        new_writer.append({"id": i, "name": f"new{i}", "score": i * 100})
    await new_writer.flush()
    # A writer of the old handle keeps writing rows of schema 1.
    writer.append({"id": 5, "name": "old5"})
    await writer.flush()

    want_new = [{"id": 0, "name": "old0", "score": None}, {"id": 1, "name": "old1", "score": None},
                {"id": 2, "name": "old2", "score": None}, {"id": 3, "name": "new3", "score": 300},
                {"id": 4, "name": "new4", "score": 400}, {"id": 5, "name": "old5", "score": None}]
    got = await read_all(new)
    assert got.schema == NEW
    assert got.to_pylist() == want_new
    # Projection (done by the client once the schema changed), reordered, with the new column.
    got = await read_all(new, ["score", "id"])
    assert got.schema.names == ["score", "id"]
    assert got.to_pylist() == [{"score": r["score"], "id": r["id"]} for r in want_new]
    # The old handle reads every row without the new column.
    got = await read_all(old)
    assert got.schema == BASE
    assert got.to_pylist() == [{"id": r["id"], "name": r["name"]} for r in want_new]
    got = await read_all(old, ["name"])
    assert got.to_pylist() == [{"name": r["name"]} for r in want_new]
    # Limit scan of the log bucket, through both handles.
    # (a limit scan of a log table reads its last records, as Java's LimitBatchScanner)
    limited = await new.new_scan().limit(4).create_bucket_batch_scanner(0).to_arrow()
    assert limited.to_pylist() == want_new[-4:]
    limited = await old.new_scan().limit(6).create_bucket_batch_scanner(0).to_arrow()
    assert limited.to_pylist() == [{"id": r["id"], "name": r["name"]} for r in want_new]


@pytest.mark.parametrize("kv_format", ["COMPACTED", "INDEXED"])
async def test_primary_key_table_rows_of_both_schemas(conn, admin, database, kv_format):
    old = await new_table(conn, admin, database, "evolve_pk", BASE, ["id"], bucket_count=1, kv_format=kv_format)
    writer = old.new_upsert()
    for i in range(4):
        writer.upsert({"id": i, "name": f"old{i}"})
    await writer.flush()

    new = await alter_and_reopen(conn, admin, old)
    new_writer = new.new_upsert()
    new_writer.upsert({"id": 1, "name": "updated1", "score": 11})  # an old row rewritten with the column
    new_writer.upsert({"id": 10, "name": "new10", "score": 1000})
    await new_writer.flush()
    writer.upsert({"id": 2, "name": "old-again2"})  # the old handle's writer: schema 1
    await writer.flush()
    partial = new.new_upsert(columns=["id", "score"])
    await partial.upsert({"id": 3, "score": 33}).wait()  # partial update of a schema-1 row

    want = {0: {"id": 0, "name": "old0", "score": None}, 1: {"id": 1, "name": "updated1", "score": 11},
            2: {"id": 2, "name": "old-again2", "score": None}, 3: {"id": 3, "name": "old3", "score": 33},
            10: {"id": 10, "name": "new10", "score": 1000}}
    lookuper = new.new_lookup()
    for key, row in want.items():
        assert await lookuper.lookup({"id": key}) == row, key
    assert await lookuper.lookup({"id": 99}) is None
    old_lookuper = old.new_lookup()
    for key, row in want.items():
        assert await old_lookuper.lookup({"id": key}) == {"id": row["id"], "name": row["name"]}, key

    rows = await new.new_scan().limit(100).create_bucket_batch_scanner(0).to_arrow()
    assert rows.schema == NEW
    assert sorted(rows.to_pylist(), key=lambda r: r["id"]) == [want[k] for k in sorted(want)]
    rows = await old.new_scan().limit(100).create_bucket_batch_scanner(0).to_arrow()
    assert sorted(rows.to_pylist(), key=lambda r: r["id"]) == [{"id": want[k]["id"], "name": want[k]["name"]}
                                                               for k in sorted(want)]

    # The changelog holds rows of both schemas: 4 inserts, then -U/+U of 1, +I of 10, -U/+U of 2
    # and of 3.
    scanner = await new.new_scan().create_log_scanner()
    scanner.subscribe(0, fluss.EARLIEST_OFFSET)
    records = await poll_records(scanner, 11)
    assert [(r.change_type.short_string(), r.row) for r in records] == [
        ("+I", {"id": 0, "name": "old0", "score": None}),
        ("+I", {"id": 1, "name": "old1", "score": None}),
        ("+I", {"id": 2, "name": "old2", "score": None}),
        ("+I", {"id": 3, "name": "old3", "score": None}),
        ("-U", {"id": 1, "name": "old1", "score": None}),
        ("+U", {"id": 1, "name": "updated1", "score": 11}),
        ("+I", {"id": 10, "name": "new10", "score": 1000}),
        ("-U", {"id": 2, "name": "old2", "score": None}),
        ("+U", {"id": 2, "name": "old-again2", "score": None}),
        ("-U", {"id": 3, "name": "old3", "score": None}),
        ("+U", {"id": 3, "name": "old3", "score": 33}),
    ]


async def test_prefix_lookup_reads_rows_of_both_schemas(conn, admin, database):
    schema = pa.schema([pa.field("user", pa.int64(), nullable=False), pa.field("item", pa.string(), nullable=False),
                        pa.field("qty", pa.int32())])
    old = await new_table(conn, admin, database, "evolve_prefix", schema, ["user", "item"], bucket_count=2,
                          bucket_keys=["user"])
    await old.new_upsert().upsert({"user": 7, "item": "a", "qty": 1}).wait()
    path = old.get_table_path()
    await admin.alter_table(path, add_columns=[pa.field("note", pa.string())])
    new = await conn.get_table(path)
    await new.new_upsert().upsert({"user": 7, "item": "b", "qty": 2, "note": "n"}).wait()
    got = await new.new_lookup().lookup_by(["user"]).create_lookuper().lookup({"user": 7})
    assert sorted(got, key=lambda r: r["item"]) == [{"user": 7, "item": "a", "qty": 1, "note": None},
                                                    {"user": 7, "item": "b", "qty": 2, "note": "n"}]


async def test_alter_table_rejects_bad_changes_before_sending(conn, admin, database):
    table = await new_table(conn, admin, database, "evolve_bad", BASE, bucket_count=1)
    path = table.get_table_path()
    with pytest.raises(fluss.FlussError, match="must be nullable") as e:
        await admin.alter_table(path, add_columns=[pa.field("x", pa.int32(), nullable=False)])
    assert e.value.error_code == -2
    with pytest.raises(fluss.FlussError, match="without any change"):
        await admin.alter_table(path)
    with pytest.raises(TypeError, match="pyarrow.Field"):
        await admin.alter_table(path, add_columns=["x"])
    with pytest.raises(fluss.FlussError) as e:
        await admin.alter_table(fluss.TablePath(database, "no_such_table"), add_columns=[EXTRA])
    assert e.value.error_code == 7
    await admin.alter_table(fluss.TablePath(database, "no_such_table"), add_columns=[EXTRA], ignore_if_not_exists=True)
    # An existing column name: the server refuses it; the schema is unchanged.
    with pytest.raises(fluss.FlussError):
        await admin.alter_table(path, add_columns=[pa.field("name", pa.int64())])
    assert (await admin.get_table(path)).schema_id == 1
    # Properties: a custom property set.
    await admin.alter_table(path, set_properties={"owner": "team-a"})
    assert (await admin.get_table(path)).get_custom_properties().get("owner") == "team-a"
