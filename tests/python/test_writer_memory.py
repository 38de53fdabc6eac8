"""Writer memory is bounded by client.writer.buffer.memory-size. On a thread without a running
event loop a full buffer makes append wait (without the GIL) and fail after
client.writer.buffer.wait-timeout. On an event-loop thread append never waits: it raises a
retriable error at once and ``await writer.wait_for_capacity()`` waits without blocking the
loop. Nothing queued is lost, nothing is written twice."""

import asyncio
import time

import pyarrow as pa
import pytest

import fluss
from conftest import Ticker, read_all

SCHEMA = fluss.Schema(pa.schema([("id", pa.int64()), ("s", pa.string())]))


async def _writer(bootstrap_servers, admin, database, name, **props):
    path = fluss.TablePath(database, name)
    await admin.create_table(path, fluss.TableDescriptor(SCHEMA, bucket_count=1))
    conn = await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": bootstrap_servers, **props}))
    table = await conn.get_table(path)
    return conn, table, await table.new_append_writer()


def _fill_on_loop(writer, start, value):
    """Appends rows id start, start+1, ... until append raises; returns (ids appended, error)."""
    ids = []
    for i in range(start, start + 100_000):
        try:
            writer.append({"id": i, "s": value})
        except fluss.FlussError as e:
            return ids, e
        ids.append(i)
    raise AssertionError("the buffer never filled")


def _assert_buffer_full_error(e):
    assert e.is_retriable()
    assert isinstance(e, TimeoutError) and e.error_code == 25
    assert "client.writer.buffer.memory-size" in e.message and "await writer.wait_for_capacity()" in e.message


async def test_full_buffer_waits_then_fails_and_keeps_queued_rows(bootstrap_servers, admin, database):
    """Plain synchronous code (here: a worker thread, no event loop) waits for memory."""
    # 2 KiB of buffer, batches that only close after an hour: the buffer fills and stays full.
    conn, table, writer = await _writer(bootstrap_servers, admin, database, "memory",
                                        **{"client.writer.buffer.memory-size": "2kb",
                                           "client.writer.batch-timeout": "1 h",
                                           "client.writer.buffer.wait-timeout": "400 ms"})

    def fill():
        written = 0
        while True:
            t0 = time.monotonic()
            try:
                writer.append({"id": written, "s": "x" * 100})
            except fluss.FlussError as e:
                return written, e, time.monotonic() - t0
            written += 1

    written, err, waited = await asyncio.to_thread(fill)
    assert 10 <= written < 30  # ~2 KiB of ~110-byte rows
    assert isinstance(err, TimeoutError)
    assert err.error_code == 25 and err.is_retriable()
    assert "client.writer.buffer.memory-size" in err.message and "client.writer.buffer.wait-timeout" in err.message
    assert waited >= 0.35  # it waited for the wait-timeout (400 ms) before failing

    await writer.flush()  # the queued rows go out; the buffer empties
    writer.append({"id": 10_000, "s": "after"})
    await writer.flush()
    rows = (await read_all(table, 1)).column("id").to_pylist()
    assert sorted(rows) == list(range(written)) + [10_000]
    conn.close()


async def test_waiting_append_releases_the_gil_until_memory_is_freed(bootstrap_servers, admin, database):
    """A worker thread's append waits for memory with the GIL released: the event loop keeps
    running Python code, and the flush it runs frees the memory the append waits for (with the
    GIL held, the flush could not run before the 60 s wait-timeout and the append would fail)."""
    conn, table, writer = await _writer(bootstrap_servers, admin, database, "gil",
                                        **{"client.writer.buffer.memory-size": "2kb",
                                           "client.writer.batch-timeout": "1 h",
                                           "client.writer.buffer.wait-timeout": "60 s"})
    ids, err = _fill_on_loop(writer, 0, "x" * 100)  # on the loop thread: raises at once when full
    _assert_buffer_full_error(err)
    blocked = asyncio.ensure_future(asyncio.to_thread(writer.append, {"id": 10_000, "s": "waited"}))
    for _ in range(5):
        await asyncio.sleep(0.02)
    assert not blocked.done()  # nothing drains: batches close only on flush
    await writer.flush()
    handle = await blocked  # the append went through once the flush freed the buffer
    await writer.flush()
    await handle.wait()
    rows = (await read_all(table, 1)).column("id").to_pylist()
    assert sorted(rows) == ids + [10_000]
    conn.close()


async def test_append_on_the_event_loop_raises_at_once_and_wait_for_capacity_awaits(bootstrap_servers, admin,
                                                                                      database):
    # 64 KiB of buffer, batches that only close on flush: once full, the buffer stays full until
    # flush() (nothing else drains it). A long wait-timeout: a waiting append would block the
    # loop for 30 s, then fail without naming wait_for_capacity.
    conn, table, writer = await _writer(bootstrap_servers, admin, database, "loop",
                                        **{"client.writer.buffer.memory-size": "64kb",
                                           "client.writer.batch-timeout": "1 h",
                                           "client.writer.buffer.wait-timeout": "30 s"})
    ticker = Ticker()
    await asyncio.sleep(0)  # the ticker is asleep on its 10 ms timer from here on
    value = "v" * 1000
    appended, err = _fill_on_loop(writer, 0, value)
    assert 32 <= len(appended) <= 80, len(appended)  # ~64 KiB of ~1 KiB rows
    _assert_buffer_full_error(err)
    assert f"{database}.loop" in err.message
    with pytest.raises(fluss.FlussError) as e:  # still full; the rejected row was not queued
        writer.append({"id": -1, "s": value})
    _assert_buffer_full_error(e.value)

    # A bounded wait times out retriably; the loop ran meanwhile (the ticker's 10 ms timer is
    # due before the 50 ms deadline, so it fires first).
    before = ticker.ticks
    with pytest.raises(fluss.FlussError) as e:
        await writer.wait_for_capacity(timeout_ms=50)
    assert isinstance(e.value, fluss.FlussTimeoutError) and e.value.error_code == 25 and e.value.is_retriable()
    assert "client.writer.buffer.memory-size" in e.value.message
    assert ticker.ticks > before
    with pytest.raises(fluss.FlussError) as e:
        await writer.wait_for_capacity(timeout_ms=-1)
    assert e.value.error_code == -2 and "timeout_ms" in e.value.message

    # An unbounded wait (client.writer.buffer.wait-timeout) returns once flush() frees memory.
    waiter = asyncio.ensure_future(writer.wait_for_capacity())
    for _ in range(5):
        await asyncio.sleep(0.01)
    assert not waiter.done()
    await writer.flush()
    await waiter
    await writer.wait_for_capacity(timeout_ms=0)  # room now: returns at once
    more, err = _fill_on_loop(writer, 1000, value)  # appends continue until the next full buffer
    assert len(more) == len(appended)
    _assert_buffer_full_error(err)
    await writer.flush()
    await ticker.stop()

    got = (await read_all(table, 1)).to_pylist()
    assert sorted(r["id"] for r in got) == appended + more  # each appended row once, no rejected row
    assert all(r["s"] == value for r in got)
    conn.close()


async def test_producer_loop_with_wait_for_capacity_writes_every_row_once(bootstrap_servers, admin, database):
    """The documented pattern: append; on the retriable buffer-full error, await
    wait_for_capacity() and append the same row again. Batches close at 16 KiB and are sent,
    so the buffer drains as the server acknowledges them; 8 MB through 64 KiB fills it again
    and again."""
    conn, table, writer = await _writer(bootstrap_servers, admin, database, "producer",
                                        **{"client.writer.buffer.memory-size": "64kb",
                                           "writer.batch.size": "16kb"})
    n = 2000
    retries = 0
    for i in range(n):
        while True:
            try:
                writer.append({"id": i, "s": f"{i:08d}" + "p" * 4000})
                break
            except fluss.FlussError as e:
                _assert_buffer_full_error(e)
                retries += 1
                await writer.wait_for_capacity()
    await writer.flush()
    assert retries > 0  # the buffer did fill
    got = (await read_all(table, 1)).to_pylist()
    assert len(got) == n
    assert sorted(r["id"] for r in got) == list(range(n))
    assert all(r["s"] == f"{r['id']:08d}" + "p" * 4000 for r in got)
    conn.close()


async def test_threads_waiting_for_memory_on_one_writer_write_their_own_rows(bootstrap_servers, admin, database):
    """Appends of several threads to one writer wait for memory with the GIL released; each
    writes its own row when it resumes (the writer's value buffers are shared, so a waiting
    append converts its row again after the wait)."""
    conn, table, writer = await _writer(bootstrap_servers, admin, database, "threads",
                                        **{"client.writer.buffer.memory-size": "16kb",
                                           "writer.batch.size": "4kb"})

    def produce(t):
        for i in range(300):
            writer.append({"id": t * 1000 + i, "s": f"{t}-{i}-" + "t" * 500})

    await asyncio.gather(*(asyncio.to_thread(produce, t) for t in range(4)))
    await writer.flush()
    got = (await read_all(table, 1)).to_pylist()
    assert sorted(r["id"] for r in got) == [t * 1000 + i for t in range(4) for i in range(300)]
    assert all(r["s"] == f"{r['id'] // 1000}-{r['id'] % 1000}-" + "t" * 500 for r in got)
    conn.close()
