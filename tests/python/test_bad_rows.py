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
