"""TableDescriptor, Schema, DatabaseDescriptor and partition specs check their arguments when
called: a FlussError (error_code -2) naming the argument, never an AttributeError, nanobind's
"incompatible function arguments" later, or a string split into one-letter key names."""

import numpy as np
import pyarrow as pa
import pytest

import fluss

SCHEMA = fluss.Schema(pa.schema([("id", pa.int32()), ("region", pa.string()), ("v", pa.int64())]))


@pytest.mark.parametrize("kwargs,arg", [
    ({"properties": [("table.log.format", "ARROW")]}, "properties"),
    ({"properties": "table.log.format=ARROW"}, "properties"),
    ({"properties": {1: "x"}}, "properties"),
    ({"properties": {"table.log.ttl": None}}, "properties"),
    ({"custom_properties": ["a"]}, "custom_properties"),
    ({"custom_properties": {"k": object()}}, "custom_properties"),
    ({"bucket_count": 2**31}, "bucket_count"),
    ({"bucket_count": 2**40}, "bucket_count"),
    ({"bucket_count": 0}, "bucket_count"),
    ({"bucket_count": -3}, "bucket_count"),
    ({"bucket_count": 2.0}, "bucket_count"),
    ({"bucket_count": "3"}, "bucket_count"),
    ({"bucket_count": True}, "bucket_count"),
    ({"bucket_keys": "id"}, "bucket_keys"),
    ({"bucket_keys": [1]}, "bucket_keys"),
    ({"bucket_keys": ["id", "id"]}, "bucket_keys"),
    ({"bucket_keys": ["nope"]}, "bucket_keys"),
    ({"bucket_keys": {"id"}}, "bucket_keys"),
    ({"partition_keys": "region"}, "partition_keys"),
    ({"partition_keys": [b"region"]}, "partition_keys"),
    ({"partition_keys": ["nope"]}, "partition_keys"),
    ({"comment": 5}, "comment"),
])
def test_table_descriptor_rejects_bad_arguments_naming_them(kwargs, arg):
    with pytest.raises(fluss.FlussError) as e:
        fluss.TableDescriptor(SCHEMA, **kwargs)
    assert e.value.error_code == -2
    assert not e.value.is_retriable()
    assert e.value.message.startswith("TableDescriptor:") and arg in e.value.message, e.value.message


def test_a_single_string_key_list_says_to_pass_a_list():
    for arg, name in (("partition_keys", "region"), ("bucket_keys", "id")):
        with pytest.raises(fluss.FlussError) as e:
            fluss.TableDescriptor(SCHEMA, **{arg: name})
        assert f"[{name!r}]" in e.value.message and "list" in e.value.message, e.value.message
    with pytest.raises(fluss.FlussError) as e:
        fluss.Schema(pa.schema([("id", pa.int32())]), primary_keys="id")
    assert e.value.error_code == -2
    assert "primary_keys" in e.value.message and "['id']" in e.value.message, e.value.message
    with pytest.raises(fluss.FlussError) as e:
        fluss.Schema(pa.schema([("id", pa.int32())]), primary_keys=[3])
    assert "primary_keys" in e.value.message


def test_database_descriptor_checks_its_arguments():
    with pytest.raises(fluss.FlussError) as e:
        fluss.DatabaseDescriptor(custom_properties=[("a", "b")])
    assert e.value.error_code == -2 and "custom_properties" in e.value.message
    with pytest.raises(fluss.FlussError) as e:
        fluss.DatabaseDescriptor(comment=["c"])
    assert e.value.error_code == -2 and "comment" in e.value.message
    d = fluss.DatabaseDescriptor("c", {"n": 3, "on": True})
    assert d.get_custom_properties() == {"n": "3", "on": "true"}


async def test_partition_spec_must_be_a_dict(admin, database):
    path = fluss.TablePath(database, "parts")
    await admin.create_table(path, fluss.TableDescriptor(SCHEMA, partition_keys=("region",), bucket_count=1))
    for call in (admin.create_partition, admin.drop_partition):
        with pytest.raises(fluss.FlussError) as e:
            await call(path, "region=US")
        assert e.value.error_code == -2 and "partition_spec" in e.value.message
    await admin.create_partition(path, {"region": "US"})
    assert [p.get_partition_spec() for p in await admin.list_partition_infos(path)] == [{"region": "US"}]


async def test_valid_arguments_in_every_accepted_shape_reach_the_server(admin, database):
    path = fluss.TablePath(database, "shapes")
    descriptor = fluss.TableDescriptor(
        SCHEMA, bucket_count=np.int64(3), bucket_keys=("id",), comment="c",
        properties={"table.log.arrow.compression.type": "LZ4_FRAME"},
        custom_properties={"owner": "qa", "n": 5, "flag": False},
    )
    assert descriptor.bucket_count == 3 and type(descriptor.bucket_count) is int
    await admin.create_table(path, descriptor)
    info = await admin.get_table(path)
    assert info.num_buckets == 3
    assert info.get_bucket_keys() == ["id"]
    assert info.comment == "c"
    assert info.get_properties()["table.log.arrow.compression.type"] == "LZ4_FRAME"
    assert info.get_custom_properties() == {"owner": "qa", "n": "5", "flag": "false"}
    big = fluss.TableDescriptor(SCHEMA, bucket_count=128000)  # the largest accepted (max.bucket.num)
    assert big.bucket_count == 128000
