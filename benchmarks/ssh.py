"""What an SSH door session costs: how fast sessions open, and the memory each one holds,
forked from the session host and spawned as a program of its own (`coup ssh --spawn`, the
way before the host), side by side in one run.

    python -m benchmarks.ssh [--sessions N] [--ways forked,spawned,bare] [--no-game]
                             [--where] [--json]

For each way, runs `coup serve` and `coup ssh` on loopback (their own data directory, the
store in memory, the door's limits out of the way, clocks of 1 s so that a silent player's
game goes on), then opens N SSH sessions at once, each with its own key and name, as players
arriving together would. A session is open when its client has drawn the lobby: the SSH
handshake, the public key auth, the PTY, the client started on it, its handshake with the
game server, and the screen. With every session in the lobby, the memory of each; then each
session takes a quick-play table against a bot and lets the clocks play its game (R10) to
its end on the screen, and the memory again.

Figures, per way (`--json` prints exactly these keys, under each way's name, and with
`--where` the forked way's "where" and "by_module", below):

    sessions              sessions opened
    opened_per_s          N / the time from the first connection to the last lobby drawn
    first_lobby_s         the time to the lobby of the quickest session, in that burst
    median_lobby_s, last_lobby_s   the median's, and the slowest one's
    alone_lobby_s         one session opened alone afterwards (nothing else starting)
    cpu_lobby_ms          CPU a session's process used to its lobby (the median): with the
                          door's share, what bounds how many open a second on these cores
    door_cpu_ms           the door's CPU in the burst, per session (SSH handshakes, relay)
    door_rss_mb           the door itself, with every session open
    host_rss_mb           the session host (forked only)
    uss_lobby_mb          a session's unique memory (USS: its private pages, what ending it
                          frees) in the lobby, the median over the sessions
    uss_game_mb           the same once its full game is over
    pss_lobby_mb          per session, by proportional set size (shared pages split between
                          the processes that share them): the door, the host and the
                          sessions, less the door and host with no session, over N
    pss_game_mb           the same after the games
    rss_lobby_mb          per session by RSS (shared pages counted in each), for comparison
    players_in_2gb        sessions that 2 GB holds by pss_game_mb, once the door and the host
                          (their PSS with no session) are in
    load_before, load_after   the machine's 1-minute load average around the way's run

`--ways bare` measures the floor under those figures: the same door, host and burst, each
session forked as a forked one is but drawing a bare Textual app (one Static, "you are
here") instead of `coup join`, with no game server to reach and no game to play (its figures
are the lobby's). What it takes is what the door, the SSH clients, the fork and Textual's
start cost on these cores without the lobby, beside which a forked session's figures say
what the lobby adds. Its host is this module, run by the door in place of client/host.py
(server/hosting.py's HOST_MODULE, set in the door's process only).

`--where` adds, for one forked session after its game, its private memory by mapping
(`/proc/PID/smaps`): the heap and anonymous memory (Python's objects: those it made, and
the host's it touched, copied on write) against the libraries' pages. Then, by module: one
more session, forked by a session host of the benchmark's own that filed its objects by
page before the fork (benchmarks/pages.py), plays a game alone the same way; the host's
pages it copied are split by the package that owns the objects on them (textual, rich,
client, stdlib, ...) and by their kind (code, functions, dicts, strings, types, ...),
beside the pages of its own and, for scale, the host's objects by package.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable, Coroutine
import collections
import fcntl
import json
import os
import pty
import re
import secrets
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from dataclasses import dataclass, field
from typing import Any

import asyncssh

from server import Order, load_secret, vouch_address
from server.doorkey import FILE_NAME, vouch

from . import pages

COUP = [sys.executable, "-m", "client.cli"]
#: The text of the lobby's header once the client has drawn it.
LOBBY = b"you are"
#: The end of a game, on the player's screen.
WON = b"wins the game!"
#: Seconds a game played by the clocks may take.
GAME_SECONDS = 300
#: Escape sequences, left out of what is looked for on a screen.
ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
                     rb"|\x1b[()][0-9A-Za-z]|\x1b[@-Z\\-_=>]")
#: Quick play at two seats, each key once the screen shows what the one before opened: the
#: form, the seats list opened (its arrow up), 2 chosen (shown in the list closed); then OK,
#: and a table with a bot deals (the game's end is waited for: a fast one is over before
#: anything else can be seen).
QUICK_PLAY = (("q", re.compile(b"Quick play")), ("\r", re.compile("\u25b2".encode())),
              ("\x1b[B\r", re.compile("2 +\u25bc".encode())), ("\t\t\r", None))
WAYS = ("forked", "spawned")
#: This door's ways: the two, and the floor under them (bare_host).
SSH_WAYS = (*WAYS, "bare")
#: The door of `--ways bare`: `coup ssh`, its session host this module (see bare_host).
BARE_DOOR = [sys.executable, "-c", "import sys, server.hosting as hosting; "
             "hosting.HOST_MODULE = 'benchmarks.ssh'; "
             "from client.cli import main; sys.exit(main())"]
#: Where this module is found from, for the host of `--ways bare` (started in a folder of
#: its own).
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _start(args: list[str], env: dict[str, str], log: str, event: str,
           command: list[str] = COUP) -> tuple[subprocess.Popen, int]:
    """A `coup` program logging to the file `log`, and the port its `event` line gives."""
    with open(log, "wb") as out:
        process = subprocess.Popen(command + args + ["--log-json"], env=env,
                                   stdout=subprocess.DEVNULL, stderr=out)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        for line in _lines(log):
            if line.get("event") == event:
                return process, int(line["port"])
        time.sleep(0.05)
    process.kill()
    process.wait()
    raise RuntimeError(f"coup {args[0]} did not listen: see {log}")


def _lines(log: str) -> list[dict]:
    with open(log, "rb") as f:
        return [json.loads(raw) for raw in f if raw.startswith(b"{")]


def _kb(pid: int, source: str, *fields: str) -> int:
    """The sum of `fields` (kB) in /proc/PID/`source` (status or smaps_rollup)."""
    total = 0
    with open(f"/proc/{pid}/{source}") as f:
        for line in f:
            name, _, rest = line.partition(":")
            if name in fields:
                total += int(rest.split()[0])
    return total


def uss_mb(pid: int) -> float:
    """A process's unique set size: its private pages, what ending it would free."""
    return _kb(pid, "smaps_rollup", "Private_Clean", "Private_Dirty") / 1024


def pss_mb(pid: int) -> float:
    return _kb(pid, "smaps_rollup", "Pss") / 1024


def rss_mb(pid: int) -> float:
    return _kb(pid, "status", "VmRSS") / 1024


def cpu_s(pid: int) -> float:
    """Seconds of CPU a process has used, user and system (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def where(pid: int, host: int | None) -> list[tuple[str, float]]:
    """A session's private memory (MB) by mapping, the largest first: each library or file
    on its own, and the heap and anonymous memory split, page by page (/proc/PID/pagemap,
    which names the physical pages to root only), into the host's pages it copied on write
    (Python's objects whose counts it changed, or free room in the host's pages it filled)
    and pages of its own (what it made)."""
    private: dict[str, float] = collections.defaultdict(float)
    anonymous: list[tuple[int, int]] = []
    name = ""
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            parts = line.split()
            if "-" in parts[0] and len(parts) >= 5 and not parts[0].endswith(":"):
                path = parts[5] if len(parts) > 5 else ""
                name = "anonymous" if path in ("", "[heap]") else os.path.basename(path)
                if name == "anonymous":
                    low, high = (int(x, 16) for x in parts[0].split("-"))
                    anonymous.append((low, high))
            elif parts[0] in ("Private_Clean:", "Private_Dirty:") and name != "anonymous":
                private[name] += int(parts[1]) / 1024
    if host is not None:
        split = pages.copied(pid, host)
        private["heap and anonymous: the host's pages, copied on write"] = (
            len(split.pages) * pages.PAGE / 2**20)
        private["heap and anonymous: its own pages"] = split.own * pages.PAGE / 2**20
    return [(k, round(v, 1)) for k, v in sorted(private.items(), key=lambda kv: -kv[1])
            if v >= 0.1]


def by_module(server_port: int, secret: str) -> dict[str, object]:
    """One session forked by a session host of the benchmark's own (benchmarks/pages.py),
    as the door would start it (its arguments and environment, vouched for with the door's
    `secret` file), on a terminal of 100x30, to its lobby and through a quick-play game as
    the door's players play theirs: the host's pages it copied, by the package and kind of
    the objects on them, and its own pages."""
    master, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    shared = load_secret(secret)
    key = secrets.token_hex(32)
    name = f"where{key[:6]}"  # a name of its own, as its key is
    try:
        with tempfile.TemporaryDirectory() as home:
            env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
                   "TERM": "xterm-256color", "LANG": "C.UTF-8", "USER": name,
                   "LOGNAME": name, "XDG_CONFIG_HOME": os.path.join(home, "config"),
                   "XDG_DATA_HOME": os.path.join(home, "data"),
                   "COUP_DOOR_ADDRESS": f"{vouch_address(shared, '127.0.0.1')}:127.0.0.1",
                   "COUP_DOOR_IDENTITY": f"{key}:{vouch(shared, key)}"}
            order = Order(("join", f"127.0.0.1:{server_port}", f"--name={name}", "--lobby-only"),
                          env, home, True)
            with pages.Host(order, [terminal] * 3, os.path.join(home, "map")) as host:
                os.close(terminal)
                terminal = -1
                return after_a_game(Screen(master), lambda keys: os.write(master, keys),
                                    host)
    finally:
        os.close(master)
        if terminal >= 0:
            os.close(terminal)


def after_a_game(screen: Screen, send: Callable[[bytes], object],
                 host: pages.Host) -> dict[str, object]:
    """The figures of `host`'s session once it has drawn its lobby on `screen` and played a
    quick-play game to its end (its keys typed with `send`), settled after it."""
    screen.until(LOBBY, time.monotonic() + 120)
    for keys, shown in QUICK_PLAY:
        send(keys.encode())
        if shown is not None:
            screen.until(shown, time.monotonic() + 60)
    screen.until(WON, time.monotonic() + GAME_SECONDS)
    screen.until(None, time.monotonic() + 1)  # settled after its game
    return host.figures()


@dataclass
class Screen:
    """What a session has drawn on the terminal whose master end is `fd`, read as it comes."""

    fd: int
    seen: bytes = b""

    def until(self, wanted: bytes | re.Pattern[bytes] | None, deadline: float) -> None:
        """Read until `wanted` is on the screen after what was there (None: until the
        deadline, drawing whatever comes)."""
        mark = max(0, len(self.seen) - 256)
        while wanted is None or not found(wanted, self.seen[mark:]):
            left = deadline - time.monotonic()
            if left <= 0:
                if wanted is None:
                    return
                raise RuntimeError(f"no {wanted!r} in time: "
                                   f"{ESCAPES.sub(b'', self.seen)[-300:]!r}")
            if select.select([self.fd], [], [], left)[0]:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:  # the session ended: its terminal is gone
                    data = b""
                if not data:
                    raise RuntimeError(f"the session ended before {wanted!r}: "
                                       f"{ESCAPES.sub(b'', self.seen)[-300:]!r}")
                self.feed(data)

    def feed(self, data: bytes) -> None:
        """What the session wrote next, onto the screen."""
        self.seen += data


def found(wanted: bytes | re.Pattern[bytes], screen: bytes) -> bool:
    """Whether `wanted` is in the text of `screen` (its escape sequences left out)."""
    text = ESCAPES.sub(b"", screen)
    return wanted in text if isinstance(wanted, bytes) else wanted.search(text) is not None


@dataclass
class Player:
    """One SSH session of the benchmark: its screen so far, and when it reached what."""

    name: str
    process: asyncssh.SSHClientProcess | None = None
    seen: bytes = b""
    lobby_s: float | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)

    async def until(self, wanted: bytes | re.Pattern[bytes], deadline: float) -> None:
        """Read until `wanted` is on the screen, after what was there already."""
        assert self.process is not None
        mark = max(0, len(self.seen) - 256)
        while not found(wanted, self.seen[mark:]):
            try:
                data = await asyncio.wait_for(self.process.stdout.read(65536),
                                              deadline - time.monotonic())
            except TimeoutError:
                raise RuntimeError(f"{self.name}: no {wanted!r} in time: "
                                   f"{ESCAPES.sub(b'', self.seen)[-300:]!r}") from None
            if not data:
                raise RuntimeError(f"{self.name}'s session ended before {wanted!r}: "
                                   f"{ESCAPES.sub(b'', self.seen)[-300:]!r}")
            self.seen += data

    def type(self, keys: str) -> None:
        assert self.process is not None
        self.process.stdin.write(keys.encode())


async def _play(port: int, player: Player, start: float, game: asyncio.Event,
                measured: asyncio.Event, stay: asyncio.Event) -> None:
    """One player: connect with a key of its own, wait for the lobby; once `game` is set,
    a quick-play table whose game the clocks play to its end; then stay until `stay`."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with asyncssh.connect("127.0.0.1", port, username=player.name, client_keys=[key],
                                agent_path=None, config=None, known_hosts=None) as conn:
        player.process = await conn.create_process(term_type="xterm-256color",
                                                   term_size=(100, 30), encoding=None)
        await player.until(LOBBY, time.monotonic() + 120)
        player.lobby_s = time.perf_counter() - start
        player.done.set()
        await game.wait()
        if not stay.is_set():
            for keys, shown in QUICK_PLAY:
                player.type(keys)
                if shown is not None:
                    await player.until(shown, time.monotonic() + 60)
            await player.until(WON, time.monotonic() + GAME_SECONDS)
            player.done.set()
        await measured.wait()
        drain = asyncio.ensure_future(_discard(player.process))
        await stay.wait()
        drain.cancel()


async def _discard(process: asyncssh.SSHClientProcess) -> None:
    while await process.stdout.read(65536):
        pass


def _sessions(log: str) -> list[int]:
    return [int(line["pid"]) for line in _lines(log) if line.get("event") == "ssh_session"]


def _host(log: str) -> int | None:
    started = [int(line["pid"]) for line in _lines(log)
               if line.get("event") == "session_host_started"]
    return started[-1] if started else None


async def _all(players: list[Player], tasks: list[asyncio.Task[None]]) -> None:
    """Wait until every player is done with its step (a failure is raised at once)."""
    while not all(p.done.is_set() for p in players):
        failed = [error for t in tasks if t.done() and (error := t.exception())]
        if failed:
            raise failed[0]
        await asyncio.sleep(0.05)


async def _burst(port: int, door: int, log: str, server: tuple[int, str], sessions: int,
                 game: bool, look: bool) -> dict:
    """`sessions` opened at once through the door on `port` (its pid `door`, its log `log`),
    their figures; `server` is the game server's port and the door's secret file (for
    --where's session on its own)."""
    host = _host(log)
    base = [door] + ([host] if host else [])
    idle_pss = sum(pss_mb(p) for p in base)
    door_cpu = cpu_s(door)
    players = [Player(f"p{n}") for n in range(sessions)]
    playing, measured, stay = asyncio.Event(), asyncio.Event(), asyncio.Event()
    start = time.perf_counter()
    tasks = [asyncio.ensure_future(_play(port, p, start, playing, measured, stay))
             for p in players]
    await _all(players, tasks)
    opened = [p.lobby_s for p in players if p.lobby_s is not None]
    await asyncio.sleep(1)  # every client settled in its lobby
    pids = _sessions(log)
    result = lobby_figures(sessions, opened, pids, base, idle_pss, cpu_s(door) - door_cpu)
    if game:
        # Cleared here, not by each player once it runs: the wait below would find them
        # all still done from their lobbies and measure "after the game" before it began.
        for player in players:
            player.done.clear()
    else:
        stay.set()
    playing.set()
    await _all(players, tasks)
    if game:
        await asyncio.sleep(1)
        result |= game_figures(sessions, pids, base, idle_pss, look)
    measured.set()
    stay.set()
    await asyncio.gather(*tasks)
    alone = Player("alone")
    lone = asyncio.Event()
    lone.set()
    await _play(port, alone, time.perf_counter(), lone, lone, lone)
    result["alone_lobby_s"] = round(alone.lobby_s or 0, 2)
    if game and look:
        result["by_module"] = by_module(*server)
    return result


def memory(base: list[int], sessions: list[int]) -> dict:
    """The sessions' median USS, and the PSS of them with `base` (door, host), and their
    RSS, in MB."""
    return {"uss": round(statistics.median(uss_mb(p) for p in sessions), 1),
            "pss": sum(pss_mb(p) for p in base + sessions),
            "rss": sum(rss_mb(p) for p in sessions)}


def lobby_figures(sessions: int, opened: list[float], pids: list[int], base: list[int],
                  idle_pss: float, door_cpu: float) -> dict:
    """A door's figures once its `sessions` have drawn their lobbies (either door's): how
    fast they opened, their CPU and memory, the door's and the host's. `base` is the door,
    then the host if there is one; `door_cpu` the door's CPU seconds over the burst."""
    door, host = base[0], base[1] if len(base) > 1 else None
    lobby = memory(base, pids)
    return {"sessions": sessions,
            "opened_per_s": round(sessions / max(opened), 2),
            "first_lobby_s": round(min(opened), 2),
            "median_lobby_s": round(statistics.median(opened), 2),
            "last_lobby_s": round(max(opened), 2),
            "cpu_lobby_ms": round(statistics.median(cpu_s(p) for p in pids) * 1000),
            "door_cpu_ms": round(door_cpu * 1000 / sessions),
            "door_rss_mb": round(rss_mb(door), 1),
            "host_rss_mb": round(rss_mb(host), 1) if host else None,
            "uss_lobby_mb": lobby["uss"],
            "pss_lobby_mb": round((lobby["pss"] - idle_pss) / sessions, 1),
            "rss_lobby_mb": round(lobby["rss"] / sessions, 1)}


def game_figures(sessions: int, pids: list[int], base: list[int], idle_pss: float,
                 look: bool) -> dict:
    """A door's figures once every session has played its game: memory, the players 2 GB
    holds, and (`look`) where the first session's private memory goes."""
    after = memory(base, pids)
    pss = round((after["pss"] - idle_pss) / sessions, 1)
    figures: dict = {"uss_game_mb": after["uss"], "pss_game_mb": pss,
                     "players_in_2gb": int((2048 - idle_pss) / pss)}
    if look:
        figures["where"] = where(pids[0], base[1] if len(base) > 1 else None)
    return figures


def measure(sessions: int, way: str, game: bool = True, look: bool = False) -> dict:
    """The figures of `sessions` sessions opened at once, `way` forked or spawned."""
    room = str(sessions + 2)

    def door(env: dict[str, str], home: str, server_port: int
             ) -> tuple[subprocess.Popen, tuple[int, str, tuple[int, str]]]:
        log = os.path.join(home, "ssh.log")
        if way == "bare":
            env = dict(env, PYTHONPATH=os.pathsep.join(
                [ROOT] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
        process, port = _start(["ssh", "--port", "0", "--server", f"127.0.0.1:{server_port}",
                                "--max-sessions", room, "--max-per-address", room,
                                "--connections-per-minute", room, "--max-unauthenticated",
                                room] + (["--spawn"] if way == "spawned" else []), env, log,
                               "ssh_listening", BARE_DOOR if way == "bare" else COUP)
        secret = os.path.join(env["XDG_DATA_HOME"], "coup", FILE_NAME)
        return process, (port, log, (server_port, secret))

    return measured(sessions, door, lambda where, pid: _burst(
        where[0], pid, where[1], where[2], sessions, game and way != "bare", look))


def measured(sessions: int,
             door: Callable[[dict[str, str], str, int], tuple[subprocess.Popen, Any]],
             burst: Callable[[Any, int], Coroutine[Any, Any, dict]]) -> dict:
    """Either door's measure: a game server with room for `sessions` from one address, in a
    home of its own; `door(env, home, server_port)` started in front of it, as its process
    and where it is reached; `burst(where, door_pid)` run; its figures, with the load before
    and after."""
    load_before = os.getloadavg()[0]
    room = str(sessions + 3)  # and the one alone, and the one --where forks on its own
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(home, "data"),
                   XDG_CONFIG_HOME=os.path.join(home, "config"))
        server, server_port = _start(["serve", "--port", "0", "--db", ":memory:",
                                      "--max-per-address", room, "--identities-per-hour", room,
                                      "--tables-per-address", room, "--bot-delay", "0",
                                      "--queue-bot-fill", "0.1", "--turn-clock", "1",
                                      "--response-clock", "1", "--bot-strategies",
                                      "random"], env, os.path.join(home, "serve.log"),
                                     "listening")
        process = None
        try:
            process, where = door(env, home, server_port)
            result = asyncio.run(burst(where, process.pid))
        finally:
            for running in (process, server):
                if running is not None:
                    running.terminate()
                    running.wait(30)
    result["load_before"] = round(load_before, 2)
    result["load_after"] = round(os.getloadavg()[0], 2)
    return result


def run(argv: list[str] | None, door: str,
        measure: Callable[[int, str, bool, bool], dict], offered: tuple[str, ...] = WAYS
        ) -> None:
    """Either door's command line: `measure(sessions, way, game, look)` each way asked for
    (of those `offered`), printed side by side (or as one JSON object), titled with the
    `door`'s name."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--sessions", type=int, default=20,
                        help="sessions opened at once (default 20)")
    parser.add_argument("--ways", default=",".join(WAYS),
                        help=f"{', '.join(offered)}, separated by commas (default "
                             f"{','.join(WAYS)})" + (
                                 "; bare is the floor: a bare Textual app forked as a "
                                 "session is, lobby figures only" if "bare" in offered
                                 else ""))
    parser.add_argument("--no-game", dest="game", action="store_false",
                        help="measure in the lobby only, without the games")
    parser.add_argument("--where", action="store_true",
                        help="a forked session's private memory by mapping, after its game")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    ways = [w for w in args.ways.split(",") if w]
    if not ways or any(w not in offered for w in ways):
        parser.error(f"--ways: {args.ways!r}: {', '.join(offered)}, separated by commas")
    results = {way: measure(max(1, args.sessions), way, args.game,
                            args.where and way == "forked") for way in ways}
    if args.json:
        print(json.dumps(results))
        return
    print(f"{door}: {args.sessions} sessions opened at once, each to its lobby"
          + (", then a game each" if args.game else "")
          + f" ({os.cpu_count()} cores)")
    print(f"  {'':<20}" + "".join(f"{way:>12}" for way in ways))
    for key in [k for k in results[ways[0]] if k not in ("where", "by_module")]:
        print(f"  {key:<20}" + "".join(f"{results[w].get(key)!s:>12}" for w in ways))
    for way in ways:
        if "where" in results[way]:
            print(f"  a {way} session's private memory by mapping, MB:")
            for name, mb in results[way]["where"][:12]:
                print(f"    {name:<40}{mb:>8}")
        if "by_module" in results[way]:
            found = results[way]["by_module"]
            print(f"  one more {way} session, alone, after its game: {found['copied_mb']} MB "
                  f"of the host's pages copied, {found['own_mb']} MB of its own; copied, MB")
            for title, heading in (("copied_by_package", "by package"),
                                   ("copied_by_kind", "by kind"),
                                   ("host_by_package", "the host's objects, by package")):
                print(f"    {heading}: " + ", ".join(
                    f"{name} {mb}" for name, mb in found[title][:12]))


def main(argv: list[str] | None = None) -> None:
    run(argv, "SSH door", measure, SSH_WAYS)


def bare_host(argv: list[str]) -> int:
    """The session host of `--ways bare`: client/host.py as the door runs it (the client
    imported, the lobby drawn once, frozen, each session forked), but each session runs a
    bare Textual app on its terminal instead of `coup join`; the app is drawn once before
    the fork too, as the lobby is."""
    import client.cli
    import client.host
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("you are here")  # what the benchmark waits for, as in a lobby

    def session(argv: list[str] | None = None) -> int:  # coup's command line, unread
        Bare().run()
        return 0

    draw_once = client.host._draw_once

    def drawn_once() -> None:
        draw_once()

        async def draw() -> None:
            async with Bare().run_test(size=(100, 30)) as pilot:
                await pilot.pause()

        asyncio.run(draw())

    client.host._draw_once = drawn_once
    client.cli.main = session
    return client.host.main(argv)


if __name__ == "__main__":
    # The door of `--ways bare` runs this module as its session host, with the host's
    # arguments (server/hosting.py): those, and only those, start with --socket.
    if sys.argv[1:2] == ["--socket"]:
        sys.exit(bare_host(sys.argv[1:]))
    main()
