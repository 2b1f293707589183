"""A program on a pseudo-terminal of its own, for the SSH door (server/door.py).

`Terminal.start` opens a new PTY and has a program started on it (by `spawn`, or by the
session host, server/hosting.py) in a new session whose controlling terminal it is (setsid,
then TIOCSCTTY), so the program sees a real terminal: its size, its
resizes (the kernel sends SIGWINCH when `resize` sets a new size), and a hangup when it is
ended. What the program writes goes to `output`, a chunk at a time; what `write` is given
reaches the program as typed input. Both ways hold back rather than buffer without end: the
door pauses the output while its SSH client is slow (the program then blocks on its
terminal), and `write` says when the program is not reading, so the door stops reading its
client until `drained` is called. It knows nothing of SSH, of players or of the game.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import struct
import termios
from collections.abc import Awaitable, Callable
from typing import Protocol

#: Seconds a program has to end after each of SIGHUP and SIGTERM before the next, stronger one.
GRACE = 1.5

#: Bytes read from the terminal at a time.
CHUNK = 65536


def _take_terminal() -> None:
    """In the child, after setsid: make its standard input (the PTY) its controlling
    terminal, so that it gets SIGWINCH and SIGHUP from it."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Program(Protocol):
    """A program running on the terminal: asyncio's Process, or a session host's `Hosted`."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...


async def spawn(argv: list[str], env: dict[str, str], cwd: str, slave: int
                ) -> asyncio.subprocess.Process:
    """Run `argv` as a program of its own on the terminal whose slave end is `slave`."""
    return await asyncio.create_subprocess_exec(
        *argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
        start_new_session=True, preexec_fn=_take_terminal)


def _set_size(fd: int, columns: int, rows: int, width: int = 0, height: int = 0) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, width, height))


class Terminal:
    """A running program and the PTY master it talks through (see the module docstring)."""

    def __init__(self, process: Program, master: int,
                 output: Callable[[bytes], None], drained: Callable[[], None]) -> None:
        self.process = process
        self._master = master
        self._output = output
        self._drained = drained
        self._loop = asyncio.get_running_loop()
        self._reading = False
        self._open = True  # the program's side of the terminal is open
        self._pending = bytearray()  # input the terminal would not take yet
        #: The exit status once the program has exited (128 + N for signal N), else None.
        self.status: int | None = None
        self._done = asyncio.ensure_future(self._finish())
        self.resume_output()

    @classmethod
    async def start(cls, run: Callable[[int], Awaitable[Program]],
                    size: tuple[int, int, int, int], output: Callable[[bytes], None],
                    drained: Callable[[], None]) -> Terminal:
        """Open a new PTY of `size` (columns, rows, pixel width, pixel height), and have
        `run` start the program on its slave end (given its fd, which it must not close)."""
        master, slave = os.openpty()
        try:
            _set_size(master, *size)
            process = await run(slave)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        os.set_blocking(master, False)
        return cls(process, master, output, drained)

    @property
    def pid(self) -> int:
        return self.process.pid

    def resize(self, columns: int, rows: int, width: int = 0, height: int = 0) -> None:
        if self._master >= 0:
            _set_size(self._master, columns, rows, width, height)

    def write(self, data: bytes) -> bool:
        """Type `data` into the program; False if the terminal did not take it all yet (the
        rest is kept, and `drained` is called once it has been taken)."""
        if self._master < 0 or not self._open:
            return True
        if self._pending:
            self._pending += data
            return False
        taken = self._write_some(data)
        if taken == len(data):
            return True
        self._pending += data[taken:]
        self._loop.add_writer(self._master, self._flush)
        return False

    def _write_some(self, data: bytes | bytearray) -> int:
        try:
            return os.write(self._master, data)
        except BlockingIOError:
            return 0
        except OSError:  # the program's side is closed: input goes nowhere
            self._open = False
            return len(data)

    def _flush(self) -> None:
        taken = self._write_some(self._pending)
        del self._pending[:taken]
        if not self._pending:
            self._loop.remove_writer(self._master)
            self._drained()

    def pause_output(self) -> None:
        if self._reading:
            self._loop.remove_reader(self._master)
            self._reading = False

    def resume_output(self) -> None:
        if not self._reading and self._open and self._master >= 0:
            self._loop.add_reader(self._master, self._read)
            self._reading = True

    def _read(self) -> None:
        try:
            data = os.read(self._master, CHUNK)
        except BlockingIOError:
            return
        except OSError:  # EIO: every process has closed the program's side
            data = b""
        if data:
            self._output(data)
        else:
            self._open = False
            self.pause_output()

    async def _finish(self) -> int:
        """Once the program has exited: hand on what it wrote last, close the terminal, and
        return its exit status (128 + the signal's number if a signal ended it)."""
        status = await self.process.wait()
        self.pause_output()
        while self._open:
            try:
                data = os.read(self._master, CHUNK)
            except OSError:  # nothing left (EAGAIN), or the program's side closed (EIO)
                break
            if not data:
                break
            self._output(data)
        if self._pending:
            self._loop.remove_writer(self._master)
        os.close(self._master)
        self._master = -1
        self.status = status if status >= 0 else 128 - status
        return self.status

    async def wait(self) -> int:
        """The program's exit status, once it has exited and its last output is handed on."""
        return await asyncio.shield(self._done)

    async def end(self) -> int:
        """End the program: a hangup, as when a terminal closes; SIGTERM and then SIGKILL
        for a program still there GRACE seconds after each. Returns its exit status."""
        for signum in (signal.SIGHUP, signal.SIGTERM, signal.SIGKILL):
            if self.process.returncode is not None:
                break
            try:
                os.killpg(self.process.pid, signum)  # its group: it leads a session of its own
            except ProcessLookupError:
                break
            try:
                return await asyncio.wait_for(self.wait(), GRACE)
            except TimeoutError:
                continue
        return await self.wait()
