"""The bot runner: plays any strategy over TCP, as `coup bot` does.

It connects, says hello and identifies with its key if it has one (client/identity.py: a bot
restarted with its key gets its seat back, with no token); finds a table (by id or by the
name the lobby shows, by private code, by creating one, by waiting in the server's
quick-play queue, or else the first public table waiting with a free seat, the server
listing them oldest first); says ready; and then answers every decision its seat owes with
the strategy's choice. The strategy thinks in a task of its own, in a worker thread (see
mind.py: never two calls of it at once), while the connection is read on: a decision that
closes meanwhile is no longer waited for. If the strategy is still thinking close to the
decision's deadline, the runner sends a safe default (the one R10 would play) and says so in
the log. After each game it asks for a rematch until it has played the games it was asked
for (from the queue: it leaves the table and queues again, for a new rated table). A dropped
connection is re-opened with the seat's token, and play goes on from the fresh snapshot (a
move sent on the broken link is made again if the snapshot still asks for it: it may have
been lost with the link), unless the server said it is stopping, gave the seat to a newer
connection, or no longer has the seat: then the runner stops (Dismissed). A connection that
drops while the runner waits in the queue (which forgets it) is opened again and queues again.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import trio

from engine import Event, Move, View, default_move, legal_moves
from engine.bots import Strategy
from protocol import (
    MAX_LISTED, CreateTable, Error, Join, Leave, ListTables, MoveRequest, Queue, Ready, Rematch,
)

from .identity import Identity
from .mind import Mind
from .core.policy import FINAL_GOODBYES, Backoff
from .net import Link, LinkError

log = logging.getLogger("coup.bot")

#: Seconds kept in hand before a deadline: the move must reach the server in time.
MARGIN = 1.0


def _listed(tables: list[dict]) -> str:
    """The tables as "Name (id)", for a message."""
    return ", ".join(f"{t['name']} ({t['table']})" for t in tables)


class Dismissed(LinkError):
    """The seat is gone for good: the server said a goodbye that a reconnect cannot undo
    (FINAL_GOODBYES), refused the seat's token when the runner came back, or will not let
    it queue."""


@dataclass
class Seating:
    """How the runner finds its table: one of table (an id, or a public table's name),
    code, create (seats), queue (the seats wanted: a number, or a range {"min", "max"}), or
    none."""

    table: str | None = None
    code: str | None = None
    create: int | None = None
    queue: int | dict | None = None


@dataclass
class _Answer:
    """The runner's answer to the open decision, as far as one link and one game know it
    (each `_play` starts a new one): a move sent on a link that broke may have been lost with
    it, so the next link decides again from its snapshot instead of waiting for an answer."""

    decision: int | None = None  #: the decision it answers (its View.opened)
    move_id: int | None = None  #: the request id of the move sent for it
    #: Cancelled when the decision closes before the strategy has chosen.
    thinking: trio.CancelScope = field(default_factory=trio.CancelScope)


class BotRunner:
    """One bot seat played over the network."""

    # For the duration of `run`: the strategy's thread, and the nursery of its thinking.
    _mind: Mind
    _tasks: trio.Nursery

    def __init__(self, host: str, port: int, strategy: Strategy, *, name: str | None = None,
                 seating: Seating | None = None, games: int = 1,
                 reconnect_for: float = 120.0, identity: Identity | None = None) -> None:
        self.host = host
        self.port = port
        self.strategy = strategy
        self.name = name or f"{strategy.name}-bot"
        self.seating = seating or Seating()
        self.games = games
        self.reconnect_for = reconnect_for
        #: Who the bot is on servers (None: a guest, unrated).
        self.identity = identity
        self.played = 0
        self.wins = 0
        self.token: str | None = None
        self.table: str | None = None
        self.view: View | None = None
        self._fallback = random.Random()

    async def run(self) -> int:
        """Play until `games` games are over; returns how many this seat won."""
        self._mind = Mind()
        try:
            async with trio.open_nursery() as nursery:
                self._tasks = nursery
                nursery.start_soon(self._mind.serve)
                try:
                    await self._play_games()
                finally:
                    self._mind.close()  # the strategy hears the last news, then its thread ends
        except BaseExceptionGroup as group:
            # The one error that ended the run is the run's error (LinkError, Dismissed, a
            # strategy's own), not the nursery's group of it.
            if len(group.exceptions) == 1:
                raise group.exceptions[0] from None
            raise
        return self.wins

    async def _play_games(self) -> None:
        link = await Link.open(self.host, self.port, self.name, identity=self.identity)
        self.name = link.name or self.name
        backoff = Backoff()
        try:
            if link.identified and link.identified.table:
                await self._seated(link, "given back")
            elif not self.seating.queue:
                await self._find_table(link)
            while self.played < self.games:
                try:
                    if self.token is None:  # from the queue, and no seat yet
                        await self._queue(link)
                    await self._play(link)
                    if self.seating.queue and self.played < self.games:
                        await self._leave(link)
                        self.table = self.token = None
                except Dismissed:
                    raise
                except LinkError as exc:
                    log.warning("%s: %s; reconnecting", self.name, exc)
                    await link.aclose()
                    # With a seat, its token takes it back; with none (waiting in the queue,
                    # which forgets a connection that drops), a new connection queues again.
                    seated = self.token is not None
                    link = await Link.reopen(self.host, self.port, self.name,
                                             (lambda: self.token) if seated else None,
                                             self.reconnect_for, backoff,
                                             identity=self.identity)
                    if not seated and link.identified and link.identified.table:
                        await self._seated(link, "given back")  # the queue seated us meanwhile
            await link.send(Leave(id=link.next_id()))
        finally:
            await link.aclose()

    # ------------------------------------------------------------------ the lobby

    async def _find_table(self, link: Link) -> None:
        """Sit at the table the seating asks for (not from the queue: see _queue)."""
        seating = self.seating
        if seating.create:
            request = CreateTable(id=link.next_id(), options={"seats": seating.create})
        elif seating.table:
            request = Join(id=link.next_id(), table=await self._table_named(link,
                                                                            seating.table))
        elif seating.code:
            request = Join(id=link.next_id(), code=seating.code)
        else:
            request = Join(id=link.next_id(), table=await self._wait_for_table(link))
        await link.send(request)
        while True:
            msg = await self._receive(link)
            if msg.TYPE == "joined" and msg.re == request.id:
                self.table, self.token = msg.table, msg.token
                log.info("%s: seat %s at table %s", self.name, msg.seat, msg.table)
                break
            if msg.TYPE == "error" and msg.re == request.id:
                raise LinkError(f"could not sit: {msg.code}: {msg.message}")
        await link.send(Ready(id=link.next_id()))

    async def _ask(self, link: Link, request: Callable[[int], object]):
        """Send the request `request(id)` makes and return its answer (what comes before
        it passes by); one the server rate-limits is asked again after a pause."""
        while True:
            sent = request(link.next_id())
            await link.send(sent)
            msg = await self._receive(link)
            while getattr(msg, "re", None) != sent.id:
                msg = await self._receive(link)
            if not (isinstance(msg, Error) and msg.code == "rate_limited"):
                return msg
            await trio.sleep(0.5)  # the server asked us to slow down: ask again

    async def _leave(self, link: Link) -> None:
        """Leave the table, and wait until the server says so: the table lets us go in its
        own time, and a queue request that arrives before is refused (already_at_table)."""
        await self._ask(link, lambda id: Leave(id=id))

    async def _queue(self, link: Link) -> None:
        """Wait in the quick-play queue until the server seats us at a table it formed (the
        game starts at once: no ready to say)."""
        answer = await self._ask(link, lambda id: Queue(id=id, seats=self.seating.queue))
        if answer.TYPE == "error":  # the server will not seat us: asking again will not help
            raise Dismissed(f"could not queue: {answer.code}: {answer.message}")
        log.info("%s: queued, %d waiting", self.name, answer.waiting)
        await self._seated(link, "from the queue")

    async def _seated(self, link: Link, how: str) -> None:
        """Wait for the seat the server gives us unasked (a `joined` with no `re`): one the
        queue formed, or ours given back when the server knew us by our key (a bot
        restarted mid-game plays on from it)."""
        while True:
            msg = await self._receive(link)
            if msg.TYPE == "joined" and msg.re is None:
                self.table, self.token = msg.table, msg.token
                log.info("%s: seat %s at table %s %s", self.name, msg.seat, msg.table, how)
                return

    async def _table_named(self, link: Link, wanted: str) -> str:
        """The id of the table `wanted` names: a table with that id, else the one public
        table with that name (in any case). Several of that name, or none, is a LinkError
        that says which ids there are; a table the list does not show (the list holds the
        oldest tables only) is tried as an id."""
        tables = await self._tables(link)
        if any(t["table"] == wanted for t in tables):
            return wanted
        named = [t["table"] for t in tables if t["name"].casefold() == wanted.casefold()]
        if len(named) == 1:
            return named[0]
        if named:
            raise LinkError(f"{len(named)} tables are named {wanted!r}: "
                            f"{', '.join(named)}; give --table one of these ids")
        if len(tables) < MAX_LISTED:
            raise LinkError(f"no table has the id or name {wanted!r}"
                            + (f"; the tables are {_listed(tables)}" if tables else ""))
        return wanted

    async def _tables(self, link: Link) -> list[dict]:
        """The public tables, as the server lists them now."""
        request = ListTables(id=link.next_id())
        await link.send(request)
        while True:
            msg = await self._receive(link)
            if msg.TYPE == "tables" and msg.re == request.id:
                return msg.tables

    async def _wait_for_table(self, link: Link) -> str:
        """The first public table waiting for players with a free seat (waits for one)."""
        await link.send(ListTables(id=link.next_id()))
        while True:
            msg = await self._receive(link)
            if msg.TYPE != "tables":
                continue
            for table in msg.tables:
                if table["status"] == "waiting" and any(
                    s["name"] is None for s in table["seats"]
                ):
                    return table["table"]

    async def _receive(self, link: Link):
        msg = await link.receive()
        if msg is None:
            raise LinkError("the server closed the connection")
        if msg.TYPE == "bye":
            said = f"the server said goodbye ({msg.reason})"
            if msg.message:
                said += f": {msg.message}"
            if msg.reason in FINAL_GOODBYES:
                raise Dismissed(said)
            raise LinkError(said)
        if isinstance(msg, Error) and msg.code == "bad_token":
            # The seat was played out by a bot or its table closed while we were away: no
            # snapshot will come for it.
            raise Dismissed(f"the seat is gone ({msg.code}): {msg.message}")
        if isinstance(msg, Error) and msg.re is None:
            log.warning("%s: server says %s: %s", self.name, msg.code, msg.message)
        return msg

    # ------------------------------------------------------------------ the game

    async def _play(self, link: Link) -> None:
        """Play until this game is over (then ask for the rematch, if more are wanted)."""
        answer = _Answer()
        try:
            while True:
                msg = await self._receive(link)
                kind = msg.TYPE
                if kind in ("snapshot", "update"):
                    view = View.from_dict(msg.view)
                    self.view = view
                    if kind == "update":
                        self._mind.tell(self.strategy.observe, view,
                                        [Event(**e) for e in msg.events])
                    if view.over:
                        await self._game_over(link, view)
                        return
                    answer = self._decide(link, answer, view, msg.deadlines)
                elif (kind in ("move_rejected", "error") and msg.re is not None
                      and msg.re == answer.move_id):
                    log.info("%s: move refused: %s (%s)", self.name, msg.code, msg.message)
                    if msg.code == "rate_limited":
                        await trio.sleep(0.5)  # the server asked us to slow down
                    # Decide again on the newest view; a stale move's decision is gone, and
                    # the next view says what is asked now.
                    answer = (_Answer() if msg.code == "stale_state"
                              else self._decide(link, _Answer(), self.view, []))
        finally:
            answer.thinking.cancel()

    def _decide(self, link: Link, answer: _Answer, view: View,
                deadlines: list[dict]) -> _Answer:
        """The answer in hand once `view` came: the same while the seat owes the same
        decision; else a new one, its thinking started if the seat owes a decision."""
        me = view.seat
        owed = me is not None and me in view.waiting
        if owed and answer.decision == view.opened:  # every decision opens at its own state
            return answer
        answer.thinking.cancel()
        if not owed:
            return _Answer()
        answer = _Answer(view.opened)
        ms = next((d["ms"] for d in deadlines if d["seat"] == me), None)
        self._tasks.start_soon(self._answer, link, answer, view, ms)
        return answer

    async def _answer(self, link: Link, answer: _Answer, view: View, ms: int | None) -> None:
        """Have the strategy choose for `view`'s decision, then send its move (unless the
        decision closed first)."""
        move = None
        with answer.thinking:
            move = await self._think(view, legal_moves(view, view.seat), ms)
        if move is None:
            return  # the decision closed first
        answer.move_id = link.next_id()
        try:
            await link.send(MoveRequest(id=answer.move_id, state_id=view.state_id,
                                        move=move.to_dict()))
        except LinkError:
            pass  # `_play` finds the link broken too, and the next link decides again

    async def _think(self, view: View, moves, ms: int | None) -> Move:
        if ms is None:
            return await self._mind.ask(self.strategy.choose, view, moves)
        with trio.move_on_after(max(0.05, ms / 1000 - MARGIN)):
            return await self._mind.ask(self.strategy.choose, view, moves)
        log.warning("%s: still thinking near the deadline; playing the safe default",
                    self.name)
        return default_move(view, view.seat, self._fallback)

    async def _game_over(self, link: Link, view: View) -> None:
        self.played += 1
        if view.winner == view.seat:
            self.wins += 1
        self._mind.tell(self.strategy.game_over, view)
        log.info("%s: game %d over, winner seat %s", self.name, self.played, view.winner)
        if self.played < self.games and not self.seating.queue:
            await link.send(Rematch(id=link.next_id()))
