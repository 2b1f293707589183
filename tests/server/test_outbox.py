"""What the server holds for clients that do not read is bounded in bytes, for each client
and for all of them together; a client over its bound is told `bye slow_consumer` after
whole frames, never cut off mid-frame; and a list of tables is built once for every
request that asks for it until the tables change."""

from __future__ import annotations

import msgpack
import pytest

from protocol import CreateTable, ListTables, Tables, decode, encode_once, with_re
from server.table import Table
from tests.server.helpers import eventually
from tests.server.peer import Peer, new_id

#: Tables to list: enough to make each list_tables answer some kilobytes (all made from one
#: address, which may make that many here).
TABLES = 30


async def fill_lobby(connect, count: int = TABLES) -> None:
    for n in range(count):
        creator = await connect(f"creator{n}")
        reply = await creator.request(CreateTable(id=new_id(), options={
            "seats": 6, "name": f"a table with a longer name {n:03}"}))
        assert reply.TYPE == "joined"


async def flood_without_reading(peer: Peer, count: int) -> None:
    for _ in range(count):
        await peer.send(ListTables(id=new_id()))


def dropped(caplog) -> int:
    return sum(r.getMessage() == "slow_consumer" for r in caplog.records)


@pytest.mark.server_config(outbox_bytes=64 * 1024, tables_per_address=TABLES)
async def test_a_client_over_its_bytes_is_told_why_after_whole_frames(
        connect, server, port, caplog):
    await fill_lobby(connect)
    hoarder = await Peer.connect(port, "hoarder", rcvbuf=4096)
    await flood_without_reading(hoarder, 35)  # far more than 64 KiB of answers
    await eventually(lambda: dropped(caplog) == 1)
    # It reads at last, within the 2 s its last words wait: every frame is whole.
    frames = await hoarder.raw_until_closed()
    kinds = [f["t"] for f in frames]
    assert kinds[0] == "welcome" and set(kinds[1:-1]) == {"tables"}
    assert (frames[-1]["t"], frames[-1]["reason"]) == ("bye", "slow_consumer")
    assert 1 < kinds.count("tables") < 35
    await hoarder.aclose()


@pytest.mark.server_config(outbox_total_bytes=96 * 1024, tables_per_address=TABLES)
async def test_the_bound_for_all_clients_together_drops_those_behind(
        connect, server, port, caplog):
    await fill_lobby(connect)
    reader = await connect("reader")  # a client that reads is served all along
    assert (await reader.request(ListTables(id=new_id()))).TYPE == "tables"
    answer = len(msgpack.packb(reader.frames[-1]))
    hoarders = [await Peer.connect(port, f"hoarder{n}", rcvbuf=4096) for n in range(4)]
    for hoarder in hoarders:
        await flood_without_reading(hoarder, 8)  # each alone is within its own bound
        # Over the bound by no more than the rests of frames that began to go out.
        assert server.outboxes.used <= 96 * 1024 + len(hoarders) * answer
    assert dropped(caplog) >= 1
    assert (await reader.request(ListTables(id=new_id()))).TYPE == "tables"
    for hoarder in hoarders:
        await hoarder.aclose()


async def test_a_list_of_tables_is_built_once_until_it_changes(connect, monkeypatch):
    await fill_lobby(connect, 3)
    built = []
    summary = Table.summary

    def counted(table, members=False):
        built.append(table.id)
        return summary(table, members)

    monkeypatch.setattr(Table, "summary", counted)
    asker = await connect("asker")
    answers = [await asker.request(ListTables(id=new_id())) for _ in range(20)]
    assert len(built) == 3  # one summary per table, for twenty answers
    assert all(a.tables == answers[0].tables for a in answers)
    await (await connect("maker")).request(CreateTable(id=new_id(), options={"seats": 2}))
    after = await asker.expect("tables", where=lambda m: len(m.tables) == 4)
    assert after.re is None and len(built) > 3


async def test_an_answer_packed_once_takes_each_request_id():
    listing = encode_once(Tables(tables=[]))
    for re in (0, 7, 2**31 - 1):
        frame = msgpack.unpackb(with_re(listing, re).data)
        assert decode(frame, frozenset(["tables"])) == Tables(tables=[], re=re)
