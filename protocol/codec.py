"""The strict codec: messages to frame maps and back, checking every field on both ways.

`encode` checks a message we are about to send and packs it (a failure is our own bug:
LocalProtocolError). `decode` turns one unpacked frame into a message of an accepted type
(a failure is the peer's: RemoteProtocolError). Nothing else ever escapes from here. The
byte stream, frame limits and the handshake are connection.py's business.
"""

from __future__ import annotations

from typing import Any

import msgpack

from .errors import LocalProtocolError, RemoteProtocolError
from .messages import ALL, BY_TYPE, Message, wire_spec
from .schema import Field, Invalid, Map, Str, compile_spec

_packb = msgpack.Packer(use_bin_type=True, autoreset=True).pack

# Each message's checks cover its fields and `t` itself: strict for what we send (an unknown
# key is our bug), lenient for what we receive (a newer peer's additions are dropped).
_SPECS = {cls: Map((Field("t", Str(32, 1)),) + wire_spec(cls).fields) for cls in ALL}
_CHECKS = {cls: compile_spec(spec) for cls, spec in _SPECS.items()}
_STRICT = {cls: compile_spec(spec, strict=True) for cls, spec in _SPECS.items()}
_NAMES = {cls: tuple(f.name for f in wire_spec(cls).fields) for cls in ALL}

CLIENT_SENDS = frozenset(cls.TYPE for cls in ALL if cls.SENDER in ("client", "both"))
SERVER_SENDS = frozenset(cls.TYPE for cls in ALL if cls.SENDER in ("server", "both"))


def encode(msg: Message, max_frame: int | None = None) -> bytes:
    """The frame for `msg`, checked against its spec (and the peer's frame limit)."""
    if not isinstance(msg, Message):
        raise LocalProtocolError("bad_message", f"not a message: {msg!r}"[:200])
    wire = msg.to_wire()
    try:
        _STRICT[type(msg)](wire)
    except Invalid as exc:
        raise LocalProtocolError("bad_message", f"{msg.TYPE}: {exc}") from None
    try:
        frame = _packb(wire)
    except (TypeError, ValueError, OverflowError) as exc:
        raise LocalProtocolError("bad_message", f"{msg.TYPE}: {exc}") from None
    if max_frame is not None and len(frame) > max_frame:
        raise LocalProtocolError(
            "frame_too_large", f"{msg.TYPE} is {len(frame)} bytes; the limit is {max_frame}"
        )
    return frame


def decode(obj: Any, accepted: frozenset[str]) -> Message:
    """The message one unpacked frame holds, if its type is in `accepted` and it is valid.
    `obj` is the receiver's own: unknown keys are deleted from it in place."""
    if type(obj) is not dict:
        raise RemoteProtocolError("bad_frame", "A frame must be a msgpack map.")
    t = obj.get("t")
    if type(t) is not str:
        raise RemoteProtocolError("bad_frame", "A frame must have a string field 't'.")
    request_id = obj.get("id")
    re = request_id if type(request_id) is int and 0 <= request_id < 2**31 else None
    if t not in accepted:
        raise RemoteProtocolError(
            "unknown_type", f"No message of type {t[:32]!r} is accepted here.", re
        )
    cls = BY_TYPE[t]
    try:
        data = _CHECKS[cls](obj)
    except Invalid as exc:
        raise RemoteProtocolError("bad_message", f"{t}: {exc}", re) from None
    return cls(**{name: data[name] for name in _NAMES[cls] if name in data})
