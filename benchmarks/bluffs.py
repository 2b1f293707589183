"""Bluffs and challenges: how often each strategy lies, how often it calls a lie, and wins.

Every seat's strategy is wrapped in a `Recorder`, which sees only what the seat sees (its own
hand tells whether its own claim is a bluff) and tallies, per strategy name: claims and
bluffs per action (Tax, Steal, Assassinate, Exchange, and blocks), challenges made and how
many of them caught a bluff, and wins; and toward its grudge (the seat that last cost it a
card or coins, as `vengeful` keeps it) against the other seats: the share of their claims
it called, of their attacks on it it blocked, and of its aimed actions at the grudge. Seats
rotate game by game as in `coup arena`.

A scripted `always_bluffer` (Tax every turn, Coup at 7 coins, every block it may, never a
challenge) is the yardstick for calling bluffs: against bots that never challenge it races
to Coup unopposed. It lives here, not among the strategies that ship.

Human winners on Treason bluffed Tax ~15%, Steal ~9%, Assassinate ~13% of the time; the
report prints each rate next to those.

    python -m benchmarks.bluffs [--games N] [--field a,b,c,d ...] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from collections.abc import Sequence

from engine import Options
from engine.bots import make
from engine.bots.arena import Standing, play
from engine.bots.base import Strategy, hand_of, target_of
from engine.bots.heuristic import PERSONALITIES
from engine.cards import CLAIMS_IN, COUP, TAX
from engine.events import Event
from engine.moves import Move
from engine.views import View

#: Human winners' bluff rates on Treason, per action.
HUMAN = {"tax": 0.15, "steal": 0.09, "assassinate": 0.13}
#: The claims tallied: the character actions, and blocks of any kind.
CLAIMED = ("tax", "steal", "assassinate", "exchange", "block")


class AlwaysBluffer(Strategy):
    """Tax every turn, Coup the richest at 7 coins, block everything, never challenge;
    prove a claim when it happens to hold the card."""

    name = "always_bluffer"

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        kinds = {m.kind: m for m in moves}
        if COUP in kinds:
            return max((m for m in moves if m.kind == COUP),
                       key=lambda m: (view.coins[target_of(m)], -target_of(m)))
        for kind in (TAX, "block", "prove", "concede", "pass"):
            if kind in kinds:
                return kinds[kind]
        return moves[0]


@dataclass(slots=True)
class Tally:
    """One strategy's habits over a run (all its seats together)."""

    claims: Counter[str] = field(default_factory=Counter)
    bluffs: Counter[str] = field(default_factory=Counter)
    challenges: int = 0
    caught: int = 0  # challenges the claimant conceded
    # Toward its grudge (True: the seat that last cost it a card or coins) and the others:
    # claims it could call and called, blocks it could make and made, targets it chose.
    windows: Counter[bool] = field(default_factory=Counter)
    calls: Counter[bool] = field(default_factory=Counter)
    block_windows: Counter[bool] = field(default_factory=Counter)
    blocks: Counter[bool] = field(default_factory=Counter)
    aims: Counter[bool] = field(default_factory=Counter)


class Recorder(Strategy):
    """Plays `inner` unchanged and tallies its claims, bluffs and challenges in `tally`."""

    def __init__(self, inner: Strategy, tally: Tally) -> None:
        super().__init__(0)
        self.inner, self.tally = inner, tally
        self.challenged: int | None = None  # the claimant it just challenged
        # Whom a lost card would be blamed on, and the grudge: as `vengeful` keeps them.
        self.blame: int | None = None
        self.grudge: int | None = None

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        move = self.inner.choose(view, moves)
        self._toward_grudge(view, moves, move)
        hand = hand_of(view)
        claim = move.card if move.kind == "block" else CLAIMS_IN[view.options.variant].get(
            move.kind)
        if claim is not None and move.kind in CLAIMED:
            self.tally.claims[move.kind] += 1
            self.tally.bluffs[move.kind] += claim not in hand
        if move.kind == "challenge":
            self.tally.challenges += 1
            self.challenged = view.claimant
        return move

    def _toward_grudge(self, view: View, moves: Sequence[Move], move: Move) -> None:
        if self.grudge is None or not view.alive[self.grudge]:
            return
        t = self.tally
        kinds = {m.kind for m in moves}
        if "challenge" in kinds:
            at = view.claimant == self.grudge
            t.windows[at] += 1
            t.calls[at] += move.kind == "challenge"
        if "block" in kinds and view.target == view.seat:
            at = view.actor == self.grudge
            t.block_windows[at] += 1
            t.blocks[at] += move.kind == "block"
        if view.phase == "action" and move.target is not None:
            t.aims[move.target == self.grudge] += 1

    def observe(self, view: View, events: Sequence[Event]) -> None:
        me = view.seat
        for e in events:
            if e.kind in ("prove", "concede") and e.seat == self.challenged:
                self.tally.caught += e.kind == "concede"
                self.challenged = None
            if (e.kind in ("action", "challenge") and e.target == me) or (
                    e.kind == "prove" and e.seat == self.challenged):
                self.blame = e.seat
            elif e.kind == "lose" and e.seat == me and self.blame is not None:
                self.grudge = self.blame
            elif e.kind == "steal" and e.target == me and e.amount:
                self.grudge = e.seat
        self.inner.observe(view, events)

    def game_over(self, view: View) -> None:
        self.inner.game_over(view)


def build(name: str, seed: int) -> Strategy:
    """A strategy by name: the shipped ones, and the benchmark's always_bluffer."""
    if name == AlwaysBluffer.name:
        return AlwaysBluffer(seed)
    return make(name, seed)


def run(names: Sequence[str], games: int, seed: int = 0) -> dict:
    """`games` games of the field `names`, seats rotated; figures per strategy name."""
    players = len(names)
    options = Options(players=players)
    standings = {n: Standing(n, names.count(n)) for n in names}
    tallies = {n: Tally() for n in names}
    for g in range(games):
        shift = g % players
        seated = list(names[shift:]) + list(names[:shift])
        seats = [Recorder(build(n, seed * 1_000_003 + g * 17 + s), tallies[n])
                 for s, n in enumerate(seated)]
        result = play(seats, options, seed * 7_919 + g)
        for standing in standings.values():
            standing.games += 1
        if result.winner is not None:
            standings[seated[result.winner]].wins += 1
    report = {}
    for n in standings:
        t, s = tallies[n], standings[n]
        low, high = s.interval()
        report[n] = {
            "seats": s.seats,
            "win_rate": round(s.win_rate, 4),
            "interval": [round(low, 4), round(high, 4)],
            "bluff_rate": {k: round(t.bluffs[k] / t.claims[k], 4) if t.claims[k] else None
                           for k in CLAIMED},
            "claims_per_game": {k: round(t.claims[k] / games / s.seats, 3) for k in CLAIMED},
            "challenges_per_game": round(t.challenges / games / s.seats, 3),
            "challenges_caught": round(t.caught / t.challenges, 4) if t.challenges else None,
            "grudge": {
                "calls": _shares(t.calls, t.windows),
                "blocks": _shares(t.blocks, t.block_windows),
                "aims_at_it": round(t.aims[True] / sum(t.aims.values()), 4)
                if t.aims else None,
            },
        }
    return {"field": list(names), "games": games, "strategies": report,
            "challenges_per_game": round(sum(t.challenges for t in tallies.values()) / games, 3)}


def _shares(done: Counter[bool], could: Counter[bool]) -> dict[str, float | None]:
    """What share of its chances it took, toward its grudge and toward the others."""
    return {key: round(done[at] / could[at], 4) if could[at] else None
            for key, at in (("grudge", True), ("others", False))}


def default_fields() -> list[list[str]]:
    """The bluffer, the default against random, the default among itself, and the default
    and every personality against three frozen baselines."""
    fields = [["always_bluffer"] + ["heuristic"] * 3, ["heuristic"] + ["random"] * 3,
              ["heuristic"] * 4]
    return fields + [[n] + ["baseline"] * 3 for n in ["heuristic", *sorted(PERSONALITIES)]]


def show(result: dict) -> None:
    print(f"{','.join(result['field'])}: {result['games']} games, "
          f"{result['challenges_per_game']} challenges a game")
    for name, r in result["strategies"].items():
        low, high = r["interval"]
        rates = "  ".join(
            f"{k} {r['bluff_rate'][k]:.0%}" if r["bluff_rate"][k] is not None else f"{k} -"
            for k in CLAIMED)
        caught = r["challenges_caught"]
        print(f"  {name:>16}: win {r['win_rate']:.1%} ({low:.1%}-{high:.1%}) per seat; "
              f"challenges {r['challenges_per_game']}/game"
              f"{f' ({caught:.0%} caught a bluff)' if caught is not None else ''}")
        print(f"  {'':>16}  bluffs: {rates}")
        g = r["grudge"]
        if g["aims_at_it"] is not None:
            def pct(x: float | None) -> str:
                return "-" if x is None else f"{x:.0%}"
            print(f"  {'':>16}  toward its grudge vs others: calls "
                  f"{pct(g['calls']['grudge'])} vs {pct(g['calls']['others'])} of claims, "
                  f"blocks {pct(g['blocks']['grudge'])} vs {pct(g['blocks']['others'])}; "
                  f"{pct(g['aims_at_it'])} of its aimed actions at it")
    human = "  ".join(f"{k} {v:.0%}" for k, v in HUMAN.items())
    print(f"  {'human winners':>16}  bluffs: {human}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bluffs", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--field", action="append",
                        help="comma-separated strategies, one per seat (repeatable); "
                             "default: the bluffer, the default bot and every personality")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    fields = [f.split(",") for f in args.field] if args.field else default_fields()
    results = []
    for names in fields:
        result = run(names, args.games, args.seed)
        results.append(result)
        if not args.json:
            show(result)
            sys.stdout.flush()
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
