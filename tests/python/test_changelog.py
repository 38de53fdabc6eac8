"""The changelog of a primary-key table through the record scanner: +I, -U/+U and -D records
with their row images and increasing offsets; batch scanners reject primary-key tables."""

import pyarrow as pa
import pytest

import fluss
from conftest import new_table, poll_records

SCHEMA = pa.schema([pa.field("id", pa.int32()), pa.field("name", pa.string()), pa.field("age", pa.int64())])
I, UB, UA, D = (fluss.ChangeType.Insert, fluss.ChangeType.UpdateBefore, fluss.ChangeType.UpdateAfter,
                fluss.ChangeType.Delete)


@pytest.mark.parametrize("kv_format", ["COMPACTED", "INDEXED"])
async def test_changelog_of_upserts_updates_and_deletes(conn, admin, database, kv_format):
    table = await new_table(conn, admin, database, "changelog", SCHEMA, ["id"], bucket_count=1, kv_format=kv_format)
    writer = table.new_upsert()
    await writer.upsert({"id": 1, "name": "Alice", "age": 25}).wait()
    await writer.upsert({"id": 1, "name": "Alice", "age": 26}).wait()
    await writer.upsert({"id": 2, "name": "Bob", "age": 30}).wait()
    await table.new_upsert(columns=["id", "name"]).upsert({"id": 2, "name": "Robert"}).wait()
    await writer.delete({"id": 1}).wait()

    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe(0, fluss.EARLIEST_OFFSET)
    records = await poll_records(scanner, 7)
    assert [(r.change_type, r.row) for r in records] == [
        (I, {"id": 1, "name": "Alice", "age": 25}),
        (UB, {"id": 1, "name": "Alice", "age": 25}),
        (UA, {"id": 1, "name": "Alice", "age": 26}),
        (I, {"id": 2, "name": "Bob", "age": 30}),
        (UB, {"id": 2, "name": "Bob", "age": 30}),
        (UA, {"id": 2, "name": "Robert", "age": 30}),
        (D, {"id": 1, "name": "Alice", "age": 26}),
    ]
    assert [r.change_type.short_string() for r in records] == ["+I", "-U", "+U", "+I", "-U", "+U", "-D"]
    offsets = [r.offset for r in records]
    assert offsets == sorted(offsets) and len(set(offsets)) == len(offsets)
    assert offsets[0] == 0
    assert all(r.bucket.bucket_id == 0 and r.bucket.table_id == table.get_table_info().table_id for r in records)
    assert await scanner.poll_async(200) == []


async def test_changelog_with_projection_and_several_buckets(conn, admin, database):
    table = await new_table(conn, admin, database, "changelog_buckets", SCHEMA, ["id"], bucket_count=3)
    writer = table.new_upsert()
    for i in range(30):
        writer.upsert({"id": i, "name": f"n{i}", "age": i})
    await writer.flush()
    for i in range(0, 30, 3):
        writer.delete([i])
    await writer.flush()
    scanner = await table.new_scan().project_by_name(["age", "id"]).create_log_scanner()
    scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
    records = await poll_records(scanner, 40)
    assert len(records) == 40
    inserts = sorted((r.row["id"], r.row["age"]) for r in records if r.change_type == I)
    deletes = sorted((r.row["id"], r.row["age"]) for r in records if r.change_type == D)
    assert inserts == [(i, i) for i in range(30)]
    assert deletes == [(i, i) for i in range(0, 30, 3)]
    assert all(list(r.row) == ["age", "id"] for r in records)
    for b in range(3):
        offsets = [r.offset for r in records if r.bucket.bucket_id == b]
        assert offsets == list(range(len(offsets)))


async def test_batch_scanner_rejects_primary_key_tables(conn, admin, database):
    table = await new_table(conn, admin, database, "pk_no_batch", SCHEMA, ["id"])
    with pytest.raises(fluss.FlussError) as e:
        await table.new_scan().create_batch_scanner()
    assert "primary-key table" in e.value.message and "create_log_scanner" in e.value.message
