"""Plain mode's program, in trio: the game as lines of text on stdout, typed lines on stdin.

One `Plain` runs a whole session: for `coup play` it starts the server on loopback inside
the process (as the terminal app does) and creates the practice table; for `coup join` it
opens the server's lobby (with no address, the one the player chooses from those found on
the network, finder.py). It then runs three tasks: the connection (client/transport.py,
driving the client core: its events are told here as lines), the keyboard (a line at a
time, read in a worker thread: end of file quits) and the clock (one warning line when ten
seconds are left for a decision of ours, never a ticking count).

What the client knows (its table, the move pending, a leave in flight, the reconnects) is
the client core's (client/core/), shared with the terminal app and the bots; every sentence
of the game comes from client/narrate.py: the lines here are the log's lines. When a decision is the
player's, one prompt line numbers the legal moves (`engine.legal_moves` on our own view)
and says the seconds left; a number, or a move's words in the player's language, answers it.
The player's cards are said when they are dealt and whenever they change, and a claim is said
once, in the question about it. Lines piped in are answers played back: each waits for its
question. Nothing is written but whole lines of text: no cursor movement, no colour, no escapes.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Awaitable, Callable, Sequence
from typing import TextIO

import trio

from engine import IllegalMove, Move, View, check, legal_moves, move
from engine.bots import known
from engine.cards import CONVERT, TARGETED
from protocol.text import whole_number

from ..core import Arrival, Core, TableState
from ..core.aims import aims
from ..core import events as ev
from ..core import intents as do
from ..discovery import Browser, enabled
from ..i18n import _
from ..launch import Launch, default_name, practice_server, practice_table
from ..standings import standings_lines, tournament_line
from ..narrate import (
    closed_text, error_text, event_text, move_label, move_refused_text, presence_text, prompt,
    said_already,
)
from ..transport import Transport, start_server
from .finder import Finder
from .text import (
    Prompt,
    action_named,
    command_words,
    fold,
    hand_line,
    help_lines,
    matches,
    prompt_line,
    reformation_word,
    results_lines,
    seat_line,
    seats_line,
    table_line,
    tables_lines,
)

#: The decisions of ours whose question says again the event that opened them, by that
#: event's kind and the decision's phase: a challenge of our claim ("Bot 2 challenges your
#: Duke: show it or concede"), a Coup against us ("… launched a Coup against you: choose the
#: card you lose"). (A claim's question begins with its line, and needs no entry.)
RESTATED = {("challenge", "prove"), ("action", "lose")}
#: The events that change the cards of the seat they name (`seat`, or an Examine's `target`).
HAND_CHANGES = {"lose", "redraw", "examine_swap", "kept", "drew", "picked"}
#: Seconds left on a decision of ours when the one warning is printed.
WARNING = 10
#: Lines kept for `log N`, and the largest number a typed line is read as (a choice,
#: lines of the log).
KEPT_LINES = 1000


class Quit(Exception):
    """The session ends (the player quit, or the server is gone for good)."""


class Plain:
    """One player's session in plain mode. `run` returns the exit status."""

    def __init__(self, launch: Launch, out: TextIO, stdin: int = 0) -> None:
        self.launch = launch
        self.out = out
        self.stdin = stdin
        self.name = launch.name or default_name()
        self.server = ""
        self.core = Core()
        self.transport = Transport(self.core, self._events, identity=launch.identity,
                                   via=launch.via)
        #: While `coup join` with no address looks for its server.
        self.finder: Finder | None = None
        #: The lines told so far (events, chat, presence), for `log N`.
        self.lines: list[str] = []
        #: The prompt printed last (None: none is open), and the key of the one warned.
        self.shown: Prompt | None = None
        self.warned: tuple | None = None
        #: The story's last line, and the kind of the event it tells, not written until
        #: the prompt that follows is known: a question that says it again says it alone
        #: (a claim is heard once, with its question).
        self._held: str | None = None
        self._held_kind: str | None = None
        #: Our cards as last said (face down, face up), to say them again when they change.
        self._hand_said: tuple | None = None
        #: Lines read from a pipe or a file, not a person at a terminal, are a transcript
        #: played back: each answer waits for its question rather than meeting an earlier
        #: one, or none. A person's line answers only the question heard when it was typed.
        self._typed_ahead = not os.isatty(stdin)
        #: Whether the prompt shown is still to be answered by a typed line, and the event
        #: set (and renewed) at each look at the prompt, which a held answer waits on.
        self._unanswered = False
        self._looked = trio.Event()
        self._seats_said = ""
        self._results_for: int | None = None
        #: The command (leave or quit) whose leaving of a game going on was just asked
        #: about: the same word typed next confirms it, as the app's dialog does.
        self._asked_to: str | None = None
        #: Unset while our leave is in flight (the core's `leaving`), or, for lines typed
        #: ahead, a table we asked for: typed lines wait for its answer, so that what they
        #: say (status, a spectate, start) finds us where we are.
        self._settled = trio.Event()
        self._settled.set()
        #: Set once typed lines mean something: in the lobby, or at the practice table.
        self._arrived = trio.Event()
        self.status = 0
        #: What each command does, given the rest of its line: the typed commands
        #: (text.COMMANDS) and the words a prompt's choices stand for.
        self.commands: dict[str, Callable[[str], Awaitable[None]]] = {
            "help": self._help, "status": self._status, "hand": self._hand, "log": self._log,
            "repeat": self._repeat, "say": self._say, "list": self._list,
            "create": self._create, "join": self._join, "spectate": self._spectate,
            "leave": self._leave, "quit": self._quit, "kick": self._kick, "mute": self._mute,
            "ban": self._ban, "close": self._close, "tournament": self._tournament,
            "ready": self._ready,
            "unready": self._unready, "start": self._start, "rematch": self._rematch,
        }

    @property
    def table(self) -> TableState | None:
        return self.core.table

    # ------------------------------------------------------------------ output

    def say(self, line: str) -> None:
        self._write_held()
        self._write(line)

    def tell(self, line: str, kind: str | None = None) -> None:
        """A line of the table's story (telling an event of `kind`), kept for `log N`;
        written once the next line, or the prompt that may say it again, is known."""
        self.lines.append(line)
        del self.lines[:-KEPT_LINES]
        self._write_held()
        self._held, self._held_kind = line, kind

    def _write_held(self) -> None:
        held, self._held = self._held, None
        if held is not None:
            self._write(held)

    def _write(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    # ------------------------------------------------------------------ the session

    async def run(self) -> int:
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._keyboard)
                nursery.start_soon(self._clock)
                host, port = await self._server(nursery)
                await self.transport.run(host, port, self.name)
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
        try:
            return await start_server(nursery, practice_server(self.launch))
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
        if table is None or not self.core.connected:
            return None
        view = table.view
        if view is None:
            return self._room(table)
        if view.over:
            if table.seat is None:
                return None
            return Prompt(_("Game over"), ((_("Rematch"), "rematch"),
                                                    (_("Leave the table"), "leave")),
                          ("over", view.state_id))
        if table.pending is not None or view.seat is None or view.seat not in view.waiting:
            return None
        choices = tuple((move_label(mv, self.names, view), mv)
                        for mv in legal_moves(view, view.seat))
        # Not keyed by the decision's state: others answering beside us (the draft's other
        # pick) leave our question as it was, and it is not asked twice. A decision of ours
        # that follows the last one is asked anew, since choosing forgets the prompt shown.
        return Prompt(prompt(view, self.names), choices,
                      ("move", view.phase, tuple(label for label, _mv in choices)), view.seat)

    def _room(self, table: TableState) -> Prompt | None:
        """Before the game: ready, and start for the table's creator."""
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
        self._looked.set()
        self._looked = trio.Event()
        p = self.current()
        if p is None:
            self.shown = None
            return
        if again or self.shown is None or self.shown.key != p.key:
            self.shown = p
            self._unanswered = True
            table = self.table
            left = (table.time_left(p.seat) if table is not None and p.seat is not None
                    else None)
            if self._restates(p):
                self._held = None  # (still in the log)
            self.say(prompt_line(p, None if left is None else left[0]))

    def _restates(self, p: Prompt) -> bool:
        """Whether the question `p` says again the line held back."""
        if self._held is None:
            return False
        view = self.table.view if self.table is not None else None
        return (p.question.startswith(self._held)
                or (view is not None and (self._held_kind, view.phase) in RESTATED))

    # ------------------------------------------------------------------ typed lines

    async def command(self, line: str) -> None:
        if not line:
            return
        word, _space, rest = line.partition(" ")
        command = command_words().get(fold(word))
        if command != "quit" or self._typed_ahead:  # a person's quit goes at once
            await self._settled.wait()
            await self._question()
        asked, self._asked_to = self._asked_to, None
        if self.finder is not None and command != "quit":
            self.finder.typed(line, command)
            return
        if command in ("leave", "quit") and command != asked and self.table is not None \
                and self.table.playing:
            self._asked_to = command
            question = (_("Leave the game? Your seat will be played for you. Type {word} "
                          "again to leave.") if self.table.others_are_people
                        else _("Leave the game? Only bots play with you: the game ends. Type "
                               "{word} again to leave."))
            self.say(question.format(word=word))
            return
        if command is not None:
            await self.commands[command](rest.strip())
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
        found = matches(line, [label for label, _value in p.choices], self._own(p)) if p else []
        if p is not None and len(found) == 1:
            await self.choose(p.choices[found[0]][1])
        elif p is not None and found:
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

    async def _question(self) -> None:
        """For a line typed ahead: wait until a question is open that no typed line has
        answered yet, while we sit at a table (where one is sure to come). A command waits
        too: it was typed where a question was asked, and may answer it ("leave")."""
        while (self._typed_ahead and self.table is not None and self.table.seat is not None
               and not (self.shown is not None and self._unanswered)):
            await self._looked.wait()

    def _own(self, p: Prompt) -> tuple[int, ...]:
        """The indexes of the choices of `p` that name the player themself (a Conversion of
        oneself, R12.9.1): what "convert me" names."""
        me = self.table.seat if self.table is not None else None
        return tuple(i for i, (_label, mv) in enumerate(p.choices)
                     if me is not None and isinstance(mv, Move) and mv.target == me)

    def _refuse_action(self, typed: str) -> bool:
        """An action named that is not legal now, with the player it names if it names one
        ("steal from bot 3"), or a proof that cannot be made (R6.2, R12.12.1): say why, in
        the engine's terms (as the terminal app does for a key); False if `typed` names
        neither."""
        table = self.table
        if table is None or table.view is None or table.view.over or table.seat is None:
            return False
        view = table.view
        proof = move("prove")
        named = action_named(typed, view.options)
        kind: str | None = None
        mv: Move | None = None
        if view.phase == "prove" and matches(typed, [move_label(proof, self.names, view)]):
            mv = proof
        elif named is not None:
            kind, rest = named
            mv = self._aimed(view, kind, rest, typed)
        if mv is None:
            return False
        try:
            check(view, table.seat, mv)
        except IllegalMove as exc:
            self.say(move_refused_text(exc.code, kind))
        else:  # legal, and yet not offered: the open decision is another's
            self.say(error_text("not_your_turn"))
        self.ask(again=True)
        return True

    def _aimed(self, view: View, kind: str, rest: str, typed: str) -> Move | None:
        """The move of `kind` that `typed` names: the player named after the action's name
        (`rest`), else the first the action could name; None if the player typed is none
        the action could name, or several."""
        mv = move(kind)
        if kind in TARGETED or kind == CONVERT:
            offered = aims(view, kind)
            labels = [move_label(a.move, self.names, view) for a in offered]
            found = matches(typed, labels, tuple(i for i, a in enumerate(offered)
                                                 if a.seat == view.seat))
            if rest and len(found) != 1:  # no one (or no one alone) named as typed
                return None
            # With no one named, the first the action could name says why the action
            # itself is refused (it cannot be afforded, it must be a Coup...).
            if found:
                mv = offered[found[0]].move
            elif offered:
                mv = offered[0].move
        return mv

    async def choose(self, value) -> None:
        self._unanswered = False
        if isinstance(value, str):
            await self.commands[value]("")
            return
        # Forgotten first: the prompt is asked anew once the move is answered.
        self.shown = None
        self.transport.submit(do.Play(value))
        table = self.table
        if table is not None and table.pending is None:  # not sent
            self.ask(again=True)

    # The commands, each given the rest of its line.

    async def _help(self, rest: str) -> None:
        for line in help_lines(self.core.operator):
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
            self.transport.submit(do.SayText(rest))

    async def _list(self, rest: str = "") -> None:
        self.transport.submit(do.ListTables())

    async def _create(self, rest: str) -> None:
        words = rest.split()
        reformation = [w for w in words[1:] if fold(w) in (fold(reformation_word()),
                                                          "reformation")]
        words = [w for w in words if w not in reformation]
        seats = words[0] if words else "4"
        number = whole_number(seats, 10)
        if number is None or number < 2:
            self.say(_("SEATS is a number from 2 to 10."))
            return
        options: dict = {"seats": number}
        if reformation:  # R12.1
            options["reformation"] = True
        if len(words) > 1:
            if not known(words[1]):
                self.say(error_text("unknown_strategy"))
                return
            options["bots"] = words[1]
        self._answer_awaited(self.transport.submit(do.CreateTable(options)))

    async def _join(self, rest: str) -> None:
        if not rest:
            self.say(_("Join which table? Type join and its id, or its code."))
            return
        listed = any(t["table"] == rest for t in self.core.tables)
        self._answer_awaited(self.transport.submit(do.JoinTable(
            table=rest if listed else None, code=None if listed else rest)))

    async def _spectate(self, rest: str) -> None:
        if not rest:
            self.say(_("Watch which table? Type spectate and its id."))
            return
        self._answer_awaited(self.transport.submit(do.JoinTable(table=rest, spectate=True)))

    def _answer_awaited(self, sent: int | None) -> None:
        """A table asked for (`sent`: the request's id, if it went): lines typed ahead wait
        for the server's answer, a seat or a refusal, so that they find us where it puts us."""
        if sent is not None and self._typed_ahead:
            self._settled = trio.Event()

    async def _ready(self, rest: str) -> None:
        self.transport.submit(do.SetReady(True))

    async def _unready(self, rest: str) -> None:
        self.transport.submit(do.SetReady(False))

    async def _start(self, rest: str) -> None:
        self.transport.submit(do.StartGame())

    async def _rematch(self, rest: str) -> None:
        if self.transport.submit(do.AskRematch()) is not None:
            self.say(_("Rematch asked: it starts when everyone agrees."))

    async def _leave(self, rest: str) -> None:
        if self.table is None:
            self.say(error_text("not_at_table"))
            return
        # Off the table once the server says so (`ok`): typed lines wait until then.
        self.transport.submit(do.Leave())
        if self.core.leaving:
            self._settled = trio.Event()

    async def _kick(self, rest: str) -> None:
        await self._moderate("kick", rest)

    async def _mute(self, rest: str) -> None:
        await self._moderate("mute", rest)

    async def _ban(self, rest: str) -> None:
        await self._moderate("ban", rest)

    async def _close(self, rest: str) -> None:
        await self._moderate("close", rest)

    async def _tournament(self, rest: str) -> None:
        """`tournament` alone: the server's tournament and its standings; with more, an
        entry or an operator's act (client/moderation.py reads it)."""
        if rest.strip():
            await self._moderate("tournament", rest)
        elif self.core.tournament is None:
            self.say(_("This server has no tournament."))
        else:
            for line in standings_lines(self.core.tournament):
                self.say(line)

    async def _moderate(self, command: str, rest: str) -> None:
        """An operator's act (kick is the creator's too): the server says who may."""
        self.transport.submit(do.Moderate(command, rest))

    async def _quit(self, rest: str) -> None:
        """Leave the table, if at one, and end the session."""
        if self.table is not None and self.core.connected:
            self.transport.submit(do.Leave())
            await self.transport.flush()
        raise Quit

    # ------------------------------------------------------------------ the core's events

    def _events(self, events: Sequence[ev.Event]) -> None:
        """Tell what the core says happened, then ask what is asked now."""
        for event in events:
            self._event(event)
        if not all(isinstance(event, ev.ConnectionBack) for event in events):
            # (Back on the server, the prompt waits for the seat, which comes after.)
            self.ask()
        self._write_held()

    def _event(self, event: ev.Event) -> None:
        match event:
            case ev.Connected(name, server, renamed=renamed):
                self._connected(name, server, renamed)
            case ev.ConnectFailed(reason, code):
                # The link's own sentence says what failed ("cannot connect to …"); a
                # refusal the server gave a code has a sentence of the player's language.
                self.say(_("Cannot connect: {reason}").format(reason=error_text(code))
                         if code else reason)
                self.status = 1
            case ev.ConnectionLost(reason, said):
                if not self.core.leaving:  # a table asked for is lost with the link
                    self._settled.set()
                self.shown = None  # the prompt is asked again once the table is back
                self.say(_("Connection lost: {reason} — reconnecting…").format(
                    reason=closed_text(reason, said)))
            case ev.ConnectionBack(name):
                self.name = name or self.name
                if self.table is None:
                    self.say(_("You are in the lobby."))
            case ev.Disconnected(reason, said):
                self.shown = None
                self.say(_("Disconnected: {reason}").format(reason=closed_text(reason, said)))
                self.status = 1
            case ev.NotConnected():
                self.say(_("Not connected to a server."))
            case ev.TablesListed(tables, asked):
                if asked:
                    for line in tables_lines(tables):
                        self.say(line)
            case ev.TableJoined(table):
                self._joined(table)
            case ev.SeatBack():
                self.say(_("Reconnected: your seat is back."))
            case ev.TableChanged():
                self._table_changed()
            case ev.ViewChanged(arrival):
                self._new_view(arrival)
            case ev.MoveWaits():
                self.say(_("Waiting for the server to answer your last move."))
            case ev.MoveRefused(code=code, kind=kind):
                self.say(move_refused_text(code, kind))
                self.ask(again=True)
            case ev.Refused(code=code, said=said) | ev.TableGone(code=code, said=said):
                if not self.core.leaving:
                    self._settled.set()
                self.say(error_text(code))
                if said:  # the server's sentence (who, why), safe: Link made it so
                    self.say(said)
                self.ask(again=True)  # the question the refused line answered is open
            case ev.LeaveSettled():
                self._settled.set()
            case ev.TableLeft():
                self._left()
            case ev.Done():
                self.say(_("Done."))
            case ev.TournamentChanged():
                tournament = self.core.tournament
                assert tournament is not None  # the core keeps what it says changed
                if tournament.status in ("done", "stopped"):  # its end: the standings
                    for line in standings_lines(tournament):
                        self.tell(line)
                else:
                    self.tell(tournament_line(tournament))
            case ev.CommandRefused(reason):
                self.say(reason)
            case ev.ChatHeard(scope, name, text, seat):
                if scope == "table" and seat is None:
                    name = _("{name} (spectator)").format(name=name)
                self.tell(_("{name} says: {text}").format(name=name, text=text))
            case ev.PresenceChanged(seat, status, named):
                told = presence_text(status, named or self.names(seat))
                if told:
                    self.tell(told)
            case ev.PlayPaused(paused):
                self.say(_("Play is paused: the server cannot save the game. Clocks stopped.")
                         if paused else _("Play goes on."))
            case ev.Goodbye(reason, message):
                self.say(_("The server says goodbye: {reason}").format(
                    reason=error_text(reason)))
                if message:
                    self.say(message)

    def _connected(self, name: str, server: str, renamed: str | None) -> None:
        if renamed is not None:
            self.say(_("Known here as {name}: this server keeps the name your key first "
                       "played under, so {wanted} was not used.").format(name=name,
                                                                           wanted=renamed))
        self.name = name or self.name
        self.server = server
        if self.launch.mode == "play":
            self.transport.submit(do.CreateTable(practice_table(self.launch)))
            return
        self.say(_("Connected to {server} as {name}. Type help for the commands.").format(
            server=self.server, name=self.name))
        self._arrived.set()
        self.transport.submit(do.ListTables())

    def _joined(self, table: TableState) -> None:
        self._settled.set()
        self._seats_said = ""
        if table.seat is None:
            self.say(_("You are watching table {id}.").format(id=table.table))
        elif table.code and self.launch.mode != "play":
            self.say(_("You sit at table {id}; its code is {code}.").format(id=table.table,
                                                                            code=table.code))
        else:
            self.say(_("You sit at table {id}.").format(id=table.table))

    def _table_changed(self) -> None:
        table = self.table
        if table is None:
            return
        self._arrived.set()
        if table.view is None:  # before the game: who sits, when that changes
            line = seats_line(table)
            if line != self._seats_said:
                self._seats_said = line
                self.say(line)

    def _new_view(self, came: Arrival) -> None:
        """A view: its events told (a snapshot's only those not told yet), as the app's
        log tells them; a game's end with its results."""
        table = self.table
        if table is None:
            return
        view, new_game, retold, unseen = came.view, came.new_game, came.retold, came.unseen
        if retold and unseen:
            self.say(_("Earlier in this game:") if new_game else _("While you were away:"))
        elif new_game and not unseen:
            self.say(_("A new game begins."))
        # Our cards are said after the last event that changed them, before what others
        # did next in the same view.
        me = table.seat
        changed = [i for i, e in enumerate(unseen)
                   if e.kind in HAND_CHANGES and me is not None and me in (e.seat, e.target)]
        said_at = changed[-1] if changed else len(unseen) - 1
        if said_at < 0:
            self._tell_hand(view, new_game, False)
        for i, e in enumerate(unseen):
            # A pass (one line a player a window) is no news to a listener: the line
            # after the window says whether the claim or the action stood.
            text = (event_text(e, table.name, me) if e.kind != "pass"
                    and not said_already(e, unseen[i - 1] if i else None) else None)
            if text:
                self.tell(text, e.kind)
            if i == said_at:
                self._tell_hand(view, new_game, any(e.kind == "kept" for e in unseen))
        if view.over and table.reveal is not None and self._results_for != view.state_id:
            self._results_for = view.state_id
            for line in results_lines(table, table.name):
                self.tell(line)

    def _tell_hand(self, view: View, new_game: bool, kept: bool) -> None:
        """Our cards, when they are dealt and whenever they change: not while the draft
        deals them (its picks are said), not when an Exchange's "You keep" just said them,
        and not once we are out or the game is over (the results say every hand)."""
        me = view.seat
        if me is None:
            return
        if new_game:
            self._hand_said = None
        cards = (tuple(view.hands[me] or ()), tuple(view.revealed[me]))
        if cards == self._hand_said or view.phase == "draft":
            return
        self._hand_said = cards
        if cards[0] and not view.over and not kept:
            self.say(hand_line(view))

    def _left(self) -> None:
        """Off the table: back in the lobby, or, from the practice table, the end."""
        self.shown = None
        if self.launch.mode == "play":
            raise Quit
        self.say(_("You are in the lobby."))
