"""The shortest complete path: two people create, join, ready, and play a game to its end."""

from __future__ import annotations

import random

import pytest
import trio

from protocol import CreateTable, Join, Ready
from tests.server.peer import new_id


@pytest.mark.trio
async def test_two_players_finish_a_game(connect):
    a = await connect("ana")
    b = await connect("bruno")
    joined = await a.request(CreateTable(id=new_id(), options={"seats": 2}))
    assert joined.TYPE == "joined" and joined.seat == 0
    j2 = await b.request(Join(id=new_id(), table=joined.table))
    assert j2.seat == 1
    assert (await a.request(Ready(id=new_id()))).TYPE == "ok"
    assert (await b.request(Ready(id=new_id()))).TYPE == "ok"
    async with trio.open_nursery() as n:
        n.start_soon(a.play_random, random.Random(1))
        n.start_soon(b.play_random, random.Random(2))
    assert a.view.over and b.view.over and a.view.winner == b.view.winner
