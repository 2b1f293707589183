"""The one transport loop: a client core (client/core/) driven over a connection, in trio.

A `Transport` opens the link, feeds every message the server sends into the core, writes
what the core says to send, and on a drop asks the core whether and for how long to come
back (reopening with the token the core holds, after its back-off's pauses). The core's
other events go to the front end's `deliver`, a batch per message or intent, in order.
The terminal app, plain mode and the bot runner each run one in their own nursery and
hand it intents with `submit`, which never blocks: it may be called from a Textual handler
on trio's thread (a guest run) as well as from a task.

Every step of the core the connection causes (a message in, the connection up or down)
runs where the front end says (`hand`): at once by default, or, for the terminal app, in
its own message loop, so that what it knows and what its screens show change together;
the steps keep their order either way.

`start_server` is the embedded server every front end starts for `coup play` (and the app
for LAN hosting), written once. This module renders nothing and decides nothing about the
game: the core decides, the front ends speak.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

import trio

from protocol.connection import DEFAULT_MAX_FRAME
from protocol.messages import Message
from server import ServerConfig, StoreError, serve

from .core import Comeback, Core
from .core.events import ConnectFailed, Event, NotConnected, Send
from .core.intents import Intent
from .identity import Credential, DoorAddress
from .net import Link, LinkError

#: A step of the core, to run where the front end says (Transport's `hand`).
Step = Callable[[], object]
#: Messages queued for the server at most: a front end that queues more is told it is not
#: connected rather than kept waiting.
OUTBOX = 256


async def start_server(nursery: trio.Nursery, config: ServerConfig) -> tuple[str, int]:
    """Serve `config` in this process, in `nursery`: (host, port) once it listens. When
    another coup of this player's keeps the records (the store is taken), it serves without
    them. OSError if it cannot listen."""
    try:
        address: tuple[str, int] = await nursery.start(serve, config)
    except StoreError:
        address = await nursery.start(serve, replace(config, db=None))
    return address


class Transport:
    """A client core over one connection at a time; run `run` in a nursery."""

    def __init__(self, core: Core, deliver: Callable[[Sequence[Event]], object], *,
                 identity: Credential | None = None, via: DoorAddress | None = None,
                 max_frame: int = DEFAULT_MAX_FRAME,
                 hand: Callable[[Step], object] | None = None) -> None:
        self.core = core
        self.deliver = deliver
        #: Where the core's steps run (see the module's docstring): at once if None.
        self._hand = hand
        self.identity = identity
        self.via = via
        self.max_frame = max_frame
        self._outbox_in, self._outbox = trio.open_memory_channel[Message](OUTBOX)
        #: Messages queued, and those since written (or dropped with a broken link): what
        #: `flush` waits for.
        self._queued = self._done = 0
        self._wrote = trio.Event()
        #: The connection up now, if any.
        self.link: Link | None = None

    def submit(self, intent: Intent) -> int | None:
        """Hand the core an intent: its messages are queued for the server, its other
        events delivered. The id of the request it sent, if it sent one."""
        return self._handle(self.core.intend(intent))

    def _handle(self, events: Sequence[Event]) -> int | None:
        told: list[Event] = []
        sent: int | None = None
        for event in events:
            if not isinstance(event, Send):
                told.append(event)
                continue
            try:
                self._outbox_in.send_nowait(event.msg)
            except (trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
                told.append(NotConnected())
                continue
            self._queued += 1
            if sent is None:
                sent = getattr(event.msg, "id", None)
        if told:
            self.deliver(told)
        return sent

    def _step(self, step: Step) -> None:
        if self._hand is None:
            step()
        else:
            self._hand(step)

    def received(self, msg: Message) -> None:
        """A message from the server: into the core, and what it says out."""
        self._step(lambda: self._handle(self.core.receive(msg)))

    async def flush(self) -> None:
        """Wait until every message queued so far is written, or dropped with the link: a
        front end about to end (plain mode's quit) lets its last words go first."""
        while self._done < self._queued:
            await self._wrote.wait()

    def _written(self) -> None:
        self._done += 1
        self._wrote.set()
        self._wrote = trio.Event()

    async def run(self, host: str, port: int, name: str | None) -> None:
        """Connect and carry messages until the connection is gone for good (the core's
        `Disconnected` said so), or the first connection failed (`ConnectFailed`)."""
        try:
            link = await Link.open(host, port, name, max_frame=self.max_frame,
                                   identity=self.identity, via=self.via)
        except LinkError as exc:
            failed = ConnectFailed(str(exc), exc.code)
            self._step(lambda: self.deliver([failed]))
            return
        while True:
            self._opened(link, name)
            comeback = await self._closed(await self._pump(link))
            if comeback is None:
                return
            token = (lambda: self.core.token) if comeback.seated else None
            try:
                link = await Link.reopen(host, port, name, token,
                                         comeback.lasting, self.core.backoff,
                                         max_frame=self.max_frame, identity=self.identity,
                                         via=self.via)
            except LinkError as exc:
                self._step(partial(self._gave_up, str(exc)))
                return

    def _opened(self, link: Link, name: str | None) -> None:
        identified = link.identified
        assert link.welcome is not None  # Link.open returns only after the welcome
        server, now = link.welcome.server, trio.current_time()
        self._step(lambda: self._handle(self.core.opened(
            link.name or name or "", server, identified is not None,
            identified is not None and bool(identified.operator), now,
            identified.table if identified is not None else None, name)))

    def _gave_up(self, why: str) -> None:
        self._handle(self.core.gave_up(why))

    async def _closed(self, reason: str | None) -> Comeback | None:
        """The core hears that the connection ended (after every message it brought): how
        to come back, as it says."""
        decided: list[Comeback | None] = []
        done = trio.Event()

        def step() -> None:
            # What was queued for the broken connection is dropped (moves in it are stale),
            # as the core stops queueing.
            while True:
                try:
                    self._outbox.receive_nowait()
                except trio.WouldBlock:
                    break
                self._written()
            events, comeback = self.core.closed(reason)
            decided.append(comeback)
            self._handle(events)
            done.set()

        self._step(step)
        await done.wait()
        return decided[0]

    async def _pump(self, link: Link) -> str | None:
        """Carry messages both ways until the connection ends; why it ended (None: the
        server closed it)."""
        reason: str | None = None
        self.link = link
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._write, link)
                try:
                    while (msg := await link.receive()) is not None:
                        self.received(msg)
                except LinkError as exc:
                    reason = str(exc)
                nursery.cancel_scope.cancel()
        except* LinkError as group:
            reason = str(group.exceptions[0])
        finally:
            self.link = None
            await link.aclose()
        return reason

    async def _write(self, link: Link) -> None:
        async for msg in self._outbox:
            try:
                await link.send(msg)
            finally:
                # Written, or lost with the link (the send failed, or was cancelled as the
                # link ended): either way `flush` must not wait for it any longer.
                self._written()
