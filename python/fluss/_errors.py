"""FlussError, the one exception type of the package, and ErrorCode, the Fluss error codes."""

from __future__ import annotations

import enum

from . import _fluss

# Client-side error codes (server codes are the Fluss codes, e.g. 7 = TABLE_NOT_EXIST).
CLIENT_ERROR = -2
UNKNOWN_SERVER_ERROR = -1
NETWORK_EXCEPTION = 1
REQUEST_TIME_OUT = 25

_TIMEOUT_CATEGORY = 3  # fluss::StatusCode::kTimeout (include/fluss/status.h)


class FlussError(Exception):
    """An error from the Fluss client or server.

    Attributes:
        message: human-readable text naming the table, bucket, server, column or argument.
        error_code: the Fluss server error code (e.g. 7 TABLE_NOT_EXIST, 8 TABLE_ALREADY_EXIST),
            or a client-side code: -2 CLIENT_ERROR (bad input, closed client), 1 NETWORK_EXCEPTION
            (connection refused or lost), 25 REQUEST_TIME_OUT (no answer within
            ``client.request-timeout``). An int; compare it with ``fluss.ErrorCode`` members,
            e.g. ``err.error_code == fluss.ErrorCode.TABLE_NOT_EXIST``.
    """

    def __init__(self, message: str, error_code: int = CLIENT_ERROR, retriable: bool = False):
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


# The members come from the core's table of codes (libfluss, fluss::ErrorName), so the names and
# numbers are defined once, in C++.
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
