"""The client's side of a connection, in trio: one object holding the stream and the
protocol Connection, shared by the bot runner and the terminal client.

`Link.open` connects and does the handshake, identifying with the player's key when given one
(client/identity.py), and `Link.reopen` connects again after a drop (trying again after
the pauses of the session's `Backoff`, client/core/policy.py, for as long as the caller
says); `send` writes a
message (from any task); `receive` returns the next message (None when the server closed),
having answered the pings before it, so that no caller has to. Ids for requests come from
`next_id`. Connection failures are turned into `LinkError` with a sentence for people.
Every string a server sends is made safe for a terminal here, before any front end or bot
sees it (protocol.text.shown): no client shows a server's text raw.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable
from dataclasses import fields, replace

import trio

from protocol import (
    CONNECTION_CLOSED, DEFAULT_PORT, Bye, Connection, Error, Hello, Identified, Ok,
    Ping,
    Pong, ProtocolError, Role, State, VERSIONS, Welcome,
)
from protocol.connection import DEFAULT_MAX_FRAME
from protocol.messages import Message
from protocol.text import shown_in

from .core.policy import Backoff
from .identity import Credential, DoorAddress

CLIENT_NAME = "coup-tui/0.1"
#: Seconds one try to take a seat back may take.
REOPEN_TIMEOUT = 5.0


def _shown(msg: Message) -> Message:
    """`msg` with every string in it safe for a terminal (protocol.text.shown): a server's
    names, table names, chat, sentences and codes reach no front end as they were sent."""
    cleaned = {f.name: shown_in(value) for f in fields(msg)
               if (value := getattr(msg, f.name)) is not None}
    if all(cleaned[name] == getattr(msg, name) for name in cleaned):
        return msg
    return replace(msg, **cleaned)


class LinkError(Exception):
    """The connection could not be made or was refused; the message says why, and `code`
    is the server's error code when it refused."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


def parse_address(text: str) -> tuple[str, int]:
    """"host", "host:port" or "[v6]:port" → (host, port)."""
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.lstrip(":")
    elif text.count(":") == 1:
        host, port = text.split(":")
    else:
        host, port = text, ""
    try:
        return host or "127.0.0.1", int(port) if port else DEFAULT_PORT
    except ValueError:
        raise LinkError(f"{text!r} is not HOST or HOST:PORT") from None


class Link:
    """A connected, handshaken client connection."""

    def __init__(self, stream: trio.abc.Stream, max_frame: int = DEFAULT_MAX_FRAME) -> None:
        self.stream = stream
        #: `max_frame`: the largest frame taken from the server; more than 64 KiB only for
        #: a client that asks for long records (get_game's max_frame says as much).
        self.conn = Connection(Role.CLIENT, max_frame=max_frame)
        self._ids = itertools.count(1)
        # Tasks of one connection may send at once (a move while a pong goes out), and a
        # stream allows one sender at a time: frames go out whole, one after the other.
        self._sending = trio.Lock()
        self.welcome: Welcome | None = None
        #: The server's answer to our identify (None: we are a guest).
        self.identified: Identified | None = None
        #: Messages that came while the handshake waited for another: `receive` gives them
        #: first.
        self._early: deque = deque()

    @classmethod
    async def open(cls, host: str, port: int, name: str | None = None,
                   token: str | None = None, timeout: float = 10,
                   max_frame: int = DEFAULT_MAX_FRAME,
                   identity: Credential | None = None,
                   via: DoorAddress | None = None) -> Link:
        """Connect and say hello, taking frames of up to `max_frame` bytes from the server,
        say where the player is (`via`, a door's client) and identify with `identity`, each
        if given and the server asks for one (its welcome has a nonce); LinkError if that
        fails or the server refuses either."""
        try:
            with trio.fail_after(timeout):
                stream = await trio.open_tcp_stream(host, port)
        except (OSError, trio.TooSlowError) as exc:
            cause = exc.__cause__ or exc
            if isinstance(cause, BaseExceptionGroup) and cause.exceptions:
                cause = cause.exceptions[0]
            reason = getattr(cause, "strerror", None) or str(cause) or "timed out"
            raise LinkError(f"cannot connect to {host}:{port}: {reason}") from None
        link = cls(stream, max_frame)
        try:
            await link._handshake(f"{host}:{port}", name, token, timeout, identity, via)
        except BaseException:  # refused, reset, timed out, cancelled: the socket goes too
            await trio.aclose_forcefully(stream)
            raise
        return link

    async def _handshake(self, where: str, name: str | None, token: str | None,
                         timeout: float, identity: Credential | None,
                         via: DoorAddress | None) -> None:
        """Hello, its welcome, and the via and identify the welcome asks for; LinkError if
        not."""
        try:
            with trio.fail_after(timeout):
                await self.send(Hello(versions=list(VERSIONS), client=CLIENT_NAME, name=name,
                                      token=token))
                reply = await self.receive()
        except trio.TooSlowError:
            raise LinkError(f"{where} did not answer hello") from None
        if isinstance(reply, Error):
            raise LinkError(f"{where} refused: {reply.code}: {reply.message}")
        if isinstance(reply, Bye):  # turned away (banned), with its reason's code
            raise LinkError(f"{where} said goodbye: {reply.reason}", reply.reason)
        if not isinstance(reply, Welcome):
            raise LinkError(f"{where} closed the connection")
        self.welcome = reply
        if not (reply.nonce and reply.server_id):
            return
        try:
            with trio.fail_after(timeout):
                # Where first: the seat an identify gives back is then the player's, there.
                if via is not None:
                    answer = await self._ask(via.via(self.next_id(), reply.server_id,
                                                     reply.nonce))
                    if isinstance(answer, Error):
                        raise LinkError("the server refused the door's word for our address: "
                                        f"{answer.code}: {answer.message}", answer.code)
                if identity is not None:
                    await self._identify(identity, reply.server_id, reply.nonce)
        except trio.TooSlowError:
            raise LinkError(f"{where} did not answer identify") from None

    async def _identify(self, identity: Credential, server_id: str, nonce: str) -> None:
        """Prove who we are to the server `server_id` that asked with `nonce`, and wait for
        the answer."""
        msg = await self._ask(identity.identify(self.next_id(), server_id, nonce))
        if isinstance(msg, Error):
            raise LinkError(f"the server refused our identity: {msg.code}: {msg.message}",
                            msg.code)
        self.identified = msg

    async def _ask(self, request):
        """Send `request` and return its answer (its `re` is the request's id); what comes
        meanwhile (a seat given back by its token, say) waits for `receive`."""
        await self.send(request)
        while True:
            # Off the connection, not through receive: that gives back what waits in
            # _early first, and a message set aside here would come round for ever.
            msg = await self._next()
            if msg is None:
                raise LinkError("the server closed the connection")
            if isinstance(msg, Bye):  # turned away: banned, or our address is full
                raise LinkError(f"the server said goodbye: {msg.reason}", msg.reason)
            if isinstance(msg, (Identified, Ok, Error)) and msg.re == request.id:
                return msg
            self._early.append(msg)

    @classmethod
    async def reopen(cls, host: str, port: int, name: str | None,
                     token: Callable[[], str | None] | None, lasting: float,
                     backoff: Backoff, max_frame: int = DEFAULT_MAX_FRAME,
                     identity: Credential | None = None,
                     via: DoorAddress | None = None) -> Link:
        """The connection again, after a drop: opened with the seat's reconnect token (no
        `token` at all: with none, for a client that held no seat), tried after the pauses
        `backoff` says for `lasting` seconds. `token()` is asked before each try (None: the
        seat was given up meanwhile). LinkError when no try is left."""
        backoff.dropped(trio.current_time())
        deadline = trio.current_time() + lasting
        failed: LinkError | None = None
        while True:
            pause = backoff.pause()
            if failed is not None and trio.current_time() + pause > deadline:
                raise failed
            await trio.sleep(pause)
            held = token() if token else None
            if token and held is None:
                raise LinkError("the seat was given up")
            try:
                link = await cls.open(host, port, name, token=held, timeout=REOPEN_TIMEOUT,
                                      max_frame=max_frame, identity=identity, via=via)
            except LinkError as exc:
                failed = exc
                continue
            backoff.connected(trio.current_time())
            return link

    @property
    def name(self) -> str | None:
        """What the server calls us: our identity's name there, else the one welcome gave."""
        if self.identified is not None:
            return self.identified.name
        return self.welcome.name if self.welcome is not None else None

    def next_id(self) -> int:
        return next(self._ids)

    async def send(self, msg: Message) -> None:
        # A server that vanished (killed, say) has closed the connection as far as our end
        # knows once its end of file was read: that is a broken link to reopen, not a bug.
        if self.conn.state is State.CLOSED:
            raise LinkError("the connection closed")
        try:
            async with self._sending:
                await self.stream.send_all(self.conn.send(msg))
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            raise LinkError(f"the connection broke: {exc}") from None

    async def receive(self) -> Message | None:
        """The next message from the server, or None once it closed the connection. Pings
        are answered here and not returned."""
        if self._early:
            return self._early.popleft()
        return await self._next()

    async def _next(self) -> Message | None:
        """The next message off the connection (what `receive` gives when nothing waits in
        `_early`), or None once it closed."""
        while True:
            try:
                msg = self.conn.next_message()
            except ProtocolError as exc:
                if exc.code != "unknown_type":
                    raise LinkError(f"the server broke the protocol: {exc}") from None
                # A message type a newer server sends that this client does not know:
                # dropped, and the connection goes on (PROTOCOL.md, Versioning). A known
                # message it cannot read is a broken server, and ends it.
                continue
            if msg is CONNECTION_CLOSED:
                return None
            if isinstance(msg, Ping):
                await self.send(Pong(re=msg.id))
                continue
            if isinstance(msg, Message):  # else NEED_DATA
                return _shown(msg)
            try:
                data = await self.stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                data = b""
            self.conn.receive_data(data)

    async def aclose(self) -> None:
        with trio.CancelScope(shield=True):
            await self.stream.aclose()
