"""Beliefs: what one seat may infer of the others' face-down cards from the public record.

For each opponent it keeps the evidence about the cards that seat holds now — characters it
claimed (actions and blocks) since its hand last changed, claims it conceded under challenge
(it very likely lacks that card), chances to block it let pass (a target that does not block an
Assassination seldom holds a Contessa), cards an Examine showed us, an Embezzlement's claim
to hold no Duke (R12.11.1: a hand with a Duke needed a lie, as for a claimed character it
lacks; a conceded one all but shows a Duke) — and, across the whole
game, how often its challenged claims proved true or failed (its record of truth) and how
often it challenges others' claims. Asked
about a seat, it weighs every hand that seat may hold: the chance of the hand by counting
(the cards the viewer cannot account for, dealt at random: the deck's composition less its
own hand and every face-up card) times the likelihood of the evidence under that hand, where
a claimed character the hand lacks counts as a lie, at the seat's lie rate.

The lie rate of a seat is the chance it claims a character it lacks, a Beta estimate: a
prior (the personality's suspicion) worth two claims, moved by each of its claims that was
tested — a proof earns it trust, a caught bluff loses it, and so does naming more characters
than it holds cards (at least one of those claims was a lie). A proof also resets what is known
of the proved card: it went back to the deck and the seat drew a random one. An Exchange
or an Examine's swap deals the seat a new hand, and its evidence starts again.

It is pure and deterministic: no clock, no I/O, and nothing depends on the order of a set
(characters are always visited in the cast's order), so one record always gives the same
figures and, with one generator, the same samples. It must never read a card its seat may
not see: it learns only from the events and views its seat is given.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations_with_replacement
from math import comb

from .. import cards as C
from ..events import Event
from .base import Sight, hand_of, seat_of

#: The lie rate assumed of a seat none of whose claims was tested yet: the chance it claims
#: a character it lacks. Near what winners online do (they bluff 9-15% of their turns); at
#: 0.4 the heuristic called true claims so often that never lying beat it (docs/BOTS.md).
SUSPICION = 0.12
#: Weight, in claims, of that prior against a seat's own record.
PRIOR_CLAIMS = 2
#: How much less likely a hand with the card is, when the seat let a chance to block with
#: it go by: almost every player blocks an Assassination aimed at it with a Contessa it
#: holds, most block a Steal of theirs, about half a Foreign Aid they could stop.
PASSED_BLOCK = {C.ASSASSINATE: 0.15, C.STEAL: 0.3, C.FOREIGN_AID: 0.6}
#: How much less likely a Duke is in the hand of a seat that took Income or Foreign Aid,
#: when a Tax would have paid more.
SKIPPED_TAX = 0.5
#: What a turn taken without a claim (Income, Foreign Aid) counts for in a seat's record of
#: truth, as a share of a proof: a seat that lacks the Duke and takes Income has declined a
#: bluff, and a habitual liar seldom does.
DECLINED = 0.5
#: How much less likely a hand with a character is when the seat conceded a claim to it:
#: nearly proof that it lacks one, but the rules let a seat concede a card it holds.
CONCEDED = 0.02
#: The share of the claims it may call that a seat is assumed to call before it has been
#: seen answering any, and the weight of that prior in claims answered.
CALLS = 0.1
PRIOR_ANSWERS = 5
#: How much likelier a hand with a Duke is for a seat that conceded a challenged
#: Embezzlement (R12.12.2): proving it would have cost the challenger a card, so a seat
#: concedes it almost only when it holds a Duke and cannot prove.
CONCEDED_DENIAL = 1 / CONCEDED
#: How much likelier a hand with a Duke is for a seat that chose its first card from a full
#: set of characters in the two-player draft (R1.7): most choose the Duke. (One factor on the
#: hand stands in for the draft's two sets: counting alone gives an opponent a Duke 42% of
#: the time there, the factor 68%, a table that always picks the Duke about 70%.)
DRAFTED_DUKE = 8.0


@dataclass(slots=True)
class _Evidence:
    """What is known of one seat's present hand, and its record of truth."""

    #: Characters it claimed since its hand last changed.
    claimed: set[str] = field(default_factory=set)
    #: It claimed to hold no Duke (an Embezzlement, R12.11.1) since its hand last changed.
    denied: bool = False
    #: Cards it showed us (an Examine), still in its hand.
    known: list[str] = field(default_factory=list)
    #: Likelihood factors of holding a character, from what it did not do.
    factors: dict[str, float] = field(default_factory=dict)
    #: It chose its first card in the draft, and has shown no Duke since.
    drafted: bool = False
    #: Its challenged claims that proved true, and that failed.
    proved: int = 0
    caught: int = 0
    #: Lies its claims prove without a challenge, having named more characters than it
    #: held cards: in its present hand, and in the hands it held before.
    over: int = 0
    exposed: int = 0
    #: Turns it took without claiming a character.
    declined: int = 0
    #: Others' claims it challenged, and those it let pass, this game.
    calls: int = 0
    let_pass: int = 0

    def new_hand(self) -> None:
        """It holds other cards now: what was known of the old ones no longer holds."""
        self.claimed.clear()
        self.denied = False
        self.exposed += self.over
        self.over = 0
        self.known.clear()
        self.factors.clear()
        self.drafted = False

    def weigh(self, card: str, factor: float) -> None:
        self.factors[card] = self.factors.get(card, 1.0) * factor


@dataclass(frozen=True, slots=True)
class Deal:
    """A world consistent with a seat's view: every hand (the viewer's own as it is), an
    Exchange's draw the viewer did not see (else the viewer's own draw), the card an Examine
    showed (if any), the Court deck top first, and the cards out of play (the draft's)."""

    hands: tuple[tuple[str, ...], ...]
    drawn: tuple[str, ...]
    shown: str | None
    deck: tuple[str, ...]
    removed: tuple[str, ...]


class Beliefs:
    """One seat's beliefs about the others' face-down cards. Feed it every event its seat
    sees (`observe`), then ask with the seat's current view."""

    def __init__(self, suspicion: float = SUSPICION) -> None:
        if not 0 < suspicion < 1:
            raise ValueError(f"suspicion is a lie rate between 0 and 1, not {suspicion!r}")
        self.suspicion = suspicion
        self._seats: dict[int, _Evidence] = {}
        #: The target of the action under way: its pass in the block window is telling.
        self._target: int | None = None
        #: The cards of the viewer's own draft set it did not choose: out of the game (R1.7).
        self._set_aside: tuple[str, ...] = ()
        #: Hand weights already worked out, by seat, extra claim and the unseen cards:
        #: emptied by every new event, since they depend on the evidence.
        self._memo: dict[tuple[int, str | None, tuple[int, ...]], dict[tuple[str, ...], float]] = {}
        #: The last view asked about (held, so that no other object takes its identity) and
        #: its unseen cards.
        self._last: tuple[Sight, dict[str, int]] | None = None

    def _of(self, seat: int) -> _Evidence:
        evidence = self._seats.get(seat)
        if evidence is None:
            evidence = self._seats[seat] = _Evidence()
        return evidence

    # ------------------------------------------------------------------ learning

    def observe(self, view: Sight, events: Sequence[Event]) -> None:
        """Learn from `events`, the events `view`'s seat was shown for one move."""
        if events:
            self._memo.clear()
            self._last = None
        me = view.seat
        for e in events:
            kind, seat = e.kind, e.seat
            if kind == "picked" and seat == me and e.card is not None:
                # A draft set holds one card of each character: the rest leave the game.
                self._set_aside = tuple(c for c in C.CAST[view.options.variant] if c != e.card)
            if seat is None or seat == me:
                continue
            if kind == "action":
                self._target = e.target
                if e.card is not None:
                    self._claims(view, seat, e.card)
                elif e.action in (C.INCOME, C.FOREIGN_AID):
                    self._of(seat).weigh(C.DUKE, SKIPPED_TAX)
                    self._of(seat).declined += 1
                elif e.action == C.EMBEZZLE:
                    self._denies(seat)
            elif kind == "block" and e.card is not None:
                self._claims(view, seat, e.card)
            elif kind == "pass" and e.action is not None:
                self._passed_block(view, seat, e.action)
            elif kind == "pass":
                self._of(seat).let_pass += 1
            elif kind == "challenge":
                self._of(seat).calls += 1
            elif kind == "prove" and e.card is not None:
                evidence = self._of(seat)
                evidence.proved += 1
                # The proved card went back and a random one came: what was claimed of the
                # other card stands, nothing else does.
                claimed = evidence.claimed - {e.card}
                evidence.new_hand()
                evidence.claimed |= claimed
            elif kind == "concede" and e.card is not None:
                evidence = self._of(seat)
                evidence.caught += 1
                evidence.claimed.discard(e.card)
                evidence.weigh(e.card, CONCEDED)
            elif kind == "concede":  # an Embezzlement's denial of a Duke, given up
                evidence = self._of(seat)
                evidence.caught += 1
                evidence.denied = False
                evidence.weigh(C.DENIED, CONCEDED_DENIAL)
            elif kind == "disprove":  # every card shown, none a Duke, and all redrawn
                evidence = self._of(seat)
                evidence.proved += 1
                evidence.new_hand()
            elif kind == "lose" and e.card is not None:
                evidence = self._of(seat)
                if e.card in evidence.claimed:  # face up, a claim of its shows it was true
                    evidence.claimed.discard(e.card)
                    evidence.proved += 1
                evidence.drafted = evidence.drafted and e.card != C.DUKE
                if e.card == C.DENIED and evidence.factors.get(C.DENIED, 1.0) > 1:
                    del evidence.factors[C.DENIED]  # the Duke it conceded for is gone
                if e.card in evidence.known:
                    evidence.known.remove(e.card)
            elif kind == "keep":
                self._of(seat).new_hand()
            elif kind == "drafted":
                self._of(seat).drafted = True
            elif (kind == "shown" and e.target == me and e.card is not None
                    # shown the same character again, it may be the same card: once
                    and e.card not in self._of(seat).known):
                self._of(seat).known.append(e.card)
        for e in events:
            if e.kind == "examine_swap" and e.target is not None and e.target != me:
                self._of(e.target).new_hand()

    def _claims(self, view: Sight, seat: int, card: str) -> None:
        evidence = self._of(seat)
        evidence.claimed.add(card)
        evidence.over = max(evidence.over, len(evidence.claimed) - view.influence[seat])
        if card == C.DENIED and evidence.denied:  # it embezzled with this hand (_denies)
            evidence.over = max(evidence.over, 1)

    def _denies(self, seat: int) -> None:
        """`seat` embezzles: it claims to hold no Duke. Having claimed one (a Tax, a block
        of Foreign Aid) with the same hand, before or after (_claims), it has lied once at
        least."""
        evidence = self._of(seat)
        evidence.denied = True
        if C.DENIED in evidence.claimed:
            evidence.over = max(evidence.over, 1)

    def _passed_block(self, view: Sight, seat: int, action: str) -> None:
        factor = PASSED_BLOCK.get(action)
        if factor is None or (action != C.FOREIGN_AID and seat != self._target):
            return
        for card in C.blockers_of(action, view.options.variant):
            self._of(seat).weigh(card, factor)

    # ------------------------------------------------------------------ asking

    def lie_rate(self, seat: int) -> float:
        """The chance `seat` claims a character it lacks: the prior moved by its record
        (claims proved or shown true by a lost card, turns it took without a claim, bluffs
        caught, and lies it gave away by claiming more characters than it held cards)."""
        evidence = self._seats.get(seat)
        if evidence is None:
            return self.suspicion
        lies = evidence.caught + evidence.exposed + evidence.over
        truths = evidence.proved + DECLINED * evidence.declined
        return (PRIOR_CLAIMS * self.suspicion + lies) / (PRIOR_CLAIMS + truths + lies)

    def trust(self, seat: int) -> float:
        """How far `seat`'s claims are believed: one less its lie rate."""
        return 1 - self.lie_rate(seat)

    def calls(self, seat: int) -> float:
        """The share of others' claims `seat` challenges: a prior moved by its answers."""
        evidence = self._seats.get(seat)
        if evidence is None:
            return CALLS
        answers = evidence.calls + evidence.let_pass
        return (PRIOR_ANSWERS * CALLS + evidence.calls) / (PRIOR_ANSWERS + answers)

    def record(self, seat: int) -> tuple[int, int]:
        """`seat`'s challenged claims: how many proved true, how many failed."""
        evidence = self._seats.get(seat)
        return (evidence.proved, evidence.caught) if evidence else (0, 0)

    def seats(self) -> tuple[int, ...]:
        """The seats it has learnt anything of, in seat order."""
        return tuple(sorted(self._seats))

    def claimed(self, seat: int) -> tuple[str, ...]:
        """The characters `seat` claimed since its hand last changed, in the cast's order."""
        evidence = self._seats.get(seat)
        return C.sort_cards(evidence.claimed) if evidence else ()

    def holds(self, view: Sight, seat: int, card: str) -> float:
        """The chance that `seat`'s face-down cards include at least one `card`."""
        return self._chance(view, seat, card, None)

    def bluff_chance(self, view: Sight, seat: int, card: str) -> float:
        """The chance that `seat`, claiming `card` now, does not hold it."""
        return 1 - self._chance(view, seat, card, card)

    def cards(self, view: Sight, seat: int) -> dict[str, float]:
        """For each character of the game, the chance that one of `seat`'s face-down cards,
        taken at random, is that character (they sum to 1 while it holds any)."""
        weights = self._hands(view, seat, None)
        total = sum(weights.values())
        held = view.influence[seat]
        cast = C.CAST[view.options.variant]
        if not total or not held:
            return dict.fromkeys(cast, 0.0)
        return {c: sum(w * h.count(c) for h, w in weights.items()) / total / held for c in cast}

    def _chance(self, view: Sight, seat: int, card: str, claim: str | None) -> float:
        evidence = self._seats.get(seat)
        if evidence is None or not (evidence.claimed or evidence.known or evidence.factors
                                    or evidence.drafted or evidence.denied):
            # Nothing but counting (every seat of a search's playout): in closed form.
            unseen = self._unseen(view)
            pool, held = sum(unseen.values()), view.influence[seat]
            if not held or not unseen[card]:
                return 0.0
            counted = 1 - comb(pool - unseen[card], held) / comb(pool, held)
            if claim is None:
                return counted
            lies = self.lie_rate(seat)
            return counted / (counted + (1 - counted) * lies)
        weights = self._hands(view, seat, claim)
        total = sum(weights.values())
        if not total:
            return 0.0
        return sum(w for h, w in weights.items() if card in h) / total

    def _hands(self, view: Sight, seat: int, claim: str | None) -> dict[tuple[str, ...], float]:
        """Every hand `seat` may hold, with its weight: its chance by counting times the
        likelihood of the evidence."""
        unseen = self._unseen(view)
        key = (seat, claim, tuple(unseen.values()) + (view.influence[seat],))
        weights = self._memo.get(key)
        if weights is None:
            held, lies = view.influence[seat], self.lie_rate(seat)
            weights = self._weigh(unseen, held, self._seats.get(seat), lies, claim)
            if not weights:  # evidence no hand left agrees with: fall back to counting
                weights = self._weigh(unseen, held, None, lies, claim)
            self._memo[key] = weights
        return weights

    @staticmethod
    def _weigh(unseen: dict[str, int], held: int, evidence: _Evidence | None, lies: float,
               claim: str | None) -> dict[tuple[str, ...], float]:
        weights: dict[tuple[str, ...], float] = {}
        for hand, copies in _hands(tuple(unseen), held):
            weight = 1.0
            for c, n in copies:
                weight *= comb(unseen[c], n)
            if weight and evidence is not None:
                weight *= _likelihood(hand, evidence, lies, claim)
            elif weight and claim is not None and claim not in hand:
                weight *= lies
            if weight:
                weights[hand] = weight
        return weights

    # ------------------------------------------------------------------ sampling

    def sample_hands(self, rng: random.Random, view: Sight) -> Deal:
        """A world drawn from these beliefs: each opponent's hand drawn (in seat order) by
        its weight among the cards still undealt, then an unseen Exchange draw, the deck and
        the cards out of play drawn at random. It deals each character no more often than
        the game holds it less the cards the viewer sees, gives the viewer its own hand, and
        every other seat the cards it is known to hold and exactly its face-down count."""
        me = seat_of(view)
        unseen = self._unseen(view)
        pool = Counter(unseen)
        hands: list[tuple[str, ...]] = [()] * view.options.players
        hands[me] = tuple(hand_of(view))
        shown = view.shown
        sure: dict[int, list[str]] = {}
        for seat in range(view.options.players):
            if seat == me or not view.influence[seat]:
                continue
            evidence = self._seats.get(seat)
            known = list(evidence.known) if evidence else []
            if (shown is not None and seat == view.target and view.actor == me
                    and shown not in known):
                known.append(shown)  # the Examine's card, before its event was observed
            sure[seat] = []
            for c in known:
                if pool[c] > 0:
                    pool[c] -= 1
                    sure[seat].append(c)
        for seat, known in sure.items():
            free = view.influence[seat] - len(known)
            hand = self._draw_hand(rng, pool, free, self._seats.get(seat), self.lie_rate(seat))
            pool.subtract(hand)
            hands[seat] = C.sort_cards(known + list(hand))
        rest = [c for c in unseen for _ in range(pool[c])]
        rng.shuffle(rest)
        drawn: tuple[str, ...] = tuple(view.drawn)
        if view.phase == "keep" and view.actor != me:
            count = C.exchange_draw(view.options.variant)
            drawn, rest = tuple(rest[:count]), rest[count:]
        deck = tuple(rest[:view.deck_size])
        removed = self._set_aside + tuple(rest[view.deck_size:])
        return Deal(tuple(hands), drawn, shown, deck, removed)

    @staticmethod
    def _draw_hand(rng: random.Random, pool: Counter[str], free: int,
                   evidence: _Evidence | None, lies: float) -> tuple[str, ...]:
        """`free` cards from `pool` (which it leaves as it is), drawn by the evidence."""
        if free <= 0:
            return ()
        left = {c: n for c, n in pool.items() if n > 0}
        weights = Beliefs._weigh(left, free, evidence, lies, None)
        if not weights:  # evidence no hand left agrees with: fall back to counting
            weights = Beliefs._weigh(left, free, None, lies, None)
        hands = list(weights)
        return rng.choices(hands, weights=[weights[h] for h in hands])[0]


    def _unseen(self, view: Sight) -> dict[str, int]:
        """The copies of each character the viewer cannot account for, in the cast's
        order: the game's copies less its own hand, its Exchange draw, every face-up card
        and the draft set it chose from. Worked out once per view: one decision asks about
        several seats and cards with the same view (a view is a snapshot, and a search's
        sight of a world is made afresh for each decision)."""
        if self._last is not None and self._last[0] is view:
            return self._last[1]
        unseen = _unseen(view, self._set_aside)
        self._last = (view, unseen)
        return unseen


def _unseen(view: Sight, set_aside: Sequence[str]) -> dict[str, int]:
    # Counted by hand, not with a Counter: every decision of a search's playouts asks this
    # several times, and Counter.update costs four times as much.
    left = dict.fromkeys(C.CAST[view.options.variant],
                         C.copies_in_game(view.options.players, view.options.draft))
    for cards in (hand_of(view), set_aside, view.drawn, *view.revealed):
        for c in cards:
            left[c] -= 1
    for c, n in left.items():
        if n < 0:  # seen more often than the game holds it: only a broken view does that
            left[c] = 0
    return left


@cache
def _hands(cast: tuple[str, ...], held: int) -> tuple[tuple[tuple[str, ...],
                                                         tuple[tuple[str, int], ...]], ...]:
    """Every hand of `held` cards of `cast` (in its order), each with its count of each
    character: worked out once per cast and size, since every question asks for them."""
    return tuple((hand, tuple(Counter(hand).items()))
                 for hand in combinations_with_replacement(cast, held))


def _likelihood(hand: tuple[str, ...], evidence: _Evidence, lies: float,
                claim: str | None) -> float:
    """How likely `evidence` is if the seat holds `hand`."""
    for c in evidence.known:
        if hand.count(c) < evidence.known.count(c):
            return 0.0
    # Counted, not multiplied in the set's order: the same figure in every process.
    missing = sum(1 for c in evidence.claimed if c not in hand)
    if evidence.denied and C.DENIED in hand:
        missing += 1
    if claim is not None and claim not in evidence.claimed and claim not in hand:
        missing += 1
    weight = lies ** missing
    for c, factor in evidence.factors.items():
        if c in hand:
            weight *= factor
    if evidence.drafted and C.DUKE in hand:
        weight *= DRAFTED_DUKE
    return weight
