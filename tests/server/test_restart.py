"""`coup serve --db` stopped by a signal, as a service manager stops it, with real `coup bot`
runners seated: SIGTERM is a restart (the tables are kept, the clients told to come back,
and they take their seats back from the next process and finish the game at the same table),
SIGINT a shutdown that ends the games (abandoned: no result; the tokens are refused and the
next start resumes nothing). Each server is a real process on the same store file."""

from __future__ import annotations

import json
import signal
import sqlite3
from functools import partial

import pytest
import trio

from client.runner import BotRunner, Dismissed, Seating
from server.store import Store

from .helpers import seat_table
from .peer import Peer
from tests.ports import free_port

from .test_crash import Witness, start


async def stopped(process: trio.Process, signum: int) -> list[dict]:
    """Signal `process` and return what it logged until it exited (with status 0)."""
    process.send_signal(signum)
    lines = b""
    with trio.fail_after(10):
        while data := await process.stderr.receive_some(65536):
            lines += data
        assert await process.wait() == 0
    return [json.loads(line) for line in lines.decode().splitlines()
            if line.startswith("{")]


async def seated_pair(nursery: trio.Nursery, port: int) -> tuple[list[BotRunner],
                                                                 list[Witness]]:
    """Two `coup bot` runners at one table, playing: one made it, one joined it."""
    witnesses = [Witness(1), Witness(2)]
    creator = BotRunner("127.0.0.1", port, witnesses[0], name="ana", seating=Seating(create=2))
    nursery.start_soon(creator.run)
    while creator.table is None:
        await trio.sleep(0.005)
    joiner = BotRunner("127.0.0.1", port, witnesses[1], name="bo",
                       seating=Seating(table=creator.table))
    nursery.start_soon(joiner.run)
    with trio.fail_after(10):
        while not all(w.seen >= 2 for w in witnesses):
            await trio.sleep(0.01)
    return [creator, joiner], witnesses


def stored(db: str, query: str) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(query).fetchall()


@pytest.mark.time_limit(40)
async def test_sigterm_restarts_and_the_bots_finish_their_game_at_the_same_table(tmp_path):
    db = str(tmp_path / "coup.db")
    port = free_port()
    process = await start(db, port)
    try:
        async with trio.open_nursery() as nursery:
            runners, witnesses = await seated_pair(nursery, port)
            table = runners[0].table
            for _ in range(2):  # quick restarts, one after the other: no table piles up
                seen = min(w.seen for w in witnesses)
                events = await stopped(process, signal.SIGTERM)
                said = {e["event"] for e in events}
                assert "table_kept" in said and "table_closed" not in said, events
                process = await start(db, port)
                with trio.fail_after(10):  # back in their seats, and the game goes on
                    while min(w.seen for w in witnesses) <= seen + 2:
                        await trio.sleep(0.01)
                assert stored(db, "SELECT count(*) FROM tables WHERE closed IS NULL") == [(1,)]
        assert all(w.winner is not None for w in witnesses)
        assert {r.table for r in runners} == {table}
        assert stored(db, "SELECT id FROM tables") == [(table,)]
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


@pytest.mark.time_limit(40)
async def test_sigint_ends_the_games_and_the_next_start_resumes_none(tmp_path):
    db = str(tmp_path / "coup.db")
    port = free_port()
    process = await start(db, port)
    dismissed = []

    async def play(runner: BotRunner) -> None:
        try:
            await runner.run()
        except Dismissed as exc:
            dismissed.append(str(exc))

    try:
        async with trio.open_nursery() as nursery:
            witnesses = [Witness(1), Witness(2)]
            runners = [BotRunner("127.0.0.1", port, witnesses[0], name="ana",
                                 seating=Seating(create=2))]
            nursery.start_soon(play, runners[0])
            while runners[0].table is None:
                await trio.sleep(0.005)
            runners.append(BotRunner("127.0.0.1", port, witnesses[1], name="bo",
                                     seating=Seating(table=runners[0].table)))
            nursery.start_soon(play, runners[1])
            with trio.fail_after(10):
                while not all(w.seen >= 2 for w in witnesses):
                    await trio.sleep(0.01)
            tokens = [r.token for r in runners]
            events = await stopped(process, signal.SIGINT)
        # Each bot was told the server stopped for good, and gave up at once.
        assert len(dismissed) == 2 and all("server_shutdown" in d for d in dismissed)
        said = [e["event"] for e in events]
        assert "table_closed" in said and "table_kept" not in said
        assert [e["game"] for e in events if e["event"] == "game_abandoned"] == [1]
        # Abandoned: closed, its game with no result (so never rated), and nothing resumed.
        assert stored(db, "SELECT count(*) FROM tables WHERE closed IS NULL") == [(0,)]
        assert stored(db, "SELECT finished, winner FROM games") == [(None, None)]
        assert Store(db, writer=False).open_tables() == []
        process = await start(db, port)
        for token in tokens:
            peer = await Peer.connect(port, "ana", token=token)
            assert (await peer.expect("error")).code == "bad_token"
            await peer.aclose()
        assert all(w.winner is None for w in witnesses)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


@pytest.mark.time_limit(40)
async def test_a_restart_gives_a_player_already_away_no_new_grace(tmp_path):
    """Bruno leaves a game in play (away, with a grace of 3 s); two quick restarts follow,
    after each of which Ana comes back with her token. Each start used to give Bruno the
    whole grace again, so a table whose people never came back outlived any number of
    restarts a grace apart. Now his grace goes on from where it was: the second start finds
    a second of it left, then a bot takes his seat; Ana, here at each stop, keeps hers
    (the whole grace, as after any stop of the server)."""
    db = str(tmp_path / "coup.db")
    port = free_port()
    process = await start(db, port, "--grace", "3")
    peers = []
    try:
        ana, bruno = peers[:] = await seat_table(partial(Peer.connect, port), ["ana", "bruno"])
        await bruno.aclose()
        with trio.fail_after(5):
            await ana.expect("presence", status="away")
        for _ in range(2):
            await trio.sleep(1)  # a second of Bruno's grace passes while the server runs
            events = await stopped(process, signal.SIGTERM)
            assert "table_kept" in {e["event"] for e in events}
            process = await start(db, port, "--grace", "3")
            ana = await Peer.connect(port, "ana", token=ana.token)
            peers.append(ana)
            await ana.expect("snapshot")
        buffer = b""
        with trio.fail_after(2.5):  # his last second, and no new grace
            while b'"grace_over"' not in buffer:
                buffer += await process.stderr.receive_some(65536)
        over = [json.loads(line) for line in buffer.decode().splitlines()
                if '"grace_over"' in line]
        assert [e["name"] for e in over] == ["bruno"]
    finally:
        for peer in peers:
            await peer.aclose()
        if process.returncode is None:
            process.kill()
            await process.wait()
