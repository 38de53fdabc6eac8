"""Table and database metadata: paths, descriptors (what to create) and infos (what the
server describes)."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Dict, List, Optional

from ._arrow import _schema_from_capsule
from ._errors import FlussError
from ._schema import Schema
from ._validate import _MAX_BUCKETS, _column_list, _optional_str, _string_map

if TYPE_CHECKING:
    from typing import TypedDict

    class _TableInfoDict(TypedDict):
        """What the native module describes a table with (python/src/table.cc)."""

        database_name: str
        table_name: str
        table_id: int
        schema_id: int
        created_time: int
        modified_time: int
        num_buckets: int
        schema: object  # an Arrow C Data Interface schema capsule
        primary_keys: List[str]
        partition_keys: List[str]
        bucket_keys: List[str]
        bucket_count: Optional[int]
        comment: Optional[str]
        properties: Dict[str, str]
        custom_properties: Dict[str, str]

    class _DatabaseInfoDict(TypedDict):
        """What the native module describes a database with (python/src/admin.cc)."""

        database_name: str
        comment: Optional[str]
        custom_properties: Dict[str, str]
        created_time: int
        modified_time: int


class TablePath:
    """A table's identity: ``TablePath(database_name, table_name)``."""

    __slots__ = ("database_name", "table_name")

    def __init__(self, database_name: str, table_name: str) -> None:
        if not isinstance(database_name, str) or not isinstance(table_name, str):
            raise FlussError("TablePath: database_name and table_name must be str")
        self.database_name = database_name
        self.table_name = table_name

    def table_path_str(self) -> str:
        """``"database.table"``"""
        return f"{self.database_name}.{self.table_name}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TablePath) and (self.database_name, self.table_name) == (
            other.database_name,
            other.table_name,
        )

    def __hash__(self) -> int:
        return hash((self.database_name, self.table_name))

    def __repr__(self) -> str:
        return f"TablePath({self.database_name!r}, {self.table_name!r})"

    __str__ = table_path_str


def _check_path(table_path: object) -> TablePath:
    """``table_path`` when it is a TablePath; FlussError (-2) otherwise, before anything is sent."""
    if not isinstance(table_path, TablePath):
        raise FlussError(f"table_path must be a fluss.TablePath, got {type(table_path).__name__}")
    return table_path


class TableDescriptor:
    """Everything needed to create a table.

    Args:
        schema: the ``fluss.Schema``.
        partition_keys: a list (or tuple) of distinct column names to partition by, e.g.
            ``["region"]``.
        bucket_count: number of buckets, an int in 1 .. 128000 (numpy integers accepted; the
            server's default ``max.bucket.num``: a Fluss 0.9.1 coordinator runs out of memory on
            a count in the millions before it checks its limit); None: the server default.
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
            1 .. 128000.
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
    ) -> None:
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
            if count is None or not (1 <= count <= _MAX_BUCKETS):
                raise FlussError(f"TableDescriptor: bucket_count must be an int from 1 to {_MAX_BUCKETS} (the "
                                 f"server's default max.bucket.num), got {bucket_count!r}")
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
        """The ``fluss.Schema`` given."""
        return self._schema


class TableInfo:
    """A table as the server describes it (server defaults included)."""

    def __init__(self, d: _TableInfoDict) -> None:
        self._d = d
        self._schema = Schema(_schema_from_capsule(d["schema"]), d["primary_keys"] or None)

    if TYPE_CHECKING:
        # The properties below as type checkers see them (a lambda has no annotations).
        @property
        def table_id(self) -> int: ...
        @property
        def schema_id(self) -> int: ...
        @property
        def created_time(self) -> int: ...
        @property
        def modified_time(self) -> int: ...
        @property
        def num_buckets(self) -> int: ...
        @property
        def comment(self) -> Optional[str]: ...
    else:
        table_id = property(lambda self: self._d["table_id"], doc="Server-assigned table id.")
        schema_id = property(lambda self: self._d["schema_id"], doc="Current schema id (1 for a new table).")
        created_time = property(lambda self: self._d["created_time"], doc="Creation time, epoch ms.")
        modified_time = property(lambda self: self._d["modified_time"], doc="Last change time, epoch ms.")
        num_buckets = property(lambda self: self._d["num_buckets"], doc="Buckets of the table (per partition).")
        comment = property(lambda self: self._d["comment"], doc="Table comment or None.")

    @property
    def table_path(self) -> TablePath:
        """The table's ``TablePath`` (database and table name)."""
        return TablePath(self._d["database_name"], self._d["table_name"])

    def get_primary_keys(self) -> List[str]:
        """The primary-key column names, in key order; empty for a log table."""
        return list(self._d["primary_keys"])

    def get_bucket_keys(self) -> List[str]:
        """The column names hashed to pick a row's bucket; empty when rows are spread without a key."""
        return list(self._d["bucket_keys"])

    def get_partition_keys(self) -> List[str]:
        """The partition column names; empty for a table without partitions."""
        return list(self._d["partition_keys"])

    def has_primary_key(self) -> bool:
        """True for a primary-key table."""
        return bool(self._d["primary_keys"])

    def is_partitioned(self) -> bool:
        """True when the table has partition keys."""
        return bool(self._d["partition_keys"])

    def get_properties(self) -> Dict[str, str]:
        """The table's ``table.*`` properties as the server holds them (server defaults included),
        ``{key: value}`` with values as text."""
        return dict(self._d["properties"])

    def get_custom_properties(self) -> Dict[str, str]:
        """The table's custom properties, ``{key: value}`` with values as text."""
        return dict(self._d["custom_properties"])

    def get_schema(self) -> Schema:
        """The table's ``fluss.Schema`` (columns and primary keys)."""
        return self._schema

    def get_column_names(self) -> List[str]:
        """The column names, in table order."""
        return self._schema.get_column_names()

    def get_column_count(self) -> int:
        """The number of columns."""
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

    def __init__(self, comment: Optional[str] = None, custom_properties: Optional[Dict[str, str]] = None) -> None:
        self.comment = _optional_str("DatabaseDescriptor", "comment", comment)
        self._custom = _string_map("DatabaseDescriptor", "custom_properties", custom_properties)

    def get_custom_properties(self) -> Dict[str, str]:
        """The custom properties, ``{key: value}`` with values as text (a copy)."""
        return dict(self._custom)


class DatabaseInfo:
    """A database as the server describes it (``FlussAdmin.get_database_info``).

    Attributes:
        database_name: the database's name (str).
        created_time: when it was created, epoch milliseconds.
        modified_time: when it was last changed, epoch milliseconds.
    """

    def __init__(self, d: _DatabaseInfoDict) -> None:
        self.database_name: str = d["database_name"]
        self.created_time: int = d["created_time"]
        self.modified_time: int = d["modified_time"]
        self._descriptor = DatabaseDescriptor(d["comment"], d["custom_properties"])

    def get_database_descriptor(self) -> DatabaseDescriptor:
        """The database's comment and custom properties, as a ``DatabaseDescriptor``."""
        return self._descriptor


class PartitionInfo:
    """A partition of a partitioned table (``FlussAdmin.list_partition_infos``).

    Attributes:
        partition_id: the server-assigned id (int), as ``subscribe_partition`` and
            ``TableBucket.with_partition`` take it.
        partition_name: its name: the partition value(s), ``$``-joined in partition-key order
            (e.g. ``"US"``, ``"US$2024"``).
    """

    __slots__ = ("partition_id", "partition_name", "_spec")

    def __init__(self, partition_id: int, partition_name: str, spec: Dict[str, str]) -> None:
        self.partition_id = partition_id      #: server-assigned id
        self.partition_name = partition_name  #: the value(s), '$'-joined in partition-key order
        self._spec = dict(spec)

    def get_partition_spec(self) -> Dict[str, str]:
        """``{partition_key: value}``"""
        return dict(self._spec)

    def __repr__(self) -> str:
        return f"PartitionInfo(partition_id={self.partition_id}, partition_name={self.partition_name!r})"
