"""Regressions from a new user's review: the Arrow and pandas paths are as strict as the row
path, multi-batch writes are all-or-nothing, numpy scalars work, awaitables are coroutines,
a dropped table fails writes promptly."""

import asyncio
import time

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import fluss
from conftest import read_all

SCHEMA = pa.schema([pa.field("id", pa.int32(), nullable=False), pa.field("name", pa.string()), ("ok", pa.bool_())])


async def _writer(conn, admin, database, name):
    path = fluss.TablePath(database, name)
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(SCHEMA)))
    table = await conn.get_table(path)
    return table, await table.new_append_writer()


async def test_arrow_and_pandas_paths_reject_lossy_or_unknown_columns(conn, admin, database):
    table, w = await _writer(conn, admin, database, "strict")
    with pytest.raises(fluss.FlussError) as e:  # string into an int column
        w.write_arrow_batch(pa.record_batch([pa.array(["3"]), pa.array(["x"]), pa.array([True])], names=SCHEMA.names))
    assert "'id'" in e.value.message
    with pytest.raises(fluss.FlussError) as e:  # int into a bool column
        w.write_arrow_batch(pa.record_batch([pa.array([1], pa.int32()), pa.array(["x"]), pa.array([5])], names=SCHEMA.names))
    assert "'ok'" in e.value.message
    with pytest.raises(fluss.FlussError) as e:
        w.write_pandas(pd.DataFrame({"id": [2], "name": ["x"], "ok": [True], "extra": [9]}))
    assert "'extra'" in e.value.message
    with pytest.raises(fluss.FlussError) as e:
        w.write_pandas(pd.DataFrame({"id": [2], "ok": [True]}))
    assert "'name'" in e.value.message
    with pytest.raises(fluss.FlussError) as e:
        w.write_pandas(pd.DataFrame({"id": [2**40], "name": ["x"], "ok": [True]}))
    # A table whose second batch is bad writes nothing and names write_arrow.
    good = pa.table({"id": pa.array([1, 2], pa.int32()), "name": ["a", "b"], "ok": [True, False]})
    bad = pa.table({"id": pa.array([3, None], pa.int32()), "name": ["c", "d"], "ok": pa.array([None, None], pa.bool_())})
    with pytest.raises(fluss.FlussError) as e:
        w.write_arrow(pa.concat_tables([good, bad]))
    assert e.value.message.startswith("write_arrow:") and "'id'" in e.value.message
    for bad_row in (None, 3):
        with pytest.raises(fluss.FlussError):
            w.append(bad_row)
    w.append({"id": np.int64(9), "name": "np", "ok": np.bool_(False)})
    await w.flush()
    assert (await read_all(table, 1)).to_pylist() == [{"id": 9, "name": "np", "ok": False}]
    with pytest.raises(fluss.FlussError):
        fluss.Config("bootstrap.servers=x")


async def test_flush_and_wait_are_coroutines(conn, admin, database):
    table, w = await _writer(conn, admin, database, "coros")
    handle = w.append([1, "a", True])
    await asyncio.create_task(handle.wait())
    await asyncio.create_task(w.flush())
    assert handle.done


async def test_writes_to_a_dropped_table_fail_promptly(conn, admin, database):
    table, w = await _writer(conn, admin, database, "dropped")
    await w.append([1, "a", True]).wait()
    await admin.drop_table(table.get_table_path())
    t0 = time.monotonic()
    with pytest.raises(fluss.FlussError) as e:
        await w.append([2, "b", False]).wait()
    assert time.monotonic() - t0 < 10
    # 0.9.1 tablet servers answer a produce to a dropped table with UNKNOWN_SERVER_ERROR (-1)
    # "Failed to get tables"; the client reports it as TABLE_NOT_EXIST (7), as the metadata
    # path does.
    assert e.value.error_code == 7, e.value.message
    assert not e.value.is_retriable()
    assert "dropped" in e.value.message and "stack trace" not in e.value.message.split("(server")[0]
    # The next flush reports the failed write (and only once).
    with pytest.raises(fluss.FlussError) as f:
        await w.flush()
    assert f.value.error_code == 7 and "1 row(s) in 1 batch(es)" in f.value.message, f.value.message
    await w.flush()
