"""The app's network, in trio: one connection at a time, and an embedded server.

It runs as a trio guest inside Textual's asyncio loop (see app.py), on the same thread as the
UI. The UI calls `start_server`, `stop_server`, `connect`, `submit` and `disconnect` from
its handlers: each only hands work to trio (a job on a channel, an intent to the
transport's outbox), which wakes trio, and never blocks. Trio reports back by posting the
Textual messages of messages.py, and never touches a widget.

A connection is the one transport loop (client/transport.py) driving a client core
(client/core/), as plain mode's and the bots' are: the core decides what is sent, when to
come back after a drop and with which token. The steps of the core a connection causes are
posted to the app (`CoreStep`) and run there, in order; the core's events go to the app's
`tell` from there, or at once from the handler that submitted an intent; those of a
connection already closed are dropped. Each embedded server runs in a scope of its own, so
that one can be stopped while the app goes on.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import trio
from textual.message import Message

from server import ServerConfig

from ..core import Core
from ..core.events import Event
from ..core.intents import Intent
from ..identity import Credential, DoorAddress
from ..net import Link
from ..transport import Transport, start_server
from . import messages as m

#: The largest frame the app takes from a server: what its get_game asks for, so that a
#: long game's record (past the 64 KiB of every other message) still comes.
RECORD_FRAME = 4 * 1024 * 1024

Job = Callable[[trio.Nursery], Awaitable[None]]


class Net:
    """The trio side of the app. Run `main` as the guest run's main function."""

    def __init__(self, post: Callable[[Message], object],
                 tell: Callable[[Sequence[Event]], object],
                 identity: Credential | None, via: DoorAddress | None = None) -> None:
        self.post = post
        self.tell = tell
        #: Who the player is on the servers it connects to (None: a guest).
        self.identity = identity
        #: Where the player is, as the door that started the client vouches.
        self.via = via
        self.scope = trio.CancelScope()
        self._jobs_in, self._jobs = trio.open_memory_channel[Job](64)
        self._connection: trio.CancelScope | None = None
        #: The scope each embedded server runs in, by the app's name for it: cancelled, the
        #: server stops and its port is free.
        self._servers: dict[str, trio.CancelScope] = {}
        self._fresh()

    async def main(self) -> None:
        with self.scope:
            async with trio.open_nursery() as nursery:
                async for job in self._jobs:
                    nursery.start_soon(self._guarded, job, nursery)

    async def _guarded(self, job: Job, nursery: trio.Nursery) -> None:
        try:
            await job(nursery)
        except Exception as exc:  # noqa: BLE001 — report it; the app stays up
            self.post(m.NetFailed(f"{type(exc).__name__}: {exc}"))

    def _fresh(self) -> None:
        #: What the app knows of the server it is connected to (a fresh one per
        #: connection), and the transport that will drive it.
        core = self.core = Core()
        self.transport = Transport(core, lambda events: self._told(core, events),
                                   identity=self.identity, via=self.via,
                                   max_frame=RECORD_FRAME,
                                   hand=lambda step: self.post(m.CoreStep(step)))

    def _told(self, core: Core, events: Sequence[Event]) -> None:
        # A connection left behind may still run steps it posted before it was closed
        # (a chat line read as the player left): what it tells is of the server left,
        # never for the screens of the next one.
        if core is self.core:
            self.tell(events)

    @property
    def link(self) -> Link | None:
        """The connection up now, if any."""
        return self.transport.link

    # ------------------------------------------------------------------ from the UI

    def start_server(self, kind: str, config: ServerConfig) -> None:
        """Serve in this process, as `kind` (the app's name for it); posts ServerStarted or
        ServerFailed."""
        scope = self._servers[kind] = trio.CancelScope()
        self._submit(lambda _nursery: self._serve(config, scope))

    def stop_server(self, kind: str) -> None:
        """Stop the server started as `kind`: it closes its port and its connections."""
        scope = self._servers.pop(kind, None)
        if scope is not None:
            scope.cancel()

    def connect(self, host: str, port: int, name: str | None) -> None:
        """Open a connection (closing any other), with a fresh core; its first events say
        Connected or ConnectFailed."""
        self.disconnect()
        transport = self.transport
        self._submit(lambda nursery: self._connect(transport, host, port, name))

    def submit(self, intent: Intent) -> int | None:
        """Hand the core what the player wants; the id of the request sent, if one was."""
        return self.transport.submit(intent)

    def disconnect(self) -> None:
        """Off the server: the connection ends, and what was known of it is forgotten."""
        if self._connection is not None:
            self._connection.cancel()
            self._connection = None
        self._fresh()

    def _submit(self, job: Job) -> None:
        try:
            self._jobs_in.send_nowait(job)
        except (trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
            self.post(m.NetFailed("the network is not running"))

    # ------------------------------------------------------------------ in trio

    async def _serve(self, config: ServerConfig, scope: trio.CancelScope) -> None:
        """Run the server in `scope`, until it is cancelled (`stop_server`, or the app
        ending): the job lasts as long as the server."""
        with scope:
            async with trio.open_nursery() as nursery:
                try:
                    host, port = await start_server(nursery, config)
                except OSError as exc:
                    self.post(m.ServerFailed(exc.strerror or str(exc)))
                    return
                self.post(m.ServerStarted(host, port))

    async def _connect(self, transport: Transport, host: str, port: int,
                       name: str | None) -> None:
        if transport is not self.transport:
            return  # disconnected (or another connect) before trio got to it
        with trio.CancelScope() as scope:
            self._connection = scope
            await transport.run(host, port, name)
        if self._connection is scope:
            self._connection = None
