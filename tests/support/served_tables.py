"""A work-around for a Fluss 0.9.1 coordinator bug, shared by the Python test suites: tables the
tests create are created again when the coordinator missed them.

The bug: the coordinator learns of a new table from a NODE_CHANGED event of its ZooKeeper node
(TableChangeWatcher). When its cache reads the node only after the table data is in it (a new
database, a backlog of drops), it gets NODE_CREATED instead, which it ignores for tables. Such a
table exists, but its buckets never get a leader (a write waits out the delivery timeout; seen
in CI, with no "New table" line in the coordinator log for it), and the first partition of such
a partitioned table wedges the coordinator (a NullPointerException in makeNotifyBucketLeaderAndIsr
leaves its request batch non-empty, and every later bucket fails). No client can tell a missed
table from a slow one but by waiting, so the tests create again.
"""

from __future__ import annotations

import asyncio
import contextlib
import pathlib
from typing import Iterator

import fluss

MISSED_TABLE_WAIT_S = 60
_create_table = fluss.FlussAdmin.create_table


async def coordinator_serves(admin, table_path, info, cs_log: pathlib.Path) -> bool:
    """Whether the coordinator registered the table: every bucket of a non-partitioned table has
    a leader; a partitioned one (no buckets before its partitions) has its "New table: <path>
    with id <id>," line in the coordinator log `cs_log` (true when that log is absent, i.e. the
    cluster was not started by tools/local-cluster here)."""
    if info.is_partitioned():
        return not cs_log.exists() or \
            f"New table: {table_path} with id {info.table_id}," in cs_log.read_text(errors="replace")
    return len(await admin._bucket_leaders(table_path)) == info.num_buckets


async def wait_until_served(admin, table_path, cs_log: pathlib.Path, wait_s: float) -> bool:
    """Polls coordinator_serves every 0.1 s for up to `wait_s` seconds; whether it became true."""
    info = await admin.get_table(table_path)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait_s
    while not await coordinator_serves(admin, table_path, info, cs_log):
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(0.1)
    return True


@contextlib.contextmanager
def tables_the_coordinator_serves(cs_log: pathlib.Path) -> Iterator[None]:
    """While open, FlussAdmin.create_table waits until the coordinator serves the new table
    (up to MISSED_TABLE_WAIT_S seconds), and drops and creates it again, up to 3 times, when it
    does not. `cs_log` is the coordinator log of the cluster under test."""

    async def create_table_until_served(self, table_path, table_descriptor, ignore_if_exists=False):
        for attempt in range(3):
            await _create_table(self, table_path, table_descriptor, ignore_if_exists)
            if await wait_until_served(self, table_path, cs_log, MISSED_TABLE_WAIT_S):
                return
            print(f"served_tables: the coordinator missed table {table_path} (attempt {attempt + 1}); "
                  "creating it again")
            await self.drop_table(table_path, ignore_if_not_exists=True)
        raise AssertionError(f"table {table_path}: not served by the coordinator after 3 creations")

    fluss.FlussAdmin.create_table = create_table_until_served
    try:
        yield
    finally:
        fluss.FlussAdmin.create_table = _create_table
