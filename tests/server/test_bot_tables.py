"""Tables of bots never hurt anyone else: they answer their members between any two bot
moves, and they do not play to an empty room (they wait for players who are away, and close
once only bots are left)."""

from __future__ import annotations

import random

import pytest
import trio

from protocol import CreateTable, Join, Leave, Say, Start
from server.table import Table
from tests.server.helpers import eventually, play
from tests.server.peer import new_id


@pytest.mark.server_config(bot_delay=0)
async def test_a_table_of_bots_reads_its_inbox_between_two_bot_moves(
        connect, server, monkeypatch):
    story: list[str] = []
    for name in ("submit", "_handle", "_play"):
        original = getattr(Table, name)

        def recorded(table, *args, _original=original, _name=name):
            item = args[1] if _name != "_play" else None
            if _name == "_play" or getattr(item, "TYPE", None) == "say":
                story.append(_name)
            return _original(table, *args)

        monkeypatch.setattr(Table, name, recorded)

    ana, watcher = await connect("ana"), await connect("watcher")
    made = await ana.request(CreateTable(id=new_id(), options={"seats": 4, "bots": "random"}))
    await watcher.request(Join(id=new_id(), table=made.table, spectate=True))
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"
    await ana.request(Leave(id=new_id()))  # a bot takes the seat: four bots play on
    for n in range(4):
        assert (await watcher.request(Say(id=new_id(), scope="table", text=f"hi {n}"))
                ).TYPE == "ok"
    await eventually(lambda: server.lobby.tables[made.table].status == "over")
    assert story.count("_handle") == 4 and story.count("_play") > 4
    for n in range(4):
        start = [i for i, step in enumerate(story) if step == "submit"][n]
        end = [i for i, step in enumerate(story) if step == "_handle"][n]
        assert story[start:end].count("_play") <= 1, story[start:end + 1]


@pytest.mark.server_config(bot_delay=2, grace=8, seed=1)
async def test_bots_wait_for_players_who_are_away_and_close_after_their_grace(
        connect, server, autojump_clock):
    ana = await connect("ana")
    made = await ana.request(CreateTable(id=new_id(), options={"seats": 3, "bots": "random"}))
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"
    await ana.expect("snapshot")
    table = server.lobby.tables[made.table]
    # Ana answers what she must until her turn comes; she hands it to the bots and goes.
    await ana.play_random(random.Random(1), stop=lambda v: v.phase == "action"
                          and list(v.waiting) == [ana.seat])
    reply = await play(ana, "income")
    assert reply.TYPE == "move_accepted", reply
    state = table.game.state_id
    await ana.aclose()
    await eventually(lambda: table.seats[0].away_since is not None)
    await trio.sleep(5)  # the bots were due 2 s after ana's move
    assert table.game.state_id == state and not table.closed
    await trio.sleep(4)  # past the grace: only bots are left, and nobody to see them
    await eventually(lambda: made.table not in server.lobby.tables)
