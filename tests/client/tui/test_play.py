"""`coup play`: a whole game against a bot, played from the keyboard, to the results."""

from __future__ import annotations

from client.tui.screens.dialogs import ChooseDialog
from client.tui.screens.results import ResultsScreen
from client.tui.screens.table import TableScreen

from .helpers import my_decision, practice, run_app, until

#: The key that answers each kind of decision when the bar offers it.
ANSWERS = {"respond": "p", "prove": "c"}


async def play_to_the_end(app, pilot) -> int:
    """Answer every decision with keys (Income, Coup when forced, pass, concede, the first
    choice of every dialog) until the game is over; returns how many moves were made."""
    moves = 0
    while True:
        view = await until(pilot, lambda: my_decision(app), "a decision or the end")
        if view.over:
            return moves
        state = view.state_id
        if view.phase == "action":
            must_coup = view.coins[view.seat] >= 10
            await pilot.press("c" if must_coup else "i")
            if must_coup:
                await until(pilot, lambda: isinstance(app.screen, ChooseDialog), "targets")
                await pilot.press("1")
        elif view.phase in ANSWERS:
            await pilot.press(ANSWERS[view.phase])
        else:  # a choice the table opened a dialog for
            await until(pilot, lambda: isinstance(app.screen, ChooseDialog), "the dialog")
            await pilot.press("1")
        moves += 1
        await until(pilot, lambda: app.table.view.state_id != state, "the move's update")


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
