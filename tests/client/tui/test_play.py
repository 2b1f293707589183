"""`coup play`: a whole game against a bot, played from the keyboard, to the results."""

from __future__ import annotations

from client.tui.screens.dialogs import ChooseDialog
from client.tui.screens.results import ResultsScreen
from client.tui.screens.table import TableScreen

from .helpers import my_decision, play_to_the_end, practice, run_app, until


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
        await until(pilot, lambda: my_decision(app), "a decision")
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        header = str(table.query_one("#table-header").render())
        assert name in header
        await pilot.press("1" if app.table.view.phase == "draft" else "i")
        await pilot.pause(0.1)
        assert isinstance(app.screen, (TableScreen, ChooseDialog))

    run_app(practice(name=name), body)
