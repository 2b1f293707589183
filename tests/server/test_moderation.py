"""A host who can act (issue 27, section 6): operators named by key kick, mute, ban and close
tables from their own connection; the creator of a table still waiting removes a seat; every
act is logged with who did it; bans keep a key or an address out, run out, and survive a
restart; and no one else can do any of it.

Real TCP, the real protocol: an operator (`op`, identified with the configured key), a
victim and a bystander, each a Peer.
"""

from __future__ import annotations

import argparse
import logging

import pytest
import trio

from client.identity import load
from protocol import (
    Ban, CloseTable, CreateTable, Hello, Join, Kick, ListTables, Mute, Ready, Say, Start,
)
from server import Server, ServerConfig, cli
from server.moderation import operator_ids
from tests.server.helpers import eventually, seat_table
from tests.server.peer import Peer, new_id
from tests.server.test_identity import identify


@pytest.fixture
def keys(tmp_path):
    """keys(n) -> the n-th identity of the test; keys(1) is the operator's."""
    return lambda n: load(str(tmp_path / f"key{n}.pem"))


def served(keys, **fields) -> Server:
    return Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                               operators=f"key:{keys(1).key.upper()}", **fields))


@pytest.fixture
async def moderated(nursery, keys) -> Server:
    server = served(keys)
    await nursery.start(server.serve)
    return server


@pytest.fixture
async def connect(moderated):
    peers = []

    async def _connect(name: str = "peer", **kw) -> Peer:
        peer = await Peer.connect(moderated.address[1], name, **kw)
        peers.append(peer)
        return peer

    yield _connect
    for peer in peers:
        await peer.aclose()


@pytest.fixture
async def op(connect, keys) -> Peer:
    """The operator, identified with the configured key (given in upper case and as a
    player id, which the server takes as the same key)."""
    peer = await connect("op")
    answer = await identify(peer, keys(1))
    assert answer.TYPE == "identified" and answer.operator is True
    return peer


def acts(caplog) -> list[dict]:
    """The moderation lines logged so far, as their fields."""
    return [r.fields for r in caplog.records if r.getMessage() == "moderation"]


async def test_an_identified_player_who_is_no_operator_is_told_nothing_and_may_do_nothing(
        connect, keys):
    ana = await connect("ana")
    answer = await identify(ana, keys(2))
    assert answer.TYPE == "identified" and answer.operator is None
    bruno = await connect("bruno")
    table = (await bruno.request(CreateTable(id=new_id(), options={"seats": 3}))).table
    for request in (Kick(id=new_id(), name="bruno", table=table),
                    Mute(id=new_id(), name="bruno", minutes=10),
                    Ban(id=new_id(), name="bruno", minutes=10),
                    CloseTable(id=new_id(), table=table)):
        reply = await ana.request(request)
        assert (reply.TYPE, reply.code) == ("error", "not_allowed"), request
    assert (await bruno.request(Say(id=new_id(), text="still here"))).TYPE == "ok"


async def test_an_operator_removes_a_player_from_a_running_game_and_a_bot_plays_on(
        op, connect, caplog):
    caplog.set_level(logging.INFO, "coup.server")
    victim, bystander = await seat_table(connect, ["victim", "bystander"], bots="honest")
    reply = await op.request(Kick(id=new_id(), name="VICTIM", table=victim.table,
                                  reason="abusive chat"))
    assert reply.TYPE == "ok"
    notice = await victim.expect("error", code="kicked")
    assert "op" in notice.message and "abusive chat" in notice.message
    await bystander.expect("presence", seat=victim.seat, status="bot")
    # The victim is in the lobby: it may list tables, and not come back to that one.
    assert (await victim.request(ListTables(id=new_id()))).TYPE == "tables"
    again = await victim.request(Join(id=new_id(), table=victim.table, spectate=True))
    assert (again.TYPE, again.code) == ("error", "not_allowed")
    (act,) = acts(caplog)
    assert act["act"] == "kick" and act["by"] == "op" and act["name"] == "victim"
    assert act["operator"].startswith("key:") and act["reason"] == "abusive chat"


async def test_the_creator_removes_an_idle_seat_before_the_start_and_not_after(connect):
    """Section 3: a player who joined and sits idle no longer holds the table."""
    creator, idle, third = await seat_table(connect, ["creator", "idle", "third"],
                                            start=False)
    refused = await third.request(Kick(id=new_id(), name="idle"))
    assert (refused.TYPE, refused.code) == ("error", "not_allowed")
    assert (await creator.request(Kick(id=new_id(), name="idle"))).TYPE == "ok"
    await idle.expect("error", code="kicked")
    await creator.expect("table", where=lambda m: [s["name"] for s in m.info["seats"]] == [
        "creator", None, "third"])
    assert (await third.request(Ready(id=new_id()))).TYPE == "ok"
    assert (await creator.request(Start(id=new_id()))).TYPE == "ok"
    await creator.expect("snapshot")
    late = await creator.request(Kick(id=new_id(), name="third"))
    assert (late.TYPE, late.code) == ("error", "not_allowed")


async def test_kicking_no_one_of_that_name_is_no_such_player(op, connect):
    ana, = await seat_table(connect, ["ana"], start=False, seats=2)
    reply = await op.request(Kick(id=new_id(), name="nobody", table=ana.table))
    assert (reply.TYPE, reply.code) == ("error", "no_such_player")


async def test_a_muted_name_cannot_chat_until_the_mute_is_lifted(op, connect, caplog):
    caplog.set_level(logging.INFO, "coup.server")
    loud, other = await connect("loud"), await connect("other")
    assert (await op.request(Mute(id=new_id(), name="LOUD", minutes=10))).TYPE == "ok"
    for scope in ("lobby", "table"):
        refused = await loud.request(Say(id=new_id(), text="spam", scope=scope))
        assert (refused.TYPE, refused.code) == ("error", "muted"), scope
        assert "UTC" in refused.message
    assert (await other.request(Say(id=new_id(), text="hello", scope="lobby"))).TYPE == "ok"
    assert (await op.request(Mute(id=new_id(), name="loud", minutes=0))).TYPE == "ok"
    assert (await loud.request(Say(id=new_id(), text="sorry", scope="lobby"))).TYPE == "ok"
    assert [(a["act"], a["name"], a["minutes"]) for a in acts(caplog)] == [
        ("mute", "LOUD", 10), ("mute", "loud", 0)]


async def test_a_ban_by_name_of_an_identified_player_bans_its_key(op, connect, keys, caplog):
    caplog.set_level(logging.INFO, "coup.server")
    cheat = await connect("cheat")
    assert (await identify(cheat, keys(2))).TYPE == "identified"
    reply = await op.request(Ban(id=new_id(), name="cheat", minutes=60, reason="cheating"))
    assert reply.TYPE == "ok"
    (bye,) = [m for m in await cheat.until_closed() if m.TYPE == "bye"]
    assert bye.reason == "banned" and "cheating" in bye.message
    again = await connect("cheat-again")
    await identify_refused(again, keys(2))
    # A guest from the same address is not that key.
    assert (await (await connect("guest")).request(ListTables(id=new_id()))).TYPE == "tables"
    (act,) = acts(caplog)
    assert act["act"] == "ban" and act["key"] == f"key:{keys(2).key}" and act["by"] == "op"


async def identify_refused(peer: Peer, identity) -> None:
    """`peer` identifies with a banned `identity`: told bye banned, and closed."""
    welcome = next(f for f in peer.frames if f["t"] == "welcome")
    await peer.send(identity.identify(new_id(), welcome["server_id"], welcome["nonce"]))
    got = await peer.until_closed()
    assert [m.reason for m in got if m.TYPE == "bye"] == ["banned"], got


async def refused_at_hello(port: int, source: str) -> None:
    """A newcomer from `source` says hello and is told bye banned, with no welcome."""
    peer = await Peer.connect(port, source=source, handshake=False)
    await peer.send(Hello(versions=[1], client="test/1", name="newcomer"))
    got = await peer.until_closed()
    await peer.aclose()
    assert [m.TYPE for m in got] == ["bye"] and got[0].reason == "banned", got


async def test_a_ban_by_name_of_a_guest_bans_its_address_and_ends_its_sessions(
        op, connect, moderated):
    """Loopback is 127.0.0.0/8: the guest comes from 127.0.0.2, everyone else from .1."""
    guest = await connect("pest", source="127.0.0.2")
    second = await connect("pest-two", source="127.0.0.2")
    assert (await op.request(Ban(id=new_id(), name="pest", minutes=5))).TYPE == "ok"
    for peer in (guest, second):
        assert [m.reason for m in await peer.until_closed() if m.TYPE == "bye"] == ["banned"]
    await refused_at_hello(moderated.address[1], "127.0.0.2")
    assert (await (await connect("fine")).request(ListTables(id=new_id()))).TYPE == "tables"


async def test_a_ban_of_a_key_or_an_address_given_as_such(op, connect, keys, moderated):
    assert (await op.request(Ban(id=new_id(), key=keys(3).key.upper(), minutes=1))).TYPE == "ok"
    await identify_refused(await connect("three"), keys(3))
    assert (await op.request(Ban(id=new_id(), address="127.0.0.3", minutes=1))).TYPE == "ok"
    await refused_at_hello(moderated.address[1], "127.0.0.3")
    for bad in ({"address": "not-an-address"}, {}, {"name": "op", "address": "127.0.0.9"}):
        reply = await op.request(Ban(id=new_id(), minutes=1, **bad))
        assert (reply.TYPE, reply.code) == ("error", "bad_message"), bad


async def test_an_operator_cannot_be_banned_nor_ban_its_own_address(op, connect, keys):
    reply = await op.request(Ban(id=new_id(), key=keys(1).key, minutes=1))
    assert (reply.TYPE, reply.code) == ("error", "not_allowed")
    await connect("guest")  # from 127.0.0.1, as the operator
    for own in (Ban(id=new_id(), address="127.0.0.1", minutes=1),
                Ban(id=new_id(), name="guest", minutes=1)):
        reply = await op.request(own)
        assert (reply.TYPE, reply.code) == ("error", "not_allowed"), own


async def test_a_ban_runs_out(op, connect, keys, moderated):
    assert (await op.request(Ban(id=new_id(), key=keys(2).key, minutes=1))).TYPE == "ok"
    await identify_refused(await connect("two"), keys(2))
    clock = moderated.lobby.moderation.clock
    moderated.lobby.moderation.clock = lambda: clock() + 61
    assert (await identify(await connect("two"), keys(2))).TYPE == "identified"


async def test_a_ban_survives_a_restart_and_its_lifting_too(tmp_path, keys):
    db = str(tmp_path / "coup.db")

    async def one_life(act) -> None:
        async with trio.open_nursery() as nursery:
            server = served(keys, db=db)
            await nursery.start(server.serve)
            port = server.address[1]
            op = await Peer.connect(port, "op")
            assert (await identify(op, keys(1))).TYPE == "identified"
            await act(port, op)
            await op.aclose()
            nursery.cancel_scope.cancel()

    async def ban(port, op):
        assert (await op.request(Ban(id=new_id(), key=keys(2).key, minutes=60))).TYPE == "ok"

    async def still_banned_then_lift(port, op):
        peer = await Peer.connect(port, "two")
        await identify_refused(peer, keys(2))
        await peer.aclose()
        assert (await op.request(Ban(id=new_id(), key=keys(2).key, minutes=0))).TYPE == "ok"

    async def welcome_again(port, op):
        peer = await Peer.connect(port, "two")
        assert (await identify(peer, keys(2))).TYPE == "identified"
        await peer.aclose()

    await one_life(ban)
    await one_life(still_banned_then_lift)
    await one_life(welcome_again)


async def test_closing_a_table_ends_it_for_everyone(op, connect, moderated, caplog):
    caplog.set_level(logging.INFO, "coup.server")
    ana, bruno = await seat_table(connect, ["ana", "bruno"])
    table = ana.table
    watcher = await connect("watcher")
    assert (await watcher.request(Join(id=new_id(), table=table, spectate=True))
            ).TYPE == "joined"
    reply = await op.request(CloseTable(id=new_id(), table=table, reason="spam table"))
    assert reply.TYPE == "ok"
    for peer in (ana, bruno, watcher):
        notice = await peer.expect("error", code="table_closed")
        assert "spam table" in notice.message
    await eventually(lambda: table not in moderated.lobby.tables)
    assert (await ana.request(CreateTable(id=new_id(), options={"seats": 2}))
            ).TYPE == "joined"
    (act,) = acts(caplog)
    assert (act["act"], act["table"], act["by"]) == ("close", table, "op")


async def test_hostile_requests_are_answered_and_change_nothing(op, connect):
    ana, = await seat_table(connect, ["ana"], start=False, seats=2)
    for request in (Kick(id=new_id(), name="ana", table="nosuch"),
                    CloseTable(id=new_id(), table="nosuch"),
                    Kick(id=new_id(), name="op", table=ana.table)):
        reply = await op.request(request)
        assert reply.TYPE == "error" and reply.code in ("no_such_table", "no_such_player")
    assert (await ana.request(Kick(id=new_id(), name="ana"))).code == "not_allowed"
    assert (await op.request(Kick(id=new_id(), name="ana"))).code == "not_at_table"
    assert (await op.request(Ban(id=new_id(), name="\u202eop", minutes=1))
            ).code == "no_such_player"


async def test_a_banned_key_cannot_take_its_seat_back_with_its_token(op, connect, keys,
                                                                     moderated):
    ana = await connect("ana")
    assert (await identify(ana, keys(2))).TYPE == "identified"
    assert (await ana.request(CreateTable(id=new_id(), options={"seats": 2}))).TYPE == "joined"
    assert (await op.request(Ban(id=new_id(), key=keys(2).key, minutes=5))).TYPE == "ok"
    await ana.until_closed()
    back = await Peer.connect(moderated.address[1], handshake=False)
    await back.send(Hello(versions=[1], client="test/1", name="ana", token=ana.token))
    got = await back.until_closed()
    await back.aclose()
    assert [m.TYPE for m in got] == ["bye"] and got[0].reason == "banned", got


async def test_operators_are_keys_in_any_case_and_anything_else_stops_coup_serve(capsys):
    key = "ab" * 32
    assert operator_ids(f" key:{key.upper()}, {'cd' * 32} ,") == {f"key:{key}",
                                                                  f"key:{'cd' * 32}"}
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    for bad in ("alice", key[:-1], "key:" + "g" * 64):
        assert cli.main(parser.parse_args(["--operators", bad, "--db", ":memory:"])) == 2
        assert capsys.readouterr().err.startswith("coup serve: --operators: ")


async def test_to_anyone_but_an_operator_a_table_id_tells_nothing(connect):
    """Kick and close_table name tables by id, private ones too: a player who is no
    operator gets the same answer whether the id is a table's or not."""
    owner, = await seat_table(connect, ["owner"], start=False, seats=2, private=True)
    prober = await connect("prober")
    for table in (owner.table, "nosuch"):
        for request in (Kick(id=new_id(), name="owner", table=table),
                        CloseTable(id=new_id(), table=table)):
            reply = await prober.request(request)
            assert (reply.TYPE, reply.code) == ("error", "not_allowed"), (table, request)


async def test_a_reason_the_server_would_relay_must_be_printable(op, connect):
    """A reason reaches the acted-on player's screen and the store: it is checked as chat
    is (protocol.text.printable), for every act that takes one."""
    ana, = await seat_table(connect, ["ana"], start=False, seats=2)
    for request in (Kick(id=new_id(), name="ana", table=ana.table, reason="\x1b]0;PWNED\x07"),
                    Mute(id=new_id(), name="ana", minutes=1, reason="\u202eevil"),
                    Ban(id=new_id(), name="ana", minutes=1, reason="a\nb"),
                    CloseTable(id=new_id(), table=ana.table, reason="\x9b2J")):
        reply = await op.request(request)
        assert (reply.TYPE, reply.code) == ("error", "bad_message"), request
    assert (await ana.request(Say(id=new_id(), text="still seated"))).TYPE == "ok"
