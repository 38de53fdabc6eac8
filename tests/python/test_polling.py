"""Record and batch scanners: poll semantics, offsets, async twins, exactly-once delivery."""

import asyncio
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import pyarrow as pa
import pytest

import fluss
from conftest import read_all, run_with_ticker

SCHEMA = pa.schema([("id", pa.int64()), ("name", pa.string())])


async def _table(conn, admin, database, name, buckets=1):
    path = fluss.TablePath(database, name)
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(SCHEMA), bucket_count=buckets))
    return path, await conn.get_table(path)


async def test_record_scanner_poll_returns_records_with_metadata(conn, admin, database):
    path, table = await _table(conn, admin, database, "records")
    writer = await table.new_append_writer()
    t_before = int(time.time() * 1000)
    for i in range(3):
        writer.append({"id": i, "name": f"n{i}"})
    await writer.flush()
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe_buckets({0: fluss.EARLIEST_OFFSET})
    records = []
    deadline = time.monotonic() + 10
    while len(records) < 3 and time.monotonic() < deadline:
        records += scanner.poll(timeout_ms=5000)
    assert [r.offset for r in records] == [0, 1, 2]
    assert [r.row for r in records] == [{"id": i, "name": f"n{i}"} for i in range(3)]
    assert all(r.change_type == fluss.ChangeType.AppendOnly for r in records)
    assert all(r.change_type.short_string() == "+A" for r in records)
    assert all(r.bucket.bucket_id == 0 and r.bucket.table_id == table.get_table_info().table_id for r in records)
    assert all(t_before - 5000 <= r.timestamp <= int(time.time() * 1000) + 5000 for r in records)
    # Nothing more: an empty list after the timeout.
    t0 = time.monotonic()
    assert scanner.poll(timeout_ms=300) == []
    assert 0.25 <= time.monotonic() - t0 < 3
    with pytest.raises(fluss.FlussError):
        scanner.poll_arrow(timeout_ms=10)  # record scanner: poll only
    with pytest.raises(fluss.FlussError):
        scanner.poll(timeout_ms=-1)


async def test_poll_returns_as_soon_as_data_arrives(conn, admin, database):
    path, table = await _table(conn, admin, database, "prompt")
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)
    writer = await table.new_append_writer()

    async def write_later():
        await asyncio.sleep(0.5)
        writer.append({"id": 42, "name": "late"})
        await writer.flush()

    task = asyncio.ensure_future(write_later())
    t0 = time.monotonic()
    records = await scanner.poll_async(timeout_ms=20_000)
    elapsed = time.monotonic() - t0
    await task
    assert [r.row for r in records] == [{"id": 42, "name": "late"}]
    assert 0.4 <= elapsed < 5, elapsed


async def test_batch_scanner_poll_batches_and_poll_arrow(conn, admin, database):
    path, table = await _table(conn, admin, database, "batches", buckets=2)
    writer = await table.new_append_writer()
    writer.write_arrow_batch(pa.record_batch([pa.array([1, 2, 3], pa.int64()), pa.array(["a", "b", "c"])], schema=SCHEMA))
    await writer.flush()
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_buckets({0: fluss.EARLIEST_OFFSET, 1: fluss.EARLIEST_OFFSET})
    items = []
    deadline = time.monotonic() + 10
    while sum(i.batch.num_rows for i in items) < 3 and time.monotonic() < deadline:
        items += scanner.poll_batches(timeout_ms=2000)
    assert len(items) == 1  # one Arrow write = one batch in one bucket
    item = items[0]
    assert item.base_offset == 0 and item.last_offset == 2
    assert item.batch.to_pylist() == [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}]
    assert item.bucket.bucket_id in (0, 1)
    empty = scanner.poll_arrow(timeout_ms=200)
    assert empty.num_rows == 0 and empty.schema == SCHEMA
    writer.append({"id": 4, "name": "d"})
    await writer.flush()
    got = await scanner.poll_arrow_async(timeout_ms=10_000)
    assert got.to_pylist() == [{"id": 4, "name": "d"}]
    with pytest.raises(fluss.FlussError):
        scanner.poll(timeout_ms=10)  # batch scanner: no record poll


async def test_latest_offset_reads_only_new_records(conn, admin, database):
    path, table = await _table(conn, admin, database, "latest")
    writer = await table.new_append_writer()
    for i in range(5):
        writer.append({"id": i, "name": "old"})
    await writer.flush()
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe(bucket_id=0, start_offset=fluss.LATEST_OFFSET)
    assert scanner.poll(timeout_ms=500) == []  # resolves LATEST to offset 5
    writer.append({"id": 100, "name": "new"})
    await writer.flush()
    records = await scanner.poll_async(timeout_ms=10_000)
    assert [(r.offset, r.row["id"]) for r in records] == [(5, 100)]


async def test_start_offset_past_the_end_returns_empty_at_once(conn, admin, database):
    path, table = await _table(conn, admin, database, "past_end")
    writer = await table.new_append_writer()
    writer.append({"id": 1, "name": "x"})
    await writer.flush()
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe(bucket_id=0, start_offset=1)
    t0 = time.monotonic()
    assert scanner.to_arrow().num_rows == 0
    assert time.monotonic() - t0 < 2


async def test_concurrent_writer_every_record_once_in_order(conn, admin, database):
    path, table = await _table(conn, admin, database, "concurrent", buckets=3)
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
    writer = await table.new_append_writer()
    total = 3000

    async def produce():
        for i in range(total):
            writer.append({"id": i, "name": "c"})
            if i % 100 == 99:
                await writer.flush()
        await writer.flush()

    task = asyncio.ensure_future(produce())
    seen = []
    deadline = time.monotonic() + 60
    while len(seen) < total and time.monotonic() < deadline:
        seen += await scanner.poll_async(timeout_ms=1000)
    await task
    assert len(seen) == total
    assert sorted(r.row["id"] for r in seen) == list(range(total))
    for b in range(3):
        offsets = [r.offset for r in seen if r.bucket.bucket_id == b]
        assert offsets == list(range(len(offsets)))  # in order, no gaps, no repeats
    assert await scanner.poll_async(timeout_ms=200) == []


async def test_unsubscribe_and_resubscribe(conn, admin, database):
    path, table = await _table(conn, admin, database, "unsub", buckets=2)
    writer = await table.new_append_writer()
    writer.write_arrow_batch(pa.record_batch([pa.array([1], pa.int64()), pa.array(["x"])], schema=SCHEMA))
    writer.write_arrow_batch(pa.record_batch([pa.array([2], pa.int64()), pa.array(["y"])], schema=SCHEMA))
    await writer.flush()
    offsets = await admin.list_offsets(path, bucket_ids=[0, 1], offset_type="latest")
    assert offsets == {0: 1, 1: 1}  # the sticky assigner moved on after each batch
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_buckets({0: fluss.EARLIEST_OFFSET, 1: fluss.EARLIEST_OFFSET})
    scanner.unsubscribe(1)
    assert scanner.to_arrow().num_rows == 1
    scanner.subscribe(bucket_id=1, start_offset=0)
    scanner.subscribe(bucket_id=0, start_offset=0)
    assert sorted(scanner.to_arrow().column("id").to_pylist()) == [1, 2]


async def test_async_twins_keep_the_event_loop_ticking(conn, admin, database):
    path, table = await _table(conn, admin, database, "ticks")
    writer = await table.new_append_writer()
    for i in range(50):
        writer.append({"id": i, "name": "t"})
    await writer.flush()
    record_scanner = await table.new_scan().create_log_scanner()
    batch_scanner = await table.new_scan().create_batch_scanner()
    for s in (record_scanner, batch_scanner):
        s.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)

    for name, fn in [
        ("poll_async", lambda: record_scanner.poll_async(timeout_ms=600)),          # waits (no new data)
        ("poll_arrow_async", lambda: batch_scanner.poll_arrow_async(timeout_ms=600)),
        ("poll_batches_async", lambda: batch_scanner.poll_batches_async(timeout_ms=600)),
        ("to_arrow_async", lambda: batch_scanner.to_arrow_async()),
        ("to_pandas_async", lambda: batch_scanner.to_pandas_async()),
    ]:
        result, ticks, elapsed = await run_with_ticker(fn)
        assert ticks >= 0.5 * elapsed / 0.012 - 1, (name, ticks, elapsed)
    # The first poll_async consumed the 50 records of the record scanner, the batch scanner's
    # first poll took them for it.


async def test_async_for_streams_records_and_batches(conn, admin, database):
    path, table = await _table(conn, admin, database, "aiter")
    writer = await table.new_append_writer()
    for i in range(10):
        writer.append({"id": i, "name": "a"})
    await writer.flush()
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)
    got = []
    async for record in scanner:
        got.append((record.offset, record.row["id"]))
        if len(got) == 10:
            break
    assert got == [(i, i) for i in range(10)]
    bscanner = await table.new_scan().create_batch_scanner()
    bscanner.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)
    rows = 0
    async for item in bscanner:
        assert isinstance(item.batch, pa.RecordBatch)
        rows += item.batch.num_rows
        if rows >= 10:
            break
    assert rows == 10


async def test_cancelled_poll_loses_nothing(conn, admin, database):
    path, table = await _table(conn, admin, database, "cancel")
    writer = await table.new_append_writer()
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)
    got = []
    for round_ in range(5):
        task = asyncio.ensure_future(scanner.poll_async(timeout_ms=5000))
        writer.append({"id": round_, "name": "c"})
        await writer.flush()
        await asyncio.sleep(0.05 * round_)
        task.cancel()
        try:
            got += await task  # finished before the cancel reached it
        except asyncio.CancelledError:
            pass  # whatever it fetched goes back to the scanner
    await asyncio.sleep(0.6)
    deadline = time.monotonic() + 10
    while len(got) < 5 and time.monotonic() < deadline:
        got += await scanner.poll_async(timeout_ms=1000)
    assert [r.row["id"] for r in got] == [0, 1, 2, 3, 4]


def _ctrl_c_script(bootstrap_servers, database, inside_asyncio: bool) -> str:
    # The child gets Python's own SIGINT handler whatever it inherits: a runner started as a
    # background job of a non-interactive shell passes SIGINT on ignored (SIG_IGN), and Python
    # then keeps ignoring it, so Ctrl-C would never reach the poll.
    return textwrap.dedent(f"""
        import asyncio, signal, pyarrow as pa, fluss
        signal.signal(signal.SIGINT, signal.default_int_handler)
        async def setup():
            conn = await fluss.FlussConnection.connect(fluss.Config({{"bootstrap.servers": "{bootstrap_servers}"}}))
            admin = await conn.get_admin()
            path = fluss.TablePath("{database}", "ctrl_c_{int(inside_asyncio)}")
            await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(pa.schema([("a", pa.int32())]))),
                                     ignore_if_exists=True)
            scanner = await (await conn.get_table(path)).new_scan().create_log_scanner()
            scanner.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)
            return conn, scanner
        if {inside_asyncio}:
            async def main():
                conn, scanner = await setup()
                print("polling", flush=True)
                scanner.poll(timeout_ms=60_000)   # Ctrl-C: asyncio.run cancels main -> KeyboardInterrupt
            asyncio.run(main())
        else:
            conn, scanner = asyncio.run(setup())
            print("polling", flush=True)
            try:
                scanner.poll(timeout_ms=60_000)
            except KeyboardInterrupt:
                print("interrupted", flush=True)
            conn.close()
    """)


@pytest.mark.parametrize("inside_asyncio", [False, True], ids=["plain", "asyncio_run"])
def test_blocking_poll_answers_ctrl_c_within_a_second(bootstrap_servers, database, inside_asyncio):
    script = _ctrl_c_script(bootstrap_servers, database, inside_asyncio)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "polling"
    time.sleep(0.5)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    if inside_asyncio:
        out, err = proc.communicate(timeout=30)
        reaction = time.monotonic() - t0
        assert proc.returncode != 0 and "KeyboardInterrupt" in err, err
    else:
        line = proc.stdout.readline().strip()
        reaction = time.monotonic() - t0
        out, err = proc.communicate(timeout=30)
        assert line == "interrupted", err
        assert proc.returncode == 0, err
    assert reaction < 1.0, reaction


async def test_record_poll_returns_at_most_max_poll_records(bootstrap_servers, admin, database):
    path = fluss.TablePath(database, "max_poll")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(SCHEMA)))
    for limit, sizes in ((None, [500, 500, 200]), (300, [300, 300, 300, 300])):
        props = {"bootstrap.servers": bootstrap_servers}
        if limit:
            props["client.scanner.log.max-poll-records"] = limit
        conn = await fluss.FlussConnection.connect(fluss.Config(props))
        table = await conn.get_table(path)
        if limit is None:
            writer = await table.new_append_writer()
            ids = pa.array(range(1200), pa.int64())
            await writer.write_arrow_batch(pa.record_batch([ids, pa.array(["r"] * 1200)], schema=SCHEMA)).wait()
        scanner = await table.new_scan().create_log_scanner()
        scanner.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)
        got = []
        for _ in sizes:
            records = scanner.poll(timeout_ms=5000)
            got.append(records)
        assert [len(r) for r in got] == sizes
        assert [r.offset for batch in got for r in batch] == list(range(1200))  # in order, nothing lost
        assert scanner.poll(timeout_ms=200) == []
        # The batch scanner returns whole fetches.
        bs = await table.new_scan().create_batch_scanner()
        bs.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)
        assert bs.poll_arrow(timeout_ms=5000).num_rows == 1200
        conn.close()
