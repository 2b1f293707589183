"""Textual messages that carry news from the network (trio) to the app.

Trio tasks post these with `app.post_message`; the app handles them on the UI's side.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

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
