"""Where the server's bots think, so that no strategy holds up the event loop.

Most strategies decide in microseconds, and decide on the loop itself: a trip to a thread
would cost more than the decision. A strategy that searches (`Strategy.searches`) thinks in
a worker thread, and every table shares `--bot-threads` of them: however many tables of
search bots there are, the loop shares the interpreter with that many threads, not with one
a table, and the search's budget (`--bot-playouts`) bounds each decision. A strategy is
never asked again while it still thinks: its table awaits each decision, and a table that
is cancelled meanwhile waits for the thread all the same (a thread cannot be stopped).

Which strategies tables may seat is the server's choice (`--bot-strategies`).
"""

from __future__ import annotations

from typing import Sequence

import trio

from engine import Move, View
from engine.bots import STRATEGIES, Strategy, make

from .config import ServerConfig


def allowed_strategies(setting: str) -> frozenset[str]:
    """The strategies `--bot-strategies` names ("all", or names separated by commas);
    ValueError for a name no strategy has."""
    if setting.strip() == "all":
        return frozenset(STRATEGIES)
    names = frozenset(n.strip() for n in setting.split(",") if n.strip())
    unknown = names - set(STRATEGIES)
    if unknown or not names:
        raise ValueError(f"no bot strategy {', '.join(sorted(unknown)) or setting!r}; "
                         f"there are {', '.join(sorted(STRATEGIES))}")
    return names


class Thinkers:
    """The server's bots: which may sit, how they are made, and where they think."""

    def __init__(self, config: ServerConfig) -> None:
        self.allowed = allowed_strategies(config.bot_strategies)
        self._workers = trio.CapacityLimiter(config.bot_threads)
        self._settings = {"ismcts": {"playouts": config.bot_playouts}}

    def make(self, name: str, seed: int) -> Strategy:
        return make(name, seed, **self._settings.get(name, {}))

    async def choose(self, bot: Strategy, view: View, moves: Sequence[Move]) -> Move:
        if not bot.searches:
            return bot.choose(view, moves)
        return await trio.to_thread.run_sync(bot.choose, view, moves, limiter=self._workers)
