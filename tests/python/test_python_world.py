"""Issue 12, first part: the client in the Python data world, against the real cluster.

Arrow data in from any Arrow PyCapsule producer (polars, DuckDB, pa.RecordBatchReader) with
columns matched by name; results read by polars and DuckDB; the asyncio lifecycle (awaitable
close that never blocks the loop, closed objects refusing use, scanners as context managers);
clear errors for polls with nothing subscribed and to_arrow on a record scanner; readable reprs
and tracebacks that say ``fluss.FlussError: <message>``.
"""

from __future__ import annotations

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
