"""The strategy interface every bot implements."""

from __future__ import annotations

import random
from typing import ClassVar, Sequence

from ..events import Event
from ..moves import Move
from ..views import View


class Strategy:
    """Decides a seat's moves from what the seat may see.

    Subclasses set `name` and implement `choose`. `rng` is the strategy's own generator,
    seeded for reproducible games.
    """

    name: ClassVar[str] = ""
    #: The strategy searches: a decision takes milliseconds, not microseconds, so a server
    #: has it think off its event loop.
    searches: ClassVar[bool] = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """One of `moves` (never empty), for the seat `view.seat`."""
        raise NotImplementedError

    def observe(self, view: View, events: Sequence[Event]) -> None:
        """Called after every move with the new view and the events the seat may see."""

    def game_over(self, view: View) -> None:
        """Called once when the game ends, with the final view."""
