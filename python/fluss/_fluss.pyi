# Stubs of the native module fluss._fluss (nanobind, python/src/*.cc). Generated with
# `python -m nanobind.stubgen -m fluss._fluss -P` against the built module, then typed by hand:
# the awaitables the bindings return as `object` are the asyncio futures they are (made by
# fluss._async.future_from), with the values they resolve to; `object` arguments that take a
# pyarrow object, a capsule or a callback say which. Checked against the built module by
# `python -m mypy.stubtest fluss` (tools/typecheck).
#
# Only WriteResultHandle is public (fluss.WriteResultHandle); the rest is what the Python
# modules of the package call.

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import Any, final

from ._errors import FlussError
from ._metadata import _DatabaseInfoDict, _TableInfoDict
from ._records import ChangeType, ScanRecord, TableBucket

# ---- errors, types, config (errors.cc, types.cc, config.cc)

def _error_codes() -> dict[str, int]:
    """
    {name: code} of the Fluss server error codes the core knows, names as in the Java `Errors` enum (fluss.ErrorCode is built from it).
    """

def _validate_config(arg: Mapping[str, str], /) -> None: ...

# One dict per key of the core's table (fluss::ConfigKeys): key, seed_key, pyfluss_key, default,
# kind, min, max, values, description (python/src/config.cc).
def _config_keys() -> list[dict[str, Any]]: ...

MAX_BUCKET_COUNT: int

def _column_types(schema: Any) -> list[str]:
    """
    The Fluss type name of each field of a pyarrow.Schema (pyfluss spelling); raises FlussError naming the field (and the path inside it) for an Arrow type with no Fluss equivalent.
    """

# ---- the asyncio bridge (bridge.cc)

def _set_helpers(
    arg0: Callable[[str, int, bool, int], FlussError],
    arg1: Callable[..., asyncio.Future[Any]],
    arg2: Callable[[], bool],
    arg3: Callable[..., Any],
    /,
) -> None: ...
@final
class _CompletionInbox:
    """Completions bound for one event loop, settled in batches (bridge.h)."""

    def __init__(self, wake: Callable[[], None]) -> None:
        """
        `wake()`: schedules `drain()` on the loop's thread thread-safely; called (GIL held, any thread) by the first completion after a drain; raises RuntimeError once the loop is closed.
        """

    def drain(self) -> None:
        """
        Settles every completion posted since the last drain, in arrival order (loop thread).
        """

    @property
    def pending(self) -> int:
        """Completions waiting for a drain."""

    @property
    def wakes(self) -> int:
        """How many times a completion has woken the loop (one per batch)."""

@final
class _Completion:
    """
    The `done` of one awaited operation: `fn(error, value)` runs on its loop's thread, posted through `inbox`.
    """

    def __init__(self, inbox: _CompletionInbox, fn: Callable[[BaseException | None, Any], None]) -> None: ...
    def __call__(self, err: BaseException | None, value: Any | None) -> None:
        """
        Posts the outcome `(err, value)`, as the I/O thread does (any thread, GIL held).
        """

# ---- writers (writers.cc, upsert.cc)

@final
class WriteResultHandle:
    """
    Acknowledgement of one write. `await handle.wait()` resolves when the server has acknowledged the batch holding the write (raises FlussError if it failed).
    """

    def wait(self) -> asyncio.Future[None]:
        """
        Returns an awaitable that resolves to None once the write is acknowledged; raises FlussError with the server's error code if the write failed. May be awaited any number of times.
        """

    @property
    def done(self) -> bool:
        """True once the outcome of the write is known."""

    def _same_outcome(self, other: WriteResultHandle) -> bool:
        """True when both handles stand for one outcome (writes of one batch)."""

@final
class _AppendWriter:
    def write_arrow_batch(self, batch: Any) -> WriteResultHandle: ...
    def flush(self) -> asyncio.Future[None]: ...
    def flush_blocking(self) -> None: ...
    @property
    def buffer_full(self) -> bool: ...
    @property
    def buffer_memory_size(self) -> int: ...
    @property
    def buffer_wait_timeout_ms(self) -> int: ...
    @property
    def table_path(self) -> str: ...
    # A METH_FASTCALL method descriptor (no Python frame per row).
    def append(self, row: Mapping[str, Any] | Sequence[Any], /) -> WriteResultHandle:
        """append(row) -> WriteResultHandle: queues one row (dict, list or tuple); see fluss.AppendWriter.append."""

@final
class _UpsertWriter:
    def upsert(self, row: Mapping[str, Any] | Sequence[Any] | None) -> WriteResultHandle: ...
    def delete(self, pk: Mapping[str, Any] | Sequence[Any] | None) -> WriteResultHandle: ...
    @property
    def target_columns(self) -> list[int]: ...
    def flush(self) -> asyncio.Future[None]: ...
    def flush_blocking(self) -> None: ...
    @property
    def buffer_full(self) -> bool: ...
    @property
    def buffer_memory_size(self) -> int: ...
    @property
    def buffer_wait_timeout_ms(self) -> int: ...
    @property
    def table_path(self) -> str: ...

# ---- lookups (lookups.cc)

# take(fallback_of) -> (ids, errors, row_counts, rows): per lookup its id, its error or None and
# how many rows of `rows` (row dicts, in order) are its answer.
_Taken = tuple[list[int], list[FlussError | None], list[int], list[dict[str, Any]]]

@final
class _Lookuper:
    def bind(self, schedule: Callable[[], Any]) -> None: ...
    def start(self, id: int, key: Any | None) -> None: ...
    def take(self, fallback_of: Callable[[Any], list[list[Any]]]) -> _Taken: ...
    def fallback_columns(self) -> list[int]: ...
    @property
    def requests_sent(self) -> int: ...

@final
class _PrefixLookuper:
    def bind(self, schedule: Callable[[], Any]) -> None: ...
    def start(self, id: int, key: Any | None) -> None: ...
    def take(self, fallback_of: Callable[[Any], list[list[Any]]]) -> _Taken: ...
    def fallback_columns(self) -> list[int]: ...
    @property
    def requests_sent(self) -> int: ...

# ---- scanners (scanners.cc)

# One polled batch: (partition_id or None, bucket_id, base_offset, last_offset,
# commit_timestamp_ms, (schema capsule, array capsule), change-type byte).
_PolledItem = tuple[int | None, int, int, int, int, tuple[Any, Any], int]

@final
class _Polled:
    def __len__(self) -> int: ...
    def items(self) -> list[_PolledItem]: ...
    def capsules(self, index: int) -> tuple[Any, Any]: ...

@final
class _Scanner:
    def subscribe(self, bucket_id: int, start_offset: int) -> None: ...
    def unsubscribe(self, bucket_id: int) -> None: ...
    def subscribe_partition(self, partition_id: int, bucket_id: int, start_offset: int) -> None: ...
    def unsubscribe_partition(self, partition_id: int, bucket_id: int) -> None: ...
    def take_dropped_partitions(self) -> list[int]: ...
    def schema_capsule(self) -> Any: ...
    def requeue(self, polled: _Polled) -> None: ...
    def requeue_from(self, polled: _Polled, start: int) -> None: ...
    def fallback_columns(self) -> list[int]: ...
    def records(
        self,
        polled: _Polled,
        record_type: type[ScanRecord],
        bucket_of: Callable[[int | None, int], TableBucket],
        change_types: tuple[ChangeType, ...],
        fallback_of: Callable[[int], list[list[Any]]],
    ) -> list[ScanRecord]: ...
    @property
    def max_poll_records(self) -> int: ...
    def try_poll(self, max_records: int) -> _Polled | None: ...
    def poll_blocking(self, timeout_ms: int, max_records: int) -> _Polled: ...
    def poll_async(self, timeout_ms: int, max_records: int) -> asyncio.Future[_Polled]: ...
    def to_arrow_blocking(self) -> _Polled: ...
    def to_arrow_async(self) -> asyncio.Future[_Polled]: ...
    def read_part_blocking(self, start: bool, max_bytes: int) -> _Polled: ...
    def table_capsule(self, polled: _Polled) -> Any: ...

# ---- tables and admin (table.cc, admin.cc)

@final
class _Table:
    def info(self) -> _TableInfoDict: ...
    def new_append_writer(self) -> _AppendWriter: ...
    def new_scanner(self, projection: Sequence[int]) -> _Scanner: ...
    def new_upsert_writer(self, columns: Sequence[int]) -> _UpsertWriter: ...
    def new_lookuper(self) -> _Lookuper: ...
    def new_prefix_lookuper(self, names: Sequence[str], positions: Sequence[int]) -> _PrefixLookuper: ...
    def limit_scan(self, partition_id: int | None, bucket: int, limit: int) -> asyncio.Future[tuple[Any, Any] | None]: ...

@final
class _Admin:
    def create_database(
        self, name: str, comment: str | None, custom_properties: Mapping[str, str], ignore_if_exists: bool
    ) -> asyncio.Future[None]: ...
    def drop_database(self, arg0: str, arg1: bool, arg2: bool, /) -> asyncio.Future[None]: ...
    def list_databases(self) -> asyncio.Future[list[str]]: ...
    def database_exists(self, arg: str, /) -> asyncio.Future[bool]: ...
    def get_database_info(self, arg: str, /) -> asyncio.Future[_DatabaseInfoDict]: ...
    def create_table(
        self,
        database: str,
        table: str,
        schema: Any,
        primary_keys: Sequence[str],
        partition_keys: Sequence[str],
        bucket_count: int | None,
        bucket_keys: Sequence[str],
        comment: str | None,
        properties: Mapping[str, str],
        custom_properties: Mapping[str, str],
        ignore_if_exists: bool,
    ) -> asyncio.Future[None]: ...
    def drop_table(self, arg0: str, arg1: str, arg2: bool, /) -> asyncio.Future[None]: ...
    def alter_table(
        self, arg0: str, arg1: str, arg2: Mapping[str, str], arg3: Sequence[str], arg4: Any, arg5: bool, /
    ) -> asyncio.Future[None]: ...
    def get_table_info(self, arg0: str, arg1: str, /) -> asyncio.Future[_TableInfoDict]: ...
    def list_tables(self, arg: str, /) -> asyncio.Future[list[str]]: ...
    def table_exists(self, arg0: str, arg1: str, /) -> asyncio.Future[bool]: ...
    def list_offsets(
        self, database: str, table: str, bucket_ids: Sequence[int], offset_type: int, timestamp: int | None
    ) -> asyncio.Future[dict[int, int]]: ...
    def list_partition_offsets(
        self,
        database: str,
        table: str,
        partition_name: str,
        bucket_ids: Sequence[int],
        offset_type: int,
        timestamp: int | None,
    ) -> asyncio.Future[dict[int, int]]: ...
    def create_partition(self, arg0: str, arg1: str, arg2: Mapping[str, str], arg3: bool, /) -> asyncio.Future[None]: ...
    def drop_partition(self, arg0: str, arg1: str, arg2: Mapping[str, str], arg3: bool, /) -> asyncio.Future[None]: ...
    def list_partition_infos(
        self, arg0: str, arg1: str, arg2: Mapping[str, str], /
    ) -> asyncio.Future[list[tuple[int, str, dict[str, str]]]]: ...
    def server_nodes(self) -> asyncio.Future[list[tuple[int, str, int, bool]]]: ...
    def bucket_leaders(self, database: str, table: str, partition: str | None = None) -> asyncio.Future[dict[int, int]]: ...

# ---- connections (connection.cc)

@final
class _Connection:
    @staticmethod
    def connect(arg: Mapping[str, str], /) -> asyncio.Future[_Connection]: ...
    def get_admin(self) -> _Admin: ...
    def get_table(self, arg0: str, arg1: str, /) -> asyncio.Future[_Table]: ...
    def close(self) -> None: ...
    @property
    def request_timeout_ms(self) -> int: ...
    def metrics(self) -> dict[str, int]: ...

def _close_all_connections() -> None:
    """
    Closes every connection this process opened that is still open, then keeps native threads out of Python (at exit, before finalization; once).
    """

# ---- the core's log lines (log_bridge.cc)

def _log_install(min_level: int) -> None:
    """
    Sends the core's log lines of `min_level` (a logging level: 10, 20, 30, 40) or above to the queue _log_wait reads.
    """

def _log_wait(timeout_ms: int) -> tuple[list[tuple[int, str]], int]:
    """
    Waits up to `timeout_ms` (GIL released) for log lines; returns ([(level, message)], lines dropped).
    """

def _log_stop() -> None:
    """
    Makes every _log_wait return at once from now on, so the thread taking the lines can end before the interpreter does (a thread waking in native code during finalization would be killed by an unwind that C++ frames do not allow).
    """
