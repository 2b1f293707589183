"""The game's identifiers: characters, actions and what each action claims, costs and allows.

These are the language-neutral ids of rules.md (Identifiers). Everything else in the project
(moves, events, views, the wire, the screens) names cards and actions with these strings and
nothing else; display text lives with the client's translations, never here.
"""

from __future__ import annotations

from collections.abc import Iterable

DUKE = "duke"
ASSASSIN = "assassin"
CAPTAIN = "captain"
AMBASSADOR = "ambassador"
CONTESSA = "contessa"
INQUISITOR = "inquisitor"

#: Every character id, in the canonical order used to sort hands and keep-combinations.
CHARACTERS: tuple[str, ...] = (DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, INQUISITOR, CONTESSA)
_ORDER = {c: i for i, c in enumerate(CHARACTERS)}

BASE = "base"
INQUISITOR_VARIANT = "inquisitor"
VARIANTS: tuple[str, ...] = (BASE, INQUISITOR_VARIANT)

#: The five characters in play for each variant (R1.1, R1.3).
CAST: dict[str, tuple[str, ...]] = {
    BASE: (DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA),
    INQUISITOR_VARIANT: (DUKE, ASSASSIN, CAPTAIN, INQUISITOR, CONTESSA),
}

INCOME = "income"
FOREIGN_AID = "foreign_aid"
COUP = "coup"
TAX = "tax"
ASSASSINATE = "assassinate"
STEAL = "steal"
EXCHANGE = "exchange"
EXAMINE = "examine"
CONVERT = "convert"
EMBEZZLE = "embezzle"

ACTIONS: tuple[str, ...] = (INCOME, FOREIGN_AID, COUP, TAX, ASSASSINATE, STEAL, EXCHANGE, EXAMINE,
                            CONVERT, EMBEZZLE)

#: The character an action claims (R4); general actions claim none.
CLAIM: dict[str, str | None] = {
    INCOME: None,
    FOREIGN_AID: None,
    COUP: None,
    TAX: DUKE,
    ASSASSINATE: ASSASSIN,
    STEAL: CAPTAIN,
    EXCHANGE: AMBASSADOR,  # the Inquisitor in its variant: see claim_of()
    EXAMINE: INQUISITOR,
    CONVERT: None,
    EMBEZZLE: None,  # an inverse claim, of holding no Duke: see DENIED
}

#: The character an Embezzlement claims not to hold face down (R12.11.1), in both decks.
DENIED = DUKE

#: Paid when the action is declared (R4.1).
COST: dict[str, int] = {COUP: 7, ASSASSINATE: 3}

TARGETED: frozenset[str] = frozenset({COUP, ASSASSINATE, STEAL, EXAMINE})

#: Actions in each variant.
ACTIONS_IN: dict[str, tuple[str, ...]] = {
    BASE: (INCOME, FOREIGN_AID, COUP, TAX, ASSASSINATE, STEAL, EXCHANGE),
    INQUISITOR_VARIANT: (INCOME, FOREIGN_AID, COUP, TAX, ASSASSINATE, STEAL, EXCHANGE, EXAMINE),
}

#: The actions Reformation adds to either variant's (R12.9, R12.11).
REFORMATION_ACTIONS: tuple[str, ...] = (CONVERT, EMBEZZLE)

#: The actions of a game, by its variant and whether it plays Reformation.
ALLOWED: dict[tuple[str, bool], frozenset[str]] = {
    (v, reformation): frozenset(ACTIONS_IN[v] + (REFORMATION_ACTIONS if reformation else ()))
    for v in VARIANTS for reformation in (False, True)
}

LOYALIST = "loyalist"
REFORMIST = "reformist"
FACTIONS: tuple[str, ...] = (LOYALIST, REFORMIST)
#: Each faction's other one: what a Conversion turns a player into (R12.9.3).
OTHER_FACTION = {LOYALIST: REFORMIST, REFORMIST: LOYALIST}


def faction_deal(players: int, first_seat: int) -> list[str]:
    """Each seat's faction at the deal (R12.3): the first player is Loyalist, and going
    clockwise each next player takes the other faction than the one before."""
    return [FACTIONS[(seat - first_seat) % players % 2] for seat in range(players)]


def convert_cost(seat: int, target: int | None) -> int:
    """What a Conversion of `target` by `seat` costs (R12.9.1): 1 for oneself, 2 else."""
    return 1 if target == seat else 2


#: Coins an action takes from the treasury (R1.5: never more than it holds).
GAIN: dict[str, int] = {INCOME: 1, FOREIGN_AID: 2, TAX: 3}

#: Coins at which a player must Coup (R3.4).
MUST_COUP = 10


def claim_of(action: str, variant: str) -> str | None:
    """The character `action` claims in `variant` (Exchange claims the Inquisitor there)."""
    if action == EXCHANGE and variant == INQUISITOR_VARIANT:
        return INQUISITOR
    return CLAIM[action]


#: claim_of() for every action, by variant: a table for the engine's hot path.
CLAIMS_IN: dict[str, dict[str, str | None]] = {
    v: {a: claim_of(a, v) for a in ACTIONS} for v in VARIANTS
}


def blockers_of(action: str, variant: str) -> tuple[str, ...]:
    """The characters that may block `action` in `variant` (R4's last column)."""
    if action == FOREIGN_AID:
        return (DUKE,)
    if action == ASSASSINATE:
        return (CONTESSA,)
    if action == STEAL:
        return (CAPTAIN, INQUISITOR if variant == INQUISITOR_VARIANT else AMBASSADOR)
    return ()


def exchange_draw(variant: str) -> int:
    """How many cards an Exchange draws: 2 with the Ambassador, 1 with the Inquisitor."""
    return 1 if variant == INQUISITOR_VARIANT else 2


def copies_for(players: int) -> int:
    """Copies of each character in the Court deck for a table size (R1.1, R1.2)."""
    if players <= 6:
        return 3
    if players <= 8:
        return 4
    return 5


def copies_in_game(players: int, draft: bool) -> int:
    """Copies of each character in the whole game: the draft uses three sets of one (R1.7)."""
    return 3 if draft else copies_for(players)


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Cards in canonical order, so equal multisets compare equal."""
    return tuple(sorted(cards, key=_ORDER.__getitem__))
