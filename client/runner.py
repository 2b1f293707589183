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
the log. A strategy that withdraws (engine.bots.Withdrawn: a bot process that broke) is
replaced by the fallback strategy, if the runner has one, for the rest of the run. After
each game it asks for a rematch until it has played the games it was asked for (from the
queue: it leaves the table and queues again, for a new rated table). A dropped
connection is re-opened with the seat's token, and play goes on from the fresh snapshot (a
move sent on the broken link is made again if the snapshot still asks for it: it may have
been lost with the link), unless the server said it is stopping, gave the seat to a newer
connection, or no longer has the seat: then the runner stops (Dismissed). A connection that
drops while the runner waits in the queue (which forgets it) is opened again and queues again.
In a tournament, every connection made again enters again: refused no_tournament (the
server has none open or running: a restart forgets its tournament), the runner finishes the
game in hand, gives the tournament STANDINGS_WAIT to show it is over, and else stops
(Dismissed).

The protocol is the client core's (client/core/), driven by the one transport loop
(client/transport.py), as the terminal app's and plain mode's are: the runner reads the
core's events and hands it intents, and never reads or writes a message itself.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import trio

from engine import Event, Move, View, default_move, legal_moves
from engine.bots import Strategy, Withdrawn
from protocol import MAX_LISTED

from .core import OVER, Core
from .core import events as ev
from .core import intents as do
from .core.policy import FINAL_GOODBYES, RECONNECT_FOR
from .identity import Identity
from .mind import Mind
from .net import LinkError
from .transport import Transport

log = logging.getLogger("coup.bot")

#: Seconds kept in hand before a deadline: the move must reach the server in time.
MARGIN = 1.0
#: Seconds before a request the server rate-limited is asked again.
SLOWER = 0.5
#: Seconds a tournament's bot waits, once the server says it has no tournament open or
#: running, for ours to be over: one that ended while we were away has its standings sent
#: at once or with the server's next push (every half second, added up in about 0.1 ms a
#: game), and a game of it in play closes at its end. One the server forgot (a restart
#: forgets its tournament) never is.
STANDINGS_WAIT = 5.0


def _listed(tables: list[dict]) -> str:
    """The tables as "Name (id)", for a message."""
    return ", ".join(f"{t['name']} ({t['table']})" for t in tables)


class Dismissed(LinkError):
    """The seat is gone for good: the server said a goodbye that a reconnect cannot undo
    (FINAL_GOODBYES), refused the seat's token when the runner came back, or will not let
    it queue; or the tournament it plays is: refused its entry, or forgotten."""


@dataclass
class Seating:
    """How the runner finds its table: one of table (an id, or a public table's name),
    code, create (seats), queue (the seats wanted: a number, or a range {"min", "max"}),
    tournament (enter the server's open tournament, and sit where it seats us), or none."""

    table: str | None = None
    code: str | None = None
    create: int | None = None
    queue: int | dict | None = None
    tournament: bool = False


@dataclass
class _Answer:
    """The runner's answer to the open decision, as far as one connection and one game know
    it (each connection and game start a new one): a move sent on a link that broke may have
    been lost with it, so the next link decides again from its snapshot instead of waiting
    for an answer."""

    decision: int | None = None  #: the decision it answers (its View.opened)
    move_id: int | None = None  #: the request id of the move sent for it
    #: Cancelled when the decision closes before the strategy has chosen.
    thinking: trio.CancelScope = field(default_factory=trio.CancelScope)


class BotRunner:
    """One bot seat played over the network."""

    # For the duration of `run`: the strategy's thread, the nursery of its thinking, and
    # the core's events as they come.
    _mind: Mind
    _tasks: trio.Nursery
    _events: trio.MemoryReceiveChannel[ev.Event]

    def __init__(self, host: str, port: int, strategy: Strategy, *, name: str | None = None,
                 seating: Seating | None = None, games: int = 1,
                 reconnect_for: float = RECONNECT_FOR, identity: Identity | None = None,
                 fallback: Strategy | None = None) -> None:
        self.host = host
        self.port = port
        #: The strategy that plays the seat: `fallback` once the first one withdrew. It is
        #: called in the mind's thread only (_choose, _observe, _names, _over).
        self.strategy = strategy
        self.fallback = fallback
        self.name = name or f"{strategy.name}-bot"
        self.seating = seating or Seating()
        self.games = games
        self.played = 0
        self.wins = 0
        #: The table the bot sits at (None: none yet, or between two from the queue).
        self.table: str | None = None
        self.view: View | None = None
        # From the queue, a dropped connection comes back to queue again.
        self.core = Core(keep_queue=bool(self.seating.queue or self.seating.tournament),
                         reconnect_for=reconnect_for)
        self._events_in, self._events = trio.open_memory_channel[ev.Event](math.inf)
        self.transport = Transport(self.core, self._told, identity=identity)
        self._connection = trio.CancelScope()
        self._fallback = random.Random()
        #: In a tournament: the request id of our latest entry, and its refusal, which
        #: _tournament reads between games.
        self._entry: int | None = None
        self._entry_refused: ev.Refused | None = None

    def _queue_request(self) -> do.JoinQueue:
        assert self.seating.queue is not None  # only a runner from the queue queues
        return do.JoinQueue(self.seating.queue)

    @property
    def identity(self) -> Identity | None:
        """Who the bot is on servers (None: a guest, unrated): the key its connections
        identify with, set before `run` (`coup bot` loads it once the name is known)."""
        identity = self.transport.identity
        assert identity is None or isinstance(identity, Identity)  # a bot has no door
        return identity

    @identity.setter
    def identity(self, identity: Identity | None) -> None:
        self.transport.identity = identity

    @property
    def token(self) -> str | None:
        """The seat's reconnect token, while the bot has a seat."""
        return self.core.token

    def _told(self, events: Sequence[ev.Event]) -> None:
        for event in events:
            self._events_in.send_nowait(event)

    async def run(self) -> int:
        """Play until `games` games are over; returns how many this seat won."""
        self._mind = Mind()
        try:
            async with trio.open_nursery() as nursery:
                self._tasks = nursery
                nursery.start_soon(self._mind.serve)
                nursery.start_soon(self._connect)
                try:
                    await self._play_games()
                finally:
                    self._connection.cancel()
                    self._mind.close()  # the strategy hears the last news, then its thread ends
        except BaseExceptionGroup as group:
            # The one error that ended the run is the run's error (LinkError, Dismissed, a
            # strategy's own), not the nursery's group of it.
            if len(group.exceptions) == 1:
                raise group.exceptions[0] from None
            raise
        return self.wins

    async def _connect(self) -> None:
        with self._connection:
            await self.transport.run(self.host, self.port, self.name)

    async def _play_games(self) -> None:
        connected = await self._next()
        while not isinstance(connected, ev.Connected):
            connected = await self._next()
        self.name = connected.name or self.name
        if self.seating.tournament:
            await self._tournament(connected.given_back is not None)
            return
        if connected.given_back:
            await self._seated("given back")
        elif not self.seating.queue:
            await self._find_table()
        while self.played < self.games:
            if self.token is None:  # from the queue, and no seat yet
                await self._queue()
            await self._play()
            if self.seating.queue and self.played < self.games:
                await self._leave()
                self.table = None
        self.transport.submit(do.Leave())
        await self.transport.flush()

    # ------------------------------------------------------------------ the core's events

    async def _next(self) -> ev.Event:
        """The core's next event, those that end the run raised (Dismissed when coming back
        can do no good, else LinkError) and those that only say something logged."""
        event = await self._events.receive()
        match event:
            case ev.ConnectFailed(reason, code):
                raise LinkError(reason, code)
            case ev.Disconnected(reason, said, said_message):
                if said is not None:
                    why = f"the server said goodbye ({said})"
                    if said_message:
                        why += f": {said_message}"
                    if said in FINAL_GOODBYES:
                        raise Dismissed(why)
                    raise LinkError(why)
                raise LinkError(reason or "the server closed the connection")
            case ev.TableGone("bad_token", _said, message):
                # The seat was played out by a bot or its table closed while we were away:
                # no snapshot will come for it.
                raise Dismissed(f"the seat is gone (bad_token): {message}")
            case ev.TableGone("game_done", _said, _message):
                log.info("%s: the tournament's game is over", self.name)
            case ev.TableGone(code, _said, message) | ev.Refused(code, None, _said, message):
                log.warning("%s: server says %s: %s", self.name, code, message)
            case ev.ConnectionLost(reason, said):
                log.warning("%s: %s; reconnecting", self.name,
                            f"the server said goodbye ({said})" if said else
                            reason or "the server closed the connection")
            case ev.ConnectionBack() if self.seating.tournament:
                # Our entry may have been lost with the link, or the server restarted and
                # forgot its tournament: entering again says which, at a table too.
                self._entry = self.transport.submit(do.EnterTournament())
            case ev.Refused(_code, re) if re is not None and re == self._entry:
                self._entry_refused = event
        return event

    # ------------------------------------------------------------------ the lobby

    async def _find_table(self) -> None:
        """Sit at the table the seating asks for (not from the queue: see _queue)."""
        seating = self.seating
        if seating.create:
            asked = self.transport.submit(do.CreateTable({"seats": seating.create}))
        elif seating.table:
            asked = self.transport.submit(do.JoinTable(
                table=await self._table_named(seating.table)))
        elif seating.code:
            asked = self.transport.submit(do.JoinTable(code=seating.code))
        else:
            asked = self.transport.submit(do.JoinTable(table=await self._wait_for_table()))
        while True:
            event = await self._next()
            if isinstance(event, ev.TableJoined):
                self._sat(event.table.table, event.table.seat, "")
                break
            if isinstance(event, ev.Refused) and event.re is not None and event.re == asked:
                raise LinkError(f"could not sit: {event.code}: {event.message}")
        self.transport.submit(do.SetReady(True))

    def _sat(self, table: str, seat: int | None, how: str) -> None:
        self.table = table
        log.info("%s: seat %s at table %s%s", self.name, seat, table, how and f" {how}")

    async def _leave(self) -> None:
        """Leave the table, and wait until the server says so: the table lets us go in its
        own time (meanwhile the core holds what follows); one the server rate-limits is
        asked again after a pause."""
        while True:
            asked = self.transport.submit(do.Leave())
            while True:
                event = await self._next()
                if isinstance(event, ev.TableLeft):
                    return
                if isinstance(event, ev.Refused) and event.re == asked:
                    break
            if event.code != "rate_limited" or self.core.table is None:
                return
            await trio.sleep(SLOWER)  # the server asked us to slow down: ask again

    async def _queue(self) -> None:
        """Wait in the quick-play queue until the server seats us at a table it formed (the
        game starts at once: no ready to say)."""
        asked = self.transport.submit(self._queue_request())
        while True:
            event = await self._next()
            if isinstance(event, ev.QueueChanged) and event.re is not None and event.re == asked:
                log.info("%s: queued, %d waiting", self.name, event.waiting)
            elif isinstance(event, ev.Refused) and event.re is not None and event.re == asked:
                if event.code != "rate_limited":
                    # The server will not seat us: asking again will not help.
                    raise Dismissed(f"could not queue: {event.code}: {event.message}")
                await trio.sleep(SLOWER)  # the server asked us to slow down: ask again
                asked = self.transport.submit(self._queue_request())
            elif isinstance(event, ev.ConnectionBack) and not event.given_back:
                # The queue forgot the connection that dropped: a new one queues again.
                asked = self.transport.submit(self._queue_request())
            elif isinstance(event, ev.TableJoined):
                self._sat(event.table.table, event.table.seat, "from the queue")
                return

    async def _tournament(self, seated: bool) -> None:
        """Enter the server's open tournament, then play every game it seats us at, until it
        is over (done, or stopped by an operator). The entry's refusal ends the run
        (Dismissed), between games; no_tournament, when it answers an entry made again
        after a drop, only once the tournament is not over by STANDINGS_WAIT (_gone). A bot
        given back a seat of the tournament's game is in it already: it enters again only
        to hear whether the server still has it, and follows it, to hear its end."""
        self._entry = first = self.transport.submit(do.EnterTournament())
        if seated:
            first = None
            self.transport.submit(do.ListTables())
            await self._seated("given back")
            await self._play()
        else:
            log.info("%s: entering the tournament", self.name)
        while not self._tournament_over():
            refused, self._entry_refused = self._entry_refused, None
            if refused is not None:
                if refused.re != first and refused.code == "no_tournament":
                    await self._gone()
                    return
                # The server takes an entrant's entry made again while the tournament is
                # open, and once it runs refuses it tournament_started: we are in it.
                if refused.re == first or refused.code != "tournament_started":
                    raise Dismissed(f"could not enter the tournament: {refused.code}: "
                                    f"{refused.message}")
            event = await self._next()
            if isinstance(event, ev.TableJoined):
                self._sat(event.table.table, event.table.seat, "for the tournament")
                await self._play()

    def _tournament_over(self) -> bool:
        """The tournament plays no more games, and none of ours is left to finish."""
        tournament = self.core.tournament
        return (tournament is not None and tournament.status in OVER
                and self.core.table is None)

    async def _gone(self) -> None:
        """The server has no tournament open or running: ours ended while we were away, or
        the server forgot it (a restart). Wait STANDINGS_WAIT for it to be over; else leave
        the table a restart kept (an ordinary table now: it does not close at the game's
        end), if we sit at one, and end the run."""
        with trio.move_on_after(STANDINGS_WAIT):
            while not self._tournament_over():
                await self._next()
            return
        if self.core.table is not None:
            await self._leave()
        raise Dismissed("the tournament is gone: the server has no tournament open or "
                        "running (a restart forgets its tournament)")

    async def _seated(self, how: str) -> None:
        """Wait for the seat the server gives us unasked: ours given back when it knew us
        by our key (a bot restarted mid-game plays on from it)."""
        while not isinstance(event := await self._next(), ev.TableJoined):
            pass
        self._sat(event.table.table, event.table.seat, how)

    async def _table_named(self, wanted: str) -> str:
        """The id of the table `wanted` names: a table with that id, else the one public
        table with that name (in any case). Several of that name, or none, is a LinkError
        that says which ids there are; a table the list does not show (the list holds the
        oldest tables only) is tried as an id."""
        tables = await self._tables()
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

    async def _tables(self) -> list[dict]:
        """The public tables, as the server lists them now."""
        self.transport.submit(do.ListTables())
        while True:
            event = await self._next()
            if isinstance(event, ev.TablesListed) and event.asked:
                return event.tables

    async def _wait_for_table(self) -> str:
        """The first public table waiting for players with a free seat (waits for one)."""
        self.transport.submit(do.ListTables())
        while True:
            event = await self._next()
            if not isinstance(event, ev.TablesListed):
                continue
            for table in event.tables:
                if table["status"] == "waiting" and any(
                    s["name"] is None for s in table["seats"]
                ):
                    return table["table"]

    # ------------------------------------------------------------------ the game

    async def _play(self) -> None:
        """Play until this game is over (then ask for the rematch, if more are wanted)."""
        answer = _Answer()
        try:
            while True:
                event = await self._next()
                if isinstance(event, ev.ViewChanged):
                    came = event.arrival
                    view = self.view = came.view
                    if (came.new_game or came.old is None) and self.core.table is not None:
                        self._mind.tell(self._names, [p["name"] or f"seat {p['seat']}"
                                                       for p in self.core.table.players])
                    if not came.retold:  # an update: what the strategy has not seen yet
                        self._mind.tell(self._observe, view, came.unseen)
                    if view.over:
                        self._game_over(view)
                        return
                    answer = self._decide(answer, view)
                elif isinstance(event, ev.ConnectionLost):
                    # The move in flight may be lost with the link: the snapshot the next
                    # one brings is decided anew.
                    answer.thinking.cancel()
                    answer = _Answer()
                elif (isinstance(event, (ev.MoveRefused, ev.Refused)) and event.re is not None
                      and event.re == answer.move_id and self.view is not None):
                    log.info("%s: move refused: %s", self.name, event.code)
                    if event.code == "rate_limited":
                        await trio.sleep(SLOWER)  # the server asked us to slow down
                    # Decide again on the newest view; a stale move's decision is gone, and
                    # the next view says what is asked now.
                    answer = (_Answer() if event.code == "stale_state"
                              else self._decide(_Answer(), self.view))
        finally:
            answer.thinking.cancel()

    def _decide(self, answer: _Answer, view: View) -> _Answer:
        """The answer in hand once `view` came: the same while the seat owes the same
        decision; else a new one, its thinking started if the seat owes a decision."""
        me = view.seat
        owed = me is not None and me in view.waiting
        if owed and answer.decision == view.opened:  # every decision opens at its own state
            return answer
        answer.thinking.cancel()
        if me is None or not owed:
            return _Answer()
        answer = _Answer(view.opened)
        table = self.core.table
        left = table.time_left(me) if table is not None else None
        self._tasks.start_soon(self._answer, answer, view, None if left is None else left[0])
        return answer

    async def _answer(self, answer: _Answer, view: View, seconds: float | None) -> None:
        """Have the strategy choose for `view`'s decision, then send its move (unless the
        decision closed first)."""
        assert view.seat is not None  # a decision is a seat's
        move = None
        with answer.thinking:
            move = await self._think(view, view.seat, legal_moves(view, view.seat), seconds)
        if move is None:
            return  # the decision closed first
        answer.move_id = self.transport.submit(do.Play(move))

    async def _think(self, view: View, seat: int, moves: tuple[Move, ...],
                     seconds: float | None) -> Move:
        if seconds is None:
            return await self._mind.ask(self._choose, view, moves, None)
        with trio.move_on_after(max(0.05, seconds - MARGIN)):
            return await self._mind.ask(self._choose, view, moves, max(0.05, seconds - MARGIN))
        log.warning("%s: still thinking near the deadline; playing the safe default",
                    self.name)
        return default_move(view, seat, self._fallback)

    def _game_over(self, view: View) -> None:
        self.played += 1
        if view.winner == view.seat:
            self.wins += 1
        self._mind.tell(self._over, view)
        log.info("%s: game %d over, winner seat %s", self.name, self.played, view.winner)
        # From the queue a new table comes; a tournament's table closes at the game's end.
        if self.played < self.games and not (self.seating.queue or self.seating.tournament):
            self.transport.submit(do.AskRematch())

    # ------------------------------------------------------------------ the strategy's calls
    # Made in the mind's thread, one at a time: a withdrawal is seen, and the fallback
    # takes over, between two calls of the strategy, never during one.

    def _choose(self, view: View, moves: tuple[Move, ...], seconds: float | None) -> Move:
        try:
            self.strategy.clock(seconds)
            return self.strategy.choose(view, moves)
        except Withdrawn as why:
            self._fall_back(why)
            return self.strategy.choose(view, moves)

    def _observe(self, view: View, events: Sequence[Event]) -> None:
        try:
            self.strategy.observe(view, events)
        except Withdrawn as why:
            self._fall_back(why)

    def _names(self, names: Sequence[str]) -> None:
        try:
            self.strategy.seated(names)
        except Withdrawn as why:
            self._fall_back(why)

    def _over(self, view: View) -> None:
        try:
            self.strategy.game_over(view)
        except Withdrawn as why:
            self._fall_back(why)

    def _fall_back(self, why: Withdrawn) -> None:
        """The strategy withdrew (its own line on stderr said why): the fallback plays on;
        without one, the run ends with `why`."""
        if self.fallback is None or self.strategy is self.fallback:
            raise why
        log.info("%s: %s withdrew; %s plays the seat on", self.name,
                    self.strategy.name, self.fallback.name)
        self.strategy = self.fallback
