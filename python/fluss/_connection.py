"""FlussConnection: the entry point; closes every open connection at interpreter exit."""

from __future__ import annotations

import asyncio
import atexit
import logging
import weakref
from typing import Any, Dict, Generator, Optional

from ._admin import FlussAdmin
from ._config import Config
from ._errors import FlussError
from ._metadata import TablePath, _check_path
from ._native import _fluss
from ._table import FlussTable


_log = logging.getLogger("fluss")

_open_connections: "weakref.WeakSet[FlussConnection]" = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    # Stop I/O threads before the interpreter tears down (they call into Python).
    for conn in list(_open_connections):
        try:
            conn.close()
        except Exception:
            pass
    # Also those whose Python object is gone but whose native one lives on in a reference
    # cycle until the final garbage collection: their I/O threads must end before it.
    _fluss._close_all_connections()
    from . import _logging
    _logging.drain()  # the last lines, e.g. of the closing above


class FlussConnection:
    """A connection to a Fluss cluster. Create it with ``await FlussConnection.connect(config)``;
    close it with ``close()`` or a ``with`` / ``async with`` block."""

    def __init__(self, native: _fluss._Connection, bootstrap: str = "?") -> None:
        self._n = native
        self._bootstrap = bootstrap
        self._closed = False
        _open_connections.add(self)

    @staticmethod
    async def connect(config: Config) -> "FlussConnection":
        """Connects to the cluster named by ``bootstrap.servers``.

        Raises:
            FlussError: error_code 1 NETWORK_EXCEPTION when no bootstrap server answers (e.g.
                connection refused; reported within a second), -2 for a bad config.
        """
        if not isinstance(config, Config):
            raise FlussError(f"connect: expected a fluss.Config, got {type(config).__name__}")
        d = config.to_dict()
        return FlussConnection(await _fluss._Connection.connect(d), d.get("bootstrap.servers", "?"))

    #: The later pyfluss name: ``await FlussConnection.create(config)``.
    create = connect

    async def get_admin(self) -> FlussAdmin:
        """The admin client (shares this connection)."""
        self._check_open("get_admin")
        return FlussAdmin(self._n.get_admin())

    async def get_table(self, table_path: TablePath) -> FlussTable:
        """A handle of the table ``table_path`` (a ``TablePath``) for writers, lookups and
        scans. Raises FlussError 7 TABLE_NOT_EXIST, -2 for a closed connection or a
        ``table_path`` that is not a ``TablePath``."""
        self._check_open("get_table")
        p = _check_path(table_path)
        return FlussTable(await self._n.get_table(p.database_name, p.table_name), self)

    def close(self) -> "_Closing":
        """Flushes pending writes (waiting at most ``client.request-timeout``), then closes the
        server connections and stops the I/O thread. Idempotent. Every later use of the
        connection, its tables, writers and scanners raises FlussError (-2).

        Called on a thread running an asyncio event loop, it never blocks that loop: the
        closing runs on a worker thread and ``await conn.close()`` waits for it (and raises
        its error); a plain ``conn.close()`` there starts the same closing and returns, and
        ``asyncio.run`` waits for it to end before it returns. Elsewhere (scripts, threads
        without a loop) it closes before returning, and ``await`` is not needed.

        Raises:
            FlussError: as ``flush()`` does, when a write since the last flush failed or pending
                writes could not be acknowledged in time (those fail with the connection
                closed): at once without a running loop, from the ``await`` with one.
        """
        if self._closed:
            return _Closing(None)
        self._closed = True
        _open_connections.discard(self)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            self._n.close()
            return _Closing(None)
        # The native close releases the GIL while it drains (default executor: asyncio.run
        # joins it at exit, so an un-awaited close still completes).
        future = loop.run_in_executor(None, self._n.close)
        # An un-awaited close that failed reports through the logger, not as "never retrieved".
        future.add_done_callback(_log_close_error)
        return _Closing(future)

    def metrics(self) -> Dict[str, int]:
        """A snapshot of the connection's counters since it was opened, a dict of ints (also
        readable after close; each counter read on its own):

        - ``records_sent``, ``bytes_sent``, ``batches_sent``: rows, bytes (as sent, compressed
          when the table compresses) and batches the server acknowledged;
        - ``write_retries``: write batches sent again after a retriable error;
        - ``records_fetched``, ``bytes_fetched``: rows and bytes of log batches scanners
          fetched; ``fetch_retries``: polls that met a retriable error and went on;
        - ``requests``, ``request_latency_avg_us``, ``request_latency_max_us``: requests
          answered, and their mean and longest time from send to answer in microseconds;
        - ``batches_in_flight``: write batches sent and not answered yet;
        - ``buffer_used_bytes``, ``buffer_limit_bytes``: the writer buffer in use and its size
          (``client.writer.buffer.memory-size``).
        """
        return dict(self._n.metrics())

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"<fluss.FlussConnection to {self._bootstrap} ({state})>"

    def _check_open(self, method: str = "") -> None:
        """FlussError (-2), naming ``method``, once the connection is closed."""
        if self._closed:
            raise FlussError(f"{method}: the connection is closed" if method else "the connection is closed")

    def __enter__(self) -> "FlussConnection":
        return self

    def __exit__(self, *exc: object) -> None:
        """Leaving a plain ``with`` block closes before the next statement runs, also on an
        event loop's thread (where ``async with`` closes without blocking the loop)."""
        if not self._closed:
            self._closed = True
            _open_connections.discard(self)
            self._n.close()

    async def __aenter__(self) -> "FlussConnection":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def _log_close_error(future: "asyncio.Future[None]") -> None:
    if not future.cancelled() and future.exception() is not None:
        _log.error("closing the connection: %s", future.exception())


class _Closing:
    """What ``FlussConnection.close()`` returns: awaiting it waits for the closing to end (at
    once when it already has) and raises its error; not awaiting it is fine too."""

    __slots__ = ("_future",)

    def __init__(self, future: "Optional[asyncio.Future[None]]") -> None:
        self._future = future

    def __await__(self) -> Generator[Any, None, None]:
        if self._future is None:
            return None
        # Shielded: cancelling the await does not stop the closing, which runs to its end.
        return (yield from asyncio.shield(self._future).__await__())

    def __repr__(self) -> str:
        return "<fluss connection closing>" if self._future is not None and not self._future.done() else "<fluss connection closed>"
