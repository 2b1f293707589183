"""Difficulty levels are configurations made by name wherever a strategy is, and the arena's
round-robin seats every pair heads-up and each name alone against three of every other."""

from __future__ import annotations

import pytest

from engine import Game, Options
from engine.bots import LEVELS, STRATEGIES, known, make
from engine.bots.arena import TABLE_SEATS, lineups, tournament
from engine.bots.ismcts import PLAYOUTS
from engine.bots.levels import DEFAULT_LEVEL, LADDER, strategy_of


def test_the_ladder_runs_easy_to_expert_and_the_default_is_on_it():
    assert [level.name for level in LADDER] == ["easy", "medium", "hard", "expert"]
    assert DEFAULT_LEVEL in LEVELS
    assert all(level.strategy in STRATEGIES for level in LADDER)


@pytest.mark.parametrize("level", [level.name for level in LADDER])
def test_a_level_is_made_as_its_strategy_with_its_settings(level):
    bot = make(level, seed=3)
    assert bot.name == LEVELS[level].strategy == strategy_of(level)
    for setting, value in LEVELS[level].settings.items():
        assert getattr(bot, setting) == value
    assert known(level)


def test_settings_given_to_make_override_a_levels():
    assert make("expert", seed=1).playouts == PLAYOUTS
    assert make("expert", seed=1, playouts=5).playouts == 5
    assert make("medium", seed=1, slips=0.1).slips == 0.1


def test_careless_slips_on_its_turns_only():
    """slips=1: every turn is any legal action, seen over many turns; its answers to claims
    stay the heuristic's (slips or not, the same move from the same seed)."""
    game = Game.new(Options(players=3), seed=4)
    seat = game.waiting[0]
    view, moves = game.view(seat), game.legal_moves(seat)
    assert view.phase == "action"
    chosen = {make("careless", seed=s, slips=1.0).choose(view, moves).kind for s in range(60)}
    assert len(chosen) > 3  # a heuristic never chooses Steal from nobody or Exchange unheld
    game.apply(seat, next(m for m in moves if m.kind == "tax"))
    other = game.waiting[0]
    view, moves = game.view(other), game.legal_moves(other)
    assert view.phase == "respond"
    for s in range(20):
        assert (make("careless", seed=s, slips=1.0).choose(view, moves)
                == make("heuristic", seed=s).choose(view, moves))
    with pytest.raises(ValueError):
        make("careless", slips=2)


def test_a_strategy_name_is_its_own_strategy_and_unknown_names_fail():
    assert strategy_of("honest") == "honest"
    assert not known("psychic")
    with pytest.raises(KeyError):
        make("psychic")


def test_a_round_robin_pairs_everyone_heads_up_then_each_alone_against_three():
    lines = lineups(["a", "b", "c"])
    assert lines[:3] == [("a", "b"), ("a", "c"), ("b", "c")]
    alone = lines[3:]
    assert len(alone) == 6 and all(len(seats) == TABLE_SEATS for seats in alone)
    assert ("b",) + ("c",) * 3 in alone and ("c",) + ("b",) * 3 in alone


def test_levels_play_in_the_arena_by_name():
    standings = tournament(["easy", "medium"], games=20, seed=2)
    assert sum(s.wins for s in standings.values()) == 20
    assert standings["medium"].win_rate > standings["easy"].win_rate
