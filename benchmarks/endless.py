"""Do games between bots end? Every size from 2 to 6 seats and every pairing of strategies.

    python -m benchmarks.endless [--games N] [--search-games N] [--playouts N] [--reformation]
                                 [--json]

For each size and each pair of strategies (a strategy paired with itself included), `--games`
complete games in the arena (engine.bots.arena.play: every hook called as the server calls
it), the two strategies seated alternately and the seating flipped every other game; pairs
with `ismcts` play `--search-games` games, its budget cut to `--playouts` a decision (that
changes how well it plays, not what ends its games). Games run in a process per core. The
defaults play about 20,000 games in all, as issue 12 asks. `--reformation` plays Reformation
tables (R12) instead, at every size from 2 to 10 seats, the base deck and the Inquisitor's in
turn: the arena then also finds any move a strategy makes that R12 forbids (the engine
refuses it, and the run fails).

Figures (`--json`: one object): `games`, `seconds`, `longest` (the most moves any game took),
`over_1000` (games longer than 1,000 moves), `unfinished` (games the arena stopped at its
limit), and `by_cell`: the longest game per "seats:first+second". The target (issue 12):
every game ends within 1,000 moves, so `unfinished` and `over_1000` are 0.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor

from engine import Options
from engine.bots import STRATEGIES, make
from engine.bots.arena import play

#: Moves a game between bots should never need.
LONG = 1_000


def cell(players: int, first: str, second: str, games: int, playouts: int,
         reformation: bool = False) -> list[int]:
    """How many moves each of `games` games took (-1: stopped unfinished by the arena)."""
    lengths = []
    for n in range(games):
        seats = [first if i % 2 == 0 else second for i in range(players)]
        if n % 2:
            seats.reverse()
        bots = [make(name, n * 10 + i, **({"playouts": playouts} if name == "ismcts" else {}))
                for i, name in enumerate(seats)]
        variant = "inquisitor" if reformation and n % 2 else "base"
        options = Options(players=players, variant=variant, reformation=reformation)
        result = play(bots, options, seed=n)
        lengths.append(result.decisions if result.winner is not None else -1)
    return lengths


def plan(games: int, search_games: int, playouts: int,
         reformation: bool = False) -> list[tuple[int, str, str, int, int, bool]]:
    """Every cell's arguments to `cell`: each size, each pairing, and its number of games."""
    sizes = range(2, 11) if reformation else range(2, 7)
    return [(players, a, b, search_games if "ismcts" in (a, b) else games, playouts, reformation)
            for players in sizes
            for a, b in itertools.combinations_with_replacement(sorted(STRATEGIES), 2)]


def survey(games: int, search_games: int, playouts: int = 2, reformation: bool = False) -> dict:
    """Play every cell (see the module docstring) and sum up what came out."""
    cells = plan(games, search_games, playouts, reformation)
    start = time.perf_counter()
    spawn = multiprocessing.get_context("spawn")  # no fork of a process that may hold threads
    # The bots' choices can follow the order of sets of strings, which Python shuffles per
    # process unless told a hash seed: with one, every run plays the very same games.
    hash_seed = os.environ.get("PYTHONHASHSEED")
    os.environ["PYTHONHASHSEED"] = "0"
    try:
        with ProcessPoolExecutor(max_workers=os.cpu_count() or 2, mp_context=spawn) as pool:
            lengths = list(pool.map(cell, *zip(*cells)))
    finally:
        if hash_seed is None:
            del os.environ["PYTHONHASHSEED"]
        else:
            os.environ["PYTHONHASHSEED"] = hash_seed
    every = [n for cell_lengths in lengths for n in cell_lengths]
    return {
        "games": len(every),
        "seconds": round(time.perf_counter() - start, 1),
        "longest": max(every),
        "over_1000": sum(n > LONG for n in every),
        "unfinished": every.count(-1),
        "by_cell": {f"{c[0]}:{c[1]}+{c[2]}": max(n) for c, n in zip(cells, lengths)},
    }


def main() -> None:
    games, search_games, playouts = 110, 10, 2
    total = sum(c[3] for c in plan(games, search_games, playouts))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=games,
                        help=f"games per size and pairing without ismcts (default {games}: "
                        f"{total:,} games in all with the other defaults)")
    parser.add_argument("--search-games", type=int, default=search_games,
                        help=f"games per size and pairing with ismcts (default {search_games})")
    parser.add_argument("--playouts", type=int, default=playouts,
                        help=f"ismcts's playouts a decision (default {playouts})")
    parser.add_argument("--reformation", action="store_true",
                        help="Reformation tables (R12) at 2 to 10 seats")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    figures = survey(args.games, args.search_games, args.playouts, args.reformation)
    if args.json:
        print(json.dumps(figures))
        return
    where = "Reformation tables at 2 to 10" if args.reformation else "2 to 6"
    print(f"endless: every pairing of {len(STRATEGIES)} strategies at {where} seats")
    targets = {  # issue 12's: every game ends within LONG moves
        "unfinished": ("= 0", figures["unfinished"] == 0),
        "over_1000": ("= 0", figures["over_1000"] == 0),
        "longest": (f"<= {LONG:,}", figures["longest"] <= LONG),
    }
    for key in ("games", "unfinished", "over_1000", "longest", "seconds"):
        mark = ""
        if key in targets:
            goal, ok = targets[key]
            mark = f"   target {goal}: {'ok' if ok else 'MISSED'}"
        print(f"  {key:<12}{figures[key]:>12,}{mark}")
    print("  the longest games, by cell:")
    for name, longest in sorted(figures["by_cell"].items(), key=lambda kv: -kv[1])[:10]:
        print(f"    {name:<24} {longest:>6,}")


if __name__ == "__main__":
    main()
