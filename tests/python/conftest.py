"""Integration-test fixtures: a real Fluss cluster (FLUSS_BOOTSTRAP_SERVERS, or one started with
tools/local-cluster), a connection per test and a fresh database per test module."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import asyncio
import time
import uuid

import pytest

import fluss

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from served_tables import tables_the_coordinator_serves  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _bootstrap() -> str:
    servers = os.environ.get("FLUSS_BOOTSTRAP_SERVERS")
    if servers:
        return servers
    out = subprocess.run([str(ROOT / "tools" / "local-cluster"), "start"], check=True, capture_output=True, text=True)
    line = out.stdout.strip().splitlines()[-1]
    assert line.startswith("bootstrap.servers="), line
    servers = line.split("=", 1)[1]
    os.environ["FLUSS_BOOTSTRAP_SERVERS"] = servers
    return servers


# The coordinator log of the cluster under test (tools/test names it; by default the one
# tools/local-cluster starts here).
CS_LOG = pathlib.Path(os.environ.get("FLUSS_COORDINATOR_LOG", ROOT / ".local-cluster" / "logs" / "cs.log"))


@pytest.fixture(scope="session", autouse=True)
def _tables_the_coordinator_serves():
    """Tables Fluss 0.9.1's coordinator missed are created again (tests/support/served_tables.py)."""
    with tables_the_coordinator_serves(CS_LOG):
        yield


@pytest.fixture(scope="session")
def bootstrap_servers() -> str:
    return _bootstrap()


@pytest.fixture
async def conn(bootstrap_servers):
    c = await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": bootstrap_servers}))
    yield c
    await c.close()  # ended before the next test starts


@pytest.fixture
async def admin(conn):
    return await conn.get_admin()


@pytest.fixture
async def database(admin):
    """A database of its own for the test, dropped (cascade) afterwards."""
    name = "it_" + uuid.uuid4().hex[:10]
    await admin.create_database(name, ignore_if_exists=False)
    # Fewer missed tables (see _create_table_until_served) when the coordinator has seen the
    # database before its first table.
    await asyncio.sleep(0.3)
    yield name
    await admin.drop_database(name, ignore_if_not_exists=True, cascade=True)


async def read_all(table, num_buckets: int):
    """Every record of every bucket, via a batch scanner's to_arrow."""
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(num_buckets)})
    return scanner.to_arrow()


class Ticker:
    """A task that ticks every 10 ms on the running loop; ``ticks`` counts how often it ran, so a
    call that blocks the loop shows up as missing ticks."""

    def __init__(self):
        self.ticks = 0
        self._stop = False
        self._task = asyncio.ensure_future(self._run())

    async def _run(self):
        while not self._stop:
            await asyncio.sleep(0.01)
            self.ticks += 1

    async def stop(self):
        self._stop = True
        await self._task


async def run_with_ticker(coro_fn):
    """Runs ``await coro_fn()`` beside a 10 ms ticker task; returns (result, ticks, elapsed s).
    A call that never blocks the event loop lets the ticker tick about elapsed / 10 ms times."""
    ticker = Ticker()
    t0 = time.monotonic()
    result = await coro_fn()
    elapsed = time.monotonic() - t0
    await ticker.stop()
    return result, ticker.ticks, elapsed


async def poll_records(scanner, count, timeout_s=20):
    """Polls ``scanner`` (poll_async, 500 ms each) until ``count`` records or ``timeout_s``
    seconds; returns the records in order."""
    records = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while len(records) < count and loop.time() < deadline:
        records.extend(await scanner.poll_async(500))
    return records


async def new_table(conn, admin, database, name, schema, primary_keys=None, **descriptor):
    """Creates table ``<database>.<name>`` with the pyarrow ``schema`` (a primary-key table when
    ``primary_keys`` is given; ``descriptor``: further TableDescriptor keywords) and returns its
    FlussTable."""
    path = fluss.TablePath(database, name)
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema, primary_keys=primary_keys), **descriptor))
    return await conn.get_table(path)
