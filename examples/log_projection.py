"""Guide, Log Tables > Reading > Column Projection: by index and by name."""

import asyncio

import fluss
from _setup import connect, fresh_log_table, write_rows


async def main() -> None:
    conn, admin = await connect()
    table_path = await fresh_log_table(admin, "example_projection")
    table = await conn.get_table(table_path)
    await write_rows(table, [{"id": 1, "name": "Alice", "score": 95.5}, {"id": 2, "name": "Bob", "score": 87.0}])

    # --- snippet (unchanged) ---
    scanner = await table.new_scan().project([0, 2]).create_batch_scanner()
    # or by name
    scanner = await table.new_scan().project_by_name(["id", "score"]).create_batch_scanner()
    # --- end of snippet ---

    scanner.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)
    print(scanner.to_pandas().to_string(index=False))
    by_index = await table.new_scan().project([0, 2]).create_batch_scanner()
    by_index.subscribe(bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)
    print(by_index.to_arrow().schema.names)
    await admin.drop_table(table_path)
    conn.close()


asyncio.run(main())
