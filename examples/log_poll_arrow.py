"""Guide, Log Tables > Reading > Continuous Polling: batch scanner with poll_arrow (the endless
loop bounded to the three rows written)."""

import asyncio

import fluss
from _setup import connect, fresh_log_table, write_rows


async def main() -> None:
    conn, admin = await connect()
    table_path = await fresh_log_table(admin, "example_poll_arrow")
    table = await conn.get_table(table_path)
    await write_rows(table, [{"id": i, "name": f"n{i}", "score": 1.0 * i} for i in range(3)])
    seen = 0

    # --- snippet (unchanged, but for the loop bound) ---
    # Batch scanner: poll as Arrow Tables
    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)

    while seen < 3:
        result = scanner.poll_arrow(timeout_ms=5000)
        if result.num_rows > 0:
            print(result.to_pandas())
        seen += result.num_rows
    # --- end of snippet ---

    await admin.drop_table(table_path)
    conn.close()


asyncio.run(main())
