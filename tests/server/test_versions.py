"""Protocol versions over TCP: version 2 is version 1 with Reformation (rules.md R12), and
a version-1 session never meets a Reformation table (docs/PROTOCOL.md, Versioning).

An older client reads a Reformation table wrongly: its lobby shows a base table (it drops
the option), its legality is the base game's, and the first `convert` or `embezzle` is an
unknown value to its decoder, on which it drops the connection. So a session that agreed
on version 1 is not shown such tables, and is refused every way to one with
`needs_version`; it plays base tables as before.
"""

from __future__ import annotations

from pathlib import Path

import trio

from client.identity import load
from client.net import Link
from client.runner import BotRunner, Seating
from engine import record as records
from engine.bots import make
from protocol import CreateTable, GetGame, Join, ListGames, ListTables, Queue, Ready, VERSIONS
from tests.server.helpers import play, play_out, seat_table, served
from tests.server.peer import Peer, new_id
from tests.server.test_identity import identify
from tests.server.test_position_server import serve

#: Keys and values that only a Reformation table puts on the wire (R12's identifiers): the
#: option, the event field, the factions, and the new actions' and events' names.
REFORMATION_KEYS = frozenset({"reformation", "faction"})
REFORMATION_VALUES = frozenset({"convert", "embezzle", "disprove", "loyalist", "reformist"})


def reformation_in(value) -> list:
    """Every Reformation key or value in an unpacked frame, at any depth."""
    if isinstance(value, dict):
        found = [key for key in value if key in REFORMATION_KEYS]
        for item in value.values():
            found += reformation_in(item)
        return found
    if isinstance(value, list):
        return [found for item in value for found in reformation_in(item)]
    return [value] if isinstance(value, str) and value in REFORMATION_VALUES else []


def old(connect):
    """`connect` for clients that speak version 1 only (as every client before R12)."""
    return lambda name="old", **kw: connect(name, versions=(1,), **kw)


def needs_version(reply) -> None:
    assert reply.TYPE == "error", reply
    assert reply.code == "needs_version" and "version 2" in reply.message, reply


async def test_the_server_speaks_both_versions_and_chooses_the_highest(connect) -> None:
    assert VERSIONS == (1, 2)
    new, older = await connect("new"), await connect("older", versions=(1,))
    assert (new.conn.version, older.conn.version) == (2, 1)


async def test_our_client_speaks_version_2(server) -> None:
    """client/net.py's Link, which the TUI, plain mode and the bot runner all connect
    through (client/transport.py), agrees on version 2."""
    link = await Link.open("127.0.0.1", server.address[1], "ana")
    try:
        assert link.welcome is not None and link.welcome.version == 2
    finally:
        await link.aclose()


async def test_the_bot_runner_plays_a_reformation_game_on_version_2(connect, server) -> None:
    """The runner (client/runner.py, through the client core and transport) agrees on
    version 2, joins a Reformation table and plays it to the end against a person."""
    ana = await connect("ana")
    joined = await ana.request(CreateTable(id=new_id(), options={"seats": 2,
                                                                 "reformation": True}))
    runner = BotRunner("127.0.0.1", server.address[1], make("random", seed=3), name="robo",
                       seating=Seating(table=joined.table))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(runner.run)
            await ana.expect("table", where=lambda m: m.info["seats"][1]["name"] == "robo")
            assert {s.version for s in server.lobby.sessions} == {2}
            assert (await ana.request(Ready(id=new_id()))).TYPE == "ok"
            await ana.expect("snapshot")
            await play_out([ana], seed=3)
    assert runner.played == 1 and ana.view.options.reformation


async def test_R12_1_a_version_1_lobby_lists_no_reformation_table(connect) -> None:
    """Listed and pushed: the base table is, the Reformation table is not (to version 1);
    a version-2 client sees both, the Reformation one marked as such."""
    watcher = await old(connect)("watcher")
    assert (await watcher.request(ListTables(id=new_id()))).tables == []
    ana, bruno = await connect("ana"), await connect("bruno")
    reform = await ana.request(CreateTable(id=new_id(), options={"seats": 3,
                                                                 "reformation": True}))
    base = await bruno.request(CreateTable(id=new_id(), options={"seats": 3}))
    pushed = await watcher.expect("tables", where=lambda m: m.tables)
    assert [t["table"] for t in pushed.tables] == [base.table]
    listed = await watcher.request(ListTables(id=new_id()))
    assert [t["table"] for t in listed.tables] == [base.table]
    seen = {t["table"]: t for t in (await ana.request(ListTables(id=new_id()))).tables}
    assert seen.keys() == {reform.table, base.table}
    assert seen[reform.table]["options"]["reformation"] is True


async def test_R12_1_a_version_1_session_is_refused_every_way_to_a_reformation_table(
        connect) -> None:
    """join by id, spectate, a private code, create_table and queue with the option: each
    needs_version; the session goes on and sits at a base table."""
    ana, carla = await connect("ana"), await connect("carla")
    public = await ana.request(CreateTable(id=new_id(), options={"seats": 3,
                                                                 "reformation": True}))
    private = await carla.request(CreateTable(id=new_id(), options={
        "seats": 3, "reformation": True, "private": True}))
    bruno = await old(connect)("bruno")
    needs_version(await bruno.request(Join(id=new_id(), table=public.table)))
    needs_version(await bruno.request(Join(id=new_id(), table=public.table, spectate=True)))
    needs_version(await bruno.request(Join(id=new_id(), code=private.code)))
    needs_version(await bruno.request(Join(id=new_id(), code=private.code, spectate=True)))
    needs_version(await bruno.request(CreateTable(id=new_id(), options={
        "seats": 2, "reformation": True})))
    needs_version(await bruno.request(Queue(id=new_id(), seats=2, reformation=True)))
    assert (await bruno.request(CreateTable(id=new_id(), options={"seats": 2}))).TYPE == \
        "joined"


async def test_R12_1_a_reformation_seat_is_not_given_back_to_a_version_1_client(
        connect) -> None:
    """A reconnect token of a Reformation seat: needs_version, the seat still away (its
    name not taken by the refused session); the same token from version 2 takes it up."""
    ana = await connect("ana")
    joined = await ana.request(CreateTable(id=new_id(), options={"seats": 3,
                                                                 "reformation": True}))
    await ana.aclose()
    back = await old(connect)("back", token=joined.token)
    assert back.name != "ana"
    needs_version(await back.expect("error"))
    again = await connect("again", token=joined.token)
    assert again.name == "ana"
    assert (await again.expect("joined")).table == joined.table


async def test_R12_a_version_1_client_plays_a_base_game_and_hears_nothing_of_reformation(
        connect) -> None:
    """While a Reformation game is played (with a spectator) and the lobby changes, version
    1 sessions play a base game to its end and watch the lobby: no frame any of them is
    sent holds a Reformation key or value (a version-1 decoder could read them all)."""
    lobby = await old(connect)("lobby")
    await lobby.request(ListTables(id=new_id()))
    reform = await seat_table(connect, ["ana", "bruno", "chen"], reformation=True)
    watcher = await connect("gil")
    await watcher.request(Join(id=new_id(), table=reform[0].table, spectate=True))
    base = await seat_table(old(connect), ["dara", "eli"])
    actor = next(p for p in reform if p.seat == p.view.actor)
    assert (await play(actor, "convert", target=actor.seat)).TYPE == "move_accepted"
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_out, reform, 1)
        nursery.start_soon(play_out, base, 2)
    await lobby.request(ListTables(id=new_id()))
    assert any(reformation_in(f) for p in [*reform, watcher] for f in p.frames)
    for peer in [lobby, *base]:
        assert peer.conn.version == 1
        assert [f for f in peer.frames if reformation_in(f)] == []


async def test_R12_a_conversion_from_version_1_is_the_engine_s_refusal(connect) -> None:
    """A version-1 session sits at base tables only, and a move's kind is the engine's to
    judge: `convert` there is move_rejected not_in_variant, as from any client (not a
    protocol error, which would end the connection)."""
    peers = await seat_table(old(connect), ["ana", "bruno", "chen"])
    actor = next(p for p in peers if p.seat == p.view.actor)
    reply = await play(actor, "convert", target=actor.seat)
    assert (reply.TYPE, reply.code) == ("move_rejected", "not_in_variant")
    assert not actor.closed


async def test_R12_1_identify_gives_no_reformation_seat_back_to_version_1(connect,
                                                                        tmp_path) -> None:
    """A player's seat comes back on identify (docs/PROTOCOL.md, `identify`), but not a
    Reformation seat to a version-1 client: identified names no table, and the seat waits
    for the player's newer client."""
    key = load(str(tmp_path / "key.pem"))
    ana = await connect("ana")
    await identify(ana, key)
    joined = await ana.request(CreateTable(id=new_id(), options={"seats": 3,
                                                                 "reformation": True}))
    await ana.aclose()
    older = await old(connect)("ana")
    assert (await identify(older, key)).table is None
    again = await connect("ana")
    assert (await identify(again, key)).table == joined.table
    assert (await again.expect("joined")).seat == joined.seat


async def test_R12_a_reformation_game_s_record_is_refused_to_version_1(nursery, db) -> None:
    """A record of a Reformation game replays only with R12 (its options say so, and an
    older client drops that option): get_game answers a version-1 session needs_version.
    The game is listed to it (a game's line names no rules), and a version-2 client gets
    the record."""
    port = (await served(nursery, db)).address[1]
    peers: list[Peer] = []

    async def connect(name: str, **kw) -> Peer:
        peers.append(await Peer.connect(port, name, **kw))
        return peers[-1]

    try:
        await play_out(await seat_table(connect, ["ana", "bruno", "chen"], reformation=True))
        older = await old(connect)("older")
        page = await older.request(ListGames(id=new_id()))
        game = page.games[0]["game"]
        needs_version(await older.request(GetGame(id=new_id(), game=game)))
        record = (await peers[0].request(GetGame(id=new_id(), game=game))).record
        assert record["options"]["reformation"] is True and records.check(record)
    finally:
        for peer in peers:
            await peer.aclose()


async def test_R12_1_a_reformation_position_s_tables_are_refused_to_version_1(nursery,
                                                                            tmp_path) -> None:
    """A server that plays a Reformation position makes every table a Reformation one,
    whatever was asked (docs/PROTOCOL.md, Servers that play a position): a version-1
    session's create_table is needs_version, a version-2 one's makes the table."""
    example = Path(__file__).parents[2] / "docs/examples/positions/divided_forced_coup.toml"
    port, _ = await serve(nursery, tmp_path, example.read_text(encoding="utf-8"))
    older = await Peer.connect(port, "older", versions=(1,))
    newer = await Peer.connect(port, "newer")
    try:
        needs_version(await older.request(CreateTable(id=new_id(), options={"seats": 3})))
        assert (await newer.request(CreateTable(id=new_id(), options={"seats": 3}))).TYPE == \
            "joined"
    finally:
        await older.aclose()
        await newer.aclose()
