"""UpsertWriter: upserts and deletes of a primary-key table, full rows or partial updates."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Sequence

from ._errors import FlussError
from ._records import Row
from ._validate import _column_list
from ._writers import WriteResultHandle, _WriterBase, _delivered

if TYPE_CHECKING:
    from ._delivery import Delivery
    from ._fluss import _UpsertWriter
    from ._table import FlussTable


def _require_primary_key(table: "FlussTable", method: str) -> None:
    info = table.get_table_info()
    if not info.has_primary_key():
        raise FlussError(f"{method}: table {info.table_path.table_path_str()} is a log table (it has no primary "
                         f"key); upserts, deletes and lookups need a primary-key table "
                         f"(write a log table with new_append_writer())")


def _column_indices(method: str, names: List[str], value: object) -> List[int]:
    """``value`` (a list/tuple of distinct column indexes) checked against the table's columns."""
    if isinstance(value, int) or not isinstance(value, (list, tuple)):
        raise FlussError(f"{method}: column_indices must be a list of column indexes, got {type(value).__name__}")
    out: List[int] = []
    for i in value:
        if not isinstance(i, int) or isinstance(i, bool):
            raise FlussError(f"{method}: column_indices must hold ints, got {i!r}")
        if not 0 <= i < len(names):
            raise FlussError(f"{method}: column index {i} is out of range (the table has {len(names)} columns)")
        if i in out:
            raise FlussError(f"{method}: column_indices names column {i} ('{names[i]}') twice")
        out.append(i)
    return out


def _target_columns(table: "FlussTable", method: str, columns: Optional[List[str]],
                    column_indices: Optional[List[int]]) -> List[int]:
    """The target columns of a partial update as table column indexes, in the order given
    (the order of list/tuple rows); [] for full rows. FlussError (-2) before anything is made
    or sent for: both arguments, a name not in the table, an index out of range, a repeated
    column, a missing primary-key column."""
    if columns is not None and column_indices is not None:
        raise FlussError(f"{method}: give columns or column_indices for a partial update, not both")
    info = table.get_table_info()
    names = info.get_column_names()
    if columns is not None:
        out = [names.index(c) for c in _column_list(method, "columns", columns, names)]
    elif column_indices is not None:
        out = _column_indices(method, names, column_indices)
    else:
        return []
    missing = [pk for pk in info.get_primary_keys() if names.index(pk) not in out]
    if missing:
        raise FlussError(f"{method}: a partial update must include every primary-key column "
                         f"({', '.join(info.get_primary_keys())}); '{missing[0]}' is missing")
    return out


class UpsertWriter(_WriterBase):
    """Writes to a primary-key table: ``upsert`` inserts a row or replaces the row with the
    same primary key, ``delete`` removes the row with a primary key.

    Made by ``FlussTable.new_upsert()`` (full rows) or ``new_upsert(columns=[...])`` /
    ``new_upsert(column_indices=[...])`` (a partial update: only the target columns are
    written; the server keeps the other columns of an existing row as they are, and sets them
    to null in a new row). The pyfluss builder spelling works on any writer too:
    ``table.new_upsert().partial_update_by_name(cols).create_writer()``.

    Writes are batched per bucket and sent like appends (``writer.batch.size``,
    ``client.writer.batch-timeout``, ``writer.acks``, retries, idempotence), sharing the
    connection's buffer memory; each returns a ``WriteResultHandle``. ``async with writer:``
    flushes on exit. Writes of one writer to one key are applied in the order made.
    """

    if TYPE_CHECKING:
        _n: _UpsertWriter

    def __init__(self, table: "FlussTable", target_columns: Sequence[int] = (),
                 delivery: Optional[Delivery] = None) -> None:
        # Made by FlussTable.new_upsert (which checks the table has a primary key) or by the
        # builder methods of a writer; target_columns are checked by _target_columns.
        self._table = table
        self._conn = table._conn
        self._n = table._n.new_upsert_writer(list(target_columns))
        names = table.get_table_info().get_column_names()
        self._columns = [names[i] for i in target_columns] if target_columns else list(names)
        self._partial = bool(target_columns)
        # Bind the native hot path directly: no Python frame per row (a bound method of the
        # native object only, see AppendWriter).
        self._delivery = delivery
        self.upsert = self._n.upsert if delivery is None else _delivered(self._n.upsert, delivery)  # type: ignore[method-assign, assignment]
        self.delete = self._n.delete if delivery is None else _delivered(self._n.delete, delivery)  # type: ignore[method-assign, assignment]

    def upsert(self, row: Row) -> WriteResultHandle:  # replaced per instance by the native method
        """Inserts ``row``, or replaces the row with its primary key.

        Args:
            row: a dict ``{column: value}`` or a list/tuple of values. For a full-row writer:
                the table's columns (a dict may leave out nullable columns: null), a list/tuple
                in table column order. For a partial update: only the target columns (dict keys
                among them; a list/tuple in the order ``columns`` / ``column_indices`` gave
                them). Values as ``AppendWriter.append`` takes them.

        Returns:
            A ``WriteResultHandle``: ``await handle.wait()`` resolves once the server stored
            the write; ignore it to rely on ``flush()``.

        Raises:
            FlussError: error_code -2, naming the column, for an unknown key, a wrong type, an
                out-of-range value, a wrong row length, a null (or missing) primary-key or NOT
                NULL value; nothing is queued then and writes queued before are kept. A full
                buffer on an event-loop thread raises a retriable ``FlussTimeoutError`` at once
                (``await writer.wait_for_capacity()``, then upsert again), as ``append`` does.
        """
        return self._n.upsert(row)

    def delete(self, pk: Row) -> WriteResultHandle:  # replaced per instance by the native method
        """Deletes the row with primary key ``pk`` (nothing happens when there is none).
        Through a partial-update writer (``new_upsert(columns=...)``) Fluss deletes only the
        target columns: they become null, and the row goes away only when every other
        non-key column is null already. For a partitioned table the key's partition columns
        name the partition (PARTITION_NOT_EXISTS (36) as for ``upsert`` when it does not exist).

        Args:
            pk: the primary-key values: a dict ``{pk_column: value}`` holding every
                primary-key column and no other column, or a list/tuple in primary-key order
                (the order of ``Schema(..., primary_keys=[...])``).

        Returns:
            A ``WriteResultHandle``, as ``upsert``.

        Raises:
            FlussError: error_code -2, naming the column, for a missing or null key column, a
                key that is not a primary-key column, a wrong type or length; nothing is queued
                then. A full buffer on an event-loop thread as for ``upsert``.
        """
        return self._n.delete(pk)

    @property
    def target_columns(self) -> List[str]:
        """The columns this writer writes: every column of the table for a full-row writer,
        the target columns (in the order given) for a partial update."""
        return list(self._columns)

    # ---- the pyfluss builder spelling

    def partial_update_by_name(self, columns: List[str]) -> "UpsertWriter":
        """A new writer of the same table for a partial update of ``columns`` (column names,
        every primary-key column among them); this writer is unchanged. The same as
        ``table.new_upsert(columns=columns)``.

        Raises:
            FlussError: error_code -2 for a name not in the table, a repeated name, a missing
                primary-key column, or a non-key column left out that is NOT NULL.
        """
        return UpsertWriter(self._table, _target_columns(self._table, "partial_update_by_name", columns, None),
                            self._delivery)

    def partial_update_by_index(self, column_indices: List[int]) -> "UpsertWriter":
        """A new writer for a partial update of the columns at ``column_indices`` (0-based
        table column indexes). The same as ``table.new_upsert(column_indices=...)``.

        Raises:
            FlussError: as ``partial_update_by_name``, and for an index out of range.
        """
        return UpsertWriter(self._table,
                            _target_columns(self._table, "partial_update_by_index", None, column_indices),
                            self._delivery)

    def create_writer(self) -> "UpsertWriter":
        """Returns this writer (it is already created): ends the builder spelling
        ``table.new_upsert()[.partial_update_by_name(cols)].create_writer()``."""
        return self

    def __repr__(self) -> str:
        kind = f"partial update of {self._columns}" if self._partial else "full rows"
        return f"<fluss.UpsertWriter of {self._n.table_path}, {kind}>"
