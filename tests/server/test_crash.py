"""`coup serve --db` killed with SIGKILL in the middle of fifty games, three times, and
started again on the same file each time: networked bots (the `coup bot` runner) come back
with their tokens and finish every game, and every stored record replays through the
engine to the result the players saw, with no move a player saw accepted missing or
doubled."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time

import pytest
import trio

from client.runner import BotRunner, Seating
from engine import record as records
from engine.bots.random import RandomStrategy
from server.store import Store
from tests.ports import free_port

COUP = [sys.executable, "-c", "import sys; from client.cli import main; sys.exit(main())"]
TABLES = 50
KILLS = 3


class Witness(RandomStrategy):
    """A random bot that notes what its seat saw: the latest state id, and the winner."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seen = -1
        self.winner: int | None = None

    def choose(self, view, moves):
        time.sleep(0.03)  # a person's pace, roughly: the kills land mid-game
        self.seen = max(self.seen, view.state_id)
        return super().choose(view, moves)

    def observe(self, view, events):
        self.seen = max(self.seen, view.state_id)

    def game_over(self, view):
        self.seen = max(self.seen, view.state_id)
        self.winner = view.winner



async def start(db: str, port: int, *flags: str, within: tuple[str, ...] = ()
                ) -> trio.Process:
    """The server (with the other `flags` given, run by the command `within` if given),
    once it says it listens."""
    process = await trio.lowlevel.open_process(
        [*within, *COUP, "serve", "--port", str(port), "--db", db, "--log-json",
         "--turn-clock", "0", "--response-clock", "0", "--max-per-address", str(4 * TABLES),
         "--tables-per-address", str(TABLES), *flags], stderr=subprocess.PIPE)
    buffer = b""
    with trio.fail_after(20):
        while b'"listening"' not in buffer:
            data = await process.stderr.receive_some(65536)
            assert data, buffer.decode()
            buffer += data
    return process


@pytest.mark.time_limit(150)
async def test_kill_9_three_times_and_every_game_finishes_as_the_players_saw_it(tmp_path):
    db = str(tmp_path / "coup.db")
    port = free_port()
    rng = random.Random(15)
    process = await start(db, port)
    witnesses = [Witness(seed) for seed in range(2 * TABLES)]
    runners = []
    try:
        async with trio.open_nursery() as nursery:
            for n in range(TABLES):  # two bots a table: one creates it, one joins it
                creator = BotRunner("127.0.0.1", port, witnesses[2 * n], name=f"a{n}",
                                    seating=Seating(create=2))
                nursery.start_soon(creator.run)
                while creator.table is None:
                    await trio.sleep(0.005)
                joiner = BotRunner("127.0.0.1", port, witnesses[2 * n + 1], name=f"b{n}",
                                   seating=Seating(table=creator.table))
                nursery.start_soon(joiner.run)
                runners += [creator, joiner]
            with trio.fail_after(30):
                while not all(w.seen >= 2 for w in witnesses):
                    await trio.sleep(0.05)
            for _ in range(KILLS):
                await trio.sleep(rng.uniform(0.2, 1.0))
                process.send_signal(signal.SIGKILL)
                await process.wait()
                process = await start(db, port)
    finally:
        process.send_signal(signal.SIGTERM)
        with trio.move_on_after(10):
            await process.wait()
        if process.returncode is None:
            process.kill()

    store = Store(db, writer=False)
    played = list(store.export())
    assert len(played) == TABLES
    seen = {}
    for runner, witness in zip(runners, witnesses):
        seen.setdefault(runner.table, []).append(witness)
    assert len(seen) == TABLES
    for record in played:
        game = records.check(record)  # replays, move by move, at the state ids recorded
        two = seen[record["table"]]
        assert {w.winner for w in two} == {game.winner}
        # every move a player saw accepted is there, once
        assert len(record["moves"]) == game.state_id >= max(w.seen for w in two)
        assert [m["state_id"] for m in record["moves"]] == list(range(game.state_id))
    assert all(w.winner is not None for w in witnesses)
