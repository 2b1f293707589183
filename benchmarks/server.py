"""The whole server under load: N tables of 4 network bots playing as fast as they can.

    python -m benchmarks.server [--tables N] [--json] [--echo-seconds S] [--timeout S]

What runs, all over loopback:

1. **The server** (`server.Server`) in a process of its own (multiprocessing, spawn), with
   no bot delay, no clocks, and limits wide enough that nothing here is throttled: the
   connection limits and the table count fit the run, the rate is 1000/s (burst 2000), the
   outbox holds 1024 messages. It reports the port it bound; at the end it reports its peak
   resident memory (`ru_maxrss`, the same figure as VmHWM) and how many warnings and errors it
   logged.
2. **The bots**, in this process (one trio run): per table, 4 connections that say hello;
   seat 0 creates a table (4 seats, clocks off), the 3 others join it by id. Connections are
   opened at most 100 at a time so that the listen backlog never overflows. Once every table
   is full, every bot sends `ready` at once (a full table of ready players starts by itself)
   and the play phase's clock starts. Each bot plays uniformly random legal moves
   (`engine.legal_moves` on the view of its latest `snapshot`/`update`), one move in flight
   at a time, until its view says `over`; then it leaves the table and closes.
3. **The ceiling**: a bare trio server that echoes msgpack maps (its own process again) and
   the same number of connections (4 N), each sending a small map shaped like a `move` and
   waiting for it to come back, for `--echo-seconds`.

Figures (`--json` prints exactly these keys, in one JSON object):

    tables                  tables set up (N)
    finished                tables whose 4 bots all saw the game end
    errors                  anything that went wrong: a refused move other than stale_state
                            (answering a window that another seat's move had just closed is
                            normal), an `error` or `bye` from the server, a connection that
                            closed or failed, a table that failed to set up or did not finish
                            before --timeout
    moves                   moves the server accepted from the bots (move_accepted)
    moves_per_s             moves / the play phase's wall time (first ready → last game over)
    latency_p50_ms, _p99_ms a move sent → the update carrying its result (the first update
                            whose state_id reaches the one in its move_accepted) received by
                            the same bot; accepted moves only
    server_peak_rss_mb      the server process's peak resident memory, in MiB
    echo_round_trips_per_s  round trips per second of the bare echo, all connections together
    ratio                   moves_per_s / echo_round_trips_per_s

Targets: 500 tables (2,000 connections) all finish with 0 errors, p99 < 100 ms, server RSS
< 300 MB, ratio >= 0.25. Bots and echo clients share the machine with the server being
measured: on a machine with few cores they compete with it for CPU, on both measurements alike.

Profiling: with COUP_BENCH_PROFILE=FILE in the environment the server process runs under
cProfile, dumps its stats to FILE, and the top functions (by own time) are printed to stderr.
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import os
import random
import resource
import sys
import time
from collections import Counter
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


def peak_rss_mb() -> float:
    """This process's peak resident memory (Linux reports ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


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


def vm_hwm_mb(pid: int) -> float | None:
    """Another process's peak resident memory, from /proc (None if unreadable)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
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


def _game_server_main(pipe, tables: int) -> None:
    """The game server's process: serve until the parent says stop, then report."""
    raise_file_limit()
    from server import Server, ServerConfig

    counter = _CountingHandler()
    logger = logging.getLogger("coup.server")
    logger.handlers[:] = [counter]
    logger.setLevel(logging.WARNING)
    logger.propagate = False
    connections = tables * 4 + 64
    config = ServerConfig(
        port=0, bot_delay=0, response_clock=0, turn_clock=0,
        rate=1000.0, burst=2000, outbox=1024,
        max_connections=connections, max_per_address=connections,
        max_tables=tables + 16, handshake_timeout=30.0, ping_interval=60.0,
    )

    async def run() -> None:
        srv = Server(config)
        async with trio.open_nursery() as nursery:
            host, port = await nursery.start(srv.serve)
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
    pipe.send(("done", {"rss_mb": peak_rss_mb(), "log": dict(counter.counts),
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
    pipe.send(("done", {"rss_mb": peak_rss_mb()}))


class Child:
    """A spawned server process and its end of the pipe."""

    def __init__(self, target, *args) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.pipe, child_end = ctx.Pipe()
        self.process = ctx.Process(target=target, args=(child_end, *args), daemon=True)
        self.process.start()
        child_end.close()

    def port(self, timeout: float = 60) -> int:
        if not self.pipe.poll(timeout):
            raise RuntimeError("the server process did not start")
        kind, port = self.pipe.recv()
        assert kind == "port"
        return port

    def stop(self, timeout: float = 60) -> dict:
        """Stop the server; its report ({} if it died), with VmHWM as a fallback."""
        hwm = vm_hwm_mb(self.process.pid)
        report: dict = {}
        try:
            self.pipe.send("stop")
            if self.pipe.poll(timeout):
                kind, report = self.pipe.recv()
        except (EOFError, OSError, BrokenPipeError):
            pass
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        if "rss_mb" not in report and hwm is not None:
            report["rss_mb"] = hwm
        return report


# ---------------------------------------------------------------------- the bots


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


class Bot:
    """One network player: bare msgpack over a trio stream, one task, one move in flight."""

    def __init__(self, stream: trio.SocketStream, name: str, stats: Stats, rng: random.Random):
        self.stream = stream
        self.name = name
        self.stats = stats
        self.rng = rng
        self.unpacker = msgpack.Unpacker(raw=False)
        self.next_id = 1
        self.seat: int | None = None
        self.table: str | None = None
        self.over = False
        self.finished_at: float | None = None

    @classmethod
    async def connect(cls, port: int, name: str, stats: Stats, rng: random.Random) -> Bot:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        bot = cls(stream, name, stats, rng)
        await bot.send({"t": "hello", "versions": [1], "client": "bench/1", "name": name})
        welcome = await bot.recv()
        if welcome.get("t") != "welcome":
            raise RuntimeError(f"{name}: no welcome: {welcome}")
        return bot

    async def send(self, msg: dict) -> None:
        await self.stream.send_all(msgpack.packb(msg))

    async def recv(self) -> dict:
        while True:
            for msg in self.unpacker:
                return msg
            data = await self.stream.receive_some(65536)
            if not data:
                raise Closed(self.name)
            self.unpacker.feed(data)

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    async def request(self, msg: dict) -> dict:
        """Send a request and return its answer (by `re`); other messages are dropped,
        pings answered."""
        msg["id"] = self.new_id()
        await self.send(msg)
        with trio.fail_after(SETUP_TIMEOUT):
            while True:
                reply = await self.recv()
                if reply.get("re") == msg["id"]:
                    return reply
                if reply.get("t") == "ping":
                    await self.send({"t": "pong", "re": reply["id"]})

    async def play(self) -> None:
        """Ready, then random legal moves until the game is over; then leave and close."""
        stats = self.stats
        await self.send({"t": "ready", "id": self.new_id()})
        view: View | None = None
        pending: tuple[int, int, float] | None = None  # (id, state_id, sent at)
        awaited: tuple[int, float] | None = None  # (state_id after the move, sent at)
        errors = 0

        async def move() -> None:
            nonlocal pending
            moves = legal_moves(view, self.seat)
            chosen = moves[int(self.rng.random() * len(moves))]
            request_id = self.new_id()
            pending = (request_id, view.state_id, time.perf_counter())
            await self.send({"t": "move", "id": request_id, "state_id": view.state_id,
                             "move": chosen.to_dict()})

        while True:
            msg = await self.recv()
            kind = msg.get("t")
            if kind == "update" or kind == "snapshot":
                data = msg["view"]
                if awaited is not None and data["state_id"] >= awaited[0]:
                    stats.latencies.append(time.perf_counter() - awaited[1])
                    awaited = None
                view = View.from_dict(data)
                if view.phase == "over":
                    self.over = True
                    self.finished_at = time.perf_counter()
                    break
                if pending is None and self.seat in view.waiting:
                    await move()
            elif kind == "move_accepted":
                stats.moves += 1
                if pending is not None and msg["re"] == pending[0]:
                    awaited = (msg["state_id"], pending[2])
                    pending = None
            elif kind == "move_rejected":
                if pending is None or msg["re"] != pending[0]:
                    stats.error("unexpected move_rejected")
                    continue
                stale_from = pending[1]
                pending = None
                if msg["code"] == "stale_state":
                    stats.stale += 1
                else:
                    stats.error(f"move_rejected:{msg['code']}")
                    errors += 1
                    if errors > MAX_BOT_ERRORS:
                        return
                if view is not None and self.seat in view.waiting and (
                        view.state_id > stale_from or msg["code"] != "stale_state"):
                    await move()
            elif kind == "ping":
                await self.send({"t": "pong", "re": msg["id"]})
            elif kind == "error":
                stats.error(f"error:{msg.get('code')}")
            elif kind == "bye":
                stats.error(f"bye:{msg.get('reason')}")
                return
            # ok, table, presence, joined, chat...: nothing to do
        # The game is over: leave (so the table closes at once) and hang up.
        with trio.move_on_after(5):
            try:
                await self.request({"t": "leave"})
            except (Closed, trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass

    async def aclose(self) -> None:
        with trio.move_on_after(1) as scope:
            scope.shield = True
            try:
                await self.stream.aclose()
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass


async def _connect_all(port: int, names: list[str], stats: Stats,
                       rng: random.Random) -> list[Bot | None]:
    """One bot per name (None where it failed), CONNECT_BATCH connections at a time."""
    bots: list[Bot | None] = [None] * len(names)

    async def one(i: int) -> None:
        try:
            with trio.fail_after(SETUP_TIMEOUT):
                bots[i] = await Bot.connect(port, names[i], stats,
                                            random.Random(rng.getrandbits(64)))
        except Exception as exc:  # noqa: BLE001 — counted, the run goes on
            stats.error(f"connect:{type(exc).__name__}")

    for start in range(0, len(names), CONNECT_BATCH):
        async with trio.open_nursery() as nursery:
            for i in range(start, min(start + CONNECT_BATCH, len(names))):
                nursery.start_soon(one, i)
    return bots


async def run_tables(port: int, tables: int, deadline: float, seed: int,
                     server_pid: int | None = None) -> dict:
    """Set up `tables` tables of 4 bots, play them out, and count."""
    stats = Stats()
    rng = random.Random(seed)
    names = [f"b{t}-{s}" for t in range(tables) for s in range(4)]
    bots = await _connect_all(port, names, stats, rng)
    groups = [bots[4 * t:4 * t + 4] for t in range(tables)]
    ready: list[list[Bot]] = []

    async def seat(group: list[Bot | None]) -> None:
        if any(b is None for b in group):
            return
        try:
            joined = await group[0].request({"t": "create_table", "options": {
                "seats": 4, "response_clock": 0, "turn_clock": 0}})
            if joined.get("t") != "joined":
                raise RuntimeError(f"create_table: {joined}")
            group[0].seat, group[0].table = joined["seat"], joined["table"]
            for bot in group[1:]:
                j = await bot.request({"t": "join", "table": group[0].table})
                if j.get("t") != "joined":
                    raise RuntimeError(f"join: {j}")
                bot.seat, bot.table = j["seat"], j["table"]
            ready.append(group)
        except Exception as exc:  # noqa: BLE001 — counted, the run goes on
            stats.error(f"setup:{type(exc).__name__}")

    for start in range(0, tables, CONNECT_BATCH // 4):
        async with trio.open_nursery() as nursery:
            for group in groups[start:start + CONNECT_BATCH // 4]:
                nursery.start_soon(seat, group)
    failed_setup = tables - len(ready)
    if failed_setup:
        stats.problems["table not set up"] += failed_setup

    async def play(bot: Bot) -> None:
        try:
            await bot.play()
        except Closed:
            stats.error("closed by the server")
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            stats.error(f"connection:{type(exc).__name__}")
        except Exception as exc:  # noqa: BLE001 — a bot's bug must not hide the figures
            stats.error(f"bot:{exc!r}")
        finally:
            await bot.aclose()

    start = time.perf_counter()
    cpu_start = cpu_seconds()
    server_cpu_start = process_cpu_seconds(server_pid) if server_pid else None
    with trio.move_on_at(deadline) as timed:
        async with trio.open_nursery() as nursery:
            for group in ready:
                for bot in group:
                    nursery.start_soon(play, bot)
    bots_cpu = cpu_seconds() - cpu_start
    server_cpu_end = process_cpu_seconds(server_pid) if server_pid else None
    server_cpu = (server_cpu_end - server_cpu_start
                  if server_cpu_start is not None and server_cpu_end is not None else None)
    finished = [g for g in ready if all(b.over for b in g)]
    ends = [b.finished_at for g in finished for b in g]
    wall = (max(ends) if ends else time.perf_counter()) - start
    unfinished = tables - len(finished)
    if timed.cancelled_caught:
        stats.problems["timed out"] += 1
    # A table that did not finish is an error (the setup failures are counted already).
    for _ in range(len(ready) - len(finished)):
        stats.error("table did not finish")
    for bot in bots:
        if bot is not None:
            await bot.aclose()
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        if not lat:
            return 0.0
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000

    return {
        "finished": len(finished),
        "unfinished": unfinished,
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


async def run_echo(port: int, connections: int, seconds: float) -> dict:
    """`connections` clients doing request → echo round trips for `seconds`."""
    streams: list[trio.SocketStream] = []
    failed = 0

    async def connect() -> None:
        nonlocal failed
        try:
            with trio.fail_after(SETUP_TIMEOUT):
                streams.append(await trio.open_tcp_stream("127.0.0.1", port))
        except Exception:  # noqa: BLE001
            failed += 1

    for start in range(0, connections, CONNECT_BATCH):
        async with trio.open_nursery() as nursery:
            for _ in range(start, min(start + CONNECT_BATCH, connections)):
                nursery.start_soon(connect)
    counts = [0] * len(streams)
    end = trio.current_time() + seconds

    async def loop(i: int, stream: trio.SocketStream) -> None:
        unpacker = msgpack.Unpacker(raw=False)
        packb = msgpack.packb
        n = 0
        try:
            while trio.current_time() < end:
                await stream.send_all(packb({"t": "move", "id": n, "state_id": n,
                                             "move": {"kind": "income"}}))
                got = False
                while not got:
                    for _ in unpacker:
                        got = True
                        break
                    if not got:
                        data = await stream.receive_some(65536)
                        if not data:
                            return
                        unpacker.feed(data)
                n += 1
                counts[i] = n
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass

    start = time.perf_counter()
    async with trio.open_nursery() as nursery:
        for i, stream in enumerate(streams):
            nursery.start_soon(loop, i, stream)
    wall = time.perf_counter() - start
    for stream in streams:
        with trio.move_on_after(1) as scope:
            scope.shield = True
            await stream.aclose()
    total = sum(counts)
    return {"echo_round_trips_per_s": total / wall if wall > 0 else 0.0,
            "echo_connections": len(streams), "echo_failed": failed}


# ---------------------------------------------------------------------- main


def measure(tables: int, echo_seconds: float, timeout: float, seed: int) -> tuple[dict, dict]:
    raise_file_limit()
    server = Child(_game_server_main, tables)
    try:
        port = server.port()
        game = trio.run(_with_deadline, port, tables, timeout, seed, server.process.pid)
    finally:
        report = server.stop()
    echo = Child(_echo_server_main)
    try:
        echo_port = echo.port()
        ceiling = trio.run(run_echo, echo_port, tables * 4, echo_seconds)
    finally:
        echo.stop()
    result = {
        "tables": tables,
        "finished": game["finished"],
        "errors": game["errors"],
        "moves": game["moves"],
        "moves_per_s": round(game["moves_per_s"], 1),
        "latency_p50_ms": round(game["latency_p50_ms"], 2),
        "latency_p99_ms": round(game["latency_p99_ms"], 2),
        "server_peak_rss_mb": round(report.get("rss_mb", 0.0), 1),
        "echo_round_trips_per_s": round(ceiling["echo_round_trips_per_s"], 1),
        "ratio": round(game["moves_per_s"] / ceiling["echo_round_trips_per_s"], 3)
        if ceiling["echo_round_trips_per_s"] else 0.0,
    }
    extra = {
        "stale_rejections": game["stale"],
        "play_seconds": round(game["wall_s"], 2),
        "bots_cpu_s": round(game["bots_cpu_s"], 2),
        "server_cpu_s": round(report.get("cpu_s", 0.0), 2),
        "server_play_cpu_s": game["server_play_cpu_s"],
        "problems": game["problems"],
        "server_log": report.get("log", {}),
        "echo_connections": ceiling["echo_connections"],
        "echo_failed": ceiling["echo_failed"],
    }
    return result, extra


async def _with_deadline(port: int, tables: int, timeout: float, seed: int,
                         server_pid: int) -> dict:
    return await run_tables(port, tables, trio.current_time() + timeout, seed, server_pid)


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
    args = parser.parse_args(argv)
    result, extra = measure(max(1, args.tables), args.echo_seconds, args.timeout, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        targets = {
            "finished": result["finished"] == result["tables"],
            "errors": result["errors"] == 0,
            "latency_p99_ms": result["latency_p99_ms"] < 100,
            "server_peak_rss_mb": result["server_peak_rss_mb"] < 300,
            "ratio": result["ratio"] >= 0.25,
        }
        goals = {"finished": "= tables", "errors": "= 0", "latency_p99_ms": "< 100",
                 "server_peak_rss_mb": "< 300", "ratio": ">= 0.25"}
        print(f"server benchmark: {result['tables']} tables of 4 network bots "
              f"({result['tables'] * 4} connections), play phase {extra['play_seconds']} s")
        for key, value in result.items():
            mark = ""
            if key in targets:
                mark = f"   target {goals[key]}: {'ok' if targets[key] else 'MISSED'}"
            shown = f"{value:,.2f}" if isinstance(value, float) else f"{value:,}"
            print(f"  {key:<24}{shown:>14}{mark}")
        play_cpu = extra["server_play_cpu_s"]
        if play_cpu is not None:
            per_move = play_cpu / result["moves"] * 1e6 if result["moves"] else 0.0
            print(f"  play phase CPU: server {play_cpu:.2f} s ({per_move:,.0f} µs a move, "
                  f"{play_cpu / extra['play_seconds']:.0%} of a core), bots "
                  f"{extra['bots_cpu_s']:.2f} s")
        print(f"  stale_state rejections  {extra['stale_rejections']:>14,}  (normal, not errors)")
        if extra["problems"]:
            print(f"  problems: {extra['problems']}")
        if extra["server_log"]:
            print(f"  server warnings/errors logged: {extra['server_log']}")
        if extra["echo_failed"]:
            print(f"  echo connections that failed: {extra['echo_failed']}")
    if extra["problems"] or extra["server_log"]:
        if args.json:
            print(json.dumps({"problems": extra["problems"], "server_log": extra["server_log"]}),
                  file=sys.stderr)
    profile = os.environ.get(PROFILE_ENV)
    if profile and os.path.exists(profile):
        print_profile(profile)


if __name__ == "__main__":
    main()
