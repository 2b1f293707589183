"""No game between bots goes on for ever (issue 12): every size from 2 to 6 seats and every
pairing of strategies end within 1,000 moves (R1 to R9 leave room for endless play:
Assassinate, a Contessa block let stand, Income, and again). The suite plays a sample of
every cell; `python -m benchmarks.endless` plays about 20,000 games the same way."""

from __future__ import annotations

from benchmarks.endless import LONG, survey
from engine import Options
from engine.bots import STRATEGIES, make
from engine.bots.arena import play


def test_games_between_bots_of_every_pairing_and_size_end_within_a_thousand_moves() -> None:
    # Every pairing of the strategies, personalities included: 12 games a cell (2 with the
    # search), about 23 s on 2 cores; benchmarks.endless plays 110 a cell.
    figures = survey(games=12, search_games=2)
    pairings = len(STRATEGIES) * (len(STRATEGIES) + 1) // 2
    searched = len(STRATEGIES)  # the pairings that include ismcts
    assert figures["games"] == 5 * ((pairings - searched) * 12 + searched * 2)
    assert figures["unfinished"] == 0 and figures["longest"] <= LONG, figures["by_cell"]


def test_every_strategy_plays_reformation_legally_and_every_game_ends() -> None:
    # R12: every pairing at Reformation tables of 2 to 10 seats, both decks: a move R12
    # forbids would be refused by the engine and fail the run; every game ends. One game a
    # cell: 495 games, about 35 s on 2 loaded cores (benchmarks.endless --reformation plays
    # more). LONG is a bound for 2 to 6 seats: at 10 a round of passes alone is 9 moves,
    # and base games of 10 honest bots run to 1,411 moves (40 games), so the bound here is
    # twice it; the arena's own stop (5,000 moves) is what an endless game would hit.
    figures = survey(games=1, search_games=1, reformation=True)
    pairings = len(STRATEGIES) * (len(STRATEGIES) + 1) // 2
    assert figures["games"] == 9 * pairings
    assert figures["unfinished"] == 0 and figures["longest"] <= 2 * LONG, figures["by_cell"]


def test_heuristic_bots_that_looped_for_ever_now_finish() -> None:
    # Three one-card players, each with an Assassin, each blocking with a bluffed Contessa
    # that nobody challenged: this game was still going after 3,000 moves (R7.2, R8).
    bots = [make("heuristic", 210 + i) for i in range(3)]
    assert play(bots, Options(players=3), seed=21).decisions < LONG
