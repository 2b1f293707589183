"""The session host's start gate: how many of its sessions start at once (issue 32).

Fifty players opening a door at once were fifty sessions starting at once on a machine of
two cores: each drew its lobby in a time slice of its own among fifty, its caches cold
again at each, and spent 70 ms of CPU where one alone spends 50; every lobby came near the
end of the burst. The host lets a session start only while fewer than `places` are
starting, the others waiting their turn in the order they came: each starts on a core of
its own and draws its lobby in a fraction of the time, and the next goes on.

A session is starting from the moment it is let go until it waits on something other than
the CPU: its terminal or its server. The gate does not ask the session: it looks at the
CPU the session has had (/proc/PID/schedstat), each LOOK seconds, and a session that had
less than IDLE of it since the last look has started. So a session whose server is slow
to answer frees its place at once, and the gate never holds anyone behind it for long.

Each waiting session blocks on its end of a socket pair before it runs anything of its
own; the host lets it go by writing a byte to the other end. A session that ends, or a
host that ends, lets go of its place or its turn: the gate never keeps a session waiting
for a process that is gone (its end closed reads as "go").

This module only keeps the queue and decides; client/host.py forks, reads the CPU and
writes the bytes. It never reads or writes anything of a session's own.
"""

from __future__ import annotations

import os
import socket
import time
from collections import deque
from collections.abc import Callable

#: How often, in seconds, the host looks at the CPU of the sessions starting.
LOOK = 0.025
#: CPU time (ns) under which a session, between two looks, is waiting: started.
IDLE = 2_000_000


def places() -> int:
    """How many sessions start at once: one for each core the host may run on, and one
    more to use a core while another waits for its server."""
    return len(os.sched_getaffinity(0)) + 1


def cpu_ns(pid: int) -> int | None:
    """The CPU time process `pid` has had, in ns (None: it is gone)."""
    try:
        with open(f"/proc/{pid}/schedstat") as stat:
            return int(stat.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


class StartGate:
    """The sessions starting (pid: their CPU at the last look, and when it was) and those
    waiting their turn (pid and the host's end of their socket pair), first come first let
    go."""

    def __init__(self, places: int, cpu: Callable[[int], int | None] = cpu_ns,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.places = places
        self._cpu = cpu
        self._clock = clock
        self.starting: dict[int, tuple[int, float]] = {}
        self.waiting: deque[tuple[int, socket.socket]] = deque()

    def next_look(self) -> float | None:
        """When (on the clock) the host is to look at the sessions starting next; None
        while none is."""
        return min((at + LOOK for _had, at in self.starting.values()), default=None)

    def came(self, pid: int, turn: socket.socket) -> None:
        """Session `pid` was forked, waiting on the other end of `turn`."""
        self.waiting.append((pid, turn))
        self._let_go()

    def look(self) -> None:
        """Each session starting, looked at LOOK seconds ago or more, that had less than
        IDLE of CPU since (or is gone) has started: its place goes to the next waiting."""
        now = self._clock()
        for pid, (had, at) in list(self.starting.items()):
            if now - at < LOOK:
                continue
            cpu = self._cpu(pid)
            if cpu is None or cpu - had < IDLE:
                del self.starting[pid]
            else:
                self.starting[pid] = (cpu, now)
        self._let_go()

    def ended(self, pid: int) -> None:
        """Session `pid` ended, starting or waiting."""
        self.starting.pop(pid, None)
        for place, (waiter, turn) in enumerate(self.waiting):
            if waiter == pid:
                del self.waiting[place]
                turn.close()
                break
        self._let_go()

    def _let_go(self) -> None:
        while self.waiting and len(self.starting) < self.places:
            pid, turn = self.waiting.popleft()
            had = self._cpu(pid)
            try:
                turn.send(b"g")
            except OSError:
                pass  # it is gone already: its end of the pair is closed
            turn.close()
            if had is not None:
                self.starting[pid] = (had, self._clock())


def wait_turn(turn: socket.socket) -> None:
    """In the session: wait until the host lets this session go (or is gone), then close
    this end."""
    try:
        turn.recv(1)
    except OSError:
        pass
    turn.close()
