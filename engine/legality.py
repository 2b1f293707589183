"""Legality: which moves a seat may make now, and why any other move is refused.

One function for both sides. Everything here reads only what the mover may see: the public
table (coins, who is alive, the open decision) and the mover's own private cards (`hands`,
`drawn`, `draft_sets` at the mover's seat). So the same code runs on the server's Game and on
the View a client was sent, and gives the same answer (a property test holds it to that).

A table `s` here is anything with the attributes of `Table`: a Game, or a View.

What each phase asks is written once, in `DECISIONS` at the end: the moves it allows, why
it refuses any other, and what R10 plays for a seat whose clock ran out.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import NamedTuple, Protocol

from . import cards as C
from .errors import IllegalMove
from .moves import (
    BLOCK, CHALLENGE, CONCEDE, DRAFT_PICK, EXAMINE_DECISION, KEEP, LOSE, PASS, PROVE, SHOW,
    Move, fields_of, malformed, move,
)
from .options import Options

# Phases: what kind of decision is open.
DRAFT = "draft"            # both seats pick a first card (R1.7)
ACTION = "action"          # the acting seat declares its action (R3.2)
RESPOND = "respond"        # a response window: challenge or block, or pass (R5 steps 2–4)
PROVE_PHASE = "prove"      # the challenged claimant proves or concedes (R6.2)
LOSE_PHASE = "lose"        # a seat chooses the card to lose (R2.1, R5.3)
KEEP_PHASE = "keep"        # the exchanger keeps cards (R4.3)
SHOW_PHASE = "show"        # the Examine target shows a card (R4.4)
DECIDE_PHASE = "examine_decision"  # the Inquisitor keeps or swaps the shown card (R4.4)
OVER = "over"              # the game has ended (R2.3)
PHASES = (DRAFT, ACTION, RESPOND, PROVE_PHASE, LOSE_PHASE, KEEP_PHASE, SHOW_PHASE,
          DECIDE_PHASE, OVER)

# Response window steps (R5).
CHALLENGE_ACTION = "challenge_action"
BLOCK_STEP = "block"
CHALLENGE_BLOCK = "challenge_block"
STEPS = (CHALLENGE_ACTION, BLOCK_STEP, CHALLENGE_BLOCK)

_CHALLENGE_OR_PASS = (move(CHALLENGE), move(PASS))
_PROVE_OR_CONCEDE = (move(PROVE), move(CONCEDE))
_CONCEDE_ONLY = (move(CONCEDE),)
_KEEP_OR_SWAP = (move(EXAMINE_DECISION, swap=False), move(EXAMINE_DECISION, swap=True))

_turn_cache: dict[tuple[str, int, int, int], tuple[Move, ...]] = {}
_reformation_cache: dict[tuple[str, int, int, int, int, int, bool], tuple[Move, ...]] = {}
_block_cache: dict[tuple[str, str], tuple[Move, ...]] = {}
_card_cache: dict[tuple[str, ...], tuple[Move, ...]] = {}
_keep_cache: dict[tuple[int | str, ...], tuple[Move, ...]] = {}


class Table(Protocol):
    """What legality reads of a table: the server's Game and a viewer's View both have it.
    Read-only, so a game's lists and a view's tuples both fit; the mover's own hand and
    draft set are never None in either."""

    @property
    def options(self) -> Options: ...
    @property
    def phase(self) -> str: ...
    @property
    def waiting(self) -> tuple[int, ...]: ...
    @property
    def opened(self) -> int: ...
    @property
    def state_id(self) -> int: ...
    @property
    def coins(self) -> Sequence[int]: ...
    @property
    def alive(self) -> Sequence[bool]: ...
    @property
    def alive_mask(self) -> int: ...
    @property
    def hands(self) -> Sequence[Sequence[str] | None]: ...
    @property
    def drawn(self) -> Sequence[str]: ...
    @property
    def draft_sets(self) -> Sequence[Sequence[str] | None]: ...
    @property
    def step(self) -> str | None: ...
    @property
    def action(self) -> str | None: ...
    @property
    def claim(self) -> str | None: ...
    @property
    def keep_count(self) -> int | None: ...
    @property
    def actor(self) -> int | None: ...
    @property
    def factions(self) -> Sequence[str]: ...
    @property
    def almshouse(self) -> int: ...


def divided(s: Table) -> bool:
    """Whether the table is divided (R12.5): the seats with influence include both
    factions. Worked out from the factions and who is alive whenever it is asked, never
    kept; a game without Reformation has no factions and is never divided."""
    factions = s.factions
    if not factions:
        return False
    alive = s.alive
    first = None
    for seat, faction in enumerate(factions):
        if alive[seat]:
            if first is None:
                first = faction
            elif faction != first:
                return True
    return False


def _same_faction(s: Table, seat: int, other: int) -> bool:
    """R12.6, R12.7: `seat` may not aim at or block `other`, of its own faction, now."""
    factions = s.factions
    return bool(factions) and factions[seat] == factions[other] and divided(s)


def legal_moves(s: Table, seat: int) -> tuple[Move, ...]:
    """Every move `seat` may make now, fully enumerated; () if it owes no decision."""
    if seat not in s.waiting:
        return ()
    return moves_in(s.options)[s.phase](s, seat)


def check_stale(s: Table, seat: int, state_id: int | None) -> None:
    """Refuse a move made against a state older than the decision it answers.

    A seat answering an open window may have seen other seats pass since the window opened:
    that is still the decision it answered, so it stands. A move made before the seat's
    decision opened (or after its decision closed, like a second challenge) is stale.
    """
    if state_id is None or state_id == s.state_id:
        return
    if type(state_id) is not int or state_id > s.state_id:
        raise IllegalMove("stale_state", f"There is no state {state_id!r} yet.")
    if seat not in s.waiting or state_id < s.opened:
        raise IllegalMove(
            "stale_state",
            f"The game has moved on since state {state_id} (it is at {s.state_id}).",
        )


def check(s: Table, seat: int, m: Move, state_id: int | None = None) -> None:
    """Raise IllegalMove unless `m` is legal for `seat` now, made against `state_id`."""
    if state_id is not None and state_id != s.state_id:
        check_stale(s, seat, state_id)
    if m not in legal_moves(s, seat):
        raise explain(s, seat, m)


def explain(s: Table, seat: object, m: object) -> IllegalMove:
    """Why `m` is not a legal move for `seat` now: the error to raise for an illegal move.
    The first failure in the order docs/PROTOCOL.md gives is the answer: the move's form
    (`moves.malformed`), the game being over, the fields its kind takes and the variant, the
    seat's influence and turn, the open phase's own reasons last. Staleness is judged before
    this, by `check_stale`; the server reads every move with `Move.from_dict`, which judges
    its form before that, so on the wire the form comes first, as the spec says."""
    form = malformed(m)
    if form is not None:
        return form
    assert isinstance(m, Move)  # malformed() passes nothing else
    if s.phase == OVER:
        return IllegalMove("game_over", "The game is over.")
    if type(seat) is not int or not 0 <= seat < s.options.players:
        return IllegalMove("bad_seat", f"There is no seat {seat!r} at this table.")
    wanted = fields_of(m.kind)
    for name in ("target", "card", "cards", "swap"):
        if (getattr(m, name) is not None) != (name in wanted):
            code = "bad_target" if name == "target" else "bad_move"
            need = "needs" if name in wanted else "takes no"
            return IllegalMove(code, f"A {m.kind} move {need} {name!r}.")
    variant = s.options.variant
    if m.kind in C.ACTIONS and m.kind not in C.ALLOWED[variant, s.options.reformation]:
        return IllegalMove("not_in_variant", f"There is no {m.kind} in this game.")
    for card in (m.card,) if m.card is not None else m.cards or ():
        if card not in C.CAST[variant]:
            return IllegalMove("not_in_variant", f"There is no {card} in this game.")
    if m.target is not None and not 0 <= m.target < s.options.players:
        return IllegalMove("bad_target", f"There is no seat {m.target} at this table.")
    if m.target == seat and m.kind != C.CONVERT:  # R3.5; R12.9.1 may convert oneself
        return IllegalMove("bad_target", "You cannot target yourself.")
    if not s.alive[seat]:
        return IllegalMove("exiled", "You have no influence left.")
    if seat not in s.waiting:
        actor = s.actor
        if (m.kind == BLOCK and s.step == BLOCK_STEP and s.phase == RESPOND
                and actor is not None and actor != seat and _same_faction(s, seat, actor)):
            return IllegalMove("same_faction", "On a divided table you may not block a "
                                               "player of your own faction.")
        return IllegalMove("not_your_turn", "You have no decision to make now.")
    return _REFUSE[s.phase](s, seat, m)


def default_move(s: Table, seat: int, rng: random.Random) -> Move:
    """What the server plays for a seat whose deadline passed (R10).

    A response passes; a turn takes Income (never a Conversion or an Embezzlement,
    R12.17.1), or Coups the next seat in turn order that may be aimed at when 10+ coins
    force it (R12.17.2); the card to lose, the card to show and the draft pick are drawn with
    `rng` (the caller's, never the game's: replays must not depend on the clock); an Exchange
    keeps the original cards; the Inquisitor lets the target keep the card. A challenged
    claim R10 does not name: it is proved when the seat can (that loses it nothing) and
    conceded otherwise. Each phase's default is its row of DECISIONS.
    """
    moves = legal_moves(s, seat)
    if not moves:
        raise IllegalMove("not_your_turn", "This seat owes no decision.")
    return _DEFAULT[s.phase](s, seat, moves, rng)


# ------------------------------------------------------------------ phase by phase
# For each phase: its moves (s, seat), its refusal of a move not among them (s, seat, move;
# after explain's checks common to every phase), and R10's default (s, seat, moves, rng).


def _action_moves(s: Table, seat: int) -> tuple[Move, ...]:
    coins = s.coins[seat]
    bucket = 3 if coins >= C.MUST_COUP else 2 if coins >= 7 else 1 if coins >= 3 else 0
    key = (s.options.variant, seat, bucket, s.alive_mask)
    moves = _turn_cache.get(key)
    if moves is None:
        targets = [t for t, a in enumerate(s.alive) if a and t != seat]
        moves = _turn_cache[key] = _turn_moves(s.options.variant, bucket, targets)
    return moves


def _reformation_turn(s: Table, seat: int) -> tuple[Move, ...]:
    """A turn at a Reformation table: the base game's actions on the seats R12.6 allows,
    then the Conversions the seat can pay for (R12.9) and an Embezzlement while the
    Almshouse holds coins (R12.11); with 10+ coins only the Coups (R3.4)."""
    coins = s.coins[seat]
    bucket = 3 if coins >= C.MUST_COUP else 2 if coins >= 7 else 1 if coins >= 3 else 0
    alive = s.alive
    factions = s.factions
    split = divided(s)
    aims = sum(1 << t for t, a in enumerate(alive)
               if a and t != seat and not (split and factions[t] == factions[seat]))
    key = (s.options.variant, seat, bucket, s.alive_mask, aims, min(coins, 2), s.almshouse > 0)
    moves = _reformation_cache.get(key)
    if moves is None:
        targets = [t for t in range(len(alive)) if aims >> t & 1]
        moves = _turn_moves(s.options.variant, bucket, targets)
        if bucket != 3:
            others = [t for t, a in enumerate(alive) if a and t != seat]
            converts = [t for t in [seat] + others if C.convert_cost(seat, t) <= coins]
            moves += tuple(move(C.CONVERT, t) for t in converts)
            if s.almshouse > 0:
                moves += (move(C.EMBEZZLE),)
        _reformation_cache[key] = moves
    return moves


def _turn_moves(variant: str, bucket: int, targets: list[int]) -> tuple[Move, ...]:
    """The base game's actions for a coin bucket, aimed at `targets`."""
    coups = [move(C.COUP, t) for t in targets]
    if bucket == 3:
        return tuple(coups)  # R3.4
    moves = [move(C.INCOME), move(C.FOREIGN_AID), move(C.TAX)]
    if bucket == 2:
        moves += coups
    if bucket >= 1:
        moves += [move(C.ASSASSINATE, t) for t in targets]
    moves += [move(C.STEAL, t) for t in targets]
    moves.append(move(C.EXCHANGE))
    if variant == C.INQUISITOR_VARIANT:
        moves += [move(C.EXAMINE, t) for t in targets]
    return tuple(moves)


def _block_moves(action: str, variant: str) -> tuple[Move, ...]:
    key = (action, variant)
    moves = _block_cache.get(key)
    if moves is None:
        blocks = tuple(move(BLOCK, card=c) for c in C.blockers_of(action, variant))
        moves = _block_cache[key] = blocks + (move(PASS),)
    return moves


def _card_moves(kind: str, cards: Sequence[str]) -> tuple[Move, ...]:
    key = (kind, *cards)
    moves = _card_cache.get(key)
    if moves is None:
        distinct = C.sort_cards(set(cards))
        moves = _card_cache[key] = tuple(move(kind, card=c) for c in distinct)
    return moves


def _keep_moves(cards: tuple[str, ...], count: int) -> tuple[Move, ...]:
    hand = C.sort_cards(cards)
    key: tuple[int | str, ...] = (count, *hand)
    moves = _keep_cache.get(key)
    if moves is None:
        combos = sorted(set(combinations(hand, count)))
        moves = _keep_cache[key] = tuple(move(KEEP, cards=k) for k in combos)
    return moves


def _refuse_action(s: Table, seat: int, m: Move) -> IllegalMove:
    kind = m.kind
    if kind not in C.ACTIONS:
        return IllegalMove("not_allowed_now", "It is your turn: choose an action.")
    coins = s.coins[seat]
    if coins >= C.MUST_COUP and kind != C.COUP:
        return IllegalMove("must_coup", f"With {coins} coins you must Coup.")
    if kind == C.EMBEZZLE and s.almshouse == 0:
        return IllegalMove("almshouse_empty", "The Almshouse holds no coin to embezzle.")
    cost = C.convert_cost(seat, m.target) if kind == C.CONVERT else C.COST.get(kind, 0)
    if coins < cost:
        return IllegalMove("cannot_afford", f"{kind} costs {cost} coins; you have {coins}.")
    target = m.target
    if target is not None and not s.alive[target]:
        return IllegalMove("bad_target", "That player is exiled.")
    if kind in C.TARGETED and target is not None and _same_faction(s, seat, target):
        return IllegalMove("same_faction", "On a divided table you may aim only at a player "
                                           "of the other faction.")
    return IllegalMove("bad_move", "That move is malformed.")


def _income_or_forced_coup(s: Table, seat: int, moves: tuple[Move, ...], rng: random.Random) -> Move:
    """Income, or a Coup on the next seat in turn order that may be aimed at when 10+ coins
    force it (R3.4, R12.17.2): the first Coup offered after the seat's own number."""
    if s.coins[seat] >= C.MUST_COUP:
        n = s.options.players
        return min(moves, key=lambda m: ((m.target or 0) - seat) % n)
    return move(C.INCOME)


def _responses(s: Table, seat: int) -> tuple[Move, ...]:
    if s.step == BLOCK_STEP:
        assert s.action is not None  # a block window is on an action
        return _block_moves(s.action, s.options.variant)
    return _CHALLENGE_OR_PASS


def _refuse_response(s: Table, seat: int, m: Move) -> IllegalMove:
    if m.kind == BLOCK and s.step == BLOCK_STEP:
        return IllegalMove("bad_block", f"A {m.card} cannot block a {s.action}.")
    what = "block or pass" if s.step == BLOCK_STEP else "challenge or pass"
    return IllegalMove("not_allowed_now", f"You may only {what} now.")


def _pass(s: Table, seat: int, moves: tuple[Move, ...], rng: random.Random) -> Move:
    return move(PASS)


def _proof_moves(s: Table, seat: int) -> tuple[Move, ...]:
    hand = s.hands[seat]
    assert hand is not None  # the claimant sees its own hand
    claim = s.claim
    if claim is not None:
        return _PROVE_OR_CONCEDE if claim in hand else _CONCEDE_ONLY
    # no character claimed: an Embezzlement, proved by holding no Duke (R12.12.1)
    return _CONCEDE_ONLY if C.DENIED in hand else _PROVE_OR_CONCEDE


def _refuse_proof(s: Table, seat: int, m: Move) -> IllegalMove:
    if m.kind == PROVE and s.action == C.EMBEZZLE:
        return IllegalMove("holds_duke", "You hold a Duke: you cannot prove you hold none.")
    if m.kind == PROVE:
        return IllegalMove("card_not_held", f"You have no {s.claim} to show.")
    return IllegalMove("not_allowed_now", "You must prove your claim or concede.")


def _prove_if_possible(s: Table, seat: int, moves: tuple[Move, ...], rng: random.Random) -> Move:
    """Proving comes first among the moves when the seat can prove."""
    return moves[0]


def _keep_choices(s: Table, seat: int) -> tuple[Move, ...]:
    assert s.keep_count is not None  # set with every KEEP decision
    return _keep_moves(tuple(_hand(s, seat)) + tuple(s.drawn), s.keep_count)


def _refuse_keep(s: Table, seat: int, m: Move) -> IllegalMove:
    if m.kind != KEEP:
        return IllegalMove("not_allowed_now", "You must choose the cards to keep now.")
    return IllegalMove(
        "bad_keep",
        f"Keep exactly {s.keep_count} of the cards in your hand and the ones you drew.",
    )


def _keep_original(s: Table, seat: int, moves: tuple[Move, ...], rng: random.Random) -> Move:
    return move(KEEP, cards=tuple(_hand(s, seat)))


def _examine_decisions(s: Table, seat: int) -> tuple[Move, ...]:
    return _KEEP_OR_SWAP


def _refuse_examine_decision(s: Table, seat: int, m: Move) -> IllegalMove:
    return IllegalMove("not_allowed_now", "You must decide whether the card is kept.")


def _let_target_keep(s: Table, seat: int, moves: tuple[Move, ...], rng: random.Random) -> Move:
    return move(EXAMINE_DECISION, swap=False)


def _at_random(s: Table, seat: int, moves: tuple[Move, ...], rng: random.Random) -> Move:
    return moves[rng.randrange(len(moves))]


class Decision(NamedTuple):
    """What an open phase asks of the seats it waits for."""

    moves: Callable[[Table, int], tuple[Move, ...]]
    refuse: Callable[[Table, int, Move], IllegalMove]
    default: Callable[[Table, int, tuple[Move, ...], random.Random], Move]


def _card_choice(kind: str, cards: Callable[[Table, int], Sequence[str]]) -> Decision:
    """A phase in which the seat names one of `cards(s, seat)` with a move of `kind`; on
    a timeout, one is drawn at random."""

    def moves(s: Table, seat: int) -> tuple[Move, ...]:
        return _card_moves(kind, cards(s, seat))

    def refuse(s: Table, seat: int, m: Move) -> IllegalMove:
        if m.kind != kind:
            return IllegalMove("not_allowed_now", f"You must choose a card ({kind}) now.")
        return IllegalMove("card_not_held", f"You have no {m.card} to choose.")

    return Decision(moves, refuse, _at_random)


def _hand(s: Table, seat: int) -> Sequence[str]:
    hand = s.hands[seat]
    assert hand is not None  # the mover always sees its own hand
    return hand


def _draft_set(s: Table, seat: int) -> Sequence[str]:
    cards = s.draft_sets[seat]
    assert cards is not None  # the drafting seat always sees its own set
    return cards


#: What each phase asks of the seats in `waiting` (OVER waits for nobody).
DECISIONS: dict[str, Decision] = {
    DRAFT: _card_choice(DRAFT_PICK, _draft_set),
    ACTION: Decision(_action_moves, _refuse_action, _income_or_forced_coup),
    RESPOND: Decision(_responses, _refuse_response, _pass),
    PROVE_PHASE: Decision(_proof_moves, _refuse_proof, _prove_if_possible),
    LOSE_PHASE: _card_choice(LOSE, _hand),
    KEEP_PHASE: Decision(_keep_choices, _refuse_keep, _keep_original),
    SHOW_PHASE: _card_choice(SHOW, _hand),
    DECIDE_PHASE: Decision(_examine_decisions, _refuse_examine_decision, _let_target_keep),
}
#: The moves column of DECISIONS on its own: it is looked up for every state of every game,
#: and a lookup in a dict of functions costs less than a field of a row.
MOVES_IN = {phase: d.moves for phase, d in DECISIONS.items()}
#: The same at a Reformation table, whose turns offer more (R12.6, R12.9, R12.11). A table
#: apart rather than a test in the base game's turn: that test cost the base game 1% of
#: its benchmark.
REFORMATION_MOVES_IN = {**MOVES_IN, ACTION: _reformation_turn}
_REFUSE = {phase: d.refuse for phase, d in DECISIONS.items()}
_DEFAULT = {phase: d.default for phase, d in DECISIONS.items()}


def moves_in(options: Options) -> dict[str, Callable[[Table, int], tuple[Move, ...]]]:
    """The moves column of DECISIONS for a game of `options` (a Game keeps its own)."""
    return REFORMATION_MOVES_IN if options.reformation else MOVES_IN
