"""Positions: any game state as plain data, checked against the rules, and read back.

A `Position` says everything about a moment of a game: the options, each seat's face-down
and face-up cards and coins, the deck (top card first), the cards out of the game, whose
turn it is and which decision is open (`Decision`), and the cards the next draws will take.
Bot writers test a strategy on one ("I hold Duke and Captain, my opponent has claimed
Contessa twice: what do I do?"), teachers set puzzles with them, and tools read any game's
full state with `Position.of(game)`.

`Position.game()` builds the Game after checking the position against the rules: card
names and counts for the variant and table size, two influences a seat, coins, the
treasury and the Almshouse, factions (with Reformation only), exiled seats holding nothing, and an open decision that the rules could have
opened from the rest (R4 to R7). Each refusal is a PositionError whose sentence names what
is wrong. `Position.from_dict` and `Position.load` read the text form (a TOML file, see
docs/BOTS.md; `load` checks it too); `to_dict` writes the same form back.

A Position holds every secret of its game: it is for tests and tools, never for the wire
(views are what a seat may see, R11).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any, NoReturn

from . import cards as C
from . import files
from .errors import OptionsError
from .events import FAIL_REASONS, Event
from .game import _AFTER_CHALLENGE, END, Game, _shuffle
from .legality import (
    ACTION, BLOCK_STEP, CHALLENGE_ACTION, CHALLENGE_BLOCK, DECIDE_PHASE, DRAFT, KEEP_PHASE,
    LOSE_PHASE, OVER, PROVE_PHASE, RESPOND, SHOW_PHASE, STEPS, divided,
)
from .moves import CHALLENGE
from .options import Options

#: The decisions a position may leave open (the action phase is `decision = None`).
DECISION_PHASES = (RESPOND, PROVE_PHASE, LOSE_PHASE, KEEP_PHASE, SHOW_PHASE, DECIDE_PHASE,
                   DRAFT, OVER)
#: The events a position's history may hold: every public kind (engine.events).
HISTORY_KINDS = ("turn", "action", "pass", "challenge", "prove", "redraw", "concede", "refund",
                 "block", "lose", "exile", "gain", "steal", "exchange", "keep", "examine",
                 "examine_keep", "examine_swap", "drafted", "fail", "forfeit", "convert",
                 "embezzle", "disprove")
_EVENT_FIELDS = ("kind", "seat", "target", "card", "cards", "amount", "action", "reason",
                 "faction")
#: The largest position file read (docs/BOTS.md): a position with a long history is a few
#: kilobytes.
MAX_FILE = 256 * 1024
#: Why a seat loses an influence (R2.1, R5.3).
LOSS_REASONS = (C.COUP, C.ASSASSINATE, CHALLENGE)


class PositionError(OptionsError):
    """A position the rules do not allow, with a sentence saying what is wrong."""


@dataclass(frozen=True)
class Decision:
    """The decision a position leaves open, other than the acting seat's choice of action.

    phase: "respond" (a challenge or block window), "prove" (the challenged claimant proves
    or concedes), "lose" (a seat chooses the card it loses), "keep" (the exchanger keeps
    cards), "show" (the examined seat shows a card), "examine_decision" (the Inquisitor
    keeps or swaps it), "draft" (the two-player draft's picks), "over" (the game has ended).
    action, target: the action of the turn and its target, for every phase but the draft.
    step: in "respond" and "prove", which claim or block is answered: "challenge_action",
    "block" or "challenge_block"; in "lose" after a challenge, the step challenged.
    blocker, block_card: who blocked and with which character (after a block).
    challenger: who challenged ("prove", and "lose" after a challenge).
    waiting: "respond": the seats that may still answer (None: all who may, R6.1, R7.2);
    "draft": the seats yet to pick (None: those with no card yet).
    seat, reason: "lose": who chooses a card, and why ("coup", "assassinate", "challenge").
    drawn: "keep": the cards the Exchange drew. shown: "examine_decision": the card shown.
    """

    phase: str
    action: str | None = None
    target: int | None = None
    step: str | None = None
    blocker: int | None = None
    block_card: str | None = None
    challenger: int | None = None
    waiting: tuple[int, ...] | None = None
    seat: int | None = None
    reason: str | None = None
    drawn: tuple[str, ...] = ()
    shown: str | None = None


@dataclass(frozen=True)
class Position:
    """A moment of a game (see the module docstring).

    hands: each seat's face-down cards; revealed: its face-up ones (None: none yet).
    coins: each seat's coins (None: 2 each). treasury: the coins no seat holds (None: the
    rest of the options' total; stated, it must be that rest, R1.5).
    deck: the Court deck, top card first (None: the cards no one holds, shuffled by `seed`).
    removed: cards out of the game (the draft's unpicked cards, R1.7.2).
    exiled: the seats with no influence, in the order they went out (None: seat order).
    turn: the acting seat (in the draft: the seat that starts once it is over).
    first_seat: the seat that took the game's first turn (None: `turn`).
    decision: the open decision (None: `turn` chooses its action).
    draws: the cards the next draws take, in order, whatever shuffle came before them (a
    proof's replacement, an Exchange's draw, an Examine's swap): a test can state the card
    drawn. A draw whose card the deck does not hold takes the deck's top card.
    history: public events before the position (claims, blocks, challenges: the kinds of
    HISTORY_KINDS), the story every seat saw: bots `observe` them before their first
    decision, and a table's log tells them. Their form is checked, not their agreement
    with the rest; `of` gives none (a game keeps its moves, not their events).
    factions: with Reformation, each seat's faction (None: dealt from the first seat by
    R12.3); without it, None. almshouse: the Almshouse's coins (R12.10; 0 without
    Reformation).
    """

    options: Options
    hands: tuple[tuple[str, ...], ...]
    revealed: tuple[tuple[str, ...], ...] | None = None
    coins: tuple[int, ...] | None = None
    treasury: int | None = None
    deck: tuple[str, ...] | None = None
    removed: tuple[str, ...] = ()
    exiled: tuple[int, ...] | None = None
    turn: int = 0
    first_seat: int | None = None
    decision: Decision | None = None
    draws: tuple[str, ...] = ()
    history: tuple[Event, ...] = ()
    seed: int = 0
    factions: tuple[str, ...] | None = None
    almshouse: int = 0

    # ----------------------------------------------------------------- reading games

    @classmethod
    def of(cls, game: Game) -> Position:
        """`game`'s full state, hidden cards, deck order and open decision included: the
        read-only accessor for tools (a copy: changing it changes nothing in the game)."""
        phase = game.phase
        decision = None
        if phase == DRAFT:
            decision = Decision(DRAFT, waiting=tuple(game.waiting))
        elif phase != ACTION:
            decision = Decision(
                phase, action=game.action, target=game.target, step=game.step,
                blocker=game.blocker, block_card=game.block_card, challenger=game.challenger,
                waiting=tuple(game.waiting) if phase == RESPOND else None,
                seat=game.waiting[0] if phase == LOSE_PHASE else None,
                reason=game.reason, drawn=tuple(game.drawn), shown=game.shown)
        turn = game.first_seat if phase == DRAFT or game.actor is None else game.actor
        return cls(
            options=game.options,
            hands=tuple(tuple(h) for h in game.hands),
            revealed=tuple(tuple(r) for r in game.revealed),
            coins=tuple(game.coins),
            deck=tuple(reversed(game.deck)),
            removed=tuple(game.removed),
            exiled=tuple(game.exiled) or None,
            turn=turn,
            first_seat=None if game.first_seat == turn else game.first_seat,
            decision=decision,
            draws=tuple(game.draws),
            seed=game.seed,
            factions=tuple(game.factions) or None,
            almshouse=game.almshouse,
        )

    # ----------------------------------------------------------------- making games

    def game(self) -> Game:
        """The Game of this position, ready to play from; PositionError if the rules do not
        allow it (the sentence says what is wrong)."""
        return _Builder(self).build()

    # ----------------------------------------------------------------- the text form

    @classmethod
    def load(cls, path: str) -> Position:
        """The position of a TOML file (the form of `from_dict`) of at most MAX_FILE bytes,
        read and checked against the rules as `game` checks it: a file comes from outside,
        and is refused before it is used."""
        try:
            data = files.parse_toml(files.text(files.read(path, MAX_FILE), path), path)
        except files.FileError as exc:
            raise PositionError(str(exc)) from None
        position = cls.from_dict(data)
        position.game()
        return position

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Position:
        """A position from plain data: `options` (a table of Options; `players` is the
        number of seats unless given, and `two_player_draft` whether the position is in the
        draft or has cards out of the game), `seats` (a list of tables with `hand`,
        `revealed` and `coins`), `treasury`, `deck`, `removed`, `exiled`, `turn`,
        `first_seat`, `draws`, `almshouse`,
        `seed`, and `decision` (a table of Decision's fields). Unknown keys, and values of
        the wrong kind, raise PositionError. Nothing is checked against the rules until
        `game()`."""
        if not isinstance(data, dict):
            raise PositionError("A position must be a table (a map).")
        _known(data, ("options", "seats", "treasury", "deck", "removed", "exiled", "turn",
                      "first_seat", "decision", "draws", "history", "seed", "almshouse"),
               "position")
        seats = data.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
            raise PositionError("seats must be a list of tables, one a seat.")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise PositionError("options must be a table.")
        decision = data.get("decision")
        drafted = bool(data.get("removed")) or (
            isinstance(decision, dict) and decision.get("phase") == DRAFT)
        for index, seat in enumerate(seats):
            _known(seat, ("hand", "revealed", "coins", "faction"), f"seat {index}")
        coins = [seat.get("coins", 2) for seat in seats]
        if decision is not None:
            if not isinstance(decision, dict):
                raise PositionError("decision must be a table.")
            _known(decision, tuple(f.name for f in fields(Decision)), "decision")
            if "phase" not in decision:
                raise PositionError(f"decision needs its phase: one of "
                                    f"{', '.join(DECISION_PHASES)}.")
            decision = Decision(**{k: _tuple(v) if k in ("waiting", "drawn") else v
                                   for k, v in decision.items()})
        deck = data.get("deck")
        hands = tuple(_cards(seat.get("hand", ()), f"seat {i}'s hand")
                      for i, seat in enumerate(seats))
        revealed = tuple(_cards(seat.get("revealed", ()), f"seat {i}'s revealed cards")
                         for i, seat in enumerate(seats))
        deck = None if deck is None else _cards(deck, "deck")
        removed = _cards(data.get("removed", ()), "removed")
        try:
            options = Options.from_dict(
                {"players": len(seats), "two_player_draft": drafted} | options)
        except OptionsError as exc:
            raise PositionError(f"options: {exc}") from None
        return cls(
            options=options,
            hands=hands,
            revealed=revealed,
            coins=tuple(coins),
            treasury=data.get("treasury"),
            deck=deck,
            removed=removed,
            exiled=_tuple(data.get("exiled")),
            turn=data.get("turn", 0),
            first_seat=data.get("first_seat"),
            decision=decision,
            draws=_cards(data.get("draws", ()), "draws"),
            history=_events(data.get("history", [])),
            seed=data.get("seed", 0),
            factions=(tuple(seat.get("faction") for seat in seats)
                      if any("faction" in seat for seat in seats) else None),
            almshouse=data.get("almshouse", 0),
        )

    def to_dict(self) -> dict[str, Any]:
        """The position as plain data, the form `from_dict` reads (defaults left out)."""
        revealed = self.revealed or tuple(() for _ in self.hands)
        coins = self.coins or tuple(2 for _ in self.hands)
        data: dict[str, Any] = {
            "options": {k: v for k, v in self.options.to_dict().items() if v is not None},
            "turn": self.turn,
            "seats": [{"hand": list(h), "revealed": list(r), "coins": c}
                      for h, r, c in zip(self.hands, revealed, coins)],
        }
        if self.factions is not None:
            for seat, faction in zip(data["seats"], self.factions):
                seat["faction"] = faction
        if self.almshouse:
            data["almshouse"] = self.almshouse
        if self.treasury is not None:
            data["treasury"] = self.treasury
        if self.deck is not None:
            data["deck"] = list(self.deck)
        if self.removed:
            data["removed"] = list(self.removed)
        if self.exiled:
            data["exiled"] = list(self.exiled)
        if self.first_seat is not None and self.first_seat != self.turn:
            data["first_seat"] = self.first_seat
        if self.draws:
            data["draws"] = list(self.draws)
        if self.history:
            data["history"] = [e.to_dict() for e in self.history]
        if self.seed:
            data["seed"] = self.seed
        if self.decision is not None:
            data["decision"] = {
                f.name: list(v) if isinstance(v, tuple) else v
                for f in fields(Decision)
                if (v := getattr(self.decision, f.name)) != f.default and v != ()}
        return data


def _known(data: dict[str, Any], keys: tuple[str, ...], what: str) -> None:
    unknown = sorted(str(k) for k in data if k not in keys)
    if unknown:
        raise PositionError(f"Unknown key(s) in the {what}: {', '.join(unknown)} (known: "
                            f"{', '.join(keys)}).")


def _tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _cards(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(c, str) for c in value):
        raise PositionError(f"{what} must be a list of card names.")
    return tuple(value)


def _events(value: Any) -> tuple[Event, ...]:
    """A file's history: a list of tables of Event fields (checked by the builder)."""
    if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
        raise PositionError("history must be a list of tables, one an event.")
    events = []
    for index, event in enumerate(value):
        _known(event, _EVENT_FIELDS, f"history's event {index}")
        if "kind" not in event:
            raise PositionError(f"history's event {index} needs its kind.")
        events.append(Event(**{k: _tuple(v) if k == "cards" else v
                               for k, v in event.items()}))
    return tuple(events)


def _names(cards: Iterable[str] | None) -> str:
    return ", ".join(cards) if cards else "none"


class _Builder:
    """Checks a Position against the rules, then makes its Game (Position.game)."""

    def __init__(self, position: Position) -> None:
        self.p = position
        self.options = position.options
        self.decision = position.decision
        options = position.options
        self.actions = (C.ALLOWED[options.variant, options.reformation]
                        if isinstance(options, Options) else frozenset())

    def fail(self, sentence: str) -> NoReturn:
        raise PositionError(sentence)

    def build(self) -> Game:
        self.check_shapes()
        p = self.p
        self.n = self.options.players
        self.cast = C.CAST[self.options.variant]
        self.hands = [list(h) for h in p.hands]
        self.revealed = ([list(r) for r in p.revealed] if p.revealed is not None
                         else [[] for _ in range(self.n)])
        self.coins = list(p.coins) if p.coins is not None else [2] * self.n
        self.phase = self.decision.phase if self.decision else ACTION
        g = self.g = Game._blank(self.options, p.seed)
        self.check_table()
        self.check_cards()
        self.check_factions()
        self.check_coins()
        alive = [bool(h) for h in self.hands]
        if self.phase == DRAFT:
            alive = [True] * self.n
        self.alive = alive
        self.check_turn()
        self.check_history()
        g.hands = self.hands
        g.revealed = self.revealed
        g.coins = self.coins
        g.treasury = self.options.treasury - sum(self.coins) - self.p.almshouse
        g.almshouse = self.p.almshouse
        g.alive = alive
        g.alive_mask = sum(1 << s for s in range(self.n) if alive[s])
        g.exiled = self.check_exiled()
        g.deck = list(reversed(self.deck))
        g.removed = list(self.p.removed)
        g.draws = list(self.p.draws)
        first = self.p.first_seat
        g.first_seat = self.p.turn if first is None else self._seat(first, "first_seat")
        if self.options.reformation:
            given = self.p.factions
            g.factions = list(given) if given is not None else C.faction_deal(self.n, g.first_seat)
        self.open_decision(g)
        return g

    # ----------------------------------------------------------------- the table

    def check_shapes(self) -> None:
        """Every field holds the kind of value it should (a Position made in Python is not
        read from a file, whose reading checks the same)."""
        p, d = self.p, self.decision
        if not isinstance(self.options, Options):
            self.fail("options must be an Options.")
        rows = [("hands", p.hands)] + ([("revealed", p.revealed)] if p.revealed else [])
        for name, value in rows:
            if not isinstance(value, (list, tuple)):
                self.fail(f"{name} must be a list, one entry a seat.")
            for seat, cards in enumerate(value):
                _cards(cards, f"seat {seat}'s {name}")
        if p.deck is not None:
            _cards(p.deck, "deck")
        for name, cards in (("removed", p.removed), ("draws", p.draws),
                            ("the decision's drawn", d.drawn if d else ())):
            _cards(cards, name)
        for name, numbers in (("coins", p.coins), ("exiled", p.exiled),
                              ("the decision's waiting", d.waiting if d else None)):
            if numbers is not None and (not isinstance(numbers, (list, tuple)) or not all(
                    type(v) is int for v in numbers)):
                self.fail(f"{name} must be a list of whole numbers.")
        if type(p.seed) is not int or not 0 <= p.seed < 2**64:
            self.fail(f"seed must be a whole number from 0 to 2**64 - 1 (a game's seeds), "
                      f"not {p.seed!r}.")
        if d is not None and not isinstance(d, Decision):
            self.fail("decision must be a Decision.")

    def check_table(self) -> None:
        p, n = self.p, self.n
        for name, rows in (("hands", p.hands), ("revealed", p.revealed), ("coins", p.coins)):
            if rows is not None and len(rows) != n:
                self.fail(f"{name} has {len(rows)} entries; the table has {n} seats.")
        if self.phase not in (ACTION,) + DECISION_PHASES:
            self.fail(f"The decision's phase must be one of {', '.join(DECISION_PHASES)} "
                      f"(or no decision: the turn's action), not {self.phase!r}.")
        if self.phase == DRAFT and not self.options.draft:
            self.fail("Only a two-player game dealt by the draft (two_player_draft) can be "
                      "in the draft.")

    def check_cards(self) -> None:
        p, n = self.p, self.n
        named: list[tuple[str, Sequence[str]]] = [("draws", p.draws), ("removed", p.removed)]
        named += [(f"seat {s}'s hand", h) for s, h in enumerate(self.hands)]
        named += [(f"seat {s}'s revealed cards", r) for s, r in enumerate(self.revealed)]
        if p.deck is not None:
            named.append(("deck", p.deck))
        d = self.decision
        if d is not None:
            named.append(("the decision's drawn cards", d.drawn))
            named += [("the decision's " + k, (v,)) for k, v in
                      (("block_card", d.block_card), ("shown", d.shown)) if v is not None]
        for what, cards in named:
            for card in cards:
                if card not in self.cast:
                    self.fail(f"{what}: {card!r} is not a character of the "
                              f"{self.options.variant} game ({_names(self.cast)}).")
        if self.phase == DRAFT:
            return self.check_draft_cards()
        for s in range(n):
            held = len(self.hands[s]) + len(self.revealed[s])
            if held != 2:
                self.fail(f"Seat {s} has {len(self.hands[s])} face-down and "
                          f"{len(self.revealed[s])} face-up cards; every seat has 2 in all "
                          f"(R2.1).")
        if self.options.draft and not p.removed:
            self.fail("A two-player game dealt by the draft has 8 cards out of the game "
                      "once the draft is over: list them (removed), or set "
                      "two_player_draft to false in the options.")
        if not self.options.draft and p.removed:
            self.fail("Cards are out of the game only after the two-player draft (R1.7.2): "
                      "removed must be empty.")
        copies = C.copies_in_game(n, self.options.draft)
        used = Counter(c for cards in self.hands + self.revealed for c in cards)
        used.update(p.removed)
        if d is not None:
            used.update(d.drawn)
        if p.deck is None:
            rest = Counter({c: copies for c in self.cast})
            rest.subtract(used)
            over = sorted(c for c, k in rest.items() if k < 0)
            if over:
                self.fail(self._too_many(over, used, copies))
            deck = [c for c in self.cast for _ in range(rest[c])]
            _shuffle(deck, self.g.rng)
            self.deck = deck
        else:
            used.update(p.deck)
            wrong = sorted(c for c in self.cast if used[c] != copies)
            if wrong:
                self.fail(self._too_many(wrong, used, copies, whole=True))
            self.deck = list(p.deck)

    def _too_many(self, cards: Iterable[str], used: Counter[str], copies: int,
                  whole: bool = False) -> str:
        counted = ", ".join(f"{used[c]} {c}" for c in cards)
        where = "with the deck" if whole else "without the deck"
        return (f"The cards count {counted} {where}; a game of {self.n} players "
                f"{'with the draft ' if self.options.draft else ''}has {copies} of each "
                f"character (R1.1, R1.2).")

    def check_draft_cards(self) -> None:
        p = self.p
        if any(self.revealed[s] for s in range(self.n)) or p.removed:
            self.fail("In the draft no card is face up or out of the game yet.")
        for s, hand in enumerate(self.hands):
            if len(hand) > 1:
                self.fail(f"Seat {s} holds {len(hand)} cards in the draft: it picks one from "
                          f"its set (R1.7.1).")
        third = Counter(p.deck if p.deck is not None else self.cast)
        if third != Counter(self.cast):
            self.fail(f"In the draft the deck is the third set, one of each character "
                      f"({_names(self.cast)}), not {_names(p.deck)}.")
        deck = list(p.deck if p.deck is not None else self.cast)
        if p.deck is None:
            _shuffle(deck, self.g.rng)
        self.deck = deck

    def check_factions(self) -> None:
        """R12.2: one faction a seat, by name, and only at a Reformation table; the Almshouse
        likewise (R12.10)."""
        factions, almshouse = self.p.factions, self.p.almshouse
        if not self.options.reformation:
            if factions is not None or almshouse != 0:
                self.fail("Factions and the Almshouse exist only with the reformation option "
                          "(R12.1).")
            return
        if factions is not None:
            if not isinstance(factions, (list, tuple)) or len(factions) != self.n:
                self.fail(f"factions must name one faction a seat ({self.n} seats).")
            for seat, faction in enumerate(factions):
                if faction not in C.FACTIONS:
                    self.fail(f"Seat {seat}'s faction must be one of {_names(C.FACTIONS)}, not "
                              f"{faction!r}.")
        if type(almshouse) is not int or almshouse < 0:
            self.fail(f"The Almshouse holds a whole number of coins, 0 or more, not "
                      f"{almshouse!r}.")

    def check_coins(self) -> None:
        for s, coins in enumerate(self.coins):
            if type(coins) is not int or coins < 0:
                self.fail(f"Seat {s}'s coins must be a whole number of 0 or more, not "
                          f"{coins!r}.")
            if not self.hands[s] and coins and self.phase != DRAFT:
                self.fail(f"Seat {s} is exiled (no face-down card) and holds {coins} coins; "
                          f"an exiled seat's coins go back to the treasury (R2.2).")
        seats = sum(self.coins)
        almshouse = self.p.almshouse
        total = seats + almshouse
        alms, rules = "", "R1.5"
        if self.options.reformation:
            alms, rules = f" and the Almshouse {almshouse}", "R1.5, R12.10.4"
        if total > self.options.treasury:
            self.fail(f"The seats hold {seats} coins{alms}; the game has "
                      f"{self.options.treasury} in all ({rules}).")
        treasury = self.p.treasury
        if treasury is not None and treasury != self.options.treasury - total:
            self.fail(f"The treasury holds {treasury!r} coins and the seats {seats}{alms}: "
                      f"the game has "
                      f"{self.options.treasury} in all ({rules}), so the treasury holds "
                      f"{self.options.treasury - total}.")

    def check_history(self) -> None:
        """Each event of the history is a public kind with fields of the right kinds."""
        if not isinstance(self.p.history, (list, tuple)):
            self.fail("history must be a list of events.")
        for index, e in enumerate(self.p.history):
            where = f"history's event {index} ({getattr(e, 'kind', e)!r})"
            if not isinstance(e, Event) or e.kind not in HISTORY_KINDS:
                self.fail(f"{where}: an event of the history is one of the public kinds: "
                          f"{', '.join(HISTORY_KINDS)}.")
            for name in ("seat", "target"):
                value = getattr(e, name)
                if value is not None and (type(value) is not int or not 0 <= value < self.n):
                    self.fail(f"{where}: {name} must be a seat from 0 to {self.n - 1}.")
            cards = ((e.card,) if e.card is not None else ()) + tuple(e.cards or ())
            if (e.cards is not None and not isinstance(e.cards, tuple)) or any(
                    c not in self.cast for c in cards):
                self.fail(f"{where}: its cards must be characters of the "
                          f"{self.options.variant} game ({_names(self.cast)}).")
            if e.faction is not None and e.faction not in C.FACTIONS:
                self.fail(f"{where}: faction must be one of {_names(C.FACTIONS)}.")
            if e.action is not None and e.action not in self.actions:
                self.fail(f"{where}: no action {e.action!r} in this variant.")
            if e.amount is not None and (type(e.amount) is not int or e.amount < 0):
                self.fail(f"{where}: amount must be a whole number of 0 or more.")
            if e.reason is not None and e.reason not in FAIL_REASONS:
                self.fail(f"{where}: reason must be one of {', '.join(FAIL_REASONS)}.")

    def check_exiled(self) -> list[int]:
        out = [s for s in range(self.n) if not self.alive[s]]
        order = self.p.exiled
        if order is None:
            return out
        if (not all(type(s) is int for s in order) or sorted(order) != out
                or len(set(order)) != len(order)):
            self.fail(f"exiled lists the seats with no face-down card, {out}, in the order "
                      f"they went out; not {list(order)}.")
        return list(order)

    def check_turn(self) -> None:
        turn, n = self.p.turn, self.n
        if type(turn) is not int or not 0 <= turn < n:
            self.fail(f"turn must be a seat from 0 to {n - 1}, not {turn!r}.")
        living = sum(self.alive)
        if self.phase == OVER:
            if living != 1:
                self.fail(f"A game is over when one seat has influence; {living} have.")
        elif living < 2:
            self.fail("A game goes on while two seats or more have influence; with one "
                      "left it is over (decision phase \"over\").")
        elif not self.alive[turn]:
            self.fail(f"It cannot be seat {turn}'s turn: it is exiled.")

    # ----------------------------------------------------------------- the decision

    def open_decision(self, g: Game) -> None:
        d, turn = self.decision, self.p.turn
        if d is None:
            g.actor = turn
            g.phase, g.waiting = ACTION, (turn,)
            return
        if d.phase == DRAFT:
            return self.open_draft(g, d)
        g.actor = turn
        if d.phase == OVER:  # the last turn's claims and losses stay on the table
            if d.action is not None:
                self.check_action(d)
                g.action, g.target = d.action, d.target
                self.open_turn_so_far(g, d)
            g.winner = self.alive.index(True)
            g.phase, g.waiting = OVER, ()
            return
        self.check_action(d)
        g.action, g.target = d.action, d.target
        self.open_turn_so_far(g, d)
        {RESPOND: self.open_respond, PROVE_PHASE: self.open_prove, LOSE_PHASE: self.open_loss,
         KEEP_PHASE: self.open_keep, SHOW_PHASE: self.open_show,
         DECIDE_PHASE: self.open_examine_decision}[d.phase](g, d)
        g.phase = d.phase

    def check_action(self, d: Decision) -> None:
        turn = self.p.turn
        opening = [a for a in C.ACTIONS if a in self.actions and a not in (C.INCOME, C.CONVERT)]
        if d.action not in opening:
            quiet = "Income and Conversion open" if self.options.reformation else "Income opens"
            self.fail(f"The decision's action must be one of {_names(opening)} ({quiet} no "
                      f"decision), not {d.action!r}.")
        if d.action == C.EMBEZZLE and self.p.almshouse < 1:
            self.fail("An Embezzlement needs a coin in the Almshouse (R12.11.2).")
        if d.action in C.TARGETED:
            if type(d.target) is not int or not 0 <= d.target < self.n or d.target == turn:
                self.fail(f"{d.action} needs a target: another seat, not {d.target!r}.")
            factions = self.g.factions  # divided now, so divided when it was declared:
            if divided(self.g) and factions[d.target] == factions[turn]:
                self.fail(f"On a divided table {d.action} names a player of the other "
                          f"faction (R12.6); seat {d.target} is of seat {turn}'s.")
        elif d.target is not None:
            self.fail(f"{d.action} has no target.")

    def _seat(self, seat: object, what: str) -> int:
        if type(seat) is not int or not 0 <= seat < self.n:
            self.fail(f"The decision's {what} must be a seat from 0 to {self.n - 1}, not "
                      f"{seat!r}.")
        return seat

    def _others(self, seat: int) -> tuple[int, ...]:
        """Seats with influence other than `seat`, in turn order after the actor."""
        n, start = self.n, self.p.turn
        return tuple(s for s in ((start + i) % n for i in range(n))
                     if self.alive[s] and s != seat)

    def open_turn_so_far(self, g: Game, d: Decision) -> None:
        """What the turn left behind before the open decision, which views show: the last
        claim answered (step, and the claimant and claim it implies), a block, a challenge,
        a loss to a challenge (reason)."""
        variant, action = self.options.variant, d.action
        assert action is not None  # check_action passed it
        if d.step is not None and d.step not in STEPS:
            self.fail(f"The decision's step must be one of {', '.join(STEPS)}, not "
                      f"{d.step!r}.")
        if d.step == CHALLENGE_ACTION and action == C.EMBEZZLE:
            g.claimant, g.claim = self.p.turn, None  # an inverse claim (R12.11.1)
        elif d.step == CHALLENGE_ACTION:
            claim = C.claim_of(action, variant)
            if claim is None:
                self.fail(f"{d.action} claims no character: there is nothing to challenge "
                          f"(step {CHALLENGE_ACTION}).")
            g.claimant, g.claim = self.p.turn, claim
        elif d.step == BLOCK_STEP and d.action not in (C.FOREIGN_AID, C.ASSASSINATE,
                                                        C.STEAL):
            self.fail(f"{d.action} cannot be blocked (R4): no step {BLOCK_STEP}.")
        if d.step == CHALLENGE_BLOCK:
            blockers = C.blockers_of(action, variant)
            if d.block_card not in blockers:
                self.fail(f"{d.action} is blocked by {_names(blockers) or 'no one'}, not by "
                          f"{d.block_card!r} (block_card).")
            blocker = self._seat(d.blocker, "blocker")
            if blocker == self.p.turn or (d.action != C.FOREIGN_AID and blocker != d.target):
                self.fail(f"{d.action} may be blocked by "
                          f"{'another seat' if d.action == C.FOREIGN_AID else 'its target'}"
                          f" (R4), not by seat {blocker}.")
            g.blocker, g.block_card = blocker, d.block_card
            g.claimant, g.claim = blocker, d.block_card
        elif d.blocker is not None or d.block_card is not None:
            self.fail(f"A block (blocker, block_card) goes with step {CHALLENGE_BLOCK}.")
        g.step = d.step
        if d.challenger is not None:
            g.challenger = self._seat(d.challenger, "challenger")
        if d.reason is not None and d.phase == OVER:
            if d.reason not in LOSS_REASONS:
                self.fail(f"A loss's reason must be one of {', '.join(LOSS_REASONS)}, not "
                          f"{d.reason!r}.")
            g.reason = d.reason
        elif d.reason is not None and d.phase != LOSE_PHASE:
            if d.reason != CHALLENGE or d.challenger is None:
                self.fail("Before the open decision a seat can only have lost a card to a "
                          "challenge (reason \"challenge\", with its challenger).")
            g.reason = d.reason

    def open_respond(self, g: Game, d: Decision) -> None:
        if d.step is None:
            self.fail(f"A response window answers a step: one of {', '.join(STEPS)}.")
        if not self.alive[self.p.turn] or (d.target is not None and not self.alive[d.target]):
            self.fail("A window stays open only while the actor and its target have "
                      "influence (R5.2).")
        if d.step == BLOCK_STEP and d.action == C.FOREIGN_AID:
            may = self._others(self.p.turn)
            if divided(g):  # R12.7: not the actor's own faction
                may = tuple(s for s in may if g.factions[s] != g.factions[self.p.turn])
        elif d.step == BLOCK_STEP:
            assert d.target is not None  # check_action: the other blockables are targeted
            may = (d.target,)
        else:
            assert g.claimant is not None  # open_turn_so_far set the challenged claim's
            may = self._others(g.claimant)
        waiting = may if d.waiting is None else tuple(d.waiting)
        if not waiting or set(waiting) - set(may) or len(set(waiting)) != len(waiting):
            self.fail(f"The seats that may answer this window are {list(may)}; waiting "
                      f"must be some of them (at least one), not {list(waiting)}.")
        g.waiting = tuple(s for s in may if s in waiting)

    def open_prove(self, g: Game, d: Decision) -> None:
        if d.step not in (CHALLENGE_ACTION, CHALLENGE_BLOCK):
            self.fail(f"A claimant proves a challenged claim: step must be "
                      f"{CHALLENGE_ACTION} or {CHALLENGE_BLOCK}, not {d.step!r}.")
        challenger, claimant = d.challenger, g.claimant
        assert claimant is not None  # open_turn_so_far set it with the challenged step
        if challenger is None or challenger == claimant or not self.alive[challenger]:
            self.fail(f"A challenge needs its challenger: a seat with influence other than "
                      f"the claimant, seat {claimant}; not {challenger!r}.")
        if not self.alive[claimant]:
            self.fail(f"The claimant, seat {claimant}, is exiled.")
        g.waiting = (claimant,)

    def open_loss(self, g: Game, d: Decision) -> None:
        if d.reason not in LOSS_REASONS:
            self.fail(f"A loss's reason must be one of {', '.join(LOSS_REASONS)}, not "
                      f"{d.reason!r}.")
        seat = self._seat(d.seat, "seat (who loses)")
        if len(self.hands[seat]) != 2:
            self.fail(f"Seat {seat} chooses which card to lose only with two face-down "
                      f"cards; with one it is turned up at once (R2.1).")
        if d.reason != CHALLENGE:
            if d.action != d.reason or d.target != seat:
                self.fail(f"A loss to {d.reason} is the target's of a {d.reason} (action "
                          f"{d.reason!r}, target {seat}).")
            resume = END
        else:
            if d.step not in (CHALLENGE_ACTION, CHALLENGE_BLOCK):
                self.fail("A loss to a challenge needs the challenged step: "
                          f"{CHALLENGE_ACTION} or {CHALLENGE_BLOCK}.")
            challenger = d.challenger
            if challenger is None or challenger == g.claimant:
                self.fail(f"A loss to a challenge needs its challenger, a seat other than "
                          f"the claimant (seat {g.claimant}).")
            if seat not in (g.claimant, challenger):
                self.fail(f"After a challenge the challenger (seat {challenger}) or the "
                          f"claimant (seat {g.claimant}) loses, not seat {seat}.")
            assert d.step is not None  # one of the two challenged steps, checked above
            resume = _AFTER_CHALLENGE[d.step, seat == challenger]
        g.reason, g.resume, g.waiting = d.reason, resume, (seat,)

    def open_keep(self, g: Game, d: Decision) -> None:
        if d.action != C.EXCHANGE:
            self.fail(f"Cards are kept after an exchange, not after {d.action}.")
        k = C.exchange_draw(self.options.variant)
        if len(d.drawn) != k:
            self.fail(f"An Exchange draws {k} card{'s' * (k > 1)} in this variant (R4.3); "
                      f"drawn holds {len(d.drawn)}.")
        g.drawn = list(d.drawn)
        g.keep_count = len(self.hands[self.p.turn])
        g.waiting = (self.p.turn,)

    def open_show(self, g: Game, d: Decision) -> None:
        if d.action != C.EXAMINE:
            self.fail(f"A card is shown to an Examine, not to {d.action}.")
        target = d.target
        assert target is not None  # check_action: an Examine is targeted
        if len(self.hands[target]) != 2:
            self.fail(f"Seat {target} chooses which card to show only with two face-down "
                      f"cards; with one, that card is shown at once (R4.4).")
        g.waiting = (target,)

    def open_examine_decision(self, g: Game, d: Decision) -> None:
        if d.action != C.EXAMINE:
            self.fail(f"The Inquisitor decides on a shown card after an Examine, not after "
                      f"{d.action}.")
        target = d.target
        assert target is not None  # check_action: an Examine is targeted
        if d.shown not in self.hands[target]:
            self.fail(f"The shown card must be one of seat {target}'s face-down cards "
                      f"({_names(self.hands[target])}), not {d.shown!r}.")
        g.shown = d.shown
        g.waiting = (self.p.turn,)

    def open_draft(self, g: Game, d: Decision) -> None:
        unpicked = tuple(s for s in range(self.n) if not self.hands[s])
        waiting = unpicked if d.waiting is None else tuple(d.waiting)
        if sorted(waiting) != list(unpicked) or not waiting:
            self.fail(f"In the draft the seats yet to pick are those with no card: "
                      f"{list(unpicked) or 'none (the draft is over)'}.")
        first = self.p.turn
        expected = [1 if s == first else 2 for s in range(self.n)]
        if self.coins != expected:
            self.fail(f"In the draft the first seat ({first}) holds 1 coin and the other 2 "
                      f"(R1.7.1), not {self.coins}.")
        g.draft_sets = [self.cast] * self.n
        g.phase, g.waiting = DRAFT, waiting
