"""`heuristic`: reads the table through its beliefs, bluffs where it pays, and calls a bluff
when calling is worth what it risks (the `hard` level).

What it knows of the others is a `Beliefs` (engine/bots/beliefs.py): card counting, the
claims each seat made and conceded, the blocks it let pass, and each seat's record of truth.
On a turn it lacks the card it bluffs at its personality's rates per turn (by default Tax
15%, Steal 9%, Assassinate 13%: winners' rates in a 600k-game online dataset), scaled by how
often the table calls bluffs: heads-up, an opponent that never calls is bluffed up to three
times as often; at a larger table it bluffs at most half its rates, and a table that calls
everything hardly at all. It coups whenever it can and aims at the most
threatening opponent (by default).

It calls a claim when the chance it is a bluff is worth the risk: a wrong call costs it a
card (its last one is the game), a right one costs the claimant a card (worth more to it
the fewer opponents share the gain) and stops the action (coins that would arm a Coup at
it, a Steal from it, a block of its own action). A seat whose claims keep proving true is
believed, so it is called less and less; one caught lying is called more.

Its knobs (bluff rates, suspicion, how boldly it calls, targeting, coin policy) are a
`Personality`; the named personalities are the subclasses at the end, registered as
strategies. Its estimates go through `belief` and `bluff_chance`, which the medium level
(`careless`) blurs.

At a Reformation table (R12) it converts when a Conversion cuts how exposed its faction
leaves it by more than the coins are worth, embezzles the Almshouse when it holds no Duke,
and calls an Embezzlement when the chance its claimant holds a Duke is worth the card it
risks (engine/bots/reformation.py).

It does not let a block stand for ever: the same opponent blocking its actions with the same
character a third time since that opponent last showed a card is challenged, so two bots
that would trade Assassinate for a Contessa block every turn end their game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import ClassVar

from .. import cards as C
from ..events import Event
from ..moves import Move
from .base import Sight, Strategy, card_of, cards_of, hand_of, seat_of, target_of
from .beliefs import CALLS, Beliefs
from .personality import BANKER, BLUFFER, CAUTIOUS, DEFAULT, VENGEANCE, VENGEFUL, Personality
from .reformation import called, conversion, embezzle_pays

VALUE = {C.DUKE: 5, C.ASSASSIN: 4.5, C.CAPTAIN: 4, C.CONTESSA: 3.5, C.INQUISITOR: 3,
         C.AMBASSADOR: 2.5}
#: Blocks of its actions by one opponent with one character that it lets stand: the next
#: one is challenged.
BLOCKS_BORNE = 2
#: Coins at which a claimant can Coup on its next turn: a claim that gets it there races.
COUP_AT = 7

#: A coin's worth in a seat's strength, where a card is 1 (coins count up to a Coup's),
#: and what a Coup in hand adds.
COIN = 0.1
ARMED = 0.3
#: Bluffing is scaled by how likely a bluff is called at the table against how likely at a
#: table of strangers (the beliefs' prior), up to this many times the personality's rate
#: heads-up, and up to CROWD times it with more than one opponent.
BOOST = 3.0
CROWD = 0.5


def _strength(influence: int, coins: int) -> float:
    """A seat's strength: it grows with the square of its cards (a last card is the game)
    and with its coins up to a Coup's worth."""
    if influence <= 0:
        return 0.0
    return (influence + COIN * min(coins, COUP_AT) + (ARMED if coins >= COUP_AT else 0.0)) ** 2


class Heuristic(Strategy):
    """Reads the table, bluffs where it pays, calls bluffs worth calling, aims at the
    biggest threat."""

    name = "heuristic"
    personality: ClassVar[Personality] = DEFAULT

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.beliefs = Beliefs(self.personality.suspicion)
        #: Blocks of this seat's actions, by (blocker, character), since the blocker last
        #: showed a card or took a new hand.
        self.blocks: Counter[tuple[int, str]] = Counter()
        #: The seat that would be to blame if this seat lost a card now, and the seat that
        #: last cost it an influence or coins.
        self.blame: int | None = None
        self.grudge: int | None = None
        #: The claimant this seat challenged, until the challenge is settled.
        self.challenged: int | None = None

    @property
    def claims(self) -> dict[int, set[str]]:
        """What each opponent has claimed since its hand last changed."""
        return {s: set(claimed) for s in self.beliefs.seats()
                if (claimed := self.beliefs.claimed(s))}

    # ------------------------------------------------------------------ memory

    def observe(self, view: Sight, events: Sequence[Event]) -> None:
        self.beliefs.observe(view, events)
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
            if (e.kind == "block" and e.seat is not None and e.card is not None
                    and e.target == me):
                self.blocks[e.seat, e.card] += 1
            elif e.kind in ("prove", "concede", "keep", "examine_swap"):
                seat = e.target if e.kind == "examine_swap" else e.seat
                for key in [k for k in self.blocks if k[0] == seat]:
                    del self.blocks[key]

    def belief(self, view: Sight, seat: int, card: str) -> float:
        """How likely `seat` holds `card`, as far as this seat can tell."""
        return self.beliefs.holds(view, seat, card)

    def bluff_chance(self, view: Sight, seat: int, card: str) -> float:
        """How likely `seat`'s claim to `card` is a bluff, as far as this seat can tell."""
        return self.beliefs.bluff_chance(view, seat, card)

    def _considers(self, action: str) -> bool:
        """Whether, on this turn, it thinks of `action` at all (it always does)."""
        return True

    # ------------------------------------------------------------------ weighing

    def _worth_calling(self, view: Sight, bluff: float) -> bool:
        """Whether calling the open claim, a bluff with chance `bluff`, leaves this seat
        better off than letting it stand, each outcome judged by this seat's share of the
        table's strength: a wrong call costs it a card and lets the claim stand; a right
        one costs the claimant a card and undoes the claim (a failed action does nothing, a
        failed block lets the action work)."""
        claimant, me = view.claimant, seat_of(view)
        assert claimant is not None  # a challenge window has its claimant
        influence, coins = self._done(view)
        if view.step == "challenge_action":  # a right call undoes the action
            caught_influence, caught_coins = list(view.influence), view.coins
            stands = [_strength(i, c) for i, c in zip(influence, coins)]
        else:  # a right call lets the blocked action work
            caught_influence, caught_coins = influence, coins
            stands = [_strength(i, c) for i, c in zip(view.influence, view.coins)]
            influence, coins = list(view.influence), list(view.coins)
        total = sum(stands)
        standing = stands[me] / total
        mine = _strength(influence[me] - 1, coins[me])  # a wrong call: one card less
        wrong = mine / (total - stands[me] + mine)
        scale = self.personality.challenge
        if claimant == self.grudge and self.personality.targeting == VENGEANCE:
            scale *= self.personality.grudge_calls
        risk = (1 - bluff) * (standing - wrong)
        if bluff * (1 - standing) * scale <= risk:
            return False  # not worth it even if a right call won it the game
        caught_influence[claimant] -= 1
        caught = [_strength(i, c) for i, c in zip(caught_influence, caught_coins)]
        return bluff * (caught[me] / sum(caught) - standing) * scale > risk

    def _done(self, view: Sight) -> tuple[list[int], list[int]]:
        """Influence and coins once the turn's action works."""
        influence, coins = list(view.influence), list(view.coins)
        actor, target, action = view.actor, view.target, view.action
        assert actor is not None  # a claim is answered during a turn
        if action in C.GAIN:
            coins[actor] += C.GAIN[action]
        elif action == C.EMBEZZLE:
            coins[actor] += view.almshouse
        elif action == C.STEAL and target is not None:
            taken = min(2, coins[target])
            coins[actor] += taken
            coins[target] -= taken
        elif action == C.ASSASSINATE and target is not None:
            # Its target may yet block: a Contessa it holds, or is believed to, saves it.
            if target == seat_of(view):
                blocked = C.CONTESSA in hand_of(view)
            else:
                blocked = self.belief(view, target, C.CONTESSA) > 0.5
            if not blocked:
                influence[target] = max(0, influence[target] - 1)
        return influence, coins

    def _aimed_at(self, view: Sight, claimant: int) -> bool:
        """Whether this seat is (one of) the biggest threat(s) `claimant` faces, by cards
        then coins: whom a Coup of its is likely for. Challenging on others' behalf costs
        this seat a card when it is wrong and helps them as much as it."""
        def score(seat: int) -> int:
            return view.influence[seat] * 10 + view.coins[seat]
        rivals = [s for s, alive in enumerate(view.alive) if alive and s != claimant]
        return score(seat_of(view)) >= max(score(s) for s in rivals)

    def _boldness(self, view: Sight, callers: Sequence[int]) -> float:
        """How much more (or less) to bluff than the personality's rates, from how likely
        `callers` are to call it against a table of strangers. Heads-up it bluffs up to
        BOOST times its rates; at a larger table at most half of them, since a caught bluff
        costs it a card to the profit of every other seat, the quiet ones most (at full
        rates `honest` alone against three of it won 24.8% over 400 games, at half 15.6%
        over 500, and the heuristic alone against three baselines 34.2% then 39.2%)."""
        usual = called([CALLS] * len(callers))
        likely = called([self.beliefs.calls(seat) for seat in callers])
        most = BOOST if len(self._opponents(view)) == 1 else CROWD
        return most if likely <= 0 else min(most, usual / likely)

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
        bold = self._boldness(view, self._opponents(view))

        def threat(t: int) -> float:
            grudge = me.targeting == VENGEANCE and t == self.grudge
            return self._threat(view, t) + (100 if grudge else 0)

        if C.COUP in by_kind:
            return at(C.COUP, threat)
        if C.ASSASSINATE in by_kind and not me.banker and self._considers(C.ASSASSINATE):
            def open_target(t: int) -> float:
                return threat(t) - 30 * self.belief(view, t, C.CONTESSA)
            if C.ASSASSIN in hand or rng.random() < me.assassinate * bold:
                best = at(C.ASSASSINATE, open_target)
                if self.belief(view, target_of(best), C.CONTESSA) < 0.6:
                    return best
        if C.CONVERT in by_kind:
            converted = conversion(view, by_kind[C.CONVERT], self._threat)
            if converted is not None:
                return converted
        if C.EMBEZZLE in by_kind and self._embezzles(view, hand):
            return by_kind[C.EMBEZZLE][0]
        if C.DUKE in hand or rng.random() < me.tax * bold:
            return by_kind[C.TAX][0]
        if self._considers(C.STEAL) and (C.CAPTAIN in hand or rng.random() < me.steal * bold):
            blockers = C.blockers_of(C.STEAL, view.options.variant)

            def loot(t: int) -> float:
                block = max(self.belief(view, t, c) for c in blockers)
                return min(2, view.coins[t]) * (1 - block) + threat(t) / 100
            best = at(C.STEAL, loot)
            if view.coins[target_of(best)] >= 2:
                return best
        exchanger = C.CLAIMS_IN[view.options.variant][C.EXCHANGE]
        if ((exchanger in hand and self._hand_worth(view, hand) < 9)
                or rng.random() < me.exchange * bold):
            return by_kind[C.EXCHANGE][0]
        duke_risk = max((self.belief(view, s, C.DUKE) for s in self._opponents(view)),
                        default=0)
        if duke_risk < (0.7 if me.banker else 0.5) and rng.random() < 0.7:
            return by_kind[C.FOREIGN_AID][0]
        return by_kind[C.INCOME][0]

    def _embezzles(self, view: Sight, hand: list[str]) -> bool:
        """Whether the Almshouse is worth a turn's Embezzlement (R12.11): for a seat without
        a Duke when it holds at least a Foreign Aid's coins; holding one, a bluff at the
        personality's rate, only where it pays against the table's callers."""
        duke = C.DENIED in hand
        calls = [self.beliefs.calls(s) for s in self._opponents(view)]
        if not embezzle_pays(view.almshouse, duke, calls):
            return False
        return not duke or self.rng.random() < self.personality.embezzle

    def _respond(self, view: Sight, hand: list[str], moves: Sequence[Move]) -> Move:
        kinds = {m.kind: m for m in moves}
        me = seat_of(view)
        knobs = self.personality
        if view.step == "block":
            blocks = [m for m in moves if m.kind == "block"]
            for m in blocks:
                if m.card in hand:
                    return m
            actor = view.actor
            bold = self._boldness(view, [actor] if actor is not None else [])
            # Against its grudge a vengeful seat bluffs a block at least this often.
            spite = (knobs.grudge_blocks
                     if actor == self.grudge and knobs.targeting == VENGEANCE else 0.0)
            if view.action == C.ASSASSINATE and view.target == me:
                # Without a Contessa a one-card target dies anyway: the bluff is free.
                doomed = view.influence[me] == 1 and knobs.contessa_when_doomed
                if doomed or self.rng.random() < max(spite, knobs.contessa * bold):
                    return next(m for m in blocks if m.card == C.CONTESSA)
            if (view.action == C.STEAL and view.target == me
                    and self.rng.random() < max(spite, knobs.steal_block * bold)):
                return blocks[0]
            return kinds["pass"]
        claimant, claim = view.claimant, view.claim
        if "challenge" not in kinds:
            return kinds["pass"]
        assert claimant is not None  # "challenge" is offered
        if claim is None:  # an Embezzlement (R12.12): a bluff while it holds a Duke
            bluff = self.belief(view, claimant, C.DENIED)
            return kinds["challenge"] if self._worth_calling(view, bluff) else kinds["pass"]
        bluff = self.bluff_chance(view, claimant, claim)
        if bluff >= 1.0:
            return kinds["challenge"]  # the claim is impossible: every copy is accounted for
        if (view.step == "challenge_block" and view.actor == me
                and self.blocks[claimant, claim] > BLOCKS_BORNE):
            return kinds["challenge"]  # blocked so often: find out, or the game never ends
        if (view.target == me and view.action == C.ASSASSINATE
                and view.step == "challenge_action"):
            # Challenging a true Assassin costs two cards (R8): call only a likely bluff,
            # and not while a Contessa of its own can block it.
            if C.CONTESSA in hand:
                return kinds["pass"]
            return kinds["challenge"] if bluff > 0.85 else kinds["pass"]
        return kinds["challenge"] if self._worth_calling(view, bluff) else kinds["pass"]


class Bluffer(Heuristic):
    """Bold: lies on about a third of its turns, blocks whatever it can, and expects others
    to lie as it does, so it believes them less and calls them more."""

    name = "bluffer"
    personality = BLUFFER


class Cautious(Heuristic):
    """A truth-teller: never claims a card it does not hold, not even to survive; believes
    others as it would be believed, and calls a lie only when nearly sure."""

    name = "cautious"
    personality = CAUTIOUS


class Vengeful(Heuristic):
    """Holds a grudge: aims at whoever last cost it an influence or coins, calls that
    player's claims far more readily than anyone's, and bluffs blocks of its attacks."""

    name = "vengeful"
    personality = VENGEFUL


class Banker(Heuristic):
    """Races to Coup: takes Tax, Steal and Foreign Aid, never pays for an Assassinate, and
    calls others' claims less, keeping its cards for the race."""

    name = "banker"
    personality = BANKER


#: The personalities, by strategy name.
PERSONALITIES: dict[str, type[Heuristic]] = {
    cls.name: cls for cls in (Bluffer, Cautious, Vengeful, Banker)
}
