"""FlussError, the one exception type of the package, and ErrorCode, the Fluss error codes."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from . import _fluss

# Client-side error codes (server codes are the Fluss codes, e.g. 7 = TABLE_NOT_EXIST).
CLIENT_ERROR = -2
UNKNOWN_SERVER_ERROR = -1
NETWORK_EXCEPTION = 1
REQUEST_TIME_OUT = 25

_TIMEOUT_CATEGORY = 3  # fluss::StatusCode::kTimeout (include/fluss/status.h)


class FlussError(Exception):
    """An error from the Fluss client or server: ``FlussError(message, error_code=-2,
    retriable=False)``.

    Attributes:
        message: human-readable text naming the table, bucket, server, column or argument.
        error_code: the Fluss server error code (e.g. 7 TABLE_NOT_EXIST, 8 TABLE_ALREADY_EXIST),
            or a client-side code: -2 CLIENT_ERROR (bad input, closed client), 1 NETWORK_EXCEPTION
            (connection refused or lost), 25 REQUEST_TIME_OUT (no answer within
            ``client.request-timeout``). An int; compare it with ``fluss.ErrorCode`` members,
            e.g. ``err.error_code == fluss.ErrorCode.TABLE_NOT_EXIST``.

    ``retriable`` (a bool, default False) is what ``is_retriable()`` returns.
    """

    def __init__(self, message: str, error_code: int = CLIENT_ERROR, retriable: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.error_code = error_code
        self._retriable = retriable

    def is_retriable(self) -> bool:
        """True when retrying the same call may succeed (the server's retriable errors,
        connection loss, timeouts)."""
        return self._retriable

    def __str__(self) -> str:
        # The traceback's last line is then ``fluss.FlussError: <message>``.
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, error_code={self.error_code})"


class FlussTimeoutError(FlussError, TimeoutError):
    """A FlussError raised when a request or wait passed its deadline; also a TimeoutError."""


# Shown as ``fluss.FlussError`` in tracebacks and reprs: the public name, not this module's.
FlussError.__module__ = "fluss"
FlussTimeoutError.__module__ = "fluss"


def _make_error(message: str, error_code: int, retriable: bool, category: int) -> FlussError:
    cls = FlussTimeoutError if category == _TIMEOUT_CATEGORY else FlussError
    return cls(message, error_code, retriable)


if TYPE_CHECKING:
    # What type checkers see: the members the core's table holds (mypy cannot read a functional
    # IntEnum). The runtime's ErrorCode below is made from that table;
    # tests/python/test_public_api_docs.py fails when the two differ.
    class ErrorCode(enum.IntEnum):
        UNKNOWN_SERVER_ERROR = -1
        NONE = 0
        NETWORK_EXCEPTION = 1
        UNSUPPORTED_VERSION = 2
        CORRUPT_MESSAGE = 3
        DATABASE_NOT_EXIST = 4
        DATABASE_NOT_EMPTY = 5
        DATABASE_ALREADY_EXIST = 6
        TABLE_NOT_EXIST = 7
        TABLE_ALREADY_EXIST = 8
        SCHEMA_NOT_EXIST = 9
        LOG_STORAGE_EXCEPTION = 10
        KV_STORAGE_EXCEPTION = 11
        NOT_LEADER_OR_FOLLOWER = 12
        RECORD_TOO_LARGE_EXCEPTION = 13
        CORRUPT_RECORD_EXCEPTION = 14
        INVALID_TABLE_EXCEPTION = 15
        INVALID_DATABASE_EXCEPTION = 16
        INVALID_REPLICATION_FACTOR = 17
        INVALID_REQUIRED_ACKS = 18
        LOG_OFFSET_OUT_OF_RANGE_EXCEPTION = 19
        NON_PRIMARY_KEY_TABLE_EXCEPTION = 20
        UNKNOWN_TABLE_OR_BUCKET_EXCEPTION = 21
        INVALID_UPDATE_VERSION_EXCEPTION = 22
        INVALID_COORDINATOR_EXCEPTION = 23
        FENCED_LEADER_EPOCH_EXCEPTION = 24
        REQUEST_TIME_OUT = 25
        STORAGE_EXCEPTION = 26
        OPERATION_NOT_ATTEMPTED_EXCEPTION = 27
        NOT_ENOUGH_REPLICAS_AFTER_APPEND_EXCEPTION = 28
        NOT_ENOUGH_REPLICAS_EXCEPTION = 29
        SECURITY_TOKEN_EXCEPTION = 30
        OUT_OF_ORDER_SEQUENCE_EXCEPTION = 31
        DUPLICATE_SEQUENCE_EXCEPTION = 32
        UNKNOWN_WRITER_ID_EXCEPTION = 33
        INVALID_COLUMN_PROJECTION = 34
        INVALID_TARGET_COLUMN = 35
        PARTITION_NOT_EXISTS = 36
        TABLE_NOT_PARTITIONED_EXCEPTION = 37
        INVALID_TIMESTAMP_EXCEPTION = 38
        INVALID_CONFIG_EXCEPTION = 39
        LAKE_STORAGE_NOT_CONFIGURED_EXCEPTION = 40
        KV_SNAPSHOT_NOT_EXIST = 41
        PARTITION_ALREADY_EXISTS = 42
        PARTITION_SPEC_INVALID_EXCEPTION = 43
        LEADER_NOT_AVAILABLE_EXCEPTION = 44
        PARTITION_MAX_NUM_EXCEPTION = 45
        AUTHENTICATE_EXCEPTION = 46
        SECURITY_DISABLED_EXCEPTION = 47
        AUTHORIZATION_EXCEPTION = 48
        BUCKET_MAX_NUM_EXCEPTION = 49
        FENCED_TIERING_EPOCH_EXCEPTION = 50
        RETRIABLE_AUTHENTICATE_EXCEPTION = 51
        INVALID_SERVER_RACK_INFO_EXCEPTION = 52
        LAKE_SNAPSHOT_NOT_EXIST = 53
        LAKE_TABLE_ALREADY_EXIST = 54
        INELIGIBLE_REPLICA_EXCEPTION = 55
        INVALID_ALTER_TABLE_EXCEPTION = 56
        DELETION_DISABLED_EXCEPTION = 57
        SERVER_NOT_EXIST_EXCEPTION = 58
        SEVER_TAG_ALREADY_EXIST_EXCEPTION = 59
        SEVER_TAG_NOT_EXIST_EXCEPTION = 60
        REBALANCE_FAILURE_EXCEPTION = 61
        NO_REBALANCE_IN_PROGRESS_EXCEPTION = 62
        INVALID_PRODUCER_ID_EXCEPTION = 63
        CONFIG_EXCEPTION = 64
        NOT_COORDINATOR_LEADER_EXCEPTION = 65
        SCANNER_EXPIRED = 66
        UNKNOWN_SCANNER_ID = 67
        INVALID_SCAN_REQUEST = 68
        TOO_MANY_SCANNERS = 69
        HISTORICAL_PARTITION_THROTTLED = 70
else:
    # The members come from the core's table of codes (libfluss, fluss::ErrorName), so the names
    # and numbers are defined once, in C++.
    ErrorCode = enum.IntEnum(
        "ErrorCode", sorted(_fluss._error_codes().items(), key=lambda item: item[1]), module="fluss"
    )

ErrorCode.__doc__ = """The Fluss server error codes, an ``enum.IntEnum``: names as the Java client's
``Errors`` enum spells them, values the numeric codes the server sends, e.g.
``ErrorCode.NOT_LEADER_OR_FOLLOWER == 12``, ``ErrorCode.TABLE_NOT_EXIST == 7``.

Members compare equal to ints, so ``FlussError.error_code`` (an int) can be tested directly::

    except fluss.FlussError as e:
        if e.error_code == fluss.ErrorCode.TABLE_NOT_EXIST:
            ...

``ErrorCode(code)`` gives the member of a server code (ValueError for a code the client does
not know). The client-side code -2 (CLIENT_ERROR: bad input, closed client) is not a server
code and has no member; 1 (NETWORK_EXCEPTION) and 25 (REQUEST_TIME_OUT), which the client also
reports for connection failures and timeouts, are members.
"""
