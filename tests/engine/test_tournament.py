"""Tournaments (issue 33): every entrant at every seat order of every size, on shared deals;
a crosstable and standings whose numbers are checked by hand; intervals on known inputs;
ratings that put a strong field above a weak one; and a strategy that misbehaves forfeits,
a loss in last place, while the run goes on."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import permutations

import pytest

from engine import Move, View
from engine.bots import make
from engine.bots.arena import wilson
from engine.bots.base import Strategy
from engine.bots.tournament import (
    Meeting, Played, games_in, mean_interval, places, play_fixture, schedule, standings,
    t_quantile,
)

THREE = ["heuristic", "honest", "random"]


def test_the_schedule_is_every_ordered_lineup_of_every_size_once_a_round() -> None:
    fixtures = schedule(THREE, [2, 3], rounds=2, seed=5)
    assert len(fixtures) == games_in(3, [2, 3], 2) == 2 * (3 * 2 + 3 * 2 * 1) == 24
    assert [f.number for f in fixtures] == list(range(24))
    for r in range(2):
        lineups = [f.lineup for f in fixtures if f.round == r]
        assert lineups == [*permutations(THREE, 2), *permutations(THREE, 3)]
    # One deal for every lineup of a size in a round: each entrant meets it from every seat.
    deals = {(f.round, len(f.lineup)): {x.seed for x in fixtures
                                        if (x.round, len(x.lineup)) == (f.round, len(f.lineup))}
             for f in fixtures}
    assert all(len(seeds) == 1 for seeds in deals.values())
    assert len({next(iter(seeds)) for seeds in deals.values()}) == 4
    # Every entrant sits in every seat of every size equally often.
    seats = Counter((f.lineup[s], len(f.lineup), s) for f in fixtures for s in range(len(f.lineup)))
    assert set(seats.values()) == {4}
    assert games_in(8, [2, 3, 4, 5, 6], 1) == 56 + 336 + 1680 + 6720 + 20160


def test_the_same_seed_plays_the_same_tournament_and_another_seed_another() -> None:
    def results(seed: int) -> list[Played]:
        return [play_fixture(f) for f in schedule(THREE, [2, 3], rounds=1, seed=seed)]

    assert results(7) == results(7)
    assert results(7) != results(8)
    # The standings do not depend on the order results arrive in (a pool's order).
    played = results(7)
    assert standings(THREE, played[::-1], 12) == standings(THREE, played, 12)


@pytest.mark.parametrize("entrants,sizes", [(["random", "random"], [2]),
                                            (["random", "honest"], [3]),
                                            (["random", "honest"], [1]),
                                            (["random", "honest"], [])])
def test_a_schedule_needs_distinct_entrants_and_sizes_they_can_fill(entrants, sizes) -> None:
    with pytest.raises(ValueError):
        schedule(entrants, sizes, rounds=1, seed=0)


def test_places_run_from_the_winner_to_the_first_out_and_a_forfeit_is_last() -> None:
    assert places(4, exiled=[2, 0, 3]) == (3, 1, 4, 2)  # seat 1 won; 2 went out first
    assert places(4, exiled=[2]) == (1, 1, 4, 1)  # stopped: three still in share first
    # Seat 1 forfeited after seat 3 went out, and is placed last all the same.
    assert places(4, exiled=[3, 1, 2], forfeits=[1]) == (1, 4, 2, 3)
    assert places(4, exiled=[0, 2], forfeits=[2]) == (3, 1, 4, 1)  # stopped, 1 and 3 in
    # Two forfeits: the first to withdraw is last of all.
    assert places(3, exiled=[2, 0], forfeits=[2, 0]) == (2, 1, 3)


def test_a_tiny_tournaments_crosstable_and_standings_as_counted_by_hand() -> None:
    a, b, c = "a", "b", "c"
    games = [
        Played(0, (a, b), (1, 2), 0, (), 10),
        Played(1, (b, a), (1, 2), 0, (), 10),
        Played(2, (a, b, c), (1, 3, 2), 0, (), 10),
        Played(3, (c, a, b), (1, 1, 3), None, (), 10),  # stopped: c and a still in
    ]
    table = standings([a, b, c], games, scheduled=6)
    assert table.partial and table.played == 4
    cross = table.crosstable
    # a: ahead of b in games 0, 2, 3, behind in 1; level with c in game 3, ahead in game 2.
    assert cross[a][b] == Meeting(4, 3.0) and cross[b][a] == Meeting(4, 1.0)
    assert cross[a][c] == Meeting(2, 1.5) and cross[c][a] == Meeting(2, 0.5)
    assert cross[b][c] == Meeting(2, 0.0) and cross[c][b] == Meeting(2, 2.0)
    assert cross[a][b].rate == 0.75
    by_name = {e.name: e for e in table.entries}
    assert [(by_name[n].games, by_name[n].wins, by_name[n].mean_place) for n in (a, b, c)] == [
        (4, 2, 1.25), (4, 1, 2.25), (2, 0, 1.5)]
    assert by_name[a].win_rate == 0.5 and by_name[a].win_interval == wilson(2, 4)
    assert by_name[c].rating.games == 2 and by_name[c].rating.wins == 0
    assert [e.name for e in table.entries][0] == a  # best ordinal: ahead in every pairing


def test_in_a_full_schedule_every_pair_meets_equally_often_and_the_shares_add_up() -> None:
    played = [play_fixture(f) for f in schedule(THREE, [2, 3], rounds=2, seed=1)]
    table = standings(THREE, played, 24)
    assert not table.partial
    for row in THREE:
        for column in THREE:
            if row != column:
                # size 2: both orders of the pair; size 3: all six lineups; two rounds
                assert table.crosstable[row][column].games == 2 * (2 + 6)
                assert (table.crosstable[row][column].ahead
                        + table.crosstable[column][row].ahead) == 16
    assert sum(e.games for e in table.entries) == 2 * (6 * 2 + 6 * 3)


def test_intervals_on_known_inputs() -> None:
    assert wilson(0, 0) == (0.0, 0.0)
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(10, 10)[1] == 1.0 and wilson(10, 10)[0] == pytest.approx(0.7225, abs=1e-4)
    # Student's t 97.5% quantiles from the tables.
    for df, quantile in [(1, 12.7062), (2, 4.3027), (3, 3.1824), (5, 2.5706), (10, 2.2281),
                         (29, 2.0452), (1000, 1.9623)]:
        assert t_quantile(df) == pytest.approx(quantile, abs=0.004)
    # 1, 2, 3, 4: mean 2.5, sample deviation 1.2910, t(3) 3.1824 -> half-width 2.0543.
    low, high = mean_interval([1, 2, 3, 4]) or (0.0, 0.0)
    assert (low, high) == pytest.approx((0.4457, 4.5543), abs=0.003)
    assert mean_interval([2, 2, 2]) == (2.0, 2.0)
    assert mean_interval([3]) is None


def test_ratings_put_the_heuristic_above_random_play() -> None:
    played = [play_fixture(f) for f in schedule(["random", "heuristic"], [2], rounds=20, seed=3)]
    table = standings(["random", "heuristic"], played, 40)
    best, worst = table.entries
    assert (best.name, worst.name) == ("heuristic", "random")
    assert best.rating.ordinal > worst.rating.ordinal and best.rating.mu > 25 > worst.rating.mu
    assert best.win_rate > 0.7 and table.crosstable["heuristic"]["random"].rate > 0.7


class Raises(Strategy):
    """An entrant that fails at its first decision."""

    name = "raises"

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        raise RuntimeError("a bug in a bot")


class Unoffered(Strategy):
    """An entrant that answers with a move it was not offered."""

    name = "unoffered"

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        return Move("coup", target=view.seat)


def misbehaving(name: str, seed: int) -> Strategy:
    """The factory of a field with the misbehaving entrants in it."""
    if name == Raises.name:
        return Raises(seed)
    if name == Unoffered.name:
        return Unoffered(seed)
    return make(name, seed)


@pytest.mark.parametrize("bad", ["raises", "unoffered"])
def test_a_misbehaving_entrant_forfeits_each_game_in_last_place_and_the_run_goes_on(bad) -> None:
    entrants = [bad, "random", "honest"]
    fixtures = schedule(entrants, [2, 3], rounds=1, seed=0)
    played = [play_fixture(f, misbehaving) for f in fixtures]
    table = standings(entrants, played, len(fixtures))
    by_name = {e.name: e for e in table.entries}
    assert by_name[bad].forfeits == by_name[bad].games == 2 * 2 + 6
    assert by_name[bad].wins == 0 and by_name[bad].mean_place == (4 * 2 + 6 * 3) / 10
    assert table.entries[-1].name == bad
    for other in ("random", "honest"):
        assert table.crosstable[other][bad].rate == 1.0
        assert by_name[other].forfeits == 0
    # Every game was played out, with it or without it: its seat was forfeited and the
    # others played on, so someone won each.
    assert all(g.winner is not None for g in played)
    assert all(g.forfeits == (g.lineup.index(bad),) for g in played if bad in g.lineup)


def test_R12_1_a_fixture_is_played_at_a_reformation_table_when_asked() -> None:
    """Reformation tables in a tournament: every decision of the game is made under R12 (a
    Conversion is among the legal moves), and the same fixture unasked is a base game."""
    fixture = schedule(["random", "honest"], [2], rounds=1, seed=3)[0]

    def decisions(reformation: bool) -> list[tuple[bool, bool]]:
        seen: list[tuple[bool, bool]] = []

        class Watcher(Strategy):
            def choose(self, view, moves):
                seen.append((view.options.reformation,
                             any(m.kind == "convert" for m in moves)))
                return moves[0]

        play_fixture(fixture, lambda name, seed: Watcher(seed), reformation=reformation)
        return seen

    reformed, base = decisions(True), decisions(False)
    assert reformed and {flag for flag, _ in reformed} == {True}
    assert any(convert for _, convert in reformed)
    assert base and set(base) == {(False, False)}
