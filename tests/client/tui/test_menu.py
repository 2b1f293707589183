"""The main menu (`coup`): every entry — the play, join and host forms (their checks, and
each one reaching its table or lobby), the keys in the chosen language, the rules card on `?`
and from the menu, and quitting with `q`, the Quit entry and ctrl+c.

The join form reaches a server in a background thread (the `server` fixture); play and host
start the app's own server inside its trio run, as they do for players.
"""

from __future__ import annotations

import socket

from textual.widgets import Footer, Input, Label, Markdown, OptionList, Select

from client.i18n import set_language
from client.tui.app import Launch
from client.launch import CLOCKS
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.menu import HostForm, JoinForm, MenuScreen, PlayForm, lan_address
from client.tui.screens.rules import RulesScreen
from client.tui.screens.table import TableScreen
from client.tui.widgets.footer import Keys
from protocol import DEFAULT_PORT

from .helpers import bar_keys, run_app, shown, until


def menu() -> Launch:
    return Launch(name="Ana")


async def opened(app, pilot, kind):
    return await until(pilot, lambda: isinstance(app.screen, kind) and app.screen,
                       kind.__name__)


def test_the_menu_offers_every_entry():
    async def body(app, pilot):
        screen = await opened(app, pilot, MenuScreen)
        entries = screen.query_one("#menu", OptionList)
        assert [entries.get_option_at_index(i).id for i in range(entries.option_count)] == [
            "play", "join", "host", "games", "rules", "quit"]
        assert entries.has_focus
        assert "The bluffing card game" in shown(screen.query_one("#subtitle"))

    run_app(menu(), body, size=(80, 24))


def test_the_keys_are_described_in_the_language_chosen_after_import():
    """The footer (and the keys panel) read a screen's active bindings: in Portuguese they
    say Jogar and Sair, the app's own ctrl+c included, though every class declared them in
    English when it was imported."""
    set_language("pt_BR")

    async def body(app, pilot):
        screen = await opened(app, pilot, MenuScreen)
        said = {key: active.binding.description
                for key, active in screen.active_bindings.items()}
        assert said["p"] == "Jogar" and said["q"] == "Sair" and said["ctrl+c"] == "Sair"
        await until(pilot, lambda: "Jogar" in " ".join(
            shown(line) for line in screen.query_one(Footer).query(Keys)), "the footer")

    run_app(menu(), body, size=(80, 24))


def test_the_rules_card_on_question_mark_and_from_the_menu():
    async def body(app, pilot):
        await opened(app, pilot, MenuScreen)
        await pilot.press("question_mark")
        rules = await opened(app, pilot, RulesScreen)
        assert "the rules card" in rules.query_one(Markdown).source
        await pilot.press("escape")
        await opened(app, pilot, MenuScreen)
        await pilot.press("down", "down", "down", "down", "enter")  # the Rules entry
        await opened(app, pilot, RulesScreen)
        await pilot.press("q")  # closes the card, and does not quit
        await opened(app, pilot, MenuScreen)
        assert app.is_running

    run_app(menu(), body)


def test_the_rules_card_outside_a_table_reads_at_80x24_and_sets_the_inquisitor_apart():
    """Outside a table the card lists the base game (R4: Exchange claims the Ambassador, who
    blocks Steal with the Captain), then the Inquisitor variant's two actions (R1.3). At 80
    columns every action takes one line, two when its effect is long: the names never wrap."""
    async def body(app, pilot):
        await opened(app, pilot, MenuScreen)
        await pilot.press("question_mark")
        rules = await opened(app, pilot, RulesScreen)
        base = shown(rules.query_one("#rules-actions")).splitlines()
        row = {line.split()[0]: line for line in base if line[:1] != " "}
        assert len(row) == 1 + 7  # the header and the base game's 7 actions
        wrapped = [line[:1] == " " for line in base]
        assert not any(a and b for a, b in zip(wrapped, wrapped[1:]))  # 2 lines at most
        assert "Examine" not in row and "Inquisitor" not in shown(
            rules.query_one("#rules-actions"))
        assert row["Exchange"].split()[1] == "Ambassador"
        assert "Captain," in row["Steal"]
        variant = shown(rules.query_one("#rules-inquisitor"))
        assert [line.split()[:2] for line in variant.splitlines() if line[:1] == "E"] == [
            ["Exchange", "Inquisitor"], ["Examine", "Inquisitor"]]
        assert "draw 1 card" in variant
        assert not rules.query("#decision")  # no game, no decision to keep in sight

    run_app(menu(), body, size=(80, 24))


def test_the_play_form_starts_a_table_against_bots_with_its_clocks():
    async def body(app, pilot):
        await opened(app, pilot, MenuScreen)
        await pilot.press("p")
        form = await opened(app, pilot, PlayForm)
        assert form.query_one("#name", Input).value == "Ana"
        form.query_one("#bots", Select).value = 2
        level = form.query_one("#strategy", Select)
        assert level.value == "medium"  # what a new player meets
        level.value = "honest"  # the strategies follow the levels
        await pilot.click("#ok")
        screen = await deal(app, pilot)
        view = app.table.view
        assert len(view.alive) == 3 and app.table.seat == 0
        assert [p["bot"] for p in app.table.players] == [None, "honest", "honest"]
        # The form's table keeps relaxed clocks unless told otherwise: a countdown shows for
        # the open decision, at most the relaxed turn's.
        assert await table_clocks(app, pilot) == CLOCKS["relaxed"] == (60, 180)
        countdown = screen.query_one("#countdown")
        await until(pilot, lambda: countdown.display, "the countdown bar")
        left = shown(screen.query_one("#seconds")).strip()
        assert left.startswith("⏱ ") and 0 < int(left[2:-1]) <= 180
        await pilot.press("ctrl+c")
        await until(pilot, lambda: not app.is_running, "ctrl+c to quit")

    run_app(menu(), body, size=(100, 40))


async def deal(app, pilot) -> TableScreen:
    """At the practice table the form made, which waits for its player: press s to deal;
    returns the table once the game runs."""
    await until(pilot, lambda: isinstance(app.screen, TableScreen) and "s" in bar_keys(app),
                "the practice table's Start")
    await pilot.press("s")
    return await until(pilot, lambda: app.table.view and app.screen, "the game")


async def table_clocks(app, pilot) -> tuple[int, int]:
    """The clocks the server gave the practice table: (seconds to answer, for a turn)."""
    info = await until(pilot, lambda: app.table and app.table.info, "the table's summary")
    return info["options"]["response_clock"], info["options"]["turn_clock"]


def test_the_play_form_offers_the_levels_first_in_the_players_language():
    async def body(app, pilot):
        await opened(app, pilot, MenuScreen)
        await pilot.press("p")
        form = await opened(app, pilot, PlayForm)
        options = [value for _, value in form.query_one("#strategy", Select)._options]
        assert options[:4] == ["easy", "medium", "hard", "expert"]
        assert "Nível" in [shown(label) for label in form.query(Label)]
        form.query_one("#strategy", Select).value = "easy"
        await pilot.click("#ok")
        await deal(app, pilot)
        assert app.table.info["options"]["bots"] == "easy"
        # Each bot seat names the strategy the level configures.
        assert [p["bot"] for p in app.table.players] == [None, "random", "random", "random"]
        await pilot.press("ctrl+c")
        await until(pilot, lambda: not app.is_running, "ctrl+c to quit")

    set_language("pt_BR")
    try:
        run_app(menu(), body, size=(100, 40))
    finally:
        set_language("en")


def test_the_play_form_chooses_the_clocks_table_by_table():
    """Clocks off: no countdown at all. Back at the menu, the server's clocks: the second
    table gets them though the practice server (started for the first) is reused."""
    async def body(app, pilot):
        await opened(app, pilot, MenuScreen)
        await pilot.press("p")
        form = await opened(app, pilot, PlayForm)
        assert form.query_one("#clock", Select).value == "relaxed"
        form.query_one("#clock", Select).value = "off"
        await pilot.click("#ok")
        screen = await deal(app, pilot)
        assert await table_clocks(app, pilot) == (0, 0)
        await pilot.pause(0.2)
        assert not app.table.deadlines and not screen.query_one("#countdown").display
        app.leave_table()
        await opened(app, pilot, MenuScreen)
        await pilot.press("p")
        form = await opened(app, pilot, PlayForm)
        form.query_one("#clock", Select).value = "server"
        await pilot.click("#ok")
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table,
                    "the second practice table")
        assert await table_clocks(app, pilot) == CLOCKS["server"] == (20, 60)
        assert list(app.servers) == ["practice"]

    run_app(menu(), body, size=(100, 40))


def test_the_play_form_wants_a_name_and_escape_cancels_it():
    async def body(app, pilot):
        await opened(app, pilot, MenuScreen)
        await pilot.press("p")
        form = await opened(app, pilot, PlayForm)
        form.query_one("#name", Input).value = "  "
        form.query_one("#name", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is form
        assert [n.message for n in app._notifications] == ["Choose a name."]
        await pilot.press("escape")
        await opened(app, pilot, MenuScreen)
        assert app.table is None and not app.servers

    run_app(menu(), body, size=(100, 40))


def test_the_join_form_checks_the_address_and_reaches_the_lobby(server):
    async def body(app, pilot):
        await opened(app, pilot, MenuScreen)
        await pilot.press("j")
        form = await opened(app, pilot, JoinForm)
        address = form.query_one("#address", Input)
        address.value = "localhost:port"
        address.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is form
        address.value = f"127.0.0.1:{server.port}"
        await pilot.press("enter")
        await opened(app, pilot, LobbyScreen)
        assert app.me == "Ana" and app.connected

    run_app(menu(), body)


def test_a_server_that_does_not_answer_is_said_and_the_menu_stays():
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def body(app, pilot):
        await opened(app, pilot, MenuScreen)
        await pilot.press("j")
        form = await opened(app, pilot, JoinForm)
        form.query_one("#address", Input).value = f"127.0.0.1:{port}"
        await pilot.click("#ok")
        await until(pilot, lambda: any(n.title == "Cannot connect"
                                       for n in app._notifications), "the failure")
        assert isinstance(app.screen, MenuScreen) and not app.connected

    run_app(menu(), body)


def test_the_host_form_serves_the_lan_and_shows_the_address():
    """At 80 columns: the focus starts on the name (a first Tab leaves it for the port, and
    types nothing into it), the command friends type shows whole on a line of its own and
    follows the port, and the lobby's header shows it whole too."""
    with socket.socket() as probe:
        probe.bind(("0.0.0.0", 0))
        port = probe.getsockname()[1]

    async def body(app, pilot):
        await opened(app, pilot, MenuScreen)
        await pilot.press("h")
        form = await opened(app, pilot, HostForm)
        name, field = form.query_one("#name", Input), form.query_one("#port", Input)
        assert name.has_focus
        await pilot.press("tab")
        assert field.has_focus and name.value == "Ana"
        command = f"coup join {lan_address()}:"
        assert shown(form.query_one("#address")).strip() == f"{command}{DEFAULT_PORT}"
        field.value = "70000"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is form
        assert [n.message for n in app._notifications] == [
            "A port is a number from 1 to 65535."]
        field.value = str(port)
        await until(pilot, lambda: shown(form.query_one("#address")).strip()
                    == f"{command}{port}", "the address to follow the port")
        await pilot.press("enter")
        lobby = await opened(app, pilot, LobbyScreen)
        assert app.servers["lan"] == port
        await until(pilot, lambda: f"{command}{port}" in shown(lobby.query_one("#lobby-header")),
                    "the address for friends, whole")

    run_app(menu(), body, size=(80, 24))


def test_q_quits_from_the_menu():
    async def body(app, pilot):
        await opened(app, pilot, MenuScreen)
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "the app to quit")

    run_app(menu(), body)


def test_the_quit_entry_quits():
    async def body(app, pilot):
        await opened(app, pilot, MenuScreen)
        await pilot.press("end", "enter")
        await until(pilot, lambda: not app.is_running, "the app to quit")

    run_app(menu(), body)
