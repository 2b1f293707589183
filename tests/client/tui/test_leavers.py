"""A player who goes for good from a running game at a table whose seats a bot plays on
(`on_disconnect: bot`, the default), by leaving (`q`, then yes) or by a dropped connection
past the grace: the lobby's list counts the seat among the bots, and the players panel of
those still at the table shows a bot there, not the person who went (issue 30: "a leaver
is not marked as a bot in the lobby").

The server runs in a background thread with a one-second grace; the other players are
scripted peers in that thread.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual.widgets import DataTable

from client.tui.app import Launch
from client.tui.screens.dialogs import ConfirmDialog
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.table import TableScreen
from client.tui.widgets.players import PlayersPanel
from protocol import Leave
from server import ServerConfig

from .helpers import ServerThread, new_id, run_app, shown, sit, until

#: Seconds a dropped player keeps the seat: short, for the test to see it end.
GRACE = 1.0


@pytest.fixture
def server() -> Iterator[ServerThread]:
    thread = ServerThread(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                       seed=11, grace=GRACE)).start()
    yield thread
    thread.stop()


def row(app, table: str) -> list[str] | None:
    """A table's row in the lobby's list, as its cells' text (None if not listed)."""
    grid = app.screen.query_one("#tables", DataTable)
    try:
        return [str(cell) for cell in grid.get_row(table)]
    except Exception:  # noqa: BLE001 — the RowDoesNotExist of not (yet) listed tables
        return None


def seats_cell(app, table: str) -> str | None:
    cells = row(app, table)
    return cells[1] if cells else None


async def leave(peer) -> None:
    reply = await peer.request(Leave(id=new_id()))
    assert reply.TYPE == "ok", reply


async def three_seat_game(server, app, pilot):
    """Ana creates a three-seat table whose leavers' seats go to bots, Bruno and Carla sit,
    and the game starts: the table's id and the two peers."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    app.create_table({"seats": 3, "on_disconnect": "bot"})
    table = await until(pilot, lambda: isinstance(app.screen, TableScreen)
                        and app.table.info and app.table.table, "our table")
    bruno, carla = await server.peer("Bruno"), await server.peer("Carla")
    await server.run(sit, bruno, table)
    await server.run(sit, carla, table)
    app.ready(True)
    await until(pilot, lambda: app.table.view is not None, "the game")
    return table, bruno, carla


def test_the_lobby_counts_a_leaver_s_seat_among_the_bots(server):
    """Ana leaves a running game as a user does (`q`, yes): back in the lobby, her table
    lists her seat as a bot's. Then Carla's connection drops, and once her grace ends her
    seat is a bot's too."""
    async def body(app, pilot):
        table, bruno, carla = await three_seat_game(server, app, pilot)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
        listed = await until(pilot, lambda: seats_cell(app, table), "our old table listed")
        assert listed.startswith("3/3 1 bot, Bruno")  # (cut to fit its column)
        assert row(app, table)[-2] == "playing"
        await server.run(carla.aclose)
        await until(pilot, lambda: seats_cell(app, table) == "3/3 2 bots, Bruno",
                    "Carla's seat a bot's after her grace")

    run_app(Launch(mode="join", port=server.port, name="Ana"), body)


def test_the_players_panel_shows_a_bot_where_a_player_went(server):
    """Bruno leaves the game Ana plays on, then Carla's connection drops past her grace:
    Ana's players panel shows a bot in each of their seats, under a bot's name."""
    async def body(app, pilot):
        table, bruno, carla = await three_seat_game(server, app, pilot)
        panel = app.screen.query_one(PlayersPanel)
        assert "Bruno" in shown(panel) and "Carla" in shown(panel)
        await server.run(leave, bruno)
        await until(pilot, lambda: "Bruno" not in shown(panel), "Bruno's seat taken over")
        lines = shown(panel).splitlines()
        bot_line = next(line for line in lines if "Bot 2" in line)
        assert "bot" in bot_line.split("Bot 2")[1].split(), bot_line  # the seat's mark
        assert app.table.name(1) == "Bot 2"
        await server.run(carla.aclose)
        await until(pilot, lambda: "Carla" not in shown(panel), "Carla's seat taken over")
        assert app.table.name(2) == "Bot 3"
        assert [bool(s.get("bot")) for s in app.table.seats] == [False, True, True]

    run_app(Launch(mode="join", port=server.port, name="Ana"), body)
