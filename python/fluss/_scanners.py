"""LogScanner: record and batch scanners of a log table (and the record scanner of a
primary-key table's changelog), polling and bounded reads."""

from __future__ import annotations

import asyncio
import logging
import operator
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Set, Tuple, Union, cast

import pyarrow as pa

from ._arrow import _BatchCapsules, _schema_from_capsule, _table_from_capsule, _to_pandas
from ._errors import FlussError
from ._metadata import TableInfo
from ._records import ChangeType, RecordBatch, ScanRecord, ScanRecords, TableBucket

if TYPE_CHECKING:
    import pandas as pd

    from ._connection import FlussConnection
    from ._fluss import _Polled, _Scanner


#: Start offset meaning "the log start offset of the bucket" (read everything retained).
EARLIEST_OFFSET = -2
#: Start offset meaning "the end of the bucket when subscribing": only records written later.
LATEST_OFFSET = -1

# Indexed by the change-type byte the native scanner reports per record.
_CHANGE_TYPES = tuple(ChangeType)
# Arrow bytes one part of to_arrow_batch_reader holds (the default fetch.max-bytes).
_READ_PART_BYTES = 16 * 1024 * 1024
# Timeout of each poll behind ``async for``; it polls again while nothing arrives.
_ASYNC_ITER_POLL_MS = 1000

_log = logging.getLogger("fluss")


_INT64_MAX = 2**63 - 1


def _as_int(value: Any) -> Optional[int]:
    """``value`` as an int when it is an integer (int, numpy or pandas integers: ``__index__``)
    and not a bool; else None."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _int_arg(method: str, name: str, value: object, minimum: int) -> int:
    """``value`` checked to be an integer (not a bool) from ``minimum`` to 2**63-1; FlussError
    (-2) naming ``method`` and the argument otherwise."""
    v = _as_int(value)
    if v is None or not minimum <= v <= _INT64_MAX:
        raise FlussError(f"{method}: {name} must be an int >= {minimum}, got {value!r}")
    return v


def _offset_arg(method: str, value: object) -> int:
    """A start offset: an int >= 0 (below 2**63), EARLIEST_OFFSET or LATEST_OFFSET; FlussError
    (-2) otherwise."""
    v = _as_int(value)
    if v is None or not EARLIEST_OFFSET <= v <= _INT64_MAX:
        raise FlussError(f"{method}: start_offset must be an offset >= 0, EARLIEST_OFFSET ({EARLIEST_OFFSET}) or "
                         f"LATEST_OFFSET ({LATEST_OFFSET}), got {value!r}")
    return v


class _ReaderState:
    """A to_arrow_batch_reader's progress: the part it holds and how far it handed it out."""

    __slots__ = ("lock", "polled", "next", "detached")

    def __init__(self) -> None:
        self.lock = threading.Lock()  # the reader may be read on another thread (DuckDB's)
        self.polled: Optional[_Polled] = None
        self.next = 0
        self.detached = False  # ended: another read or poll started, or closed


class LogScanner:
    """Reads the buckets of a log table, or the changelog of a primary-key table.

    Made by ``TableScan.create_log_scanner()`` (record mode: ``poll`` returns ``ScanRecord``s,
    whose ``change_type`` is ``+A`` on a log table and ``+I``/``-U``/``+U``/``-D`` on a
    primary-key table) or ``TableScan.create_batch_scanner()`` (batch mode, log tables only:
    ``poll_arrow``, ``poll_batches``).
    Both read to the current end with ``to_arrow`` / ``to_pandas``. Blocking calls release the
    GIL and answer Ctrl-C; each has an ``*_async`` twin, and ``async for`` streams records
    (record mode) or ``RecordBatch`` items (batch mode).
    """

    def __init__(self, native: _Scanner, table_info: TableInfo, record_mode: bool,
                 conn: Optional[FlussConnection] = None) -> None:
        self._n = native
        self._info = table_info
        self._records_mode = record_mode
        self._conn = conn  # the FlussConnection, to refuse use once it is closed
        self._closed = False
        # (partition_id or None, bucket_id) of every subscribed bucket, so that a poll with
        # nothing subscribed is refused instead of waiting for nothing.
        self._subscribed: Set[Tuple[Optional[int], int]] = set()
        self._schema = _schema_from_capsule(native.schema_capsule())
        self._pending: List[Union[ScanRecord, RecordBatch]] = []
        self._prev_settled: Optional[asyncio.Future[None]] = None
        # Record polls return at most client.scanner.log.max-poll-records records (Python
        # objects per record); Arrow polls return whole fetches.
        self._max_records = native.max_poll_records if record_mode else 0
        self._fallback_columns: Optional[List[int]] = None  # record mode: columns whose values pyarrow converts
        self._quick_polls = 0  # polls answered from fetched batches (see _poll_async)
        self._reader: Optional[_ReaderState] = None  # the to_arrow_batch_reader being read

    # ---- subscriptions

    def _check_bucket(self, method: str, bucket_id: object) -> int:
        bucket_id = _int_arg(method, "bucket_id", bucket_id, 0)
        if bucket_id >= self._info.num_buckets:
            raise FlussError(f"{method}: bucket {bucket_id} is outside table {self._info.table_path} "
                             f"({self._info.num_buckets} buckets)")
        return bucket_id

    def _require_partitioned(self, method: str, partitioned: bool) -> None:
        if self._info.is_partitioned() == partitioned:
            return
        path = self._info.table_path.table_path_str()
        if partitioned:
            raise FlussError(f"{method}: table {path} is not partitioned: use subscribe(bucket_id, start_offset) "
                             f"/ unsubscribe(bucket_id)")
        raise FlussError(f"{method}: table {path} is partitioned: use subscribe_partition(partition_id, bucket_id, "
                         f"start_offset) (ids from admin.list_partition_infos) / unsubscribe_partition")

    def subscribe(self, bucket_id: int, start_offset: int) -> None:
        """Reads ``bucket_id`` (0 <= bucket_id < the table's bucket count) of a non-partitioned
        table from ``start_offset``: an offset >= 0, ``EARLIEST_OFFSET`` or ``LATEST_OFFSET``
        (only records written after the next read starts). Re-subscribing moves the position.
        Raises FlussError (-2), before anything is sent, for a bad bucket or offset, or a
        partitioned table (use ``subscribe_partition``)."""
        self._check_open("subscribe")
        self._require_partitioned("subscribe", False)
        bucket_id = self._check_bucket("subscribe", bucket_id)
        self._n.subscribe(bucket_id, _offset_arg("subscribe", start_offset))
        self._subscribed.add((None, bucket_id))

    def subscribe_buckets(self, bucket_offsets: Dict[int, int]) -> None:
        """``subscribe`` for each item of ``bucket_offsets``, a dict ``{bucket_id: start_offset}``
        (all checked first, so a bad item subscribes none). Raises FlussError as ``subscribe``,
        and for ``bucket_offsets`` that is not a dict."""
        self._check_open("subscribe_buckets")
        self._require_partitioned("subscribe_buckets", False)
        if not isinstance(bucket_offsets, Mapping):
            raise FlussError(f"subscribe_buckets: bucket_offsets must be a dict {{bucket_id: start_offset}}, "
                             f"got {type(bucket_offsets).__name__}")
        checked = [(self._check_bucket("subscribe_buckets", b),
                    _offset_arg("subscribe_buckets", off))
                   for b, off in bucket_offsets.items()]
        for b, off in checked:
            self._n.subscribe(b, off)
            self._subscribed.add((None, b))

    def unsubscribe(self, bucket_id: int) -> None:
        """Stops reading ``bucket_id`` of a non-partitioned table; records of it not yet returned
        are dropped. Raises FlussError for a partitioned table (use ``unsubscribe_partition``)."""
        self._check_open("unsubscribe")
        self._require_partitioned("unsubscribe", False)
        bucket_id = self._check_bucket("unsubscribe", bucket_id)
        self._n.unsubscribe(bucket_id)
        self._subscribed.discard((None, bucket_id))

    def subscribe_partition(self, partition_id: int, bucket_id: int, start_offset: int) -> None:
        """Reads bucket ``bucket_id`` of partition ``partition_id`` (a ``PartitionInfo.partition_id``
        of ``admin.list_partition_infos``) of a partitioned table from ``start_offset``: an
        offset >= 0, ``EARLIEST_OFFSET`` or ``LATEST_OFFSET``, resolved per partition bucket.
        Records read carry ``TableBucket.with_partition(table_id, partition_id, bucket_id)``.
        Nothing is sent: a partition the server does not know, or one dropped while subscribed,
        leaves the subscription at the next read once the coordinator confirms it is gone
        (logged as a warning on the ``fluss`` logger); the other subscriptions go on.
        Raises FlussError (-2), before anything is sent, for a bad partition id, bucket or
        offset, or a non-partitioned table (use ``subscribe``)."""
        self._subscribe_partitions("subscribe_partition", {(partition_id, bucket_id): start_offset})

    def subscribe_partition_buckets(self, partition_bucket_offsets: Dict[Tuple[int, int], int]) -> None:
        """``subscribe_partition`` for each item of ``partition_bucket_offsets``, a dict
        ``{(partition_id, bucket_id): start_offset}`` (all checked first, so a bad item
        subscribes none). Raises FlussError as ``subscribe_partition``, and for a key that is
        not a ``(partition_id, bucket_id)`` tuple."""
        self._subscribe_partitions("subscribe_partition_buckets", partition_bucket_offsets)

    def _subscribe_partitions(self, method: str, offsets: object) -> None:
        self._check_open(method)
        self._require_partitioned(method, True)
        if not isinstance(offsets, Mapping):
            raise FlussError(f"{method}: partition_bucket_offsets must be a dict "
                             f"{{(partition_id, bucket_id): start_offset}}, got {type(offsets).__name__}")
        checked = []
        for key, off in offsets.items():
            if not isinstance(key, tuple) or len(key) != 2:
                raise FlussError(f"{method}: keys must be (partition_id, bucket_id) tuples, got {key!r}")
            checked.append((_int_arg(method, "partition_id", key[0], 0), self._check_bucket(method, key[1]),
                            _offset_arg(method, off)))
        for partition_id, bucket_id, off in checked:
            self._n.subscribe_partition(partition_id, bucket_id, off)
            self._subscribed.add((partition_id, bucket_id))

    def unsubscribe_partition(self, partition_id: int, bucket_id: int) -> None:
        """Stops reading bucket ``bucket_id`` of partition ``partition_id``; records of it not yet
        returned are dropped. A bucket that is not subscribed is left as it is (no error), as in
        the Java client. Raises FlussError (-2) for a partition id or bucket that is not an int,
        a bucket outside the table, or a non-partitioned table."""
        self._check_open("unsubscribe_partition")
        self._require_partitioned("unsubscribe_partition", True)
        partition_id = _int_arg("unsubscribe_partition", "partition_id", partition_id, 0)
        bucket_id = self._check_bucket("unsubscribe_partition", bucket_id)
        self._n.unsubscribe_partition(partition_id, bucket_id)
        self._subscribed.discard((partition_id, bucket_id))

    def _log_dropped_partitions(self) -> None:
        # Partitions dropped on the server left the subscription inside the native scanner
        # (confirmed at the coordinator); the user hears of it here.
        for partition_id in self._n.take_dropped_partitions():
            self._subscribed = {key for key in self._subscribed if key[0] != partition_id}
            _log.warning("table %s: partition %d does not exist on the server (dropped, or never created); "
                         "its buckets were unsubscribed", self._info.table_path.table_path_str(), partition_id)

    # ---- conversion

    def _bucket(self, partition_id: Optional[int], b: int) -> TableBucket:
        if partition_id is None:
            return TableBucket(self._info.table_id, b)
        return TableBucket.with_partition(self._info.table_id, partition_id, b)

    def _batches(self, polled: _Polled) -> List[RecordBatch]:
        self._log_dropped_partitions()
        out: List[RecordBatch] = []
        for partition_id, bucket, base, last, _ts, caps, _ct in polled.items():
            out.append(RecordBatch(pa.record_batch(_BatchCapsules(caps)), self._bucket(partition_id, bucket), base, last))
        return out

    def _records(self, polled: _Polled) -> ScanRecords:
        self._log_dropped_partitions()
        # Rows are built natively from the Arrow buffers; the columns the native side does not
        # convert (dates, times, timestamps, decimals, nested) take pyarrow's values.
        if self._fallback_columns is None:
            self._fallback_columns = self._n.fallback_columns()
        fallback = self._fallback_columns

        def fallback_of(i: int) -> List[List[Any]]:
            batch = pa.record_batch(_BatchCapsules(polled.capsules(i)))
            return [batch.column(c).to_pylist() for c in fallback]

        return ScanRecords(self._n.records(polled, ScanRecord, self._bucket, _CHANGE_TYPES, fallback_of))

    def _arrow(self, polled: _Polled) -> pa.Table:
        self._log_dropped_partitions()
        batches = [pa.record_batch(_BatchCapsules(item[5])) for item in polled.items()]
        return pa.Table.from_batches(batches, schema=self._schema)

    @staticmethod
    def _check_timeout(timeout_ms: object) -> int:
        if not isinstance(timeout_ms, int) or isinstance(timeout_ms, bool) or timeout_ms < 0:
            raise FlussError(f"timeout_ms must be an int >= 0, got {timeout_ms!r}")
        return timeout_ms

    async def _poll_async(self, timeout_ms: int) -> _Polled:
        timeout_ms = self._check_timeout(timeout_ms)
        prev = self._prev_settled
        if prev is None or prev.done():
            # Batches already fetched are taken at once, without the hand-off to the I/O thread
            # and back that a native poll costs (a poll loop pays it per max-poll-records
            # records). Every 8th such poll first lets the event loop run other tasks, as a
            # waiting poll would; a cancel there takes nothing.
            self._quick_polls += 1
            if self._quick_polls % 8 == 0:
                await asyncio.sleep(0)
            now = self._n.try_poll(self._max_records)
            if now is not None:
                return now
        return await self._await_read(self._n.poll_async, timeout_ms, self._max_records)

    def _poll_blocking(self, timeout_ms: int, max_records: int) -> _Polled:
        timeout_ms = self._check_timeout(timeout_ms)
        now = self._n.try_poll(max_records)  # already fetched: no hand-off to the I/O thread
        return now if now is not None else self._n.poll_blocking(timeout_ms, max_records)

    async def _await_read(self, start: Callable[..., asyncio.Future[_Polled]], *args: int) -> _Polled:
        # A cancelled earlier poll or read hands its batches back when its result arrives:
        # wait for that first, so records keep their order.
        prev = self._prev_settled
        if prev is not None and not prev.done():
            await asyncio.shield(prev)
        fut = start(*args)
        self._prev_settled = getattr(fut, "_fluss_settled", None)
        try:
            return await fut
        except asyncio.CancelledError:
            # The poll may have completed just before the task was cancelled: its batches go
            # back to the scanner so the next poll returns them.
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                self._n.requeue(fut.result())
            raise

    def _require(self, record_mode: bool, method: str, polls: bool = True) -> None:
        """Refuses ``method`` on a closed scanner or connection, on a scanner of the other mode,
        and (``polls``) with nothing subscribed: FlussError (-2)."""
        self._check_open(method)
        # Another read or poll starts: the batch reader's fetched, unread batches go back first.
        self._reclaim_reader()
        if self._records_mode != record_mode:
            other = "create_log_scanner()" if record_mode else "create_batch_scanner()"
            raise FlussError(f"{method}() needs a scanner made by {other}")
        if polls and not self._subscribed:
            raise FlussError(f"{method}(): the scanner has no subscription (subscribe a bucket first: "
                             f"subscribe / subscribe_buckets, or subscribe_partition for a partitioned table)")

    def _check_open(self, method: str) -> None:
        """FlussError (-2) naming ``method`` once the scanner or its connection is closed."""
        if self._closed:
            raise FlussError(f"{method}: the scanner is closed")
        if self._conn is not None and self._conn._closed:
            raise FlussError(f"{method}: the connection is closed")

    # ---- lifecycle

    def close(self) -> None:
        """Stops reading: every subscription ends and buffered records are dropped. Later calls
        raise FlussError (-2). Idempotent; also what leaving ``with`` / ``async with`` does."""
        if self._closed:
            return
        self._closed = True
        if self._conn is None or not self._conn._closed:  # a closed connection has stopped reading
            for partition_id, bucket_id in self._subscribed:
                if partition_id is None:
                    self._n.unsubscribe(bucket_id)
                else:
                    self._n.unsubscribe_partition(partition_id, bucket_id)
        self._reclaim_reader()
        self._subscribed.clear()
        self._pending = []

    def __enter__(self) -> "LogScanner":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> "LogScanner":
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        kind = "record" if self._records_mode else "batch"
        state = "closed" if self._closed else f"{len(self._subscribed)} bucket(s) subscribed"
        return (f"<fluss.LogScanner {kind} scanner of {self._info.table_path.table_path_str()}, "
                f"columns={self._schema.names}, {state}>")

    # ---- record mode

    def poll(self, timeout_ms: int) -> ScanRecords:
        """Records available now, or those arriving within ``timeout_ms`` milliseconds (an int
        >= 0), at most ``client.scanner.log.max-poll-records`` of them; an empty list after the
        timeout. Returns as soon as any arrive. Record scanner only: FlussError (-2) on a batch
        scanner, a closed scanner or connection, with nothing subscribed, or for a bad
        ``timeout_ms``. The list
        is a ``ScanRecords``: it also groups by bucket (``buckets()``, ``records(bucket)``,
        ``count()``), as pyfluss's poll result does."""
        self._require(True, "poll")
        return self._records(self._poll_blocking(timeout_ms, self._max_records))

    async def poll_async(self, timeout_ms: int) -> ScanRecords:
        """Awaitable twin of ``poll``: the records available now or arriving within
        ``timeout_ms`` milliseconds; never blocks the event loop. Raises as ``poll``."""
        self._require(True, "poll_async")
        return self._records(await self._poll_async(timeout_ms))

    # ---- batch mode

    def poll_batches(self, timeout_ms: int) -> List[RecordBatch]:
        """Arrow batches (``RecordBatch``: the batch, its bucket, first and last offset) available
        now or arriving within ``timeout_ms`` milliseconds (an int >= 0); an empty list after the
        timeout. Batch scanner only: FlussError (-2) on a record scanner, a closed scanner or
        connection, or with nothing subscribed."""
        self._require(False, "poll_batches")
        return self._batches(self._poll_blocking(timeout_ms, 0))

    async def poll_batches_async(self, timeout_ms: int) -> List[RecordBatch]:
        """Awaitable twin of ``poll_batches`` (waits at most ``timeout_ms`` milliseconds)."""
        self._require(False, "poll_batches_async")
        return self._batches(await self._poll_async(timeout_ms))

    async def poll_record_batch(self, timeout_ms: int) -> List[RecordBatch]:
        """The later pyfluss name of ``poll_batches_async`` (awaited, as in pyfluss): batches
        arriving within ``timeout_ms`` milliseconds."""
        self._require(False, "poll_record_batch")
        return self._batches(await self._poll_async(timeout_ms))

    def poll_arrow(self, timeout_ms: int) -> pa.Table:
        """What ``poll_batches(timeout_ms)`` returns, as one ``pyarrow.Table`` (empty, with the
        scanner's schema, when nothing arrived within ``timeout_ms`` milliseconds). Batch scanner
        only; raises as ``poll_batches``."""
        self._require(False, "poll_arrow")
        return self._arrow(self._poll_blocking(timeout_ms, 0))

    async def poll_arrow_async(self, timeout_ms: int) -> pa.Table:
        """Awaitable twin of ``poll_arrow`` (waits at most ``timeout_ms`` milliseconds)."""
        self._require(False, "poll_arrow_async")
        return self._arrow(await self._poll_async(timeout_ms))

    # ---- bounded reads

    def to_arrow(self) -> pa.Table:
        """Reads every subscribed bucket (of every subscribed partition) up to its high watermark
        at call time and returns a ``pyarrow.Table`` (empty, with the scanner's schema, when there is nothing to read).
        Blocks with the GIL released; Ctrl-C interrupts it. Batch scanner only: on a record
        scanner (``create_log_scanner()``, whose records carry change types) it raises
        FlussError (-2), as on a closed scanner or connection."""
        self._require(False, "to_arrow", polls=False)
        polled = self._n.to_arrow_blocking()
        self._log_dropped_partitions()
        return _table_from_capsule(self._n.table_capsule(polled))

    def to_arrow_batch_reader(self, max_bytes: int = _READ_PART_BYTES) -> pa.RecordBatchReader:
        """The read of ``to_arrow`` as a ``pyarrow.RecordBatchReader`` that fetches as it is
        read (the later pyfluss name): where each subscribed bucket stops (its high watermark
        from its current leader) is fixed by the first batch read, and memory holds about
        ``max_bytes`` (bytes of Arrow buffers, default 16 MiB) plus one fetch round
        (``client.scanner.log.fetch.max-bytes``) at a time, however large the read.
        Positions advance as batches are read. A reader ends when it is closed or collected,
        or when another read or poll of the scanner starts: what it fetched and did not hand
        out goes back to the scanner, so the next read or poll returns it (nothing is lost).
        Each fetch blocks with the GIL released. Batch scanner only.

        Raises:
            FlussError: (-2) for a record scanner, a closed scanner or connection, or
                ``max_bytes`` not an int > 0; while reading, as ``to_arrow``.
        """
        self._require(False, "to_arrow_batch_reader", polls=False)
        budget = _int_arg("to_arrow_batch_reader", "max_bytes", max_bytes, 1)
        state = self._reader = _ReaderState()

        def parts() -> Iterator[pa.RecordBatch]:
            start = True
            try:
                while True:
                    self._check_open("to_arrow_batch_reader")
                    if state.detached:
                        return
                    polled = self._n.read_part_blocking(start, budget)
                    start = False
                    self._log_dropped_partitions()
                    with state.lock:
                        if state.detached:  # reclaimed while this part was read
                            self._n.requeue_from(polled, 0)
                            return
                        state.polled, state.next = polled, 0
                    if len(polled) == 0:
                        return
                    del polled
                    while True:
                        with state.lock:
                            p = state.polled
                            if state.detached or p is None or state.next >= len(p):
                                break
                            i = state.next
                            state.next += 1
                        yield pa.record_batch(_BatchCapsules(p.capsules(i)))
                    with state.lock:
                        state.polled = None
            finally:
                self._reclaim_reader(state)  # closed or collected: the unread batches go back

        return pa.RecordBatchReader.from_batches(self._schema, parts())

    def _reclaim_reader(self, state: Optional["_ReaderState"] = None) -> None:
        """Ends the batch reader ``state`` (default: the current one): the batches it fetched
        and did not hand out go back to the scanner, first in line for the next read or poll."""
        state = state or self._reader
        if state is None:
            return
        if self._reader is state:
            self._reader = None
        with state.lock:
            if state.detached:
                return
            state.detached = True
            if state.polled is not None and not self._closed:
                self._n.requeue_from(state.polled, state.next)
            state.polled = None

    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object:
        """The Arrow PyCapsule stream interface: the scanner's bounded read (as
        ``to_arrow_batch_reader()``) from its current positions, so ``polars.DataFrame(scanner)``,
        ``duckdb.sql("select ... from scanner")`` and ``pa.table(scanner)`` read it batch by
        batch (``polars.from_arrow`` takes ``scanner.to_arrow_batch_reader()``). Each read
        consumes: a second one returns only what was written since. Batch scanner only."""
        return self.to_arrow_batch_reader().__arrow_c_stream__(requested_schema)

    def to_pandas(self) -> pd.DataFrame:
        """``to_arrow().to_pandas()``."""
        return _to_pandas(self.to_arrow(), "to_pandas")

    async def to_arrow_async(self) -> pa.Table:
        """Awaitable twin of ``to_arrow`` that never blocks the event loop. Cancelling the await
        loses nothing: what the read fetched goes back to the scanner, and the next read or
        poll returns it."""
        self._require(False, "to_arrow_async", polls=False)
        polled = await self._await_read(self._n.to_arrow_async)
        self._log_dropped_partitions()
        return _table_from_capsule(self._n.table_capsule(polled))

    async def to_pandas_async(self) -> pd.DataFrame:
        """Awaitable twin of ``to_pandas``."""
        return _to_pandas(await self.to_arrow_async(), "to_pandas_async")

    # ---- async iteration

    def __aiter__(self) -> "LogScanner":
        return self

    async def __anext__(self) -> Union[ScanRecord, RecordBatch]:
        """The next record (record scanner) or ``RecordBatch`` (batch scanner); waits for data
        without end (stop with ``break`` or by cancelling the task)."""
        while not self._pending:
            self._require(self._records_mode, "async for")
            polled = await self._poll_async(_ASYNC_ITER_POLL_MS)
            self._pending = cast("List[Union[ScanRecord, RecordBatch]]",
                                 self._records(polled) if self._records_mode else self._batches(polled))
            self._pending.reverse()
        return self._pending.pop()
