"""A bot in any language (issue 33): the two example bots of docs/examples/bots, one in
Python importing nothing of ours and one for Node, play whole games through the line
protocol's host in the arena (`coup arena --strategies exec:...`) and on a position (`coup
position FILE --bot exec:...`), and they are sent what the wire sends their seat, never a
hidden card of another's (R11). tests/client/test_exec_misbehaving.py has the bots that
break; tests/client/test_exec_online.py has them over the network."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from client.botproc import ExecStrategy, strategy_for
from client.cli import main
from engine import Game, Options
from engine.bots import make
from engine.bots.arena import play
from engine.position import Position
from tests.client.test_exec_misbehaving import gone

BOTS = Path(__file__).resolve().parents[2] / "docs" / "examples" / "bots"
PYTHON_BOT = f"{shlex.quote(sys.executable)} {shlex.quote(str(BOTS / 'coup_bot.py'))}"
NODE_BOT = f"node {shlex.quote(str(BOTS / 'coup_bot.js'))}"
POSITION = (Path(__file__).resolve().parents[2] / "docs" / "examples" / "positions"
            / "block_the_assassin.toml")

EXAMPLES = [pytest.param(PYTHON_BOT, id="python"), pytest.param(NODE_BOT, id="node")]


@pytest.mark.parametrize("command", EXAMPLES)
def test_an_example_bot_plays_whole_games_in_the_arena(command, capsys):
    """Four games against the heuristic, seats rotated, one process kept for all four:
    every game is played to its end, and none is forfeited (JSON win rates, exit 0)."""
    assert main(["arena", "--strategies", f"exec:{command},heuristic", "--games", "4",
                 "--json"]) == 0
    out, err = capsys.readouterr()
    figures = json.loads(out)
    assert figures["games"] == 4
    assert set(figures["win_rate"]) == {f"exec:{command}", "heuristic"}
    assert figures["forfeits"] == {f"exec:{command}": 0, "heuristic": 0}
    assert "coup: bot" not in err


@pytest.mark.parametrize("command", EXAMPLES)
def test_an_example_bot_answers_on_a_position(command, capsys):
    """The position's open decision is seat 0's block window: the bot's move is one of
    the legal ones, printed as the wire's move."""
    assert main(["position", str(POSITION), "--bot", f"exec:{command}"]) == 0
    chosen = json.loads(capsys.readouterr().out)
    game = Position.load(str(POSITION)).game()
    assert chosen in [m.to_dict() for m in game.legal_moves(0)]


def test_an_exec_bot_with_no_command_is_refused(capsys):
    assert main(["arena", "--strategies", "exec:,heuristic", "--games", "1"]) == 2
    assert "exec:" in capsys.readouterr().err
    assert main(["bot", "127.0.0.1", "--exec", " "]) == 2
    assert "--exec needs a command" in capsys.readouterr().err


def test_the_help_of_bot_arena_and_position_says_exec(capsys):
    helps = {}
    for name in ("bot", "arena", "position"):
        with pytest.raises(SystemExit):
            main([name, "--help"])
        helps[name] = capsys.readouterr().out
    assert "--exec" in helps["bot"] and "any language" in helps["bot"]
    assert "exec:COMMAND" in helps["arena"] and "exec:COMMAND" in helps["position"]


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "inf"])
@pytest.mark.parametrize("argv", [["arena", "--strategies", "random,honest"],
                                  ["bot", "127.0.0.1:1"], ["position", "game.json"]],
                         ids=["arena", "bot", "position"])
def test_a_bot_time_that_is_not_seconds_above_0_is_refused(argv, seconds, capsys):
    """--time bounds every wait on an exec: bot: at 0 or less each bot forfeits at once,
    and nan or inf reached the poll of its pipe, which raises on them."""
    with pytest.raises(SystemExit) as exited:
        main([*argv, "--time", seconds])
    assert exited.value.code == 2
    assert "--time: seconds above 0, not" in capsys.readouterr().err


def test_a_comma_inside_an_exec_commands_quotes_is_kept(tmp_path, capsys):
    """--strategies splits at commas, but not inside the quotes of an exec: command."""
    (tmp_path / "a,b.py").write_text((BOTS / "coup_bot.py").read_text())
    command = f"{sys.executable} '{tmp_path / 'a,b.py'}'"
    assert main(["arena", "--strategies", f"exec:{command},heuristic", "--games", "2",
                 "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["win_rate"]) == {f"exec:{command}",
                                                                     "heuristic"}


def test_the_example_plays_from_one_process_and_is_told_each_new_game(tmp_path):
    """Rotated seats over three games, one process: its stderr file is one, and the arena
    calls it as the server would (hello, then new_game). Each game is played out."""
    bot = strategy_for(f"exec:{PYTHON_BOT}", logs=tmp_path)
    assert isinstance(bot, ExecStrategy)
    try:
        for g in range(3):
            seats = [bot, make("heuristic", g)] if g % 2 == 0 else [make("heuristic", g), bot]
            result = play(seats, Options(players=2), g, ["pybot", "heuristic"])
            assert result.forfeits == ()
            assert result.winner is not None and result.exiled == (1 - result.winner,)
        assert "pybot" in bot.label
    finally:
        bot.close()
    assert bot.pid is not None and gone(bot.pid)
    assert list(tmp_path.iterdir()) == [bot.stderr_file]
    assert bot.stderr_file.name.startswith("coup_bot.py-")


RECORDER = """
import json, sys
log = open(sys.argv[1], "w")
for line in sys.stdin:
    log.write(line)
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"ready": True}), flush=True)
    elif m["type"] == "decide":
        kinds = [x["kind"] for x in m["moves"]]
        best = next((k for k in ("income", "pass", "lose", "keep") if k in kinds), kinds[0])
        print(json.dumps({"move": kinds.index(best)}), flush=True)
"""


def test_a_bot_never_receives_a_hidden_card_of_another_seat(tmp_path):
    """R11: seat 1 holds both Contessas the game is played with but the deck's one, and
    never shows them (the recording bot at seat 0 takes Income and passes, so nothing makes
    seat 1 reveal or prove a card, and it draws nothing); over the whole game the word
    "contessa" is in no view, event or hello the bot received, while its own cards are."""
    (tmp_path / "recorder.py").write_text(RECORDER)
    received = tmp_path / "received.jsonl"
    position = Position.from_dict({
        "options": {"players": 2, "two_player_draft": False},
        "turn": 0,
        "seats": [{"hand": ["duke", "captain"]}, {"hand": ["contessa", "contessa"]}],
    })
    bot = ExecStrategy(f"{shlex.quote(sys.executable)} {tmp_path / 'recorder.py'} {received}",
                       logs=tmp_path)
    game: Game = position.game()
    try:
        result = play([bot, make("heuristic", 1)], game.options, 1, start=game)
    finally:
        bot.close()
    assert result.winner == 1 and result.forfeits == ()
    text = received.read_text()
    messages = [json.loads(line) for line in text.splitlines()]
    assert [m["type"] for m in messages][0] == "hello" and messages[-1]["type"] == "goodbye"
    assert any(m["type"] == "game_over" for m in messages)
    # Its moves may name any character (a block claims one, R6.1): the rest is what it saw.
    seen = json.dumps([{k: v for k, v in m.items() if k != "moves"} for m in messages])
    assert "duke" in seen and "captain" in seen
    assert "contessa" not in seen


def test_an_example_bot_plays_a_tournament(capsys):
    """`coup arena --tournament` with an exec: entrant: every lineup played, the bot's
    standing counts its games and no forfeit."""
    assert main(["arena", "--tournament", "--strategies", f"exec:{PYTHON_BOT},heuristic,random",
                 "--games", "1", "--sizes", "2,3", "--jobs", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    bot = next(e for e in figures["standings"] if e["name"] == f"exec:{PYTHON_BOT}")
    assert figures["played"] == figures["scheduled"] == 12
    assert bot["games"] == 10 and bot["forfeits"] == 0


def test_a_kept_bot_is_told_a_new_game_after_a_game_another_bot_forfeited(tmp_path, capsys):
    """In a tournament another entrant's forfeit takes its seat and the game goes on
    (engine.bots.arena.play): the recording bot is told the game's end, its next game
    begins with new_game, and it is told the entrants' names."""
    (tmp_path / "recorder.py").write_text(RECORDER)
    (tmp_path / "crasher.py").write_text(
        "import json, sys\nfor line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'hello':\n"
        "        print(json.dumps({'ready': True}), flush=True)\n"
        "    elif json.loads(line)['type'] == 'decide':\n        sys.exit(1)\n")
    received = tmp_path / "received.jsonl"
    recorder = f"exec:{shlex.quote(sys.executable)} {tmp_path / 'recorder.py'} {received}"
    crasher = f"exec:{shlex.quote(sys.executable)} {tmp_path / 'crasher.py'}"
    assert main(["arena", "--tournament", "--strategies", f"{recorder},{crasher},heuristic",
                 "--games", "1", "--sizes", "3", "--jobs", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert next(e for e in figures["standings"] if e["name"] == crasher)["forfeits"] >= 1
    messages = [json.loads(line) for line in received.read_text().splitlines()]
    kinds = [m["type"] for m in messages]
    assert kinds.count("hello") == 1 and "new_game" in kinds and "game_over" in kinds
    assert set(messages[0]["players"]) == {recorder, crasher, "heuristic"}
    # Each game the bot was told of is one game: its decisions' states never go back.
    games: list[list[int]] = []
    for m in messages:
        if m["type"] in ("hello", "new_game"):
            games.append([])
        elif m["type"] == "decide":
            games[-1].append(m["view"]["state_id"])
    assert all(states == sorted(states) for states in games)
    assert sum(bool(states) for states in games) >= 2
