"""The server: the listener, the lobby, the registry of tables, and a clean shutdown.

`Server.serve` accepts connections (within the connection limits), runs a Session for each
and a task for each table, and answers lobby requests: list, create, join (by id or private
code). Requests for a table go to that table's inbox. The lobby's table list is pushed to
sessions in the lobby at most a few times a second, whatever the churn.
"""

from __future__ import annotations

import secrets
from collections import Counter

import trio

from protocol import (
    MAX_LISTED, Bye, Chat, Error, Join, Ok, State, Tables, encode, encode_once,
)

from . import log
from .config import ServerConfig
from .session import Session
from .table import DISCONNECT, Refused, Table, fill_options

#: Seconds between two pushes of the table list to the lobby.
LOBBY_PUSH = 0.5


class Server:
    """One server process's state. Run it with `serve` inside a trio nursery."""

    def __init__(self, config: ServerConfig | None = None) -> None:
        self.config = config or ServerConfig()
        self.tables: dict[str, Table] = {}
        self.codes: dict[str, Table] = {}
        self.tokens: dict[str, Table] = {}
        self.sessions: set[Session] = set()
        self.per_address: Counter[str] = Counter()
        self._lobby_dirty = trio.Event()
        self._nursery: trio.Nursery | None = None
        #: Shutting down: a connection that still comes in is told so and closed.
        self.stopping = False
        #: The (host, port) actually bound, once serving.
        self.address: tuple[str, int] | None = None

    # ------------------------------------------------------------------ serving

    async def serve(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Listen and serve until cancelled; `task_status.started` gets (host, port)."""
        listeners = await trio.open_tcp_listeners(self.config.port, host=self.config.host)
        sockname = listeners[0].socket.getsockname()
        self.address = (sockname[0], sockname[1])
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            nursery.start_soon(self._push_lobby)
            await nursery.start(trio.serve_listeners, self._accept, listeners)
            task_status.started(self.address)

    async def _accept(self, stream: trio.SocketStream) -> None:
        try:
            address = stream.socket.getpeername()[0]
        except OSError:
            address = "?"
        if self.stopping:
            await _turn_away(stream, Bye(reason="server_shutdown",
                                         message="The server is stopping."))
            return
        if (len(self.sessions) >= self.config.max_connections
                or self.per_address[address] >= self.config.max_per_address):
            log.warning("refused_connection", address=address)
            await _turn_away(stream, Error(code="too_many_connections",
                                           message="The server has all the connections it "
                                           "allows."))
            return
        session = Session(self, stream, address)
        self.sessions.add(session)
        self.per_address[address] += 1
        try:
            await session.run()
        except Exception as exc:  # noqa: BLE001 — a session's failure is its own
            log.error("session_error", session=session.number, error=repr(exc), exc_info=True)

    def session_ended(self, session: Session) -> None:
        self.sessions.discard(session)
        self.per_address[session.address] -= 1
        if self.per_address[session.address] <= 0:
            del self.per_address[session.address]
        if session.table is not None:
            session.table.submit(session, DISCONNECT)

    async def shutdown(self) -> None:
        """Tell every client the server is stopping, give them a moment, then stop."""
        log.info("shutting_down", sessions=len(self.sessions), tables=len(self.tables))
        self.stopping = True
        for session in list(self.sessions):
            session.close("server_shutdown", "The server is stopping.")
        with trio.move_on_after(2):
            while self.sessions:
                await trio.sleep(0.05)
        if self._nursery is not None:
            self._nursery.cancel_scope.cancel()

    # ------------------------------------------------------------------ requests

    def request(self, session: Session, msg) -> None:
        """A lobby or table request from a session."""
        kind = msg.TYPE
        try:
            if kind == "list_tables":
                session.subscribed = True
                session.send(Tables(tables=self.listing(), re=msg.id))
            elif kind == "create_table":
                self._create(session, msg)
            elif kind == "join":
                self._join(session, msg)
            elif kind == "say" and msg.scope == "lobby":
                self._lobby_chat(session, msg)
            else:  # leave, ready, start, rematch, move, table chat: the table's business
                table = session.table
                if table is None:
                    raise Refused("not_at_table", "You are not at a table.")
                if not table.submit(session, msg):
                    raise Refused("no_such_table", "That table is closing.")
        except Refused as refused:
            session.send(Error(code=refused.code, message=refused.message, re=msg.id))

    def _create(self, session: Session, msg) -> None:
        if session.table is not None:
            raise Refused("already_at_table", "Leave your table first.")
        if len(self.tables) >= self.config.max_tables:
            raise Refused("bad_options", "The server has as many tables as it allows.")
        options = fill_options(msg.options, self.config)
        table_id = secrets.token_hex(3)
        while table_id in self.tables:
            table_id = secrets.token_hex(3)
        table = Table(self, table_id, options, session.name)
        self.tables[table_id] = table
        if table.code:
            self.codes[table.code] = table
        self._nursery.start_soon(table.run)
        table.submit(session, Join(id=msg.id, table=table_id, seat=0))

    def _join(self, session: Session, msg) -> None:
        if session.table is not None:
            raise Refused("already_at_table", "Leave your table first.")
        table = self.tables.get(msg.table) if msg.table else self.codes.get(
            (msg.code or "").upper())
        # A private table is joined with its code only: its id is no secret to its members.
        if table is None or table.closed or (msg.table and table.code):
            raise Refused("no_such_table", "There is no such table.")
        if not table.submit(session, msg):
            raise Refused("no_such_table", "That table is closing.")

    def _lobby_chat(self, session: Session, msg) -> None:
        session.send(Ok(re=msg.id))
        chat = encode_once(Chat(scope="lobby", name=session.name, text=msg.text))
        for other in self.sessions:  # those still in their handshake are not in the lobby yet
            if other.table is None and other.conn.state is State.OPEN:
                other.send(chat)

    # ------------------------------------------------------------------ lobby

    def listing(self) -> list[dict]:
        """The public tables worth listing, tables waiting for players first."""
        public = [t for t in self.tables.values() if t.code is None and not t.closed]
        public.sort(key=lambda t: (t.status != "waiting", t.free_seats == 0, t.id))
        return [t.summary() for t in public[:MAX_LISTED]]

    def lobby_changed(self) -> None:
        self._lobby_dirty.set()

    def table_closed(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        if table.code:
            self.codes.pop(table.code, None)
        self.lobby_changed()

    async def _push_lobby(self) -> None:
        while True:
            await self._lobby_dirty.wait()
            self._lobby_dirty = trio.Event()
            subscribers = [s for s in self.sessions if s.subscribed and s.table is None]
            if subscribers:
                update = encode_once(Tables(tables=self.listing()))
                for session in subscribers:
                    session.send(update)
            await trio.sleep(LOBBY_PUSH)


async def _turn_away(stream: trio.SocketStream, last_words) -> None:
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
