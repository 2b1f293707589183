"""Quick play: the players waiting for the server to seat them, and which tables they form.

Who waits for what is a list of `Wish`es, oldest first; `match` is a pure function of that
list and the time that says which groups form tables now: a table forms as soon as enough
players wait whose wishes allow its size (the largest size the oldest of them allows, the
oldest players first), and once the oldest has waited the server's bot-fill time, a table
forms with what waits for it and server bots in the seats left. `QuickPlay` keeps the
wishes of the lobby's sessions and tells them how many wait with them; it never seats
anyone itself: the lobby opens the tables `match` forms (`Lobby._form`).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar

import trio

from protocol import QueueStatus

#: Seconds between two counts pushed to the sessions that wait (queue_status).
STATUS_PUSH = 0.5


class Waiter(Protocol):
    """Who may wait: anything hashable that can be told its count (a session)."""

    def send(self, msg: QueueStatus) -> None: ...


W = TypeVar("W", bound=Waiter)


@dataclass(frozen=True, slots=True)
class Wish(Generic[W]):
    """`who` waits, since `since`, for a table of `lo` to `hi` seats of `variant`, with
    Reformation (R12) or without it."""

    who: W
    lo: int
    hi: int
    variant: str
    since: float
    reformation: bool = False

    def allows(self, seats: int, variant: str, reformation: bool) -> bool:
        return (self.variant == variant and self.reformation == reformation
                and self.lo <= seats <= self.hi)

    def like(self, other: Wish[W]) -> bool:
        """`other` waits for some table this one would sit at too."""
        return (self.variant == other.variant and self.reformation == other.reformation
                and self.lo <= other.hi and other.lo <= self.hi)


@dataclass(frozen=True, slots=True)
class Formed(Generic[W]):
    """A table to open: its `seats`, `players` (whose wishes, oldest first) in the first ones
    and server bots in the rest, of `variant`, with Reformation or not."""

    players: tuple[Wish[W], ...]
    seats: int
    variant: str
    reformation: bool = False

    @property
    def bots(self) -> int:
        return self.seats - len(self.players)


def match(waiting: Sequence[Wish[W]], now: float, fill_after: float) -> list[Formed[W]]:
    """The tables that form now from `waiting` (oldest first): with players only, whenever
    enough wait for a size; with server bots too for a wish older than `fill_after` seconds
    (0: never). Each player is in one table at most; the others wait on."""
    left = list(waiting)
    formed: list[Formed[W]] = []
    while True:
        table = next((t for wish in left if (t := _table_for(wish, left, now, fill_after))),
                     None)
        if table is None:
            return formed
        formed.append(table)
        left = [w for w in left if w not in table.players]


def _table_for(first: Wish[W], left: list[Wish[W]], now: float,
               fill_after: float) -> Formed[W] | None:
    """The table `first` sits at now, with the oldest of `left` who allow its size: the
    largest size enough of them allow; else, once `first` has waited `fill_after`, the size
    with the most of them (the largest of those), its other seats for bots."""
    def others(seats: int) -> tuple[Wish[W], ...]:
        return tuple(w for w in left
                     if w.allows(seats, first.variant, first.reformation))[:seats]

    sizes = range(first.hi, first.lo - 1, -1)
    for seats in sizes:
        players = others(seats)
        if len(players) == seats:
            return Formed(players, seats, first.variant, first.reformation)
    if fill_after > 0 and now - first.since >= fill_after:
        seats = max(sizes, key=lambda n: len(others(n)))  # max keeps the first, the largest
        return Formed(others(seats), seats, first.variant, first.reformation)
    return None


class QuickPlay(Generic[W]):
    """The queue of one server: the wishes of the sessions that wait, oldest first. `add`
    and `remove` run the matching at once; `run` forms the tables that bots fill when their
    time comes and pushes each waiting session its count when it changes."""

    def __init__(self, fill_after: float, form: Callable[[Formed[W]], None]) -> None:
        """`form` opens the table of a `Formed` (the sessions are its wishes' `who`)."""
        self.fill_after = fill_after
        self._form = form
        self.wishes: dict[W, Wish[W]] = {}
        #: The count each waiting session was last told.
        self._told: dict[W, int] = {}
        self._changed = trio.Event()

    def __contains__(self, who: object) -> bool:
        return who in self.wishes

    def waiting_like(self, wish: Wish[W]) -> int:
        """How many wait for a table `wish` would sit at (its own included)."""
        return sum(wish.like(other) for other in self.wishes.values())

    def add(self, wish: Wish[W]) -> None:
        """`wish.who` waits from now, told it waits with `waiting_like(wish)` (its `queued`);
        the tables that can form with it form at once."""
        self.wishes[wish.who] = wish
        self._told[wish.who] = self.waiting_like(wish)
        self._match()

    def remove(self, who: W) -> None:
        """`who` waits no more (it left, sat elsewhere or ended); nothing if it did not."""
        if self.wishes.pop(who, None) is not None:
            del self._told[who]
            self._changed.set()

    def _match(self) -> None:
        self._changed.set()
        for table in match(list(self.wishes.values()), trio.current_time(), self.fill_after):
            for wish in table.players:
                self.remove(wish.who)
            self._form(table)

    async def run(self) -> None:
        """Until cancelled: form the tables whose wait for bots ends, and push each waiting
        session its count when it changed, at most every STATUS_PUSH seconds."""
        while True:
            fill = [w.since + self.fill_after for w in self.wishes.values()] \
                if self.fill_after > 0 else []
            with trio.move_on_at(min(fill, default=float("inf"))):
                await self._changed.wait()
            self._changed = trio.Event()
            self._match()
            self._changed = trio.Event()
            for who, wish in self.wishes.items():
                count = self.waiting_like(wish)
                if self._told[who] != count:
                    self._told[who] = count
                    who.send(QueueStatus(waiting=count))
            await trio.sleep(STATUS_PUSH)
