"""What abusive clients and runaway tables cost everyone else (issue 12), on a real server.

    python -m benchmarks.abuse [--json] [--scenario flood|search|loop] [--seconds S]

Each scenario starts a fresh `coup serve` of this file's own tree (`client.cli`, run from its
root) on a free loopback port with `--log-json`, reads the port from its first stderr line and
the rest to the end, and stops it (SIGTERM, then SIGKILL) however the run ends. It passes
only flags that servers from before issue 12 know, plus `--bot-strategies all` where
`coup serve --help` lists it, so that the file runs unchanged in an older tree. The clients
are trio code in this process sending msgpack maps over 127.0.0.1. Memory is the server's
VmRSS (/proc, every 0.1 s) and VmHWM. A request unanswered when its scenario ends counts
with the time it has waited.

The witnesses, in flood and search: **the calm table**, two clients at a private 2-seat table
without clocks playing random legal moves (`engine.legal_moves` on the latest view), one in
flight, each at most one a 0.1 s (the rate limit is 20 messages a second), with a rematch
after each game; a *move gap* is a move sent → its move_accepted or move_rejected. **The
pinger**, in the lobby, pings 50 ms after its last ping or pong, whichever is later.

1. **flood** (item 1; `--max-per-address 1000 --max-connections 2000`): 40 clients with
   32-character names hold 40 waiting public tables of 6 seats with 32-character names (a
   large `tables` answer). 3 s of baseline; then 300 connections say hello, send 40
   `list_tables` in one write and read nothing for `--seconds`; then each reads until 1 s
   of silence, only to learn whether the server had closed it; all close; 2 s more.
2. **search** (item 2): 3 s of baseline, then 20 tables of 4 `ismcts` bots made as any client
   can (a creator makes the table with `bots: ismcts` and no clocks, a spectator joins, the
   creator starts the game and leaves: its seat becomes a bot; the spectator reads all and
   keeps the table open), measured for `--seconds` from the first. A server that refuses
   them is reported, and the witnesses are measured all the same.
3. **loop** (item 3; `--bot-delay 0 --seed 539`): a table of 3 `heuristic` bots made so (the
   creator leaves once the game waits for it alone); for `--seconds`, one prober times
   `list_tables` and another `join {table, spectate: true}` then `leave` (the table's own
   inbox), each every 100 ms. Seed 539 deals a game that the heuristic bots from before
   issue 12 never end; other trees play whatever it deals.

Figures (`--json`: one flat object; times in ms, memory in MiB; null: nothing measured):

    <scenario>_load                   the 1-minute load average as the scenario began
    flood_tables_kb, _attackers       one `tables` answer; attackers that said hello
    flood_dropped, flood_bye_slow     attackers the server had closed (end of file), and
                                      those whose last bytes said `slow_consumer`
    flood_gap_{p99,max}_ms,           of what was sent in the attack: the move gaps, the
    flood_ping_{p50,p99,max}_ms,      pings, and the calm table's accepted moves; the
    flood_moves                       same in the baseline (flood_base_…) and in the 2 s
                                      after the attackers closed (flood_after_…)
    flood_rss_{base,peak,after}_mb    VmRSS: peak in the baseline, in the attack; last
    flood_hwm_mb                      VmHWM at the end
    search_tables, search_refused     ismcts tables made; the error that refused one
    search_bot_moves                  updates their spectators received; the witnesses as
                                      in flood (search_…, search_base_…)
    loop_{list,join,leave}_{p50,p99,max}_ms   the probes' round trips
    loop_lists, loop_visits           probes made (list_tables; join and leave)
    loop_errors, loop_moves           error answers; updates the table's spectator received
    loop_over                         whether the bot table's game ended

Targets (issue 12): flood_rss_peak_mb < 200 and flood_gap_max_ms within 100 of
flood_base_gap_max_ms; search_ping_p99_ms < 50; loop_list_ and loop_join_p99_ms < 50.
"""

from __future__ import annotations

import argparse
import ctypes
import itertools
import json
import math
import os
import queue
import random
import signal
import subprocess
import sys
import threading
from collections import Counter, defaultdict
from pathlib import Path

import msgpack
import trio

from engine import View, legal_moves

from .server import CONNECT_BATCH, raise_file_limit, vm_hwm_mb

ROOT = Path(__file__).resolve().parent.parent
COUP = [sys.executable, "-c", "import sys; from client.cli import main; sys.exit(main())"]
BASELINE, AFTER, QUIET, SETUP_TIMEOUT = 3.0, 2.0, 1.0, 60.0
MOVE_PACE, PING_EVERY, PROBE_EVERY, RSS_EVERY = 0.1, 0.05, 0.1, 0.1
LOOP_SEED = 539
BOUND = 1_000_000  # no loop here turns more often than this: its time ends it first
PERCENTILES = {"p50": 0.5, "p99": 0.99, "max": 1.0}


class Server:
    """`coup serve` of this tree in a child process; a thread reads its stderr."""

    def __init__(self, *flags: str) -> None:
        usage = subprocess.run([*COUP, "serve", "--help"], cwd=ROOT, capture_output=True,
                               text=True, timeout=SETUP_TIMEOUT).stdout
        if "--bot-strategies" in usage:
            flags += ("--bot-strategies", "all")
        self.proc = subprocess.Popen(  # PR_SET_PDEATHSIG: it ends with us, whatever happens
            [*COUP, "serve", "--port", "0", "--log-json", *flags], cwd=ROOT, text=True,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=lambda: ctypes.CDLL(None).prctl(1, signal.SIGTERM))
        self.pid = self.proc.pid
        self.log: Counter[str] = Counter()  # its warnings and errors, by event
        first: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read_stderr, args=(first,), daemon=True).start()
        try:
            self.port = int(json.loads(first.get(timeout=SETUP_TIMEOUT))["port"])
        except (queue.Empty, ValueError, KeyError, TypeError):
            self.stop()
            raise RuntimeError("coup serve did not say where it listens") from None

    def _read_stderr(self, first: queue.Queue[str]) -> None:
        first.put(self.proc.stderr.readline())
        for line in self.proc.stderr:
            record = json.loads(line) if line.startswith("{") else {"level": "error"}
            if record.get("level") in ("warning", "error"):
                self.log[f"{record['level']}:{record.get('event')}"] += 1

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def vm_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        return next((int(line.split()[1]) / 1024 for line in f if line.startswith("VmRSS:")), 0)


class Refused(Exception):
    """The server answered a request with an error (or closed)."""


class Client:
    """One connection that said hello. `recv` answers pings; `request` keeps the messages it
    passes over in `held`, for `recv`."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream, self.unpacker, self.ids = stream, msgpack.Unpacker(), itertools.count(1)
        self.held: list[dict] = []

    @classmethod
    async def connect(cls, port: int, name: str) -> Client:
        client = cls(await trio.open_tcp_stream("127.0.0.1", port))
        await client.send({"t": "hello", "versions": [1], "client": "abuse/1", "name": name})
        if (welcome := await client.recv()) is None or welcome["t"] != "welcome":
            raise Refused(f"{name}: {welcome}")
        return client

    async def send(self, msg: dict) -> None:
        await self.stream.send_all(msgpack.packb(msg))

    async def recv(self) -> dict | None:
        """The next message but pings; None once the server has closed."""
        if self.held:
            return self.held.pop(0)
        for _ in range(BOUND):
            for msg in self.unpacker:
                if msg.get("t") != "ping":
                    return msg
                await self.send({"t": "pong", "re": msg["id"]})
            if not (data := await self.stream.receive_some(65536)):
                return None
            self.unpacker.feed(data)

    async def request(self, t: str, **fields) -> dict:
        rid, passed = next(self.ids), []
        await self.send({"t": t, "id": rid, **fields})
        while (msg := await self.recv()) is not None and msg.get("re") != rid:
            passed.append(msg)
        self.held[:0] = passed
        if msg is None or msg["t"] == "error":
            raise Refused(msg["code"] if msg else "closed")
        return msg


def pct(seconds: list[float], p: float) -> float | None:
    """The percentile in ms; None if nothing was measured (no request of the kind was sent)."""
    if not seconds:
        return None
    ordered = sorted(seconds)
    return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 1)


class Seen:
    """What the witnesses and probes saw: by kind ("gap", "ping", "list", "join", "leave"),
    (time sent, seconds to the answer); the calm table's accepted moves, by time sent; the
    requests in flight, by who sent them: (kind, time sent); those answered with an error."""

    def __init__(self) -> None:
        self.samples: defaultdict[str, list[tuple[float, float]]] = defaultdict(list)
        self.accepted: list[float] = []
        self.waiting: dict[str, tuple[str, float]] = {}
        self.errors = 0

    def answered(self, kind: str, sent: float) -> None:
        self.samples[kind].append((sent, trio.current_time() - sent))

    def figures(self, prefix: str, start: float, end: float, **kinds: tuple[str, ...]) -> dict:
        """The percentiles `kinds` names of what was sent from start to end."""
        for kind, sent in self.waiting.values():  # those in flight count as answered now
            self.answered(kind, sent)
        self.waiting.clear()
        out = {}
        for kind, labels in kinds.items():
            taken = [s for t, s in self.samples[kind] if start <= t < end]
            out |= {f"{prefix}{kind}_{label}_ms": pct(taken, PERCENTILES[label])
                    for label in labels}
        return out

    def witnessed(self, prefix: str, start: float, end: float) -> dict:
        """The calm table's and the pinger's figures."""
        moves = sum(start <= t < end for t in self.accepted)
        return self.figures(prefix, start, end, gap=("p99", "max"),
                            ping=("p50", "p99", "max")) | {f"{prefix}moves": moves}


async def probe(client: Client, seen: Seen, every: float, end: float,
                *requests: tuple[str, str, dict]) -> None:
    """The requests (kind, type, fields) one after the other, each timed, every `every`
    seconds until `end`."""
    for _ in range(BOUND):
        if (began := trio.current_time()) >= end:
            return
        for kind, t, fields in requests:
            seen.waiting[kind] = (kind, trio.current_time())
            with trio.move_on_at(end):
                try:
                    await client.request(t, **fields)
                except Refused:
                    seen.errors += 1
                seen.answered(*seen.waiting.pop(kind))
            if kind in seen.waiting:  # unanswered at the end: Seen.figures counts it
                return
        client.held.clear()  # what else came (lobby lists, a table's news) is not needed
        await trio.sleep_until(began + every)


async def connect_many(port: int, names: list[str], then) -> list[Client]:
    """Clients that said hello and were handed to `then(client, name)`, CONNECT_BATCH at a
    time so that the listen backlog never overflows; those that failed are left out."""
    clients: list[Client] = []

    async def one(name: str) -> None:
        try:
            with trio.fail_after(SETUP_TIMEOUT):
                client = await Client.connect(port, name)
                await then(client, name)
            clients.append(client)
        except (OSError, trio.TooSlowError, trio.BrokenResourceError, Refused):
            pass

    for start in range(0, len(names), CONNECT_BATCH):
        async with trio.open_nursery() as nursery:
            for name in names[start:start + CONNECT_BATCH]:
                nursery.start_soon(one, name)
    return clients


async def drain(client: Client, counts: Counter) -> None:
    """Read all the server sends until it closes, counting updates and games over."""
    while (msg := await client.recv()) is not None:
        if msg["t"] == "update":
            counts["update"] += 1
            counts["over"] += msg["view"]["phase"] == "over"


async def play_calm(client: Client, who: str, seen: Seen) -> None:
    rng, view, pending, last = random.Random(who), None, None, -MOVE_PACE

    async def move() -> None:
        nonlocal pending, last
        await trio.sleep_until(last + MOVE_PACE)
        mine = View.from_dict(view)
        moves = legal_moves(mine, mine.seat)
        pending, last = next(client.ids), trio.current_time()
        seen.waiting[who] = ("gap", last)
        await client.send({"t": "move", "id": pending, "state_id": mine.state_id,
                           "move": moves[rng.randrange(len(moves))].to_dict()})

    while (msg := await client.recv()) is not None:
        if msg["t"] in ("snapshot", "update"):
            view = msg["view"]
            if view["phase"] == "over":
                await client.send({"t": "rematch", "id": next(client.ids)})
            elif pending is None and view["seat"] in view["waiting"]:
                await move()
        elif msg["t"] in ("move_accepted", "move_rejected") and msg["re"] == pending:
            pending, (_, sent) = None, seen.waiting.pop(who)
            seen.answered("gap", sent)
            if msg["t"] == "move_accepted":
                seen.accepted.append(sent)
            elif view["seat"] in view["waiting"]:
                await move()


async def start_witnesses(nursery: trio.Nursery, port: int, seen: Seen) -> Client:
    """The calm table, its game under way, and the pinger (returned, not yet pinging)."""
    a, b, pinger = [await Client.connect(port, name) for name in ("calm-a", "calm-b", "pinger")]
    joined = await a.request("create_table", options={
        "seats": 2, "private": True, "response_clock": 0, "turn_clock": 0})
    await b.request("join", code=joined["code"])
    for who, client in (("calm-a", a), ("calm-b", b)):
        await client.request("ready")
        nursery.start_soon(play_calm, client, who, seen)
    return pinger


async def bot_table(port: int, nursery: trio.Nursery, name: str, bots: str, seats: int,
                    counts: Counter, on_turn: bool = False) -> str:
    """A table of bots made as any client can: create, a spectator joins, start, leave (if
    `on_turn`, once the game waits for the creator alone: the game then does not depend on
    when the leave arrives)."""
    creator, watcher = [await Client.connect(port, f"{name}-{r}") for r in ("made", "sees")]
    table = (await creator.request("create_table", options={
        "seats": seats, "bots": bots, "response_clock": 0, "turn_clock": 0}))["table"]
    await watcher.request("join", table=table, spectate=True)
    nursery.start_soon(drain, watcher, counts)
    await creator.request("start")
    while on_turn and (msg := await creator.recv()) is not None and not (
            msg["t"] in ("snapshot", "update") and msg["view"]["waiting"] == [0]):
        pass
    await creator.request("leave")
    await creator.stream.aclose()
    return table


async def flood(server: Server, seconds: float) -> dict:
    seen, rss, ended, out = Seen(), [], [], {}
    blob = b"".join(msgpack.packb({"t": "list_tables", "id": i}) for i in range(1, 41))
    async with trio.open_nursery() as nursery:
        for creator in await connect_many(
                server.port, [f"creator {i:02d} ".ljust(32, "x") for i in range(40)],
                lambda client, name: client.request("create_table", options={
                    "seats": 6, "name": name.replace("creator", "table  ")})):
            nursery.start_soon(drain, creator, Counter())
        pinger = await start_witnesses(nursery, server.port, seen)
        out["flood_tables_kb"] = round(len(msgpack.packb(
            await pinger.request("list_tables"))) / 1024, 1)
        t0 = trio.current_time()
        t1 = t0 + BASELINE
        nursery.start_soon(probe, pinger, seen, PING_EVERY, math.inf, ("ping", "ping", {}))

        async def sample_rss() -> None:
            for _ in range(BOUND):
                rss.append((trio.current_time(), vm_rss_mb(server.pid)))
                await trio.sleep(RSS_EVERY)

        nursery.start_soon(sample_rss)
        await trio.sleep_until(t1)
        attackers = await connect_many(server.port, [f"flood-{i}" for i in range(300)],
                                       lambda client, _: client.stream.send_all(blob))
        await trio.sleep_until(t1 + seconds)
        t2 = trio.current_time()

        async def settle(attacker: Client) -> None:
            """Read until QUIET seconds of silence, or the end of file (then kept in ended)."""
            tail, data = b"", None
            for _ in range(BOUND):
                with trio.move_on_after(QUIET):
                    try:
                        data = await attacker.stream.receive_some(1 << 20)
                    except trio.BrokenResourceError:  # reset: closed all the same
                        data = b""
                if data is None:  # silence: the server still holds it
                    return
                if not data:
                    return ended.append(tail)
                tail, data = (tail + data)[-4096:], None

        with trio.move_on_after(seconds * 3 + 10):
            async with trio.open_nursery() as settling:
                for attacker in attackers:
                    settling.start_soon(settle, attacker)
        for attacker in attackers:
            await attacker.stream.aclose()
        t3 = trio.current_time()
        await trio.sleep(AFTER)
        for prefix, start, end in (("flood_", t1, t2), ("flood_base_", t0, t1),
                                   ("flood_after_", t3, t3 + AFTER)):
            out |= seen.witnessed(prefix, start, end)
        out["flood_hwm_mb"] = round(vm_hwm_mb(server.pid) or 0.0, 1)
        nursery.cancel_scope.cancel()
    peak = [max([mb for t, mb in rss if a <= t <= b] or [0]) for a, b in ((t0, t1), (t1, t2))]
    return out | {"flood_rss_base_mb": round(peak[0], 1), "flood_rss_peak_mb": round(peak[1], 1),
                  "flood_rss_after_mb": round(rss[-1][1], 1), "flood_attackers": len(attackers),
                  "flood_dropped": len(ended),
                  "flood_bye_slow": sum(b"slow_consumer" in tail for tail in ended)}


async def search(server: Server, seconds: float) -> dict:
    seen, counts, out = Seen(), Counter(), {"search_tables": 0, "search_refused": None}
    async with trio.open_nursery() as nursery:
        pinger = await start_witnesses(nursery, server.port, seen)
        t0 = trio.current_time()
        t1, t2 = t0 + BASELINE, t0 + BASELINE + seconds
        nursery.start_soon(probe, pinger, seen, PING_EVERY, t2, ("ping", "ping", {}))
        await trio.sleep_until(t1)
        try:
            for i in range(20):
                await bot_table(server.port, nursery, f"search-{i}", "ismcts", 4, counts)
                out["search_tables"] += 1
        except Refused as exc:
            out["search_refused"] = str(exc)
        await trio.sleep_until(t2)
        out |= seen.witnessed("search_", t1, t2) | seen.witnessed("search_base_", t0, t1)
        nursery.cancel_scope.cancel()
    return out | {"search_bot_moves": counts["update"]}


async def loop(server: Server, seconds: float) -> dict:
    seen, counts, p = Seen(), Counter(), ("p50", "p99", "max")
    async with trio.open_nursery() as nursery:
        table = await bot_table(server.port, nursery, "loop", "heuristic", 3, counts, True)
        lister, visitor = [await Client.connect(server.port, n) for n in ("lister", "visitor")]
        end = trio.current_time() + seconds
        async with trio.open_nursery() as probes:
            probes.start_soon(probe, lister, seen, PROBE_EVERY, end, ("list", "list_tables", {}))
            probes.start_soon(probe, visitor, seen, PROBE_EVERY, end,
                              ("join", "join", {"table": table, "spectate": True}),
                              ("leave", "leave", {}))
        nursery.cancel_scope.cancel()
    return seen.figures("loop_", -math.inf, end, list=p, join=p, leave=p) | {
        "loop_lists": len(seen.samples["list"]), "loop_visits": len(seen.samples["join"]),
        "loop_errors": seen.errors, "loop_moves": counts["update"],
        "loop_over": counts["over"] > 0}


SCENARIOS = {
    "flood": (flood, ("--max-per-address", "1000", "--max-connections", "2000")),
    "search": (search, ()),
    "loop": (loop, ("--bot-delay", "0", "--seed", str(LOOP_SEED))),
}


async def bounded(scenario, server: Server, seconds: float) -> dict:
    with trio.fail_after(SETUP_TIMEOUT * 3 + seconds * 4):  # whatever happens, it ends
        return await scenario(server, seconds)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--scenario", choices=list(SCENARIOS), help="one of them (default all)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="how long each attack is measured (default 10)")
    args = parser.parse_args(argv)
    raise_file_limit()
    figures: dict = {}
    for name in [args.scenario] if args.scenario else list(SCENARIOS):
        scenario, flags = SCENARIOS[name]
        result, server = {f"{name}_load": round(os.getloadavg()[0], 2)}, Server(*flags)
        try:
            result |= trio.run(bounded, scenario, server, args.seconds)
        finally:
            server.stop()
        figures |= result
        if server.log:
            print(f"{name}: the server logged {dict(server.log)}", file=sys.stderr)
        if not args.json:
            print(f"{name} ({ROOT}, {args.seconds:g} s)")
            for key, value in result.items():
                print(f"  {key:<28}{value!s:>12}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
