"""What one durable commit costs on this machine, and so how low the store's share can go.

    python -m benchmarks.commit_floor [--commits N] [--moves K ...] [--games G] [--json]

A move at human pace is written in a commit of its own or with a few others (~2.3 moves a
commit at 800 tables), and SQLite's `synchronous=FULL` (the store's word: a move survives
a power loss) makes each commit an fdatasync of the WAL. No store of ours can spend less
than that. This program measures, in one process with no server, for K moves a commit:

1. **bare**: sqlite3 alone, a fresh file with the store's schema (WAL, FULL), one INSERT
   of K rows of `moves` a commit, as `Store.write` sends them, each move of another of G
   games (800: at human pace a commit's moves are of different tables, so each lands on a
   page of its own): the CPU time of the process and the wall time a commit (p50, p99),
   after WARM commits untimed. The same with `synchronous=NORMAL` (no fsync at a commit)
   says what the fsync costs. The wall time is the disk's: on this VM a flush took
   0.1-0.2 ms at one hour and 4 ms at the next, as the host's other disks were busy.
2. **store**: `Store.write` of K `MovePlayed` changes (JSON of the move, the statement
   built, the same INSERT), and its Python alone (all it does before SQLite).
3. **hand-over**: a batch's trip from the trio loop to the recorder's writer thread and
   back (`recorder.WriterThread`, writing nothing): the queue, the thread's wake-up and
   the loop's, the interpreter passing between the two. And what an idle trio loop spends
   to wake on a timer, as when the recorder's hold for company ends on its deadline.

and prints the floor beside the targets (issue 32): the store's share a move can be no
lower than (bare FULL + hand-over) / K; the latency p50 of a move written at once no lower
than a bare commit's wall p50 (one held for company waits up to recorder.HOLD more).

It writes only files of its own, in a temporary directory it removes: it must never open a
server's store, nor stand in for `benchmarks.pace`, which measures the server itself.

`--json` prints one object: `load_before`, `load_after`, and `rows`, each with `moves`
(K), `bare_full_cpu_us`, `bare_full_wall_p50_ms`, `bare_full_wall_p99_ms`,
`bare_normal_cpu_us`, `fsync_cpu_us`, `store_cpu_us`, `store_python_us` (CPU a commit), and
`floor_us_a_move`; `handover_cpu_us` (CPU a round trip) and `timer_wake_cpu_us`.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

import trio

from server.changes import MovePlayed
from server.recorder import HOLD, WriterThread
from server.store import Store

#: The targets (issue 32): the store's share at human pace (µs a move), the latency p50 (ms).
TARGET_STORE_US = 50.0
TARGET_P50_MS = 2.0
#: Commits made before the timing: while the WAL grows each fdatasync writes its new size
#: too (a median 0.18 ms a commit here, against 0.10 ms after), until the first checkpoint
#: (1,000 pages) lets it be written over from its start, as in a server that has run a while.
WARM = 600
#: A move as the store keeps it (its JSON is about this long).
MOVE = {"kind": "declare", "action": "income", "state_id": 12}


def _places(games: int, first: int, k: int) -> list[tuple[int, int]]:
    """The (game, n) of moves first .. first + k - 1, dealt round the games."""
    return [(i % games, i // games) for i in range(first, first + k)]


def _changes(games: int, first: int, k: int) -> list[MovePlayed]:
    return [MovePlayed(game=game, n=n, seat=n % 4, move=MOVE, state_id=n, ms=n * 2000,
                       by="player") for game, n in _places(games, first, k)]


def _timed(commits: int, commit: Callable[[int], object]) -> tuple[float, list[float]]:
    """CPU seconds of the process a commit, and each commit's wall seconds, after WARM
    commits untimed."""
    for i in range(WARM):
        commit(i)
    walls = []
    cpu = time.process_time()
    for i in range(WARM, WARM + commits):
        began = time.perf_counter()
        commit(i)
        walls.append(time.perf_counter() - began)
    return (time.process_time() - cpu) / commits, walls


def _fresh(folder: str, name: str) -> str:
    """A new file with the store's schema, closed again: the store's own indexes and all."""
    path = os.path.join(folder, name)
    Store(path).close()
    return path


def bare(folder: str, k: int, games: int, commits: int,
         synchronous: str) -> tuple[float, list[float]]:
    """sqlite3 alone: one INSERT of k rows of `moves` a commit."""
    conn = sqlite3.connect(_fresh(folder, f"bare-{synchronous}-{k}.db"), isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    rows = ", ".join(["(?, ?, ?, ?, ?, ?, ?)"] * k)
    statement = f"INSERT INTO moves (game, n, seat, move, state_id, ms, by) VALUES {rows}"
    move = json.dumps(MOVE, separators=(",", ":"))

    def commit(i: int) -> None:
        conn.execute(statement, [v for game, n in _places(games, i * k, k)
                                 for v in (game, n, n % 4, move, n, n * 2000, "player")])
    try:
        return _timed(commits, commit)
    finally:
        conn.close()


def store(folder: str, k: int, games: int, commits: int) -> tuple[float, float]:
    """`Store.write` of k moves a commit: CPU seconds a commit, and of them, those of its
    Python before SQLite (each move's JSON, the values, the statement)."""
    kept = Store(_fresh(folder, f"store-{k}.db"))
    batches = [_changes(games, i * k, k) for i in range(WARM + commits)]  # made outside the timing
    gc.freeze()  # and out of the collector's way: its walks over them are not the store's
    try:
        conn = kept._writing()
        python, _ = _timed(commits, lambda i: list(kept._steps(conn, batches[i])))
        cpu, _ = _timed(commits, lambda i: kept.write(batches[i]))
        return cpu, python
    finally:
        gc.unfreeze()
        kept.close()


def handover(trips: int) -> float:
    """CPU seconds of the process a round trip to the writer thread that writes nothing."""
    async def main() -> float:
        writer = WriterThread(lambda changes: None)
        try:
            await writer.write([])
            cpu = time.process_time()
            for _ in range(trips):
                await writer.write([])
            return (time.process_time() - cpu) / trips
        finally:
            writer.stop()
    return trio.run(main)


def timer_wake(wakes: int) -> float:
    """CPU seconds of the process a wake of an idle trio loop by a timer (as when the
    recorder's hold for company ends on its deadline)."""
    async def main() -> float:
        cpu = time.process_time()
        for _ in range(wakes):
            await trio.sleep(0.0005)
        return (time.process_time() - cpu) / wakes
    return trio.run(main)


def _pct(walls: list[float], q: int) -> float:
    return statistics.quantiles(walls, n=100)[q - 1] * 1000


def measure(moves: list[int], games: int, commits: int) -> dict[str, Any]:
    """Every part, for each number of moves a commit: the figures `--json` prints."""
    load_before = [round(x, 2) for x in os.getloadavg()]
    folder = tempfile.mkdtemp(prefix="coup-floor-")
    try:
        trip = handover(commits)
        timer = timer_wake(commits)
        rows = []
        for k in moves:
            full_cpu, walls = bare(folder, k, games, commits, "FULL")
            normal_cpu, _ = bare(folder, k, games, commits, "NORMAL")
            ours, python = store(folder, k, games, commits)
            rows.append({
                "moves": k,
                "bare_full_cpu_us": round(full_cpu * 1e6, 1),
                "bare_full_wall_p50_ms": round(_pct(walls, 50), 2),
                "bare_full_wall_p99_ms": round(_pct(walls, 99), 2),
                "bare_normal_cpu_us": round(normal_cpu * 1e6, 1),
                "fsync_cpu_us": round((full_cpu - normal_cpu) * 1e6, 1),
                "store_cpu_us": round(ours * 1e6, 1),
                "store_python_us": round(python * 1e6, 1),
                "floor_us_a_move": round((full_cpu + trip) * 1e6 / k, 1),
            })
    finally:
        shutil.rmtree(folder)
    return {"rows": rows, "handover_cpu_us": round(trip * 1e6, 1),
            "timer_wake_cpu_us": round(timer * 1e6, 1),
            "load_before": load_before, "load_after": [round(x, 2) for x in os.getloadavg()]}


def show(found: dict[str, Any]) -> None:
    print(f"one durable commit on this machine (load average {found['load_before']} before, "
          f"{found['load_after']} after); CPU a commit, µs")
    print(f"  {'moves':>5} {'bare FULL':>10} {'NORMAL':>8} {'fsync':>7} {'Store.write':>12}"
          f" {'its Python':>11} {'wall p50/p99 ms':>16} {'floor µs a move':>16}")
    for row in found["rows"]:
        print(f"  {row['moves']:>5} {row['bare_full_cpu_us']:>10,.0f} "
              f"{row['bare_normal_cpu_us']:>8,.0f} {row['fsync_cpu_us']:>7,.0f} "
              f"{row['store_cpu_us']:>12,.0f} {row['store_python_us']:>11,.0f} "
              f"{row['bare_full_wall_p50_ms']:>8.2f} / {row['bare_full_wall_p99_ms']:<5.2f} "
              f"{row['floor_us_a_move']:>16,.0f}")
    print(f"  a hand-over to the writer thread and back: {found['handover_cpu_us']:,.0f} µs "
          f"of CPU")
    print(f"  an idle loop woken by a timer (a hold that ends on its deadline): "
          f"{found['timer_wake_cpu_us']:,.0f} µs of CPU")
    print(f"  floor: the store's share >= (bare FULL + hand-over) / moves a commit; target "
          f"<= {TARGET_STORE_US:g} µs a move")
    p50 = found["rows"][0]["bare_full_wall_p50_ms"]
    print(f"  floor: latency p50 >= {p50:.2f} ms written at once, {p50 + HOLD * 1000:.2f} ms "
          f"held for company; target <= {TARGET_P50_MS:g} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--commits", type=int, default=2000,
                        help="commits a measure (default 2000)")
    parser.add_argument("--moves", type=int, nargs="+", default=[1, 2, 3, 4, 8],
                        help="moves a commit (default 1 2 3 4 8)")
    parser.add_argument("--games", type=int, default=800,
                        help="games the moves are dealt round (default 800)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    found = measure([max(1, k) for k in args.moves], max(1, args.games),
                    max(100, args.commits))
    if args.json:
        print(json.dumps(found))
    else:
        show(found)


if __name__ == "__main__":
    main()
