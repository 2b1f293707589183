"""`heuristic`: card counting, calibrated bluffs, suspicion, and threat-based targets.

It counts the cards it can account for (its hand, every face-up card) to judge how likely
an opponent is to hold a character, and remembers what each opponent claimed since its last
proof. On a turn it lacks the card it bluffs with the chances winners' bluffs show in a
600k-game online dataset (Tax 15%, Steal 9%, Assassinate 13%; Contessa blocks nearly always
genuine, except when a bluff is the only way to survive); those are chances per turn, so a
larger share of its claims are false (about a quarter of its Taxes: docs/BOTS.md). It
coups whenever it can and aims at the most threatening opponent.

It calls a claim when what it has seen makes a bluff likely: counting gives the chance the
claimant holds the card, Bayes' rule weighs that against how often the claimant seems to
lie (a prior, raised by each bluff caught, lowered by each proof), and claiming more
characters than it has cards makes each less likely. The bar rises with the stakes (it is
the target, the claim races the claimant to a Coup, the claimant is on its last card) and
falls when it has one influence itself.

Its knobs (bluff rates, suspicion, targeting, coin policy) are a `Personality`; the named
personalities are the subclasses at the end, registered as strategies.

It does not let a block stand for ever: the same opponent blocking its actions with the same
character a third time since that opponent last showed a card is challenged, so two bots
that would trade Assassinate for a Contessa block every turn end their game.
"""

from __future__ import annotations

from collections import Counter
from math import comb
from collections.abc import Callable, Sequence
from typing import ClassVar

from .. import cards as C
from ..events import Event
from ..moves import Move
from .base import Sight, Strategy, card_of, cards_of, hand_of, seat_of, target_of
from .personality import BANKER, BLUFFER, CAUTIOUS, DEFAULT, VENGEANCE, VENGEFUL, Personality

VALUE = {C.DUKE: 5, C.ASSASSIN: 4.5, C.CAPTAIN: 4, C.CONTESSA: 3.5, C.INQUISITOR: 3,
         C.AMBASSADOR: 2.5}
#: Blocks of its actions by one opponent with one character that it lets stand: the next
#: one is challenged.
BLOCKS_BORNE = 2


def unseen_copies(view: Sight, card: str) -> int:
    """Copies of `card` the viewer cannot account for (in other hands or the deck)."""
    seen = hand_of(view).count(card) + view.drawn.count(card)
    for face_up in view.revealed:
        seen += face_up.count(card)
    return max(0, C.copies_in_game(view.options.players, view.options.draft) - seen)


def unseen_cards(view: Sight) -> int:
    """Cards in other hands and in the deck, as far as the viewer knows."""
    return sum(view.influence) - view.influence[seat_of(view)] + view.deck_size


def chance_holds(view: Sight, seat: int, card: str) -> float:
    """The chance that `seat`'s face-down cards include `card`, by counting alone."""
    pool = unseen_cards(view)
    # The draft's removed cards are unseen but out of play: no more copies than places.
    copies = min(unseen_copies(view, card), pool)
    held = view.influence[seat]
    if copies == 0 or held == 0 or pool == 0:
        return 0.0
    return 1 - comb(pool - copies, held) / comb(pool, held)


#: Coins at which a claimant can Coup on its next turn: a claim that gets it there races.
COUP_AT = 7


class Heuristic(Strategy):
    """Counts cards, bluffs on a share of its turns, calls likely bluffs, aims at the biggest
    threat."""

    name = "heuristic"
    personality: ClassVar[Personality] = DEFAULT

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        #: What each opponent has claimed since it last revealed or exchanged.
        self.claims: dict[int, set[str]] = {}
        #: Blocks of this seat's actions, by (blocker, character), in the same span.
        self.blocks: Counter[tuple[int, str]] = Counter()
        #: Challenged claims each seat conceded, and proved, this game.
        self.caught: Counter[int] = Counter()
        self.cleared: Counter[int] = Counter()
        #: The seat that would be to blame if this seat lost a card now, and the seat that
        #: last cost it an influence or coins.
        self.blame: int | None = None
        self.grudge: int | None = None
        #: The claimant this seat challenged, until the challenge is settled.
        self.challenged: int | None = None

    # ------------------------------------------------------------------ memory

    def observe(self, view: Sight, events: Sequence[Event]) -> None:
        me = view.seat
        for e in events:
            if e.kind == "action" and e.target == me:
                self.blame = e.seat
            elif e.kind == "challenge":
                if e.target == me:
                    self.blame = e.seat
                elif e.seat == me:
                    self.challenged = e.target
            elif e.kind == "prove" and e.seat == self.challenged:
                self.blame = e.seat
            elif e.kind == "lose" and e.seat == me and self.blame is not None:
                self.grudge = self.blame
            elif e.kind == "steal" and e.target == me and e.amount:
                self.grudge = e.seat
            if e.kind in ("prove", "concede"):  # the challenge just made is settled
                self.challenged = None
                if e.seat is not None:
                    (self.cleared if e.kind == "prove" else self.caught)[e.seat] += 1
            if e.kind == "action" and e.card is not None and e.seat is not None:
                self.claims.setdefault(e.seat, set()).add(e.card)
            elif e.kind == "block" and e.seat is not None and e.card is not None:
                self.claims.setdefault(e.seat, set()).add(e.card)
                if e.target == view.seat:
                    self.blocks[e.seat, e.card] += 1
            elif e.kind in ("prove", "concede", "keep", "examine_swap"):
                seat = e.target if e.kind == "examine_swap" else e.seat
                if seat is None:
                    continue
                self.claims.pop(seat, None)
                for key in [k for k in self.blocks if k[0] == seat]:
                    del self.blocks[key]

    def belief(self, view: Sight, seat: int, card: str) -> float:
        """How likely `seat` holds `card`: counting, raised by an unrefuted claim."""
        counted = chance_holds(view, seat, card)
        if counted and card in self.claims.get(seat, ()):
            return max(counted, 0.55)
        return counted

    def plausibility(self, view: Sight, seat: int, card: str) -> float:
        """How likely `seat`'s claim to `card` is true, given all it has seen."""
        counted = chance_holds(view, seat, card)
        if counted == 0:
            return 0.0
        # How often this seat lies when it lacks the card: a prior worth two claims,
        # moved by each of its claims that was put to the test.
        prior = self.personality.suspicion
        lies = (2 * prior + self.caught[seat]) / (2 + self.caught[seat] + self.cleared[seat])
        chance = counted / (counted + (1 - counted) * lies)
        distinct = len(self.claims.get(seat, set()) | {card})
        if distinct > view.influence[seat]:
            chance *= view.influence[seat] / distinct
        return chance

    def _stakes(self, view: Sight, hurts_me: bool) -> float:
        """The plausibility below which a claim is challenged, from what rides on it."""
        claimant = view.claimant
        assert claimant is not None  # a challenge window has its claimant
        threshold = 0.35 if hurts_me else 0.12
        gain = 0
        if view.step == "challenge_action" and view.action is not None:
            gain = {C.TAX: 3, C.STEAL: 2}.get(view.action, 0)
        if (gain and view.coins[claimant] < COUP_AT <= view.coins[claimant] + gain
                and self._aimed_at(view, claimant)):
            threshold += 0.4  # letting it stand arms a Coup, likely at this seat
        if view.influence[claimant] == 1:
            threshold += 0.1  # a caught bluff ends that player
        if claimant == self.grudge and self.personality.targeting == VENGEANCE:
            threshold += 0.1
        if view.influence[seat_of(view)] == 1:
            threshold /= 2
        return threshold * self.personality.challenge

    def _aimed_at(self, view: Sight, claimant: int) -> bool:
        """Whether this seat is (one of) the biggest threat(s) `claimant` faces, by cards
        then coins: whom a Coup of its is likely for. Challenging on others' behalf costs
        this seat a card when it is wrong and helps them as much as it."""
        def score(seat: int) -> int:
            return view.influence[seat] * 10 + view.coins[seat]
        rivals = [s for s, alive in enumerate(view.alive) if alive and s != claimant]
        return score(seat_of(view)) >= max(score(s) for s in rivals)

    # ------------------------------------------------------------------ deciding

    def choose(self, view: Sight, moves: Sequence[Move]) -> Move:
        phase = view.phase
        hand = list(hand_of(view))
        if phase == "action":
            return self._action(view, hand, moves)
        if phase == "respond":
            return self._respond(view, hand, moves)
        kinds = {m.kind: m for m in moves}
        if phase == "prove":
            return kinds.get("prove", kinds["concede"])
        if phase in ("lose", "show"):
            return min(moves, key=lambda m: self._worth(view, card_of(m)))
        if phase == "keep":
            return max(moves, key=lambda m: self._hand_worth(view, cards_of(m)))
        if phase == "examine_decision":
            swap = view.shown is not None and VALUE[view.shown] >= 4
            return next(m for m in moves if m.swap is swap)
        if phase == "draft":
            return max(moves, key=lambda m: VALUE[card_of(m)])
        return moves[0]

    def _worth(self, view: Sight, card: str) -> float:
        worth = VALUE[card]
        if card == C.CONTESSA and any(
            self.belief(view, s, C.ASSASSIN) > 0.5 for s in self._opponents(view)
        ):
            worth += 1.5
        return worth

    def _hand_worth(self, view: Sight, cards: Sequence[str]) -> float:
        distinct = len(set(cards))
        return sum(self._worth(view, c) for c in cards) + distinct

    def _opponents(self, view: Sight) -> list[int]:
        return [s for s, alive in enumerate(view.alive) if alive and s != view.seat]

    def _threat(self, view: Sight, seat: int) -> float:
        score = view.influence[seat] * 10 + view.coins[seat]
        if view.coins[seat] >= 7:
            score += 8  # can coup next turn
        if self.belief(view, seat, C.ASSASSIN) > 0.5 and view.coins[seat] >= 3:
            score += 4
        return score

    def _action(self, view: Sight, hand: list[str], moves: Sequence[Move]) -> Move:
        rng = self.rng
        by_kind: dict[str, list[Move]] = {}
        for m in moves:
            by_kind.setdefault(m.kind, []).append(m)

        def at(kind: str, score: Callable[[int], float]) -> Move:
            return max(by_kind[kind], key=lambda m: (score(t := target_of(m)), -t))

        me = self.personality

        def threat(t: int) -> float:
            grudge = me.targeting == VENGEANCE and t == self.grudge
            return self._threat(view, t) + (100 if grudge else 0)

        if C.COUP in by_kind:
            return at(C.COUP, threat)
        if C.ASSASSINATE in by_kind and not me.banker:
            def open_target(t: int) -> float:
                return threat(t) - 30 * self.belief(view, t, C.CONTESSA)
            if C.ASSASSIN in hand or rng.random() < me.assassinate:
                best = at(C.ASSASSINATE, open_target)
                if self.belief(view, target_of(best), C.CONTESSA) < 0.6:
                    return best
        if C.DUKE in hand or rng.random() < me.tax:
            return by_kind[C.TAX][0]
        if C.CAPTAIN in hand or rng.random() < me.steal:
            blockers = C.blockers_of(C.STEAL, view.options.variant)

            def loot(t: int) -> float:
                block = max(self.belief(view, t, c) for c in blockers)
                return min(2, view.coins[t]) * (1 - block) + threat(t) / 100
            best = at(C.STEAL, loot)
            if view.coins[target_of(best)] >= 2:
                return best
        exchanger = C.CLAIMS_IN[view.options.variant][C.EXCHANGE]
        if ((exchanger in hand and self._hand_worth(view, hand) < 9)
                or rng.random() < me.exchange):
            return by_kind[C.EXCHANGE][0]
        duke_risk = max((self.belief(view, s, C.DUKE) for s in self._opponents(view)),
                        default=0)
        if duke_risk < (0.7 if me.banker else 0.5) and rng.random() < 0.7:
            return by_kind[C.FOREIGN_AID][0]
        return by_kind[C.INCOME][0]

    def _respond(self, view: Sight, hand: list[str], moves: Sequence[Move]) -> Move:
        kinds = {m.kind: m for m in moves}
        me = seat_of(view)
        knobs = self.personality
        if view.step == "block":
            blocks = [m for m in moves if m.kind == "block"]
            for m in blocks:
                if m.card in hand:
                    return m
            if view.action == C.ASSASSINATE and view.target == me:
                # Without a Contessa a one-card target dies anyway: the bluff is free.
                doomed = view.influence[me] == 1 and knobs.contessa_when_doomed
                if doomed or self.rng.random() < knobs.contessa:
                    return next(m for m in blocks if m.card == C.CONTESSA)
            if (view.action == C.STEAL and view.target == me
                    and self.rng.random() < knobs.steal_block):
                return blocks[0]
            return kinds["pass"]
        if "challenge" not in kinds:
            return kinds["pass"]
        claimant, claim = view.claimant, view.claim
        assert claimant is not None and claim is not None  # "challenge" is offered
        if unseen_copies(view, claim) == 0:
            return kinds["challenge"]  # the claim is impossible
        if (view.step == "challenge_block" and view.actor == me
                and self.blocks[claimant, claim] > BLOCKS_BORNE):
            return kinds["challenge"]  # blocked so often: find out, or the game never ends
        chance = self.plausibility(view, claimant, claim)
        hurts_me = view.target == me or (view.step == "challenge_block" and view.actor == me)
        if hurts_me and view.action == C.ASSASSINATE and view.step == "challenge_action":
            # Challenging a true Assassin costs two cards (R8); challenge only when unlikely.
            return kinds["challenge"] if chance < 0.15 else kinds["pass"]
        return kinds["challenge"] if chance < self._stakes(view, hurts_me) else kinds["pass"]


class Bluffer(Heuristic):
    """Bold: lies on about a third of its turns, blocks whatever it can, and trusts nobody
    much more than itself."""

    name = "bluffer"
    personality = BLUFFER


class Cautious(Heuristic):
    """A truth-teller: never claims a card it does not hold, not even to survive, and
    calls a lie only when the cards make it nearly sure."""

    name = "cautious"
    personality = CAUTIOUS


class Vengeful(Heuristic):
    """Holds a grudge: aims at whoever last cost it an influence or coins, and doubts that
    player's claims more than anyone's."""

    name = "vengeful"
    personality = VENGEFUL


class Banker(Heuristic):
    """Races to Coup: takes Tax, Steal and Foreign Aid, never pays for an Assassinate."""

    name = "banker"
    personality = BANKER


#: The personalities, by strategy name.
PERSONALITIES: dict[str, type[Heuristic]] = {
    cls.name: cls for cls in (Bluffer, Cautious, Vengeful, Banker)
}
