"""What a browser door session costs, as benchmarks.ssh measures the SSH door's: forked from
the session host and spawned (`coup web --spawn`), side by side in one run.

    python -m benchmarks.web [--sessions N] [--ways forked,spawned] [--no-game] [--json]

For each way, runs `coup serve` and `coup web --join` it on loopback (as benchmarks.ssh
sets them up), then opens N websockets at once, as N browser tabs would: a session is open
when its client has drawn the lobby. Then the memory of each; then each plays a quick-play
game to its end by the clocks, and the memory again. The figures are benchmarks.ssh's, the
door's own RSS as `door_rss_mb`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import tempfile
import time

import aiohttp

from .ssh import (COUP, ESCAPES, GAME_SECONDS, LOBBY, QUICK_PLAY, WAYS, WON, _start, cpu_s, found,
                  pss_mb, rss_mb, uss_mb, where)


class Tab:
    """One browser tab's session: what it drew (read as it comes, so that the door's pings
    are answered however long the other tabs take), and when it reached what."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.seen = b""
        self.lobby_s: float | None = None
        self.closed = False
        self.changed = asyncio.Event()
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for message in self.socket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.seen += message.data
                self.changed.set()
        self.closed = True
        self.changed.set()

    async def until(self, wanted: bytes | re.Pattern[bytes], deadline: float) -> None:
        """Wait until `wanted` is on the screen, after what was there already."""
        mark = max(0, len(self.seen) - 256)
        while not found(wanted, self.seen[mark:]):
            if self.closed:
                raise RuntimeError(f"the session ended before {wanted!r}: "
                                   f"{ESCAPES.sub(b'', self.seen)[-300:]!r}")
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), deadline - time.monotonic())

    async def type(self, keys: str) -> None:
        await self.socket.send_json(["stdin", keys])


def _door(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    """`coup web` with `args`, and the URL its first line gives."""
    process = subprocess.Popen(COUP + ["web", "--port", "0", *args], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert process.stdout is not None
    line = process.stdout.readline().decode()
    found = re.search(r"http://127\.0\.0\.1:\d+/", line)
    if not found:
        process.kill()
        process.wait()
        raise RuntimeError(f"coup web said {line!r}")
    return process, found.group(0)


def _children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(p) for p in f.read().split()]


async def _open(client: aiohttp.ClientSession, url: str, start: float) -> Tab:
    async with client.get(url) as response:
        page = await response.text()
    found = re.search(r'data-session-websocket-url="([^"]+)"', page)
    if not found:
        raise RuntimeError("the page names no websocket")
    socket = await client.ws_connect(f"{found.group(1)}?width=100&height=30",
                                     headers={"Origin": url.rstrip("/")})
    tab = Tab(socket)
    await tab.until(LOBBY, time.monotonic() + 120)
    tab.lobby_s = time.perf_counter() - start
    return tab


async def _play(tab: Tab) -> None:
    for keys, shown in QUICK_PLAY:
        await tab.type(keys)
        if shown is not None:
            await tab.until(shown, time.monotonic() + 60)
    await tab.until(WON, time.monotonic() + GAME_SECONDS)


async def _burst(url: str, door: int, sessions: int, game: bool, look: bool) -> dict:
    kids = _children(door)
    host = kids[0] if kids else None  # before any session, the door's one child is its host
    base = [door] + ([host] if host else [])
    idle_pss = sum(pss_mb(p) for p in base)
    door_cpu = cpu_s(door)
    async with aiohttp.ClientSession() as client:
        start = time.perf_counter()
        tabs = await asyncio.gather(*(_open(client, url, start) for _ in range(sessions)))
        opened = [t.lobby_s or 0 for t in tabs]
        await asyncio.sleep(1)  # every client settled in its lobby
        pids = _children(host) if host else _children(door)
        lobby = _memory(base, pids)
        door_cpu = cpu_s(door) - door_cpu
        result: dict = {"sessions": sessions,
                        "opened_per_s": round(sessions / max(opened), 2),
                        "first_lobby_s": round(min(opened), 2),
                        "median_lobby_s": round(statistics.median(opened), 2),
                        "last_lobby_s": round(max(opened), 2),
                        "cpu_lobby_ms": round(statistics.median(cpu_s(p) for p in pids)
                                              * 1000),
                        "door_cpu_ms": round(door_cpu * 1000 / sessions),
                        "door_rss_mb": round(rss_mb(door), 1),
                        "host_rss_mb": round(rss_mb(host), 1) if host else None,
                        "uss_lobby_mb": lobby["uss"],
                        "pss_lobby_mb": round((lobby["pss"] - idle_pss) / sessions, 1),
                        "rss_lobby_mb": round(lobby["rss"] / sessions, 1)}
        if game:
            await asyncio.gather(*(_play(t) for t in tabs))
            await asyncio.sleep(1)
            after = _memory(base, pids)
            result |= {"uss_game_mb": after["uss"],
                       "pss_game_mb": round((after["pss"] - idle_pss) / sessions, 1)}
            result["players_in_2gb"] = int((2048 - idle_pss) / result["pss_game_mb"])
            if look:
                result["where"] = where(pids[0], host)
        for tab in tabs:
            await tab.socket.close()
        alone = await _open(client, url, time.perf_counter())
        result["alone_lobby_s"] = round(alone.lobby_s or 0, 2)
        await alone.socket.close()
    return result


def _memory(base: list[int], sessions: list[int]) -> dict:
    return {"uss": round(statistics.median(uss_mb(p) for p in sessions), 1),
            "pss": sum(pss_mb(p) for p in base + sessions),
            "rss": sum(rss_mb(p) for p in sessions)}


def measure(sessions: int, way: str, game: bool = True, look: bool = False) -> dict:
    """The figures of `sessions` browser sessions opened at once, `way` forked or spawned."""
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(home, "data"),
                   XDG_CONFIG_HOME=os.path.join(home, "config"))
        room = str(sessions + 2)
        server, server_port = _start(["serve", "--port", "0", "--db", ":memory:",
                                      "--max-per-address", room, "--tables-per-address",
                                      room, "--bot-delay", "0",
                                      "--queue-bot-fill", "0.1", "--turn-clock", "1",
                                      "--response-clock", "1", "--bot-strategies",
                                      "random"], env, os.path.join(home, "serve.log"),
                                     "listening")
        door = None
        try:
            door, url = _door(["--join", f"127.0.0.1:{server_port}", "--max-sessions", room,
                               "--max-per-address", room]
                              + (["--spawn"] if way == "spawned" else []), env)
            result = asyncio.run(_burst(url, door.pid, sessions, game, look))
        finally:
            for process in (door, server):
                if process is not None:
                    process.terminate()
                    process.wait(30)
    result["load_before"] = round(load_before, 2)
    result["load_after"] = round(os.getloadavg()[0], 2)
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--sessions", type=int, default=20,
                        help="sessions opened at once (default 20)")
    parser.add_argument("--ways", default=",".join(WAYS),
                        help="forked, spawned or both, separated by a comma (default both)")
    parser.add_argument("--no-game", dest="game", action="store_false",
                        help="measure in the lobby only, without the games")
    parser.add_argument("--where", action="store_true",
                        help="a forked session's private memory by mapping, after its game")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    ways = [w for w in args.ways.split(",") if w]
    if not ways or any(w not in WAYS for w in ways):
        parser.error(f"--ways: {args.ways!r}: forked, spawned, or both")
    results = {way: measure(max(1, args.sessions), way, args.game,
                            args.where and way == "forked") for way in ways}
    if args.json:
        print(json.dumps(results))
        return
    print(f"Browser door: {args.sessions} sessions opened at once, each to its lobby"
          + (", then a game each" if args.game else "") + f" ({os.cpu_count()} cores)")
    print(f"  {'':<20}" + "".join(f"{way:>12}" for way in ways))
    for key in [k for k in results[ways[0]] if k != "where"]:
        print(f"  {key:<20}" + "".join(f"{results[w].get(key)!s:>12}" for w in ways))
    for way in ways:
        if "where" in results[way]:
            print(f"  a {way} session's private memory by mapping, MB:")
            for name, mb in results[way]["where"][:12]:
                print(f"    {name:<40}{mb:>8}")


if __name__ == "__main__":
    main()
