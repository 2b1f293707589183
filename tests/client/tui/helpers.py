"""Driving the app in tests: start it, wait for a state (the network answers in its own
time: `pilot.pause()` alone never waits for a round trip), and play whatever is asked."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from client.tui.app import CoupApp, Launch

#: Seconds a test waits for a state before it fails.
WAIT = 20


def run_app(launch: Launch, body, size=(100, 30)) -> CoupApp:
    """Run `body(app, pilot)` in the app, in a fresh asyncio loop; returns the app."""
    app = CoupApp(launch)

    async def main():
        async with app.run_test(size=size) as pilot:
            await body(app, pilot)

    asyncio.run(main())
    return app


async def until(pilot, ready: Callable[[], object], what: str, timeout: float = WAIT):
    """Wait until `ready()` is true; fail saying `what` was awaited."""
    deadline = time.monotonic() + timeout
    while not (result := ready()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)
    return result


def practice(**settings) -> Launch:
    """`coup play` with bots that move at once and no clocks, unless the test says otherwise."""
    values = dict(mode="play", name="Ana", bots=1, strategy="random", seed=7, bot_delay=0,
                  response_clock=0, turn_clock=0)
    values.update(settings)
    return Launch(**values)


def my_decision(app: CoupApp):
    """The view, when this client owes a decision with no move pending (or the game is over)."""
    table = app.table
    view = table.view if table is not None else None
    if view is None or table.pending is not None:
        return None
    if view.over or view.seat in view.waiting:
        return view
    return None
