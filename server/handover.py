"""A table's hand-over to the store: its changes and the frames they hold, passed to the
recorder, and whether its play is paused because the store cannot take them.

Nothing a move changes is shown before the move is durable: while changes wait (not yet
handed over, or handed over and not yet written), what the table sends waits behind them,
in order, and the recorder sends it once they are on the disk. Frames that show nothing of
the game (answers, chat, seats) are `say`-ed: while the store fails they go at once, for a
paused table still answers everything but moves. This module keeps the buffers and the
pause only: it must never change the table's seats or game, nor decide what to send.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import trio

from protocol import Message, Paused
from protocol.codec import Frame, encode_once

from . import log
from .changes import Change
from .recorder import Held, Recorder, Waiting
from .session import Session

#: What may be sent: a message, or a frame packed once for many.
Sendable = Message | Frame


class Handover:
    """The changes and frames one table has not yet seen written, and its pause."""

    def __init__(self, table_id: str, recorder: Recorder | None) -> None:
        self.table_id = table_id
        self.recorder = recorder
        #: Changes not yet handed to the recorder, and the frames held until they are
        #: durable. `_in_flight`: hand-overs the recorder has not yet delivered; what is
        #: sent meanwhile waits too.
        self._changes: list[Change] = []
        self._held: Held = []
        self._in_flight = 0
        #: What each hand-over in flight holds, oldest first: a player who leaves while the
        #: store fails is answered at once, and gets nothing of the table after that.
        self._handed: deque[Held] = deque()
        #: Frames `say` held (the store had not failed yet): if it fails now, they go at
        #: once as `say` would have sent them, before `paused` (see pause).
        self._said: Held = []
        #: When the store stopped taking this table's changes (its play paused), if it has,
        #: and the notice that says so, for whoever arrives meanwhile.
        self.paused_at: float | None = None
        self._paused_notice: Frame | None = None

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def record(self, change: Change) -> None:
        """`change` goes to the store with the next hand-over."""
        self._changes.append(change)

    def _waits(self) -> bool:
        return bool(self._changes or self._held or self._in_flight)

    def send(self, session: Session, *frames: Sendable) -> None:
        """Send now, or, while changes wait to be durable, once they are (in order)."""
        if self._waits():
            self._held.append((session, frames))
        else:
            session.send(*frames)

    def stalled(self) -> bool:
        """The store fails (or is late), so what the table sends now may wait long."""
        return self.paused or (self.recorder is not None and self.recorder.failing is not None)

    def say(self, session: Session, *frames: Sendable) -> None:
        """Send frames that show nothing of the game (answers, chat, seats): while the store
        fails, at once; else as `send`, in order with the rest."""
        if self.stalled():
            session.send(*frames)
        elif self._waits():
            self._held.append((session, frames))
            self._said.append(self._held[-1])
        else:
            session.send(*frames)

    def has_room(self) -> bool:
        """A hand-over may be made now without waiting for the recorder."""
        return self.recorder is None or self.recorder.has_room()

    async def commit(self, waiting: Waiting) -> None:
        """Hand the changes of the items just handled to the recorder, with the frames they
        hold: it sends those once the changes are durable, and the table plays on meanwhile
        (it waits only while the recorder's queue is full)."""
        if self.recorder is not None and (self._changes or self._held):
            await self.recorder.room()
            self.hand_over(waiting)

    def hand_over(self, waiting: Waiting) -> None:
        """`commit` once the recorder has room (it has, or there is nothing to hand)."""
        if self.recorder is not None and (self._changes or self._held):
            changes, self._changes = self._changes, []
            held, self._held = self._held, []
            self._in_flight += 1
            self._handed.append(held)
            self.recorder.deliver(changes, held, waiting)

    def delivered(self) -> None:
        """The recorder sent what one hand-over held."""
        self._in_flight -= 1
        handed = self._handed.popleft()
        if self._said:  # rarely: only what was said while the store failed
            sent = {id(entry) for entry in handed}
            self._said = [entry for entry in self._said if id(entry) not in sent]

    def drop(self, session: Session) -> None:
        """Forget the frames held for `session`."""
        for held in (self._held, *self._handed):
            held[:] = [entry for entry in held if entry[0] is not session]
        self._said = [entry for entry in self._said if entry[0] is not session]

    def _release_said(self) -> None:
        """Send at once, in order, the frames `say` held before the store failed: a player
        who came back just then gets `joined` and the table before `paused`, not `paused`
        alone."""
        said = {id(entry) for entry in self._said}
        for held in (self._held, *self._handed):
            for entry in held:
                if id(entry) in said:
                    session, frames = entry
                    session.send(*frames)
            held[:] = [entry for entry in held if id(entry) not in said]
        self._said.clear()

    def tell_if_paused(self, session: Session) -> None:
        if self._paused_notice is not None:
            session.send(self._paused_notice)

    def pause(self, why: str, audience: Iterable[Session]) -> bool:
        """The store cannot take this table's changes: its play stops until it can, and
        `audience` is told; False if it was paused already."""
        if self.paused:
            return False
        self.paused_at = trio.current_time()
        log.warning("table_paused", table=self.table_id, error=why)
        self._release_said()
        self._paused_notice = encode_once(Paused(table=self.table_id, paused=True, message=(
            f"The server cannot save this game ({why}): play is paused and the clocks "
            f"are stopped until it can.")))
        for session in audience:
            session.send(self._paused_notice)
        return True

    def resume(self, audience: Iterable[Session]) -> float | None:
        """The store took the changes: `audience` is told play goes on; the seconds play
        stood still, or None if it was not paused."""
        if self.paused_at is None:
            return None
        stopped = trio.current_time() - self.paused_at
        self.paused_at = None
        self._paused_notice = None
        log.info("table_resumed", table=self.table_id, paused=round(stopped, 3))
        notice = encode_once(Paused(table=self.table_id, paused=False, message="Play goes on."))
        for session in audience:
            session.send(notice)
        return stopped
