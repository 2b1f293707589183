"""ctrl+p (issue 30, item 9): it opened Textual's command palette, late under load, and the
key typed next went into the palette's search line instead of the game. The app has no
palette: ctrl+p does nothing, and the next key plays."""

from __future__ import annotations

from textual.command import CommandPalette
from textual.widgets import Footer

from client.tui.screens.table import TableScreen
from client.tui.widgets.log import TableLog

from .helpers import log_lines, my_turn, practice, run_app, until


def test_the_key_after_ctrl_p_plays_its_move():
    async def body(app, pilot):
        await my_turn(app, pilot)
        # (the bot moves at once: a dialog of ours may be open over the table by then)
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        await pilot.press("ctrl+p", "i")
        await until(pilot, lambda: "Ana: Income" in log_lines(table.query_one(TableLog)),
                    "Income played")
        assert not any(isinstance(s, CommandPalette) for s in app.screen_stack)
        assert not table.query_one(Footer).query(".-command-palette")  # not offered either

    run_app(practice(), body, size=(80, 24))
