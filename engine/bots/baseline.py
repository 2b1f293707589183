"""`baseline`: the heuristic as it played when issue 31 began, frozen as the yardstick.

Every figure of the bots (docs/BOTS.md, `coup arena`, benchmarks/reading.py) is measured
against this one opponent, so that a figure taken today and one taken after the other bots
have improved mean the same thing. It must therefore NEVER change: not its moves, not its
use of its random generator, not its knobs. It keeps its own copies of the helpers and
numbers it needs and imports only the engine's rules and the strategy interface, never the
heuristic, the personalities or the belief model, which go on changing.
tests/engine/test_baseline.py replays games the heuristic recorded before it changed and
checks that this plays every move of them the same. Improve the other bots instead.

What it does: it counts the cards it can account for to judge how likely an opponent holds a
character, and remembers what each opponent claimed since its last proof. On a turn it lacks
the card it bluffs Tax on 15% of its turns, Steal 9%, Assassinate 13%, a Contessa block 5%
(always on its last card), a Steal block 8%. It calls a claim when Bayes' rule, weighing the
counted chance against how often the claimant seems to lie (a prior of 40%, moved by each
bluff caught and each proof), falls below a bar set by the stakes. It coups whenever it can
and aims at the most threatening opponent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from math import comb

from .. import cards as C
from ..events import Event
from ..moves import Move
from .base import Sight, Strategy, card_of, cards_of, hand_of, seat_of, target_of

_VALUE = {C.DUKE: 5, C.ASSASSIN: 4.5, C.CAPTAIN: 4, C.CONTESSA: 3.5, C.INQUISITOR: 3,
          C.AMBASSADOR: 2.5}
#: Blocks of its actions by one opponent with one character that it lets stand.
_BLOCKS_BORNE = 2
#: Coins at which a claimant can Coup on its next turn.
_COUP_AT = 7
#: Chances per turn of bluffing each action, and each block, when it lacks the card.
_TAX, _STEAL, _ASSASSINATE = 0.15, 0.09, 0.13
_CONTESSA, _STEAL_BLOCK = 0.05, 0.08
#: The lie rate it assumes of an opponent before any of its claims was tested.
_SUSPICION = 0.4


def _unseen_copies(view: Sight, card: str) -> int:
    seen = hand_of(view).count(card) + view.drawn.count(card)
    for face_up in view.revealed:
        seen += face_up.count(card)
    return max(0, C.copies_in_game(view.options.players, view.options.draft) - seen)


def _chance_holds(view: Sight, seat: int, card: str) -> float:
    pool = sum(view.influence) - view.influence[seat_of(view)] + view.deck_size
    copies = min(_unseen_copies(view, card), pool)
    held = view.influence[seat]
    if copies == 0 or held == 0 or pool == 0:
        return 0.0
    return 1 - comb(pool - copies, held) / comb(pool, held)


class Baseline(Strategy):
    """Today's heuristic, frozen: counts cards, bluffs on a share of its turns, calls
    likely bluffs, aims at the biggest threat."""

    name = "baseline"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.claims: dict[int, set[str]] = {}
        self.blocks: Counter[tuple[int, str]] = Counter()
        self.caught: Counter[int] = Counter()
        self.cleared: Counter[int] = Counter()

    def observe(self, view: Sight, events: Sequence[Event]) -> None:
        for e in events:
            if e.kind in ("prove", "concede") and e.seat is not None:
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

    def _belief(self, view: Sight, seat: int, card: str) -> float:
        counted = _chance_holds(view, seat, card)
        if counted and card in self.claims.get(seat, ()):
            return max(counted, 0.55)
        return counted

    def _plausibility(self, view: Sight, seat: int, card: str) -> float:
        counted = _chance_holds(view, seat, card)
        if counted == 0:
            return 0.0
        lies = ((2 * _SUSPICION + self.caught[seat])
                / (2 + self.caught[seat] + self.cleared[seat]))
        chance = counted / (counted + (1 - counted) * lies)
        distinct = len(self.claims.get(seat, set()) | {card})
        if distinct > view.influence[seat]:
            chance *= view.influence[seat] / distinct
        return chance

    def _stakes(self, view: Sight, hurts_me: bool) -> float:
        claimant = view.claimant
        assert claimant is not None  # a challenge window has its claimant
        threshold = 0.35 if hurts_me else 0.12
        gain = 0
        if view.step == "challenge_action" and view.action is not None:
            gain = {C.TAX: 3, C.STEAL: 2}.get(view.action, 0)
        if (gain and view.coins[claimant] < _COUP_AT <= view.coins[claimant] + gain
                and self._aimed_at(view, claimant)):
            threshold += 0.4
        if view.influence[claimant] == 1:
            threshold += 0.1
        if view.influence[seat_of(view)] == 1:
            threshold /= 2
        return threshold

    def _aimed_at(self, view: Sight, claimant: int) -> bool:
        def score(seat: int) -> int:
            return view.influence[seat] * 10 + view.coins[seat]
        rivals = [s for s, alive in enumerate(view.alive) if alive and s != claimant]
        return score(seat_of(view)) >= max(score(s) for s in rivals)

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
            swap = view.shown is not None and _VALUE[view.shown] >= 4
            return next(m for m in moves if m.swap is swap)
        if phase == "draft":
            return max(moves, key=lambda m: _VALUE[card_of(m)])
        return moves[0]

    def _worth(self, view: Sight, card: str) -> float:
        worth = _VALUE[card]
        if card == C.CONTESSA and any(
            self._belief(view, s, C.ASSASSIN) > 0.5 for s in self._opponents(view)
        ):
            worth += 1.5
        return worth

    def _hand_worth(self, view: Sight, cards: Sequence[str]) -> float:
        return sum(self._worth(view, c) for c in cards) + len(set(cards))

    def _opponents(self, view: Sight) -> list[int]:
        return [s for s, alive in enumerate(view.alive) if alive and s != view.seat]

    def _threat(self, view: Sight, seat: int) -> float:
        score = view.influence[seat] * 10 + view.coins[seat]
        if view.coins[seat] >= 7:
            score += 8
        if self._belief(view, seat, C.ASSASSIN) > 0.5 and view.coins[seat] >= 3:
            score += 4
        return score

    def _action(self, view: Sight, hand: list[str], moves: Sequence[Move]) -> Move:
        rng = self.rng
        by_kind: dict[str, list[Move]] = {}
        for m in moves:
            by_kind.setdefault(m.kind, []).append(m)

        def at(kind: str, score: Callable[[int], float]) -> Move:
            return max(by_kind[kind], key=lambda m: (score(t := target_of(m)), -t))

        def threat(t: int) -> float:
            return self._threat(view, t)

        if C.COUP in by_kind:
            return at(C.COUP, threat)
        if C.ASSASSINATE in by_kind:
            def open_target(t: int) -> float:
                return threat(t) - 30 * self._belief(view, t, C.CONTESSA)
            if C.ASSASSIN in hand or rng.random() < _ASSASSINATE:
                best = at(C.ASSASSINATE, open_target)
                if self._belief(view, target_of(best), C.CONTESSA) < 0.6:
                    return best
        if C.DUKE in hand or rng.random() < _TAX:
            return by_kind[C.TAX][0]
        if C.CAPTAIN in hand or rng.random() < _STEAL:
            blockers = C.blockers_of(C.STEAL, view.options.variant)

            def loot(t: int) -> float:
                block = max(self._belief(view, t, c) for c in blockers)
                return min(2, view.coins[t]) * (1 - block) + threat(t) / 100
            best = at(C.STEAL, loot)
            if view.coins[target_of(best)] >= 2:
                return best
        exchanger = C.CLAIMS_IN[view.options.variant][C.EXCHANGE]
        if exchanger in hand and self._hand_worth(view, hand) < 9:
            return by_kind[C.EXCHANGE][0]
        # It never bluffs an Exchange, but the heuristic it copies drew for that bluff (at a
        # rate of nothing) and the draws that follow must fall as they did.
        rng.random()
        duke_risk = max((self._belief(view, s, C.DUKE) for s in self._opponents(view)),
                        default=0)
        if duke_risk < 0.5 and rng.random() < 0.7:
            return by_kind[C.FOREIGN_AID][0]
        return by_kind[C.INCOME][0]

    def _respond(self, view: Sight, hand: list[str], moves: Sequence[Move]) -> Move:
        kinds = {m.kind: m for m in moves}
        me = seat_of(view)
        if view.step == "block":
            blocks = [m for m in moves if m.kind == "block"]
            for m in blocks:
                if m.card in hand:
                    return m
            # A one-card target dies anyway without a Contessa: the bluff is free.
            if view.action == C.ASSASSINATE and view.target == me and (
                    view.influence[me] == 1 or self.rng.random() < _CONTESSA):
                return next(m for m in blocks if m.card == C.CONTESSA)
            if (view.action == C.STEAL and view.target == me
                    and self.rng.random() < _STEAL_BLOCK):
                return blocks[0]
            return kinds["pass"]
        claimant, claim = view.claimant, view.claim
        if "challenge" not in kinds or claim is None:
            return kinds["pass"]  # (no claim of a character: an Embezzlement, let stand)
        assert claimant is not None  # "challenge" is offered
        if _unseen_copies(view, claim) == 0:
            return kinds["challenge"]
        if (view.step == "challenge_block" and view.actor == me
                and self.blocks[claimant, claim] > _BLOCKS_BORNE):
            return kinds["challenge"]
        chance = self._plausibility(view, claimant, claim)
        hurts_me = view.target == me or (view.step == "challenge_block" and view.actor == me)
        if hurts_me and view.action == C.ASSASSINATE and view.step == "challenge_action":
            return kinds["challenge"] if chance < 0.15 else kinds["pass"]
        return kinds["challenge"] if chance < self._stakes(view, hurts_me) else kinds["pass"]
