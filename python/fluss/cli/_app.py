"""The ``fluss`` command line: argument parsing, dispatch to the sub-commands, and the one-line
errors and exit codes (0 success, 1 a failed command, 2 a bad command line, 130 Ctrl-C)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any, Coroutine, List, NoReturn, Optional, Sequence, TextIO

import fluss

from . import _catalog, _produce, _tail
from ._common import DEFAULT_BOOTSTRAP, ENV_BOOTSTRAP, CliError, Settings

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line: ``fluss: error: <message> (see 'PROG
    --help')``, exit code 2."""

    def error(self, message: str) -> NoReturn:
        """Reports a bad command line as one line on stderr and exits 2."""
        raise CliError(f"{message} (see '{self.prog} --help')", EXIT_USAGE)


def _add_connection_options(p: argparse.ArgumentParser, top: bool) -> None:
    """The global options, on the top parser and (so they may also follow the sub-command) on
    every sub-command's parser under their own names."""
    suffix = "" if top else "_sub"
    p.add_argument("--bootstrap-servers", dest="bootstrap_servers" + suffix, metavar="HOST:PORT[,...]",
                   default=None,
                   help=(f"the cluster to connect to (default: ${ENV_BOOTSTRAP}, else {DEFAULT_BOOTSTRAP})"
                         if top else argparse.SUPPRESS))
    p.add_argument("-c", "--config", dest="config" + suffix, metavar="KEY=VALUE", action="append", default=[],
                   help=("a client configuration key (any fluss.Config key, e.g. client.request-timeout=10s); "
                         "repeatable" if top else argparse.SUPPRESS))


def build_parser() -> argparse.ArgumentParser:
    """The ``fluss`` argument parser with every sub-command."""
    top = _Parser(prog="fluss", description="Command line for Apache Fluss (the fluss-cpp client).")
    _add_connection_options(top, True)
    top.add_argument("--version", action="version", version=f"fluss {fluss.__version__}")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        _add_connection_options(p, False)
        return p

    command("databases", "list the databases")
    p = command("tables", "list the tables of a database")
    p.add_argument("database", metavar="DB")
    p = command("describe", "show a table: schema, keys, buckets, partitions, properties, offsets")
    p.add_argument("table", metavar="DB.TABLE")

    p = command("create", "create a database (DB) or a table (DB.TABLE --schema ...)")
    p.add_argument("target", metavar="DB|DB.TABLE")
    p.add_argument("--schema", metavar="TEXT",
                   help="the table's columns, e.g. 'id BIGINT NOT NULL, name STRING, tags ARRAY<STRING>, "
                        "PRIMARY KEY (id)' (Fluss SQL type names)")
    p.add_argument("--primary-key", metavar="COLS", action="append", default=[],
                   help="primary-key column(s), comma-separated (or a PRIMARY KEY clause in --schema)")
    p.add_argument("--buckets", metavar="N", type=int, help="number of buckets (default: the server's)")
    p.add_argument("--bucket-key", metavar="COLS", action="append", default=[], help="bucket key column(s)")
    p.add_argument("--partition-by", metavar="COLS", action="append", default=[], help="partition key column(s)")
    p.add_argument("--property", metavar="KEY=VALUE", action="append", default=[],
                   help="a table property, e.g. table.log.format=INDEXED; repeatable")
    p.add_argument("--comment", metavar="TEXT", help="the table's or database's comment")
    p.add_argument("--if-not-exists", action="store_true", help="no error when it exists already")
    p.add_argument("--serve-timeout-s", metavar="S", type=float, default=_catalog.DEFAULT_SERVE_TIMEOUT_S,
                   help="how long to wait for a new table's buckets to get leaders (default: %(default)g)")

    p = command("drop", "drop a table (DB.TABLE) or a database (DB)")
    p.add_argument("target", metavar="DB|DB.TABLE")
    p.add_argument("--if-exists", action="store_true", help="no error when it does not exist")
    p.add_argument("--cascade", action="store_true", help="drop a database's tables too")

    p = command("tail", "print a table's records as they arrive (until Ctrl-C, --limit or --timeout-ms)")
    p.add_argument("table", metavar="DB.TABLE")
    p.add_argument("--from", dest="start", metavar="earliest|latest|TIMESTAMP", default="earliest",
                   help="where to start: earliest (default), latest, or a time: epoch milliseconds or "
                        "ISO-8601 (e.g. 2024-05-01T12:00:00Z; UTC without an offset)")
    p.add_argument("--format", choices=_tail.FORMATS, default="table", help="output format (default: table)")
    p.add_argument("--limit", metavar="N", type=int, help="stop after N records")
    p.add_argument("--timeout-ms", metavar="MS", type=int,
                   help="stop once no record arrived for MS milliseconds")

    p = command("produce", "write a CSV, JSON lines or Parquet file to a table")
    p.add_argument("table", metavar="DB.TABLE")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--format", choices=_produce.FORMATS, help="the file's format (default: from its extension)")
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_true", default=None,
                     help="show a progress bar on stderr (default: when stderr is a terminal)")
    bar.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")
    p.add_argument("--create-partitions", action="store_true",
                   help="create the partitions the rows name when they do not exist")
    return top


def _settings(args: argparse.Namespace) -> Settings:
    """The connection settings: the options after the sub-command win over those before it."""
    bootstrap = getattr(args, "bootstrap_servers_sub", None) or args.bootstrap_servers
    pairs: List[str] = list(args.config) + list(getattr(args, "config_sub", []))
    return Settings.of(bootstrap, pairs)


def _run(args: argparse.Namespace, out: TextIO) -> Coroutine[Any, Any, None]:
    """The coroutine of the sub-command ``args.command``."""
    s = _settings(args)
    cmd = args.command
    if cmd == "databases":
        return _catalog.databases(s, out)
    if cmd == "tables":
        return _catalog.tables(s, args.database, out)
    if cmd == "describe":
        return _catalog.describe(s, args.table, out)
    if cmd == "create":
        if "." in args.target:
            if args.schema is None:
                raise CliError("create: --schema is required to create a table (DB.TABLE)", EXIT_USAGE)
            descriptor = _catalog.table_descriptor(args.schema, args.primary_key, args.buckets, args.bucket_key,
                                                   args.partition_by, args.property, args.comment)
            return _catalog.create_table(s, args.target, descriptor, args.if_not_exists, args.serve_timeout_s, out)
        table_only = [o for o, v in (("--schema", args.schema), ("--primary-key", args.primary_key),
                                     ("--buckets", args.buckets), ("--bucket-key", args.bucket_key),
                                     ("--partition-by", args.partition_by), ("--property", args.property)) if v]
        if table_only:
            raise CliError(f"create: {table_only[0]} is for a table (DB.TABLE), not database {args.target!r}",
                           EXIT_USAGE)
        return _catalog.create_database(s, args.target, args.if_not_exists, args.comment, out)
    if cmd == "drop":
        return _catalog.drop(s, args.target, args.if_exists, args.cascade, out)
    if cmd == "tail":
        return _tail.tail(s, args.table, _tail.parse_from(args.start), args.format, args.limit, args.timeout_ms, out)
    if cmd == "produce":
        return _produce.produce(s, args.table, args.file, args.format, args.progress, args.create_partitions, out)
    raise CliError(f"unknown command {cmd!r}", EXIT_USAGE)


def _fail(message: str) -> None:
    """Writes ``fluss: error: <message>`` (one line) to stderr."""
    sys.stderr.write("fluss: error: " + " ".join(message.split("\n")) + "\n")
    sys.stderr.flush()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the ``fluss`` command line with ``argv`` (default: ``sys.argv[1:]``) and returns
    the exit code: 0 on success, 1 when the command failed (a FlussError or a file that cannot
    be read; its message on stderr as one line ``fluss: error: ...``), 2 for a bad command
    line, 130 on Ctrl-C (quietly). Never raises (but SystemExit for ``--help``/``--version``,
    exit 0)."""
    try:
        args = build_parser().parse_args(argv)
        coro = _run(args, sys.stdout)
        asyncio.run(coro)
        return EXIT_OK
    except CliError as e:
        _fail(e.message)
        return e.exit_code
    except fluss.FlussError as e:
        _fail(e.message)
        return EXIT_FAILED
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of stdout went away (e.g. `fluss tail ... | head`): stop quietly.
        try:
            sys.stdout = open("/dev/null", "w")  # noqa: SIM115 (no flush error at exit)
        except OSError:
            pass
        return EXIT_FAILED
    except OSError as e:
        _fail(str(e))
        return EXIT_FAILED
