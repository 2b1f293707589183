"""A bot in any language at a real server (issue 33): `coup bot HOST:PORT --exec CMD` plays
the example bots of docs/examples/bots through the network runner, against an SDK bot; and a
bot process that breaks mid-game hands its seat to the fallback strategy, which plays the
game to its end, with one line on stderr for its author."""

from __future__ import annotations

import sys

import pytest
import trio

from client.botproc import ExecStrategy
from client.runner import BotRunner, Seating
from engine.bots import make
from tests.client.test_exec_bots import EXAMPLES
from tests.client.test_exec_misbehaving import bot_file, gone, on_decide, pids


@pytest.mark.trio
@pytest.mark.parametrize("command", EXAMPLES)
async def test_coup_bot_exec_plays_an_example_bot_over_the_network(port, command):
    """The example creates a two-seat table; the SDK bot finds it in the lobby; both play
    the game to its end, and `coup bot` exits 0 having played it, nothing broken."""
    sdk = BotRunner("127.0.0.1", port, make("heuristic", seed=1), name="sdk")
    done = {}

    async def exec_bot() -> None:
        done["bot"] = await trio.run_process(
            [sys.executable, "-m", "client.cli", "bot", f"127.0.0.1:{port}", "--exec", command,
             "--create", "2", "--name", "liner"],
            capture_stdout=True, capture_stderr=True, check=False)

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(exec_bot)
            nursery.start_soon(sdk.run)
    bot = done["bot"]
    assert bot.returncode == 0, bot.stderr
    assert b"liner: 1 games" in bot.stdout
    assert b"coup: bot" not in bot.stderr
    assert sdk.played == 1


@pytest.mark.trio
@pytest.mark.parametrize("misdeed,seconds,says", [
    ("sys.exit(4)", 5.0, "exited with code 4"),
    ("time.sleep(60)", 0.5, "gave no move within 0.5 s"),
    ('say({"move": 999})', 5.0, "chose move 999"),
], ids=["crash", "hang", "illegal"])
async def test_a_broken_bot_at_a_server_is_played_on_by_the_fallback(port, tmp_path, misdeed,
                                                                    seconds, says):
    """The bot breaks at its first decision: the fallback plays the seat on, the game ends,
    the runner has played it; one line said why; the process is gone."""
    said: list[str] = []
    bot = ExecStrategy(bot_file(tmp_path, on_decide(misdeed)), seconds=seconds, logs=tmp_path,
                       report=said.append)
    runner = BotRunner("127.0.0.1", port, bot, name="rogue", seating=Seating(create=2),
                       fallback=make("heuristic", seed=3))
    other = BotRunner("127.0.0.1", port, make("heuristic", seed=4), name="steady")
    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(runner.run)
                nursery.start_soon(other.run)
    finally:
        bot.close()
    assert runner.played == 1 and other.played == 1
    assert runner.strategy is runner.fallback
    assert len(said) == 1 and says in said[0] and "rogue" in said[0]
    assert bot.stderr_file is not None
    assert all(gone(pid) for pid in pids(bot.stderr_file))
