"""AppendWriter and WriteResultHandle: writing rows and Arrow data to a log table; what every
writer shares (buffer capacity, flush, ``async with``) in _WriterBase."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Callable, Optional, Type, Union, cast

import pyarrow as pa

from ._delivery import Delivery
from ._errors import REQUEST_TIME_OUT, FlussError, FlussTimeoutError
from ._metadata import TableInfo
from ._native import _fluss
from ._records import Row

if TYPE_CHECKING:
    from types import TracebackType
    from typing import Literal, Protocol, Tuple, TypeVar

    import pandas as pd

    from ._connection import FlussConnection

    class ArrowArrayExportable(Protocol):
        """An object exporting one Arrow record batch (the Arrow PyCapsule interface)."""

        def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]: ...

    class ArrowStreamExportable(Protocol):
        """An object exporting an Arrow stream (the Arrow PyCapsule interface): polars and
        DuckDB data, ``pa.RecordBatchReader``, ..."""

        def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...

    _W = TypeVar("_W", bound="_WriterBase")


def _lossless(got: pa.DataType, want: pa.DataType) -> bool:
    """Whether every value of Arrow type ``got`` fits ``want`` unchanged (a cast may still check
    the values, e.g. timestamp units)."""
    t = pa.types
    if t.is_null(got):
        return True  # all null: fits any nullable column (a NOT NULL one is refused by its nulls)
    if t.is_dictionary(got):
        return cast(bool, _lossless(got.value_type, want) or got.value_type.equals(want))  # decoded by the cast
    # large and view layouts (polars and DuckDB export string_view) hold the same values
    if (t.is_large_string(got) or t.is_string_view(got)) and t.is_string(want):
        return True
    if (t.is_large_binary(got) or t.is_binary_view(got)) and t.is_binary(want):
        return True
    if t.is_integer(got) and t.is_integer(want):
        return True  # the safe cast checks every value fits (polars and pandas default to int64)
    if t.is_float32(got) and t.is_float64(want):
        return True
    if t.is_float64(got) and t.is_float32(want):
        return True  # every value checked to be exact in float32 (_exact_float32)
    if t.is_timestamp(got) and t.is_timestamp(want):
        return bool(got.tz) == bool(want.tz)  # units may differ: the safe cast checks values
    if t.is_time(got) and t.is_time(want):
        return True  # the safe cast checks values
    if t.is_date(got) and t.is_date(want):
        return True
    if t.is_fixed_size_binary(want) and (t.is_binary(got) or t.is_large_binary(got)):
        return True  # the safe cast checks every value's length
    return False


def _nested_castable(got: pa.DataType, want: pa.DataType) -> bool:
    """Whether a nested input type has the shape of the table's nested type (lists of lists,
    maps of maps, structs with the same field names in order), every leaf equal or widened as
    in ``_lossless`` or an integer of another width: then a safe cast (which checks every
    value) makes it the table's type."""
    t = pa.types
    if t.is_map(want):
        return (t.is_map(got) and _nested_castable(got.key_type, want.key_type)
                and _nested_castable(got.item_type, want.item_type))
    if t.is_list(want):
        return (t.is_list(got) or t.is_large_list(got)) and _nested_castable(got.value_type, want.value_type)
    if t.is_struct(want):
        return (t.is_struct(got) and [f.name for f in got] == [f.name for f in want]
                and all(_nested_castable(g.type, w.type) for g, w in zip(got, want)))
    if t.is_float64(got) and t.is_float32(want):
        return False  # exactness is checked for top-level columns only
    return cast(bool, got.equals(want) or _lossless(got, want) or (t.is_integer(got) and t.is_integer(want)))


def _exact_float32(col: pa.Array, cast: pa.Array, method: str, name: str) -> None:
    """FlussError naming the column and the first value of float64 ``col`` that its float32
    ``cast`` does not hold exactly (NaN and infinities are exact)."""
    import pyarrow.compute as pc
    back = cast.cast(pa.float64())
    same = pc.or_kleene(pc.equal(back, col), pc.and_(pc.is_nan(col), pc.is_nan(back)))
    if pc.all(pc.fill_null(same, True), min_count=0).as_py():
        return
    first = pc.index(pc.fill_null(same, True), False).as_py()
    raise FlussError(f"{method}: column '{name}': value {col[first].as_py()!r} (row {first}) is not exact "
                     f"as the table's float (float32)")


def _is_nested(t: pa.DataType) -> bool:
    return cast(bool, pa.types.is_list(t) or pa.types.is_map(t) or pa.types.is_struct(t))


def _nullable_inside(t: pa.DataType) -> pa.DataType:
    """``t`` with every nested level nullable (map keys stay NOT NULL, as Arrow requires): what
    a nested column is cast to, so that a null where the table's type is NOT NULL is left for
    the core to refuse, naming its path, rather than failing pyarrow's cast."""
    if pa.types.is_list(t):
        f = t.value_field
        return pa.list_(pa.field(f.name, _nullable_inside(f.type), True, f.metadata))
    if pa.types.is_map(t):
        return pa.map_(_nullable_inside(t.key_type), pa.field(t.item_field.name, _nullable_inside(t.item_type), True))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, _nullable_inside(f.type), True, f.metadata) for f in t])
    return t


def _is_array_like(data: object) -> bool:
    """A pa.RecordBatch, or an object exporting one record batch (``__arrow_c_array__``) and
    no stream."""
    return isinstance(data, pa.RecordBatch) or (hasattr(data, "__arrow_c_array__")
                                                and not hasattr(data, "__arrow_c_stream__"))


def _record_batch_of(data: object, method: str) -> pa.RecordBatch:
    """``data`` as a pa.RecordBatch: one already, or imported through ``__arrow_c_array__``;
    FlussError (-2) naming ``method`` otherwise."""
    if isinstance(data, pa.RecordBatch):
        return data
    if hasattr(data, "__arrow_c_array__"):
        try:
            return pa.record_batch(data)
        except (pa.ArrowException, TypeError, ValueError) as e:
            raise FlussError(f"{method}: cannot import {type(data).__name__} as an Arrow record batch: {e}") from None
    raise FlussError(f"{method}: expected a pyarrow.RecordBatch (or an object with __arrow_c_array__), "
                     f"got {type(data).__name__}")


def _delivered(write: Callable[[Row], WriteResultHandle], delivery: Delivery) -> Callable[[Row], WriteResultHandle]:
    """``write`` (a native per-row write: append, upsert, delete) telling ``delivery`` of each
    row's handle."""
    def write_row(row: Row) -> WriteResultHandle:
        handle = write(row)
        delivery.row(handle)
        return handle
    write_row.__doc__ = write.__doc__
    return write_row


#: Returned by every write: ``await handle.wait()`` resolves once the server acknowledged it.
WriteResultHandle = _fluss.WriteResultHandle


_log = logging.getLogger("fluss")


class _WriterBase:
    """What the append and upsert writers share: waiting for buffer capacity, ``flush()`` and
    ``async with``. ``self._n`` is the native writer (writers.h: flush, buffer_full,
    buffer_memory_size, buffer_wait_timeout_ms, table_path)."""

    if TYPE_CHECKING:
        _n: Union[_fluss._AppendWriter, _fluss._UpsertWriter]
        _conn: Optional[FlussConnection]
    else:
        _n = None
        _conn = None  # the FlussConnection, to refuse use once it is closed

    def _check_open(self, method: str) -> None:
        """FlussError (-2) naming ``method`` and the table once the connection is closed."""
        if self._conn is not None and self._conn._closed:
            raise FlussError(f"{method}: table {self._n.table_path}: the connection is closed")

    async def wait_for_capacity(self, timeout_ms: Optional[int] = None) -> None:
        """Waits, without blocking the event loop, until the writer's buffer has room
        (buffered bytes below ``client.writer.buffer.memory-size``), so the next write does
        not fail for a full buffer. Returns at once when there is room. The buffer empties as
        the server acknowledges batches (sent at ``writer.batch.size``, after
        ``client.writer.batch-timeout``, or on ``flush()``).

        Args:
            timeout_ms: longest wait in milliseconds (int >= 0); None (default) means
                ``client.writer.buffer.wait-timeout`` of the connection (default: without limit).

        Raises:
            FlussTimeoutError: (a FlussError, error_code 25, ``is_retriable()`` True) when the
                buffer is still full after ``timeout_ms``.
            FlussError: error_code -2 for a ``timeout_ms`` that is not an int >= 0.
        """
        self._check_open("wait_for_capacity")
        n = self._n
        if timeout_ms is None:
            timeout_ms = n.buffer_wait_timeout_ms
        elif not isinstance(timeout_ms, int) or isinstance(timeout_ms, bool) or timeout_ms < 0:
            raise FlussError(f"wait_for_capacity: timeout_ms must be an int >= 0 or None, got {timeout_ms!r}")
        if not n.buffer_full:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_ms / 1000.0
        # Poll the native BufferFull() (a mutex-guarded comparison): 1 ms first, backing off to
        # 20 ms, so a buffer freed by the next acknowledgement is seen promptly.
        interval = 0.001
        while n.buffer_full:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise FlussTimeoutError(
                    f"table {n.table_path}: the writer buffer (client.writer.buffer.memory-size = "
                    f"{n.buffer_memory_size} bytes) stayed full for {timeout_ms} ms (wait_for_capacity)",
                    REQUEST_TIME_OUT, True)
            await asyncio.sleep(min(interval, remaining))
            interval = min(interval * 2, 0.02)

    async def flush(self) -> None:
        """Sends every open batch and returns when all writes made before the call are complete.

        Raises:
            FlussError: when any write since the previous flush failed, also writes whose
                handles were never awaited (fire-and-forget writes). The message says how many
                rows and batches failed and gives the first failure; ``error_code`` is that
                failure's code (e.g. 25 when ``client.writer.delivery-timeout`` passed). Each
                failure is reported once: the next flush starts from zero. Error code -2 once
                the connection is closed (closing flushed what was queued before).
        """
        self._check_open("flush")
        await self._n.flush()

    async def __aenter__(self: _W) -> _W:
        """``async with writer:`` returns the writer itself."""
        return self

    async def __aexit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException],
                        tb: Optional[TracebackType]) -> Literal[False]:
        """Leaving the block runs ``await self.flush()``, also when the block raised (what it
        queued before is still delivered, as the Java client's close does).

        A flush error is never hidden: when the block completed, it is raised. When the block
        raised, the block's exception propagates unchanged (the flush error does not replace
        it); the flush error is logged at ERROR level on the ``fluss`` logger and added to the
        block's exception as a note (``add_note``, Python 3.11+), so tracebacks show both.
        """
        try:
            await self.flush()
        except Exception as flush_error:
            if exc is None:
                raise
            _log.error("flush on leaving 'async with' of a writer of table %s failed while %s propagated: %s",
                       self._n.table_path, type(exc).__name__, flush_error)
            if hasattr(exc, "add_note"):
                exc.add_note(f"While this exception propagated, the writer's flush on leaving 'async with' "
                             f"also failed: {flush_error}")
        return False


class AppendWriter(_WriterBase):
    """Writes rows and Arrow data to a log table.

    Rows go into per-bucket batches, sent when a batch reaches ``writer.batch.size`` bytes, after
    ``client.writer.batch-timeout`` (100 ms), or on ``flush()``; each write returns a
    ``WriteResultHandle``: ``await handle.wait()`` for its acknowledgement, or ignore it and let
    ``flush()`` report failures.
    """

    if TYPE_CHECKING:
        _n: _fluss._AppendWriter

    def __init__(self, native: _fluss._AppendWriter, table_info: TableInfo, conn: Optional[FlussConnection] = None,
                 delivery: Optional[Delivery] = None) -> None:
        self._n = native
        self._conn = conn
        self._schema = table_info.get_schema().arrow_schema
        self._partitioned = table_info.is_partitioned()
        self._delivery = delivery
        # Bind the native hot path directly: no Python frame per row. (A bound method of the
        # native object only: storing one of self would make a reference cycle that keeps the
        # connection's sockets and I/O thread alive until the cycle collector runs.)
        self.append = native.append if delivery is None else _delivered(native.append, delivery)  # type: ignore[method-assign, assignment]

    def __repr__(self) -> str:
        return f"<fluss.AppendWriter of {self._n.table_path}, columns={self._schema.names}>"

    def append(self, row: Row) -> WriteResultHandle:  # replaced per instance by the native method
        """Appends one row: a dict ``{column: value}`` (nullable columns may be left out) or a
        list/tuple in column order. Values: bool, int, float, str, bytes, datetime.date,
        datetime.time, datetime.datetime or pandas.Timestamp (naive, or aware for
        ``timestamp(tz=...)`` columns), numpy.datetime64 (units W, D, h, m, s, ms, us, ns; naive,
        UTC for ``timestamp(tz=...)`` columns), decimal.Decimal. ``None``, ``pandas.NaT`` and
        ``numpy.datetime64('NaT')`` are null (in date, time and timestamp columns for NaT), as in
        ``write_pandas``. Each value must fit its column exactly (README "Data types"): an int
        goes into a float/double column only when that type holds it exactly, a float32 column
        refuses a finite value beyond float32, a CHAR value must not end in U+0000, a time is
        naive, and a timestamp (after its UTC offset, which may have seconds and microseconds)
        lies within the years 1..9999.

        When the writer's buffer holds ``client.writer.buffer.memory-size`` bytes (default
        64 MiB) of unsent data, ``append`` called on a thread running an asyncio event loop does
        not wait (that would block every task of the loop): it raises a retriable FlussError at
        once (a ``FlussTimeoutError``, error_code 25) and queues nothing; ``await
        writer.wait_for_capacity()`` and append again. On other threads (plain scripts,
        ``asyncio.to_thread``) it waits with the GIL released for at most
        ``client.writer.buffer.wait-timeout`` (default: without limit), then raises that error.

        A row of a partitioned table goes to the partition its partition columns name (the
        value strings Java builds, joined with ``$``); the partition must exist: otherwise the
        row's handle and the next ``flush()`` fail with PARTITION_NOT_EXISTS (36) naming it, and
        the rows of other partitions are written. With
        ``client.writer.dynamic-create-partition.enabled`` true the writer creates it instead.

        Raises:
            FlussError: naming the column for an unknown key, a wrong type, an out-of-range value,
                a missing NOT NULL value (or NaT in a NOT NULL column), a wrong row length, or a
                null or unusable partition-column value (error_code -2); the retriable
                buffer-full error above. Nothing already queued is lost.
        """
        return self._n.append(row)

    def _conform(self, batch: pa.RecordBatch, method: str = "write_arrow_batch") -> pa.RecordBatch:
        """Checks a batch against the table (names, types, nulls in NOT NULL columns) and casts
        columns whose values the table's type holds: other string and binary layouts (large,
        view, dictionary), integers of any width when every value fits, float32 -> float64,
        float64 -> float32 when every value is exact, all-null columns, timestamp units when no
        value changes, and nested columns
        of the table's shape whose values all fit (checked by a safe cast); anything else
        raises FlussError naming the column. Child names and nullability inside nested types
        are the core's to check (nulls where the table's type is NOT NULL are refused there,
        naming the path)."""
        batch = self._by_name(_record_batch_of(batch, method), method)
        arrays, fields = [], []
        for i, (got, want) in enumerate(zip(batch.schema, self._schema)):
            col = batch.column(i)
            target = want.type
            if not got.type.equals(want.type):
                if _is_nested(want.type):
                    if not _nested_castable(got.type, want.type):
                        raise FlussError(f"{method}: column '{got.name}' has type {got.type}, which does not "
                                         f"have the shape of the table's type {want.type}")
                    target = _nullable_inside(want.type)
                elif not _lossless(got.type, want.type):
                    raise FlussError(f"{method}: column '{got.name}' has type {got.type}, which the table's "
                                     f"type {want.type} cannot hold without loss")
                try:
                    cast = col.cast(target, safe=True)
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
                    raise FlussError(f"{method}: column '{got.name}' of type {got.type} cannot be "
                                     f"converted to the table's type {want.type} without loss: {e}") from None
                if pa.types.is_float64(got.type) and pa.types.is_float32(target):
                    _exact_float32(col, cast, method, got.name)
                col = cast
            if not want.nullable and col.null_count > 0:
                raise FlussError(f"{method}: column '{got.name}' is NOT NULL but has {col.null_count} nulls")
            arrays.append(col)
            # (a nested column's own type: the core checks its inner levels against the table's)
            fields.append(pa.field(want.name, col.type, want.nullable, want.metadata))
        return pa.RecordBatch.from_arrays(arrays, schema=pa.schema(fields))

    def _by_name(self, batch: pa.RecordBatch, method: str) -> pa.RecordBatch:
        """``batch`` with its columns in the table's order, matched by name (any order in);
        FlussError naming a column the table does not have, a repeated one, or a missing one."""
        want = self._schema.names
        got = batch.schema.names
        if got == want:
            return batch
        for name in got:
            if name not in want:
                raise FlussError(f"{method}: column '{name}' is not a column of the table (its columns: {want})")
            if got.count(name) > 1:
                raise FlussError(f"{method}: column '{name}' appears {got.count(name)} times")
        for name in want:
            if name not in got:
                raise FlussError(f"{method}: the data has no column '{name}' (the table's columns: {want})")
        return batch.select(want)

    def _write_arrow_batch(self, batch: pa.RecordBatch) -> WriteResultHandle:
        return self._queue_batch(self._conform(batch))

    def _queue_batch(self, batch: pa.RecordBatch) -> WriteResultHandle:
        """Queues a conformed batch (its delivery watched when the writer has on_delivery)."""
        handle = self._n.write_arrow_batch(batch)
        if self._delivery is not None:
            self._delivery.rows(handle, batch.num_rows)
        return handle

    def write_arrow_batch(self, batch: Union[pa.RecordBatch, ArrowArrayExportable]) -> WriteResultHandle:
        """Appends a ``pyarrow.RecordBatch`` (or any object exporting one through the Arrow
        PyCapsule interface, ``__arrow_c_array__``) whose columns have the table's names, in
        any order, and types (or types the table's type holds without loss).
        Sent without per-row conversion; for a partitioned table the batch is split per
        partition (rows keep their order within each), and for bucket keys per bucket. Raises
        FlussError naming a mismatched column, or the row and column of a null or unusable
        partition value (then nothing of the batch is written). Missing partitions fail as for
        ``append``."""
        self._check_open("write_arrow_batch")
        return self._write_arrow_batch(batch)

    def write_arrow(self, table: Union[pa.Table, pa.RecordBatch, ArrowStreamExportable, ArrowArrayExportable]) -> None:
        """Appends Arrow data (handles are not returned; use flush): a ``pyarrow.Table``, a
        ``pyarrow.RecordBatch``, or any object of the Arrow PyCapsule interface: a stream
        (``__arrow_c_stream__``: ``pa.RecordBatchReader``, polars DataFrames, DuckDB relations,
        ...) or an array of records (``__arrow_c_array__``). Columns are matched by name, in
        any order; their types must be the table's or types it holds without loss.

        A table or batch is checked whole before any row is queued: a bad one raises
        FlussError and nothing of it is written (for a partitioned table the error names the
        row by its index). A stream is read batch by batch, so memory stays bounded: its
        schema is checked before anything is read, each batch before it is queued; when a
        batch is refused (a null in a NOT NULL column, a value its column cannot hold, a bad
        partition value), the batches before it stay queued and the error says how many rows
        those were."""
        self._check_open("write_arrow")
        if isinstance(table, pa.Table) or _is_array_like(table):
            self._write_table(table, "write_arrow")
        elif hasattr(table, "__arrow_c_stream__"):
            self._write_stream(cast("ArrowStreamExportable", table), "write_arrow")
        else:
            raise FlussError(f"write_arrow: expected a pyarrow.Table, RecordBatch or an Arrow stream "
                             f"(__arrow_c_stream__), got {type(table).__name__}")

    def _write_stream(self, data: ArrowStreamExportable, _method: str) -> None:
        """Writes an ``__arrow_c_stream__`` object batch by batch (see ``write_arrow``)."""
        try:
            reader = pa.RecordBatchReader.from_stream(data)
        except (pa.ArrowException, TypeError, ValueError) as e:
            raise FlussError(f"{_method}: cannot read the Arrow stream of {type(data).__name__}: {e}") from None
        # Names and types first, from the schema alone.
        try:
            empty = pa.RecordBatch.from_arrays([pa.array([], type=f.type) for f in reader.schema], schema=reader.schema)
        except (pa.ArrowException, TypeError, ValueError) as e:
            raise FlussError(f"{_method}: the stream's schema cannot be used: {e}") from None
        self._conform(empty, _method)
        queued = 0
        batches = iter(reader)
        i = 0
        while True:
            try:
                batch = next(batches)
            except StopIteration:
                return
            except Exception as e:  # the producer failed mid-stream
                raise FlussError(f"{_method}: reading batch {i} of the stream failed (the {queued} rows of the "
                                 f"batches before it are queued): {e}") from None
            try:
                self._write_table(pa.Table.from_batches([batch]), _method)
            except FlussError as e:
                raise FlussError(f"{e.message} (batch {i} of the stream; the {queued} rows of the batches before it "
                                 f"are queued)", e.error_code, e.is_retriable()) from None
            queued += batch.num_rows
            i += 1

    def _write_table(self, table: Union[pa.Table, pa.RecordBatch, ArrowArrayExportable], _method: str) -> None:
        """write_arrow of a table or one record batch, errors named after the public method
        ``_method``."""
        if not isinstance(table, pa.Table):
            table = pa.Table.from_batches([_record_batch_of(table, _method)])
        if self._partitioned and table.num_rows > 0:
            # One batch, so every row's partition value is checked before anything is queued.
            table = table.combine_chunks()
        batches = [self._conform(b, _method) for b in table.to_batches()]
        for batch in batches:
            try:
                self._queue_batch(batch)
            except FlussError as e:
                if not e.message.startswith("write_arrow_batch: ") or _method == "write_arrow_batch":
                    raise
                raise FlussError(_method + e.message[len("write_arrow_batch"):], e.error_code,
                                 e.is_retriable()) from None

    def write_pandas(self, df: pd.DataFrame) -> None:
        """Appends ``df``, a pandas DataFrame, converted with the table's Arrow schema (columns by name;
        the index is ignored). Raises FlussError for an object that is not a pandas DataFrame
        (or when pandas is not installed), a missing or unknown column or a value the column's
        type cannot hold; nothing of the frame is written then."""
        self._check_open("write_pandas")
        try:
            import pandas
        except ImportError:
            raise FlussError("write_pandas: pandas is not installed (pip install pandas); "
                             "write_arrow takes Arrow data without it") from None
        if not isinstance(df, pandas.DataFrame):
            raise FlussError(f"write_pandas: expected a pandas.DataFrame, got {type(df).__module__}."
                             f"{type(df).__name__} (write_arrow takes Arrow tables, polars DataFrames "
                             f"and other Arrow streams)")
        names = [str(c) for c in df.columns]
        unknown = [c for c in names if c not in self._schema.names]
        if unknown:
            raise FlussError(f"write_pandas: column '{unknown[0]}' is not a column of the table")
        missing = [c for c in self._schema.names if c not in names]
        if missing:
            raise FlussError(f"write_pandas: the frame has no column '{missing[0]}'")
        try:
            table = pa.Table.from_pandas(df, schema=self._schema, preserve_index=False)
        except (pa.ArrowException, ValueError, TypeError, KeyError) as e:
            raise FlussError(f"write_pandas: {e}") from None
        self._write_table(table, "write_pandas")
