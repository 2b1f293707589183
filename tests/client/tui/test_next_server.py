"""From one server to the next (issue 30): what the app knew of the server it left is not
shown at the next one, whose lobby chat starts empty.
"""

from __future__ import annotations

from textual.widgets import Input

from client.tui.app import Launch
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.menu import JoinForm, MenuScreen
from protocol import Chat, Say
from server import ServerConfig
from tests.server.peer import new_id

from .helpers import ServerThread, log_lines, run_app, until


async def lobby_of(app, pilot, port: int) -> LobbyScreen:
    return await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                       and app.server_name and app.screen, f"the lobby of :{port}")


def test_the_lobby_chat_of_the_server_left_does_not_show_at_the_next(server):
    """Lobby chat belongs to one server's connection: neither the lines the app kept nor
    one the first connection read as the player left show in the next server's lobby."""
    other = ServerThread(ServerConfig(port=0, seed=12)).start()

    async def body(app, pilot):
        lobby = await lobby_of(app, pilot, server.port)
        bruno = await server.peer("Bruno")
        await server.run(bruno.request, Say(id=new_id(), text="hello from the first",
                                            scope="lobby"))
        log = lobby.query_one("#chat-log")
        await until(pilot, lambda: "Bruno: hello from the first" in log_lines(log),
                    "Bruno's line")
        first = app.net.transport
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("j")
        form = await until(pilot, lambda: isinstance(app.screen, JoinForm) and app.screen,
                           "the join form")
        form.query_one("#address", Input).value = f"127.0.0.1:{other.port}"
        await pilot.press("enter")
        lobby = await lobby_of(app, pilot, other.port)
        # The first connection had read one more line as the player left: its step runs
        # only now, behind the next server's lobby.
        first.received(Chat(scope="lobby", name="Bruno", text="a line read while leaving"))
        carla = await other.peer("Carla")
        await other.run(carla.request, Say(id=new_id(), text="hello from the second",
                                           scope="lobby"))
        log = lobby.query_one("#chat-log")
        await until(pilot, lambda: "Carla: hello from the second" in log_lines(log),
                    "Carla's line")
        assert log_lines(log) == ["Carla: hello from the second"]
        assert app.lobby_chat == [("Carla", "hello from the second")]

    try:
        run_app(Launch(mode="join", host="127.0.0.1", port=server.port, name="Ana"), body)
    finally:
        other.stop()
