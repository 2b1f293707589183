"""What one stranger may take of the lobby (issue 27, section 3): tables open per address
and per identified player; a seat left by a dropped connection before the game starts,
free again within seconds; lobby chat within a rate per address, a rate for the whole
lobby, and a shorter line than table chat's. Real TCP; other addresses are other loopback
addresses (127.0.0.2, …), as the server sees them."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from protocol import CreateTable, Hello, Join, Leave, Ping, Queue, Ready, Say, Start
from server import Server, ServerConfig
from server.store import Store
from tests.server.helpers import eventually, seat_table
from tests.server.test_identity import identify, keys  # noqa: F401 — keys is a fixture
from tests.server.peer import Peer, new_id


async def create(peer, **options):
    options.setdefault("seats", 2)
    return await peer.request(CreateTable(id=new_id(), options=options))


# ------------------------------------------------------------------ tables per address


@pytest.mark.server_config(max_tables=40)
async def test_one_address_takes_its_share_of_tables_and_no_more(connect, config):
    made = []
    for n in range(40):  # a connection can sit at one table: each table a new one
        reply = await create(await connect(f"hoarder{n}"))
        if reply.TYPE == "error":
            break
        made.append(reply)
    assert len(made) == config.tables_per_address == 4
    assert reply.code == "too_many_tables" and "address" in reply.message
    elsewhere = await connect("neighbour", source="127.0.0.2")
    assert (await create(elsewhere)).TYPE == "joined"


async def test_a_closed_table_counts_no_more(connect, server, config):
    hosts = [await connect(f"host{n}") for n in range(config.tables_per_address + 1)]
    tables = [(await create(host)).table for host in hosts[:-1]]
    assert (await create(hosts[-1])).code == "too_many_tables"
    # The creator leaves its empty table: it closes, and the address may make another.
    assert (await hosts[0].request(Leave(id=new_id()))).TYPE == "ok"
    await eventually(lambda: tables[0] not in server.lobby.tables)
    assert (await create(hosts[-1])).TYPE == "joined"


@pytest.mark.server_config(tables_per_address=100, tables_per_player=2)
async def test_an_identified_player_has_its_share_from_any_address(connect, keys):  # noqa: F811
    places = [await connect("ana", source=f"127.0.0.{n}") for n in (3, 4, 5)]
    for peer in places:
        assert (await identify(peer, keys(1))).TYPE == "identified"
    assert (await create(places[0])).TYPE == "joined"
    assert (await create(places[1])).TYPE == "joined"
    refused = await create(places[2])
    assert refused.code == "too_many_tables" and "player" in refused.message
    guest = await connect("guest", source="127.0.0.5")  # the address itself is not full
    assert (await create(guest)).TYPE == "joined"


@pytest.mark.server_config(tables_per_address=1)
async def test_quick_play_tables_count_for_no_one(connect):
    first, second = await connect("first"), await connect("second")
    for peer in (first, second):
        assert (await peer.request(Queue(id=new_id(), seats=2))).TYPE == "queued"
    for peer in (first, second):
        await peer.expect("joined")
    assert (await create(await connect("host"))).TYPE == "joined"


async def from_address(server, nursery, address: str, name: str) -> Peer:
    """A peer the server serves as if it came from `address` (a memory stream): for
    addresses loopback cannot have, such as many of one IPv6 /64. It has said hello."""
    client, server_side = trio.testing.memory_stream_pair()
    nursery.start_soon(server.serve_stream, server_side, address)
    peer = Peer(client, name)
    await peer.send(Hello(versions=[1], client="test/1", name=name))
    return peer


@pytest.mark.server_config(max_per_address=2)
async def test_one_ipv6_host_is_one_address_for_connections_and_tables(server, nursery):
    # A host is usually given a whole /64: its addresses count as one, for connections as
    # for tables; an IPv4 address mapped into IPv6 is that IPv4 address.
    host = [await from_address(server, nursery, f"2001:db8:0:1::{n}", f"h{n}")
            for n in range(1, 4)]
    for peer in host[:2]:
        assert (await peer.expect("welcome")).TYPE == "welcome"
    with trio.fail_after(5):
        frames = await host[2].raw_until_closed()
    assert (frames[-1]["t"], frames[-1]["code"]) == ("error", "too_many_connections")
    other = await from_address(server, nursery, "2001:db8:0:2::1", "other")
    await other.expect("welcome")
    mapped = [await from_address(server, nursery, address, name) for address, name in
              (("127.0.0.7", "plain"), ("::ffff:127.0.0.7", "mapped"),
               ("::ffff:127.0.0.7", "third"))]
    with trio.fail_after(5):
        frames = await mapped[2].raw_until_closed()
    assert frames[-1]["code"] == "too_many_connections"


@pytest.mark.server_config(tables_per_address=1)
async def test_one_ipv6_host_makes_tables_as_one_address(server, nursery):
    first, second = [await from_address(server, nursery, f"2001:db8:0:1::{n}", f"h{n}")
                     for n in (1, 2)]
    for peer in (first, second):
        await peer.expect("welcome")
    assert (await create(first)).TYPE == "joined"
    assert (await create(second)).code == "too_many_tables"


# ------------------------------------------------------------------ a seat left before the start


async def test_a_seat_dropped_before_the_start_is_free_again_within_seconds(
        connect, config, autojump_clock):
    ana, bruno = await seat_table(connect, ["ana", "bruno"], start=False)
    await bruno.aclose()
    assert (await ana.expect("presence", seat=1)).status == "away"
    dropped = trio.current_time()
    chen = await connect("chen")
    assert (await chen.request(Join(id=new_id(), table=ana.table))).code == "table_full"
    assert (await ana.expect("presence", seat=1)).status == "left"
    assert trio.current_time() - dropped == pytest.approx(config.waiting_grace, abs=0.5)
    assert config.waiting_grace <= 5
    assert (await chen.request(Join(id=new_id(), table=ana.table))).seat == 1
    late = await connect("bruno", token=bruno.token)  # its token went with the seat
    assert (await late.expect("error")).code == "bad_token"
    assert (await chen.request(Ready(id=new_id()))).TYPE == "ok"
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"


async def test_a_player_back_within_the_waiting_grace_keeps_the_seat(
        connect, config, autojump_clock):
    ana, bruno = await seat_table(connect, ["ana", "bruno"], start=False)
    await bruno.aclose()
    assert (await ana.expect("presence", seat=1)).status == "away"
    await trio.sleep(config.waiting_grace / 2)
    back = await connect("bruno", token=bruno.token)
    assert (await back.expect("joined")).seat == 1
    await trio.sleep(config.waiting_grace * 2)
    assert (await back.request(Ready(id=new_id()))).TYPE == "ok"
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"
    await back.expect("snapshot")


async def test_the_creators_dropped_seat_hands_the_start_to_the_next_person(
        connect, autojump_clock):
    ana, bruno, chen = await seat_table(connect, ["ana", "bruno", "chen"], start=False)
    await ana.aclose()
    info = (await bruno.expect("table", where=lambda m: m.info["seats"][0]["name"] is None)
            ).info
    assert (info["creator"], info["creator_seat"]) == ("bruno", 1)
    assert (await chen.request(Ready(id=new_id()))).TYPE == "ok"
    refused = await chen.request(Start(id=new_id()))
    assert refused.code == "not_creator"
    assert (await bruno.request(Start(id=new_id()))).TYPE == "ok"
    await chen.expect("snapshot")


async def test_a_player_away_when_the_game_starts_has_the_whole_grace(
        connect, config, autojump_clock):
    ana, bruno = await seat_table(connect, ["ana", "bruno"], start=False)
    assert (await bruno.request(Ready(id=new_id()))).TYPE == "ok"
    await bruno.aclose()
    assert (await ana.expect("presence", seat=1)).status == "away"
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"  # ready, if away
    await ana.expect("snapshot")
    await trio.sleep(config.waiting_grace * 2)
    back = await connect("bruno", token=bruno.token)
    reply = await back.next()
    assert (reply.TYPE, reply.seat) == ("joined", 1)


async def test_seats_of_a_waiting_table_the_server_resumed_wait_the_whole_grace(tmp_path):
    # After a restart every player is away at once, and their clients must first find the
    # server again: a waiting table's seats are kept for the whole grace, not a few seconds.
    db = str(tmp_path / "coup.db")
    config = ServerConfig(port=0, bot_delay=0, db=db, grace=5, waiting_grace=0.1)
    async with trio.open_nursery() as nursery:
        first = Server(config)
        await nursery.start(first.serve)
        ana, bruno = await seat_table(lambda name: Peer.connect(first.address[1], name),
                                      ["ana", "bruno"], start=False)
        await eventually(lambda: [s["name"] for s in Store(db, writer=False).open_tables()[0][
            "state"]["seats"]] == ["ana", "bruno"])
        nursery.cancel_scope.cancel()
    for peer in (ana, bruno):
        await peer.aclose()
    async with trio.open_nursery() as nursery:
        second = Server(config)
        await nursery.start(second.serve)
        await trio.sleep(config.waiting_grace * 5)
        for peer in (ana, bruno):
            back = await Peer.connect(second.address[1], peer.name, token=peer.token)
            reply = await back.next()  # joined, or bad_token had the seat gone
            assert (reply.TYPE, reply.seat) == ("joined", peer.seat)
            await back.aclose()
        nursery.cancel_scope.cancel()


# ------------------------------------------------------------------ lobby chat


async def say(peer, text: str, scope: str = "lobby"):
    """`peer` says `text`; the code of the error it is answered, or "ok"."""
    reply = await peer.request(Say(id=new_id(), scope=scope, text=text))
    return reply.code if reply.TYPE == "error" else reply.TYPE


async def heard_until(peer, last: str) -> list[str]:
    """The lobby chat lines `peer` hears, up to and with the line `last`."""
    lines = []
    while not lines or lines[-1] != last:
        lines.append((await peer.expect("chat", scope="lobby")).text)
    return lines


@pytest.mark.server_config(lobby_chat_per_address=8, lobby_chat_per_minute=40)
async def test_a_lobby_chat_flood_from_one_address_reaches_others_at_its_rate(connect):
    # 8 lines a minute from an address, 2 at once; the lobby's 40 (10 at once) are not in
    # the way. Ten connections of one address say 3 lines each of 150 characters.
    viewer = await connect("viewer", source="127.0.0.3")
    flood = [await connect(f"flood{n}") for n in range(10)]
    answers = [await say(peer, f"spam {n} " + "x" * 150) for peer in flood for n in range(3)]
    assert answers.count("ok") == 2 and answers.count("rate_limited") == 28
    for peer in flood:  # refused, not closed
        assert (await peer.request(Ping(id=new_id()))).TYPE == "pong"
    neighbour = await connect("neighbour", source="127.0.0.2")
    assert await say(neighbour, "hello from next door") == "ok"
    assert await say(viewer, "the end") == "ok"
    heard = await heard_until(viewer, "the end")
    assert len(heard) == 4 and heard[2:] == ["hello from next door", "the end"]


@pytest.mark.server_config(lobby_chat_per_address=8, lobby_chat_per_minute=12)
async def test_the_whole_lobby_carries_its_rate_whatever_the_addresses(connect):
    # 12 lines a minute in all, 3 at once: six addresses, one line each.
    speakers = [await connect(f"s{n}", source=f"127.0.1.{n}") for n in range(6)]
    replies = [await speaker.request(Say(id=new_id(), scope="lobby", text="hi"))
               for speaker in speakers]
    assert [r.TYPE for r in replies] == ["ok"] * 3 + ["error"] * 3
    assert all(r.code == "rate_limited" and "lobby" in r.message for r in replies[3:])


async def test_a_lobby_chat_line_is_shorter_than_a_table_chat_line(connect, config):
    ana, bruno = await seat_table(connect, ["ana", "bruno"], start=False)
    chen = await connect("chen", source="127.0.0.2")
    limit = config.lobby_chat_length
    assert limit == 200
    refused = await chen.request(Say(id=new_id(), scope="lobby", text="x" * (limit + 1)))
    assert refused.code == "bad_message" and str(limit) in refused.message
    assert await say(chen, "y" * limit) == "ok"
    assert await say(ana, "z" * 500, scope="table") == "ok"  # the wire's bound still
    assert (await bruno.expect("chat", scope="table")).text == "z" * 500


async def test_lobby_chat_speakers_are_forgotten_once_quiet(connect, server, autojump_clock):
    # Every address that spoke has a bucket until it is full again: a stranger with many
    # addresses (an IPv6 host has a /64 of them) grows the lobby no further than its lines.
    for n in range(5):
        assert await say(await connect(f"s{n}", source=f"127.0.2.{n}"), "hi") == "ok"
    assert len(server.lobby._chatters) == 5
    await trio.sleep(60)
    assert await say(await connect("late", source="127.0.2.9"), "hi") == "ok"
    assert list(server.lobby._chatters) == ["127.0.2.9"]
