"""The server: the listener, the connection limits, the lobby, and a clean shutdown.

`Server.serve` runs the `Lobby` and accepts connections within the connection limits,
serving each as a `Session` routed to the lobby, and sweeps every session's pings and idle
timeout with one timer (`keep_alive`). Everything about tables and players is the lobby's;
this module only lets connections in, counts them, keeps them alive, and stops them all.
"""

from __future__ import annotations

import math
from collections import Counter

import trio

from protocol import Bye, Error, encode

from . import log
from .config import ServerConfig
from .doorkey import sharer
from .limits import ByteBudget
from .lobby import Lobby
from .session import Session

#: What clients are told when the server stops, by whether it restarts: (reason, sentence).
GOODBYES = {
    False: ("server_shutdown", "The server is stopping, and its games with it."),
    True: ("server_restart", "The server is restarting, and keeps every seat: connect "
                             "again in a few seconds."),
}


#: Seconds between two sweeps of the sessions' pings, at the most.
KEEP_ALIVE = 1.0


class Server:
    """One server process's state. Run it with `serve` inside a trio nursery."""

    def __init__(self, config: ServerConfig | None = None) -> None:
        self.config = config or ServerConfig()
        self.lobby = Lobby(self.config)
        #: Every connection being served, in its handshake or not.
        self.sessions: set[Session] = set()
        #: Connections by whom they count for (doorkey.sharer: an IPv6 host's /64 is
        #: one, as for every limit per address).
        self.per_address: Counter[str] = Counter()
        #: What is waiting to be written to all clients together, in bytes.
        self.outboxes = ByteBudget(self.config.outbox_total_bytes)
        self._nursery: trio.Nursery | None = None
        #: Shutting down: a connection that still comes in is told so (`goodbye`, what
        #: every client is told) and closed.
        self.stopping = False
        self.goodbye = GOODBYES[False]
        #: The (host, port) actually bound, once serving.
        self.address: tuple[str, int] | None = None

    async def serve(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Listen and serve until cancelled; `task_status.started` gets (host, port)."""
        listeners = await trio.open_tcp_listeners(self.config.port, host=self.config.host)
        sockname = listeners[0].socket.getsockname()
        self.address = (sockname[0], sockname[1])
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            await nursery.start(self.lobby.run)
            await nursery.start(trio.serve_listeners, self._accept, listeners)
            nursery.start_soon(self.keep_alive)
            if self.config.announce:
                from . import announce  # zeroconf is loaded only by a server that announces

                nursery.start_soon(announce.run, self.config.name, self.address, self._counts)
            task_status.started(self.address)

    async def keep_alive(self) -> None:
        """Every session's pings and idle timeouts (Session.keep_alive): a sweep of them
        all when the first of them is due, a quarter of the ping interval (a second at the
        most) after the last sweep at the soonest, so a silent client is pinged at most a
        second late; and at least once an interval, for the sessions begun meanwhile."""
        interval = self.config.ping_interval
        period = min(KEEP_ALIVE, interval / 4)
        while True:
            now = trio.current_time()
            due = min((session.keep_alive(now) for session in list(self.sessions)),
                      default=math.inf)
            await trio.sleep_until(max(now + period, min(due, now + interval)))

    def _counts(self) -> tuple[int, int]:
        """What the announcement says: tables open, players connected."""
        return len(self.lobby.tables), len(self.lobby.sessions)

    async def _accept(self, stream: trio.SocketStream) -> None:
        try:
            address = stream.socket.getpeername()[0]
        except OSError:
            address = "?"
        await self.serve_stream(stream, address)

    async def serve_stream(self, stream: trio.abc.Stream, address: str) -> None:
        """Serve one client on `stream` (from `address`) until it ends, within the limits."""
        if self.stopping:
            reason, message = self.goodbye
            await _turn_away(stream, Bye(reason=reason, message=message))
            return
        key = sharer(address)
        if (len(self.sessions) >= self.config.max_connections
                or self.per_address[key] >= self.config.max_per_address):
            log.warning("refused_connection", address=address)
            await _turn_away(stream, Error(code="too_many_connections",
                                           message="The server has all the connections it "
                                           "allows."))
            return
        session = Session(stream, address, self.config, self.lobby, self.outboxes,
                          self._readdress)
        self.sessions.add(session)
        self.per_address[key] += 1
        try:
            await session.run()
        except Exception as exc:  # noqa: BLE001 — a session's failure is its own
            log.error("session_error", session=session.number, error=repr(exc), exc_info=True)
        finally:
            self.sessions.discard(session)
            self._uncount(sharer(session.address))

    def _readdress(self, old: str, new: str) -> bool:
        """A connection from `old` is a door's, for a player at `new`: counted there
        instead, unless `new` has all the connections it may have (False)."""
        old, new = sharer(old), sharer(new)
        if new != old:
            if self.per_address[new] >= self.config.max_per_address:
                return False
            self._uncount(old)
            self.per_address[new] += 1
        return True

    def _uncount(self, key: str) -> None:
        self.per_address[key] -= 1
        if self.per_address[key] <= 0:
            del self.per_address[key]

    async def shutdown(self, restart: bool = False) -> None:
        """Stop: a `restart` keeps the tables for the next start (if the store can: else it
        is a shutdown) and tells every client to come back; a shutdown ends every table's
        game first and tells them the seats are gone. Clients get a moment, then it stops."""
        restart = restart and self.lobby.keeps_tables
        log.info("shutting_down", sessions=len(self.sessions), tables=len(self.lobby.tables),
                 restart=restart)
        self.stopping = True
        self.goodbye = GOODBYES[restart]
        with trio.move_on_after(2):  # a paused store may never take it: stop anyway
            await (self.lobby.keep_tables() if restart else self.lobby.end_tables())
        for session in list(self.sessions):
            session.close(*self.goodbye)
        with trio.move_on_after(2):
            while self.sessions:  # noqa: ASYNC110 — each session leaves on its own; none signals
                await trio.sleep(0.05)
        if self._nursery is not None:
            self._nursery.cancel_scope.cancel()


async def _turn_away(stream: trio.abc.Stream, last_words) -> None:
    """Say why to a connection that is not served (it may not have said hello yet: these
    words are valid in any state), and close it."""
    with trio.move_on_after(1):
        try:
            await stream.send_all(encode(last_words))
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
    await trio.aclose_forcefully(stream)


async def serve(config: ServerConfig | None = None, *, task_status=trio.TASK_STATUS_IGNORED):
    """The server's one public entry point: serve until cancelled (see Server.serve)."""
    await Server(config).serve(task_status=task_status)
