"""What scanners return: records, Arrow batches, the bucket they came from, change types."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Tuple, Union, cast, overload

import pyarrow as pa

if TYPE_CHECKING:
    from typing import SupportsIndex

#: A row as writers take it and a key as lookups and deletes take it: a dict
#: ``{column: value}``, or a list/tuple of values in column (key) order.
Row = Union[Dict[str, Any], List[Any], Tuple[Any, ...]]


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


class TableBucket:
    """A bucket of a table (or of one partition of a partitioned table):
    ``TableBucket(table_id, bucket)``, or ``TableBucket.with_partition(table_id, partition_id,
    bucket)`` for a bucket of a partition.

    Attributes:
        table_id: the table's id (``TableInfo.table_id``), an int.
        bucket_id: the bucket number, an int from 0 to the table's bucket count - 1 (the
            constructor's ``bucket``).
        partition_id: the partition's id (``PartitionInfo.partition_id``), or None for a
            table without partitions.

    Hashable and compared by value, so it can key a dict (``ScanRecords`` groups by it).
    """

    __slots__ = ("table_id", "bucket_id", "partition_id")

    def __init__(self, table_id: int, bucket: int) -> None:
        self.table_id = table_id
        self.bucket_id = bucket
        self.partition_id: Optional[int] = None

    @staticmethod
    def with_partition(table_id: int, partition_id: int, bucket: int) -> "TableBucket":
        """Bucket ``bucket`` of partition ``partition_id`` (a ``PartitionInfo.partition_id``) of
        table ``table_id``: what records read from a partitioned table carry."""
        tb = TableBucket(table_id, bucket)
        tb.partition_id = partition_id
        return tb

    def _key(self) -> Tuple[int, Optional[int], int]:
        return (self.table_id, self.partition_id, self.bucket_id)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TableBucket) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        p = f", partition_id={self.partition_id}" if self.partition_id is not None else ""
        return f"TableBucket(table_id={self.table_id}{p}, bucket={self.bucket_id})"


def _where(bucket: TableBucket) -> str:
    """``bucket=3``, or ``partition_id=12, bucket=3`` for a bucket of a partition."""
    p = f"partition_id={bucket.partition_id}, " if bucket.partition_id is not None else ""
    return f"{p}bucket={bucket.bucket_id}"


class ScanRecord:
    """One record from a record scanner's ``poll`` (read-only; made by the scanner).

    Attributes:
        bucket: the ``TableBucket`` it was read from.
        offset: its offset in that bucket's log, an int >= 0.
        timestamp: the commit time of its batch, epoch milliseconds.
        change_type: a ``ChangeType``: ``AppendOnly`` (+A) on a log table; ``Insert`` (+I),
            ``UpdateBefore`` (-U), ``UpdateAfter`` (+U) or ``Delete`` (-D) on a primary-key
            table's changelog.
        row: ``{column: value}`` of the (projected) columns, values as Python objects
            (``datetime``, ``decimal.Decimal``, lists, dicts...).
    """

    __slots__ = ("bucket", "offset", "timestamp", "change_type", "row")

    # The slots' types (annotations only: no class attributes).
    bucket: TableBucket
    offset: int
    timestamp: int
    change_type: ChangeType
    row: Dict[str, Any]

    # Scanners make records natively (python/src/scan_records.cc): the slots are filled without
    # running __init__, and the record is not tracked by the cyclic garbage collector (a
    # million tracked records made gen-2 collections cost ~2x the conversion itself). That is
    # safe because a record's attributes are read-only: it can only be part of a cycle if the
    # user puts it into its own row dict.

    def __init__(self, bucket: TableBucket, offset: int, timestamp: int, change_type: ChangeType,
                 row: Dict[str, Any]) -> None:
        init = object.__setattr__
        init(self, "bucket", bucket)            #: the TableBucket it came from
        init(self, "offset", offset)            #: its offset in the bucket
        init(self, "timestamp", timestamp)      #: commit time of its batch, epoch ms
        init(self, "change_type", change_type)  #: ChangeType.AppendOnly (+A) for log tables
        init(self, "row", row)                  #: {column: value}

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"ScanRecord.{name} is read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"ScanRecord.{name} is read-only")

    def __repr__(self) -> str:
        return (f"ScanRecord({_where(self.bucket)}, offset={self.offset}, timestamp={self.timestamp}, "
                f"change_type={self.change_type.short_string()}, row={self.row})")


class RecordBatch:
    """One Arrow record batch from a batch scanner's ``poll_batches``: the records at offsets
    ``base_offset`` .. ``last_offset`` of ``bucket``."""

    __slots__ = ("batch", "bucket", "base_offset", "last_offset")

    def __init__(self, batch: pa.RecordBatch, bucket: TableBucket, base_offset: int, last_offset: int) -> None:
        self.batch = batch
        self.bucket = bucket
        self.base_offset = base_offset
        self.last_offset = last_offset

    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]:
        """The Arrow PyCapsule interface: the batch's (schema, array) capsules, so that
        ``pa.record_batch(b)``, ``polars.from_arrow`` and other consumers read it without a
        copy."""
        return cast("Tuple[object, object]", self.batch.__arrow_c_array__(requested_schema))

    def __arrow_c_schema__(self) -> object:
        """The batch's schema as an Arrow PyCapsule."""
        return self.batch.schema.__arrow_c_schema__()

    def __repr__(self) -> str:
        return (f"RecordBatch({_where(self.bucket)}, base_offset={self.base_offset}, "
                f"last_offset={self.last_offset}, num_rows={self.batch.num_rows})")


if TYPE_CHECKING:
    _RecordList = List[ScanRecord]
else:
    _RecordList = list


class ScanRecords(_RecordList):
    """What a record poll returns: the seed's list of ``ScanRecord`` (in the order fetched, per
    bucket in offset order), which also groups its records by bucket as pyfluss 1.0's
    ``ScanRecords`` does: ``buckets()``, ``records(bucket)``, ``count()``, ``is_empty()``,
    ``keys()`` / ``values()`` / ``items()``, ``records_list[bucket]`` and ``bucket in
    records_list``. Integer indexes and slices work as on any list."""

    __slots__ = ()

    def buckets(self) -> List[TableBucket]:
        """The buckets with records here, in the order their first record came."""
        return list(dict.fromkeys(r.bucket for r in self))

    def records(self, bucket: TableBucket) -> List[ScanRecord]:
        """The records of ``bucket`` (a TableBucket), in offset order; empty if none."""
        return [r for r in self if r.bucket == bucket]

    def count(self, *value: Any) -> int:
        """The number of records (pyfluss); ``count(x)`` with one argument ``value`` is
        ``list.count``: how many records equal it."""
        return list.count(self, *value) if value else len(self)

    def is_empty(self) -> bool:
        """True when the poll returned no record."""
        return len(self) == 0

    def keys(self) -> List[TableBucket]:
        """``buckets()``."""
        return self.buckets()

    def values(self) -> Iterator[List[ScanRecord]]:
        """The records of each bucket, as lists, in ``buckets()`` order."""
        return (self.records(b) for b in self.buckets())

    def items(self) -> Iterator[Tuple[TableBucket, List[ScanRecord]]]:
        """``(bucket, records)`` pairs in ``buckets()`` order."""
        return ((b, self.records(b)) for b in self.buckets())

    @overload
    def __getitem__(self, key: SupportsIndex) -> ScanRecord: ...

    @overload
    def __getitem__(self, key: slice) -> List[ScanRecord]: ...

    @overload
    def __getitem__(self, key: TableBucket) -> List[ScanRecord]: ...

    def __getitem__(self, key: Union[SupportsIndex, slice, TableBucket]) -> Union[ScanRecord, List[ScanRecord]]:
        """``records_list[i]`` a record, ``records_list[i:j]`` a list of them,
        ``records_list[bucket]`` (a TableBucket) ``records(bucket)``."""
        if isinstance(key, TableBucket):
            return self.records(key)
        return list.__getitem__(self, key)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, TableBucket):
            return any(r.bucket == item for r in self)
        return list.__contains__(self, item)
