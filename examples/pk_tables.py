"""Guide, Primary Key Tables: Creating, then Upsert, Delete, Lookup, then Partial Updates."""

import asyncio

import pyarrow as pa

import fluss
from _setup import connect


async def main() -> None:
    conn, admin = await connect()
    await admin.drop_table(fluss.TablePath("fluss", "users"), ignore_if_not_exists=True)

    # --- snippet: Creating (unchanged) ---
    schema = fluss.Schema(
        pa.schema([
            pa.field("id", pa.int32()),
            pa.field("name", pa.string()),
            pa.field("age", pa.int64()),
        ]),
        primary_keys=["id"],
    )
    table_path = fluss.TablePath("fluss", "users")
    await admin.create_table(table_path, fluss.TableDescriptor(schema, bucket_count=3), ignore_if_exists=True)
    # --- end of snippet ---

    # --- snippet: Upsert, Delete, Lookup (unchanged) ---
    table = await conn.get_table(table_path)

    # Upsert (fire-and-forget, flush at the end)
    writer = table.new_upsert()
    writer.upsert({"id": 1, "name": "Alice", "age": 25})
    writer.upsert({"id": 2, "name": "Bob", "age": 30})
    await writer.flush()

    # Per-record acknowledgment (for read-after-write)
    handle = writer.upsert({"id": 3, "name": "Charlie", "age": 35})
    await handle.wait()

    # Delete by primary key
    handle = writer.delete({"id": 2})
    await handle.wait()

    # Lookup
    lookuper = table.new_lookup()
    result = await lookuper.lookup({"id": 1})
    if result:
        print(f"Found: name={result['name']}, age={result['age']}")
    # --- end of snippet ---

    # --- snippet: Partial Updates (unchanged) ---
    partial_writer = table.new_upsert(columns=["id", "age"])
    partial_writer.upsert({"id": 1, "age": 27})  # only updates age
    await partial_writer.flush()
    # --- end of snippet ---

    for key in (1, 2, 3):
        print(await lookuper.lookup({"id": key}))
    await admin.drop_table(table_path)
    conn.close()


asyncio.run(main())
