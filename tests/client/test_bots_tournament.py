"""`coup bot --tournament` (issue 33): bots enter the server's tournament by their keys, play
every game the server seats them at, and stop once it is over; the standings the server
shows are the games its records keep. A bot whose tournament the server no longer has (a
restart forgets it) ends saying so, and one that was away at the end ends as at any end:
none waits for ever. Real TCP, a real server (restarted on the same port and store where
the test says), in-process runners (and `coup bot` processes)."""

from __future__ import annotations

import os
import socket
import sys
import threading
from dataclasses import dataclass, field, replace
from functools import partial

import pytest
import trio

from client import runner as runner_module
from client import transport
from client.identity import load
from client.runner import BotRunner, Dismissed, Seating
from engine.bots import make
from engine.bots.random import RandomStrategy
from protocol import (
    Bye, Connection, EnterTournament, Error, ListGames, ListTables, Message, Ok,
    OpenTournament, StartTournament, StopTournament, Tables, Tournament,
)
from server import Server, ServerConfig
from tests.client.broken_servers import Scripted
from tests.client.test_exec_bots import PYTHON_BOT
from tests.ports import free_port
from tests.server.helpers import eventually
from tests.server.peer import Peer, new_id


@pytest.fixture
def keys(tmp_path):
    return lambda n: load(str(tmp_path / f"key{n}.pem"))


@pytest.fixture
async def server(nursery, keys, tmp_path):
    server = Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                 db=str(tmp_path / "coup.db"),
                                 operators=f"key:{keys(1).key}"))
    await nursery.start(server.serve)
    yield server
    nursery.cancel_scope.cancel()


async def operator(server, keys) -> Peer:
    """The operator, identified, following the tournament."""
    op = await Peer.connect(server.address[1], "op")
    welcome = next(f for f in op.frames if f["t"] == "welcome")
    asked = keys(1).identify(new_id(), welcome["server_id"], welcome["nonce"])
    assert (await op.request(asked)).TYPE == "identified"
    assert (await op.request(ListTables(id=new_id(), tournament=True))).TYPE == "tables"
    return op


async def start_once_entered(op: Peer, entrants: int) -> None:
    """The operator starts the tournament once `entrants` have entered it."""
    await op.expect("tournament", where=lambda m: len(m.entrants) == entrants)
    assert (await op.request(StartTournament(id=new_id()))).TYPE == "ok"


@pytest.mark.trio
async def test_three_bots_play_a_tournament_out_and_its_standings_are_their_games(
        server, keys) -> None:
    op = await operator(server, keys)
    assert (await op.request(OpenTournament(id=new_id(), name="Bots", sizes=[2]))).TYPE == "ok"
    runners = [BotRunner("127.0.0.1", server.address[1], make(strategy, seed=n),
                         name=f"{strategy}-{n}", seating=Seating(tournament=True),
                         identity=keys(n))
               for n, strategy in enumerate(("heuristic", "honest", "random"), 2)]
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for runner in runners:
                nursery.start_soon(runner.run)
            await start_once_entered(op, 3)
    done = await op.expect("tournament", where=lambda m: m.status == "done")
    assert (done.played, done.scheduled) == (6, 6)
    for runner in runners:  # each ended by itself, and heard the end
        assert runner.played == 4 and runner.core.tournament.status == "done"
    games = (await op.request(ListGames(id=new_id()))).games
    assert sorted(g["table_name"] for g in games) == [f"Bots #{n}" for n in range(1, 7)]
    rows = {row["name"]: row for row in done.standings}
    for runner in runners:
        mine = [g for g in games if runner.name in (p["name"] for p in g["players"])]
        won = [g for g in mine if g["players"][g["winner"]]["name"] == runner.name]
        assert (rows[runner.name]["games"], rows[runner.name]["wins"]) == (len(mine), len(won))
        assert runner.wins == len(won)
    await op.aclose()


@pytest.mark.trio
async def test_a_guest_bot_is_refused_its_entry_and_says_why(server, keys) -> None:
    op = await operator(server, keys)
    assert (await op.request(OpenTournament(id=new_id(), name="Keys"))).TYPE == "ok"
    guest = BotRunner("127.0.0.1", server.address[1], make("random", seed=1), name="anon",
                      seating=Seating(tournament=True))
    with pytest.raises(Dismissed, match="not_identified"):
        await guest.run()
    await op.aclose()


@pytest.mark.trio
async def test_a_bot_that_comes_after_the_start_is_refused_its_entry_and_says_why(
        server, keys) -> None:
    """tournament_started answers an entrant's entry made again (it is in); a bot's first
    entry so refused is no entry, and ends the run, as any refusal of it does."""
    op = await operator(server, keys)
    assert (await op.request(OpenTournament(id=new_id(), name="Late"))).TYPE == "ok"
    entrants = [BotRunner("127.0.0.1", server.address[1], make("random", seed=n),
                          name=f"on-time-{n}", seating=Seating(tournament=True),
                          identity=keys(n)) for n in (2, 3)]
    late = BotRunner("127.0.0.1", server.address[1], make("random", seed=4), name="late",
                     seating=Seating(tournament=True), identity=keys(4))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            for runner in entrants:
                nursery.start_soon(runner.run)
            await start_once_entered(op, 2)
            with pytest.raises(Dismissed, match="tournament_started"):
                await late.run()
    assert late.played == 0 and [r.played for r in entrants] == [2, 2]
    await op.aclose()


@pytest.mark.trio
async def test_coup_bot_tournament_exits_0_and_prints_the_standings(
        server, keys, tmp_path) -> None:
    op = await operator(server, keys)
    assert (await op.request(OpenTournament(id=new_id(), name="Cli"))).TYPE == "ok"
    other = BotRunner("127.0.0.1", server.address[1], make("honest", seed=3), name="honest-3",
                      seating=Seating(tournament=True), identity=keys(3))
    done = {}

    async def command() -> None:
        done["bot"] = await trio.run_process(
            [sys.executable, "-m", "client.cli", "bot", f"127.0.0.1:{server.address[1]}",
             "--tournament", "--strategy", "random", "--name", "cli-bot",
             "--identity", str(tmp_path / "key2.pem")],
            capture_stdout=True, capture_stderr=True, check=False,
            env=os.environ | {"LANGUAGE": "en", "COUP_DISCOVERY": "off"})

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(command)
            nursery.start_soon(other.run)
            await start_once_entered(op, 2)
    result = done["bot"]
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode().splitlines()
    assert out[0].startswith("cli-bot: 2 games, ")
    assert out[1].startswith("Tournament Cli: over, 2 of 2 games played; leading: ")
    assert sorted(line.split(": ")[0][3:] for line in out[2:]) == ["cli-bot", "honest-3"]
    await op.aclose()


@pytest.mark.trio
async def test_a_key_given_to_a_runner_after_it_is_made_is_the_one_it_identifies_with(
        server, keys) -> None:
    """`coup bot` loads the key once the bot's name is known, after making the runner: the
    key was kept by the runner and never reached its connection, so every `coup bot`
    played as a guest (and a tournament refused it, not_identified)."""
    op = await operator(server, keys)
    assert (await op.request(OpenTournament(id=new_id(), name="Late"))).TYPE == "ok"
    runner = BotRunner("127.0.0.1", server.address[1], make("random", seed=1), name="late",
                       seating=Seating(tournament=True))
    runner.identity = keys(2)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(runner.run)
            await op.expect("tournament", where=lambda m: m.entrants == ["late"])
            assert (await op.request(StopTournament(id=new_id()))).TYPE == "ok"
    assert runner.core.identified and runner.core.tournament.status == "stopped"
    await op.aclose()


@pytest.mark.trio
async def test_a_bot_whose_connection_drops_in_the_lobby_comes_back_and_plays_on(
        server, keys, monkeypatch) -> None:
    """A tournament's bot waits in the lobby between its games, with no seat and no place
    in a queue: a drop there ended it (nothing worth coming back for). It comes back,
    enters again (the server takes an entry twice), and plays its games."""
    entered = []

    class DroppingLink(transport.Link):
        async def send(self, msg) -> None:
            await super().send(msg)
            if isinstance(msg, EnterTournament):
                entered.append(msg)
                if len(entered) == 1:
                    self.stream.socket.shutdown(socket.SHUT_RDWR)

    monkeypatch.setattr(transport, "Link", DroppingLink)
    op = await operator(server, keys)
    assert (await op.request(OpenTournament(id=new_id(), name="Drop"))).TYPE == "ok"
    first, second = [BotRunner("127.0.0.1", server.address[1], make("random", seed=n),
                               name=f"d{n}", seating=Seating(tournament=True),
                               identity=keys(n)) for n in (2, 3)]
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(first.run)
            while len(entered) < 2:  # dropped once, and entered again
                await trio.sleep(0.01)
            nursery.start_soon(second.run)
            await start_once_entered(op, 2)
    assert [first.played, second.played] == [2, 2]
    await op.aclose()


# ---------------------------------------------------------------------------- a restart

class Restartable:
    """A server on a port of the test's own, keeping its records, that can be stopped (as
    SIGTERM stops it, or at once) and started again on the same port and store."""

    def __init__(self, nursery: trio.Nursery, config: ServerConfig) -> None:
        self.nursery = nursery
        self.server = Server(config)
        self._stopped = trio.Event()
        self._scope = trio.CancelScope()

    async def start(self) -> Restartable:
        await self.nursery.start(self._serve)
        return self

    async def _serve(self, task_status=trio.TASK_STATUS_IGNORED) -> None:
        try:
            with self._scope:
                await self.server.serve(task_status=task_status)
        finally:
            self._stopped.set()

    @property
    def port(self) -> int:
        return self.server.address[1]

    async def restart(self, how: str) -> None:
        """Stop ("restart": as SIGTERM does, its tables kept and its clients told to come
        back; "kill": at once, its connections closed without a word, as a killed server's
        are), and once the store is let go, serve again in the same place."""
        if how == "restart":
            await self.server.shutdown(restart=True)
        else:
            self._scope.cancel()
        await self._stopped.wait()
        self.server = Server(replace(self.server.config, port=self.port))
        self._stopped, self._scope = trio.Event(), trio.CancelScope()
        await self.start()


@pytest.fixture
async def restartable(nursery, keys, tmp_path) -> Restartable:
    return await Restartable(nursery, ServerConfig(
        port=free_port(), bot_delay=0, response_clock=0, turn_clock=0,
        db=str(tmp_path / "coup.db"), operators=f"key:{keys(1).key}")).start()


@dataclass
class Outcome:
    """How a runner's run ended, once `over` is set: `error` is the Dismissed it raised,
    None if it ended by itself."""

    over: trio.Event = field(default_factory=trio.Event)
    error: Dismissed | None = None


async def ended(runner: BotRunner, outcome: Outcome, task_status=trio.TASK_STATUS_IGNORED):
    """Run `runner`, and say in `outcome` what ended it."""
    task_status.started()
    try:
        await runner.run()
    except Dismissed as exc:
        outcome.error = exc
    finally:
        outcome.over.set()


@pytest.mark.trio
@pytest.mark.parametrize("how", ["restart", "kill"])
async def test_a_bot_whose_tournament_a_restart_forgot_ends_saying_so(
        nursery, restartable, keys, how) -> None:
    """A tournament lives in the server's memory: the server restarted on the same port and
    store has none. The bot comes back (a restart asks its clients to; from a killed one,
    its entry is worth coming back for), enters again, is refused no_tournament, and ends
    saying its tournament is gone. It waited for ever: the refusal was only logged, and
    its copy of the tournament still said open."""
    op = await operator(restartable.server, keys)
    assert (await op.request(OpenTournament(id=new_id(), name="Gone"))).TYPE == "ok"
    bot = BotRunner("127.0.0.1", restartable.port, make("random", seed=2),
                    name="left", seating=Seating(tournament=True), identity=keys(2))
    outcome = Outcome()
    await nursery.start(ended, bot, outcome)
    await op.expect("tournament", where=lambda m: m.entrants == ["left"])
    await op.aclose()
    await restartable.restart(how)
    with trio.fail_after(15):
        await outcome.over.wait()
    assert "the tournament is gone" in str(outcome.error)
    assert bot.core.tournament is None and not bot.core.entered


class Held(RandomStrategy):
    """A random bot whose first decision waits for the test's word (`go`): whatever the test
    does meanwhile lands in the middle of a game."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked = threading.Event()
        self.go = threading.Event()

    def choose(self, view, moves):
        self.asked.set()
        self.go.wait(20)
        return super().choose(view, moves)


@pytest.mark.trio
@pytest.mark.parametrize("how", ["restart", "kill"])
async def test_bots_at_a_game_when_the_restart_forgot_their_tournament_finish_it_and_end(
        nursery, restartable, keys, how) -> None:
    """The restart keeps the tournament's table, as an ordinary one: the bots get their
    seats back and play the game out, but no game_done closes it at the end. They had
    entered again on coming back, heard no_tournament, and now leave the table and end.
    They sat at the finished table for ever."""
    op = await operator(restartable.server, keys)
    assert (await op.request(OpenTournament(id=new_id(), name="Kept"))).TYPE == "ok"
    held = Held(2)
    bots = [BotRunner("127.0.0.1", restartable.port, strategy, name=f"k{n}",
                      seating=Seating(tournament=True), identity=keys(n))
            for n, strategy in ((2, held), (3, make("random", seed=3)))]
    outcomes = [Outcome(), Outcome()]
    for bot, outcome in zip(bots, outcomes):
        await nursery.start(ended, bot, outcome)
    await start_once_entered(op, 2)
    await trio.to_thread.run_sync(held.asked.wait, 20)  # k2 owes its first decision
    await op.aclose()
    await restartable.restart(how)
    held.go.set()
    with trio.fail_after(20):
        for outcome in outcomes:
            await outcome.over.wait()
    for bot, outcome in zip(bots, outcomes):
        assert "the tournament is gone" in str(outcome.error)
        assert bot.played == 1 and bot.core.table is None
    # Both left the finished table: it closes, in its own time.
    await eventually(lambda: restartable.server.lobby.tables == {})


@pytest.mark.trio
async def test_a_bot_whose_tournament_is_stopped_while_it_is_away_ends_as_at_any_end(
        server, keys, monkeypatch) -> None:
    """The tournament stopped while the bot's connection was down: coming back, its entry is
    refused no_tournament (none open or running) before or after the server sends the
    standings of the stopped one (at once if it holds them, else at its next push). Either
    way the bot ends as at the end of any tournament, with its standings, not 'gone'."""
    away = trio.Event()

    class AwayLink(transport.Link):
        @classmethod
        async def reopen(cls, *args, **kwargs):
            await away.wait()  # not back before the test's word
            return await super().reopen(*args, **kwargs)

    monkeypatch.setattr(transport, "Link", AwayLink)
    op = await operator(server, keys)
    assert (await op.request(OpenTournament(id=new_id(), name="Away"))).TYPE == "ok"
    bot = BotRunner("127.0.0.1", server.address[1], make("random", seed=2), name="away",
                    seating=Seating(tournament=True), identity=keys(2))
    outcome = Outcome()
    async with trio.open_nursery() as nursery:
        await nursery.start(ended, bot, outcome)
        await op.expect("tournament", where=lambda m: m.entrants == ["away"])
        # Gone from here on: what the server sends on the link is lost with it.
        bot.transport.link.stream.socket.shutdown(socket.SHUT_RDWR)
        assert (await op.request(StopTournament(id=new_id()))).TYPE == "ok"
        away.set()
    assert outcome.over.is_set() and outcome.error is None
    assert bot.core.tournament.status == "stopped" and bot.played == 0
    await op.aclose()


@pytest.mark.trio
async def test_a_bot_started_again_mid_game_plays_the_tournament_out_and_hears_its_end(
        nursery, server, keys) -> None:
    """A bot process stopped mid-game and started again with its key is given its seat
    back: in the tournament already, it never entered nor followed it, and once the last
    game was played it waited for ever for an end no one told it."""
    op = await operator(server, keys)
    assert (await op.request(OpenTournament(id=new_id(), name="Again"))).TYPE == "ok"
    held = Held(2)
    first = BotRunner("127.0.0.1", server.address[1], held, name="again",
                      seating=Seating(tournament=True), identity=keys(2))
    other = BotRunner("127.0.0.1", server.address[1], make("random", seed=3), name="steady",
                      seating=Seating(tournament=True), identity=keys(3))
    stopped = trio.CancelScope()

    async def stoppable() -> None:
        with stopped:
            await first.run()

    nursery.start_soon(stoppable)
    outcomes = [Outcome(), Outcome()]
    await nursery.start(ended, other, outcomes[0])
    await start_once_entered(op, 2)
    await trio.to_thread.run_sync(held.asked.wait, 20)  # in its first game, to decide
    stopped.cancel()
    held.go.set()
    again = BotRunner("127.0.0.1", server.address[1], make("random", seed=4), name="again",
                      seating=Seating(tournament=True), identity=keys(2))
    await nursery.start(ended, again, outcomes[1])
    with trio.fail_after(20):
        for outcome in outcomes:
            await outcome.over.wait()
    assert [outcome.error for outcome in outcomes] == [None, None]
    assert again.played == 2 and again.core.tournament.status == "done"
    await op.aclose()


def standing(status: str) -> Tournament:
    return Tournament(name="Late", status=status, entrants=["late"], played=0, scheduled=0,
                      standings=[])


class RefusedOnReturn(Scripted):
    """A server that drops the bot once it entered (`bye idle_timeout`), and on its return
    refuses the entry made again `code`; it sends the standings of the tournament, stopped
    meanwhile, only when the test says (`stopped`): as a server that had yet to add them up
    does."""

    def __init__(self, code: str) -> None:
        super().__init__()
        self.code = code

    async def __call__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        await super().__call__(stream)

    def answer(self, conn: Connection, msg: Message) -> bytes:
        self.conn = conn
        if isinstance(msg, ListTables):
            return conn.send(Tables(tables=[], re=msg.id))
        if not isinstance(msg, EnterTournament):
            return b""
        if self.connections == 1:
            return (conn.send(Ok(re=msg.id)) + conn.send(standing("open"))
                    + conn.send(Bye(reason="idle_timeout")))
        return conn.send(Error(code=self.code, message="refused", re=msg.id))

    async def stopped(self) -> None:
        await self.stream.send_all(self.conn.send(standing("stopped")))


@pytest.mark.trio
async def test_a_refusal_before_the_standings_of_a_tournament_over_is_no_gone_tournament(
        nursery, monkeypatch) -> None:
    """no_tournament says the server has none open or running: ours may be over, its
    standings on their way. The bot waits for them (STANDINGS_WAIT, here far longer than
    the test may take) and ends as at any end, not 'gone'."""
    monkeypatch.setattr(runner_module, "STANDINGS_WAIT", 60.0)
    server = RefusedOnReturn("no_tournament")
    listeners = await nursery.start(partial(trio.serve_tcp, host="127.0.0.1"), server, 0)
    bot = BotRunner("127.0.0.1", listeners[0].socket.getsockname()[1],
                    make("random", seed=1), name="late", seating=Seating(tournament=True))
    outcome = Outcome()
    await nursery.start(ended, bot, outcome)
    with trio.fail_after(10):
        while server.connections < 2 or bot.core.entered:  # back, and refused
            await trio.sleep(0.01)
        await server.stopped()
        await outcome.over.wait()
    assert outcome.error is None and bot.core.tournament.status == "stopped"


@pytest.mark.trio
async def test_an_entry_made_again_and_refused_for_another_reason_ends_the_run(
        nursery) -> None:
    """An entry lost with the link, and the tournament full when the bot came back: it is
    not in it, and says so. It waited for the end of a tournament it was not in."""
    server = RefusedOnReturn("tournament_full")
    listeners = await nursery.start(partial(trio.serve_tcp, host="127.0.0.1"), server, 0)
    bot = BotRunner("127.0.0.1", listeners[0].socket.getsockname()[1],
                    make("random", seed=1), name="late", seating=Seating(tournament=True))
    with trio.fail_after(10), pytest.raises(Dismissed, match="tournament_full"):
        await bot.run()
    assert server.connections == 2


@pytest.mark.trio
async def test_coup_bot_exec_whose_tournament_a_restart_forgot_exits_1_saying_so(
        nursery, restartable, keys, tmp_path) -> None:
    """The case as it was found: `coup bot --tournament --exec` (the example bot in Python)
    waited for ever after the restart. It exits 1 with one line that says why."""
    op = await operator(restartable.server, keys)
    assert (await op.request(OpenTournament(id=new_id(), name="Exec"))).TYPE == "ok"
    done = {}
    finished = trio.Event()

    async def command() -> None:
        done["bot"] = await trio.run_process(
            [sys.executable, "-m", "client.cli", "bot", f"127.0.0.1:{restartable.port}",
             "--tournament", "--exec", PYTHON_BOT, "--name", "exec-bot",
             "--identity", str(tmp_path / "key2.pem")],
            capture_stdout=True, capture_stderr=True, check=False,
            env=os.environ | {"LANGUAGE": "en", "COUP_DISCOVERY": "off"})
        finished.set()

    nursery.start_soon(command)
    await op.expect("tournament", where=lambda m: m.entrants == ["exec-bot"])
    await op.aclose()
    await restartable.restart("restart")
    with trio.fail_after(20):
        await finished.wait()
    result = done["bot"]
    assert result.returncode == 1, result.stderr
    assert result.stderr.decode().splitlines()[-1] == (
        "coup bot: the tournament is gone: the server has no tournament open or running "
        "(a restart forgets its tournament)")
