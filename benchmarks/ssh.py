"""What an SSH door session costs: how fast sessions open, and the memory each one holds.

    python -m benchmarks.ssh [--sessions N] [--json]

Runs `coup serve` and `coup ssh` on loopback (their own data directory, the store in memory,
the door's limits out of the way), then opens N SSH sessions at once, each with its own key
and name, as players arriving together would. A session is open when its client has drawn
the lobby: the SSH handshake, the public key auth, the PTY, the `coup join` process started
on it, its handshake with the game server, and the screen. Then, with every session in the
lobby, the memory of the door and of its N clients.

Figures (`--json` prints exactly these keys):

    sessions              sessions opened
    opened_per_s          N / the time from the first connection to the last lobby drawn
    first_lobby_s         the time to the lobby of the quickest session, in that burst
    median_lobby_s, last_lobby_s   the median's, and the slowest one's
    alone_lobby_s         one session opened alone afterwards (nothing else starting)
    door_rss_mb           the door itself, with every session open
    rss_per_session_mb    the door and its clients' resident memory, less the door's with no
                          session, over N: what a session costs by RSS, pages shared with
                          other processes (Python's own code) counted in each
    pss_per_session_mb    the same by proportional set size: shared pages split between the
                          processes that share them, what N sessions truly add
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import asyncssh

COUP = [sys.executable, "-m", "client.cli"]
#: The text of the lobby's header once the client has drawn it.
LOBBY = b"you are"


def _start(args: list[str], env: dict[str, str], log: str, event: str) -> tuple[
        subprocess.Popen, int]:
    """A `coup` program logging to the file `log`, and the port its `event` line gives."""
    with open(log, "wb") as out:
        process = subprocess.Popen(COUP + args + ["--log-json"], env=env,
                                   stdout=subprocess.DEVNULL, stderr=out)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        with open(log, "rb") as f:
            for raw in f:
                line = json.loads(raw)
                if line.get("event") == event:
                    return process, int(line["port"])
        time.sleep(0.05)
    process.kill()
    process.wait()
    raise RuntimeError(f"coup {args[0]} did not listen: see {log}")


def _memory_kb(pid: int, field: str) -> int:
    """A process's resident memory: VmRSS (/proc/PID/status) or Pss (smaps_rollup), in kB."""
    source = "status" if field == "VmRSS" else "smaps_rollup"
    with open(f"/proc/{pid}/{source}") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(p) for p in f.read().split()]


def _memory(door: int) -> tuple[float, float, float]:
    """MB of RSS and of PSS of the door and its clients, and of the door's RSS alone."""
    pids = [door] + _children(door)
    rss = sum(_memory_kb(p, "VmRSS") for p in pids)
    pss = sum(_memory_kb(p, "Pss") for p in pids)
    return rss / 1024, pss / 1024, _memory_kb(door, "VmRSS") / 1024


async def _open(port: int, name: str, opened: list, start: float,
                stay: asyncio.Event | None = None) -> None:
    """One player: connect with a key of its own, and wait for the lobby; then stay until
    `stay` is set (the memory measured), if it is given."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with asyncssh.connect("127.0.0.1", port, username=name, client_keys=[key],
                                agent_path=None, config=None, known_hosts=None) as conn:
        process = await conn.create_process(term_type="xterm-256color", term_size=(100, 30),
                                            encoding=None)
        seen = b""
        while LOBBY not in seen:
            data = await process.stdout.read(65536)
            if not data:
                raise RuntimeError(f"{name}'s session ended before the lobby")
            seen = seen[-64:] + data
        opened.append(time.perf_counter() - start)
        if stay is not None:
            reading = asyncio.ensure_future(_discard(process))
            await stay.wait()
            reading.cancel()


async def _discard(process) -> None:
    while await process.stdout.read(65536):
        pass


async def _burst(port: int, door: int, sessions: int) -> dict:
    idle_rss, idle_pss, _ = _memory(door)
    opened: list[float] = []
    ready = asyncio.Event()
    start = time.perf_counter()
    players = [asyncio.ensure_future(_open(port, f"p{n}", opened, start, ready))
               for n in range(sessions)]
    while len(opened) < sessions:
        failed = [error for p in players if p.done() and (error := p.exception())]
        if failed:
            raise failed[0]
        await asyncio.sleep(0.05)
    elapsed = max(opened)
    await asyncio.sleep(1)  # every client settled in its lobby
    rss, pss, door_rss = _memory(door)
    ready.set()
    await asyncio.gather(*players)
    alone: list[float] = []
    await _open(port, "alone", alone, time.perf_counter())
    return {
        "sessions": sessions,
        "opened_per_s": round(sessions / elapsed, 2),
        "first_lobby_s": round(min(opened), 2),
        "median_lobby_s": round(statistics.median(opened), 2),
        "last_lobby_s": round(elapsed, 2),
        "alone_lobby_s": round(alone[0], 2),
        "door_rss_mb": round(door_rss, 1),
        "rss_per_session_mb": round((rss - idle_rss) / sessions, 1),
        "pss_per_session_mb": round((pss - idle_pss) / sessions, 1),
    }


def measure(sessions: int) -> dict:
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(home, "data"),
                   XDG_CONFIG_HOME=os.path.join(home, "config"))
        server, server_port = _start(["serve", "--port", "0", "--db", ":memory:",
                                      "--max-per-address", str(sessions + 1)], env,
                                     os.path.join(home, "serve.log"), "listening")
        door = None
        try:
            door, port = _start(["ssh", "--port", "0", "--server", f"127.0.0.1:{server_port}",
                                 "--max-sessions", str(sessions + 1), "--max-per-address",
                                 str(sessions + 1), "--connections-per-minute",
                                 str(sessions + 1), "--max-unauthenticated",
                                 str(sessions + 1)], env, os.path.join(home, "ssh.log"),
                                "ssh_listening")
            return asyncio.run(_burst(port, door.pid, sessions))
        finally:
            for process in (door, server):
                if process is not None:
                    process.terminate()
                    process.wait(30)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=20,
                        help="sessions opened at once (default 20)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = measure(max(1, args.sessions))
    if args.json:
        print(json.dumps(result))
        return
    print(f"SSH door: {result['sessions']} sessions opened at once, each to its lobby "
          f"({os.cpu_count()} cores)")
    for key, value in result.items():
        print(f"  {key:<20}{value:>10}")


if __name__ == "__main__":
    main()
