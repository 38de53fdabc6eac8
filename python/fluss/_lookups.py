"""Lookuper and PrefixLookuper: reading rows of a primary-key table by key."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional

import pyarrow as pa

from ._arrow import _BatchCapsules
from ._errors import FlussError
from ._upsert import _require_primary_key
from ._validate import _column_list

if TYPE_CHECKING:
    from ._table import FlussTable


def _rows(capsules) -> List[dict]:
    """The rows of a native result batch as dicts, converted by pyarrow exactly as scanner
    rows are (``ScanRecord.row``): timestamps as datetime, decimals as Decimal..."""
    if capsules is None:
        return []
    return pa.record_batch(_BatchCapsules(capsules)).to_pylist()


class Lookuper:
    """Point lookups of a primary-key table: ``await lookuper.lookup(pk)``.

    Made by ``FlussTable.new_lookup()`` (or ``new_lookup().create_lookuper()``). Lookups are
    sent to the leader of the key's bucket; concurrent lookups (e.g. from many asyncio tasks)
    are in flight together, batched per leader by the client
    (``client.lookup.max-batch-size`` keys per request), and never wait for each other's
    answers. A lookup reads what the leader has stored: every acknowledged write
    (``await handle.wait()`` or ``flush()``) is seen.
    """

    def __init__(self, table: "FlussTable"):
        _require_primary_key(table, "new_lookup")
        self._table = table
        self._n = table._n.new_lookuper()

    async def lookup(self, pk) -> Optional[dict]:
        """The row with primary key ``pk``, or None when there is none.

        Args:
            pk: the primary-key values: a dict ``{pk_column: value}`` holding every
                primary-key column (and no other), or a list/tuple in primary-key order. Values
                as ``UpsertWriter.upsert`` takes them (for a partitioned table the partition
                columns are part of the key).

        Returns:
            ``{column: value}`` of every column, values converted as scanners return them
            (``datetime.datetime`` for timestamps, aware in UTC for ``timestamp(tz=...)``;
            ``decimal.Decimal`` for decimals, ...), or None.

        Raises:
            FlussError: error_code -2 naming the column for a missing, null, unknown or
                mistyped key column (before anything is sent); the server's error otherwise
                (e.g. 7 TABLE_NOT_EXIST after a drop; leader changes are retried until
                ``client.request-timeout``).
        """
        rows = _rows(await self._n.lookup(pk))
        return rows[0] if rows else None

    def create_lookuper(self) -> "Lookuper":
        """Returns this lookuper: ends the pyfluss spelling
        ``table.new_lookup().create_lookuper()``."""
        return self

    def lookup_by(self, columns: List[str]) -> "PrefixLookuper":
        """A prefix lookuper of the same table by ``columns`` (pyfluss spelling
        ``new_lookup().lookup_by(cols).create_lookuper()``).

        Args:
            columns: the lookup column names: the table's bucket key (the partition columns
                first for a partitioned table), a proper leading part of the primary key
                (Fluss's prefix-lookup rule), e.g. ``["user_id"]`` for primary key
                ``["user_id", "order_id"]`` and ``bucket_keys=["user_id"]``.

        Raises:
            FlussError: error_code -2 for a name not in the table or repeated, or columns that
                are not the bucket key as Fluss requires (the message says which).
        """
        return PrefixLookuper(self._table, columns)

    def __repr__(self) -> str:
        return f"Lookuper({self._table.get_table_path().table_path_str()})"


class PrefixLookuper:
    """Lookups by a prefix of the primary key: ``await lookuper.lookup(prefix)`` returns every
    row whose lookup columns equal ``prefix``. Made by ``new_lookup().lookup_by(columns)``
    (``.create_lookuper()`` returns it). Concurrent lookups are in flight together."""

    def __init__(self, table: "FlussTable", columns: List[str]):
        _require_primary_key(table, "lookup_by")
        names = table.get_table_info().get_column_names()
        self._columns = _column_list("lookup_by", "columns", columns, names)
        if not self._columns:
            raise FlussError("lookup_by: columns must name the lookup columns (the table's bucket key)")
        self._table = table
        self._n = table._n.new_prefix_lookuper(self._columns, [names.index(c) for c in self._columns])

    @property
    def lookup_columns(self) -> List[str]:
        """The lookup column names, in the order ``lookup_by`` gave them (the order of a
        list/tuple prefix)."""
        return list(self._columns)

    async def lookup(self, prefix) -> List[dict]:
        """Every row whose lookup columns equal ``prefix``, as ``{column: value}`` dicts (an
        empty list when there is none); values converted as ``Lookuper.lookup`` does.

        Args:
            prefix: a dict ``{lookup_column: value}`` holding every lookup column (and no
                other), or a list/tuple in the order of ``lookup_columns``.

        Raises:
            FlussError: error_code -2 naming the column for a missing, null, unknown or
                mistyped lookup column (before anything is sent); the server's error otherwise.
        """
        return _rows(await self._n.lookup(prefix))

    def create_lookuper(self) -> "PrefixLookuper":
        """Returns this lookuper: ends ``new_lookup().lookup_by(cols).create_lookuper()``."""
        return self

    def __repr__(self) -> str:
        return f"PrefixLookuper({self._table.get_table_path().table_path_str()}, by {self._columns})"
