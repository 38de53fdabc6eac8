"""Guide, Log Tables > Reading > Subscribe from Latest Offset: only records written after
subscribing are read."""

import asyncio

import fluss
from _setup import connect, fresh_log_table, write_rows


async def main() -> None:
    conn, admin = await connect()
    table_path = await fresh_log_table(admin, "example_latest")
    table = await conn.get_table(table_path)
    await write_rows(table, [{"id": 1, "name": "old", "score": 1.0}])

    # --- snippet (unchanged) ---
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe(bucket_id=0, start_offset=fluss.LATEST_OFFSET)
    # --- end of snippet ---

    print(f"before new writes: {scanner.poll_arrow(timeout_ms=500).num_rows} rows")
    await write_rows(table, [{"id": 2, "name": "new", "score": 2.0}])
    print(scanner.poll_arrow(timeout_ms=5000).to_pandas().to_string(index=False))
    await admin.drop_table(table_path)
    conn.close()


asyncio.run(main())
