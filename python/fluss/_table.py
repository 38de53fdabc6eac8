"""FlussTable and its scan builder TableScan: where writers, lookupers and scanners come from."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Union

from ._delivery import Delivery, DeliveryCallback
from ._errors import FlussError
from ._limit_scan import BatchScanner, _check_limit
from ._lookups import Lookuper
from ._metadata import TableInfo, TablePath
from ._records import TableBucket
from ._scanners import LogScanner
from ._upsert import UpsertWriter, _require_primary_key, _target_columns
from ._writers import AppendWriter

if TYPE_CHECKING:
    from ._connection import FlussConnection
    from ._fluss import _Table


class TableScan:
    """Scan builder: optional projection and limit, then a scanner."""

    def __init__(self, table: "FlussTable") -> None:
        self._table = table
        self._projection: Optional[List[int]] = None
        self._limit: Optional[int] = None

    def project(self, indices: List[int]) -> "TableScan":
        """Keeps the columns at ``indices`` (table order), returned in the order given."""
        n = self._table.get_table_info().get_column_count()
        out = []
        for i in indices:
            if not isinstance(i, int) or not (0 <= i < n):
                raise FlussError(f"project: column index {i!r} is out of range (table has {n} columns)")
            out.append(i)
        self._projection = out
        return self

    def project_by_name(self, names: List[str]) -> "TableScan":
        """Keeps the columns ``names`` (a list of column names), returned in the order given.
        Returns this builder. Raises FlussError (-2) for a name not in the table."""
        cols = self._table.get_table_info().get_column_names()
        out = []
        for name in names:
            if name not in cols:
                raise FlussError(f"project_by_name: column '{name}' is not in the table")
            out.append(cols.index(name))
        self._projection = out
        return self

    def limit(self, n: int) -> "TableScan":
        """Reads at most ``n`` rows (an int from 1 to 2**31 - 1) with
        ``create_bucket_batch_scanner(bucket)``; log and batch scanners reject a scan with a
        limit. Returns this builder. Raises FlussError for another ``n``."""
        self._limit = _check_limit(n)
        return self

    def _reject_limit(self, method: str) -> None:
        if self._limit is not None:
            raise FlussError(f"{method}: a scan with a limit ({self._limit}) is read with "
                             f"create_bucket_batch_scanner(bucket); log scanners read without a limit")

    async def create_batch_scanner(self) -> LogScanner:
        """A scanner returning Arrow data: ``poll_arrow``, ``poll_batches``, ``to_arrow``,
        ``to_pandas``.

        Raises:
            FlussError: for a primary-key table (its changelog carries a change type per
                record, which Arrow batches do not: read it with ``create_log_scanner()``, its
                rows with ``new_lookup()`` or a limit scan), and for a scan with a limit.
        """
        self._table._conn._check_open("create_batch_scanner")
        self._reject_limit("create_batch_scanner")
        info = self._table.get_table_info()
        if info.has_primary_key():
            raise FlussError(f"create_batch_scanner: table {info.table_path.table_path_str()} is a primary-key "
                             f"table; read its changelog with create_log_scanner() (records carry their change "
                             f"type), its rows with new_lookup() or new_scan().limit(n)."
                             f"create_bucket_batch_scanner(bucket)")
        native = self._table._n.new_scanner(self._projection or [])
        return LogScanner(native, info, record_mode=False, conn=self._table._conn)

    async def create_record_batch_log_scanner(self) -> LogScanner:
        """The later pyfluss name of ``create_batch_scanner``."""
        return await self.create_batch_scanner()

    async def create_log_scanner(self) -> LogScanner:
        """A scanner returning records with their offset, timestamp and change type (``poll``).

        On a log table every record is ``+A`` (``ChangeType.AppendOnly``). On a primary-key
        table it streams the table's changelog as Fluss keeps it: ``+I`` for a new key,
        ``-U`` (the row before) then ``+U`` (the row after) for an update, ``-D`` (the deleted
        row) for a delete, each with its offset in the bucket's log.

        Raises:
            FlussError: for a scan with a limit (use ``create_bucket_batch_scanner``).
        """
        self._table._conn._check_open("create_log_scanner")
        self._reject_limit("create_log_scanner")
        native = self._table._n.new_scanner(self._projection or [])
        return LogScanner(native, self._table.get_table_info(), record_mode=True, conn=self._table._conn)

    def create_bucket_batch_scanner(self, bucket: Union[int, TableBucket]) -> BatchScanner:
        """A one-shot scanner of at most ``limit(n)`` rows of ``bucket`` (an int or a
        TableBucket of this table; for a partitioned table
        ``TableBucket.with_partition(table_id, partition_id, bucket)``): see ``BatchScanner``.
        The scan runs on its first ``next_batch()``.

        Raises:
            FlussError: without ``limit(n)`` first, for a bucket outside the table, a
                TableBucket of another table, or one whose partition does not fit the table.
        """
        if self._limit is None:
            raise FlussError("create_bucket_batch_scanner: set a limit first: new_scan().limit(n)"
                             ".create_bucket_batch_scanner(bucket)")
        return BatchScanner(self._table, bucket, self._limit, self._projection)


class TableAppend:
    """``table.new_append()`` (pyfluss 1.0): ``create_writer()`` makes the append writer."""

    def __init__(self, table: "FlussTable") -> None:
        self._table = table

    def create_writer(self, on_delivery: Optional[DeliveryCallback] = None) -> AppendWriter:
        """The table's append writer, as ``await table.new_append_writer(on_delivery)`` (not
        awaited, as in pyfluss). Raises FlussError as that method does."""
        t = self._table
        t._conn._check_open("create_writer")
        return AppendWriter(t._n.new_append_writer(), t._info, t._conn, Delivery.make(on_delivery, "create_writer"))


class FlussTable:
    """A table handle from ``FlussConnection.get_table``."""

    def __init__(self, native: _Table, conn: "FlussConnection") -> None:
        self._n = native
        self._conn = conn
        self._info = TableInfo(native.info())

    def __repr__(self) -> str:
        kind = "primary-key" if self._info.has_primary_key() else "log"
        parts = f", partitioned by {self._info.get_partition_keys()}" if self._info.is_partitioned() else ""
        return (f"<fluss.FlussTable {self._info.table_path.table_path_str()} ({kind} table, "
                f"{self._info.num_buckets} buckets{parts}), columns={self._info.get_column_names()}>")

    def new_scan(self) -> TableScan:
        """A scan builder: ``project``/``project_by_name``/``limit``, then a scanner."""
        return TableScan(self)

    async def new_append_writer(self, on_delivery: Optional[DeliveryCallback] = None) -> AppendWriter:
        """A writer for this log table.

        Args:
            on_delivery: optional ``callback(error, rows)``, called on this event loop once per
                write batch when the server acknowledged it (``error`` None) or it failed
                (``error`` the FlussError), with the number of rows the batch held (confluent-
                kafka's ``on_delivery``, per batch). An exception it raises is logged on the
                ``fluss`` logger.

        Raises:
            FlussError: for a primary-key table, or an ``on_delivery`` that is not callable.
        """
        self._conn._check_open("new_append_writer")
        delivery = Delivery.make(on_delivery, "new_append_writer")
        return AppendWriter(self._n.new_append_writer(), self._info, self._conn, delivery)

    def new_append(self) -> "TableAppend":
        """The later pyfluss builder: ``table.new_append().create_writer()`` is the writer
        ``await table.new_append_writer()`` gives."""
        return TableAppend(self)

    def new_upsert(self, columns: Optional[List[str]] = None,
                   column_indices: Optional[List[int]] = None,
                   on_delivery: Optional[DeliveryCallback] = None) -> UpsertWriter:
        """A writer for this primary-key table (synchronous).

        Args:
            columns: for a partial update, the column names to write (every primary-key column
                among them); rows then hold only these columns, list/tuple rows in this order.
            column_indices: the same as 0-based table column indexes (neither of the two:
                full rows).
            on_delivery: optional ``callback(error, rows)`` per write batch, as for
                ``new_append_writer`` (needs a running event loop: call this in a coroutine).

        Raises:
            FlussError: error_code -2, before anything is made or sent, for a log table, both
                arguments, a column not in the table, an index out of range, a repeated
                column, a missing primary-key column, or (a rule of Fluss) a NOT NULL non-key
                column left out of a partial update.
        """
        self._conn._check_open("new_upsert")
        _require_primary_key(self, "new_upsert")
        targets = _target_columns(self, "new_upsert", columns, column_indices)
        return UpsertWriter(self, targets, Delivery.make(on_delivery, "new_upsert"))

    def new_lookup(self) -> Lookuper:
        """A point lookuper of this primary-key table (synchronous); ``.lookup_by(columns)``
        gives a prefix lookuper. Raises FlussError (-2) for a log table."""
        return Lookuper(self)

    def get_table_info(self) -> TableInfo:
        """The table's metadata as of ``get_table``."""
        return self._info

    def get_table_path(self) -> TablePath:
        """The table's path."""
        return self._info.table_path

    def has_primary_key(self) -> bool:
        """True for a primary-key table."""
        return self._info.has_primary_key()
