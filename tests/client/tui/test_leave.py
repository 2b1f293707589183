"""Leaving a table at a slow server: the app shows the lobby, and sends what the player asks
next, only once the server has let it go (its `ok`), as plain mode does; a spectate asked
at once then lands at the table asked for, instead of being refused (already_at_table)
because the player was still seated when it came."""

from __future__ import annotations

import trio

from client.tui.app import Launch
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.table import TableScreen
from server.table import Table

from .helpers import create_table, notes, run_app, until

#: Seconds the server's tables take to hear a leave.
LATE = 0.5


def slow_to_let_go(monkeypatch) -> None:
    """Every table hears a leave LATE seconds after it came (a busy table): until then the
    player is still seated there, as far as the server knows."""
    submit = Table.submit

    def late(table, session, item) -> bool:
        if getattr(item, "TYPE", None) != "leave":
            return submit(table, session, item)

        async def later() -> None:
            await trio.sleep(LATE)
            submit(table, session, item)

        trio.lowlevel.spawn_system_task(later)
        return True

    monkeypatch.setattr(Table, "submit", late)


def test_a_spectate_right_after_leaving_a_slow_table_lands(server, monkeypatch):
    slow_to_let_go(monkeypatch)

    async def body(app, pilot):
        bruno = await server.peer("Bruno")
        watched = (await server.run(create_table, bruno, seats=3)).table
        app.join_server("127.0.0.1", server.port, "Ana")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        app.create_table({"seats": 3})
        own = await until(pilot, lambda: isinstance(app.screen, TableScreen)
                          and app.table.info and app.table.table, "our table")
        app.leave_table()
        app.join_table(watched, spectate=True)
        await pilot.pause()
        # Still seated, as far as the server knows: the table stays until it says so.
        assert isinstance(app.screen, TableScreen) and app.table.table == own
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table
                    and app.table.table == watched, "the table watched")
        assert app.table.seat is None
        assert not [note for note in notes(app) if "table" in note.casefold()]

    run_app(Launch(), body)
