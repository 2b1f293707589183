"""Difficulty levels are configurations made by name wherever a strategy is, and the arena's
round-robin seats every pair heads-up and each name alone against three of every other."""

from __future__ import annotations

import pytest

from engine import Game, Move, Options, visible_to
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
    assert make("medium", seed=1, noise=0.1).noise == 0.1


def test_careless_without_noise_plays_exactly_as_the_heuristic():
    """noise=0: the same move as the heuristic from the same seed, at every decision of
    whole games."""
    for seed in range(6):
        game = Game.new(Options(players=4), seed=seed)
        careless = [make("careless", seed=seed * 4 + s, noise=0) for s in range(4)]
        heuristic = [make("heuristic", seed=seed * 4 + s) for s in range(4)]
        while not game.over:
            seat = game.waiting[0]
            view, moves = game.view(seat), game.legal_moves(seat)
            chosen = careless[seat].choose(view, moves)
            assert chosen == heuristic[seat].choose(view, moves)
            events = game.apply(seat, chosen)
            for s in range(4):
                for bot in (careless[s], heuristic[s]):
                    bot.observe(game.view(s), visible_to(events, s))


def test_careless_errs_in_judgement_never_in_moves_no_player_would_make():
    """With much noise it still never Steals from a seat with fewer than two coins, never
    Exchanges without the card (its rates bluff no Exchange), and Taxes with a Duke in hand
    rather than take Income or Foreign Aid (R4); yet it plays otherwise than the heuristic."""
    differs = 0
    for seed in range(12):
        game = Game.new(Options(players=4), seed=seed)
        bots = [make("careless", seed=seed * 4 + s, noise=2.0) for s in range(4)]
        while not game.over:
            seat = game.waiting[0]
            view, moves = game.view(seat), game.legal_moves(seat)
            chosen = bots[seat].choose(view, moves)
            hand = view.hands[seat]
            if chosen.kind == "steal":
                assert view.coins[chosen.target] >= 2
            if chosen.kind == "exchange":
                assert "ambassador" in hand
            if "duke" in hand and view.phase == "action" and Move("tax") in moves:
                assert chosen.kind not in ("income", "foreign_aid")
            differs += chosen != make("heuristic", seed=seed * 4 + seat).choose(view, moves)
            events = game.apply(seat, chosen)
            for s, bot in enumerate(bots):
                bot.observe(game.view(s), visible_to(events, s))
    assert differs > 0
    with pytest.raises(ValueError):
        make("careless", noise=4)


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


def test_R12_1_the_arena_deals_reformation_tables_when_asked():
    """R12.1: `reformation=True` seats every game at a Reformation table (each decision's
    view says so, and Conversions are offered); without it none is."""
    from engine.bots import Strategy

    seen: dict[bool, set[str]] = {}

    class Watching(Strategy):
        """Random play that notes each view's option and the kinds of moves offered."""

        def __init__(self, seed: int) -> None:
            super().__init__(seed)
            self.inner = make("random", seed)

        def choose(self, view, moves):
            seen.setdefault(view.options.reformation, set()).update(m.kind for m in moves)
            return self.inner.choose(view, moves)

    def watching(name: str, seed: int, entrant: int) -> Strategy:
        return Watching(seed)

    tournament(["random"] * 3, games=3, seed=1, maker=watching, reformation=True)
    assert set(seen) == {True} and "convert" in seen[True]
    seen.clear()
    tournament(["random"] * 3, games=3, seed=1, maker=watching)
    assert set(seen) == {False} and "convert" not in seen[False]
