"""`random`: a uniformly random legal move. The baseline every other strategy must beat."""

from __future__ import annotations

from collections.abc import Sequence

from ..moves import Move
from ..views import View
from .base import Strategy


class RandomStrategy(Strategy):
    name = "random"

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        return moves[self.rng.randrange(len(moves))]
