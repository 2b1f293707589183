"""The benchmarks' memory figures are each process's own (issue 36).

On Linux a process's `ru_maxrss` survives `execve`, so a child started with
multiprocessing's spawn reported at least its parent's resident memory at the fork: once the
benchmark's own process had grown, every server it started "peaked" at that size.
"""

import os

from benchmarks.server import Child, _echo_server_main, memory_mb

#: What the parent holds while it starts the child: far more than an echo server needs.
BALLAST_MB = 400


def test_a_spawned_childs_peak_is_its_own_not_its_parents():
    ballast = bytearray(BALLAST_MB * 1024 * 1024)
    ballast[::4096] = b"\x01" * len(ballast[::4096])  # touch every page: resident
    assert memory_mb(os.getpid(), "VmRSS") > BALLAST_MB
    child = Child(_echo_server_main)
    child.port()
    report = child.stop()
    # An echo server in trio holds some tens of MB; the parent's ballast is not its own.
    assert 5 < report["rss_mb"] < BALLAST_MB / 4
    del ballast
