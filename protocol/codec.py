"""The strict codec: messages to frame maps and back, checking every field on both ways.

`encode` checks a message we are about to send and packs it (a failure is our own bug:
LocalProtocolError). `decode` turns one unpacked frame into a message of an accepted type,
its fields checked and then their agreement with each other (consistency.py: a view's
per-seat lists, seats, cards); a failure is the peer's: RemoteProtocolError. Nothing else
ever escapes from here. The byte stream, frame limits and the handshake are
connection.py's business.

A message that goes to many connections is checked and packed once: `encode_once` for one
that is the same for all, `UpdateFrames` for a move's update, whose view is the same for
all but for each viewer's own additions. Both give `Frame`s, which Connection.send takes
like messages.

What we send is checked against its spec only when COUP_CHECK_SENT=1 is in the environment
(`CHECK_SENT`): the tests set it, for every process they start, and so may anyone who runs
a server or a client to debug it. The checks prove what our own code builds, which the
tests do; what a peer sends is always checked, on every frame.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, NamedTuple

import msgpack

from engine import VIEW_FIELDS
from engine.views import OWN

from .consistency import CHECKS
from .errors import LocalProtocolError, RemoteProtocolError
from .messages import (
    ALL, BY_TYPE, DEADLINE, EVENT, SUMMARY, TABLE_ID, VIEW, Message, Update, wire_spec,
)
from .schema import Field, Invalid, List, Map, Str, compile_spec

_packer = msgpack.Packer(use_bin_type=True, autoreset=True)
_packb: Callable[[object], bytes] = _packer.pack  # msgpack has no types: what it returns

# Each message's checks cover its fields and `t` itself: strict for what we send (an unknown
# key is our bug), lenient for what we receive (a newer peer's additions are dropped).
_SPECS = {cls: Map((Field("t", Str(32, 1)),) + wire_spec(cls).fields) for cls in ALL}
_CHECKS = {cls: compile_spec(spec) for cls, spec in _SPECS.items()}
_STRICT = {cls: compile_spec(spec, strict=True) for cls, spec in _SPECS.items()}
_NAMES = {cls: tuple(f.name for f in wire_spec(cls).fields) for cls in ALL}

#: Check what we send (see the module docstring): a tenth of a server's time a move otherwise.
CHECK_SENT = os.environ.get("COUP_CHECK_SENT") == "1"

CLIENT_SENDS = frozenset(cls.TYPE for cls in ALL if cls.SENDER in ("client", "both"))
SERVER_SENDS = frozenset(cls.TYPE for cls in ALL if cls.SENDER in ("server", "both"))


def encode(msg: Message, max_frame: int | None = None) -> bytes:
    """The frame for `msg`, checked against its spec (and the peer's frame limit)."""
    if not isinstance(msg, Message):
        raise LocalProtocolError("bad_message", f"not a message: {msg!r}"[:200])
    wire = msg.to_wire()
    if CHECK_SENT:
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
        agrees = CHECKS.get(t)
        if agrees is not None:
            agrees(data)
    except Invalid as exc:
        raise RemoteProtocolError("bad_message", f"{t}: {exc}", re) from None
    return cls(**{name: data[name] for name in _NAMES[cls] if name in data})


class Frame(NamedTuple):
    """A message of type `TYPE` already checked and packed into `data` by this module."""

    TYPE: str
    data: bytes


def encode_once(msg: Message) -> Frame:
    """`msg` checked and packed once, to be sent to many connections."""
    return Frame(msg.TYPE, encode(msg))


_RE_KEY = _packb("re")


def with_re(frame: Frame, re: int) -> Frame:
    """`frame` (packed by encode_once, without `re`) as the answer to the request `re`: the
    same map with `re` added, nothing packed or checked again but the id. So one answer, a
    list of tables say, serves every request for it."""
    head = frame.data[0]
    if not 0x80 <= head < 0x8F or not 0 <= re <= 2**31 - 1:  # a fixmap with room for re
        raise LocalProtocolError("bad_message", f"{frame.TYPE}: cannot add re={re!r}")
    return Frame(frame.TYPE, bytes((head + 1,)) + frame.data[1:] + _RE_KEY + _packb(re))


#: What a view adds for its viewer to the public table (engine.View declares whose each
#: field is), in the order views put them last.
VIEWER_FIELDS = tuple(f.name for f in VIEW_FIELDS if f.whose == OWN)
_CHECK_PUBLIC = compile_spec(
    Map(tuple(f for f in VIEW.fields if f.name not in VIEWER_FIELDS)), "view", strict=True)
_CHECK_OWN = compile_spec(
    Map(tuple(f for f in VIEW.fields if f.name in VIEWER_FIELDS)), "view", strict=True)
_CHECK_TABLE = compile_spec(TABLE_ID, "table")
_EVENTS = List(EVENT, 64)
_CHECK_EVENTS = compile_spec(_EVENTS, "events", strict=True)
_CHECK_DEADLINES = compile_spec(List(DEADLINE, 10), "deadlines", strict=True)
_CHECK_REVEAL = compile_spec(VIEW, "reveal", strict=True)
_CHECK_SUMMARY = compile_spec(SUMMARY, "summary", strict=True)
_EVENTS_KEY = _packb("events")
_UPDATE_TABLE = _packb("t") + _packb(Update.TYPE) + _packb("table")
_VIEW_KEY = _packb("view")


def _entries(d: dict[str, Any]) -> bytes:
    """The packed key/value pairs of the map `d`, without the map's header."""
    packed = _packb(d)
    return packed[1:] if len(d) < 16 else packed[3:]  # fixmap, or map 16


class UpdateFrames:
    """One move's `update` for each of its viewers: what `encode` makes of Update(table,
    view=public | own, events, deadlines, reveal, summary), byte for byte, and checked as
    strictly when CHECK_SENT.

    What is the same for every viewer is checked and packed here, once: the public part of
    the view, every event of the move (as dicts), the deadlines, the reveal and the summary. `frame` then
    checks and packs only what one viewer adds: its own part of the view (VIEWER_FIELDS, in
    that order), and which of the events it may see.
    """

    def __init__(self, table: str, public: dict[str, Any], events: list[dict[str, Any]],
                 deadlines: list[dict[str, Any]], reveal: dict[str, Any] | None = None,
                 summary: dict[str, Any] | None = None) -> None:
        if CHECK_SENT:
            try:
                _CHECK_TABLE(table)
                _CHECK_PUBLIC(public)
                _CHECK_EVENTS(events)
                _CHECK_DEADLINES(deadlines)
                if reveal is not None:
                    _CHECK_REVEAL(reveal)
                if summary is not None:
                    _CHECK_SUMMARY(summary)
            except Invalid as exc:
                raise LocalProtocolError("bad_message", f"update: {exc}") from None
        fields = 5 + (reveal is not None) + (summary is not None)
        self._head = b"".join((
            _packer.pack_map_header(fields), _UPDATE_TABLE, _packb(table), _VIEW_KEY,
            _packer.pack_map_header(len(public) + len(VIEWER_FIELDS)), _entries(public),
        ))
        #: Each event's bytes, by the identity of its dict (the dicts are kept alive here).
        self._events = {id(e): (e, _packb(e)) for e in events}
        tail: dict[str, Any] = {"deadlines": deadlines}
        if reveal is not None:
            tail["reveal"] = reveal
        if summary is not None:
            tail["summary"] = summary
        self._tail = _entries(tail)

    def frame(self, own: dict[str, Any], events: list[dict[str, Any]]) -> Frame:
        """The update for the viewer whose own part of the view is `own` and who may see
        `events`: some of the event dicts this was made with."""
        try:
            if CHECK_SENT:
                _CHECK_OWN(own)
                if len(events) > _EVENTS.max_len:
                    raise Invalid("events", f"must be a list of at most {_EVENTS.max_len} "
                                  "items")
            packed = [self._events[id(e)][1] for e in events]
        except Invalid as exc:
            raise LocalProtocolError("bad_message", f"update: {exc}") from None
        except KeyError:
            raise LocalProtocolError("bad_message", "update: an event that was not "
                                     "checked") from None
        return Frame(Update.TYPE, b"".join((
            self._head, _entries(own), _EVENTS_KEY, _packer.pack_array_header(len(packed)),
            *packed, self._tail)))
