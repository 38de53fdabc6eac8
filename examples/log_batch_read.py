"""Guide, Log Tables > Reading > Batch Read (One-Shot)."""

import asyncio

import fluss
from _setup import connect, fresh_log_table, write_rows


async def main() -> None:
    conn, admin = await connect()
    table_path = await fresh_log_table(admin, "example_batch_read", bucket_count=3)
    table = await conn.get_table(table_path)
    await write_rows(table, [{"id": i, "name": f"user{i}", "score": float(i)} for i in range(6)])

    # --- snippet (unchanged) ---
    num_buckets = (await admin.get_table(table_path)).num_buckets

    scanner = await table.new_scan().create_batch_scanner()
    scanner.subscribe_buckets({i: fluss.EARLIEST_OFFSET for i in range(num_buckets)})

    # Reads everything up to current latest offset, then returns
    arrow_table = scanner.to_arrow()
    df = scanner.to_pandas()
    # --- end of snippet ---

    print(f"num_buckets={num_buckets} arrow_rows={arrow_table.num_rows} df_rows_after={len(df)}")
    print(arrow_table.sort_by("id").to_pandas().to_string(index=False))
    await admin.drop_table(table_path)
    conn.close()


asyncio.run(main())
