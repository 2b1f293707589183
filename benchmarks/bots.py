"""The figures of issues 14 and 33 in one run: the difficulty ladder, the bluffs, the
search, and the host of bot processes.

    python -m benchmarks.bots [--quick] [--skip ladder,bluffs,search,host] [--seed S] [--json]

The ladder: each level (engine/bots/levels.py) against the one below it, heads-up and alone
against three of it, in the arena (seats rotated); each line prints both sides' win rates
with 95% Wilson intervals and whether they are apart (the upper level's interval wholly
above the lower's). Search levels play fewer games, as few as still separate them. The
bluffs (benchmarks.bluffs: the always-bluffer against three default bots, the default and
every personality against three frozen baselines) and the search (benchmarks.search: the
search against baselines at 2, 4 and 5 seats, with its decision times) are those modules'
own measurements, called here, and so is the host (benchmarks.botproc: the line protocol's
overhead per decision above a bot process's own time, median and p99, target 1 ms). `--quick`
plays a few games of each: a smoke test, not a measurement.

Figures (`--json`: one object): `ladder` (a list of lines), `bluffs` (a list of fields),
`search` (a list of seat counts), `host` (benchmarks.botproc.measure), and `seconds`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from collections.abc import Sequence
from typing import Any

from engine.bots.arena import TABLE_SEATS, tournament
from engine.bots.levels import LADDER

from . import bluffs, botproc, search

#: Games per line of the ladder (heads-up, alone against three), by the upper level's
#: strategy: a search plays as few as still separate it from the level below.
GAMES = {"ismcts": (200, 240)}
OTHERWISE = (2000, 2000)
QUICK_GAMES = 4


def line(upper: str, lower: str, seats: int, games: int, seed: int = 0) -> dict:
    """`upper` alone against seats - 1 of `lower`, `games` games: both win rates, their
    intervals, and whether the upper's lies wholly above the lower's."""
    standings = tournament([upper] + [lower] * (seats - 1), games, seed=seed)
    rates: dict[str, dict[str, Any]] = {}
    for name in (upper, lower):
        low, high = standings[name].interval()
        rates[name] = {"win_rate": round(standings[name].win_rate, 4),
                       "interval": [round(low, 4), round(high, 4)]}
    return {"upper": upper, "lower": lower, "seats": seats, "games": games, **rates,
            "apart": rates[upper]["interval"][0] > rates[lower]["interval"][1]}


def ladder(quick: bool = False, seed: int = 0) -> list[dict]:
    """Every level against the one below, heads-up then alone against TABLE_SEATS - 1."""
    lines = []
    for below, above in itertools.pairwise(LADDER):
        counts = GAMES.get(above.strategy, OTHERWISE)
        for seats, games in zip((2, TABLE_SEATS), counts):
            lines.append(line(above.name, below.name, seats, QUICK_GAMES if quick else games,
                              seed))
    return lines


def show_ladder(lines: Sequence[dict]) -> None:
    print("level ladder (each level alone against the one below; win rate, 95% interval)")
    for ln in lines:
        upper, lower = ln[ln["upper"]], ln[ln["lower"]]
        print(f"  {ln['upper']:>6} vs {ln['seats'] - 1} {ln['lower']:<6} {ln['games']:>5} games  "
              f"{upper['win_rate']:6.1%} ({upper['interval'][0]:.1%}–{upper['interval'][1]:.1%})"
              f"  vs {lower['win_rate']:6.1%} ({lower['interval'][0]:.1%}–"
              f"{lower['interval'][1]:.1%})  {'apart' if ln['apart'] else 'OVERLAP'}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bots", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a few games of each: smoke test")
    parser.add_argument("--skip", default="",
                        help="parts to leave out: ladder, bluffs, search, host")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    start = time.perf_counter()
    figures: dict = {}
    if "ladder" not in skip:
        figures["ladder"] = ladder(args.quick, args.seed)
        if not args.json:
            show_ladder(figures["ladder"])
    if "bluffs" not in skip:
        games = QUICK_GAMES if args.quick else 2000
        figures["bluffs"] = [bluffs.run(f, games, args.seed) for f in bluffs.default_fields()]
        if not args.json:
            for result in figures["bluffs"]:
                bluffs.show(result)
    if "search" not in skip:
        games = 2 if args.quick else 200
        figures["search"] = [search.measure(games, seats, seed=args.seed)
                             for seats in (2, 4, 5)]
        if not args.json:
            for s in figures["search"]:
                low, high = s["interval"]
                print(f"search vs {s['seats'] - 1} baseline: {s['win_rate']:.1%} "
                      f"({low:.1%}–{high:.1%}, parity {s['parity']:.0%}), {s['games']} games; "
                      f"decision p50 {s['decision_ms']['p50']} ms, p99 {s['decision_ms']['p99']} ms")
    if "host" not in skip:
        figures["host"] = botproc.measure(200 if args.quick else 3000, args.seed)
        if not args.json:
            botproc.show(figures["host"])
    figures["seconds"] = round(time.perf_counter() - start, 1)
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
