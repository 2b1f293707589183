"""The app's network, in trio: one connection at a time, its reconnects, and an embedded server.

It runs as a trio guest inside Textual's asyncio loop (see app.py), on the same thread as the
UI. The UI calls `start_server`, `connect`, `send` and `disconnect` from its handlers: each
only puts work on a channel, which wakes trio, and never blocks. Trio reports back by posting
the Textual messages of messages.py, and never touches a widget.

A connection is a `Link`, as the bots' (the same protocol code, which answers pings too).
When a connection drops while the player holds a seat, `Link.reopen` takes it back with the
seat's token, trying for as long as the server keeps seats (its grace period), or until the
player gives the seat up; the server then sends the seat back with a fresh snapshot. A
server that said it is stopping, or that gave the seat to a newer connection, is not tried
again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import trio

from protocol import Bye
from server import ServerConfig, StoreError, serve

from ..identity import Credential, DoorAddress
from ..core.policy import FINAL_GOODBYES, RECONNECT_FOR, Backoff
from ..net import Link, LinkError
from . import messages as m

#: The largest frame the app takes from a server: what its get_game asks for, so that a
#: long game's record (past the 64 KiB of every other message) still comes.
RECORD_FRAME = 4 * 1024 * 1024


class Net:
    """The trio side of the app. Run `main` as the guest run's main function."""

    def __init__(self, post: Callable[[object], object],
                 identity: Credential | None, via: DoorAddress | None = None) -> None:
        self.post = post
        #: Who the player is on the servers it connects to (None: a guest).
        self.identity = identity
        #: Where the player is, as the door that started the client vouches.
        self.via = via
        self.scope = trio.CancelScope()
        self._jobs_in, self._jobs = trio.open_memory_channel[Callable](64)
        self._outbox_in, self._outbox = trio.open_memory_channel[object](256)
        self._connection: trio.CancelScope | None = None
        self.link: Link | None = None
        #: The seat's reconnect token, set by the app when it sits down (None: no seat).
        self.token: str | None = None

    async def main(self) -> None:
        with self.scope:
            async with trio.open_nursery() as nursery:
                async for job in self._jobs:
                    nursery.start_soon(self._guarded, job, nursery)

    async def _guarded(self, job, nursery: trio.Nursery) -> None:
        try:
            await job(nursery)
        except Exception as exc:  # noqa: BLE001 — report it; the app stays up
            self.post(m.NetFailed(f"{type(exc).__name__}: {exc}"))

    # ------------------------------------------------------------------ from the UI

    def start_server(self, config: ServerConfig) -> None:
        """Serve in this process; posts ServerStarted or ServerFailed."""
        self._submit(lambda nursery: self._serve(config, nursery))

    def connect(self, host: str, port: int, name: str | None) -> None:
        """Open a connection (closing any other); posts Connected or ConnectFailed."""
        self.token = None
        self._submit(lambda nursery: self._connect(host, port, name))

    def send(self, msg) -> bool:
        """Queue a message for the server; False when not connected or too much is queued."""
        if self.link is None:
            return False
        try:
            self._outbox_in.send_nowait(msg)
            return True
        except (trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
            return False

    def disconnect(self) -> None:
        self.token = None
        if self._connection is not None:
            self._connection.cancel()

    def _submit(self, job) -> None:
        try:
            self._jobs_in.send_nowait(job)
        except (trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
            self.post(m.NetFailed("the network is not running"))

    # ------------------------------------------------------------------ in trio

    async def _serve(self, config: ServerConfig, nursery: trio.Nursery) -> None:
        try:
            try:
                host, port = await nursery.start(serve, config)
            except StoreError:  # another coup of this player's keeps the records now
                host, port = await nursery.start(serve, replace(config, db=None))
        except OSError as exc:
            self.post(m.ServerFailed(exc.strerror or str(exc)))
            return
        self.post(m.ServerStarted(host, port))

    async def _connect(self, host: str, port: int, name: str | None) -> None:
        if self._connection is not None:
            self._connection.cancel()
        with trio.CancelScope() as scope:
            self._connection = scope
            try:
                link = await Link.open(host, port, name, max_frame=RECORD_FRAME,
                                       identity=self.identity, via=self.via)
            except LinkError as exc:
                self.post(m.ConnectFailed(str(exc), exc.code))
                return
            self.post(m.Connected(link.name or name or "", link.welcome.server,
                                  link.identified is not None, _operator(link)))
            reason, backoff = "", Backoff()
            while True:
                reason, said = await self._pump(link)
                # A seat is worth coming back to, and so is a restarting server's lobby.
                if said in FINAL_GOODBYES or (self.token is None and said != "server_restart"):
                    break
                self.post(m.ConnectionLost(reason))
                seat = (lambda: self.token) if self.token is not None else None
                try:
                    link = await Link.reopen(host, port, name, seat,
                                             RECONNECT_FOR, backoff, max_frame=RECORD_FRAME,
                                             identity=self.identity, via=self.via)
                except LinkError:
                    break
                self.post(m.Reconnected(link.name or name or "", link.identified is not None,
                                        _operator(link)))
            self.post(m.Disconnected(reason))
        if self._connection is scope:
            self._connection = None

    async def _pump(self, link: Link) -> tuple[str, str | None]:
        """Carry messages both ways until the connection ends; returns why it ended, and
        the reason of the server's goodbye if it said one."""
        self.link = link
        # Whatever was queued for a broken connection is dropped: moves in it are stale.
        while True:
            try:
                self._outbox.receive_nowait()
            except trio.WouldBlock:
                break
        reason = "the server closed the connection"
        said = None
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._write, link)
                try:
                    while (msg := await link.receive()) is not None:
                        if isinstance(msg, Bye):
                            reason, said = msg.message or msg.reason, msg.reason
                        self.post(m.Received(msg))
                except LinkError as exc:
                    reason = str(exc)
                nursery.cancel_scope.cancel()
        except* LinkError as group:
            reason = str(group.exceptions[0])
        finally:
            self.link = None
            await link.aclose()
        return reason, said

    async def _write(self, link: Link) -> None:
        async for msg in self._outbox:
            await link.send(msg)


def _operator(link: Link) -> bool:
    """The server told us that our key is one of its operators."""
    return link.identified is not None and bool(link.identified.operator)
