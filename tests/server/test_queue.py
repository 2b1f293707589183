"""Quick play over TCP: players queue (`queue`), the server forms rated tables from the queue
and seats them (`joined` with no `re`, then the game's snapshot), and fills a table with
server bots once a player has waited `queue_bot_fill` seconds. The matching itself is
checked as the pure function it is (`server.queue.match`)."""

from __future__ import annotations

import pytest
import trio

from protocol import CreateTable, Queue, Unqueue
from server.queue import Wish, match
from server.store import Store
from tests.server.helpers import eventually, play_out
from tests.server.peer import Peer, new_id


async def queue(peer: Peer, seats, variant: str | None = None):
    """`peer` asks to queue; the server's answer (queued, or an error)."""
    return await peer.request(Queue(id=new_id(), seats=seats, variant=variant))


async def seated(peer: Peer):
    """The `joined` (with no `re`) and snapshot of the table the queue seats `peer` at."""
    joined = await peer.expect("joined", re=None)
    snapshot = await peer.expect("snapshot")
    return joined, snapshot


# --------------------------------------------------------------------------- the matching


def wish(who: str, lo: int, hi: int | None = None, since: float = 0.0,
         variant: str = "base") -> Wish:
    return Wish(who, lo, lo if hi is None else hi, variant, since)


async def test_match_forms_the_largest_table_the_oldest_allows_with_the_oldest_players() -> None:
    waiting = [wish("a", 2, 4), wish("b", 3, 4), wish("c", 4), wish("d", 2, 6), wish("e", 4)]
    [table] = match(waiting, now=0, fill_after=0)
    assert table.seats == 4 and table.bots == 0
    assert [w.who for w in table.players] == ["a", "b", "c", "d"]


async def test_match_waits_while_too_few_allow_a_size_and_never_mixes_variants() -> None:
    waiting = [wish("a", 3), wish("b", 3, variant="inquisitor"), wish("c", 2, 3),
               wish("d", 4)]
    assert match(waiting, now=100, fill_after=0) == []


async def test_match_forms_every_table_it_can_at_once() -> None:
    waiting = [wish("a", 2), wish("b", 3), wish("c", 2), wish("d", 3), wish("e", 3)]
    tables = match(waiting, now=0, fill_after=0)
    assert sorted([w.who for w in t.players] for t in tables) == [["a", "c"], ["b", "d", "e"]]


async def test_match_fills_with_bots_after_the_wait_where_most_players_fit() -> None:
    waiting = [wish("a", 2, 5, since=0), wish("b", 3, since=5), wish("c", 5, 6, since=6)]
    assert match(waiting, now=9.9, fill_after=10) == []
    [table] = match(waiting, now=10, fill_after=10)
    # 3 seats fit a and b, 5 seats a and c: the larger of the two, with 3 bots.
    assert (table.seats, [w.who for w in table.players], table.bots) == (5, ["a", "c"], 3)
    [alone] = match([wish("a", 2, 4)], now=10, fill_after=10)
    assert (alone.seats, alone.bots) == (4, 3)


# --------------------------------------------------------------------------- over TCP


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6])
async def test_a_table_of_every_size_forms_from_the_queue(connect, size) -> None:
    peers = [await connect(f"p{i}") for i in range(size)]
    for count, peer in enumerate(peers[:-1], 1):
        answer = await queue(peer, size)
        assert (answer.TYPE, answer.waiting) == ("queued", count)
    assert (await queue(peers[-1], size)).waiting == size
    tables = set()
    for seat, peer in enumerate(peers):
        joined, snapshot = await seated(peer)
        assert (joined.seat, joined.token is not None) == (seat, True)
        assert len(snapshot.players) == size
        assert all(p["bot"] is None for p in snapshot.players)
        tables.add(joined.table)
    info = await peers[0].expect("table")
    assert info.info["options"]["rated"] is True and info.info["status"] == "playing"
    assert len(tables) == 1


async def test_ranges_combine_into_the_largest_table_everyone_allows(connect) -> None:
    ana, bo, cy, dee = [await connect(n) for n in ("ana", "bo", "cy", "dee")]
    await queue(ana, {"min": 3, "max": 4})
    await queue(bo, {"min": 2, "max": 3})
    assert (await queue(cy, 4)).waiting == 2  # bo's range stops short of 4: not like cy's
    # 4 seats: ana, cy and dee allow it, one too few; 3 seats: ana, bo and dee, at once.
    assert (await queue(dee, {"min": 2, "max": 6})).waiting == 4
    for seat, peer in enumerate((ana, bo, dee)):
        joined, snapshot = await seated(peer)
        assert (joined.seat, len(snapshot.players)) == (seat, 3)
    assert (await cy.expect("queue_status")).waiting == 1


async def test_waiting_players_hear_the_count_change(connect) -> None:
    ana, bo, cy = [await connect(n) for n in ("ana", "bo", "cy")]
    await queue(ana, 4)
    await queue(bo, {"min": 3, "max": 6})
    assert (await ana.expect("queue_status")).waiting == 2
    assert (await bo.request(Unqueue(id=new_id()))).TYPE == "ok"
    assert (await ana.expect("queue_status")).waiting == 1
    await queue(cy, 2)  # not like ana's: no news for ana
    with trio.move_on_after(1):
        assert (await ana.expect("queue_status")) is None


@pytest.mark.server_config(queue_bot_fill=30, bot_strategies="random,heuristic")
async def test_after_the_wait_bots_fill_the_table(connect, autojump_clock) -> None:
    ana = await connect("ana")
    await queue(ana, {"min": 2, "max": 3})
    start = trio.current_time()
    joined, snapshot = await seated(ana)
    assert trio.current_time() - start == pytest.approx(30, abs=1)
    # The level hard, which the heuristic plays.
    assert [p["bot"] for p in snapshot.players] == [None, "heuristic", "heuristic"]
    await play_out([ana])


@pytest.mark.server_config(queue_bot_fill=5, bot_strategies="random")
async def test_a_server_without_the_heuristic_fills_with_its_first_strategy(
        connect, autojump_clock) -> None:
    ana = await connect("ana")
    await queue(ana, 2)
    _, snapshot = await seated(ana)
    assert [p["bot"] for p in snapshot.players] == [None, "random"]


async def test_leaving_or_disconnecting_leaves_the_queue(connect, server) -> None:
    ana, bo, cy = [await connect(n) for n in ("ana", "bo", "cy")]
    await queue(ana, 2)
    await ana.aclose()
    await eventually(lambda: not server.lobby.quick.wishes)
    await queue(bo, 2)
    assert (await bo.request(Unqueue(id=new_id()))).TYPE == "ok"
    assert (await bo.request(Unqueue(id=new_id()))).TYPE == "ok"  # not queued: still ok
    assert (await queue(cy, 2)).waiting == 1
    # Sitting at a table leaves the queue too.
    assert (await cy.request(CreateTable(id=new_id(), options={"seats": 2}))).TYPE == "joined"
    assert not server.lobby.quick.wishes


async def test_refusals(connect) -> None:
    ana, bo = await connect("ana"), await connect("bo")
    await queue(ana, 3)
    again = await queue(ana, 2)
    assert (again.TYPE, again.code) == ("error", "already_queued")
    await bo.request(CreateTable(id=new_id(), options={"seats": 2}))
    at_table = await queue(bo, 2)
    assert (at_table.TYPE, at_table.code) == ("error", "already_at_table")
    cy = await connect("cy")
    backwards = await queue(cy, {"min": 5, "max": 3})
    assert (backwards.TYPE, backwards.code) == ("error", "bad_options")
    await cy.send_map({"t": "queue", "id": 99, "seats": 7})  # our client would not send it
    too_many = await cy.reply(99)
    assert (too_many.TYPE, too_many.code) == ("error", "bad_message")


async def test_a_game_from_the_queue_is_stored_rated(nursery, tmp_path) -> None:
    """Quick play forms rated tables; the game is rated when two identified people sit
    down (docs/SERVER.md: guests play unrated)."""
    from client.identity import load
    from server import Server, ServerConfig
    from tests.server.test_identity import identify

    path = str(tmp_path / "coup.db")
    srv = Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0, db=path))
    await nursery.start(srv.serve)
    peers = [await Peer.connect(srv.address[1], name) for name in ("ana", "bo")]
    for peer in peers:
        assert (await identify(peer, load(str(tmp_path / f"{peer.name}.pem")))).TYPE == \
            "identified"
    for peer in peers:
        await queue(peer, 2)
    for peer in peers:
        await seated(peer)
    await play_out(peers)
    game = peers[0].view
    assert game.over
    await eventually(lambda: Store(path, writer=False).finished())
    reader = Store(path, writer=False)
    conn = reader._reader()
    try:
        assert conn.execute("SELECT rated FROM games").fetchall() == [(1,)]
    finally:
        conn.close()
    for peer in peers:
        await peer.aclose()
    nursery.cancel_scope.cancel()


@pytest.mark.server_config(max_tables=1)
async def test_a_server_with_all_the_tables_it_allows_queues_no_one(connect) -> None:
    """The queue makes tables, so it keeps to --max-tables as create_table does."""
    ana, bo = await connect("ana"), await connect("bo")
    await ana.request(CreateTable(id=new_id(), options={"seats": 2}))
    refused = await queue(bo, 2)
    assert (refused.TYPE, refused.code) == ("error", "too_many_tables")
