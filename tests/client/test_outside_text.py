"""Text from outside never reaches a terminal raw: plain mode against a hostile server,
`coup export` of a store whose names are a stranger's, plain mode's finder hearing a hostile
announcement, and `coup position` refusing a hostile file. Each output is read whole and
must hold no control character (but the program's own newlines) and no bidi or invisible
character; the hostile strings are there, as visible escapes (export's as JSON escapes).
The full-screen app's paths are in tests/client/tui/test_outside_text.py.
"""

from __future__ import annotations

import json

import trio

from client.cli import main
from client.discovery import Found
from client.plain.finder import Finder
from protocol.discovery import Announcement
from server.store import Store
from tests.client.hostile import CLIPBOARD, ESCAPES, HostileServer, unsafe
from tests.client.records import PLAYERS, keep
from tests.client.transcript import Transcript


def test_plain_mode_shows_a_hostile_servers_strings_as_visible_escapes():
    server = HostileServer()
    t = Transcript("join", f"127.0.0.1:{server.port}", "--plain", "--name", "Ana")
    try:
        t.until("Connected to")
        t.until("Table t1")
        t.send("say hi")
        t.until("says:")
        t.until("says:")
        t.send("quit")
    finally:
        t.close()
        server.stop()
    out = b"".join(t.raw).decode("utf-8")
    assert not unsafe(out, newlines=True)
    assert "\\x1b]0;PWNED\\x07\\x1b[2J" in out and "\\x1b]52;c;" in out
    assert "[b]bold[/b]" in out
    assert ESCAPES not in out and CLIPBOARD[:8] not in out


#: Seats of a recorded game whose names were made before any server checked them.
HOSTILE_PLAYERS = [dict(PLAYERS[0], name=ESCAPES[:32]),
                   dict(PLAYERS[1], name="\u202eevil\u200b"), PLAYERS[2]]


def test_export_writes_hostile_names_as_json_escapes_and_exactly(tmp_path, capsys):
    """A store is a file: what it holds is exported exactly, but as JSON's escapes, never
    as the raw characters (U+202E would turn the terminal's line around)."""
    path = str(tmp_path / "games.db")
    store = Store(path)
    keep(store, 3, players=HOSTILE_PLAYERS)
    store.close()
    assert main(["export", "--db", path]) == 0
    out = capsys.readouterr().out
    assert not unsafe(out, newlines=True)
    (line,) = out.splitlines()
    assert [p["name"] for p in json.loads(line)["players"]] == [p["name"] for p in
                                                                HOSTILE_PLAYERS]


def test_plain_modes_finder_says_a_hostile_announcement_as_visible_escapes():
    said = Announcement.read({b"name": (ESCAPES + CLIPBOARD).encode(), b"versions": b"1",
                              b"tables": b"1", b"players": b"2"})
    lines: list[str] = []
    browsers = []

    async def main():
        looking = trio.Event()

        def discover(changed):
            browsers.append(changed)
            looking.set()
            return FakeBrowser()

        finder = Finder(lines.append, discover=discover)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(finder.run)
            await looking.wait()
            found = Found("x._coup._tcp.local.", said.name, "10.0.0.1", 7654, 1, 2)
            await trio.to_thread.run_sync(browsers[0], found.key, found)
            finder.typed("list", "list")
            finder.typed("1", None)
        return finder.where

    assert trio.run(main) == ("10.0.0.1", 7654)
    out = "\n".join(lines)
    assert not unsafe(out, newlines=True) and "\\x1b]0;PWNED" in out
    assert sum("PWNED" in line for line in lines) == 3  # heard, listed, joined


class FakeBrowser:
    """What Finder closes when it is done: a browser that heard nothing of its own."""

    def close(self) -> None:
        pass


def test_a_position_files_refusal_quotes_it_as_visible_escapes(tmp_path, capsys):
    """A position file's words come back in the sentence that refuses it: `coup position`
    writes them to the terminal as escapes."""
    path = tmp_path / "hostile.toml"
    path.write_text('"\\u001b]0;PWNED\\u0007\\u202e" = 1\n', encoding="utf-8")
    for argv in (["position", str(path), "--bot", "random"], ["position", str(path)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "Unknown key" in err and "\\x1b]0;PWNED" in err
        assert not unsafe(err, newlines=True), argv
