"""benchmarks/reading.py (issue 31's table): its scripted players play as they say, and a
run prints every line it was asked for with its interval and target."""

from __future__ import annotations

import json

from benchmarks import reading
from engine import Game, Options, move


def test_the_always_challenger_challenges_every_claim_it_may() -> None:
    game = Game.new(Options(players=3), seed=5)
    actor = game.waiting[0]
    game.apply(actor, move("tax"))
    seat = game.waiting[0]
    bot = reading.AlwaysChallenger(seed=1)
    assert bot.choose(game.view(seat), game.legal_moves(seat)) == move("challenge")


def test_a_quick_run_reports_each_line_chosen(capsys) -> None:  # type: ignore[no-untyped-def]
    reading.main(["--quick", "--json", "--only", "honest alone,challenger", "--seeds", "5,6"])
    figures = json.loads(capsys.readouterr().out)
    names = [f["line"] for f in figures["lines"]]
    assert names == [ln.name for ln in reading.LINES
                     if "honest alone" in ln.name or "challenger" in ln.name]
    for f in figures["lines"]:
        assert f["games"] == reading.QUICK_GAMES and f["seeds"] == [5, 6]
        assert 0 <= f["interval"][0] <= f["win_rate"] <= f["interval"][1] <= 1
        assert isinstance(f["met"], bool)


def test_the_reformation_lines_play_at_reformation_tables(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    tables = []
    real = reading.play

    def spy(bots, options, seed):  # type: ignore[no-untyped-def]
        tables.append(options.reformation)
        return real(bots, options, seed)

    monkeypatch.setattr(reading, "play", spy)
    reading.main(["--quick", "--json", "--only", "reformation: heuristic alone vs 2 random",
                  "--seeds", "5"])
    figures = json.loads(capsys.readouterr().out)
    assert [f["line"] for f in figures["lines"]] == ["reformation: heuristic alone vs 2 random"]
    assert tables == [True] * reading.QUICK_GAMES
