"""A lobby-only client (`coup join HOST --lobby-only`), as the SSH and browser doors start
their players' clients (issue 17): the app is that server's lobby and nothing else. No menu
is ever under the lobby (so no practice server, no LAN server and no other address from the
door's machine); leaving the lobby ends the app, and so does a server that cannot be
reached or goes away, with the reason left on the terminal.
"""

from __future__ import annotations

import asyncio
import socket

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from client.identity import Identity
from client.tui.app import Launch
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.table import TableScreen
from tests.client.test_cli import launched

from .helpers import create_table, notes, run_app, shown, until


def lobby_only(port: int) -> Launch:
    return Launch(mode="join", host="127.0.0.1", port=port, name="Ana", lobby_only=True)


def test_the_lobby_has_no_menu_under_it_and_leaving_it_ends_the_app(server):
    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.server_name,
                    "the lobby, welcomed")
        assert [type(s) for s in app.screen_stack] == [LobbyScreen]
        await pilot.press("escape")
        await until(pilot, lambda: not app.is_running, "the app to end")

    app = run_app(lobby_only(server.port), body)
    assert app.farewell is None and app.return_code == 0


def test_the_lobby_is_the_first_screen_and_a_table_goes_over_it_and_back(server):
    """No other screen under it, made, styled and laid out for no one, and none pushed once
    the server answers: a door's session pays for every screen it has (docs/SERVER.md, the
    SSH door). A table goes over it; leaving the table shows it again, up to date."""
    async def body(app, pilot):
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                            and app.server_name and app.screen, "the lobby, welcomed")
        await until(pilot, lambda: "you are Ana" in shown(lobby.query_one("#lobby-header")),
                    "the welcome in the lobby's header")
        app.create_table({"seats": 2})
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        assert app.screen_stack[0] is lobby and len(app.screen_stack) == 2
        app.leave_table()
        await until(pilot, lambda: app.screen is lobby, "the lobby again")
        assert app.screen_stack == [lobby]
        bruno = await server.peer("Bruno")
        await server.run(create_table, bruno, seats=3, name="Bruno's den")
        await until(pilot, lambda: lobby.query_one("#tables").display
                    and "Bruno's den" in shown(lobby.query_one("#tables")),
                    "the list, up to date")

    run_app(lobby_only(server.port), body)


def test_a_server_slow_to_answer_is_said_in_the_lobby_meanwhile():
    """A server that takes its time (here one that accepts and never answers hello): the
    lobby says which server it is reaching, lists nothing, and escape quits."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]

        async def body(app, pilot):
            lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                                and app.screen, "the lobby")
            await until(pilot, lambda: f"Connecting to 127.0.0.1:{port}…" in shown(
                lobby.query_one("#lobby-header")), "the server being reached")
            assert shown(lobby.query_one("#no-tables")).strip() == ""
            await pilot.press("escape")
            await until(pilot, lambda: not app.is_running, "the app to end")

        run_app(lobby_only(port), body)


def test_a_server_that_cannot_be_reached_ends_the_app_saying_why():
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]  # bound, never listening: refused

        async def body(app, pilot):
            await until(pilot, lambda: not app.is_running, "the app to end")

        app = run_app(lobby_only(port), body)
    assert app.farewell and "refused" in app.farewell.lower()
    assert app.return_code == 1  # the door's session fails with it


def test_the_flag_reaches_the_launch_and_needs_an_address(monkeypatch, capsys):
    from client.cli import main

    assert launched(["join", "127.0.0.1:1", "--lobby-only"], monkeypatch).lobby_only
    assert not launched(["join", "127.0.0.1:1"], monkeypatch).lobby_only
    assert main(["join", "--lobby-only"]) == 2
    assert "--lobby-only needs the server's address" in capsys.readouterr().err


def test_the_lobby_asks_for_its_player_s_rating_once_and_quietly(server, monkeypatch):
    """A player the server knows by their key but has not rated: asked once as the lobby is
    shown, the server's "no such rated player" is no notice. Asked twice (by the lobby as it
    mounted and by the app on the welcome), the answer to the first was a stray refusal on
    the player's screen whenever the server answered before the lobby had mounted (a door
    session under load): here the lobby mounts only once the welcome has come."""
    mount = LobbyScreen.on_mount

    async def mounted_late(self):
        while not self.app.connected:
            await asyncio.sleep(0)
        await mount(self)

    monkeypatch.setattr(LobbyScreen, "on_mount", mounted_late)
    launch = lobby_only(server.port)
    launch.identity = Identity("(test)", Ed25519PrivateKey.generate())

    async def body(app, pilot):
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                            and app.identified and app.screen, "the lobby, welcomed")
        await until(pilot, lambda: lobby.query_one("#tables").display is False
                    and "press c" in shown(lobby.query_one("#no-tables")), "the empty list")
        for _ in range(5):
            await pilot.pause(0.05)
        assert notes(app) == []

    run_app(launch, body)
