"""The name you ask for (issue 30, item 3), in the terminal app: a first run asks the name in
a small dialog before the first table, offering a default, and keeps the answer beside the
key (Cancel: the default, this once, nothing kept); a launch that is no first run asks
nothing; and a name the server does not use, because it knew the key under another, is said
at the table ("Known here as Ana").

The practice server on loopback, Pilot keypresses where the player acts.
"""

from __future__ import annotations

from client.identity import load
from client.launch import Launch
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.menu import HostForm, MenuScreen, NameForm
from client.tui.screens.table import TableScreen
from textual.widgets import Input

from .helpers import notes, practice, run_app, shown, until
from tests.ports import free_port


async def players(app, pilot) -> str:
    screen = await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table
                         and app.table.info and app.screen, "the table")
    return shown(screen.query_one("#players"))


def test_a_first_run_asks_the_name_before_the_table_and_keeps_it(tmp_path):
    identity = load(str(tmp_path / "me.pem"))

    async def body(app, pilot):
        form = await until(pilot, lambda: isinstance(app.screen, NameForm) and app.screen,
                           "the name's question")
        field = form.query_one("#name", Input)
        assert field.value == "player"  # the default, offered
        assert app.table is None  # asked before the table
        field.value = ""
        await pilot.press(*"Ana", "enter")
        assert "Ana (you)" in await players(app, pilot)

    run_app(practice(name="player", ask_name=True, identity=identity), body)
    assert identity.kept_name() == "Ana"


def test_a_cancelled_question_plays_under_the_default_and_keeps_nothing(tmp_path):
    identity = load(str(tmp_path / "me.pem"))

    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, NameForm), "the name's question")
        await pilot.press("escape")
        assert "player (you)" in await players(app, pilot)

    run_app(practice(name="player", ask_name=True, identity=identity), body)
    assert identity.kept_name() is None


def test_a_launch_with_a_name_asks_nothing(tmp_path):
    async def body(app, pilot):
        assert "Ana (you)" in await players(app, pilot)
        assert not any(isinstance(screen, NameForm) for screen in app.screen_stack)

    run_app(practice(identity=load(str(tmp_path / "me.pem"))), body)


def test_a_name_the_practice_server_does_not_use_is_said_at_the_table(tmp_path):
    identity = load(str(tmp_path / "me.pem"))

    async def as_ana(app, pilot):
        assert "Ana (you)" in await players(app, pilot)

    async def as_bia(app, pilot):
        assert "Ana (you)" in await players(app, pilot)  # the server keeps the key's name
        assert ("Known here as Ana: this server keeps the name your key first played under, "
                "so Bia was not used.") in notes(app)

    run_app(practice(name="Ana", identity=identity), as_ana)
    run_app(practice(name="Bia", identity=identity), as_bia)


def test_a_name_typed_in_the_host_form_for_a_key_known_otherwise_is_said_in_the_lobby(tmp_path):
    """The LAN server keeps its games with the practice table's: a key that played there as
    Ana is Ana in its own hosted lobby, whatever the host form says, and is told so."""
    identity = load(str(tmp_path / "me.pem"))

    async def as_ana(app, pilot):
        assert "Ana (you)" in await players(app, pilot)

    async def host_as_bia(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("h")
        form = await until(pilot, lambda: isinstance(app.screen, HostForm) and app.screen,
                           "the host form")
        form.query_one("#name", Input).value = "Bia"
        form.query_one("#port", Input).value = str(free_port())
        form.query_one("#port", Input).focus()
        await pilot.press("enter")
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.me
                            and app.screen, "the lobby")
        header = shown(lobby.query_one("#lobby-header")).splitlines()[0]
        assert header.rstrip().endswith("— you are Ana")
        assert ("Known here as Ana: this server keeps the name your key first played under, "
                "so Bia was not used.") in notes(app)

    run_app(practice(name="Ana", identity=identity), as_ana)
    run_app(Launch(name="Ana", identity=identity), host_as_bia, size=(80, 24))
