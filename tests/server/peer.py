"""A scripted client for server tests: real TCP, the real protocol Connection.

`Peer` connects, says hello, and then offers `send` (fire), `request` (send with an id and
wait for the reply that carries it as `re`), and `expect` (wait for the next message of a
type, keeping the others in `inbox` for later). Every received frame is also recorded raw
in `frames`, so tests can scan exactly what the server sent. Pings are answered as a
client must (`auto_pong`), unless a test wants a peer that stays silent.
"""

from __future__ import annotations

import itertools
import random
import socket

import msgpack
import trio

from engine import View, legal_moves
from protocol import (
    NEED_DATA, CONNECTION_CLOSED, VERSIONS, Connection, Hello, MoveRequest, Pong, Role,
)

_ids = itertools.count(1)


class Peer:
    def __init__(self, stream: trio.SocketStream, name: str,
                 versions: tuple[int, ...] = VERSIONS) -> None:
        self.stream = stream
        self.name = name
        self.conn = Connection(Role.CLIENT, versions=versions)
        self.inbox: list = []
        self.frames: list[dict] = []
        self.closed = False
        self.seat: int | None = None
        self.token: str | None = None
        self.table: str | None = None
        self.view: View | None = None
        self.auto_pong = True
        #: Seconds from sending each move of play_random to its answer.
        self.latencies: list[float] = []
        self._sent: dict[int, float] = {}
        self._raw = msgpack.Unpacker(raw=False)

    @classmethod
    async def connect(cls, port: int, name: str = "peer", token: str | None = None,
                      handshake: bool = True, source: str | None = None,
                      rcvbuf: int | None = None, versions: tuple[int, ...] = VERSIONS) -> Peer:
        """A peer connected to the server on `port` (from the address `source`, with a
        receive buffer of `rcvbuf` bytes if given), after hello and welcome if `handshake`;
        it speaks the protocol `versions` (an older client's: (1,))."""
        if source is None and rcvbuf is None:
            stream = await trio.open_tcp_stream("127.0.0.1", port)
        else:
            sock = trio.socket.socket()
            try:
                if rcvbuf is not None:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
                if source is not None:
                    await sock.bind((source, 0))
                await sock.connect(("127.0.0.1", port))
            except BaseException:
                sock.close()
                raise
            stream = trio.SocketStream(sock)
        peer = cls(stream, name, versions)
        if handshake:
            await peer.send(Hello(versions=list(versions), client="test/1", name=name,
                                  token=token))
            welcome = await peer.expect("welcome")
            peer.name = welcome.name
        return peer

    async def send(self, msg) -> None:
        await self.stream.send_all(self.conn.send(msg))

    async def send_raw(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def send_map(self, frame: dict) -> None:
        """Send a map as it is, unchecked: for messages the protocol calls invalid."""
        await self.stream.send_all(msgpack.packb(frame, use_bin_type=True))

    async def _read(self) -> bool:
        data = await self.stream.receive_some(65536)
        self._raw.feed(data)
        self.frames.extend(self._raw)
        self.conn.receive_data(data)
        return bool(data)

    async def next(self):
        """The next message from the server (None once it closed)."""
        if self.inbox:
            return self.inbox.pop(0)
        while True:
            msg = self.conn.next_message()
            if msg is CONNECTION_CLOSED:
                self.closed = True
                return None
            if msg is NEED_DATA:
                await self._read()
                continue
            if msg.TYPE == "ping" and self.auto_pong:
                await self.send(Pong(re=msg.id))
                continue
            self._track(msg)
            return msg

    def _track(self, msg) -> None:
        if msg.TYPE in ("move_accepted", "move_rejected", "error") and msg.re in self._sent:
            self.latencies.append(trio.current_time() - self._sent.pop(msg.re))
        elif msg.TYPE in ("snapshot", "update"):
            self.view = View.from_dict(msg.view)
        elif msg.TYPE == "joined":
            self.table = msg.table
            if msg.seat is not None:
                self.seat, self.token = msg.seat, msg.token

    async def expect(self, kind: str, where=None, **fields):
        """The next message of type `kind` with these field values (and `where(msg)` true,
        if given); the others wait in inbox."""
        skipped = []
        try:
            while True:
                msg = await self.next()
                if msg is None:
                    raise AssertionError(f"{self.name}: closed while waiting for {kind}")
                if (msg.TYPE == kind and all(getattr(msg, k) == v for k, v in fields.items())
                        and (where is None or where(msg))):
                    return msg
                skipped.append(msg)
        finally:
            self.inbox[:0] = skipped

    async def request(self, msg):
        """Send a request and return the reply that answers it (by `re`)."""
        await self.send(msg)
        return await self.reply(msg.id)

    async def reply(self, request_id: int):
        """The message that answers request `request_id`; the others wait in inbox."""
        skipped = []
        try:
            while True:
                reply = await self.next()
                if reply is None:
                    raise AssertionError(f"{self.name}: closed while waiting for a reply")
                if getattr(reply, "re", None) == request_id:
                    return reply
                skipped.append(reply)
        finally:
            self.inbox[:0] = skipped

    async def until_closed(self) -> list:
        """Every message until the server has said its last word (bye or a closing error)
        and closed the connection: the socket's end of file, not just the protocol's."""
        got = []
        while True:
            msg = await self.next()
            if msg is None:
                break
            got.append(msg)
        await self.raw_until_closed()
        return got

    async def raw_until_closed(self) -> list[dict]:
        """The raw frames received until the server closes the connection: for peers whose
        Connection cannot follow (no hello sent, or deliberately broken traffic)."""
        try:
            while await self._read():
                pass
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        self.closed = True
        return self.frames

    async def play_random(self, rng: random.Random, stop=None, delay: float = 0) -> None:
        """Play random legal moves until the game is over (or `stop(view)` says so),
        starting from the latest view if there is one; `delay` seconds before each move.

        Like a careful bot, it keeps one move in flight: it moves again on the next view
        after an accepted move, or at once on the latest view after a refused one (after a
        pause if it was rate_limited)."""
        view = self.view
        pending = None
        while True:
            if view is not None:
                if view.over or (stop and stop(view)):
                    return
                if pending is None and view.seat is not None and view.seat in view.waiting:
                    moves = legal_moves(view, view.seat)
                    move = moves[rng.randrange(len(moves))]
                    if delay:
                        await trio.sleep(delay)
                    request = MoveRequest(id=next(_ids), state_id=view.state_id,
                                          move=move.to_dict())
                    self._sent[request.id] = trio.current_time()
                    pending = request.id
                    await self.send(request)
            msg = await self.next()
            if msg is None:
                return
            view = None
            if msg.TYPE in ("snapshot", "update"):
                view = self.view
            elif pending is not None and getattr(msg, "re", None) == pending:
                pending = None
                if msg.TYPE != "move_accepted":  # refused: the latest view still stands
                    if msg.TYPE == "error" and msg.code == "rate_limited":
                        await trio.sleep(0.1)
                    view = self.view

    async def aclose(self) -> None:
        await self.stream.aclose()


def new_id() -> int:
    return next(_ids)
