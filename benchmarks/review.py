"""How long a game's review takes: the first 40 decisions of one seat, at each budget.

The game is made afresh, the same every run: seeded `heuristic` bots play four-seat games
from seed 1 up, and the first game in which a seat made at least DECISIONS decisions is
kept, with that seat (seed 15, seat 0, 53 decisions, at the time of writing). Its first
DECISIONS decisions are then reviewed (engine.review.review) at the quick and the default
budget, and the benchmark prints the wall-clock and the CPU seconds of each, in all and per
decision, and the options judged. The wall-clock is this machine's under its present load;
the CPU time is the process's own, which other work on the machine slows far less: both are
printed, with the load average, so that a figure taken on a busy machine reads as one. The
judgements never depend on either (the budget is in worlds).

    python -m benchmarks.review [--seats N] [--decisions N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from engine import Game, Options, visible_to
from engine.bots import make
from engine.record import make as make_record
from engine.review import WORLDS, Budget, decisions, review

#: Decisions reviewed: the issue's yardstick game.
DECISIONS = 40


def played(seed: int, seats: int) -> dict[str, Any]:
    """The record of a game seeded heuristic bots play."""
    game = Game.new(Options(players=seats), seed)
    bots = [make("heuristic", seed * 10 + s) for s in range(seats)]
    moves = []
    while not game.over:
        seat = game.waiting[0]
        chosen = bots[seat].choose(game.view(seat), game.legal_moves(seat))
        moves.append({"seat": seat, "move": chosen.to_dict(), "state_id": game.state_id,
                      "ms": 0, "by": "bot"})
        events = game.apply(seat, chosen, game.state_id)
        for s, bot in enumerate(bots):
            bot.observe(game.view(s), visible_to(events, s))
    return make_record(game=seed, table="bench", table_name="benchmark", number=1,
                       options=game.options.to_dict(), seed=seed,
                       players=[{"seat": s, "name": None, "bot": "heuristic"}
                                for s in range(seats)],
                       started=0.0, finished=0.0, moves=moves, takeovers=[],
                       result={"winner": game.winner, "out": list(game.exiled)})


def yardstick(seats: int, wanted: int) -> tuple[dict[str, Any], int]:
    """The first game from seed 1 up in which a seat made `wanted` decisions, and the seat
    (the one with the most)."""
    for seed in range(1, 1000):
        record = played(seed, seats)
        counts = [len(decisions(record, s)) for s in range(seats)]
        if max(counts) >= wanted:
            return record, counts.index(max(counts))
    raise SystemExit(f"no game of {seats} seats gives a seat {wanted} decisions in 999 "
                     f"seeds: ask for fewer (--decisions)")


def timed(record: dict[str, Any], seat: int, budget: Budget, wanted: int) -> dict[str, Any]:
    """The first `wanted` decisions of `seat` reviewed at `budget`: seconds and options."""
    wall, cpu = time.perf_counter(), time.process_time()
    judged = []
    for judgement in review(record, seat, budget=budget):
        judged.append(judgement)
        if len(judged) == wanted:
            break
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"budget": budget.value, "worlds": WORLDS[budget], "decisions": len(judged),
            "options": sum(len(j.options) for j in judged),
            "marked": sum(j.mark is not None for j in judged),
            "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
            "wall_ms_per_decision": round(1000 * wall / len(judged), 1),
            "cpu_ms_per_decision": round(1000 * cpu / len(judged), 1)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seats", type=int, default=4, help="seats at the table (default 4)")
    parser.add_argument("--decisions", type=int, default=DECISIONS,
                        help=f"decisions to review (default {DECISIONS})")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    record, seat = yardstick(args.seats, args.decisions)
    load = round(os.getloadavg()[0], 2)
    rows = [timed(record, seat, budget, args.decisions) for budget in (Budget.QUICK,
                                                                        Budget.DEFAULT)]
    if args.json:
        print(json.dumps({"seats": args.seats, "seed": record["seed"], "seat": seat,
                          "cores": os.cpu_count(), "load": load, "results": rows}))
        return
    print(f"{args.seats} seats, game seed {record['seed']}, seat {seat}; {os.cpu_count()} "
          f"cores, load average {load}")
    for r in rows:
        print(f"{r['budget']:>7} ({r['worlds']} worlds): {r['decisions']} decisions, "
              f"{r['options']} options, {r['marked']} marked: wall {r['wall_s']} s "
              f"({r['wall_ms_per_decision']} ms a decision), CPU {r['cpu_s']} s "
              f"({r['cpu_ms_per_decision']} ms a decision)", flush=True)


if __name__ == "__main__":
    main()
