"""Textual messages: news from the network (trio) to the app, and from the app to its screens.

Trio tasks post the first kind with `app.post_message`; the app handles them on the UI's side.
The app posts the second kind to every screen of its stack (`CoupApp.tell`), each screen
handling with `@on` those it draws: none of them changes what the client knows, they only say
that it changed or carry an answer the model does not keep.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.message import Message

from engine import Event

from ..transport import Step


@dataclass
class ServerStarted(Message):
    """The embedded server listens at host:port."""

    host: str
    port: int


@dataclass
class ServerFailed(Message):
    """The embedded server could not start, and why."""

    reason: str


@dataclass
class CoreStep(Message):
    """A step of the client core that the connection caused (a message from the server,
    the connection up or down: client/transport.py), to run on the app's side, in order,
    so that what the app knows and what its screens show change together."""

    step: Step


@dataclass
class NetFailed(Message):
    """The network code failed unexpectedly (a bug): said, so that nothing fails silently."""

    reason: str


# ---------------------------------------------------------------------- app to screens


@dataclass
class ToScreens(Message):
    """What the app tells every screen of its stack (`CoupApp.tell` posts each a copy)."""


@dataclass
class TableChanged(ToScreens):
    """What the screens draw from has changed (the table, the lobby's tables, the connection,
    our rating): redraw from the app's model. A burst of them coalesces into one redraw.

    `new_view`: a view of the table came (a decision may have opened or closed); its
    `events` are the table log's new lines, after `earlier`, what happened before the view
    came that the log lacks (a snapshot's, for someone who arrives mid-game or comes back);
    `new_game`: the view starts a game.
    """

    new_view: bool = False
    events: tuple[Event, ...] = ()
    new_game: bool = False
    earlier: tuple[Event, ...] = ()

    def can_replace(self, message: Message) -> bool:
        """Whether the change `message`, waiting after this one, may stand for both: only
        plain changes do, and it then takes this one's log lines before its own. A new game
        or a retelling stands alone, for the log's headings to stay where they belong."""
        if not (isinstance(message, TableChanged) and self._plain and message._plain):
            return False
        message.new_view = self.new_view or message.new_view
        message.events = self.events + message.events
        return True

    @property
    def _plain(self) -> bool:
        return not (self.new_game or self.earlier)


@dataclass
class QueueChanged(ToScreens):
    """How many players wait in the quick-play queue with us."""

    waiting: int


@dataclass
class GamesPage(ToScreens):
    """A page of finished games, answering request `asked`; `next` asks for the one after."""

    asked: int
    games: list[dict[str, Any]]
    next: int | None


@dataclass
class LeaderboardPage(ToScreens):
    """A page of the leaderboard, answering request `asked`; `next` asks for the one after."""

    asked: int
    players: list[dict[str, Any]]
    next: int | None


@dataclass
class ProfileCame(ToScreens):
    """A rated player's profile, answering request `asked`."""

    asked: int
    profile: dict[str, Any]


@dataclass
class Refused(ToScreens):
    """The server refused request `asked` (None: no request of ours), and why, in a sentence."""

    asked: int | None
    why: str


@dataclass
class ChatSaid(ToScreens):
    """Someone said `text` in the lobby or at our table (`scope`); `seat` None at a table: a
    spectator."""

    scope: str
    name: str
    text: str
    seat: int | None


@dataclass
class PresenceChanged(ToScreens):
    """A seat of our table came, went away, was taken by a bot, or was left; `name` the
    seat's name if the server gave it."""

    seat: int
    status: str
    name: str | None


@dataclass
class PromptReplaced(ToScreens):
    """A move was not sent: it answered a prompt that another decision had replaced by the
    time it came (the client core's MoveStale). The table flashes the new prompt."""
