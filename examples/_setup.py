"""Setup shared by the snippet examples: what each snippet of the guide presumes exists
(a connection, a log table with id/name/score, sample data). Not part of any snippet."""

import os
from typing import Any, Dict, List, Optional, Tuple

import pandas as pd
import pyarrow as pa

import fluss

BOOTSTRAP = os.environ.get("FLUSS_BOOTSTRAP_SERVERS", "127.0.0.1:9123")
SCHEMA = pa.schema([
    pa.field("id", pa.int32()),
    pa.field("name", pa.string()),
    pa.field("score", pa.float32()),
])


async def connect() -> Tuple[fluss.FlussConnection, fluss.FlussAdmin]:
    config = fluss.Config({"bootstrap.servers": BOOTSTRAP})
    conn = await fluss.FlussConnection.connect(config)
    admin = await conn.get_admin()
    return conn, admin


async def fresh_log_table(admin: fluss.FlussAdmin, name: str, bucket_count: Optional[int] = None) -> fluss.TablePath:
    """A new, empty log table fluss.<name> with the SCHEMA columns."""
    table_path = fluss.TablePath("fluss", name)
    await admin.drop_table(table_path, ignore_if_not_exists=True)
    await admin.create_table(table_path, fluss.TableDescriptor(fluss.Schema(SCHEMA), bucket_count=bucket_count))
    return table_path


def sample_data() -> Tuple[pa.Table, pa.RecordBatch, pd.DataFrame]:
    """pa_table, record_batch and df as the Bulk-writes snippet presumes."""
    pa_table = pa.table({"id": pa.array([10, 11], pa.int32()), "name": ["Kim", "Lee"],
                         "score": pa.array([70.0, 71.0], pa.float32())})
    record_batch = pa.record_batch([pa.array([20], pa.int32()), pa.array(["Max"]), pa.array([80.5], pa.float32())],
                                   schema=SCHEMA)
    df = pd.DataFrame({"id": [30], "name": ["Ana"], "score": [90.25]})
    return pa_table, record_batch, df


async def write_rows(table: fluss.FlussTable, rows: List[Dict[str, Any]]) -> None:
    writer = await table.new_append_writer()
    for row in rows:
        writer.append(row)
    await writer.flush()
