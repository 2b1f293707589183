"""The recorder: the one writer of the store, and group commit for every table.

Tables hand it their changes with the frames those changes hold (`deliver`), and it sends
the frames once the changes are on the disk: nothing a move changes is shown to anyone
before the move is durable, while the table plays on (a table parked on every move cost
the server about a task step a move). `commit` is for who must wait: it returns once the
changes are on the disk. Its task takes everything that is waiting at once and writes it
in one transaction, so a hundred tables that moved together share one fsync.

The writes run in one thread the recorder owns for as long as it runs (`WriterThread`): a
transaction costs one put on its queue and one wake-up of the loop when it is done, never
a thread started or borrowed. The gathering adapts to the load. A server that is quiet
(hand-overs further apart than BUSY) writes what comes at once: one commit of latency.
Whatever arrives while a commit is on its way to the disk makes the next one. And while
hand-overs come close together, the writer holds a batch until it has COMPANY of them or
its first has waited HOLD: a commit (its fdatasync) costs about the same CPU whatever it
holds, so at human pace, a move every 2 ms, a move written alone paid it alone.

A write that fails (disk full, file locked or unwritable) is tried again, the same batch
first, every few seconds until it succeeds; a write still running after `late` seconds (a
lock held by another program makes SQLite wait 5 s before it fails) is treated alike at
once. Meanwhile `failing` says why, the tables whose changes wait pause (see Table.run),
and so does every table that hands changes over until a write succeeds; then all of them
resume. Nothing is dropped and nothing is reordered. This module must never write from the
loop's own thread, nor send a frame before the changes it shows are on the disk.
"""

from __future__ import annotations

import math
import queue
import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import outcome
import trio

from . import log
from .changes import Change
from .store import Store, StoreError

#: Batches waiting for the writer before `commit` waits for room: about a thousand tables'.
QUEUE = 1024
#: Seconds the first hand-over of a batch may be held for company, while the server is busy.
#: A commit costs ~110 µs of CPU on this project's 2-core VM (its fdatasync: 1 move a commit
#: 119 µs, 4 moves 137 µs; synchronous=NORMAL 13 µs) and a move's frames wait for it.
HOLD = 0.002
#: Hand-overs that end the hold at once. Two: at human pace (800 tables, ~490 moves a second)
#: a hold for 4 nearly always ran out its HOLD and gathered ~2 anyway, so every held move
#: waited it out (latency p50 2.8-3.1 ms) and the loop woke on its timer; ended by the
#: second, the batches are as large, the timer mostly unused, p50 1.3-2.0 ms for the same
#: CPU (benchmarks.capacity, alternated). Busier, a batch grows while the one before is
#: on its way to the disk, whatever this says.
COMPANY = 2
#: The server is busy while hand-overs come this close together, smoothed: another is then
#: likely within HOLD. Quieter, a hand-over is written as it comes.
BUSY = 2 * HOLD
#: The longest gap between two hand-overs the smoothing counts (an idle hour counts as this).
IDLE = 1.0
#: Seconds a write may take before the tables it holds up pause (ServerConfig.late_write).
LATE = 1.0
#: Seconds between two tries of a batch that failed, at first and at most.
RETRY_FIRST = 0.2
RETRY_MOST = 5.0


class Waiting(Protocol):
    """Whose changes they are: told when the store fails them, when it takes them at last,
    and when what they held has been sent."""

    def pause(self, why: str) -> None: ...

    def resume(self) -> None: ...

    def delivered(self) -> None: ...


#: Frames to send once changes are durable: (session, frames) pairs, in order.
Held = list[tuple[Any, tuple]]


#: A batch for the writer thread, and the trio task to wake with how it went.
Job = tuple[list[Change], trio.lowlevel.TrioToken, trio.lowlevel.Task]


class WriterThread:
    """The one thread that runs `write`, a batch at a time, for as long as the recorder
    runs. `write` is awaited from trio: the batch goes on the thread's queue, and the thread
    wakes the waiting task through the trio token with the outcome. A write once begun is
    finished: cancelling the waiting task takes effect only when it is on the disk."""

    def __init__(self, write: Callable[[list[Change]], str | None]) -> None:
        self._do = write
        #: Batches to write, in order; None tells the thread to end.
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="coup-store-writer",
                                        daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            changes, token, task = job
            done = outcome.capture(self._do, changes)  # a bug of ours reaches the task too
            token.run_sync_soon(trio.lowlevel.reschedule, task, done)

    async def write(self, changes: list[Change]) -> str | None:
        """Write `changes` in the thread; why it failed, or None."""
        self._jobs.put((changes, trio.lowlevel.current_trio_token(),
                        trio.lowlevel.current_task()))
        result: str | None = await trio.lowlevel.wait_task_rescheduled(
            lambda _: trio.lowlevel.Abort.FAILED)
        return result

    def stop(self) -> None:
        """End the thread (it is idle: no write is awaited once the recorder stops)."""
        self._jobs.put(None)
        self._thread.join()


class Recorder:
    """Group commit into one Store. Run `run` in a nursery; tables `await commit(...)`."""

    def __init__(self, store: Store, late: float = LATE) -> None:
        self.store = store
        self.late = late
        #: What waits for the writer: (changes, done, waiting, held), QUEUE at the most.
        self._queue: deque[tuple[Sequence[Change], trio.Event | None, Waiting | None, Held]] = (
            deque())
        #: The writer waits here for the queue to fill, and the tables for it to empty.
        self._filled = trio.lowlevel.ParkingLot()
        self._emptied = trio.lowlevel.ParkingLot()
        #: Why the writes wait, while the last one failed or the one running is late; None
        #: when they succeed.
        self.failing: str | None = None
        #: Those told to pause since the last write that succeeded: to be told to resume.
        self._paused: set[Waiting] = set()
        #: The thread that writes, while `run` runs.
        self._writer: WriterThread | None = None
        #: The write under way, if one is (the batch, and when it began), and how many have
        #: begun: the watch (see _watch) tells a late write by them.
        self._writing: tuple[list, float] | None = None
        self._writes = 0
        #: The watch waits here while no write is under way.
        self._began = trio.lowlevel.ParkingLot()
        #: The gap between hand-overs, smoothed, when the last one came, and when the first
        #: of those waiting came: whether (and until when) the writer holds for company.
        self._gap = IDLE
        self._last_put = -math.inf
        self._first_put = 0.0
        #: Hand-overs waiting that wake the writer: 1, or COMPANY while it holds.
        self._wanted = 1

    async def commit(self, changes: Sequence[Change], waiting: Waiting | None = None) -> None:
        """Return once `changes` are on the disk. `waiting` hears if that is delayed by a
        failing store (pause) and when it is done after all (resume)."""
        done = trio.Event()
        await self.room()
        self._put((changes, done, waiting, []))
        await done.wait()

    def has_room(self) -> bool:
        """The queue takes one more hand-over now."""
        return len(self._queue) < QUEUE

    async def room(self) -> None:
        """Return once the queue takes one more hand-over: at once, mostly, and then with
        no checkpoint of its own (a task step less a move)."""
        while len(self._queue) >= QUEUE:
            await self._emptied.park()

    def deliver(self, changes: Sequence[Change], held: Held, waiting: Waiting) -> None:
        """Send the `held` frames once `changes` are on the disk (after everything handed
        over before), then tell `waiting` (delivered); the table plays on while they are
        written. Only when the queue has room (see `room`). While writes fail, `waiting`
        pauses at once: its changes wait behind the failing ones."""
        self._put((changes, None, waiting, held))
        if self.failing is not None:
            self._pause(waiting, self.failing)

    def _put(self, entry: tuple) -> None:
        now = trio.current_time()
        self._gap += (min(IDLE, now - self._last_put) - self._gap) / 4
        self._last_put = now
        if not self._queue:
            self._first_put = now
        self._queue.append(entry)
        if len(self._queue) >= self._wanted:
            self._filled.unpark()

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        writer = self._writer = WriterThread(self._write_or_why)
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._watch)
                task_status.started()
                while True:
                    while not self._queue:
                        await self._filled.park()
                    if self._gap < BUSY and len(self._queue) < COMPANY:
                        await self._company()
                    batch: list = []
                    self._gather(batch)
                    await self._write(batch)
                    for _, done, waiting, held in batch:
                        for session, frames in held:
                            session.send(*frames)
                        if done is not None:
                            done.set()
                        elif waiting is not None:
                            waiting.delivered()
        finally:
            writer.stop()
            self._writer = None

    async def _company(self) -> None:
        """Hold until COMPANY hand-overs wait, or the first of them has waited HOLD."""
        self._wanted = COMPANY
        try:
            with trio.move_on_at(self._first_put + HOLD):
                while len(self._queue) < COMPANY:
                    await self._filled.park()
        finally:
            self._wanted = 1

    def _gather(self, batch: list) -> None:
        """Add to `batch` everything waiting now."""
        batch.extend(self._queue)
        self._queue.clear()
        self._emptied.unpark_all()

    async def _write(self, batch: list) -> None:
        """Write the batch until it succeeds. While it fails, what arrives joins it (after
        it: each table's changes stay in order) and everyone waiting on it is paused; all
        of them resume once it is written."""
        wait = RETRY_FIRST
        while True:
            error = await self._try(batch)
            if error is not None:
                if self.failing != error:
                    log.error("store_failed", error=error, batch=len(batch))
                self._stall(batch, error)
                await trio.sleep(wait)
                wait = min(RETRY_MOST, wait * 2)
                self._gather(batch)
                continue
            if self.failing is not None:
                log.info("store_recovered", batch=len(batch))
                self.failing = None
                for waiting in self._paused:
                    waiting.resume()
                self._paused.clear()
            return

    async def _try(self, batch: list) -> str | None:
        """Write the batch once; why it failed, or None. If it takes over `late` seconds,
        its tables pause meanwhile (see _watch)."""
        assert self._writer is not None  # only `run` writes
        changes = [c for changes, _, _, _ in batch for c in changes]
        self._writes += 1
        self._writing = (batch, trio.current_time())
        if self._began:
            self._began.unpark()
        try:
            return await self._writer.write(changes)
        finally:
            self._writing = None

    def _write_or_why(self, changes: list[Change]) -> str | None:
        try:
            self.store.write(changes)
        except StoreError as exc:
            return str(exc)
        return None

    async def _watch(self) -> None:
        """Stall the tables of a write that has run `late` seconds. One task for every
        write: it sleeps until the one under way would be late, and parks while none is,
        so a busy writer costs it a wake-up a `late`, not one a write."""
        while True:
            if self._writing is None:
                await self._began.park()
                continue
            number = self._writes
            batch, began = self._writing
            await trio.sleep_until(began + self.late)
            if self._writes != number or self._writing is None:
                continue  # that one was written in time
            if self.failing is None:
                log.warning("store_late", seconds=self.late, batch=len(batch))
            self._stall(batch, self.failing or f"its store is late: a write has waited over "
                                               f"{self.late:g} s")
            while self._writes == number:  # that one is stalled once: wait for the next
                await self._began.park()

    def _stall(self, batch: list, why: str) -> None:
        """Writes wait, for `why`: everyone waiting on `batch` pauses."""
        self.failing = why
        for _, _, waiting, _ in batch:
            self._pause(waiting, why)

    def _pause(self, waiting: Waiting | None, why: str) -> None:
        if waiting is not None and waiting not in self._paused:
            self._paused.add(waiting)
            waiting.pause(why)
