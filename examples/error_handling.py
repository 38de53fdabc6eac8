"""Guide, Error Handling: FlussError carries the message (and the Fluss error code)."""

import asyncio

import pyarrow as pa

import fluss
from _setup import connect


async def main() -> None:
    conn, admin = await connect()
    table_path = fluss.TablePath("fluss", "example_errors")
    table_descriptor = fluss.TableDescriptor(fluss.Schema(pa.schema([("id", pa.int32())])))
    await admin.create_table(table_path, table_descriptor, ignore_if_exists=True)  # so that creating again fails

    # --- snippet (unchanged) ---
    try:
        await admin.create_table(table_path, table_descriptor)
    except fluss.FlussError as e:
        print(f"Fluss error: {e.message}")
    # --- end of snippet ---

    # The other common scenarios of the guide.
    try:
        await conn.get_table(fluss.TablePath("fluss", "no_such_table"))
    except fluss.FlussError as e:
        print(f"table not found: code {e.error_code}")
    try:
        await fluss.FlussConnection.connect(fluss.Config({"bootstrap.servers": "127.0.0.1:1"}))
    except fluss.FlussError as e:
        print(f"connection refused: code {e.error_code}")
    writer = await (await conn.get_table(table_path)).new_append_writer()
    try:
        writer.append({"id": "not an int"})
    except fluss.FlussError as e:
        print(f"schema mismatch: {e.message}")
    await admin.drop_table(table_path)
    conn.close()


asyncio.run(main())
