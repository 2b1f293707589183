"""The bot SDK's promises: a strategy still thinking near its deadline is answered for with
the safe default; a dropped connection is re-opened with the seat's token and the game goes
on (a move lost in the drop is made again), but a server that says it is stopping, or a seat
lost meanwhile, ends the run; `coup arena` prints what it says; `coup bot` exits 0 after its
games."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading

import pytest
import trio

from client import transport
from client.runner import BotRunner, Dismissed, Seating
from engine.bots import Strategy, make
from protocol import MoveRequest
from server import Server, ServerConfig


class Stuck(Strategy):
    """Its first choice takes until the test lets it go (far longer than any clock allows);
    later calls are quick. It counts how many of its calls run at once, hooks included."""

    name = "stuck"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.release = threading.Event()
        self._lock = threading.Lock()
        self.running = self.most = self.choices = self.games = 0

    def _enter(self) -> None:
        with self._lock:
            self.running += 1
            self.most = max(self.most, self.running)

    def _leave(self) -> None:
        with self._lock:
            self.running -= 1

    def choose(self, view, moves):
        self._enter()
        try:
            self.choices += 1
            if self.choices == 1:
                self.release.wait()
            return self.rng.choice(moves)
        finally:
            self._leave()

    def observe(self, view, events) -> None:
        self._enter()
        self._leave()

    def game_over(self, view) -> None:
        self._enter()
        self.games += 1
        self._leave()


async def start_server(nursery, **settings) -> int:
    server = Server(ServerConfig(port=0, bot_delay=0, **settings))
    await nursery.start(server.serve)
    return server.address[1]


async def host_and_guest(host: BotRunner, guest: BotRunner, seconds: float) -> None:
    """The host creates a table, the guest joins it by id, and both play it out."""
    with trio.fail_after(seconds):
        async with trio.open_nursery() as players:
            players.start_soon(host.run)
            while host.table is None:
                await trio.sleep(0.01)
            guest.seating = Seating(table=host.table)
            players.start_soon(guest.run)


async def stuck_game(strategy: Stuck) -> tuple[BotRunner, BotRunner]:
    """A game with one-second clocks between a bot whose strategy is stuck in its first
    choice until the game is over, and a quick one; returns (stuck, quick) after it."""
    async with trio.open_nursery() as nursery:
        port = await start_server(nursery, response_clock=1, turn_clock=1)
        stuck = BotRunner("127.0.0.1", port, strategy, name="stuck", seating=Seating(create=2))
        quick = BotRunner("127.0.0.1", port, make("random", seed=3), name="quick")

        async def release_after_the_game() -> None:
            while stuck.played == 0:
                await trio.sleep(0.01)
            strategy.release.set()

        nursery.start_soon(release_after_the_game)
        try:
            await host_and_guest(stuck, quick, 60)
        finally:
            strategy.release.set()  # (a failed test must not leave its thread stuck)
        nursery.cancel_scope.cancel()
    return stuck, quick


@pytest.mark.trio
async def test_a_strategy_thinking_past_its_deadline_gets_the_safe_default(caplog) -> None:
    """R10: the runner answers before the deadline with the default move, and says so."""
    stuck, quick = await stuck_game(Stuck())
    assert stuck.played == quick.played == 1
    assert "safe default" in caplog.text


@pytest.mark.trio
async def test_a_strategy_is_never_called_while_a_call_of_it_is_running() -> None:
    """Every decision after the first comes while the first choice still runs in its
    thread: the runner plays the defaults without calling the strategy again, and tells it
    what happened (observe, game_over) only once that call is over."""
    strategy = Stuck()
    await stuck_game(strategy)
    assert strategy.most == 1
    assert strategy.games == 1


@pytest.mark.trio
async def test_a_dropped_connection_is_reopened_with_the_token_and_the_game_goes_on() -> None:
    async with trio.open_nursery() as nursery:
        port = await start_server(nursery, response_clock=0, turn_clock=0)
        host = BotRunner("127.0.0.1", port, make("random", seed=1), name="host",
                         seating=Seating(create=2))
        guest = BotRunner("127.0.0.1", port, make("random", seed=2), name="guest")
        dropped = []

        async def drop_once_play_starts() -> None:  # cut the guest's first connection
            # Looked at on every pass of the scheduler, not every 10 ms: on a loaded machine
            # a whole game of two quick bots fitted between two looks, and nothing dropped.
            while guest.view is None:
                await trio.lowlevel.checkpoint()
            dropped.append(True)
            guest.transport.link.stream.socket.shutdown(socket.SHUT_RDWR)

        nursery.start_soon(drop_once_play_starts)
        await host_and_guest(host, guest, 60)
        nursery.cancel_scope.cancel()
    assert dropped and host.played == guest.played == 1


@pytest.mark.trio
async def test_a_move_lost_in_a_drop_is_made_again_on_the_new_link(monkeypatch) -> None:
    """The first move either bot makes never leaves it: its connection drops between the
    move and the answer. At a table with no clocks nobody would ever play for that seat, so
    the runner must decide again from the snapshot the new link brings."""
    lost = []

    class LossyLink(transport.Link):
        async def send(self, msg) -> None:
            if isinstance(msg, MoveRequest) and not lost:
                lost.append(msg)
                self.stream.socket.shutdown(socket.SHUT_RDWR)
                return
            await super().send(msg)

    monkeypatch.setattr(transport, "Link", LossyLink)
    async with trio.open_nursery() as nursery:
        port = await start_server(nursery, response_clock=0, turn_clock=0)
        host = BotRunner("127.0.0.1", port, make("random", seed=1), name="host",
                         seating=Seating(create=2))
        guest = BotRunner("127.0.0.1", port, make("random", seed=2), name="guest")
        await host_and_guest(host, guest, 30)
        nursery.cancel_scope.cancel()
    assert lost and host.played == guest.played == 1


@pytest.mark.trio
async def test_a_seat_gone_when_the_bot_comes_back_ends_the_run() -> None:
    """The server refuses the token on the new link (bad_token: the seat went to a bot, or
    its table closed): no snapshot will ever come, so the runner stops and says why instead
    of waiting for one."""
    async with trio.open_nursery() as nursery:
        port = await start_server(nursery)
        bot = BotRunner("127.0.0.1", port, make("random", seed=1), name="lonely",
                        seating=Seating(create=2))
        dropped = []

        async def drop_with_a_stale_token() -> None:
            while bot.table is None:
                await trio.sleep(0.01)
            dropped.append(True)
            bot.core.table.token = "a-seat-long-gone"
            bot.transport.link.stream.socket.shutdown(socket.SHUT_RDWR)

        nursery.start_soon(drop_with_a_stale_token)
        with trio.fail_after(20), pytest.raises(Dismissed, match="bad_token"):
            await bot.run()
        nursery.cancel_scope.cancel()
    assert dropped


@pytest.mark.trio
async def test_a_server_that_stops_dismisses_its_bots() -> None:
    """bye server_shutdown: the seats go with the server, so the runner stops at once
    instead of reconnecting for minutes."""
    async with trio.open_nursery() as nursery:
        server = Server(ServerConfig(port=0, bot_delay=0))
        await nursery.start(server.serve)
        bot = BotRunner("127.0.0.1", server.address[1], make("random", seed=1), name="lonely",
                        seating=Seating(create=2))
        stopped = []

        async def play() -> None:
            with pytest.raises(Dismissed, match="server_shutdown"):
                await bot.run()
            stopped.append(trio.current_time())

        nursery.start_soon(play)
        with trio.fail_after(10):
            while bot.table is None:
                await trio.sleep(0.01)
            await server.shutdown()
            asked = trio.current_time()
            while not stopped:
                await trio.sleep(0.01)
    assert stopped[0] - asked < 1


def test_coup_arena_prints_json_win_rates() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "client.cli", "arena", "--strategies",
         "heuristic,random,random", "--games", "30", "--seed", "4", "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    result = json.loads(out)
    assert result["games"] == 30
    assert set(result["win_rate"]) == {"heuristic", "random"}
    # per seat: the three seats' wins add up to the games (no game is stopped)
    assert abs(result["win_rate"]["heuristic"] + 2 * result["win_rate"]["random"] - 1) < 1e-3


def test_coup_arena_refuses_unknown_strategies() -> None:
    run = subprocess.run([sys.executable, "-m", "client.cli", "arena", "--strategies",
                          "heuristic,nobody"], capture_output=True, text=True)
    assert run.returncode == 2 and "nobody" not in run.stdout
