"""Broken and hostile servers on loopback, for the clients' tests: each is a trio handler for
`trio.serve_tcp` that counts the connections it took.

`Hangup` closes every connection as soon as it comes. `Scripted` speaks the protocol from a
script its subclasses give. `BadSnapshot` speaks the protocol until it has a client seated:
it answers the handshake (and a hello with a token, a reconnect, with the seat given back),
then every request with `joined` (a seat at table t1) and a snapshot whose per-seat lists
are short (two coin counts at a six-seat table), the frame that crashed the full-screen
client with an IndexError. `AlwaysRestarting` seats every client and says `bye
server_restart` at once, each time.
`HostileThread` runs one in a thread of its own, for a client running in another loop.
"""

from __future__ import annotations

import threading
from functools import partial

import trio

from protocol import (
    CONNECTION_CLOSED, NEED_DATA, Bye, Connection, Hello, Joined, Message, Role, Snapshot,
    Welcome,
)
from tests.protocol.helpers import mid_game_view, seat_infos

TABLE = "t1"
#: What a client says of the short snapshot.
BROKE = ("the server broke the protocol: bad_message: snapshot: view.coins: must have one "
         "entry a seat (6)")


def short_snapshot() -> Snapshot:
    """Seat 0's snapshot of a six-seat game, its coins listed for two seats only."""
    view = mid_game_view()
    view["coins"] = view["coins"][:2]
    return Snapshot(table=TABLE, view=view, players=seat_infos(), deadlines=[])


class Hangup:
    """Accepts each connection and closes it at once."""

    def __init__(self) -> None:
        self.connections = 0

    async def __call__(self, stream: trio.SocketStream) -> None:
        self.connections += 1
        await stream.aclose()


class Scripted:
    """A server that speaks the protocol from a script: `welcome` answers a hello, `answer`
    every other message (each the bytes to send, b"" for none)."""

    def __init__(self) -> None:
        self.connections = 0
        #: Set at each connection.
        self.came = trio.Event()

    async def __call__(self, stream: trio.SocketStream) -> None:
        self.connections += 1
        self.came.set()
        conn = Connection(Role.SERVER)
        try:
            while True:
                msg = conn.next_message()
                if msg is CONNECTION_CLOSED:
                    return
                if msg is NEED_DATA:
                    conn.receive_data(await stream.receive_some(65536))
                elif isinstance(msg, Hello):
                    await stream.send_all(self.welcome(conn, msg))
                elif said := self.answer(conn, msg):
                    await stream.send_all(said)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return
        finally:
            await stream.aclose()

    def welcome(self, conn: Connection, hello: Hello) -> bytes:
        return conn.send(Welcome(version=1, server="hostile"))

    def answer(self, conn: Connection, msg: Message) -> bytes:
        return b""


class BadSnapshot(Scripted):
    """Seats every client that asks anything, then sends the short snapshot."""

    def welcome(self, conn: Connection, hello: Hello) -> bytes:
        welcome = super().welcome(conn, hello)
        if hello.token:  # the seat given back, as a server does after a drop
            welcome += self.seated(conn, Joined(table=TABLE, seat=0, token=hello.token))
        return welcome

    def answer(self, conn: Connection, msg: Message) -> bytes:
        if getattr(msg, "id", None) is None:
            return b""
        return self.seated(conn, Joined(table=TABLE, re=msg.id, seat=0, token="tok" * 8))

    def seated(self, conn: Connection, joined: Joined) -> bytes:
        """What follows the seat: the short snapshot."""
        return conn.send(joined) + conn.send(short_snapshot())


class AlwaysRestarting(BadSnapshot):
    """Seats every client, then says at once that it restarts, on every connection: a
    client that came back at once after each such goodbye would never stop."""

    def seated(self, conn: Connection, joined: Joined) -> bytes:
        return conn.send(joined) + conn.send(Bye(reason="server_restart"))


class HostileThread:
    """A hostile server (`handler`) on a loopback port, in its own thread and trio run."""

    def __init__(self, handler) -> None:
        self.handler = handler
        self.port = 0
        self._token: trio.lowlevel.TrioToken | None = None
        self._scope: trio.CancelScope | None = None
        self._started = threading.Event()
        self._thread = threading.Thread(target=trio.run, args=(self._main,), daemon=True)

    def __enter__(self) -> HostileThread:
        self._thread.start()
        assert self._started.wait(20), "the hostile server did not start"
        return self

    def __exit__(self, *exc) -> None:
        trio.from_thread.run_sync(self._scope.cancel, trio_token=self._token)
        self._thread.join(20)

    async def _main(self) -> None:
        async with trio.open_nursery() as nursery:
            self._scope = nursery.cancel_scope
            listeners = await nursery.start(partial(trio.serve_tcp, host="127.0.0.1"),
                                             self.handler, 0)
            self.port = listeners[0].socket.getsockname()[1]
            self._token = trio.lowlevel.current_trio_token()
            self._started.set()
