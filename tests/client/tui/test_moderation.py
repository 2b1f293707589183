"""The full-screen client's side of moderation (issue 27, section 6): an operator is shown
the commands in the chat line and acts from it (`/close`, `/mute`); someone who is not is
not shown them, and is told no in words; a player removed from its table by the creator is
back in the lobby, told who did it and why.

Real server in a thread (its operator's key is the app's), real TCP, Pilot keypresses.
"""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from textual.widgets import Input

from client.identity import Identity
from client.tui.app import Launch
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.table import TableScreen
from protocol import Kick, Say
from tests.server.peer import new_id

from .helpers import OPERATOR, create_table, notes, run_app, until


def join(server, identity: Identity | None, name: str) -> Launch:
    return Launch(mode="join", host="127.0.0.1", port=server.port, name=name,
                  identity=identity)


async def in_lobby(app, pilot) -> LobbyScreen:
    return await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.me
                       and app.screen, "the lobby")


async def type_line(pilot, screen, text: str) -> None:
    """Focus the chat line as a player does (/), type `text` into it, and send it."""
    await pilot.press("slash")
    field = screen.query_one("#chat-input", Input)
    await until(pilot, lambda: field.has_focus, "the chat line")
    field.value = text
    await pilot.press("enter")


def test_an_operator_closes_a_table_and_mutes_from_the_lobby_chat_line(moderated):
    async def body(app, pilot):
        lobby = await in_lobby(app, pilot)
        assert app.operator
        assert "/kick" in lobby.query_one("#chat-input", Input).placeholder
        bruno = await moderated.peer("Bruno")
        table = (await moderated.run(create_table, bruno, seats=2)).table
        await type_line(pilot, lobby, f"/close {table} spam")
        closed = await moderated.run(bruno.expect, "error", code="table_closed")
        assert closed.message.endswith("Reason: spam")
        await until(pilot, lambda: "Done." in notes(app), "the server's ok")
        await type_line(pilot, lobby, "/mute Bruno 5")
        await until(pilot, lambda: notes(app).count("Done.") == 2, "the second ok")
        refused = await moderated.run(bruno.request, Say(id=new_id(), text="hi",
                                                         scope="lobby"))
        assert refused.code == "muted"
        await type_line(pilot, lobby, "/ban Bruno soon")
        await until(pilot, lambda: "MINUTES is a number from 0 to 525600." in notes(app),
                    "the usage")

    run_app(join(moderated, OPERATOR, "Op"), body)


def test_a_player_who_is_no_operator_sees_no_commands_and_is_told_no(moderated):
    async def body(app, pilot):
        lobby = await in_lobby(app, pilot)
        assert not app.operator
        assert "/kick" not in lobby.query_one("#chat-input", Input).placeholder
        await type_line(pilot, lobby, "/ban Bruno 5")
        await until(pilot, lambda: any(n.startswith("You may not do that") for n in notes(app)),
                    "the refusal")

    run_app(join(moderated, None, "Ana"), body)


def test_a_player_removed_by_the_creator_is_back_in_the_lobby_and_told_why(moderated):
    async def body(app, pilot):
        await in_lobby(app, pilot)
        bruno = await moderated.peer("Bruno")
        table = (await moderated.run(create_table, bruno, seats=3)).table
        await until(pilot, lambda: any(t["table"] == table for t in app.tables), "the table")
        app.join_table(table)
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table screen")
        reply = await moderated.run(bruno.request, Kick(id=new_id(), name="ana",
                                                        reason="idle"))
        assert reply.TYPE == "ok"
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
        # The notice is a message the app handles in its turn: it may come after the screen.
        told = ("You were removed from the table: you are in the lobby.\nBruno removed you "
                "from the table Bruno's table: you are in the lobby. Reason: idle")
        await until(pilot, lambda: told in notes(app), "the notice")

    run_app(join(moderated, None, "Ana"), body)


def test_a_banned_key_is_told_so_and_not_let_in(moderated):
    banned = Identity("(test)", Ed25519PrivateKey.generate())
    # Before the app connects (the server's thread touches no ban meanwhile).
    moderated.server.lobby.moderation.ban("key", f"key:{banned.key}", 5, "", "test")

    async def body(app, pilot):
        await until(pilot, lambda: "You are banned from this server for a while." in notes(app),
                    "the refusal")
        assert not isinstance(app.screen, LobbyScreen)

    run_app(join(moderated, banned, "Eve"), body)
