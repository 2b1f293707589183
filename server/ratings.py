"""Which games move ratings, and who each seat counts for (the rating itself is
engine/ratings.py, shared with `coup arena --tournament`).

A rated game ranks its seats by how they finished: the winner first, then the others in the
reverse order of their departure (the last one out second). A seat departs when it is
exiled, or when its person leaves the game (quits, or their grace ends and a bot or a
forfeit takes the seat): a leaver is ranked where they left, and what the seat does after
counts for no one (`Standing`). Each seat counts for its player as the ratings know it:
"key:<hex>" for an identified person, "bot:<strategy>" for a server bot seated from the
start, nobody for a guest (its seat is left out, and the others are ranked among
themselves).

A table's rated game counts only between people: at least two distinct identities seated at
the start (else it is played unrated, and said so), each of whom took MIN_TURNS turns of
their own or was exiled in play before then (the server's --rated-min-turns, 2 by
default). A game of someone who joined and left at once moves no rating.

Pure: no SQL, no trio. The store calls `rate` inside the transaction that records a game's
result, so a rating never moves without the result that moved it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from collections.abc import Sequence

from engine.ratings import Rating, finishing_order, rate

__all__ = ["Rating", "Standing", "finishing_order", "rate"]


@dataclass(slots=True)
class Standing:
    """What a rated game's result will count, kept by its table as the game is played."""

    #: The identified people seated at the start: seat -> player ("key:<hex>").
    people: dict[int, str]
    #: Turns (declared actions) each seat's person took by their own move, not a clock's.
    turns: Counter = field(default_factory=Counter)
    #: Seats in the order they departed: exiled, or left by their person.
    departed: list[int] = field(default_factory=list)
    #: Seats whose person left the game while the seat was still in it.
    left: set[int] = field(default_factory=set)

    @property
    def counts(self) -> bool:
        """The game is rated: two distinct people at the start, at least."""
        return len(set(self.people.values())) >= 2

    def turn(self, seat: int) -> None:
        self.turns[seat] += 1

    def exiled(self, exiled: Sequence[int]) -> None:
        """The game's exiled seats (in order) after a move: the new ones depart."""
        for seat in exiled:
            if seat not in self.departed:
                self.departed.append(seat)

    def leave(self, seat: int) -> None:
        """`seat`'s person left the game, the seat still in it: they depart here."""
        if seat not in self.departed:
            self.departed.append(seat)
            self.left.add(seat)

    def result(self, seats: int, winner: int, min_turns: int
               ) -> tuple[list[int], int | None] | None:
        """The finishing order of the game's `seats` (first to last) and the seat whose
        player won (None if the winning seat's person had left), or None if the game does
        not count: someone at the start took fewer than `min_turns` turns and was not
        exiled in play before."""
        if not self.counts or any(
                self.turns[seat] < min_turns and (seat in self.left or seat not in self.departed)
                for seat in self.people):
            return None
        order = [seat for seat in range(seats) if seat not in self.departed]
        return order + self.departed[::-1], None if winner in self.left else winner

