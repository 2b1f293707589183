"""The session host: one process that has imported the client once and forks each door
session from itself (`python -m client.host`, started by server/hosting.py).

It imports the client, the terminal app and both of Textual's drivers (a terminal's, a
browser's), loads every translation catalogue, fills the free blocks left among its objects
(so that a session's first objects go to pages of its own), then freezes what it holds
(`gc.freeze()`), so that its sessions share those pages copy-on-write and the collector
never touches them.
Then it listens on a Unix socket in its door's private directory. Each order (an `Order`
and its fds 0, 1 and 2, by SCM_RIGHTS) from its door becomes a child that takes those fds,
a session of its own (and the terminal as its controlling one), the order's environment and
directory, a memory limit (--session-memory MB above the host's own data), default signal
handlers and fresh random state, and runs `coup` with the order's arguments. The child
says "pid N" on the link once it has its fds, the host "exit N" once it has reaped it; a
session that used up its memory exits with OUT_OF_MEMORY, and its door tells the player.

Before it listens it draws a lobby off screen once, in an event loop that is closed before
the first fork; then it never runs one, so a fork copies nothing half done. It
takes orders only from its parent, the door (the peer's pid and uid are checked), and reads
nothing else from anyone: a player's input reaches only their own session. It never execs.
It ends when its input closes (the door is gone or done with it); its sessions go on until
their doors end them.
"""

# ruff: noqa: E402
from __future__ import annotations

import gc

# Before anything is imported (so the imports below come after code: E402 is off in this
# file): a collection in the host frees objects among the ones kept, and each hole it leaves
# is a page every session copies when it fills it (Python's gc docs, on gc.freeze).
gc.disable()

import argparse
import contextlib
import fcntl
import importlib
import io
import os
import re
import resource
import selectors
import signal
import socket
import struct
import sys
import tempfile
import termios
import threading
from typing import TYPE_CHECKING, NoReturn

from server import ORDER_BYTES, OUT_OF_MEMORY, READY, Order

if TYPE_CHECKING:
    from sys import UnraisableHookArgs

#: Bytes of memory above a session's limit, for it to end in when it reaches the limit.
SPARE = 16 * 1024 * 1024
#: What the kernel says of a peer: its pid, uid and gid.
CREDENTIALS = struct.Struct("3i")
#: A size class of Python's small-object allocator in sys._debugmallocstats(): its index,
#: block size, pools, blocks in use and free blocks.
SIZE_CLASS = re.compile(rb"^\s+\d+\s+(\d+)\s+\d+\s+\d+\s+(\d+)\s*$", re.MULTILINE)
#: What a bytes object of no length takes (its header and the ending NUL).
BYTES_OVERHEAD = 33
#: The objects that fill the free blocks the host's pools had (_fill_pools): kept for its
#: life, never read.
_filling: list[bytes] = []


def preload() -> None:
    """Import and warm everything a session would, then freeze it (with no collection
    before, which would leave holes): the sessions share it."""
    import encodings.idna  # noqa: F401  (a server's address, read)
    import textual.drivers.linux_driver  # a terminal's session
    import textual.drivers.web_driver  # a browser's session
    import textual.layouts.factory
    import textual.layouts.horizontal
    import textual.layouts.stream
    import textual.pilot
    import textual.scrollbar  # noqa: F401
    from rich._emoji_replace import _emoji_replace
    from rich.cells import cell_len

    from . import cli, plain  # noqa: F401
    from .i18n import set_language
    from .tui.app import CoupApp  # noqa: F401

    # What a session would load at its first screen, loaded here once: the emoji table and
    # the table of character widths are the largest.
    _emoji_replace(":smile:")
    cell_len("\u00e9\u4e00")
    for language in ("pt_BR", "en"):  # gettext keeps each catalogue it has read
        set_language(language)
    cli.parser()  # the sessions parse their command lines with it
    _draw_once()
    _fill_pools()
    gc.freeze()


def _draw_once() -> None:
    """Draw, off screen, what a door's session draws first (its lobby, connecting, then
    welcomed), so that its styles are parsed (client/tui/styles.py keeps them for every app
    of the process), its caches filled, and the code it runs specialised, before the fork.
    The app's event loop is closed when this returns; trio's one idle worker thread stays
    for its few seconds, and trio forgets it in each child (os.register_at_fork)."""
    import asyncio

    from .launch import Launch
    from .tui.app import CoupApp
    from .tui.screens.lobby import LobbyScreen

    app = CoupApp(Launch())

    async def draw() -> None:
        # With what a session's screens hold and run_test leaves out: the tooltip and the
        # notices' rack, whose styles a session would parse otherwise.
        async with app.run_test(size=(80, 24), tooltips=True, notifications=True) as pilot:
            await app.push_screen(LobbyScreen("example.org:7777"))
            await pilot.pause()
            app.core.opened("", "example.org", False, False, 0.0)  # and welcomed there
            app.redraw()
            await pilot.pause()

    asyncio.run(draw())


def _fill_pools() -> None:
    """Fill every free block of the small-object allocator's pools in use (the holes among
    the host's objects) with a bytes object the host keeps. A session puts what it makes
    first into the free blocks of the pools in use: each hole it fills copies a page of the
    host's, and they are everywhere. With none left, what it makes goes into pools of its
    own, packed (issue 32, benchmarks/pages.py: 0.5-0.8 MB less per session after a game,
    for ~0.5 MB in the host once). Blocks of 16 and 32 bytes are left: no bytes object is
    that small."""
    lengths = [size - BYTES_OVERHEAD for size, blocks in free_blocks()
               if size > BYTES_OVERHEAD for _ in range(blocks)]
    # Made at its length at once: a list grown item by item would leave holes of its own.
    _filling[:] = [b""] * len(lengths)
    for n, length in enumerate(lengths):
        _filling[n] = bytes(length)


def free_blocks() -> list[tuple[int, int]]:
    """The free blocks in the small-object allocator's pools in use: (block size, how
    many) for each size class. The allocator says so only on stderr (fd 2, from C)."""
    with tempfile.TemporaryFile() as stats:
        saved = os.dup(2)
        try:
            sys.stderr.flush()
            os.dup2(stats.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        stats.seek(0)
        return [(int(size), int(blocks)) for size, blocks in SIZE_CLASS.findall(stats.read())]


def _data_bytes() -> int:
    """This process's data segment, as RLIMIT_DATA counts it (VmData)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmData:"):
                return int(line.split()[1]) * 1024
    return 0


class Host:
    """The listening socket, the sessions running (pid: the link to their door), and the
    wake-ups a child's exit and the door's going send."""

    def __init__(self, path: str, memory_mb: int) -> None:
        self.memory = memory_mb * 1024 * 1024
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(64)
        self.sessions: dict[int, socket.socket] = {}
        self.wakeup_read, self.wakeup_write = socket.socketpair()  # kept: its fd is signal's
        self.wakeup_write.setblocking(False)
        signal.set_wakeup_fd(self.wakeup_write.fileno())
        # A handler of its own, so that SIGCHLD writes to the wake-up socket.
        signal.signal(signal.SIGCHLD, lambda signum, frame: None)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.listener, selectors.EVENT_READ, self._order)
        self.selector.register(self.wakeup_read, selectors.EVENT_READ, self._reap)
        self.selector.register(sys.stdin.fileno(), selectors.EVENT_READ, self._door_gone)
        self.running = True

    def serve(self) -> None:
        while self.running:
            for key, _ in self.selector.select():
                key.data()

    def _door_gone(self) -> None:
        if not os.read(sys.stdin.fileno(), 4096):
            self.running = False

    def _reap(self) -> None:
        self.wakeup_read.recv(4096)
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            link = self.sessions.pop(pid, None)
            if link is not None:
                with contextlib.suppress(OSError):
                    link.sendall(f"exit {os.waitstatus_to_exitcode(status)}\n".encode())
                link.close()

    def _order(self) -> None:
        link, _ = self.listener.accept()
        fds: list[int] = []
        try:
            pid, uid, _gid = CREDENTIALS.unpack(link.getsockopt(
                socket.SOL_SOCKET, socket.SO_PEERCRED, CREDENTIALS.size))
            if uid != os.getuid() or pid != os.getppid():
                return  # not the door: closed unheard
            link.settimeout(5)  # the door sends its order at once
            data, fds, _flags, _address = socket.recv_fds(link, ORDER_BYTES, 3)
            order = Order.decode(data)
            if len(fds) != 3:
                raise ValueError("an order comes with three fds")
        except (OSError, ValueError):
            for fd in fds:
                os.close(fd)
            link.close()
            return
        sys.stdout.flush()
        sys.stderr.flush()
        child = os.fork()
        if child == 0:
            _session(order, fds, link, self.memory)
        for fd in fds:
            os.close(fd)
        self.sessions[child] = link  # the child says its pid on it, once it has its fds


def _session(order: Order, fds: list[int], link: socket.socket, memory: int) -> NoReturn:
    """In the forked child: become the order's session, run it, and exit with its status."""
    status = 1
    try:
        os.setsid()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        if order.terminal:
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        # Nothing of the host's but the link to the door: not the listener, not another
        # session's link (its door would wait on this process to see that session end).
        keep = link.fileno()
        os.closerange(3, keep)
        os.closerange(keep + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
        os.set_inheritable(keep, False)
        with contextlib.suppress(OSError), open("/proc/self/comm", "w") as name:
            name.write("coup-session")  # in top and ps -o comm; its command line is the host's
        # Said once the session has its terminal (or pipes): what the door does with the pid
        # (resize, end its group, read its fds) then finds them.
        link.sendall(f"pid {os.getpid()}\n".encode())
        # random reseeds itself in a forked child (os.register_at_fork), and tempfile's names
        # too; secrets reads the kernel's. The hash seed is the host's: it cannot be changed
        # in a running interpreter.
        gc.enable()  # for what the session makes: the host's objects are frozen
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.environ.clear()
        os.environ.update(order.env)
        os.chdir(order.cwd)
        import textual.constants

        importlib.reload(textual.constants)  # read from the session's own environment
        limit = _data_bytes() + memory
        # The hard limit leaves a spare that only the session's end takes (to see why).
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit + SPARE))
        _standard_streams()
        _end_at_once_out_of_memory()
        sys.argv = ["coup", *order.args]
        from .cli import main

        status = main(list(order.args))
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    except BaseException as exc:  # noqa: BLE001 — a session's crash is its own: said, ended
        if _out_of_memory(exc):
            status = OUT_OF_MEMORY  # its door tells the player, on a terminal given back
        else:
            import traceback

            with contextlib.suppress(BaseException):
                traceback.print_exc()
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(status)


def _out_of_memory(error: BaseException) -> bool:
    """Whether `error` came of the memory limit: a MemoryError, a thread whose stack could
    not be had (CPython says so only in words), or an error raised while handling either
    (the app's own shutdown fails in turn, short of memory)."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, MemoryError) or (
                isinstance(seen, RuntimeError) and "can't start new thread" in str(seen)):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _end_at_once_out_of_memory() -> None:
    """A session that reaches its memory limit ends at once, with OUT_OF_MEMORY, for its
    door to give the terminal back and tell the player: wherever the error comes up. Textual
    catches what its app raises and prints it (a page of traceback, with locals), a thread
    that cannot start its own bootstrap says so as "unraisable", and a thread that fails
    dies alone (the app would wait for its input for ever). Textual offers no hook: its
    handler is wrapped, in this session's process only."""
    from textual.app import App

    def end(error: BaseException | None) -> None:
        try:
            limit = resource.getrlimit(resource.RLIMIT_DATA)[1]
            resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))  # the spare, to look
            short = error is not None and _out_of_memory(error)
        except BaseException:  # noqa: BLE001 — could not even look: memory, again
            short = True
        if short:
            os._exit(OUT_OF_MEMORY)

    unraisable, thread_failed, handle = (sys.unraisablehook, threading.excepthook,
                                         App._handle_exception)

    def unraisable_or_end(report: UnraisableHookArgs) -> None:
        end(report.exc_value)
        unraisable(report)

    def thread_failed_or_end(report: threading.ExceptHookArgs) -> None:
        end(report.exc_value)
        thread_failed(report)

    def handle_or_end(app: App[object], error: Exception) -> None:
        end(error)
        handle(app, error)

    sys.unraisablehook = unraisable_or_end
    threading.excepthook = thread_failed_or_end
    App._handle_exception = handle_or_end  # type: ignore[method-assign, assignment]


def _standard_streams() -> None:
    """sys.stdin, stdout and stderr on the session's fds 0, 1 and 2, as Python makes them
    for a program started there (the host's were its pipes to the door). Textual reads the
    __std*__ ones."""
    sys.stdin = _stream(0, "surrogateescape")
    sys.stdout = _stream(1, "surrogateescape")
    sys.stderr = _stream(2, "backslashreplace")
    # Final in typeshed, and reassigned here because the drivers read them
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = (  # type: ignore[misc]
        sys.stdin, sys.stdout, sys.stderr)


def _stream(fd: int, errors: str) -> io.TextIOWrapper:
    raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
    if fd == 0:
        return io.TextIOWrapper(io.BufferedReader(raw), encoding="utf-8", errors=errors)
    return io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8", errors=errors,
                            line_buffering=raw.isatty())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m client.host",
                                     description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--socket", required=True, help="the Unix socket to listen on")
    parser.add_argument("--session-memory", type=int, required=True, metavar="MB",
                        help="MB each session may grow beyond the host's own data")
    args = parser.parse_args(argv)
    preload()
    host = Host(args.socket, args.session_memory)
    sys.stdout.buffer.write(READY)
    sys.stdout.flush()
    host.serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
