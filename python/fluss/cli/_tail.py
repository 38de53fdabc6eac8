"""``fluss tail DB.TABLE``: prints a table's records as they arrive."""

from __future__ import annotations

import asyncio
import datetime
import re
from typing import Dict, List, Optional, Set, TextIO, Tuple

import pyarrow as pa

import fluss

from ._common import CliError, Settings, table_path
from ._values import json_text, scalar_text, to_json

#: One poll waits at most this long (ms), so the idle timeout and new partitions are seen.
POLL_MS = 500
#: How often a partitioned table's partition list is read again, to follow new partitions (s).
PARTITION_REFRESH_S = 5.0

FORMATS = ("table", "jsonl", "csv")


def _csv_line(cells: List[Optional[str]]) -> str:
    """One CSV line: a null (None) is an empty cell, an empty string a quoted one (``""``), so
    that produce reads them back apart; a cell holding a comma, quote, line break or edge space
    is quoted with its quotes doubled (RFC 4180)."""
    out = []
    for c in cells:
        if c is None:
            out.append("")
        elif c == "" or any(ch in c for ch in ',"\r\n') or c != c.strip():
            out.append('"' + c.replace('"', '""') + '"')
        else:
            out.append(c)
    return ",".join(out)
CHANGE_COLUMN = "_change_type"


def parse_from(text: str) -> Optional[int]:
    """``--from``: None for ``earliest``; ``fluss.LATEST_OFFSET`` marker -1 for ``latest``;
    else a timestamp in epoch milliseconds: digits (epoch ms) or ISO-8601 (``2024-05-01``,
    ``2024-05-01T12:00:00``, ``2024-05-01T12:00:00.250+02:00``, ``...Z``; without an offset
    the time is UTC). Raises CliError (2) for anything else."""
    t = text.strip()
    if t.lower() == "earliest":
        return None
    if t.lower() == "latest":
        return -1
    if re.fullmatch(r"\d+", t):
        return int(t)
    iso = t[:-1] + "+00:00" if t.endswith(("Z", "z")) else t
    try:
        when = datetime.datetime.fromisoformat(iso)
    except ValueError:
        raise CliError(f"--from: expected earliest, latest, epoch milliseconds or an ISO-8601 time "
                       f"(e.g. 2024-05-01T12:00:00Z), got {text!r}", 2) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    return (when - epoch) // datetime.timedelta(milliseconds=1)


class _Printer:
    """Writes records to ``out`` in one of FORMATS: ``table`` (aligned columns, a header, the
    widths set by the header and the first records), ``jsonl`` (one JSON object a record) or
    ``csv`` (a header line, then one line a record). A primary-key table's records start with
    their change type (``+I``, ``-U``, ``+U``, ``-D``) in column ``_change_type``."""

    def __init__(self, fmt: str, schema: pa.Schema, with_change: bool, out: TextIO):
        self.fmt = fmt
        self.schema = schema
        self.with_change = with_change
        self.out = out
        self.header = ([CHANGE_COLUMN] if with_change else []) + list(schema.names)
        self.widths: Optional[List[int]] = None
        self.csv = fmt == "csv"
        if self.csv:
            self.out.write(_csv_line(self.header) + "\n")

    def cells(self, record: fluss.ScanRecord) -> List[str]:
        """The record as text cells, in header order."""
        row = record.row
        null = "null" if self.fmt == "table" else ""
        cells = [scalar_text(row.get(f.name), f.type, null) for f in self.schema]
        if self.with_change:
            cells.insert(0, record.change_type.short_string())
        return cells

    def write(self, records: List[fluss.ScanRecord]) -> None:
        """Writes ``records`` and flushes ``out``."""
        if self.fmt == "jsonl":
            for r in records:
                obj = {f.name: to_json(r.row.get(f.name), f.type) for f in self.schema}
                if self.with_change:
                    obj = {CHANGE_COLUMN: r.change_type.short_string(), **obj}
                self.out.write(json_text(obj) + "\n")
        elif self.csv:
            for r in records:
                csv_cells: List[Optional[str]] = [
                    None if r.row.get(f.name) is None else c
                    for f, c in zip(self.schema, self.cells(r)[-len(self.schema):])]
                if self.with_change:
                    csv_cells.insert(0, r.change_type.short_string())
                self.out.write(_csv_line(csv_cells) + "\n")
        else:
            rows = [self.cells(r) for r in records]
            if self.widths is None:
                self.widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(self.header)]
                self.out.write(self._line(self.header) + "\n")
            for cells in rows:
                self.out.write(self._line(cells) + "\n")
        self.out.flush()

    def _line(self, cells: List[str]) -> str:
        """Cells padded to the column widths, two spaces apart."""
        assert self.widths is not None
        return "  ".join(c.ljust(w) for c, w in zip(cells, self.widths)).rstrip()


async def _start_offsets(admin: fluss.FlussAdmin, path: fluss.TablePath, buckets: List[int],
                         start: Optional[int], partition: Optional[str]) -> Dict[int, int]:
    """``{bucket: start offset}`` for ``--from`` value ``start`` (see parse_from), of the table
    or of its partition named ``partition``."""
    if start is None:
        return {b: fluss.EARLIEST_OFFSET for b in buckets}
    if start == -1:
        return {b: fluss.LATEST_OFFSET for b in buckets}
    if partition is None:
        return await admin.list_offsets(path, buckets, "timestamp", timestamp=start)
    return await admin.list_partition_offsets(path, partition, buckets, "timestamp", timestamp=start)


async def tail(settings: Settings, path_text: str, start: Optional[int], fmt: str, limit: Optional[int],
               timeout_ms: Optional[int], out: TextIO) -> None:
    """Prints the records of table ``path_text`` from ``start`` (see parse_from) in format
    ``fmt``: every bucket, and for a partitioned table every partition (partitions created
    while it runs are followed from their start). Runs until Ctrl-C, or until ``limit``
    records were printed, or until no record arrived for ``timeout_ms`` milliseconds.

    Raises:
        FlussError: 7 TABLE_NOT_EXIST, and errors of the reads.
        CliError: (2) for a ``limit`` < 1 or ``timeout_ms`` < 0.
    """
    if limit is not None and limit < 1:
        raise CliError(f"--limit: must be at least 1, got {limit}", 2)
    if timeout_ms is not None and timeout_ms < 0:
        raise CliError(f"--timeout-ms: must be at least 0, got {timeout_ms}", 2)
    path = table_path(path_text)
    async with await settings.connect() as conn:
        admin = await conn.get_admin()
        table = await conn.get_table(path)
        info = table.get_table_info()
        buckets = list(range(info.num_buckets))
        scanner = await table.new_scan().create_log_scanner()
        printer = _Printer(fmt, info.get_schema().arrow_schema, info.has_primary_key(), out)
        seen: Set[int] = set()
        loop = asyncio.get_running_loop()

        async def follow_partitions(first: bool) -> None:
            """Subscribes the partitions not subscribed yet: at ``start`` on the first call,
            from their earliest offset later (everything in a new partition is new)."""
            parts = await admin.list_partition_infos(path)
            offsets: Dict[Tuple[int, int], int] = {}
            for p in parts:
                if p.partition_id in seen:
                    continue
                seen.add(p.partition_id)
                where = await _start_offsets(admin, path, buckets, start if first else None, p.partition_name)
                offsets.update({(p.partition_id, b): off for b, off in where.items()})
            if offsets:
                scanner.subscribe_partition_buckets(offsets)

        with scanner:
            refreshed = loop.time()
            if info.is_partitioned():
                await follow_partitions(True)
            else:
                scanner.subscribe_buckets(await _start_offsets(admin, path, buckets, start, None))
            printed = 0
            last = loop.time()
            while True:
                wait = POLL_MS
                if timeout_ms is not None:
                    wait = max(0, min(POLL_MS, int((last + timeout_ms / 1000.0 - loop.time()) * 1000)))
                records: List[fluss.ScanRecord] = []
                if seen or not info.is_partitioned():
                    records = list(await scanner.poll_async(wait))
                else:
                    await asyncio.sleep(wait / 1000.0)
                if records:
                    if limit is not None:
                        records = records[:limit - printed]
                    printer.write(records)
                    printed += len(records)
                    last = loop.time()
                    if limit is not None and printed >= limit:
                        return
                elif timeout_ms is not None and loop.time() >= last + timeout_ms / 1000.0:
                    return
                if info.is_partitioned() and loop.time() - refreshed >= PARTITION_REFRESH_S:
                    await follow_partitions(False)
                    refreshed = loop.time()
