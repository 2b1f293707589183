"""The sans-I/O connection: bytes in, messages out; messages in, bytes out.

One `Connection` per TCP connection, on either side. Feed it what the socket received with
`receive_data` (b"" for end of file) and take messages with `next_message` until it says
NEED_DATA; turn a message into bytes to write with `send`. It tracks the handshake of the
fixed core and the frame limit, and raises RemoteProtocolError when the peer breaks the
protocol, LocalProtocolError when we try to. It never touches a socket or a clock: timeouts,
pings and replies are the caller's.

States:
    HANDSHAKE  server: waiting for hello, then for our welcome; client: hello not yet
               answered. Only hello, welcome, error and bye may pass.
    OPEN       the version is agreed: every message of it may pass.
    CLOSED     bye or a closing error was sent or received, or the peer closed; nothing
               more is sent, and received bytes are ignored.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import NoReturn

import msgpack

from .codec import CLIENT_SENDS, SERVER_SENDS, Frame, decode, encode
from .errors import SESSION_ERRORS, LocalProtocolError, RemoteProtocolError
from .messages import VERSIONS, Bye, Error, Hello, Message, Welcome

DEFAULT_MAX_FRAME = 64 * 1024
#: Messages that move the connection from one state to another: never sent as a Frame.
_STATEFUL = frozenset(cls.TYPE for cls in (Hello, Welcome, Bye, Error))


class Role(enum.Enum):
    CLIENT = "client"
    SERVER = "server"


class State(enum.Enum):
    HANDSHAKE = "handshake"
    OPEN = "open"
    CLOSED = "closed"


class _Sentinel:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


#: next_message(): no complete frame yet; feed more bytes.
NEED_DATA = _Sentinel("NEED_DATA")
#: next_message(): the peer closed the stream (or the connection is CLOSED).
CONNECTION_CLOSED = _Sentinel("CONNECTION_CLOSED")


def choose_version(theirs: Iterable[int], ours: Iterable[int] = VERSIONS) -> int | None:
    """The highest version both sides speak, or None."""
    common = set(theirs) & set(ours)
    return max(common) if common else None


#: _next_whole: the frame is not all here (or not msgpack).
_IN_PIECES = _Sentinel("IN_PIECES")
#: _next_whole looks for a whole frame in this many bytes at the most: frames from clients
#: are far smaller, and what follows the frame in it is copied.
_WINDOW = 4096


class Connection:
    """One side of one connection. See the module docstring."""

    def __init__(
        self,
        role: Role,
        *,
        max_frame: int = DEFAULT_MAX_FRAME,
        versions: tuple[int, ...] = VERSIONS,
    ) -> None:
        self.role = role
        self.state = State.HANDSHAKE
        self.versions = versions
        #: The agreed version, once OPEN.
        self.version: int | None = None
        self.max_frame = max_frame
        #: The largest frame the peer accepts, as far as we know (the welcome may say).
        self.peer_max_frame = DEFAULT_MAX_FRAME
        self._accepts = CLIENT_SENDS if role is Role.SERVER else SERVER_SENDS
        self._limits = dict(_LIMITS, max_str_len=max_frame, max_bin_len=max_frame)
        #: Only while a frame comes in pieces (see next_message).
        self._unpacker: msgpack.Unpacker | None = None
        self._pending = bytearray()
        self._fed = 0
        self._frame_start = 0
        self._eof = False
        self._hello_seen = False
        #: The versions the client's hello listed (server side).
        self.peer_versions: tuple[int, ...] = ()
        #: The versions our hello offered (client side): the welcome must choose one of
        #: them, though we may speak more (a client that plays an older one offers less).
        self._offered: tuple[int, ...] = ()

    # ------------------------------------------------------------------ receiving

    def receive_data(self, data: bytes | bytearray) -> None:
        """Bytes the socket received; b"" means the peer closed its side.

        Take every message with next_message (until NEED_DATA) before feeding more: then
        nothing waits here beyond one read, and the unpacker never holds more than the
        frame cap."""
        if not data:
            self._eof = True
        elif self.state is not State.CLOSED:
            self._pending += data

    def next_message(self) -> Message | _Sentinel:
        """The next complete message, NEED_DATA, or CONNECTION_CLOSED.

        Raises RemoteProtocolError for a peer's breach; when its `closes` is true the
        connection is CLOSED and the caller should send the error (if it can) and close."""
        if self.state is State.CLOSED:
            return CONNECTION_CLOSED
        if self._unpacker is None:
            obj = self._next_whole()
            if obj is not _IN_PIECES:
                return obj
        unpacker = self._unpacker
        assert unpacker is not None  # _next_whole hands a frame in pieces to one
        while True:
            try:
                obj = unpacker.unpack()
            except msgpack.OutOfData:
                partial = self._fed - self._frame_start
                if not self._pending:
                    if self._eof:
                        self.state = State.CLOSED
                        if partial:
                            raise RemoteProtocolError(
                                "bad_frame", "The connection closed in the middle of a frame."
                            ) from None
                        return CONNECTION_CLOSED
                    return NEED_DATA
                room = self.max_frame - partial
                if room <= 0:
                    self._fail("frame_too_large", f"A frame exceeds {self.max_frame} bytes.")
                chunk = self._pending[:room]
                del self._pending[:room]
                unpacker.feed(chunk)
                self._fed += len(chunk)
                continue
            except Exception:  # noqa: BLE001 — any failure of the unpacker is a bad frame
                self._fail("bad_frame", "The bytes received are not a msgpack frame.")
            self._frame_start = unpacker.tell()
            if self._frame_start == self._fed:  # nothing left in pieces
                self._unpacker = None
            return self._received(obj)

    def _next_whole(self) -> Message | _Sentinel:
        """next_message while no unpacker is kept: the first frame pending, unpacked at
        once, if it is all here; else (or if it is not msgpack: the unpacker says how)
        _IN_PIECES, and an unpacker takes over. A frame mostly comes whole and alone, and
        then no connection keeps an unpacker of its own, which is 40 KB of memory whether or
        not it holds anything. Frames that came together (a burst) go to an unpacker too
        after the first: unpacking each at once would copy the rest for each."""
        pending = self._pending
        if not pending:
            if self._eof:
                self.state = State.CLOSED
                return CONNECTION_CLOSED
            return NEED_DATA
        size = 0
        with memoryview(pending)[:_WINDOW] as window:
            try:
                obj = msgpack.unpackb(window, **self._limits)
                size = len(window)
            except msgpack.ExtraData as extra:
                obj, size = extra.unpacked, len(window) - len(extra.extra)
            except Exception:  # noqa: BLE001 — not all here, or not msgpack
                pass
        if not size:
            self._keep_unpacker()
            return _IN_PIECES
        if size > self.max_frame:
            self._fail("frame_too_large", f"A frame exceeds {self.max_frame} bytes.")
        del pending[:size]
        if pending:
            self._keep_unpacker()
        return self._received(obj)

    def _keep_unpacker(self) -> None:
        """Unpack what is pending with an unpacker of this connection's own, until it holds
        nothing (see next_message)."""
        self._unpacker = msgpack.Unpacker(max_buffer_size=self.max_frame, **self._limits)
        self._fed = self._frame_start = 0

    def _received(self, obj: object) -> Message:
        try:
            msg = decode(obj, self._accepts)
        except RemoteProtocolError as exc:
            if exc.code == "bad_frame" or self.state is State.HANDSHAKE:
                self.state = State.CLOSED
                if exc.code != "bad_frame":
                    exc = RemoteProtocolError(
                        "handshake_required", "The first message must be a valid hello.", exc.re
                    )
            raise exc
        if self.state is State.HANDSHAKE:
            self._handshake_received(msg)
        elif isinstance(msg, (Hello, Welcome)):
            raise RemoteProtocolError("bad_message", f"{msg.TYPE} is only for the handshake.")
        if isinstance(msg, Bye) or (isinstance(msg, Error) and _closes(msg.code)):
            self.state = State.CLOSED
        return msg

    def _handshake_received(self, msg: Message) -> None:
        if self.role is Role.SERVER:
            if not isinstance(msg, Hello) or self._hello_seen:
                self._fail("handshake_required", "The first message must be hello.")
            self._hello_seen = True
            self.peer_versions = tuple(msg.versions)
        elif not self._hello_seen:
            self._fail("handshake_required", "The server spoke before our hello.")
        elif isinstance(msg, Welcome):
            if msg.version not in self._offered:
                self._fail("unsupported_version", f"We did not offer version {msg.version}.")
            self.version = msg.version
            if msg.max_frame is not None:
                self.peer_max_frame = msg.max_frame
            self.state = State.OPEN
        elif not isinstance(msg, (Error, Bye)):
            self._fail("handshake_required", "The server must answer hello with welcome.")

    def _fail(self, code: str, message: str) -> NoReturn:
        self.state = State.CLOSED
        self._pending.clear()
        raise RemoteProtocolError(code, message)

    # ------------------------------------------------------------------ sending

    def send(self, msg: Message | Frame) -> bytes:
        """The bytes to write for `msg`; LocalProtocolError if it may not be sent now.

        A Frame (a message the codec checked and packed once for many connections) may be
        sent once the connection is open, if it is not one that changes the connection's
        state (hello, welcome, bye, error)."""
        if isinstance(msg, Frame):
            return self._send_frame(msg)
        if self.state is State.CLOSED:
            raise LocalProtocolError("bad_message", "The connection is closed.")
        if self.state is State.HANDSHAKE:
            self._handshake_sent(msg)
        elif isinstance(msg, (Hello, Welcome)):
            raise LocalProtocolError("bad_message", f"{msg.TYPE} is only for the handshake.")
        allowed = SERVER_SENDS if self.role is Role.SERVER else CLIENT_SENDS
        if getattr(msg, "TYPE", None) not in allowed:
            raise LocalProtocolError("bad_message", f"A {self.role.value} cannot send {msg!r}"[:200])
        frame = encode(msg, self.peer_max_frame)
        if isinstance(msg, Bye) or (isinstance(msg, Error) and _closes(msg.code)):
            self.state = State.CLOSED
        elif isinstance(msg, Welcome):
            self.version = msg.version
            self.state = State.OPEN
        return frame

    def _send_frame(self, frame: Frame) -> bytes:
        if self.state is not State.OPEN:
            raise LocalProtocolError("bad_message", f"The connection is {self.state.value}.")
        allowed = SERVER_SENDS if self.role is Role.SERVER else CLIENT_SENDS
        if frame.TYPE not in allowed or frame.TYPE in _STATEFUL:
            raise LocalProtocolError("bad_message", f"{frame.TYPE} cannot be sent as a Frame.")
        if len(frame.data) > self.peer_max_frame:
            raise LocalProtocolError("frame_too_large", f"{frame.TYPE} is {len(frame.data)} "
                                     f"bytes; the limit is {self.peer_max_frame}")
        return frame.data

    def _handshake_sent(self, msg: Message) -> None:
        if self.role is Role.CLIENT:
            if isinstance(msg, Hello) and not self._hello_seen:
                if not set(msg.versions) <= set(self.versions):
                    raise LocalProtocolError(
                        "unsupported_version", "hello may offer only versions we speak."
                    )
                self._hello_seen = True
                self._offered = tuple(msg.versions)
                return
            if isinstance(msg, Bye):
                return
            raise LocalProtocolError("handshake_required", "A client must send hello first.")
        if isinstance(msg, (Error, Bye)):
            return
        if not isinstance(msg, Welcome) or not self._hello_seen:
            raise LocalProtocolError(
                "handshake_required", "A server answers hello with welcome before anything else."
            )
        if msg.version not in self.versions or msg.version not in self.peer_versions:
            raise LocalProtocolError(
                "unsupported_version", f"Version {msg.version} is not spoken by both sides."
            )


def _refuse_ext(code: int, data: bytes) -> object:
    # No message of the protocol holds an ext value, not even an empty one.
    raise ValueError("ext types are not part of the protocol")


#: What a connection's unpacking refuses, beyond frames and strings over its frame limit.
_LIMITS = dict(raw=False, strict_map_key=True, max_array_len=4096, max_map_len=256,
               max_ext_len=0, ext_hook=_refuse_ext)


def _closes(code: str) -> bool:
    return SESSION_ERRORS.get(code, (False, ""))[0]
