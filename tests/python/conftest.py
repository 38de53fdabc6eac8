"""Integration-test fixtures: a real Fluss cluster (FLUSS_BOOTSTRAP_SERVERS, or one started with
tools/local-cluster), a connection per test and a fresh database per test module."""

from __future__ import annotations

import os
import pathlib
import subprocess
import asyncio
import time
import uuid

import pytest

import fluss

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


@pytest.fixture(scope="session")
def bootstrap_servers() -> str:
    return _bootstrap()


@pytest.fixture
async def conn(bootstrap_servers):
    c = await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": bootstrap_servers}))
    yield c
    c.close()


@pytest.fixture
async def admin(conn):
    return await conn.get_admin()


@pytest.fixture
async def database(admin):
    """A database of its own for the test, dropped (cascade) afterwards."""
    name = "it_" + uuid.uuid4().hex[:10]
    await admin.create_database(name, ignore_if_exists=False)
    yield name
    await admin.drop_database(name, ignore_if_not_exists=True, cascade=True)


async def read_all(table, num_buckets: int):
    """Every record of every bucket, via a batch scanner's to_arrow."""
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(num_buckets)})
    return scanner.to_arrow()


async def run_with_ticker(coro_fn):
    """Runs ``await coro_fn()`` beside a 10 ms ticker task; returns (result, ticks, elapsed s).
    A call that never blocks the event loop lets the ticker tick about elapsed / 10 ms times."""
    ticks = 0
    stop = False

    async def ticker():
        nonlocal ticks
        while not stop:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.ensure_future(ticker())
    t0 = time.monotonic()
    result = await coro_fn()
    elapsed = time.monotonic() - t0
    stop = True
    await task
    return result, ticks, elapsed
