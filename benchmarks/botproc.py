"""The line protocol's cost: the host's overhead per decision above a bot's own time.

A bot process that answers at once (stdlib Python, the first move offered) plays one seat
of four-player arena games against three heuristics (engine.bots.arena.play, every hook as
on a server) until it has made `decisions` decisions. The host times each of its decisions
from the call of ExecStrategy.choose to its return (the view and the legal moves encoded,
written, the answer read, parsed and checked); the bot times its own part of each, from
the line read to the answer written (JSON parsed, a move picked, the answer encoded and
flushed), and hands the list over at goodbye. The overhead is the difference, decision by
decision: the host's work and both pipe crossings, the scheduler's wake-ups included. It
also reports the events sent after each move (`observe`), which a bot's decisions do not
wait for but its host does. The times are this machine's under its present load.

    python -m benchmarks.botproc [--decisions N] [--json]

`measure(decisions)` returns the figures as a dict, for benchmarks.bots.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from client.botproc import ExecStrategy
from engine import Event, Move, Options, View
from engine.bots import make
from engine.bots.arena import play

#: The target: a decision costs the host at most this much above the bot's own time.
TARGET_MS = 1.0

#: The bot: answers the first move at once, timing itself; writes its times at goodbye.
BOT = r"""
import json, sys, time
times = []
for line in sys.stdin:
    start = time.perf_counter_ns()
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"ready": True, "name": "instant"}), flush=True)
    elif message["type"] == "decide":
        sys.stdout.write(json.dumps({"id": message["id"], "move": 0}) + "\n")
        sys.stdout.flush()
        times.append(time.perf_counter_ns() - start)
    elif message["type"] == "goodbye":
        break
with open(sys.argv[1], "w") as out:
    json.dump(times, out)
"""


class Timed(ExecStrategy):
    """The exec strategy, noting how long each decision and each observe takes the host."""

    def __init__(self, command: str, logs: Path) -> None:
        super().__init__(command, logs=logs)
        self.decisions: list[int] = []
        self.observed: list[int] = []

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        start = time.perf_counter_ns()
        move = super().choose(view, moves)
        self.decisions.append(time.perf_counter_ns() - start)
        return move

    def observe(self, view: View, events: Sequence[Event]) -> None:
        start = time.perf_counter_ns()
        super().observe(view, events)
        self.observed.append(time.perf_counter_ns() - start)


def _ms(ns: Sequence[float]) -> dict[str, float]:
    ordered = sorted(ns)
    return {"p50": round(statistics.median(ordered) / 1e6, 3),
            "p99": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] / 1e6, 3)}


def measure(decisions: int = 3000, seed: int = 0) -> dict[str, Any]:
    """Games until the bot has made `decisions` decisions: the host's overhead per decision
    (p50, p99, in milliseconds), the bot's own time and the whole call's, and observe's."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        (folder / "bot.py").write_text(BOT)
        times_file = folder / "times.json"
        bot = Timed(f"{shlex.quote(sys.executable)} {folder / 'bot.py'} {times_file}", folder)
        games = 0
        try:
            while len(bot.decisions) < decisions:
                seat = games % 4
                seats = [bot if s == seat else make("heuristic", seed + games * 4 + s)
                         for s in range(4)]
                result = play(seats, Options(players=4), seed + games)
                assert not result.forfeits, bot.withdrawn
                games += 1
        finally:
            bot.close()
        own = json.loads(times_file.read_text())
    assert len(own) == len(bot.decisions)
    overhead = [host - mine for host, mine in zip(bot.decisions, own)]
    figures = _ms(overhead)
    return {"decisions": len(overhead), "games": games,
            "overhead_ms": figures, "bot_ms": _ms(own), "decision_ms": _ms(bot.decisions),
            "observe_ms": _ms(bot.observed), "target_ms": TARGET_MS,
            "met": figures["p50"] <= TARGET_MS}


def show(r: dict[str, Any]) -> None:
    o, b, d, e = r["overhead_ms"], r["bot_ms"], r["decision_ms"], r["observe_ms"]
    print(f"exec bot host: {r['decisions']} decisions in {r['games']} games; overhead above "
          f"the bot's own time p50 {o['p50']} ms, p99 {o['p99']} ms (target p50 <= "
          f"{r['target_ms']} ms: {'met' if r['met'] else 'MISSED'}); the bot's own p50 "
          f"{b['p50']} ms; a whole decision p50 {d['p50']} ms, p99 {d['p99']} ms; events "
          f"sent after a move p50 {e['p50']} ms, p99 {e['p99']} ms")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.botproc",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=3000,
                        help="the bot's decisions to time (default 3000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    figures = measure(args.decisions, args.seed)
    if args.json:
        print(json.dumps(figures))
    else:
        show(figures)


if __name__ == "__main__":
    main()
