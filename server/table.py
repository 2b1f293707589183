"""One table: its seats, its game, its clocks and its bots, owned by one trio task.

Everything that changes a table arrives through its inbox, one item at a time (see
server/inbox.py), and is handled by `Table.run`: joins and leaves, ready and start, moves,
rematches, table chat, disconnects and reconnects. So there are no locks, and two moves can
never interleave: the engine's state_id settles which of two simultaneous challenges
counts. Between items the task keeps time: it plays the default move for a seat whose
deadline passed (R10), moves bot seats, and ends the grace of players who did not come
back. A move that comes while the task waits idle for its inbox is handled at once, in the
mover's reader task, just as the table's task would handle it (see `submit`): no hop to
another task a move.

The table decides; its parts keep what it decided. `Seats` (server/seats.py) holds who
sits where and their tokens; `Clocks` (server/clocks.py) the deadlines and bot move times;
server/broadcast.py builds each viewer's own view after every move (R11); the `Handover`
(server/handover.py) holds what the table sends until the store has the changes it shows,
and pauses play while the store cannot take them: its clocks stop and its PLAYS wait, but
everything else is handled, and what shows nothing of the game (answers, chat, seats) is
sent at once. Changes to the table itself (seats, readiness, status) are told once the
items in hand are handled: one `table` message for a burst of them.

A table knows the lobby only as its `TableHost`: it claims and releases the sessions that
sit or watch at it, issues and revokes reconnect tokens, and says when the list of tables
changed. It never sets a field of a session or of the lobby. A tournament's table is given
one more thing, `finish`, that it calls with its game once it is over; it closes then.
"""

from __future__ import annotations

import contextlib
import math
import random
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Protocol

import trio

from engine import (
    ACTIONS, Event, Game, IllegalMove, Move, Options, default_move, summarize, visible_to,
)
from engine import record as records
from engine.bots import Strategy
from engine.position import Position
from protocol import (
    MAX_EARLIER_EVENTS, Chat, CloseTable, CreateTable, Error, Join, Joined, Kick, Leave,
    MoveAccepted, MoveRejected, MoveRequest, Ok, Presence, Ready, Rematch, Say, Snapshot,
    Start, TableInfo,
)
from protocol.codec import encode_once

from . import log
from .broadcast import audience, snapshot, updates
from .changes import (
    GamePlayer, GameResult, MovePlayed, NewGame, NewTable, RatingsMoved, TableClosed,
    TableGone, TableState, Takeover,
)
from .clocks import Clocks
from .config import ServerConfig
from .handover import Handover
from .inbox import (
    PLAYS, Disconnected, End, Item, Matched, Notice, Quit, Reconnect, Request, Reseat,
)
from .options import DEFAULT_BOT
from .ratings import Standing
from .recorder import Recorder
from .refused import Refused
from .seats import Seat, Seats, new_code, token_key
from .session import Session
from .status import TableStatus
from .store import code_key
from .thinking import Thinkers


class TableHost(Protocol):
    """What a table asks of the lobby that keeps the registry."""

    def claim(self, session: Session, table: Table) -> bool:
        """`session` is at `table` from now on; False (and nothing changes) if it is at a
        table already, or has ended."""

    def release(self, session: Session, table: Table) -> None:
        """`session` is at `table` no more: back in the lobby."""

    def issue(self, token: str, table: Table) -> None:
        """The token of hash `token` reconnects to a seat of `table`."""

    def revoke(self, token: str) -> None:
        """The token of hash `token` reconnects to nothing any more."""

    def changed(self) -> None:
        """The list of tables changed (a table's seats, status or spectators)."""

    def operator(self, session: Session) -> bool:
        """`session` is one of the server's operators (it may kick and close anywhere)."""

    @property
    def keeps_tables(self) -> bool:
        """A table the server stops without ending is resumed by its next start."""


class Table:
    """A table and its game. Only `run` (the table's task) changes it; others `submit`."""

    def __init__(self, host: TableHost, config: ServerConfig, thinkers: Thinkers,
                 table_id: str, options: dict, creator: str,
                 recorder: Recorder | None = None, row: int | None = None,
                 position: Position | None = None,
                 finish: Callable[[Table, Game], None] | None = None) -> None:
        """A new table, or with `row` one the store kept, to `restore`; with `position`,
        every game starts from it (see options.fill_options). With `finish`, a tournament's
        table: told its game once it is over, it closes then (see _finish)."""
        self.host = host
        self.finish = finish
        #: Seats whose person left the game in play while the seat was still in it (a
        #: tournament counts them as forfeits).
        self.forsaken: set[int] = set()
        #: Where the table's changes are made durable, if the server keeps records, and the
        #: table's row there.
        self.recorder = recorder
        self.row = row
        self.config = config
        self.thinkers = thinkers
        self.position = position
        self.id = table_id
        #: The table's name, the creator's by default: cut so that it stays within the 32
        #: characters of a name on the wire, and shown in the options like every default.
        self.name = options.get("name") or f"{creator[:24]}'s table"
        self.options = dict(options, name=self.name)
        #: The creator's seat, while the creator holds it: a seat, never a name, for names
        #: are not unique and a seat someone left can be taken by another of that name.
        self.creator_seat: Seat | None = None
        #: A private table's code, while the server knows it in clear: a table resumed
        #: from the store knows only its hash (its members keep the code).
        self.code = new_code() if options["private"] else None
        self.private: bool = options["private"]
        #: How the lobby finds a private table by the code a player types (code_key).
        self.code_hash = code_key(self.code) if self.code else None
        self.seats = Seats.empty(options["seats"])
        self.spectators: set[Session] = set()
        #: Who was removed from this table (kick), by casefolded name and by player id: they
        #: may not sit or watch here again while the table lasts.
        self.barred: set[str] = set()
        self.game: Game | None = None
        #: The game's latest events (for everyone: each snapshot keeps those its viewer may
        #: see), so that whoever arrives mid-game learns what happened; bounded per table.
        self.recent: deque[Event] = deque(maxlen=MAX_EARLIER_EVENTS)
        #: The finished game's summary (engine.summarize), made once when it ends.
        self.game_summary: dict | None = None
        self.status = TableStatus.WAITING
        self.clocks = Clocks(options["turn_clock"], options["response_clock"], config.bot_delay,
                             config.away_clock)
        seed = self.config.seed
        self.rng = random.Random(secrets.randbits(64) if seed is None else seed)
        self.closed = False
        self._inbox_send, self._inbox = trio.open_memory_channel[
            tuple[Session | None, Item]](4096)
        #: The task waits for its inbox, which is empty, under `_parked` (whose deadline is
        #: when it next keeps time): a move may be handled at once (see submit).
        self._idle = False
        self._parked = trio.CancelScope()
        #: The table changed since its members were last told (see _tell_changes).
        self._dirty = False
        #: The game's id in the store, its number at this table, and when it started.
        self.game_id: int | None = None
        self.games = 0
        self.game_started = 0.0
        #: What the game in play will count for ratings, if it is rated (see ratings.py).
        self.standing: Standing | None = None
        #: The changes for the store and the frames they hold, and whether play is paused
        #: because the store cannot take them: no one sees a move before it is durable.
        self.handover = Handover(self.id, recorder)
        #: The PLAYS that came while play was paused, in order: handled when it goes on.
        self._deferred: deque[tuple[Session, Request]] = deque()
        if recorder is not None and row is None:  # a new table: kept from its creation
            self.row = recorder.store.take_table_row()
            self.handover.record(NewTable(self.row, self.id, self.name, self.options,
                                          self.code_hash, self._state(), time.time()))

    # ------------------------------------------------------------------ outside the task

    def submit(self, session: Session | None, item: Item) -> bool:
        """Hand the table a client message or a notice (server/inbox.py), from `session`
        (None for End and Matched, which come from no one); False if the table cannot take
        it now (its inbox is full or it has closed).

        A move that finds the task idle is handled now, in the caller's task, as the task
        would: the task waits with nothing in hand and its inbox empty, so the table is
        between two items, and nothing here awaits. Then the task's wait ends when it must
        next keep time. Other items go through the inbox: they call on the lobby, which may
        be calling here."""
        if (self._idle and isinstance(item, MoveRequest) and not self.handover.paused
                and self.handover.has_room()):
            self._handle(session, item)  # a move seats and unseats no one: none deserts
            self._tell_changes()
            self.handover.hand_over(self)
            wake = self._next_wake()
            wake = -math.inf if self.closed else math.inf if wake is None else wake
            if wake != self._parked.deadline:
                self._parked.deadline = wake
            return True
        try:
            self._inbox_send.send_nowait((session, item))
            self._idle = False
            return True
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            return False

    def summary(self, members: bool = False) -> dict:
        """The table as the lobby lists it (with its private code for those at it)."""
        info = {
            "table": self.id,
            "name": self.name,
            "options": self.options,
            "status": self.status.value,
            "seats": self.seats.info(),
            "spectators": len(self.spectators),
            "creator": self.creator_seat.name if self.creator_seat else None,
        }
        if self.creator_seat is not None:  # absent once the creator has left (PROTOCOL.md)
            info["creator_seat"] = self.creator_seat.index
        if self.game_id is not None:
            info["game"] = self.game_id
        if self.game is not None:
            info["game_rated"] = self.standing is not None
        if members and self.code:
            info["code"] = self.code
        return info

    @property
    def reformation(self) -> bool:
        """The table plays the Reformation expansion (R12)."""
        return bool(self.options.get("reformation", False))

    def restore(self, saved: dict) -> None:
        """Take up the table as the store kept it (Store.open_tables): its code, seats and
        tokens, and its latest game replayed to its last accepted move, the bots told every
        move as they were. Its people are away, with their grace to come back; the decisions
        open get their whole clocks again. Called by the lobby before the task runs."""
        state = saved["state"]
        self.code = None
        self.code_hash = saved["code"]
        self.status = TableStatus(state["status"])
        self.games = state["games"]
        now = trio.current_time()
        self.seats = Seats([Seat.restored(index, kept, now, self.config.grace, self.thinkers.make)
                            for index, kept in enumerate(state["seats"])])
        for seat in self.seats:  # the lobby reads the seat's name back (Seats.name_for)
            if seat.token:
                self.host.issue(seat.token, self)
        if state["creator_seat"] is not None:
            self.creator_seat = self.seats[state["creator_seat"]]
        record = saved["game"]
        if record is None or self.status is TableStatus.WAITING:
            return
        self.game_id = record["game"]
        self.game_started = datetime.fromisoformat(record["started"]).timestamp()
        people = state.get("rated_people")
        standing = Standing({int(seat): p for seat, p in people.items()}) if people else None
        left_after: dict[int, list[int]] = {}
        for takeover in record["takeovers"]:
            left_after.setdefault(takeover["after"], []).append(takeover["seat"])
        for game, events in records.play(record):
            self.recent.extend(events)
            self._tell_bots(game, events)
            if standing is not None:  # what the game counted so far, as it was counted
                played = len(game.history)
                step = record["moves"][played - 1] if played else None
                if step and step["by"] == "player" and step["move"]["kind"] in ACTIONS:
                    standing.turn(step["seat"])
                standing.exiled(game.exiled)
                for index in left_after.get(played, ()):
                    standing.leave(index)
        self.game = game
        self.standing = standing
        if game.over:
            self.game_summary = summarize(game)
        self.clocks.follow(self.game, self.seats, trio.current_time())

    # ------------------------------------------------------------------ the task

    async def run(self) -> None:
        """Handle the inbox and keep the clocks until the table closes. An exception that
        escapes ends this table only: the lobby that runs it tells its members."""
        log.info("table_created", table=self.id, seats=len(self.seats), private=self.private)
        kept = False
        try:
            async with self._inbox:
                while not self.closed:
                    wake = self._next_wake()
                    first = None
                    if self.handover.paused:  # nothing is played; resume wakes it
                        with trio.CancelScope() as self._parked:
                            first = await self._inbox.receive()
                    elif self._deferred:  # what waited out the pause, before anything newer
                        first = self._deferred.popleft()
                    elif wake is None or wake > trio.current_time():
                        with trio.CancelScope(
                                deadline=math.inf if wake is None else wake) as self._parked:
                            self._idle = not self._inbox.statistics().current_buffer_used
                            try:
                                first = await self._inbox.receive()
                            finally:
                                self._idle = False
                    else:  # a move is due now: the others run first, and what came is read
                        await trio.lowlevel.checkpoint()
                        with contextlib.suppress(trio.WouldBlock):
                            first = self._inbox.receive_nowait()
                    if first is not None:
                        self._handle_waiting(first)
                    if not self.closed and not self.handover.paused:
                        await self._keep_time()
                    self._tell_changes()
                    await self.handover.commit(self)
            if self.recorder:  # it closed, by itself or ended by a shutdown: for good
                row = self._store_row()
                await self.recorder.commit([TableClosed(time.time(), row), TableGone(row)])
        except trio.Cancelled:
            kept = self.host.keeps_tables  # the server stops (a restart) without ending it
            raise
        finally:
            self.closed = True
            self._inbox_send.close()
            log.info("table_kept" if kept else "table_closed", table=self.id)

    def _handle_waiting(self, first: tuple[Session | None, Item]) -> None:
        """`first`, then every item already waiting (those a pause deferred first, then the
        inbox's), without a trip through trio's scheduler for each (a move's rivals often
        arrive together). While play is paused, the PLAYS among them wait their turn."""
        session, item = first
        while True:
            if session is not None and self.handover.paused and isinstance(item, PLAYS):
                self._defer(session, item)
            else:
                self._handle(session, item)
            self._close_if_deserted()
            if self.closed:
                return
            if self._deferred and not self.handover.paused:
                session, item = self._deferred.popleft()
                continue
            try:
                session, item = self._inbox.receive_nowait()
            except trio.WouldBlock:
                return

    def _defer(self, session: Session, item: Request) -> None:
        """Keep a PLAY until play goes on: one a session, so that a paused table holds no
        more than one a member however many are sent (a careful client has one in flight)."""
        if any(s is session for s, _ in self._deferred):
            self.handover.say(session, Error(code="too_many_pending", re=item.id, message=(
                "Play is paused and your last request waits for it: wait for its answer.")))
        else:
            self._deferred.append((session, item))

    def _handle(self, session: Session | None, item: Item) -> None:
        """One inbox item; a failure answers the sender and never ends the table."""
        request_id = None if isinstance(item, Notice) else item.id
        try:
            match item:
                case End():
                    self._end()
                    return
                case Matched(players=players):
                    self._seat_queued(players)
                    return
            assert session is not None, "every item but End and Matched comes from a session"
            match item:
                case MoveRequest():  # first: most of what a table handles
                    self._on_move(session, item)
                case Disconnected():
                    self._disconnected(session)
                case Quit() if self.status is not TableStatus.WAITING:
                    self._disconnected(session)  # it may come back, as from a drop
                case Quit():
                    self._leave(session)
                case Reconnect(token=token):
                    self._reconnected(session, token)
                case Reseat(player=player):
                    self._reseated(session, player)
                case CreateTable():
                    self._on_create_table(session, item)
                case Join():
                    self._on_join(session, item)
                case Leave():
                    self._on_leave(session, item)
                case Kick():
                    self._on_kick(session, item)
                case CloseTable():
                    self._on_close_table(session, item)
                case Ready():
                    self._on_ready(session, item)
                case Start():
                    self._on_start(session, item)
                case Rematch():
                    self._on_rematch(session, item)
                case Say():
                    self._on_say(session, item)
        except Refused as refused:
            if session is not None:
                self.handover.say(session, Error(code=refused.code, message=refused.message,
                                                 re=request_id))
        except Exception as exc:  # noqa: BLE001 — one bad request must not end the table
            log.error("table_error", table=self.id, error=repr(exc), exc_info=True)
            if session is not None:
                self.handover.say(session, Error(code="internal_error", re=request_id, message=(
                    "The table failed to handle that request; nothing changed.")))

    # ------------------------------------------------------------------ seats

    def _claim(self, session: Session) -> None:
        # The lobby checked this too, but joins sent back to back all pass its check before
        # the first one is handled by its table: a session must never sit at two.
        if not self.host.claim(session, self):
            raise Refused("already_at_table", "Leave your table first.")

    def _on_create_table(self, session: Session, msg: CreateTable) -> None:
        """The creator takes seat 0, and is the creator for as long as it keeps it."""
        self._claim(session)
        self.creator_seat = self._sit(session, self.seats[0], msg.id)

    def _on_join(self, session: Session, msg: Join) -> None:
        if session.name.casefold() in self.barred or session.player in self.barred:
            raise Refused("not_allowed", "You were removed from this table.")
        if msg.spectate:
            self._claim(session)
            self.spectators.add(session)
            self.handover.say(session, Joined(table=self.id, re=msg.id))
            self._greet(session, None)
            self._changed()
            return
        if self.status is not TableStatus.WAITING:
            raise Refused("game_running", "The game has started: you can spectate.")
        if msg.seat is not None:
            if msg.seat >= len(self.seats):
                raise Refused("seat_taken", f"This table has no seat {msg.seat}.")
            seat = self.seats[msg.seat]
            if seat.name is not None:
                raise Refused("seat_taken", f"Seat {msg.seat} is taken.")
        else:
            free = next((s for s in self.seats if s.name is None), None)
            if free is None:
                raise Refused("table_full", "Every seat is taken.")
            seat = free
        self._claim(session)
        self._sit(session, seat, msg.id)

    def _sit(self, session: Session, seat: Seat, request_id: int | None) -> Seat:
        token, key = seat.sit(session)
        self.host.issue(key, self)
        self.handover.say(session, Joined(table=self.id, re=request_id, seat=seat.index,
                                          token=token, code=self.code))
        self.handover.tell_if_paused(session)
        self._changed()
        log.info("seat_taken", table=self.id, seat=seat.index, name=session.name)
        return seat

    def _seat_queued(self, sessions: Sequence[Session | None]) -> None:
        """The players the queue matched (the lobby claimed them for this table) take the
        first seats, in order, each told `joined` with no `re`; the game starts at once, the
        seats left to the table's bots."""
        for session, seat in zip(sessions, self.seats):
            if session is not None:
                self._sit(session, seat, None)
        self._start()

    def _on_leave(self, session: Session, msg: Leave) -> None:
        self._leave(session)
        self.handover.say(session, Ok(re=msg.id))

    def _leave(self, session: Session) -> None:
        """`session` leaves the table, for the lobby. While the store fails, at once: what
        the table held for it is dropped (its moves and their answers included), and its
        seat's record waits with the table's other changes."""
        if self.handover.stalled():
            self._drop(session)
        if session in self.spectators:
            self.spectators.discard(session)
        else:
            seat = self.seats.of(session)
            if seat is None:
                raise Refused("not_at_table", "You are not at this table.")
            self._vacate(seat, left=True)
        self.host.release(session, self)
        self._changed()

    def _vacate(self, seat: Seat, left: bool) -> None:
        """A person's seat is theirs no more, because they `left` or their grace ended: freed
        before the game; played on by the table's rule for the departed (a bot, or a
        forfeit) once there is one. The others hear it once, before any move it causes:
        "left", or "bot" when a bot takes over at the end of a grace."""
        if seat.token:
            self.host.revoke(seat.token)
        name = seat.name
        seat.unseat()
        if seat is self.creator_seat:
            self.creator_seat = (self.seats.heir(seat) if self.status is TableStatus.WAITING
                                 else None)
        if self.status is TableStatus.WAITING:
            seat.name = None
            self._presence(seat, "left", name)
            return
        game = self._current_game()
        forfeit = self.options["on_disconnect"] == "forfeit"
        if self.status is TableStatus.PLAYING and game.alive[seat.index]:
            self.forsaken.add(seat.index)
        if self.standing is not None and self.status is TableStatus.PLAYING:
            self.standing.leave(seat.index)  # ranked here, whatever the seat does next
        bot = self._seat_bot(seat, self.options.get("bots") or DEFAULT_BOT)
        if self.game_id is not None and self.status is TableStatus.PLAYING:
            self.handover.record(Takeover(game=self.game_id, seat=seat.index, bot=bot.name,
                                          after=len(game.history), ms=self._ms()))
        self._presence(seat, "left" if left or forfeit else "bot", name)
        if self.status is TableStatus.OVER:
            self._rematch_if_asked()
        elif game.alive[seat.index]:
            if forfeit:  # the bot never moves: the seat is out of the game
                self._after_move(game.forfeit(seat.index), "forfeit")
            elif seat.index in game.waiting:  # the others' clocks run on untouched
                self.clocks.bot_takes(seat.index, trio.current_time())

    def _disconnected(self, session: Session) -> None:
        if session in self.spectators:
            self.spectators.discard(session)
            self._changed()
            return
        seat = self.seats.of(session)
        if seat is None:
            return
        seat.session = None
        seat.away_since = trio.current_time()
        seat.grace = (self.config.waiting_grace if self.status is TableStatus.WAITING
                      else self.config.grace)
        if self.status is TableStatus.PLAYING:
            self.clocks.hurry(self._current_game(), seat.index, seat.away_since)
        self._presence(seat, "away", seat.name)
        self._changed()

    def _reconnected(self, session: Session, token: str) -> None:
        seat = self.seats.with_token(token_key(token))
        if seat is None:
            self.handover.say(session, Error(code="bad_token",
                                             message="That seat is no longer yours."))
            return
        self._take_up(session, seat, token)

    def _reseated(self, session: Session, player: str) -> None:
        """An identified session takes its player's seat back, with no token or an old one:
        the seat gets a new token, for this session alone."""
        seat = self.seats.of_player(player)
        if seat is None or seat.session is session:  # gone meanwhile, or back by its token
            return
        self._take_up(session, seat, None)

    def _take_up(self, session: Session, seat: Seat, token: str | None) -> None:
        """`session` is the seat's player again: the one before it is closed, and it gets
        the seat (with `token`, or a new one), the table and the game; the others see it
        here."""
        if not self.host.claim(session, self):
            self.handover.say(session, Error(code="already_at_table",
                                             message="Leave your table first."))
            return
        if token is None:
            if seat.token is not None:  # found by its player: it has one (Seats.of_player)
                self.host.revoke(seat.token)
            token, key = seat.new_token()
            self.host.issue(key, self)
        if seat.session is not None and seat.session is not session:
            seat.session.close("replaced", "Your seat was taken up by a new connection.")
        seat.session = session
        seat.away_since = None
        restarted = (self.status is TableStatus.PLAYING
                     and self.clocks.back(self._current_game(), seat.index, trio.current_time()))
        self.handover.say(session, Joined(table=self.id, seat=seat.index, token=token,
                                          code=self.code))
        self._greet(session, seat.index)
        self._presence(seat, "here", seat.name)
        if restarted:
            self._tell_deadlines(session)
        self._changed()

    def _tell_deadlines(self, returned: Session) -> None:
        """A seat's clock restarted as its player came back: every viewer but that player
        (whose snapshot said so) gets its view again, with no events and the new deadlines."""
        game = self._current_game()
        viewers = [(s, seat) for s, seat in self._audience() if s is not returned]
        for session, update in updates(self.id, game, [], self.clocks.listed(trio.current_time()),
                                       self.game_summary, viewers):
            self.handover.send(session, update)

    def _on_kick(self, session: Session, msg: Kick) -> None:
        """Remove the person called `msg.name` (seated, away or watching): an operator may at
        any time, the creator while the table waits. A seat is freed before the game, and
        played by a bot once it runs (as when a grace ends); the person is back in the
        lobby, told why, and barred from this table."""
        operator = self.host.operator(session)
        if not operator and (self.creator_seat is None or self.seats.of(session)
                             is not self.creator_seat or self.status is not TableStatus.WAITING):
            raise Refused("not_allowed", "Only the table's creator may remove a player, and "
                          "only before the game starts.")
        wanted = msg.name.casefold()
        seat = self.seats.person_named(wanted)
        victim = seat.session if seat else next(
            (s for s in self.spectators if s.name.casefold() == wanted), None)
        if seat is not None:
            name = seat.name
        elif victim is not None:
            name = victim.name
        else:
            raise Refused("no_such_player", f"No one called {msg.name} is at this table.")
        if victim is session:
            raise Refused("not_allowed", "To go, leave the table.")
        self.barred.add(wanted)
        if seat is not None:
            if seat.player is not None:
                self.barred.add(seat.player)
            self._vacate(seat, left=False)
        elif victim is not None:
            self.spectators.discard(victim)
        if victim is not None:
            self.host.release(victim, self)
            if victim.player is not None:
                self.barred.add(victim.player)
            self.handover.send(victim, Error(code="kicked", message=_why(
                f"{session.name} removed you from the table {self.name}: you are in the "
                "lobby.", msg.reason)))
        self._changed()
        self.handover.send(session, Ok(re=msg.id))
        log.info("moderation", act="kick", by=session.name,
                 operator=session.player if operator else None, table=self.id, name=name,
                 reason=msg.reason)

    def _on_close_table(self, session: Session, msg: CloseTable) -> None:
        """An operator ends the table: everyone at it is told, and back in the lobby once
        the task ends; a game in play stays unfinished in the store (no result, unrated)."""
        if not self.host.operator(session):
            raise Refused("not_allowed", "Only the server's operators may close a table.")
        notice = Error(code="table_closed", message=_why(
            f"{session.name} closed the table {self.name}: you are in the lobby.",
            msg.reason))
        for member, _ in self._audience():
            self.handover.send(member, notice)
        self.handover.send(session, Ok(re=msg.id))
        log.info("moderation", act="close", by=session.name, operator=session.player,
                 table=self.id, status=self.status, reason=msg.reason)
        self.closed = True

    def _greet(self, session: Session, seat: int | None) -> None:
        """What a newcomer (or a returning player) needs: the table, whether play is paused,
        and the game if any."""
        self.handover.say(session, TableInfo(info=self.summary(members=True)))
        self.handover.tell_if_paused(session)
        if self.game is not None:
            self.handover.send(session, self._snapshot(seat))

    def _on_ready(self, session: Session, msg: Ready) -> None:
        seat = self._own_seat(session)
        if self.status is not TableStatus.WAITING:
            raise Refused("game_running", "The game has started.")
        seat.ready = msg.ready
        self.handover.send(session, Ok(re=msg.id))
        self._changed()
        humans = self.seats.humans()
        if self.seats.free == 0 and humans and all(s.ready for s in humans):
            self._start()

    def _on_start(self, session: Session, msg: Start) -> None:
        seat = self._own_seat(session)
        if self.status is not TableStatus.WAITING:
            raise Refused("game_running", "The game has started.")
        if seat is not self.creator_seat:
            raise Refused("not_creator", "Only the table's creator can start the game.")
        if not all(s.ready for s in self.seats if s.human and s is not seat):
            raise Refused("not_ready", "Not every seated player is ready.")
        if not self.options.get("bots") and len(self.seats) - self.seats.free < 2:
            raise Refused("no_players", "A game needs at least two players.")
        self.handover.send(session, Ok(re=msg.id))
        self._start()

    def _own_seat(self, session: Session) -> Seat:
        seat = self.seats.of(session)
        if seat is None:
            if session in self.spectators:
                raise Refused("not_seated", "Spectators cannot do that.")
            raise Refused("not_at_table", "You are not at this table.")
        return seat

    # ------------------------------------------------------------------ the game

    def _start(self, first_seat: int | None = None) -> None:
        bots = self.options.get("bots")
        if bots:
            for seat in self.seats:
                if seat.name is None:
                    seat.name = f"{bots} bot {seat.index + 1}"
                    self._seat_bot(seat, bots)
        else:  # play with the seated players only: the table shrinks to them, in order
            self.seats.keep_seated()
            self.options = dict(self.options, seats=len(self.seats))
        options = Options(
            players=len(self.seats),
            variant=self.options["variant"],
            two_player_draft=self.options["two_player_draft"],
            treasury=self.options["treasury"],
            first_seat=first_seat,
            reformation=self.reformation,
        )
        seeded = self.config.seed is not None
        if self.position is not None:
            self.game = self.position.game()
        else:
            self.game = Game.new(options, self.rng.randrange(2**63) if seeded else None)
        self.games += 1
        self.game_started = time.time()
        self.standing = None
        if self.options.get("rated") and self.recorder:
            # Rated between people only: a table of one identity and bots or guests plays
            # unrated, and its summary says so (game_rated false).
            standing = Standing({s.index: s.player for s in self.seats
                                 if s.human and s.player is not None})
            self.standing = standing if standing.counts else None
        if self.recorder:
            self.game_id = self.recorder.store.take_game_id()
            players = [{"seat": s.index, "name": s.name, "bot": s.bot.name if s.bot else None}
                       for s in self.seats]
            self.handover.record(NewGame(
                id=self.game_id, table_row=self._store_row(), number=self.games,
                options=options.to_dict(), seed=str(self.game.seed), players=players,
                started=self.game_started, rated=self.standing is not None))
            # Each seat's player as ratings know it: a server bot counts as its strategy.
            for s in self.seats:
                self.handover.record(GamePlayer(
                    game=self.game_id, seat=s.index, name=s.name,
                    player=f"bot:{s.bot.name}" if s.bot else s.player))
        self.recent.clear()
        if self.position is not None and self.position.history:  # for the log and the bots
            self.recent.extend(self.position.history)
            for seat in self.seats:
                if seat.bot is not None:
                    seat.bot.observe(self.game.view(seat.index), list(self.position.history))
        self.game_summary = None
        self.status = TableStatus.PLAYING
        for seat in self.seats:
            seat.rematch = False
            seat.grace = self.config.grace  # who is away keeps the seat as in any game
        self.clocks.restart()
        self.clocks.follow(self.game, self.seats, trio.current_time())
        self._changed()
        self._tell_changes()  # the table says "playing" before the game's first view
        for session, viewer in self._audience():
            self.handover.send(session, self._snapshot(viewer))
        log.info("game_started", table=self.id, players=options.players,
                 variant=options.variant)

    def _on_move(self, session: Session, msg: MoveRequest) -> None:
        seat = self._own_seat(session)
        game = self.game
        if game is None or self.status is not TableStatus.PLAYING:
            raise Refused("no_game", "There is no game in play at this table.")
        try:
            move = Move.from_dict(msg.move)
            events = game.apply(seat.index, move, msg.state_id)
        except IllegalMove as illegal:
            self.handover.send(session, MoveRejected(
                re=msg.id, code=illegal.code, message=illegal.message, state_id=game.state_id))
            return
        if self.standing is not None and move.kind in ACTIONS:
            self.standing.turn(seat.index)
        self._after_move(events, "player", session,
                         MoveAccepted(re=msg.id, state_id=game.state_id))

    def _play(self, seat: int, move: Move, by: str) -> None:
        """A move the table makes for a seat: a bot's, or a default when a clock ran out."""
        self._after_move(self._current_game().apply(seat, move), by)

    def _after_move(self, events, by: str, mover: Session | None = None,
                    accepted=None) -> None:
        """Every viewer's update after a move (`by` "player", "bot", "clock" or "forfeit"),
        held until the move is durable; the `mover`, who is seated, gets `accepted` (its
        move_accepted) just before its update, in the same write."""
        game = self._current_game()
        if self.game_id is not None:  # the store keeps the game
            moved, move = game.history[-1]
            self.handover.record(MovePlayed(
                game=self.game_id, n=len(game.history) - 1, seat=moved,
                move=move.to_dict() if move else None, state_id=game.state_id - 1,
                ms=self._ms(), by=by))
        self.clocks.follow(game, self.seats, trio.current_time())
        if self.standing is not None:
            self.standing.exiled(game.exiled)
        over = game.over
        if over:
            self.game_summary = summarize(game)
        self.recent.extend(events)
        deadlines = self.clocks.listed(trio.current_time())
        for session, update in updates(self.id, game, events, deadlines, self.game_summary,
                                       self._audience()):
            if session is mover:
                self.handover.send(session, accepted, update)
            else:
                self.handover.send(session, update)
        self._tell_bots(game, events)
        if over:
            self.status = TableStatus.OVER
            if self.game_id is not None:
                self.handover.record(GameResult(finished=time.time(), winner=game.winner,
                                                out=list(game.exiled), id=self.game_id))
                self._rate(self.game_id)
            assert game.winner is not None  # a game is over once it has its winner
            winner = self.seats[game.winner]
            log.info("game_finished", table=self.id, winner=winner.name,
                     moves=len(game.history))
            self._changed()
            if self.finish is not None:
                self._finish(self.finish, game)

    def _finish(self, finish: Callable[[Table, Game], None], game: Game) -> None:
        """A tournament's table: the game's result goes to the tournament, and the table
        closes, its members told after the game's last view and back in the lobby, to be
        seated at their next game there (no rematch: the server schedules every game)."""
        finish(self, game)
        notice = Error(code="game_done", message=f"The game {self.name} is over: you are "
                       "in the lobby, for the tournament's next.")
        for member, _ in self._audience():
            self.handover.send(member, notice)
        self.closed = True

    def _tell_bots(self, game: Game, events: Sequence[Event]) -> None:
        """Each bot seat sees what it may of `events`, while it plays or once the game is
        over: the same at a restart's replay as in play, so that a bot remembers the same."""
        for seat in self.seats:
            if seat.bot is not None and (game.alive[seat.index] or game.over):
                seat.bot.observe(game.view(seat.index), visible_to(events, seat.index))

    def _rate(self, game_id: int) -> None:
        """The finished game `game_id`'s ratings move with its result, if it is rated and
        counts."""
        if self.standing is None:
            return
        won = self._current_game().winner
        assert won is not None  # rated once the game is over
        result = self.standing.result(len(self.seats), won, self.config.rated_min_turns)
        if result is None:
            log.info("game_not_counted", table=self.id, game=game_id,
                     turns=dict(self.standing.turns))
            return
        order, winner = result
        self.handover.record(RatingsMoved(game=game_id, when=time.time(), order=order,
                                          winner=winner))

    def _on_rematch(self, session: Session, msg: Rematch) -> None:
        seat = self._own_seat(session)
        if self.status is not TableStatus.OVER:
            raise Refused("game_not_over", "The game is not over yet.")
        seat.rematch = True
        self.handover.send(session, Ok(re=msg.id))
        self._changed()
        self._rematch_if_asked()

    def _rematch_if_asked(self) -> None:
        """Once every seated person has asked for a rematch (the last one may have asked,
        or left), the next game starts, the winner first (R1.6)."""
        humans = self.seats.humans()
        if self.status is TableStatus.OVER and humans and all(s.rematch for s in humans):
            self._start(first_seat=self._current_game().winner)

    # ------------------------------------------------------------------ time

    async def _keep_time(self) -> None:
        """Play what is due: ended graces, then one move, a bot's or a default for an expired
        clock (R10). One move at a time: the inbox is read between two (a table of bots
        playing with no delay must still answer its members at once)."""
        now = trio.current_time()
        for seat in self.seats:
            if seat.away_since is not None and now >= seat.away_since + seat.grace:
                log.info("grace_over", table=self.id, seat=seat.index, name=seat.name)
                self._vacate(seat, left=False)
                self._changed()
                self._close_if_deserted()
        if self.closed or self.game is None or self.status is not TableStatus.PLAYING:
            return
        due = await self._due_move(now)
        if due is not None:
            self._play(*due)

    def _attended(self) -> bool:
        """Someone is here to see the game: a connected player or a spectator. Bots do not
        play to an empty room: a table whose players are all away waits for them (their
        clocks run on), and closes once their graces end and only bots are left."""
        return bool(self.spectators) or any(s.session is not None for s in self.seats)

    def _next_wake(self) -> float | None:
        """When the task must next keep time; None if nothing is pending."""
        return self.clocks.next_wake(self.seats, self._attended())

    async def _due_move(self, now: float) -> tuple[int, Move, str] | None:
        game = self._current_game()
        bot = self.clocks.bot_due_now(now) if self._attended() else None
        if bot is not None:
            return bot, await self._bot_move(bot), "bot"
        expired = self.clocks.expired(now)
        if expired is not None:
            log.info("clock_expired", table=self.id, seat=expired, phase=game.phase)
            return expired, default_move(game, expired, self.rng), "clock"
        return None

    async def _bot_move(self, seat: int) -> Move:
        """The bot's choice, thought in a worker thread so that a searching strategy never
        holds up the other tables; a strategy that fails plays R10's default instead."""
        game = self._current_game()
        bot = self.seats[seat].bot
        assert bot is not None, "only a bot's seat has a bot move time"
        view = game.view(seat)
        moves = game.legal_moves(seat)
        try:
            move = await self.thinkers.choose(bot, view, moves)
            if move in moves:
                return move
            log.error("bot_illegal_move", table=self.id, seat=seat, move=repr(move))
        except Exception as exc:  # noqa: BLE001 — a strategy's bug must not end the table
            log.error("bot_failed", table=self.id, seat=seat, error=repr(exc), exc_info=True)
        return default_move(game, seat, self.rng)

    # ------------------------------------------------------------------ the store

    def _seat_bot(self, seat: Seat, strategy: str) -> Strategy:
        """A bot of `strategy` takes `seat`, with a seed the store keeps to make it again."""
        seat.bot_seed = self.rng.randrange(2**32)
        seat.bot = self.thinkers.make(strategy, seat.bot_seed)
        return seat.bot

    def _ms(self) -> int:
        """Milliseconds since the game started, as the store times its moves."""
        return max(0, int((time.time() - self.game_started) * 1000))

    def _state(self) -> dict:
        """What the store keeps of the table beyond its options: enough to seat everyone
        again after a restart (tokens as hashes)."""
        return {
            "status": self.status.value,
            "creator_seat": self.creator_seat.index if self.creator_seat else None,
            "games": self.games,
            "seats": self.seats.kept(trio.current_time()),
            # The people a rated game in play counts (its turns and departures are in its
            # record): what a restarted server rates it by.
            "rated_people": self.standing.people if self.standing else None,
        }

    def kept(self) -> TableState:
        """The table's state as the store keeps it, now: what a restart writes as it stops
        (each away seat's grace as it stands then)."""
        return TableState(options=self.options, state=self._state(), row=self._store_row())

    def _store_row(self) -> int:
        """The table's row in the store: only a table that keeps records asks for it."""
        if self.row is None:
            raise RuntimeError(f"table {self.id} keeps no record")
        return self.row

    def _current_game(self) -> Game:
        """The table's game (in play or over): only what follows a start asks for it."""
        if self.game is None:
            raise RuntimeError(f"table {self.id} has had no game")
        return self.game

    def _drop(self, session: Session) -> None:
        """Forget what the table holds for `session`, sent or played: frames waiting for
        the store and PLAYS waiting for the pause to end."""
        self.handover.drop(session)
        self._deferred = deque((s, item) for s, item in self._deferred if s is not session)

    def delivered(self) -> None:
        """The recorder sent what one hand-over held."""
        self.handover.delivered()

    def pause(self, why: str) -> None:
        """The store cannot take this table's changes: its play stops until it can."""
        self.handover.pause(why, [session for session, _ in self._audience()])

    def resume(self) -> None:
        """The store took the changes: the clocks go on from where they stopped."""
        stopped = self.handover.resume([session for session, _ in self._audience()])
        if stopped is not None:
            self._parked.cancel()  # the task plays again, what waited first
            self.clocks.shift(self.seats, stopped)

    # ------------------------------------------------------------------ broadcasting

    def _audience(self) -> Iterator[tuple[Session, int | None]]:
        return audience(self.seats, self.spectators)

    def _snapshot(self, seat: int | None) -> Snapshot:
        return snapshot(self.id, self._current_game(), self.seats,
                        self.clocks.listed(trio.current_time()), self.game_summary, self.recent,
                        seat)

    def _changed(self) -> None:
        """The table changed: its members and the lobby hear of it once the items in hand
        are handled (four players who get ready together cause one table message)."""
        self._dirty = True

    def _tell_changes(self) -> None:
        """Tell the table's members, and the lobby, of the changes not yet told."""
        if not self._dirty:
            return
        self._dirty = False
        if self.recorder:
            self.handover.record(self.kept())
        info = encode_once(TableInfo(info=self.summary(members=True)))
        for session, _ in self._audience():
            self.handover.say(session, info)
        self.host.changed()

    def _presence(self, seat: Seat, status: str, name: str | None) -> None:
        msg = encode_once(Presence(table=self.id, seat=seat.index, status=status, name=name))
        for session, _ in self._audience():
            self.handover.say(session, msg)

    def _end(self) -> None:
        """The server shuts down and ends its games: a game in play is abandoned, with no
        result (so it is never rated), and the table closes (the store marks it so: the next
        start resumes nothing of it, and its tokens are revoked with it)."""
        if self.game is not None and not self.game.over:
            log.info("game_abandoned", table=self.id, game=self.game_id)
        self.closed = True

    def _close_if_deserted(self) -> None:
        """A table with no person left, seated or watching, ends."""
        if not any(s.human for s in self.seats) and not self.spectators:
            self.closed = True

    def _on_say(self, session: Session, msg: Say) -> None:
        seat = self.seats.of(session)
        chat = encode_once(Chat(scope="table", name=session.name, text=msg.text, table=self.id,
                                seat=seat.index if seat else None))
        self.handover.say(session, Ok(re=msg.id))
        for member, _ in self._audience():
            self.handover.say(member, chat)


def _why(sentence: str, reason: str | None) -> str:
    """An act's sentence for the people it acts on, with the reason given, if any."""
    return f"{sentence} Reason: {reason}" if reason else sentence
