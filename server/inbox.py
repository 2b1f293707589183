"""What a table's inbox carries: the client messages a table handles, and the notices the
lobby and the server give it about its members and itself.

Every item is a typed value, so the table dispatches on its class alone (one `match`),
never on a string or on a tuple's first element. This module holds types only: it must
never hold behaviour, nor import the table or the lobby.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol import (
    CloseTable, CreateTable, Join, Kick, Leave, MoveRequest, Ready, Rematch, Say, Start,
)

from .session import Session


@dataclass(frozen=True, slots=True)
class Disconnected:
    """The session's connection dropped: a seated player keeps the seat for its grace."""


@dataclass(frozen=True, slots=True)
class Quit:
    """The session said goodbye: at a waiting table its seat is freed, as by `leave`; once
    the game runs, it keeps its seat like a dropped connection, and may come back."""


@dataclass(frozen=True, slots=True)
class Reconnect:
    """The session came back with the reconnect `token` of a seat (the token itself, as
    its player holds it)."""

    token: str


@dataclass(frozen=True, slots=True)
class Reseat:
    """An identified session comes back to its `player`'s seat (it may hold no token)."""

    player: str


@dataclass(frozen=True, slots=True)
class Matched:
    """The players the quick-play queue (or a tournament) matched for the table, in seat
    order (the lobby claimed them for it already); None leaves a seat to the table's bots."""

    players: tuple[Session | None, ...]


@dataclass(frozen=True, slots=True)
class End:
    """The server shuts down and ends its games: the table closes for good."""


#: A notice about the table's members or the table itself, from the lobby or the server.
Notice = Disconnected | Quit | Reconnect | Reseat | Matched | End
#: A client message the lobby passes on to the table its sender is at (or wants).
Request = (CloseTable | CreateTable | Join | Kick | Leave | MoveRequest | Ready | Rematch
           | Say | Start)
#: Anything a table's inbox carries.
Item = Notice | Request
#: The requests that play, and so wait while the table is paused: moves, and what may
#: start a game. Everything else is answered at once, paused or not.
PLAYS = (MoveRequest, Ready, Start, Rematch)
