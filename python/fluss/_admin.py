"""FlussAdmin: databases, tables, partitions and offsets."""

from __future__ import annotations

import datetime
import operator
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Tuple, Union, cast

from ._errors import FlussError
from ._metadata import (
    DatabaseDescriptor,
    DatabaseInfo,
    PartitionInfo,
    TableDescriptor,
    TableInfo,
    TablePath,
    _check_path,
)

if TYPE_CHECKING:
    import pyarrow as pa

    from ._fluss import _Admin


class OffsetType:
    """Offset kinds accepted by ``FlussAdmin.list_offsets``."""

    EARLIEST = "earliest"
    LATEST = "latest"
    TIMESTAMP = "timestamp"


_OFFSET_TYPES = {"earliest": 0, "latest": 1, "timestamp": 2}


class OffsetSpec:
    """The later pyfluss (and Java) way to say which offset ``list_offsets`` asks for:
    ``OffsetSpec.earliest()``, ``OffsetSpec.latest()`` or ``OffsetSpec.timestamp(ts)`` (epoch
    milliseconds), passed where ``offset_type`` goes. The same as the seed's
    ``offset_type="earliest" | "latest" | "timestamp"`` (with ``timestamp=ts``)."""

    __slots__ = ("_kind", "_ts")

    def __init__(self, kind: str, ts: Optional[int] = None) -> None:
        self._kind = kind
        self._ts = ts

    @staticmethod
    def earliest() -> "OffsetSpec":
        """The log start offset of each bucket."""
        return OffsetSpec(OffsetType.EARLIEST)

    @staticmethod
    def latest() -> "OffsetSpec":
        """The high watermark of each bucket (the offset the next record gets)."""
        return OffsetSpec(OffsetType.LATEST)

    @staticmethod
    def timestamp(ts: int) -> "OffsetSpec":
        """The first offset whose commit time is at or after ``ts`` (epoch milliseconds)."""
        if not isinstance(ts, int) or isinstance(ts, bool):
            raise FlussError(f"OffsetSpec.timestamp: ts must be an int (epoch milliseconds), got {ts!r}")
        return OffsetSpec(OffsetType.TIMESTAMP, ts)

    def __repr__(self) -> str:
        return f"OffsetSpec.{self._kind}({'' if self._ts is None else self._ts})"


class ServerNode:
    """A live server of the cluster (``FlussAdmin.get_server_nodes``, the later pyfluss API).

    Attributes:
        id: the server id (int).
        host: the host name or address its client listener is reached at (str).
        port: that listener's TCP port (int).
        server_type: ``"CoordinatorServer"`` or ``"TabletServer"``.
    """

    __slots__ = ("id", "host", "port", "server_type")

    def __init__(self, id: int, host: str, port: int, coordinator: bool) -> None:
        self.id = id
        self.host = host
        self.port = port
        #: ``"CoordinatorServer"`` or ``"TabletServer"``.
        self.server_type = "CoordinatorServer" if coordinator else "TabletServer"

    @property
    def uid(self) -> str:
        """``cs-<id>`` for the coordinator, ``ts-<id>`` for a tablet server."""
        return f"{'cs' if self.server_type == 'CoordinatorServer' else 'ts'}-{self.id}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ServerNode) and (self.id, self.host, self.port, self.server_type) == (
            other.id, other.host, other.port, other.server_type)

    def __hash__(self) -> int:
        return hash((self.id, self.host, self.port, self.server_type))

    def __repr__(self) -> str:
        return f"ServerNode(id={self.id}, host={self.host!r}, port={self.port}, server_type={self.server_type!r})"


def _partition_value(owner: str, key: str, v: Any) -> str:
    """A partition value as the partition name spells it, the way the Java client turns a row's
    value into it (protocol-data.md section 8): str as is, bool ``true``/``false``, integers in
    decimal, ``datetime.date`` ``yyyy-MM-dd``, ``datetime.time`` ``HH-mm-ss_SSS``,
    ``datetime.datetime`` ``yyyy-MM-dd-HH-mm-ss_`` plus the fraction of the second without
    trailing zeros (aware ones in UTC), bytes in lowercase hex."""
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc)
        return cast(str, v.strftime("%Y-%m-%d-%H-%M-%S_")) + f"{v.microsecond:06d}".rstrip("0")
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, datetime.time):
        return f"{v.hour:02d}-{v.minute:02d}-{v.second:02d}_{v.microsecond // 1000:03d}"
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    if not isinstance(v, float):
        try:
            return str(operator.index(v))  # int, numpy and pandas integers
        except TypeError:
            pass
    raise FlussError(f"{owner}: partition_spec '{key}': give the value as a str (as the partition name spells "
                     f"it), a bool, an int, a date, a time, a datetime or bytes, got {type(v).__name__} {v!r}")


def _partition_spec(owner: str, spec: object) -> Dict[str, str]:
    if not isinstance(spec, Mapping):
        raise FlussError(f"{owner}: partition_spec must be a dict {{partition_key: value}}, got {type(spec).__name__}")
    out: Dict[str, str] = {}
    for k, v in spec.items():
        if not isinstance(k, str):
            raise FlussError(f"{owner}: partition_spec key {k!r} must be a str (a partition key)")
        if v is None:
            raise FlussError(f"{owner}: partition_spec '{k}': the value must not be None")
        out[k] = _partition_value(owner, k, v)
    return out


class FlussAdmin:
    """Database and table administration. Every method returns an awaitable."""

    def __init__(self, native: _Admin) -> None:
        self._n = native

    async def create_database(self, database_name: str, ignore_if_exists: bool = False,
                              database_descriptor: Optional[DatabaseDescriptor] = None) -> None:
        """Creates the database ``database_name`` (str), with the comment and custom
        properties of ``database_descriptor`` (a ``DatabaseDescriptor``; None: none). Raises
        FlussError (6 DATABASE_ALREADY_EXIST unless ``ignore_if_exists``; CLIENT_ERROR for a bad
        name)."""
        d = database_descriptor or DatabaseDescriptor()
        await self._n.create_database(database_name, d.comment, d.get_custom_properties(), bool(ignore_if_exists))

    async def drop_database(self, database_name: str, ignore_if_not_exists: bool = False,
                            cascade: bool = True) -> None:
        """Drops the database ``database_name`` (str) and, with ``cascade``, its tables. Raises
        FlussError (4 DATABASE_NOT_EXIST unless ``ignore_if_not_exists``; 5 DATABASE_NOT_EMPTY
        when it holds tables and ``cascade`` is False)."""
        await self._n.drop_database(database_name, bool(ignore_if_not_exists), bool(cascade))

    async def list_databases(self) -> List[str]:
        """Names of all databases."""
        return await self._n.list_databases()

    async def database_exists(self, database_name: str) -> bool:
        """True when the database ``database_name`` (str) exists."""
        return await self._n.database_exists(database_name)

    async def get_database_info(self, database_name: str) -> DatabaseInfo:
        """The database ``database_name`` (str) as the server describes it (created and
        modified times in epoch milliseconds, comment, custom properties). Raises FlussError 4
        DATABASE_NOT_EXIST."""
        return DatabaseInfo(await self._n.get_database_info(database_name))

    async def create_table(self, table_path: TablePath, table_descriptor: TableDescriptor,
                           ignore_if_exists: Optional[bool] = False) -> None:
        """Creates the table ``table_path`` (a ``TablePath``) as ``table_descriptor`` (a
        ``TableDescriptor``: schema, partition and bucket keys, bucket count, properties) says.
        Raises FlussError: 8 TABLE_ALREADY_EXIST unless ``ignore_if_exists``, 4
        DATABASE_NOT_EXIST, CLIENT_ERROR naming the column for a schema the client cannot map
        (checked before anything is sent), or for a ``table_path`` or ``table_descriptor`` of
        another type."""
        p = _check_path(table_path)
        if not isinstance(table_descriptor, TableDescriptor):
            raise FlussError("table_descriptor must be a fluss.TableDescriptor")
        d = table_descriptor
        s = d.get_schema()
        await self._n.create_table(
            p.database_name, p.table_name, s.arrow_schema, s.get_primary_keys(), d.partition_keys,
            d.bucket_count, d.bucket_keys, d.comment, d.properties, d.custom_properties, bool(ignore_if_exists),
        )

    async def drop_table(self, table_path: TablePath, ignore_if_not_exists: bool = False) -> None:
        """Drops the table ``table_path`` (a ``TablePath``). Raises FlussError 7 TABLE_NOT_EXIST
        unless ``ignore_if_not_exists``."""
        p = _check_path(table_path)
        await self._n.drop_table(p.database_name, p.table_name, bool(ignore_if_not_exists))

    async def alter_table(self, table_path: TablePath, *, add_columns: Optional[Iterable["pa.Field"]] = None,
                          set_properties: Optional[Dict[str, str]] = None,
                          reset_properties: Optional[Iterable[str]] = None,
                          ignore_if_not_exists: bool = False) -> None:
        """Changes a table in one AlterTable request (Fluss 0.9).

        Args:
            table_path: the table.
            add_columns: ``pyarrow.Field`` objects appended after the last column, in order.
                Each must be nullable: rows written before read it as None. A field metadata
                key ``comment`` becomes the column comment. Table handles taken before keep
                their schema (rows of the new schema read through them without the new
                columns); take a new one with ``conn.get_table`` to write or read the columns.
            set_properties: ``{key: value}`` properties to set (those the server allows to
                change, e.g. ``table.datalake.enabled``, or custom properties).
            reset_properties: property keys set back to their defaults.
            ignore_if_not_exists: no error when the table does not exist.

        Raises:
            FlussError: -2 (before sending) for no change at all, a NOT NULL or unsupported
                column type, naming the column; 7 TABLE_NOT_EXIST unless
                ``ignore_if_not_exists``; 56 INVALID_ALTER_TABLE_EXCEPTION or 39
                INVALID_CONFIG_EXCEPTION for a change the server refuses.
            TypeError: for an ``add_columns`` entry that is not a ``pyarrow.Field`` (e.g. a
                bare column name: a new column needs its type).
        """
        import pyarrow as pa

        p = _check_path(table_path)
        fields = list(add_columns or [])
        for f in fields:
            if not isinstance(f, pa.Field):
                raise TypeError(f"add_columns: expected pyarrow.Field objects, got {type(f).__name__}")
        schema = pa.schema(fields)
        await self._n.alter_table(p.database_name, p.table_name, {str(k): str(v) for k, v in (set_properties or {}).items()},
                                  [str(k) for k in (reset_properties or [])], schema, bool(ignore_if_not_exists))

    async def get_table(self, table_path: TablePath) -> TableInfo:
        """The metadata of the table ``table_path`` (a ``TablePath``): a ``TableInfo``. Raises
        FlussError 7 TABLE_NOT_EXIST."""
        p = _check_path(table_path)
        return TableInfo(await self._n.get_table_info(p.database_name, p.table_name))

    get_table_info = get_table

    async def get_server_nodes(self) -> List[ServerNode]:
        """The live servers, the coordinator first, then the tablet servers by id (asked from
        the coordinator). The later pyfluss API."""
        return [ServerNode(*t) for t in await self._n.server_nodes()]

    async def list_tables(self, database_name: str) -> List[str]:
        """The table names of the database ``database_name`` (str). Raises FlussError 4
        DATABASE_NOT_EXIST."""
        return await self._n.list_tables(database_name)

    async def table_exists(self, table_path: TablePath) -> bool:
        """True when the table ``table_path`` (a ``TablePath``) exists."""
        p = _check_path(table_path)
        return await self._n.table_exists(p.database_name, p.table_name)

    async def list_partition_offsets(self, table_path: TablePath, partition_name: str, bucket_ids: Iterable[int],
                                     offset_type: Union[str, OffsetSpec],
                                     timestamp: Optional[int] = None) -> Dict[int, int]:
        """``list_offsets`` for the buckets ``bucket_ids`` (ints) of one partition of the table
        ``table_path``, the partition named by ``partition_name``, its value (``"US"``, not
        ``"region=US"``; several partition keys: the values joined with ``$``). ``offset_type``
        and ``timestamp`` (epoch milliseconds) as for ``list_offsets``. Returns ``{bucket_id:
        offset}``. Raises FlussError 36 PARTITION_NOT_EXISTS for an unknown partition, -2 (before
        sending) for a ``partition_name`` that is not a non-empty str."""
        p = _check_path(table_path)
        kind, timestamp = self._offset_kind(offset_type, timestamp)
        if not isinstance(partition_name, str) or not partition_name:
            raise FlussError(f"list_partition_offsets: partition_name must be a non-empty str (the partition's "
                             f"name, e.g. 'US'), got {partition_name!r}")
        return await self._n.list_partition_offsets(p.database_name, p.table_name, partition_name,
                                                    [int(b) for b in bucket_ids], kind, timestamp)

    async def create_partition(self, table_path: TablePath, partition_spec: Dict[str, str],
                               ignore_if_exists: bool = False) -> None:
        """Creates the partition ``partition_spec`` of the table ``table_path`` (a
        ``TablePath``): a dict ``{partition_key: value}`` naming
        every partition key once (values as partition names spell them: a str as is; bool, int,
        date, time, datetime and bytes values spelled as the Java client spells a row's value,
        e.g. ``True`` -> ``true``). Raises FlussError:
        42 PARTITION_ALREADY_EXISTS unless ``ignore_if_exists``, 43
        PARTITION_SPEC_INVALID_EXCEPTION, 37 TABLE_NOT_PARTITIONED_EXCEPTION; -2 naming
        partition_spec when it is not a dict with str keys."""
        p = _check_path(table_path)
        spec = _partition_spec("create_partition", partition_spec)
        await self._n.create_partition(p.database_name, p.table_name, spec, bool(ignore_if_exists))

    async def drop_partition(self, table_path: TablePath, partition_spec: Dict[str, str],
                             ignore_if_not_exists: bool = False) -> None:
        """Drops the partition ``partition_spec`` (a dict as for ``create_partition``) of the
        table ``table_path`` (a ``TablePath``). Raises
        FlussError 36 PARTITION_NOT_EXISTS unless ``ignore_if_not_exists``; -2 naming
        partition_spec when it is not a dict with str keys."""
        p = _check_path(table_path)
        spec = _partition_spec("drop_partition", partition_spec)
        await self._n.drop_partition(p.database_name, p.table_name, spec, bool(ignore_if_not_exists))

    async def _bucket_leaders(self, table_path: TablePath, partition_name: Optional[str] = None) -> Dict[int, int]:
        """``{bucket_id: tablet_server_id}`` of a non-partitioned table, or of partition
        ``partition_name`` (its name, e.g. ``"US"``) of a partitioned one, from a metadata refresh
        at the coordinator (buckets without a live leader are absent). Internal: for tests and
        diagnostics.

        Raises:
            FlussError: TABLE_NOT_EXIST (7) for an unknown table, PARTITION_NOT_EXISTS (36) for
                an unknown partition.
        """
        p = _check_path(table_path)
        return await self._n.bucket_leaders(p.database_name, p.table_name, partition_name)

    async def list_partition_infos(self, table_path: TablePath,
                                   partition_spec: Optional[Dict[str, str]] = None) -> List["PartitionInfo"]:
        """The partitions of a partitioned table, in the server's order.

        Args:
            table_path: the table.
            partition_spec: optional filter (the later pyfluss argument): ``{partition_key:
                value}`` for some of the partition keys; only partitions with those values are
                listed. Values are spelled as for ``create_partition``.

        Raises:
            FlussError: 37 TABLE_NOT_PARTITIONED_EXCEPTION for a table without partition keys;
                -2 naming the key for a ``partition_spec`` key that is not a partition key, or
                a spec that is not a dict of str keys (before asking for the partitions).
        """
        p = _check_path(table_path)
        spec = _partition_spec("list_partition_infos", partition_spec) if partition_spec is not None else {}
        return [PartitionInfo(*t) for t in await self._n.list_partition_infos(p.database_name, p.table_name, spec)]

    @staticmethod
    def _offset_kind(offset_type: Union[str, OffsetSpec], timestamp: Optional[int]) -> Tuple[int, Optional[int]]:
        """(native kind, timestamp) of ``offset_type``: a string or an OffsetSpec."""
        if isinstance(offset_type, OffsetSpec):
            if timestamp is not None:
                raise FlussError("an OffsetSpec carries its own timestamp: pass no timestamp beside it")
            # (mypy checks the targets one by one: offset_type is a str by the second)
            offset_type, timestamp = offset_type._kind, offset_type._ts  # type: ignore[attr-defined]
        kind = _OFFSET_TYPES.get(str(offset_type).lower())
        if kind is None:
            raise FlussError(f"offset_type must be 'earliest', 'latest' or 'timestamp', got {offset_type!r}")
        if kind == 2 and timestamp is None:
            raise FlussError("offset_type 'timestamp' needs timestamp (epoch milliseconds)")
        return kind, timestamp

    async def list_offsets(self, table_path: TablePath, bucket_ids: Iterable[int], offset_type: Union[str, OffsetSpec],
                           timestamp: Optional[int] = None) -> Dict[int, int]:
        """Offsets of buckets, asked from their leaders.

        Args:
            table_path: the table (a ``TablePath``; for a partitioned table use
                ``list_partition_offsets``).
            bucket_ids: the bucket numbers (ints from 0 to the bucket count - 1).
            offset_type: ``"earliest"`` (log start), ``"latest"`` (high watermark: the offset the
                next record will get) or ``"timestamp"`` (first offset whose commit time is at or
                after ``timestamp``, epoch milliseconds); or an ``OffsetSpec`` (pyfluss).

            timestamp: epoch milliseconds, with ``offset_type="timestamp"`` only.

        Returns:
            ``{bucket_id: offset}``.

        Raises:
            FlussError: -2 (before sending) for an unknown ``offset_type``, ``"timestamp"``
                without ``timestamp``, an OffsetSpec with a ``timestamp`` beside it; 7
                TABLE_NOT_EXIST; the leaders' errors.
        """
        p = _check_path(table_path)
        kind, timestamp = self._offset_kind(offset_type, timestamp)
        return await self._n.list_offsets(p.database_name, p.table_name, [int(b) for b in bucket_ids], kind, timestamp)
