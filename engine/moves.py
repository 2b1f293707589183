"""Moves: what one seat does at one decision, as small immutable values.

A move names no seat (the seat that makes it is given beside it), so one object serves every
seat and every game: every move the engine can offer is made once, at import, and the engine
lists legal moves by handing out the same few hundred objects again and again. Use `move()`
(or the constants) to get one; `Move.from_dict` reads one from plain data and refuses one
of the wrong form (`malformed`) with the engine's own error. Nothing here ever keeps what it
was handed.
"""

from __future__ import annotations

from itertools import product
from typing import Any, NamedTuple

from .cards import ACTIONS, CHARACTERS, CONVERT, TARGETED, sort_cards
from .errors import IllegalMove
from .options import MAX_PLAYERS

CHALLENGE = "challenge"
PASS = "pass"
BLOCK = "block"
PROVE = "prove"
CONCEDE = "concede"
LOSE = "lose"
KEEP = "keep"
SHOW = "show"
EXAMINE_DECISION = "examine_decision"
DRAFT_PICK = "draft_pick"

#: Moves that name a card.
CARD_KINDS = frozenset({BLOCK, LOSE, SHOW, DRAFT_PICK})
#: Every move kind: the actions of R4 and the responses and choices of the Identifiers.
KINDS: tuple[str, ...] = ACTIONS + (
    CHALLENGE, PASS, BLOCK, PROVE, CONCEDE, LOSE, KEEP, SHOW, EXAMINE_DECISION, DRAFT_PICK,
)
_KINDS = frozenset(KINDS)


class Move(NamedTuple):
    """One decision. Only the fields its kind needs are set:

    target — coup, assassinate, steal, examine: the seat aimed at; convert: the seat
    converted (the mover's own for a self-Conversion, R12.9);
    card — block (the character claimed), lose, show, draft_pick;
    cards — keep: the cards kept after an Exchange, in canonical order;
    swap — examine_decision: True sends the shown card back for a new one, False keeps it.

    A NamedTuple, not a dataclass: checking a move against the legal ones compares it with
    each, and tuples compare in C; that comparison is on the engine's hot path.
    """

    kind: str
    target: int | None = None
    card: str | None = None
    cards: tuple[str, ...] | None = None
    swap: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """The move as plain data: the kind and only the fields it uses."""
        d: dict[str, Any] = {"kind": self.kind}
        if self.target is not None:
            d["target"] = self.target
        if self.card is not None:
            d["card"] = self.card
        if self.cards is not None:
            d["cards"] = list(self.cards)
        if self.swap is not None:
            d["swap"] = self.swap
        return d

    @staticmethod
    def from_dict(data: object) -> Move:
        """Read a move from plain data, refusing one of the wrong form with IllegalMove (as
        `malformed` judges it). Which fields its kind takes is judged by the game, later."""
        if not isinstance(data, dict):
            raise IllegalMove("bad_move", "A move must be a map with a 'kind'.")
        unknown = [k for k in data if k not in _KEYS]
        if unknown:
            raise IllegalMove("bad_move", f"A move has no field {str(unknown[0])[:40]!r}.")
        cards = data.get("cards")
        # _make, not Move(...): the fields are unchecked data until malformed() has passed them
        m = Move._make((data.get("kind"), data.get("target"), data.get("card"),
                        tuple(cards) if isinstance(cards, list) else cards, data.get("swap")))
        error = malformed(m)
        if error is not None:
            raise error
        return move(*m)


def malformed(m: object) -> IllegalMove | None:
    """Why `m` is not a move of the right form, or None: the first step of the order the
    spec judges a move in, before its staleness and before which fields its kind takes
    (so a Coup naming a card "bogus" is unknown_card, whatever else is wrong with it).

    The steps of the form, in the spec's order: the kind is a move id (`unknown_move`; one
    that is not even a string is `bad_move`), each field present has its type (`bad_move`),
    each card named is a character id (`unknown_card`)."""
    if not isinstance(m, Move):
        return IllegalMove("bad_move", "That is not a move.")
    kind, target, card, cards, swap = m
    if not isinstance(kind, str):
        return IllegalMove("bad_move", "A move must have a 'kind' string.")
    if kind not in _KINDS:
        return IllegalMove("unknown_move", f"There is no move called {kind[:40]!r}.")
    if target is not None and type(target) is not int:
        return IllegalMove("bad_move", "A target must be a seat number.")
    if card is not None and not isinstance(card, str):
        return IllegalMove("bad_move", "A card must be a character id.")
    if cards is not None and (type(cards) is not tuple or len(cards) > 4
                              or not all(isinstance(c, str) for c in cards)):
        return IllegalMove("bad_move", "The cards to keep must be a list of cards.")
    if swap is not None and type(swap) is not bool:
        return IllegalMove("bad_move", "'swap' must be true or false.")
    for named in ((card,) if card is not None else ()) + (cards or ()):
        if named not in CHARACTERS:
            return IllegalMove("unknown_card", f"There is no character called {named[:40]!r}.")
    return None


_FIELDS: dict[str, tuple[str, ...]] = {k: () for k in KINDS}
_FIELDS.update({k: ("target",) for k in TARGETED})
_FIELDS[CONVERT] = ("target",)  # not TARGETED: it may name oneself (R12.9.1)
_FIELDS.update({k: ("card",) for k in CARD_KINDS})
_FIELDS[KEEP] = ("cards",)
_FIELDS[EXAMINE_DECISION] = ("swap",)
#: The keys a move's data may have.
_KEYS = frozenset(Move._fields)


def _shapes() -> dict[tuple[object, ...], Move]:
    """Every move the engine can ever offer, by its fields: each kind with every value its
    fields can take at a legal table (targets are seats below MAX_PLAYERS; an Exchange keeps
    one or two cards). A few hundred moves, made once."""
    values: dict[str, list[Any]] = {
        "target": list(range(MAX_PLAYERS)),
        "card": list(CHARACTERS),
        "cards": sorted({sort_cards(k) for n in (1, 2) for k in product(CHARACTERS, repeat=n)}),
        "swap": [False, True],
    }
    shapes: dict[tuple[object, ...], Move] = {}
    for kind in KINDS:
        wanted = _FIELDS[kind]
        for picked in product(*(values[name] for name in wanted)):
            m = Move(kind, **dict(zip(wanted, picked)))
            shapes[tuple(m)] = m
    return shapes


# Fixed at import and never added to: a move read from a client is looked up here, so what
# clients send can never grow it (issue 11: interning every move read let a client grow the
# server without end, one target at a time).
_SHAPES = _shapes()


def move(
    kind: str,
    target: int | None = None,
    card: str | None = None,
    cards: tuple[str, ...] | None = None,
    swap: bool | None = None,
) -> Move:
    """The Move with these fields (keep's cards are put in canonical order): the one shared
    object for every move the engine can offer, a new one for anything else (which no
    legal_moves list holds, so it can only be refused)."""
    if cards is not None:
        cards = sort_cards(cards)
    key = (kind, target, card, cards, swap)
    m = _SHAPES.get(key)
    return Move(*key) if m is None else m


def fields_of(kind: str) -> tuple[str, ...]:
    """The fields a move of `kind` must carry (besides its kind)."""
    return _FIELDS[kind]
