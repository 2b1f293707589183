"""The wire between the server and its clients (docs/PROTOCOL.md is the spec).

A TCP stream of back-to-back msgpack maps, each with a string `t`. `messages` defines every
message of versions 1 and 2 (2: with Reformation tables) as a frozen dataclass with the
spec of each field; `codec` checks and packs them; `connection.Connection` is the sans-I/O
state machine both sides run:

    conn = Connection(Role.CLIENT)
    sock.send(conn.send(Hello(versions=[1, 2], client="mybot/1.0")))
    conn.receive_data(sock.recv(65536))
    msg = conn.next_message()        # a Message, NEED_DATA or CONNECTION_CLOSED

Errors: RemoteProtocolError (the peer broke the protocol) and LocalProtocolError (we tried
to), each with a stable code from `errors`.
"""

from .codec import Frame, UpdateFrames, decode, encode, encode_once, with_re
from .connection import CONNECTION_CLOSED, NEED_DATA, Connection, Role, State, choose_version
from .errors import (
    CODES, LOBBY_ERRORS, SESSION_ERRORS, LocalProtocolError, ProtocolError, RemoteProtocolError,
)
from .messages import *  # noqa: F403 — every message class is part of the API
from .messages import ALL, BY_TYPE, DEFAULT_PORT, REFORMATION_VERSION, VERSIONS

__all__ = [
    "ALL", "BY_TYPE", "CODES", "CONNECTION_CLOSED", "DEFAULT_PORT", "LOBBY_ERRORS", "NEED_DATA",
    "REFORMATION_VERSION", "SESSION_ERRORS", "VERSIONS", "Connection", "Frame",
    "LocalProtocolError", "ProtocolError", "RemoteProtocolError", "Role", "State", "UpdateFrames",
    "choose_version", "decode", "encode", "encode_once", "with_re",
]
__all__ += [cls.__name__ for cls in ALL]
