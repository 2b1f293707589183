"""Ports for the servers a test starts (and may restart) on a port of its own choosing.

A port the kernel picked for a probe socket and then freed may be handed to another socket
(an outgoing connection of a test in another worker) before the server binds it. These are
taken below the kernel's ephemeral range, which it never hands out by itself, from a block
of each xdist worker's own, each one checked free before it is given.
"""

from __future__ import annotations

import itertools
import os
import socket

#: The first port of worker gw0's block; each worker's block holds BLOCK ports.
FIRST = 20000
BLOCK = 400

_taken = itertools.count()


def _worker() -> int:
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name.removeprefix("gw")) if name.removeprefix("gw").isdigit() else 0


def free_port() -> int:
    """A port free on every interface now, that no other worker of this run is given and
    that the kernel gives no other socket unasked."""
    base = FIRST + _worker() * BLOCK
    for _ in range(BLOCK):
        port = base + next(_taken) % BLOCK
        with socket.socket() as probe:
            try:
                probe.bind(("0.0.0.0", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {base}-{base + BLOCK - 1}")
