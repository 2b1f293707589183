"""`careless`: the heuristic, except that on some of its turns it plays any legal action.

A weaker heuristic for people to meet before the real one (the `medium` level): it counts
cards, answers claims and calls likely bluffs exactly as the heuristic does, so bluffing
against it still carries risk, but a share of its turns (`slips`) it takes an action at
random — a Steal from a seat with no coins, a bluff it did not weigh, a Coup at the wrong
player. Only its own turns slip: its answers stay the heuristic's.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..moves import Move
from .base import Sight
from .heuristic import Heuristic

#: Share of its turns it takes without thinking unless told otherwise.
SLIPS = 0.5


class Careless(Heuristic):
    name = "careless"

    def __init__(self, seed: int | None = None, slips: float = SLIPS) -> None:
        super().__init__(seed)
        if not 0 <= slips <= 1:
            raise ValueError(f"careless slips on a share of its turns, 0 to 1, not {slips!r}")
        self.slips = slips

    def choose(self, view: Sight, moves: Sequence[Move]) -> Move:
        if view.phase == "action" and self.rng.random() < self.slips:
            return moves[self.rng.randrange(len(moves))]
        return super().choose(view, moves)
