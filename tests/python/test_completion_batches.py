"""Completions reach asyncio in batches (python/fluss/_async.py, python/src/loop_queue.h):
outcomes delivered by the I/O thread while the loop is busy take the GIL and wake the loop once
and are settled together, in arrival order; none is lost when a batch arrives while another is
being settled, or when the loop is closed. The last tests await 64 write handles of one batch
and run 64 lookups in flight against the real cluster."""

from __future__ import annotations

import asyncio
import threading
import time

import pyarrow as pa
import pytest

import fluss
from conftest import new_table, read_all
from fluss import _async


class _CountingLoop:
    """Counts call_soon_threadsafe calls on the running loop (the loop's wake-ups)."""

    def __init__(self, loop):
        self.loop, self.calls = loop, 0
        self._orig = loop.call_soon_threadsafe

    def __enter__(self):
        def counted(*a, **k):
            self.calls += 1
            return self._orig(*a, **k)
        self.loop.call_soon_threadsafe = counted
        return self

    def __exit__(self, *exc):
        del self.loop.call_soon_threadsafe


def _futures(n):
    """n futures from future_from, with the `done` of each kept for a thread to call."""
    dones = []
    futs = [_async.future_from(dones.append) for _ in range(n)]
    return futs, dones


async def test_outcomes_delivered_together_wake_the_loop_once():
    loop = asyncio.get_running_loop()
    futs, dones = _futures(64)
    with _CountingLoop(loop) as counter:
        # The loop is blocked in join() while the thread delivers all 64 (as the I/O thread does
        # for the answers of one response), so they all land in one batch.
        t = threading.Thread(target=lambda: [d(None, i) for i, d in enumerate(dones)])
        t.start()
        t.join()
        results = await asyncio.gather(*futs)
    assert results == list(range(64))
    assert counter.calls == 1


async def test_errors_and_values_keep_their_futures_and_later_batches_wake_again():
    loop = asyncio.get_running_loop()
    futs, dones = _futures(10)
    err = RuntimeError("boom")
    with _CountingLoop(loop) as counter:
        t = threading.Thread(target=lambda: [d(err if i % 3 == 0 else None, None if i % 3 == 0 else i * 10)
                                             for i, d in enumerate(dones[:5])])
        t.start()
        t.join()
        await asyncio.sleep(0)  # the first batch is settled
        assert all(f.done() for f in futs[:5]) and not any(f.done() for f in futs[5:])
        t = threading.Thread(target=lambda: [d(None, i * 10) for i, d in enumerate(dones[5:], start=5)])
        t.start()
        t.join()
        outcomes = await asyncio.gather(*futs, return_exceptions=True)
    for i, o in enumerate(outcomes):
        if i < 5 and i % 3 == 0:
            assert o is err
        else:
            assert o == i * 10
    assert counter.calls == 2


async def test_a_cancelled_future_hands_its_value_back():
    lost = []
    dones = []
    fut = _async.future_from(dones.append, lost=lost.append)
    keep = _async.future_from(dones.append)
    fut.cancel()
    t = threading.Thread(target=lambda: (dones[0](None, "batch"), dones[1](None, "kept")))
    t.start()
    t.join()
    assert await keep == "kept"
    await fut._fluss_settled
    assert lost == ["batch"]


def test_delivery_after_the_loop_closed_is_dropped_quietly():
    loop = asyncio.new_event_loop()
    dones = []

    async def start():
        return _async.future_from(dones.append)

    loop.run_until_complete(start())
    loop.close()
    dones[0](None, 1)  # no exception: nobody is waiting any more


SCHEMA = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])


async def test_64_lookups_in_flight_read_back_exactly(conn, admin, database):
    table = await new_table(conn, admin, database, "completion_batches", SCHEMA, ["id"], bucket_count=3)
    writer = table.new_upsert()
    for i in range(500):
        writer.upsert({"id": i, "name": f"n{i}"})
    await writer.flush()
    lookuper = table.new_lookup()
    for round_ in range(5):
        keys = [(round_ * 64 + k) * 7 % 600 for k in range(64)]  # some beyond 499: missing
        rows = await asyncio.gather(*(lookuper.lookup({"id": k}) for k in keys))
        assert rows == [{"id": k, "name": f"n{k}"} if k < 500 else None for k in keys]


async def test_64_write_handles_of_one_batch_wake_the_loop_once(conn, admin, database):
    table = await new_table(conn, admin, database, "completion_handles", SCHEMA, bucket_count=1)
    writer = await table.new_append_writer()
    handles = [writer.append({"id": i, "name": f"n{i}"}) for i in range(64)]
    tasks = [asyncio.create_task(h.wait()) for h in handles]
    await asyncio.sleep(0)  # each task has started its wait: 64 completions bound to the inbox
    inbox = _async._inbox(asyncio.get_running_loop()).native
    wakes = inbox.wakes
    # Block the loop (as a busy loop would) until the I/O thread has posted all 64: the
    # acknowledgement of the one batch completes them together.
    deadline = time.monotonic() + 60
    while inbox.pending < 64 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert inbox.pending == 64
    assert await asyncio.gather(*tasks) == [None] * 64
    assert inbox.wakes == wakes + 1  # one GIL acquisition and loop wake-up for the batch
    read = await read_all(table, 1)
    assert read.sort_by("id").to_pylist() == [{"id": i, "name": f"n{i}"} for i in range(64)]
