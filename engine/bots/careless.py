"""`careless`: the heuristic with blurred judgement (the `medium` level).

It plays every decision the way the heuristic does (it counts cards, keeps beliefs, calls
bluffs that look worth calling, bluffs at the default rates), but it sees less clearly: every
estimate it makes (how likely a seat holds a card, how likely a claim is a bluff, how
threatening a seat is) is off by a random error, and on some turns it does not think of a
Steal at all. So it calls some true claims and lets some lies go, aims at the wrong player
now and then and leaves coins on the table, the mistakes of a player who is paying less
attention, never a move no player would make. It must never play a random
move: its errors are in what it believes, not in what it does with a belief.
"""

from __future__ import annotations

from math import exp, log

from .. import cards as C
from .base import Sight
from .heuristic import Heuristic

#: The spread of its errors unless told otherwise: the standard deviation of the error on
#: the log-odds of each estimate (1.0 turns an even chance into anything from about 27% to
#: 73% two times in three).
NOISE = 1.0
#: The chance, at a noise of 1, that on a turn it does not think of a Steal. (Overlooking
#: Assassinations too made it weaker heads-up than `honest`, 50% to 50% over 1,000 games.)
OVERSIGHT = 0.3


def _blurred(chance: float, error: float) -> float:
    """`chance` with `error` added to its log-odds (0 and 1 stay certain)."""
    if chance <= 0.0 or chance >= 1.0:
        return chance
    odds = log(chance / (1 - chance)) + error
    return 1 / (1 + exp(-odds))


class Careless(Heuristic):
    name = "careless"

    def __init__(self, seed: int | None = None, noise: float = NOISE) -> None:
        super().__init__(seed)
        if not 0 <= noise <= 3:
            raise ValueError(f"careless judges with a noise from 0 to 3, not {noise!r}")
        self.noise = noise

    def _error(self, spread: float = 1.0) -> float:
        # No draw at all without noise: at 0 it plays exactly as the heuristic, seed for seed.
        return self.rng.gauss(0, spread * self.noise) if self.noise else 0.0

    def belief(self, view: Sight, seat: int, card: str) -> float:
        return _blurred(super().belief(view, seat, card), self._error())

    def bluff_chance(self, view: Sight, seat: int, card: str) -> float:
        return _blurred(super().bluff_chance(view, seat, card), self._error())

    def _threat(self, view: Sight, seat: int) -> float:
        # A threat is counted in cards (10 each) and coins: an error of 5 is half a card.
        return super()._threat(view, seat) + self._error(5)

    def _considers(self, action: str) -> bool:
        return (action != C.STEAL or not self.noise
                or self.rng.random() >= OVERSIGHT * min(1.0, self.noise))
