"""Python client for Apache Fluss, on a C++ core (libfluss).

Asyncio-first: calls that talk to the cluster return awaitables; the one-shot and polling reads
of a scanner are blocking (GIL released) with ``*_async`` twins. Arrow data crosses between
C++ and Python through the Arrow C Data Interface.
"""

from __future__ import annotations

import pyarrow as _pa  # noqa: F401  (loads libarrow before the native module needs it)

from ._errors import ErrorCode, FlussError, FlussTimeoutError
from ._config import Config
from ._metadata import (
    DatabaseDescriptor,
    DatabaseInfo,
    PartitionInfo,
    TableDescriptor,
    TableInfo,
    TablePath,
)
from ._schema import Schema
from ._admin import FlussAdmin, OffsetSpec, OffsetType, ServerNode
from ._records import ChangeType, RecordBatch, ScanRecord, ScanRecords, TableBucket
from ._writers import AppendWriter, WriteResultHandle
from ._upsert import UpsertWriter
from ._lookups import Lookuper, PrefixLookuper
from ._scanners import EARLIEST_OFFSET, LATEST_OFFSET, LogScanner
from ._limit_scan import BatchScanner
from ._table import FlussTable, TableAppend, TableScan
from ._connection import FlussConnection
from . import _logging  # noqa: F401  (the core's log lines on the logger "fluss")

__version__ = "0.1.0"

__all__ = [
    "EARLIEST_OFFSET",
    "LATEST_OFFSET",
    "AppendWriter",
    "BatchScanner",
    "ChangeType",
    "Config",
    "DatabaseDescriptor",
    "DatabaseInfo",
    "ErrorCode",
    "FlussAdmin",
    "FlussConnection",
    "FlussError",
    "FlussTimeoutError",
    "FlussTable",
    "LogScanner",
    "Lookuper",
    "OffsetSpec",
    "OffsetType",
    "PartitionInfo",
    "PrefixLookuper",
    "RecordBatch",
    "ScanRecord",
    "ScanRecords",
    "ServerNode",
    "TableBucket",
    "Schema",
    "TableDescriptor",
    "TableInfo",
    "TablePath",
    "TableAppend",
    "TableScan",
    "UpsertWriter",
    "WriteResultHandle",
    "__version__",
]
