"""Lookuper and PrefixLookuper: reading rows of a primary-key table by key."""

from __future__ import annotations

import asyncio
import functools
import itertools
import weakref
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple, Union

import pyarrow as pa

from ._arrow import _BatchCapsules
from ._errors import FlussError
from ._records import Row
from ._upsert import _require_primary_key
from ._validate import _column_list

if TYPE_CHECKING:
    from ._fluss import _Lookuper, _PrefixLookuper
    from ._table import FlussTable

    _NativeLookuper = Union[_Lookuper, _PrefixLookuper]
    _Rows = List[Dict[str, Any]]


class _LoopLookups:
    """The lookups of one native lookuper on one event loop: a future per lookup id, resolved
    in bursts. The native side calls ``loop.call_soon_threadsafe(drain)`` once per burst of
    completions (not once per lookup); ``_drain`` takes every result waiting, their rows
    already dicts, converted as scanner rows are (natively, and by pyarrow for timestamps,
    decimals, nested values...)."""

    def __init__(self, native: _NativeLookuper, loop: asyncio.AbstractEventLoop) -> None:
        self._native = native
        self._loop = loop
        self._futures: Dict[int, asyncio.Future[_Rows]] = {}
        self._ids = itertools.count()
        me = weakref.ref(self)  # the native side must not keep this object alive (no cycle)

        def drain() -> None:
            lookups = me()
            if lookups is not None:
                lookups._drain()

        native.bind(functools.partial(loop.call_soon_threadsafe, drain))
        fallback = native.fallback_columns()

        def fallback_of(capsules: Tuple[object, object]) -> List[List[Any]]:
            batch = pa.record_batch(_BatchCapsules(capsules))
            return [batch.column(c).to_pylist() for c in fallback]

        self._fallback_of = fallback_of

    def start(self, key: Row) -> asyncio.Future[_Rows]:
        i = next(self._ids)
        fut = self._loop.create_future()
        self._futures[i] = fut
        try:
            self._native.start(i, key)  # bad input raises here
        except BaseException:
            del self._futures[i]
            raise
        return fut

    def _drain(self) -> None:
        ids, errors, counts, rows = self._native.take(self._fallback_of)
        pos = 0
        for i, err, n in zip(ids, errors, counts):
            fut = self._futures.pop(i, None)
            found = rows[pos:pos + n]
            pos += n
            if fut is None or fut.done():  # cancelled meanwhile
                continue
            if err is not None:
                fut.set_exception(err)
            else:
                fut.set_result(found)


class _Channel:
    """The native lookupers of one table and lookup kind, one per event loop, shared by every
    lookuper of that kind made from the same ``FlussTable``: lookups of many lookupers (one per
    task is a common habit) complete in the same bursts, so their rows are converted together
    (``make_native()`` makes a native lookuper; the first is made at once, so bad arguments
    raise when the first lookuper is created). Under the native lookupers, the connection
    shares one sender per table, so the keys also gather into the same requests."""

    def __init__(self, make_native: Callable[[], _NativeLookuper]) -> None:
        # make_native must not reference the table (the natives would keep it alive).
        self._make_native = make_native
        self._spare: Optional[_NativeLookuper] = make_native()  # not bound to a loop yet
        self._by_loop: Dict[asyncio.AbstractEventLoop, _LoopLookups] = {}

    def for_loop(self) -> _LoopLookups:
        loop = asyncio.get_running_loop()
        lookups = self._by_loop.get(loop)
        if lookups is None:
            for old in [lp for lp in self._by_loop if lp.is_closed()]:
                del self._by_loop[old]  # e.g. one asyncio.run per call in a script
            native = self._spare if self._spare is not None else self._make_native()
            self._spare = None
            lookups = self._by_loop[loop] = _LoopLookups(native, loop)
        return lookups

    def requests_sent(self) -> int:
        # Every native lookuper of the table reports its connection's one sender: take one.
        natives = [lk._native for lk in self._by_loop.values()] + ([self._spare] if self._spare is not None else [])
        return max(n.requests_sent for n in natives) if natives else 0


class _Lookups:
    """What the point and prefix lookupers share: the table's channel for their kind (``key``)
    and ``_lookup(key) -> list of row dicts``."""

    def __init__(self, table: "FlussTable", key: Tuple[str, ...], make_native: Callable[[], _NativeLookuper]) -> None:
        self._table = table
        channels: Dict[Tuple[str, ...], _Channel] = table.__dict__.setdefault("_lookup_channels", {})
        channel = channels.get(key)
        if channel is None:
            channel = channels[key] = _Channel(make_native)
        self._channel = channel
        self._requests_before = channel.requests_sent()

    async def _lookup(self, key: Row) -> _Rows:
        return await self._channel.for_loop().start(key)

    @property
    def requests_sent(self) -> int:
        """Lookup requests sent for lookups of this kind on this table since this lookuper was
        made (diagnostics: concurrent lookups share requests, up to
        ``client.lookup.max-batch-size`` keys each; lookupers of one table share them too)."""
        return self._channel.requests_sent() - self._requests_before


class Lookuper(_Lookups):
    """Point lookups of a primary-key table: ``await lookuper.lookup(pk)``.

    Made by ``FlussTable.new_lookup()`` (or ``new_lookup().create_lookuper()``). Lookups are
    sent to the leader of the key's bucket; concurrent lookups (e.g. from many asyncio tasks)
    are in flight together, batched per leader by the client
    (``client.lookup.max-batch-size`` keys per request), and never wait for each other's
    answers. A lookup reads what the leader has stored: every acknowledged write
    (``await handle.wait()`` or ``flush()``) is seen.
    """

    def __init__(self, table: "FlussTable") -> None:
        _require_primary_key(table, "new_lookup")
        super().__init__(table, ("point",), table._n.new_lookuper)

    async def lookup(self, pk: Row) -> Optional[Dict[str, Any]]:
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
        rows = await self._lookup(pk)
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


class PrefixLookuper(_Lookups):
    """Lookups by a prefix of the primary key: ``await lookuper.lookup(prefix)`` returns every
    row whose lookup columns equal ``prefix``. Made by ``new_lookup().lookup_by(columns)``
    (``.create_lookuper()`` returns it). Concurrent lookups are in flight together."""

    def __init__(self, table: "FlussTable", columns: List[str]) -> None:
        _require_primary_key(table, "lookup_by")
        names = table.get_table_info().get_column_names()
        self._columns = _column_list("lookup_by", "columns", columns, names)
        if not self._columns:
            raise FlussError("lookup_by: columns must name the lookup columns (the table's bucket key)")
        columns, positions, native_table = list(self._columns), [names.index(c) for c in self._columns], table._n
        super().__init__(table, ("prefix", *columns), lambda: native_table.new_prefix_lookuper(columns, positions))

    @property
    def lookup_columns(self) -> List[str]:
        """The lookup column names, in the order ``lookup_by`` gave them (the order of a
        list/tuple prefix)."""
        return list(self._columns)

    async def lookup(self, prefix: Row) -> List[Dict[str, Any]]:
        """Every row whose lookup columns equal ``prefix``, as ``{column: value}`` dicts (an
        empty list when there is none); values converted as ``Lookuper.lookup`` does.

        Args:
            prefix: a dict ``{lookup_column: value}`` holding every lookup column (and no
                other), or a list/tuple in the order of ``lookup_columns``.

        Raises:
            FlussError: error_code -2 naming the column for a missing, null, unknown or
                mistyped lookup column (before anything is sent); the server's error otherwise.
        """
        return await self._lookup(prefix)

    def create_lookuper(self) -> "PrefixLookuper":
        """Returns this lookuper: ends ``new_lookup().lookup_by(cols).create_lookuper()``."""
        return self

    def __repr__(self) -> str:
        return f"PrefixLookuper({self._table.get_table_path().table_path_str()}, by {self._columns})"
