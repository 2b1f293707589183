"""Who the app is on a server (issue 16): with its key it is the player the server knows,
and where it says "you" it says so plainly; without one it is a guest, and says that; a
guest at the table is marked for everyone. A name another key holds is refused with a
sentence, in both languages. And a player whose app was closed mid-game opens it again and
is back at the seat, with no token.

Real server in a thread, real TCP, Pilot keypresses where the player acts.
"""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from client.i18n import set_language
from client.identity import Identity
from client.tui.app import Launch
from client.narrate import error_text
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.menu import MenuScreen
from client.tui.screens.table import TableScreen
from protocol import Ready
from tests.server.peer import new_id

from .helpers import create_table, notes, run_app, shown, until


def key() -> Identity:
    return Identity("(test)", Ed25519PrivateKey.generate())


def join(server, identity: Identity | None, name: str = "Ana") -> Launch:
    return Launch(mode="join", host="127.0.0.1", port=server.port, name=name,
                  identity=identity)


async def lobby_header(app, pilot) -> str:
    lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.me
                        and app.screen, "the lobby")
    return shown(lobby.query_one("#lobby-header"))


@pytest.mark.parametrize("lang, guest", [("en", "you are Ana, a guest"),
                                         ("pt_BR", "você é Ana, convidado")])
def test_the_lobby_says_whether_the_server_knows_you_or_you_are_a_guest(server, lang, guest):
    set_language(lang)

    async def as_guest(app, pilot):
        assert guest in await lobby_header(app, pilot)

    async def identified(app, pilot):
        header = await lobby_header(app, pilot)
        # Another name than the guest's: the server may not have seen the guest go yet,
        # and would give a second Ana another name.
        you = guest.split(",")[0].replace("Ana", "Bia")
        assert header.rstrip().endswith(you) and guest.split(",")[1] not in header
        assert app.identified

    run_app(join(server, None), as_guest)
    run_app(join(server, key(), "Bia"), identified)


def test_at_the_table_a_guest_is_marked_and_you_are_you(server):
    async def body(app, pilot):
        await lobby_header(app, pilot)
        bruno = await server.peer("Bruno")  # a scripted client: it says hello, no key
        table = (await server.run(create_table, bruno, seats=2)).table
        await until(pilot, lambda: any(t["table"] == table for t in app.tables), "the table")
        app.join_table(table)
        screen = await until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and app.table.info and app.screen, "the table")
        players = shown(screen.query_one("#players"))
        assert "Bruno (guest)" in players and "Ana (you)" in players
        assert "Ana (you, a guest)" not in players

    run_app(join(server, key()), body)


def test_a_name_that_belongs_to_another_key_is_refused_in_words(server):
    async def first(app, pilot):
        await lobby_header(app, pilot)

    async def second(app, pilot):
        await until(pilot, lambda: error_text("name_taken") in notes(app), "the refusal")
        assert isinstance(app.screen, MenuScreen)

    run_app(join(server, key()), first)
    run_app(join(server, key()), second, notifications=True)


def test_an_app_closed_mid_game_and_opened_again_is_back_at_its_seat(server):
    """The issue's LAN player: killed the client, ran `coup join` again, and was told the
    game had started while the seat waited. With the same key, the seat comes back."""
    me = key()
    seen = {}

    async def closed(app, pilot):
        await lobby_header(app, pilot)
        bruno = await server.peer("Bruno")
        table = (await server.run(create_table, bruno, seats=2)).table
        await until(pilot, lambda: any(t["table"] == table for t in app.tables), "the table")
        app.join_table(table)
        await until(pilot, lambda: app.table and app.table.seat is not None, "a seat")
        await pilot.press("r")
        await until(pilot, lambda: app.table.info and app.table.info["seats"][1]["ready"],
                    "ready")
        await server.run(bruno.request, Ready(id=new_id()))
        await until(pilot, lambda: app.table.view is not None, "the game")
        seen.update(table=table, seat=app.table.seat)

    async def opened_again(app, pilot):
        await until(pilot, lambda: app.table and app.table.view is not None, "the seat back")
        assert app.table.table == seen["table"] and app.table.seat == seen["seat"]
        screen = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        assert "Ana (you)" in shown(screen.query_one("#players"))

    run_app(join(server, me), closed)
    run_app(join(server, me), opened_again)
