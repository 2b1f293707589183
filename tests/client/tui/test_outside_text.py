"""The terminal app against a hostile server (tests/client/hostile.py): its name, our name,
a table's name and seats, lobby chat and error sentences hold escape sequences, a clipboard
write, bidi overrides, zero-width characters and markup. What the app draws holds none of
them raw: the strings are there as visible escapes, and markup is shown, not obeyed. And
the same for the Join form's list of servers on the LAN fed a hostile announcement, for
`coup replay` of a hostile record file, and for Recent games from a store holding hostile
names. The screen is read as the compositor renders it for the terminal.
"""

from __future__ import annotations

import json

from textual.widgets import DataTable

from client.discovery import Found
from client.tui.app import Launch
from client.tui.screens.history import GamesScreen
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.menu import MenuScreen
from client.tui.screens.replay import ReplayScreen
from protocol.discovery import Announcement
from server.store import Store, default_path
from tests.client.hostile import CLIPBOARD, ESCAPES, MARKUP, HostileServer, unsafe
from tests.client.records import PLAYERS, keep, record
from tests.client.test_cli import launched

from .helpers import run_app, until
from .test_lan import FakeBrowser, join_form, listed


def screen_text(app) -> str:
    """Every line the app would draw on the terminal now (notifications included), as the
    compositor renders the screen."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def safe_with_escapes(text: str) -> None:
    """`text` holds nothing raw that a terminal obeys, and the issue's name as escapes."""
    assert not unsafe(text, newlines=True), sorted(unsafe(text, newlines=True))
    assert "\\x1b]0;PWNED" in text


def test_the_lobby_shows_a_hostile_servers_strings_as_visible_escapes():
    server = HostileServer()

    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                    and app.screen.query_one("#tables", DataTable).row_count, "the table")
        await until(pilot, lambda: "bold" in screen_text(app), "the chat and the header")
        text = screen_text(app)
        safe_with_escapes(text)  # the table's name
        assert "\\x1b]52" in text  # a seat's name
        assert "[b]bold[/b]" in text  # the server's name and the chat: markup as written
        assert "[link=" in text

    try:
        run_app(Launch(mode="join", host="127.0.0.1", port=server.port, name="Ana"), body,
                size=(160, 40), notifications=True)
    finally:
        server.stop()


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
        safe_with_escapes(text)
        assert "[b]bold[/b]" in text

    run_app(Launch(), body, size=(160, 40))


def test_coup_replay_shows_a_hostile_records_names_as_visible_escapes(tmp_path, monkeypatch):
    """A record is a file anyone can write: `coup replay FILE` of one whose table and
    players are named by a stranger draws the names as escapes."""
    hostile = record()
    hostile["table_name"] = ESCAPES[:32]
    hostile["players"] = [dict(hostile["players"][0], name=CLIPBOARD[:32]),
                          dict(hostile["players"][1], name="\u202eevil" + MARKUP[:20]),
                          *hostile["players"][2:]]  # (records.PLAYERS are shared)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(hostile), encoding="utf-8")
    launch = launched(["replay", str(path)], monkeypatch)

    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        await pilot.press("end")  # every event told, with every name
        await until(pilot, lambda: "evil" in screen_text(app), "the names")
        text = screen_text(app)
        safe_with_escapes(text)
        assert "\\x1b]52" in text and "[b]bold" in text

    run_app(launch, body, size=(160, 40))


def test_recent_games_show_a_stores_hostile_names_as_visible_escapes():
    """The player's own store is a file too: its list of games and their replay draw the
    names it holds as escapes."""
    store = Store(default_path("play"))
    try:
        keep(store, 3, players=[dict(PLAYERS[0], name=ESCAPES[:32]),
                                dict(PLAYERS[1], name="\u202eevil\u200b"), PLAYERS[2]])
    finally:
        store.close()

    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, GamesScreen)
                    and "PWNED" in screen_text(app), "the list of games")
        safe_with_escapes(screen_text(app))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        await pilot.press("end")
        await until(pilot, lambda: "PWNED" in screen_text(app), "its names")
        safe_with_escapes(screen_text(app))

    run_app(Launch(), body, size=(160, 40))
