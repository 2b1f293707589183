"""`coup arena --tournament`: a tournament of strategies, played in this process or a pool of
worker processes, with a progress bar, printed as standings and a crosstable, or as JSON.

engine.bots.tournament schedules the games, plays each and adds up their results; this module
runs the schedule (in chunks over `--jobs` worker processes, or game by game here for one),
shows progress on stderr while stderr is a terminal (rich's bar: games done of all, games a
second, time to go; nothing at all otherwise, so a pipe or a log gets the table alone), and
on ctrl+c stops and prints the standings of the games done so far, marked partial, with exit
code 130. Every entrant's name is shown through protocol.text.shown, since an entrant may be
a command line. It never decides what a result means: that is the engine's.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from math import perm
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TimeRemainingColumn
from rich.text import Text

from engine.bots.tournament import (
    MAX_GAMES, Fixture, Played, Standings, games_in, play_fixture, schedule, standings,
)
from protocol.text import shown

from .arena import NAME, _rules, _unknown, fit
from .botproc import Entrants

#: Rounds when --games is not given: each lineup plays this many times.
ROUNDS = 10
#: Table sizes when --sizes is not given: 2 up to this, as far as the entrants fill them.
LARGEST = 4
#: The exit code of a run stopped by ctrl+c (128 + SIGINT), as shells give one.
STOPPED = 130


def run(names: list[str], sizes_given: str | None, rounds: int | None, seed: int,
        variant: str, jobs: int | None, budget: int | None, as_json: bool,
        reformation: bool = False) -> int:
    """Play the tournament the command line asks for and print its standings; 2, said on
    stderr, for one it cannot play."""
    if _unknown(names):
        return 2
    if len(set(names)) != len(names) or not 2 <= len(names) <= 10:
        print("coup arena: a tournament needs 2 to 10 distinct entrants", file=sys.stderr)
        return 2
    sizes = _sizes(sizes_given, len(names))
    if sizes is None:
        return 2
    rounds = ROUNDS if rounds is None else rounds
    if rounds < 1:
        print("coup arena: --games, the times each lineup plays, must be 1 or more",
              file=sys.stderr)
        return 2
    count = games_in(len(names), sizes, rounds)
    if count > MAX_GAMES:
        print(f"coup arena: this tournament is {count:,} games ({len(names)} entrants at "
              f"sizes {_listed(sizes)}, {rounds} rounds of {count // rounds:,}), more than "
              f"{MAX_GAMES:,}: give fewer --games (rounds), fewer --sizes or fewer entrants",
              file=sys.stderr)
        return 2
    fixtures = schedule(names, sizes, rounds, seed)
    with _progress(len(fixtures)) as advance:
        played, stopped = _play(fixtures, (variant, reformation),
                                (os.cpu_count() or 1) if jobs is None else jobs, budget, advance)
    table = standings(names, played, len(fixtures))
    if as_json:
        print(json.dumps(document(table, names, sizes, rounds, seed, variant) |
                         {"reformation": reformation}))
    else:
        print(report(table, names, sizes, rounds, seed, _rules(variant, reformation)), end="")
    return STOPPED if stopped else 0


def _sizes(given: str | None, entrants: int) -> list[int] | None:
    """The table sizes `--sizes` names (default 2 up to LARGEST, as the entrants allow), or
    None, said on stderr, when they are not sizes the entrants can fill."""
    if given is None:
        return list(range(2, min(LARGEST, entrants) + 1))
    try:
        sizes = [int(part) for part in given.split(",")]
    except ValueError:
        sizes = []
    if not sizes or len(set(sizes)) != len(sizes) or any(not 2 <= k <= entrants for k in sizes):
        print(f"coup arena: --sizes takes table sizes such as 2,3,4, each once, from 2 to the "
              f"number of entrants ({entrants}), not {shown(given)!r}", file=sys.stderr)
        return None
    return sizes


def _listed(sizes: Sequence[int]) -> str:
    return ",".join(map(str, sizes))


def _factory(budget: int | None) -> Entrants:
    """How an entrant's name becomes a strategy, as `coup arena` makes them: a strategy or
    level by engine.bots.make, with --playouts given to the search alone, or a bot process
    for exec:, kept from game to game until the Entrants is closed."""
    return Entrants({"ismcts": {"playouts": budget}} if budget is not None else None)


#: The rules the games are played by: the deck variant, and Reformation or not.
Rules = tuple[str, bool]


def _chunk(work: tuple[list[Fixture], Rules, int | None]) -> list[Played]:
    """A worker's share: its fixtures played."""
    fixtures, rules, budget = work
    with _factory(budget) as factory:
        return [play_fixture(fixture, factory, *rules) for fixture in fixtures]


def _ignore_interrupts() -> None:
    """A worker leaves ctrl+c to the parent, which stops the run and prints what it has."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play(fixtures: list[Fixture], rules: Rules, jobs: int, budget: int | None,
          advance: Callable[[int], None]) -> tuple[list[Played], bool]:
    """Every fixture played, here for one job or in `jobs` worker processes, and whether
    ctrl+c stopped it first (then the games played until then)."""
    if jobs <= 1:
        played: list[Played] = []
        with _factory(budget) as factory:
            try:
                for fixture in fixtures:
                    played.append(play_fixture(fixture, factory, *rules))
                    advance(1)
            except KeyboardInterrupt:
                return played, True
        return played, False
    # Chunks of a few hundred milliseconds at most: progress moves often, a ctrl+c waits
    # for no more than one chunk a worker, and the pool's overhead stays below 1%.
    size = max(1, min(100, len(fixtures) // (jobs * 50)))
    pool = ProcessPoolExecutor(jobs, initializer=_ignore_interrupts)
    chunks = [pool.submit(_chunk, (fixtures[i:i + size], rules, budget))
              for i in range(0, len(fixtures), size)]
    stopped = False
    try:
        for chunk in as_completed(chunks):
            advance(len(chunk.result()))
    except KeyboardInterrupt:
        stopped = True
    finally:
        # A second ctrl+c while the workers finish their chunks would lose the standings.
        held = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            pool.shutdown(wait=True, cancel_futures=True)
        finally:
            signal.signal(signal.SIGINT, held)
    # Those being played when ctrl+c came have finished since: they count too.
    played = [game for chunk in chunks if chunk.done() and not chunk.cancelled()
              for game in chunk.result()]
    return played, stopped


class _Count(ProgressColumn):
    """Games done of all, with thousands separated."""

    def render(self, task: Task) -> Text:
        return Text(f"{int(task.completed):,}/{int(task.total or 0):,} games")


class _Rate(ProgressColumn):
    """Games a second, over rich's recent window."""

    def render(self, task: Task) -> Text:
        return Text(f"{task.speed:,.0f} games/s" if task.speed else "– games/s")


@contextmanager
def _progress(total: int) -> Iterator[Callable[[int], None]]:
    """A function that counts games done: drawn as a bar updated in place on stderr while
    stderr is a terminal, and nothing otherwise."""
    if not sys.stderr.isatty():
        yield lambda done: None
        return
    bar = Progress("tournament", BarColumn(), _Count(), _Rate(), TimeRemainingColumn(),
                   console=Console(file=sys.stderr))
    task = bar.add_task("tournament", total=total)
    with bar:
        yield lambda done: bar.advance(task, done)


def parity(entrants: int, sizes: Sequence[int]) -> float:
    """The win rate every entrant would have if all were alike: the mean of 1/k over an
    entrant's games, of which it plays k * n!/(n-k)!/n at size k a round."""
    return sum(perm(entrants, k) for k in sizes) / sum(k * perm(entrants, k) for k in sizes)


def report(table: Standings, names: Sequence[str], sizes: Sequence[int], rounds: int,
           seed: int, variant: str) -> str:
    """The standings, best first, then the crosstable, as lines of at most 80 columns for
    up to 10 entrants (names shortened in the middle; in full below if any was)."""
    per_round = games_in(len(names), sizes, 1)
    seats = ", ".join(map(str, sizes[:-1])) + (" and " if len(sizes) > 1 else "") + str(sizes[-1])
    lines = [f"Tournament: {len(names)} entrants at tables of {seats} seats, {variant} rules, "
             f"seed {seed}.",
             f"{table.scheduled:,} games: {rounds} {'round' if rounds == 1 else 'rounds'} of "
             f"{per_round:,}, every ordered lineup of every size once a round,",
             "the lineups of one size in one round on one deal."]
    if table.partial:
        lines.append(f"PARTIAL: stopped after {table.played:,} of {table.scheduled:,} games; "
                     f"the figures are theirs.")
    order = [entry.name for entry in table.entries]
    label = {name: fit(name, NAME) for name in order}
    lines += ["", f"{'#':>2}  {'entrant':<{NAME}} {'games':>6} {'win%':>6} {'95% Wilson':^11} "
                  f"{'place':>5} {'95% t':^9} {'rating':>6} {'mu':>5} {'sigma':>5}"]
    for rank, entry in enumerate(table.entries, 1):
        low, high = entry.win_interval
        won, wilson, place = ((f"{entry.win_rate:.1%}", f"{low:.1%}–{high:.1%}".replace("%", ""),
                               f"{entry.mean_place:.2f}") if entry.games else ("—",) * 3)
        spread = (f"{entry.place_interval[0]:.2f}–{entry.place_interval[1]:.2f}"
                  if entry.place_interval else "—")
        lines.append(f"{rank:>2}  {label[entry.name]} {entry.games:>6} {won:>6} {wilson:^11} "
                     f"{place:>5} {spread:^9} {entry.rating.ordinal:>6.2f} "
                     f"{entry.rating.mu:>5.1f} {entry.rating.sigma:>5.2f}")
    lines += [f"win%: games won (parity {parity(len(names), sizes):.1%}); place: mean "
              f"finishing place, 1 is first;",
              "rating: openskill's ordinal, mu - 3 sigma, over the games in schedule order."]
    forfeits = [e for e in table.entries if e.forfeits]
    if forfeits:
        lines.append("Forfeits, each a loss in last place: " + ", ".join(
            f"{label[e.name].rstrip()} {e.forfeits}" for e in forfeits) + ".")
    meetings = {m.games for row in table.crosstable.values() for m in row.values()}
    lines += ["", "Crosstable: how often the row finished ahead of the column (ties count a "
              "half),"]
    lines.append(f"in the {meetings.pop():,} games each pair sat at one table." if
                 len(meetings) == 1 else "in the games both sat at one table (counts below).")
    lines += _matrix(order, label, lambda r, c: f"{table.crosstable[r][c].rate:.0%}"
                     if table.crosstable[r][c].games else "·")
    if len(meetings) > 1:
        lines += ["", "Games where both sat at one table:"]
        lines += _matrix(order, label, lambda r, c: f"{table.crosstable[r][c].games:,}")
    if any(shown(name) != label[name].rstrip() for name in order):
        lines += ["", "Names in full:"]
        lines += [f"{rank:>2}  {shown(name)}" for rank, name in enumerate(order, 1)]
    return "\n".join(lines) + "\n"


def _matrix(order: Sequence[str], label: dict[str, str],
            cell: Callable[[str, str], str]) -> list[str]:
    """Rows and columns by rank (the columns numbered, as chess crosstables are)."""
    width = 6
    lines = [" " * (NAME + 4) + "".join(f"{rank:>{width}}" for rank in range(1, len(order) + 1))]
    for rank, row in enumerate(order, 1):
        lines.append(f"{rank:>2}  {label[row]}" + "".join(
            f"{'—' if row == column else cell(row, column):>{width}}" for column in order))
    return lines


def document(table: Standings, names: Sequence[str], sizes: Sequence[int], rounds: int,
             seed: int, variant: str) -> dict[str, Any]:
    """The standings for tools, as docs/BOTS.md ("Tournaments") documents them."""
    return {
        "entrants": list(names), "sizes": list(sizes), "rounds": rounds, "seed": seed,
        "variant": variant, "scheduled": table.scheduled, "played": table.played,
        "partial": table.partial,
        "standings": [{
            "name": e.name, "games": e.games, "wins": e.wins, "forfeits": e.forfeits,
            "win_rate": round(e.win_rate, 4),
            "win_interval": [round(x, 4) for x in e.win_interval],
            "mean_place": round(e.mean_place, 4),
            "place_interval": [round(x, 4) for x in e.place_interval]
            if e.place_interval else None,
            "rating": {"mu": round(e.rating.mu, 4), "sigma": round(e.rating.sigma, 4),
                       "ordinal": round(e.rating.ordinal, 4)},
        } for e in table.entries],
        "crosstable": {row: {column: {"games": m.games, "ahead": m.ahead,
                                      "rate": round(m.rate, 4)}
                             for column, m in columns.items()}
                       for row, columns in table.crosstable.items()},
    }
