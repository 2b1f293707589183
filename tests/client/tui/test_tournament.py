"""The server's tournament in the full-screen lobby (issue 33): an operator runs it from the
lobby's chat line (/tournament open, enter, stop) and the lobby shows a pane with its line
and standings while the server has one; names from a hostile server are shown escaped; and
the pane's picture at 80×24 and 120×40 in both languages.

Real server in a thread (its operator's key is the app's), real TCP, Pilot keypresses; the
snapshots are fed the messages a server would send."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from client.i18n import set_language
from client.tui.app import CoupApp, Launch
from client.tui.screens.lobby import LobbyScreen
from protocol import Connection, ListTables, Message, Tables, Tournament
from protocol.text import shown as escaped
from tests.client.broken_servers import HostileThread, Scripted

from .helpers import (
    OPERATOR, from_server, notes, pretend_connected, run_app, shown, until,
)
from .test_moderation import in_lobby, join, type_line


def pane(app) -> Static:
    return app.screen.query_one("#lobby-tournament", Static)


def test_an_operator_opens_enters_and_stops_a_tournament_from_the_lobby(moderated):
    async def body(app, pilot):
        lobby = await in_lobby(app, pilot)
        assert not pane(app).display  # no tournament: no pane
        await type_line(pilot, lobby, "/tournament open Friday Cup sizes 2")
        await until(pilot, lambda: pane(app).display and "Friday Cup" in shown(pane(app)),
                    "the pane")
        assert shown(pane(app)).splitlines()[1].strip() == (
            "Tournament Friday Cup: open for entries. 0 entrants: no one yet.")
        await type_line(pilot, lobby, "/tournament enter")
        await until(pilot, lambda: "1 entrant: Op." in shown(pane(app)), "the entry")
        await type_line(pilot, lobby, "/tournament start")
        await until(pilot, lambda: any("2 to 10 entrants; Friday Cup has 1." in n
                                       for n in notes(app)), "the refusal, saying why")
        await type_line(pilot, lobby, "/tournament stop")
        await until(pilot, lambda: "stopped, 0 of 0 games played." in shown(pane(app)),
                    "the end")

    run_app(join(moderated, OPERATOR, "Op"), body)


HOSTILE = "\x1b[2J\x1b]0;pwn\x07ana"


class HostileStandings(Scripted):
    """Answers list_tables with no tables and a tournament whose names hold escapes."""

    def answer(self, conn: Connection, msg: Message) -> bytes:
        if not isinstance(msg, ListTables):
            return b""
        return conn.send(Tables(tables=[], re=msg.id)) + conn.send(
            Tournament(name="\u202eCup", status="running", entrants=[HOSTILE], played=1,
                       scheduled=2, standings=[standing(HOSTILE)]))


def standing(name: str, games: int = 1, wins: int = 1, place: float = 1.0,
             ordinal: float = 0.5, forfeits: int = 0) -> dict:
    return {"name": name, "games": games, "wins": wins, "win_rate": wins / games,
            "mean_place": place, "ordinal": ordinal, "forfeits": forfeits}


def test_a_hostile_servers_names_are_shown_escaped():
    with HostileThread(HostileStandings()) as hostile:
        async def body(app, pilot):
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                        and pane(app).display, "the pane")
            text = shown(pane(app))
            assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text
            assert escaped(HOSTILE) in text

        run_app(Launch("join", name="Ana", port=hostile.port), body)


def cup() -> Tournament:
    return Tournament(name="Friday Cup", status="running",
                      entrants=["Ana", "Bruno", "Carla"], played=4, scheduled=6,
                      standings=[standing("Ana", 3, 2, 1.33, 1.82),
                                 standing("Bruno", 3, 1, 1.67, -0.4),
                                 standing("Carla", 2, 0, 2.0, -2.95, forfeits=1)])


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_lobby_tournament(snap_compare, lang, size):
    """The lobby with a tournament running: its line and three entrants' standings under
    the (empty) list of tables."""
    set_language(lang)
    app = CoupApp(Launch(name="Ana"))

    async def run_before(pilot):
        pretend_connected(app)
        app.switch_to(LobbyScreen())
        from_server(app, Tables(tables=[]))
        from_server(app, cup())
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and pane(app).display,
                    "the pane")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)
