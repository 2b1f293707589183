"""What the lobby keeps stays bounded and final: wrong private codes are counted for at most
lobby.CODE_ADDRESSES addresses (and the others share one count, so no number of addresses
guesses faster), and a table that failed is closed in the store, so a server restarted on
the same file does not resume it to fail again."""

from __future__ import annotations

import trio

from protocol import CreateTable, Join, Ready
from server import Server, ServerConfig, lobby
from server.store import Store
from tests.server.helpers import eventually, fail_table_named, seat_table
from tests.server.peer import Peer, new_id

WRONG = "AAAA-AAAA-AAAA"


async def guess(peer: Peer, code: str = WRONG) -> str:
    reply = await peer.request(Join(id=new_id(), code=code))
    return reply.code if reply.TYPE == "error" else reply.TYPE


async def test_wrong_codes_are_counted_for_the_addresses_that_tried_last_and_no_more(
        connect, server, monkeypatch, autojump_clock):
    monkeypatch.setattr(lobby, "CODE_ADDRESSES", 3)
    ana = await connect("ana", source="127.0.0.9")
    made = await ana.request(CreateTable(id=new_id(), options={"seats": 4, "private": True}))
    first, second, third, fourth, fifth = [await connect(f"p{n}", source=f"127.0.0.{n}")
                                           for n in range(1, 6)]
    for peer in (first, second, third):
        assert await guess(peer) == "no_such_table"
    for _ in range(lobby.CODE_TRIES - 1):
        assert await guess(third) == "no_such_table"
    # Three addresses are counted, none forgiven: the next ones share one count.
    for peer in (fourth, fifth) * 2 + (fourth,):
        assert await guess(peer) == "no_such_table"
    for peer in (fourth, fifth, third):
        assert await guess(peer, made.code) == "too_many_attempts"
    assert len(server.lobby._code_tries) == 3

    # Once the address that tried longest ago is forgiven, it makes room for a newcomer;
    # a recent one keeps its count.
    await trio.sleep(lobby.CODE_RETRY + 1)
    assert await guess(fourth) == "no_such_table"
    assert list(server.lobby._code_tries) == ["127.0.0.2", "127.0.0.3", "127.0.0.4"]
    assert await guess(third) == "no_such_table"
    assert await guess(third, made.code) == "too_many_attempts"


async def served(nursery, db: str) -> Server:
    server = Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0, db=db))
    await nursery.start(server.serve)
    return server


async def test_a_failed_table_is_not_resumed_by_a_server_restarted_on_its_file(
        tmp_path, monkeypatch):
    db = str(tmp_path / "coup.db")
    kept = lambda: {t["name"] for t in Store(db, writer=False).open_tables()}  # noqa: E731
    async with trio.open_nursery() as nursery:
        first = await served(nursery, db)
        connect = lambda name: Peer.connect(first.address[1], name)  # noqa: E731
        healthy = await seat_table(connect, ["ana", "bruno"], start=False, name="healthy")
        doomed = await seat_table(connect, ["chen", "dara"], start=False, name="doomed")
        await eventually(lambda: kept() == {"healthy", "doomed"})
        fail_table_named(monkeypatch, "doomed")
        await doomed[0].send(Ready(id=new_id()))
        await doomed[0].expect("error", code="table_failed")
        await eventually(lambda: kept() == {"healthy"})
        nursery.cancel_scope.cancel()  # the lobby closes the store when its writer is done
    for peer in healthy + doomed:
        await peer.aclose()
    async with trio.open_nursery() as nursery:
        second = await served(nursery, db)
        assert [t.name for t in second.lobby.tables.values()] == ["healthy"]
        nursery.cancel_scope.cancel()
