"""A lobby-only client (`coup join HOST --lobby-only`), as the SSH and browser doors start
their players' clients (issue 17): the app is that server's lobby and nothing else. No menu
is ever under the lobby (so no practice server, no LAN server and no other address from the
door's machine); leaving the lobby ends the app, and so does a server that cannot be
reached or goes away, with the reason left on the terminal.
"""

from __future__ import annotations

import socket

from textual._compositor import Compositor

from client.tui.app import Launch
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.menu import SHOW_AFTER, ArrivalScreen, MenuScreen
from client.tui.screens.table import TableScreen
from client.tui.widgets.footer import Keys
from tests.client.test_cli import launched

from .helpers import run_app, shown, until


def lobby_only(port: int) -> Launch:
    return Launch(mode="join", host="127.0.0.1", port=port, name="Ana", lobby_only=True)


def test_the_lobby_has_no_menu_under_it_and_leaving_it_ends_the_app(server):
    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        stack = [type(s) for s in app.screen_stack]
        assert ArrivalScreen in stack and MenuScreen not in stack
        await pilot.press("escape")
        await until(pilot, lambda: not app.is_running, "the app to end")

    app = run_app(lobby_only(server.port), body)
    assert app.farewell is None and app.return_code == 0


def test_the_arrival_screen_is_the_first_screen_and_nothing_is_under_it(server):
    """No blank screen of Textual's under it, made, styled and laid out for no one: a door's
    session pays for every screen it has (docs/SERVER.md, the SSH door). A table takes the
    lobby's place over it."""
    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        assert [type(s) for s in app.screen_stack] == [ArrivalScreen, LobbyScreen]
        app.create_table({"seats": 2})
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        assert [type(s) for s in app.screen_stack] == [ArrivalScreen, TableScreen]

    run_app(lobby_only(server.port), body)


def test_a_lobby_that_comes_at_once_is_drawn_with_no_arrival_screen_before_it(server):
    """A door's server answers in a tenth of a second: its lobby comes before SHOW_AFTER, and
    the arrival screen under it never drew its title, a screen the player would never have
    seen and each door session paid for (docs/SERVER.md, the SSH door)."""
    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        arrival = next(s for s in app.screen_stack if isinstance(s, ArrivalScreen))
        await pilot.pause(SHOW_AFTER + 0.1)
        assert not arrival.query("#title") and not arrival.query("#subtitle")

    run_app(lobby_only(server.port), body)


def test_a_lobby_that_came_at_once_is_not_drawn_again_when_its_arrival_would_have(server,
                                                                                monkeypatch):
    """The arrival screen's wait for the lobby ends with the lobby: were it to end SHOW_AFTER
    later, under the lobby, it would have the lobby drawn again in full for nothing."""
    drawn: list[object] = []
    render_update = Compositor.render_update

    def counted(self, *args, **kwargs):
        drawn.append(self)
        return render_update(self, *args, **kwargs)

    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        for _ in range(3):  # what the lobby's opening set off, settled
            await pilot.pause()
        monkeypatch.setattr(Compositor, "render_update", counted)
        await pilot.pause(SHOW_AFTER + 0.1)
        assert drawn == []

    run_app(lobby_only(server.port), body)


def test_a_server_slow_to_answer_shows_the_arrival_screen_meanwhile():
    """A server that takes its time (here one that accepts and never answers hello): after
    SHOW_AFTER the player sees the title and the server being reached, and q quits."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]

        async def body(app, pilot):
            arrival = await until(pilot, lambda: isinstance(app.screen, ArrivalScreen)
                                  and app.screen.query("#subtitle") and app.screen,
                                  "the arrival screen's words")
            assert f"Connecting to 127.0.0.1:{port}" in shown(arrival.query_one("#subtitle"))
            assert arrival.query("#title")
            await until(pilot, lambda: arrival.query(Keys), "the footer's keys")
            assert [key.key for key in arrival.query_one(Keys).keys] == ["q"]
            await pilot.press("q")
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
