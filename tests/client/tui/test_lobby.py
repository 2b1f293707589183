"""The lobby of a server (`coup join`): tables listed with their seats and kept up to date,
creating a table with options through the form, joining by id and a private table by code
(typed any way; too many wrong codes, or a server full of tables, said in words),
spectating (the public table only: no hand, no actions), the lobby's chat, and two players
who asked for one name told apart by the names the server gave them.

The server runs in a background thread (the `server` fixture); other players are scripted
peers in that thread, driven with `server.run`.
"""

from __future__ import annotations

import asyncio

import pytest

from textual.widgets import Checkbox, DataTable, Footer, Input, Select

from client.i18n import set_language
from client.tui.app import Launch
from client.tui.screens.lobby import CodeForm, CreateTableForm, LobbyScreen, who_sits
from client.tui.screens.menu import MenuScreen
from client.tui.screens.table import TableScreen
from client.tui.widgets.footer import Keys
from client.narrate import error_text
from protocol import Say, Start, Tables
from server import ServerConfig
import server.lobby as lobby_module

from .helpers import (
    from_server, pretend_connected,
    ServerThread,
    bar_keys,
    create_table,
    log_lines,
    new_id,
    notes,
    run_app,
    shown,
    sit,
    until,
)


#: What the pt_BR player reads when the server stops looking codes up for a while.
TOO_MANY_ATTEMPTS_PT = "Códigos errados demais: espere um pouco e tente de novo."


def join(server) -> Launch:
    return Launch(mode="join", host="127.0.0.1", port=server.port, name="Ana")


async def in_lobby(app, pilot) -> LobbyScreen:
    return await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen,
                       "the lobby")


def row(app, table: str) -> list[str] | None:
    """A table's row in the lobby's list, as its cells' text (None if not listed)."""
    grid = app.screen.query_one("#tables", DataTable)
    try:
        return [str(cell) for cell in grid.get_row(table)]
    except Exception:  # noqa: BLE001 — the RowDoesNotExist of not (yet) listed tables
        return None


def test_the_lobby_lists_tables_with_their_seats_and_follows_them(server):
    async def body(app, pilot):
        bruno = await server.peer("Bruno")
        table = (await server.run(create_table, bruno, seats=3, variant="inquisitor",
                                 name="Bruno's den", response_clock=30, turn_clock=90)).table
        await in_lobby(app, pilot)
        cells = await until(pilot, lambda: row(app, table), "Bruno's table in the list")
        assert cells[0] == "Bruno's den"
        assert cells[1].startswith("1/3") and "Bruno" in cells[1]
        assert cells[2:] == ["Inquisitor", "30s/90s", "waiting", table]
        carla = await server.peer("Carla")
        await server.run(sit, carla, table)
        cells = await until(pilot, lambda: (r := row(app, table)) and r[1].startswith("2/3")
                            and r, "Carla's seat in the list")
        assert "Bruno" in cells[1] and "Carla" in cells[1]
        assert shown(app.screen.query_one("#no-tables")).strip() == ""

    run_app(join(server), body)


def footer_keys(screen) -> list[tuple[str, int]]:
    """The footer's keys as they read, each with the column where it ends."""
    line = screen.query_one(Footer).query_one(Keys)
    text = shown(line)
    return [(" ".join(text[start:end].split()), line.region.x + end)
            for _key, start, end in line.spans()]


def test_the_list_shows_each_table_s_id_and_the_footer_says_enter_joins():
    """The id `coup bot --table` takes is in the list; at 80 columns the footer shows every
    key whole, Join (enter) first, in both languages."""
    tables = [{"table": "beef01", "name": "Bruno's den", "status": "waiting",
               "seats": [{"seat": 0, "name": "Bruno", "bot": None, "ready": True,
                          "away": False},
                         {"seat": 1, "name": None, "bot": None, "ready": False,
                          "away": False}],
               "options": {"variant": "inquisitor", "response_clock": 20,
                           "turn_clock": 60}}]
    for lang, join, leave in (("en", "⏎ Join", "esc Leave"), ("pt_BR", "⏎ Entrar",
                                                              "esc Sair")):
        set_language(lang)

        async def body(app, pilot):
            pretend_connected(app)
            app.switch_to(LobbyScreen())
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                        and app.screen.query("#tables"), "the lobby")
            from_server(app, Tables(tables=tables))
            await until(pilot, lambda: row(app, "beef01"), "the table in the list")
            lobby = app.screen
            assert row(app, "beef01")[-1] == "beef01"
            grid = lobby.query_one("#tables", DataTable)
            assert "beef01" in shown(grid)  # in sight, not scrolled off to the right
            # The footer makes its keys anew when the focus settles: read them once drawn.
            keys = await until(pilot, lambda: (drawn := footer_keys(lobby)) and all(
                text for text, _end in drawn) and drawn, "the footer's keys drawn")
            assert keys[0][0] == join and keys[-1][0] == leave
            assert all(end <= 80 for _key, end in keys)

        run_app(Launch(name="Ana"), body, size=(80, 24))


def test_the_list_counts_the_bots_and_names_the_people():
    def seat(n, name=None, bot=None):
        return {"seat": n, "name": name, "bot": bot, "ready": False, "away": False}

    assert who_sits([seat(0, "Ana"), seat(1, bot="heuristic"), seat(2, bot="random"),
                     seat(3)]) == "3/4 2 bots, Ana"
    assert who_sits([seat(0, bot="honest"), seat(1, "Bruno")]) == "2/2 1 bot, Bruno"
    long = who_sits([seat(n, f"Player{n}") for n in range(6)])
    assert long.startswith("6/6 Player0, Pla") and long.endswith("…") and len(long) == 4 + 16


def test_an_empty_lobby_says_how_to_create_a_table(server):
    async def body(app, pilot):
        lobby = await in_lobby(app, pilot)
        await until(pilot, lambda: app.server_name, "the welcome")
        assert "press c" in shown(lobby.query_one("#no-tables"))
        assert app.me == "Ana" and "Ana" in shown(lobby.query_one("#lobby-header"))

    run_app(join(server), body)


def test_creating_a_table_through_the_form_lands_at_it_with_its_options(server):
    async def body(app, pilot):
        await in_lobby(app, pilot)
        await pilot.press("c")
        form = await until(pilot, lambda: isinstance(app.screen, CreateTableForm)
                           and app.screen, "the form")
        form.query_one("#table-name", Input).focus()
        await pilot.press(*"Ana's game")
        form.query_one("#seats", Select).value = 3
        form.query_one("#variant", Select).value = "inquisitor"
        form.query_one("#bots", Select).value = "honest"
        form.query_one("#treasury", Input).value = "80"
        form.query_one("#response-clock", Input).value = "15"
        form.query_one("#turn-clock", Input).value = "0"
        private = form.query_one("#private", Checkbox)
        assert "X" not in shown(private)  # unticked and ticked differ in shape, not colour
        await pilot.click("#private")
        assert private.value and "X" in shown(private)
        await pilot.click("#rated")
        await pilot.click("#ok")
        screen = await until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and app.table.info and app.screen, "the new table")
        options = app.table.info["options"]
        assert options["name"] == "Ana's game" and options["seats"] == 3
        assert options["variant"] == "inquisitor" and options["bots"] == "honest"
        assert (options["response_clock"], options["turn_clock"]) == (15, 0)
        assert options["treasury"] == 80
        assert options["private"] and app.table.code
        assert options["rated"] is True
        header = shown(screen.query_one("#table-header"))
        assert "Ana's game" in header and app.table.code in header
        assert app.table.seat == 0
        # The waiting room offers the creator ready and start.
        assert bar_keys(app) == ["r", "s"]

    run_app(join(server), body, size=(120, 40))


def test_the_form_offers_a_level_for_the_empty_seats(server):
    """Empty seats stay empty, or take a difficulty level (listed first) or a strategy: the
    table's bots option carries the level's name."""
    async def body(app, pilot):
        await in_lobby(app, pilot)
        await pilot.press("c")
        form = await until(pilot, lambda: isinstance(app.screen, CreateTableForm)
                           and app.screen, "the form")
        bots = form.query_one("#bots", Select)
        values = [value for _, value in bots._options]
        assert values[:5] == ["", "easy", "medium", "hard", "expert"]
        assert "honest" in values
        bots.value = "hard"
        await pilot.click("#ok")
        await until(pilot, lambda: isinstance(app.screen, TableScreen)
                    and app.table.info, "the new table")
        assert app.table.info["options"]["bots"] == "hard"

    run_app(join(server), body, size=(120, 40))


def test_the_form_s_defaults_are_the_rules_defaults(server):
    """Untouched, the form asks for what the rules play by default: R1.7's two-player
    variant on, 50 coins, the base game, a public unrated table, the server's own clocks;
    and it names the table in the creator's language."""
    set_language("pt_BR")

    async def body(app, pilot):
        await in_lobby(app, pilot)
        await pilot.press("c")
        form = await until(pilot, lambda: isinstance(app.screen, CreateTableForm)
                           and app.screen, "the form")
        form.query_one("#seats", Select).value = 2
        await pilot.click("#ok")
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info,
                    "the new table")
        options = app.table.info["options"]
        assert options["two_player_draft"] is True
        assert (options["variant"], options["treasury"], options["private"],
                options["rated"]) == ("base", 50, False, False)
        assert options["name"] == "Mesa de Ana"
        assert (options["response_clock"], options["turn_clock"]) == (
            server.config.response_clock, server.config.turn_clock)

    run_app(join(server), body, size=(120, 40))


def test_a_wrong_clock_keeps_the_form_open(server):
    async def body(app, pilot):
        await in_lobby(app, pilot)
        await pilot.press("c")
        form = await until(pilot, lambda: isinstance(app.screen, CreateTableForm)
                           and app.screen, "the form")
        form.query_one("#response-clock", Input).value = "601"
        await pilot.click("#ok")
        await pilot.pause()
        assert app.screen is form and app.table is None
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
        assert app.table is None

    run_app(join(server), body, size=(120, 40))


def test_joining_a_listed_table_by_its_row(server):
    async def body(app, pilot):
        bruno = await server.peer("Bruno")
        table = (await server.run(create_table, bruno, seats=2)).table
        await in_lobby(app, pilot)
        await until(pilot, lambda: row(app, table), "the table in the list")
        app.screen.query_one("#tables", DataTable).focus()
        await pilot.press("enter")
        screen = await until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and app.table.info and app.screen, "the table")
        assert app.table.table == table and app.table.seat == 1
        players = shown(screen.query_one("#players"))
        assert "Bruno" in players and "Ana (you, a guest)" in players
        # Not the creator: ready, but no start.
        assert bar_keys(app) == ["r"]

    run_app(join(server), body)


async def code_form(server, app, pilot):
    """Bruno's new private table (his `joined`), and the lobby's join-by-code form open."""
    bruno = await server.peer("Bruno")
    joined = await server.run(create_table, bruno, seats=2, private=True)
    await in_lobby(app, pilot)
    await pilot.press("k")
    form = await until(pilot, lambda: isinstance(app.screen, CodeForm) and app.screen,
                       "the code form")
    return joined, form


def test_joining_a_private_table_by_its_code(server):
    async def body(app, pilot):
        joined, form = await code_form(server, app, pilot)
        assert form.query_one("#code", Input).has_focus
        await pilot.press(*joined.code.lower(), "enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info,
                    "the private table")
        assert app.table.table == joined.table and app.table.code == joined.code
        assert app.table.seat == 1

    run_app(join(server), body)


def test_a_code_is_taken_as_friends_type_it(server):
    """Codes are twelve characters in groups of four (K7TQ-2MXD-9PLA): the form shows that
    shape, takes up to the sixteen characters the server reads, and a code typed in small
    letters without its dashes joins the table."""
    async def body(app, pilot):
        joined, form = await code_form(server, app, pilot)
        field = form.query_one("#code", Input)
        assert field.placeholder == "XXXX-XXXX-XXXX" and field.max_length == 16
        await pilot.press(*joined.code.lower().replace("-", ""), "enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info,
                    "the private table")
        assert app.table.table == joined.table and app.table.code == joined.code

    run_app(join(server), body)


def test_too_many_wrong_codes_are_said_in_the_player_s_language(server, monkeypatch):
    """The server stops looking codes up for an address that sent too many wrong ones; the
    player is told to wait, in Portuguese here, and stays in the lobby."""
    set_language("pt_BR")
    # No try comes back while the six are typed, however slowly a busy machine types them.
    monkeypatch.setattr(lobby_module, "CODE_RETRY", 3600.0)

    async def body(app, pilot):
        await in_lobby(app, pilot)
        for _attempt in range(6):  # the server allows five wrong codes at once
            await pilot.press("k")
            await until(pilot, lambda: isinstance(app.screen, CodeForm), "the code form")
            await pilot.press(*"AAAA-BBBB-CCCC", "enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await until(pilot, lambda: TOO_MANY_ATTEMPTS_PT in notes(app), "the wait")
        assert "Essa mesa não existe." in notes(app)  # (the first ones: no such table)
        assert app.table is None

    run_app(join(server), body)


def test_a_server_full_of_tables_says_so():
    server = ServerThread(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                       max_tables=1)).start()

    async def body(app, pilot):
        bruno = await server.peer("Bruno")
        await server.run(create_table, bruno, seats=2)
        await in_lobby(app, pilot)
        app.create_table({"seats": 2})
        await until(pilot, lambda: error_text("too_many_tables") in notes(app), "the refusal")
        assert error_text("too_many_tables") != "too_many_tables"
        assert isinstance(app.screen, LobbyScreen) and app.table is None

    try:
        run_app(join(server), body)
    finally:
        server.stop()


def test_two_players_asking_for_one_name_are_told_apart(server):
    """Ana is on the server when the app asks for her name too: the server calls the app
    Ana-2, and so does the app, in the lobby and at Ana's table, where Ana is not "you"
    and her Start is not the app's."""
    async def body(app, pilot):
        ana = await server.peer("Ana")
        table = (await server.run(create_table, ana, seats=2)).table
        app.join_server("127.0.0.1", server.port, "Ana")
        lobby = await in_lobby(app, pilot)
        await until(pilot, lambda: app.me, "the welcome")
        assert app.me == "Ana-2" and app.name_wanted == "Ana"
        await until(pilot, lambda: "you are Ana-2" in shown(lobby.query_one("#lobby-header")),
                    "the header")
        await until(pilot, lambda: row(app, table), "Ana's table")
        app.join_table(table)
        screen = await until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and app.table.info and app.screen, "Ana's table")
        players = shown(screen.query_one("#players"))
        assert "Ana-2 (you, a guest)" in players and "Ana (you" not in players
        assert app.table.seat == 1 and bar_keys(app) == ["r"]
        await server.run(ana.request, Say(id=new_id(), text="hi twin", scope="table"))
        await until(pilot, lambda: "Ana: hi twin" in log_lines(screen.query_one("#log")),
                    "Ana's line")

    run_app(Launch(), body)


def test_a_spectator_sees_only_the_public_table(server):
    async def body(app, pilot):
        bruno = await server.peer("Bruno")
        table = (await server.run(create_table, bruno, seats=3, bots="honest")).table
        await server.run(bruno.request, Start(id=new_id()))
        await in_lobby(app, pilot)
        await until(pilot, lambda: (r := row(app, table)) and r[-2] == "playing",
                    "the running table in the list")
        app.screen.query_one("#tables", DataTable).focus()
        await pilot.press("s")
        screen = await until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and app.table.view and app.screen, "the table, spectated")
        view = app.table.view
        assert app.table.seat is None and view.seat is None
        assert all(hand is None for hand in view.hands)
        assert "spectating" in shown(screen.query_one("#table-header"))
        assert screen.query_one("#hand").border_title == "Spectating"
        assert bar_keys(app) == []
        for key in "itc":  # no move is ever made or refused for a spectator
            await pilot.press(key)
        assert app.table.pending is None and len(app._notifications) == 0
        players = shown(screen.query_one("#players"))
        assert "Bruno" in players and "(you)" not in players

    run_app(join(server), body)


def test_the_lobby_chat_both_ways(server):
    async def body(app, pilot):
        lobby = await in_lobby(app, pilot)
        await until(pilot, lambda: app.server_name, "the welcome")
        bruno = await server.peer("Bruno")
        await server.run(bruno.request, Say(id=new_id(), text="hello Ana", scope="lobby"))
        log = lobby.query_one("#chat-log")
        await until(pilot, lambda: "Bruno: hello Ana" in log_lines(log), "Bruno's line")
        await pilot.press("slash")
        assert lobby.query_one("#chat-input", Input).has_focus
        await pilot.press(*"hi Bruno", "enter")
        heard = await server.run(bruno.expect, "chat", name="Ana")
        assert (heard.name, heard.text, heard.scope) == ("Ana", "hi Bruno", "lobby")
        await until(pilot, lambda: "Ana: hi Bruno" in log_lines(log), "our own line")
        assert lobby.query_one("#chat-input", Input).value == ""
        # esc leaves the chat line first, and only then the server.
        await pilot.press("escape")
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await until(pilot, lambda: not app.connected, "the connection closed")

    run_app(join(server), body)


def test_a_message_arriving_while_the_app_closes_is_dropped(server):
    """The network can deliver a message after the app began to close and took its screens
    apart: it is dropped, never drawn on a screen without its widgets (CI saw the lobby's
    header missing when a list of tables came in during the teardown)."""
    from protocol import Tables

    async def body(app, pilot):
        await in_lobby(app, pilot)
        await until(pilot, lambda: app.server_name, "the welcome")
        await app.screen.query_one("#lobby-header").remove()
        app._running = False   # as App._shutdown does before it takes the screens apart
        from_server(app, Tables(tables=[], re=None))
        await pilot.pause()
        app._running = True

    run_app(join(server), body)


@pytest.mark.parametrize("then", ["quit", "switch"])
def test_a_screen_taken_off_while_it_is_built_fails_nothing(then):
    """The lobby shown and at once replaced (a join answered quickly) or closed (ctrl+c)
    never got its widgets; its on_mount and deferred drawing ran anyway and failed on them
    (NoMatches '#lobby-header', '#tables', '#chat-log'): the app closed with a traceback."""
    for ticks in (0, 1, 2, 6, 9):
        async def body(app, pilot):
            await pilot.pause()
            app.switch_to(LobbyScreen())
            for _ in range(ticks):
                await asyncio.sleep(0)
            if then == "quit":
                app.exit()
            else:
                app.switch_to(LobbyScreen())
                await until(pilot, lambda: app.screen.query("#lobby-header"), "the second lobby")

        run_app(Launch(name="Ana"), body)
