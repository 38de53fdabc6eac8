"""``fluss databases``, ``tables``, ``describe``, ``create`` and ``drop``."""

from __future__ import annotations

import asyncio
from typing import Dict, List, Optional, TextIO

import fluss

from ._common import CliError, Settings, align, key_values, table_path, write_lines
from ._schema_text import SchemaTextError, parse_names, parse_schema, render_column, render_type

#: How long ``create`` waits by default for the coordinator to give every bucket a leader (s).
DEFAULT_SERVE_TIMEOUT_S = 60.0
#: How often ``create`` creates a table again that the coordinator did not serve.
CREATE_ATTEMPTS = 3


async def databases(settings: Settings, out: TextIO) -> None:
    """Prints the database names, one a line, sorted. Raises FlussError from the cluster."""
    async with await settings.connect() as conn:
        admin = await conn.get_admin()
        write_lines(out, sorted(await admin.list_databases()))


async def tables(settings: Settings, database: str, out: TextIO) -> None:
    """Prints the table names of ``database``, one a line, sorted. Raises FlussError 4
    DATABASE_NOT_EXIST for an unknown database."""
    async with await settings.connect() as conn:
        admin = await conn.get_admin()
        write_lines(out, sorted(await admin.list_tables(database)))


def _kv_lines(title: str, props: Dict[str, str]) -> List[str]:
    """``title: -`` for no properties, else the title line and ``  key=value`` lines sorted."""
    if not props:
        return [f"{title}: -"]
    return [f"{title}:"] + [f"  {k}={props[k]}" for k in sorted(props)]


async def describe(settings: Settings, path_text: str, out: TextIO) -> None:
    """Prints what the server knows of table ``path_text`` (``DB.TABLE``): kind, schema (in
    ``--schema`` syntax, and a column a line), primary key, bucket count and keys, partition
    keys and partitions, comment, properties, and each bucket's earliest and latest offsets
    (per partition for a partitioned table). Raises FlussError 7 TABLE_NOT_EXIST."""
    path = table_path(path_text)
    async with await settings.connect() as conn:
        admin = await conn.get_admin()
        info = await admin.get_table(path)
        schema = info.get_schema()
        arrow = schema.arrow_schema
        pk = info.get_primary_keys()
        columns = [render_column(f) for f in arrow]
        lines = [
            f"table: {path} (id {info.table_id})",
            f"kind: {'primary-key' if pk else 'log'} table{', partitioned' if info.is_partitioned() else ''}",
            "schema: " + ", ".join(columns) + (f", PRIMARY KEY ({', '.join(pk)})" if pk else ""),
            "columns:",
        ]
        lines += align([[f.name, render_type(f)] for f in arrow], "  ")
        lines += [
            f"primary key: {', '.join(pk) or '-'}",
            f"buckets: {info.num_buckets}",
            f"bucket keys: {', '.join(info.get_bucket_keys()) or '-'}",
            f"partition keys: {', '.join(info.get_partition_keys()) or '-'}",
        ]
        buckets = list(range(info.num_buckets))
        offsets: List[List[str]] = []
        if info.is_partitioned():
            parts = sorted(await admin.list_partition_infos(path), key=lambda p: p.partition_name)
            if parts:
                lines.append("partitions:")
                lines += align([[",".join(f"{k}={v}" for k, v in p.get_partition_spec().items()),
                                 f"(id {p.partition_id})"] for p in parts], "  ")
            else:
                lines.append("partitions: -")
            offsets.append(["partition", "bucket", "earliest", "latest"])
            for p in parts:
                early = await admin.list_partition_offsets(path, p.partition_name, buckets, "earliest")
                late = await admin.list_partition_offsets(path, p.partition_name, buckets, "latest")
                offsets += [[p.partition_name, str(b), str(early[b]), str(late[b])] for b in buckets]
        else:
            early = await admin.list_offsets(path, buckets, "earliest")
            late = await admin.list_offsets(path, buckets, "latest")
            offsets.append(["bucket", "earliest", "latest"])
            offsets += [[str(b), str(early[b]), str(late[b])] for b in buckets]
        lines.append(f"comment: {info.comment if info.comment else '-'}")
        lines += _kv_lines("properties", info.get_properties())
        lines += _kv_lines("custom properties", info.get_custom_properties())
        if len(offsets) > 1:
            lines.append("offsets:")
            lines += align(offsets, "  ")
        else:
            lines.append("offsets: -")
        write_lines(out, lines)


def _names(values: List[str], option: str) -> List[str]:
    """The column names of a repeatable, comma-separated option, in order. Raises CliError (2)
    naming ``option`` for text that is not a list of names."""
    names: List[str] = []
    for v in values:
        try:
            names += parse_names(v, option)
        except SchemaTextError as e:
            raise CliError(str(e), 2) from None
    return names


def _properties(pairs: List[str]) -> Dict[str, str]:
    """``--property key=value`` pairs as a dict. Raises CliError (2) for a pair without ``=``."""
    return key_values(pairs, "--property")


def table_descriptor(schema_text: str, primary_key: List[str], buckets: Optional[int], bucket_key: List[str],
                     partition_by: List[str], properties: List[str],
                     comment: Optional[str]) -> fluss.TableDescriptor:
    """The TableDescriptor of ``fluss create DB.TABLE`` options: ``schema_text`` in the
    ``--schema`` syntax, ``primary_key`` / ``bucket_key`` / ``partition_by`` comma-separated
    column names (repeatable), ``buckets`` the bucket count (None: the server default),
    ``properties`` ``key=value`` pairs.

    Raises:
        CliError: (2) naming the option for schema text that does not parse, a primary key
            given both in the schema and with ``--primary-key``, or malformed lists and pairs.
        FlussError: (-2) naming the argument for what fluss.Schema / TableDescriptor refuse
            (e.g. a key column not in the schema, a bucket count outside 1..128000).
    """
    try:
        arrow, clause_pk = parse_schema(schema_text)
    except SchemaTextError as e:
        raise CliError(f"--schema: {e}", 2) from None
    pk = _names(primary_key, "--primary-key")
    if pk and clause_pk:
        raise CliError("--primary-key: the schema has a PRIMARY KEY clause already; give the key once", 2)
    pk = pk or clause_pk
    for name in pk:
        if name not in arrow.names:
            raise CliError(f"--primary-key: column '{name}' is not in the schema (columns: {', '.join(arrow.names)})", 2)
    return fluss.TableDescriptor(
        fluss.Schema(arrow, primary_keys=pk or None),
        partition_keys=_names(partition_by, "--partition-by") or None,
        bucket_count=buckets,
        bucket_keys=_names(bucket_key, "--bucket-key") or None,
        comment=comment,
        properties=_properties(properties),
    )


async def _served(admin: fluss.FlussAdmin, path: fluss.TablePath, timeout_s: float) -> bool:
    """Whether every bucket of the (non-partitioned) table has a leader within ``timeout_s``
    seconds, asked from the coordinator every 0.1 s."""
    info = await admin.get_table(path)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while len(await admin._bucket_leaders(path)) < info.num_buckets:
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(0.1)
    return True


async def create_table(settings: Settings, path_text: str, descriptor: fluss.TableDescriptor,
                       if_not_exists: bool, serve_timeout_s: float, out: TextIO) -> None:
    """Creates table ``path_text`` and, for a non-partitioned one, returns once every bucket
    has a leader (so it can be written at once). A Fluss 0.9.1 coordinator sometimes misses a
    new table (its buckets never get a leader): a table this call created and that is not
    served within ``serve_timeout_s`` seconds is dropped and created again, up to
    ``CREATE_ATTEMPTS`` times. A partitioned table has no buckets before its partitions, so it
    is not waited for. Prints ``created table DB.TABLE`` (or ``table DB.TABLE already exists``
    with ``if_not_exists``).

    Raises:
        FlussError: 8 TABLE_ALREADY_EXIST (unless ``if_not_exists``), 4 DATABASE_NOT_EXIST.
        CliError: when the table is still not served after the last attempt.
    """
    path = table_path(path_text)
    async with await settings.connect() as conn:
        admin = await conn.get_admin()
        existed = if_not_exists and await admin.table_exists(path)
        partitioned = bool(descriptor.partition_keys)
        for _ in range(CREATE_ATTEMPTS):
            await admin.create_table(path, descriptor, ignore_if_exists=if_not_exists)
            if partitioned or await _served(admin, path, serve_timeout_s):
                write_lines(out, [f"table {path} already exists" if existed else f"created table {path}"])
                return
            if existed:
                break
            await admin.drop_table(path, ignore_if_not_exists=True)
        raise CliError(f"create: table {path}: the coordinator gave its buckets no leader within "
                       f"{serve_timeout_s:g} s" + ("" if existed else f" ({CREATE_ATTEMPTS} creations)"))


async def create_database(settings: Settings, database: str, if_not_exists: bool, comment: Optional[str],
                          out: TextIO) -> None:
    """Creates ``database``; prints ``created database DB`` (or ``database DB already exists``
    with ``if_not_exists``). Raises FlussError 6 DATABASE_ALREADY_EXIST (unless
    ``if_not_exists``)."""
    async with await settings.connect() as conn:
        admin = await conn.get_admin()
        existed = if_not_exists and await admin.database_exists(database)
        await admin.create_database(database, ignore_if_exists=if_not_exists,
                                    database_descriptor=fluss.DatabaseDescriptor(comment=comment))
        write_lines(out, [f"database {database} already exists" if existed else f"created database {database}"])


async def drop(settings: Settings, target: str, if_exists: bool, cascade: bool, out: TextIO) -> None:
    """Drops table ``DB.TABLE`` or database ``DB`` (its tables too with ``cascade``); prints
    ``dropped table X`` / ``dropped database X`` (or ``... does not exist`` with
    ``if_exists``).

    Raises:
        FlussError: 7 TABLE_NOT_EXIST / 4 DATABASE_NOT_EXIST (unless ``if_exists``), 5
            DATABASE_NOT_EMPTY for a database with tables without ``cascade``.
        CliError: (2) for ``--cascade`` with a table.
    """
    async with await settings.connect() as conn:
        admin = await conn.get_admin()
        if "." in target:
            if cascade:
                raise CliError("--cascade: only a database is dropped with --cascade, not a table", 2)
            path = table_path(target)
            exists = await admin.table_exists(path)
            await admin.drop_table(path, ignore_if_not_exists=if_exists)
            write_lines(out, [f"dropped table {path}" if exists else f"table {path} does not exist"])
        else:
            exists = await admin.database_exists(target)
            await admin.drop_database(target, ignore_if_not_exists=if_exists, cascade=cascade)
            write_lines(out, [f"dropped database {target}" if exists else f"database {target} does not exist"])
