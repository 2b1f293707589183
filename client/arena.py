"""`coup arena`: strategies against each other in-process, with a progress bar.

The games are split over `--jobs` processes; each runs engine.bots.arena.tournament on its
share (seats rotated, seeds derived from --seed), and the standings are added up. With
`--table` the names are a round-robin's instead of one table's seats: `table` plays every
line of engine.bots.arena.lineups (one process per line, --jobs at a time) and prints two
matrices of win rates, heads-up and one against three. A name may be a bot process's,
"exec:CMD ARGS" (client/botproc.py): each process of the pool starts its own, kept from game
to game; a game it breaks in is forfeited, counted, and the run goes on. With
`--reformation` every game is played at a Reformation table (R12.1).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor

from engine.bots import LEVELS, STRATEGIES
from engine.bots.arena import TABLE_SEATS, Standing, lineups, tournament
from rich.cells import cell_len

from protocol.text import shown

from .botproc import SECONDS, Entrants, entrant

#: Columns of an entrant's name in the tables; a longer one is shortened in the middle.
NAME = 14


def _share(args: tuple) -> dict[str, tuple[int, int, list[int], int]]:
    names, games, seed, variant, budget, seconds, reformation = args
    settings = {"ismcts": {"playouts": budget}} if budget is not None else None
    with Entrants(settings, seconds=seconds) as maker:
        standings = tournament(names, games, seed=seed, variant=variant, maker=maker,
                               reformation=reformation)
    return {n: (s.games, s.wins, s.decisions, s.forfeits) for n, s in standings.items()}


def _unknown(names: list[str]) -> bool:
    """Whether some name is neither a strategy, a level nor exec: and a command, said on
    stderr if so."""
    if all(entrant(n) for n in names):
        return False
    print(f"coup arena: give 2 to 10 strategies or levels from "
          f"{', '.join(sorted(STRATEGIES))}; {', '.join(LEVELS)}; or exec:COMMAND, a bot "
          f"program", file=sys.stderr)
    return True


def _rules(variant: str, reformation: bool) -> str:
    """The games' rules as a heading says them: "inquisitor with Reformation"."""
    return f"{variant} with Reformation" if reformation else variant


def run(names: list[str], games: int, seed: int, variant: str, jobs: int,
        budget: int | None, as_json: bool, seconds: float = SECONDS,
        reformation: bool = False) -> int:
    if _unknown(names) or not 2 <= len(names) <= 10:
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
        shares.append((names, n, seed * 100_003 + index, variant, budget, seconds,
                       reformation))
        left -= n
        index += 1
    standings = {n: Standing(n, names.count(n)) for n in names}
    done = 0
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(_share, shares):
            for name, (played, wins, decisions, forfeits) in result.items():
                standings[name].games += played
                standings[name].wins += wins
                standings[name].decisions += decisions
                standings[name].forfeits += forfeits
            done += len(next(iter(result.values()))[2])
            if not as_json:
                _progress(done, games, time.perf_counter() - start)
    if as_json:
        print(json.dumps({
            "games": games,
            "win_rate": {n: round(s.win_rate, 4) for n, s in standings.items()},
            "forfeits": {n: s.forfeits for n, s in standings.items()},
        }))
        return 0
    _progress_done()
    lengths = next(iter(standings.values())).decisions
    print(f"{games} games, {len(names)} players, {_rules(variant, reformation)}, seed {seed}")
    print(f"{'strategy':<{NAME}} {'seats':>5} {'win rate':>9} {'95% interval':>17}")
    for s in sorted(standings.values(), key=lambda s: -s.win_rate):
        low, high = s.interval()
        print(f"{fit(s.name, NAME)} {s.seats:>5} {s.win_rate:>9.1%}   {low:>6.1%} – "
              f"{high:<6.1%}".rstrip())
    print(f"parity {1 / len(names):.1%}; average game {sum(lengths) / len(lengths):.1f} "
          f"decisions")
    _in_full(standings)
    for s in standings.values():
        if s.forfeits:
            print(f"{shown(s.name)} forfeited {s.forfeits} of its seats (its bot broke: see "
                  f"the lines above)")
    return 0


def _line(args: tuple) -> dict[str, tuple[float, float, float]]:
    seated, games, seed, variant, budget, seconds, reformation = args
    settings = {"ismcts": {"playouts": budget}} if budget is not None else None
    with Entrants(settings, seconds=seconds) as maker:
        standings = tournament(seated, games, seed=seed, variant=variant, maker=maker,
                               reformation=reformation)
    return {n: (s.win_rate, *s.interval()) for n, s in standings.items()}


def table(names: list[str], games: int, seed: int, variant: str, jobs: int,
          budget: int | None, as_json: bool, seconds: float = SECONDS,
          reformation: bool = False) -> int:
    """A round-robin of distinct `names`, `games` games a line; two matrices (row's win
    rate against column, with its 95% interval) or, with `as_json`, one object:
    {"games", "heads_up": {row: {column: [rate, low, high]}}, "one_against_three": ...}."""
    if _unknown(names) or len(set(names)) != len(names) or not 2 <= len(names) <= 10:
        if len(set(names)) != len(names):
            print("coup arena: --table needs distinct names", file=sys.stderr)
        return 2
    lines = lineups(names)
    heads_up: dict[str, dict[str, tuple[float, float, float]]] = {n: {} for n in names}
    alone: dict[str, dict[str, tuple[float, float, float]]] = {n: {} for n in names}
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        work = [(list(seated), games, seed, variant, budget, seconds, reformation)
                for seated in lines]
        for done, (seated, result) in enumerate(zip(lines, pool.map(_line, work)), 1):
            first, other = seated[0], seated[1]
            if len(seated) == 2:
                heads_up[first][other] = result[first]
                heads_up[other][first] = result[other]
            else:
                alone[first][other] = result[first]
            if not as_json:
                _progress(done, len(lines), time.perf_counter() - start, "lines")
    if as_json:
        rounded = lambda m: {r: {c: [round(x, 4) for x in v] for c, v in row.items()}  # noqa: E731
                             for r, row in m.items()}
        print(json.dumps({"games": games, "heads_up": rounded(heads_up),
                          "one_against_three": rounded(alone)}))
        return 0
    _progress_done()
    print(f"{games} games a line, {_rules(variant, reformation)}, seed {seed}")
    _matrix("heads-up: the row's win rate against the column (parity 50%)", names, heads_up)
    _matrix(f"one against {TABLE_SEATS - 1}: the row alone against {TABLE_SEATS - 1} of the "
            f"column (parity {1 / TABLE_SEATS:.0%})", names, alone)
    _in_full(names)
    return 0


def _matrix(title: str, names: list[str],
            cells: dict[str, dict[str, tuple[float, float, float]]]) -> None:
    width = 17
    print(f"\n{title}")
    print(" " * NAME + "".join(f"{fit(n, width - 1).rstrip():>{width}}" for n in names))
    for row in names:
        line = "".join(
            f"{'—':>{width}}" if row == column else
            f"{'{:.1%} {:.0%}–{:.0%}'.format(*cells[row][column]):>{width}}"
            for column in names)
        print(f"{fit(row, NAME)}{line}")


def _in_full(names: Iterable[str]) -> None:
    """The names in full, if a table had to shorten one."""
    if any(cell_len(shown(n)) > NAME - 1 for n in names):
        print("\nNames in full:")
        for n in dict.fromkeys(names):
            print(f"  {shown(n)}")


def _progress(done: int, total: int, seconds: float, unit: str = "games") -> None:
    """The bar on stderr, drawn again in place, while stderr is a terminal: on a pipe or in
    a file, nothing (the figures alone)."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = int(width * done / total)
    rate = done / seconds if seconds else 0
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {unit} "
                     f"{rate:.1f}/s")
    sys.stderr.flush()


def _progress_done() -> None:
    """End the bar's line, if one was drawn."""
    if sys.stderr.isatty():
        print(file=sys.stderr)


def fit(name: str, width: int) -> str:
    """`name` made terminal-safe and fitted to `width` cells: padded, or shortened in the
    middle with more of its end kept (a command line's end names the bot, as in
    exec:./bots/mybot.py)."""
    text = shown(name)
    if cell_len(text) > width:
        keep = width - 1
        head = _cells(text, keep // 3)
        tail = _cells(text[::-1], keep - cell_len(head))[::-1]
        text = f"{head}…{tail}"
    return text + " " * (width - cell_len(text))


def _cells(text: str, width: int) -> str:
    """The longest start of `text` that fits in `width` cells."""
    taken, used = [], 0
    for char in text:
        used += cell_len(char)
        if used > width:
            break
        taken.append(char)
    return "".join(taken)
