"""Limit scans: table.new_scan().limit(n).create_bucket_batch_scanner(bucket) on log and
primary-key tables, with exact rows; log and batch scanners reject a limit."""

import pyarrow as pa
import pytest

import fluss
from conftest import new_table

SCHEMA = pa.schema([pa.field("id", pa.int32()), pa.field("name", pa.string()), pa.field("score", pa.float64())])


async def log_table(conn, admin, database, rows, batch_rows=None):
    """A one-bucket log table of `rows` rows, in batches of `batch_rows` (one flush each)."""
    table = await new_table(conn, admin, database, "log_limit", SCHEMA, bucket_count=1)
    writer = await table.new_append_writer()
    for i in range(rows):
        writer.append({"id": i, "name": f"n{i}", "score": i / 2})
        if batch_rows and (i + 1) % batch_rows == 0:
            await writer.flush()
    await writer.flush()
    return table


def _row(i):
    return {"id": i, "name": f"n{i}", "score": i / 2}


async def test_limit_scan_of_a_log_table_reads_its_last_records(conn, admin, database):
    # As Java's LimitBatchScanner: the last `limit` records below the high watermark, in offset
    # order, also when the server's answer starts earlier, in the batch holding HW - limit.
    table = await log_table(conn, admin, database, 50, batch_rows=7)
    scanner = table.new_scan().limit(10).create_bucket_batch_scanner(0)
    assert isinstance(scanner, fluss.BatchScanner)
    assert scanner.bucket == fluss.TableBucket(table.get_table_info().table_id, 0)
    batch = await scanner.next_batch()
    assert isinstance(batch, pa.RecordBatch) and batch.schema == SCHEMA
    assert batch.to_pylist() == [_row(i) for i in range(40, 50)]
    assert await scanner.next_batch() is None
    assert await scanner.collect_all_batches() == []
    assert (await scanner.to_arrow()).num_rows == 0

    # A limit above the row count returns every row; a TableBucket names the bucket too.
    bucket = fluss.TableBucket(table.get_table_info().table_id, 0)
    everything = await table.new_scan().limit(1000).create_bucket_batch_scanner(bucket).to_arrow()
    assert everything.schema == SCHEMA
    assert everything.column("id").to_pylist() == list(range(50))
    batches = await table.new_scan().limit(3).create_bucket_batch_scanner(0).collect_all_batches()
    assert [b.to_pylist() for b in batches] == [[_row(i) for i in range(47, 50)]]
    df = await table.new_scan().limit(2).create_bucket_batch_scanner(0).to_pandas()
    assert df.to_dict("records") == [_row(48), _row(49)]
    # A limit that reaches into the first of several batches.
    assert (await table.new_scan().limit(45).create_bucket_batch_scanner(0).to_arrow()).to_pylist() == [
        _row(i) for i in range(5, 50)]


async def test_limit_scan_with_projection(conn, admin, database):
    table = await log_table(conn, admin, database, 5)
    got = await table.new_scan().project_by_name(["score", "id"]).limit(2).create_bucket_batch_scanner(0).to_arrow()
    assert got.schema.names == ["score", "id"]
    assert got.to_pylist() == [{"score": 1.5, "id": 3}, {"score": 2.0, "id": 4}]


async def test_limit_scan_of_a_primary_key_table_reads_current_rows(conn, admin, database):
    table = await new_table(conn, admin, database, "pk_limit", SCHEMA, ["id"], bucket_count=2)
    writer = table.new_upsert()
    for i in range(40):
        writer.upsert({"id": i, "name": f"v1-{i}", "score": float(i)})
    await writer.flush()
    for i in range(0, 40, 2):
        writer.upsert({"id": i, "name": f"v2-{i}", "score": -float(i)})
    for i in range(0, 40, 5):
        writer.delete({"id": i})
    await writer.flush()
    expected = {i: {"id": i, "name": f"v2-{i}" if i % 2 == 0 else f"v1-{i}", "score": -float(i) if i % 2 == 0 else float(i)}
                for i in range(40) if i % 5 != 0}

    rows = []
    for bucket in range(2):
        got = await table.new_scan().limit(100).create_bucket_batch_scanner(bucket).to_arrow()
        assert got.schema == table.get_table_info().get_schema().arrow_schema
        rows.extend(got.to_pylist())
    assert sorted(rows, key=lambda r: r["id"]) == [expected[i] for i in sorted(expected)]

    # A limit below the bucket's row count returns that many rows of its current state.
    few = (await table.new_scan().limit(3).create_bucket_batch_scanner(0).next_batch()).to_pylist()
    assert len(few) == 3
    assert all(r == expected[r["id"]] for r in few)


async def test_limit_is_rejected_where_it_does_not_apply(conn, admin, database):
    table = await log_table(conn, admin, database, 1)
    with pytest.raises(fluss.FlussError) as e:
        await table.new_scan().limit(5).create_log_scanner()
    assert "create_bucket_batch_scanner" in e.value.message
    with pytest.raises(fluss.FlussError):
        await table.new_scan().limit(5).create_batch_scanner()
    with pytest.raises(fluss.FlussError) as e:
        table.new_scan().create_bucket_batch_scanner(0)
    assert "limit" in e.value.message
    for n in (0, -1, 2**31, 1.5, True, None):
        with pytest.raises(fluss.FlussError):
            table.new_scan().limit(n)
    for bucket in (1, -1, "0", fluss.TableBucket(table.get_table_info().table_id + 1, 0)):
        with pytest.raises(fluss.FlussError):
            table.new_scan().limit(5).create_bucket_batch_scanner(bucket)
