"""What scanners return: records, Arrow batches, the bucket they came from, change types."""

from __future__ import annotations

import enum
from typing import Optional

import pyarrow as pa


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
    """A bucket of a table (or of one partition of a partitioned table)."""

    __slots__ = ("table_id", "bucket_id", "partition_id")

    def __init__(self, table_id: int, bucket: int):
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

    def _key(self):
        return (self.table_id, self.partition_id, self.bucket_id)

    def __eq__(self, other) -> bool:
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
    """One record from a record scanner's ``poll``."""

    __slots__ = ("bucket", "offset", "timestamp", "change_type", "row")

    # Scanners make records natively (python/src/scan_records.cc): the slots are filled without
    # running __init__, and the record is not tracked by the cyclic garbage collector (a
    # million tracked records made gen-2 collections cost ~2x the conversion itself). That is
    # safe because a record's attributes are read-only: it can only be part of a cycle if the
    # user puts it into its own row dict.

    def __init__(self, bucket: TableBucket, offset: int, timestamp: int, change_type: ChangeType, row: dict):
        init = object.__setattr__
        init(self, "bucket", bucket)            #: the TableBucket it came from
        init(self, "offset", offset)            #: its offset in the bucket
        init(self, "timestamp", timestamp)      #: commit time of its batch, epoch ms
        init(self, "change_type", change_type)  #: ChangeType.AppendOnly (+A) for log tables
        init(self, "row", row)                  #: {column: value}

    def __setattr__(self, name, value):
        raise AttributeError(f"ScanRecord.{name} is read-only")

    def __delattr__(self, name):
        raise AttributeError(f"ScanRecord.{name} is read-only")

    def __repr__(self) -> str:
        return (f"ScanRecord({_where(self.bucket)}, offset={self.offset}, timestamp={self.timestamp}, "
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
        return (f"RecordBatch({_where(self.bucket)}, base_offset={self.base_offset}, "
                f"last_offset={self.last_offset}, num_rows={self.batch.num_rows})")
