"""BatchScanner: a one-shot read of at most n rows of one bucket (Fluss's limit scan)."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Union

import pyarrow as pa

from ._arrow import _BatchCapsules, _to_pandas
from ._errors import FlussError
from ._records import TableBucket

if TYPE_CHECKING:
    import pandas as pd

    from ._table import FlussTable

_INT32_MAX = 2**31 - 1


def _check_limit(n: object) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= _INT32_MAX:
        raise FlussError(f"limit: n must be an int from 1 to {_INT32_MAX}, got {n!r}")
    return n


def _bucket_of(table: "FlussTable", bucket: Union[int, TableBucket]) -> TableBucket:
    """``bucket`` (an int, or a TableBucket of this table, with its partition for a
    partitioned table) as a TableBucket, checked."""
    info = table.get_table_info()
    path = info.table_path.table_path_str()
    if isinstance(bucket, TableBucket):
        if bucket.table_id != info.table_id:
            raise FlussError(f"create_bucket_batch_scanner: the bucket's table_id {bucket.table_id} is not the "
                             f"id {info.table_id} of table {path}")
        if info.is_partitioned() and bucket.partition_id is None:
            raise FlussError(f"create_bucket_batch_scanner: table {path} is partitioned: give a "
                             f"TableBucket.with_partition(table_id, partition_id, bucket)")
        if not info.is_partitioned() and bucket.partition_id is not None:
            raise FlussError(f"create_bucket_batch_scanner: table {path} is not partitioned but the bucket has "
                             f"partition_id {bucket.partition_id}")
        tb = bucket
    elif isinstance(bucket, int) and not isinstance(bucket, bool):
        if info.is_partitioned():
            raise FlussError(f"create_bucket_batch_scanner: table {path} is partitioned: give a "
                             f"TableBucket.with_partition(table_id, partition_id, bucket), not a bucket number")
        tb = TableBucket(info.table_id, bucket)
    else:
        raise FlussError(f"create_bucket_batch_scanner: bucket must be an int or a TableBucket, "
                         f"got {type(bucket).__name__}")
    if not 0 <= tb.bucket_id < info.num_buckets:
        raise FlussError(f"create_bucket_batch_scanner: bucket {tb.bucket_id} is outside table {path} "
                         f"({info.num_buckets} buckets)")
    return tb


class BatchScanner:
    """Reads at most ``limit`` rows of one bucket, once (Fluss's limit scan): for a log table
    the last ``limit`` records of the bucket's log below its high watermark, in offset order
    (as the Java client's LimitBatchScanner), for a primary-key table rows of the bucket's
    current state (each key once, in no particular order).

    Made by ``table.new_scan().limit(n).create_bucket_batch_scanner(bucket)``; the scan runs on
    the first ``next_batch()`` (or ``collect_all_batches``, ``to_arrow``, ``to_pandas``). A
    projection of the scan (``project``, ``project_by_name``) is applied to the result. Call
    one method at a time (await it before the next).
    """

    def __init__(self, table: "FlussTable", bucket: Union[int, TableBucket], limit: int,
                 projection: Optional[List[int]]) -> None:
        self._table = table
        self._bucket = _bucket_of(table, bucket)
        self._limit = _check_limit(limit)
        self._projection = projection
        schema = table.get_table_info().get_schema().arrow_schema
        self._schema = pa.schema([schema.field(i) for i in projection]) if projection else schema
        self._consumed = False

    @property
    def bucket(self) -> TableBucket:
        """The TableBucket this scanner reads."""
        return self._bucket

    async def next_batch(self) -> Optional[pa.RecordBatch]:
        """The scan's result as one ``pyarrow.RecordBatch`` (0 to ``limit`` rows, the scan's
        projected schema) on the first call, None on every later call.

        Raises:
            FlussError: the server's error (e.g. 7 TABLE_NOT_EXIST, 36 PARTITION_NOT_EXISTS);
                after an error or a cancelled await nothing was returned, and the next call
                scans again.
        """
        if self._consumed:
            return None
        self._consumed = True
        try:
            b = self._bucket
            capsules = await self._table._n.limit_scan(b.partition_id, b.bucket_id, self._limit)
        except BaseException:
            self._consumed = False
            raise
        if capsules is None:  # the core returns a batch; an empty one all the same
            return pa.RecordBatch.from_pylist([], schema=self._schema)
        batch = pa.record_batch(_BatchCapsules(capsules))
        return batch.select(self._projection) if self._projection else batch

    async def collect_all_batches(self) -> List[pa.RecordBatch]:
        """The batches ``next_batch`` has not returned yet, as a list: ``[batch]`` on a new
        scanner, ``[]`` once the batch was returned. Raises as ``next_batch``."""
        out: List[pa.RecordBatch] = []
        while True:
            batch = await self.next_batch()
            if batch is None:
                return out
            out.append(batch)

    async def to_arrow(self) -> pa.Table:
        """``collect_all_batches()`` as one ``pyarrow.Table`` (the scan's projected schema;
        empty once the batch was returned). Raises as ``next_batch``."""
        return pa.Table.from_batches(await self.collect_all_batches(), schema=self._schema)

    async def to_pandas(self) -> pd.DataFrame:
        """``(await to_arrow()).to_pandas()``."""
        return _to_pandas(await self.to_arrow(), "to_pandas")

    def __repr__(self) -> str:
        return (f"BatchScanner({self._table.get_table_path().table_path_str()}, bucket={self._bucket!r}, "
                f"limit={self._limit})")
