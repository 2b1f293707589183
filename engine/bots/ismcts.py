"""`ismcts`: information-set Monte Carlo tree search within a time budget per decision.

Each iteration samples a world consistent with everything the bot has seen — the other
seats' face-down cards, the deck, a draw or a shown card it did not see — dealt from the
cards it cannot account for (its hand and every face-up card are known; cards an opponent
claimed and has not since lost are dealt to it first when they are still unseen), then walks
a tree of the bot's own moves shared by all samples (a move's statistics count only the
samples in which it was legal) and finishes the game with a fast rollout. The other seats
play a plausible policy with the cards the sample gave them, never a tree of their own: a
tree node for an opponent would learn from the bot's real cards, which it cannot see, and
would make every bluff look hopeless. The move most visited at the root is played.
"""

from __future__ import annotations

import time
from math import log, sqrt
from typing import Sequence

from .. import cards as C
from ..events import Event
from ..game import Game
from ..moves import PASS, Move, move
from ..views import View
from .base import Strategy
from .heuristic import Heuristic

#: Exploration constant of UCB1.
EXPLORE = 0.7
#: Chance that a rollout seat passes on a challenge it may make.
ROLLOUT_PASS = 0.9
#: Chance that a rollout seat acts on a character it does not hold.
ROLLOUT_BLUFF = 0.12
#: Rollouts stop here and count as nobody's win.
ROLLOUT_CAP = 400
_PASS = move(PASS)


def rollout_move(game: Game, seat: int, rnd) -> Move:
    """A quick, plausible move for a rollout, read straight off the sampled world: a seat
    coups when it can, uses the characters it holds, bluffs now and then, blocks with what
    it holds (or bluffs a Contessa to survive), challenges rarely and proves when able."""
    legal = game.legal_moves(seat)
    phase = game.phase
    if phase == "action":
        if len(legal) == 1 or legal[0].kind == C.COUP:
            return legal[int(rnd() * len(legal))]
        hand = game.hands[seat]
        claims = C.CLAIMS_IN[game.options.variant]
        coups = [m for m in legal if m.kind == C.COUP]
        if coups:
            return coups[int(rnd() * len(coups))]
        bluff = rnd() < ROLLOUT_BLUFF
        useful = [m for m in legal if claims[m.kind] is not None
                  and (claims[m.kind] in hand or bluff)
                  and (m.kind != C.STEAL or game.coins[m.target] >= 2)]
        if useful:
            return useful[int(rnd() * len(useful))]
        return legal[0] if rnd() < 0.5 else legal[1]  # income or foreign aid
    if phase == "respond":
        if game.step == "block":
            hand = game.hands[seat]
            for m in legal:
                if m.kind == "block" and m.card in hand:
                    return m
            if game.action == C.ASSASSINATE and len(game.hands[seat]) == 1:
                return legal[0]  # a Contessa bluff is free when the card is lost anyway
            return _PASS
        return legal[0] if rnd() > ROLLOUT_PASS else _PASS
    if phase == "prove":
        return legal[0]  # prove when able: it is listed first
    return legal[int(rnd() * len(legal))]


class Node:
    __slots__ = ("parent", "seat", "move", "children", "visits", "wins", "avail")

    def __init__(self, parent: Node | None, seat: int | None, m: Move | None) -> None:
        self.parent = parent
        self.seat = seat
        self.move = m
        self.children: dict[tuple[int, Move], Node] = {}
        self.visits = 0
        self.wins = 0.0
        self.avail = 1


class Ismcts(Strategy):
    name = "ismcts"

    def __init__(self, seed: int | None = None, budget: float = 0.2) -> None:
        super().__init__(seed)
        #: Seconds to think per decision.
        self.budget = budget
        #: Claims the heuristic remembers double as the sampler's hints.
        self.memory = Heuristic(seed)

    def observe(self, view: View, events: Sequence[Event]) -> None:
        self.memory.observe(view, events)

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        if view.phase == "draft":
            return self.memory.choose(view, moves)
        return self.search(view, moves, time.perf_counter() + self.budget)

    def search(self, view: View, moves: Sequence[Move], deadline: float) -> Move:
        me = view.seat
        root = Node(None, None, None)
        rng = self.rng
        rnd = rng.random
        iterations = 0
        while iterations < 20 or time.perf_counter() < deadline:
            iterations += 1
            game = self.sample(view)
            node = root
            seat = me
            expanding = True
            steps = 0
            while game.winner is None and steps < ROLLOUT_CAP:
                if seat != me or not expanding:
                    # Others, and the bot itself past the tree, play the rollout policy:
                    # a tree node for an opponent would learn from the bot's real cards,
                    # which that opponent cannot see.
                    game.apply(seat, rollout_move(game, seat, rnd))
                else:
                    legal = game.legal_moves(seat)
                    children = node.children
                    untried = [m for m in legal if (seat, m) not in children]
                    if untried:
                        m = untried[int(rnd() * len(untried))]
                        node = children[(seat, m)] = Node(node, seat, m)
                        expanding = False
                    else:
                        best_score = -1.0
                        for m in legal:
                            child = children[(seat, m)]
                            child.avail += 1
                            score = child.wins / child.visits + EXPLORE * sqrt(
                                log(child.avail) / child.visits)
                            if score > best_score:
                                node, best_score = child, score
                    game.apply(seat, node.move)
                steps += 1
                if game.winner is None:
                    seat = game.waiting[0]
            won = game.winner == me
            while node is not None:
                node.visits += 1
                node.wins += won
                node = node.parent
        candidates = [root.children.get((me, m)) for m in moves]
        best = max((c for c in candidates if c is not None), key=lambda c: c.visits)
        return best.move

    def sample(self, view: View) -> Game:
        """A world consistent with the view: the unseen cards dealt at random, claimed
        characters first to the seats that claimed them."""
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
            for claim in self.memory.claims.get(seat, ()):
                if len(hands[seat]) < view.influence[seat] and claim in pool:
                    if rng.random() < 0.7:
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
