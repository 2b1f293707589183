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

import asyncio
import re
import subprocess
import time

import aiohttp

from .ssh import (COUP, ESCAPES, GAME_SECONDS, LOBBY, QUICK_PLAY, WON, cpu_s, found,
                  game_figures, lobby_figures, measured, pss_mb, run)


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
    return result


def measure(sessions: int, way: str, game: bool = True, look: bool = False) -> dict:
    """The figures of `sessions` browser sessions opened at once, `way` forked or spawned."""
    room = str(sessions + 2)

    def door(env: dict[str, str], home: str, server_port: int
             ) -> tuple[subprocess.Popen, str]:
        return _door(["--join", f"127.0.0.1:{server_port}", "--max-sessions", room,
                      "--max-per-address", room] + (["--spawn"] if way == "spawned" else []),
                     env)

    return measured(sessions, door, lambda url, pid: _burst(url, pid, sessions, game, look))


def main(argv: list[str] | None = None) -> None:
    run(argv, "Browser door", measure)


if __name__ == "__main__":
    main()
