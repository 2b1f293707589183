"""`coup bot` at a table whose server cannot save the game for a while (issue 15): the
server says `paused`, then that play goes on; the runner lets both pass and plays the game
to its end."""

from __future__ import annotations

import pytest
import trio

from client.runner import BotRunner, Seating
from engine.bots import make
from server import Server, ServerConfig
from tests.server.helpers import FullDisk


@pytest.mark.trio
async def test_the_runner_plays_on_through_a_pause(tmp_path, monkeypatch) -> None:
    server = Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                 db=str(tmp_path / "coup.db")))
    disk = FullDisk(monkeypatch, full=False)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            await nursery.start(server.serve)
            port = server.address[1]
            host = BotRunner("127.0.0.1", port, make("random", seed=1), name="host",
                             seating=Seating(create=2))
            nursery.start_soon(host.run)
            while host.table is None:
                await trio.sleep(0.01)
            guest = BotRunner("127.0.0.1", port, make("random", seed=2), name="guest",
                              seating=Seating(table=host.table))
            table = server.lobby.tables[host.table]
            disk.full = True
            nursery.start_soon(guest.run)
            while not table.handover.paused:
                await trio.sleep(0.01)
            await trio.sleep(0.3)
            disk.full = False
            while host.played < 1 or guest.played < 1:
                await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
    assert host.played == guest.played == 1
