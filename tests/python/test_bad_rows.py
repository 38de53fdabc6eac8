"""Each bad row raises FlussError naming the column (or key); the rows queued before and after it
are still written."""

import decimal

import pyarrow as pa
import pytest

import fluss
from conftest import read_all

SCHEMA = pa.schema([
    pa.field("id", pa.int32(), nullable=False),
    pa.field("small", pa.int8()),
    pa.field("name", pa.string()),
    pa.field("amount", pa.decimal128(5, 2)),
    pa.field("flag", pa.bool_()),
])

BAD_ROWS = [
    ({"id": 1, "unknown_col": 5}, "unknown_col"),            # unknown key
    ({"id": "one"}, "id"),                                   # wrong type
    ({"id": 1, "name": 42}, "name"),                         # wrong type
    ({"id": 1, "flag": 1}, "flag"),                          # int is not a bool
    ({"id": 1, "small": 128}, "small"),                      # out of range for int8
    ({"id": 2**40}, "id"),                                   # out of range for int32
    ({"id": 1, "amount": decimal.Decimal("1234.5")}, "amount"),   # too many digits for (5, 2)
    ({"id": 1, "amount": decimal.Decimal("1.234")}, "amount"),    # more fractional digits than the scale
    ({"id": 1, "amount": 1.5}, "amount"),                    # float is not a Decimal
    ({"name": "no id"}, "id"),                               # missing NOT NULL column
    ({"id": None}, "id"),                                    # null in NOT NULL column
    ([1, 2, "x"], "5 columns"),                              # list of the wrong length
    ((1,), "5 columns"),                                     # tuple of the wrong length
    ("not a row", "dict, list or tuple"),
]


@pytest.mark.parametrize("bad_row,named", BAD_ROWS, ids=[str(i) for i in range(len(BAD_ROWS))])
async def test_bad_row_is_rejected_and_nothing_queued_is_lost(conn, admin, database, bad_row, named):
    path = fluss.TablePath(database, "bad_rows")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(SCHEMA), bucket_count=2), ignore_if_exists=True)
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    before = writer.append({"id": 10, "small": -1, "name": "before", "amount": decimal.Decimal("1.5"), "flag": True})
    with pytest.raises(fluss.FlussError) as e:
        writer.append(bad_row)
    assert named in e.value.message, e.value.message
    assert e.value.error_code == -2
    writer.append([11, None, "after", None, False])
    await writer.flush()
    await before.wait()
    rows = sorted((await read_all(table, 2)).to_pylist(), key=lambda r: r["id"])
    assert rows == [
        {"id": 10, "small": -1, "name": "before", "amount": decimal.Decimal("1.50"), "flag": True},
        {"id": 11, "small": None, "name": "after", "amount": None, "flag": False},
    ]
    await admin.drop_table(path)


async def test_bad_arrow_batch_is_rejected(conn, admin, database):
    path = fluss.TablePath(database, "bad_batch")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(SCHEMA)))
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    wrong_type = pa.record_batch([pa.array([1], pa.int64())], names=["id"])
    with pytest.raises(fluss.FlussError):
        writer.write_arrow_batch(wrong_type)
    good = pa.record_batch([pa.array([1], pa.int32()), pa.array([None], pa.int8()), pa.array(["x"]),
                            pa.array([None], pa.decimal128(5, 2)), pa.array([True])], schema=SCHEMA)
    renamed = good.rename_columns(["id", "small", "nm", "amount", "flag"])
    with pytest.raises(fluss.FlussError) as e:
        writer.write_arrow_batch(renamed)
    assert "nm" in e.value.message
    null_id = pa.record_batch([pa.array([None], pa.int32()), pa.array([None], pa.int8()), pa.array(["x"]),
                               pa.array([None], pa.decimal128(5, 2)), pa.array([True])],
                              schema=SCHEMA.set(0, pa.field("id", pa.int32())))
    with pytest.raises(fluss.FlussError) as e:
        writer.write_arrow_batch(null_id)
    assert "id" in e.value.message
    writer.write_arrow_batch(good)
    await writer.flush()
    assert (await read_all(table, 1)).to_pylist() == [
        {"id": 1, "small": None, "name": "x", "amount": None, "flag": True}]


# Around the sizes where the converter reads an int's digits itself (one and two 30-bit digits)
# and where it falls back to CPython (longer ints): every value comes back exactly, and those
# out of range are refused naming the column, with nothing queued lost.
INT_EDGES = [0, 1, -1, 2**30 - 1, 2**30, -(2**30), -(2**30) - 1, 2**60 - 1, 2**60, -(2**60) + 1, -(2**60),
             2**62 + 12345, 2**63 - 1, -(2**63), 7]


async def test_integers_around_digit_boundaries_read_back_exactly(conn, admin, database):
    schema = pa.schema([pa.field("seq", pa.int32()), pa.field("big", pa.int64()), pa.field("i", pa.int32())])
    path = fluss.TablePath(database, "int_edges")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema), bucket_count=1), ignore_if_exists=True)
    table = await conn.get_table(path)
    writer = await table.new_append_writer()
    i32 = [v for v in INT_EDGES if -(2**31) <= v < 2**31] + [2**31 - 1, -(2**31)]
    for seq, v in enumerate(INT_EDGES):
        writer.append({"seq": seq, "big": v, "i": i32[seq % len(i32)]})
    for bad, column in [({"seq": 100, "big": 2**63}, "big"), ({"seq": 101, "big": -(2**63) - 1}, "big"),
                        ({"seq": 102, "big": 2**70}, "big"), ({"seq": 103, "i": 2**31}, "i"),
                        ({"seq": 104, "i": -(2**31) - 1}, "i"), ({"seq": 105, "i": 2**40}, "i")]:
        with pytest.raises(fluss.FlussError) as e:
            writer.append(bad)
        assert f"column '{column}'" in e.value.message, e.value.message
    writer.append((len(INT_EDGES), None, None))
    await writer.flush()
    rows = sorted((await read_all(table, 1)).to_pylist(), key=lambda r: r["seq"])
    expected = [{"seq": s, "big": v, "i": i32[s % len(i32)]} for s, v in enumerate(INT_EDGES)]
    assert rows == expected + [{"seq": len(INT_EDGES), "big": None, "i": None}]
    await admin.drop_table(path)
