"""Bridge between native completions (delivered on the client's I/O thread) and asyncio."""

from __future__ import annotations

import asyncio


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


def future_from(start, lost=None):
    """Returns an asyncio future resolved by the native ``start(done)``.

    ``lost(value)`` (optional) receives a result that arrives after the future was cancelled.

    ``done(err, value)`` is called once, from the I/O thread (GIL held); it hands the outcome to
    the event loop with ``call_soon_threadsafe``, so the loop is never blocked.
    """
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    if lost is not None:
        # Resolved once the native result was delivered or handed back through `lost`, even
        # when `fut` was cancelled first: the next operation of the same object waits for it.
        fut._fluss_settled = loop.create_future()

    def done(err, value):
        try:
            loop.call_soon_threadsafe(_settle, fut, err, value, lost)
        except RuntimeError:
            pass  # the loop is closed: nobody is waiting any more

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
