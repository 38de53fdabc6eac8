"""Guide, Partitioned Tables: Creating and Managing Partitions, Writing, Reading."""

import asyncio

import pyarrow as pa

import fluss
from _setup import connect


async def main() -> None:
    conn, admin = await connect()
    await admin.drop_table(fluss.TablePath("fluss", "partitioned_events"), ignore_if_not_exists=True)

    # --- snippet: Creating and Managing Partitions (unchanged) ---
    schema = fluss.Schema(pa.schema([
        pa.field("id", pa.int32()),
        pa.field("region", pa.string()),
        pa.field("value", pa.int64()),
    ]))

    table_path = fluss.TablePath("fluss", "partitioned_events")
    await admin.create_table(
        table_path,
        fluss.TableDescriptor(schema, partition_keys=["region"], bucket_count=1),
        ignore_if_exists=True,
    )

    # Create partitions
    await admin.create_partition(table_path, {"region": "US"}, ignore_if_exists=True)
    await admin.create_partition(table_path, {"region": "EU"}, ignore_if_exists=True)

    # List partitions
    partition_infos = await admin.list_partition_infos(table_path)
    # --- end of snippet ---
    print(sorted(p.partition_name for p in partition_infos))

    # --- snippet: Writing (unchanged) ---
    table = await conn.get_table(table_path)
    writer = await table.new_append_writer()
    writer.append({"id": 1, "region": "US", "value": 100})
    writer.append({"id": 2, "region": "EU", "value": 200})
    await writer.flush()
    # --- end of snippet ---

    # --- snippet: Reading (unchanged) ---
    scanner = await table.new_scan().create_batch_scanner()

    # Subscribe to individual partitions
    for p in partition_infos:
        scanner.subscribe_partition(partition_id=p.partition_id, bucket_id=0, start_offset=fluss.EARLIEST_OFFSET)

    # Or batch-subscribe
    scanner.subscribe_partition_buckets({
        (p.partition_id, 0): fluss.EARLIEST_OFFSET for p in partition_infos
    })

    print(scanner.to_pandas())
    # --- end of snippet ---

    await admin.drop_table(table_path)
    conn.close()


asyncio.run(main())
