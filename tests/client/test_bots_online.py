"""Bots over real TCP: the bare-socket example bot of docs/examples plays a full game
against the server and three SDK bots, and the SDK runner plays games with rematches."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import trio

from client.runner import BotRunner, Seating
from engine.bots import make
from server import Server, ServerConfig

RAW_BOT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "raw_bot.py"


@pytest.fixture
async def port(nursery):
    server = Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0))
    await nursery.start(server.serve)
    yield server.address[1]
    nursery.cancel_scope.cancel()


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
