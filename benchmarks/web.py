"""What a browser door session costs, as benchmarks.ssh measures the SSH door's: forked from
the session host and spawned (`coup web --spawn`), side by side in one run.

    python -m benchmarks.web [--sessions N] [--ways forked,spawned] [--no-game] [--json]

For each way, runs `coup serve` and `coup web --join` it on loopback (as benchmarks.ssh
sets them up), then opens N websockets at once, as N browser tabs would: a session is open
when its client has drawn the lobby. Then the memory of each; then each plays a quick-play
game to its end by the clocks, and the memory again. The figures are benchmarks.ssh's, the
door's own RSS as `door_rss_mb`.

`--where` is benchmarks.ssh's too: one forked session's private memory by mapping after its
game, then one more session forked by a session host of the benchmark's own, as the door
would fork it (on three pipes, in the environment textual-serve and the door give it),
played through the same game while the benchmark reads its pipes as the door does; the
host's pages it copied, by package and kind (benchmarks/pages.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass

import aiohttp
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from client import web
from server import Order, load_secret, vouch_address
from server.doorkey import FILE_NAME

from . import pages
from .ssh import (COUP, ESCAPES, GAME_SECONDS, LOBBY, QUICK_PLAY, WON, Screen, after_a_game,
                  cpu_s, found, game_figures, lobby_figures, measured, pss_mb, run)

#: What Textual's web driver writes first, before its packets.
PRELUDE = b"__GANGLION__\n"
#: A packet's head: its type (b"D" for the screen's bytes) and its payload's size.
HEAD = 5


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


@dataclass
class Pipe(Screen):
    """A browser session's screen, read from its stdout as the door reads it: Textual's web
    driver writes PRELUDE, then packets (a type byte, a 4-byte big-endian size, the
    payload), of which the data ones ("D") are what the page draws."""

    unread: bytes = b""
    started: bool = False

    def feed(self, data: bytes) -> None:
        self.unread += data
        if not self.started:
            _before, prelude, after = self.unread.partition(PRELUDE)
            if not prelude:
                return
            self.unread, self.started = after, True
        while len(self.unread) >= HEAD:
            end = HEAD + int.from_bytes(self.unread[1:HEAD], "big")
            if len(self.unread) < end:
                return
            if self.unread[:1] == b"D":
                self.seen += self.unread[HEAD:end]
            self.unread = self.unread[end:]


def by_module(server_port: int, secret: str) -> dict[str, object]:
    """benchmarks.ssh's by_module for a browser session: one session forked by a session
    host of the benchmark's own (benchmarks/pages.py) as the browser door forks one (its
    arguments; its environment as textual-serve and the door make it, its address vouched
    for with the door's `secret` file; three pipes; 100x30), to its lobby and through a
    quick-play game: the host's pages it copied, by the package and kind of the objects on
    them, and its own pages."""
    door = argparse.Namespace(join=f"127.0.0.1:{server_port}", play=False)
    service = AppService(web.command(door), write_bytes=_ignored, write_str=_ignored,
                         close=_ignored, download_manager=DownloadManager())
    (in_read, in_write), (out_read, out_write), (err_read, err_write) = (
        os.pipe(), os.pipe(), os.pipe())
    theirs = [in_read, out_write, err_write]
    try:
        with tempfile.TemporaryDirectory() as home:
            via = f"{vouch_address(load_secret(secret), '127.0.0.1')}:127.0.0.1"
            order = Order(tuple(web.arguments(door)),
                          web.environment(service._build_environment(100, 30), home, via),
                          home, False)
            with pages.Host(order, theirs, os.path.join(home, "map")) as host:
                for fd in theirs:
                    os.close(fd)
                theirs = []
                return after_a_game(
                    Pipe(out_read),
                    lambda keys: os.write(in_write, AppService.encode_packet(b"D", keys)),
                    host)
    finally:
        for fd in [in_write, out_read, err_read, *theirs]:
            os.close(fd)


async def _ignored(*args: object) -> None:
    """Where the unused AppService of by_module would write to a browser."""


async def _burst(url: str, door: int, server: tuple[int, str], sessions: int, game: bool,
                 look: bool) -> dict:
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
        result = lobby_figures(sessions, opened, pids, base, idle_pss, cpu_s(door) - door_cpu)
        if game:
            await asyncio.gather(*(_play(t) for t in tabs))
            await asyncio.sleep(1)
            result |= game_figures(sessions, pids, base, idle_pss, look)
        for tab in tabs:
            await tab.socket.close()
        alone = await _open(client, url, time.perf_counter())
        result["alone_lobby_s"] = round(alone.lobby_s or 0, 2)
        await alone.socket.close()
    if game and look:
        result["by_module"] = by_module(*server)
    return result


def measure(sessions: int, way: str, game: bool = True, look: bool = False) -> dict:
    """The figures of `sessions` browser sessions opened at once, `way` forked or spawned."""
    room = str(sessions + 2)

    def door(env: dict[str, str], home: str, server_port: int
             ) -> tuple[subprocess.Popen, tuple[str, tuple[int, str]]]:
        process, url = _door(["--join", f"127.0.0.1:{server_port}", "--max-sessions", room,
                              "--max-per-address", room]
                             + (["--spawn"] if way == "spawned" else []), env)
        secret = os.path.join(env["XDG_DATA_HOME"], "coup", FILE_NAME)
        return process, (url, (server_port, secret))

    return measured(sessions, door, lambda where, pid: _burst(where[0], pid, where[1],
                                                               sessions, game, look))


def main(argv: list[str] | None = None) -> None:
    run(argv, "Browser door", measure)


if __name__ == "__main__":
    main()
