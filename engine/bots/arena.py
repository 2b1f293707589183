"""The arena: strategies against each other in-process, at engine speed.

`play` runs one complete game with one strategy object per seat, calling every hook the
way the server does (observe after every move with the seat's view and events; game_over
at the end). `tournament` plays many, rotating the seats so that no strategy keeps the
first seat, and counts wins per strategy. `lineups` lists the games of a round-robin
(`coup arena --table`): every pair heads-up, and each name alone against three of another.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from math import sqrt
from collections.abc import Callable, Sequence

from ..events import visible_to
from ..game import Game
from ..options import Options
from . import make
from .base import Strategy, Withdrawn

#: Makes one entrant's strategy for one game: (its name, the game's seed for it, its index in
#: the names of the tournament). A maker may hand the same entrant the same object every
#: game (a bot process lives on from game to game); `make` makes a fresh one.
Maker = Callable[[str, int, int], Strategy]

#: A game that goes on this long is stopped and counted as nobody's win.
MAX_DECISIONS = 5000


@dataclass(slots=True)
class Result:
    """One game: the winning seat (None if it was stopped), how many moves it took, the
    seats exiled, first out first, and those of them forfeited because their strategy
    withdrew (engine.bots.Withdrawn), first to withdraw first. A forfeit is a loss: a host
    that places seats puts them last, whenever they went out."""

    winner: int | None
    decisions: int
    exiled: tuple[int, ...] = ()
    forfeits: tuple[int, ...] = ()


def play(strategies: Sequence[Strategy], options: Options, seed: int,
         names: Sequence[str] | None = None, start: Game | None = None) -> Result:
    """One complete game between `strategies` (one per seat, seat order), told the players'
    `names` first if given; dealt from `seed`, or played on from `start` (a Position's game,
    with `options` its own). A strategy that withdraws, choosing or observing, forfeits its
    seat (Game.forfeit) and is not called again until game_over; the game goes on."""
    game = start or Game.new(options, seed)
    order = random.Random(seed)
    decisions = 0
    if names is not None:
        for strategy in strategies:
            strategy.seated(names)
    withdrawn: list[int] = []  # seats to forfeit before the next decision
    forfeits: list[int] = []
    while not game.over and decisions < MAX_DECISIONS:
        if withdrawn:
            seat = withdrawn.pop(0)
            forfeits.append(seat)
            events = game.forfeit(seat)
        else:
            seat = game.waiting[order.randrange(len(game.waiting))]
            try:
                move = strategies[seat].choose(game.view(seat), game.legal_moves(seat))
            except Withdrawn:
                withdrawn.append(seat)
                continue
            events = game.apply(seat, move)
            decisions += 1
        for s, strategy in enumerate(strategies):
            if (game.alive[s] or game.over) and s not in withdrawn and s not in forfeits:
                try:
                    strategy.observe(game.view(s), visible_to(events, s))
                except Withdrawn:
                    withdrawn.append(s)
    for s, strategy in enumerate(strategies):
        if s not in forfeits:
            try:
                strategy.game_over(game.view(s))
            except Withdrawn:
                pass  # the game is over: its result stands
    return Result(game.winner, decisions, tuple(game.exiled), tuple(forfeits))


@dataclass(slots=True)
class Standing:
    """One strategy's record over a tournament."""

    name: str
    seats: int  # seats it held per game
    games: int = 0
    wins: int = 0
    decisions: list[int] = field(default_factory=list)
    #: Seats it forfeited, over all games (its strategy withdrew: a bot process that broke).
    forfeits: int = 0

    @property
    def win_rate(self) -> float:
        """Wins of all its seats ÷ games ÷ its number of seats (parity is 1/players)."""
        return self.wins / self.games / self.seats if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the per-seat win rate."""
        return wilson(self.wins, self.games * self.seats)


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate of `hits` in `n` trials ((0, 0) for none):
    unlike the normal approximation it stays inside [0, 1] and is fair at rates near 0 or 1."""
    if not n:
        return (0.0, 0.0)
    p = hits / n
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def tournament(
    names: Sequence[str],
    games: int,
    seed: int = 0,
    variant: str = "base",
    progress: Callable[[int], None] | None = None,
    settings: dict[str, dict[str, float]] | None = None,
    maker: Maker | None = None,
    reformation: bool = False,
) -> dict[str, Standing]:
    """`games` games of len(names) players; game g seats names rotated by g. `settings`
    gives a strategy's keyword settings by name (e.g. {"ismcts": {"playouts": 350}}).
    `maker` makes each game's strategies instead of `make` (a host's, for names `make` does
    not know, such as a bot process's). `reformation`: the games are Reformation's (R12.1)."""
    settings = settings or {}
    players = len(names)
    standings = {n: Standing(n, names.count(n)) for n in names}
    options = Options(players=players, variant=variant, reformation=reformation)

    def made(name: str, seed: int, entrant: int) -> Strategy:
        return make(name, seed, **settings.get(name, {}))

    maker = maker or made
    for g in range(games):
        shift = g % players
        seated = list(names[shift:]) + list(names[:shift])
        strategies = [
            maker(name, seed * 1_000_003 + g * 17 + s, (s + shift) % players)
            for s, name in enumerate(seated)
        ]
        result = play(strategies, options, seed * 7_919 + g, seated)
        for standing in standings.values():
            standing.games += 1
            standing.decisions.append(result.decisions)
        if result.winner is not None:
            standings[seated[result.winner]].wins += 1
        for seat in result.forfeits:
            standings[seated[seat]].forfeits += 1
        if progress:
            progress(g + 1)
    return standings


#: The seats of a round-robin's multi-seat line: one against this many less one.
TABLE_SEATS = 4


def lineups(names: Sequence[str]) -> list[tuple[str, ...]]:
    """A round-robin of `names` (distinct): every pair heads-up, in the order given, then
    each name alone against TABLE_SEATS - 1 of every other."""
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    alone = [(a,) + (b,) * (TABLE_SEATS - 1) for a in names for b in names if a != b]
    return pairs + alone
