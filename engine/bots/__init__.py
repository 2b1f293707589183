"""Bot strategies: pure computation on a seat's view, shared by the server, the arena and
bot authors.

A strategy is one method, `choose(view, moves)`, returning one of `moves`. `observe` (the
events the seat may see) and `game_over` are optional hooks. Strategies never see more than
the view their seat was sent, so a strategy run inside the server knows exactly what it
would know over the network.
"""

from __future__ import annotations

from .base import Strategy
from .honest import Honest
from .random import RandomStrategy

#: Strategies by name.
STRATEGIES: dict[str, type[Strategy]] = {
    RandomStrategy.name: RandomStrategy,
    Honest.name: Honest,
}


def make(name: str, seed: int | None = None) -> Strategy:
    """A fresh strategy by name; KeyError for an unknown one."""
    return STRATEGIES[name](seed)


__all__ = ["STRATEGIES", "Honest", "RandomStrategy", "Strategy", "make"]
