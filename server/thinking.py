"""Where the server's bots think, so that no strategy holds up the event loop.

Most strategies decide in microseconds, and decide on the loop itself: a trip to a thread
would cost more than the decision. A strategy that searches (`Strategy.searches`) thinks in
a worker thread, and every table shares `--bot-threads` of them: however many tables of
search bots there are, the loop shares the interpreter with that many threads, not with one
a table, and the search's budget (`--bot-playouts`) bounds each decision. A strategy is
never asked again while it still thinks: its table awaits each decision, and a table that
is cancelled meanwhile waits for the thread all the same (a thread cannot be stopped).

Which strategies tables may seat is the server's choice (`--bot-strategies`); a difficulty
level (engine/bots/levels.py) may sit wherever the strategy it configures may, and the
server's budget caps a level's, never raises it.
"""

from __future__ import annotations

from collections.abc import Sequence

import trio

from engine import Move, View
from engine.bots import LEVELS, STRATEGIES, Strategy, make
from engine.bots.levels import strategy_of

from .config import ServerConfig


def allowed_strategies(setting: str) -> frozenset[str]:
    """The strategies and levels `--bot-strategies` allows ("all", or strategy or level names
    separated by commas: a strategy brings the levels made of it); ValueError for a name no
    strategy or level has."""
    if setting.strip() == "all":
        return frozenset(STRATEGIES) | frozenset(LEVELS)
    names = frozenset(n.strip() for n in setting.split(",") if n.strip())
    unknown = names - set(STRATEGIES) - set(LEVELS)
    if unknown or not names:
        raise ValueError(f"no bot strategy {', '.join(sorted(unknown)) or setting!r}; "
                         f"there are {', '.join(sorted(STRATEGIES))}; {', '.join(LEVELS)}")
    return names | {level.name for level in LEVELS.values() if level.strategy in names}


class Thinkers:
    """The server's bots: which may sit, how they are made, and where they think."""

    def __init__(self, config: ServerConfig) -> None:
        self.allowed = allowed_strategies(config.bot_strategies)
        self._workers = trio.CapacityLimiter(config.bot_threads)
        self._settings: dict[str, dict[str, float]] = {
            "ismcts": {"playouts": config.bot_playouts}}

    def make(self, name: str, seed: int) -> Strategy:
        settings = dict(self._settings.get(strategy_of(name), {}))
        if level := LEVELS.get(name):
            settings = {k: min(v, level.settings[k]) if k in level.settings else v
                        for k, v in settings.items()}
        return make(name, seed, **settings)

    async def choose(self, bot: Strategy, view: View, moves: Sequence[Move]) -> Move:
        if not bot.searches:
            return bot.choose(view, moves)
        return await trio.to_thread.run_sync(bot.choose, view, moves, limiter=self._workers)
