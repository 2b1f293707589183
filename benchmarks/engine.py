"""Random self-play at full speed: how many decisions per second the engine makes.

At each step a seat that owes a decision is picked uniformly, then one of its legal moves
uniformly (listing included), and applied. Picks use `random()` scaled to the list length:
uniform to 2**-53 and cheaper than `choice`, so the figure measures the engine, not the
driver. The whole batch is timed `--repeat` times on one core and the best run is reported,
since a shared machine only ever slows a run down.

    python -m benchmarks.engine [--games N] [--players P] [--seed S] [--variant V]
                                [--reformation] [--json]

`--reformation` plays Reformation tables (R12): random play then also converts and
embezzles, so its games are longer and its figure is not the base game's.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from engine import Game, Options


def play(options: Options, seed: int) -> int:
    """One random complete game; returns the number of decisions made."""
    g = Game.new(options, seed)
    rnd = random.Random(seed).random
    decisions = 0
    while g.phase != "over":
        waiting = g.waiting
        seat = waiting[int(rnd() * len(waiting))]
        moves = g.legal_moves(seat)
        g.apply(seat, moves[int(rnd() * len(moves))])
        decisions += 1
    return decisions


def run(games: int, options: Options, seed: int) -> tuple[int, float]:
    start = time.perf_counter()
    decisions = sum(play(options, seed + i) for i in range(games))
    return decisions, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", default="base")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best counts")
    parser.add_argument("--reformation", action="store_true",
                        help="play the Reformation expansion (R12)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    options = Options(players=args.players, variant=args.variant,
                      reformation=args.reformation)
    decisions, seconds = min(
        (run(args.games, options, args.seed) for _ in range(max(1, args.repeat))),
        key=lambda r: r[1],
    )
    result = {
        "games": args.games,
        "decisions": decisions,
        "seconds": round(seconds, 4),
        "games_per_s": round(args.games / seconds, 1),
        "decisions_per_s": round(decisions / seconds),
    }
    if args.json:
        print(json.dumps(result))
        return
    game = f"{args.variant} with Reformation" if args.reformation else args.variant
    print(f"{args.games} random games, {args.players} players, {game}, best of "
          f"{args.repeat}")
    print(f"  games/s        {result['games_per_s']:>12,.0f}")
    print(f"  decisions/s    {result['decisions_per_s']:>12,}")
    print(f"  decisions/game {decisions / args.games:>12.1f}")


if __name__ == "__main__":
    main()
