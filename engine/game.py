"""The game: the complete state of one Coup table and every transition of it.

Every rule of rules.md that changes the state lives in this module, and nowhere else
(legality, which only reads, is in legality.py). It does not know whether it runs on a
server, in a bot's search or in a test: it does no I/O, keeps no clock and draws randomness
only from its own seeded generator, so options + seed + moves replay a game exactly.

How a turn runs (R5): the acting seat declares; a character claim opens a challenge window
(RESPOND / challenge_action); a blockable action that stands opens a block window
(RESPOND / block); a block opens a challenge window on it (RESPOND / challenge_block); a
challenge asks the claimant to prove or concede (PROVE); a loss asks its seat for the card
(LOSE) before anything else, then play resumes at the stage recorded in `resume`. One
generic response window serves every challenge and block step: `waiting` holds the seats
that may still answer it, and the first challenge or block closes it. A move is applied by
the handler of the phase it answers (`_APPLY`, one per phase of legality.DECISIONS, which
says what each phase allows).

Reformation (R12) adds each seat's faction and the Almshouse to the state; whether the table
is divided is never stored, but worked out by legality.divided when a rule asks. A
Conversion resolves at its declaration; an Embezzlement opens the same challenge window as a
claim, with no character claimed (`claim` None), and is proved by `_disprove`.

The state is mutable and flat on purpose: copying it per move, or building objects that no
caller asked for, is what makes engines slow. Views are built elsewhere, on demand.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable
from itertools import repeat, starmap
from operator import itemgetter

from . import cards as C
from .events import Event
from .errors import IllegalMove
from .legality import (
    ACTION, BLOCK_STEP, CHALLENGE_ACTION, CHALLENGE_BLOCK, DECIDE_PHASE, DRAFT, KEEP_PHASE,
    LOSE_PHASE, OVER, PROVE_PHASE, RESPOND, SHOW_PHASE, Table, check_stale, divided, explain,
    moves_in,
)
from .moves import CHALLENGE, PASS, PROVE, Move
from .options import Options
from .views import View, game_fields, reveal_of, view_of

# Events are built as _new(Event, (kind, seat, target, card, cards, amount, action, reason,
# to, faction)): a third of the cost of calling Event(...), and built on every move.
_new = tuple.__new__
_second = itemgetter(1)

# Where play resumes after a seat has chosen the card it loses.
BLOCK_STAGE = "block"      # the action's claim stood: on to the block window
RESOLVE = "resolve"        # the action takes effect
FAIL = "fail"              # the action failed (conceded claim, standing block)
END = "end"                # the turn is over


def _shuffle(deck: list[str], rng: random.Random) -> None:
    """Put the deck in a uniformly random order: sort it by one random float per card
    (ties have probability ~2**-50). Every step runs in C, unlike Random.shuffle's Python
    loop, which matters on the engine's hot path."""
    keys = starmap(rng.random, repeat((), len(deck)))
    deck[:] = map(_second, sorted(zip(keys, deck)))


_FULL_DECKS = {
    (variant, n): tuple(c for c in C.CAST[variant] for _ in range(C.copies_for(n)))
    for variant in C.VARIANTS
    for n in range(2, 11)
}

#: Where play resumes once a challenge is settled and its loser has lost an influence, by
#: the challenged step and whether the claim was proved (R6.3, R6.4).
_AFTER_CHALLENGE = {
    (CHALLENGE_ACTION, True): BLOCK_STAGE,  # the action stands: on to the block window
    (CHALLENGE_ACTION, False): FAIL,        # the action fails, its cost refunded
    (CHALLENGE_BLOCK, True): FAIL,          # the block stands: the action fails (R7.1)
    (CHALLENGE_BLOCK, False): RESOLVE,      # the block fails: the action resolves
}


def _resume_after_loss(view: View) -> str:
    """Where play resumes after the open loss, from public facts alone: a view has no
    `resume`, but the loser tells whether the claim was proved (the challenger loses then)."""
    if view.reason != CHALLENGE:
        return END  # a Coup or an Assassinate
    assert view.step is not None  # a challenge's loss: the challenged step is open
    return _AFTER_CHALLENGE[view.step, view.waiting[0] == view.challenger]


_others_cache: dict[tuple[int, int | None, int, int], tuple[int, ...]] = {}

#: What declaring each action pays (R4.1): the treasury's costs, and -1 for a Conversion,
#: whose cost depends on its target and goes to the Almshouse (R12.9.2). One lookup for
#: both, so that the base game's free actions test nothing more than they did.
_PAID = {**C.COST, C.CONVERT: -1}


class Game:
    """One game's full state, hidden cards and deck order included (the server's copy).

    Make one with `Game.new` (a dealt game), `Game.replay` (a recorded game) or
    `position.Position.game()` (any position, checked against the rules; `Game.arrange`
    is the tests' shorthand, which checks nothing). Read `waiting` for the seats that owe a
    decision, `legal_moves(seat)` for what each may do, and `apply(seat, move)` to play.
    Never send a Game anywhere: send `view(seat)`.
    """

    __slots__ = (
        "options", "seed", "rng", "state_id", "history",
        "phase", "waiting", "opened",
        "coins", "treasury", "hands", "revealed", "alive", "alive_mask", "exiled",
        "deck", "removed", "drawn", "draft_sets", "shown", "first_seat",
        "actor", "action", "target", "claim", "claimant", "challenger",
        "blocker", "block_card", "step", "keep_count", "reason", "resume", "winner",
        "offer", "offer_id", "draws", "factions", "almshouse", "moves_in",
    )
    # The slots' types (annotations only: a value here would clash with the slot).
    options: Options
    seed: int
    rng: random.Random
    state_id: int
    history: list[tuple[int, Move | None]]  # (seat, move), None for a forfeit
    phase: str
    waiting: tuple[int, ...]
    opened: int  # the state_id at which the open decision was opened
    coins: list[int]
    treasury: int
    hands: list[list[str]]
    revealed: list[list[str]]
    alive: list[bool]
    alive_mask: int
    exiled: list[int]
    deck: list[str]  # top card last
    removed: list[str]
    drawn: list[str]
    draft_sets: list[tuple[str, ...] | None]
    shown: str | None
    first_seat: int
    actor: int | None  # None only during the draft
    action: str | None
    target: int | None
    claim: str | None
    claimant: int | None
    challenger: int | None
    blocker: int | None
    block_card: str | None
    step: str | None
    keep_count: int | None
    reason: str | None
    resume: str | None
    winner: int | None
    offer: tuple[Move, ...]
    offer_id: int
    draws: list[str]
    factions: list[str]  # each seat's, with Reformation (R12.2); [] without it
    almshouse: int  # the Almshouse's coins (R12.10); 0 without Reformation
    moves_in: dict[str, Callable[[Table, int], tuple[Move, ...]]]  # legality.moves_in's

    # ----------------------------------------------------------------- making games

    @classmethod
    def new(cls, options: Options | None = None, seed: int | None = None) -> Game:
        """Deal a new game (R1). With no seed, one is drawn from `secrets` and kept in `seed`."""
        options = options or Options()
        g = cls._blank(options, secrets.randbits(64) if seed is None else seed)
        n = options.players
        cast = C.CAST[options.variant]
        rng = g.rng
        g.first_seat = options.first_seat if options.first_seat is not None else rng.randrange(n)
        if options.reformation:  # R12.3: fixed by the first seat alone, so dealt at once
            g.factions = C.faction_deal(n, g.first_seat)
        if options.draft:
            g.coins = [1 if s == g.first_seat else 2 for s in range(n)]  # R1.7.1
            g.draft_sets = [cast, cast]
            g.hands = [[], []]
            g.deck = list(cast)
            _shuffle(g.deck, rng)  # the third set, drawn from after both picks (R1.7.3)
            g.phase = DRAFT
            g.waiting = (0, 1)
        else:
            g.deck = list(_FULL_DECKS[options.variant, n])
            _shuffle(g.deck, rng)
            g.hands = [[g.deck.pop(), g.deck.pop()] for _ in range(n)]
            g.coins = [2] * n
            g._next_turn([], g.first_seat)
        g.treasury = options.treasury - sum(g.coins)
        return g

    @classmethod
    def replay(cls, options: Options, seed: int, history: Iterable[tuple[int, Move | None]]) -> Game:
        """The game that options, seed and the (seat, move) list produce (a move of None is
        a forfeit); raises IllegalMove if a move in it is not legal where it stands."""
        g = cls.new(options, seed)
        for seat, m in history:
            if m is None:
                g.forfeit(seat)
            else:
                g.apply(seat, m)
        return g

    @classmethod
    def arrange(
        cls,
        options: Options | None = None,
        *,
        hands: list[list[str]],
        coins: list[int] | None = None,
        revealed: list[list[str]] | None = None,
        deck: list[str] | None = None,
        actor: int = 0,
        seed: int = 0,
        **fields: object,
    ) -> Game:
        """Any position, for tests: hands, face-up cards, coins and the deck (top card
        first) as given, `actor` to declare its action. Any other state field (phase,
        waiting, step, action, target, claim, claimant, …) may be set by keyword to open
        another decision. With Reformation the factions are dealt from `actor` (R12.3)
        unless `factions` is given. The treasury holds the rest of the options' total, less
        what the seats and the Almshouse hold."""
        n = len(hands)
        options = options or Options(players=n)
        if options.players != n:
            raise ValueError("hands must have one entry per seat")
        g = cls._blank(options, seed)
        g.hands = [list(h) for h in hands]
        g.revealed = [list(r) for r in revealed] if revealed else [[] for _ in range(n)]
        g.coins = list(coins) if coins else [2] * n
        g.treasury = options.treasury - sum(g.coins)
        g.alive = [bool(h) for h in g.hands]
        g.alive_mask = sum(1 << s for s in range(n) if g.alive[s])
        g.exiled = [s for s in range(n) if not g.alive[s]]
        if deck is None:
            used = [c for h in g.hands + g.revealed for c in h]
            deck = list(_FULL_DECKS[options.variant, n])
            for c in used:
                deck.remove(c)
            _shuffle(deck, g.rng)
        g.deck = list(reversed(deck))
        g.first_seat = actor
        if options.reformation:
            g.factions = C.faction_deal(n, actor)
        g._next_turn([], actor)
        for name, value in fields.items():
            if name not in cls.__slots__ or name in ("options", "hands", "deck"):
                raise ValueError(f"arrange cannot set {name!r}")
            setattr(g, name, value)
        if "treasury" not in fields:
            g.treasury = options.treasury - sum(g.coins) - g.almshouse
        return g

    @classmethod
    def from_view(
        cls,
        view: View,
        hands: list[list[str]],
        deck: list[str],
        *,
        drawn: list[str] | None = None,
        shown: str | None = None,
        removed: list[str] | None = None,
        seed: int = 0,
    ) -> Game:
        """A full game that agrees with `view` in everything public, with the hidden parts
        given: every seat's face-down cards, the deck, an Exchange's draw, an Examine's
        card, the draft's removed cards. Bots search such sampled worlds (ISMCTS)."""
        g = cls._blank(view.options, seed)
        for name, value in game_fields(view).items():
            setattr(g, name, value)
        g.alive_mask = view.alive_mask
        g.hands = [list(h) for h in hands]
        g.deck = list(deck)
        g.removed = list(removed or ())
        g.drawn = list(drawn or ())
        g.shown = shown
        if view.phase == LOSE_PHASE:
            g.resume = _resume_after_loss(view)
        return g

    def copy(self, seed: int) -> Game:
        """This very position, with its own generator seeded with `seed` and no history:
        a bot tries one move after another from the same sampled world."""
        g = Game.__new__(Game)
        for name in Game.__slots__:
            if name != "offer":  # a cache, filled again on demand
                setattr(g, name, getattr(self, name))
        g.offer_id = -1
        g.seed = seed
        g.rng = random.Random(seed)
        g.history = []
        g.draws = list(self.draws)
        g.coins = list(self.coins)
        g.hands = [list(h) for h in self.hands]
        g.revealed = [list(r) for r in self.revealed]
        g.alive = list(self.alive)
        g.exiled = list(self.exiled)
        g.deck = list(self.deck)
        g.removed = list(self.removed)
        g.drawn = list(self.drawn)
        g.draft_sets = list(self.draft_sets)
        g.factions = list(self.factions)
        return g

    @classmethod
    def _blank(cls, options: Options, seed: int) -> Game:
        g = cls.__new__(cls)
        n = options.players
        g.options = options
        g.seed = seed
        g.rng = random.Random(seed)
        g.state_id = 0
        g.history = []
        g.opened = 0
        g.revealed = [[] for _ in range(n)]
        g.alive = [True] * n
        g.alive_mask = (1 << n) - 1
        g.exiled = []
        g.removed = []
        g.drawn = []
        g.draft_sets = [None] * n
        g.winner = g.actor = g.action = g.target = g.claim = g.claimant = g.challenger = None
        g.blocker = g.block_card = g.step = g.keep_count = g.reason = g.resume = None
        g.shown = None
        g.offer_id = -1
        g.draws = []
        g.factions = []
        g.almshouse = 0
        g.moves_in = moves_in(options)
        return g

    # ----------------------------------------------------------------- reading

    def legal_moves(self, seat: int) -> tuple[Move, ...]:
        """Every move `seat` may make now (R3–R8); () when it owes no decision.

        Every seat that owes the open decision is offered the same moves (a response
        window offers its responders one set; the draft's two sets are alike), so the
        list is computed once per state and served from `offer` after that."""
        if seat not in self.waiting:
            return ()
        if self.offer_id != self.state_id:  # legality.legal_moves, past its seat check
            self.offer = self.moves_in[self.phase](self, seat)
            self.offer_id = self.state_id
        return self.offer

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def view(self, seat: int | None) -> View:
        """What `seat` may see (None: a spectator), built by adding only that (R11)."""
        return view_of(self, seat)

    def reveal(self) -> View:
        """The full table, every card shown: only once the game is over (R11)."""
        return reveal_of(self)

    # ----------------------------------------------------------------- playing

    def apply(self, seat: int, m: Move, state_id: int | None = None) -> list[Event]:
        """Play `m` for `seat`, made against `state_id` if given; return the events, each
        with its audience. An illegal or stale move raises IllegalMove and changes nothing."""
        # legality.check, inlined: this is the hottest line of every search and benchmark.
        if state_id is not None and state_id != self.state_id:
            check_stale(self, seat, state_id)
        # The offer of this state when it was listed already (a mover lists its moves
        # before it chooses): a call of legal_moves saved on every move.
        if self.offer_id == self.state_id and seat in self.waiting:
            offer = self.offer
        else:
            offer = self.legal_moves(seat)
        if m not in offer:
            raise explain(self, seat, m)
        self.state_id += 1
        self.history.append((seat, m))
        ev: list[Event] = []
        if m.kind == PASS:  # legal only in a response window, and the commonest move of
            # all: applied right here, since a call through _APPLY costs 3% of a benchmark
            if self.step == BLOCK_STEP:  # the action goes unblocked by this seat
                ev.append(_new(Event, ("pass", seat, self.actor, None, None, None, self.action, None, None, None)))
            else:  # the claim goes unchallenged by this seat
                ev.append(_new(Event, ("pass", seat, self.claimant, self.claim, None, None, None, None, None, None)))
            waiting = list(self.waiting)
            waiting.remove(seat)
            self.waiting = tuple(waiting)
            if not waiting:
                self._window_closed(ev)
        else:
            _APPLY[self.phase](self, seat, m, ev)
        return ev

    def forfeit(self, seat: int) -> list[Event]:
        """`seat` leaves the game (the server's rule for a player gone for good): every
        face-down card turns face up and the seat is exiled (R2.2). Play goes on as the
        rules say for an exiled player: a turn it acted in, or aimed at, ends with no effect
        (R5.2); a claim it made fails; a window no longer waits for it. Recorded in the
        history as (seat, None)."""
        if self.phase == OVER or not self.alive[seat]:
            raise IllegalMove("exiled" if self.phase != OVER else "game_over",
                              "That seat is no longer in the game.")
        self.state_id += 1
        self.history.append((seat, None))
        ev: list[Event] = [_new(Event, ("forfeit", seat, None, None, None, None, None, None, None, None))]
        if self.phase == DRAFT:
            self._end_draft()
        hand = self.hands[seat]
        for card in list(hand):
            self._turn_up(seat, card, ev)
        if self.alive[seat]:  # forfeited in the draft before picking: nothing to turn up
            self._exile(seat, ev)
        if self.winner is not None:
            return ev
        phase = self.phase
        if seat in (self.actor, self.target):  # R5.2
            if self.drawn:  # an Exchange in progress goes back to the deck
                self.deck.extend(self.drawn)
                self.drawn = []
                _shuffle(self.deck, self.rng)
            if self.action is None:
                self._next_turn(ev)
            else:
                self._fail(ev)
        elif seat == self.claimant and phase in (RESPOND, PROVE_PHASE):
            self._resolve(ev)  # a blocker gone: its block fails (R6.4), the action resolves
        elif seat in self.waiting:
            if phase == RESPOND:
                self.waiting = tuple(s for s in self.waiting if s != seat)
                if not self.waiting:
                    self._window_closed(ev)
            else:  # LOSE: its cards are all face up already
                assert self.resume is not None  # set with every LOSE decision
                _RESUME[self.resume](self, ev)
        return ev

    def _open(self, phase: str, waiting: tuple[int, ...]) -> None:
        self.phase = phase
        self.waiting = waiting
        self.opened = self.state_id

    def _others(self, seat: int) -> tuple[int, ...]:
        """Seats with influence other than `seat`, in turn order after the actor."""
        key = (self.options.players, self.actor, seat, self.alive_mask)
        others = _others_cache.get(key)
        if others is None:
            n, start, _, mask = key
            assert start is not None  # windows open only after the draft
            turn_order = ((start + i) % n for i in range(n))
            others = _others_cache[key] = tuple(
                s for s in turn_order if mask >> s & 1 and s != seat
            )
        return others

    def _next_turn(self, ev: list[Event], seat: int | None = None) -> None:
        """Start the turn of `seat`, by default the next seat with influence clockwise
        (R3.1), with nothing of the last turn left over."""
        if seat is None:
            n = self.options.players
            alive = self.alive
            seat = self.actor
            assert seat is not None  # the draft names its first turn's seat
            while True:
                seat = (seat + 1) % n
                if alive[seat]:
                    break
        self.action = self.target = self.claim = self.claimant = self.challenger = None
        self.blocker = self.block_card = self.step = self.keep_count = None
        self.reason = self.resume = self.shown = None
        self.actor = seat
        self.phase = ACTION
        self.waiting = (seat,)
        self.opened = self.state_id
        ev.append(_new(Event, ("turn", seat, None, None, None, None, None, None, None, None)))

    def _declare(self, seat: int, m: Move, ev: list[Event]) -> None:
        action = m.kind
        self.action = action
        self.target = m.target
        cost = _PAID.get(action, 0)
        if cost > 0:  # R4.1
            self.coins[seat] -= cost
            self.treasury += cost
        elif cost:  # a Conversion, R12.9.2: paid when declared, into the Almshouse
            cost = C.convert_cost(seat, m.target)
            self.coins[seat] -= cost
            self.almshouse += cost
        claim = C.CLAIMS_IN[self.options.variant][action]
        ev.append(_new(Event, ("action", seat, m.target, claim, None, cost, action, None, None, None)))
        if claim is not None:
            self._open_challenge(CHALLENGE_ACTION, seat, claim)
        elif action == C.FOREIGN_AID:
            self._block_stage(ev)
        elif action == C.EMBEZZLE:  # R12.11.3: an inverse claim, of no character
            self._open_challenge(CHALLENGE_ACTION, seat, None)
        else:
            self._resolve(ev)

    def _open_challenge(self, step: str, claimant: int, claim: str | None) -> None:
        """R6.1: any other seat with influence may challenge the claim."""
        self.step = step
        self.claimant = claimant
        self.claim = claim
        self.phase = RESPOND
        self.waiting = self._others(claimant)
        self.opened = self.state_id

    def _challenge_or_block(self, seat: int, m: Move, ev: list[Event]) -> None:
        if m.kind == CHALLENGE:  # R6.1: the first challenge ends the window
            ev.append(_new(Event, ("challenge", seat, self.claimant, self.claim, None, None, None, None, None, None)))
            self.challenger = seat
            claimant = self.claimant
            assert claimant is not None  # a challenge window always has its claimant
            self._open(PROVE_PHASE, (claimant,))
        else:  # R7.2: the first block ends the window
            card = m.card
            assert card is not None  # legality offers blocks only as a character
            self.blocker = seat
            self.block_card = card
            ev.append(_new(Event, ("block", seat, self.actor, card, None, None, None, None, None, None)))
            self._open_challenge(CHALLENGE_BLOCK, seat, card)

    def _window_closed(self, ev: list[Event]) -> None:
        """Everyone still able to answer passed."""
        step = self.step
        if step == CHALLENGE_ACTION:
            self._block_stage(ev)  # the claim stands
        elif step == BLOCK_STEP:
            self._resolve(ev)  # nobody blocked
        else:
            self._fail(ev)  # R7.1: the block stands

    def _answer_challenge(self, seat: int, m: Move, ev: list[Event]) -> None:
        claim = self.claim  # None for an Embezzlement's inverse claim (R12.11.1)
        step = self.step
        assert step is not None  # PROVE follows a challenged claim
        proved = m.kind == PROVE
        resume = _AFTER_CHALLENGE[step, proved]
        if proved:
            if claim is None:  # R12.12.1
                self._disprove(seat, ev)
            else:  # R6.3
                hand = self.hands[seat]
                hand.remove(claim)
                self.deck.append(claim)
                _shuffle(self.deck, self.rng)
                new = self._draw()
                hand.append(new)
                ev.append(_new(Event, ("prove", seat, None, claim, None, None, None, None, None, None)))
                ev.append(_new(Event, ("redraw", seat, None, None, None, None, None, None, None, None)))
                ev.append(_new(Event, ("drew", seat, None, None, (new,), None, None, None, (seat,), None)))
            challenger = self.challenger
            assert challenger is not None
            self._lose(challenger, CHALLENGE, resume, ev)
        else:  # R6.4 (an Embezzlement cost nothing: there is nothing to refund, R12.12.2)
            ev.append(_new(Event, ("concede", seat, None, claim, None, None, None, None, None, None)))
            action = self.action
            if step == CHALLENGE_ACTION and action is not None:
                cost = C.COST.get(action, 0)
                if cost:
                    self.coins[seat] += cost
                    self.treasury -= cost
                    ev.append(_new(Event, ("refund", seat, None, None, None, cost, None, None, None, None)))
            self._lose(seat, CHALLENGE, resume, ev)

    def _disprove(self, seat: int, ev: list[Event]) -> None:
        """R12.12.1: every face-down card is shown to all, goes back to the deck, and as many
        are drawn; only the drawer learns which."""
        hand = self.hands[seat]
        shown = C.sort_cards(hand)
        ev.append(_new(Event, ("disprove", seat, None, None, shown, None, None, None, None, None)))
        self.deck.extend(hand)
        _shuffle(self.deck, self.rng)
        new = [self._draw() for _ in shown]
        self.hands[seat] = new
        redraw = _new(Event, ("redraw", seat, None, None, None, None, None, None, None, None))
        ev.extend(redraw for _ in new)
        ev.append(_new(Event, ("drew", seat, None, None, tuple(new), None, None, None, (seat,), None)))

    def _lose(self, seat: int, reason: str, resume: str, ev: list[Event]) -> None:
        """R2.1, R5.3: `seat` loses an influence, choosing which, before play resumes."""
        hand = self.hands[seat]
        if not hand:  # the seat forfeited meanwhile: it has nothing left to lose
            _RESUME[resume](self, ev)
        elif len(hand) == 1:  # nothing to choose, and everyone can see that
            self._turn_up(seat, hand[0], ev)
            if self.winner is None:
                _RESUME[resume](self, ev)
        else:
            self.reason = reason
            self.resume = resume
            self.phase = LOSE_PHASE
            self.waiting = (seat,)
            self.opened = self.state_id

    def _choose_loss(self, seat: int, m: Move, ev: list[Event]) -> None:
        card, resume = m.card, self.resume
        assert card is not None and resume is not None  # a lose move names its card
        self._turn_up(seat, card, ev)
        if self.winner is None:
            _RESUME[resume](self, ev)

    def _turn_up(self, seat: int, card: str, ev: list[Event]) -> None:
        hand = self.hands[seat]
        hand.remove(card)
        self.revealed[seat].append(card)
        ev.append(_new(Event, ("lose", seat, None, card, None, None, None, None, None, None)))
        if not hand:
            self._exile(seat, ev)

    def _exile(self, seat: int, ev: list[Event]) -> None:
        coins = self.coins[seat]  # R2.2
        self.coins[seat] = 0
        self.treasury += coins
        self.alive[seat] = False
        self.alive_mask &= ~(1 << seat)
        self.exiled.append(seat)
        ev.append(_new(Event, ("exile", seat, None, None, None, coins, None, None, None, None)))
        mask = self.alive_mask
        if mask & (mask - 1) == 0:  # R2.3: one seat left
            winner = mask.bit_length() - 1
            self.winner = winner
            self._open(OVER, ())
            ev.append(_new(Event, ("win", winner, None, None, None, None, None, None, None, None)))

    def _gone(self, actor: int, target: int | None) -> bool:
        """R5.2: the actor or the target was exiled before the action resolved."""
        return not self.alive[actor] or (target is not None and not self.alive[target])

    def _block_stage(self, ev: list[Event]) -> None:
        """R5 step 3: the seats allowed by R4 may block a blockable action that stands."""
        action, actor, target = self.action, self.actor, self.target
        assert actor is not None  # a turn's stages follow its declaration
        if self._gone(actor, target):
            return self._fail(ev)
        if action == C.FOREIGN_AID:
            blockers = self._others(actor)
            if self.factions and divided(self):  # R12.7: not one's own faction
                factions = self.factions
                blockers = tuple(s for s in blockers if factions[s] != factions[actor])
        elif action == C.ASSASSINATE or action == C.STEAL:
            assert target is not None  # both are targeted (R4)
            blockers = (target,)
        else:
            return self._resolve(ev)
        self.step = BLOCK_STEP
        self.claimant = self.claim = None
        self._open(RESPOND, blockers)

    def _resolve(self, ev: list[Event]) -> None:
        """R5 step 5: the action takes effect (R4)."""
        action = self.action
        actor = self.actor
        target = self.target
        assert action is not None and actor is not None  # a declared action
        if self._gone(actor, target):
            return self._fail(ev)
        gain = C.GAIN.get(action)
        if gain is not None:  # R1.5: never more than the treasury holds
            amount = gain if gain <= self.treasury else self.treasury
            self.treasury -= amount
            self.coins[actor] += amount
            ev.append(_new(Event, ("gain", actor, None, None, None, amount, None, None, None, None)))
        elif action == C.COUP or action == C.ASSASSINATE:
            assert target is not None  # a targeted action (R4)
            return self._lose(target, action, END, ev)
        elif action == C.STEAL:  # R4.2
            assert target is not None
            amount = min(2, self.coins[target])
            self.coins[target] -= amount
            self.coins[actor] += amount
            ev.append(_new(Event, ("steal", actor, target, None, None, amount, None, None, None, None)))
        elif action == C.EXCHANGE:  # R4.3
            k = C.exchange_draw(self.options.variant)
            drawn = [self._draw() for _ in range(k)]
            self.drawn = drawn
            self.keep_count = len(self.hands[actor])
            ev.append(_new(Event, ("exchange", actor, None, None, None, k, None, None, None, None)))
            ev.append(_new(Event, ("drew", actor, None, None, tuple(drawn), None, None, None, (actor,), None)))
            return self._open(KEEP_PHASE, (actor,))
        elif action == C.CONVERT:  # R12.9.3: paid at the declaration; the faction flips now
            assert target is not None  # a Conversion names its seat
            faction = self.factions[target] = C.OTHER_FACTION[self.factions[target]]
            paid = C.convert_cost(actor, target)
            ev.append(_new(Event, ("convert", actor, target, None, None, paid, None, None, None, faction)))
        elif action == C.EMBEZZLE:  # R12.11.4
            amount = self.almshouse
            self.almshouse = 0
            self.coins[actor] += amount
            ev.append(_new(Event, ("embezzle", actor, None, None, None, amount, None, None, None, None)))
        else:  # Examine, R4.4
            assert target is not None
            ev.append(_new(Event, ("examine", actor, target, None, None, None, None, None, None, None)))
            hand = self.hands[target]
            if len(hand) == 1:
                return self._show(target, hand[0], ev)
            return self._open(SHOW_PHASE, (target,))
        self._next_turn(ev)

    def _fail(self, ev: list[Event]) -> None:
        """The action ends with no effect; the event says why, an exile first (R5.2), then a
        conceded claim (R6.4) or a block that stands (R7.1)."""
        actor, target = self.actor, self.target
        assert actor is not None
        if not self.alive[actor]:
            reason = "actor_out"
        elif target is not None and not self.alive[target]:
            reason = "target_out"
        elif self.step == CHALLENGE_ACTION:
            reason = "conceded"
        else:
            reason = "blocked"
        ev.append(_new(Event, ("fail", self.actor, target, None, None, None, self.action, reason, None, None)))
        self._next_turn(ev)

    def _keep(self, seat: int, m: Move, ev: list[Event]) -> None:
        kept = m.cards
        assert kept is not None  # a keep move names the cards kept
        pool = self.hands[seat] + self.drawn
        for card in kept:
            pool.remove(card)
        self.hands[seat] = list(kept)
        self.drawn = []
        self.deck.extend(pool)
        _shuffle(self.deck, self.rng)
        ev.append(_new(Event, ("keep", seat, None, None, None, len(pool), None, None, None, None)))
        ev.append(_new(Event, ("kept", seat, None, None, kept, None, None, None, (seat,), None)))
        self._next_turn(ev)

    def _choose_shown(self, seat: int, m: Move, ev: list[Event]) -> None:
        assert m.card is not None  # a show move names its card
        self._show(seat, m.card, ev)

    def _show(self, seat: int, card: str, ev: list[Event]) -> None:
        actor = self.actor
        assert actor is not None
        self.shown = card
        ev.append(_new(Event, ("shown", seat, actor, card, None, None, None, None, (seat, actor), None)))
        self._open(DECIDE_PHASE, (actor,))

    def _decide(self, seat: int, m: Move, ev: list[Event]) -> None:
        target, shown = self.target, self.shown
        assert target is not None and shown is not None  # an Examine's card was shown
        if m.swap:
            hand = self.hands[target]
            hand.remove(shown)
            self.deck.append(shown)
            _shuffle(self.deck, self.rng)
            new = self._draw()
            hand.append(new)
            ev.append(_new(Event, ("examine_swap", self.actor, target, None, None, None, None, None, None, None)))
            ev.append(_new(Event, ("drew", target, None, None, (new,), None, None, None, (target,), None)))
        else:
            ev.append(_new(Event, ("examine_keep", self.actor, target, None, None, None, None, None, None, None)))
        self._next_turn(ev)

    def _draft(self, seat: int, m: Move, ev: list[Event]) -> None:
        """R1.7: two simultaneous secret picks, then a card each from the third set."""
        card = m.card
        assert card is not None  # a draft pick names its card
        self.hands[seat] = [card]
        ev.append(_new(Event, ("drafted", seat, None, None, None, None, None, None, None, None)))
        ev.append(_new(Event, ("picked", seat, None, card, None, None, None, None, (seat,), None)))
        waiting = tuple(s for s in self.waiting if s != seat)
        self.waiting = waiting
        if waiting:
            return
        self._end_draft()
        for s in (self.first_seat, 1 - self.first_seat):
            new = self._draw()
            self.hands[s].append(new)
            ev.append(_new(Event, ("drew", s, None, None, (new,), None, None, None, (s,), None)))
        self._next_turn(ev, self.first_seat)

    def _draw(self) -> str:
        """The deck's top card, or the next of `draws` (a position's stated draws, see
        position.Position) while the deck holds it."""
        deck = self.deck
        if self.draws:
            card = self.draws.pop(0)
            if card in deck:
                deck.remove(card)
                return card
        return deck.pop()

    def _end_draft(self) -> None:
        """The draft sets go (R1.7.2): what each seat did not pick leaves the game, unseen."""
        for s, drafted in enumerate(self.draft_sets):
            assert drafted is not None  # the sets go only once, here
            rest = list(drafted)
            for card in self.hands[s]:
                rest.remove(card)
            self.removed.extend(rest)
            self.draft_sets[s] = None



#: How a move is applied, by the phase it answers (legality.DECISIONS says which moves
#: each phase allows).
_APPLY = {
    DRAFT: Game._draft,
    ACTION: Game._declare,
    RESPOND: Game._challenge_or_block,  # a pass is applied in Game.apply itself
    PROVE_PHASE: Game._answer_challenge,
    LOSE_PHASE: Game._choose_loss,
    KEEP_PHASE: Game._keep,
    SHOW_PHASE: Game._choose_shown,
    DECIDE_PHASE: Game._decide,
}

#: Where play resumes after a loss, by the stage recorded in Game.resume.
_RESUME = {
    BLOCK_STAGE: Game._block_stage,
    RESOLVE: Game._resolve,
    FAIL: Game._fail,
    END: Game._next_turn,
}
