"""The server's tournament: identified players entered by an operator's call, their games
scheduled by the server, and the standings the lobby shows (docs/BOTS.md, "Tournaments on
a server").

One tournament at a time, in memory only (a restart forgets it; its tables are ordinary
tables, kept as any). It is opened, entered (by identity: "key:<hex>"), started, and then
plays engine.bots.tournament's schedule over the entrants' identities (the schedule's deal
seeds are not used: a bot that saw one deal would know the cards of the next game dealt so;
each table deals from the server's random source). Fixtures go in schedule order, several
at once: a fixture is due when none of its entrants plays a game of the tournament or is
held by an earlier fixture due; it holds its entrants, and starts as soon as each of them is
available (connected, in the lobby), or once it has been due for `wait` seconds, with the
absent entrants' seats played by the server's fallback bot. A seat
played by the fallback at the game's end, absent at the start or left while still in the
game, is that entrant's forfeit: last place, and no win if the fallback wins. Several
forfeits in one game share the last place.

It must never touch a session, a table or a clock of its own: the lobby asks it what to
start (`due`), tells it each game's result (`finished`) and each table that closed without
one (`lost`), and sends what `message` makes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import partial

from engine.bots.tournament import MAX_GAMES, Fixture, Played, games_in, places, schedule
from engine.bots.tournament import standings as rank
from protocol import Tournament as TournamentMessage
from protocol.messages import MAX_ENTRANTS

from .refused import Refused

#: Fewest entrants a tournament starts with.
MIN_ENTRANTS = 2


class TournamentStatus(StrEnum):
    """Where a tournament is: taking entries, playing, played out, or stopped by an
    operator (its games in play still count)."""

    OPEN = "open"
    RUNNING = "running"
    DONE = "done"
    STOPPED = "stopped"


@dataclass(frozen=True, slots=True)
class Starting:
    """A fixture to open now: its lineup's seats, each an entrant's identity, with None
    where the entrant is absent (its seat goes to the fallback bot, its forfeit)."""

    fixture: Fixture
    present: tuple[str | None, ...]


class Tournament:
    """One server tournament (see the module docstring)."""

    def __init__(self, name: str, sizes: Sequence[int], rounds: int, wait: float) -> None:
        self.name = name
        self.sizes = tuple(sizes)
        self.rounds = rounds
        #: Seconds a due fixture waits for its absent entrants.
        self.wait = wait
        self.status = TournamentStatus.OPEN
        #: The entrants' names, by identity, in the order they entered.
        self.entrants: dict[str, str] = {}
        self._fixtures: list[Fixture] = []
        #: Index in `_fixtures` of the first fixture not yet started.
        self._next = 0
        #: When each fixture not yet started became due.
        self._due_since: dict[int, float] = {}
        #: The fixtures at tables now, by table id, and the absent entrants' seats of each.
        self._playing: dict[str, tuple[Fixture, frozenset[int]]] = {}
        self._started: set[int] = set()
        self.results: list[Played] = []
        self.scheduled = 0

    # ------------------------------------------------------------------ entries

    def enter(self, player: str, name: str) -> None:
        if self.status is not TournamentStatus.OPEN:
            raise Refused("tournament_started", f"The tournament {self.name} has started: "
                          "its entries are closed.")
        if player not in self.entrants and len(self.entrants) >= MAX_ENTRANTS:
            raise Refused("tournament_full", f"The tournament {self.name} has "
                          f"{MAX_ENTRANTS} entrants, as many as it may.")
        self.entrants[player] = name

    def leave(self, player: str) -> None:
        if self.status is not TournamentStatus.OPEN:
            raise Refused("tournament_started", f"The tournament {self.name} has started: "
                          "its entrants play it out.")
        self.entrants.pop(player, None)

    def start(self, seed: int) -> None:
        """Close the entries and make the schedule from `seed`; Refused (bad_options) with
        a sentence if these entrants cannot play it."""
        n = len(self.entrants)
        if not MIN_ENTRANTS <= n <= MAX_ENTRANTS:
            raise Refused("bad_options", f"A tournament starts with {MIN_ENTRANTS} to "
                          f"{MAX_ENTRANTS} entrants; {self.name} has {n}.")
        if any(k > n for k in self.sizes):
            raise Refused("bad_options", f"Tables of {max(self.sizes)} seats need as many "
                          f"entrants; {self.name} has {n}.")
        games = games_in(n, self.sizes, self.rounds)
        if games > MAX_GAMES:
            raise Refused("bad_options", f"{n} entrants at tables of "
                          f"{', '.join(map(str, self.sizes))} for {self.rounds} rounds are "
                          f"{games} games, over the {MAX_GAMES} a tournament may play: fewer "
                          "rounds or smaller tables.")
        self._fixtures = schedule(list(self.entrants), self.sizes, self.rounds, seed)
        self.scheduled = len(self._fixtures)
        self.status = TournamentStatus.RUNNING

    def stop(self) -> None:
        """No fixture starts from now; those at tables finish and count."""
        self.status = TournamentStatus.STOPPED

    # ------------------------------------------------------------------ the games

    def due(self, now: float, available: Callable[[str], bool]) -> list[Starting]:
        """The fixtures to open now, in schedule order, marked started; `available` says
        whether an entrant is connected and in the lobby. In schedule order, a fixture none
        of whose entrants plays a game of the tournament, nor is held by an earlier fixture
        due, is due: it holds its entrants, and starts once they are all available or it
        has waited `wait` seconds since it fell due."""
        if self.status is not TournamentStatus.RUNNING:
            return []
        held = {p for fixture, _ in self._playing.values() for p in fixture.lineup}
        out: list[Starting] = []
        due: dict[int, float] = {}
        smallest = min(self.sizes)
        for fixture in self._fixtures[self._next:]:
            if len(self.entrants) - len(held) < smallest:
                break  # no fixture left has its entrants free (10 entrants at tables of 3)
            if fixture.number in self._started or not held.isdisjoint(fixture.lineup):
                continue
            held.update(fixture.lineup)
            since = self._due_since.get(fixture.number, now)
            present = tuple(p if available(p) else None for p in fixture.lineup)
            if None in present and now < since + self.wait:
                due[fixture.number] = since
                continue
            self._started.add(fixture.number)
            if any(present):
                out.append(Starting(fixture, present))
            else:  # no one came: every seat forfeits, and no game is played
                self._record(fixture, (), None, frozenset(range(len(present))), 0)
        self._due_since = due
        while self._next < len(self._fixtures) and self._fixtures[self._next].number in \
                self._started:
            self._next += 1
        if not out:  # the games it starts are played first (see `playing`)
            self._settle()
        return out

    def next_wake(self) -> float | None:
        """When a due fixture stops waiting for its absent entrants (None: none waits)."""
        if self.status is not TournamentStatus.RUNNING or not self._due_since:
            return None
        return min(self._due_since.values()) + self.wait

    def playing(self, table: str, starting: Starting) -> None:
        """`starting`'s fixture is played at `table`."""
        absent = frozenset(s for s, p in enumerate(starting.present) if p is None)
        self._playing[table] = (starting.fixture, absent)

    def plays_at(self, table: str) -> bool:
        return table in self._playing

    def finished(self, table: str, exiled: Sequence[int], winner: int | None,
                 left: frozenset[int], decisions: int) -> Played:
        """The game at `table` is over: its seats `exiled` in order, its `winner`, and the
        seats whose entrants `left` while still in it. Its result, as the standings take
        it."""
        fixture, absent = self._playing.pop(table)
        return self._record(fixture, exiled, winner, absent | left, decisions)

    def _record(self, fixture: Fixture, exiled: Sequence[int], winner: int | None,
                forfeits: frozenset[int], decisions: int) -> Played:
        seats = len(fixture.lineup)
        forfeited = tuple(sorted(forfeits))
        placed = list(places(seats, [s for s in exiled if s not in forfeits], forfeited))
        for seat in forfeited:  # no order among them here (absent from the start): shared
            placed[seat] = seats - len(forfeited) + 1
        played = Played(fixture.number, fixture.lineup, tuple(placed),
                        None if winner in forfeits else winner, forfeited, decisions)
        self.results.append(played)
        self._settle()
        return played

    def lost(self, table: str) -> None:
        """The table of a fixture closed with no result (an operator closed it, or it
        failed): the fixture is not played again."""
        if self._playing.pop(table, None) is not None:
            self._settle()

    def _settle(self) -> None:
        if (self.status is TournamentStatus.RUNNING and not self._playing
                and self._next >= len(self._fixtures)):
            self.status = TournamentStatus.DONE

    @property
    def over(self) -> bool:
        return self.status in (TournamentStatus.DONE, TournamentStatus.STOPPED)

    # ------------------------------------------------------------------ the standings

    def message(self) -> Callable[[], TournamentMessage]:
        """What makes the tournament's `tournament` message as it stands now: a call on
        copies of its state, to be made in a worker thread (the standings rate every game
        played, about 0.1 ms a game: most of a second for thousands)."""
        return partial(_message, self.name, str(self.status), dict(self.entrants),
                       tuple(self.results), self.scheduled)


def _message(name: str, status: str, entrants: dict[str, str], results: tuple[Played, ...],
             scheduled: int) -> TournamentMessage:
    rows: list[dict[str, object]] = []
    if status != TournamentStatus.OPEN:
        table = rank(list(entrants), results, scheduled)
        rows = [{"name": entrants[e.name], "games": e.games, "wins": e.wins,
                 "win_rate": e.win_rate, "mean_place": e.mean_place,
                 "ordinal": e.rating.ordinal, "forfeits": e.forfeits}
                for e in table.entries]
    return TournamentMessage(name=name, status=status, entrants=list(entrants.values()),
                             played=len(results), scheduled=scheduled, standings=rows)
