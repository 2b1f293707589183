"""The search bot's strength and speed: ismcts against the baseline at 2, 4 and 5 seats.

Each game seats one `ismcts` among `baseline`s (the heuristic as it was when issue 31 began,
frozen, so that figures taken at different times compare), its seat rotating with the game
number, and plays it through the arena (engine.bots.arena.play, every hook called as on a
server). It reports the search's win rate with a 95% Wilson interval and its parity
(1 / seats), and the wall-clock time of each decision the search makes itself (its own
turn, a card to lose, the cards to keep, with a choice of moves); answers to claims are not
searched, take microseconds, and are not counted. The times are this machine's under its present load: the moves do not
depend on them (the budget is in playouts).

    python -m benchmarks.search [--games N] [--seats 2,4,5] [--playouts P] [--jobs J]
                                [--seed S] [--quick] [--json]

`measure(games, seats)` returns one seat count's figures as a dict, for other benchmarks.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from collections.abc import Sequence

from engine import Move, Options, View
from engine.bots import make
from engine.bots.arena import Standing, play
from engine.bots.ismcts import PLAYOUTS, SEARCHED, Ismcts

#: Games per seat count in --quick mode: enough to see a regression, not to settle a target.
QUICK_GAMES = 20


class Timed(Ismcts):
    """The search bot, noting how long each decision it searches takes."""

    def __init__(self, seed: int, playouts: int) -> None:
        super().__init__(seed, playouts)
        self.times: list[float] = []

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        if len(moves) == 1 or view.phase not in SEARCHED:
            return super().choose(view, moves)
        start = time.perf_counter()
        move = super().choose(view, moves)
        self.times.append(time.perf_counter() - start)
        return move


def _games(args: tuple[int, int, int, int, int]) -> tuple[int, int, list[float]]:
    """Games first .. first+count-1 at `seats` seats: (games, search's wins, its times)."""
    seats, first, count, playouts, seed = args
    options = Options(players=seats)
    wins = 0
    times: list[float] = []
    for g in range(first, first + count):
        at = g % seats
        search = Timed(seed * 1_000_003 + g * 17, playouts)
        bots = [search if s == at else make("baseline", seed * 1_000_003 + g * 17 + s)
                for s in range(seats)]
        result = play(bots, options, seed * 7_919 + g)
        wins += result.winner == at
        times += search.times
    return count, wins, times


def _percentile(sorted_times: list[float], q: float) -> float:
    if not sorted_times:
        return 0.0
    return sorted_times[min(len(sorted_times) - 1, int(q * len(sorted_times)))]


def measure(games: int, seats: int, playouts: int = PLAYOUTS, seed: int = 0,
            jobs: int = 1) -> dict:
    """`games` games of one ismcts against seats - 1 baselines: its win rate with a 95%
    interval, parity, and its searched decisions' times in milliseconds."""
    jobs = max(1, min(jobs, games))
    shares = [(seats, games * j // jobs, games * (j + 1) // jobs - games * j // jobs,
               playouts, seed) for j in range(jobs)]
    if jobs == 1:
        results = [_games(shares[0])]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(_games, shares))
    standing = Standing("ismcts", 1, sum(r[0] for r in results), sum(r[1] for r in results))
    times = sorted(t for r in results for t in r[2])
    low, high = standing.interval()
    return {
        "seats": seats,
        "games": standing.games,
        "playouts": playouts,
        "wins": standing.wins,
        "win_rate": round(standing.win_rate, 4),
        "interval": [round(low, 4), round(high, 4)],
        "parity": round(1 / seats, 4),
        "decisions": len(times),
        "decision_ms": {"p50": round(_percentile(times, 0.5) * 1000, 1),
                        "p99": round(_percentile(times, 0.99) * 1000, 1),
                        "max": round((times[-1] if times else 0.0) * 1000, 1)},
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per seat count")
    parser.add_argument("--seats", default="2,4,5", help="seat counts, comma-separated")
    parser.add_argument("--playouts", type=int, default=PLAYOUTS)
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true",
                        help=f"{QUICK_GAMES} games per seat count, whatever --games says")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    games = QUICK_GAMES if args.quick else args.games
    rows = []
    for seats in (int(s) for s in args.seats.split(",")):
        rows.append(measure(games, seats, args.playouts, args.seed, args.jobs))
        if not args.json:
            r = rows[-1]
            low, high = r["interval"]
            ms = r["decision_ms"]
            print(f"{seats} seats: ismcts won {r['wins']}/{r['games']} = {r['win_rate']:.1%} "
                  f"({low:.1%}-{high:.1%}, parity {r['parity']:.0%}); "
                  f"{r['decisions']} searched decisions, p50 {ms['p50']} ms, "
                  f"p99 {ms['p99']} ms, max {ms['max']} ms", flush=True)
    if args.json:
        print(json.dumps({"playouts": args.playouts, "seed": args.seed, "results": rows}))


if __name__ == "__main__":
    main()
