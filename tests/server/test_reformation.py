"""Reformation tables over TCP (rules.md R12): created with the option, listed as such,
played to the end by people with a spectator watching, queued for, and recorded."""

from __future__ import annotations

import pytest

from engine import record as records
from engine.cards import faction_deal
from protocol import CreateTable, GetGame, Join, ListGames, ListTables, Queue
from server import ServerConfig
from tests.server.helpers import play, play_out, seat_table
from tests.server.peer import Peer, new_id


@pytest.fixture
def config(tmp_path) -> ServerConfig:
    """A server with a store, so that finished games have records."""
    return ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                        db=str(tmp_path / "coup.db"))


async def spectate(connect, name: str, table: str) -> Peer:
    peer = await connect(name)
    assert (await peer.request(Join(id=new_id(), table=table, spectate=True))).TYPE == "joined"
    return peer


@pytest.mark.parametrize("seats, options", [
    (2, {"variant": "inquisitor"}), (3, {}), (5, {"two_player_draft": False}),
])
async def test_R12_people_finish_a_reformation_game_and_a_spectator_sees_factions(
        connect, seats, options) -> None:
    """R12.18: the spectator's views carry the factions, the Almshouse and the status; the
    game plays to one winner with the coins held (R12.10.4); its record carries the option
    and replays through the engine (R12.1)."""
    names = ["ana", "bruno", "chen", "dara", "eli"][:seats]
    peers = await seat_table(connect, names, reformation=True, **options)
    watcher = await spectate(connect, "gil", peers[0].table)
    first = (await watcher.expect("snapshot")).view
    assert first["options"]["reformation"] is True
    assert first["factions"] == faction_deal(seats, first["first_seat"])  # R12.3
    assert (first["almshouse"], first["unified"]) == (0, False)
    await play_out(peers, seed=seats)
    final = (await watcher.expect("update", where=lambda m: m.view["phase"] == "over")).view
    assert final["treasury"] + final["almshouse"] + sum(final["coins"]) == 50
    assert all(p.view.over and p.view.winner == final["winner"] for p in peers)
    page = await watcher.request(ListGames(id=new_id()))
    record = (await watcher.request(GetGame(id=new_id(), game=page.games[0]["game"]))).record
    assert record["options"]["reformation"] is True
    assert records.check(record).winner == final["winner"]


async def test_R12_9_a_conversion_reaches_every_seat_and_the_spectator(connect) -> None:
    """R12.9, R12.18: the Conversion is public, with its cost, target and new faction."""
    peers = await seat_table(connect, ["ana", "bruno", "chen"], reformation=True)
    watcher = await spectate(connect, "gil", peers[0].table)
    await watcher.expect("snapshot")
    actor = next(p for p in peers if p.seat == p.view.actor)
    assert (await play(actor, "convert", target=actor.seat)).TYPE == "move_accepted"
    update = await watcher.expect("update")
    convert = next(e for e in update.events if e["kind"] == "convert")
    assert convert == {"kind": "convert", "seat": actor.seat, "target": actor.seat,
                       "amount": 1, "faction": "reformist"}
    assert update.view["almshouse"] == 1 and update.view["factions"][actor.seat] == "reformist"


async def test_R12_1_the_lobby_lists_a_reformation_table_as_such(connect) -> None:
    """R12.1: create_table takes the option; the table's summary says so; a base table's
    summary has no such key (as before the expansion)."""
    ana, bruno = await connect("ana"), await connect("bruno")
    reform = await ana.request(CreateTable(id=new_id(), options={"seats": 3,
                                                                 "reformation": True}))
    base = await bruno.request(CreateTable(id=new_id(), options={"seats": 3}))
    tables = {t["table"]: t for t in (await ana.request(ListTables(id=new_id()))).tables}
    assert tables[reform.table]["options"]["reformation"] is True
    assert "reformation" not in tables[base.table]["options"]


async def test_R12_1_quick_play_forms_reformation_tables_apart(connect) -> None:
    """R12.1: a player may queue for Reformation; such wishes never mix with base ones."""
    ana, bo, cy = [await connect(n) for n in ("ana", "bo", "cy")]
    assert (await ana.request(Queue(id=new_id(), seats=2, reformation=True))).waiting == 1
    assert (await cy.request(Queue(id=new_id(), seats=2))).waiting == 1
    assert (await bo.request(Queue(id=new_id(), seats=2, reformation=True))).waiting == 2
    for peer in (ana, bo):
        await peer.expect("joined", re=None)
        snapshot = await peer.expect("snapshot")
        assert snapshot.view["options"]["reformation"] is True
        assert len(snapshot.view["factions"]) == 2
    assert ana.table == bo.table and cy.table is None
