"""Bot strategies: pure computation on a seat's view, shared by the server, the arena and
bot authors.

A strategy is one method, `choose(view, moves)`, returning one of `moves`. `observe` (the
events the seat may see) and `game_over` are optional hooks. Strategies never see more than
the view their seat was sent, so a strategy run inside the server knows exactly what it
would know over the network.
"""

from __future__ import annotations

from .base import Strategy, Withdrawn
from .baseline import Baseline
from .careless import Careless
from .heuristic import PERSONALITIES, Heuristic
from .honest import Honest
from .ismcts import Ismcts
from .levels import LEVELS
from .positions import choose_at
from .random import RandomStrategy

#: Strategies by name.
STRATEGIES: dict[str, type[Strategy]] = {
    RandomStrategy.name: RandomStrategy,
    Honest.name: Honest,
    Heuristic.name: Heuristic,
    Baseline.name: Baseline,  # the heuristic as issue 31 found it, frozen: the yardstick
    Ismcts.name: Ismcts,
    Careless.name: Careless,  # the heuristic slipping on some turns: the medium level
    **PERSONALITIES,  # the heuristic with other knobs: bluffer, cautious, vengeful, banker
}


def make(name: str, seed: int | None = None, **settings: float) -> Strategy:
    """A fresh strategy by strategy or level name (settings such as ismcts's `playouts`
    passed on, over a level's own); KeyError for an unknown name."""
    if level := LEVELS.get(name):
        return STRATEGIES[level.strategy](seed, **{**level.settings, **settings})
    return STRATEGIES[name](seed, **settings)


def known(name: str) -> bool:
    """Whether `make` knows `name`, as a strategy or as a level."""
    return name in STRATEGIES or name in LEVELS


__all__ = ["LEVELS", "STRATEGIES", "Heuristic", "Honest", "Ismcts", "RandomStrategy", "Strategy",
           "Withdrawn", "choose_at", "known", "make"]
