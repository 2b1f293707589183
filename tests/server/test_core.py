"""The server's core as a review found it wanting: the creator is a seat and never a name,
private codes cannot be guessed, a failing table ends alone, and a session serves any trio
stream (a memory stream here), so evil peers need no sockets."""

from __future__ import annotations

import re
from io import BytesIO

import msgpack
import pytest
import trio
import trio.testing

from protocol import (
    NEED_DATA, Bye, Connection, CreateTable, Hello, Join, Leave, ListTables, Ready, Role, Start,
)
from server import Server, ServerConfig
from server.lobby import CODE_RETRY, CODE_TRIES
from server.table import Table
from tests.server.helpers import eventually, fail_table_named, play, play_out, seat_table
from tests.server.peer import new_id


async def create(peer, **options):
    options.setdefault("seats", 2)
    return await peer.request(CreateTable(id=new_id(), options=options))


# ------------------------------------------------------------------ the creator


async def test_a_namesake_in_the_creators_old_seat_is_not_the_creator(connect):
    ana, bruno = await connect("ana"), await connect("bruno")
    made = await create(ana, seats=3)
    assert (await bruno.request(Join(id=new_id(), table=made.table))).seat == 1
    assert (await ana.request(Leave(id=new_id()))).TYPE == "ok"
    info = await bruno.expect("table", where=lambda m: m.info["seats"][0]["name"] is None)
    assert (info.info["creator"], info.info["creator_seat"]) == ("bruno", 1)  # the next one

    # Another client takes the name, once it is free, and the creator's seat: it is not
    # the creator.
    await ana.aclose()
    impostor = await eventually_name_free("ana", connect)
    joined = await impostor.request(Join(id=new_id(), table=made.table, seat=0))
    assert joined.seat == 0
    assert (await bruno.request(Ready(id=new_id()))).TYPE == "ok"
    refused = await impostor.request(Start(id=new_id()))
    assert refused.TYPE == "error" and refused.code == "not_creator"
    info = await impostor.expect("table", where=lambda m: m.info["seats"][0]["name"] == "ana")
    assert info.info["creator_seat"] == 1


async def test_the_creator_is_its_seat_and_starts_the_game(connect):
    ana, bruno = await connect("ana"), await connect("ana")  # two of one name
    made = await create(ana, seats=2)
    assert (await bruno.request(Join(id=new_id(), table=made.table))).seat == 1
    assert (await bruno.request(Ready(id=new_id()))).TYPE == "ok"
    refused = await bruno.request(Start(id=new_id()))
    assert refused.TYPE == "error" and refused.code == "not_creator"
    info = await ana.expect("table", where=lambda m: m.info["seats"][1]["ready"])
    assert info.info["creator_seat"] == 0
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"
    await ana.expect("snapshot")


# ------------------------------------------------------------------ private codes


async def test_private_codes_are_twelve_characters_typed_any_way(connect, server):
    ana, bruno = await connect("ana"), await connect("bruno")
    made = await create(ana, seats=3, private=True)
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}", made.code)
    typed = made.code.replace("-", " ").lower()
    joined = await bruno.request(Join(id=new_id(), code=typed))
    assert joined.TYPE == "joined" and joined.table == made.table


async def test_wrong_codes_are_limited_per_address(connect, autojump_clock):
    ana, guesser, neighbour = await connect("ana"), await connect("eve"), await connect("bob")
    made = await create(ana, seats=4, private=True)
    for _ in range(CODE_TRIES):
        reply = await guesser.request(Join(id=new_id(), code="AAAA-AAAA-AAAA"))
        assert reply.code == "no_such_table"
    # Over the limit even the right code is not looked up, from any connection of the address.
    for peer in (guesser, neighbour):
        reply = await peer.request(Join(id=new_id(), code=made.code))
        assert reply.TYPE == "error" and reply.code == "too_many_attempts"
    await trio.sleep(CODE_RETRY)
    joined = await guesser.request(Join(id=new_id(), code=made.code))
    assert joined.TYPE == "joined"


async def test_the_code_limit_counts_addresses_apart(connect):
    ana, guesser = await connect("ana"), await connect("eve")
    made = await create(ana, seats=3, private=True)
    for _ in range(CODE_TRIES + 1):
        await guesser.request(Join(id=new_id(), code="AAAA-AAAA-AAAA"))
    other = await connect("bob", source="127.0.0.2")
    joined = await other.request(Join(id=new_id(), code=made.code))
    assert joined.TYPE == "joined"


# ------------------------------------------------------------------ a failing table


async def test_a_failing_table_ends_alone_and_its_players_are_back_in_the_lobby(
        connect, server, monkeypatch, caplog):
    healthy = await seat_table(connect, ["ana", "bruno"], name="healthy")
    doomed = await seat_table(connect, ["chen", "dara"], start=False, name="doomed")

    tell = fail_table_named(monkeypatch, "doomed")
    await doomed[0].send(Ready(id=new_id()))
    for peer in doomed:
        error = await peer.expect("error", where=lambda m: m.re is None)
        assert error.code == "table_failed"
    await eventually(lambda: len(server.lobby.tables) == 1)
    assert [r.fields["table"] for r in caplog.records
            if r.getMessage() == "table_failed"] == [doomed[0].table]

    # Its players are in the lobby: they can list tables and sit at a new one.
    for peer in doomed:
        tables = await peer.request(ListTables(id=new_id()))
        assert [t["name"] for t in tables.tables] == ["healthy"]
    monkeypatch.setattr(Table, "_tell_changes", tell)
    again = await create(doomed[0], seats=2)
    assert again.TYPE == "joined"

    # And the other table played on through it all.
    await play_out(healthy)


# ------------------------------------------------------------------ any stream


class MemoryPeer:
    """A client on a memory stream: bytes move without any socket."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.conn = Connection(Role.CLIENT)

    async def send(self, msg) -> None:
        await self.stream.send_all(self.conn.send(msg))

    async def next(self):
        while (msg := self.conn.next_message()) is NEED_DATA:
            self.conn.receive_data(await self.stream.receive_some(65536))
        return msg


@pytest.fixture
async def memory_server(nursery):
    srv = Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0))
    await nursery.start(srv.lobby.run)

    async def connect() -> MemoryPeer:
        client, server_side = trio.testing.memory_stream_pair()
        nursery.start_soon(srv.serve_stream, server_side, "memory")
        return MemoryPeer(client)

    yield srv, connect
    nursery.cancel_scope.cancel()


async def test_a_session_serves_a_memory_stream(memory_server):
    srv, connect = memory_server
    peer = await connect()
    await peer.send(Hello(versions=[1], client="memory/1", name="mia"))
    assert (await peer.next()).TYPE == "welcome"
    await peer.send(CreateTable(id=1, options={"seats": 2, "bots": "random"}))
    assert (await peer.next()).TYPE == "joined"
    await peer.send(Start(id=2))
    with trio.fail_after(5):
        while (await peer.next()).TYPE != "snapshot":
            pass
    assert srv.per_address["memory"] == 1


async def test_an_evil_memory_peer_gets_a_protocol_error_and_is_closed(memory_server):
    srv, connect = memory_server
    peer = await connect()
    await peer.stream.send_all(b"\x93\x01\x02\x03")  # a msgpack list, not a map
    received = b""
    with trio.fail_after(5):
        while data := await peer.stream.receive_some(65536):  # until the server closes
            received += data
    (error,) = msgpack.Unpacker(BytesIO(received), raw=False)
    assert (error["t"], error["code"]) == ("error", "bad_frame")
    await eventually(lambda: not srv.sessions)


# ------------------------------------------------------------------ names


async def test_names_are_unique_among_connected_players(connect):
    first, second, third = await connect("ana"), await connect("ana"), await connect("ANA")
    assert (first.name, second.name, third.name) == ("ana", "ana-2", "ANA-3")
    long = "x" * 32
    assert (await connect(long)).name == long
    assert (await connect(long)).name == "x" * 30 + "-2"  # within 32 characters
    await first.aclose()
    await eventually_name_free("ana", connect)


async def eventually_name_free(name, connect):
    """A new peer named `name`, once no one else holds it."""
    with trio.fail_after(5):
        while True:
            peer = await connect(name)
            if peer.name == name:
                return peer
            await peer.aclose()
            await trio.sleep(0.01)


async def test_a_seat_away_in_its_grace_keeps_its_name_for_its_player(connect, port):
    ana, bruno = await connect("ana"), await connect("bruno")
    made = await create(ana, seats=3)
    assert (await bruno.request(Join(id=new_id(), table=made.table))).TYPE == "joined"
    await ana.aclose()
    await bruno.expect("presence", where=lambda m: m.status == "away")
    newcomer = await connect("ana")
    assert newcomer.name == "ana-2"  # the seat still holds "ana"
    back = await connect("whoever", token=made.token)
    assert back.name == "ana"


# ------------------------------------------------------------------ as the spec says


async def test_bye_frees_a_seat_at_a_waiting_table(connect):
    ana, bruno = await connect("ana"), await connect("bruno")
    made = await create(ana, seats=3)
    assert (await bruno.request(Join(id=new_id(), table=made.table))).seat == 1
    await bruno.send(Bye(reason="client_quit"))
    left = await ana.expect("presence", where=lambda m: m.seat == 1)
    assert (left.status, left.name) == ("left", "bruno")
    info = await ana.expect("table", where=lambda m: m.info["seats"][1]["name"] is None)
    assert not info.info["seats"][1]["away"]


async def test_bye_keeps_a_seat_once_the_game_runs(connect):
    ana, bruno = await seat_table(connect, ["ana", "bruno"])
    await bruno.send(Bye(reason="client_quit"))
    away = await ana.expect("presence", where=lambda m: m.seat == bruno.seat)
    assert away.status == "away"  # the grace runs: bruno may come back with the token
    back = await connect("bruno-again", token=bruno.token)
    assert back.name == "bruno"


@pytest.mark.server_config(max_tables=1)
async def test_the_table_limit_has_its_own_code(connect):
    ana, bruno = await connect("ana"), await connect("bruno")
    assert (await create(ana)).TYPE == "joined"
    refused = await create(bruno)
    assert refused.TYPE == "error" and refused.code == "too_many_tables"


async def test_a_reconnect_is_told_in_the_order_the_spec_gives(connect):
    ana, bruno = await seat_table(connect, ["ana", "bruno"])
    await bruno.aclose()
    await ana.expect("presence", where=lambda m: m.status == "away")
    back = await connect("bruno", token=bruno.token)
    kinds = []
    with trio.fail_after(5):
        while len(kinds) < 5:
            kinds.append((await back.next()).TYPE)
    assert kinds == ["joined", "table", "snapshot", "presence", "table"]


async def test_a_coup_on_oneself_without_the_coins_is_a_bad_target(connect):
    peers = await seat_table(connect, ["ana", "bruno"], two_player_draft=False)
    actor = next(p for p in peers if p.seat in p.view.waiting and p.view.phase == "action")
    reply = await play(actor, "coup", target=actor.seat)  # 2 coins, and at oneself
    assert reply.TYPE == "move_rejected" and reply.code == "bad_target"
