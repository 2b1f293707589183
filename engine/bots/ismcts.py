"""`ismcts`: information-set Monte Carlo search with a budget of playouts per decision.

The search runs where it pays: the bot's own turn (which action, on whom), the card it loses
and the cards it keeps after an Exchange. Each iteration samples a world consistent with
everything the bot has seen — the other seats' face-down cards, the deck, a draw or a shown
card it did not see — dealt from the cards it cannot account for (its hand and every face-up
card are known; characters an opponent claimed and has not since lost are dealt to it first,
most of the time, since most claims are true). In that one world every candidate move is
tried and the game played out to its end by the heuristic strategy at every seat; the same
world and the same dice serve every candidate, so that the comparison is between moves and
not between luck. The move that won most often over all the worlds is played.

Answering a claim (challenge, block or pass) is left to the heuristic's counting: a sampled
world cannot tell a bluff from the truth any better than the counting that dealt it, and a
search that trusts its samples there challenges far too often.

The budget is counted in playouts, never in seconds: like the rest of the engine, the search
reads no clock, so a seed and a view always give the same move, on any machine and under
any load. A caller that must answer in time chooses a smaller budget.
"""

from __future__ import annotations

import random
from typing import Sequence

from .. import cards as C
from ..events import Event
from ..game import Game
from ..moves import Move
from ..views import View
from .base import Strategy
from .heuristic import Heuristic

#: The decisions the search makes; the others are the heuristic's.
SEARCHED = frozenset({"action", "lose", "keep"})
#: How often a character an opponent claimed is dealt to it in a sampled world.
TRUST = 0.9
#: Playouts longer than this stop and score the bot's share of the influence left.
PLAYOUT_CAP = 150
#: Worlds searched however small the budget.
MIN_WORLDS = 2
#: Playouts per searched decision unless told otherwise: as much search as the 0.2 seconds
#: a decision it had before its budget was counted. On the machine that chose it, at four
#: seats (the usual table), 0.2 s bought a median of 340 playouts and 350 playouts take
#: 0.2 s on average. Playouts are shorter at two seats, where 0.2 s bought some 1,200.
PLAYOUTS = 350


class _Seen:
    """A seat's sight of a sampled world, with just what the heuristic reads, taken from the
    game's own lists: in a playout the seat's own knowledge is all of the world's, and a full
    View would cost more than the decision."""

    __slots__ = ("seat", "options", "hands", "drawn", "revealed", "influence", "deck_size",
                 "coins", "alive", "phase", "step", "action", "target", "claimant", "claim",
                 "actor", "shown")

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


def playout(game: Game, me: int, players: Sequence[Heuristic], rnd) -> float:
    """Play the world to its end with the heuristic at every seat: 1 if `me` wins, else 0;
    a game still running at the cap scores `me`'s share of the influence left."""
    for _ in range(PLAYOUT_CAP):
        if game.winner is not None:
            return 1.0 if game.winner == me else 0.0
        waiting = game.waiting
        seat = waiting[0] if len(waiting) == 1 else waiting[int(rnd() * len(waiting))]
        game.apply(seat, players[seat].choose(_Seen(game, seat), game.legal_moves(seat)))
    if game.winner is not None:
        return 1.0 if game.winner == me else 0.0
    return len(game.hands[me]) / sum(len(h) for h in game.hands)


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
        #: The heuristic answers claims; the claims it remembers guide the sampling.
        self.memory = Heuristic(seed)

    def observe(self, view: View, events: Sequence[Event]) -> None:
        self.memory.observe(view, events)

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        if view.phase not in SEARCHED:
            return self.memory.choose(view, moves)
        return self.search(view, moves)

    def search(self, view: View, moves: Sequence[Move]) -> Move:
        me = view.seat
        rng = self.rng
        players = view.options.players
        score = [0.0] * len(moves)
        worlds = max(MIN_WORLDS, -(-self.playouts // len(moves)))  # rounded up
        for _ in range(worlds):
            world = self.sample(view)
            dice = rng.randrange(2**32)
            for i, m in enumerate(moves):
                game = world.copy(seed=dice)
                game.apply(me, m)
                bots = [Heuristic(dice + s) for s in range(players)]
                score[i] += playout(game, me, bots, random.Random(dice).random)
        return moves[max(range(len(moves)), key=score.__getitem__)]

    def sample(self, view: View) -> Game:
        """A world consistent with the view: the unseen cards dealt at random, claimed
        characters first (most of the time) to the seats that claimed them."""
        rng = self.rng
        me = view.seat
        n = view.options.players
        total = C.copies_in_game(n, view.options.draft)
        pool = [c for c in C.CAST[view.options.variant] for _ in range(total)]
        known = list(view.hands[me]) + list(view.drawn)
        for face_up in view.revealed:
            known += face_up
        shown = view.shown
        shown_seat = view.target if shown is not None and view.target != me else None
        if shown_seat is not None:
            known.append(shown)
        for c in known:
            pool.remove(c)
        rng.shuffle(pool)
        hands: list[list[str]] = [[] for _ in range(n)]
        hands[me] = list(view.hands[me])
        if shown_seat is not None:
            hands[shown_seat].append(shown)
        for seat in range(n):
            if seat == me:
                continue
            # The claims are a set of strings, whose order changes with each process's hash
            # seed: dealt in the cards' own order, a seed gives the same world everywhere.
            for claim in C.sort_cards(self.memory.claims.get(seat, ())):
                if len(hands[seat]) < view.influence[seat] and claim in pool:
                    if rng.random() < TRUST:
                        pool.remove(claim)
                        hands[seat].append(claim)
            while len(hands[seat]) < view.influence[seat]:
                hands[seat].append(pool.pop())
        drawn = list(view.drawn)
        if view.phase == "keep" and view.actor != me:
            drawn = [pool.pop() for _ in range(C.exchange_draw(view.options.variant))]
        deck = [pool.pop() for _ in range(view.deck_size)]
        return Game.from_view(view, hands, deck, drawn=drawn, shown=shown, removed=pool,
                              seed=rng.randrange(2**32))
