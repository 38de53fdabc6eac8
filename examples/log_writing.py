"""Guide, Log Tables > Writing: fire-and-forget appends, per-record acknowledgment, bulk writes."""

import asyncio

import fluss
from _setup import connect, fresh_log_table, sample_data


async def main() -> None:
    conn, admin = await connect()
    table_path = await fresh_log_table(admin, "example_log_writing")
    pa_table, record_batch, df = sample_data()

    # --- snippet (unchanged) ---
    table = await conn.get_table(table_path)
    writer = await table.new_append_writer()

    # Fire-and-forget: queue writes, flush at the end
    writer.append({"id": 1, "name": "Alice", "score": 95.5})
    writer.append([2, "Bob", 87.0])
    await writer.flush()

    # Per-record acknowledgment
    handle = writer.append({"id": 3, "name": "Charlie", "score": 91.0})
    await handle.wait()

    # Bulk writes
    writer.write_arrow(pa_table)          # PyArrow Table
    writer.write_arrow_batch(record_batch) # PyArrow RecordBatch
    writer.write_pandas(df)                # Pandas DataFrame
    await writer.flush()
    # --- end of snippet ---

    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)
    print(scanner.to_pandas().sort_values("id").to_string(index=False))
    await admin.drop_table(table_path)
    conn.close()


asyncio.run(main())
