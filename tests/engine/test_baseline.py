"""The frozen baseline plays exactly as the heuristic played before issue 31 changed it.

tests/engine/data/baseline_games.json holds 40 games the heuristic recorded then (2 to 6
seats, both variants, the draft on and off, against itself and against other strategies):
each game's options, seed and every move with its seat. Replaying them, the baseline, given
each heuristic seat's view and events as a table gives them, must choose every one of that
seat's recorded moves.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.bots import make
from engine.bots.base import Strategy
from engine.events import visible_to
from engine.game import Game
from engine.moves import Move
from engine.options import Options

RECORDED = json.loads((Path(__file__).parent / "data" / "baseline_games.json").read_text())
GAMES: list[dict[str, Any]] = RECORDED["games"]


def replay_as_baseline(game_record: dict[str, Any]) -> tuple[int, list[str]]:
    """How many of the heuristic seats' decisions the baseline was asked, and a line for
    each it decided otherwise."""
    options = Options(players=game_record["players"], variant=game_record["variant"],
                      two_player_draft=game_record["draft"])
    game = Game.new(options, game_record["seed"])
    seats: dict[int, Strategy] = {
        s: make("baseline", game_record["seed"] * 31 + s)
        for s, name in enumerate(game_record["lineup"]) if name == "heuristic"
    }
    asked, differences = 0, []
    for number, (seat, data) in enumerate(game_record["moves"]):
        recorded = Move.from_dict(data)
        if seat in seats:
            asked += 1
            chosen = seats[seat].choose(game.view(seat), game.legal_moves(seat))
            if chosen != recorded:
                differences.append(f"move {number}, seat {seat}: {chosen} != {recorded}")
        events = game.apply(seat, recorded)
        for s, strategy in seats.items():
            if game.alive[s] or game.over:
                strategy.observe(game.view(s), visible_to(events, s))
    assert game.over  # every recorded game was played to its end
    return asked, differences


@pytest.mark.parametrize("game_record", GAMES, ids=lambda g: f"seed{g['seed']}")
def test_baseline_plays_every_recorded_move_of_the_old_heuristic(
        game_record: dict[str, Any]) -> None:
    asked, differences = replay_as_baseline(game_record)
    assert asked > 0
    assert differences == []


def test_the_recording_covers_hundreds_of_decisions_of_every_kind() -> None:
    kinds = {data["kind"] for g in GAMES for seat, data in g["moves"]
             if g["lineup"][seat] == "heuristic"}
    asked = sum(1 for g in GAMES for seat, _ in g["moves"] if g["lineup"][seat] == "heuristic")
    assert asked > 2000
    assert {"tax", "steal", "assassinate", "coup", "challenge", "block", "pass", "lose",
            "keep", "prove"} <= kinds
