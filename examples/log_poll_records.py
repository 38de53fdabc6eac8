"""Guide, Log Tables > Reading > Continuous Polling: record scanner with poll (the endless loop
bounded to the rows written)."""

import asyncio

import fluss
from _setup import connect, fresh_log_table, write_rows


async def main() -> None:
    conn, admin = await connect()
    table_path = await fresh_log_table(admin, "example_poll_records")
    table = await conn.get_table(table_path)
    await write_rows(table, [{"id": 1, "name": "Alice", "score": 95.5}, {"id": 2, "name": "Bob", "score": 87.0}])
    num_buckets = (await admin.get_table(table_path)).num_buckets
    seen = 0

    # --- snippet (unchanged, but for the loop bound) ---
    # Record scanner: poll individual records with metadata
    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe_buckets({i: fluss.EARLIEST_OFFSET for i in range(num_buckets)})

    while seen < 2:
        for record in scanner.poll(timeout_ms=5000):
            print(f"offset={record.offset}, change={record.change_type.short_string()}, row={record.row}")
            seen += 1
    # --- end of snippet ---

    await admin.drop_table(table_path)
    conn.close()


asyncio.run(main())
