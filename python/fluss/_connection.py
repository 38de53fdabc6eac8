"""FlussConnection: the entry point; closes every open connection at interpreter exit."""

from __future__ import annotations

import atexit
import weakref

from ._admin import FlussAdmin
from ._config import Config
from ._errors import FlussError
from ._metadata import TablePath, _check_path
from ._native import _fluss
from ._table import FlussTable


_open_connections: "weakref.WeakSet[FlussConnection]" = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    # Stop I/O threads before the interpreter tears down (they call into Python).
    for conn in list(_open_connections):
        try:
            conn.close()
        except Exception:
            pass


class FlussConnection:
    """A connection to a Fluss cluster. Create it with ``await FlussConnection.connect(config)``;
    close it with ``close()`` or a ``with`` / ``async with`` block."""

    def __init__(self, native):
        self._n = native
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
        return FlussConnection(await _fluss._Connection.connect(config.to_dict()))

    async def get_admin(self) -> FlussAdmin:
        """The admin client (shares this connection)."""
        self._check_open()
        return FlussAdmin(self._n.get_admin())

    async def get_table(self, table_path: TablePath) -> FlussTable:
        """A table handle. Raises FlussError 7 TABLE_NOT_EXIST."""
        self._check_open()
        p = _check_path(table_path)
        return FlussTable(await self._n.get_table(p.database_name, p.table_name), self)

    def close(self) -> None:
        """Flushes pending writes (waiting at most ``client.request-timeout``), then closes the
        server connections and stops the I/O thread. Idempotent.

        Raises:
            FlussError: as ``flush()`` does, when a write since the last flush failed or pending
                writes could not be acknowledged in time (those fail with the connection
                closed).
        """
        if self._closed:
            return
        self._closed = True
        _open_connections.discard(self)
        self._n.close()

    def _check_open(self) -> None:
        if self._closed:
            raise FlussError("the connection is closed")

    def __enter__(self) -> "FlussConnection":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    async def __aenter__(self) -> "FlussConnection":
        return self

    async def __aexit__(self, *exc) -> None:
        self.close()
