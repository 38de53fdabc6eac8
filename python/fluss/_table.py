"""FlussTable and its scan builder TableScan: where writers and scanners come from."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional

from ._errors import FlussError
from ._metadata import TableInfo, TablePath
from ._scanners import LogScanner
from ._writers import AppendWriter

if TYPE_CHECKING:
    from ._connection import FlussConnection


class TableScan:
    """Scan builder: optional projection, then a scanner."""

    def __init__(self, table: "FlussTable"):
        self._table = table
        self._projection: Optional[List[int]] = None

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
        """Keeps the named columns, returned in the order given."""
        cols = self._table.get_table_info().get_column_names()
        out = []
        for name in names:
            if name not in cols:
                raise FlussError(f"project_by_name: column '{name}' is not in the table")
            out.append(cols.index(name))
        self._projection = out
        return self

    async def create_batch_scanner(self) -> LogScanner:
        """A scanner returning Arrow data: ``poll_arrow``, ``poll_batches``, ``to_arrow``,
        ``to_pandas``. Raises FlussError for a primary-key table."""
        native = self._table._n.new_scanner(self._projection or [])
        return LogScanner(native, self._table.get_table_info(), record_mode=False)

    async def create_log_scanner(self) -> LogScanner:
        """A scanner returning records with their offset, timestamp and change type (``poll``).
        Raises FlussError for a primary-key table."""
        native = self._table._n.new_scanner(self._projection or [])
        return LogScanner(native, self._table.get_table_info(), record_mode=True)


class FlussTable:
    """A table handle from ``FlussConnection.get_table``."""

    def __init__(self, native, conn: "FlussConnection"):
        self._n = native
        self._conn = conn
        self._info = TableInfo(native.info())

    def new_scan(self) -> TableScan:
        return TableScan(self)

    async def new_append_writer(self) -> AppendWriter:
        """A writer for this log table. Raises FlussError for a primary-key table."""
        return AppendWriter(self._n.new_append_writer(), self._info)

    def get_table_info(self) -> TableInfo:
        return self._info

    def get_table_path(self) -> TablePath:
        return self._info.table_path

    def has_primary_key(self) -> bool:
        return self._info.has_primary_key()
