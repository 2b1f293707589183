"""The expert's habits (issue 31): how often it lies, and how it adapts to the table.

    python -m benchmarks.expert [--games N] [--seeds 1,2,3,4] [--quick] [--json]

Three lines, each `--games` games split over the seeds and pooled, seats rotated game by game
as in `coup arena`, every seat wrapped in a `Watcher` that sees only what its seat sees:

  bluffs       the expert alone against three `baseline`s: the share of its Tax, Steal and
               Assassinate claims that were bluffs, each with its 95% Wilson interval,
               next to its target (≤ 30%, 20%, 26%; human winners: ~15%, 9%, 13%);
  challenger   the same with an `always_challenger` (benchmarks.reading) in one of the
               baselines' seats: the expert's bluff share of the claims it made while the
               challenger was alive, next to its share at the all-baseline table, in the
               same games' seat (a fall is the expert adapting);
  duke         the same with the Tax-every-turn `always_bluffer` (benchmarks.bluffs): the
               share of the bluffer's claims the expert challenged, of those it could, next
               to the share the baselines challenged at the same table.

`--json` prints one object: {"lines": {...}, "seconds": S}. Run it niced: an expert game is
about half a second on two busy cores.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import Options
from engine.bots.arena import play
from engine.bots.base import Strategy, hand_of
from engine.cards import ASSASSINATE, CLAIMS_IN, STEAL, TAX
from engine.events import Event
from engine.moves import Move
from engine.views import View

from . import reading
from .bluffs import AlwaysBluffer

SUBJECT = "expert"
OPPONENT = "baseline"
#: The actions whose bluff share has a target, and the target.
TARGETS = {TAX: 0.30, STEAL: 0.20, ASSASSINATE: 0.26}
GAMES = 400
SEEDS = (1, 2, 3, 4)
QUICK_GAMES = 4
#: Seats at every table: the expert, the watched seat, and two baselines.
SEATS = 4


@dataclass(slots=True)
class Tally:
    """What the watched seats did: claims and bluffs by action (made while the `near` seat
    was alive, when one is named), and claims of the `near` seat they could challenge and
    did."""

    claims: Counter[str] = field(default_factory=Counter)
    bluffs: Counter[str] = field(default_factory=Counter)
    chances: int = 0
    calls: int = 0


class Watcher(Strategy):
    """Plays `inner` unchanged and tallies its claims and its answers to the `near` seat."""

    def __init__(self, inner: Strategy, tally: Tally, near: int | None) -> None:
        super().__init__(0)
        self.inner, self.tally, self.near = inner, tally, near

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        move = self.inner.choose(view, moves)
        claim = CLAIMS_IN[view.options.variant].get(move.kind)
        if claim is not None and (self.near is None or view.alive[self.near]):
            self.tally.claims[move.kind] += 1
            self.tally.bluffs[move.kind] += claim not in hand_of(view)
        if view.claimant == self.near and any(m.kind == "challenge" for m in moves):
            self.tally.chances += 1
            self.tally.calls += move.kind == "challenge"
        return move

    def observe(self, view: View, events: Sequence[Event]) -> None:
        self.inner.observe(view, events)

    def game_over(self, view: View) -> None:
        self.inner.game_over(view)


def build(name: str, seed: int) -> Strategy:
    """A strategy, level or scripted player by name."""
    if name == AlwaysBluffer.name:
        return AlwaysBluffer(seed)
    return reading.build(name, seed, {})


def table(watched: str, games: int, seeds: Sequence[int]) -> dict[str, Tally]:
    """The expert, `watched` and two baselines, `games` games over `seeds`: the expert's
    tally and the baselines' (both counted near the watched seat)."""
    names = (SUBJECT, watched) + (OPPONENT,) * (SEATS - 2)
    options = Options(players=SEATS)
    tallies = {SUBJECT: Tally(), OPPONENT: Tally()}
    per_seed = -(-games // len(seeds))
    for seed in seeds:
        for g in range(per_seed):
            shift = g % SEATS
            seated = names[shift:] + names[:shift]
            near = seated.index(watched)
            bots: list[Strategy] = []
            for s, name in enumerate(seated):
                bot = build(name, seed * 1_000_003 + g * 17 + s)
                if s != near:  # the watched seat is an opponent of the others, never watched
                    bot = Watcher(bot, tallies[name], near)
                bots.append(bot)
            play(bots, options, seed * 7_919 + g)
    return tallies


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of hits / n."""
    if not n:
        return (0.0, 0.0)
    z, p = 1.96, hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def share(hits: int, n: int) -> dict:
    low, high = wilson(hits, n)
    return {"share": round(hits / n, 4) if n else None, "of": n,
            "interval": [round(low, 4), round(high, 4)]}


def bluff_shares(t: Tally) -> dict[str, dict]:
    return {action: share(t.bluffs[action], t.claims[action]) for action in TARGETS}


def measure(games: int, seeds: Sequence[int]) -> dict:
    """The three lines' figures."""
    baseline = table(OPPONENT, games, seeds)[SUBJECT]
    challenger = table(reading.AlwaysChallenger.name, games, seeds)[SUBJECT]
    duke = table(AlwaysBluffer.name, games, seeds)
    return {
        "games": -(-games // len(seeds)) * len(seeds), "seeds": list(seeds),
        "bluffs": {action: {**figures, "target": TARGETS[action],
                            "met": figures["share"] is not None
                            and figures["share"] <= TARGETS[action]}
                   for action, figures in bluff_shares(baseline).items()},
        "challenger": {"near_challenger": bluff_shares(challenger),
                       "all_baseline": bluff_shares(baseline)},
        "duke": {"expert_calls": share(duke[SUBJECT].calls, duke[SUBJECT].chances),
                 "baseline_calls": share(duke[OPPONENT].calls, duke[OPPONENT].chances)},
    }


def _pct(f: dict) -> str:
    if f["share"] is None:
        return "  –"
    low, high = f["interval"]
    return f"{f['share']:5.1%} ({low:.1%}–{high:.1%}) of {f['of']}"


def show(r: dict) -> None:
    print(f"the expert's habits: {r['games']} games a table, seeds "
          f"{','.join(map(str, r['seeds']))} pooled, 95% Wilson intervals")
    print(f"  bluff share of its claims, alone vs {SEATS - 1} {OPPONENT}:")
    for action, f in r["bluffs"].items():
        print(f"    {action:<12} {_pct(f)}  target at most {f['target']:.0%}  "
              f"{'met' if f['met'] else 'NOT MET'}")
    print("  bluff share while an always_challenger is at the table (vs all baseline):")
    near, alone = r["challenger"]["near_challenger"], r["challenger"]["all_baseline"]
    for action in TARGETS:
        print(f"    {action:<12} {_pct(near[action])}  vs {_pct(alone[action])}")
    duke = r["duke"]
    print("  the Tax-every-turn bluffer's claims challenged, of those it could:")
    print(f"    expert       {_pct(duke['expert_calls'])}")
    print(f"    baseline     {_pct(duke['baseline_calls'])}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.expert", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=GAMES, help="games a table")
    parser.add_argument("--seeds", default=",".join(map(str, SEEDS)))
    parser.add_argument("--quick", action="store_true", help="a few games: smoke test")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    start = time.perf_counter()
    result = measure(QUICK_GAMES if args.quick else args.games, seeds)
    if args.json:
        print(json.dumps({"lines": result, "seconds": round(time.perf_counter() - start, 1)}))
    else:
        show(result)


if __name__ == "__main__":
    main()
