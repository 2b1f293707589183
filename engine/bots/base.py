"""The strategy interface every bot implements."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Protocol

from ..events import Event
from ..moves import Move
from ..options import Options
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

    def seated(self, names: Sequence[str]) -> None:
        """Called before a game by a host that knows who plays: the players' names, in seat
        order (a bot process is told them; a strategy in-process needs no names)."""

    def clock(self, seconds: float | None) -> None:
        """Called before `choose` by a host that runs clocks: the seconds the decision has
        (None: no clock). A strategy in-process is stopped waiting for by its host instead;
        a bot process is told its time."""

    def close(self) -> None:
        """Called once by the host that made it when it is done with it: a strategy that
        holds something outside the process (a bot process) lets it go."""


class Withdrawn(Exception):
    """Raised by a strategy that can play no more (a bot process that crashed, hung or broke
    the line protocol; its message says how): its host forfeits its seat, in the arena, or
    plays the seat on with a fallback strategy, at a server. A later `choose` or `observe`
    raises it again; `game_over` and `close` do not."""


# A strategy plays a seat, and is handed only moves its table offered: these read what
# that guarantees (a seat's view has its seat; an offered move of a kind that names a
# target or a card has it), so a broken guarantee fails here rather than deep in a search.

class Sight(Protocol):
    """What a strategy that reads no hidden history may read of its seat's view: a View
    has it all, and so has a search's cheaper sight of a sampled world (ismcts._Seen)."""

    @property
    def seat(self) -> int | None: ...
    @property
    def options(self) -> Options: ...
    @property
    def hands(self) -> Sequence[Sequence[str] | None]: ...
    @property
    def drawn(self) -> Sequence[str]: ...
    @property
    def revealed(self) -> Sequence[Sequence[str]]: ...
    @property
    def influence(self) -> Sequence[int]: ...
    @property
    def deck_size(self) -> int: ...
    @property
    def coins(self) -> Sequence[int]: ...
    @property
    def alive(self) -> Sequence[bool]: ...
    @property
    def phase(self) -> str: ...
    @property
    def step(self) -> str | None: ...
    @property
    def action(self) -> str | None: ...
    @property
    def target(self) -> int | None: ...
    @property
    def claimant(self) -> int | None: ...
    @property
    def claim(self) -> str | None: ...
    @property
    def actor(self) -> int | None: ...
    @property
    def shown(self) -> str | None: ...
    @property
    def factions(self) -> Sequence[str]: ...
    @property
    def almshouse(self) -> int: ...


def seat_of(view: Sight) -> int:
    """The seat whose view this is (a strategy never gets a spectator's)."""
    assert view.seat is not None
    return view.seat


def hand_of(view: Sight) -> Sequence[str]:
    """The viewer's own face-down cards (read in every playout: no call to seat_of)."""
    seat = view.seat
    assert seat is not None
    return view.hands[seat] or ()


def target_of(m: Move) -> int:
    """The seat a targeted move aims at."""
    assert m.target is not None
    return m.target


def card_of(m: Move) -> str:
    """The card a block, lose, show or draft pick names."""
    assert m.card is not None
    return m.card


def cards_of(m: Move) -> tuple[str, ...]:
    """The cards a keep move keeps."""
    assert m.cards is not None
    return m.cards
