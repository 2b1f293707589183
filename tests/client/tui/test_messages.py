"""The app's messages to its screens, through Textual's own message queue: a burst of table
changes is drawn once, every log line kept in order; a new game or a retelling stands alone,
so that the log's headings stay where they belong."""

from __future__ import annotations

import asyncio

from textual import on
from textual.app import App
from textual.screen import Screen

from client.tui.messages import TableChanged
from engine import Event

A, B, C = Event("turn", seat=0), Event("pass", seat=1), Event("turn", seat=1)


class Drawing(Screen[None]):
    """Keeps every change it is told of, as a screen that draws them would."""

    def __init__(self) -> None:
        super().__init__()
        self.changes: list[TableChanged] = []

    @on(TableChanged)
    def _changed(self, change: TableChanged) -> None:
        self.changes.append(change)


def told(*burst: TableChanged) -> list[TableChanged]:
    """The changes a screen handles when `burst` is posted to it at once."""
    screen = Drawing()

    async def main() -> None:
        app: App[None] = App()
        async with app.run_test() as pilot:
            await app.push_screen(screen)
            for change in burst:
                screen.post_message(change)
            await pilot.pause()

    asyncio.run(main())
    return screen.changes


def test_a_burst_of_plain_changes_is_one_redraw_with_every_line_in_order() -> None:
    changes = told(TableChanged(True, (A,)), TableChanged(), TableChanged(True, (B, C)))
    assert [(c.new_view, c.events) for c in changes] == [(True, (A, B, C))]


def test_a_new_game_or_a_retelling_is_never_merged() -> None:
    changes = told(TableChanged(True, (A,)), TableChanged(True, (), new_game=True),
                   TableChanged(True, (B,)), TableChanged(True, (), earlier=(C,)),
                   TableChanged())
    assert [(c.events, c.new_game, c.earlier) for c in changes] == [
        ((A,), False, ()), ((), True, ()), ((B,), False, ()), ((), False, (C,)),
        ((), False, ())]
