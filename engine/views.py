"""Views: what one viewer may know of a game, built by adding only that (R11).

A view starts empty and receives the public table — coins, face-up cards, face-down counts,
the treasury, the deck's size, the open decision — and then the viewer's own secrets: its
hand, an Exchange's draw while it exchanges, an Examine's card it showed or was shown, its
draft set. Nothing is ever copied whole from the game and pruned. The deck order, the
removed draft cards and the random generator appear in no view; only `reveal_of`, once the
game is over, shows every hand.

Every field is declared once, in the View class, with the kind of value it holds, whose it
is (the public table's, or the viewer's own) and how the game holds it. Everything else that
lists the fields is derived from that declaration (`FIELDS`): views built from a game, their
wire form (`to_dict`, `from_dict`, and the server's `public_dict` + `view_dict`), the game a
bot rebuilds from a view (`game_fields`, for Game.from_view), and the protocol's VIEW spec.

A View has the attributes legality reads, so `legal_moves(view, view.seat)` answers exactly
as the server would.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import IllegalMove
from .legality import OVER, check, divided, legal_moves
from .moves import Move
from .options import Options

if TYPE_CHECKING:
    from .game import Game

#: A conversion of one field's value (by its shape), and a read of it from a game.
Convert = Callable[[Any], Any]
Read = Callable[..., Any]

# Whose a field is.
PUBLIC = "public"  # the same for every viewer, spectators included
OWN = "own"        # the viewer's alone: its seat and its secrets (R11)

# How the game holds a field's value (a view holds every sequence as a tuple, the wire as a
# list).
OPTIONS = "options"  # the Options object (a map on the wire)
ONE = "one"          # an int, a string or None, kept as it is
TUPLE = "tuple"      # a tuple, which the game never changes in place
LIST = "list"        # a list the game changes in place
LISTS = "lists"      # a list of lists (None in a view where the viewer may not look)


class ViewField(NamedTuple):
    """One field of a view, as the View class declares it.

    kind: what the value is, in the game's words ("seat", "coins", "hand_by_seat"…): the
    protocol gives each kind its wire spec. whose: PUBLIC or OWN. shape: how the game holds
    it (OPTIONS, ONE, TUPLE, LIST, LISTS). read: how it is worked out from a game — None for
    the game's attribute of the same name; for a PUBLIC field read(game); for an OWN one
    read(game, seat). A read makes a new value, in lists, that nothing else holds.
    """

    name: str
    kind: str
    whose: str
    shape: str
    read: Read | None


def _public(kind: str, shape: str = ONE, read: Read | None = None) -> Any:
    return field(metadata={"kind": kind, "whose": PUBLIC, "shape": shape, "read": read})


def _own(kind: str, shape: str, read: Read) -> Any:
    return field(metadata={"kind": kind, "whose": OWN, "shape": shape, "read": read})


def _influence(g: Game) -> list[int]:
    return [len(h) for h in g.hands]


def _deck_size(g: Game) -> int:
    return len(g.deck)


def _unified(g: Game) -> bool:
    """R12.5: worked out from the factions and exiles, as legality works it out."""
    return not divided(g)


def _seat(g: Game, seat: int | None) -> int | None:
    return seat


def _hands(g: Game, seat: int | None) -> list[list[str] | None]:
    """Face-down cards: the viewer's own only (R11)."""
    hands: list[list[str] | None] = [None] * g.options.players
    if seat is not None:
        hands[seat] = list(g.hands[seat])
    return hands


def _draft_sets(g: Game, seat: int | None) -> list[list[str] | None]:
    """A draft set: the viewer's own only (R1.7, R11)."""
    sets: list[list[str] | None] = [None] * g.options.players
    own = None if seat is None else g.draft_sets[seat]
    if seat is not None and own is not None:
        sets[seat] = list(own)
    return sets


def _drawn(g: Game, seat: int | None) -> list[str]:
    """An Exchange's draw, to the exchanger alone (R4.3)."""
    return list(g.drawn) if seat is not None and seat == g.actor else []


def _shown(g: Game, seat: int | None) -> str | None:
    """An Examine's card, to the two seats involved alone (R4.4)."""
    return g.shown if seat is not None and seat in (g.actor, g.target) else None


@dataclass(frozen=True, slots=True)
class View:
    """One viewer's knowledge of the table at one state.

    seat: the viewer (None for a spectator or the full reveal). Per seat, indexed by seat
    number: coins, alive, influence (face-down count), revealed (face-up cards), and hands
    (face-down cards: the viewer's own, every seat's in a reveal, None where unknown).
    phase/waiting/opened: the open decision, who owes it, the state_id it opened at.
    actor/action/target: the turn; step/claimant/claim: the open response window or the
    challenge being answered; challenger, blocker/block_card; reason: why a seat loses a
    card; keep_count: how many an Exchange keeps. drawn: an Exchange's draw (the exchanger
    only); shown: an Examine's card (those two only); draft_sets: a seat's draft set (its
    own only). exiled: seats in the order they went out; winner once the game is over.
    With Reformation (R12.18): factions, each seat's; almshouse, its coins; unified, False
    while the table is divided (R12.5). Without it factions is empty, the Almshouse 0 and
    the table unified.
    """

    options: Options = _public("options", OPTIONS)
    seat: int | None = _own("seat", ONE, _seat)
    state_id: int = _public("state_id")
    phase: str = _public("phase")
    waiting: tuple[int, ...] = _public("seats", TUPLE)
    opened: int = _public("state_id")
    coins: tuple[int, ...] = _public("coins_by_seat", LIST)
    alive: tuple[bool, ...] = _public("alive_by_seat", LIST)
    influence: tuple[int, ...] = _public("influence_by_seat", LIST, _influence)
    revealed: tuple[tuple[str, ...], ...] = _public("face_up_by_seat", LISTS)
    hands: tuple[tuple[str, ...] | None, ...] = _own("hand_by_seat", LISTS, _hands)
    treasury: int = _public("coins")
    deck_size: int = _public("deck_size", ONE, _deck_size)
    first_seat: int | None = _public("seat")
    actor: int | None = _public("seat")
    action: str | None = _public("action")
    target: int | None = _public("seat")
    step: str | None = _public("step")
    claimant: int | None = _public("seat")
    claim: str | None = _public("card")
    challenger: int | None = _public("seat")
    blocker: int | None = _public("seat")
    block_card: str | None = _public("card")
    reason: str | None = _public("reason")
    keep_count: int | None = _public("keep_count")
    drawn: tuple[str, ...] = _own("drawn", LIST, _drawn)
    shown: str | None = _own("card", ONE, _shown)
    draft_sets: tuple[tuple[str, ...] | None, ...] = _own("draft_set_by_seat", LISTS,
                                                          _draft_sets)
    exiled: tuple[int, ...] = _public("seats", LIST)
    winner: int | None = _public("seat")
    factions: tuple[str, ...] = _public("factions", LIST)
    almshouse: int = _public("coins")
    unified: bool = _public("flag", ONE, _unified)

    @property
    def alive_mask(self) -> int:
        return sum(1 << s for s, a in enumerate(self.alive) if a)

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def legal_moves(self, seat: int | None = None) -> tuple[Move, ...]:
        """The moves `seat` (by default the viewer) may make now."""
        seat = self.seat if seat is None else seat
        return () if seat is None else legal_moves(self, seat)

    def check(self, m: Move) -> None:
        """Raise IllegalMove, with the server's code, unless the viewer may make `m` now."""
        if self.seat is None:
            raise IllegalMove("not_your_turn", "Spectators do not play.")
        check(self, self.seat, m)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the wire: lists for tuples, options as a map, unknowns as None."""
        return {name: convert(getattr(self, name)) for name, convert in _VIEW_TO_WIRE}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> View:
        """A View from `to_dict` data. The shape is the protocol's to check; a missing
        field raises KeyError and a wrong option OptionsError."""
        return cls(**{name: convert(data[name]) for name, convert in _WIRE_TO_VIEW})


#: Every field of a view, in the order the View class declares them.
FIELDS: tuple[ViewField, ...] = tuple(ViewField(f.name, **f.metadata) for f in fields(View))


def _same(value: Any) -> Any:
    return value


def _tuples(rows: Iterable[Iterable[Any] | None]) -> tuple[tuple[Any, ...] | None, ...]:
    return tuple(None if row is None else tuple(row) for row in rows)


def _lists(rows: Iterable[Iterable[Any] | None]) -> list[list[Any] | None]:
    return [None if row is None else list(row) for row in rows]


# Conversions by shape: game → view, view or game → wire, a read's new value → wire (it is
# in lists already, and nobody else holds it), wire → view, view → game.
_TO_VIEW: dict[str, Convert] = {OPTIONS: _same, ONE: _same, TUPLE: _same, LIST: tuple, LISTS: _tuples}
_TO_WIRE: dict[str, Convert] = {OPTIONS: Options.to_dict, ONE: _same, TUPLE: list, LIST: list, LISTS: _lists}
_READ_TO_WIRE: dict[str, Convert] = {OPTIONS: Options.to_dict, ONE: _same, TUPLE: list, LIST: _same, LISTS: _same}
_FROM_WIRE: dict[str, Convert] = {OPTIONS: Options.from_dict, ONE: _same, TUPLE: tuple, LIST: tuple,
              LISTS: _tuples}
_TO_GAME: dict[str, Convert] = {OPTIONS: _same, ONE: _same, TUPLE: _same, LIST: list, LISTS: _lists}

_VIEW_TO_WIRE = tuple((f.name, _TO_WIRE[f.shape]) for f in FIELDS)
_WIRE_TO_VIEW = tuple((f.name, _FROM_WIRE[f.shape]) for f in FIELDS)
#: The public fields that are the game's own attributes: Game.from_view sets them back.
_GAME_OWN = tuple((f.name, _TO_GAME[f.shape]) for f in FIELDS
                  if f.whose == PUBLIC and f.read is None)


def _reader(
    held: dict[str, Convert], made: dict[str, Convert],
) -> tuple[Callable[[Game], dict[str, Any]],
           Callable[[dict[str, Any], Game, int | None], dict[str, Any]]]:
    """Two functions made from FIELDS: `public(g)`, the public fields of game `g`, and
    `own(d, g, seat)`, which adds to `d` the fields that are `seat`'s own. Each value is
    converted by its shape: by `held` when it is the game's own attribute, by `made` when a
    field's read made it. They are compiled as straight-line code, one expression a field,
    because the server builds views for every viewer after every move, and a loop over the
    table cost half as much again as the fields themselves."""
    names: dict[str, Any] = {}

    def call(fn: Callable[..., Any], args: str) -> str:
        if fn is _same:
            return args
        key = f"f{len(names)}"
        names[key] = fn
        return f"{key}({args})"

    def value(f: ViewField, args: str) -> str:
        if f.read is None:
            return call(held[f.shape], f"g.{f.name}")
        return call(made[f.shape], call(f.read, args))

    public = ", ".join(f"{f.name!r}: {value(f, 'g')}" for f in FIELDS if f.whose == PUBLIC)
    own = "".join(f"    d[{f.name!r}] = {value(f, 'g, seat')}\n"
                  for f in FIELDS if f.whose == OWN)
    source = f"def public(g):\n    return {{{public}}}\n\ndef own(d, g, seat):\n{own}    return d\n"
    exec(compile(source, "<engine.views>", "exec"), names)  # noqa: S102 — made from FIELDS only
    return names["public"], names["own"]


_public_view, _own_view = _reader(_TO_VIEW, _TO_VIEW)
_public_wire, _own_wire = _reader(_TO_WIRE, _READ_TO_WIRE)


def view_of(g: Game, seat: int | None) -> View:
    """The view of `seat` (None for a spectator): the public table plus its own secrets."""
    return View(**_own_view(_public_view(g), g, seat))


def reveal_of(g: Game) -> View:
    """Every hand shown to everyone: allowed only once the game is over (R11)."""
    if g.phase != OVER:
        raise ValueError("Cards are revealed only when the game is over.")
    return replace(view_of(g, None), hands=_tuples(g.hands))


def public_dict(g: Game) -> dict[str, Any]:
    """The public part of every viewer's view, already in to_dict form: build it once per
    move and add each viewer's own secrets with `view_dict` (the server's fast path)."""
    return _public_wire(g)


def view_dict(g: Game, seat: int | None, public: dict[str, Any]) -> dict[str, Any]:
    """`view_of(g, seat).to_dict()`, made by adding the viewer's secrets to `public`."""
    return _own_wire(dict(public), g, seat)


def game_fields(view: View) -> dict[str, Any]:
    """The game's own attributes that `view` holds (everything public that is not worked out
    from something else), in the form the game holds them: what Game.from_view copies."""
    return {name: convert(getattr(view, name)) for name, convert in _GAME_OWN}
