"""Bridge between native completions (delivered on the client's I/O thread) and asyncio."""

from __future__ import annotations

import asyncio
import collections
import weakref


def _settle(fut: asyncio.Future, err, value, lost=None) -> None:
    settled = getattr(fut, "_fluss_settled", None)
    try:
        _deliver(fut, err, value, lost)
    finally:
        if settled is not None and not settled.done():
            settled.set_result(None)


def _deliver(fut: asyncio.Future, err, value, lost) -> None:
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

    The I/O thread ``put``s each outcome (GIL held); only the first ``put`` after a ``drain``
    wakes the loop (one ``call_soon_threadsafe``), and that ``drain`` settles every outcome
    queued by then, in arrival order. So 64 lookups answered by one response wake the loop once,
    not 64 times.
    """

    __slots__ = ("_loop", "_items", "_scheduled")

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self._loop = weakref.ref(loop)  # not a strong one: the inbox must not keep its loop alive
        self._items: collections.deque = collections.deque()
        self._scheduled = False

    def put(self, fut, err, value, lost) -> None:
        """Any thread (GIL held)."""
        self._items.append((fut, err, value, lost))
        if self._scheduled:
            return
        self._scheduled = True
        loop = self._loop()
        try:
            if loop is None:
                raise RuntimeError("the event loop is gone")
            loop.call_soon_threadsafe(self._drain)
        except RuntimeError:
            self._items.clear()  # the loop is closed: nobody is waiting any more

    def _drain(self) -> None:
        """The loop's thread. The flag is reset before popping, so an outcome put while this
        runs is either popped below or schedules the next drain: none is left behind."""
        self._scheduled = False
        items = self._items
        while items:
            fut, err, value, lost = items.popleft()
            try:
                _settle(fut, err, value, lost)
            except Exception as e:  # one failing callback must not strand the others
                fut.get_loop().call_exception_handler(
                    {"message": "fluss: delivering a completion failed", "exception": e, "future": fut})


_inboxes: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Inbox]" = weakref.WeakKeyDictionary()


def _inbox(loop: asyncio.AbstractEventLoop) -> _Inbox:
    """The inbox of ``loop`` (the loop's thread)."""
    inbox = _inboxes.get(loop)
    if inbox is None:
        inbox = _inboxes[loop] = _Inbox(loop)
    return inbox


def future_from(start, lost=None):
    """Returns an asyncio future resolved by the native ``start(done)``.

    ``lost(value)`` (optional) receives a result that arrives after the future was cancelled.

    ``done(err, value)`` is called once, from the I/O thread (GIL held); it queues the outcome
    in the loop's inbox (``_Inbox``), which hands outcomes to the event loop in batches with
    one ``call_soon_threadsafe`` each, so the loop is never blocked and wakes once per batch.
    """
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    if lost is not None:
        # Resolved once the native result was delivered or handed back through `lost`, even
        # when `fut` was cancelled first: the next operation of the same object waits for it.
        fut._fluss_settled = loop.create_future()
    put = _inbox(loop).put

    def done(err, value):
        put(fut, err, value, lost)

    start(done)
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
    cancelling = getattr(task, "cancelling", None)
    if cancelling is not None:
        return cancelling() > 0
    return bool(getattr(task, "_must_cancel", False))


async def as_coroutine(awaitable):
    """Wraps an awaitable (a native future) in a coroutine."""
    return await awaitable
