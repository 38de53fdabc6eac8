"""FlussError, the one exception type of the package."""

from __future__ import annotations

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
            ``client.request-timeout``).
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
        return f"FlussError: {self.message}"


class FlussTimeoutError(FlussError, TimeoutError):
    """A FlussError raised when a request or wait passed its deadline; also a TimeoutError."""


def _make_error(message: str, error_code: int, retriable: bool, category: int) -> FlussError:
    cls = FlussTimeoutError if category == _TIMEOUT_CATEGORY else FlussError
    return cls(message, error_code, retriable)
