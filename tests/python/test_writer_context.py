"""``async with`` on the append and upsert writers: leaving the block flushes; a flush error is
raised, or, when the block raised, attached to the block's exception as a note and logged."""

import logging

import pyarrow as pa
import pytest

import fluss
from conftest import new_table, read_all


async def test_append_writer_async_with_flushes(conn, admin, database):
    table = await new_table(conn, admin, database, "append_ctx", pa.schema([("a", pa.int32())]), bucket_count=1)
    async with await table.new_append_writer() as writer:
        writer.append({"a": 1})
        writer.append([2])
    assert (await read_all(table, 1)).to_pylist() == [{"a": 1}, {"a": 2}]

    class Abort(Exception):
        pass

    with pytest.raises(Abort):
        async with await table.new_append_writer() as writer:
            writer.append({"a": 3})
            raise Abort()
    assert (await read_all(table, 1)).column("a").to_pylist() == [1, 2, 3]


USERS = pa.schema([pa.field("id", pa.int32()), pa.field("name", pa.string()), pa.field("age", pa.int64()),
                   pa.field("city", pa.string())])


async def users_table(conn, admin, database):
    return await new_table(conn, admin, database, "users_ctx", USERS, ["id"], bucket_count=2)


async def test_upsert_writer_async_with_flushes(conn, admin, database):
    table = await users_table(conn, admin, database)
    async with table.new_upsert() as writer:
        writer.upsert({"id": 1, "name": "Alice", "age": 25, "city": "Oslo"})
    assert await table.new_lookup().lookup({"id": 1}) == {"id": 1, "name": "Alice", "age": 25, "city": "Oslo"}

    class Abort(Exception):
        pass

    # The block raised: its exception propagates, and what it queued is still flushed.
    with pytest.raises(Abort):
        async with table.new_upsert(columns=["id", "age"]) as writer:
            writer.upsert({"id": 1, "age": 26})
            raise Abort()
    assert (await table.new_lookup().lookup({"id": 1}))["age"] == 26


async def test_flush_error_on_async_with_exit(conn, admin, database, caplog):
    """A flush failing on exit is raised when the block completed; when the block raised, the
    block's exception propagates with the flush error as a note and in the log."""
    table = await users_table(conn, admin, database)

    async def failing_flush():
        raise fluss.FlussError("flush failed for the test", 19)

    writer = table.new_upsert()
    writer.flush = failing_flush
    with pytest.raises(fluss.FlussError) as e:
        async with writer:
            pass
    assert e.value.message == "flush failed for the test"

    class Abort(Exception):
        pass

    with caplog.at_level(logging.ERROR, logger="fluss"):
        with pytest.raises(Abort) as e:
            async with writer:
                raise Abort("body failed")
    assert str(e.value) == "body failed"
    assert any("flush failed for the test" in note for note in e.value.__notes__)
    assert "flush failed for the test" in caplog.text

    # The same for the append writer.
    log_table = await new_table(conn, admin, database, "log_ctx", pa.schema([("a", pa.int32())]))
    appender = await log_table.new_append_writer()
    appender.flush = failing_flush
    with pytest.raises(Abort) as e:
        async with appender:
            raise Abort("body failed")
    assert any("flush failed for the test" in note for note in e.value.__notes__)
