"""`coup arena`: strategies against each other in-process, with a progress bar.

The games are split over `--jobs` processes; each runs engine.bots.arena.tournament on its
share (seats rotated, seeds derived from --seed), and the standings are added up.
"""

from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from engine.bots import STRATEGIES
from engine.bots.arena import Standing, tournament


def _share(args: tuple) -> dict[str, tuple[int, int, list[int]]]:
    names, games, seed, variant, budget = args
    settings = {"ismcts": {"playouts": budget}} if budget is not None else None
    standings = tournament(names, games, seed=seed, variant=variant, settings=settings)
    return {n: (s.games, s.wins, s.decisions) for n, s in standings.items()}


def run(names: list[str], games: int, seed: int, variant: str, jobs: int,
        budget: int | None, as_json: bool) -> int:
    unknown = [n for n in names if n not in STRATEGIES]
    if unknown or not 2 <= len(names) <= 10:
        print(f"coup arena: give 2 to 10 strategies from {', '.join(sorted(STRATEGIES))}",
              file=sys.stderr)
        return 2
    jobs = max(1, min(jobs, games))
    players = len(names)
    # Shares of whole rotations, so that every strategy sits in every seat equally often.
    chunk = players * max(1, min(50, games // (jobs * 4)) // players)
    shares = []
    left = games
    index = 0
    while left > 0:
        n = min(chunk, left)
        # Each share starts on a rotation boundary so seats stay balanced overall.
        shares.append((names, n, seed * 100_003 + index, variant, budget))
        left -= n
        index += 1
    standings = {n: Standing(n, names.count(n)) for n in names}
    done = 0
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(_share, shares):
            for name, (played, wins, decisions) in result.items():
                standings[name].games += played
                standings[name].wins += wins
                standings[name].decisions += decisions
            done += len(next(iter(result.values()))[2])
            if not as_json:
                _progress(done, games, time.perf_counter() - start)
    if as_json:
        print(json.dumps({
            "games": games,
            "win_rate": {n: round(s.win_rate, 4) for n, s in standings.items()},
        }))
        return 0
    print(file=sys.stderr)
    lengths = next(iter(standings.values())).decisions
    print(f"{games} games, {len(names)} players, {variant}, seed {seed}")
    print(f"{'strategy':<12} {'seats':>5} {'win rate':>9} {'95% interval':>17}")
    for s in sorted(standings.values(), key=lambda s: -s.win_rate):
        low, high = s.interval()
        print(f"{s.name:<12} {s.seats:>5} {s.win_rate:>9.1%}   {low:>6.1%} – {high:<6.1%}")
    print(f"parity {1 / len(names):.1%}; average game {sum(lengths) / len(lengths):.1f} "
          f"decisions")
    return 0


def _progress(done: int, total: int, seconds: float) -> None:
    width = 30
    filled = int(width * done / total)
    rate = done / seconds if seconds else 0
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games "
                     f"{rate:.1f}/s")
    sys.stderr.flush()
