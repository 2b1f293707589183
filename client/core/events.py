"""What the client core tells its front end: typed events, one frozen dataclass each.

The core (session.py) returns these from every call; a transport sends the `Send` ones and
hands the others to the front end, which renders them (the terminal app, plain mode's
lines, the bot runner's decisions) and never reads the protocol itself. Nothing here holds
a sentence for people: codes and values only, each front end words them. It must never
import trio, Textual or any front end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from protocol.messages import Message

from .table import Arrival, TableState


@dataclass(frozen=True, slots=True)
class Event:
    """Base of the core's events."""


@dataclass(frozen=True, slots=True)
class Send(Event):
    """A message for the server: the transport writes it on the connection."""

    msg: Message


@dataclass(frozen=True, slots=True)
class Connected(Event):
    """The first connection is up (the handshake done): who we are there, and the table
    whose seat the server gives back to our key (its `joined` follows), if any."""

    name: str
    server: str
    identified: bool
    operator: bool
    given_back: str | None = None
    #: The name we asked for, when the server keeps another for our key (it keeps the
    #: name a key first played under): a player who asked would not know why, unless told.
    renamed: str | None = None


@dataclass(frozen=True, slots=True)
class ConnectFailed(Event):
    """The first connection could not be made or was refused (`code`: the server's)."""

    reason: str
    code: str | None = None


@dataclass(frozen=True, slots=True)
class ConnectionLost(Event):
    """The connection dropped and the core wants it back (a seat, a queue, a restarting
    server's lobby): the transport is trying. `reason`: the link's own words (None: the
    server closed it); `said`: the code of the server's goodbye, if it said one."""

    reason: str | None
    said: str | None
    said_message: str | None


@dataclass(frozen=True, slots=True)
class ConnectionBack(Event):
    """The connection is up again (the seat comes back by its own `SeatBack`; one given
    back to our key names its table in `given_back`)."""

    name: str
    identified: bool
    operator: bool
    given_back: str | None = None


@dataclass(frozen=True, slots=True)
class Disconnected(Event):
    """The connection is gone for good; as ConnectionLost for the fields."""

    reason: str | None
    said: str | None
    said_message: str | None


@dataclass(frozen=True, slots=True)
class NotConnected(Event):
    """An intent came while no connection is up: nothing was sent."""


@dataclass(frozen=True, slots=True)
class TablesListed(Event):
    """The lobby's tables changed (the core's `tables`); `asked`: the answer to our own
    list request (plain mode prints those)."""

    tables: list[dict[str, Any]]
    asked: bool


@dataclass(frozen=True, slots=True)
class TableJoined(Event):
    """We sit at (or watch) a new table: the core's `table` is this one."""

    table: TableState


@dataclass(frozen=True, slots=True)
class SeatBack(Event):
    """After a reconnect the server gave our seat back (a fresh snapshot follows)."""


@dataclass(frozen=True, slots=True)
class TableChanged(Event):
    """The table's description (its seats, options, status) changed."""


@dataclass(frozen=True, slots=True)
class ViewChanged(Event):
    """A snapshot's or an update's view of our table was taken in: what it changed and the
    events the log has yet to tell (`arrival`); `decision_opened`: a decision of ours has
    just opened (the app rings the bell for it)."""

    arrival: Arrival
    decision_opened: bool


@dataclass(frozen=True, slots=True)
class PendingChanged(Event):
    """Our move went pending, or is pending no more (the table's `pending`)."""


@dataclass(frozen=True, slots=True)
class MoveWaits(Event):
    """A move was asked while our last one still waits for the server: not sent."""


@dataclass(frozen=True, slots=True)
class MoveStale(Event):
    """A move answered a decision that is no longer the open one (the front end showed an
    older one): not sent, since it would answer a prompt the player never saw."""


@dataclass(frozen=True, slots=True)
class MoveRefused(Event):
    """Our move was refused, by the server (`re`: the move's request id) or (`local`) by
    our own check before sending (`kind`: the refused move's, for a sentence that names
    what it would have cost)."""

    code: str
    local: bool = False
    re: int | None = None
    kind: str | None = None


@dataclass(frozen=True, slots=True)
class Refused(Event):
    """The server refused a request (`re`: its id, None when unasked); `said`: the
    server's own sentence, for the codes whose sentence says who acted and why (ACTS);
    `message`: its sentence whatever the code (for logs, not for people)."""

    code: str
    re: int | None
    said: str | None = None
    message: str = ""


@dataclass(frozen=True, slots=True)
class TableGone(Event):
    """The server says our table is no longer ours (TABLE_GONE); TableLeft follows.
    `said` and `message` as Refused's."""

    code: str
    said: str | None = None
    message: str = ""


@dataclass(frozen=True, slots=True)
class LeaveSettled(Event):
    """Our leave is answered (or can no longer be: the connection dropped); intents held
    meanwhile go out after this."""


@dataclass(frozen=True, slots=True)
class TableLeft(Event):
    """We are off our table: back in the server's lobby."""


@dataclass(frozen=True, slots=True)
class Done(Event):
    """The server did our operator's (or creator's) act."""


@dataclass(frozen=True, slots=True)
class CommandRefused(Event):
    """A moderation command typed wrong: `reason` says how (client/moderation.py)."""

    reason: str


@dataclass(frozen=True, slots=True)
class ChatHeard(Event):
    """A chat line, in the lobby's or a table's chat."""

    scope: str
    name: str
    text: str
    seat: int | None
    table: str | None


@dataclass(frozen=True, slots=True)
class PresenceChanged(Event):
    """A seat of our table came, went away, was taken by a bot or left."""

    seat: int
    status: str
    name: str | None


@dataclass(frozen=True, slots=True)
class PlayPaused(Event):
    """Play at our table stopped (the server cannot save it) or goes on."""

    paused: bool


@dataclass(frozen=True, slots=True)
class QueueChanged(Event):
    """How many wait in the quick-play queue (`re`: our queue request's, if an answer)."""

    waiting: int
    re: int | None


@dataclass(frozen=True, slots=True)
class TournamentChanged(Event):
    """The server's tournament changed (the core's `tournament`)."""


@dataclass(frozen=True, slots=True)
class GamesPage(Event):
    re: int
    games: list[dict[str, Any]]
    next: int | None


@dataclass(frozen=True, slots=True)
class LeaderboardPage(Event):
    re: int
    players: list[dict[str, Any]]
    next: int | None


@dataclass(frozen=True, slots=True)
class ProfileCame(Event):
    re: int
    profile: dict[str, Any]


@dataclass(frozen=True, slots=True)
class RatingChanged(Event):
    """Our own rating on the server came (the core's `rating`)."""


@dataclass(frozen=True, slots=True)
class RecordCame(Event):
    """A finished game's record, as asked."""

    record: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Goodbye(Event):
    """The server says goodbye (the connection ends next)."""

    reason: str
    message: str | None
