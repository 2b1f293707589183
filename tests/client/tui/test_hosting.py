"""A LAN game hosted from the menu (issue 30): once its lobby is left the server still
listens, so the menu says where, and offers to stop it, which closes the port; hosting again
on another port offers the game still hosted or a new one there.
"""

from __future__ import annotations

import socket

from textual.widgets import Input, OptionList

from client.tui.app import Launch
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.menu import HostForm, MenuScreen, lan_address
from tests.ports import free_port

from .helpers import dialog, dialog_labels, run_app, shown, until



def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def entries(menu: MenuScreen) -> list[str | None]:
    options = menu.query_one("#menu", OptionList)
    return [options.get_option_at_index(i).id for i in range(options.option_count)]


async def ask_to_host(app, pilot, port: int) -> None:
    """h, the port, enter."""
    await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
    await pilot.press("h")
    form = await until(pilot, lambda: isinstance(app.screen, HostForm) and app.screen,
                       "the host form")
    form.query_one("#port", Input).value = str(port)
    await pilot.press("enter")


async def host(app, pilot, port: int) -> None:
    """h, the port, enter: at the hosted game's lobby."""
    await ask_to_host(app, pilot, port)
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")


def test_a_hosted_game_left_for_the_menu_is_shown_there_and_can_be_stopped():
    port = free_port()

    async def body(app, pilot):
        await host(app, pilot, port)
        await pilot.press("escape")
        menu = await until(pilot, lambda: isinstance(app.screen, MenuScreen) and app.screen,
                           "the menu")
        assert listening(port)
        hosting = menu.query_one("#hosting")
        await until(pilot, lambda: hosting.display, "the hosted game said")
        assert f"coup join {lan_address()}:{port}" in shown(hosting)
        assert "stop" in entries(menu)
        menu.query_one("#menu", OptionList).highlighted = entries(menu).index("stop")
        await pilot.press("enter")
        await until(pilot, lambda: not listening(port), "the port closed")
        await until(pilot, lambda: not hosting.display and "stop" not in entries(menu),
                    "the menu without it")
        assert "lan" not in app.servers
        # The port is free again: hosting anew there reaches a lobby.
        await host(app, pilot, port)
        assert app.servers["lan"] == port

    run_app(Launch(name="Ana"), body, size=(80, 24))


def test_hosting_on_another_port_while_one_is_hosted_offers_back_or_a_new_one_there():
    """Host on port A, leave for the menu, then host on port B: the player chooses back to
    the game on A or to stop it and host on B (esc: neither), never silently A."""
    first, second = free_port(), free_port()
    while second == first:
        second = free_port()

    async def body(app, pilot):
        await host(app, pilot, first)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await ask_to_host(app, pilot, second)
        await until(pilot, lambda: dialog(app), "the choice")
        assert dialog_labels(app) == [f"Back to your game on port {first}",
                                      f"Stop it, and host on port {second}"]
        assert "esc: back to the menu" in shown(app.screen.query_one(".dialog-help"))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu again")
        assert app.servers["lan"] == first and listening(first) and not app.connected
        await ask_to_host(app, pilot, second)
        await until(pilot, lambda: dialog(app), "the choice")
        await pilot.press("1")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby on A")
        assert app.servers["lan"] == first and not listening(second)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await ask_to_host(app, pilot, second)
        await until(pilot, lambda: dialog(app), "the choice")
        await pilot.press("2")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                    and app.servers.get("lan") == second, "the lobby on B")
        await until(pilot, lambda: not listening(first), "port A closed")
        menu = next(s for s in app.screen_stack if isinstance(s, MenuScreen))
        assert menu.hosting == second

    run_app(Launch(name="Ana"), body, size=(80, 24))
