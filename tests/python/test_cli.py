"""The ``fluss`` command line (python -m fluss) against the real cluster: create, describe,
produce from CSV, JSON lines and Parquet, tail, drop, and one-line errors; every value read back
through the client API and through ``fluss tail``."""

from __future__ import annotations

import datetime
import decimal
import json
import os
import pathlib
import re
import subprocess
import sys
import uuid

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import fluss
from fluss.cli._schema_text import SchemaTextError, parse_schema, render_column

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from served_tables import MISSED_TABLE_WAIT_S, wait_until_served  # noqa: E402

from conftest import CS_LOG, read_all  # noqa: E402


def cli(servers: str, *args: str, rc: int = 0) -> str:
    """Runs ``python -m fluss ARGS`` against ``servers``; asserts the exit code ``rc``; returns
    stdout (rc 0, nothing on stderr) or the stderr (rc != 0: exactly one line, no traceback)."""
    env = dict(os.environ, FLUSS_BOOTSTRAP_SERVERS=servers)
    p = subprocess.run([sys.executable, "-m", "fluss", *args], env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == rc, (p.returncode, p.stdout, p.stderr)
    if rc == 0:
        assert p.stderr == "", p.stderr
        return p.stdout
    assert p.stdout == "" or args[0] in ("tail",), p.stdout
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("fluss: error: "), p.stderr
    assert "Traceback" not in p.stderr
    return p.stderr


@pytest.fixture
def db(bootstrap_servers):
    """A database created with ``fluss create DB``, dropped with ``fluss drop DB --cascade``."""
    name = "cli_" + uuid.uuid4().hex[:10]
    assert cli(bootstrap_servers, "create", name) == f"created database {name}\n"
    yield name
    cli(bootstrap_servers, "drop", name, "--cascade", "--if-exists")


async def create_served(servers: str, admin, db: str, table: str, *options: str) -> fluss.TablePath:
    """``fluss create DB.TABLE OPTIONS``; the CLI waits for a non-partitioned table's leaders
    itself; a partitioned one is checked with the coordinator log (tests/support/served_tables.py)
    and created again when the 0.9.1 coordinator missed it."""
    path = fluss.TablePath(db, table)
    for _ in range(3):
        assert cli(servers, "create", f"{db}.{table}", *options) == f"created table {db}.{table}\n"
        if await wait_until_served(admin, path, CS_LOG, MISSED_TABLE_WAIT_S):
            return path
        cli(servers, "drop", f"{db}.{table}")
    raise AssertionError(f"{path} not served after 3 creations")


# ---------------------------------------------------------------------------- schema text


def test_schema_text_maps_to_the_arrow_types_fluss_schema_takes():
    text = ("id BIGINT NOT NULL, name STRING COMMENT 'it''s', c CHAR(5), b BINARY(4), y BYTES, ok BOOLEAN, "
            "i8 TINYINT, i16 SMALLINT, i32 INTEGER, f FLOAT, dd DOUBLE, d DECIMAL(10,2), d0 DECIMAL, day DATE, "
            "t TIME, t3 TIME(3), t2 TIME(2), ts TIMESTAMP, ts3 TIMESTAMP(3), ts7 timestamp(7), "
            "ltz TIMESTAMP_LTZ(9), l timestamp(6) with local time zone, a ARRAY<INT NOT NULL>, "
            "m MAP<STRING, ARRAY<DOUBLE>>, r ROW<a INT, `b c` STRING NOT NULL>, r2 row(x date), "
            "PRIMARY KEY (id)")
    schema, pk = parse_schema(text)
    assert pk == ["id"]
    want = [pa.int64(), pa.string(), pa.string(), pa.binary(4), pa.binary(), pa.bool_(), pa.int8(), pa.int16(),
            pa.int32(), pa.float32(), pa.float64(), pa.decimal128(10, 2), pa.decimal128(10, 0), pa.date32(),
            pa.time32("s"), pa.time32("ms"), pa.time32("ms"), pa.timestamp("us"), pa.timestamp("ms"),
            pa.timestamp("ns"), pa.timestamp("ns", tz="UTC"), pa.timestamp("us", tz="UTC"),
            pa.list_(pa.field("item", pa.int32(), False)),
            pa.map_(pa.string(), pa.list_(pa.float64())),
            pa.struct([pa.field("a", pa.int32()), pa.field("b c", pa.string(), False)]),
            pa.struct([pa.field("x", pa.date32())])]
    assert [f.type for f in schema] == want
    assert schema.field("id").nullable is False and schema.field("name").nullable is True
    assert schema.field("name").metadata == {b"comment": b"it's"}
    assert schema.field("c").metadata == {b"fluss.char_length": b"5"}
    assert schema.field("t2").metadata == {b"fluss.precision": b"2"}
    assert schema.field("ts7").metadata == {b"fluss.precision": b"7"}
    rendered = [render_column(f) for f in schema]
    assert rendered == [
        "id BIGINT NOT NULL", "name STRING COMMENT 'it''s'", "c CHAR(5)", "b BINARY(4)", "y BYTES", "ok BOOLEAN",
        "i8 TINYINT", "i16 SMALLINT", "i32 INT", "f FLOAT", "dd DOUBLE", "d DECIMAL(10, 2)", "d0 DECIMAL(10, 0)",
        "day DATE", "t TIME(0)", "t3 TIME(3)", "t2 TIME(2)", "ts TIMESTAMP(6)", "ts3 TIMESTAMP(3)",
        "ts7 TIMESTAMP(7)", "ltz TIMESTAMP_LTZ(9)", "l TIMESTAMP_LTZ(6)", "a ARRAY<INT NOT NULL>",
        "m MAP<STRING, ARRAY<DOUBLE>>", "r ROW<a INT, `b c` STRING NOT NULL>", "r2 ROW<x DATE>"]
    # What describe prints parses back to the same schema.
    again, _ = parse_schema(", ".join(rendered))
    assert again.equals(schema, check_metadata=True)
    # The Fluss types fluss.Schema names are the same as the text (its lower-case spelling).
    types = fluss.Schema(schema, primary_keys=pk).get_column_types()
    assert [t.replace(",", ", ").replace(",  ", ", ") for t in types] == \
        [r.split(" ", 1)[1].split(" COMMENT")[0].lower().replace("not null", "NOT NULL") for r in rendered]


@pytest.mark.parametrize("text, message", [
    ("", "expected a column name at character 1, found the end of the text"),
    ("id", "expected a type for column 'id' at character 3, found the end of the text"),
    ("id FOO", "unknown type 'FOO' at character 4 (known: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, "
               "DOUBLE, STRING, CHAR(n), BYTES, BINARY(n), DECIMAL(p, s), DATE, TIME(p), TIMESTAMP(p), "
               "TIMESTAMP_LTZ(p), ARRAY<T>, MAP<K, V>, ROW<name T, ...>)"),
    ("id INT,", "expected a column name at character 8, found the end of the text"),
    ("id INT name STRING", "expected ',' or the end of the schema at character 8, found 'name'"),
    ("a ARRAY<INT", "expected '>' at character 12, found the end of the text"),
    ("d DECIMAL(39, 2)", "DECIMAL(39, 2) at character 3: the precision must be 1..38 and the scale 0..precision"),
    ("t TIMESTAMP(10)", "TIMESTAMP(10) at character 3: the precision must be 0..9"),
    ("a INT, a STRING", "column 'a' is declared twice"),
    ("a INT, PRIMARY KEY (b)", "PRIMARY KEY column 'b' is not a column of the schema"),
    ("a INT; b INT", "unexpected character ';' at character 6"),
])
def test_schema_text_errors_name_the_position(text, message):
    with pytest.raises(SchemaTextError) as e:
        parse_schema(text)
    assert str(e.value) == message


# ---------------------------------------------------------------------------- catalog


async def test_create_list_describe_drop(bootstrap_servers, admin, db):
    s = bootstrap_servers
    assert db in cli(s, "databases").splitlines()
    assert cli(s, "tables", db) == ""
    path = await create_served(s, admin, db, "events", "--schema", "id BIGINT NOT NULL, name STRING, score FLOAT",
                               "--buckets", "3", "--bucket-key", "id", "--property", "table.log.format=INDEXED",
                               "--comment", "the events")
    pk = await create_served(s, admin, db, "users", "--schema", "id INT, region STRING, v DECIMAL(10, 2)",
                             "--primary-key", "id,region", "--buckets", "2")
    assert cli(s, "tables", db) == "events\nusers\n"
    info = await admin.get_table(path)
    assert info.num_buckets == 3 and info.get_bucket_keys() == ["id"] and info.comment == "the events"
    assert info.get_properties()["table.log.format"] == "INDEXED"
    out = cli(s, "describe", f"{db}.events")
    lines = out.splitlines()
    assert lines[:14] == [
        f"table: {db}.events (id {info.table_id})",
        "kind: log table",
        "schema: id BIGINT NOT NULL, name STRING, score FLOAT",
        "columns:",
        "  id     BIGINT NOT NULL",
        "  name   STRING",
        "  score  FLOAT",
        "primary key: -",
        "buckets: 3",
        "bucket keys: id",
        "partition keys: -",
        "comment: the events",
        "properties:",
        *[f"  {k}={v}" for k, v in sorted(info.get_properties().items())][:1],
    ]
    assert lines[-5:] == ["offsets:", "  bucket  earliest  latest", "  0       0         0", "  1       0         0",
                          "  2       0         0"]
    assert "  table.log.format=INDEXED" in lines
    upk = cli(s, "describe", f"{db}.users").splitlines()
    assert upk[1:8] == ["kind: primary-key table",
                        "schema: id INT NOT NULL, region STRING NOT NULL, v DECIMAL(10, 2), PRIMARY KEY (id, region)",
                        "columns:", "  id      INT NOT NULL", "  region  STRING NOT NULL", "  v       DECIMAL(10, 2)",
                        "primary key: id, region"]
    assert (await admin.get_table(pk)).get_primary_keys() == ["id", "region"]

    assert cli(s, "create", f"{db}.events", "--schema", "id BIGINT", rc=1) == \
        f"fluss: error: table {db}.events: Table {db}.events already exists.\n"
    assert cli(s, "create", db, rc=1) == f"fluss: error: database {db}: Database {db} already exists.\n"
    assert cli(s, "create", f"{db}.events", "--schema", "id BIGINT", "--if-not-exists") == \
        f"table {db}.events already exists\n"
    assert cli(s, "create", db, "--if-not-exists") == f"database {db} already exists\n"
    assert cli(s, "drop", db, rc=1) == f"fluss: error: database {db}: Database {db} is not empty.\n"
    assert cli(s, "drop", f"{db}.events") == f"dropped table {db}.events\n"
    assert not await admin.table_exists(path)
    assert cli(s, "drop", f"{db}.events", "--if-exists") == f"table {db}.events does not exist\n"
    assert cli(s, "drop", f"{db}.events", rc=1) == \
        f"fluss: error: table {db}.events: Table {db}.events does not exist.\n"
    assert cli(s, "drop", db, "--cascade") == f"dropped database {db}\n"
    assert not await admin.database_exists(db)
    assert cli(s, "drop", db, "--if-exists") == f"database {db} does not exist\n"


# ---------------------------------------------------------------------------- produce and tail

LOG_SCHEMA = ("id BIGINT NOT NULL, name STRING, score FLOAT, d DECIMAL(10, 2), day DATE, t TIME(3), "
              "ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(6), b BYTES")
CSV_TEXT = ("id,name,score,d,day,t,ts,ltz,b\n"
            "1,Alice,95.5,12.34,2024-01-02,10:11:12.345,2024-01-02T03:04:05.123,2024-01-02T03:04:05.123456Z,aGk=\n"
            "2,Bob,0.1,-1.00,2024-12-31,23:59:59.999,2024-01-02 03:04:05,2024-01-02T03:04:05+02:00,\n"
            "3,,,,,,,,\n")
UTC = datetime.timezone.utc
LOG_ROWS = [
    {"id": 1, "name": "Alice", "score": 95.5, "d": decimal.Decimal("12.34"), "day": datetime.date(2024, 1, 2),
     "t": datetime.time(10, 11, 12, 345000), "ts": datetime.datetime(2024, 1, 2, 3, 4, 5, 123000),
     "ltz": datetime.datetime(2024, 1, 2, 3, 4, 5, 123456, tzinfo=UTC), "b": b"hi"},
    {"id": 2, "name": "Bob", "score": pa.scalar(0.1, pa.float32()).as_py(), "d": decimal.Decimal("-1.00"),
     "day": datetime.date(2024, 12, 31), "t": datetime.time(23, 59, 59, 999000),
     "ts": datetime.datetime(2024, 1, 2, 3, 4, 5), "ltz": datetime.datetime(2024, 1, 2, 1, 4, 5, tzinfo=UTC),
     "b": None},
    # An empty unquoted CSV cell is null, strings and bytes too.
    {"id": 3, "name": None, "score": None, "d": None, "day": None, "t": None, "ts": None, "ltz": None, "b": None},
]
LOG_JSONL = [
    '{"id": 1, "name": "Alice", "score": 95.5, "d": "12.34", "day": "2024-01-02", "t": "10:11:12.345", '
    '"ts": "2024-01-02T03:04:05.123", "ltz": "2024-01-02T03:04:05.123456+00:00", "b": "aGk="}',
    '{"id": 2, "name": "Bob", "score": 0.1, "d": "-1.00", "day": "2024-12-31", "t": "23:59:59.999", '
    '"ts": "2024-01-02T03:04:05.000", "ltz": "2024-01-02T01:04:05.000000+00:00", "b": null}',
    '{"id": 3, "name": null, "score": null, "d": null, "day": null, "t": null, "ts": null, "ltz": null, "b": null}',
]


def summary(rows: int, path: str, file: pathlib.Path) -> re.Pattern:
    """The produce summary line, the bytes sent being any positive count."""
    return re.compile(rf"{rows} rows written to {re.escape(path)} \({file.stat().st_size} bytes read from "
                      rf"{re.escape(str(file))}, [1-9][0-9]* bytes sent\)\n")


async def test_produce_csv_then_tail_in_every_format(bootstrap_servers, conn, admin, db, tmp_path):
    s = bootstrap_servers
    path = await create_served(s, admin, db, "log", "--schema", LOG_SCHEMA, "--buckets", "1")
    src = tmp_path / "rows.csv"
    src.write_text(CSV_TEXT)
    assert summary(3, f"{db}.log", src).fullmatch(cli(s, "produce", f"{db}.log", str(src)))
    table = await conn.get_table(path)
    assert (await read_all(table, 1)).to_pylist() == LOG_ROWS

    assert cli(s, "tail", f"{db}.log", "--format", "jsonl", "--limit", "3") == "\n".join(LOG_JSONL) + "\n"
    assert cli(s, "tail", f"{db}.log", "--format", "csv", "--limit", "3") == (
        "id,name,score,d,day,t,ts,ltz,b\n"
        "1,Alice,95.5,12.34,2024-01-02,10:11:12.345,2024-01-02T03:04:05.123,2024-01-02T03:04:05.123456+00:00,aGk=\n"
        "2,Bob,0.1,-1.00,2024-12-31,23:59:59.999,2024-01-02T03:04:05.000,2024-01-02T01:04:05.000000+00:00,\n"
        "3,,,,,,,,\n")
    assert cli(s, "tail", f"{db}.log", "--limit", "2") == (
        "id  name   score  d      day         t             ts                       ltz                               b\n"
        "1   Alice  95.5   12.34  2024-01-02  10:11:12.345  2024-01-02T03:04:05.123  2024-01-02T03:04:05.123456+00:00  aGk=\n"
        "2   Bob    0.1    -1.00  2024-12-31  23:59:59.999  2024-01-02T03:04:05.000  2024-01-02T01:04:05.000000+00:00  null\n")
    # Stops once nothing arrives: from latest there is nothing.
    assert cli(s, "tail", f"{db}.log", "--from", "latest", "--format", "jsonl", "--timeout-ms", "1500") == ""
    assert cli(s, "describe", f"{db}.log").splitlines()[-2:] == ["  bucket  earliest  latest", "  0       0         3"]

    # What tail --format jsonl prints, produce reads back into the same values.
    copy = await create_served(s, admin, db, "copy", "--schema", LOG_SCHEMA, "--buckets", "1")
    dump = tmp_path / "dump.jsonl"
    dump.write_text(cli(s, "tail", f"{db}.log", "--format", "jsonl", "--limit", "3"))
    assert summary(3, f"{db}.copy", dump).fullmatch(cli(s, "produce", f"{db}.copy", str(dump)))
    assert (await read_all(await conn.get_table(copy), 1)).to_pylist() == LOG_ROWS
    # ... and so does the CSV output.
    copy2 = await create_served(s, admin, db, "copy2", "--schema", LOG_SCHEMA, "--buckets", "1")
    dump_csv = tmp_path / "dump.csv"
    dump_csv.write_text(cli(s, "tail", f"{db}.log", "--format", "csv", "--limit", "3"))
    assert summary(3, f"{db}.copy2", dump_csv).fullmatch(cli(s, "produce", f"{db}.copy2", str(dump_csv)))
    assert (await read_all(await conn.get_table(copy2), 1)).to_pylist() == LOG_ROWS


async def test_produce_refuses_what_append_refuses_and_csv_keeps_null_apart_from_empty(
        bootstrap_servers, conn, admin, db, tmp_path):
    s = bootstrap_servers
    await create_served(s, admin, db, "f", "--schema", "f FLOAT, tm TIME(3)", "--buckets", "1")
    for name, text in [("big.csv", "f,tm\n1e39,\n"), ("big.jsonl", '{"f": -1e39}\n')]:
        f = tmp_path / name
        f.write_text(text)
        value = "1e+39" if name.endswith("csv") else "-1e+39"
        assert cli(s, "produce", f"{db}.f", str(f), rc=1) == \
            f"fluss: error: produce: {f}: column 'f': value {value} is beyond the range of FLOAT " \
            "(0 rows before it were written)\n"
    fine = tmp_path / "fine.csv"
    fine.write_text("f,tm\n1.5,00:00:00.0001\n")
    assert cli(s, "produce", f"{db}.f", str(fine), rc=1) == \
        f"fluss: error: produce: {fine}: column 'tm': '00:00:00.0001' is finer than the column's time32[ms] keeps " \
        "(0 rows before it were written)\n"
    # Nothing of the refused files was written.
    assert cli(s, "describe", f"{db}.f").splitlines()[-1] == "  0       0         0"

    src_path = await create_served(s, admin, db, "s", "--schema", "s STRING, b BYTES, i INT", "--buckets", "1")
    rows = [{"s": None, "b": None, "i": None}, {"s": "", "b": b"", "i": 1}, {"s": 'a,"b"', "b": b"x", "i": 2},
            {"s": " pad", "b": None, "i": 3}]
    writer = await (await conn.get_table(src_path)).new_append_writer()
    for r in rows:
        writer.append(r)
    await writer.flush()
    dump = tmp_path / "s.csv"
    dump.write_text(cli(s, "tail", f"{db}.s", "--format", "csv", "--limit", "4"))
    assert dump.read_text() == 's,b,i\n,,\n"","",1\n"a,""b""",eA==,2\n" pad",,3\n'
    copy = await create_served(s, admin, db, "s2", "--schema", "s STRING, b BYTES, i INT", "--buckets", "1")
    cli(s, "produce", f"{db}.s2", str(dump))
    assert (await read_all(await conn.get_table(copy), 1)).to_pylist() == rows


async def test_tail_from_a_timestamp(bootstrap_servers, conn, admin, db, tmp_path):
    s = bootstrap_servers
    path = await create_served(s, admin, db, "log", "--schema", "id INT, name STRING", "--buckets", "1")
    for k, rows in enumerate([[1, 2], [3, 4]]):
        f = tmp_path / f"part{k}.jsonl"
        f.write_text("".join(json.dumps({"id": i, "name": f"n{i}"}) + "\n" for i in rows))
        cli(s, "produce", f"{db}.log", str(f))
    table = await conn.get_table(path)
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe(0, fluss.EARLIEST_OFFSET)
    records = []
    while len(records) < 4:
        records += await scanner.poll_async(1000)
    ts = records[2].timestamp  # the commit time of the second produce's batch
    want = "".join(json.dumps({"id": r.row["id"], "name": r.row["name"]}) + "\n" for r in records
                   if r.timestamp >= ts)
    assert want.startswith('{"id": 3')
    # --limit, not an idle timeout: how soon the records arrive depends on the machine's load;
    # a tail that started too early would print id 1 or 2 first.
    n = str(want.count("\n"))
    assert cli(s, "tail", f"{db}.log", "--from", str(ts), "--format", "jsonl", "--limit", n) == want
    iso = datetime.datetime.fromtimestamp(ts / 1000, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    assert cli(s, "tail", f"{db}.log", "--from", iso, "--format", "jsonl", "--limit", n) == want
    assert cli(s, "tail", f"{db}.log", "--from", "earliest", "--format", "jsonl", "--limit", "1") == \
        '{"id": 1, "name": "n1"}\n'


async def test_produce_jsonl_into_a_primary_key_table(bootstrap_servers, conn, admin, db, tmp_path):
    s = bootstrap_servers
    path = await create_served(s, admin, db, "users", "--schema",
                               "id INT, name STRING, tags ARRAY<STRING>, born DATE, key BINARY(2), PRIMARY KEY (id)",
                               "--buckets", "1")
    src = tmp_path / "users.ndjson"
    src.write_text('{"id": 1, "name": "a", "tags": ["x"], "born": "2000-01-31", "key": "AAE="}\n'
                   '{"id": 2, "name": "b", "tags": null}\n'
                   '{"id": 1, "name": "c", "tags": [], "born": null, "key": "//8="}\n')
    assert summary(3, f"{db}.users", src).fullmatch(cli(s, "produce", f"{db}.users", str(src)))
    lookuper = (await conn.get_table(path)).new_lookup()
    assert await lookuper.lookup({"id": 1}) == {"id": 1, "name": "c", "tags": [], "born": None, "key": b"\xff\xff"}
    assert await lookuper.lookup({"id": 2}) == {"id": 2, "name": "b", "tags": None, "born": None, "key": None}
    assert cli(s, "tail", f"{db}.users", "--format", "jsonl", "--limit", "4") == (
        '{"_change_type": "+I", "id": 1, "name": "a", "tags": ["x"], "born": "2000-01-31", "key": "AAE="}\n'
        '{"_change_type": "+I", "id": 2, "name": "b", "tags": null, "born": null, "key": null}\n'
        '{"_change_type": "-U", "id": 1, "name": "a", "tags": ["x"], "born": "2000-01-31", "key": "AAE="}\n'
        '{"_change_type": "+U", "id": 1, "name": "c", "tags": [], "born": null, "key": "//8="}\n')
    assert cli(s, "tail", f"{db}.users", "--limit", "2") == (
        "_change_type  id  name  tags   born        key\n"
        "+I            1   a     [\"x\"]  2000-01-31  AAE=\n"
        "+I            2   b     null   null        null\n")


async def test_produce_parquet_into_a_partitioned_table(bootstrap_servers, conn, admin, db, tmp_path):
    s = bootstrap_servers
    path = await create_served(s, admin, db, "events", "--schema",
                               "id BIGINT, region STRING, v DOUBLE, attrs MAP<STRING, INT>, raw BYTES", "--partition-by",
                               "region", "--buckets", "1")
    src = tmp_path / "events.parquet"
    pq.write_table(pa.table({
        "id": pa.array([1, 2, 3], pa.int32()),  # a narrower integer: every value fits BIGINT
        "region": ["US", "EU", "US"],
        "v": [1.5, 2.5, 3.5],
        "attrs": pa.array([[("a", 1)], None, []], pa.map_(pa.string(), pa.int32())),
        "raw": pa.array([b"\x00\x01", None, b""], pa.binary()),  # Parquet's own bytes, not base64 text
    }), src)
    err = cli(s, "produce", f"{db}.events", str(src), rc=1)
    assert "PARTITION_NOT_EXISTS (36)" in err and "--create-partitions" not in err
    assert summary(3, f"{db}.events", src).fullmatch(
        cli(s, "produce", f"{db}.events", str(src), "--create-partitions"))
    parts = {p.partition_name: p.partition_id for p in await admin.list_partition_infos(path)}
    assert sorted(parts) == ["EU", "US"]
    table = await conn.get_table(path)
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_partition_buckets({(pid, 0): fluss.EARLIEST_OFFSET for pid in parts.values()})
    got = sorted(scanner.to_arrow().to_pylist(), key=lambda r: r["id"])
    assert got == [{"id": 1, "region": "US", "v": 1.5, "attrs": [("a", 1)], "raw": b"\x00\x01"},
                   {"id": 2, "region": "EU", "v": 2.5, "attrs": None, "raw": None},
                   {"id": 3, "region": "US", "v": 3.5, "attrs": [], "raw": b""}]
    lines = cli(s, "tail", f"{db}.events", "--format", "jsonl", "--limit", "3").splitlines()
    assert sorted(lines) == ['{"id": 1, "region": "US", "v": 1.5, "attrs": {"a": 1}, "raw": "AAE="}',
                             '{"id": 2, "region": "EU", "v": 2.5, "attrs": null, "raw": null}',
                             '{"id": 3, "region": "US", "v": 3.5, "attrs": {}, "raw": ""}']
    out = cli(s, "describe", f"{db}.events").splitlines()
    assert out[1] == "kind: log table, partitioned"
    i = out.index("partitions:")
    assert out[i:i + 3] == ["partitions:", f"  region=EU  (id {parts['EU']})", f"  region=US  (id {parts['US']})"]
    assert out[-4:] == ["offsets:", "  partition  bucket  earliest  latest", "  EU         0       0         1",
                        "  US         0       0         2"]


async def test_progress_bar_on_request(bootstrap_servers, conn, admin, db, tmp_path):
    s = bootstrap_servers
    path = await create_served(s, admin, db, "log", "--schema", "id BIGINT, name STRING", "--buckets", "1")
    src = tmp_path / "many.csv"
    src.write_text("id,name\n" + "".join(f"{i},name {i}\n" for i in range(50000)))
    env = dict(os.environ, FLUSS_BOOTSTRAP_SERVERS=s)
    p = subprocess.run([sys.executable, "-m", "fluss", "produce", f"{db}.log", str(src), "--progress"], env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert summary(50000, f"{db}.log", src).fullmatch(p.stdout)
    assert f"{db}.log:" in p.stderr and "50000 rows" in p.stderr  # tqdm's bar with its postfix
    assert (await read_all(await conn.get_table(path), 1)).column("id").to_pylist() == list(range(50000))


# ---------------------------------------------------------------------------- errors


async def test_errors_are_one_line(bootstrap_servers, admin, db, tmp_path):
    s = bootstrap_servers
    await create_served(s, admin, db, "log", "--schema", "id BIGINT NOT NULL, name STRING", "--buckets", "1")
    missing = f"fluss: error: table {db}.nope: Table '{db}.nope' does not exist.\n"
    assert cli(s, "describe", f"{db}.nope", rc=1) == missing
    assert cli(s, "tail", f"{db}.nope", "--limit", "1", rc=1) == missing
    good = tmp_path / "good.csv"
    good.write_text("id,name\n1,a\n")
    assert cli(s, "produce", f"{db}.nope", str(good), rc=1) == missing
    assert cli(s, "tables", "no_such_db_x", rc=1) == \
        "fluss: error: database no_such_db_x: Database no_such_db_x does not exist.\n"
    assert cli(s, "create", f"{db}.x", "--schema", "id INT,", rc=2) == \
        "fluss: error: --schema: expected a column name at character 8, found the end of the text\n"
    assert cli(s, "create", f"{db}.x", "--schema", "id VARCHAR2", rc=2).startswith(
        "fluss: error: --schema: unknown type 'VARCHAR2' at character 4 (known: BOOLEAN,")
    assert cli(s, "create", f"{db}.x", rc=2) == \
        "fluss: error: create: --schema is required to create a table (DB.TABLE)\n"
    assert cli(s, "create", f"{db}.x", "--schema", "id INT", "--primary-key", "nope", rc=2) == \
        "fluss: error: --primary-key: column 'nope' is not in the schema (columns: id)\n"
    assert cli(s, "create", f"{db}.x", "--schema", "id INT", "--buckets", "0", rc=1) == \
        "fluss: error: TableDescriptor: bucket_count must be an int from 1 to 128000 (the server's default " \
        "max.bucket.num), got 0\n"
    assert not await admin.table_exists(fluss.TablePath(db, "x"))
    assert cli(s, "produce", f"{db}.log", str(tmp_path / "none.csv"), rc=1) == \
        f"fluss: error: produce: cannot read '{tmp_path / 'none.csv'}': no such file\n"
    odd = tmp_path / "rows.txt"
    odd.write_text("id,name\n")
    assert cli(s, "produce", f"{db}.log", str(odd), rc=2) == (
        f"fluss: error: --format: cannot tell the format of '{odd}' from its extension (.csv, .jsonl, .ndjson, "
        f".json, .parquet, .pq): give --format csv|jsonl|parquet\n")
    bad = tmp_path / "bad.csv"
    bad.write_text("id,name\n1,a\nx,b\n")
    assert cli(s, "produce", f"{db}.log", str(bad), rc=1) == (
        f"fluss: error: produce: {bad}: In CSV column #0: Row #3: CSV conversion error to int64: invalid value "
        f"'x' (0 rows before it were written)\n")
    extra = tmp_path / "extra.jsonl"
    extra.write_text('{"id": 1, "zzz": 2}\n')
    assert cli(s, "produce", f"{db}.log", str(extra), rc=1).startswith(f"fluss: error: produce: {extra}: ")
    nonull = tmp_path / "nonull.csv"
    nonull.write_text("name\na\n")
    assert cli(s, "produce", f"{db}.log", str(nonull), rc=1) == (
        f"fluss: error: produce: {nonull}: the file has no column 'id', which is NOT NULL in the table "
        f"(0 rows before it were written)\n")
    junk = tmp_path / "junk.parquet"
    junk.write_bytes(b"not parquet at all")
    assert cli(s, "produce", f"{db}.log", str(junk), rc=1).startswith(f"fluss: error: produce: {junk}: ")
    assert cli(s, "tail", f"{db}.log", "--from", "yesterday", rc=2) == (
        "fluss: error: --from: expected earliest, latest, epoch milliseconds or an ISO-8601 time "
        "(e.g. 2024-05-01T12:00:00Z), got 'yesterday'\n")
    assert cli(s, "tail", "justatable", rc=2) == "fluss: error: DB.TABLE: expected DATABASE.TABLE, got 'justatable'\n"
    assert cli(s, "tail", f"{db}.log", "--limit", "0", rc=2) == "fluss: error: --limit: must be at least 1, got 0\n"
    assert cli(s, "frobnicate", rc=2).startswith("fluss: error: argument COMMAND: invalid choice: 'frobnicate'")
    assert cli(s, "-c", "no.such.key=1", "databases", rc=1).startswith("fluss: error: ")
    assert cli(s, "-c", "novalue", "databases", rc=2) == \
        "fluss: error: -c/--config: expected key=value, got 'novalue'\n"
    assert cli("127.0.0.1:1", "databases", rc=1).startswith("fluss: error: ")
