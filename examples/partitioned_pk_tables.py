"""Guide, Partitioned Primary Key Tables."""

import asyncio

import pyarrow as pa

import fluss
from _setup import connect


async def main() -> None:
    conn, admin = await connect()
    await admin.drop_table(fluss.TablePath("fluss", "partitioned_users"), ignore_if_not_exists=True)

    # --- snippet: Partitioned Primary Key Tables (unchanged) ---
    schema = fluss.Schema(
        pa.schema([
            pa.field("user_id", pa.int32()),
            pa.field("region", pa.string()),
            pa.field("score", pa.int64()),
        ]),
        primary_keys=["user_id", "region"],
    )

    table_path = fluss.TablePath("fluss", "partitioned_users")
    await admin.create_table(
        table_path,
        fluss.TableDescriptor(schema, partition_keys=["region"]),
        ignore_if_exists=True,
    )

    await admin.create_partition(table_path, {"region": "US"}, ignore_if_exists=True)

    table = await conn.get_table(table_path)
    writer = table.new_upsert()
    writer.upsert({"user_id": 1, "region": "US", "score": 1234})
    await writer.flush()

    # Lookup includes partition columns
    lookuper = table.new_lookup()
    result = await lookuper.lookup({"user_id": 1, "region": "US"})
    # --- end of snippet ---
    print(result)
    print(await lookuper.lookup({"user_id": 1, "region": "EU"}))  # a partition that does not exist

    # Writing before the partition exists fails with PARTITION_NOT_EXISTS (the guide's "Partition
    # not found" error scenario); the rows of existing partitions are still written.
    writer.upsert({"user_id": 2, "region": "EU", "score": 1})
    writer.upsert({"user_id": 2, "region": "US", "score": 5678})
    try:
        await writer.flush()
    except fluss.FlussError as e:
        print(f"partition not found: code {e.error_code}")
    print(await lookuper.lookup({"user_id": 2, "region": "US"}))
    await admin.drop_table(table_path)
    conn.close()


asyncio.run(main())
