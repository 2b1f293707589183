"""`coup play`: a whole game against a bot, played from the keyboard, to the results."""

from __future__ import annotations

from client.tui.screens.results import ResultsScreen
from client.tui.screens.table import TableScreen

from .helpers import play_to_the_end, practice, run_app, until


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
