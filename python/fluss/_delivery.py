"""Delivery callbacks of writers: ``on_delivery(error, rows)`` once per write batch.

In the spirit of confluent-kafka's ``on_delivery``, but per batch rather than per row: rows of
one batch share one outcome (one ``WriteResultHandle``), so the callback says how many rows
that outcome covers. It runs on the event loop the writer was made on, in the order the
outcomes arrive; an exception it raises is logged on the ``fluss`` logger and goes no further.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import TYPE_CHECKING, Callable, List, Optional, cast

from ._errors import FlussError

if TYPE_CHECKING:
    from ._fluss import WriteResultHandle

_log = logging.getLogger("fluss")

DeliveryCallback = Callable[[Optional[FlussError], int], None]


class Delivery:
    """Watches the handles of one writer's writes and calls the callback per batch.

    Thread affinity: ``row`` and ``rows`` on any thread (writes made off the loop's thread
    are handed to it); the callback on the loop's thread.
    """

    def __init__(self, callback: DeliveryCallback, loop: asyncio.AbstractEventLoop) -> None:
        self._callback = callback
        self._loop = loop
        self._loop_thread = threading.get_ident()
        self._handle: Optional[WriteResultHandle] = None  # the handle of the batch the last row went to
        self._count: Optional[List[int]] = None   # [rows] of that batch, read when its outcome arrives

    @staticmethod
    def make(on_delivery: Optional[DeliveryCallback], method: str) -> Optional["Delivery"]:
        """A Delivery for ``on_delivery`` (None: none), on the running event loop.

        Raises:
            FlussError: (-2) naming ``method`` when ``on_delivery`` is not callable, or when no
                event loop runs on this thread (the callback runs on one).
        """
        if on_delivery is None:
            return None
        if not callable(on_delivery):
            raise FlussError(f"{method}: on_delivery must be a callable (error, rows), got {type(on_delivery).__name__}")
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise FlussError(f"{method}: on_delivery needs a running asyncio event loop (make the writer in a "
                             f"coroutine); the callback runs on it") from None
        return Delivery(on_delivery, loop)

    def row(self, handle: WriteResultHandle) -> None:
        """One row was written and returned ``handle``."""
        # Append writers hand out one handle object per batch; upserts and deletes a new one
        # per row, for the same outcome.
        if handle is not self._handle and (self._handle is None or not handle._same_outcome(self._handle)):
            self._handle = handle
            self._count = [0]
            self._watch(handle, self._count)
        cast("List[int]", self._count)[0] += 1  # set by the first row

    def rows(self, handle: WriteResultHandle, n: int) -> None:
        """``n`` rows were written as a batch of their own (write_arrow_batch) with ``handle``."""
        self._watch(handle, [n])

    def _watch(self, handle: WriteResultHandle, count: List[int]) -> None:
        if self._loop.is_closed():
            return  # nobody is left to call back (the row itself is queued all the same)
        if threading.get_ident() == self._loop_thread:
            self._loop.create_task(self._deliver(handle, count))
        else:
            self._loop.call_soon_threadsafe(lambda: self._loop.create_task(self._deliver(handle, count)))

    async def _deliver(self, handle: WriteResultHandle, count: List[int]) -> None:
        try:
            await handle.wait()
            error: Optional[FlussError] = None
        except FlussError as e:
            error = e
        try:
            self._callback(error, count[0])
        except Exception:
            _log.exception("the on_delivery callback raised")
