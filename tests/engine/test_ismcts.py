"""The search bot replays: the same seeds give the same moves in any process.

Python salts the hash of strings per process (PYTHONHASHSEED), so a set of card names is
iterated in a different order in each one; a bot whose choice followed that order would play
differently in the arena's worker processes, on the server and in a replay. Each scenario
plays the same seeded games in two processes with different hash seeds and compares every
move.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: Plays seeded four-seat games and prints every move; the strategies are argv[1], and
#: ismcts gets a small budget (its sampling is what used to follow the hash order).
GAMES = """
import sys
from engine import Game, Options, visible_to
from engine.bots import make

names = sys.argv[1].split(",")
for seed in range(3):
    game = Game.new(Options(players=4), seed)
    bots = [make(n, seed * 10 + s, **({"playouts": 12} if n == "ismcts" else {}))
            for s, n in enumerate(names)]
    while not game.over:
        seat = game.waiting[0]
        move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
        print(seat, move)
        events = game.apply(seat, move)
        for s, bot in enumerate(bots):
            bot.observe(game.view(s), visible_to(events, s))
"""


def moves_with_hash_seed(names: str, hash_seed: int) -> list[str]:
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    done = subprocess.run([sys.executable, "-c", GAMES, names], env=env, capture_output=True,
                          text=True, check=True, cwd=os.path.dirname(os.path.dirname(
                              os.path.dirname(os.path.abspath(__file__)))))
    return done.stdout.splitlines()


@pytest.mark.parametrize("names", ["heuristic,heuristic,heuristic,heuristic",
                                   "ismcts,heuristic,heuristic,ismcts"])
def test_seeded_games_play_the_same_moves_under_any_hash_seed(names: str) -> None:
    """Three seeded games, played in a process with hash seed 1 and in one with hash seed 2:
    every move the same (they differed for ismcts when it dealt claimed characters in a
    set's order)."""
    first = moves_with_hash_seed(names, 1)
    assert len(first) > 30
    assert moves_with_hash_seed(names, 2) == first


def test_a_search_plays_at_most_its_budget_of_moves_at_any_table_size(monkeypatch) -> None:
    """The search's time is bounded without a clock: every playout stops after PLAYOUT_CAP
    moves (and the candidate's own), so a decision applies at most that many per playout
    of its default budget, even at five seats where games played to the end run to 150-270 moves."""
    from engine import Game, Options
    from engine.bots import make
    from engine.bots.ismcts import PLAYOUT_CAP, PLAYOUTS

    game = Game.new(Options(players=5), 11)
    heuristic = make("heuristic", 3)
    while not (game.phase == "action" and game.waiting == (0,)):
        seat = game.waiting[0]
        game.apply(seat, heuristic.choose(game.view(seat), game.legal_moves(seat)))
    view, moves = game.view(0), game.legal_moves(0)
    applied = [0]
    apply = Game.apply

    def counted(self, seat, move):
        applied[0] += 1
        return apply(self, seat, move)

    monkeypatch.setattr(Game, "apply", counted)
    assert make("ismcts", 1).choose(view, moves) in moves
    assert PLAYOUTS * PLAYOUT_CAP // 2 < applied[0] <= PLAYOUTS * (PLAYOUT_CAP + 1)
