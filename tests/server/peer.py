"""A scripted client for server tests: real TCP, the real protocol Connection.

`Peer` connects, says hello, and then offers `send` (fire), `request` (send with an id and
wait for the reply that carries it as `re`), and `expect` (wait for the next message of a
type, keeping the others in `inbox` for later). Every received frame is also recorded raw
in `frames`, so tests can scan exactly what the server sent.
"""

from __future__ import annotations

import itertools
import random

import msgpack
import trio

from engine import View, legal_moves
from protocol import (
    NEED_DATA, CONNECTION_CLOSED, Connection, Hello, MoveRequest, Role,
)

_ids = itertools.count(1)


class Peer:
    def __init__(self, stream: trio.SocketStream, name: str) -> None:
        self.stream = stream
        self.name = name
        self.conn = Connection(Role.CLIENT)
        self.inbox: list = []
        self.frames: list[dict] = []
        self.closed = False
        self.seat: int | None = None
        self.token: str | None = None
        self.view: View | None = None
        self._raw = msgpack.Unpacker(raw=False)

    @classmethod
    async def connect(cls, port: int, name: str = "peer", token: str | None = None,
                      handshake: bool = True) -> Peer:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        peer = cls(stream, name)
        if handshake:
            await peer.send(Hello(versions=[1], client="test/1", name=name, token=token))
            welcome = await peer.expect("welcome")
            peer.name = welcome.name
        return peer

    async def send(self, msg) -> None:
        await self.stream.send_all(self.conn.send(msg))

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
            if msg is not NEED_DATA:
                self._track(msg)
                return msg
            await self._read()

    def _track(self, msg) -> None:
        if msg.TYPE in ("snapshot", "update"):
            self.view = View.from_dict(msg.view)
        elif msg.TYPE == "joined" and msg.seat is not None:
            self.seat, self.token = msg.seat, msg.token

    async def expect(self, kind: str, **fields):
        """The next message of type `kind` (and these field values); others wait in inbox."""
        skipped = []
        try:
            while True:
                msg = await self.next()
                if msg is None:
                    raise AssertionError(f"{self.name}: closed while waiting for {kind}")
                if msg.TYPE == kind and all(getattr(msg, k) == v for k, v in fields.items()):
                    return msg
                skipped.append(msg)
        finally:
            self.inbox[:0] = skipped

    async def request(self, msg):
        """Send a request and return the reply that answers it (by `re`)."""
        await self.send(msg)
        skipped = []
        try:
            while True:
                reply = await self.next()
                if reply is None:
                    raise AssertionError(f"{self.name}: closed while waiting for a reply")
                if getattr(reply, "re", None) == msg.id:
                    return reply
                skipped.append(reply)
        finally:
            self.inbox[:0] = skipped

    async def play_random(self, rng: random.Random, stop=None) -> None:
        """Play random legal moves until the game is over (or `stop(view)` says so)."""
        while True:
            msg = await self.next()
            if msg is None:
                return
            if msg.TYPE not in ("snapshot", "update"):
                continue
            view = self.view
            if view.over or (stop and stop(view)):
                return
            if self.seat is not None and view.seat in view.waiting:
                moves = legal_moves(view, view.seat)
                move = moves[rng.randrange(len(moves))]
                await self.send(MoveRequest(id=next(_ids), state_id=view.state_id,
                                            move=move.to_dict()))

    async def aclose(self) -> None:
        await self.stream.aclose()


def new_id() -> int:
    return next(_ids)
