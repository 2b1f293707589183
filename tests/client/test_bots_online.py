"""Bots over real TCP: the bare-socket example bot of docs/examples plays a full game
against the server and three SDK bots, the SDK runner plays games with rematches, and
`coup bot --table` finds a table by its id or by the name the lobby shows (issue 13)."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest
import trio

from client import transport
from client.net import LinkError
from client.runner import BotRunner, Seating
from engine.bots import make
from protocol import CreateTable, Queue
from tests.server.peer import Peer, new_id

RAW_BOT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "raw_bot.py"


@pytest.mark.trio
async def test_the_raw_socket_bot_plays_a_full_game_against_sdk_bots(port: int) -> None:
    """docs/examples/raw_bot.py creates a table; three SDK bots find it in the lobby; the
    game is played to the end and the raw bot exits 0."""
    runners = [BotRunner("127.0.0.1", port, make("heuristic", seed=s), name=f"sdk{s}")
               for s in range(3)]
    done = {}

    async def raw_bot() -> None:
        done["raw"] = await trio.run_process(
            [sys.executable, str(RAW_BOT), "--port", str(port), "--create", "4"],
            capture_stdout=True, capture_stderr=True, check=False)

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(raw_bot)
            for runner in runners:
                nursery.start_soon(runner.run)
    raw = done["raw"]
    assert raw.returncode == 0, raw.stderr
    assert b"game over" in raw.stdout
    assert all(r.played == 1 for r in runners)


@pytest.mark.trio
async def test_the_runner_plays_several_games_with_rematches(port: int) -> None:
    """--create, then joining by table id; three games, each winner starting the next."""
    creator = BotRunner("127.0.0.1", port, make("honest", seed=1), name="host",
                        seating=Seating(create=2), games=3)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(creator.run)
        while creator.table is None:
            await trio.sleep(0.01)
        guest = BotRunner("127.0.0.1", port, make("random", seed=2), name="guest",
                          seating=Seating(table=creator.table), games=3)
        nursery.start_soon(guest.run)
    assert creator.played == guest.played == 3
    assert creator.wins + guest.wins == 3


@pytest.fixture
async def open_table(port: int):
    """open_table(owner, name) -> the id of a public two-seat table named `name`, created by
    a connection kept open until the test ends (a table lives while its creator sits)."""
    peers = []

    async def _open(owner: str, name: str) -> str:
        peer = await Peer.connect(port, owner)
        peers.append(peer)
        joined = await peer.request(CreateTable(id=new_id(), options={"seats": 2,
                                                                      "name": name}))
        assert joined.TYPE == "joined"
        return joined.table

    yield _open
    for peer in peers:
        await peer.aclose()


@pytest.mark.trio
async def test_coup_bot_table_takes_the_name_the_lobby_shows(port: int, open_table) -> None:
    """--table "HOST'S TABLE": no table has that id, one is named "host's table" (its
    creator's default): the guest sits there, in any case, and the game is played."""
    await open_table("ana", "Other")
    creator = BotRunner("127.0.0.1", port, make("honest", seed=1), name="host",
                        seating=Seating(create=2))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(creator.run)
        while creator.table is None:
            await trio.sleep(0.01)
        guest = BotRunner("127.0.0.1", port, make("random", seed=2), name="guest",
                          seating=Seating(table="HOST'S TABLE"))
        nursery.start_soon(guest.run)
    assert guest.table == creator.table and guest.played == creator.played == 1


@pytest.mark.trio
async def test_coup_bot_table_by_id_comes_before_a_name(port: int, open_table) -> None:
    first = await open_table("ana", "Duel")
    second = await open_table("bruno", first)  # a table named like the other's id
    guest = BotRunner("127.0.0.1", port, make("random", seed=2), name="guest",
                      seating=Seating(table=first))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(guest.run)
        while guest.table is None:
            await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert guest.table == first != second


@pytest.mark.trio
async def test_coup_bot_table_names_the_ids_when_several_tables_share_a_name(
        port: int, open_table) -> None:
    ids = [await open_table(owner, "Duel") for owner in ("ana", "bruno")]
    guest = BotRunner("127.0.0.1", port, make("random", seed=2), seating=Seating(table="duel"))
    with pytest.raises(LinkError) as raised:
        await guest.run()
    message = str(raised.value)
    assert "2 tables are named 'duel'" in message and all(i in message for i in ids)
    assert guest.table is None


@pytest.mark.trio
async def test_coup_bot_table_says_when_no_table_has_that_id_or_name(
        port: int, open_table) -> None:
    await open_table("ana", "Duel")
    guest = BotRunner("127.0.0.1", port, make("random", seed=2), seating=Seating(table="Trio"))
    with pytest.raises(LinkError, match="no table has the id or name 'Trio'; the tables "
                                        r"are Duel \("):
        await guest.run()


@pytest.mark.trio
async def test_a_bot_whose_connection_drops_in_the_queue_queues_again(port: int,
                                                                       monkeypatch) -> None:
    """The queue forgets a connection that drops: the runner opens a new one and queues
    again, and plays its games when a second bot comes (before, it reopened with the token
    it had none of, and stopped)."""
    queued = []

    class DroppingLink(transport.Link):
        async def send(self, msg) -> None:
            await super().send(msg)
            if isinstance(msg, Queue):
                queued.append(msg)
                if len(queued) == 1:
                    self.stream.socket.shutdown(socket.SHUT_RDWR)

    monkeypatch.setattr(transport, "Link", DroppingLink)
    first, second = [BotRunner("127.0.0.1", port, make("heuristic", seed=s), name=f"q{s}",
                               seating=Seating(queue=2), games=2) for s in range(2)]
    with trio.fail_after(30):
        async with trio.open_nursery() as players:
            players.start_soon(first.run)
            while len(queued) < 2:  # dropped alone in the queue, and queued again
                await trio.sleep(0.01)
            players.start_soon(second.run)
    assert [first.played, second.played] == [2, 2]


@pytest.mark.trio
async def test_the_runner_plays_games_back_to_back_from_the_queue(port: int) -> None:
    """Three bots queue (--queue: 3 seats; 2 to 3; 3 to 6) and play four rated games, each
    at a new table the queue forms: after each game they leave and queue again."""
    wanted = [3, {"min": 2, "max": 3}, {"min": 3, "max": 6}]
    runners = [BotRunner("127.0.0.1", port, make("heuristic", seed=s), name=f"q{s}",
                         seating=Seating(queue=seats), games=4)
               for s, seats in enumerate(wanted)]
    tables: list[set[str]] = [set() for _ in runners]

    async def watch() -> None:
        while True:
            for runner, seen in zip(runners, tables):
                if runner.table:
                    seen.add(runner.table)
            await trio.sleep(0.001)

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(watch)
            async with trio.open_nursery() as players:
                for runner in runners:
                    players.start_soon(runner.run)
            nursery.cancel_scope.cancel()
    assert [r.played for r in runners] == [4, 4, 4]
    assert sum(r.wins for r in runners) == 4
    assert tables[0] == tables[1] == tables[2] and len(tables[0]) == 4
