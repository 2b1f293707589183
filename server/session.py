"""One client connection: the handshake, the reader and writer, limits, and dispatch.

A session serves any trio `Stream` (a TCP socket, TLS, or a memory stream in tests): it reads
frames through the sans-I/O Connection, answers session messages itself (ping, bye), and
hands everything else to its `Router` (the lobby), the only thing above it that it knows.
Everything it writes goes through a bounded outbox drained by its own writer task: a client
that stops reading fills its outbox and is disconnected (slow_consumer), so no table ever
waits for a client. Every error is caught here; nothing a client sends ends the server.
It never imports the lobby or the tables: they call `send` and `close`, and read `name` and
`version`.
"""

from __future__ import annotations

import itertools
import math
import os
import secrets
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Protocol

import trio

from protocol import (
    CONNECTION_CLOSED, NEED_DATA, Bye, Connection, Error, Hello, LocalProtocolError, Ping, Pong,
    RemoteProtocolError, Role, State, VERSIONS, Welcome, choose_version, encode,
)

from protocol.text import name_or_none, printable

from . import log
from .config import ServerConfig
from .limits import ByteBudget, TokenBucket
from .refused import Refused

_ids = itertools.count(1)
#: Bytes the writer hands the stream at once, at the most.
WRITE_CHUNK = 256 * 1024
#: Seconds of silence after which a closing session stops reading what the client sends.
LINGER = 0.25
#: Messages of one read a session handles before it lets the other tasks run.
BURST = 4
#: A TCP socket's descriptor is a file that os.read and os.write take (not on Windows).
FAST_IO = os.name == "posix"


class _Closing(Exception):
    """The session ends now (its reason was already queued to the client)."""


class Router(Protocol):
    """What a session asks of the lobby above it."""

    #: This server's id, which identities sign for (welcome tells it).
    server_id: str

    def arrive(self, session: Session, name: str, token: str | None) -> str:
        """`session` said hello, asking for `name` (with a reconnect `token`): it is in the
        lobby now. Returns the name it has: its seat's if the token is good, else `name` or,
        if that is taken, `name` with a suffix."""

    def reconnect(self, session: Session, token: str) -> Refused | None:
        """Give `session` the seat of `token` back (after its welcome): None, or why not
        (bad_token: the seat is gone; needs_version: the session's version cannot play it)."""

    def request(self, session: Session, msg) -> None:
        """A lobby or table request."""

    def depart(self, session: Session) -> None:
        """`session` ended; it sends and receives nothing more."""


def stream_io(stream: trio.abc.Stream) -> tuple[Callable[[bytes], int] | None,
                                               Callable[[], Awaitable[bytes | bytearray | None]]]:
    """How a session writes to and reads from `stream`. For a TCP socket on POSIX (FAST_IO):
    a synchronous, non-blocking write, so that the common case of a message with nothing
    queued costs a system call and no task switch; and a wait until the socket is readable,
    then one read (`receive_some` first tries a read that mostly fails while the client
    thinks, and pays for a checkpoint around it: a tenth of the server's time per move went
    there). Other streams (TLS, memory), and TCP where a socket is no file os.read and
    os.write take (Windows), have no direct write, so everything goes through the writer
    task, and are read with `receive_some`. A read gives None when woken with nothing to
    read."""
    if not FAST_IO or not isinstance(stream, trio.SocketStream):
        return None, lambda: stream.receive_some(65536)
    sock = stream.socket
    fd = sock.fileno()

    async def read() -> bytes | None:
        await trio.lowlevel.wait_readable(sock)
        try:
            return os.read(fd, 65536)
        except BlockingIOError:
            return None

    return (lambda data: os.write(fd, data)), read


class Session:
    """A connected client (see the module docstring)."""

    def __init__(self, stream: trio.abc.Stream, address: str, config: ServerConfig,
                 router: Router, budget: ByteBudget,
                 readdress: Callable[[str, str], bool]) -> None:
        self.router = router
        self.config = config
        self.stream = stream
        #: Where the client is, as every limit per address counts it: the peer's address,
        #: or the one a door vouched for (`move_to`).
        self.address = address
        #: The server's count of connections per address: moves one of `old`'s to `new`,
        #: or says False when `new` has all it may have.
        self._readdress = readdress
        self.number = next(_ids)
        self.conn = Connection(Role.SERVER, max_frame=self.config.max_frame)
        self.name = f"guest-{self.number}"
        #: The protocol version agreed at hello (the Connection has it from the welcome on,
        #: but the lobby needs it before: a seat given back by hello's token is one the
        #: session's version can play).
        self.version = VERSIONS[-1]
        #: The name hello asked for, if it was printable.
        self.asked: str | None = None
        #: Who the client is once it identified ("key:<hex>"); None: a guest.
        self.player: str | None = None
        #: This connection's nonce, which welcome gives and one identify may sign.
        self.nonce = secrets.token_hex(32)
        self._nonce_spent = False
        #: The client said goodbye (bye client_quit) rather than dropping the connection.
        self.quit = False
        self._cancel = trio.CancelScope()
        #: The reader's own scope: the writer ends the reading once the last words are out.
        self._reading = trio.CancelScope()
        self._rate = TokenBucket(self.config.rate, self.config.burst)
        self._chat = TokenBucket(self.config.chat_per_minute / 60, self.config.chat_per_minute / 4)
        #: The session ends: nothing more is queued, and the writer ends once the queue is
        #: written.
        self._closing = False
        #: Bytes made and not yet handed to the stream, in order, counted in `_queued` and
        #: against the server's `_budget` for all clients. When a direct write left part of
        #: a frame, the rest is the first item, and `_partial` says so.
        self._queue: deque[bytes] = deque()
        self._queued = 0
        self._partial = False
        self._budget = budget
        #: The writer is sending a batch: a direct write now would jump the queue.
        self._writing = False
        self._writer_waits = trio.lowlevel.ParkingLot()
        self._direct, self._read = stream_io(stream)
        #: Messages taken from what the last read brought.
        self._burst = 0
        #: When the client was last heard from, once welcomed (None before), and whether
        #: it was pinged since (see keep_alive).
        self._heard: float | None = None
        self._pinged = False

    # ------------------------------------------------------------------ sending

    def send(self, *msgs) -> None:
        """Queue messages (or Frames, or the bytes of one) for the client, in order; never
        blocks. With nothing queued they are written at once, in one write. A client whose
        queue would pass its bound in bytes, or the server's bound for all clients, is told
        `bye slow_consumer` and disconnected."""
        if self._closing:
            return
        data = self._encode(msgs)
        if not data:
            return
        if self._direct is not None and not self._writing and not self._queue:
            data = self._write_now(data)
            if not data:
                return
            self._partial = True  # part of the frame went out: the rest is no longer whole
        elif (self._queued + len(data) > self.config.outbox_bytes
              or not self._budget.fits(len(data))):
            self._slow_consumer()
            return
        self._queue_up(data)

    def _queue_up(self, data: bytes) -> None:
        self._queue.append(data)
        self._queued += len(data)
        self._budget.add(len(data))
        self._writer_waits.unpark()

    def _write_now(self, data: bytes) -> bytes:
        """With nothing queued and the writer idle, write straight to the socket (it is
        non-blocking): no task switch for the common case. Returns what could not be
        written, for the writer to finish."""
        assert self._direct is not None  # send writes now only where it can
        try:
            sent = self._direct(data)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._cancel.cancel()  # the peer is gone; the reader will see it too
            return b""
        return data[sent:]

    def _encode(self, items) -> bytes:
        """The bytes of `items` (messages, Frames, or bytes already made), in order."""
        frames = []
        for item in items:
            if isinstance(item, bytes):
                frames.append(item)
            elif self.conn.state is State.CLOSED:
                break  # the peer is gone or bye was said: the rest is moot
            else:
                try:
                    frames.append(self.conn.send(item))
                except LocalProtocolError as exc:  # our bug: log it, keep the session
                    log.error("local_protocol_error", session=self.number, error=str(exc))
        return frames[0] if len(frames) == 1 else b"".join(frames)

    def _slow_consumer(self) -> None:
        """The client reads too slowly: the frames it has not begun to receive are dropped,
        and its last words take their place (after the rest of a frame it is receiving,
        so that what it reads stays whole)."""
        log.warning("slow_consumer", session=self.number, address=self.address,
                    queued=self._queued)
        keep = self._queue[0] if self._partial and self._queue else b""
        dropped = sum(map(len, self._queue)) - len(keep)
        self._queue.clear()
        if keep:
            self._queue.append(keep)
        self._queued -= dropped
        self._budget.remove(dropped)
        self.close("slow_consumer", "You did not read your messages fast enough.")

    def close(self, reason: str, message: str) -> None:
        """Say bye with `reason` and end the session once it is written, or in 2 seconds
        at the most: a client that does not read cannot hold its session open."""
        if self._closing:
            return
        if self.conn.state is not State.CLOSED:  # else bye or a closing error was said
            self._queue_up(self.conn.send(Bye(reason=reason, message=message)))
        self._end_soon()

    def _end_soon(self) -> None:
        """Nothing more is queued; the session ends once the queue is written, or in 2
        seconds at the most."""
        self._closing = True
        self._cancel.deadline = min(self._cancel.deadline, trio.current_time() + 2)
        self._writer_waits.unpark()

    def spend_nonce(self) -> bool:
        """Use this connection's nonce up; False if an identify used it already."""
        spent, self._nonce_spent = self._nonce_spent, True
        return not spent

    def move_to(self, address: str) -> bool:
        """A door vouched that this connection's player is at `address`: counted there from
        now on. If that address has all the connections it may have, the session is closed
        (too_many_connections) and False returned."""
        if not self._readdress(self.address, address):
            log.warning("refused_connection", session=self.number, address=address)
            self.close("too_many_connections", "Your address has all the connections the "
                       "server allows.")
            return False
        log.info("via", session=self.number, door=self.address, address=address)
        self.address = address
        return True

    def identified(self, player: str, name: str) -> None:
        """The client proved it is `player`, known here as `name`."""
        self.player = player
        self.name = name

    # ------------------------------------------------------------------ running

    async def run(self) -> None:
        """Serve the connection until either side ends it."""
        log.info("connected", session=self.number, address=self.address)
        self._drained = trio.Event()
        try:
            with self._cancel:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._writer)
                    try:
                        with self._reading:
                            await self._reader()
                    except _Closing:
                        pass
                    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                        pass
                    self._end_soon()
                    await self._drained.wait()  # the last words (bye, error), 2 s at most
                    await self._close_gently()
                    nursery.cancel_scope.cancel()
        finally:
            self._budget.remove(self._queued)
            self.router.depart(self)
            with trio.move_on_after(1) as cleanup:
                cleanup.shield = True
                await self.stream.aclose()
            log.info("disconnected", session=self.number, name=self.name)

    async def _writer(self) -> None:
        """Write the queue out until the last words are written (close(), or the reader is
        done); then the session ends at once, whatever the reader is waiting for, as a bye
        promises."""
        queue = self._queue
        try:
            while queue or not self._closing:
                if not queue:
                    await self._writer_waits.park()
                    continue
                # Whatever is queued goes out in one write: one syscall and one wakeup for
                # a burst (a move's acceptance and its update, say).
                batch = [queue.popleft()]
                size = len(batch[0])
                while queue and size < WRITE_CHUNK:
                    batch.append(queue.popleft())
                    size += len(batch[-1])
                self._partial = False
                self._writing = True
                await self.stream.send_all(batch[0] if len(batch) == 1 else b"".join(batch))
                self._writing = False
                self._queued -= size
                self._budget.remove(size)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        finally:
            self._drained.set()
            self._reading.cancel()

    async def _close_gently(self) -> None:
        """Say that nothing more comes, and read what the client still sends until it closes
        its end too, or falls silent for LINGER seconds (within the session's last two): a
        socket closed with input unread is reset, and a reset throws away what the client
        has not read yet, the last words with it."""
        try:
            if isinstance(self.stream, trio.abc.HalfCloseableStream):
                await self.stream.send_eof()
            while True:
                with trio.move_on_after(LINGER):
                    if await self.stream.receive_some(65536):
                        continue
                return
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass

    async def _receive(self):
        """The next message from the client, or None when it closed the connection. Of a
        burst that came in one read, every BURST messages wait for the other tasks to run
        first: 300 clients that each send 40 requests at once must not hold a table's move
        for the time it takes to answer all 12,000, while a few requests sent together
        (three readies, a move and a pong) still reach their table together."""
        while True:
            msg = self.conn.next_message()
            if msg is NEED_DATA:
                data = await self._read()
                if data is not None:
                    self.conn.receive_data(data)
                    self._burst = 0
                continue
            if msg is CONNECTION_CLOSED:
                return None
            self._burst += 1
            if self._burst % BURST == 0:
                await trio.lowlevel.checkpoint()
            return msg

    async def _reader(self) -> None:
        hello = None
        with trio.move_on_after(self.config.handshake_timeout):
            hello = await self._next()
        if hello is None:
            if self.conn.state is State.HANDSHAKE:
                self.send(Error(code="handshake_timeout", message="hello did not come in time."))
            return
        if not self._welcome(hello):
            return
        self._heard = trio.current_time()
        while not self._closing:
            msg = await self._next()
            if msg is None:
                return
            self._dispatch(msg)

    def keep_alive(self, now: float) -> float:
        """Ping the client once it has been silent for the ping interval, and end the
        session (idle_timeout) if it stays silent as long again; returns when to look
        again (math.inf: not before the interval has passed). The server calls this for
        every session (Server.keep_alive): a timer a session, which ran out every interval
        whether the client spoke or not, cost 55-70 µs of the server's CPU a move at
        human pace (benchmarks.capacity, 4,000 connections), a sweep of them all a few."""
        if self._heard is None or self._closing:
            return math.inf
        heard = self._rate.stamp  # the rate limit's clock: when the last message came
        if self._pinged and heard >= self._heard:  # since the ping (the same tick too)
            self._pinged = False
        self._heard = max(self._heard, heard)
        due = self._heard + self.config.ping_interval
        if now < due:
            return due
        if self._pinged:
            self.close("idle_timeout", "Nothing was heard from you for too long.")
            return math.inf
        self._pinged = True
        self._heard = now
        self.send(Ping(id=0))
        return now + self.config.ping_interval

    async def _next(self):
        """The next valid message; protocol errors are answered here (and may close)."""
        while True:
            try:
                return await self._receive()
            except RemoteProtocolError as exc:
                log.info("protocol_error", session=self.number, code=exc.code)
                if exc.closes:  # the Connection is closed already: it sends nothing more,
                    # so the last word goes out as bytes made by the codec alone
                    self.send(encode(Error(code=exc.code, message=exc.message, re=exc.re,
                                           versions=list(VERSIONS)
                                           if exc.code == "unsupported_version" else None)))
                    raise _Closing from None
                self.send(Error(code=exc.code, message=exc.message, re=exc.re))
                if not self._within_rate(exc.re) and self._closing:
                    raise _Closing from None

    def _welcome(self, hello: Hello) -> bool:
        version = choose_version(hello.versions)
        if version is None:
            self.send(Error(code="unsupported_version", versions=list(VERSIONS),
                            message=f"This server speaks versions {list(VERSIONS)}."))
            return False
        self.version = version
        name = None if hello.name is None else name_or_none(hello.name)
        self.asked = name
        self.name = self.router.arrive(self, self.asked or self.name, hello.token)
        self.send(Welcome(version=version, server=self.config.name, name=self.name,
                          max_frame=self.config.max_frame, nonce=self.nonce,
                          server_id=self.router.server_id))
        if hello.name is not None and name is None:
            self.send(Error(code="bad_message", message=f"Names must be printable; you are "
                            f"{self.name}."))
        # A session turned away at its hello (banned) takes up no seat on its way out.
        if hello.token and not self._closing:
            refused = self.router.reconnect(self, hello.token)
            if refused is not None:
                self.send(Error(code=refused.code, message=refused.message))
        log.info("hello", session=self.number, name=self.name, client=hello.client)
        return True

    def _within_rate(self, re: int | None) -> bool:
        """Count one message against the rate limit. Over it, the message is refused with
        rate_limited; far over it (a burst's worth more), the session ends."""
        left = self._rate.take()
        if left >= 0:
            return True
        if left < -self.config.burst:
            self.close("rate_limited", "Too many messages.")
        else:
            self.send(Error(code="rate_limited", message="Too many messages: slow down.", re=re))
        return False

    # ------------------------------------------------------------------ dispatch

    def _dispatch(self, msg) -> None:
        request_id = getattr(msg, "id", None)
        if not self._within_rate(request_id):
            if self._closing:
                raise _Closing
            return
        try:
            kind = msg.TYPE
            if kind == "ping":
                self.send(Pong(re=msg.id))
            elif kind in ("pong", "error"):
                pass
            elif kind == "bye":
                self.quit = True
                raise _Closing
            elif kind == "say" and not self._chat_allowed(msg):
                return
            else:
                self.router.request(self, msg)
        except _Closing:
            raise
        except Exception as exc:  # noqa: BLE001 — one bad request must not end the session
            log.error("request_error", session=self.number, error=repr(exc), exc_info=True)
            self.send(Error(code="internal_error", message="The request failed; nothing "
                            "changed.", re=request_id))

    def _chat_allowed(self, msg) -> bool:
        if not printable(msg.text):
            self.send(Error(code="bad_message", message="Chat must be printable text.",
                            re=msg.id))
            return False
        if self._chat.take() < 0:
            self.send(Error(code="rate_limited", message="You are chatting too fast.",
                            re=msg.id))
            return False
        return True
