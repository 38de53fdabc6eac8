"""Bridge between native completions (delivered on the client's I/O thread) and asyncio."""

from __future__ import annotations

import asyncio
import weakref
from typing import Any, Awaitable, Callable, Optional, TypeVar

from . import _fluss

_T = TypeVar("_T")

#: What a native operation is started with: ``start(done)``, ``done`` its completion.
_Start = Callable[[_fluss._Completion], None]
#: Takes back a result that arrived after its future was cancelled.
_Lost = Callable[[Any], None]


def _settle(fut: "asyncio.Future[Any]", err: Optional[BaseException], value: Any,
            lost: Optional[_Lost] = None) -> None:
    settled = getattr(fut, "_fluss_settled", None)
    try:
        _deliver(fut, err, value, lost)
    finally:
        if settled is not None and not settled.done():
            settled.set_result(None)


def _deliver(fut: "asyncio.Future[Any]", err: Optional[BaseException], value: Any, lost: Optional[_Lost]) -> None:
    if fut.done():
        # Cancelled while the operation ran: hand an undelivered result back (e.g. polled
        # batches go back to their scanner) instead of dropping it.
        if lost is not None and err is None and value is not None:
            lost(value)
        return
    if err is not None:
        fut.set_exception(err)
    else:
        fut.set_result(value)


class _Inbox:
    """Completions bound for one event loop, handed over in batches.

    The native inbox (``_fluss._CompletionInbox``) takes each outcome from the I/O thread
    without the GIL; only the first outcome after a ``drain`` takes the GIL and wakes the loop
    (one ``call_soon_threadsafe``), and that ``drain`` settles every outcome queued by then, in
    arrival order. So the write handles of one acknowledged batch, or 64 answers of one
    response, cost one GIL acquisition and one loop wake-up, not 64.
    """

    __slots__ = ("native", "__weakref__")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        # Weak references only: the native inbox holds `wake`, and must keep neither the loop
        # nor this object alive (no reference cycle through a native object).
        loop_ref, self_ref = weakref.ref(loop), weakref.ref(self)

        def drain() -> None:
            inbox = self_ref()
            if inbox is not None:
                inbox.native.drain()

        def wake() -> None:
            loop = loop_ref()
            if loop is None:
                raise RuntimeError("the event loop is gone")
            loop.call_soon_threadsafe(drain)

        self.native = _fluss._CompletionInbox(wake)


_inboxes: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Inbox]" = weakref.WeakKeyDictionary()


def _inbox(loop: asyncio.AbstractEventLoop) -> _Inbox:
    """The inbox of ``loop`` (the loop's thread)."""
    inbox = _inboxes.get(loop)
    if inbox is None:
        inbox = _inboxes[loop] = _Inbox(loop)
    return inbox


def future_from(start: _Start, lost: Optional[_Lost] = None) -> "asyncio.Future[Any]":
    """Returns an asyncio future resolved by the native ``start(done)``.

    ``lost(value)`` (optional) receives a result that arrives after the future was cancelled.

    ``done`` is a ``_fluss._Completion`` bound to the loop's inbox (``_Inbox``): the native
    callback posts its outcome there from the I/O thread, and the outcome is converted and the
    future settled on the loop's thread, in batches, so the loop is never blocked and wakes
    once per batch. Called from Python, ``done(err, value)`` posts the same way.
    """
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    if lost is not None:
        # Resolved once the native result was delivered or handed back through `lost`, even
        # when `fut` was cancelled first: the next operation of the same object waits for it.
        fut._fluss_settled = loop.create_future()  # type: ignore[attr-defined]  # an attribute of our own

    def settle(err: Optional[BaseException], value: Any) -> None:
        try:
            _settle(fut, err, value, lost)
        except Exception as e:  # reported on the loop, like any failing callback
            loop.call_exception_handler(
                {"message": "fluss: delivering a completion failed", "exception": e, "future": fut})

    start(_fluss._Completion(_inbox(loop).native, settle))
    return fut


def cancel_requested() -> bool:
    """True when the asyncio task running on this thread has a pending cancellation (e.g.
    ``asyncio.run`` turned Ctrl-C into cancelling the main task). Blocking calls check it so a
    Ctrl-C during a blocking read inside a coroutine ends the read within 100 ms."""
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return False
    if task is None:
        return False
    cancelling: Optional[Callable[[], int]] = getattr(task, "cancelling", None)  # Python 3.11+
    if cancelling is not None:
        return cancelling() > 0
    return bool(getattr(task, "_must_cancel", False))


async def as_coroutine(awaitable: Awaitable[_T]) -> _T:
    """Wraps an awaitable (a native future) in a coroutine."""
    return await awaitable
