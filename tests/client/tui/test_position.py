"""`coup position FILE`: a position as a practice table against bots (you are seat 0), and
`--bot NAME`, the move a strategy makes there, printed as JSON."""

from __future__ import annotations

import json

import pytest

from client.cli import build_parser, main
from client.tui.screens.menu import MenuScreen
from client.tui.screens.table import TableScreen
from engine.position import Position

from .helpers import practice, run_app, shown, start_practice, until

EXAMPLES = "docs/examples/positions/"

#: Seat 0 (Duke, Captain, 6 coins) may block seat 1's Assassination with... nothing it
#: holds; seat 1 (Contessa, Assassin, 0 coins after paying) waits.
POSITION = """\
turn = 1

[[seats]]
hand = ["duke", "captain"]
coins = 6

[[seats]]
hand = ["contessa", "assassin"]
coins = 0

[decision]
phase = "respond"
action = "assassinate"
target = 0
step = "challenge_action"
"""


def test_the_practice_table_deals_the_position_when_s_is_pressed(tmp_path):
    """Two seats as the file says: your hand and coins, the bot's, and your decision open:
    challenge the Assassin claim, or let it pass (R6.1)."""
    path = tmp_path / "duel.toml"
    path.write_text(POSITION)

    async def body(app, pilot):
        await start_practice(app, pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        view = app.table.view
        assert view.hands[0] == ("duke", "captain") and view.coins == (6, 0)
        assert view.phase == "respond" and view.waiting == (0,) and view.claim == "assassin"
        assert view.to_dict() == Position.load(str(path)).game().view(0).to_dict() | {
            "state_id": view.state_id, "opened": view.opened}
        await until(pilot, lambda: "Captain" in shown(screen.query_one("#hand")), "the hand")

    run_app(practice(bots=1, position=str(path)), body)


def test_coup_position_opens_the_file_as_a_practice_table_of_its_size():
    parse = build_parser().parse_args
    args = parse(["position", EXAMPLES + "exchange_keep.toml", "--level", "easy"])
    assert (args.command, args.bot, args.level) == ("position", None, "easy")
    from client.cli import _practice_launch

    launch = _practice_launch(args)
    players = Position.load(EXAMPLES + "exchange_keep.toml").options.players
    assert launch.mode == "play" and launch.bots == players - 1
    assert launch.position.endswith("exchange_keep.toml") and launch.strategy == "easy"


def test_coup_position_bot_prints_the_move_as_json(capsys):
    assert main(["position", EXAMPLES + "block_the_assassin.toml", "--bot", "heuristic"]) == 0
    assert json.loads(capsys.readouterr().out) == {"kind": "block", "card": "contessa"}


@pytest.mark.parametrize("argv, says", [
    (["--bot", "heuristic", "--seat", "2"], "Seat 2 owes no decision in this position"),
    (["--bot", "nobody"], "no strategy or level 'nobody'"),
])
def test_coup_position_bot_says_why_it_cannot_answer(capsys, argv, says):
    assert main(["position", EXAMPLES + "block_the_assassin.toml"] + argv) == 2
    assert says in capsys.readouterr().err


def test_coup_position_refuses_a_file_that_is_no_position(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("[[seats]]\nhand = ['duke', 'duke']\n[[seats]]\nhand = ['duke', 'duke']\n")
    assert main(["position", str(path)]) == 2
    assert "coup position: The cards count 4 duke" in capsys.readouterr().err


def test_a_later_practice_table_is_dealt_not_the_position(tmp_path):
    """The practice server outlives its launch: one started for a position must not serve
    the menu's "Play against bots" afterwards."""
    path = tmp_path / "duel.toml"
    path.write_text(POSITION)

    async def body(app, pilot):
        await start_practice(app, pilot)
        assert app.table.view.coins == (6, 0)
        app.leave_table()  # back to the menu, whose "Play against bots" follows
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        app.play(practice(bots=1))
        await start_practice(app, pilot)
        assert app.table.view.phase == "draft"  # a two-player deal, not the position

    run_app(practice(bots=1, position=str(path)), body)
