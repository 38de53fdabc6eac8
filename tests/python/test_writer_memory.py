"""Writer memory is bounded by client.writer.buffer.memory-size: a full buffer makes appends
wait (without the GIL) and fail after client.writer.buffer.wait-timeout; nothing queued is lost."""

import threading
import time

import pyarrow as pa
import pytest

import fluss
from conftest import read_all


async def test_full_buffer_waits_then_fails_and_keeps_queued_rows(bootstrap_servers, admin, database):
    path = fluss.TablePath(database, "memory")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(pa.schema([("id", pa.int64()), ("s", pa.string())]))))
    # 2 KiB of buffer, batches that only close after an hour: the buffer fills and stays full.
    cfg = fluss.Config({"bootstrap.servers": bootstrap_servers, "client.writer.buffer.memory-size": "2kb",
                        "client.writer.batch-timeout": "1 h", "client.writer.buffer.wait-timeout": "400 ms"})
    conn = await fluss.FlussConnection.connect(cfg)
    writer = await (await conn.get_table(path)).new_append_writer()
    written = 0
    with pytest.raises(fluss.FlussError) as e:
        for i in range(1000):
            writer.append({"id": i, "s": "x" * 100})
            written += 1
    assert 10 <= written < 30  # ~2 KiB of ~110-byte rows
    assert isinstance(e.value, TimeoutError)
    assert e.value.error_code == 25
    assert "client.writer.buffer.memory-size" in e.value.message

    # While an append waits, other Python threads run (the GIL is released).
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    t = threading.Thread(target=ticker)
    t.start()
    t0 = time.monotonic()
    with pytest.raises(fluss.FlussError):
        writer.append({"id": -1, "s": "blocked"})
    waited = time.monotonic() - t0
    stop.set()
    t.join()
    assert 0.35 <= waited < 3, waited
    assert len([x for x in ticks if t0 <= x <= t0 + waited]) >= 10

    await writer.flush()  # the queued rows go out; the buffer empties
    writer.append({"id": 10_000, "s": "after"})
    await writer.flush()
    rows = (await read_all(await conn.get_table(path), 1)).column("id").to_pylist()
    assert sorted(rows) == list(range(written)) + [10_000]
    conn.close()
