"""Database and table admin calls return exactly what was created."""

import uuid

import pyarrow as pa
import pytest

import fluss


async def test_database_lifecycle(admin):
    name = "it_db_" + uuid.uuid4().hex[:8]
    assert not await admin.database_exists(name)
    await admin.create_database(name, ignore_if_exists=False,
                                database_descriptor=fluss.DatabaseDescriptor(comment="for tests",
                                                                             custom_properties={"owner": "qa"}))
    assert await admin.database_exists(name)
    assert name in await admin.list_databases()
    info = await admin.get_database_info(name)
    assert info.database_name == name
    assert info.get_database_descriptor().comment == "for tests"
    assert info.get_database_descriptor().get_custom_properties() == {"owner": "qa"}
    assert info.created_time > 0 and info.modified_time >= info.created_time

    await admin.create_database(name, ignore_if_exists=True)  # no error
    with pytest.raises(fluss.FlussError) as e:
        await admin.create_database(name, ignore_if_exists=False)
    assert e.value.error_code == 6  # DATABASE_ALREADY_EXIST
    assert name in e.value.message

    await admin.drop_database(name, ignore_if_not_exists=False, cascade=True)
    assert not await admin.database_exists(name)
    assert name not in await admin.list_databases()
    await admin.drop_database(name, ignore_if_not_exists=True)  # no error
    with pytest.raises(fluss.FlussError) as e:
        await admin.drop_database(name, ignore_if_not_exists=False)
    assert e.value.error_code == 4  # DATABASE_NOT_EXIST


async def test_drop_database_cascade(admin):
    name = "it_db_" + uuid.uuid4().hex[:8]
    await admin.create_database(name)
    path = fluss.TablePath(name, "t1")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(pa.schema([("a", pa.int32())]))))
    with pytest.raises(fluss.FlussError) as e:
        await admin.drop_database(name, cascade=False)
    assert e.value.error_code == 5  # DATABASE_NOT_EMPTY
    assert await admin.database_exists(name)
    await admin.drop_database(name, cascade=True)
    assert not await admin.database_exists(name)
    assert not await admin.table_exists(path)


# Every data type of the seed's "Data Types" table, with nullability and a comment.
SEED_TYPES = pa.schema([
    pa.field("b", pa.bool_()),
    pa.field("i8", pa.int8()),
    pa.field("i16", pa.int16()),
    pa.field("i32", pa.int32(), nullable=False),
    pa.field("i64", pa.int64()),
    pa.field("f32", pa.float32()),
    pa.field("f64", pa.float64()),
    pa.field("s", pa.string(), metadata={"comment": "a string column"}),
    pa.field("bin", pa.binary()),
    pa.field("d", pa.date32()),
    pa.field("t", pa.time32("ms")),
    pa.field("ts", pa.timestamp("us")),
    pa.field("ts_ltz", pa.timestamp("us", tz="UTC")),
    pa.field("dec", pa.decimal128(10, 2)),
])


async def test_table_lifecycle_returns_what_was_created(admin, database):
    path = fluss.TablePath(database, "all_types")
    descriptor = fluss.TableDescriptor(
        fluss.Schema(SEED_TYPES),
        bucket_count=3,
        bucket_keys=["i32"],
        comment="every seed type",
        log_format="ARROW",
        properties={"table.log.arrow.compression.type": "ZSTD"},
        custom_properties={"team": "it"},
    )
    assert not await admin.table_exists(path)
    await admin.create_table(path, descriptor, ignore_if_exists=False)
    assert await admin.table_exists(path)
    assert await admin.list_tables(database) == ["all_types"]

    info = await admin.get_table(path)
    assert info.table_path == path
    assert info.table_id >= 0
    assert info.schema_id == 1
    assert info.num_buckets == 3
    assert info.comment == "every seed type"
    assert info.get_bucket_keys() == ["i32"]
    assert info.get_partition_keys() == []
    assert info.get_primary_keys() == []
    assert not info.has_primary_key() and not info.is_partitioned()
    assert info.get_custom_properties() == {"team": "it"}
    props = info.get_properties()
    assert props["table.log.format"] == "ARROW"
    assert props["table.log.arrow.compression.type"] == "ZSTD"
    assert props["table.replication.factor"] == "1"  # server default materialised
    assert info.created_time > 0 and info.modified_time >= info.created_time
    assert info.get_column_names() == SEED_TYPES.names
    assert info.get_column_count() == len(SEED_TYPES)
    got = info.get_schema().arrow_schema
    assert got.equals(SEED_TYPES, check_metadata=False), got
    assert got.field("s").metadata == {b"comment": b"a string column"}
    assert info.get_schema().get_column_types() == [
        "boolean", "tinyint", "smallint", "int NOT NULL", "bigint", "float", "double", "string", "bytes",
        "date", "time(3)", "timestamp(6)", "timestamp_ltz(6)", "decimal(10,2)",
    ]

    with pytest.raises(fluss.FlussError) as e:
        await admin.create_table(path, descriptor, ignore_if_exists=False)
    assert e.value.error_code == 8  # TABLE_ALREADY_EXIST
    await admin.create_table(path, descriptor, ignore_if_exists=True)

    await admin.drop_table(path, ignore_if_not_exists=False)
    assert not await admin.table_exists(path)
    assert await admin.list_tables(database) == []
    with pytest.raises(fluss.FlussError) as e:
        await admin.get_table(path)
    assert e.value.error_code == 7  # TABLE_NOT_EXIST
    assert f"{database}.all_types" in e.value.message
    await admin.drop_table(path, ignore_if_not_exists=True)
    with pytest.raises(fluss.FlussError) as e:
        await admin.drop_table(path, ignore_if_not_exists=False)
    assert e.value.error_code == 7


async def test_primary_key_table_metadata(admin, database):
    path = fluss.TablePath(database, "users")
    schema = fluss.Schema(pa.schema([("id", pa.int32()), ("name", pa.string())]), primary_keys=["id"])
    await admin.create_table(path, fluss.TableDescriptor(schema, bucket_count=2, kv_format="COMPACTED"))
    info = await admin.get_table(path)
    assert info.get_primary_keys() == ["id"]
    assert info.has_primary_key()
    assert info.num_buckets == 2
    assert info.get_bucket_keys() == ["id"]  # server default: primary key minus partition keys
    assert info.get_schema().arrow_schema.field("id").nullable is False
    assert info.get_properties()["table.kv.format"] == "COMPACTED"


async def test_partitioned_table_metadata(admin, database):
    path = fluss.TablePath(database, "events")
    schema = fluss.Schema(pa.schema([("id", pa.int32()), ("region", pa.string()), ("v", pa.int64())]))
    await admin.create_table(path, fluss.TableDescriptor(schema, partition_keys=["region"], bucket_count=1))
    info = await admin.get_table(path)
    assert info.is_partitioned()
    assert info.get_partition_keys() == ["region"]


async def test_bad_table_definitions_rejected_before_sending(admin, database):
    path = fluss.TablePath(database, "bad")
    with pytest.raises(fluss.FlussError) as e:
        await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(pa.schema([("u", pa.uint64())]))))
    assert "'u'" in e.value.message
    with pytest.raises(fluss.FlussError) as e:
        fluss.Schema(pa.schema([("a", pa.int32())]), primary_keys=["nope"])
    assert "nope" in e.value.message
    with pytest.raises(fluss.FlussError) as e:
        await admin.create_table(fluss.TablePath(database, "bad name!"),
                                 fluss.TableDescriptor(fluss.Schema(pa.schema([("a", pa.int32())]))))
    assert "bad name!" in e.value.message
    with pytest.raises(TypeError):
        fluss.TableDescriptor(fluss.Schema(pa.schema([("a", pa.int32())])), bucket_cnt=3)
    assert not await admin.table_exists(path)


async def test_list_tables_of_missing_database(admin):
    with pytest.raises(fluss.FlussError) as e:
        await admin.list_tables("no_such_db_" + uuid.uuid4().hex[:6])
    assert e.value.error_code == 4
