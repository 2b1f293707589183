"""What the client knows of its table: the newest view, who sits where, the clocks, and the
move waiting for the server's answer. Front ends read it; only the client core
(machine.py) changes it. It must never import trio, Textual or a front end.

Deadlines arrive as milliseconds left when the server sent them; they are kept as moments of
this process's monotonic clock, with the decision's whole length for the countdown bars.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from engine import Event, Move, View
from protocol import MAX_EARLIER_EVENTS
from protocol.messages import Snapshot, Update

from ..i18n import _

#: Seconds the seats of the last action stay highlighted.
SPOTLIGHT = 2.0
#: How many of a seat's latest claims are kept: what a player reads back before
#: challenging, while the counts (`TableState.claims`) keep the whole game's.
RECENT_CLAIMS = 3


def personality_name(strategy: str) -> str | None:
    """The short name a bot's personality gives its seat ("Bluffer"), or None for a
    strategy that is no personality."""
    names = {
        "bluffer": _("Bluffer"),
        "cautious": _("Cautious"),
        "vengeful": _("Vengeful"),
        "banker": _("Banker"),
    }
    return names.get(strategy)


@dataclass
class Pending:
    """A move sent and not yet answered, and the decision it answers (its View.opened)."""

    id: int
    move: Move
    opened: int = 0


class Outcome(Enum):
    """How a challenge of a claim ended: the card shown (R6.3), or the claim given up, which
    a claimant may do holding the card (R6.2): "conceded", never "caught"."""

    PROVED = "proved"
    CONCEDED = "conceded"


@dataclass(frozen=True, slots=True)
class Claim:
    """One claim a seat made, as everyone saw it: an action that named a character (`action`
    its id, `target` the seat it aimed at), or a block (`action` None, `target` the seat
    whose action it stopped); `outcome` once a challenge of it ended, else None."""

    card: str
    action: str | None
    target: int | None
    outcome: Outcome | None = None


@dataclass(frozen=True, slots=True)
class Arrival:
    """What a view taken in (TableState.arrive) changed: the view before it, whether it
    starts a game, whether its events retell the game (a snapshot's), the events the log
    has yet to tell, and the view itself."""

    old: View | None
    new_game: bool
    retold: bool
    unseen: list[Event]
    view: View


@dataclass
class TableState:
    table: str
    seat: int | None
    token: str | None = None
    code: str | None = None
    info: dict[str, Any] | None = None
    view: View | None = None
    reveal: View | None = None
    #: Once the game is over, its summary as the server sent it (protocol.messages.SUMMARY):
    #: {"out": [seat, ...], "seats": [{"claims", "bluffs", "challenges_won",
    #: "challenges_lost"}, ...]}; None while it runs.
    summary: dict[str, Any] | None = None
    players: list[dict[str, Any]] = field(default_factory=list)
    #: seat → (the monotonic moment its decision ends, the decision's length in seconds)
    deadlines: dict[int, tuple[float, float]] = field(default_factory=dict)
    pending: Pending | None = None
    #: The decision (its View.opened) our latest move answered: a prompt of ours that gave
    #: way to another was answered if it is this one, whether or not anyone saw the move
    #: pending meanwhile.
    answered: int | None = None
    #: The latest events of this game that the log shows (as many as a snapshot retells at
    #: most): what tells a snapshot's earlier events the log lacks from those it has.
    logged: list[Event] = field(default_factory=list)
    #: seat → {character: times claimed} this game: every action and block that named a
    #: character, which everyone saw (a claim is public; whether it was true is not).
    claims: dict[int, dict[str, int]] = field(default_factory=dict)
    #: seat → its latest claims this game, newest first (RECENT_CLAIMS at most), with how a
    #: challenge of each ended.
    recent: dict[int, list[Claim]] = field(default_factory=dict)
    #: The last action: (its seat, its target or None, the monotonic moment its highlight
    #: ends), so that the players panel shows for a moment who just acted on whom.
    spotlight: tuple[int, int | None, float] | None = None
    #: While the server cannot save the game and play is paused: the monotonic moment it
    #: stopped, at which the clocks stand still; None while play goes on.
    paused_at: float | None = None

    @property
    def seats(self) -> list[dict[str, Any]]:
        """Who sits where: the game's players once it runs, else the table's seats."""
        if self.players:
            return self.players
        seats: list[dict[str, Any]] = self.info["seats"] if self.info else []
        return seats

    @property
    def playing(self) -> bool:
        """Our seat is in a game that goes on: leaving now leaves it to be played for us."""
        view = self.view
        return (self.seat is not None and view is not None and not view.over
                and view.alive[self.seat])

    @property
    def others_are_people(self) -> bool:
        """Someone other than us, not a bot, sits here. When no one does, leaving ends the
        game (the server closes a table no person is left at: a practice table); else our
        seat is played on for us."""
        return any(not info.get("bot") and info.get("name")
                   for info in self.seats if info["seat"] != self.seat)

    @property
    def bots_at_start(self) -> str | None:
        """The strategy of the bots that take the empty seats when the game starts (a
        practice table's), if the table has them."""
        bots: str | None = ((self.info or {}).get("options") or {}).get("bots")
        return bots

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        for info in self.seats:
            if info["seat"] == seat:
                if info.get("bot"):
                    character = personality_name(info["bot"])
                    if character is None:
                        return _("Bot {n}").format(n=seat + 1)
                    return _("Bot {n} ({personality})").format(n=seat + 1,
                                                               personality=character)
                if info.get("name"):
                    return str(info["name"])
        return _("Seat {n}").format(n=seat + 1)

    def take_info(self, info: dict[str, Any]) -> None:
        """The table as the server tells it now. While a game runs its seats are the newest
        word on who plays where: a bot in the seat of a player who left (who was said to
        have "left", not taken over) shows from them, not from the snapshot's players. A
        game that is over keeps the names it was played under, for its results."""
        self.info = info
        self.code = info.get("code", self.code)
        if self.players and self.view is not None and not self.view.over:
            self.players = info["seats"]

    def arrive(self, msg: Snapshot | Update) -> Arrival:
        """Take in a snapshot's or an update's view of this table: the view, the players (a
        snapshot's), what is revealed, the summary, the clocks and the claims. Both clients
        tell the returned `unseen` events, a line each."""
        view = View.from_dict(msg.view)
        old = self.view
        new_game = old is None or view.state_id < old.state_id  # a rematch starts anew
        self.view = view
        retold = isinstance(msg, Snapshot)  # its events retell the game before it
        if isinstance(msg, Snapshot):
            self.players = msg.players
        self.reveal = View.from_dict(msg.reveal) if msg.reveal else None
        self.summary = msg.summary
        self.set_deadlines(msg.deadlines, old is None or new_game or old.opened != view.opened)
        events = [Event(**e) for e in msg.events or []]
        unseen = self.to_log(events, new_game, retold)
        self.record(events, fresh=new_game or retold)
        return Arrival(old, new_game, retold, unseen, view)

    def record(self, events: list[Event], fresh: bool) -> None:
        """Count the claims among `events` (public ones: the app receives no other kind of
        action or block), keep each seat's latest with how a challenge of it ended, and
        light up the seats of the last action. `fresh`: the events start the count anew (a
        new game, or a snapshot whose history retells it)."""
        if fresh:
            self.claims = {}
            self.recent = {}
            self.spotlight = None
        for e in events:
            if e.seat is None:  # actions, blocks and their proofs are always a seat's
                continue
            if e.kind in ("action", "block") and e.card is not None:
                mine = self.claims.setdefault(e.seat, {})
                mine[e.card] = mine.get(e.card, 0) + 1
                claim = Claim(e.card, e.action if e.kind == "action" else None, e.target)
                self.recent[e.seat] = [claim, *self.recent.get(e.seat, [])][:RECENT_CLAIMS]
            elif e.kind in ("prove", "concede"):
                self._settle(e.seat, e.card, Outcome.PROVED if e.kind == "prove"
                             else Outcome.CONCEDED)
            if e.kind == "action":
                self.spotlight = (e.seat, e.target, time.monotonic() + SPOTLIGHT)

    def _settle(self, seat: int, card: str | None, outcome: Outcome) -> None:
        """A challenge of `seat`'s claim to be `card` ended (R6.3, R6.4). A claim is
        challenged in the window that opens right after it, before its claimant can claim
        again: the claim is the seat's newest."""
        latest = self.recent.get(seat)
        if latest and latest[0].card == card and latest[0].outcome is None:
            latest[0] = replace(latest[0], outcome=outcome)

    def lit(self, seat: int) -> str | None:
        """While the last action is highlighted: "acted" for its seat, "targeted" for its
        target; else (and for the other seats) None."""
        if self.spotlight is None or time.monotonic() >= self.spotlight[2]:
            return None
        actor, target, _end = self.spotlight
        return "acted" if seat == actor else "targeted" if seat == target else None

    def to_log(self, events: list[Event], new_game: bool, retold: bool) -> list[Event]:
        """Of a view's `events`, those the log has yet to show, now noted as shown: all of an
        update's; of a snapshot's, which retell the game so far (`retold`), those past the
        point where the log's latest lines start them, or all for a game new to the log. So
        a player who reconnects reads only what happened while away."""
        logged = [] if new_game else self.logged
        if retold:
            events = _after(logged, events)
        self.logged = (logged + events)[-MAX_EARLIER_EVENTS:]
        return events

    def _now(self) -> float:
        """The clocks' present: the moment play paused, while it is paused."""
        return time.monotonic() if self.paused_at is None else self.paused_at

    def pause(self, paused: bool) -> None:
        """Play stops (the clocks stand still) or goes on: the clocks then have the time
        they had left, as the server's have."""
        if paused and self.paused_at is None:
            self.paused_at = time.monotonic()
        elif not paused and self.paused_at is not None:
            stopped = time.monotonic() - self.paused_at
            self.deadlines = {seat: (end + stopped, total)
                              for seat, (end, total) in self.deadlines.items()}
            self.paused_at = None

    def set_deadlines(self, deadlines: list[dict[str, Any]], new_decision: bool) -> None:
        now = self._now()
        old = {} if new_decision else self.deadlines
        fresh: dict[int, tuple[float, float]] = {}
        for d in deadlines:
            left = d["ms"] / 1000
            total = old[d["seat"]][1] if d["seat"] in old else left
            fresh[d["seat"]] = (now + left, max(total, left))
        self.deadlines = fresh

    def time_left(self, seat: int) -> tuple[float, float] | None:
        """(seconds left, the decision's length) for a seat on the clock, else None."""
        if seat not in self.deadlines:
            return None
        end, total = self.deadlines[seat]
        return max(0.0, end - self._now()), total

    def set_presence(self, seat: int, status: str, name: str | None) -> None:
        for info in self.seats:
            if info["seat"] == seat:
                info["away"] = status == "away"
                if status == "bot":
                    info["bot"] = info.get("bot") or "bot"
                if name:
                    info["name"] = name


def _after(logged: list[Event], retold: list[Event]) -> list[Event]:
    """The events of `retold` after the longest run that ends `logged` and starts `retold`."""
    for overlap in range(min(len(logged), len(retold)), 0, -1):
        if logged[-overlap:] == retold[:overlap]:
            return retold[overlap:]
    return retold
