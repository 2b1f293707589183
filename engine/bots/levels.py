"""Difficulty levels: the names people choose bots by, each one configuration of a strategy.

A level is a strategy name and its settings, nothing more: `engine.bots.make("hard")` makes
the strategy the level names with the level's settings, so a level is accepted wherever a
strategy name is (`coup play --level`, `coup bot --strategy`, `coup arena`, a table's
`bots` option). The ladder is calibrated by the arena, not by taste: each level beats the
one below it heads-up and at four seats with 95% intervals that do not overlap (docs/BOTS.md
prints the table; `python -m benchmarks.bots` measures it again). Every setting a level
relies on is written out, so that a caller's cap (a server's `--bot-playouts`) can be
compared with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from collections.abc import Mapping

from .ismcts import PLAYOUTS


@dataclass(frozen=True, slots=True)
class Level:
    """A named configuration: `strategy` made with `settings`."""

    name: str
    strategy: str
    settings: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))


#: The levels from weakest to strongest.
LADDER: tuple[Level, ...] = (
    # Any legal move: a table to learn the rules at.
    Level("easy", "random"),
    # The heuristic with blurred judgement: it calls likely bluffs, so lying is a risk, but
    # it misreads claims and threats and overlooks some of its chances.
    Level("medium", "careless", MappingProxyType({"noise": 1.0})),
    # The heuristic: reads the table (card counting, claims, each player's record of
    # truth), bluffs on a share of its turns, calls bluffs worth calling.
    Level("hard", "heuristic"),
    # The search, with its full budget of playouts a decision.
    Level("expert", "ismcts", MappingProxyType({"playouts": PLAYOUTS})),
)

LEVELS: Mapping[str, Level] = MappingProxyType({level.name: level for level in LADDER})

#: What a new player meets when they do not choose: bots that call a likely bluff, so that
#: lying carries risk from the first game, and that can be beaten.
DEFAULT_LEVEL = "medium"


def strategy_of(name: str) -> str:
    """The strategy a level name stands for; any other name is returned as it is."""
    level = LEVELS.get(name)
    return level.strategy if level else name
