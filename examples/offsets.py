"""Guide, Offsets: latest offsets, offsets by timestamp, per-partition offsets."""

import asyncio

import pyarrow as pa

import fluss
from _setup import connect, fresh_log_table, write_rows


async def main() -> None:
    conn, admin = await connect()
    table_path = await fresh_log_table(admin, "example_offsets", bucket_count=2)
    table = await conn.get_table(table_path)
    await write_rows(table, [{"id": i, "name": "x", "score": 0.0} for i in range(5)])
    # The partitioned table the per-partition snippet presumes, with its partition "US".
    partitioned = fluss.TablePath("fluss", "example_offsets_by_region")
    await admin.drop_table(partitioned, ignore_if_not_exists=True)
    await admin.create_table(partitioned, fluss.TableDescriptor(
        fluss.Schema(pa.schema([("id", pa.int32()), ("region", pa.string())])), partition_keys=["region"],
        bucket_count=1))
    await admin.create_partition(partitioned, {"region": "US"}, ignore_if_exists=True)

    # --- snippet (unchanged, but for the table path of the per-partition call) ---
    # Latest offsets for buckets
    offsets = await admin.list_offsets(table_path, bucket_ids=[0, 1], offset_type="latest")
    print(f"latest: {offsets} (total {sum(offsets.values())})")

    # By timestamp
    offsets = await admin.list_offsets(table_path, bucket_ids=[0], offset_type="timestamp", timestamp=1704067200000)
    print(f"at 2024-01-01: {offsets}")

    # Per-partition offsets
    offsets = await admin.list_partition_offsets(partitioned, partition_name="US", bucket_ids=[0], offset_type="latest")
    print(f"partition US latest: {offsets}")
    # --- end of snippet ---

    await admin.drop_table(table_path)
    await admin.drop_table(partitioned)
    conn.close()


asyncio.run(main())
