"""Plain mode's program, in trio: the game as lines of text on stdout, typed lines on stdin.

One `Plain` runs a whole session: for `coup play` it starts the server on loopback inside
the process (as the terminal app does) and creates the practice table; for `coup join` it
opens the server's lobby (with no address, the one the player chooses from those found on
the network, finder.py). It then runs three tasks: the connection (messages in, each told
as lines; a dropped connection re-opened with the seat's token), the keyboard (a line at a
time, read in a worker thread: end of file quits) and the clock (one warning line when ten
seconds are left for a decision of ours, never a ticking count).

What the client knows of its table is the terminal app's `TableState`, and every sentence of
the game comes from narrate.py: the lines here are the log's lines. When a decision is the
player's, one prompt line numbers the legal moves (`engine.legal_moves` on our own view)
and says the seconds left; a number, or a move's words in the player's language, answers it.
Nothing is written but whole lines of text: no cursor movement, no colour, no escapes.
"""

from __future__ import annotations

import codecs
import os
from dataclasses import replace
from typing import TextIO

import trio

from engine import IllegalMove, View, check, legal_moves, move
from engine.bots import known
from engine.cards import TARGETED
from protocol import (
    Bye, CreateTable, Join, Leave, ListTables, MoveRequest, Ready, Rematch, Say, Start,
)
from protocol.text import whole_number
from server import StoreError, serve

from ..discovery import Browser, enabled
from ..i18n import _
from ..moderation import CommandError, request as moderation_request
from ..core.policy import FINAL_GOODBYES, RECONNECT_FOR, Backoff
from ..net import Link, LinkError
from ..launch import Launch, default_name, practice_server, practice_table
from ..core.table import Pending, TableState
from ..narrate import error_text, event_text, move_label, presence_text, prompt
from .finder import Finder
from .text import (
    Prompt, action_named, command_words, fold, hand_line, help_lines, matches, prompt_line,
    results_lines, seat_line, seats_line, table_line, tables_lines,
)

#: Seconds left on a decision of ours when the one warning is printed.
WARNING = 10
#: Lines kept for `log N`, and the largest number a typed line is read as (a choice,
#: lines of the log).
KEPT_LINES = 1000
#: Errors, sent without `re`, after which the table is no longer ours (as in the app).
TABLE_GONE = frozenset({"bad_token", "table_failed", "kicked", "table_closed"})
#: Errors whose sentence from the server (who acted, and why) is worth showing after ours.
ACTS = frozenset({"kicked", "table_closed", "muted", "banned"})


class Quit(Exception):
    """The session ends (the player quit, or the server is gone for good)."""


class Plain:
    """One player's session in plain mode. `run` returns the exit status."""

    def __init__(self, launch: Launch, out: TextIO, stdin: int = 0) -> None:
        self.launch = launch
        self.out = out
        self.stdin = stdin
        self.name = launch.name or default_name()
        self.link: Link | None = None
        self.server = ""
        self.table: TableState | None = None
        #: While `coup join` with no address looks for its server.
        self.finder: Finder | None = None
        self.tables: list[dict] = []
        #: The lines told so far (events, chat, presence), for `log N`.
        self.lines: list[str] = []
        #: The prompt printed last (None: none is open), and the key of the one warned.
        self.shown: Prompt | None = None
        self.warned: tuple | None = None
        self._seats_said = ""
        self._results_for: int | None = None
        self._list_asked: int | None = None
        #: The decision our pending move answers (its View.opened): the move is pending
        #: until a view shows that decision closed to us (`move_accepted` comes before that
        #: view, and the view held until then still asks the question just answered).
        self._moved_in = 0
        #: The command (leave or quit) whose leaving of a game going on was just asked
        #: about: the same word typed next confirms it, as the app's dialog does.
        self._asked_to: str | None = None
        #: The id of our `leave` until the server answers it; meanwhile typed lines wait
        #: (`_settled`): a `spectate` typed ahead would find us still seated.
        self._leaving: int | None = None
        #: The id of our latest operator's (or creator's) act, until the server answers.
        self._acting: int | None = None
        self._settled = trio.Event()
        self._settled.set()
        #: Set once typed lines mean something: in the lobby, or at the practice table.
        self._arrived = trio.Event()
        self.status = 0

    # ------------------------------------------------------------------ output

    def say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def tell(self, line: str) -> None:
        """A line of the table's story, kept for `log N`."""
        self.lines.append(line)
        del self.lines[:-KEPT_LINES]
        self.say(line)

    # ------------------------------------------------------------------ the session

    async def run(self) -> int:
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._keyboard)
                nursery.start_soon(self._clock)
                host, port = await self._server(nursery)
                await self._connection(host, port)
                nursery.cancel_scope.cancel()
        except* Quit:
            pass
        return self.status

    async def _server(self, nursery: trio.Nursery) -> tuple[str, int]:
        """Where to connect: for `coup play`, a server started here on loopback."""
        if self.launch.mode == "find":
            return await self._find()
        if self.launch.mode != "play":
            return self.launch.host, self.launch.port
        config = practice_server(self.launch)
        try:
            try:
                return await nursery.start(serve, config)
            except StoreError:  # another coup of this player's keeps the records now
                return await nursery.start(serve, replace(config, db=None))
        except OSError as exc:
            self.say(_("The server could not start: {reason}").format(
                reason=exc.strerror or exc))
            self.status = 1
            raise Quit from None

    async def _find(self) -> tuple[str, int]:
        """Where to connect, for `coup join` with no address: as the player chooses."""
        self.finder = Finder(self.say, Browser if enabled() else None)
        self._arrived.set()
        try:
            return await self.finder.run()
        finally:
            self.finder = None

    async def _connection(self, host: str, port: int) -> None:
        """Connect, and carry messages until the connection is gone for good; a dropped one
        comes back with the seat's token, as long as the server keeps the seat."""
        try:
            link = await Link.open(host, port, self.name, identity=self.launch.identity,
                                   via=self.launch.via)
        except LinkError as exc:
            # The link's own sentence says what failed ("cannot connect to …"); a refusal
            # the server gave a code has a sentence of the player's language.
            self.say(_("Cannot connect: {reason}").format(reason=error_text(exc.code))
                     if exc.code else str(exc))
            self.status = 1
            return
        await self._connected(link)
        backoff = Backoff()
        while True:
            reason, said = await self._pump(link)
            # A seat is worth coming back to, and so is a restarting server's lobby.
            lobby = self._token() is None
            if said in FINAL_GOODBYES or (lobby and said != "server_restart"):
                break
            self.say(_("Connection lost: {reason} — reconnecting…").format(reason=reason))
            try:
                link = await Link.reopen(host, port, self.name,
                                         None if lobby else self._token, RECONNECT_FOR,
                                         backoff, identity=self.launch.identity,
                                         via=self.launch.via)
            except LinkError as exc:
                reason = str(exc)
                break
            self.name = link.name or self.name
            if lobby:
                self.link = link
                self.say(_("You are in the lobby."))
                await self._list()
        self.say(_("Disconnected: {reason}").format(reason=reason))
        self.status = 1

    def _token(self) -> str | None:
        return self.table.token if self.table is not None else None

    async def _connected(self, link: Link) -> None:
        self.link = link
        self.name = link.name or self.name
        self.server = link.welcome.server
        if self.launch.mode == "play":
            await self.send(CreateTable(id=link.next_id(), options=practice_table(self.launch)))
            return
        self.say(_("Connected to {server} as {name}. Type help for the commands.").format(
            server=self.server, name=self.name))
        self._arrived.set()
        await self._list()

    async def _pump(self, link: Link) -> tuple[str, str | None]:
        """Tell what comes until the connection ends; returns why it ended, and the reason
        of the server's goodbye if it said one."""
        self.link = link
        reason, said = _("the server closed the connection"), None
        try:
            while (msg := await link.receive()) is not None:
                if isinstance(msg, Bye):
                    reason, said = error_text(msg.reason), msg.reason
                await self._received(msg)
        except LinkError as exc:
            reason = str(exc)
        finally:
            self.link = None
            self.shown = None  # the prompt is asked again once the table is back
            self._leave_answered()  # no answer will come on this link
            await link.aclose()
        return reason, said

    async def send(self, msg) -> bool:
        if self.link is None:
            self.say(_("Not connected to a server."))
            return False
        try:
            await self.link.send(msg)
        except LinkError:
            return False  # the pump finds the link broken too, and reconnects
        return True

    def _next_id(self) -> int:
        return self.link.next_id() if self.link is not None else 0

    async def _keyboard(self) -> None:
        """Typed lines, one at a time; end of file quits. The read blocks in a worker
        thread that is let go when the session ends (a read of the descriptor holds no lock
        that the interpreter's exit would wait for)."""
        await self._arrived.wait()
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pending = ""
        while True:
            data = await trio.to_thread.run_sync(os.read, self.stdin, 4096,
                                                 abandon_on_cancel=True)
            pending += decoder.decode(data, final=not data)
            *lines, pending = pending.split("\n")
            for line in lines:
                await self.command(line.strip())
            if not data:
                if pending.strip():
                    await self.command(pending.strip())
                await self._quit("")

    async def _clock(self) -> None:
        """One line when ten seconds are left on a decision of ours that was longer."""
        while True:
            await trio.sleep(0.25)
            p, table = self.shown, self.table
            if p is None or p.seat is None or table is None or self.warned == p.key:
                continue
            left = table.time_left(p.seat)
            if left is not None and left[1] > WARNING >= left[0]:
                self.warned = p.key
                self.say(_("10 seconds left to choose."))

    # ------------------------------------------------------------------ the prompt

    def names(self, seat: int | None) -> str:
        return self.table.name(seat) if self.table is not None else "?"

    def current(self) -> Prompt | None:
        """What the player is asked now, if anything."""
        table = self.table
        if table is None or self.link is None:
            return None
        view = table.view
        if view is None:
            return self._room()
        if view.over:
            if table.seat is None:
                return None
            return Prompt(_("Game over"), ((_("Rematch"), "rematch"),
                                                    (_("Leave the table"), "leave")),
                          ("over", view.state_id))
        if table.pending is not None or view.seat is None or view.seat not in view.waiting:
            return None
        choices = tuple((move_label(mv, self.names), mv) for mv in legal_moves(view, view.seat))
        # Not keyed by the decision's state: others answering beside us (the draft's other
        # pick) leave our question as it was, and it is not asked twice. A decision of ours
        # that follows the last one is asked anew, since choosing forgets the prompt shown.
        return Prompt(prompt(view, self.names), choices,
                      ("move", view.phase, tuple(label for label, _mv in choices)), view.seat)

    def _room(self) -> Prompt | None:
        """Before the game: ready, and start for the table's creator."""
        table = self.table
        if table.seat is None or table.info is None:
            return None
        mine = next((s for s in table.seats if s["seat"] == table.seat), {})
        ready = bool(mine.get("ready"))
        choices = [(_("Not ready") if ready else _("Ready"), "unready" if ready else "ready")]
        creator = table.info.get("creator_seat") == table.seat
        if creator:
            choices.append((_("Start the game"), "start"))
        return Prompt(_("The table waits for its players"), tuple(choices),
                      ("room", ready, creator))

    def ask(self, again: bool = False) -> None:
        """Print the prompt if it is new (or `again`), and forget one no longer open."""
        p = self.current()
        if p is None:
            self.shown = None
            return
        if again or self.shown is None or self.shown.key != p.key:
            self.shown = p
            left = self.table.time_left(p.seat) if p.seat is not None else None
            self.say(prompt_line(p, None if left is None else left[0]))

    # ------------------------------------------------------------------ typed lines

    async def command(self, line: str) -> None:
        if not line:
            return
        word, _space, rest = line.partition(" ")
        command = command_words().get(fold(word))
        if command != "quit":  # quit goes at once, answered or not
            await self._settled.wait()
        asked, self._asked_to = self._asked_to, None
        if self.finder is not None and command != "quit":
            self.finder.typed(line, command)
            return
        if command in ("leave", "quit") and command != asked and self.table is not None \
                and self.table.playing:
            self._asked_to = command
            self.say(_("Leave the game? Your seat will be played for you. Type {word} again "
                       "to leave.").format(word=word))
            return
        if command is not None:
            await getattr(self, f"_{command}")(rest.strip())
            return
        p = self.current()
        table = self.table
        if p is None and table is not None and table.pending is not None:
            self.say(_("Waiting for the server to answer your last move."))
            return
        if (number := whole_number(line, KEPT_LINES)) is not None:
            if p is None or not 1 <= number <= len(p.choices):
                self.say(_("There is no choice {n} now.").format(n=line))
                self.ask(again=True)
                return
            await self.choose(p.choices[number - 1][1])
            return
        found = matches(line, [label for label, _value in p.choices]) if p else []
        if len(found) == 1:
            await self.choose(p.choices[found[0]][1])
        elif found:
            self.say(_("\u201c{typed}\u201d could be: {choices}. Type its number.").format(
                typed=line, choices="; ".join(p.choices[i][0] for i in found)))
            self.ask(again=True)
        elif self._refuse_action(line):
            return
        elif p is None:  # a window closed as the answer was typed, say
            self.say(_("Nothing to choose now."))
        else:
            self.say(_("\u201c{typed}\u201d is neither a choice nor a command: type help for "
                       "the commands.").format(typed=line))
            self.ask(again=True)

    def _refuse_action(self, typed: str) -> bool:
        """An action named that is not legal now: say why, in the engine's terms (as the
        terminal app does for a key); False if `typed` names no action."""
        table = self.table
        view = table.view if table is not None else None
        if view is None or view.over or table.seat is None:
            return False
        kind = action_named(typed, view.options.variant)
        if kind is None:
            return False
        target = None
        if kind in TARGETED:
            target = next((s for s in range(len(view.alive))
                           if view.alive[s] and s != table.seat), None)
        try:
            check(view, table.seat, move(kind, target=target))
        except IllegalMove as exc:
            self.say(error_text(exc.code))
        else:  # legal, and yet not offered: the open decision is another's
            self.say(error_text("not_your_turn"))
        self.ask(again=True)
        return True

    async def choose(self, value) -> None:
        table = self.table
        if isinstance(value, str):
            await getattr(self, f"_{value}")("")
            return
        view: View = table.view
        msg = MoveRequest(id=self._next_id(), state_id=view.state_id, move=value.to_dict())
        # Pending before it is sent: the views that come while it is being sent are read
        # with the move made.
        table.pending = Pending(msg.id, value)
        self._moved_in = view.opened
        self.shown = None
        if not await self.send(msg) and table.pending is not None and table.pending.id == msg.id:
            table.pending = None
            self.ask(again=True)

    # The commands, each given the rest of its line.

    async def _help(self, rest: str) -> None:
        link = self.link
        operator = link is not None and link.identified is not None and bool(
            link.identified.operator)
        for line in help_lines(operator):
            self.say(line)

    async def _status(self, rest: str) -> None:
        table = self.table
        if table is None:
            self.say(_("In the lobby of {server}, as {name}.").format(server=self.server,
                                                                     name=self.name))
            return
        view = table.view
        if view is None:
            self.say(seats_line(table))
            return
        for seat in range(len(view.alive)):
            self.say(seat_line(table, view, seat))
        self.say(table_line(view))

    async def _hand(self, rest: str) -> None:
        view = self.table.view if self.table is not None else None
        self.say(hand_line(view) if view is not None else _("No game is running."))

    async def _log(self, rest: str) -> None:
        n = whole_number(rest, KEPT_LINES)
        n = 10 if n is None else n
        lines = self.lines[-n:] if n else []
        for line in lines or [_("Nothing has happened yet.")]:
            self.say(line)

    async def _repeat(self, rest: str) -> None:
        if self.current() is not None:
            self.ask(again=True)
        elif self.table is not None and self.table.view is not None:
            self.say(prompt(self.table.view, self.names))
        else:
            self.say(_("Nothing to choose now."))

    async def _say(self, rest: str) -> None:
        if rest:
            scope = "table" if self.table is not None else "lobby"
            await self.send(Say(id=self._next_id(), text=rest[:500], scope=scope))

    async def _list(self, rest: str = "") -> None:
        self._list_asked = self._next_id()
        await self.send(ListTables(id=self._list_asked))

    async def _create(self, rest: str) -> None:
        words = rest.split()
        seats = words[0] if words else "4"
        number = whole_number(seats, 10)
        if number is None or number < 2:
            self.say(_("SEATS is a number from 2 to 10."))
            return
        options: dict = {"seats": number}
        if len(words) > 1:
            if not known(words[1]):
                self.say(error_text("unknown_strategy"))
                return
            options["bots"] = words[1]
        await self.send(CreateTable(id=self._next_id(), options=options))

    async def _join(self, rest: str) -> None:
        if not rest:
            self.say(_("Join which table? Type join and its id, or its code."))
            return
        listed = any(t["table"] == rest for t in self.tables)
        await self.send(Join(id=self._next_id(), table=rest if listed else None,
                             code=None if listed else rest))

    async def _spectate(self, rest: str) -> None:
        if not rest:
            self.say(_("Watch which table? Type spectate and its id."))
            return
        await self.send(Join(id=self._next_id(), table=rest, spectate=True))

    async def _ready(self, rest: str) -> None:
        await self.send(Ready(id=self._next_id(), ready=True))

    async def _unready(self, rest: str) -> None:
        await self.send(Ready(id=self._next_id(), ready=False))

    async def _start(self, rest: str) -> None:
        await self.send(Start(id=self._next_id()))

    async def _rematch(self, rest: str) -> None:
        if await self.send(Rematch(id=self._next_id())):
            self.say(_("Rematch asked: it starts when everyone agrees."))

    async def _leave(self, rest: str) -> None:
        if self.table is None:
            self.say(error_text("not_at_table"))
            return
        # Off the table once the server says so (`ok`): a request sent before then would
        # find us still seated there.
        self._leaving, self._settled = self._next_id(), trio.Event()
        if not await self.send(Leave(id=self._leaving)):
            self._leave_answered()

    def _leave_answered(self) -> None:
        self._leaving = None
        self._settled.set()

    def _left(self) -> None:
        """Off the table: back in the lobby, or, from the practice table, the end."""
        self.table = None
        self.shown = None
        if self.launch.mode == "play":
            raise Quit
        self.say(_("You are in the lobby."))

    async def _kick(self, rest: str) -> None:
        await self._moderate("kick", rest)

    async def _mute(self, rest: str) -> None:
        await self._moderate("mute", rest)

    async def _ban(self, rest: str) -> None:
        await self._moderate("ban", rest)

    async def _close(self, rest: str) -> None:
        await self._moderate("close", rest)

    async def _moderate(self, command: str, rest: str) -> None:
        """An operator's act (kick is the creator's too): the server says who may."""
        try:
            msg = moderation_request(command, rest, self._next_id(),
                                     self.table.table if self.table is not None else None)
        except CommandError as exc:
            self.say(str(exc))
            return
        self._acting = msg.id
        await self.send(msg)

    async def _quit(self, rest: str) -> None:
        """Leave the table, if at one, and end the session."""
        if self.table is not None and self.link is not None:
            await self.send(Leave(id=self._next_id()))
        raise Quit

    # ------------------------------------------------------------------ from the server

    async def _received(self, msg) -> None:
        handler = getattr(self, f"_on_{msg.TYPE}", None)
        if handler is not None:
            await handler(msg)
        self.ask()

    async def _on_tables(self, msg) -> None:
        self.tables = msg.tables
        if msg.re is not None and msg.re == self._list_asked:
            for line in tables_lines(msg.tables):
                self.say(line)

    async def _on_joined(self, msg) -> None:
        table = self.table
        if msg.re is None and table is not None and table.table == msg.table:
            table.seat = msg.seat  # our seat is back after a reconnect
            table.pending = None
            self.say(_("Reconnected: your seat is back."))
            return
        self.table = TableState(msg.table, msg.seat, msg.token, msg.code)
        self._seats_said = ""
        if msg.seat is None:
            self.say(_("You are watching table {id}.").format(id=msg.table))
        elif msg.code and self.launch.mode != "play":
            self.say(_("You sit at table {id}; its code is {code}.").format(id=msg.table,
                                                                            code=msg.code))
        else:
            self.say(_("You sit at table {id}.").format(id=msg.table))

    async def _on_table(self, msg) -> None:
        table = self.table
        if table is None or msg.info["table"] != table.table:
            return
        table.info = msg.info
        table.code = msg.info.get("code", table.code)
        self._arrived.set()
        if table.view is None:  # before the game: who sits, when that changes
            line = seats_line(table)
            if line != self._seats_said:
                self._seats_said = line
                self.say(line)

    async def _on_snapshot(self, msg) -> None:
        self._new_view(msg)

    async def _on_update(self, msg) -> None:
        self._new_view(msg)

    def _new_view(self, msg) -> None:
        """A view: its events told (a snapshot's only those not told yet), as the app's
        log tells them; a game's end with its results."""
        table = self.table
        if table is None or msg.table != table.table:
            return
        came = table.arrive(msg)
        view, new_game, retold, unseen = table.view, came.new_game, came.retold, came.unseen
        if table.pending is not None and (new_game or view.seat not in view.waiting
                                          or view.opened != self._moved_in):
            # Our decision is answered, or another has opened: ask what the new view asks.
            # Others answering beside us (a window's other passes) leave our move pending.
            table.pending = None
        if retold and unseen:
            self.say(_("Earlier in this game:") if new_game else _("While you were away:"))
        elif new_game and not unseen:
            self.say(_("A new game begins."))
        for e in unseen:
            text = event_text(e, table.name, table.seat)
            if text:
                self.tell(text)
        if view.over and table.reveal is not None and self._results_for != view.state_id:
            self._results_for = view.state_id
            for line in results_lines(table, table.name):
                self.tell(line)

    async def _on_ok(self, msg) -> None:
        if msg.re is not None and msg.re == self._acting:
            self._acting = None
            self.say(_("Done."))
        if msg.re is not None and msg.re == self._leaving:
            self._leave_answered()
            if self.table is not None:
                self._left()

    async def _on_move_rejected(self, msg) -> None:
        self._answered(msg.re)
        self.say(error_text(msg.code))
        self.ask(again=True)

    def _answered(self, re: int | None) -> None:
        table = self.table
        if table is not None and table.pending is not None and table.pending.id == re:
            table.pending = None

    async def _on_error(self, msg) -> None:
        self._answered(msg.re)
        if msg.re is not None and msg.re == self._leaving:  # still seated, as it says
            self._leave_answered()
        self.say(error_text(msg.code))
        if msg.code in ACTS:  # the server's sentence (who, why), safe: Link made it so
            self.say(msg.message)
        if msg.re is None and msg.code in TABLE_GONE and self.table is not None:
            self._left()

    async def _on_chat(self, msg) -> None:
        name = msg.name
        if msg.scope == "table" and msg.seat is None:
            name = _("{name} (spectator)").format(name=name)
        self.tell(_("{name} says: {text}").format(name=name, text=msg.text))

    async def _on_presence(self, msg) -> None:
        table = self.table
        if table is not None and msg.table == table.table:
            table.set_presence(msg.seat, msg.status, msg.name)
            text = presence_text(msg.status, msg.name or table.name(msg.seat))
            if text:
                self.tell(text)

    async def _on_paused(self, msg) -> None:
        if self.table is not None and msg.table == self.table.table:
            self.table.pause(msg.paused)
            self.say(_("Play is paused: the server cannot save the game. Clocks stopped.")
                     if msg.paused else _("Play goes on."))

    async def _on_bye(self, msg) -> None:
        self.say(_("The server says goodbye: {reason}").format(reason=error_text(msg.reason)))
        if msg.reason in ACTS and msg.message:
            self.say(msg.message)
