"""Issue 12, first part: the client in the Python data world, against the real cluster.

Arrow data in from any Arrow PyCapsule producer (polars, DuckDB, pa.RecordBatchReader) with
columns matched by name; results read by polars and DuckDB; the asyncio lifecycle (awaitable
close that never blocks the loop, closed objects refusing use, scanners as context managers);
clear errors for polls with nothing subscribed and to_arrow on a record scanner; readable reprs
and tracebacks that say ``fluss.FlussError: <message>``.
"""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
import traceback

import duckdb
import polars as pl
import pyarrow as pa
import pytest

import fluss

from conftest import new_table, read_all

SCHEMA = pa.schema([("id", pa.int64()), ("name", pa.string()), ("score", pa.float64())])


def _rows(table: pa.Table):
    return sorted(table.to_pylist(), key=lambda r: r["id"])


# ---- errors


def test_traceback_names_fluss_flusserror():
    try:
        raise fluss.FlussError("table db.t: column 'x' is NOT NULL", 7)
    except fluss.FlussError as e:
        last = traceback.format_exception_only(type(e), e)[-1].strip()
        assert last == "fluss.FlussError: table db.t: column 'x' is NOT NULL"
        assert str(e) == "table db.t: column 'x' is NOT NULL"
        assert repr(e) == "FlussError(\"table db.t: column 'x' is NOT NULL\", error_code=7)"
    assert fluss.FlussTimeoutError.__module__ == "fluss"
    assert fluss.ErrorCode.__module__ == "fluss"


async def test_server_error_traceback_in_a_subprocess(bootstrap_servers):
    # What a user sees when a script ends in an uncaught error from the server.
    code = (
        "import asyncio, fluss\n"
        "async def main():\n"
        f"    conn = await fluss.FlussConnection.connect(fluss.Config({{'bootstrap.servers': '{bootstrap_servers}'}}))\n"
        "    await conn.get_table(fluss.TablePath('no_such_db_xq', 'no_such_table'))\n"
        "asyncio.run(main())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("fluss.FlussError: "), last
    assert "no_such_table" in last and "FlussError: FlussError" not in last


# ---- Arrow in: any PyCapsule producer, columns by name


async def test_write_arrow_from_polars_duckdb_and_readers_matched_by_name(conn, admin, database):
    table = await new_table(conn, admin, database, "arrow_in", SCHEMA, bucket_count=2)
    writer = await table.new_append_writer()
    # polars, columns in another order than the table's
    writer.write_arrow(pl.DataFrame({"score": [1.5, 2.5], "id": [1, 2], "name": ["a", "b"]}))
    # a DuckDB relation (streamed through __arrow_c_stream__)
    writer.write_arrow(duckdb.sql("select 3::BIGINT as id, 2.0::DOUBLE as score, 'c' as name"))
    # a pa.RecordBatchReader of two batches, reordered
    batches = [pa.record_batch({"name": ["d"], "id": [4], "score": [4.0]}),
               pa.record_batch({"name": ["e"], "id": [5], "score": [5.25]})]
    writer.write_arrow(pa.RecordBatchReader.from_batches(batches[0].schema, batches))
    # write_arrow_batch with reordered columns, and a record batch exported by polars
    await writer.write_arrow_batch(pa.record_batch({"score": [6.0], "name": ["f"], "id": [6]})).wait()
    writer.write_arrow(pl.DataFrame({"id": [7], "name": ["g"], "score": [7.5]}).to_arrow().to_batches()[0])
    await writer.flush()

    got = _rows(await read_all(table, 2))
    assert got == [
        {"id": 1, "name": "a", "score": 1.5}, {"id": 2, "name": "b", "score": 2.5},
        {"id": 3, "name": "c", "score": 2.0}, {"id": 4, "name": "d", "score": 4.0},
        {"id": 5, "name": "e", "score": 5.25}, {"id": 6, "name": "f", "score": 6.0},
        {"id": 7, "name": "g", "score": 7.5},
    ]


async def test_write_arrow_refuses_unknown_missing_and_repeated_columns(conn, admin, database):
    table = await new_table(conn, admin, database, "arrow_bad", SCHEMA, bucket_count=1)
    writer = await table.new_append_writer()
    with pytest.raises(fluss.FlussError, match="column 'nope' is not a column of the table"):
        writer.write_arrow(pl.DataFrame({"id": [1], "name": ["a"], "score": [1.0], "nope": [1]}))
    with pytest.raises(fluss.FlussError, match="the data has no column 'score'"):
        writer.write_arrow_batch(pa.record_batch({"id": [1], "name": ["a"]}))
    dup = pa.RecordBatch.from_arrays([pa.array([1]), pa.array([2]), pa.array(["a"]), pa.array([1.0])],
                                     names=["id", "id", "name", "score"])
    with pytest.raises(fluss.FlussError, match="column 'id' appears 2 times"):
        writer.write_arrow_batch(dup)
    with pytest.raises(fluss.FlussError, match="column 'id' has type string"):
        writer.write_arrow(duckdb.sql("select 'x' as id, 'a' as name, 1.0::DOUBLE as score"))
    with pytest.raises(fluss.FlussError, match="expected a pyarrow.Table, RecordBatch or an Arrow stream"):
        writer.write_arrow([{"id": 1}])
    # write_pandas takes pandas only, and says what to use instead
    with pytest.raises(fluss.FlussError, match="write_pandas: expected a pandas.DataFrame, got polars"):
        writer.write_pandas(pl.DataFrame({"id": [1], "name": ["a"], "score": [1.0]}))
    # A stream whose second batch has a null in a NOT NULL column: the first stays queued.
    strict = await new_table(conn, admin, database, "arrow_strict",
                             pa.schema([pa.field("id", pa.int64(), nullable=False)]), bucket_count=1)
    w2 = await strict.new_append_writer()
    reader = pa.RecordBatchReader.from_batches(pa.schema([("id", pa.int64())]),
                                               [pa.record_batch({"id": [1, 2]}), pa.record_batch({"id": [3, None]})])
    with pytest.raises(fluss.FlussError, match=r"NOT NULL but has 1 nulls \(batch 1 of the stream; the 2 rows"):
        w2.write_arrow(reader)
    await w2.flush()
    await writer.flush()
    assert (await read_all(strict, 1)).column("id").to_pylist() == [1, 2]
    assert (await read_all(table, 1)).num_rows == 0


# ---- Arrow out: polars and DuckDB read the results


async def test_results_read_by_polars_and_duckdb(conn, admin, database):
    table = await new_table(conn, admin, database, "arrow_out", SCHEMA, bucket_count=1)
    writer = await table.new_append_writer()
    writer.write_arrow(pa.table({"id": [1, 2, 3], "name": ["a", "b", "c"], "score": [1.0, 2.0, 3.0]}))
    await writer.flush()
    result = await read_all(table, 1)
    frame = pl.from_arrow(result)
    assert frame.sort("id").to_dicts() == [{"id": 1, "name": "a", "score": 1.0}, {"id": 2, "name": "b", "score": 2.0},
                                           {"id": 3, "name": "c", "score": 3.0}]
    assert pl.DataFrame(result).shape == (3, 3)
    assert duckdb.sql("select sum(score) as s, max(name) as m from result").fetchall() == [(6.0, "c")]
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe(0, fluss.EARLIEST_OFFSET)
    polled = scanner.poll_arrow(10_000)
    assert pl.from_arrow(polled).height == 3


# ---- lifecycle


async def test_close_is_awaitable_and_never_blocks_the_loop(bootstrap_servers, database):
    conn = await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": bootstrap_servers}))
    admin = await conn.get_admin()
    table = await new_table(conn, admin, database, "close_me", SCHEMA, bucket_count=1)
    writer = await table.new_append_writer()
    for i in range(1000):
        writer.append({"id": i, "name": f"n{i}", "score": float(i)})
    assert "open" in repr(conn)
    closing = conn.close()
    # On a loop thread the closing runs on a worker thread (the loop goes on), and is awaited.
    assert closing._future is not None
    await closing
    assert "closed" in repr(conn)
    # The closing drained the writer: every row is there.
    reader = await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": bootstrap_servers}))
    try:
        got = await read_all(await reader.get_table(fluss.TablePath(database, "close_me")), 1)
        assert sorted(got.column("id").to_pylist()) == list(range(1000))
    finally:
        await reader.close()
    # Closed: every use says so, naming the call (flush used to return silently).
    with pytest.raises(fluss.FlussError, match="flush: table .*close_me: the connection is closed"):
        await writer.flush()
    with pytest.raises(fluss.FlussError, match="the connection is closed"):
        writer.append({"id": 1, "name": "x", "score": 1.0})
    with pytest.raises(fluss.FlussError, match="write_arrow: table .*: the connection is closed"):
        writer.write_arrow(pa.table({"id": [1], "name": ["x"], "score": [1.0]}))
    with pytest.raises(fluss.FlussError, match="the connection is closed"):
        await conn.get_table(fluss.TablePath(database, "close_me"))
    await conn.close()  # idempotent, and awaitable again


async def test_plain_close_inside_a_running_loop_still_closes(bootstrap_servers, database):
    conn = await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": bootstrap_servers}))
    admin = await conn.get_admin()
    table = await new_table(conn, admin, database, "plain_close", SCHEMA, bucket_count=1)
    writer = await table.new_append_writer()
    writer.append({"id": 1, "name": "a", "score": 1.0})
    conn.close()  # the seed's spelling: not awaited
    with pytest.raises(fluss.FlussError, match="the connection is closed"):
        await writer.flush()
    async with await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": bootstrap_servers})) as other:
        got = await read_all(await other.get_table(fluss.TablePath(database, "plain_close")), 1)
        assert got.column("id").to_pylist() == [1]


async def test_scanner_errors_and_context_manager(conn, admin, database):
    table = await new_table(conn, admin, database, "scan_life", SCHEMA, bucket_count=2)
    writer = await table.new_append_writer()
    writer.write_arrow(pa.table({"id": [1, 2], "name": ["a", "b"], "score": [1.0, 2.0]}))
    await writer.flush()

    records = await table.new_scan().create_log_scanner()
    with pytest.raises(fluss.FlussError, match=r"poll\(\): the scanner has no subscription"):
        records.poll(100)
    with pytest.raises(fluss.FlussError, match=r"poll_async\(\): the scanner has no subscription"):
        await records.poll_async(100)
    with pytest.raises(fluss.FlussError, match=r"async for\(\): the scanner has no subscription"):
        async for _ in records:
            pass
    records.subscribe(0, fluss.EARLIEST_OFFSET)
    with pytest.raises(fluss.FlussError, match=r"to_arrow\(\) needs a scanner made by create_batch_scanner\(\)"):
        records.to_arrow()
    with pytest.raises(fluss.FlussError, match=r"to_arrow_async\(\) needs a scanner made by create_batch_scanner"):
        await records.to_arrow_async()
    records.unsubscribe(0)
    with pytest.raises(fluss.FlussError, match="no subscription"):
        records.poll(100)

    async with await table.new_scan().create_batch_scanner() as batches:
        with pytest.raises(fluss.FlussError, match=r"poll_arrow\(\): the scanner has no subscription"):
            batches.poll_arrow(100)
        batches.subscribe_buckets({0: fluss.EARLIEST_OFFSET, 1: fluss.EARLIEST_OFFSET})
        assert "2 bucket(s) subscribed" in repr(batches) and "scan_life" in repr(batches)
        assert sorted(batches.to_arrow().column("id").to_pylist()) == [1, 2]
    assert "closed" in repr(batches)
    with pytest.raises(fluss.FlussError, match="poll_arrow: the scanner is closed"):
        batches.poll_arrow(100)
    with pytest.raises(fluss.FlussError, match="subscribe: the scanner is closed"):
        batches.subscribe(0, 0)


async def test_reprs(conn, admin, database):
    table = await new_table(conn, admin, database, "reprs", SCHEMA, bucket_count=3)
    assert repr(table) == (f"<fluss.FlussTable {database}.reprs (log table, 3 buckets), "
                           f"columns=['id', 'name', 'score']>")
    writer = await table.new_append_writer()
    assert repr(writer) == f"<fluss.AppendWriter of {database}.reprs, columns=['id', 'name', 'score']>"
    scanner = await table.new_scan().create_log_scanner()
    assert repr(scanner) == (f"<fluss.LogScanner record scanner of {database}.reprs, "
                             f"columns=['id', 'name', 'score'], 0 bucket(s) subscribed>")
    assert repr(conn).startswith("<fluss.FlussConnection to ") and repr(conn).endswith("(open)>")


# ---- Arrow out as a stream: to_arrow_batch_reader and the scanner's __arrow_c_stream__


async def test_batch_reader_streams_the_bounded_read_in_parts(conn, admin, database):
    table = await new_table(conn, admin, database, "reader_parts", SCHEMA, bucket_count=3)
    writer = await table.new_append_writer()
    n = 30_000
    for s in range(0, n, 1000):
        writer.write_arrow(pa.table({"id": list(range(s, s + 1000)), "name": [f"n{i}" for i in range(s, s + 1000)],
                                     "score": [i / 4 for i in range(s, s + 1000)]}))
    await writer.flush()
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
    reader = scanner.to_arrow_batch_reader(max_bytes=64 * 1024)
    assert isinstance(reader, pa.RecordBatchReader) and reader.schema == SCHEMA
    first = reader.read_next_batch()
    # Rows written once the read began are not part of it: they stay for the next read.
    writer.write_arrow(pa.table({"id": [n], "name": [f"n{n}"], "score": [n / 4]}))
    await writer.flush()
    rest = reader.read_all()
    got = pa.Table.from_batches([first]).to_pylist() + rest.to_pylist()
    assert sorted(r["id"] for r in got) == list(range(n))
    assert all(r["name"] == f"n{r['id']}" and r["score"] == r["id"] / 4 for r in got)
    assert rest.num_rows < n  # it came in more than one part
    assert scanner.to_arrow().column("id").to_pylist() == [n]

    # The scanner itself is an Arrow stream of its bounded read: polars, DuckDB, pyarrow.
    def fresh_scanner():
        async def make():
            s = await table.new_scan().project_by_name(["id", "score"]).create_batch_scanner()
            s.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
            return s
        return make()

    # (polars.from_arrow makes a struct Series of a generic stream; pl.DataFrame reads it as a
    # frame, and from_arrow takes the RecordBatchReader)
    frame = pl.DataFrame(await fresh_scanner())
    assert frame.height == n + 1 and frame["id"].sum() == sum(range(n + 1))
    frame = pl.from_arrow((await fresh_scanner()).to_arrow_batch_reader())
    assert frame.columns == ["id", "score"] and frame.height == n + 1
    assert pa.table(await fresh_scanner()).num_rows == n + 1
    scanner_reader = await fresh_scanner()
    assert duckdb.sql("select count(*), sum(id) from scanner_reader").fetchall() == [(n + 1, sum(range(n + 1)))]
    # poll_batches items are Arrow arrays too.
    polled = await fresh_scanner()
    items = polled.poll_batches(10_000)
    assert items and pl.from_arrow(pa.record_batch(items[0])).height == items[0].batch.num_rows
    # Refused: record scanners, bad budgets.
    records = await table.new_scan().create_log_scanner()
    with pytest.raises(fluss.FlussError, match="needs a scanner made by create_batch_scanner"):
        records.to_arrow_batch_reader()
    with pytest.raises(fluss.FlussError, match="max_bytes must be an int >= 1"):
        scanner.to_arrow_batch_reader(max_bytes=0)


_RSS_READER = """
import asyncio, sys, fluss, pyarrow.compute as pc
def peak_mib():
    # VmHWM, not getrusage's ru_maxrss: that one is kept across exec, so it would start at the
    # test process's own peak.
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024
async def main():
    conn = await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": sys.argv[1]}))
    table = await conn.get_table(fluss.TablePath(sys.argv[2], sys.argv[3]))
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(3)})
    rows = total = 0
    peaks = []  # (rows read, peak RSS MiB) whenever the peak grew: shown when the bound is missed
    for batch in scanner.to_arrow_batch_reader():
        rows += batch.num_rows
        total += pc.sum(batch.column("id")).as_py()
        peak = peak_mib()
        if not peaks or peak > peaks[-1][1]:
            peaks.append((rows, peak))
    await conn.close()
    print(rows, total, peak_mib())
    print(peaks, file=sys.stderr)
asyncio.run(main())
"""


async def test_batch_reader_memory_stays_bounded_over_10m_rows(bootstrap_servers, conn, admin, database):
    import numpy as np
    table = await new_table(conn, admin, database, "reader_10m",
                            pa.schema([("id", pa.int64()), ("v", pa.float64()), ("s", pa.string())]), bucket_count=3)
    writer = await table.new_append_writer()
    n, chunk = 10_000_000, 250_000
    names = pa.array([f"row-{i:06d}" for i in range(chunk)])
    for s in range(0, n, chunk):
        ids = np.arange(s, s + chunk, dtype=np.int64)
        writer.write_arrow(pa.table({"id": ids, "v": ids * 0.5, "s": names}))
        await writer.flush()  # bounded memory here too
    out = subprocess.run([sys.executable, "-c", _RSS_READER, bootstrap_servers, database, "reader_10m"],
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    rows, total, peak_mib = (int(x) for x in out.stdout.split())
    assert rows == n and total == n * (n - 1) // 2
    # The data is ~270 MiB of Arrow buffers; the reader holds one part at a time.
    assert peak_mib < 256, f"peak RSS {peak_mib} MiB; (rows read, peak) as it grew: {out.stderr[-2000:]}"


# ---- logging


async def _records_matching(caplog, text: str, bound_s: float = 30.0):
    """The "fluss" records whose message contains ``text``, waiting (at most ``bound_s``) for the
    logging thread to hand them over."""
    def found():
        return [r for r in caplog.records if r.name == "fluss" and text in r.getMessage()]
    await _until(lambda: bool(found()), bound_s)
    return found()


async def test_core_log_lines_reach_the_fluss_logger(bootstrap_servers, caplog):
    caplog.set_level(logging.DEBUG, logger="fluss")
    conn = await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": bootstrap_servers}))
    await conn.close()
    connected = await _records_matching(caplog, f"connected to {bootstrap_servers}")
    assert connected and connected[0].levelno == logging.INFO and connected[0].threadName == "fluss-log"
    refreshed = await _records_matching(caplog, "metadata refreshed:")
    assert refreshed and refreshed[0].levelno == logging.DEBUG
    closed = await _records_matching(caplog, f"connection to {bootstrap_servers} closed")
    assert closed and closed[0].levelno == logging.DEBUG


def test_nothing_is_printed_by_default(bootstrap_servers):
    code = (
        "import asyncio, fluss\n"
        "async def main():\n"
        f"    conn = await fluss.FlussConnection.connect(fluss.Config({{'bootstrap.servers': '{bootstrap_servers}'}}))\n"
        "    await conn.close()\n"
        "asyncio.run(main())\n"
        "print('done')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout == "done\n" and out.stderr == ""
    # The same with logging configured: the core's lines are there.
    out = subprocess.run([sys.executable, "-c", "import logging; logging.basicConfig(level=logging.INFO)\n" + code],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and f"INFO:fluss:connected to {bootstrap_servers}" in out.stderr, out.stderr


# ---- metrics


async def test_metrics_count_what_was_sent_and_fetched(bootstrap_servers, database):
    conn = await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": bootstrap_servers,
                                                             "client.writer.buffer.memory-size": "32mb"}))
    admin = await conn.get_admin()
    table = await new_table(conn, admin, database, "metered", SCHEMA, bucket_count=1)
    start = conn.metrics()
    assert start["records_sent"] == 0 and start["records_fetched"] == 0 and start["requests"] > 0
    assert start["buffer_limit_bytes"] == 32 * 1024 * 1024
    writer = await table.new_append_writer()
    writer.write_arrow(pa.table({"id": list(range(500)), "name": ["x"] * 500, "score": [1.0] * 500}))
    for i in range(500, 700):
        writer.append({"id": i, "name": "y", "score": 2.0})
    await writer.flush()
    sent = conn.metrics()
    assert sent["records_sent"] == 700
    # (bytes as on the wire: the table's default ZSTD compresses these rows well)
    assert sent["batches_sent"] >= 2 and sent["bytes_sent"] > 0
    assert sent["batches_in_flight"] == 0 and sent["buffer_used_bytes"] == 0
    assert sent["write_retries"] == 0
    assert sent["requests"] > start["requests"] and 0 < sent["request_latency_avg_us"] <= sent["request_latency_max_us"]
    got = await read_all(table, 1)
    assert got.num_rows == 700
    fetched = conn.metrics()
    # The server stores the batches as sent: the same bytes come back.
    assert fetched["records_fetched"] == 700 and fetched["bytes_fetched"] == sent["bytes_sent"]
    await conn.close()
    assert conn.metrics()["records_sent"] == 700  # readable after close


# ---- delivery callbacks


async def _until(predicate, bound_s: float = 60.0):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + bound_s
    while not predicate() and loop.time() < deadline:
        await asyncio.sleep(0.01)


async def test_on_delivery_reports_each_batch_once(conn, admin, database):
    table = await new_table(conn, admin, database, "delivered", SCHEMA, bucket_count=2)
    reports = []
    writer = await table.new_append_writer(on_delivery=lambda error, rows: reports.append((error, rows)))
    for i in range(1000):
        writer.append({"id": i, "name": "a", "score": 1.0})
    writer.write_arrow_batch(pa.record_batch({"id": [1000, 1001], "name": ["b", "c"], "score": [2.0, 3.0]}))
    await writer.flush()
    await _until(lambda: sum(r for _, r in reports) >= 1002)
    assert [e for e, _ in reports] == [None] * len(reports)
    assert sum(r for _, r in reports) == 1002 and (None, 2) in reports
    assert (await read_all(table, 2)).num_rows == 1002

    # A failed batch: rows of a partition that does not exist (PARTITION_NOT_EXISTS, 36).
    path = fluss.TablePath(database, "delivered_parts")
    await admin.create_table(path, fluss.TableDescriptor(
        fluss.Schema(pa.schema([("id", pa.int64()), ("region", pa.string())])), partition_keys=["region"], bucket_count=1))
    await admin.create_partition(path, {"region": "US"})
    parts = await conn.get_table(path)
    outcomes = []

    def record(error, rows):
        outcomes.append((None if error is None else error.error_code, rows))
        raise RuntimeError("a callback that raises is logged, nothing more")

    pw = await parts.new_append_writer(on_delivery=record)
    for i in range(3):
        pw.append({"id": i, "region": "US"})
    for i in range(5):
        pw.append({"id": i, "region": "EU"})
    with pytest.raises(fluss.FlussError):
        await pw.flush()
    await _until(lambda: sum(r for _, r in outcomes) >= 8)
    assert sorted(outcomes, key=str) == sorted([(None, 3), (36, 5)], key=str)

    # Upsert writers too; bad callbacks are refused at once.
    pk = await new_table(conn, admin, database, "delivered_pk", SCHEMA, primary_keys=["id"], bucket_count=1)
    upserts = []
    uw = pk.new_upsert(on_delivery=lambda error, rows: upserts.append((error, rows)))
    uw.upsert({"id": 1, "name": "a", "score": 1.0})
    uw.delete({"id": 1})
    await uw.flush()
    await _until(lambda: sum(r for _, r in upserts) >= 2)
    assert upserts == [(None, 2)]  # one batch: one call
    more = []
    uw2 = pk.new_upsert(on_delivery=lambda error, rows: more.append((error, rows)))
    for i in range(300):
        uw2.upsert({"id": i, "name": "b", "score": 2.0})
    await uw2.flush()
    await _until(lambda: sum(r for _, r in more) >= 300)
    assert more == [(None, 300)]
    with pytest.raises(fluss.FlussError, match="on_delivery must be a callable"):
        await table.new_append_writer(on_delivery=42)


def test_on_delivery_needs_a_loop():
    with pytest.raises(fluss.FlussError, match="on_delivery needs a running asyncio event loop"):
        from fluss._delivery import Delivery
        Delivery.make(lambda e, r: None, "new_upsert")


# ---- the later pyfluss names


async def test_pyfluss_names_work_too(bootstrap_servers, database):
    config = fluss.Config({"bootstrap.servers": bootstrap_servers, "writer.batch-size": "1mb",
                           "writer.batch-timeout-ms": "50", "scanner.log.max-poll-records": "2",
                           "scanner.log.fetch.wait-max-time-ms": "200", "connect-timeout": "30000"})
    conn = await fluss.FlussConnection.create(config)
    try:
        admin = await conn.get_admin()
        path = fluss.TablePath(database, "pyfluss_names")
        await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(SCHEMA), bucket_count=2))
        info = await admin.get_table_info(path)
        assert info.table_path == path and info.num_buckets == 2
        nodes = await admin.get_server_nodes()
        assert nodes[0].server_type == "CoordinatorServer" and nodes[0].uid == f"cs-{nodes[0].id}"
        assert f"{nodes[0].host}:{nodes[0].port}" == bootstrap_servers.split(",")[0]
        assert [n.server_type for n in nodes[1:]] == ["TabletServer"] * (len(nodes) - 1) and len(nodes) >= 2
        assert all(n.uid == f"ts-{n.id}" for n in nodes[1:])

        table = await conn.get_table(path)
        writer = table.new_append().create_writer()
        writer.write_arrow(pa.table({"id": [1, 2, 3, 4, 5], "name": list("abcde"), "score": [1.0] * 5}))
        await writer.flush()

        assert await admin.list_offsets(path, [0, 1], fluss.OffsetSpec.earliest()) == {0: 0, 1: 0}
        latest = await admin.list_offsets(path, [0, 1], fluss.OffsetSpec.latest())
        assert sum(latest.values()) == 5
        assert latest == await admin.list_offsets(path, [0, 1], "latest")
        assert await admin.list_offsets(path, [0, 1], fluss.OffsetSpec.timestamp(0)) == {0: 0, 1: 0}
        with pytest.raises(fluss.FlussError, match="carries its own timestamp"):
            await admin.list_offsets(path, [0], fluss.OffsetSpec.timestamp(0), timestamp=0)

        batches = await table.new_scan().create_record_batch_log_scanner()
        batches.subscribe_buckets({0: fluss.EARLIEST_OFFSET, 1: fluss.EARLIEST_OFFSET})
        got = []
        while sum(b.batch.num_rows for b in got) < 5:
            got += await batches.poll_record_batch(5000)
        assert sorted(i for b in got for i in b.batch.column("id").to_pylist()) == [1, 2, 3, 4, 5]

        # The seed's poll result is a list that also groups by bucket; max-poll-records (2) holds.
        records = await table.new_scan().create_log_scanner()
        records.subscribe_buckets({0: fluss.EARLIEST_OFFSET, 1: fluss.EARLIEST_OFFSET})
        polls = []
        while sum(len(p) for p in polls) < 5:
            polls.append(records.poll(5000))
        assert all(isinstance(p, list) and isinstance(p, fluss.ScanRecords) and len(p) <= 2 for p in polls)
        every = [r for p in polls for r in p]
        assert sorted(r.row["id"] for r in every) == [1, 2, 3, 4, 5]
        p = polls[0]
        assert p.count() == len(p) and not p.is_empty() and p[0] is list.__getitem__(p, 0)
        for bucket in p.buckets():
            assert bucket in p and p[bucket] == p.records(bucket) == [r for r in p if r.bucket == bucket]
        assert dict(p.items()) == {b: p.records(b) for b in p.keys()}
    finally:
        await conn.close()


def _native_threads() -> int:
    import os
    return len(os.listdir("/proc/self/task"))


async def test_a_cancelled_connect_leaves_no_threads_behind(bootstrap_servers):
    # Settle first: the logging thread and anything an earlier test left ending.
    await _until(lambda: False, 0.5)
    before = _native_threads()
    for _ in range(3):
        task = asyncio.ensure_future(fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": bootstrap_servers})))
        await asyncio.sleep(0)  # the connect has started
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    # A connect that completes after its await was cancelled is closed (its I/O thread joined).
    await _until(lambda: _native_threads() <= before, 60)
    assert _native_threads() <= before


def test_pandas_is_optional():
    code = (
        "import sys, fluss, pyarrow as pa\n"
        "table = pa.table({'a': [1]})\n"
        "sys.modules['pandas'] = None\n"  # from here on, as if pandas were not installed
        "try:\n"
        "    fluss.AppendWriter.write_pandas(object.__new__(fluss.AppendWriter), None)\n"
        "except fluss.FlussError as e:\n"
        "    print(e)\n"
        "from fluss._arrow import _to_pandas\n"
        "try:\n"
        "    _to_pandas(table, 'to_pandas')\n"
        "except fluss.FlussError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "write_pandas: pandas is not installed (pip install pandas); write_arrow takes Arrow data without it",
        "to_pandas: pandas is not installed (pip install pandas); to_arrow returns the same data as a pyarrow.Table",
    ]


# ---- found by a fresh user's trial


async def test_an_abandoned_batch_reader_loses_nothing(conn, admin, database):
    table = await new_table(conn, admin, database, "reader_abandoned", SCHEMA, bucket_count=1)
    writer = await table.new_append_writer()
    for s in range(0, 50, 10):
        writer.write_arrow(pa.table({"id": list(range(s, s + 10)), "name": ["x"] * 10, "score": [1.0] * 10}))
        await writer.flush()
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe(0, fluss.EARLIEST_OFFSET)
    reader = iter(scanner.to_arrow_batch_reader(max_bytes=1))
    first = next(reader)
    # Another read takes over: what the reader fetched and did not hand out comes back first.
    rest = scanner.to_arrow()
    assert first.column("id").to_pylist() + rest.column("id").to_pylist() == list(range(50))
    with pytest.raises(StopIteration):
        next(reader)  # that reader has ended
    # A reader closed part-way (here: collected) hands back the same way.
    writer.write_arrow(pa.table({"id": list(range(50, 70)), "name": ["y"] * 20, "score": [2.0] * 20}))
    await writer.flush()
    reader = iter(scanner.to_arrow_batch_reader(max_bytes=1))
    got = next(reader).column("id").to_pylist()
    del reader
    got += scanner.to_arrow().column("id").to_pylist()
    assert got == list(range(50, 70))


async def test_arrow_inputs_the_table_holds_are_taken_value_by_value(conn, admin, database):
    schema = pa.schema([pa.field("i", pa.int32(), nullable=False), pa.field("f", pa.float32()), ("s", pa.string())])
    table = await new_table(conn, admin, database, "narrowing", schema, bucket_count=1)
    writer = await table.new_append_writer()
    # polars' defaults (int64, float64) into INT and FLOAT columns, when every value fits
    writer.write_arrow(pl.DataFrame({"i": [1, -2], "f": [0.5, None], "s": [None, None]}))
    # a dictionary-encoded string column and an all-null column
    writer.write_arrow(pa.table({"i": pa.array([3], pa.int64()), "f": pa.array([None], pa.null()),
                                 "s": pa.array(["cat"]).dictionary_encode()}))
    await writer.flush()
    assert (await read_all(table, 1)).to_pylist() == [
        {"i": 1, "f": 0.5, "s": None}, {"i": -2, "f": None, "s": None}, {"i": 3, "f": None, "s": "cat"}]
    with pytest.raises(fluss.FlussError, match=r"column 'i' of type int64 cannot be converted"):
        writer.write_arrow(pa.table({"i": [2**40], "f": [1.0], "s": ["x"]}))
    with pytest.raises(fluss.FlussError, match=r"column 'f': value 0.1 \(row 1\) is not exact"):
        writer.write_arrow(pa.table({"i": [1, 2], "f": [0.5, 0.1], "s": ["x", "y"]}))
    with pytest.raises(fluss.FlussError, match="column 'i' is NOT NULL but has 1 nulls"):
        writer.write_arrow(pa.table({"i": pa.array([None], pa.null()), "f": [1.0], "s": ["x"]}))

    # A stream whose producer fails part-way: a FlussError saying what was queued.
    def failing():
        yield pa.record_batch({"i": pa.array([10], pa.int32()), "f": pa.array([1.0], pa.float32()), "s": ["a"]})
        raise ValueError("the source broke")
    stream = pa.RecordBatchReader.from_batches(schema, failing())
    with pytest.raises(fluss.FlussError, match=r"reading batch 1 of the stream failed \(the 1 rows of the batches "
                                               r"before it are queued\): .*the source broke"):
        writer.write_arrow(stream)
    await writer.flush()
    assert (await read_all(table, 1)).column("i").to_pylist() == [1, -2, 3, 10]


async def test_closed_connection_refuses_new_writers_and_scanners(bootstrap_servers, database):
    conn = await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": bootstrap_servers}))
    admin = await conn.get_admin()
    table = await new_table(conn, admin, database, "closed_new", SCHEMA, bucket_count=1)
    await conn.close()
    for name, call in [("new_append_writer", lambda: table.new_append_writer()),
                       ("create_batch_scanner", lambda: table.new_scan().create_batch_scanner()),
                       ("create_log_scanner", lambda: table.new_scan().create_log_scanner()),
                       ("get_table", lambda: conn.get_table(fluss.TablePath(database, "closed_new"))),
                       ("get_admin", lambda: conn.get_admin())]:
        with pytest.raises(fluss.FlussError, match=f"^{name}: the connection is closed$"):
            await call()
    with pytest.raises(fluss.FlussError, match="^create_writer: the connection is closed$"):
        table.new_append().create_writer()


def test_a_pyfluss_key_and_its_java_spelling_together_are_refused():
    with pytest.raises(fluss.FlussError, match="'writer.buffer.memory-size' and 'client.writer.buffer.memory-size' "
                                               "set the same property"):
        fluss.Config({"writer.buffer.memory-size": "8mb", "client.writer.buffer.memory-size": "16mb"})
