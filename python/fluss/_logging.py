"""The core's log lines on the ``logging`` logger ``fluss``.

libfluss logs connections made and lost, metadata refreshes, bucket leaders moving, retried
writes and fetches, and idempotent writer resets. Its threads queue each line natively (never
waiting for the GIL); the daemon thread started here takes them and logs them on the ``fluss``
logger at the same level (DEBUG, INFO, WARNING, ERROR), so they go wherever the application's
logging configuration sends them. Nothing is printed by default: the logger has a NullHandler,
as libraries do, so without a configured handler the lines are dropped silently.
"""

from __future__ import annotations

import atexit
import logging
import threading
from typing import List, Tuple

from ._native import _fluss

logger = logging.getLogger("fluss")
logger.addHandler(logging.NullHandler())

_WAIT_MS = 1000


def _emit(lines: List[Tuple[int, str]], dropped: int) -> None:
    if dropped:
        logger.warning("%d log lines of the fluss core were dropped (the queue was full)", dropped)
    for level, message in lines:
        logger.log(level, "%s", message)


_stopping = threading.Event()


def _pump() -> None:
    while not _stopping.is_set():
        _emit(*_fluss._log_wait(_WAIT_MS))


def drain() -> None:
    """Logs the lines queued now, on the calling thread (at exit, before the pump thread is
    stopped with the interpreter)."""
    _emit(*_fluss._log_wait(0))


def _stop(thread: threading.Thread) -> None:
    # At exit, before the interpreter finalizes: the pump thread must not be inside _log_wait
    # then (see _log_stop). Lines logged later are taken by drain().
    _stopping.set()
    _fluss._log_stop()
    thread.join(timeout=5)
    drain()


def _start() -> None:
    _fluss._log_install(logging.DEBUG)
    thread = threading.Thread(target=_pump, name="fluss-log", daemon=True)
    thread.start()
    # Registered after the connection module's _close_all, so it runs before it (atexit runs
    # the last registered first); _close_all then drains the lines its closing logs.
    atexit.register(_stop, thread)


_start()
