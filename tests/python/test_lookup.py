"""Lookups: many concurrent point lookups in flight together, all answered exactly; prefix
lookups return every row of the prefix; partitioned primary-key tables; bad keys."""

import asyncio
import time

import pyarrow as pa
import pytest

import fluss
from conftest import new_table, run_with_ticker

KV = pa.schema([pa.field("id", pa.int64()), pa.field("v", pa.string()), pa.field("n", pa.int32())])


async def kv_table(conn, admin, database, rows, name="kv", bucket_count=3):
    table = await new_table(conn, admin, database, name, KV, ["id"], bucket_count=bucket_count)
    writer = table.new_upsert()
    for i in range(rows):
        writer.upsert({"id": i, "v": f"value-{i}", "n": i % 7})
    await writer.flush()
    return table


async def test_2000_concurrent_lookups_all_correct(conn, admin, database):
    table = await kv_table(conn, admin, database, 2000)
    lookuper = table.new_lookup()

    t0 = time.monotonic()
    for i in range(100):
        assert await lookuper.lookup({"id": i}) == {"id": i, "v": f"value-{i}", "n": i % 7}
    sequential_100 = time.monotonic() - t0
    assert lookuper.requests_sent == 100  # one after the other: one request each

    async def all_lookups():
        keys = list(range(2000)) + [2000 + i for i in range(50)]  # 50 absent keys
        return keys, await asyncio.gather(*(lookuper.lookup({"id": k}) for k in keys))

    (keys, results), ticks, elapsed = await run_with_ticker(all_lookups)
    for k, got in zip(keys, results):
        assert got == ({"id": k, "v": f"value-{k}", "n": k % 7} if k < 2000 else None), k
    # In flight together: the 2050 lookups share requests (batched per leader, up to
    # client.lookup.max-batch-size = 128 keys each), take far less than 20.5 x the time of 100
    # one after the other, and the event loop kept running meanwhile.
    concurrent_requests = lookuper.requests_sent - 100
    assert concurrent_requests < 2050 / 8, concurrent_requests
    assert elapsed < 5 * sequential_100 + 1.0, (elapsed, sequential_100)
    assert ticks >= 1


async def test_lookups_from_many_tasks(conn, admin, database):
    table = await kv_table(conn, admin, database, 300)
    lookuper = table.new_lookup()

    async def worker(start):
        return [await lookuper.lookup([k]) for k in range(start, 300, 10)]

    results = await asyncio.gather(*(asyncio.create_task(worker(s)) for s in range(10)))
    for start, rows in enumerate(results):
        assert rows == [{"id": k, "v": f"value-{k}", "n": k % 7} for k in range(start, 300, 10)]
    assert lookuper.requests_sent < 300


ORDERS = pa.schema([
    pa.field("user_id", pa.int32()),
    pa.field("order_id", pa.int64()),
    pa.field("item", pa.string()),
])


async def test_prefix_lookup_returns_every_row_of_the_prefix(conn, admin, database):
    table = await new_table(conn, admin, database, "orders", ORDERS, ["user_id", "order_id"], bucket_count=3,
                            bucket_keys=["user_id"])
    writer = table.new_upsert()
    expected = {}
    for user in range(10):
        for order in range(user * 3):  # user 0 has no orders, user 9 has 27
            row = {"user_id": user, "order_id": order, "item": f"item-{user}-{order}"}
            expected.setdefault(user, []).append(row)
            writer.upsert(row)
    await writer.delete({"user_id": 5, "order_id": 0}).wait()
    expected[5] = expected[5][1:]
    await writer.flush()

    prefix = table.new_lookup().lookup_by(["user_id"]).create_lookuper()
    assert isinstance(prefix, fluss.PrefixLookuper)
    assert prefix.lookup_columns == ["user_id"]
    results = await asyncio.gather(*(prefix.lookup({"user_id": u}) for u in range(11)))
    for user, rows in enumerate(results):
        assert sorted(rows, key=lambda r: r["order_id"]) == expected.get(user, []), user
    assert sorted(await prefix.lookup([9]), key=lambda r: r["order_id"]) == expected[9]
    assert await prefix.lookup((0,)) == []

    with pytest.raises(fluss.FlussError) as e:
        await prefix.lookup({"order_id": 1})
    assert "order_id" in e.value.message
    with pytest.raises(fluss.FlussError) as e:
        table.new_lookup().lookup_by(["order_id"])
    assert e.value.error_code == -2
    with pytest.raises(fluss.FlussError) as e:
        table.new_lookup().lookup_by(["nope"])
    assert "nope" in e.value.message


BAD_KEYS = [
    ({}, "id"),                          # key column missing
    ({"id": None}, "id"),                # null key column
    ([None], "id"),
    ({"id": "one"}, "id"),               # wrong type
    ({"id": 1, "v": "x"}, "'v'"),        # not a primary-key column
    ([1, "x"], "has 1 column"),          # wrong length
    ("1", "dict, list or tuple"),
]


@pytest.mark.parametrize("key,named", BAD_KEYS, ids=[str(i) for i in range(len(BAD_KEYS))])
async def test_bad_lookup_key_raises_naming_it(conn, admin, database, key, named):
    table = await kv_table(conn, admin, database, 3, name="bad_keys", bucket_count=1)
    lookuper = table.new_lookup()
    with pytest.raises(fluss.FlussError) as e:
        await lookuper.lookup(key)
    assert named in e.value.message, e.value.message
    assert e.value.error_code == -2
    assert await lookuper.lookup({"id": 1}) == {"id": 1, "v": "value-1", "n": 1}


async def test_log_table_has_no_lookups_or_upserts(conn, admin, database):
    table = await new_table(conn, admin, database, "log", KV)
    for make in (table.new_lookup, table.new_upsert, lambda: table.new_upsert(columns=["id"])):
        with pytest.raises(fluss.FlussError) as e:
            make()
        assert "log table" in e.value.message and e.value.error_code == -2


async def test_cancelled_lookups_and_other_event_loops(conn, admin, database):
    table = await kv_table(conn, admin, database, 200, name="cancel")
    lookuper = table.new_lookup()
    tasks = [asyncio.ensure_future(lookuper.lookup([k])) for k in range(200)]
    for t in tasks[::2]:
        t.cancel()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    for k, got in enumerate(done):
        if k % 2:
            assert got == {"id": k, "v": f"value-{k}", "n": k % 7}
        else:
            assert isinstance(got, asyncio.CancelledError)
    assert await lookuper.lookup([0]) == {"id": 0, "v": "value-0", "n": 0}

    # The same lookuper from the event loop of another thread, while this loop uses it too.
    async def on_other_loop():
        return await asyncio.gather(*(lookuper.lookup([k]) for k in range(100, 150)))

    other = asyncio.ensure_future(asyncio.to_thread(asyncio.run, on_other_loop()))
    here = await asyncio.gather(*(lookuper.lookup([k]) for k in range(50)))
    assert here == [{"id": k, "v": f"value-{k}", "n": k % 7} for k in range(50)]
    assert await other == [{"id": k, "v": f"value-{k}", "n": k % 7} for k in range(100, 150)]
