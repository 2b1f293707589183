"""A server that plays a position (`coup serve --position FILE`): every game at its tables
starts from the position, at its size and rules, bots in the seats no one takes; nothing is
kept and nothing rated, and there is no quick play. Over real TCP."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import trio

from engine.position import Position
from protocol import CreateTable, ListGames, MoveRequest, Queue, Start
from protocol.text import printable
from server import Server, ServerConfig
from tests.server.peer import Peer, new_id

#: Seat 1 (Contessa, Assassin) has just assassinated seat 0 (Duke, Contessa); no one
#: challenged: seat 0 may block with its Contessa (R4, R7).
ASSASSINATED = """\
turn = 1

[options]
players = 3

[[seats]]
hand = ["duke", "contessa"]
coins = 2

[[seats]]
hand = ["contessa", "assassin"]
coins = 3

[[seats]]
hand = ["captain", "ambassador"]
coins = 2

[decision]
phase = "respond"
action = "assassinate"
target = 0
step = "block"
"""


async def serve(nursery, tmp_path, text: str = ASSASSINATED, **fields) -> tuple[int, Server]:
    path = tmp_path / "position.toml"
    path.write_text(text)
    server = Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                 position=str(path), **fields))
    await nursery.start(server.serve)
    return server.address[1], server


async def test_a_table_plays_the_position_with_bots_in_the_other_seats(nursery, tmp_path):
    """Asked for 4 seats, the table has the position's 3; its creator is seat 0, bots take
    the others, and the game opens where the position stands: seat 0 may block (R7.2)."""
    port, _ = await serve(nursery, tmp_path)
    ana = await Peer.connect(port, "ana")
    joined = await ana.request(CreateTable(id=new_id(), options={"seats": 4}))
    assert joined.TYPE == "joined"
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"
    snapshot = await ana.expect("snapshot")
    view = snapshot.view
    expected = Position.load(str(tmp_path / "position.toml")).game().view(0).to_dict()
    assert view == expected
    assert view["phase"] == "respond" and view["waiting"] == [0] and view["hands"][0] == [
        "duke", "contessa"]
    assert [p["bot"] for p in snapshot.players] == [None, "honest", "honest"]
    block = await ana.request(MoveRequest(id=new_id(), state_id=view["state_id"], move={
        "kind": "block", "card": "contessa"}))
    assert block.TYPE == "move_accepted"
    await ana.aclose()


async def test_nothing_is_kept_nor_rated_and_there_is_no_quick_play(nursery, tmp_path):
    db = tmp_path / "coup.db"
    port, server = await serve(nursery, tmp_path, db=str(db))
    ana = await Peer.connect(port, "ana")
    joined = await ana.request(CreateTable(id=new_id(), options={"seats": 3, "rated": True}))
    assert joined.TYPE == "joined"
    table = next(iter(server.lobby.tables.values()))
    assert table.options["rated"] is False and table.recorder is None
    bea = await Peer.connect(port, "bea")
    refused = await bea.request(Queue(id=new_id(), seats=3))
    assert (refused.TYPE, refused.code) == ("error", "bad_options")
    assert "plays one position" in refused.message
    games = await bea.request(ListGames(id=new_id()))
    assert (games.TYPE, games.code) == ("error", "no_records")
    assert not os.path.exists(db)
    await ana.aclose()
    await bea.aclose()


@pytest.mark.parametrize("text, says", [
    ("[[seats]]\nhand = ['duke', 'duke']\n[[seats]]\nhand = ['duke', 'duke']\n",
     "4 duke without the deck"),
    ("turn = [\n", "is not TOML"),
    ('"\\u001b]0;PWNED\\u0007\\u202e" = 1\n', "Unknown key(s) in the position: \\x1b]0;PWNED"),
])
async def test_coup_serve_refuses_a_position_the_rules_do_not_allow(tmp_path, text, says):
    """Refused with a sentence on one line; words quoted from the file come as escapes."""
    path = tmp_path / "bad.toml"
    path.write_text(text)
    done = await trio.to_thread.run_sync(lambda: subprocess.run(
        [sys.executable, "-m", "client.cli", "serve", "--port", "0", "--db", ":memory:",
         "--position", str(path)], capture_output=True, text=True, timeout=30))
    assert done.returncode == 2
    assert done.stderr.startswith("coup serve: --position: ") and says in done.stderr
    assert printable(done.stderr.removesuffix("\n"))


async def test_the_history_is_told_in_the_snapshot_and_the_bots_remember_it(nursery,
                                                                             tmp_path):
    story = ASSASSINATED + ('\n[[history]]\nkind = "block"\nseat = 0\ntarget = 1\n'
                            'card = "contessa"\n')
    port, server = await serve(nursery, tmp_path, story)
    ana = await Peer.connect(port, "ana")
    options = {"seats": 3, "bots": "heuristic"}
    assert (await ana.request(CreateTable(id=new_id(), options=options))).TYPE == "joined"
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"
    snapshot = await ana.expect("snapshot")
    assert snapshot.events == [{"kind": "block", "seat": 0, "target": 1, "card": "contessa"}]
    table = next(iter(server.lobby.tables.values()))
    seat_1, seat_2 = table.seats[1].bot, table.seats[2].bot
    assert seat_1.blocks[0, "contessa"] == 1 and seat_2.blocks[0, "contessa"] == 0
    assert seat_1.claims[0] == seat_2.claims[0] == {"contessa"}
    await ana.aclose()


async def test_a_reformation_position_makes_reformation_tables(nursery, tmp_path):
    """R12.1: a server that plays a Reformation position (docs/examples) opens tables with
    the option, whatever was asked: the view carries the position's factions and Almshouse,
    and the forced Coup may only name the other faction (R12.6)."""
    example = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "examples",
                           "positions", "divided_forced_coup.toml")
    with open(example, encoding="utf-8") as f:
        port, server = await serve(nursery, tmp_path, f.read())
    ana = await Peer.connect(port, "ana")
    assert (await ana.request(CreateTable(id=new_id(), options={"seats": 3}))).TYPE == "joined"
    assert next(iter(server.lobby.tables.values())).options["reformation"] is True
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"
    view = (await ana.expect("snapshot")).view
    assert view["options"]["reformation"] is True and view["almshouse"] == 3
    assert view["factions"] == ["loyalist", "reformist", "loyalist"]
    refused = await ana.request(MoveRequest(id=new_id(), state_id=view["state_id"], move={
        "kind": "coup", "target": 2}))
    assert (refused.TYPE, refused.code) == ("move_rejected", "same_faction")
    await ana.aclose()
