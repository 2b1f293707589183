"""The doors' side of the session host: sessions forked from one preloaded process.

Each door session used to be a fresh interpreter that imported Python, Textual and the
client again (about 43 MB of its own, 0.5-1.2 s of CPU to its lobby). The session host
(client/host.py) is one long-lived process, started here with `python -m client.host`, that
has imported the client once and forks a session onto the file descriptors a door hands it:
a PTY's slave for the SSH door, three pipes for the browser door. The door's own asyncio
process never forks; it asks over a Unix socket in a private directory (0700, made here),
and the host answers only a peer of its own user that is its parent, the door.

`SessionHost.run(order, fds)` sends one `Order` (the session's `coup` arguments, its whole
environment, its directory, whether fd 0 is its terminal) with the fds (SCM_RIGHTS), and
returns a `Hosted`: the session's pid once it has its fds, its exit status when the host reports it.
The connection stays open for the session's life, and the session holds the host's end of
it too: it closes when the session is gone even if the host died first. A host that died is
started again at the next session (logged); a host that cannot be reached raises
`HostUnavailable`, and the door spawns the session as a program of its own (logged).

This module knows nothing of SSH, websockets or the game. It never forks, and never passes
a session's data through a shell.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import socket
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: The exit status of a session that used up its memory (client/host.py exits with it).
OUT_OF_MEMORY = 86
#: MB a session may grow beyond the host's own memory, unless told otherwise.
SESSION_MEMORY_MB = 200
#: The module the host runs as.
HOST_MODULE = "client.host"
#: Seconds the host has to import the client and say it is ready.
READY_SECONDS = 60
#: The most bytes an order may take (its environment is a door's, a few hundred bytes).
ORDER_BYTES = 65536
#: What the host says once it listens.
READY = b"ready\n"

#: Reports what happened (event, fields): the SSH door logs it, the browser door prints it.
Report = Callable[[str, dict[str, object]], None]


def add_host_arguments(parser: argparse.ArgumentParser) -> None:
    """The session host's flags, the same on both doors: `--session-memory` and `--spawn`."""
    parser.add_argument("--session-memory", type=int, default=SESSION_MEMORY_MB, metavar="MB",
                        help="MB of memory a session may take beyond what it shares with the "
                        "others; one that needs more ends, and its player is told why "
                        f"(default {SESSION_MEMORY_MB})")
    parser.add_argument("--spawn", action="store_true",
                        help="start each session as a program of its own instead of forking "
                        "it from the preloaded session host: slower, and about twice the "
                        "memory (for comparison)")


class HostUnavailable(OSError):
    """The session host could not be started or reached: spawn the session instead."""


def out_of_memory(megabytes: int) -> str:
    """The line a player is shown when their session used up its memory."""
    return (f"This session used up its memory ({megabytes} MB) and had to end. "
            "Please connect again.")


@dataclass(frozen=True, slots=True)
class Order:
    """One session, as the host runs it: `coup` with `args`, in exactly `env`, in `cwd`;
    `terminal` if fd 0 is a terminal that must become the session's controlling one."""

    args: tuple[str, ...]
    env: dict[str, str]
    cwd: str
    terminal: bool

    def encode(self) -> bytes:
        return json.dumps({"args": list(self.args), "env": self.env, "cwd": self.cwd,
                           "terminal": self.terminal}).encode()

    @classmethod
    def decode(cls, data: bytes) -> Order:
        """The order in `data`; ValueError if it is not one."""
        fields = json.loads(data)
        if not isinstance(fields, dict):
            raise ValueError("an order is a JSON object")
        args, env, cwd, terminal = (fields.get(k) for k in ("args", "env", "cwd", "terminal"))
        if not (isinstance(args, list) and all(isinstance(a, str) for a in args)
                and isinstance(env, dict)
                and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
                and isinstance(cwd, str) and isinstance(terminal, bool)):
            raise ValueError("an order has args, env, cwd and terminal, of their types")
        return cls(tuple(args), env, cwd, terminal)


class Hosted:
    """A session the host runs: its pid, and its exit status once it is over (the shape of
    asyncio's Process, as server/terminal.py uses it)."""

    def __init__(self, pid: int, link: socket.socket, said: bytes = b"") -> None:
        self.pid = pid
        #: The exit status (-N if signal N ended it, as asyncio says), None while it runs.
        self.returncode: int | None = None
        self._link = link
        self._done = asyncio.ensure_future(self._status(said))

    async def _status(self, said: bytes) -> int:
        loop = asyncio.get_running_loop()
        try:
            while chunk := await loop.sock_recv(self._link, 64):
                said += chunk
        except OSError:
            pass
        finally:
            self._link.close()
        words = said.split()
        # The host reports "exit N"; a host that died first reports nothing, and the link
        # closes only once the session (which holds it too) is gone as well.
        if words[:1] == [b"exit"] and len(words) > 1:
            self.returncode = int(words[1])
        else:
            self.returncode = await asyncio.to_thread(_orphan_status, self.pid)
        return self.returncode

    async def wait(self) -> int:
        return await asyncio.shield(self._done)


def _orphan_status(pid: int) -> int:
    """The exit status of a session whose host died first: it went to whoever adopts
    orphans. A door that is that process (PID 1 in a container) reaps it here, or it would
    be a zombie for good; otherwise the status is not ours to know (255)."""
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return 255
    return os.waitstatus_to_exitcode(status)


class SessionHost:
    """The session host process, started on first use and again whenever it has died."""

    def __init__(self, memory_mb: int, report: Report) -> None:
        self.memory_mb = memory_mb
        self._report = report
        self._folder = tempfile.mkdtemp(prefix="coup-host-")  # 0700: the door's alone
        self._path = os.path.join(self._folder, "host.sock")
        self._process: asyncio.subprocess.Process | None = None
        self._starting: asyncio.Future[None] | None = None
        self.started = 0  # hosts started, the first included

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def start(self) -> None:
        """A host running and listening: the one there, or a new one (HostUnavailable if
        none can be started)."""
        if self._process is not None and self._process.returncode is None:
            return
        if self._starting is None:
            self._starting = asyncio.ensure_future(self._start())
        starting = self._starting
        try:
            await asyncio.shield(starting)
        finally:
            if self._starting is starting and starting.done():
                self._starting = None

    async def _start(self) -> None:
        if self._process is not None:
            self._report("session_host_died", {"pid": self._process.pid,
                                                "status": self._process.returncode})
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._path)
        # The host keeps nothing of the door's environment but what runs Python: each
        # session is given its own, and no secret of the door's is in any of them.
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
        if "PYTHONPATH" in os.environ:
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", HOST_MODULE, "--socket", self._path,
                "--session-memory", str(self.memory_mb), env=env, cwd=self._folder,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        except OSError as exc:
            raise HostUnavailable(f"cannot start the session host: {exc}") from exc
        assert process.stdout is not None
        try:
            said = await asyncio.wait_for(process.stdout.readline(), READY_SECONDS)
        except TimeoutError:
            said = b""
        if said != READY:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
            raise HostUnavailable("the session host did not start")
        self._process = process
        self.started += 1
        self._report("session_host_started", {"pid": process.pid, "started": self.started})

    async def run(self, order: Order, fds: Sequence[int]) -> Hosted:
        """Start the session `order` on `fds` (its fds 0, 1 and 2) in the host; the caller
        keeps (and closes) its own copies of `fds`. HostUnavailable if that cannot be done."""
        await self.start()
        loop = asyncio.get_running_loop()
        link = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            link.setblocking(False)
            await loop.sock_connect(link, self._path)
            # A few hundred bytes into an empty socket buffer: this send does not block.
            socket.send_fds(link, [order.encode()], list(fds))
            link.shutdown(socket.SHUT_WR)
            said = b""
            while not said.endswith(b"\n"):
                chunk = await loop.sock_recv(link, 64)
                if not chunk:
                    raise HostUnavailable("the session host did not start the session")
                said += chunk
            first, _, rest = said.partition(b"\n")
            words = first.split()
            if words[:1] != [b"pid"] or len(words) != 2:
                raise HostUnavailable(f"the session host said {said[:64]!r}")
            pid = int(words[1])
        except HostUnavailable:
            link.close()
            raise
        except (OSError, ValueError) as exc:
            link.close()
            raise HostUnavailable(f"cannot reach the session host: {exc}") from exc
        return Hosted(pid, link, rest)

    async def close(self) -> None:
        """Stop the host (its sessions are the doors' to end) and remove its directory."""
        process = self._process
        if process is not None and process.returncode is None:
            assert process.stdin is not None
            process.stdin.close()  # its input's end tells it the door is gone
            try:
                await asyncio.wait_for(process.wait(), 5)
            except TimeoutError:
                process.kill()
                await process.wait()
        shutil.rmtree(self._folder, ignore_errors=True)
