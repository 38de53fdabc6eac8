"""``fluss produce DB.TABLE FILE``: writes a CSV, JSON lines or Parquet file to a table, batch
by batch (the file is never read whole)."""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any, Dict, Iterator, List, Optional, TextIO

import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.json as pa_json
import pyarrow.parquet as pa_parquet

import fluss

from ._common import CliError, Settings, table_path
from ._values import convert_column, map_columns, read_type, to_float32

FORMATS = ("csv", "jsonl", "parquet")
_EXTENSIONS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl",
               ".parquet": "parquet", ".pq": "parquet"}
#: Bytes of text pyarrow.csv / pyarrow.json parse into one batch.
TEXT_BLOCK_BYTES = 1 << 20
#: Rows of one Parquet batch.
PARQUET_BATCH_ROWS = 65536


def file_format(path: str, given: Optional[str]) -> str:
    """``given``, or the format of ``path``'s extension (.csv; .jsonl, .ndjson, .json; .parquet,
    .pq). Raises CliError (2) when neither says."""
    if given:
        return given
    ext = os.path.splitext(path)[1].lower()
    if ext not in _EXTENSIONS:
        raise CliError(f"--format: cannot tell the format of {path!r} from its extension "
                       f"(.csv, .jsonl, .ndjson, .json, .parquet, .pq): give --format csv|jsonl|parquet", 2)
    return _EXTENSIONS[ext]


class _Source:
    """Record batches of a file, read block by block, with the position reached in the file.

    Args:
        path: the file.
        fmt: ``csv`` (a header line naming the columns), ``jsonl`` (one JSON object a line) or
            ``parquet``.
        schema: the table's Arrow schema: CSV and JSON text is converted to its types (columns
            matched by name; the file's columns not in the table are an error).
    """

    def __init__(self, path: str, fmt: str, schema: pa.Schema):
        self.path = path
        self.fmt = fmt
        self.schema = schema
        self.size = os.path.getsize(path)
        self._file: Optional[Any] = None
        self._parquet: Optional[pa_parquet.ParquetFile] = None

    def position(self) -> int:
        """Bytes of the file read so far (for Parquet: estimated from the row groups read)."""
        if self._file is not None and not self._file.closed:
            return int(self._file.tell())
        return self.size

    def batches(self) -> Iterator[pa.RecordBatch]:
        """The file's batches; pyarrow's errors propagate (pa.ArrowException, OSError)."""
        if self.fmt == "parquet":
            pf = pa_parquet.ParquetFile(self.path)
            self._parquet = pf
            yield from pf.iter_batches(batch_size=PARQUET_BATCH_ROWS)
            return
        self._file = pa.OSFile(self.path, "r")
        try:
            if self.fmt == "csv":
                reader = pa_csv.open_csv(
                    self._file,
                    read_options=pa_csv.ReadOptions(block_size=TEXT_BLOCK_BYTES, use_threads=False),
                    # An empty unquoted cell is null for every type, strings too; "" is an
                    # empty string (what tail --format csv writes).
                    convert_options=pa_csv.ConvertOptions(
                        column_types={f.name: read_type(f.type, "csv") for f in self.schema},
                        strings_can_be_null=True, quoted_strings_can_be_null=False))
            else:
                reader = pa_json.open_json(
                    self._file,
                    read_options=pa_json.ReadOptions(block_size=TEXT_BLOCK_BYTES, use_threads=False),
                    parse_options=pa_json.ParseOptions(
                        explicit_schema=pa.schema([pa.field(f.name, read_type(f.type, "jsonl"), True)
                                                   for f in self.schema]),
                        unexpected_field_behavior="error"))
            for batch in reader:
                yield batch
        finally:
            self._file.close()


def conform(batch: pa.RecordBatch, schema: pa.Schema, fmt: str, where: str) -> pa.RecordBatch:
    """``batch`` with the table's columns (``schema``) in its order and types: a column the table
    lacks is an error, a missing nullable column is all null, text read for a binary, date or
    time column is converted (``_values``), and other types are cast when every value fits.

    Raises:
        CliError: naming ``where`` (the file) and the column, for an unknown or missing NOT NULL
            column or a value that does not convert.
    """
    names = set(schema.names)
    for name in batch.schema.names:
        if name not in names:
            raise CliError(f"{where}: column '{name}' is not a column of the table (its columns: "
                           f"{', '.join(schema.names)})")
    arrays: List[pa.Array] = []
    for f in schema:
        idx = batch.schema.get_field_index(f.name)
        if idx < 0:
            if not f.nullable:
                raise CliError(f"{where}: the file has no column '{f.name}', which is NOT NULL in the table")
            arrays.append(pa.nulls(batch.num_rows, type=f.type))
            continue
        col = batch.column(idx)
        try:
            col = convert_column(col, f.type, fmt)
            if pa.types.is_float32(f.type) and pa.types.is_float64(col.type):
                col = to_float32(col)
            if col.type != f.type:
                col = col.cast(f.type, safe=True)
        except (ValueError, TypeError, pa.ArrowException) as e:
            raise CliError(f"{where}: column '{f.name}': {e}") from None
        arrays.append(col)
    return pa.RecordBatch.from_arrays(arrays, schema=pa.schema([f.with_metadata(None) for f in schema]))


def _progress(enabled: Optional[bool], total: int, desc: str) -> Any:
    """A tqdm bar on stderr counting bytes of the file (None when off): ``enabled`` True forces
    it, None means "when stderr is a terminal". Raises CliError when it is forced and tqdm is
    not installed."""
    if enabled is False or (enabled is None and not sys.stderr.isatty()):
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        if enabled:
            raise CliError("--progress: the progress bar needs tqdm (pip install tqdm)", 2) from None
        return None
    return tqdm(total=total, unit="B", unit_scale=True, desc=desc, file=sys.stderr, dynamic_ncols=True)


def _upsert_rows(writer: fluss.UpsertWriter, batch: pa.RecordBatch) -> None:
    """Upserts every row of ``batch``; run off the event loop, so a full writer buffer waits
    for room instead of raising."""
    for row in batch.to_pylist():
        writer.upsert(row)


async def produce(settings: Settings, path_text: str, file: str, fmt: Optional[str], progress: Optional[bool],
                  create_partitions: bool, out: TextIO) -> None:
    """Writes ``file`` to table ``path_text``: an append writer's ``write_arrow`` per batch for
    a log table, an upsert per row for a primary-key table; returns once the server
    acknowledged every row, printing ``<rows> rows written to DB.TABLE (<n> bytes read from
    FILE, <m> bytes sent)``. With ``create_partitions``, rows for partitions that do not exist
    create them (``client.writer.dynamic-create-partition.enabled``).

    Raises:
        CliError: for a file that cannot be read or converted (naming the file and, where
            known, the column; the rows of the batches before it were written), or a format
            that cannot hold a column of the table.
        FlussError: 7 TABLE_NOT_EXIST; 36 PARTITION_NOT_EXISTS for a row of a missing
            partition; write errors.
    """
    path = table_path(path_text)
    fmt = file_format(file, fmt)
    if not os.path.isfile(file):
        raise CliError(f"produce: cannot read {file!r}: no such file")
    extra: Dict[str, str] = {"client.writer.dynamic-create-partition.enabled": "true"} if create_partitions else {}
    async with await settings.connect(extra) as conn:
        table = await conn.get_table(path)
        info = table.get_table_info()
        schema = info.get_schema().arrow_schema
        if fmt == "csv":
            nested = [f.name for f in schema if pa.types.is_nested(f.type)]
            if nested:
                raise CliError(f"produce: CSV cannot hold column '{nested[0]}' of a nested type: use JSON lines "
                               f"or Parquet")
        if fmt == "jsonl" and map_columns(schema):
            raise CliError(f"produce: pyarrow.json cannot read MAP column '{next(iter(map_columns(schema)))}': "
                           f"use Parquet")
        source = _Source(file, fmt, schema)
        upsert = info.has_primary_key()
        writer: Any = table.new_upsert() if upsert else await table.new_append_writer()
        sent_before = int(conn.metrics()["bytes_sent"])
        bar = _progress(progress, source.size, f"{path}")
        rows = 0
        try:
            batches = source.batches()
            while True:
                try:
                    raw = await asyncio.to_thread(next, batches, None)
                except (pa.ArrowException, OSError, ValueError) as e:
                    raise CliError(f"produce: {file}: {e} ({rows} rows before it were written)") from None
                if raw is None:
                    break
                try:
                    batch = conform(raw, schema, fmt, f"produce: {file}")
                except CliError as e:
                    raise CliError(f"{e.message} ({rows} rows before it were written)") from None
                if upsert:
                    await asyncio.to_thread(_upsert_rows, writer, batch)
                else:
                    await asyncio.to_thread(writer.write_arrow, batch)
                rows += batch.num_rows
                if bar is not None:
                    bar.set_postfix_str(f"{rows} rows", refresh=False)
                    bar.update(source.position() - bar.n)
            await writer.flush()
            if bar is not None:
                bar.update(source.size - bar.n)
        finally:
            if bar is not None:
                bar.close()
        sent = int(conn.metrics()["bytes_sent"]) - sent_before
    out.write(f"{rows} rows written to {path} ({source.size} bytes read from {file}, {sent} bytes sent)\n")
    out.flush()
