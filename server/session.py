"""One client connection: the handshake, the reader and writer, limits, and dispatch.

A session serves any trio `Stream` (a TCP socket, TLS, or a memory stream in tests): it reads
frames through the sans-I/O Connection, answers session messages itself (ping, bye), and
hands everything else to its `Router` (the lobby), the only thing above it that it knows.
Everything it writes goes through a bounded outbox drained by its own writer task: a client
that stops reading fills its outbox and is disconnected (slow_consumer), so no table ever
waits for a client. Every error is caught here; nothing a client sends ends the server.
It never imports the lobby or the tables: they call `send` and `close`, and read `name`.
"""

from __future__ import annotations

import itertools
import os
from typing import Callable, Protocol

import trio

from protocol import (
    CONNECTION_CLOSED, NEED_DATA, Bye, Connection, Error, Hello, LocalProtocolError, Ping, Pong,
    RemoteProtocolError, Role, State, VERSIONS, Welcome, choose_version, encode,
)

from . import log
from .config import ServerConfig
from .limits import TokenBucket

_ids = itertools.count(1)


class _Closing(Exception):
    """The session ends now (its reason was already queued to the client)."""


class Router(Protocol):
    """What a session asks of the lobby above it."""

    def arrive(self, session: Session, name: str, token: str | None) -> str:
        """`session` said hello, asking for `name` (with a reconnect `token`): it is in the
        lobby now. Returns the name it has: its seat's if the token is good, else `name` or,
        if that is taken, `name` with a suffix."""

    def reconnect(self, session: Session, token: str) -> bool:
        """Give `session` the seat of `token` back (after its welcome); False if gone."""

    def request(self, session: Session, msg) -> None:
        """A lobby or table request."""

    def depart(self, session: Session) -> None:
        """`session` ended; it sends and receives nothing more."""


def direct_writer(stream: trio.abc.Stream) -> Callable[[bytes], int] | None:
    """A synchronous, non-blocking write for `stream`, where it has one (a TCP socket): the
    common case of a message to a client with nothing queued then costs a system call and
    no task switch. Other streams (TLS, memory) always go through the writer task."""
    if not isinstance(stream, trio.SocketStream):
        return None
    fd = stream.socket.fileno()
    return lambda data: os.write(fd, data)


class Session:
    """A connected client (see the module docstring)."""

    def __init__(self, stream: trio.abc.Stream, address: str, config: ServerConfig,
                 router: Router) -> None:
        self.router = router
        self.config = config
        self.stream = stream
        self.address = address
        self.number = next(_ids)
        self.conn = Connection(Role.SERVER, max_frame=self.config.max_frame)
        self._outbox_send, self._outbox = trio.open_memory_channel[object](self.config.outbox)
        self.name = f"guest-{self.number}"
        self._cancel = trio.CancelScope()
        self._rate = TokenBucket(self.config.rate, self.config.burst)
        self._chat = TokenBucket(self.config.chat_per_minute / 60, self.config.chat_per_minute / 4)
        self._closing = False
        #: The writer is sending a batch, or messages wait in the outbox: a direct write
        #: now would jump the queue.
        self._writing = False
        self._queued = 0
        self._direct = direct_writer(stream)

    # ------------------------------------------------------------------ sending

    def send(self, *msgs) -> None:
        """Queue messages (or Frames, or the bytes of one) for the client, in order; never
        blocks. With nothing queued they are written at once, in one write. A full outbox
        ends the session."""
        if self._closing:
            return
        if (self._direct is not None and not self._writing and not self._queued
                and self.conn.state is not State.CLOSED):
            rest = self._write_now(msgs)
            if not rest:
                return
            msgs = (rest,)
        for msg in msgs:
            try:
                self._outbox_send.send_nowait(msg)
                self._queued += 1
            except trio.WouldBlock:
                log.warning("slow_consumer", session=self.number, address=self.address)
                self._closing = True
                self._cancel.cancel()
                return
            except (trio.ClosedResourceError, trio.BrokenResourceError):
                return

    def _write_now(self, msgs) -> bytes:
        """With nothing queued and the writer idle, write straight to the socket (it is
        non-blocking): no task switch for the common case. Returns what could not be
        written, for the writer to finish."""
        data = self._encode(msgs)
        if not data:
            return data
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

    def close(self, reason: str, message: str) -> None:
        """Say bye with `reason` and end the session once it is written."""
        if self._closing:
            return
        self.send(Bye(reason=reason, message=message))
        self._closing = True
        self._outbox_send.close()

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
                        await self._reader()
                    except _Closing:
                        pass
                    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                        pass
                    self._closing = True
                    self._outbox_send.close()
                    with trio.move_on_after(2):  # let the last words (bye, error) out
                        await self._drained.wait()
                    nursery.cancel_scope.cancel()
        finally:
            self.router.depart(self)
            with trio.move_on_after(1) as cleanup:
                cleanup.shield = True
                await self.stream.aclose()
            log.info("disconnected", session=self.number, name=self.name)

    async def _writer(self) -> None:
        """Write the outbox out. The outbox closes only when the session ends (close(), or
        the reader is done): once its last words (a bye) are written, the session ends at
        once, whatever the reader is waiting for, as a bye promises."""
        outbox = self._outbox
        try:
            async for msg in outbox:
                self._writing = True
                self._queued -= 1
                # Whatever else is queued goes out in the same write: one syscall and one
                # wakeup for a burst (a move's acceptance and its update, say).
                batch = [msg]
                while len(batch) < 64:
                    try:
                        batch.append(outbox.receive_nowait())
                        self._queued -= 1
                    except (trio.WouldBlock, trio.EndOfChannel):
                        break
                frames = self._encode(batch)
                if frames:
                    await self.stream.send_all(frames)
                self._writing = False
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        finally:
            self._drained.set()
            self._cancel.cancel()

    async def _receive(self):
        """The next message from the client, or None when it closed the connection."""
        while True:
            msg = self.conn.next_message()
            if msg is NEED_DATA:
                self.conn.receive_data(await self.stream.receive_some(65536))
                continue
            if msg is CONNECTION_CLOSED:
                return None
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
        interval = self.config.ping_interval
        heard = trio.current_time()
        pinged = False
        while not self._closing:
            # One cancel scope for many messages: it ends `interval` after the last message
            # was heard of when it began, and only silence since then means a ping. The rate
            # limit's clock says when the last message came.
            with trio.move_on_at(heard + interval):
                while not self._closing:
                    msg = await self._next()
                    if msg is None:
                        return
                    pinged = False
                    self._dispatch(msg)
            heard = max(heard, self._rate.stamp)
            if self._closing or trio.current_time() < heard + interval:
                continue
            if pinged:
                self.close("idle_timeout", "Nothing was heard from you for too long.")
                return
            pinged = True
            heard = trio.current_time()
            self.send(Ping(id=0))

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
        name = hello.name
        if name is not None and (not name.isprintable() or not name.strip()):
            name = None
        self.name = self.router.arrive(self, name.strip() if name else self.name, hello.token)
        self.send(Welcome(version=version, server=self.config.name, name=self.name,
                          max_frame=self.config.max_frame))
        if hello.name is not None and name is None:
            self.send(Error(code="bad_message", message=f"Names must be printable; you are "
                            f"{self.name}."))
        if hello.token and not self.router.reconnect(self, hello.token):
            self.send(Error(code="bad_token", message="That seat is no longer yours."))
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
        if not msg.text.isprintable():
            self.send(Error(code="bad_message", message="Chat must be printable text.",
                            re=msg.id))
            return False
        if self._chat.take() < 0:
            self.send(Error(code="rate_limited", message="You are chatting too fast.",
                            re=msg.id))
            return False
        return True
