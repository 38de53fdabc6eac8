"""Nested types: ARRAY, MAP and ROW columns (nested in each other, nullable at every level),
written as Python values and as Arrow, read back as Arrow, rows and lookups."""

import asyncio

import pyarrow as pa

import fluss
from _setup import connect


async def main() -> None:
    conn, admin = await connect()
    table_path = fluss.TablePath("fluss", "profiles")
    await admin.drop_table(table_path, ignore_if_not_exists=True)

    address = pa.struct([pa.field("city", pa.string()), pa.field("zip", pa.int32(), nullable=False)])
    schema = fluss.Schema(
        pa.schema([
            pa.field("id", pa.int32()),
            pa.field("tags", pa.list_(pa.string())),             # ARRAY<STRING>
            pa.field("scores", pa.map_(pa.string(), pa.int64())),  # MAP<STRING, BIGINT>
            pa.field("address", address),                         # ROW<city STRING, zip INT NOT NULL>
        ]),
        primary_keys=["id"],
    )
    print(schema.get_column_types())
    await admin.create_table(table_path, fluss.TableDescriptor(schema, bucket_count=1))
    table = await conn.get_table(table_path)

    writer = table.new_upsert()
    # ARRAY: a list; MAP: a dict (or a list of (key, value) pairs); ROW: a dict by field name
    # (or a list by position).
    writer.upsert({"id": 1, "tags": ["new", None], "scores": {"math": 90, "art": None},
                   "address": {"city": "Lyon", "zip": 69001}})
    writer.upsert([2, [], [("math", 75)], ["Oslo", 150]])
    writer.upsert({"id": 3})  # every nested column null
    await writer.flush()

    lookuper = table.new_lookup()
    for key in (1, 2, 3):
        print(await lookuper.lookup({"id": key}))  # maps read back as lists of (key, value)

    try:
        writer.upsert({"id": 4, "address": {"city": "Rome", "zip": None}})
    except fluss.FlussError as e:
        print("refused:", e.message)

    scanner = await table.new_scan().create_log_scanner()
    scanner.subscribe(0, fluss.EARLIEST_OFFSET)
    records: "list[fluss.ScanRecord]" = []
    while len(records) < 3:
        records += await scanner.poll_async(1000)
    print([(r.change_type.short_string(), r.row["id"], r.row["tags"]) for r in records])
    conn.close()


asyncio.run(main())
