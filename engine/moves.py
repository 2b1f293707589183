"""Moves: what one seat does at one decision, as small immutable values.

A move names no seat (the seat that makes it is given beside it), so one object serves every
seat and every game: every move the engine can offer is made once, at import, and the engine
lists legal moves by handing out the same few hundred objects again and again. Use `move()`
(or the constants) to get one; `Move.from_dict` reads one from plain data and refuses a
malformed one with the engine's own error. Nothing here ever keeps what it was handed.
"""

from __future__ import annotations

from itertools import product
from typing import NamedTuple

from .cards import ACTIONS, CHARACTERS, TARGETED, sort_cards
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

    target — coup, assassinate, steal, examine: the seat aimed at;
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

    def to_dict(self) -> dict:
        """The move as plain data: the kind and only the fields it uses."""
        d: dict = {"kind": self.kind}
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
        """Read a move from plain data, refusing anything malformed with IllegalMove."""
        if not isinstance(data, dict):
            raise IllegalMove("bad_move", "A move must be a map with a 'kind'.")
        kind = data.get("kind")
        if not isinstance(kind, str):
            raise IllegalMove("bad_move", "A move must have a 'kind' string.")
        if kind not in _KINDS:
            raise IllegalMove("unknown_move", f"There is no move called {kind[:40]!r}.")
        wanted = _FIELDS[kind]
        extra = [k for k in data if k != "kind" and k not in wanted]
        if extra:
            raise IllegalMove("bad_move", f"A {kind} move has no field {str(extra[0])[:40]!r}.")
        missing = [k for k in wanted if k not in data]
        if missing:
            raise IllegalMove("bad_move", f"A {kind} move needs a {missing[0]!r}.")
        target = data.get("target")
        if target is not None and (type(target) is not int or isinstance(target, bool)):
            raise IllegalMove("bad_move", "A target must be a seat number.")
        card = data.get("card")
        if card is not None:
            _check_card(card)
        cards = data.get("cards")
        if cards is not None:
            if not isinstance(cards, (list, tuple)) or len(cards) > 4:
                raise IllegalMove("bad_move", "The cards to keep must be a list of cards.")
            for c in cards:
                _check_card(c)
            cards = sort_cards(cards)
        swap = data.get("swap")
        if swap is not None and type(swap) is not bool:
            raise IllegalMove("bad_move", "'swap' must be true or false.")
        return move(kind, target, card, cards, swap)


def _check_card(card: object) -> None:
    if not isinstance(card, str):
        raise IllegalMove("bad_move", "A card must be a character id.")
    if card not in CHARACTERS:
        raise IllegalMove("unknown_card", f"There is no character called {card[:40]!r}.")


_FIELDS: dict[str, tuple[str, ...]] = {k: () for k in KINDS}
_FIELDS.update({k: ("target",) for k in TARGETED})
_FIELDS.update({k: ("card",) for k in CARD_KINDS})
_FIELDS[KEEP] = ("cards",)
_FIELDS[EXAMINE_DECISION] = ("swap",)

def _shapes() -> dict[tuple, Move]:
    """Every move the engine can ever offer, by its fields: each kind with every value its
    fields can take at a legal table (targets are seats below MAX_PLAYERS; an Exchange keeps
    one or two cards). A few hundred moves, made once."""
    values: dict[str, list] = {
        "target": list(range(MAX_PLAYERS)),
        "card": list(CHARACTERS),
        "cards": sorted({sort_cards(k) for n in (1, 2) for k in product(CHARACTERS, repeat=n)}),
        "swap": [False, True],
    }
    shapes: dict[tuple, Move] = {}
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
