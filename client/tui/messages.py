"""Textual messages that carry news from the network (trio) to the app.

Trio tasks post these with `app.post_message`; the app handles them on the UI's side.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from ..core.events import Event


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
class CoreEvents(Message):
    """What the client core says happened (client/core/events.py), a batch per message
    from the server or intent of the player, in order."""

    events: list[Event]


@dataclass
class NetFailed(Message):
    """The network code failed unexpectedly (a bug): said, so that nothing fails silently."""

    reason: str
