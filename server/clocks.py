"""A table's clocks: when each seat that owes a decision must have made it (R10), when each
bot seat moves, and when the table's task must next wake.

Deadlines are trio times. A decision opened by the game gets the table's clock (the turn
clock for an action, the response clock otherwise) and a bot's move time; a decision still
open keeps what it had, but for a player who comes back to it (`back`): once a decision,
their clock starts again in full. The clocks stop while the table is paused (`shift`). This
module only keeps times: it must never move for a seat, send to anyone, nor read the game
beyond which decision is open and who owes it.
"""

from __future__ import annotations

import math
from typing import Any

from engine import Game
from engine.legality import ACTION, RESPOND

from .seats import Seats


class Clocks:
    """The deadlines and bot move times of one table's open decision."""

    def __init__(self, turn_clock: float, response_clock: float, bot_delay: float,
                 away_clock: float) -> None:
        self.turn_clock = turn_clock
        self.response_clock = response_clock
        self.bot_delay = bot_delay
        self.away_clock = away_clock
        #: When each seat that owes the open decision must have made it (no table clock:
        #: none).
        self.deadlines: dict[int, float] = {}
        #: When each bot seat that owes the open decision makes it.
        self.bot_due: dict[int, float] = {}
        #: Which decision the times are for (Game.opened); -1 before the first.
        self._opened = -1
        #: The seats whose clock restarted when their player came back, for this decision:
        #: one restart a seat a decision (see back).
        self._restarted: set[int] = set()
        #: The deadline each seat away in a response window had before `hurry` cut it to
        #: the away clock (inf: none), which is theirs again when they come back.
        self._unhurried: dict[int, float] = {}

    def restart(self) -> None:
        """A new game: no decision is timed yet."""
        self._opened = -1
        self._forget()

    def _forget(self) -> None:
        """No decision is timed: what the last one had goes."""
        self.deadlines.clear()
        self.bot_due.clear()
        self._restarted.clear()
        self._unhurried.clear()

    def _clock(self, game: Game) -> float:
        """The table's clock for the decision open in `game` (0: none)."""
        return float(self.turn_clock if game.phase == ACTION else self.response_clock)

    def follow(self, game: Game, seats: Seats, now: float) -> None:
        """New decisions get their deadlines and bot move times; open ones keep theirs; who
        owes nothing more loses theirs."""
        if game.opened != self._opened:
            self._opened = game.opened
            self._forget()
            clock = self._clock(game)
            for seat in game.waiting:
                if clock:
                    self.deadlines[seat] = now + clock
                if seats[seat].away_since is not None:
                    self.hurry(game, seat, now)
                if seats[seat].bot is not None:
                    self.bot_due[seat] = now + self.bot_delay
        if self.deadlines or self.bot_due:  # none at a table of people without clocks
            waiting = set(game.waiting)
            for times in (self.deadlines, self.bot_due, self._unhurried):
                for seat in [s for s in times if s not in waiting]:
                    del times[seat]

    def hurry(self, game: Game, seat: int, now: float) -> None:
        """A player away has `away_clock` seconds to answer a response window, not the
        table's clock: everyone else would wait the whole clock for them at every claim of
        their grace. Its own decisions (its turn, a card to lose) keep the table's clock."""
        if game.phase == RESPOND and seat in game.waiting:
            given = self.deadlines.get(seat, math.inf)
            self._unhurried.setdefault(seat, given)
            self.deadlines[seat] = min(given, now + self.away_clock)

    def back(self, game: Game, seat: int, now: float) -> bool:
        """`seat`'s player is back: a decision of theirs that is open has its whole clock
        again, from `now`, the first time they come back to it; they lost the time they
        were away, and a drop costs no one their answer. Once only, or a player who drops
        and comes back again and again would hold the table for ever: a later return just
        ends the away clock (`hurry`), and the seat has what the first return gave. True if
        the seat's deadline changed (the others must be told)."""
        if seat not in game.waiting:
            return False
        before = self.deadlines.get(seat)
        if seat in self._unhurried:
            given = self._unhurried.pop(seat)
            if given == math.inf:
                del self.deadlines[seat]
            else:
                self.deadlines[seat] = given
        clock = self._clock(game)
        if clock and seat not in self._restarted:
            self._restarted.add(seat)
            self.deadlines[seat] = now + clock
        return self.deadlines.get(seat) != before

    def bot_takes(self, seat: int, now: float) -> None:
        """A bot took `seat`, which owes the open decision: it moves after the bot delay."""
        self.bot_due[seat] = now + self.bot_delay

    def listed(self, now: float) -> list[dict[str, Any]]:
        """The deadlines as views carry them: milliseconds left a seat, within an hour."""
        if not self.deadlines:
            return []
        return [
            {"seat": seat, "ms": max(0, min(3_600_000, int((at - now) * 1000)))}
            for seat, at in sorted(self.deadlines.items())
        ]

    def next_wake(self, seats: Seats, attended: bool) -> float | None:
        """When the next deadline, bot move (bots play only to an `attended` table) or grace
        falls due; None if none is pending."""
        times = list(self.deadlines.values())
        if self.bot_due and attended:
            times += self.bot_due.values()
        times += [s.away_since + s.grace for s in seats if s.away_since is not None]
        return min(times, default=None)

    def bot_due_now(self, now: float) -> int | None:
        """A bot seat whose move time has come, if any."""
        return next((seat for seat, at in self.bot_due.items() if at <= now), None)

    def expired(self, now: float) -> int | None:
        """A seat whose deadline has passed, if any."""
        return next((seat for seat, at in self.deadlines.items() if at <= now), None)

    def shift(self, seats: Seats, stopped: float) -> None:
        """The clocks stood still for `stopped` seconds (the table was paused): every time
        they keep moves on by as much, the graces of those away included."""
        for times in (self.deadlines, self.bot_due, self._unhurried):
            for seat in times:
                times[seat] += stopped
        for s in seats:
            if s.away_since is not None:
                s.away_since += stopped
