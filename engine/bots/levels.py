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
from typing import Mapping

from .ismcts import PLAYOUTS


@dataclass(frozen=True, slots=True)
class Level:
    """A named configuration: `strategy` made with `settings`."""

    name: str
    strategy: str
    settings: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))


#: The levels from weakest to strongest.
LADDER: tuple[Level, ...] = (
    # Any legal move: a table to learn the rules at, where nothing is punished for long.
    Level("easy", "random"),
    # Counts cards, bluffs at the rates online winners do and calls bluffs it finds likely.
    Level("medium", "heuristic"),
    # The search with a small budget: it plans its turn but misjudges more often.
    Level("hard", "ismcts", MappingProxyType({"playouts": 30})),
    # The search with its full budget.
    Level("expert", "ismcts", MappingProxyType({"playouts": PLAYOUTS})),
)

LEVELS: Mapping[str, Level] = MappingProxyType({level.name: level for level in LADDER})

#: What a new player meets when they do not choose: bots that punish a bluff now and then
#: and can be beaten, not bots that never lose.
DEFAULT_LEVEL = "medium"


def strategy_of(name: str) -> str:
    """The strategy a level name stands for; any other name is returned as it is."""
    level = LEVELS.get(name)
    return level.strategy if level else name
