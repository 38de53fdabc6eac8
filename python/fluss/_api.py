"""The seed guide's API: connection, admin, tables, writers, scanners."""

from __future__ import annotations

import asyncio
import atexit
import enum
import operator
import weakref
from collections.abc import Mapping
from typing import Any, Dict, Iterable, List, Optional

import pyarrow as pa

from . import _fluss
from ._async import as_coroutine, cancel_requested, future_from
from ._errors import REQUEST_TIME_OUT, FlussError, FlussTimeoutError, _make_error

_fluss._set_helpers(_make_error, future_from, cancel_requested, as_coroutine)

#: Start offset meaning "the log start offset of the bucket" (read everything retained).
EARLIEST_OFFSET = -2
#: Start offset meaning "the end of the bucket when subscribing": only records written later.
LATEST_OFFSET = -1


class OffsetType:
    """Offset kinds accepted by ``FlussAdmin.list_offsets``."""

    EARLIEST = "earliest"
    LATEST = "latest"
    TIMESTAMP = "timestamp"


class ChangeType(enum.IntEnum):
    """Change type of a record: ``+A`` for every record of a log table."""

    AppendOnly = 0
    Insert = 1
    UpdateBefore = 2
    UpdateAfter = 3
    Delete = 4

    def short_string(self) -> str:
        """The Fluss short form: ``+A``, ``+I``, ``-U``, ``+U`` or ``-D``."""
        return ("+A", "+I", "-U", "+U", "-D")[int(self)]


class _ArrowCapsule:
    """Holds a native Arrow C Data Interface capsule so pyarrow can import it."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __arrow_c_schema__(self):
        return self._capsule

    def __arrow_c_stream__(self, requested_schema=None):
        return self._capsule


def _schema_from_capsule(capsule) -> pa.Schema:
    return pa.schema(_ArrowCapsule(capsule))


def _table_from_capsule(capsule) -> pa.Table:
    return pa.table(_ArrowCapsule(capsule))


# ------------------------------------------------------------------------------- config

_SEED_DEFAULTS = {
    "bootstrap.servers": "127.0.0.1:9123",
    "request.max.size": "10485760",
    "writer.acks": "all",
    "writer.retries": "2147483647",
    "writer.batch.size": "2097152",
}


class Config:
    """Client configuration.

    Args:
        properties: ``{key: value}``. Seed keys (defaults): ``bootstrap.servers``
            (``127.0.0.1:9123``, comma-separated ``host:port`` list), ``request.max.size``
            (10485760 bytes), ``writer.acks`` (``all``), ``writer.retries`` (2147483647),
            ``writer.batch.size`` (2097152 bytes). Java client keys are accepted too, e.g.
            ``client.request-timeout`` (30 s), ``client.connect-timeout`` (120 s),
            ``client.writer.batch-timeout`` (100 ms), ``client.writer.buffer.memory-size``
            (64 MiB), ``client.writer.buffer.wait-timeout``, ``client.writer.enable-idempotence``,
            ``client.writer.delivery-timeout`` (120 s: how long a write may be retried across
            leader changes before its handle and the next ``flush()`` fail),
            ``client.scanner.log.fetch.max-bytes`` (16 MiB),
            ``client.scanner.log.fetch.max-bytes-for-bucket`` (1 MiB),
            ``client.scanner.log.fetch.min-bytes`` (1), ``client.scanner.log.fetch.wait-max-time``
            (500 ms). Sizes take bytes or units (``64mb``); durations take milliseconds or units
            (``30 s``). Values may be str, int or bool.

    Raises:
        FlussError: for an unknown key or a value that does not parse, naming the key.
    """

    def __init__(self, properties: Optional[Dict[str, Any]] = None):
        if properties is not None and not isinstance(properties, dict):
            raise FlussError(f"Config: properties must be a dict, got {type(properties).__name__}")
        self._props: Dict[str, str] = {}
        for key, value in (properties or {}).items():
            self._set(key, value)
        _fluss._validate_config(self._props)

    def _set(self, key, value) -> None:
        if not isinstance(key, str):
            raise FlussError(f"config key {key!r} must be a str")
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, (int, float)):
            value = str(value)
        elif not isinstance(value, str):
            raise FlussError(f"config '{key}': value {value!r} must be a str, int or bool")
        self._props[key] = value

    def _get(self, key: str) -> str:
        return self._props.get(key, _SEED_DEFAULTS.get(key, ""))

    def _update(self, key: str, value) -> None:
        old = dict(self._props)
        self._set(key, value)
        try:
            _fluss._validate_config(self._props)
        except FlussError:
            self._props = old
            raise

    @property
    def bootstrap_server(self) -> str:
        """``bootstrap.servers``: the servers to ask for cluster metadata."""
        return self._get("bootstrap.servers")

    @bootstrap_server.setter
    def bootstrap_server(self, value: str) -> None:
        self._update("bootstrap.servers", value)

    @property
    def request_max_size(self) -> int:
        """``request.max.size``: largest produce request in bytes."""
        return int(self._get("request.max.size"))

    @request_max_size.setter
    def request_max_size(self, value: int) -> None:
        self._update("request.max.size", value)

    @property
    def writer_batch_size(self) -> int:
        """``writer.batch.size``: bytes at which a bucket's batch is closed and sent."""
        return int(self._get("writer.batch.size"))

    @writer_batch_size.setter
    def writer_batch_size(self, value: int) -> None:
        self._update("writer.batch.size", value)

    def to_dict(self) -> Dict[str, str]:
        """The properties given (defaults not included)."""
        return dict(self._props)


# ------------------------------------------------------------------------------- metadata


class TablePath:
    """A table's identity: ``TablePath(database_name, table_name)``."""

    __slots__ = ("database_name", "table_name")

    def __init__(self, database_name: str, table_name: str):
        if not isinstance(database_name, str) or not isinstance(table_name, str):
            raise FlussError("TablePath: database_name and table_name must be str")
        self.database_name = database_name
        self.table_name = table_name

    def table_path_str(self) -> str:
        """``"database.table"``"""
        return f"{self.database_name}.{self.table_name}"

    def __eq__(self, other) -> bool:
        return isinstance(other, TablePath) and (self.database_name, self.table_name) == (
            other.database_name,
            other.table_name,
        )

    def __hash__(self) -> int:
        return hash((self.database_name, self.table_name))

    def __repr__(self) -> str:
        return f"TablePath({self.database_name!r}, {self.table_name!r})"

    __str__ = table_path_str


def _type_string(t: pa.DataType) -> str:
    if pa.types.is_boolean(t):
        return "boolean"
    for check, name in (
        (pa.types.is_int8, "tinyint"),
        (pa.types.is_int16, "smallint"),
        (pa.types.is_int32, "int"),
        (pa.types.is_int64, "bigint"),
        (pa.types.is_float32, "float"),
        (pa.types.is_float64, "double"),
        (pa.types.is_date32, "date"),
    ):
        if check(t):
            return name
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "string"
    if pa.types.is_fixed_size_binary(t):
        return f"binary({t.byte_width})"
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return "bytes"
    if pa.types.is_decimal(t):
        return f"decimal({t.precision},{t.scale})"
    precision = {"s": 0, "ms": 3, "us": 6, "ns": 9}
    if pa.types.is_time(t):
        return f"time({precision[t.unit]})"
    if pa.types.is_timestamp(t):
        kind = "timestamp_ltz" if t.tz else "timestamp"
        return f"{kind}({precision[t.unit]})"
    return str(t)


_INT32_MAX = 2**31 - 1


def _column_list(owner: str, arg: str, value, columns: Optional[List[str]] = None) -> List[str]:
    """``value`` (None, or a list/tuple of distinct str column names) as a list; with
    ``columns``, every name must be one of them. FlussError (-2) naming ``owner`` and ``arg``."""
    if value is None:
        return []
    if isinstance(value, (str, bytes)):
        raise FlussError(f"{owner}: {arg} must be a list of column names, e.g. [{value!r}], "
                         f"not the single string {value!r}")
    if not isinstance(value, (list, tuple)):
        raise FlussError(f"{owner}: {arg} must be a list of column names, got {type(value).__name__}")
    out: List[str] = []
    for name in value:
        if not isinstance(name, str):
            raise FlussError(f"{owner}: {arg} must hold column names (str), got {name!r}")
        if name in out:
            raise FlussError(f"{owner}: {arg} names column '{name}' twice")
        if columns is not None and name not in columns:
            raise FlussError(f"{owner}: {arg} column '{name}' is not in the schema")
        out.append(name)
    return out


def _string_map(owner: str, arg: str, value) -> Dict[str, str]:
    """``value`` (None, or a dict of str keys to str/int/float/bool values) as ``{str: str}``
    (bools as ``"true"``/``"false"``). FlussError (-2) naming ``owner`` and ``arg``."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise FlussError(f"{owner}: {arg} must be a dict of str to str, got {type(value).__name__}")
    out: Dict[str, str] = {}
    for k, v in value.items():
        if not isinstance(k, str):
            raise FlussError(f"{owner}: {arg} key {k!r} must be a str")
        if isinstance(v, bool):
            v = "true" if v else "false"
        elif isinstance(v, (int, float)):
            v = str(v)
        elif not isinstance(v, str):
            raise FlussError(f"{owner}: {arg} '{k}': value {v!r} must be a str, int, float or bool")
        out[k] = v
    return out


def _optional_str(owner: str, arg: str, value) -> Optional[str]:
    if value is not None and not isinstance(value, str):
        raise FlussError(f"{owner}: {arg} must be a str or None, got {type(value).__name__}")
    return value


class Schema:
    """A table schema: a ``pyarrow.Schema`` plus optional primary-key column names.

    Args:
        schema: the columns, a ``pyarrow.Schema``.
        primary_keys: a list (or tuple) of distinct column names, e.g. ``["id"]``; None or empty
            for a log table.

    Field nullability is kept (``nullable=False`` makes a NOT NULL column); primary-key columns
    are NOT NULL. A field metadata entry ``b"comment"`` becomes the column comment.

    Raises:
        FlussError: error_code -2, naming the argument, if ``schema`` is not a
            ``pyarrow.Schema``, or ``primary_keys`` is not a list of str (a single string such
            as ``"id"`` is rejected: pass ``["id"]``), repeats a name or names a missing column.
    """

    def __init__(self, schema: pa.Schema, primary_keys: Optional[List[str]] = None):
        if not isinstance(schema, pa.Schema):
            raise FlussError(f"Schema: expected a pyarrow.Schema, got {type(schema).__name__}")
        pks = _column_list("Schema", "primary_keys", primary_keys)
        for pk in pks:
            if pk not in schema.names:
                raise FlussError(f"Schema: primary key column '{pk}' is not in the schema")
        if pks:
            schema = pa.schema(
                [f.with_nullable(False) if f.name in pks else f for f in schema], metadata=schema.metadata
            )
        self._schema = schema
        self._primary_keys = pks

    @property
    def arrow_schema(self) -> pa.Schema:
        """The ``pyarrow.Schema``."""
        return self._schema

    def get_column_names(self) -> List[str]:
        return list(self._schema.names)

    def get_column_types(self) -> List[str]:
        """Fluss type names, e.g. ``int``, ``timestamp_ltz(6)``, ``decimal(10,2)``; NOT NULL
        columns end in `` NOT NULL``."""
        return [_type_string(f.type) + ("" if f.nullable else " NOT NULL") for f in self._schema]

    def get_columns(self) -> List[tuple]:
        return list(zip(self.get_column_names(), self.get_column_types()))

    def get_primary_keys(self) -> List[str]:
        return list(self._primary_keys)

    def __str__(self) -> str:
        cols = ", ".join(f"{n} {t}" for n, t in self.get_columns())
        pk = f", PRIMARY KEY ({', '.join(self._primary_keys)})" if self._primary_keys else ""
        return f"({cols}{pk})"

    __repr__ = __str__


class TableDescriptor:
    """Everything needed to create a table.

    Args:
        schema: the ``fluss.Schema``.
        partition_keys: a list (or tuple) of distinct column names to partition by, e.g.
            ``["region"]``.
        bucket_count: number of buckets, an int in 1 .. 2**31-1 (numpy integers accepted);
            None: the server default.
        bucket_keys: a list (or tuple) of distinct column names hashed to pick a row's bucket.
        comment: table comment (str).
        log_format: ``"ARROW"`` (default) or ``"INDEXED"`` (property ``table.log.format``).
        kv_format: ``"COMPACTED"`` or ``"INDEXED"`` for primary-key tables (``table.kv.format``).
        properties: dict of ``table.*`` options, e.g.
            ``{"table.log.arrow.compression.type": "ZSTD"}``; str keys, values str, int, float
            or bool (sent as text, bools as ``"true"``/``"false"``).
        custom_properties: dict of free-form key/value pairs stored with the table (same
            value rules).

    Every argument is checked here, as the seed guide shows them (lists of names, dicts).

    Raises:
        FlussError: error_code -2, naming the argument, for a wrong type (e.g. a single string
            ``"id"`` for a key list: pass ``["id"]``; a non-dict ``properties``), a key column
            that is repeated or not in the schema, or a ``bucket_count`` that is not an int in
            1 .. 2**31-1.
    """

    def __init__(
        self,
        schema: Schema,
        *,
        partition_keys: Optional[List[str]] = None,
        bucket_count: Optional[int] = None,
        bucket_keys: Optional[List[str]] = None,
        comment: Optional[str] = None,
        log_format: Optional[str] = None,
        kv_format: Optional[str] = None,
        properties: Optional[Dict[str, str]] = None,
        custom_properties: Optional[Dict[str, str]] = None,
    ):
        owner = "TableDescriptor"
        if not isinstance(schema, Schema):
            raise FlussError(f"TableDescriptor: schema must be a fluss.Schema, got {type(schema).__name__}")
        columns = schema.get_column_names()
        if bucket_count is not None:
            count = None
            if not isinstance(bucket_count, bool):
                try:
                    count = operator.index(bucket_count)
                except TypeError:
                    pass
            if count is None or not (1 <= count <= _INT32_MAX):
                raise FlussError(f"TableDescriptor: bucket_count must be an int from 1 to {_INT32_MAX}, "
                                 f"got {bucket_count!r}")
            bucket_count = count
        self._schema = schema
        self.partition_keys = _column_list(owner, "partition_keys", partition_keys, columns)
        self.bucket_count = bucket_count
        self.bucket_keys = _column_list(owner, "bucket_keys", bucket_keys, columns)
        self.comment = _optional_str(owner, "comment", comment)
        props = _string_map(owner, "properties", properties)
        custom = _string_map(owner, "custom_properties", custom_properties)
        if log_format is not None:
            if str(log_format).upper() not in ("ARROW", "INDEXED", "COMPACTED"):
                raise FlussError(f"TableDescriptor: log_format must be ARROW or INDEXED, got {log_format!r}")
            props["table.log.format"] = str(log_format).upper()
        if kv_format is not None:
            if str(kv_format).upper() not in ("COMPACTED", "INDEXED"):
                raise FlussError(f"TableDescriptor: kv_format must be COMPACTED or INDEXED, got {kv_format!r}")
            props["table.kv.format"] = str(kv_format).upper()
        self.properties = props
        self.custom_properties = custom

    def get_schema(self) -> Schema:
        return self._schema


class TableInfo:
    """A table as the server describes it (server defaults included)."""

    def __init__(self, d: dict):
        self._d = d
        self._schema = Schema(_schema_from_capsule(d["schema"]), d["primary_keys"] or None)

    table_id = property(lambda self: self._d["table_id"], doc="Server-assigned table id.")
    schema_id = property(lambda self: self._d["schema_id"], doc="Current schema id (1 for a new table).")
    created_time = property(lambda self: self._d["created_time"], doc="Creation time, epoch ms.")
    modified_time = property(lambda self: self._d["modified_time"], doc="Last change time, epoch ms.")
    num_buckets = property(lambda self: self._d["num_buckets"], doc="Buckets of the table (per partition).")
    comment = property(lambda self: self._d["comment"], doc="Table comment or None.")

    @property
    def table_path(self) -> TablePath:
        return TablePath(self._d["database_name"], self._d["table_name"])

    def get_primary_keys(self) -> List[str]:
        return list(self._d["primary_keys"])

    def get_bucket_keys(self) -> List[str]:
        return list(self._d["bucket_keys"])

    def get_partition_keys(self) -> List[str]:
        return list(self._d["partition_keys"])

    def has_primary_key(self) -> bool:
        return bool(self._d["primary_keys"])

    def is_partitioned(self) -> bool:
        return bool(self._d["partition_keys"])

    def get_properties(self) -> Dict[str, str]:
        return dict(self._d["properties"])

    def get_custom_properties(self) -> Dict[str, str]:
        return dict(self._d["custom_properties"])

    def get_schema(self) -> Schema:
        return self._schema

    def get_column_names(self) -> List[str]:
        return self._schema.get_column_names()

    def get_column_count(self) -> int:
        return len(self._schema.get_column_names())

    def __repr__(self) -> str:
        return f"TableInfo({self.table_path.table_path_str()}, id={self.table_id}, buckets={self.num_buckets}, schema={self._schema})"


class DatabaseDescriptor:
    """A database's comment and custom properties.

    Args:
        comment: the database comment (str) or None.
        custom_properties: dict of str keys to str, int, float or bool values (sent as text).

    Raises:
        FlussError: error_code -2, naming the argument, for a non-str comment or a
            ``custom_properties`` that is not such a dict.
    """

    def __init__(self, comment: Optional[str] = None, custom_properties: Optional[Dict[str, str]] = None):
        self.comment = _optional_str("DatabaseDescriptor", "comment", comment)
        self._custom = _string_map("DatabaseDescriptor", "custom_properties", custom_properties)

    def get_custom_properties(self) -> Dict[str, str]:
        return dict(self._custom)


class DatabaseInfo:
    """A database as the server describes it."""

    def __init__(self, d: dict):
        self.database_name: str = d["database_name"]
        self.created_time: int = d["created_time"]
        self.modified_time: int = d["modified_time"]
        self._descriptor = DatabaseDescriptor(d["comment"], d["custom_properties"])

    def get_database_descriptor(self) -> DatabaseDescriptor:
        return self._descriptor


# ------------------------------------------------------------------------------- admin

_OFFSET_TYPES = {"earliest": 0, "latest": 1, "timestamp": 2}


def _partition_spec(owner: str, spec) -> Dict[str, str]:
    if not isinstance(spec, Mapping):
        raise FlussError(f"{owner}: partition_spec must be a dict {{partition_key: value}}, got {type(spec).__name__}")
    for k, v in spec.items():
        if not isinstance(k, str):
            raise FlussError(f"{owner}: partition_spec key {k!r} must be a str (a partition key)")
        if v is None:
            raise FlussError(f"{owner}: partition_spec '{k}': the value must not be None")
    return {k: str(v) for k, v in spec.items()}


def _check_path(table_path) -> TablePath:
    if not isinstance(table_path, TablePath):
        raise FlussError(f"table_path must be a fluss.TablePath, got {type(table_path).__name__}")
    return table_path


class FlussAdmin:
    """Database and table administration. Every method returns an awaitable."""

    def __init__(self, native):
        self._n = native

    async def create_database(self, database_name: str, ignore_if_exists: bool = False,
                              database_descriptor: Optional[DatabaseDescriptor] = None) -> None:
        """Creates a database. Raises FlussError (6 DATABASE_ALREADY_EXIST unless
        ``ignore_if_exists``; CLIENT_ERROR for a bad name)."""
        d = database_descriptor or DatabaseDescriptor()
        await self._n.create_database(database_name, d.comment, d.get_custom_properties(), bool(ignore_if_exists))

    async def drop_database(self, database_name: str, ignore_if_not_exists: bool = False,
                            cascade: bool = True) -> None:
        """Drops a database and, with ``cascade``, its tables. Raises FlussError
        (4 DATABASE_NOT_EXIST unless ``ignore_if_not_exists``; 5 DATABASE_NOT_EMPTY)."""
        await self._n.drop_database(database_name, bool(ignore_if_not_exists), bool(cascade))

    async def list_databases(self) -> List[str]:
        """Names of all databases."""
        return await self._n.list_databases()

    async def database_exists(self, database_name: str) -> bool:
        return await self._n.database_exists(database_name)

    async def get_database_info(self, database_name: str) -> DatabaseInfo:
        """Raises FlussError 4 DATABASE_NOT_EXIST."""
        return DatabaseInfo(await self._n.get_database_info(database_name))

    async def create_table(self, table_path: TablePath, table_descriptor: TableDescriptor,
                           ignore_if_exists: Optional[bool] = False) -> None:
        """Creates a table. Raises FlussError: 8 TABLE_ALREADY_EXIST unless
        ``ignore_if_exists``, 4 DATABASE_NOT_EXIST, CLIENT_ERROR naming the column for a
        schema the client cannot map (checked before anything is sent)."""
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
        """Raises FlussError 7 TABLE_NOT_EXIST unless ``ignore_if_not_exists``."""
        p = _check_path(table_path)
        await self._n.drop_table(p.database_name, p.table_name, bool(ignore_if_not_exists))

    async def get_table(self, table_path: TablePath) -> TableInfo:
        """The table's metadata. Raises FlussError 7 TABLE_NOT_EXIST."""
        p = _check_path(table_path)
        return TableInfo(await self._n.get_table_info(p.database_name, p.table_name))

    get_table_info = get_table

    async def list_tables(self, database_name: str) -> List[str]:
        """Table names of a database. Raises FlussError 4 DATABASE_NOT_EXIST."""
        return await self._n.list_tables(database_name)

    async def table_exists(self, table_path: TablePath) -> bool:
        p = _check_path(table_path)
        return await self._n.table_exists(p.database_name, p.table_name)

    async def list_partition_offsets(self, table_path: TablePath, partition_name: str, bucket_ids: Iterable[int],
                                     offset_type: str, timestamp: Optional[int] = None) -> Dict[int, int]:
        """``list_offsets`` for the buckets of one partition, named by its value (``"US"``, not
        ``"region=US"``). Raises FlussError 36 PARTITION_NOT_EXISTS for an unknown partition."""
        p = _check_path(table_path)
        kind = self._offset_kind(offset_type, timestamp)
        return await self._n.list_partition_offsets(p.database_name, p.table_name, str(partition_name),
                                                    [int(b) for b in bucket_ids], kind, timestamp)

    async def create_partition(self, table_path: TablePath, partition_spec: Dict[str, str],
                               ignore_if_exists: bool = False) -> None:
        """Creates the partition ``partition_spec``: a dict ``{partition_key: value}`` naming
        every partition key once (values are sent as ``str(value)``). Raises FlussError:
        42 PARTITION_ALREADY_EXISTS unless ``ignore_if_exists``, 43
        PARTITION_SPEC_INVALID_EXCEPTION, 37 TABLE_NOT_PARTITIONED_EXCEPTION; -2 naming
        partition_spec when it is not a dict with str keys."""
        p = _check_path(table_path)
        spec = _partition_spec("create_partition", partition_spec)
        await self._n.create_partition(p.database_name, p.table_name, spec, bool(ignore_if_exists))

    async def drop_partition(self, table_path: TablePath, partition_spec: Dict[str, str],
                             ignore_if_not_exists: bool = False) -> None:
        """Drops the partition ``partition_spec`` (a dict as for ``create_partition``). Raises
        FlussError 36 PARTITION_NOT_EXISTS unless ``ignore_if_not_exists``; -2 naming
        partition_spec when it is not a dict with str keys."""
        p = _check_path(table_path)
        spec = _partition_spec("drop_partition", partition_spec)
        await self._n.drop_partition(p.database_name, p.table_name, spec, bool(ignore_if_not_exists))

    async def _bucket_leaders(self, table_path: TablePath) -> Dict[int, int]:
        """``{bucket_id: tablet_server_id}`` of a non-partitioned table, from a metadata refresh at
        the coordinator (buckets without a live leader are absent). Internal: for tests and
        diagnostics.

        Raises:
            FlussError: TABLE_NOT_EXIST (7) for an unknown table.
        """
        p = _check_path(table_path)
        return await self._n.bucket_leaders(p.database_name, p.table_name)

    async def list_partition_infos(self, table_path: TablePath) -> List["PartitionInfo"]:
        """The partitions of a partitioned table."""
        p = _check_path(table_path)
        return [PartitionInfo(*t) for t in await self._n.list_partition_infos(p.database_name, p.table_name)]

    @staticmethod
    def _offset_kind(offset_type, timestamp) -> int:
        kind = _OFFSET_TYPES.get(str(offset_type).lower())
        if kind is None:
            raise FlussError(f"offset_type must be 'earliest', 'latest' or 'timestamp', got {offset_type!r}")
        if kind == 2 and timestamp is None:
            raise FlussError("offset_type 'timestamp' needs timestamp (epoch milliseconds)")
        return kind

    async def list_offsets(self, table_path: TablePath, bucket_ids: Iterable[int], offset_type: str,
                           timestamp: Optional[int] = None) -> Dict[int, int]:
        """Offsets of buckets, asked from their leaders.

        Args:
            offset_type: ``"earliest"`` (log start), ``"latest"`` (high watermark: the offset the
                next record will get) or ``"timestamp"`` (first offset whose commit time is at or
                after ``timestamp``, epoch milliseconds).

        Returns:
            ``{bucket_id: offset}``.
        """
        p = _check_path(table_path)
        kind = self._offset_kind(offset_type, timestamp)
        return await self._n.list_offsets(p.database_name, p.table_name, [int(b) for b in bucket_ids], kind, timestamp)


class PartitionInfo:
    """A partition of a partitioned table."""

    __slots__ = ("partition_id", "partition_name", "_spec")

    def __init__(self, partition_id: int, partition_name: str, spec: Dict[str, str]):
        self.partition_id = partition_id      #: server-assigned id
        self.partition_name = partition_name  #: the value(s), '$'-joined in partition-key order
        self._spec = dict(spec)

    def get_partition_spec(self) -> Dict[str, str]:
        """``{partition_key: value}``"""
        return dict(self._spec)

    def __repr__(self) -> str:
        return f"PartitionInfo(partition_id={self.partition_id}, partition_name={self.partition_name!r})"


# ------------------------------------------------------------------------------- writing


def _lossless(got: pa.DataType, want: pa.DataType) -> bool:
    """Whether every value of Arrow type ``got`` fits ``want`` unchanged (a cast may still check
    the values, e.g. timestamp units)."""
    t = pa.types
    if t.is_large_string(got) and t.is_string(want):
        return True
    if t.is_large_binary(got) and t.is_binary(want):
        return True
    if t.is_signed_integer(got) and t.is_signed_integer(want):
        return got.bit_width <= want.bit_width
    if t.is_float32(got) and t.is_float64(want):
        return True
    if t.is_timestamp(got) and t.is_timestamp(want):
        return bool(got.tz) == bool(want.tz)  # units may differ: the safe cast checks values
    if t.is_time(got) and t.is_time(want):
        return True  # the safe cast checks values
    if t.is_date(got) and t.is_date(want):
        return True
    return False


#: Returned by every write: ``await handle.wait()`` resolves once the server acknowledged it.
WriteResultHandle = _fluss.WriteResultHandle


class AppendWriter:
    """Writes rows and Arrow data to a log table.

    Rows go into per-bucket batches, sent when a batch reaches ``writer.batch.size`` bytes, after
    ``client.writer.batch-timeout`` (100 ms), or on ``flush()``; each write returns a
    ``WriteResultHandle``: ``await handle.wait()`` for its acknowledgement, or ignore it and let
    ``flush()`` report failures.
    """

    def __init__(self, native, table_info: TableInfo):
        self._n = native
        self._schema = table_info.get_schema().arrow_schema
        # Bind the native hot path directly: no Python frame per row. (A bound method of the
        # native object only: storing one of self would make a reference cycle that keeps the
        # connection's sockets and I/O thread alive until the cycle collector runs.)
        self.append = native.append

    def append(self, row) -> WriteResultHandle:  # replaced per instance by the native method
        """Appends one row: a dict ``{column: value}`` (nullable columns may be left out) or a
        list/tuple in column order. Values: bool, int, float, str, bytes, datetime.date,
        datetime.time, datetime.datetime or pandas.Timestamp (naive, or aware for
        ``timestamp(tz=...)`` columns), numpy.datetime64 (units W, D, h, m, s, ms, us, ns; naive,
        UTC for ``timestamp(tz=...)`` columns), decimal.Decimal. ``None``, ``pandas.NaT`` and
        ``numpy.datetime64('NaT')`` are null (in date, time and timestamp columns for NaT), as in
        ``write_pandas``.

        When the writer's buffer holds ``client.writer.buffer.memory-size`` bytes (default
        64 MiB) of unsent data, ``append`` called on a thread running an asyncio event loop does
        not wait (that would block every task of the loop): it raises a retriable FlussError at
        once (a ``FlussTimeoutError``, error_code 25) and queues nothing; ``await
        writer.wait_for_capacity()`` and append again. On other threads (plain scripts,
        ``asyncio.to_thread``) it waits with the GIL released for at most
        ``client.writer.buffer.wait-timeout`` (default: without limit), then raises that error.

        Raises:
            FlussError: naming the column for an unknown key, a wrong type, an out-of-range value,
                a missing NOT NULL value (or NaT in a NOT NULL column) or a wrong row length
                (error_code -2); the retriable buffer-full error above. Nothing already queued is
                lost.
        """
        return self._n.append(row)

    async def wait_for_capacity(self, timeout_ms: Optional[int] = None) -> None:
        """Waits, without blocking the event loop, until the writer's buffer has room
        (buffered bytes below ``client.writer.buffer.memory-size``), so the next ``append``
        does not fail for a full buffer. Returns at once when there is room. The buffer empties
        as the server acknowledges batches (sent at ``writer.batch.size``, after
        ``client.writer.batch-timeout``, or on ``flush()``).

        Args:
            timeout_ms: longest wait in milliseconds (int >= 0); None (default) means
                ``client.writer.buffer.wait-timeout`` of the connection (default: without limit).

        Raises:
            FlussTimeoutError: (a FlussError, error_code 25, ``is_retriable()`` True) when the
                buffer is still full after ``timeout_ms``.
            FlussError: error_code -2 for a ``timeout_ms`` that is not an int >= 0.
        """
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

    def _conform(self, batch: pa.RecordBatch, method: str = "write_arrow_batch") -> pa.RecordBatch:
        """Checks a batch against the table (names, types, nulls in NOT NULL columns) and casts
        columns whose Arrow type only widens the table's (large_string -> string, int32 ->
        int64, float32 -> float64, timestamp units when no value changes); anything else
        raises FlussError naming the column."""
        if not isinstance(batch, pa.RecordBatch):
            raise FlussError(f"{method}: expected a pyarrow.RecordBatch, got {type(batch).__name__}")
        if batch.num_columns != len(self._schema):
            raise FlussError(f"{method}: batch has {batch.num_columns} columns but the table has "
                             f"{len(self._schema)}")
        arrays = []
        for i, (got, want) in enumerate(zip(batch.schema, self._schema)):
            if got.name != want.name:
                raise FlussError(f"{method}: column {i} is '{got.name}' but the table's column is '{want.name}'")
            col = batch.column(i)
            if not got.type.equals(want.type):
                if not _lossless(got.type, want.type):
                    raise FlussError(f"{method}: column '{got.name}' has type {got.type}, which the table's "
                                     f"type {want.type} cannot hold without loss")
                try:
                    col = col.cast(want.type, safe=True)
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
                    raise FlussError(f"{method}: column '{got.name}' of type {got.type} cannot be "
                                     f"converted to the table's type {want.type} without loss: {e}") from None
            if not want.nullable and col.null_count > 0:
                raise FlussError(f"{method}: column '{got.name}' is NOT NULL but has {col.null_count} nulls")
            arrays.append(col)
        return pa.RecordBatch.from_arrays(arrays, schema=self._schema)

    def _write_arrow_batch(self, batch: pa.RecordBatch) -> WriteResultHandle:
        return self._n.write_arrow_batch(self._conform(batch))

    def write_arrow_batch(self, batch: pa.RecordBatch) -> WriteResultHandle:
        """Appends a ``pyarrow.RecordBatch`` whose columns match the table's names and types.
        Sent without per-row conversion. Raises FlussError naming a mismatched column."""
        return self._write_arrow_batch(batch)

    def write_arrow(self, table: pa.Table) -> None:
        """Appends every batch of a ``pyarrow.Table`` (handles are not returned; use flush).
        All batches are checked before any is queued: a bad one raises FlussError and nothing
        of the table is written."""
        if not isinstance(table, pa.Table):
            raise FlussError(f"write_arrow: expected a pyarrow.Table, got {type(table).__name__}")
        batches = [self._conform(b, "write_arrow") for b in table.to_batches()]
        for batch in batches:
            self._n.write_arrow_batch(batch)

    def write_pandas(self, df) -> None:
        """Appends a pandas DataFrame, converted with the table's Arrow schema (columns by name;
        the index is ignored). Raises FlussError for a missing or unknown column or a value
        the column's type cannot hold; nothing of the frame is written then."""
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
        self.write_arrow(table)

    async def flush(self) -> None:
        """Sends every open batch and returns when all writes made before the call are complete.

        Raises:
            FlussError: when any write since the previous flush failed, also writes whose
                handles were never awaited (fire-and-forget appends). The message says how many
                rows and batches failed and gives the first failure; ``error_code`` is that
                failure's code (e.g. 25 when ``client.writer.delivery-timeout`` passed). Each
                failure is reported once: the next flush starts from zero.
        """
        await self._n.flush()


# ------------------------------------------------------------------------------- reading


class TableBucket:
    """A bucket of a table (or of one partition of a partitioned table)."""

    __slots__ = ("table_id", "bucket_id", "partition_id")

    def __init__(self, table_id: int, bucket: int):
        self.table_id = table_id
        self.bucket_id = bucket
        self.partition_id: Optional[int] = None

    @staticmethod
    def with_partition(table_id: int, partition_id: int, bucket: int) -> "TableBucket":
        tb = TableBucket(table_id, bucket)
        tb.partition_id = partition_id
        return tb

    def _key(self):
        return (self.table_id, self.partition_id, self.bucket_id)

    def __eq__(self, other) -> bool:
        return isinstance(other, TableBucket) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        p = f", partition_id={self.partition_id}" if self.partition_id is not None else ""
        return f"TableBucket(table_id={self.table_id}{p}, bucket={self.bucket_id})"


class ScanRecord:
    """One record from a record scanner's ``poll``."""

    __slots__ = ("bucket", "offset", "timestamp", "change_type", "row")

    def __init__(self, bucket: TableBucket, offset: int, timestamp: int, change_type: ChangeType, row: dict):
        self.bucket = bucket            #: the TableBucket it came from
        self.offset = offset            #: its offset in the bucket
        self.timestamp = timestamp      #: commit time of its batch, epoch ms
        self.change_type = change_type  #: ChangeType.AppendOnly (+A) for log tables
        self.row = row                  #: {column: value}

    def __repr__(self) -> str:
        return (f"ScanRecord(bucket={self.bucket.bucket_id}, offset={self.offset}, timestamp={self.timestamp}, "
                f"change_type={self.change_type.short_string()}, row={self.row})")


class RecordBatch:
    """One Arrow record batch from a batch scanner's ``poll_batches``: the records at offsets
    ``base_offset`` .. ``last_offset`` of ``bucket``."""

    __slots__ = ("batch", "bucket", "base_offset", "last_offset")

    def __init__(self, batch: pa.RecordBatch, bucket: TableBucket, base_offset: int, last_offset: int):
        self.batch = batch
        self.bucket = bucket
        self.base_offset = base_offset
        self.last_offset = last_offset

    def __repr__(self) -> str:
        return (f"RecordBatch(bucket={self.bucket.bucket_id}, base_offset={self.base_offset}, "
                f"last_offset={self.last_offset}, num_rows={self.batch.num_rows})")


class _BatchCapsules:
    def __init__(self, capsules):
        self._c = capsules

    def __arrow_c_array__(self, requested_schema=None):
        return self._c


_CHANGE_TYPES = list(ChangeType)
_ASYNC_ITER_POLL_MS = 1000


class LogScanner:
    """Reads the buckets of a log table.

    Made by ``TableScan.create_log_scanner()`` (record mode: ``poll`` returns ``ScanRecord``s)
    or ``TableScan.create_batch_scanner()`` (batch mode: ``poll_arrow``, ``poll_batches``).
    Both read to the current end with ``to_arrow`` / ``to_pandas``. Blocking calls release the
    GIL and answer Ctrl-C; each has an ``*_async`` twin, and ``async for`` streams records
    (record mode) or ``RecordBatch`` items (batch mode).
    """

    def __init__(self, native, table_info: TableInfo, record_mode: bool):
        self._n = native
        self._info = table_info
        self._records_mode = record_mode
        self._schema = _schema_from_capsule(native.schema_capsule())
        self._pending: list = []
        self._prev_settled = None
        # Record polls return at most client.scanner.log.max-poll-records records (Python
        # objects per record); Arrow polls return whole fetches.
        self._max_records = native.max_poll_records if record_mode else 0

    # ---- subscriptions

    def subscribe(self, bucket_id: int, start_offset: int) -> None:
        """Reads ``bucket_id`` from ``start_offset``: an offset, ``EARLIEST_OFFSET`` or
        ``LATEST_OFFSET`` (only records written after the next read starts). Raises FlussError
        for a bucket outside the table or an invalid offset."""
        self._n.subscribe(int(bucket_id), int(start_offset))

    def subscribe_buckets(self, bucket_offsets: Dict[int, int]) -> None:
        """``subscribe`` for each ``{bucket_id: start_offset}`` item (all checked first)."""
        for b in bucket_offsets:
            if not (0 <= int(b) < self._info.num_buckets):
                raise FlussError(f"bucket {b} is outside table {self._info.table_path} ({self._info.num_buckets} buckets)")
        for b, off in bucket_offsets.items():
            self._n.subscribe(int(b), int(off))

    def unsubscribe(self, bucket_id: int) -> None:
        """Stops reading ``bucket_id``; records of it not yet returned are dropped."""
        self._n.unsubscribe(int(bucket_id))

    # ---- conversion

    def _bucket(self, b: int) -> TableBucket:
        return TableBucket(self._info.table_id, b)

    def _batches(self, polled) -> List[RecordBatch]:
        out = []
        for bucket, base, last, _ts, caps, _ct in polled.items():
            out.append(RecordBatch(pa.record_batch(_BatchCapsules(caps)), self._bucket(bucket), base, last))
        return out

    def _records(self, polled) -> List[ScanRecord]:
        out = []
        for bucket, base, _last, ts, caps, ct in polled.items():
            tb = self._bucket(bucket)
            rows = pa.record_batch(_BatchCapsules(caps)).to_pylist()
            for i, row in enumerate(rows):
                change = ChangeType.AppendOnly if ct is None else _CHANGE_TYPES[ct[i]]
                out.append(ScanRecord(tb, base + i, ts, change, row))
        return out

    def _arrow(self, polled) -> pa.Table:
        batches = [pa.record_batch(_BatchCapsules(item[4])) for item in polled.items()]
        return pa.Table.from_batches(batches, schema=self._schema)

    @staticmethod
    def _check_timeout(timeout_ms) -> int:
        if not isinstance(timeout_ms, int) or isinstance(timeout_ms, bool) or timeout_ms < 0:
            raise FlussError(f"timeout_ms must be an int >= 0, got {timeout_ms!r}")
        return timeout_ms

    async def _poll_async(self, timeout_ms: int):
        timeout_ms = self._check_timeout(timeout_ms)
        return await self._await_read(self._n.poll_async, timeout_ms, self._max_records)

    async def _await_read(self, start, *args):
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

    def _require(self, record_mode: bool, method: str) -> None:
        if self._records_mode != record_mode:
            other = "create_log_scanner()" if record_mode else "create_batch_scanner()"
            raise FlussError(f"{method}() needs a scanner made by {other}")

    # ---- record mode

    def poll(self, timeout_ms: int) -> List[ScanRecord]:
        """Records available now, or those arriving within ``timeout_ms`` milliseconds (an empty
        list after the timeout). Returns as soon as any arrive. Record scanner only."""
        self._require(True, "poll")
        return self._records(self._n.poll_blocking(self._check_timeout(timeout_ms), self._max_records))

    async def poll_async(self, timeout_ms: int) -> List[ScanRecord]:
        """Awaitable twin of ``poll``; never blocks the event loop."""
        self._require(True, "poll_async")
        return self._records(await self._poll_async(timeout_ms))

    # ---- batch mode

    def poll_batches(self, timeout_ms: int) -> List[RecordBatch]:
        """Arrow batches with their bucket and offsets, as ``poll``. Batch scanner only."""
        self._require(False, "poll_batches")
        return self._batches(self._n.poll_blocking(self._check_timeout(timeout_ms), 0))

    async def poll_batches_async(self, timeout_ms: int) -> List[RecordBatch]:
        """Awaitable twin of ``poll_batches``."""
        self._require(False, "poll_batches_async")
        return self._batches(await self._poll_async(timeout_ms))

    def poll_arrow(self, timeout_ms: int) -> pa.Table:
        """What ``poll_batches`` returns, as one ``pyarrow.Table`` (empty, with the scanner's
        schema, after the timeout). Batch scanner only."""
        self._require(False, "poll_arrow")
        return self._arrow(self._n.poll_blocking(self._check_timeout(timeout_ms), 0))

    async def poll_arrow_async(self, timeout_ms: int) -> pa.Table:
        """Awaitable twin of ``poll_arrow``."""
        self._require(False, "poll_arrow_async")
        return self._arrow(await self._poll_async(timeout_ms))

    # ---- bounded reads

    def to_arrow(self) -> pa.Table:
        """Reads every subscribed bucket up to its high watermark at call time and returns a
        ``pyarrow.Table`` (empty, with the scanner's schema, when there is nothing to read).
        Blocks with the GIL released; Ctrl-C interrupts it."""
        return _table_from_capsule(self._n.table_capsule(self._n.to_arrow_blocking()))

    def to_pandas(self):
        """``to_arrow().to_pandas()``."""
        return self.to_arrow().to_pandas()

    async def to_arrow_async(self) -> pa.Table:
        """Awaitable twin of ``to_arrow`` that never blocks the event loop. Cancelling the await
        loses nothing: what the read fetched goes back to the scanner, and the next read or
        poll returns it."""
        return _table_from_capsule(self._n.table_capsule(await self._await_read(self._n.to_arrow_async)))

    async def to_pandas_async(self):
        """Awaitable twin of ``to_pandas``."""
        return (await self.to_arrow_async()).to_pandas()

    # ---- async iteration

    def __aiter__(self):
        return self

    async def __anext__(self):
        """The next record (record scanner) or ``RecordBatch`` (batch scanner); waits for data
        without end (stop with ``break`` or by cancelling the task)."""
        while not self._pending:
            polled = await self._poll_async(_ASYNC_ITER_POLL_MS)
            self._pending = self._records(polled) if self._records_mode else self._batches(polled)
            self._pending.reverse()
        return self._pending.pop()


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


# ------------------------------------------------------------------------------- connection

_open_connections: "weakref.WeakSet[FlussConnection]" = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    # Stop I/O threads before the interpreter tears down (they call into Python).
    for conn in list(_open_connections):
        try:
            conn.close()
        except Exception:
            pass


class FlussConnection:
    """A connection to a Fluss cluster. Create it with ``await FlussConnection.connect(config)``;
    close it with ``close()`` or a ``with`` / ``async with`` block."""

    def __init__(self, native):
        self._n = native
        self._closed = False
        _open_connections.add(self)

    @staticmethod
    async def connect(config: Config) -> "FlussConnection":
        """Connects to the cluster named by ``bootstrap.servers``.

        Raises:
            FlussError: error_code 1 NETWORK_EXCEPTION when no bootstrap server answers (e.g.
                connection refused; reported within a second), -2 for a bad config.
        """
        if not isinstance(config, Config):
            raise FlussError(f"connect: expected a fluss.Config, got {type(config).__name__}")
        return FlussConnection(await _fluss._Connection.connect(config.to_dict()))

    async def get_admin(self) -> FlussAdmin:
        """The admin client (shares this connection)."""
        self._check_open()
        return FlussAdmin(self._n.get_admin())

    async def get_table(self, table_path: TablePath) -> FlussTable:
        """A table handle. Raises FlussError 7 TABLE_NOT_EXIST."""
        self._check_open()
        p = _check_path(table_path)
        return FlussTable(await self._n.get_table(p.database_name, p.table_name), self)

    def close(self) -> None:
        """Flushes pending writes (waiting at most ``client.request-timeout``), then closes the
        server connections and stops the I/O thread. Idempotent.

        Raises:
            FlussError: as ``flush()`` does, when a write since the last flush failed or pending
                writes could not be acknowledged in time (those fail with the connection
                closed).
        """
        if self._closed:
            return
        self._closed = True
        _open_connections.discard(self)
        self._n.close()

    def _check_open(self) -> None:
        if self._closed:
            raise FlussError("the connection is closed")

    def __enter__(self) -> "FlussConnection":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    async def __aenter__(self) -> "FlussConnection":
        return self

    async def __aexit__(self, *exc) -> None:
        self.close()
