"""What a player (or a bot) wants: the intents a front end hands the client core.

One frozen dataclass each; the core (session.py) turns an intent into messages for the
server, or refuses it with an event, by the same rules for every front end. Request ids
are the core's to give. It must never import trio, Textual or any front end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import Move


@dataclass(frozen=True, slots=True)
class Intent:
    """Base of the intents."""


@dataclass(frozen=True, slots=True)
class Play(Intent):
    """Make this move at our table: checked on our view, then pending until answered.
    `answers`: the decision it answers, the one the front end showed (its View.opened);
    None for whatever decision is open."""

    move: Move
    answers: int | None = None


@dataclass(frozen=True, slots=True)
class Leave(Intent):
    """Off our table: in flight until the server's answer, and what follows waits."""


@dataclass(frozen=True, slots=True)
class JoinTable(Intent):
    """Sit at a table by its id or private code (at `seat`, or the first free one), or
    watch it (`spectate`)."""

    table: str | None = None
    code: str | None = None
    spectate: bool = False
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class CreateTable(Intent):
    options: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SetReady(Intent):
    ready: bool = True


@dataclass(frozen=True, slots=True)
class StartGame(Intent):
    pass


@dataclass(frozen=True, slots=True)
class AskRematch(Intent):
    pass


@dataclass(frozen=True, slots=True)
class SayText(Intent):
    """Chat: in `scope`, or (None) where we are (our table's chat, else the lobby's)."""

    text: str
    scope: str | None = None


@dataclass(frozen=True, slots=True)
class Moderate(Intent):
    """An operator's (or a table creator's) act: a command word (kick, mute, ban, close)
    and the rest of the line typed (client/moderation.py reads it)."""

    command: str
    rest: str


@dataclass(frozen=True, slots=True)
class ListTables(Intent):
    """The lobby's tables, asked by the player (the answer is `TablesListed(asked=True)`),
    and the server's tournament followed (`TournamentChanged`)."""


@dataclass(frozen=True, slots=True)
class EnterTournament(Intent):
    """Enter the server's open tournament (a bot's runner: a person types the command)."""


@dataclass(frozen=True, slots=True)
class ListGames(Intent):
    before: int | None = None
    player: str | None = None


@dataclass(frozen=True, slots=True)
class FetchGame(Intent):
    game: int
    max_frame: int | None = None


@dataclass(frozen=True, slots=True)
class GetLeaderboard(Intent):
    offset: int = 0


@dataclass(frozen=True, slots=True)
class GetProfile(Intent):
    name: str


@dataclass(frozen=True, slots=True)
class OwnRating(Intent):
    """Our own rating, if the server knows us by our key (a guest has none)."""


@dataclass(frozen=True, slots=True)
class JoinQueue(Intent):
    seats: int | dict[str, int]
    variant: str | None = None


@dataclass(frozen=True, slots=True)
class LeaveQueue(Intent):
    pass
