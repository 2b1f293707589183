"""Tournaments: distinct entrants at every seat order of every table size asked for, and the
standings that come of them (`coup arena --tournament`).

The schedule. For n distinct entrants, table sizes K and R rounds, round r plays, for each
size k of K in the order given, every ordered choice of k distinct entrants: n!/(n-k)!
lineups, in `itertools.permutations` order, entrant i in seat i. Every lineup of one size in
one round is dealt the same deal (its seed derived from the tournament's seed, the size and
the round), as duplicate bridge deals one hand to every table: each entrant meets every
deal from every seat, so the luck of the cards and of the seat falls on all alike. A
tournament is R × Σ n!/(n-k)! games, numbered in that order; a game's seeds derive from its
number's round and size alone, so the same seed plays the same games whatever order or
process they are run in.

The results. A game gives each seat a place: the winner first, then the exiled, last out
first. Seats still in a game stopped at the arena's MAX_DECISIONS share first place, and no
one wins it. A strategy that raises, answers a move it was not offered, or withdraws (a bot
process that broke) forfeits as in every arena game (engine.bots.arena.play): its seat is
forfeited and the game goes on without it; it is placed last (a loss), whenever it went out.

The standings. For each entrant: its games, wins and win rate with a 95% Wilson interval;
its mean place with a 95% Student t interval; its forfeits; and its openskill rating
(engine.ratings.rate, the server's own) from every game played, in schedule order. The
crosstable gives, for each ordered pair, the games where both sat and how often the row
finished ahead of the column (a shared place counts a half).

Pure: no I/O, no clock, no threads or processes (client/arena.py runs the games and shows
the standings). It must never look inside a strategy: entrants are names, each made into a
strategy by the one factory it is given (engine.bots.make unless told otherwise).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import permutations
from math import perm, pi, sqrt, tan
from typing import ParamSpec, TypeVar

from ..events import Event
from ..moves import Move
from ..options import Options
from ..ratings import Rating, rate
from ..views import View
from . import make
from .arena import play, wilson
from .base import Strategy, Withdrawn

P = ParamSpec("P")
T = TypeVar("T")

#: Makes an entrant's strategy from its name and a seed (engine.bots.make's signature).
Factory = Callable[[str, int], Strategy]

#: The most games a tournament may schedule: at the arena's speed (a few milliseconds a
#: game between heuristics, far more for a search) more would run for hours.
MAX_GAMES = 100_000


@dataclass(frozen=True, slots=True)
class Fixture:
    """One scheduled game: its number in the schedule, its round, the entrant in each seat
    and the seed of its deal."""

    number: int
    round: int
    lineup: tuple[str, ...]
    seed: int


def games_in(entrants: int, sizes: Sequence[int], rounds: int) -> int:
    """How many games a tournament schedules (without listing them)."""
    return rounds * sum(perm(entrants, k) for k in sizes)


def schedule(entrants: Sequence[str], sizes: Sequence[int], rounds: int,
             seed: int) -> list[Fixture]:
    """Every game of a tournament, in order (see the module's docstring). ValueError for
    repeated entrants, or a size below 2 or above the number of entrants."""
    if len(set(entrants)) != len(entrants):
        raise ValueError("a tournament's entrants must be distinct")
    if not sizes or any(not 2 <= k <= len(entrants) for k in sizes):
        raise ValueError(f"table sizes must be between 2 and the {len(entrants)} entrants")
    fixtures: list[Fixture] = []
    for r in range(rounds):
        for k in sizes:
            deal, first = _derived(seed, k, r), len(fixtures)
            fixtures.extend(Fixture(first + i, r, lineup, deal)
                            for i, lineup in enumerate(permutations(entrants, k)))
    return fixtures


def _derived(*parts: int) -> int:
    """A 63-bit seed from integers: str seeding is sha512 of the text, the same on every run
    and machine (unlike hash())."""
    return random.Random("/".join(map(str, parts))).getrandbits(63)


@dataclass(frozen=True, slots=True)
class Played:
    """One game's result: its fixture's number and lineup, each seat's place (1 is first;
    seats may share one), the winning seat (None: no one), the seats that forfeited (first
    to withdraw first) and the decisions made."""

    number: int
    lineup: tuple[str, ...]
    places: tuple[int, ...]
    winner: int | None
    forfeits: tuple[int, ...]
    decisions: int


class _Seat(Strategy):
    """An entrant's strategy in one seat: whatever it raises, and a move it was not
    offered, withdraw it (engine.bots.Withdrawn), which the arena's `play` makes a forfeit
    of that seat; the game goes on without it."""

    def __init__(self, inner: Strategy) -> None:
        self.inner = inner

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        chosen = _guarded(self.inner.choose, view, moves)
        if chosen not in moves:
            raise Withdrawn(f"answered a move it was not offered: {chosen}")
        return chosen

    def observe(self, view: View, events: Sequence[Event]) -> None:
        _guarded(self.inner.observe, view, events)

    def game_over(self, view: View) -> None:
        _guarded(self.inner.game_over, view)

    def seated(self, names: Sequence[str]) -> None:
        _guarded(self.inner.seated, names)


def _guarded(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """What `call` returns; whatever it raises, Withdrawn saying what (any failure of an
    entrant is its forfeit)."""
    try:
        return call(*args, **kwargs)
    except Exception as exc:
        raise Withdrawn(f"{type(exc).__name__}: {exc}") from exc


def play_fixture(fixture: Fixture, factory: Factory = make, variant: str = "base",
                 reformation: bool = False) -> Played:
    """Play one scheduled game through the arena, with `variant`'s deck and Reformation if
    asked (R12.1); its seat s gets a strategy seeded from the deal's seed and s."""
    seats = len(fixture.lineup)
    strategies: list[Strategy] = [_Seat(factory(name, _derived(fixture.seed, s)))
                                  for s, name in enumerate(fixture.lineup)]
    result = play(strategies, Options(players=seats, variant=variant, reformation=reformation),
                  fixture.seed,
                  fixture.lineup)
    return Played(fixture.number, fixture.lineup,
                  places(seats, result.exiled, result.forfeits), result.winner,
                  result.forfeits, result.decisions)


def places(seats: int, exiled: Sequence[int], forfeits: Sequence[int] = ()) -> tuple[int, ...]:
    """Each seat's place (1 is first): the seats still in share first place (the winner
    alone, in a game played out), the exiled follow, last out first, and the seats that
    forfeited come last whenever they went out, the first to withdraw last of all."""
    out = [s for s in exiled if s not in forfeits]
    still = [s for s in range(seats) if s not in out and s not in forfeits]
    placed = [1] * seats
    for behind, seat in enumerate([*reversed(out), *reversed(forfeits)]):
        placed[seat] = len(still) + 1 + behind
    return tuple(placed)


@dataclass(frozen=True, slots=True)
class Entry:
    """One entrant's standing: its record, win rate and mean place with their 95% intervals
    (the place's is None under two games), and its rating."""

    name: str
    games: int
    wins: int
    forfeits: int
    win_rate: float
    win_interval: tuple[float, float]
    mean_place: float
    place_interval: tuple[float, float] | None
    rating: Rating


@dataclass(frozen=True, slots=True)
class Meeting:
    """The row entrant against the column one: games where both sat, and the row's share of
    them finished ahead (a shared place counts a half)."""

    games: int
    ahead: float

    @property
    def rate(self) -> float:
        return self.ahead / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class Standings:
    """A tournament's results: the entries best first (by rating ordinal), the crosstable
    (`crosstable[row][column]`, every ordered pair of distinct entrants), and how many of the
    scheduled games were played (fewer: the run was stopped, and these are partial)."""

    entries: tuple[Entry, ...]
    crosstable: dict[str, dict[str, Meeting]]
    played: int
    scheduled: int

    @property
    def partial(self) -> bool:
        return self.played < self.scheduled


def standings(entrants: Sequence[str], games: Iterable[Played], scheduled: int) -> Standings:
    """The standings of `entrants` from the `games` played (in any order: they are rated in
    schedule order) of `scheduled`."""
    ordered = sorted(games, key=lambda g: g.number)
    ratings: dict[str, Rating] = {}
    placed: dict[str, list[int]] = {n: [] for n in entrants}
    wins = dict.fromkeys(entrants, 0)
    forfeits = dict.fromkeys(entrants, 0)
    met = {r: dict.fromkeys(entrants, 0) for r in entrants}
    ahead = {r: dict.fromkeys(entrants, 0.0) for r in entrants}
    for game in ordered:
        order = sorted(range(len(game.lineup)), key=lambda s: game.places[s])
        ratings.update(rate(ratings, game.lineup, order, game.winner, game.places))
        for seat, name in enumerate(game.lineup):
            placed[name].append(game.places[seat])
            wins[name] += seat == game.winner
            forfeits[name] += seat in game.forfeits
            for other, rival in enumerate(game.lineup):
                if other != seat:
                    met[name][rival] += 1
                    mine, theirs = game.places[seat], game.places[other]
                    ahead[name][rival] += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    entries = [
        Entry(name, len(placed[name]), wins[name], forfeits[name],
              wins[name] / len(placed[name]) if placed[name] else 0.0,
              wilson(wins[name], len(placed[name])),
              sum(placed[name]) / len(placed[name]) if placed[name] else 0.0,
              mean_interval(placed[name]), ratings.get(name, Rating()))
        for name in entrants]
    entries.sort(key=lambda e: -e.rating.ordinal)
    crosstable = {r: {c: Meeting(met[r][c], ahead[r][c]) for c in entrants if c != r}
                  for r in entrants}
    return Standings(tuple(entries), crosstable, len(ordered), scheduled)


def mean_interval(values: Sequence[float]) -> tuple[float, float] | None:
    """The 95% Student t interval of the mean of `values` (None for fewer than two: no
    spread to judge it by)."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    spread = sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(n - 1) * spread / sqrt(n)
    return (mean - half, mean + half)


#: The normal distribution's 97.5% quantile.
Z = 1.959963984540054


def t_quantile(df: int) -> float:
    """Student's t 97.5% quantile at `df` degrees of freedom: exact for 1 and 2, and the
    Cornish-Fisher expansion in 1/df from 3 on (within 0.004 of the exact value at 3, and
    closer as df grows), since the standard library has no t distribution."""
    p = 0.975
    if df == 1:
        return tan(pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / sqrt(2 * p * (1 - p))
    z = Z
    return (z + (z**3 + z) / (4 * df)
            + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
            + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * df**4))
