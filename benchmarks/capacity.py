"""Capacity at human pace: how many tables of people one `coup serve` process holds.

    python -m benchmarks.capacity [--tables N | --find] [--think S] [--seconds S]
                                  [--warmup S] [--budget S] [--seed K] [--without-store]
                                  [--json]

`benchmarks.server` plays as fast as the bots can, one move in flight per table: its latency
is tables / throughput and says little about people. Here the load is open-loop, as people
make it:

1. **The server** is `coup serve` itself (`python -m client.cli serve`), its own process,
   with its defaults (clocks 20 s / 60 s, pings after 15 s of silence, the collector tuned,
   logging to a file) and a store in a fresh SQLite file (`--without-store`: none, `--db
   :memory:`, to see what the store costs); only the limits that would refuse the load are
   raised (connections, connections per address, tables).
2. **The load generator**: one process per 2,000 tables (`TABLES_PER_GENERATOR`), each
   connecting from its own loopback address. Each table has 4 seated clients and 1
   spectator, all on raw msgpack frames and one bare epoll loop per process (no tasks).
   When a seat owes a decision it thinks for a random time, **exponential with mean
   `--think` (2 s)**, then plays a uniformly random legal move (`engine.legal_moves` on its
   latest view) against that view. Seats that owe the same decision (a response window)
   think side by side, so a 4-seat table makes somewhat more than one move every `--think`
   seconds (`moves_per_table_s` says how many). When a game ends every seat asks for a
   rematch at once, so tables play on. Every ping is answered; connections stay open.
3. **Timeline**: all tables are set up (not measured), the seats say `ready` spread over
   the first `--think` seconds, `--warmup` seconds pass, then the window of `--seconds`
   is measured.

The open-files limit of the server and of every generator process is raised to the hard
limit (the output says to what); one process cannot hold more connections than that.

Figures (`--json` prints exactly these keys; with `--find`, `{"held": ..., "failed": ...,
"limit": ..., "trials": [...]}` with these, and `failures`, for each trial):

    tables, connections, generators
    store                  whether the server kept a store
    moves, moves_per_s, moves_per_table_s   moves the server accepted in the window
    latency_p50_ms, latency_p99_ms   a move sent → the update carrying its result received
                                     by the same client
    server_rss_mb          the server's largest resident memory (VmRSS) in the window
    server_rss_idle_mb     its resident memory once every table is set up, before play
    server_rss_base_mb     its resident memory before any client connected
    rss_per_connection_kb  (server_rss_mb - server_rss_base_mb) / connections
    server_cpu_share       the server's CPU time in the window / the window (1.0 = one core)
    server_cpu_us_a_move   the server's CPU time in the window / moves (pings, clocks, the
                           store, rematches and 5 viewers a move included)
    generator_cpu_share    every generator process's together, the same way
    generator_busiest      the busiest generator process's share
    generator_lag_p99_ms   how late the generator sends a move after its think time ends:
                           past GENERATOR_LAG_MS (or a generator past GENERATOR_BUSY of a
                           core) the generator, not the server, is the limit
    rejected               moves refused, by code (stale_state is normal in windows)
    problems               connections or tables that failed (should be empty)
    server_warnings        warnings and errors the server logged, by event
    setup_s                seconds the setup took
    open_files             the open-files limit both sides ran with

`--find` raises N, doubling from 250 and then bisecting to within 10 %, until a trial fails:
p99 over 100 ms, server RSS over 1 GB, the generator saturated, a problem, or N past what
the open-files limit allows; it stops when `--budget` seconds (600) would be exceeded, and
prints the largest N that held with its figures.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import multiprocessing
import os
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import trio

from engine import View, legal_moves

from .server import (
    SETUP_TIMEOUT, Loop, Peer, Setup, cpu_seconds, memory_mb, process_cpu_seconds,
    raise_file_limit,
)

TABLES_PER_GENERATOR = 2000
#: Clients per table: 4 seats and a spectator.
CLIENTS = 5
#: Tables being set up at once by one generator.
SETUP_TABLES = 40
P99_LIMIT_MS = 100.0
RSS_LIMIT_MB = 1024.0
GENERATOR_LAG_MS = 50.0
GENERATOR_BUSY = 0.9
#: File descriptors a process needs besides its connections.
SPARE_FILES = 200
FIND_START = 250


def open_files() -> int:
    """This process's open-files limit (after raise_file_limit)."""
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def max_tables() -> int:
    """The most tables one server process can hold under the open-files limit."""
    return (open_files() - SPARE_FILES) // CLIENTS


# ---------------------------------------------------------------------- the server


class ServeProcess:
    """`coup serve` in a process of its own, logging to a file, keeping a fresh store."""

    def __init__(self, folder: str, tables: int, store: bool = True) -> None:
        connections = str(tables * CLIENTS + 64)
        db = os.path.join(folder, "server.db") if store else ":memory:"
        self.log_path = os.path.join(folder, "serve.log")
        env = dict(os.environ, COUP_DISCOVERY="off")
        # The open-files limit raised in this process is inherited; so is the log file.
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "client.cli", "serve", "--port", "0",
                 "--db", db, "--door-secret", "none",
                 "--max-connections", connections, "--max-per-address", connections,
                 "--max-tables", str(tables + 16), "--tables-per-address", str(tables + 16)],
                stdout=subprocess.DEVNULL, stderr=log, env=env)

    def port(self, timeout: float = 60) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with open(self.log_path) as f:
                found = re.search(r" listening .*\bport=(\d+)", f.read())
            if found:
                return int(found.group(1))
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        with open(self.log_path) as f:
            raise RuntimeError("coup serve did not start: " + f.read()[-2000:])

    def stop(self) -> dict[str, int]:
        """Stop it (SIGTERM, then SIGKILL); the warnings and errors it logged, by event."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        counts: Counter[str] = Counter()
        with open(self.log_path) as f:
            for line in f:
                parts = line.split(maxsplit=3)
                if len(parts) >= 3 and parts[1] in ("WARNING", "ERROR"):
                    counts[f"{parts[1].lower()}:{parts[2]}"] += 1
        return dict(counts)


# ---------------------------------------------------------------------- the load generator


class Generator:
    """One generator process's shared state: the timers, the window and what it counts."""

    def __init__(self, think: float, rng: random.Random) -> None:
        self.think = think
        self.rng = rng
        self.timers: list[tuple[float, int, Peer, Callable[[Any], None], object]] = []
        self.seq = 0
        self.timers_due = 0.0  # when the timer being run was due
        self.in_window = False
        self.moves = 0
        self.latencies: list[float] = []
        self.lags: list[float] = []
        self.rejected: Counter[str] = Counter()
        self.problems: Counter[str] = Counter()

    def at(self, when: float, peer: Peer, call: Callable[[Any], None], arg: object) -> None:
        """Run `call(arg)`, a step of `peer`, at `when`."""
        self.seq += 1
        heapq.heappush(self.timers, (when, self.seq, peer, call, arg))

    def thinking(self) -> float:
        return self.rng.expovariate(1 / self.think)


class Spectator(Peer):
    """Watches a table: reads everything, answers pings."""

    def __init__(self, setup: Setup, gen: Generator) -> None:
        super().__init__(setup.detach(), setup.unpacker)
        self.gen = gen

    def start(self) -> None:
        for msg in self.unpacker:  # what came during the setup and was not read then
            self.received(msg)

    def received(self, msg: dict) -> None:
        if msg["t"] == "ping":
            self.send({"t": "pong", "re": msg["id"]})

    def failed(self, problem: str) -> None:
        self.gen.problems[problem] += 1
        self.done = True


class Seat(Spectator):
    """A seated player: thinks, then plays a random legal move; asks for a rematch."""

    def __init__(self, setup: Setup, gen: Generator) -> None:
        super().__init__(setup, gen)
        self.seat = setup.seat
        self.next_id = setup.next_id
        self.view: dict | None = None
        self.planned: int | None = None  # `opened` of the decision being thought about or answered
        self.sent: dict[int, float] = {}  # request id → when the move was sent
        self.awaited: list[tuple[int, float]] = []  # (state_id after the move, sent at)
        self.asked_rematch = False

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def ready(self, _arg) -> None:
        self.send({"t": "ready", "id": self.new_id()})

    def decide(self, opened: int) -> None:
        """The think time for the decision that opened at `opened` is over."""
        gen = self.gen
        view = self.view
        if self.done or opened != self.planned or view is None or view["opened"] != opened \
                or self.seat not in view["waiting"]:
            return
        if gen.in_window:
            gen.lags.append(time.monotonic() - gen.timers_due)
        engine_view = View.from_dict(view)
        assert self.seat is not None  # seated before its first decision
        moves = legal_moves(engine_view, self.seat)
        chosen = moves[int(gen.rng.random() * len(moves))]
        request_id = self.new_id()
        self.sent[request_id] = time.monotonic()
        self.send({"t": "move", "id": request_id, "state_id": view["state_id"],
                   "move": chosen.to_dict()})

    def arrived(self, state_id: int) -> None:
        """The view reached `state_id`: the moves it carries the result of are timed."""
        now = time.monotonic()
        keep = []
        for awaited, sent_at in self.awaited:
            if state_id >= awaited:
                if self.gen.in_window:
                    self.gen.latencies.append(now - sent_at)
            else:
                keep.append((awaited, sent_at))
        self.awaited = keep

    def received(self, msg: dict) -> None:
        kind = msg["t"]
        if kind == "update" or kind == "snapshot":
            view = msg["view"]
            if kind == "snapshot":  # a new game: state ids start again
                self.awaited = []
                self.planned = None
                self.asked_rematch = False
            self.view = view
            if self.awaited:
                self.arrived(view["state_id"])
            if view["phase"] == "over":
                if not self.asked_rematch:
                    self.asked_rematch = True
                    self.send({"t": "rematch", "id": self.new_id()})
            elif self.seat in view["waiting"] and view["opened"] != self.planned:
                self.planned = view["opened"]
                self.gen.at(time.monotonic() + self.gen.thinking(), self, self.decide,
                            self.planned)
        elif kind == "move_accepted":
            sent_at = self.sent.pop(msg["re"], None)
            if self.gen.in_window:
                self.gen.moves += 1
            if sent_at is not None:
                self.awaited.append((msg["state_id"], sent_at))
                if self.view is not None:
                    self.arrived(self.view["state_id"])
        elif kind == "move_rejected":
            self.sent.pop(msg["re"], None)
            self.gen.rejected[msg["code"]] += 1
        elif kind == "ping":
            self.send({"t": "pong", "re": msg["id"]})
        elif kind == "error":
            self.gen.problems[f"error:{msg.get('code')}"] += 1
        elif kind == "bye":
            self.gen.problems[f"bye:{msg.get('reason')}"] += 1
            self.done = True
        # ok, table, presence, chat: nothing to do


async def _set_up(port: int, tables: int, worker: int, local: str,
                  problems: Counter) -> list[list[Setup]]:
    """`tables` tables of 4 seated connections and a spectator, as lists of 5 Setups."""
    limiter = trio.CapacityLimiter(SETUP_TABLES)
    done: list[list[Setup]] = []

    async def connect(name: str, opened: list[Setup]) -> Setup:
        stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=local)
        setup = Setup(stream, name)
        opened.append(setup)
        await setup.send({"t": "hello", "versions": [1], "client": "bench/1", "name": name})
        welcome = await setup.recv()
        if welcome.get("t") != "welcome":
            raise RuntimeError(f"no welcome: {welcome}")
        return setup

    async def table(t: int) -> None:
        opened: list[Setup] = []
        async with limiter:
            try:
                with trio.fail_after(SETUP_TIMEOUT):
                    group = [await connect(f"g{worker}t{t}s{s}", opened)
                             for s in range(CLIENTS)]
                creator = group[0]
                joined = await creator.request({"t": "create_table", "options": {"seats": 4}})
                if joined.get("t") != "joined":
                    raise RuntimeError(f"create_table: {joined}")
                creator.seat = joined["seat"]
                for setup in group[1:4]:
                    j = await setup.request({"t": "join", "table": joined["table"]})
                    if j.get("t") != "joined":
                        raise RuntimeError(f"join: {j}")
                    setup.seat = j["seat"]
                j = await group[4].request({"t": "join", "table": joined["table"],
                                            "spectate": True})
                if j.get("t") != "joined":
                    raise RuntimeError(f"spectate: {j}")
                done.append(group)
            except Exception as exc:  # noqa: BLE001 — counted, the run goes on
                problems[f"setup:{type(exc).__name__}"] += 1
                for setup in opened:
                    await setup.stream.aclose()

    async with trio.open_nursery() as nursery:
        for t in range(tables):
            nursery.start_soon(table, t)
    return done


def _generator_main(pipe, port: int, tables: int, worker: int, think: float, warmup: float,
                    seconds: float, seed: int) -> None:
    """A generator process: set up its tables, report, then play when the parent says go,
    measure its window, and report what it counted."""
    raise_file_limit()
    gen = Generator(think, random.Random(seed * 1000 + worker))
    started = time.monotonic()
    groups = trio.run(_set_up, port, tables, worker, f"127.0.1.{worker + 1}", gen.problems)
    peers: list[Spectator] = []
    seats: list[Seat] = []
    for group in groups:
        seats += [Seat(setup, gen) for setup in group[:4]]
        peers.append(Spectator(group[4], gen))
    peers += seats
    pipe.send(("set", {"tables": len(groups), "setup_s": time.monotonic() - started}))
    _play(peers, seats, gen, pipe, warmup, seconds)


def _play(peers: list[Spectator], seats: list[Seat], gen: Generator, pipe, warmup: float,
          seconds: float) -> None:
    """The bare epoll loop: frames in, timers due, the window's edges; then the report."""
    loop = Loop(peers)
    loop.watch(pipe.fileno())
    window_start = window_end = math.inf
    cpu_start = cpu_end = 0.0
    try:
        timers = gen.timers
        while True:
            now = time.monotonic()
            if now >= window_start and not gen.in_window and now < window_end:
                gen.in_window = True
                cpu_start = cpu_seconds()
            if now >= window_end:
                cpu_end = cpu_seconds()
                gen.in_window = False
                break
            while timers and timers[0][0] <= now:
                due, _, peer, call, arg = heapq.heappop(timers)
                gen.timers_due = due
                loop.guarded(peer, call, arg)
            next_at = min(timers[0][0] if timers else math.inf,
                          window_start if not gen.in_window else window_end)
            timeout = None if next_at == math.inf else max(0.0, next_at - time.monotonic())
            if loop.poll(timeout):  # the parent: ("go", when)
                _, go_at = pipe.recv()
                loop.forget(pipe.fileno())
                window_start = go_at + warmup
                window_end = window_start + seconds
                for seat in seats:
                    gen.at(go_at + gen.rng.random() * gen.think, seat, seat.ready, None)
    finally:
        loop.close()
    pipe.send(("result", {
        "moves": gen.moves, "latencies": gen.latencies, "lags": gen.lags,
        "cpu_s": cpu_end - cpu_start, "rejected": dict(gen.rejected),
        "problems": dict(gen.problems),
    }))


# ---------------------------------------------------------------------- one trial


def percentile(values: list[float], p: float) -> float:
    """The p-quantile of `values`, in ms (0 if there are none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 2)


def trial(tables: int, think: float, warmup: float, seconds: float, seed: int,
          store: bool = True) -> dict:
    """N tables on a fresh `coup serve` (keeping a store, or none) for one window; the
    figures."""
    if tables > max_tables():
        raise ValueError(f"{tables} tables need {tables * CLIENTS} connections: past the "
                         f"open-files limit ({open_files()}), one process holds {max_tables()}")
    ctx = multiprocessing.get_context("spawn")
    generators = math.ceil(tables / TABLES_PER_GENERATOR)
    shares = [tables // generators + (1 if w < tables % generators else 0)
              for w in range(generators)]
    children: list = []
    with tempfile.TemporaryDirectory() as folder:
        server = ServeProcess(folder, tables, store)
        server_log: dict[str, int] = {}
        try:
            port = server.port()
            pid = server.process.pid
            rss_base = memory_mb(pid, "VmRSS") or 0.0
            started = time.monotonic()
            for w, share in enumerate(shares):
                parent_end, child_end = ctx.Pipe()
                process = ctx.Process(target=_generator_main, daemon=True, args=(
                    child_end, port, share, w, think, warmup, seconds, seed))
                process.start()
                child_end.close()
                children.append((process, parent_end))
            set_up = 0
            for process, pipe in children:
                if not pipe.poll(SETUP_TIMEOUT + tables * 0.05):
                    raise RuntimeError("a generator did not finish its setup")
                _, report = pipe.recv()
                set_up += report["tables"]
            setup_s = time.monotonic() - started
            rss_idle = memory_mb(pid, "VmRSS") or 0.0
            go_at = time.monotonic() + 0.5
            for _, pipe in children:
                pipe.send(("go", go_at))
            window_start = go_at + warmup
            window_end = window_start + seconds
            time.sleep(max(0.0, window_start - time.monotonic()))
            cpu_start = process_cpu_seconds(pid) or 0.0
            rss_max = memory_mb(pid, "VmRSS") or 0.0
            while time.monotonic() < window_end:
                time.sleep(min(0.5, max(0.0, window_end - time.monotonic())))
                rss_max = max(rss_max, memory_mb(pid, "VmRSS") or 0.0)
            server_cpu = (process_cpu_seconds(pid) or 0.0) - cpu_start
            reports = []
            for process, pipe in children:
                if not pipe.poll(SETUP_TIMEOUT):
                    raise RuntimeError("a generator did not report")
                reports.append(pipe.recv()[1])
        finally:
            for process, pipe in children:
                process.join(10)
                if process.is_alive():
                    process.kill()
                    process.join()
                pipe.close()
            server_log = server.stop()
    latencies = [x for r in reports for x in r["latencies"]]
    lags = [x for r in reports for x in r["lags"]]
    moves = sum(r["moves"] for r in reports)
    problems: Counter[str] = Counter()
    rejected: Counter[str] = Counter()
    for r in reports:
        problems.update(r["problems"])
        rejected.update(r["rejected"])
    if set_up < tables:
        problems["tables not set up"] += tables - set_up
    connections = tables * CLIENTS
    return {
        "tables": tables,
        "connections": connections,
        "generators": generators,
        "store": store,
        "moves": moves,
        "moves_per_s": round(moves / seconds, 1),
        "moves_per_table_s": round(moves / seconds / tables, 3),
        "latency_p50_ms": percentile(latencies, 0.50),
        "latency_p99_ms": percentile(latencies, 0.99),
        "server_rss_mb": round(rss_max, 1),
        "server_rss_idle_mb": round(rss_idle, 1),
        "server_rss_base_mb": round(rss_base, 1),
        "rss_per_connection_kb": round((rss_max - rss_base) * 1024 / connections, 1),
        "server_cpu_share": round(server_cpu / seconds, 3),
        "server_cpu_us_a_move": round(server_cpu / moves * 1e6, 1) if moves else 0.0,
        "generator_cpu_share": round(sum(r["cpu_s"] for r in reports) / seconds, 3),
        "generator_busiest": round(max(r["cpu_s"] for r in reports) / seconds, 3),
        "generator_lag_p99_ms": percentile(lags, 0.99),
        "rejected": dict(rejected),
        "problems": dict(problems),
        "server_warnings": server_log,
        "setup_s": round(setup_s, 1),
        "open_files": open_files(),
    }


def failures(result: dict) -> list[str]:
    """Why a trial did not hold (empty: it held)."""
    why = []
    if result["latency_p99_ms"] > P99_LIMIT_MS:
        why.append(f"p99 > {P99_LIMIT_MS:g} ms")
    if result["server_rss_mb"] > RSS_LIMIT_MB:
        why.append(f"server RSS > {RSS_LIMIT_MB:g} MB")
    if result["generator_lag_p99_ms"] > GENERATOR_LAG_MS or \
            result["generator_busiest"] > GENERATOR_BUSY:
        why.append("generator saturated")
    if result["problems"]:
        why.append("problems")
    return why


def find(think: float, warmup: float, seconds: float, budget: float, seed: int,
         say, store: bool = True) -> dict:
    """Raise N until a trial fails, within `budget` seconds: the largest N that held."""
    deadline = time.monotonic() + budget
    cap = max_tables()
    held: dict | None = None
    failed: dict | None = None
    trials = []
    n = min(FIND_START, cap)
    limit = "time budget"
    while True:
        started = time.monotonic()
        result = trial(n, think, warmup, seconds, seed, store)
        took = time.monotonic() - started
        why = failures(result)
        result["failures"] = why
        trials.append(result)
        say(f"  {n:>6,} tables: p99 {result['latency_p99_ms']:.1f} ms, "
            f"{result['moves_per_s']:,.0f} moves/s, server RSS {result['server_rss_mb']:,.0f} MB, "
            f"CPU server {result['server_cpu_share']:.0%} generator "
            f"{result['generator_cpu_share']:.0%}, lag p99 {result['generator_lag_p99_ms']:.1f} ms"
            f"  {'FAILED: ' + ', '.join(why) if why else 'held'}  ({took:.0f} s)")
        if why:
            failed = result
        else:
            held = result
        if failed is None:
            if n >= cap:
                limit = f"open files: the limit {open_files()} holds {cap} tables"
                break
            nxt = min(n * 2, cap)
        else:
            low = held["tables"] if held else 0
            if failed["tables"] - low <= max(1, low // 10):
                limit = ", ".join(failed["failures"])
                break
            nxt = (low + failed["tables"]) // 2
        # The next trial takes about as long as this one, scaled by its size.
        if time.monotonic() + took * max(1.0, nxt / n) > deadline:
            if failed is not None:
                limit = ", ".join(failed["failures"]) + " (bisection cut by the time budget)"
            break
        n = nxt
    return {"held": held, "failed": failed, "limit": limit, "trials": trials}


# ---------------------------------------------------------------------- main


def show(result: dict) -> None:
    for key, value in result.items():
        if isinstance(value, (dict, list)):
            print(f"  {key:<24}{value}")
        else:
            shown = f"{value:,.3f}" if isinstance(value, float) else f"{value:,}"
            print(f"  {key:<24}{shown:>14}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--tables", type=int, default=500, help="tables of 4 seats and a "
                       "spectator (default 500)")
    which.add_argument("--find", action="store_true",
                       help="raise the tables until p99 passes 100 ms (or another limit)")
    parser.add_argument("--think", type=float, default=2.0,
                        help="mean think time in seconds, exponential (default 2)")
    parser.add_argument("--seconds", type=float, default=20.0, help="the measured window")
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="seconds of play before the window")
    parser.add_argument("--budget", type=float, default=600.0,
                        help="seconds --find may take (default 600)")
    parser.add_argument("--seed", type=int, default=1, help="the generators' random choices")
    parser.add_argument("--without-store", action="store_true",
                        help="a server that keeps no store (--db :memory:)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    raise_file_limit()
    store = not args.without_store
    say = (lambda line: print(line, file=sys.stderr)) if args.json else print
    say(f"capacity at human pace: 4 seats + 1 spectator a table, think time exponential, "
        f"mean {args.think:g} s; warm-up {args.warmup:g} s, window {args.seconds:g} s; "
        f"open-files limit raised to {open_files():,} in the server and the generators "
        f"(at most {max_tables():,} tables a process)")
    if args.find:
        found = find(args.think, args.warmup, args.seconds, args.budget, args.seed, say, store)
        if args.json:
            print(json.dumps(found))
            return
        held = found["held"]
        print(f"largest N that held: {held['tables'] if held else 'none'} "
              f"(limit: {found['limit']})")
        if held:
            show(held)
        return
    result = trial(max(1, args.tables), args.think, args.warmup, args.seconds, args.seed,
                   store)
    if args.json:
        print(json.dumps(result))
        return
    show(result)
    why = failures(result)
    print(f"  {'held' if not why else 'did not hold: ' + ', '.join(why)} "
          f"(p99 < {P99_LIMIT_MS:g} ms, RSS < {RSS_LIMIT_MB:g} MB, generator not saturated)")


if __name__ == "__main__":
    main()
