"""Textual messages that carry news from the network (trio) to the app.

Trio tasks post these with `app.post_message`; the app handles them on the UI's side.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


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
class Connected(Message):
    """The handshake is done; the server calls us `name`, as an identity it verified (else
    we are a guest there)."""

    name: str
    server: str
    identified: bool
    #: Our key is one of the server's operators (kick, mute, ban, close are ours).
    operator: bool = False


@dataclass
class ConnectFailed(Message):
    """The connection could not be made, or the server refused it with `code`."""

    reason: str
    code: str | None = None


@dataclass
class Received(Message):
    """A message from the server (pings excepted: the network answers those)."""

    msg: object


@dataclass
class ConnectionLost(Message):
    """The connection dropped while we hold a seat; reconnecting with its token."""

    reason: str


@dataclass
class Reconnected(Message):
    """The connection is back, and the server calls us `name` (as an identity, or a guest);
    it sends the seat's snapshot next (or bad_token, if the seat was given up meanwhile)."""

    name: str
    identified: bool
    operator: bool = False


@dataclass
class Disconnected(Message):
    """The connection is gone for good."""

    reason: str


@dataclass
class NetFailed(Message):
    """The network code failed unexpectedly (a bug): said, so that nothing fails silently."""

    reason: str
