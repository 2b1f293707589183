"""The client side of the protocol, written once: what a client knows and how it answers.

One `Core` per client session (the terminal app's connection, plain mode's, a bot
runner's). It takes the server's messages (`receive`, already made safe for a terminal by
the link), the player's intents (`intend`, intents.py) and the connection's comings and
goings (`opened`, `closed`, `gave_up`), and returns events (events.py): messages to send
(`Send`) and what changed, for a front end to render. It holds the table (table.py), the
move pending, a leave in flight, the seat's token, the lobby's tables and chat, who we are
on the server, the requests whose answers matter, and the reconnect policy (policy.py).

Rules every front end shares:
- A move is checked on our own view before it goes (and, when the front end says which
  decision it answers, goes only while that decision is the open one), and stays pending
  until a view shows its decision closed to us (or another decision opened, or a new
  game): `move_accepted` comes before that view, and the view held until then still asks
  what was answered.
- A leave is in flight until the server answers it (`ok`, or an error: then we are still
  seated) or the connection drops; every intent that comes meanwhile waits, and goes out
  once it is settled, in order: a spectate sent before would find us still seated.
- Errors without `re` whose code is in TABLE_GONE take our table from us.

Sans-I/O: it never touches a socket, a clock or a task; it must never import trio,
asyncio, Textual or a front end.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from engine import IllegalMove, check
from protocol import messages as wire

from ..moderation import CommandError
from ..moderation import request as moderation_request
from . import events as ev
from . import intents as do
from .policy import RECONNECT_FOR, Backoff, worth_coming_back
from .table import Pending, TableState

#: Errors, sent without `re`, that say the player's table is no longer theirs: the seat was
#: given up while they were away (bad_token, after a reconnect), the table failed on the
#: server or was closed, they were kicked, or a tournament's game is over (game_done).
#: Either way the server has them in its lobby.
TABLE_GONE = frozenset({"bad_token", "table_failed", "kicked", "table_closed", "game_done"})
#: A tournament's statuses once it plays no more games.
OVER = frozenset({"done", "stopped"})
#: Codes (of errors and goodbyes) whose sentence from the server (who acted, and why) is
#: worth showing after ours.
ACTS = frozenset({"kicked", "table_closed", "muted", "banned"})
#: Lobby chat lines kept.
LOBBY_CHAT = 200
#: The longest chat line sent.
CHAT_TEXT = 500


@dataclass(frozen=True, slots=True)
class Comeback:
    """How to connect again after a drop: for `lasting` seconds, with the seat's token
    (asked of the core before each try: `Core.token`) if `seated`."""

    lasting: float
    seated: bool


class Core:
    """One client session's knowledge of the server, its table and its requests."""

    def __init__(self, *, keep_queue: bool = False, reconnect_for: float = RECONNECT_FOR,
                 backoff: Backoff | None = None) -> None:
        #: Come back after a drop to queue again, or to wait for the tournament's next game
        #: (a bot runner's wish; a person's client shows the lobby instead).
        self.keep_queue = keep_queue
        self.reconnect_for = reconnect_for
        self.backoff = backoff or Backoff()
        self._ids = itertools.count(1)
        self.connected = False
        self._ever_connected = False
        #: Who we are on the server: the name it calls us, whether it knows us by our key,
        #: and whether that key is one of its operators'.
        self.me = ""
        self.server = ""
        self.identified = False
        self.operator = False
        self.table: TableState | None = None
        self.tables: list[dict[str, Any]] = []
        self.lobby_chat: list[tuple[str, str]] = []
        #: Our own ordinal on the server, when we are identified and rated there.
        self.rating: float | None = None
        #: The server's tournament as it last said (we follow it with the list of tables).
        self.tournament: wire.Tournament | None = None
        #: Ids of requests whose answers matter: our leave (in flight until answered), our
        #: operator's act, our own list of tables, our own profile, our place in the queue,
        #: our entry in the tournament.
        self._leaving: int | None = None
        self._acting: int | None = None
        self._list_asked: int | None = None
        self._rating_asked: int | None = None
        self._queue_asked: int | None = None
        self._entry_asked: int | None = None
        self.queued = False
        #: We entered the server's tournament: it seats us between drops too.
        self.entered = False
        #: Intents that came while our leave was in flight, in order.
        self._held: list[do.Intent] = []
        #: The server's goodbye on this connection, if it said one.
        self._bye: wire.Bye | None = None

    # ------------------------------------------------------------------ reading

    @property
    def token(self) -> str | None:
        """The seat's reconnect token (None: no seat, or a spectator's)."""
        return self.table.token if self.table is not None else None

    @property
    def leaving(self) -> bool:
        """Our leave is in flight: intents wait until the server answers it."""
        return self._leaving is not None

    def next_id(self) -> int:
        return next(self._ids)

    # ------------------------------------------------------------------ the connection

    def opened(self, name: str, server: str, identified: bool, operator: bool,
               now: float, given_back: str | None = None,
               asked: str | None = None) -> list[ev.Event]:
        """A connection is up (its handshake done), at `now` on the caller's clock;
        `given_back`: the table whose seat the server gives back to our key; `asked`: the
        name we asked for."""
        self.connected = True
        self._bye = None
        self.queued = False  # a queue forgets a connection that dropped
        self.backoff.connected(now)
        self.me, self.identified, self.operator = name, identified, operator
        if not self._ever_connected:
            self._ever_connected = True
            self.server = server
            renamed = (asked if identified and asked and name.casefold() != asked.casefold()
                       else None)
            return [ev.Connected(name, server, identified, operator, given_back, renamed)]
        out: list[ev.Event] = [ev.ConnectionBack(name, identified, operator, given_back)]
        # Back in a restarted server's lobby: its tables again; and a tournament followed
        # is followed on the new connection too, from a table as well.
        if self.table is None or self.tournament is not None:
            out += self.intend(do.ListTables())
        return out

    def closed(self, reason: str | None) -> tuple[list[ev.Event], Comeback | None]:
        """The connection ended (`reason`: the link's words, None if the server closed it):
        the events, and how to come back (None: not at all)."""
        self.connected = False
        out: list[ev.Event] = []
        if self._leaving is not None:  # no answer will come on this connection
            out += self._settle()
        said = self._bye.reason if self._bye is not None else None
        message = self._bye.message if self._bye is not None else None
        waiting = self.queued or self.entered  # for a table the server forms
        if worth_coming_back(said, self.token is not None, waiting and self.keep_queue):
            return out + [ev.ConnectionLost(reason, said, message)], Comeback(
                self.reconnect_for, self.token is not None)
        return out + [ev.Disconnected(reason, said, message)], None

    def gave_up(self, reason: str) -> list[ev.Event]:
        """Coming back failed for good (`reason`: the last try's words, which say why now;
        the goodbye before the drop was told with ConnectionLost)."""
        return [ev.Disconnected(reason, None, None)]

    # ------------------------------------------------------------------ intents

    def intend(self, intent: do.Intent) -> list[ev.Event]:
        """What the player wants: the messages it makes, or why nothing was sent."""
        if self._leaving is not None:
            self._held.append(intent)
            return []
        if isinstance(intent, do.OwnRating):
            self.rating = None
            if not (self.identified and self.connected):
                return []
        if isinstance(intent, do.Moderate):
            return self._moderate(intent)
        if not self.connected:
            return [ev.NotConnected()]
        match intent:
            case do.Play(move, answers):
                return self._play(move, answers)
            case do.Leave():
                if self.table is None:
                    return [ev.Refused("not_at_table", None)]
                self._leaving = self.next_id()
                return [ev.Send(wire.Leave(id=self._leaving))]
            case do.JoinTable(table, code, spectate, seat):
                return self._send(wire.Join(id=self.next_id(), table=table, code=code,
                                            seat=seat, spectate=True if spectate else None))
            case do.CreateTable(options):
                return self._send(wire.CreateTable(id=self.next_id(), options=options))
            case do.SetReady(ready):
                return self._send(wire.Ready(id=self.next_id(), ready=ready))
            case do.StartGame():
                return self._send(wire.Start(id=self.next_id()))
            case do.AskRematch():
                return self._send(wire.Rematch(id=self.next_id()))
            case do.SayText(text, scope):
                text = text.strip()[:CHAT_TEXT]
                if not text:
                    return []
                where = scope or ("table" if self.table is not None else "lobby")
                return self._send(wire.Say(id=self.next_id(), text=text, scope=where))
            case do.ListTables():
                self._list_asked = self.next_id()
                return self._send(wire.ListTables(id=self._list_asked, tournament=True))
            case do.EnterTournament():
                self.entered = True  # from the asking, as a queue: a drop is worth a return
                self._entry_asked = self.next_id()
                return self._send(wire.EnterTournament(id=self._entry_asked))
            case do.ListGames(before, player):
                return self._send(wire.ListGames(id=self.next_id(), before=before,
                                                 player=player))
            case do.FetchGame(game, max_frame):
                return self._send(wire.GetGame(id=self.next_id(), game=game,
                                               max_frame=max_frame))
            case do.GetLeaderboard(offset):
                return self._send(wire.GetLeaderboard(id=self.next_id(),
                                                      offset=offset or None))
            case do.GetProfile(name):
                return self._send(wire.GetProfile(id=self.next_id(), name=name))
            case do.OwnRating():
                self._rating_asked = self.next_id()
                return self._send(wire.GetProfile(id=self._rating_asked, name=self.me))
            case do.JoinQueue(seats, variant):
                # In the queue from the asking: a drop before the answer is worth a return.
                self.queued = True
                self._queue_asked = self.next_id()
                return self._send(wire.Queue(id=self._queue_asked, seats=seats,
                                             variant=variant))
            case do.LeaveQueue():
                self.queued = False
                return self._send(wire.Unqueue(id=self.next_id()))
        raise TypeError(f"not an intent: {intent!r}")

    @staticmethod
    def _send(msg: wire.Message) -> list[ev.Event]:
        return [ev.Send(msg)]

    def _play(self, move: Any, answers: int | None) -> list[ev.Event]:
        table = self.table
        if table is None or table.view is None or table.seat is None:
            return []
        if table.pending is not None:
            return [ev.MoveWaits()]
        if answers is not None and answers != table.view.opened:
            return [ev.MoveStale()]
        try:
            check(table.view, table.seat, move)
        except IllegalMove as exc:
            return [ev.MoveRefused(exc.code, local=True, kind=move.kind)]
        msg = wire.MoveRequest(id=self.next_id(), state_id=table.view.state_id,
                               move=move.to_dict())
        table.pending = Pending(msg.id, move, table.view.opened)
        table.answered = table.view.opened
        return [ev.Send(msg), ev.PendingChanged()]

    def _moderate(self, intent: do.Moderate) -> list[ev.Event]:
        table = self.table.table if self.table is not None else None
        try:
            msg = moderation_request(intent.command, intent.rest, self.next_id(), table)
        except CommandError as exc:
            return [ev.CommandRefused(str(exc))]
        if not self.connected:
            return [ev.NotConnected()]
        self._acting = msg.id
        return [ev.Send(msg)]

    def _settle(self) -> list[ev.Event]:
        """Our leave is answered: what waited for it goes now."""
        self._leaving = None
        out: list[ev.Event] = [ev.LeaveSettled()]
        held, self._held = self._held, []
        for intent in held:
            out += self.intend(intent)
        return out

    # ------------------------------------------------------------------ from the server

    def receive(self, msg: wire.Message) -> list[ev.Event]:
        """A message from the server: what it changed."""
        match msg:
            case wire.Tables():
                self.tables = msg.tables
                asked = msg.re is not None and msg.re == self._list_asked
                return [ev.TablesListed(msg.tables, asked)]
            case wire.Joined():
                return self._joined(msg)
            case wire.TableInfo():
                table = self.table
                if table is None or msg.info["table"] != table.table:
                    return []
                table.take_info(msg.info)
                return [ev.TableChanged()]
            case wire.Snapshot() | wire.Update():
                return self._view(msg)
            case wire.Ok():
                return self._ok(msg)
            case wire.MoveRejected():
                return self._answered(msg.re) + [ev.MoveRefused(msg.code, re=msg.re)]
            case wire.Error():
                return self._error(msg)
            case wire.Chat():
                if msg.scope == "lobby":
                    self.lobby_chat.append((msg.name, msg.text))
                    del self.lobby_chat[:-LOBBY_CHAT]
                return [ev.ChatHeard(msg.scope, msg.name, msg.text, msg.seat, msg.table)]
            case wire.Presence():
                if self.table is None or msg.table != self.table.table:
                    return []
                self.table.set_presence(msg.seat, msg.status, msg.name)
                return [ev.PresenceChanged(msg.seat, msg.status, msg.name)]
            case wire.Paused():
                if self.table is None or msg.table != self.table.table:
                    return []
                self.table.pause(msg.paused)
                return [ev.PlayPaused(msg.paused)]
            case wire.Queued():
                return [ev.QueueChanged(msg.waiting, msg.re)]
            case wire.QueueStatus():
                return [ev.QueueChanged(msg.waiting, None)]
            case wire.Tournament():
                self.tournament = msg
                return [ev.TournamentChanged()]
            case wire.Games():
                return [ev.GamesPage(msg.re, msg.games, msg.next)]
            case wire.Leaderboard():
                return [ev.LeaderboardPage(msg.re, msg.players, msg.next)]
            case wire.Profile():
                if msg.re == self._rating_asked:
                    self.rating = msg.profile["ordinal"]
                    return [ev.RatingChanged()]
                return [ev.ProfileCame(msg.re, msg.profile)]
            case wire.GameRecord():
                return [ev.RecordCame(msg.record)]
            case wire.Bye():
                self._bye = msg
                return [ev.Goodbye(msg.reason, msg.message if msg.reason in ACTS else None)]
        return []  # move_accepted (the next view settles the move), and what needs no answer

    def _joined(self, msg: wire.Joined) -> list[ev.Event]:
        table = self.table
        if msg.re is None and table is not None and table.table == msg.table:
            table.seat = msg.seat  # our seat is back after a reconnect
            table.pending = None
            return [ev.SeatBack()]
        self.table = TableState(msg.table, msg.seat, msg.token, msg.code)
        self.queued = False
        return [ev.TableJoined(self.table)]

    def _view(self, msg: wire.Snapshot | wire.Update) -> list[ev.Event]:
        table = self.table
        if table is None or msg.table != table.table:
            return []
        came = table.arrive(msg)
        view, old = came.view, came.old
        if table.pending is not None and (came.new_game or view.seat not in view.waiting
                                          or view.opened != table.pending.opened):
            # Our decision is answered, or another has opened. Others answering beside us
            # (a window's other passes) leave our move pending.
            table.pending = None
        mine = view.seat is not None and view.seat in view.waiting and not view.over
        opened = mine and (old is None or came.new_game or old.opened != view.opened
                           or view.seat not in old.waiting)
        return [ev.ViewChanged(came, opened)]

    def _not_entered(self, code: str) -> list[ev.Event]:
        """Our entry in the tournament was refused `code`. tournament_started answers an
        entrant's entry made again after a drop (still in; a first entry so refused is no
        entry, and the front end's to end). Any other refusal is no entry; and
        no_tournament says the server has none open or running (a restart forgets its
        tournament), so a copy of ours that says open or running is stale: gone."""
        if code == "tournament_started":
            return []
        self.entered = False
        copy = self.tournament
        if code != "no_tournament" or copy is None or copy.status in OVER:
            return []
        self.tournament = None
        return [ev.TournamentChanged()]

    def _answered(self, re: int | None) -> list[ev.Event]:
        """The server answered request `re`: if it was our pending move, it is no longer."""
        table = self.table
        if table is not None and table.pending is not None and table.pending.id == re:
            table.pending = None
            return [ev.PendingChanged()]
        return []

    def _ok(self, msg: wire.Ok) -> list[ev.Event]:
        out: list[ev.Event] = []
        if msg.re == self._acting:
            self._acting = None
            out.append(ev.Done())
        if msg.re == self._leaving:
            left = self.table is not None
            self.table = None
            if left:
                out.append(ev.TableLeft())
            out += self._settle()
        return out

    def _error(self, msg: wire.Error) -> list[ev.Event]:
        out = self._answered(msg.re)
        if msg.re is not None and msg.re == self._rating_asked:
            return out  # not rated there (or no records kept): no rating to show
        # An act of ours refused: the server's sentence says why (a tournament that cannot
        # start says what it lacks).
        acting = msg.re is not None and msg.re == self._acting
        said = msg.message if msg.code in ACTS or acting else None
        if msg.re is not None and msg.re == self._queue_asked:
            self.queued = False
        if msg.re is not None and msg.re == self._entry_asked:
            out += self._not_entered(msg.code)
        if msg.re is None and msg.code in TABLE_GONE and self.table is not None:
            self.table = None
            return out + [ev.TableGone(msg.code, said, msg.message), ev.TableLeft()]
        out.append(ev.Refused(msg.code, msg.re, said, msg.message))
        if msg.re is not None and msg.re == self._leaving:  # still seated, as it says
            out += self._settle()
        return out
