"""The terminal app against a hostile server (tests/client/hostile.py): its name, our name,
a table's name and seats, lobby chat and error sentences hold escape sequences, a clipboard
write, bidi overrides, zero-width characters and markup. What the app draws holds none of
them raw: the strings are there as visible escapes, and markup is shown, not obeyed. And the
Join form's list of servers on the LAN, fed a hostile announcement.
"""

from __future__ import annotations

from textual.widgets import DataTable

from client.discovery import Found
from client.tui.app import Launch
from client.tui.screens.lobby import LobbyScreen
from protocol.discovery import Announcement
from tests.client.hostile import CLIPBOARD, ESCAPES, MARKUP, HostileServer, unsafe

from .helpers import run_app, until
from .test_lan import FakeBrowser, join_form, listed


def screen_text(app) -> str:
    """Every line the app would draw on the terminal now (notifications included), as the
    compositor renders the screen."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def test_the_lobby_shows_a_hostile_servers_strings_as_visible_escapes():
    server = HostileServer()

    async def body(app, pilot):
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                            and app.screen.query_one("#tables", DataTable).row_count
                            and app.screen, "the lobby's table")
        await until(pilot, lambda: "bold" in screen_text(app), "the chat and the header")
        text = screen_text(app)
        assert not unsafe(text, newlines=True), sorted(unsafe(text, newlines=True))
        assert "\\x1b]0;PWNED" in text and "\\x1b]52" in text  # the table's, a seat's name
        assert "[b]bold[/b]" in text  # the server's name and the chat: markup as written
        assert "[link=" in text
        assert lobby.is_mounted

    try:
        app = run_app(Launch(mode="join", host="127.0.0.1", port=server.port, name="Ana"),
                      body, size=(160, 40), notifications=True)
    finally:
        server.stop()
    assert ESCAPES not in str(app.tables) and CLIPBOARD[:8] not in app.me


def test_the_join_form_lists_a_hostile_announcement_as_visible_escapes():
    said = Announcement.read({b"name": (ESCAPES + MARKUP).encode(), b"versions": b"1",
                              b"tables": b"1", b"players": b"2"})

    async def body(app, pilot):
        FakeBrowser.made.clear()
        form = await join_form(app, pilot)
        (browser,) = FakeBrowser.made
        browser.changed("x._coup._tcp.local.", Found("x._coup._tcp.local.", said.name,
                                                     "10.0.0.1", 7654, 1, 2))
        await until(pilot, lambda: any("PWNED" in line for line in listed(form)), "the server")
        text = screen_text(app)
        assert not unsafe(text, newlines=True), sorted(unsafe(text, newlines=True))
        assert "\\x1b]0;PWNED" in text and "[b]bold[/b]" in text

    run_app(Launch(), body, size=(160, 40))
