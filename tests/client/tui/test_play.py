"""`coup play`: the practice table waits for its player to press s, then a whole game against
a bot, played from the keyboard, to the results."""

from __future__ import annotations

import pytest

from client.cli import build_parser
from client.tui.screens.dialogs import ChooseDialog
from client.tui.screens.results import ResultsScreen
from client.tui.screens.table import TableScreen

from .helpers import (
    bar_keys,
    my_decision,
    play_to_the_end,
    practice,
    run_app,
    sent_by,
    shown,
    start_practice,
    until,
)


def test_the_practice_table_waits_for_its_player_to_press_s():
    """The bots are seated at once, but nothing is dealt and no clock runs (the table keeps
    the relaxed clocks) until the player, having looked, presses s."""
    async def body(app, pilot):
        screen = await until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and "s" in bar_keys(app) and app.screen, "the practice table")
        sent = sent_by(app)
        await until(pilot, lambda: "Bot 2" in shown(screen.query_one("#players")),
                    "the bots seated")
        assert (shown(screen.query_one("#prompt")).strip()
                == "Press s to start the game · ? shows the rules")
        await pilot.pause(0.5)  # bots at full speed would have moved by now
        assert app.table.view is None and not app.table.deadlines and sent == []
        assert not screen.query_one("#countdown").display
        await pilot.press("s")
        await until(pilot, lambda: app.table.view is not None, "the game")
        assert [msg.TYPE for msg in sent] == ["start"]
        await until(pilot, lambda: screen.query_one("#countdown").display, "the clock")

    run_app(practice(response_clock=60, turn_clock=180), body)


def test_a_whole_game_from_the_keyboard_ends_on_the_results():
    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        moves = await play_to_the_end(app, pilot)
        assert moves > 0
        results = await until(pilot, lambda: isinstance(app.screen, ResultsScreen)
                              and app.screen, "the results")
        view = app.table.view
        assert view.over and view.winner is not None
        winner = results.query_one("#winner").render()
        assert app.table.name(view.winner) in str(winner) or "You win" in str(winner)
        # Every hand is shown: the reveal knows the loser's cards too.
        assert all(cards is not None for cards in app.table.reveal.hands)

    run_app(practice(), body)


def test_names_are_shown_as_written_never_read_as_markup():
    """A name is the player's to choose: brackets in it must show literally, and must not
    break the screen (an unbalanced closing tag is an error to a markup parser)."""
    name = "[/b][red]Ana"

    async def body(app, pilot):
        await start_practice(app, pilot)
        await until(pilot, lambda: my_decision(app), "a decision")
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        assert f"{name} (you)" in shown(table.query_one("#players"))
        await pilot.press("1" if app.table.view.phase == "draft" else "i")
        await pilot.pause(0.1)
        assert isinstance(app.screen, (TableScreen, ChooseDialog))

    run_app(practice(name=name), body)


def test_no_bell_is_a_flag_of_coup_play_and_join(capsys):
    """`--no-bell` before or after the command; the bell rings unless told (the Launch)."""
    parse = build_parser().parse_args
    assert parse(["play"]).bell and parse([]).bell
    for argv in (["--no-bell"], ["--no-bell", "play"], ["play", "--no-bell"],
                 ["join", "example.org", "--no-bell"]):
        assert parse(argv).bell is False
    with pytest.raises(SystemExit):
        parse(["play", "--help"])
    assert "do not ring the terminal's bell" in capsys.readouterr().out
