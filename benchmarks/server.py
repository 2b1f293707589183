"""The whole server under load: N tables of 4 network bots playing as fast as they can.

    python -m benchmarks.server [--tables N] [--rounds K] [--json] [--echo-seconds S]
                                [--timeout S]

What runs, all over loopback:

1. **The server** (`server.Server`) in a process of its own (multiprocessing, spawn),
   keeping its records in a fresh store (a SQLite file in a temporary directory), with
   the collector tuned as `coup serve` tunes it, no bot delay, no clocks, and limits wide
   enough that nothing here is throttled: the connection limits and the table count fit the
   run, the rate is 1000/s (burst 2000), the outbox holds 4 MiB. It reports the port
   it bound; at the end it reports its own peak resident memory (VmHWM from /proc; never
   `ru_maxrss`, which a spawned child inherits from its parent) and how many warnings and
   errors it logged.
2. **The bots**, in this process: per table, 4 connections that say hello; seat 0 creates a
   table (4 seats, clocks off), the 3 others join it by id (this setup runs over trio and is
   not measured; connections are opened at most 100 at a time so that the listen backlog
   never overflows). Once every table is full, every bot sends `ready` at once (a full table
   of ready players starts by itself) and the play phase's clock starts. Each bot unpacks
   every frame it receives and plays uniformly random legal moves (`engine.legal_moves` on
   the view of its latest `snapshot`/`update`), one move in flight at a time, until its view
   says `over`; then it leaves the table and closes. The play phase runs all the bots on
   one bare epoll loop (`drive`: no tasks, no scheduler), so that on a machine with few
   cores the load generator takes as little CPU as it can from the server it measures.
3. **Without the store**: the same tables again on a server that keeps no records, to see
   what durability costs. A round runs them on, off, off, on: each run of 2,000
   connections leaves the next a little slower (closed sockets linger in the kernel: three
   runs in a row went 338, 384, 402 µs a move), and that order lays the drift on both
   alike. moves_per_s and moves_per_s_without_store are the means of a round's two runs of
   each. With `--rounds K` (default 3) K rounds run and the one whose `store_ratio` is the
   median is shown: on this 2-core machine one round's ratio swings between 0.65 and 0.97
   with the rest of the machine's load (the same server's CPU a move, store off, went from
   397 to 555 µs between rounds), so one round cannot tell 0.75 from 0.85.
4. **The ceiling**: a bare trio server that echoes msgpack maps (its own process again) and
   the same number of connections (4 N) on the same bare loop as the bots, each sending a
   small map shaped like a `move` and waiting for it to come back, for `--echo-seconds`.
5. **The floors** a move is judged against (`benchmarks.fanout`, in the same run): the
   relay, a server that knows no rules and answers each move with an update to the four
   seats, under the same N tables for `--echo-seconds`; and the rules alone, timed
   in-process with no I/O. No server that plays the rules can beat the relay's latency on
   the same machine, nor spend less a move than relay + rules.

Figures (`--json` prints exactly these keys, in one JSON object):

    tables                  tables set up (N)
    finished                tables whose 4 bots all saw the game end (the fewest of any run)
    errors                  over every run, anything that went wrong: a refused move other
                            than stale_state (answering a window that another seat's move
                            had just closed is normal), an `error` or `bye` from the server,
                            a connection that closed or failed, a table that failed to set
                            up or did not finish before --timeout
    moves                   moves the server accepted from the bots (move_accepted)
    moves_per_s             moves / the play phase's wall time (first ready → last game over)
    latency_p50_ms, _p99_ms a move sent → the update carrying its result (the first update
                            whose state_id reaches the one in its move_accepted) received by
                            the same bot; accepted moves only
    server_peak_rss_mb      the highest of the game servers' peak resident memory (each its own
                            VmHWM), in MiB, over every run; without --json every run's peak
                            is printed too
    echo_round_trips_per_s  round trips per second of the bare echo, all connections together
    ratio                   moves_per_s / echo_round_trips_per_s
    moves_per_s_without_store  moves_per_s of the same tables on a server with no store
    store_ratio             moves_per_s / moves_per_s_without_store
    cpu_us_a_move           the server's CPU time in the play phase a move, store on (the
                            round shown, both its runs), and _without_store, store off
    relay_moves_per_s, relay_latency_p50_ms, relay_latency_p99_ms, relay_cpu_us
                            the relay's figures (5.)
    rules_cpu_us            the rules' own CPU time a move (5.)

Targets, this server's own: every table finishes with 0 errors, server RSS < 300 MB at 500
tables, store_ratio >= 0.8. Latency, throughput and CPU a move are printed next to the
floors they are judged against, not against fixed numbers: at 500 tables the relay's own
p99 is near 100 ms on a 2-core machine, so a fixed "p99 < 100 ms" was missed on every run.
Bots and echo clients share the machine with the server being measured: on a machine with
few cores they compete with it for CPU, on every measurement alike.

Profiling: with COUP_BENCH_PROFILE=FILE in the environment the server process runs under
cProfile, dumps its stats to FILE, and the top functions (by own time) are printed to stderr.
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import os
import tempfile
import random
import resource
import selectors
import socket
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import msgpack
import trio

from engine import View, legal_moves

#: Connections being opened at once (the listen backlog must never overflow).
CONNECT_BATCH = 100
#: Seconds to wait for the answer to a setup request.
SETUP_TIMEOUT = 30.0
#: Refusals other than stale_state one bot tolerates before it gives up its game.
MAX_BOT_ERRORS = 20
PROFILE_ENV = "COUP_BENCH_PROFILE"


def raise_file_limit() -> None:
    """As many open files as the hard limit allows (2,000+ sockets per process)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass


def cpu_seconds() -> float:
    """CPU time this process has used so far (user + system)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def process_cpu_seconds(pid: int) -> float | None:
    """Another process's CPU time so far (user + system), from /proc (None if unreadable)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def own_peak_mb() -> float:
    """This process's own peak resident memory (VmHWM). Never `ru_maxrss`: on Linux it
    survives execve, so a spawned child's starts at its parent's resident memory at the
    fork (issue 36)."""
    return memory_mb(os.getpid()) or 0.0


def memory_mb(pid: int, field: str = "VmHWM") -> float | None:
    """Another process's memory from /proc, in MiB (None if unreadable): its peak resident
    memory (VmHWM), or its resident memory now (VmRSS)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


# ---------------------------------------------------------------------- server processes


class _CountingHandler(logging.Handler):
    """Counts the server's warnings and errors by event name (nothing is printed)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        self.counts[f"{record.levelname.lower()}:{record.getMessage()}"] += 1


def _game_server_main(pipe, tables: int, db: str | None) -> None:
    """The game server's process, keeping its records in `db` (None: no store): serve until
    the parent says stop, then report."""
    raise_file_limit()
    from server import Server, ServerConfig
    from server.cli import tune_gc

    tune_gc()  # as `coup serve` does

    counter = _CountingHandler()
    logger = logging.getLogger("coup.server")
    logger.handlers[:] = [counter]
    logger.setLevel(logging.WARNING)
    logger.propagate = False
    connections = tables * 4 + 64
    config = ServerConfig(
        port=0, bot_delay=0, response_clock=0, turn_clock=0,
        rate=1000.0, burst=2000, outbox_bytes=4 * 1024 * 1024,
        max_connections=connections, max_per_address=connections,
        max_tables=tables + 16, tables_per_address=tables + 16, handshake_timeout=30.0,
        ping_interval=60.0, db=db,
    )

    async def run() -> None:
        srv = Server(config)
        async with trio.open_nursery() as nursery:
            _host, port = await nursery.start(srv.serve)
            pipe.send(("port", port))
            await trio.to_thread.run_sync(pipe.recv)  # "stop"
            nursery.cancel_scope.cancel()

    profile = os.environ.get(PROFILE_ENV)
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
        try:
            trio.run(run)
        finally:
            profiler.disable()
            profiler.dump_stats(profile)
    else:
        trio.run(run)
    pipe.send(("done", {"rss_mb": own_peak_mb(), "log": dict(counter.counts),
                        "cpu_s": cpu_seconds()}))


def _echo_server_main(pipe) -> None:
    """The ceiling's server: every msgpack map received is packed and sent straight back."""
    raise_file_limit()

    async def handler(stream: trio.SocketStream) -> None:
        unpacker = msgpack.Unpacker(raw=False)
        packb = msgpack.packb
        try:
            while True:
                data = await stream.receive_some(65536)
                if not data:
                    return
                unpacker.feed(data)
                out = b"".join(packb(obj) for obj in unpacker)
                if out:
                    await stream.send_all(out)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass

    async def run() -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        port = listeners[0].socket.getsockname()[1]
        async with trio.open_nursery() as nursery:
            await nursery.start(trio.serve_listeners, handler, listeners)
            pipe.send(("port", port))
            await trio.to_thread.run_sync(pipe.recv)
            nursery.cancel_scope.cancel()

    trio.run(run)
    pipe.send(("done", {"rss_mb": own_peak_mb()}))


class Child:
    """A spawned server process and its end of the pipe."""

    def __init__(self, target, *args) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.pipe, child_end = ctx.Pipe()
        self.process = ctx.Process(target=target, args=(child_end, *args), daemon=True)
        self.process.start()
        child_end.close()

    @property
    def pid(self) -> int:
        assert self.process.pid is not None  # started in __init__
        return self.process.pid

    def port(self, timeout: float = 60) -> int:
        if not self.pipe.poll(timeout):
            raise RuntimeError("the server process did not start")
        kind, port = self.pipe.recv()
        assert kind == "port"
        return port

    def stop(self, timeout: float = 60) -> dict:
        """Stop the server; its report ({} if it died), with VmHWM as a fallback."""
        hwm = memory_mb(self.pid)
        report: dict = {}
        try:
            self.pipe.send("stop")
            if self.pipe.poll(timeout):
                _kind, report = self.pipe.recv()
        except (EOFError, OSError, BrokenPipeError):
            pass
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        if "rss_mb" not in report and hwm is not None:
            report["rss_mb"] = hwm
        return report


# ---------------------------------------------------------------------- the load generator


@dataclass
class Stats:
    moves: int = 0
    stale: int = 0
    errors: int = 0
    latencies: list[float] = field(default_factory=list)
    problems: Counter = field(default_factory=Counter)

    def error(self, what: str) -> None:
        self.errors += 1
        self.problems[what] += 1


class Closed(Exception):
    """The server closed the connection."""


class Peer:
    """One connection of the load generator while `drive` runs it. Every frame received is
    unpacked and handed to `received`; `send` packs a map and writes it, keeping what the
    socket does not take at once until it is writable."""

    def __init__(self, sock: socket.socket, unpacker: msgpack.Unpacker | None = None) -> None:
        sock.setblocking(False)
        self.sock = sock
        self.unpacker = unpacker or msgpack.Unpacker(raw=False)
        self.out = b""
        self.writing = False  # the loop watches for the socket to become writable
        self.done = False

    def start(self) -> None:
        """What the peer says first, once the loop runs."""

    def received(self, msg: dict) -> None:
        raise NotImplementedError

    def failed(self, problem: str) -> None:
        """The connection failed, or the peer's own code did (`problem` says how)."""
        self.done = True

    def send(self, msg: dict) -> None:
        data = _packb(msg)
        if not self.out:
            try:
                data = data[self.sock.send(data):]
            except BlockingIOError:
                pass
        self.out += data

    def flush(self) -> None:
        self.out = self.out[self.sock.send(self.out):]


_packb = msgpack.Packer().pack


class Loop:
    """A bare epoll loop of peers: no tasks and no scheduler, so that a frame costs the load
    generator one recv, the unpacking and the peer's own work, and it stays light next to
    the server it measures. `poll` handles what is ready; `close` closes every socket."""

    def __init__(self, peers: Sequence[Peer]) -> None:
        self.selector = selectors.DefaultSelector()
        #: Peers not yet done.
        self.live = 0
        for peer in peers:
            self.selector.register(peer.sock, selectors.EVENT_READ, peer)
            self.live += 1
        for peer in peers:
            self.guarded(peer, peer.start)

    def watch(self, fileobj) -> None:
        """Have `poll` return `fileobj` when it is readable (a pipe from the parent, say)."""
        self.selector.register(fileobj, selectors.EVENT_READ, None)

    def forget(self, fileobj) -> None:
        self.selector.unregister(fileobj)

    def poll(self, timeout: float | None) -> list:
        """Handle the peers that are ready within `timeout` seconds; returns the watched
        files that are readable."""
        readable = []
        for key, events in self.selector.select(timeout):
            peer = key.data
            if peer is None:
                readable.append(key.fileobj)
                continue
            if events & selectors.EVENT_WRITE:
                self.guarded(peer, peer.flush)
            if events & selectors.EVENT_READ:
                self.guarded(peer, self._receive, peer)
        return readable

    def guarded(self, peer: Peer, step, *args) -> None:
        """Run `step(*args)` of `peer`, its failures its own; then watch its socket as it
        now needs (writable too while it has bytes to send), or close it once done."""
        if peer.done:
            return
        try:
            step(*args)
        except BlockingIOError:
            pass
        except Closed:
            peer.failed("closed by the server")
        except OSError as exc:
            peer.failed(f"connection:{type(exc).__name__}")
        except Exception as exc:  # noqa: BLE001 — a bot's bug must not hide the figures
            peer.failed(f"bot:{exc!r}")
        if peer.done:
            self.selector.unregister(peer.sock)
            peer.sock.close()
            self.live -= 1
        elif peer.out and not peer.writing:
            self.selector.modify(peer.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, peer)
            peer.writing = True
        elif peer.writing and not peer.out:
            self.selector.modify(peer.sock, selectors.EVENT_READ, peer)
            peer.writing = False

    @staticmethod
    def _receive(peer: Peer) -> None:
        data = peer.sock.recv(65536)
        if not data:
            raise Closed
        peer.unpacker.feed(data)
        for msg in peer.unpacker:
            peer.received(msg)
            if peer.done:
                return

    def close(self) -> None:
        for key in list(self.selector.get_map().values()):
            if key.data is not None:
                assert isinstance(key.fileobj, socket.socket)  # a peer's, as registered
                key.fileobj.close()
        self.selector.close()


def drive(peers: Sequence[Peer], until: float) -> bool:
    """Run `peers` on a bare `Loop` until each is done; False if time.perf_counter()
    reached `until` first. Every socket is closed on return."""
    loop = Loop(peers)
    try:
        while loop.live:
            timeout = until - time.perf_counter()
            if timeout <= 0:
                return False
            loop.poll(timeout)
        return True
    finally:
        loop.close()


class Setup:
    """A bot's connection while the tables are set up (over trio, not measured)."""

    def __init__(self, stream: trio.SocketStream, name: str) -> None:
        self.stream = stream
        self.name = name
        self.unpacker = msgpack.Unpacker(raw=False)
        self.next_id = 1
        self.seat: int | None = None
        self.table: str | None = None

    @classmethod
    async def connect(cls, port: int, name: str) -> Setup:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        setup = cls(stream, name)
        await setup.send({"t": "hello", "versions": [1], "client": "bench/1", "name": name})
        welcome = await setup.recv()
        if welcome.get("t") != "welcome":
            raise RuntimeError(f"{name}: no welcome: {welcome}")
        return setup

    async def send(self, msg: dict) -> None:
        await self.stream.send_all(_packb(msg))

    async def recv(self) -> dict:
        while True:
            for msg in self.unpacker:
                return msg
            data = await self.stream.receive_some(65536)
            if not data:
                raise Closed(self.name)
            self.unpacker.feed(data)

    async def request(self, msg: dict) -> dict:
        """Send a request and return its answer (by `re`); other messages are dropped,
        pings answered."""
        self.next_id += 1
        msg["id"] = self.next_id
        await self.send(msg)
        with trio.fail_after(SETUP_TIMEOUT):
            while True:
                reply = await self.recv()
                if reply.get("re") == msg["id"]:
                    return reply
                if reply.get("t") == "ping":
                    await self.send({"t": "pong", "re": reply["id"]})

    def detach(self) -> socket.socket:
        """The plain socket, for `drive` (the frames read but not yet taken stay in
        `unpacker`)."""
        return socket.socket(fileno=self.stream.socket.detach())


class Bot(Peer):
    """One network player in the play phase: ready, then random legal moves (one in flight
    at a time) until its view says the game is over; then it leaves the table (so that the
    table closes at once) and hangs up."""

    def __init__(self, setup: Setup, stats: Stats, rng: random.Random) -> None:
        super().__init__(setup.detach(), setup.unpacker)
        self.seat = setup.seat
        self.next_id = setup.next_id
        self.stats = stats
        self.rng = rng
        self.view: dict | None = None  # the latest view, as received
        self.pending: tuple[int, int, float] | None = None  # (id, state_id, sent at)
        self.awaited: tuple[int, float] | None = None  # (state_id after the move, sent at)
        self.errors = 0
        self.over = False
        self.finished_at: float | None = None
        self.leaving: int | None = None  # the id of the leave request, once sent

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def start(self) -> None:
        self.send({"t": "ready", "id": self.new_id()})
        for msg in self.unpacker:  # what came during the setup and was not read then
            self.received(msg)

    def failed(self, problem: str) -> None:
        if not self.done and self.leaving is None:  # a failure once the game is over is moot
            self.stats.error(problem)
        self.done = True

    def move(self) -> None:
        # The engine's view is built only when this seat has a decision to make.
        assert self.view is not None and self.seat is not None  # seated, and told so
        view = View.from_dict(self.view)
        moves = legal_moves(view, self.seat)
        chosen = moves[int(self.rng.random() * len(moves))]
        request_id = self.new_id()
        self.pending = (request_id, view.state_id, time.perf_counter())
        self.send({"t": "move", "id": request_id, "state_id": view.state_id,
                   "move": chosen.to_dict()})

    def received(self, msg: dict) -> None:
        kind = msg.get("t")
        stats = self.stats
        if kind == "ping":
            self.send({"t": "pong", "re": msg["id"]})
        elif self.leaving is not None:
            if msg.get("re") == self.leaving:
                self.done = True
        elif kind == "update" or kind == "snapshot":
            data = msg["view"]
            if self.awaited is not None and data["state_id"] >= self.awaited[0]:
                stats.latencies.append(time.perf_counter() - self.awaited[1])
                self.awaited = None
            self.view = data
            if data["phase"] == "over":
                self.over = True
                self.finished_at = time.perf_counter()
                self.leaving = self.new_id()
                self.send({"t": "leave", "id": self.leaving})
            elif self.pending is None and self.seat in data["waiting"]:
                self.move()
        elif kind == "move_accepted":
            stats.moves += 1
            if self.pending is not None and msg["re"] == self.pending[0]:
                self.awaited = (msg["state_id"], self.pending[2])
                self.pending = None
        elif kind == "move_rejected":
            if self.pending is None or msg["re"] != self.pending[0]:
                stats.error("unexpected move_rejected")
                return
            stale_from = self.pending[1]
            self.pending = None
            if msg["code"] == "stale_state":
                stats.stale += 1
            else:
                stats.error(f"move_rejected:{msg['code']}")
                self.errors += 1
                if self.errors > MAX_BOT_ERRORS:
                    self.done = True
                    return
            view = self.view
            if view is not None and self.seat in view["waiting"] and (
                    view["state_id"] > stale_from or msg["code"] != "stale_state"):
                self.move()
        elif kind == "error":
            stats.error(f"error:{msg.get('code')}")
        elif kind == "bye":
            stats.error(f"bye:{msg.get('reason')}")
            self.done = True
        # ok, table, presence, joined, chat...: nothing to do


async def _connect_all(port: int, names: list[str], stats: Stats) -> list[Setup | None]:
    """One connection per name that said hello (None where it failed), CONNECT_BATCH
    connections at a time."""
    setups: list[Setup | None] = [None] * len(names)

    async def one(i: int) -> None:
        try:
            with trio.fail_after(SETUP_TIMEOUT):
                setups[i] = await Setup.connect(port, names[i])
        except Exception as exc:  # noqa: BLE001 — counted, the run goes on
            stats.error(f"connect:{type(exc).__name__}")

    for start in range(0, len(names), CONNECT_BATCH):
        async with trio.open_nursery() as nursery:
            for i in range(start, min(start + CONNECT_BATCH, len(names))):
                nursery.start_soon(one, i)
    return setups


async def set_up_tables(port: int, tables: int, stats: Stats) -> tuple[list[list[Setup]], int]:
    """`tables` tables of 4 seated connections: those set up, and how many failed."""
    names = [f"b{t}-{s}" for t in range(tables) for s in range(4)]
    setups = await _connect_all(port, names, stats)
    groups = [setups[4 * t:4 * t + 4] for t in range(tables)]
    ready: list[list[Setup]] = []

    async def seat(connected: list[Setup | None]) -> None:
        group = [s for s in connected if s is not None]
        if len(group) < len(connected):
            return
        try:
            joined = await group[0].request({"t": "create_table", "options": {
                "seats": 4, "response_clock": 0, "turn_clock": 0}})
            if joined.get("t") != "joined":
                raise RuntimeError(f"create_table: {joined}")
            group[0].seat, group[0].table = joined["seat"], joined["table"]
            for setup in group[1:]:
                j = await setup.request({"t": "join", "table": group[0].table})
                if j.get("t") != "joined":
                    raise RuntimeError(f"join: {j}")
                setup.seat, setup.table = j["seat"], j["table"]
            ready.append(group)
        except Exception as exc:  # noqa: BLE001 — counted, the run goes on
            stats.error(f"setup:{type(exc).__name__}")

    for start in range(0, tables, CONNECT_BATCH // 4):
        async with trio.open_nursery() as nursery:
            for group in groups[start:start + CONNECT_BATCH // 4]:
                nursery.start_soon(seat, group)
    seated = {id(s) for group in ready for s in group}
    for setup in setups:
        if setup is not None and id(setup) not in seated:
            await setup.stream.aclose()
    return ready, tables - len(ready)


def run_tables(port: int, tables: int, timeout: float, seed: int,
               server_pid: int | None = None) -> dict:
    """Set up `tables` tables of 4 bots, play them out, and count."""
    stats = Stats()
    rng = random.Random(seed)
    ready, failed_setup = trio.run(set_up_tables, port, tables, stats)
    if failed_setup:
        stats.problems["table not set up"] += failed_setup
    groups = [[Bot(s, stats, random.Random(rng.getrandbits(64))) for s in g] for g in ready]

    start = time.perf_counter()
    cpu_start = cpu_seconds()
    server_cpu_start = process_cpu_seconds(server_pid) if server_pid else None
    in_time = drive([bot for group in groups for bot in group], start + timeout)
    bots_cpu = cpu_seconds() - cpu_start
    server_cpu_end = process_cpu_seconds(server_pid) if server_pid else None
    server_cpu = (server_cpu_end - server_cpu_start
                  if server_cpu_start is not None and server_cpu_end is not None else None)
    finished = [g for g in groups if all(b.over for b in g)]
    ends = [b.finished_at for g in finished for b in g if b.finished_at is not None]
    wall = (max(ends) if ends else time.perf_counter()) - start
    if not in_time:
        stats.problems["timed out"] += 1
    # A table that did not finish is an error (the setup failures are counted already).
    for _ in range(len(groups) - len(finished)):
        stats.error("table did not finish")
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        if not lat:
            return 0.0
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000

    return {
        "finished": len(finished),
        "unfinished": tables - len(finished),
        "errors": stats.errors,
        "moves": stats.moves,
        "stale": stats.stale,
        "wall_s": wall,
        "moves_per_s": stats.moves / wall if wall > 0 else 0.0,
        "latency_p50_ms": pct(0.50),
        "latency_p99_ms": pct(0.99),
        "problems": dict(stats.problems),
        "bots_cpu_s": bots_cpu,
        "server_play_cpu_s": server_cpu,
    }


# ---------------------------------------------------------------------- the ceiling


class EchoClient(Peer):
    """Sends a small map shaped like a `move`, waits for it to come back, and again, until
    `end` (time.perf_counter())."""

    def __init__(self, sock: socket.socket, end: float) -> None:
        super().__init__(sock)
        self.end = end
        self.count = 0

    def start(self) -> None:
        self.send({"t": "move", "id": self.count, "state_id": self.count,
                   "move": {"kind": "income"}})

    def received(self, msg: dict) -> None:
        self.count += 1
        if time.perf_counter() >= self.end:
            self.done = True
        else:
            self.start()


async def open_sockets(port: int, connections: int) -> tuple[list[socket.socket], int]:
    """Plain sockets connected to the port (opened over trio, CONNECT_BATCH at a time),
    and how many failed."""
    socks: list[socket.socket] = []
    failed = 0

    async def connect() -> None:
        nonlocal failed
        try:
            with trio.fail_after(SETUP_TIMEOUT):
                stream = await trio.open_tcp_stream("127.0.0.1", port)
            socks.append(socket.socket(fileno=stream.socket.detach()))
        except Exception:  # noqa: BLE001
            failed += 1

    for start in range(0, connections, CONNECT_BATCH):
        async with trio.open_nursery() as nursery:
            for _ in range(start, min(start + CONNECT_BATCH, connections)):
                nursery.start_soon(connect)
    return socks, failed


def run_echo(port: int, connections: int, seconds: float, server_pid: int | None = None) -> dict:
    """`connections` clients doing request → echo round trips for `seconds`, on the same
    loop as the bots."""
    socks, failed = trio.run(open_sockets, port, connections)
    start = time.perf_counter()
    server_cpu_start = process_cpu_seconds(server_pid) if server_pid else None
    clients = [EchoClient(sock, start + seconds) for sock in socks]
    drive(clients, start + seconds + SETUP_TIMEOUT)
    wall = time.perf_counter() - start
    server_cpu_end = process_cpu_seconds(server_pid) if server_pid else None
    total = sum(c.count for c in clients)
    return {"echo_round_trips_per_s": total / wall if wall > 0 else 0.0,
            "echo_connections": len(socks), "echo_failed": failed,
            "echo_server_cpu_us": (server_cpu_end - server_cpu_start) / total * 1e6
            if total and server_cpu_start is not None and server_cpu_end is not None else None}


# ---------------------------------------------------------------------- main


def play_tables(tables: int, timeout: float, seed: int, db: str | None) -> tuple[dict, dict]:
    """The tables played on a game server of their own that keeps its records in `db`
    (None: none): the bots' figures and the server's report."""
    server = Child(_game_server_main, tables, db)
    try:
        port = server.port()
        game = run_tables(port, tables, timeout, seed, server.process.pid)
    finally:
        report = server.stop()
    return game, report


def measure(tables: int, echo_seconds: float, timeout: float, seed: int,
            rounds: int = 1) -> tuple[dict, dict]:
    raise_file_limit()
    # The store on (the real configuration) and off in the order on, off, off, on: each run of
    # 2,000 connections leaves the next a little slower (its closed sockets linger in the
    # kernel), and in this order that drift falls on both sides alike. A round's figure is the
    # mean of its two runs of each; the round whose ratio is the median is shown.
    rounds_run = []
    for _ in range(rounds):
        on, off = [], []
        for store in (True, False, False, True):
            if store:
                with tempfile.TemporaryDirectory() as folder:
                    on.append(play_tables(tables, timeout, seed, os.path.join(folder, "coup.db")))
            else:
                off.append(play_tables(tables, timeout, seed, None))
        rate_on = sum(game["moves_per_s"] for game, _ in on) / 2
        rate_off = sum(game["moves_per_s"] for game, _ in off) / 2
        rounds_run.append((rate_on / max(1e-9, rate_off), rate_on, rate_off, on, off))
    ratios = [run[0] for run in rounds_run]
    store_ratio, rate_on, rate_off, on, off = sorted(rounds_run, key=lambda run: run[0])[
        len(rounds_run) // 2]
    (game, report), (bare, _) = on[0], off[0]
    every_run = [played for run in rounds_run for played, _ in run[3] + run[4]]
    # Every game server's own peak, in the order they ran (on, off, off, on per round).
    peaks = [round(report.get("rss_mb", 0.0), 1) for run in rounds_run
             for _, report in (run[3][0], run[4][0], run[4][1], run[3][1])]
    echo = Child(_echo_server_main)
    try:
        echo_port = echo.port()
        ceiling = run_echo(echo_port, tables * 4, echo_seconds, echo.process.pid)
    finally:
        echo.stop()
    floors = relay_floors(tables, echo_seconds, seed)
    result = {
        "tables": tables,
        "finished": min(run["finished"] for run in every_run),
        "errors": sum(run["errors"] for run in every_run),
        "moves": game["moves"],
        "moves_per_s": round(rate_on, 1),
        "latency_p50_ms": round(game["latency_p50_ms"], 2),
        "latency_p99_ms": round(game["latency_p99_ms"], 2),
        "server_peak_rss_mb": max(peaks),
        "echo_round_trips_per_s": round(ceiling["echo_round_trips_per_s"], 1),
        "ratio": round(rate_on / ceiling["echo_round_trips_per_s"], 3)
        if ceiling["echo_round_trips_per_s"] else 0.0,
        "moves_per_s_without_store": round(rate_off, 1),
        "store_ratio": round(store_ratio, 3),
        "cpu_us_a_move": _rounded(cpu_a_move(on)),
        "cpu_us_a_move_without_store": _rounded(cpu_a_move(off)),
        **floors,
    }
    extra = {
        "store_ratios": [round(ratio, 3) for ratio in ratios],
        "server_peaks_mb": peaks,
        "stale_rejections": game["stale"],
        "play_seconds": round(game["wall_s"], 2),
        "bots_cpu_s": round(game["bots_cpu_s"], 2),
        "server_cpu_s": round(report.get("cpu_s", 0.0), 2),
        "server_play_cpu_s": game["server_play_cpu_s"],
        "problems": {k: v for run in every_run for k, v in run["problems"].items()},
        "latency_p99_ms_without_store": round(bare["latency_p99_ms"], 2),
        "server_log": report.get("log", {}),
        "echo_connections": ceiling["echo_connections"],
        "echo_failed": ceiling["echo_failed"],
        "echo_server_cpu_us": ceiling["echo_server_cpu_us"],
    }
    return result, extra


def relay_floors(tables: int, seconds: float, seed: int) -> dict:
    """The relay's figures under `tables` tables for `seconds`, and the rules alone's CPU
    a move (benchmarks.fanout), under the keys `measure` reports them."""
    from .fanout import measure as relay  # fanout builds on this module's load generator

    floor = relay(tables, seconds, seed)
    return {"relay_moves_per_s": floor["moves_per_s"],
            "relay_latency_p50_ms": floor["latency_p50_ms"],
            "relay_latency_p99_ms": floor["latency_p99_ms"],
            "relay_cpu_us": floor["relay_cpu_us"], "rules_cpu_us": floor["rules_cpu_us"]}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def cpu_a_move(runs: list[tuple[dict, dict]]) -> float | None:
    """The server's CPU time a move over `runs`, in µs (None if it could not be read)."""
    cpu = [game["server_play_cpu_s"] for game, _ in runs]
    moves = sum(game["moves"] for game, _ in runs)
    return sum(cpu) / moves * 1e6 if None not in cpu and moves else None


def print_profile(path: str, top: int = 30) -> None:
    import pstats

    print(f"\nserver profile ({path}), top {top} by own time:", file=sys.stderr)
    stats = pstats.Stats(path, stream=sys.stderr)
    stats.sort_stats("tottime").print_stats(top)
    print("the project's functions by cumulative time:", file=sys.stderr)
    stats.sort_stats("cumulative").print_stats(r"/(server|protocol|engine)/", top)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables of 4 bots (default 100)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--echo-seconds", type=float, default=5.0,
                        help="how long the echo ceiling runs (default 5)")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds the play phase may take before it is cut (default 600)")
    parser.add_argument("--seed", type=int, default=1, help="the bots' random choices")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of the store on, off, off, on; the figures are those of "
                             "the round whose store_ratio is the median (default 3)")
    args = parser.parse_args(argv)
    result, extra = measure(max(1, args.tables), args.echo_seconds, args.timeout, args.seed,
                            max(1, args.rounds))
    if args.json:
        print(json.dumps(result))
    else:
        targets = {
            "finished": (result["finished"] == result["tables"], "= tables"),
            "errors": (result["errors"] == 0, "= 0"),
            "server_peak_rss_mb": (result["server_peak_rss_mb"] < 300, "< 300"),
            "store_ratio": (result["store_ratio"] >= 0.8, ">= 0.8"),
        }
        print(f"server benchmark: {result['tables']} tables of 4 network bots "
              f"({result['tables'] * 4} connections), play phase {extra['play_seconds']} s")
        for key, value in result.items():
            if key.startswith(("relay_", "rules_")) or value is None:
                continue  # printed beside the figures they floor, below
            mark = ""
            if key in targets:
                met, goal = targets[key]
                mark = f"   target {goal}: {'ok' if met else 'MISSED'}"
            shown = f"{value:,.2f}" if isinstance(value, float) else f"{value:,}"
            print(f"  {key:<28}{shown:>12}{mark}")
        print(f"  against the floors (benchmarks.fanout, {result['tables']} tables, this run):")
        print(f"    latency p50 / p99        {result['latency_p50_ms']:>8,.1f} / "
              f"{result['latency_p99_ms']:,.1f} ms   the relay: "
              f"{result['relay_latency_p50_ms']:,.1f} / {result['relay_latency_p99_ms']:,.1f} ms")
        print(f"    moves/s                  {result['moves_per_s']:>8,.0f}"
              f"             the relay: {result['relay_moves_per_s']:,.0f}")
        if result["cpu_us_a_move"] is not None:
            floor = result["relay_cpu_us"] + result["rules_cpu_us"]
            print(f"    server CPU a move        {result['cpu_us_a_move']:>8,.0f} µs"
                  f"          relay {result['relay_cpu_us']:,.0f} + rules alone "
                  f"{result['rules_cpu_us']:,.0f} = {floor:,.0f} µs "
                  f"(the server: {result['cpu_us_a_move'] / floor:.2f}x)")
        print(f"  store_ratio of each round: "
              f"{', '.join(f'{r:.2f}' for r in extra['store_ratios'])} (the median is shown)")
        print(f"  server peak RSS of each run (MiB, store on, off, off, on a round): "
              f"{', '.join(f'{mb:.1f}' for mb in extra['server_peaks_mb'])}")
        play_cpu = extra["server_play_cpu_s"]
        if play_cpu is not None:
            print(f"  play phase CPU (the first run): server {play_cpu:.2f} s "
                  f"({play_cpu / extra['play_seconds']:.0%} of a core), bots "
                  f"{extra['bots_cpu_s']:.2f} s")
        if extra["echo_server_cpu_us"] is not None:
            print(f"  echo server CPU: {extra['echo_server_cpu_us']:,.0f} µs a round trip")
        print(f"  stale_state rejections  {extra['stale_rejections']:>14,}  (normal, not errors)")
        if extra["problems"]:
            print(f"  problems: {extra['problems']}")
        if extra["server_log"]:
            print(f"  server warnings/errors logged: {extra['server_log']}")
        if extra["echo_failed"]:
            print(f"  echo connections that failed: {extra['echo_failed']}")
    if (extra["problems"] or extra["server_log"]) and args.json:
        print(json.dumps({"problems": extra["problems"], "server_log": extra["server_log"]}),
              file=sys.stderr)
    profile = os.environ.get(PROFILE_ENV)
    if profile and os.path.exists(profile):
        print_profile(profile)


if __name__ == "__main__":
    main()
