"""What abusive clients and runaway tables cost everyone else (issue 12), on a real server.

    python -m benchmarks.abuse [--json] [--scenario flood|search|loop|slots|chat|door]
                               [--seconds S]

Each scenario starts a fresh `coup serve` of this file's own tree (`client.cli`, run from its
root) on a free loopback port with `--log-json`, in a data directory of its own
(XDG_DATA_HOME: a server with a store starts from an empty one, never the user's), reads the
port from its first stderr line and the rest to the end, and stops it (SIGTERM, then
SIGKILL) however the run ends. Of the flags a scenario names it passes those that
`coup serve --help` lists, plus `--bot-strategies all` where it is listed, so that the file,
copied into an older tree, runs that tree's server unchanged (with that tree's limits). The
clients are trio code in this process sending msgpack maps over 127.0.0.1; an attacker
that must be another address than the witnesses' connects from 127.0.0.2 (Linux routes all
of 127/8 to loopback). Memory is the server's VmRSS (/proc, every 0.1 s) and VmHWM. A
request unanswered when its scenario ends counts with the time it has waited.

**A relay** plays all-bot games one after another: each at a table of `heuristic` bots made
as any client can (a creator makes it with `bots` and no clocks, a spectator joins, the
creator starts the game and leaves on its own turn: its seat becomes a bot), the next table
made while a game plays, so that one is under way nearly all the time. The spectator reads
all (the server stops the bots of a table nobody watches) until its game is over, and
leaves once the next is handed over (a visitor may come to the table in between).

The witnesses, in flood and search: **the watched table**, a relay at `--bot-delay 0.1` (a
bot move is due every 0.1 s, so a stall of the loop longer than that holds one up); a *move
gap* is the time between two updates its spectator receives in one game. **The pinger**, in
the lobby, pings 50 ms after its last ping or pong, whichever is later.

1. **flood** (item 1; `--max-per-address 1000 --max-connections 2000`): 40 clients with
   32-character names hold 40 waiting public tables of 6 seats with 32-character names (a
   large `tables` answer). 3 s of baseline; then 300 connections say hello, send 40
   `list_tables` in one write and read nothing for `--seconds`; then each reads until 1 s
   of silence, only to learn whether the server had closed it; all close; 2 s more.
2. **search** (item 2): 3 s of baseline, then 20 tables of 4 `ismcts` bots made as the
   relay makes its tables (the creator leaves at once; the spectator keeps the table open),
   measured for `--seconds` from the first. A server that refuses them is reported, and the
   witnesses are measured all the same.
3. **loop** (item 3c; `--bot-delay 0 --seed 539`): a relay of 3-seat tables; for `--seconds`,
   one prober times `list_tables` and another `join {table, spectate: true}` then `leave`
   (the inbox of the relay's table in play), each every 100 ms. Only the probes sent while
   a game was under way are timed; the others are counted. Seed 539 deals every table the
   same game, one that the heuristic bots from before issue 12 never end: there the relay's
   first game lasts the whole run; later trees play it to its end again and again.
4. **slots** (issue 27, section 3; `--max-tables 40`): the witnesses, 3 s of baseline; then
   one address (127.0.0.2) opens a connection a table and asks each to create one, 40 in
   all (the server's every slot), and holds what it got for `--seconds`; then another
   address (127.0.0.3) creates one table.
5. **chat** (issue 27, section 3; `--max-per-address 1000`): the witnesses and a lobby
   viewer, 3 s of baseline; then 200 connections from one address (127.0.0.2) each say a
   lobby chat line of 200 characters every second (the most a line may hold on a server
   that bounds it; older ones took 500) for `--seconds`, reading all they are sent. The
   viewer counts the lines it hears from them.
6. **door** (issue 27, section 2): `coup ssh` in front of the server; one SSH session
   without a key asks for a 65535x65535 terminal (one such session grew its client by
   ~60 MB/s before the door bounded sizes) and reads everything it is sent for `--seconds`,
   while the VmRSS of its client process is read every 0.1 s.

Figures (`--json`: one flat object; times in ms, memory in MiB; null: nothing measured):

    <scenario>_load                   the 1-minute load average as the scenario began
    flood_tables_kb, _attackers       one `tables` answer; attackers that said hello
    flood_dropped, flood_bye_slow     attackers the server had closed (end of file), and
                                      those whose last bytes said `slow_consumer`
    flood_gap_{p99,max}_ms,           of what began in the attack: the move gaps, the
    flood_ping_{p50,p99,max}_ms,      pings, and the watched table's updates; the same in
    flood_moves                       the baseline (flood_base_…) and in the 2 s after the
                                      attackers closed (flood_after_…)
    flood_rss_{base,peak,after}_mb    VmRSS: peak in the baseline, in the attack; last
    flood_hwm_mb                      VmHWM at the end
    search_tables, search_refused     ismcts tables made; the error that refused one
    search_bot_moves                  updates their spectators received; the witnesses as
                                      in flood (search_…, search_base_…)
    loop_{list,join,leave}_{p50,p99,max}_ms   the timed probes' round trips
    loop_lists, loop_visits           probes timed (list_tables; join and leave)
    loop_idle                         probes sent between two games, not timed
    loop_errors                       error answers
    loop_moves, loop_games            bot moves played (updates the spectators received)
                                      and games ended, while the probes ran
    slots_tables, slots_refused       tables the one address made of the 40 it asked for,
                                      and the error that refused the first it did not get
    slots_neighbour                   1 if the other address could make a table after it
    slots_witness_refused             1 if the watched table's relay found no table left
                                      for its next game (its figures end with that game)
    chat_attackers, chat_accepted     connections that said hello; lines answered ok
    chat_lines, chat_lines_per_s      lines the viewer heard from them in the attack
    chat_allowed                      the most a server of issue 27's defaults lets one
                                      address say in that time: 3 at once, then 12 a
                                      minute (the whole lobby's 60 a minute is wider)
    {slots,chat}_… witnesses          the move gaps and pings as in flood (slots_…,
                                      slots_base_…, chat_…, chat_base_…)

    door_columns, door_rows           the terminal the session's client was given
    door_rss_{start,peak,end}_mb      its client's VmRSS: first read, highest, last
    door_output_kb                    what the session was sent

Targets (issue 12), printed next to their figures: flood_rss_peak_mb < 200;
flood_gap_max_ms within 100 of flood_base_gap_max_ms; search_ping_p99_ms < 50;
loop_list_p99_ms and loop_join_p99_ms < 50. Issue 27: slots_tables <= 4 (the default
--tables-per-address) and slots_neighbour == 1; chat_lines <= chat_allowed; slots_gap_max_ms
and chat_gap_max_ms within 100 of their baselines; door_rss_peak_mb < 200.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import fcntl
import itertools
import json
import math
import os
import queue
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import trio

from .server import CONNECT_BATCH, memory_mb, raise_file_limit

ROOT = Path(__file__).resolve().parent.parent
COUP = [sys.executable, "-c", "import sys; from client.cli import main; sys.exit(main())"]
BASELINE, AFTER, QUIET, SETUP_TIMEOUT = 3.0, 2.0, 1.0, 60.0
PING_EVERY, PROBE_EVERY, RSS_EVERY = 0.05, 0.1, 0.1
WITNESS_DELAY, LOOP_SEED = "0.1", 539
#: The attacker's address, and another one that is neither the attacker's nor 127.0.0.1.
ATTACKER, NEIGHBOUR = "127.0.0.2", "127.0.0.3"
#: slots: the server's tables, and what one address may hold of them (issue 27's default).
SLOTS, SLOTS_PER_ADDRESS = 40, 4
#: chat: connections, seconds between two lines of each, the line, and the bound of one
#: address's lobby chat (issue 27's default: 3 lines at once, then 12 a minute).
CHATTERS, CHAT_EVERY, CHAT_LINE = 200, 1.0, "x" * 200
CHAT_BURST, CHAT_PER_S = 3, 0.2
BOUND = 1_000_000  # no loop here turns more often than this: its time ends it first
PERCENTILES = {"p50": 0.5, "p99": 0.99, "max": 1.0}
#: Issue 12's targets: the figure, what it must be, and whether the figures meet it.
TARGETS: dict[str, tuple[str, Callable[[dict], bool]]] = {
    "flood_rss_peak_mb": ("< 200", lambda f: f["flood_rss_peak_mb"] < 200),
    "flood_gap_max_ms": ("<= base + 100",
                         lambda f: f["flood_gap_max_ms"] <= f["flood_base_gap_max_ms"] + 100),
    "search_ping_p99_ms": ("< 50", lambda f: f["search_ping_p99_ms"] < 50),
    "loop_list_p99_ms": ("< 50", lambda f: f["loop_list_p99_ms"] < 50),
    "loop_join_p99_ms": ("< 50", lambda f: f["loop_join_p99_ms"] < 50),
    "door_rss_peak_mb": ("< 200", lambda f: f["door_rss_peak_mb"] < 200),
    "slots_tables": (f"<= {SLOTS_PER_ADDRESS}", lambda f: f["slots_tables"] <= SLOTS_PER_ADDRESS),
    "slots_neighbour": ("== 1", lambda f: f["slots_neighbour"] == 1),
    "slots_gap_max_ms": ("<= base + 100",
                         lambda f: f["slots_gap_max_ms"] <= f["slots_base_gap_max_ms"] + 100),
    "chat_lines": ("<= chat_allowed", lambda f: f["chat_lines"] <= f["chat_allowed"]),
    "chat_gap_max_ms": ("<= base + 100",
                        lambda f: f["chat_gap_max_ms"] <= f["chat_base_gap_max_ms"] + 100),
}


class Server:
    """`coup serve` of this tree in a child process; a thread reads its stderr."""

    def __init__(self, *flags: str) -> None:
        usage = subprocess.run([*COUP, "serve", "--help"], cwd=ROOT, capture_output=True,
                               text=True, timeout=SETUP_TIMEOUT).stdout
        flags = tuple(part for flag, value in zip(flags[::2], flags[1::2])
                      if flag in usage for part in (flag, value))
        if "--bot-strategies" in usage:
            flags += ("--bot-strategies", "all")
        self.data = tempfile.TemporaryDirectory(prefix="coup-abuse-")
        self.proc = subprocess.Popen(  # PR_SET_PDEATHSIG: it ends with us, whatever happens
            [*COUP, "serve", "--port", "0", "--log-json", *flags], cwd=ROOT, text=True,
            env=os.environ | {"XDG_DATA_HOME": self.data.name},
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            # PR_SET_PDEATHSIG is set in the child or nowhere; a child stuck there would
            # show as a setup timeout, never as a wrong figure
            preexec_fn=lambda: ctypes.CDLL(None).prctl(1, signal.SIGTERM))  # noqa: PLW1509
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
        stderr = self.proc.stderr
        assert stderr is not None  # started with stderr=PIPE
        first.put(stderr.readline())
        for line in stderr:
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
        self.data.cleanup()


class Refused(Exception):
    """The server answered a request with an error (or closed)."""


class Client:
    """One connection that said hello. `recv` answers pings; `request` keeps the messages it
    passes over in `held`, for `recv`."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream, self.unpacker, self.ids = stream, msgpack.Unpacker(), itertools.count(1)
        self.held: list[dict] = []

    @classmethod
    async def connect(cls, port: int, name: str, source: str | None = None) -> Client:
        """A client that said hello, from the loopback address `source` if given."""
        if source is None:
            stream = await trio.open_tcp_stream("127.0.0.1", port)
        else:
            sock = trio.socket.socket()
            try:
                await sock.bind((source, 0))
                await sock.connect(("127.0.0.1", port))
            except BaseException:
                sock.close()
                raise
            stream = trio.SocketStream(sock)
        client = cls(stream)
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
        return None  # BOUND reads and not one message: as good as closed

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


def within(t: float, spans: list) -> bool:
    """Whether `t` falls in one of the spans (start, end)."""
    return any(start <= t < end for start, end in spans)


class Seen:
    """What the witnesses and probes saw: by kind ("gap", "ping", "list", "join", "leave"),
    (time sent, seconds to the answer); when the relays' spectators received each update;
    what is still awaited, by who awaits it: (kind, time sent); the error answers."""

    def __init__(self) -> None:
        self.samples: defaultdict[str, list[tuple[float, float]]] = defaultdict(list)
        self.moves: list[float] = []
        self.waiting: dict[str, tuple[str, float]] = {}
        self.errors = 0

    def answered(self, kind: str, sent: float) -> None:
        self.samples[kind].append((sent, trio.current_time() - sent))

    def figures(self, prefix: str, spans: list, **kinds: tuple[str, ...]) -> dict:
        """The percentiles `kinds` names of what was sent in one of the spans (start, end)."""
        for kind, sent in self.waiting.values():  # those in flight count as answered now
            self.answered(kind, sent)
        self.waiting.clear()
        out: dict[str, Any] = {}
        for kind, labels in kinds.items():
            taken = [s for t, s in self.samples[kind] if within(t, spans)]
            out |= {f"{prefix}{kind}_{label}_ms": pct(taken, PERCENTILES[label])
                    for label in labels}
        return out

    def witnessed(self, prefix: str, start: float, end: float) -> dict:
        """The watched table's and the pinger's figures."""
        moves = sum(start <= t < end for t in self.moves)
        return self.figures(prefix, [(start, end)], gap=("p99", "max"),
                            ping=("p50", "p99", "max")) | {f"{prefix}moves": moves}


async def probe(client: Client, seen: Seen, every: float, end: float,
                *requests: tuple[str, str, Callable[[], dict]]) -> None:
    """The requests (kind, type, what gives its fields when it is sent) one after the other,
    each timed, every `every` seconds until `end`."""
    for _ in range(BOUND):
        if (began := trio.current_time()) >= end:
            return
        for kind, t, fields in requests:
            seen.waiting[kind] = (kind, trio.current_time())
            with trio.move_on_at(end):
                try:
                    await client.request(t, **fields())
                except Refused:
                    seen.errors += 1
                seen.answered(*seen.waiting.pop(kind))
            if kind in seen.waiting:  # unanswered at the end: Seen.figures counts it
                return
        client.held.clear()  # what else came (lobby lists, a table's news) is not needed
        await trio.sleep_until(began + every)


async def connect_many(port: int, names: list[str], then,
                       source: str | None = None) -> list[Client]:
    """Clients that said hello (from `source`, if given) and were handed to
    `then(client, name)`, CONNECT_BATCH at a time so that the listen backlog never
    overflows; those that failed are left out."""
    clients: list[Client] = []

    async def one(name: str) -> None:
        try:
            with trio.fail_after(SETUP_TIMEOUT):
                client = await Client.connect(port, name, source)
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
    """Read all the server sends until it closes, counting updates."""
    while (msg := await client.recv()) is not None:
        counts["update"] += msg["t"] == "update"


async def made_table(port: int, name: str, bots: str, seats: int) -> tuple[Client, Client, str]:
    """A table whose empty seats `bots` take, made as any client can: its creator, a spectator
    that joined it, and its id. Its game is not started."""
    creator, watcher = [await Client.connect(port, f"{name}-{r}") for r in ("made", "sees")]
    table = (await creator.request("create_table", options={
        "seats": seats, "bots": bots, "response_clock": 0, "turn_clock": 0}))["table"]
    await watcher.request("join", table=table, spectate=True)
    return creator, watcher, table


async def hand_over(creator: Client, on_turn: bool) -> None:
    """The creator starts the game and leaves: its seat becomes a bot. If `on_turn`, it leaves
    once the game waits for it alone: the game then does not depend on when the leave
    arrives."""
    await creator.request("start")
    while on_turn and (msg := await creator.recv()) is not None and not (
            msg["t"] in ("snapshot", "update") and msg["view"]["waiting"] == [0]):
        pass
    await creator.request("leave")
    await creator.stream.aclose()


class Relay:
    """All-bot games one after another (see the module docstring). `table` is the one in
    play; `spans` holds [handed over, over] for each game, over inf while it plays. Each
    update a spectator receives after the hand-over goes in `seen.moves`, and its time since
    the update before it in the same game in seen's gaps."""

    def __init__(self, port: int, name: str, seats: int, seen: Seen) -> None:
        self.port, self.name, self.seats, self.seen = port, name, seats, seen
        self.table = ""
        self.spans: list[list[float]] = []
        self.playing = trio.Event()  # set once the first game is handed over

    async def run(self, nursery: trio.Nursery) -> None:
        made = await made_table(self.port, f"{self.name}-0", "heuristic", self.seats)
        last: Client | None = None
        for n in range(1, BOUND):
            creator, watcher, table = made
            span, over = [math.inf, math.inf], trio.Event()
            nursery.start_soon(self._watch, watcher, span, over)
            await hand_over(creator, on_turn=True)
            span[0], self.table = trio.current_time(), table
            self.spans.append(span)
            self.playing.set()
            if last is not None:  # the last game's table stood until now, for the visitors
                await last.stream.aclose()
            try:
                made = await made_table(self.port, f"{self.name}-{n}", "heuristic", self.seats)
            except Refused:  # no table left for it (slots, where one address takes them all)
                self.seen.errors += 1
                await over.wait()
                return
            await over.wait()
            last = watcher

    async def _watch(self, watcher: Client, span: list[float], over: trio.Event) -> None:
        """The spectator of one game, which stops reading when it is over (`run` closes it once
        the next game is handed over, so that the table stays for visitors). The creator
        cannot go out before it has left (it has a decision to make first), so the game ends
        after span[0] is set."""
        seen = self.seen
        while (msg := await watcher.recv()) is not None:
            if msg["t"] != "update" or (now := trio.current_time()) < span[0]:
                continue
            seen.moves.append(now)
            if (gap := seen.waiting.pop(self.name, None)) is not None:
                seen.answered(*gap)
            if msg["view"]["phase"] == "over":
                span[1] = now
                break
            seen.waiting[self.name] = ("gap", now)
        over.set()


async def witnesses(nursery: trio.Nursery, port: int, seen: Seen) -> Client:
    """The watched table, its first game under way, and the pinger (returned, not pinging)."""
    relay = Relay(port, "witness", 3, seen)
    nursery.start_soon(relay.run, nursery)
    await relay.playing.wait()
    return await Client.connect(port, "pinger")


async def flood(server: Server, seconds: float) -> dict:
    seen, rss, ended, out = Seen(), [], [], {}
    blob = b"".join(msgpack.packb({"t": "list_tables", "id": i}) for i in range(1, 41))
    async with trio.open_nursery() as nursery:
        for creator in await connect_many(
                server.port, [f"creator {i:02d} ".ljust(32, "x") for i in range(40)],
                lambda client, name: client.request("create_table", options={
                    "seats": 6, "name": name.replace("creator", "table  ")})):
            nursery.start_soon(drain, creator, Counter())
        pinger = await witnesses(nursery, server.port, seen)
        out["flood_tables_kb"] = round(len(msgpack.packb(
            await pinger.request("list_tables"))) / 1024, 1)
        t0 = trio.current_time()
        t1 = t0 + BASELINE
        nursery.start_soon(probe, pinger, seen, PING_EVERY, math.inf, ("ping", "ping", dict))

        async def sample_rss() -> None:
            for _ in range(BOUND):
                rss.append((trio.current_time(), memory_mb(server.pid, "VmRSS") or 0.0))
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
        out["flood_hwm_mb"] = round(memory_mb(server.pid) or 0.0, 1)
        nursery.cancel_scope.cancel()
    peak = [max([mb for t, mb in rss if a <= t <= b] or [0]) for a, b in ((t0, t1), (t1, t2))]
    return out | {"flood_rss_base_mb": round(peak[0], 1), "flood_rss_peak_mb": round(peak[1], 1),
                  "flood_rss_after_mb": round(rss[-1][1], 1), "flood_attackers": len(attackers),
                  "flood_dropped": len(ended),
                  "flood_bye_slow": sum(b"slow_consumer" in tail for tail in ended)}


async def baseline(nursery, pinger: Client, seen: Seen, seconds: float
                   ) -> tuple[float, float, float]:
    """The pinger probes until an attack of `seconds` ends, and BASELINE seconds pass before
    it begins: returns when the baseline began, and when the attack begins and ends."""
    t0 = trio.current_time()
    t1, t2 = t0 + BASELINE, t0 + BASELINE + seconds
    nursery.start_soon(probe, pinger, seen, PING_EVERY, t2, ("ping", "ping", dict))
    await trio.sleep_until(t1)
    return t0, t1, t2


async def search(server: Server, seconds: float) -> dict:
    seen, counts = Seen(), Counter[str]()
    out: dict[str, Any] = {"search_tables": 0, "search_refused": None}
    async with trio.open_nursery() as nursery:
        pinger = await witnesses(nursery, server.port, seen)
        t0, t1, t2 = await baseline(nursery, pinger, seen, seconds)
        try:
            for i in range(20):
                creator, watcher, _ = await made_table(server.port, f"search-{i}", "ismcts", 4)
                nursery.start_soon(drain, watcher, counts)
                await hand_over(creator, on_turn=False)
                out["search_tables"] += 1
        except Refused as exc:
            out["search_refused"] = str(exc)
        await trio.sleep_until(t2)
        out |= seen.witnessed("search_", t1, t2) | seen.witnessed("search_base_", t0, t1)
        nursery.cancel_scope.cancel()
    return out | {"search_bot_moves": counts["update"]}


async def loop(server: Server, seconds: float) -> dict:
    seen, p = Seen(), ("p50", "p99", "max")
    async with trio.open_nursery() as nursery:
        relay = Relay(server.port, "loop", 3, seen)
        nursery.start_soon(relay.run, nursery)
        await relay.playing.wait()
        lister, visitor = [await Client.connect(server.port, n) for n in ("lister", "visitor")]
        start = trio.current_time()
        end = start + seconds
        async with trio.open_nursery() as probes:
            probes.start_soon(probe, lister, seen, PROBE_EVERY, end, ("list", "list_tables", dict))
            probes.start_soon(probe, visitor, seen, PROBE_EVERY, end,
                              ("join", "join", lambda: {"table": relay.table, "spectate": True}),
                              ("leave", "leave", dict))
        nursery.cancel_scope.cancel()
    games = [(handed, min(over, end)) for handed, over in relay.spans]
    out = seen.figures("loop_", games, list=p, join=p, leave=p)
    sent = [t for kind in ("list", "join") for t, _ in seen.samples[kind]]
    timed = sum(within(t, games) for t in sent)
    return out | {
        "loop_lists": sum(within(t, games) for t, _ in seen.samples["list"]),
        "loop_visits": sum(within(t, games) for t, _ in seen.samples["join"]),
        "loop_idle": len(sent) - timed, "loop_errors": seen.errors,
        "loop_moves": sum(start <= t < end for t in seen.moves),
        "loop_games": sum(start <= over < end for _, over in relay.spans)}


async def door(server: Server, seconds: float) -> dict:
    """A door session at 65535x65535 (issue 27): see _huge_session."""
    return await trio.to_thread.run_sync(lambda: asyncio.run(_huge_session(server, seconds)))


async def _huge_session(server: Server, seconds: float) -> dict:
    """`coup ssh` in front of the server (their secret shared through the data directory),
    one keyless SSH session asking for a 65535x65535 terminal and reading all it is sent;
    the VmRSS of the session's client process every RSS_EVERY for `seconds`, and the size
    of the terminal it was given. asyncio: asyncssh's loop, in a worker thread."""
    import asyncssh

    class Guest(asyncssh.SSHClient):
        def kbdint_auth_requested(self) -> str:
            return ""

        def kbdint_challenge_received(self, name, instructions, lang, prompts):
            return []

    data = server.data.name
    proc = await asyncio.create_subprocess_exec(
        *COUP, "ssh", "--port", "0", "--server", f"127.0.0.1:{server.port}", "--log-json",
        "--door-secret", os.path.join(data, "coup", "door.secret"),
        "--host-key", os.path.join(data, "door_host_key"), cwd=ROOT,
        env=os.environ | {"XDG_DATA_HOME": data}, stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    stderr = proc.stderr
    assert stderr is not None  # started with stderr=PIPE

    async def logged(event: str) -> dict:
        while line := await asyncio.wait_for(stderr.readline(), SETUP_TIMEOUT):
            if line.startswith(b"{") and (record := json.loads(line))["event"] == event:
                return record
        raise RuntimeError(f"coup ssh ended before {event}")

    try:
        port = (await logged("ssh_listening"))["port"]
        async with asyncssh.connect("127.0.0.1", port, username="huge", client_keys=[],
                                    agent_path=None, config=None, known_hosts=None,
                                    client_factory=Guest) as conn:
            session = await conn.create_process(term_type="xterm", term_size=(65535, 65535),
                                                encoding=None)
            pid = int((await logged("ssh_session"))["pid"])
            fd = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
            rows, columns = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ,
                                                              bytes(8)))[:2]
            os.close(fd)
            received = 0

            async def read() -> None:
                nonlocal received
                while data := await session.stdout.read(65536):
                    received += len(data)

            reader = asyncio.create_task(read())
            rss = []
            for _ in range(round(seconds / RSS_EVERY)):
                rss.append(memory_mb(pid, "VmRSS") or 0.0)
                await asyncio.sleep(RSS_EVERY)
            reader.cancel()
    finally:
        proc.terminate()
        await proc.wait()
    return {"door_columns": columns, "door_rows": rows,
            "door_rss_start_mb": round(rss[0], 1), "door_rss_peak_mb": round(max(rss), 1),
            "door_rss_end_mb": round(rss[-1], 1), "door_output_kb": received // 1024}


async def slots(server: Server, seconds: float) -> dict:
    seen = Seen()
    out: dict[str, Any] = {"slots_tables": 0, "slots_refused": None, "slots_neighbour": 0}
    async with trio.open_nursery() as nursery:
        pinger = await witnesses(nursery, server.port, seen)
        t0, t1, t2 = await baseline(nursery, pinger, seen, seconds)
        held = []  # one connection a table: a connection sits at one table only
        for i in range(SLOTS):
            try:
                held.append(await Client.connect(server.port, f"slot-{i}", ATTACKER))
                await held[-1].request("create_table", options={"seats": 6})
                out["slots_tables"] += 1
            except (Refused, OSError) as exc:
                out["slots_refused"] = out["slots_refused"] or str(exc)
        await trio.sleep_until(t2)
        neighbour = await Client.connect(server.port, "neighbour", NEIGHBOUR)
        try:
            await neighbour.request("create_table", options={"seats": 2})
            out["slots_neighbour"] = 1
        except Refused:
            pass
        out |= seen.witnessed("slots_", t1, t2) | seen.witnessed("slots_base_", t0, t1)
        nursery.cancel_scope.cancel()
    return out | {"slots_witness_refused": seen.errors}


async def chat(server: Server, seconds: float) -> dict:
    seen, heard, said = Seen(), [], Counter[str]()
    async with trio.open_nursery() as nursery:
        pinger = await witnesses(nursery, server.port, seen)
        viewer = await Client.connect(server.port, "viewer")

        async def listen() -> None:
            while (msg := await viewer.recv()) is not None:
                if msg["t"] == "chat" and msg["name"].startswith("chat-"):
                    heard.append(trio.current_time())

        nursery.start_soon(listen)
        attackers = await connect_many(server.port, [f"chat-{i}" for i in range(CHATTERS)],
                                       # connect_many awaits what its callback returns
                                       lambda client, _: trio.lowlevel.checkpoint(),  # noqa: ASYNC105
                                       ATTACKER)
        t0, t1, t2 = await baseline(nursery, pinger, seen, seconds)

        async def chatter(client: Client) -> None:
            """A line every CHAT_EVERY seconds until t2, reading all it is sent meanwhile."""
            for _ in range(BOUND):
                if trio.current_time() >= t2:
                    return
                await client.send({"t": "say", "id": next(client.ids), "scope": "lobby",
                                   "text": CHAT_LINE})
                with trio.move_on_after(CHAT_EVERY):
                    while (msg := await client.recv()) is not None:
                        said[msg.get("code") or msg["t"]] += "re" in msg
                    return  # the server closed it

        async with trio.open_nursery() as chatting:
            for attacker in attackers:
                chatting.start_soon(chatter, attacker)
        await trio.sleep(QUIET)  # the last lines said reach the viewer
        out = seen.witnessed("chat_", t1, t2) | seen.witnessed("chat_base_", t0, t1)
        nursery.cancel_scope.cancel()
    lines = sum(t >= t1 for t in heard)
    return out | {"chat_attackers": len(attackers), "chat_accepted": said["ok"],
                  "chat_refused": said["rate_limited"], "chat_lines": lines,
                  "chat_lines_per_s": round(lines / seconds, 1),
                  "chat_allowed": int(CHAT_BURST + CHAT_PER_S * seconds)}


SCENARIOS = {
    "flood": (flood, ("--max-per-address", "1000", "--max-connections", "2000",
                      "--bot-delay", WITNESS_DELAY, "--tables-per-address", "1000")),
    "search": (search, ("--bot-delay", WITNESS_DELAY, "--tables-per-address", "1000")),
    "loop": (loop, ("--bot-delay", "0", "--seed", str(LOOP_SEED),
                    "--tables-per-address", "1000")),
    "slots": (slots, ("--max-tables", str(SLOTS), "--bot-delay", WITNESS_DELAY)),
    "chat": (chat, ("--max-per-address", "1000", "--bot-delay", WITNESS_DELAY)),
    "door": (door, ()),
}


async def bounded(scenario, server: Server, seconds: float) -> dict:
    with trio.fail_after(SETUP_TIMEOUT * 3 + seconds * 4):  # whatever happens, it ends
        return await scenario(server, seconds)


def verdict(key: str, figures: dict) -> str:
    """'target …: ok' (or MISSED) for a figure issue 12 sets a target for, '' for another."""
    if key not in TARGETS:
        return ""
    goal, met = TARGETS[key]
    try:
        ok = met(figures)
    except TypeError:  # a figure is null: nothing was measured
        ok = False
    return f"   target {goal}: {'ok' if ok else 'MISSED'}"


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
                print(f"  {key:<28}{value!s:>12}{verdict(key, result)}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
