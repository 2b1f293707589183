"""LAN discovery in the terminal client: the join form lists the servers its browser hears
of, live, and choosing one joins it; with discovery off it lists none; `coup join` with no
address opens at that form; and "Host a LAN game" announces only when the host ticks it.

No mDNS here: the browser is a fake the test feeds (tests/client/test_discovery.py runs the
real one, in network namespaces of its own), and discovery is off for every test.
"""

from __future__ import annotations

from textual.widgets import Checkbox, Input, OptionList

from client.discovery import Found
from client.tui.app import Launch
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.menu import HostForm, JoinForm, MenuScreen
from tests.ports import free_port

from .helpers import run_app, until


class FakeBrowser:
    """Stands for client.discovery.Browser: the test calls `changed` itself."""

    made: list[FakeBrowser] = []

    def __init__(self, changed) -> None:
        self.changed = changed
        self.closed = False
        FakeBrowser.made.append(self)

    def close(self) -> None:
        self.closed = True


async def join_form(app, pilot) -> JoinForm:
    """The menu's Join form, its LAN browser a FakeBrowser the test drives."""
    app.discover = FakeBrowser
    await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
    await pilot.press("j")
    return await until(pilot, lambda: isinstance(app.screen, JoinForm) and app.screen,
                       "the join form")


def listed(form: JoinForm) -> list[str]:
    servers = form.query_one("#servers", OptionList)
    return [str(servers.get_option_at_index(i).prompt) for i in range(servers.option_count)]


def test_the_join_form_lists_the_servers_found_live_and_joins_the_one_chosen(server):
    FakeBrowser.made.clear()
    ana = Found("Ana's den._coup._tcp.local.", "Ana's den", "127.0.0.1", server.port, 1, 2)
    bruno = Found("Bruno._coup._tcp.local.", "bruno's", "10.0.0.9", 7654, 0, 1)

    async def body(app, pilot):
        form = await join_form(app, pilot)
        assert listed(form) == ["Looking for servers…"]
        (browser,) = FakeBrowser.made
        browser.changed(bruno.key, bruno)
        browser.changed(ana.key, ana)
        await until(pilot, lambda: len(listed(form)) == 2, "two servers")
        assert listed(form) == [f"Ana's den  127.0.0.1:{server.port}  1 table  2 players",
                                "bruno's  10.0.0.9:7654  0 tables  1 player"]
        browser.changed(bruno.key, None)
        browser.changed(ana.key, Found(ana.key, ana.name, ana.address, ana.port, 2, 3))
        await until(pilot, lambda: listed(form) == [
            f"Ana's den  127.0.0.1:{server.port}  2 tables  3 players"], "the news")
        servers, address = form.query_one("#servers", OptionList), form.query_one("#address")
        await pilot.press("tab")  # from the address to the list: its first server is lit
        assert app.focused is servers and servers.highlighted == 0
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        assert app.connected and browser.closed
        assert address.value == f"127.0.0.1:{server.port}"

    run_app(Launch(name="Ana"), body)


def test_with_discovery_off_the_join_form_lists_nothing():
    async def body(app, pilot):
        assert app.discover is None  # COUP_DISCOVERY=off, as for every test
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("j")
        form = await until(pilot, lambda: isinstance(app.screen, JoinForm) and app.screen,
                           "the join form")
        assert not form.query("#servers")

    run_app(Launch(name="Ana"), body)


def test_a_browser_that_cannot_start_is_said_in_the_list():
    def broken(changed):
        raise OSError("no multicast here")

    async def body(app, pilot):
        app.discover = broken
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("j")
        form = await until(pilot, lambda: isinstance(app.screen, JoinForm) and app.screen,
                           "the join form")
        assert listed(form) == ["Cannot look for servers on this network: no multicast here"]

    run_app(Launch(name="Ana"), body)


def test_coup_join_with_no_address_opens_at_the_join_form():
    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, JoinForm), "the join form")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu under it")

    run_app(Launch("find", name="Ana"), body)


def test_a_lan_game_is_announced_only_when_the_host_ticks_the_box():
    async def body(app, pilot):
        started = []
        start = app.net.start_server
        app.net.start_server = lambda kind, config: (started.append(config),
                                                     start(kind, config))
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("h")
        form = await until(pilot, lambda: isinstance(app.screen, HostForm) and app.screen,
                           "the host form")
        box = form.query_one("#announce", Checkbox)
        assert not box.value
        box.value = True
        form.query_one("#port", Input).value = str(free_port())
        form.query_one("#port", Input).focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        (config,) = started
        assert config.announce and config.host == "0.0.0.0"

    run_app(Launch(name="Ana"), body, size=(80, 24))



def test_the_server_highlighted_stays_highlighted_when_the_list_changes():
    """A server's counts change every few seconds; the player moving down the list keeps
    their place (the list is rebuilt on every change)."""
    FakeBrowser.made.clear()
    ana = Found("a._coup._tcp.local.", "Ana", "10.0.0.1", 7654, 0, 1)
    bia = Found("b._coup._tcp.local.", "Bia", "10.0.0.2", 7654, 0, 1)

    async def body(app, pilot):
        form = await join_form(app, pilot)
        (browser,) = FakeBrowser.made
        browser.changed(ana.key, ana)
        browser.changed(bia.key, bia)
        await until(pilot, lambda: len(listed(form)) == 2, "two servers")
        servers = form.query_one("#servers", OptionList)
        servers.focus()
        servers.highlighted = 1  # Bia
        browser.changed(ana.key, Found(ana.key, "Aaron", ana.address, ana.port, 3, 4))
        await until(pilot, lambda: "3 tables" in listed(form)[0], "the news")
        assert servers.highlighted_option.id == bia.key
        browser.changed(ana.key, None)  # gone from above it: Bia is still the one
        await until(pilot, lambda: len(listed(form)) == 1, "one server")
        assert servers.highlighted_option.id == bia.key

    run_app(Launch(name="Ana"), body)
