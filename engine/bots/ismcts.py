"""`ismcts`: information-set Monte Carlo search with a budget of playouts per decision.

The search runs where it pays: the bot's own turn (which action, on whom), the card it loses
and the cards it keeps after an Exchange. Each iteration samples a world consistent with
everything the bot has seen — the other seats' face-down cards, the deck, a draw or a shown
card it did not see — drawn from its beliefs (engine/bots/beliefs.py: card counting weighed
by what each seat claimed, conceded and let pass, and its record of truth). In that one
world the candidate moves are tried and the game played on for at most PLAYOUT_CAP moves by
a model of the table: the frozen baseline at every seat (`Reformed`: taught to take the
Almshouse at a Reformation table), starting from what the table has seen (the claims since
each seat's last proof, the bluffs caught), so that a third character claimed on two cards
is as suspect in a playout as at the table. A game that ends
scores 1 or 0, one cut short the bot's share of the table's influence and coins. The same
world and the same dice serve every candidate, so that the comparison is between moves and
not between luck. The budget is spent by sequential halving: all candidates in a few
worlds, then the better half in more, and so on, so that the likely best moves are compared
in many worlds rather than every move in a few. The move the Reader (below) would play stays
to the last round and wins a tie, so the search overrides it only on the evidence of the most
worlds.

How it bluffs: in a playout a lie is exactly as visible as at the table (the opponents count
cards from their own sight, never the sampled truth), and each opponent also calls a claim
outright with a chance of its own: the share of claims the table saw it call beyond what
the baseline calls, at least PEOPLE at a table of three or more (people call more than the
baseline), HURT times that when the claim hurts it. So a bluff is chosen where it pays
against such callers, and a seat seen to call everything makes every lie near it a losing
move in the playouts: the search stops lying there.

Answering a claim (challenge, block or pass) is not searched: a sampled world cannot tell a
bluff from the truth any better than the beliefs that dealt it, and a search that trusts
its samples there challenges far too often. A `Reader` answers: the baseline's bars, set by
what rides on the claim, against its counted chance that the claim is true weighed by the
claimant's record (a seat whose claims keep proving true is called less, one caught lying
is called again, and judged by the beliefs as well, which know what it conceded).

The budget is counted in playouts, never in seconds: like the rest of the engine, the search
reads no clock, so a seed and a view always give the same move, on any machine, under any
load and in any process (nothing it does follows the order of a set). Its time is bounded all
the same: a decision plays about PLAYOUTS playouts (more only when the budget is too small
to try every move in MIN_WORLDS worlds and each survivor once a round) of at most PLAYOUT_CAP
moves each, at any number of seats. There is no time cap as a safety net: stopping by the
clock is exactly what made the moves depend on the machine; a caller that must answer sooner
sets a smaller budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .. import cards as C
from ..events import Event
from ..game import Game
from ..moves import Move
from ..views import View
from .base import Sight, Strategy, seat_of
from .baseline import Baseline
from .beliefs import Beliefs
from .reformation import COUP_AT, Reformed, conversion

#: The decisions the search makes; the Reader makes the others.
SEARCHED = frozenset({"action", "lose", "keep"})
#: Moves a playout plays before it stops and scores the bot's standing: a round and a half
#: at five seats. Cut there, a playout costs the same at any table size, and a decision's
#: time is bounded by PLAYOUTS x PLAYOUT_CAP moves; played to the end (most five-seat games
#: from the first rounds last 150-270 moves) a 0.2 s budget bought some 40 playouts at five
#: seats. At five seats, 200 games each: cut at 50 moves with 120 playouts 27.5% (21.8-34.1),
#: at 30 with 200 playouts 30.0% (24.1-36.7).
PLAYOUT_CAP = 30
#: The share of the claims it may challenge that the baseline challenges (at four seats, 806
#: in 9,010 over 200 games): a seat seen to challenge more is modelled as calling the excess
#: outright.
BASELINE_CALLS = 0.09
#: The least chance a seat at a table of three or more is taken to call a claim outright,
#: whatever its counting says: people call more than the baseline does, and a search that
#: played against the baseline alone lied as no strong player does (4 seats, 120 games,
#: seed 5: Tax 43%, Steal 43%, Assassinate 63% of its claims were bluffs; with this and
#: HURT 26%, 11%, 23%). Heads-up, where the one opponent's calls are seen on every claim,
#: the floor only cost games (expert vs baseline, 1,000 games on seeds 1-4: draft on 92.7%
#: with it, 93.9% without; draft off 78.8%, 83.2%).
PEOPLE = 0.1
#: How much more readily a seat calls a claim that hurts it (the action's target, the
#: blocked actor) than one that does not.
HURT = 3.0
#: The lie rate (engine/bots/beliefs.py) above which the Reader judges a seat's claims by
#: its beliefs too, not by counting alone: more than twice the prior, as one caught bluff
#: or one character named beyond a seat's cards makes it. Heads-up against hard, the same
#: 200 games on seeds 1-4: 59.0% (52.1-65.6%) with it, 46.5% (39.7-53.4%) without (1,000
#: games with it: 60.5% (57.4-63.5%)); a bar of 0.2 gave the same games.
LIAR = 0.3
#: The Reader calls an Embezzlement (R12.12) when the beliefs' chance that the Embezzler
#: holds a Duke is above this: a right call and a wrong one each cost a card, so even odds;
#: ARMED_BAR when the Almshouse would arm the Embezzler's Coup at the Reader's seat.
EMBEZZLER_BAR = 0.5
ARMED_BAR = 0.35
#: Worlds searched however small the budget.
MIN_WORLDS = 2
#: Playouts per searched decision unless told otherwise: about 0.1 s (p50) at five seats on
#: the 2-core machine that chose it, busy with other work (benchmarks/search.py: p50 98 ms,
#: p99 238 ms; a decision plays 3,400-3,900 moves, so the spread is the machine's load).
PLAYOUTS = 130


class _Seen:
    """A seat's sight of a sampled world, with just what the heuristic reads, taken from the
    game's own lists: in a playout the seat's own knowledge is all of the world's, and a full
    View would cost more than the decision."""

    __slots__ = ("seat", "options", "hands", "drawn", "revealed", "influence", "deck_size",
                 "coins", "alive", "phase", "step", "action", "target", "claimant", "claim",
                 "actor", "shown", "factions", "almshouse")

    def __init__(self, game: Game, seat: int) -> None:
        self.seat = seat
        self.options = game.options
        self.hands = game.hands
        self.drawn = game.drawn if game.actor == seat else ()
        self.revealed = game.revealed
        self.influence = [len(h) for h in game.hands]
        self.deck_size = len(game.deck)
        self.coins = game.coins
        self.alive = game.alive
        self.phase = game.phase
        self.step = game.step
        self.action = game.action
        self.target = game.target
        self.claimant = game.claimant
        self.claim = game.claim
        self.actor = game.actor
        self.shown = game.shown
        self.factions = game.factions
        self.almshouse = game.almshouse


def standing(game: Game, me: int) -> float:
    """`me`'s share of the table's strength, where a seat's strength is its influence and a
    tenth of its coins (seven coins are most of a Coup): how a playout cut short scores."""
    strength = [len(h) + 0.1 * c if h else 0.0 for h, c in zip(game.hands, game.coins)]
    return strength[me] / sum(strength)


def eagerness(calls: float, floor: float) -> float:
    """The chance that a seat which challenges `calls` of the claims it may challenge does
    so whatever its counting says: its share above the playouts' baseline's own, out of the
    claims the baseline lets stand, and never less than `floor`."""
    return max(floor, (calls - BASELINE_CALLS) / (1 - BASELINE_CALLS))


def playout(game: Game, me: int, players: Sequence[Baseline], eager: Sequence[float],
            rnd: Callable[[], float]) -> float:
    """Play the world on with `players` (one a seat), each seat challenging a claim
    outright with its chance in `eager` before it counts: 1 if `me` wins, 0 if it loses;
    a game still running after PLAYOUT_CAP moves scores `me`'s standing."""
    for _ in range(PLAYOUT_CAP):
        if game.winner is not None:
            return 1.0 if game.winner == me else 0.0
        if not game.hands[me]:
            return 0.0
        waiting = game.waiting
        seat = waiting[0] if len(waiting) == 1 else waiting[int(rnd() * len(waiting))]
        moves = game.legal_moves(seat)
        if eager[seat] and game.phase == "respond" and rnd() < eager[seat] * (
                HURT if seat == (game.actor if game.step == "challenge_block" else game.target)
                else 1.0):
            challenge = next((m for m in moves if m.kind == "challenge"), None)
            if challenge is not None:
                game.apply(seat, challenge)
                continue
        game.apply(seat, players[seat].choose(_Seen(game, seat), moves))
    if game.winner is not None:
        return 1.0 if game.winner == me else 0.0
    return standing(game, me)


class Reader(Reformed):
    """The baseline's answers to claims and its choice of action, with the beliefs' chance
    that a seat holds a character where it weighs an opponent's cards (whom to aim at, which
    card to fear); a claim's truth it still judges by counting and the claimant's record of
    truth (a seat whose claims proved true is called less, one caught lying more), and a
    seat whose record marks it a liar by the beliefs too, where they doubt it more.

    The beliefs' chance that a claim is a bluff answered worse heads-up: expert vs
    baseline, the same 100 games on seeds 1-4, draft on, 80% with it, 89% with the
    counting (draft off 81% either way). The heuristic's answers, which weigh the beliefs by
    its own reckoning of the stakes, won 74% there (seeds 1 and 2); as the anchor it also lied
    more at quiet tables, where it bluffs up to three times as often (4 seats, 200 games,
    seed 1: Tax 16%, Assassinate 28% of the expert's claims were bluffs; 13%, 29% here)."""

    def __init__(self, seed: int | None, beliefs: Beliefs) -> None:
        super().__init__(seed)
        self.beliefs = beliefs

    def _belief(self, view: Sight, seat: int, card: str) -> float:
        return self.beliefs.holds(view, seat, card)

    def _plausibility(self, view: Sight, seat: int, card: str) -> float:
        """The counted chance weighed by the record; for a seat whose record marks it a
        liar, no more than the beliefs' chance, which also know what it conceded and how
        many characters it named on how few cards: a seat caught bluffing the Assassin that
        claims it again with the same hand very likely still lacks it, where counting alone
        lets the claim stand."""
        chance = super()._plausibility(view, seat, card)
        if self.beliefs.lie_rate(seat) > LIAR:
            return min(chance, 1 - self.beliefs.bluff_chance(view, seat, card))
        return chance

    def _action(self, view: Sight, hand: list[str], moves: Sequence[Move]) -> Move:
        """At a Reformation table, a Conversion where it cuts the seat's exposure most
        (engine/bots/reformation.py) when no Coup is open; else the baseline's choice."""
        converts = [m for m in moves if m.kind == C.CONVERT]
        if converts and not any(m.kind == C.COUP for m in moves):
            converted = conversion(view, converts, self._threat)
            if converted is not None:
                return converted
        return super()._action(view, hand, moves)

    def _respond(self, view: Sight, hand: list[str], moves: Sequence[Move]) -> Move:
        """An Embezzlement is called by the beliefs' chance that its claimant holds a Duke
        (a Tax or a block of Foreign Aid since its hand changed makes one likelier);
        anything else as the baseline answers."""
        claimant = view.claimant
        if view.claim is not None or claimant is None or view.action != C.EMBEZZLE:
            return super()._respond(view, hand, moves)
        me = seat_of(view)
        bar = EMBEZZLER_BAR
        coins = view.coins[claimant]
        if coins < COUP_AT <= coins + view.almshouse and self._aimed_at(view, claimant):
            bar = ARMED_BAR  # (one armed already may Coup whether it stands or not)
        if view.influence[me] == 1:  # its last card: call only a likelier bluff
            bar = (1 + bar) / 2
        duke = self.beliefs.holds(view, claimant, C.DENIED)
        kind = "challenge" if duke > bar else "pass"
        return next(m for m in moves if m.kind == kind)


class Ismcts(Strategy):
    name = "ismcts"
    searches = True

    def __init__(self, seed: int | None = None, playouts: int = PLAYOUTS) -> None:
        super().__init__(seed)
        if type(playouts) is not int or playouts < 1:
            raise ValueError(f"ismcts needs a budget of at least 1 playout, not {playouts!r}")
        #: Playouts to think with per searched decision: every candidate move is played out
        #: once in each sampled world, so the worlds are this many over the candidates.
        self.playouts = playouts
        #: What the table showed of every seat: it deals the worlds, and the playouts'
        #: opponents call claims as often as it says each seat does.
        self.beliefs = Beliefs()
        #: Answers claims, chooses the move that anchors the search, and keeps the public
        #: record the playouts' players start from.
        self.reader = Reader(seed, self.beliefs)

    def observe(self, view: View, events: Sequence[Event]) -> None:
        self.beliefs.observe(view, events)
        self.reader.observe(view, events)

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        if view.phase not in SEARCHED:
            return self.reader.choose(view, moves)
        return self.search(view, moves)

    def search(self, view: View, moves: Sequence[Move]) -> Move:
        """Sequential halving: the budget is spent in rounds, one per halving; in each round
        the candidates still left are played out in the same fresh worlds, and the
        better half (by mean score over every round so far) goes on. The likely best moves
        get most of the playouts, instead of every move the same few.

        The Reader's own choice is never halved away and wins a tie: the search plays
        another move only when the final round's worlds say it is better. The first rounds
        judge a dozen moves on two or three worlds each, noise that threw the anchor's
        move out as readily as a poor one (4 seats, 400 games: 34.3% without this, 43.0%
        with it)."""
        score = [0.0] * len(moves)
        tried = [0] * len(moves)
        left = list(range(len(moves)))
        guess = moves.index(self.reader.choose(view, moves))
        eager = self.eager(view)
        rounds = max(1, (len(moves) - 1).bit_length())  # ceil(log2(len(moves)))
        while True:
            worlds = max(MIN_WORLDS if len(left) == len(moves) else 1,
                         self.playouts // (rounds * len(left)))
            for _ in range(worlds):
                for i, scored in zip(left, self.world(view, [moves[i] for i in left], eager)):
                    score[i] += scored
                    tried[i] += 1
            if len(left) <= 2:
                break
            left.sort(key=lambda i: (i != guess, -score[i] / tried[i]))
            left = sorted(left[:(len(left) + 1) // 2])
        return moves[max(left, key=lambda i: (score[i] / tried[i], i == guess))]

    def estimate(self, view: View, moves: Sequence[Move], worlds: int) -> list[list[float]]:
        """Every one of `moves` played out in the same `worlds` sampled worlds, each world
        with its own dice: the scores, a list per move in the order of `moves`, one score a
        world (1 a win, 0 a loss, a standing for a playout cut short). No halving and no
        anchor: a game's review (engine/review.py) wants every option's chance, with its
        uncertainty, rather than one move. Every move of a decision is estimated, answers
        to claims included, which the bot itself leaves to the Reader."""
        eager = self.eager(view)
        scores: list[list[float]] = [[] for _ in moves]
        for _ in range(worlds):
            for row, scored in zip(scores, self.world(view, moves, eager)):
                row.append(scored)
        return scores

    def eager(self, view: View) -> list[float]:
        """Each seat's chance of calling a claim outright in a playout (none for the bot's
        own seat): what the table showed of its calls, at least PEOPLE at three seats or
        more."""
        me = seat_of(view)
        floor = PEOPLE if view.options.players > 2 else 0.0
        return [0.0 if s == me else eagerness(self.beliefs.calls(s), floor)
                for s in range(view.options.players)]

    def world(self, view: View, moves: Sequence[Move], eager: Sequence[float]) -> list[float]:
        """One world sampled from the beliefs, and each of `moves` played out in it with the
        same dice: their scores, in order. The same world and dice for every move make the
        comparison one between moves and not between luck."""
        me = seat_of(view)
        players = view.options.players
        world = self.sample(view)
        dice = self.rng.randrange(2**32)
        scores = []
        for m in moves:
            game = world.copy(seed=dice)
            game.apply(me, m)
            bots = [self.player(dice + s) for s in range(players)]
            scores.append(playout(game, me, bots, eager, random.Random(dice).random))
        return scores

    def player(self, seed: int) -> Reformed:
        """A playout's player that remembers what every seat at the table saw: the claims
        made since each seat's last proof, and the bluffs caught and claims proved. A
        fresh one would let a third character claimed on two cards stand as readily as
        the first, which no opponent at the table does."""
        seen = self.reader
        player = Reformed(seed)
        player.claims = {seat: set(claims) for seat, claims in seen.claims.items()}
        player.caught = seen.caught.copy()
        player.cleared = seen.cleared.copy()
        return player

    def sample(self, view: View) -> Game:
        """A world drawn from the beliefs: each opponent's hand weighed by what the table
        showed of it (claims, concessions, blocks let pass, its record of truth)."""
        deal = self.beliefs.sample_hands(self.rng, view)
        return Game.from_view(view, [list(h) for h in deal.hands], list(deal.deck),
                              drawn=list(deal.drawn), shown=deal.shown,
                              removed=list(deal.removed), seed=self.rng.randrange(2**32))
