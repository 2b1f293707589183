"""The lobby and the table before (and between) games: listing, creating, joining, seats,
leaving, ready and start, bots, rematch, and chat — all over real TCP."""

from __future__ import annotations

import pytest
import trio

from protocol import (
    CreateTable, Hello, Join, Leave, ListTables, Ping, Ready, Rematch, Say, Start,
)
from tests.server.helpers import eventually, play_out, seat_table
from tests.server.peer import new_id


def listed(msg) -> list[str]:
    return [t["table"] for t in msg.tables]


async def create(peer, **options):
    options.setdefault("seats", 2)
    return await peer.request(CreateTable(id=new_id(), options=options))


async def join(peer, **fields):
    return await peer.request(Join(id=new_id(), **fields))


# ------------------------------------------------------------------ listing and creating


async def test_list_tables_then_pushes_public_tables_only(connect, server):
    ana, bruno, chen = await connect("ana"), await connect("bruno"), await connect("chen")
    first = await ana.request(ListTables(id=new_id()))
    assert first.TYPE == "tables" and first.tables == []

    table = (await create(bruno, seats=3)).table
    push = await ana.expect("tables", where=lambda m: m.re is None and m.tables)
    assert listed(push) == [table]
    summary = push.tables[0]
    assert summary["status"] == "waiting" and summary["creator"] == "bruno"
    assert summary["spectators"] == 0 and len(summary["seats"]) == 3
    assert summary["seats"][0] == {"seat": 0, "name": "bruno", "bot": None, "ready": False,
                                   "away": False, "guest": True}
    assert "code" not in summary

    private = await create(chen, private=True)
    assert private.code
    # A push follows every change; whatever comes now never shows the private table.
    with trio.move_on_after(0.7):
        while True:
            push = await ana.expect("tables")
            assert private.table not in listed(push)
    assert private.table not in listed(await ana.request(ListTables(id=new_id())))

    # The creator leaves the empty table: it closes and the lobby hears that it is gone.
    assert (await bruno.request(Leave(id=new_id()))).TYPE == "ok"
    await ana.expect("tables", where=lambda m: table not in listed(m))
    await eventually(lambda: table not in server.lobby.tables)


async def test_create_fills_every_default(connect, config):
    ana = await connect("ana")
    joined = await create(ana)
    assert joined.TYPE == "joined" and joined.seat == 0 and joined.token and joined.code is None
    info = (await ana.expect("table")).info
    assert info["options"] == {
        "seats": 2, "variant": "base", "two_player_draft": True, "treasury": 50,
        "response_clock": config.response_clock, "turn_clock": config.turn_clock,
        "private": False, "name": "ana's table", "on_disconnect": "bot", "rated": False,
    }
    assert info["name"] == "ana's table" and info["creator"] == "ana"


async def test_create_keeps_the_options_given(connect):
    ana = await connect("ana")
    options = {"seats": 5, "variant": "inquisitor", "two_player_draft": False,
               "treasury": 80, "response_clock": 7, "turn_clock": 9, "private": True,
               "name": "night game", "bots": "honest", "on_disconnect": "forfeit",
               "rated": True}
    joined = await create(ana, **options)
    assert joined.code
    info = (await ana.expect("table")).info
    assert info["options"] == options and info["name"] == "night game"
    assert info["code"] == joined.code  # members see the code


async def test_a_long_name_still_makes_a_listable_table(connect):
    long_name = "x" * 32
    ana, bruno = await connect(long_name), await connect("bruno")
    assert ana.name == long_name
    table = (await create(ana)).table
    info = (await ana.expect("table")).info
    assert 1 <= len(info["name"]) <= 32
    reply = await bruno.request(ListTables(id=new_id()))
    assert reply.TYPE == "tables" and listed(reply) == [table]


async def test_refused_creates(connect):
    ana = await connect("ana")
    reply = await create(ana, seats=3, bots="nobody")
    assert reply.TYPE == "error" and reply.code == "unknown_strategy"
    request_id = new_id()
    await ana.send_map({"t": "create_table", "id": request_id, "options": {"seats": 11}})
    reply = await ana.reply(request_id)
    assert reply.TYPE == "error" and reply.code == "bad_message"
    assert (await create(ana)).TYPE == "joined"
    reply = await create(ana)
    assert reply.TYPE == "error" and reply.code == "already_at_table"


#: The issue's table name: a window title, a cleared screen, red, and a second line.
HOSTILE = "\x1b]0;PWNED\x07\x1b[2J\x1b[31mRED\nFAKE LINE"[:32]


@pytest.mark.parametrize("name", [
    HOSTILE, "\x1b]52;c;cHduZWQ=\x07",  # an OSC 52 clipboard write
    "\u202eelbat s'ana", "ana\u200b", "\u3164", "   ", "two\nlines", "del\x7f", "c1\x9b2J",
])
async def test_a_table_name_is_checked_as_a_player_name_is(connect, name):
    """A table's name reaches every lobby viewer's terminal and its records: the server
    takes only what it would take as a player's name (printable, not blank), and says so."""
    ana, viewer = await connect("ana"), await connect("viewer")
    assert (await viewer.request(ListTables(id=new_id()))).TYPE == "tables"
    reply = await create(ana, name=name)
    assert reply.TYPE == "error" and reply.code == "bad_message"
    assert "printable" in reply.message
    assert (await create(ana, name="  Ana's den  ")).TYPE == "joined"  # trimmed, as names are
    pushed = await viewer.expect("tables")
    assert [t["name"] for t in pushed.tables] == ["Ana's den"]


# ------------------------------------------------------------------ joining


async def test_join_by_code_only_for_private_tables(connect):
    ana, bruno, chen, dara = [await connect(n) for n in ("ana", "bruno", "chen", "dara")]
    made = await create(ana, seats=3, private=True)
    by_id = await join(chen, table=made.table)
    assert by_id.TYPE == "error" and by_id.code == "no_such_table"
    joined = await join(bruno, code=made.code.lower())
    assert joined.TYPE == "joined" and joined.table == made.table and joined.seat == 1
    for fields in ({"code": "ZZZZZZ"}, {"table": "nosuch"}, {}):
        reply = await join(dara, **fields)
        assert reply.TYPE == "error" and reply.code == "no_such_table"
    watching = await join(dara, code=made.code, spectate=True)
    assert watching.TYPE == "joined" and watching.seat is None and watching.token is None


async def test_seat_choice_table_full_and_seat_taken(connect):
    peers = [await connect(n) for n in ("ana", "bruno", "chen", "dara", "eli")]
    ana, bruno, chen, dara, eli = peers
    table = (await create(ana, seats=3)).table
    assert (await join(bruno, table=table, seat=2)).seat == 2
    for seat in (2, 0, 5):
        reply = await join(chen, table=table, seat=seat)
        assert reply.TYPE == "error" and reply.code == "seat_taken", seat
    assert (await join(chen, table=table)).seat == 1
    reply = await join(dara, table=table)
    assert reply.TYPE == "error" and reply.code == "table_full"
    reply = await join(bruno, table=table)
    assert reply.TYPE == "error" and reply.code == "already_at_table"
    spectator = await join(dara, table=table, spectate=True)
    assert spectator.TYPE == "joined" and spectator.seat is None
    info = (await dara.expect("table")).info
    assert [s["name"] for s in info["seats"]] == ["ana", "chen", "bruno"]
    assert info["spectators"] == 1
    for peer in (ana, bruno, chen):
        assert (await peer.request(Ready(id=new_id()))).TYPE == "ok"
    await dara.expect("snapshot")  # a spectator watches from the start
    reply = await join(eli, table=table, seat=0)
    assert reply.TYPE == "error" and reply.code == "game_running"
    assert (await join(eli, table=table, spectate=True)).TYPE == "joined"
    snapshot = await eli.expect("snapshot")  # joining a running game shows it at once
    assert snapshot.view["seat"] is None and snapshot.view["phase"] != "over"


async def test_joins_sent_back_to_back_seat_a_client_once(connect, server):
    ana, bruno = await connect("ana"), await connect("bruno")
    table = (await create(ana, seats=4)).table
    first, second = Join(id=new_id(), table=table), Join(id=new_id(), table=table)
    await bruno.send(first)
    await bruno.send(second)
    replies = sorted([(await bruno.reply(first.id)).TYPE, (await bruno.reply(second.id)).TYPE])
    assert replies == ["error", "joined"]
    names = [s.name for s in server.lobby.tables[table].seats]
    assert names.count("bruno") == 1

    # Two creates back to back: one table, and no empty one left behind in the lobby.
    chen = await connect("chen")
    one, two = CreateTable(id=new_id(), options={"seats": 2}), CreateTable(
        id=new_id(), options={"seats": 2})
    await chen.send(one)
    await chen.send(two)
    replies = sorted([(await chen.reply(one.id)).TYPE, (await chen.reply(two.id)).TYPE])
    assert replies == ["error", "joined"]
    await eventually(lambda: len(server.lobby.tables) == 2)
    assert len((await chen.request(ListTables(id=new_id()))).tables) == 2


async def test_a_refused_join_keeps_the_lobby_pushes(connect):
    ana, bruno, chen, dara = [await connect(n) for n in ("ana", "bruno", "chen", "dara")]
    await chen.request(ListTables(id=new_id()))
    table = (await create(ana)).table
    await join(bruno, table=table)
    assert (await join(chen, table=table)).code == "table_full"
    await create(dara, seats=3)
    await chen.expect("tables", where=lambda m: len(m.tables) == 2)
    # At a table no pushes come; back in the lobby they come again.
    assert (await join(chen, table=table, spectate=True)).TYPE == "joined"
    assert (await chen.request(Leave(id=new_id()))).TYPE == "ok"
    chen.inbox.clear()
    assert (await dara.request(Leave(id=new_id()))).TYPE == "ok"
    await chen.expect("tables", where=lambda m: listed(m) == [table])


# ------------------------------------------------------------------ leaving


async def test_leave_frees_the_seat_and_tells_the_table(connect):
    ana, bruno = await connect("ana"), await connect("bruno")
    reply = await bruno.request(Leave(id=new_id()))
    assert reply.TYPE == "error" and reply.code == "not_at_table"
    table = (await create(ana, seats=3)).table
    await join(bruno, table=table)
    ana.inbox.clear()
    assert (await bruno.request(Leave(id=new_id()))).TYPE == "ok"
    presence = await ana.expect("presence")
    assert (presence.seat, presence.status, presence.name) == (1, "left", "bruno")
    info = (await ana.expect("table", where=lambda m: m.info["seats"][1]["name"] is None)).info
    assert info["status"] == "waiting"
    assert (await join(bruno, table=table)).seat == 1  # back in the lobby: may sit again


async def test_the_creator_leaving_hands_the_start_to_the_next_person(connect):
    # A table whose creator left must not wait for a start no one may give (issue 27): the
    # first person seated after the creator's seat is the creator, and not a newcomer who
    # takes the seat the creator left.
    ana, bruno, chen = await connect("ana"), await connect("bruno"), await connect("chen")
    table = (await create(ana, seats=3)).table
    await join(bruno, table=table)
    assert (await ana.request(Leave(id=new_id()))).TYPE == "ok"
    info = (await bruno.expect("table", where=lambda m: m.info["seats"][0]["name"] is None)).info
    assert (info["creator"], info["creator_seat"]) == ("bruno", 1)
    assert (await join(chen, table=table, seat=0)).seat == 0
    reply = await chen.request(Start(id=new_id()))
    assert reply.TYPE == "error" and reply.code == "not_creator"
    assert (await chen.request(Ready(id=new_id()))).TYPE == "ok"
    assert (await bruno.request(Start(id=new_id()))).TYPE == "ok"


# ------------------------------------------------------------------ starting


async def test_ready_everyone_at_a_full_table_starts_it(connect):
    ana, bruno = await seat_table(connect, ["ana", "bruno"], start=False)
    assert (await ana.request(Ready(id=new_id()))).TYPE == "ok"
    info = (await bruno.expect("table", where=lambda m: m.info["seats"][0]["ready"])).info
    assert info["status"] == "waiting"
    assert (await ana.request(Ready(id=new_id(), ready=False))).TYPE == "ok"
    assert (await bruno.request(Ready(id=new_id()))).TYPE == "ok"
    await bruno.expect("table", where=lambda m: not m.info["seats"][0]["ready"]
                       and m.info["seats"][1]["ready"])
    assert (await ana.request(Ready(id=new_id()))).TYPE == "ok"
    for peer in (ana, bruno):
        info = (await peer.expect("table", where=lambda m: m.info["status"] == "playing")).info
        snapshot = await peer.expect("snapshot")
        assert snapshot.view["seat"] == peer.seat and snapshot.view["state_id"] == 0
        assert [p["name"] for p in snapshot.players] == ["ana", "bruno"]
    reply = await ana.request(Ready(id=new_id()))
    assert reply.TYPE == "error" and reply.code == "game_running"


async def test_changes_handled_together_are_told_once(connect):
    ana, bruno = await seat_table(connect, ["ana", "bruno"], start=False, seats=3)

    async def told_until_chat() -> list:
        """What ana hears until her chat comes back: all that the table did before it."""
        await ana.request(Say(id=new_id(), scope="table", text="marker"))
        told = []
        while (msg := await ana.next()).TYPE != "chat":
            told.append(msg)
        return told

    await told_until_chat()
    # Three requests in one write reach the table together: the table then tells its members
    # once, with the state they leave it in.
    requests = [Ready(id=new_id()), Ready(id=new_id(), ready=False), Ready(id=new_id())]
    await bruno.send_raw(b"".join(bruno.conn.send(r) for r in requests))
    for request in requests:
        assert (await bruno.reply(request.id)).TYPE == "ok"
    told = await told_until_chat()
    assert [m.TYPE for m in told] == ["table"]
    assert told[0].info["seats"][1]["ready"] is True
    assert told[0].info["status"] == "waiting"


async def test_start_is_the_creators_once_everyone_is_ready(connect):
    ana, bruno, chen = await seat_table(connect, ["ana", "bruno", "chen"], start=False, seats=4)
    dara = await connect("dara")
    reply = await dara.request(Start(id=new_id()))
    assert reply.TYPE == "error" and reply.code == "not_at_table"
    await join(dara, table=ana.table, spectate=True)
    reply = await dara.request(Start(id=new_id()))
    assert reply.TYPE == "error" and reply.code == "not_seated"
    reply = await bruno.request(Start(id=new_id()))
    assert reply.TYPE == "error" and reply.code == "not_creator"
    await bruno.request(Ready(id=new_id()))
    reply = await ana.request(Start(id=new_id()))
    assert reply.TYPE == "error" and reply.code == "not_ready"
    await chen.request(Ready(id=new_id()))
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"
    for peer in (ana, bruno, chen, dara):
        snapshot = await peer.expect("snapshot")
        assert snapshot.view["options"]["players"] == 3  # the empty seat is gone
    reply = await ana.request(Start(id=new_id()))
    assert reply.TYPE == "error" and reply.code == "game_running"


async def test_a_start_with_empty_seats_and_no_bots_shrinks_the_table(connect):
    ana, bruno = await connect("ana"), await connect("bruno")
    table = (await create(ana, seats=4)).table
    reply = await ana.request(Start(id=new_id()))
    assert reply.TYPE == "error" and reply.code == "no_players"
    assert (await join(bruno, table=table, seat=3)).seat == 3
    await bruno.request(Ready(id=new_id()))
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"
    info = (await bruno.expect("table", where=lambda m: m.info["status"] == "playing")).info
    assert info["options"]["seats"] == 2
    assert [s["name"] for s in info["seats"]] == ["ana", "bruno"]
    snapshot = await bruno.expect("snapshot")
    assert snapshot.view["seat"] == 1 and snapshot.view["options"]["players"] == 2
    await play_out([ana, bruno])
    assert ana.view.over and bruno.view.winner == ana.view.winner


@pytest.mark.parametrize("strategy", ["random", "honest"])
async def test_bots_fill_the_empty_seats_at_the_start(connect, server, strategy):
    ana = await connect("ana")
    table = (await create(ana, seats=4, bots=strategy)).table
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"
    info = (await ana.expect("table", where=lambda m: m.info["status"] == "playing")).info
    assert info["seats"][0]["name"] == "ana" and info["seats"][0]["bot"] is None
    for seat in info["seats"][1:]:
        assert seat["bot"] == strategy and seat["name"] is None and seat["ready"]
    snapshot = await ana.expect("snapshot")
    assert snapshot.view["options"]["players"] == 4
    await play_out([ana])
    assert ana.view.over
    over = (await ana.expect("table", where=lambda m: m.info["status"] == "over")).info
    assert over["table"] == table
    assert server.lobby.tables[table].status == "over"


# ------------------------------------------------------------------ rematch


async def test_rematch_starts_with_the_winner(connect):
    ana, bruno = await seat_table(connect, ["ana", "bruno"], two_player_draft=False)
    chen = await connect("chen")
    await join(chen, table=ana.table, spectate=True)
    reply = await ana.request(Rematch(id=new_id()))
    assert reply.TYPE == "error" and reply.code == "game_not_over"
    await play_out([ana, bruno], seed=3)
    winner = ana.view.winner
    await chen.expect("update", where=lambda m: m.view["phase"] == "over")
    chen.inbox.clear()  # the game's messages, from its first snapshot on
    reply = await chen.request(Rematch(id=new_id()))
    assert reply.TYPE == "error" and reply.code == "not_seated"
    assert (await ana.request(Rematch(id=new_id()))).TYPE == "ok"
    assert (await bruno.request(Rematch(id=new_id()))).TYPE == "ok"
    for peer in (ana, bruno, chen):
        await peer.expect("table", where=lambda m: m.info["status"] == "playing")
        view = (await peer.expect("snapshot")).view
        assert view["state_id"] == 0 and view["phase"] == "action"
        assert view["options"]["first_seat"] == winner  # R1.6
        assert view["first_seat"] == winner and view["actor"] == winner
    await play_out([ana, bruno], seed=4)
    assert ana.view.over and bruno.view.over


async def test_a_rematch_waits_for_no_one_who_left(connect):
    ana, bruno, chen = await seat_table(connect, ["ana", "bruno", "chen"])
    await play_out([ana, bruno, chen], seed=6)
    winner = ana.view.winner
    assert (await ana.request(Rematch(id=new_id()))).TYPE == "ok"
    assert (await bruno.request(Rematch(id=new_id()))).TYPE == "ok"
    assert (await chen.request(Leave(id=new_id()))).TYPE == "ok"  # the last one to ask
    for peer in (ana, bruno):
        view = (await peer.expect("snapshot")).view
        assert view["state_id"] == 0 and view["options"]["first_seat"] == winner
    info = (await ana.expect("table", where=lambda m: m.info["status"] == "playing")).info
    assert info["seats"][chen.seat]["bot"] == "honest"


# ------------------------------------------------------------------ chat


async def test_chat_in_the_lobby_and_at_a_table(connect):
    ana, bruno, chen, dara = [await connect(n) for n in ("ana", "bruno", "chen", "dara")]
    table = (await create(ana, seats=3)).table
    await join(bruno, table=table)
    await join(chen, table=table, spectate=True)

    assert (await ana.request(Say(id=new_id(), text="good luck!"))).TYPE == "ok"
    for peer in (ana, bruno, chen):
        chat = await peer.expect("chat")
        assert (chat.scope, chat.name, chat.text, chat.seat, chat.table) == (
            "table", "ana", "good luck!", 0, table)
    assert (await chen.request(Say(id=new_id(), text="hi from the stands"))).TYPE == "ok"
    chat = await bruno.expect("chat", text="hi from the stands")
    assert chat.name == "chen" and chat.seat is None

    lobby = await dara.request(Say(id=new_id(), text="anyone?", scope="lobby"))
    assert lobby.TYPE == "ok"
    chat = await dara.expect("chat")
    assert (chat.scope, chat.name, chat.text, chat.table) == ("lobby", "dara", "anyone?", None)
    reply = await dara.request(Say(id=new_id(), text="table talk"))
    assert reply.TYPE == "error" and reply.code == "not_at_table"
    # Nobody at the table heard the lobby, and the lobby heard nothing of the table: what
    # was sent to them was queued before these round trips were answered.
    for peer in (ana, bruno, chen, dara):
        assert (await peer.request(Ping(id=new_id()))).TYPE == "pong"
    for peer in (ana, bruno, chen):
        assert all(m.TYPE != "chat" or m.scope == "table" for m in peer.inbox)
    assert all(m.TYPE != "chat" or m.scope == "lobby" for m in dara.inbox)


async def test_lobby_chat_skips_clients_still_in_their_handshake(connect, caplog):
    shy, ana = await connect("shy", handshake=False), await connect("ana")
    assert (await ana.request(Say(id=new_id(), text="hello all", scope="lobby"))).TYPE == "ok"
    await ana.expect("chat")
    await shy.send(Hello(versions=[1], client="test/1", name="shy"))
    assert (await shy.expect("welcome")).name == "shy"
    assert (await shy.request(Ping(id=new_id()))).TYPE == "pong"
    assert [m.TYPE for m in shy.inbox] == []  # said before it was in the lobby
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


@pytest.mark.server_config(lobby_chat_per_address=600)  # the connection's own rate first
async def test_chat_limits(connect):
    ana = await connect("ana")
    request_id = new_id()
    await ana.send_map({"t": "say", "id": request_id, "text": "x" * 501, "scope": "lobby"})
    too_long = await ana.reply(request_id)
    assert too_long.TYPE == "error" and too_long.code == "bad_message"
    for text in ("bell\x07", "two\nlines", "\u200b"):
        reply = await ana.request(Say(id=new_id(), text=text, scope="lobby"))
        assert reply.TYPE == "error" and reply.code == "bad_message", text
    codes = []
    for i in range(8):
        reply = await ana.request(Say(id=new_id(), text=f"spam {i}", scope="lobby"))
        codes.append(reply.TYPE if reply.TYPE == "ok" else reply.code)
    assert codes[:5] == ["ok"] * 5 and codes[5:] == ["rate_limited"] * 3
    chats = [m for m in ana.inbox if m.TYPE == "chat"]
    assert [c.text for c in chats] == [f"spam {i}" for i in range(5)]
