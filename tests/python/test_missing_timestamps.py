"""pandas.NaT, numpy.datetime64('NaT') and None appended as a row value are null in date and
timestamp columns (as write_pandas makes them), never 0001-01-01; NOT NULL columns reject them
naming the column. numpy.datetime64 values convert exactly."""

import datetime

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import fluss
from conftest import read_all

SCHEMA = pa.schema([
    ("id", pa.int32()),
    ("ts", pa.timestamp("us")),
    ("ltz", pa.timestamp("ms", tz="UTC")),
    ("ts_ns", pa.timestamp("ns")),
    ("d", pa.date32()),
])

# 2024-01-02 03:04:05.123456789 UTC
SECS = 1704164645
US = SECS * 1_000_000 + 123_456
MS = SECS * 1000 + 123
NS = US * 1000 + 789
DAYS = 19724


def _ints(table: pa.Table):
    """{id: (ts, ltz, ts_ns, d)} with timestamps as int64 in their column unit, days for d."""
    cols = [table.column(n).cast(pa.int64()).to_pylist() for n in ("ts", "ltz", "ts_ns")]
    days = table.column("d").cast(pa.int32()).to_pylist()
    return {i: (a, b, c, d) for i, a, b, c, d in zip(table.column("id").to_pylist(), *cols, days)}


async def test_nat_and_none_are_null_in_timestamp_columns(conn, admin, database):
    path = fluss.TablePath(database, "nat")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(SCHEMA), bucket_count=1))
    table = await conn.get_table(path)
    w = await table.new_append_writer()
    w.append({"id": 1, "ts": pd.NaT, "ltz": pd.NaT, "ts_ns": pd.NaT, "d": pd.NaT})      # dict
    w.append([2, pd.NaT, pd.NaT, pd.NaT, pd.NaT])                                       # list
    w.append((3, np.datetime64("NaT"), np.datetime64("NaT", "ms"), np.datetime64("NaT", "ns"),
              np.datetime64("NaT", "D")))                                                # tuple
    w.append({"id": 4, "ts": None, "ltz": None, "ts_ns": None, "d": None})
    w.append({"id": 5})                                                                  # left out
    w.append({"id": 6, "ts": pd.Timestamp("2024-01-02 03:04:05.123456"),
              "ltz": datetime.datetime(2024, 1, 2, 4, 4, 5, 123000,
                                       tzinfo=datetime.timezone(datetime.timedelta(hours=1))),
              "ts_ns": pd.Timestamp("2024-01-02 03:04:05.123456789"), "d": datetime.date(2024, 1, 2)})
    w.append({"id": 7, "ts": np.datetime64("2024-01-02T03:04:05.123456"),
              "ltz": np.datetime64("2024-01-02T03:04:05.123", "ms"),
              "ts_ns": np.datetime64("2024-01-02T03:04:05.123456789"), "d": None})
    w.append({"id": 8, "ts": np.datetime64("2024-01-02", "D"), "ltz": np.datetime64(SECS, "s"),
              "ts_ns": np.datetime64(US, "us"), "d": pd.NaT})
    # write_pandas: the reference behaviour for NaT.
    w.write_pandas(pd.DataFrame({"id": pd.array([9], "int32"), "ts": [pd.NaT], "ltz": [pd.NaT],
                                 "ts_ns": [pd.NaT], "d": [None]}))
    await w.flush()

    got = _ints(await read_all(table, 1))
    null = (None, None, None, None)
    assert got == {
        1: null, 2: null, 3: null, 4: null, 5: null,
        6: (US, MS, NS, DAYS),
        7: (US, MS, NS, None),
        8: (DAYS * 86_400_000_000, SECS * 1000, US * 1000, None),
        9: null,
    }


async def test_nat_in_not_null_columns_is_rejected_naming_the_column(conn, admin, database):
    schema = pa.schema([pa.field("id", pa.int32()), pa.field("ts", pa.timestamp("us"), nullable=False),
                        pa.field("ltz", pa.timestamp("us", tz="UTC"), nullable=False)])
    path = fluss.TablePath(database, "nat_not_null")
    await admin.create_table(path, fluss.TableDescriptor(fluss.Schema(schema), bucket_count=1))
    table = await conn.get_table(path)
    w = await table.new_append_writer()
    ok = datetime.datetime(2024, 1, 2, 3, 4, 5)
    for row, column in (
        ({"id": 1, "ts": pd.NaT, "ltz": ok}, "ts"),
        ([2, ok, pd.NaT], "ltz"),
        ((3, np.datetime64("NaT"), ok), "ts"),
        ({"id": 4, "ts": ok, "ltz": np.datetime64("NaT", "us")}, "ltz"),
        ({"id": 5, "ts": None, "ltz": ok}, "ts"),
    ):
        with pytest.raises(fluss.FlussError) as e:
            w.append(row)
        assert e.value.error_code == -2
        assert f"'{column}'" in e.value.message and "NOT NULL" in e.value.message, e.value.message
    # datetime64 values the column cannot hold exactly are rejected too.
    with pytest.raises(fluss.FlussError) as e:
        w.append({"id": 6, "ts": np.datetime64("2024-01", "M"), "ltz": ok})
    assert "'ts'" in e.value.message
    with pytest.raises(fluss.FlussError) as e:
        w.append({"id": 7, "ts": np.datetime64(NS, "ns"), "ltz": ok})
    assert "'ts'" in e.value.message and "precision" in e.value.message
    w.append({"id": 8, "ts": ok, "ltz": ok})
    await w.flush()
    rows = (await read_all(table, 1)).to_pylist()
    assert rows == [{"id": 8, "ts": ok, "ltz": ok.replace(tzinfo=datetime.timezone.utc)}]
