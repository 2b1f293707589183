"""A bot strategy behind one worker thread: its calls run there one at a time, in the order
they were made, so that a strategy never runs twice at once.

The runner may stop waiting for a choice (its deadline came, or the decision closed), but
the thread cannot be stopped: that call runs on, its answer is dropped, and calls made
meanwhile wait behind it; a choice nobody waits for any more by its turn is skipped. The
hooks (`observe`, `game_over`) are told without waiting, and always run, so the strategy
hears every event in order. A strategy's exception ends `serve`, and with it the run.

It never touches the network, and never leaves a call running when `serve` returns: a
cancelled `serve` waits for the call in hand to end.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import trio


@dataclass(eq=False)
class _Call:
    fn: Callable[..., Any]
    args: tuple
    #: False once the asker stopped waiting (hooks are always wanted).
    wanted: bool = True
    done: trio.Event = field(default_factory=trio.Event)
    result: Any = None


class Mind:
    """Runs calls of one strategy in a worker thread, one after the other; run `serve`."""

    def __init__(self) -> None:
        # Unbounded: what piles up behind a slow call is one game's hooks at most, and
        # `tell` must never make the connection wait.
        self._calls_in, self._calls = trio.open_memory_channel[_Call](math.inf)

    async def serve(self) -> None:
        """Make the calls, in order, until `close` (or until cancelled)."""
        async with self._calls:
            async for call in self._calls:
                if call.wanted:
                    call.result = await trio.to_thread.run_sync(call.fn, *call.args)
                    call.done.set()

    async def ask(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in the worker thread, once the calls before it are over; cancelling
        the wait leaves the call to finish (or never start) on its own."""
        call = _Call(fn, args)
        self._calls_in.send_nowait(call)
        try:
            await call.done.wait()
        finally:
            call.wanted = False
        return call.result

    def tell(self, fn: Callable[..., Any], *args: Any) -> None:
        """`fn(*args)` in the worker thread after the calls before it; nobody waits."""
        self._calls_in.send_nowait(_Call(fn, args))

    def close(self) -> None:
        """No more calls: `serve` makes those queued, then returns."""
        self._calls_in.close()
