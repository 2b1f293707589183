"""Issue 31's table: bots that read people, every line with its interval next to its target.

    python -m benchmarks.reading [--games N] [--seeds 1,2,3,4] [--only WORDS] [--quick] [--json]

Each line seats one subject strategy (at a Reformation table, R12, for the lines named
"reformation:") against the others named (seats rotated game by game,
as in `coup arena`) and plays `--games` games a line (1,000 by default), split evenly over
several seeds (1 to 4 by default: not the docs' seed 0, so that a figure is not tuned to one
deal) and pooled. It prints the subject's per-seat win rate with its 95% Wilson interval,
the target, and whether it is met. A target is one of:

  at most X   the subject's win rate is X or less (players who should lose: never lying,
              lying every turn, challenging everything);
  at least X  the win rate is X or more;
  above       the subject's interval lies wholly above its opponents' (the levels' ladder:
              each level against the one below, and heads-up against `honest` and the
              Tax-every-turn bluffer).

Scripted players that are no shipped strategy live here: `always_bluffer` (benchmarks.bluffs:
Tax every turn whatever it holds, Coup at 7, every block it may, never a challenge) and
`always_challenger` (challenges every claim it may; otherwise plays as `honest`).

Run it niced and in the background: a full run is some tens of minutes on two cores.
`--only` keeps the lines whose name holds any of the words (`--only honest,bluffer`).
`--json` prints one object: {"lines": [...], "seconds": S}.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from engine import Options
from engine.bots import make
from engine.bots.arena import Standing, play
from engine.bots.base import Strategy
from engine.events import Event
from engine.moves import Move
from engine.views import View

from .bluffs import AlwaysBluffer

AT_MOST, AT_LEAST, ABOVE = "at most", "at least", "above"


class AlwaysChallenger(Strategy):
    """Challenges every claim it may; every other decision is `honest`'s."""

    name = "always_challenger"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.honest = make("honest", seed)

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        for m in moves:
            if m.kind == "challenge":
                return m
        return self.honest.choose(view, moves)

    def observe(self, view: View, events: Sequence[Event]) -> None:
        self.honest.observe(view, events)


SCRIPTED: Mapping[str, type[Strategy]] = MappingProxyType({
    AlwaysBluffer.name: AlwaysBluffer, AlwaysChallenger.name: AlwaysChallenger})


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the table: `seats[0]` is the subject, the rest its opponents."""

    name: str
    seats: tuple[str, ...]
    target: str  # AT_MOST, AT_LEAST or ABOVE
    value: float | None = None  # AT_MOST and AT_LEAST's bound
    floor: float | None = None  # AT_LEAST: the least its interval's lower end may be
    draft: bool = True  # heads-up only (R1.7)
    reformation: bool = False  # the Reformation expansion (R12)
    #: Keyword settings by strategy name (e.g. {"expert": {"playouts": 130}}).
    settings: Mapping[str, Mapping[str, float]] = field(
        default_factory=lambda: MappingProxyType({}))


def _line(name: str, subject: str, opponent: str, opponents: int, target: str,
          value: float | None = None) -> Line:
    return Line(name, (subject,) + (opponent,) * opponents, target, value)


#: The lines, in the issue's order. The expert's habits (its bluff shares, and how it adapts
#: to a table that calls everything) are benchmarks.expert's.
LINES: tuple[Line, ...] = (
    _line("honest alone vs 3 medium", "honest", "medium", 3, AT_MOST, 0.30),
    _line("honest alone vs 3 hard", "honest", "hard", 3, AT_MOST, 0.25),
    _line("Tax-every-turn bluffer alone vs 3 medium", "always_bluffer", "medium", 3,
          AT_MOST, 0.15),
    _line("always-challenger alone vs 3 medium", "always_challenger", "medium", 3,
          AT_MOST, 0.10),
    _line("ladder: medium alone vs 3 easy", "medium", "easy", 3, ABOVE),
    _line("ladder: hard alone vs 3 medium", "hard", "medium", 3, ABOVE),
    _line("ladder: medium vs easy heads-up", "medium", "easy", 1, ABOVE),
    _line("ladder: hard vs medium heads-up", "hard", "medium", 1, ABOVE),
    _line("medium vs honest heads-up", "medium", "honest", 1, ABOVE),
    _line("hard vs honest heads-up", "hard", "honest", 1, ABOVE),
    _line("medium vs Tax-every-turn bluffer heads-up", "medium", "always_bluffer", 1, ABOVE),
    _line("hard vs Tax-every-turn bluffer heads-up", "hard", "always_bluffer", 1, ABOVE),
    Line("expert alone vs 4 baseline, 5 seats", ("expert",) + ("baseline",) * 4, AT_LEAST,
         0.40, floor=0.37),
    Line("expert alone vs 3 baseline, 4 seats", ("expert",) + ("baseline",) * 3, AT_LEAST,
         0.46, floor=0.43),
    _line("expert vs baseline heads-up, draft on", "expert", "baseline", 1, AT_LEAST, 0.90),
    Line("expert vs baseline heads-up, draft off", ("expert", "baseline"), AT_LEAST, 0.80,
         draft=False),
    _line("ladder: expert alone vs 3 hard", "expert", "hard", 3, ABOVE),
    _line("ladder: expert vs hard heads-up", "expert", "hard", 1, ABOVE),
    _line("expert vs honest heads-up", "expert", "honest", 1, ABOVE),
    _line("expert vs Tax-every-turn bluffer heads-up", "expert", "always_bluffer", 1, ABOVE),
    _line("Tax-every-turn bluffer alone vs 3 expert", "always_bluffer", "expert", 3,
          AT_MOST, 0.15),
) + tuple(
    # Issue 35: the heuristic and the expert at Reformation tables, factions and all.
    Line(f"reformation: {subject} alone vs {n} {opponent}", (subject,) + (opponent,) * n,
         ABOVE, reformation=True)
    for subject, opponent, sizes in (("heuristic", "random", (2, 3, 4)),
                                     ("heuristic", "honest", (2, 3, 4)),
                                     ("heuristic", "careless", (2, 3, 4)),
                                     ("expert", "heuristic", (1, 3)))
    for n in sizes
)

#: Default games a line, and the seeds they are split over.
GAMES = 1000
SEEDS = (1, 2, 3, 4)
QUICK_GAMES = 8


def build(name: str, seed: int, settings: Mapping[str, float]) -> Strategy:
    """A strategy, level or scripted player by name."""
    scripted = SCRIPTED.get(name)
    return scripted(seed) if scripted else make(name, seed, **settings)


def measure(line: Line, games: int, seeds: Sequence[int]) -> dict:
    """Play `line` for `games` games split over `seeds` (seats rotated); its figures."""
    seats = line.seats
    players = len(seats)
    options = Options(players=players, two_player_draft=line.draft,
                      reformation=line.reformation)
    subject, opponent = seats[0], seats[1]
    standings = {n: Standing(n, seats.count(n)) for n in seats}
    per_seed = -(-games // len(seeds))
    for seed in seeds:
        for g in range(per_seed):
            shift = g % players
            seated = seats[shift:] + seats[:shift]
            bots = [build(n, seed * 1_000_003 + g * 17 + s, line.settings.get(n, {}))
                    for s, n in enumerate(seated)]
            result = play(bots, options, seed * 7_919 + g)
            for standing in standings.values():
                standing.games += 1
            if result.winner is not None:
                standings[seated[result.winner]].wins += 1
    mine, theirs = standings[subject], standings[opponent]
    low, high = mine.interval()
    figures = {"line": line.name, "seats": list(seats), "games": per_seed * len(seeds),
               "seeds": list(seeds), "win_rate": round(mine.win_rate, 4),
               "interval": [round(low, 4), round(high, 4)], "target": line.target,
               "value": line.value}
    if line.target == ABOVE:
        o_low, o_high = theirs.interval()
        figures["opponent"] = {"win_rate": round(theirs.win_rate, 4),
                               "interval": [round(o_low, 4), round(o_high, 4)]}
        figures["met"] = low > o_high
    else:
        assert line.value is not None  # a bound comes with its target
        figures["met"] = (mine.win_rate <= line.value if line.target == AT_MOST
                          else mine.win_rate >= line.value
                          and (line.floor is None or low >= line.floor))
        figures["floor"] = line.floor
    return figures


def show(f: dict) -> None:
    low, high = f["interval"]
    if f["target"] == ABOVE:
        o = f["opponent"]
        target = (f"above {o['win_rate']:.1%} ({o['interval'][0]:.1%}–"
                  f"{o['interval'][1]:.1%})")
    else:
        target = f"{f['target']} {f['value']:.0%}"
        if f["floor"] is not None:
            target += f", lower end at least {f['floor']:.0%}"
    print(f"  {f['line']:<46} {f['games']:>5} games  {f['win_rate']:6.1%} "
          f"({low:.1%}–{high:.1%})  target {target}  {'met' if f['met'] else 'NOT MET'}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reading", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=GAMES, help="games a line")
    parser.add_argument("--seeds", default=",".join(map(str, SEEDS)),
                        help="seeds the games are split over, pooled")
    parser.add_argument("--only", default="", help="lines whose name holds any of these words")
    parser.add_argument("--quick", action="store_true", help="a few games a line: smoke test")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    words = [w.strip().lower() for w in args.only.split(",") if w.strip()]
    lines = [ln for ln in LINES if not words or any(w in ln.name.lower() for w in words)]
    games = QUICK_GAMES if args.quick else args.games
    start = time.perf_counter()
    results = []
    if not args.json:
        print("issue 31: win rate per seat, 95% Wilson interval, seeds "
              f"{','.join(map(str, seeds))} pooled")
    for line in lines:
        results.append(measure(line, games, seeds))
        if not args.json:
            show(results[-1])
            sys.stdout.flush()
    seconds = round(time.perf_counter() - start, 1)
    if args.json:
        print(json.dumps({"lines": results, "seconds": seconds}))


if __name__ == "__main__":
    main()
