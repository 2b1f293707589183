"""A dropped connection while seated in a running game: the banner shows, the client
reconnects by itself with its seat's token, the table comes back from the server's fresh
snapshot, and play goes on. A server that says it is stopping is not tried again: the
player is back at the menu, told why; one that says it restarts is, until it is back, and
the seat comes back from its store. A seat given up while the connection was down
leaves the player in the lobby, under the name the reconnect's welcome gave. Another
player's drop shows in the log.

The practice table runs on the app's own server. The test shuts the client's socket down
under it, and holds the reconnect until the banner has been seen (a loopback reconnect is
otherwise quicker than a look at the screen).
"""

from __future__ import annotations

import socket
from dataclasses import replace

import trio

from client import transport
from client.tui.app import Launch
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.menu import MenuScreen
from client.tui.screens.table import TableScreen
from server import ServerConfig

from .helpers import (
    ServerThread,
    bar_keys,
    create_table,
    duel,
    log_lines,
    my_turn,
    notes,
    practice,
    run_app,
    shown,
    until,
)


class HeldLink(transport.Link):
    """A Link whose `open` waits until the test lets it through."""

    gate: trio.Event

    @classmethod
    async def open(cls, *args, **kwargs):
        await cls.gate.wait()
        return await super().open(*args, **kwargs)


def test_the_client_reconnects_by_itself_and_play_goes_on(monkeypatch):
    HeldLink.gate = trio.Event()

    async def body(app, pilot):
        view = await my_turn(app, pilot)
        screen = app.screen
        banner = screen.query_one("#banner")
        token = app.table.token
        assert not banner.display
        monkeypatch.setattr(transport, "Link", HeldLink)
        app.net.link.stream.socket.shutdown(socket.SHUT_RDWR)
        await until(pilot, lambda: banner.display, "the banner")
        assert "reconnecting" in str(banner.content)
        assert not app.connected and bar_disabled(screen)
        HeldLink.gate.set()
        await until(pilot, lambda: app.connected and not banner.display, "the reconnect")
        await until(pilot, lambda: app.table.view is not view, "the fresh snapshot")
        assert app.table.view.state_id == view.state_id and app.table.seat == view.seat
        assert app.table.token == token and app.screen is screen
        await until(pilot, lambda: "Reconnected: your seat is back." in notes(app),
                    "the notice")  # notifications arrive as messages of their own
        await until(pilot, lambda: not bar_disabled(screen), "the action bar back")
        await pilot.press("i")
        await until(pilot, lambda: app.table.view.state_id > view.state_id, "our Income")
        assert app.table.view.coins[view.seat] >= view.coins[view.seat]

    run_app(practice(bots=2, strategy="honest"), body)


def test_a_seat_lost_in_a_drop_leaves_the_player_with_the_name_the_server_gives(monkeypatch):
    """The app asks for Ana while Ana is on the server, and is Ana-2. It makes a table; its
    connection drops and stays down past the grace, while Ana leaves: its seat is given up
    and Ana is free. Its reconnect is welcomed as Ana and refused the seat (bad_token): in
    the lobby it is Ana now, and at its next table it is the creator, offered Start."""
    HeldLink.gate = trio.Event()
    server = ServerThread(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                       grace=0.5)).start()

    async def body(app, pilot):
        ana = await server.peer("Ana")
        app.join_server("127.0.0.1", server.port, "Ana")
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.me
                            and app.screen, "the lobby")
        assert app.me == "Ana-2"
        app.create_table({"seats": 2})
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info,
                    "our table")
        assert bar_keys(app) == ["r", "s"]
        monkeypatch.setattr(transport, "Link", HeldLink)
        app.net.link.stream.socket.shutdown(socket.SHUT_RDWR)
        await until(pilot, lambda: not app.connected, "the drop")
        await server.run(ana.aclose)
        await until(pilot, lambda: not server.server.lobby.tables, "the grace's end")
        HeldLink.gate.set()
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                            and app.screen, "the lobby again")
        await until(pilot, lambda: app.me == "Ana", "the name the server gave")
        await until(pilot, lambda: shown(lobby.query_one("#lobby-header")).rstrip().endswith(
            "you are Ana, a guest"), "the header")
        await until(pilot, lambda: "The seat could not be taken back." in notes(app),
                    "the notice")
        app.create_table({"seats": 2})
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info,
                    "our new table")
        assert app.table.info["creator"] == "Ana"
        assert bar_keys(app) == ["r", "s"]

    try:
        run_app(Launch(), body)
    finally:
        server.stop()


def bar_disabled(screen) -> bool:
    return screen.query_one("#actions").disabled


def test_a_server_that_stops_sends_its_players_back_to_the_menu(server):
    async def body(app, pilot):
        bruno = await server.peer("Bruno")
        table = (await server.run(create_table, bruno, seats=2)).table
        await until(pilot, lambda: app.connected, "the connection")
        app.join_table(table)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.core.token,
                    "a seat at Bruno's table")
        await server.run(server.server.shutdown)
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await until(pilot, lambda: "The server is stopping." in notes(app), "the reason")
        assert not app.connected and app.table is None

    run_app(Launch(mode="join", host="127.0.0.1", port=server.port, name="Ana"), body)


def test_a_server_that_restarts_gives_the_player_its_seat_back(tmp_path):
    """A restart (SIGTERM's: Server.shutdown(restart=True)) on a store: the bye says the
    server comes back, so the client tries again, with its back-off, until the next server
    on the same store and port listens, and is back in its seat, the game where it was."""
    config = ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0, seed=11,
                          db=str(tmp_path / "coup.db"))
    servers = [ServerThread(config).start()]

    async def body(app, pilot):
        first = servers[0]
        await duel(app, pilot, first)
        view, token = app.table.view, app.table.token
        screen = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        await first.run(first.server.shutdown, True)
        await until(pilot, lambda: not app.connected, "the goodbye")
        await until(pilot, lambda: any(n.startswith("The server is restarting")
                                       for n in notes(app)), "the reason")
        await until(pilot, lambda: not first.running, "the store let go")
        servers.append(ServerThread(replace(config, port=first.port)).start())
        await until(pilot, lambda: app.connected and app.table.view is not view,
                    "the seat again")
        assert app.table.token == token and screen in app.screen_stack
        assert (app.table.view.state_id, app.table.seat) == (view.state_id, view.seat)

    try:
        run_app(Launch(mode="join", host="127.0.0.1", port=servers[0].port, name="Ana"), body)
    finally:
        servers[-1].stop()


def test_a_player_in_the_lobby_comes_back_to_the_lobby_after_a_restart(tmp_path):
    """A restart sends everyone away with server_restart, not only the seated: a player in
    the lobby (through the SSH door, the lobby is the whole session) tries again too, and
    is back in the lobby of the next server, its tables listed, not sent to the menu."""
    config = ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                          db=str(tmp_path / "coup.db"))
    servers = [ServerThread(config).start()]

    async def body(app, pilot):
        first = servers[0]
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        bruno = await first.peer("Bruno")
        table = (await first.run(create_table, bruno, seats=3)).table
        await until(pilot, lambda: [t["table"] for t in app.tables] == [table], "its table")
        await first.run(first.server.shutdown, True)
        await until(pilot, lambda: not app.connected, "the goodbye")
        await until(pilot, lambda: not first.running, "the store let go")
        servers.append(ServerThread(replace(config, port=first.port)).start())
        await until(pilot, lambda: app.connected, "the lobby again")
        # Bruno's table is kept for him; the lobby lists it again.
        await until(pilot, lambda: [t["table"] for t in app.tables] == [table],
                    "the table listed again")
        assert isinstance(app.screen, LobbyScreen) and app.me == "Ana"

    try:
        run_app(Launch(mode="join", host="127.0.0.1", port=servers[0].port, name="Ana"), body)
    finally:
        servers[-1].stop()


def test_the_log_tells_when_another_player_loses_the_connection(server):
    async def body(app, pilot):
        bruno = await duel(app, pilot, server)
        await server.run(bruno.aclose)
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        log = table.query_one("#log")  # (under the draft's dialog)
        def told() -> str:  # the log's words, however its lines are wrapped
            return " ".join(" ".join(log_lines(log)).split())

        await until(pilot, lambda: "Bruno lost the connection: the seat waits for them"
                    in told(), "the line about Bruno")

    run_app(Launch(mode="join", host="127.0.0.1", port=server.port, name="Ana"), body)
