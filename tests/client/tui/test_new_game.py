"""A new game whenever the player asks (issue 30): after a practice game, the menu's "Play
against bots" opens a new table with the settings chosen there, never the old one.
"""

from __future__ import annotations

from textual.widgets import Select

from client.tui.screens.dialogs import ChooseDialog
from client.tui.screens.menu import MenuScreen, PlayForm
from client.tui.screens.results import ResultsScreen
from client.tui.screens.table import TableScreen
from engine.cards import INQUISITOR_VARIANT

from .helpers import (
    bar_keys,
    dialog_labels,
    play_to_the_end,
    practice,
    run_app,
    start_practice,
    until,
)


async def opened(app, pilot, kind):
    return await until(pilot, lambda: isinstance(app.screen, kind) and app.screen,
                       kind.__name__)


def test_after_a_finished_practice_game_the_menu_deals_a_new_table_as_chosen():
    """`coup play`, a game to the end, l to leave; then Play against bots with another
    level and variant: a new table with those, not the old results."""
    async def body(app, pilot):
        await play_to_the_end(app, pilot)
        await opened(app, pilot, ResultsScreen)
        old = app.table.table
        await pilot.press("l")
        await choose_a_new_practice(app, pilot)
        await until(pilot, lambda: app.table and app.table.table != old, "a new table")
        await dealt_as_chosen(app, pilot)

    run_app(practice(), body, size=(100, 40))


async def choose_a_new_practice(app, pilot) -> None:
    """From the menu, Play against bots with two honest bots and the Inquisitor."""
    await opened(app, pilot, MenuScreen)
    await pilot.press("p")
    form = await opened(app, pilot, PlayForm)
    form.query_one("#bots", Select).value = 2
    form.query_one("#strategy", Select).value = "honest"
    form.query_one("#variant", Select).value = INQUISITOR_VARIANT
    await pilot.click("#ok")


async def dealt_as_chosen(app, pilot) -> None:
    """The table the form asked for: two honest bots and the Inquisitor, dealt on s."""
    await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info
                and "s" in bar_keys(app), "the new table's Start")
    assert app.table.view is None  # nothing of an old game
    options = app.table.info["options"]
    assert (options["seats"], options["bots"], options["variant"]) == (
        3, "honest", INQUISITOR_VARIANT)
    await pilot.press("s")
    await until(pilot, lambda: app.table.view is not None, "the new game")
    assert not app.table.view.over and len(app.table.view.alive) == 3
    assert not [n for n in app._notifications if "already" in n.message]


async def lose_the_table(app, pilot) -> None:
    """Mid-game, off the server without leaving, as when the connection is lost for good:
    the server keeps the seat for the player's key through its grace."""
    await until(pilot, lambda: app.table and app.table.playing, "the game")
    app.back_to_menu()
    await opened(app, pilot, MenuScreen)


def test_a_seat_kept_in_a_game_going_on_is_offered_back_or_a_new_table_is_dealt():
    """Play against bots while the server still keeps our seat in a game going on (it
    gives the seat back to our key): the player chooses back to that table (esc) or a new
    one as chosen, never "already at a table" over the old game."""
    async def body(app, pilot):
        await start_practice(app, pilot)
        old = app.table.table
        await lose_the_table(app, pilot)
        await choose_a_new_practice(app, pilot)
        offer = await opened(app, pilot, ChooseDialog)
        assert dialog_labels(app) == ["Back to your table", "A new table"]
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, TableScreen)
                    and app.table.table == old and app.table.playing, "the old game")
        assert offer is not app.screen
        await lose_the_table(app, pilot)
        await choose_a_new_practice(app, pilot)
        await opened(app, pilot, ChooseDialog)
        await pilot.press("2")
        await dealt_as_chosen(app, pilot)
        assert app.table.table != old

    run_app(practice(), body, size=(100, 40))
