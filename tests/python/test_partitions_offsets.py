"""Partition admin and list_offsets / list_partition_offsets with exact values."""

import time

import pyarrow as pa
import pytest

import fluss
from conftest import read_all


async def test_partitions_lifecycle_and_partition_offsets(admin, database):
    path = fluss.TablePath(database, "by_region")
    schema = fluss.Schema(pa.schema([("id", pa.int32()), ("region", pa.string())]))
    await admin.create_table(path, fluss.TableDescriptor(schema, partition_keys=["region"], bucket_count=2))
    assert await admin.list_partition_infos(path) == []
    await admin.create_partition(path, {"region": "US"})
    await admin.create_partition(path, {"region": "EU"}, ignore_if_exists=True)
    await admin.create_partition(path, {"region": "US"}, ignore_if_exists=True)
    with pytest.raises(fluss.FlussError) as e:
        await admin.create_partition(path, {"region": "US"}, ignore_if_exists=False)
    assert e.value.error_code == 42  # PARTITION_ALREADY_EXISTS
    infos = await admin.list_partition_infos(path)
    assert sorted(p.partition_name for p in infos) == ["EU", "US"]
    assert all(p.partition_id >= 0 for p in infos)
    assert {p.partition_name: p.get_partition_spec() for p in infos}["US"] == {"region": "US"}
    assert await admin.list_partition_offsets(path, partition_name="US", bucket_ids=[0, 1], offset_type="latest") == {0: 0, 1: 0}
    assert await admin.list_partition_offsets(path, partition_name="EU", bucket_ids=[1], offset_type="earliest") == {1: 0}
    with pytest.raises(fluss.FlussError) as e:
        await admin.list_partition_offsets(path, partition_name="ASIA", bucket_ids=[0], offset_type="latest")
    assert e.value.error_code == 36  # PARTITION_NOT_EXISTS
    await admin.drop_partition(path, {"region": "EU"})
    assert [p.partition_name for p in await admin.list_partition_infos(path)] == ["US"]
    with pytest.raises(fluss.FlussError) as e:
        await admin.drop_partition(path, {"region": "EU"})
    assert e.value.error_code == 36
    await admin.drop_partition(path, {"region": "EU"}, ignore_if_not_exists=True)


async def test_list_partition_infos_with_a_partial_spec(admin, database):
    path = fluss.TablePath(database, "by_region_day")
    schema = fluss.Schema(pa.schema([("id", pa.int32()), ("region", pa.string()), ("day", pa.string())]))
    await admin.create_table(path, fluss.TableDescriptor(schema, partition_keys=["region", "day"], bucket_count=1))
    for region, day in (("US", "20240101"), ("US", "20240102"), ("EU", "20240101")):
        await admin.create_partition(path, {"region": region, "day": day})

    def names(infos):
        return sorted(p.partition_name for p in infos)

    assert names(await admin.list_partition_infos(path)) == ["EU$20240101", "US$20240101", "US$20240102"]
    assert names(await admin.list_partition_infos(path, partition_spec={"region": "US"})) == ["US$20240101",
                                                                                             "US$20240102"]
    assert names(await admin.list_partition_infos(path, partition_spec={"day": "20240101"})) == ["EU$20240101",
                                                                                                "US$20240101"]
    got = await admin.list_partition_infos(path, partition_spec={"region": "EU", "day": "20240101"})
    assert [(p.partition_name, p.get_partition_spec()) for p in got] == [("EU$20240101",
                                                                          {"region": "EU", "day": "20240101"})]
    assert await admin.list_partition_infos(path, partition_spec={"region": "ASIA"}) == []
    assert names(await admin.list_partition_infos(path, partition_spec={})) == names(await admin.list_partition_infos(path))
    with pytest.raises(fluss.FlussError, match="'id' is not a partition key") as e:
        await admin.list_partition_infos(path, partition_spec={"id": "1"})
    assert e.value.error_code == -2
    with pytest.raises(fluss.FlussError, match="must be a dict"):
        await admin.list_partition_infos(path, partition_spec=["US"])


async def test_list_offsets_earliest_latest_timestamp(conn, admin, database):
    path = fluss.TablePath(database, "offsets")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(pa.schema([("a", pa.int32())])), bucket_count=2))
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    assert await admin.list_offsets(path, bucket_ids=[0, 1], offset_type="earliest") == {0: 0, 1: 0}
    assert await admin.list_offsets(path, bucket_ids=[0, 1], offset_type="latest") == {0: 0, 1: 0}
    batch = pa.record_batch([pa.array([1, 2, 3], pa.int32())], names=["a"])
    await writer.write_arrow_batch(batch).wait()  # one batch -> one bucket, offsets 0..2
    time.sleep(0.05)
    middle = int(time.time() * 1000)
    time.sleep(0.05)
    await writer.write_arrow_batch(batch).wait()  # the next bucket (sticky assignment moves on)
    latest = await admin.list_offsets(path, bucket_ids=[0, 1], offset_type="latest")
    assert sorted(latest.values()) == [3, 3]
    assert await admin.list_offsets(path, bucket_ids=[0, 1], offset_type=fluss.OffsetType.EARLIEST) == {0: 0, 1: 0}
    # Before any record: offset 0. Between the two writes: the first batch's bucket is at its
    # end (3), the second's at 0. After both (but not in the future): the high watermark.
    assert await admin.list_offsets(path, bucket_ids=[0, 1], offset_type="timestamp", timestamp=0) == {0: 0, 1: 0}
    mid = await admin.list_offsets(path, bucket_ids=[0, 1], offset_type="timestamp", timestamp=middle)
    assert sorted(mid.values()) == [0, 3]
    now = int(time.time() * 1000)
    assert await admin.list_offsets(path, bucket_ids=[0, 1], offset_type="timestamp", timestamp=now) == latest
    with pytest.raises(fluss.FlussError):
        await admin.list_offsets(path, bucket_ids=[0], offset_type="timestamp")
    with pytest.raises(fluss.FlussError):
        await admin.list_offsets(path, bucket_ids=[5], offset_type="latest")


async def test_create_partition_refuses_values_the_server_would_refuse(admin, database):
    path = fluss.TablePath(database, "by_region_checked")
    schema = fluss.Schema(pa.schema([("id", pa.int32()), ("region", pa.string())]))
    await admin.create_table(path, fluss.TableDescriptor(schema, partition_keys=["region"], bucket_count=1))
    for bad, why in (("a b", "character other than"), ("", "empty"), ("..", "must not be"), ("x" * 201, "longer than 200"),
                     ("__x", "must not start with '__'"), ("é", "character other than")):
        with pytest.raises(fluss.FlussError, match=why) as e:
            await admin.create_partition(path, {"region": bad})
        assert e.value.error_code == -2 and "'region'" in e.value.message
    await admin.create_partition(path, {"region": "x" * 200})
    await admin.create_partition(path, {"region": "us-east_1"})
    assert sorted(p.partition_name for p in await admin.list_partition_infos(path)) == ["us-east_1", "x" * 200]
