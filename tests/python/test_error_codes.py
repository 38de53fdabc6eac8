"""fluss.ErrorCode: the Fluss server error codes as an IntEnum, built from the core's table."""

import enum
import re

import pytest

import fluss

# Names and codes as in the Java client's Errors enum (org.apache.fluss.rpc.protocol.Errors).
JAVA_CODES = {
    "UNKNOWN_SERVER_ERROR": -1,
    "NONE": 0,
    "NETWORK_EXCEPTION": 1,
    "UNSUPPORTED_VERSION": 2,
    "DATABASE_NOT_EXIST": 4,
    "DATABASE_NOT_EMPTY": 5,
    "DATABASE_ALREADY_EXIST": 6,
    "TABLE_NOT_EXIST": 7,
    "TABLE_ALREADY_EXIST": 8,
    "NOT_LEADER_OR_FOLLOWER": 12,
    "REQUEST_TIME_OUT": 25,
    "PARTITION_NOT_EXISTS": 36,
    "TABLE_NOT_PARTITIONED_EXCEPTION": 37,
    "PARTITION_ALREADY_EXISTS": 42,
    "PARTITION_SPEC_INVALID_EXCEPTION": 43,
    "LEADER_NOT_AVAILABLE_EXCEPTION": 44,
    "INVALID_PRODUCER_ID_EXCEPTION": 63,
    # Fluss HEAD, after 0.9.1
    "CONFIG_EXCEPTION": 64,
    "HISTORICAL_PARTITION_THROTTLED": 70,
}


def test_error_code_is_an_int_enum_of_the_java_names_and_codes():
    assert issubclass(fluss.ErrorCode, enum.IntEnum)
    assert "ErrorCode" in fluss.__all__
    assert fluss.ErrorCode.TABLE_NOT_EXIST == 7
    for name, code in JAVA_CODES.items():
        assert fluss.ErrorCode[name] == code, name
        assert fluss.ErrorCode(code).name == name
    assert fluss.ErrorCode.__doc__ and "IntEnum" in fluss.ErrorCode.__doc__


def test_error_code_covers_every_code_of_fluss_0_9_in_order():
    codes = [int(c) for c in fluss.ErrorCode]
    assert codes == sorted(codes)
    assert set(range(-1, 64)) <= set(codes)  # -1 .. 63: every code of the 0.9.1 server
    assert all(re.fullmatch(r"[A-Z][A-Z_]*", c.name) for c in fluss.ErrorCode)


def test_client_error_is_not_a_server_code():
    with pytest.raises(ValueError):
        fluss.ErrorCode(-2)


async def test_missing_table_error_code(conn, admin, database):
    path = fluss.TablePath(database, "no_such_table")
    with pytest.raises(fluss.FlussError) as e:
        await conn.get_table(path)
    assert e.value.error_code == fluss.ErrorCode.TABLE_NOT_EXIST
    assert fluss.ErrorCode(e.value.error_code) is fluss.ErrorCode.TABLE_NOT_EXIST
    with pytest.raises(fluss.FlussError) as e:
        await admin.get_table(path)
    assert e.value.error_code == fluss.ErrorCode.TABLE_NOT_EXIST
