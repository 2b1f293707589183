"""The Textual app: starts trio as a guest of its asyncio loop, keeps what the client knows,
and moves between the menu, the lobby, the table and the results.

`Launch` says how the app starts: at the menu (`coup`), at a table against bots (`coup play`:
an embedded server on loopback, the table created with its bots, started when the player
presses s), in a server's lobby (`coup join`), at the join form with the servers found on the
LAN (`coup join` with no address), or on a finished game's replay (`coup replay`, which
closes the app when it closes). What the app knows of the server (the lobby's tables, the
table's state, who we are there) is the client core's (client/core/, run by net.py): its
events come to `_told`, and the screens are told by message (`tell`: one coalescing
`TableChanged`, and the answers the model does not keep) and redraw from it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import trio
from textual.app import App
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen

from engine import Move
from engine.record import RecordError
from protocol import Tournament
from server import ServerConfig, default_path

from ..core import Core, TableState
from ..core import events as ev
from ..core import intents as do
from ..discovery import Browser, enabled
from ..i18n import N_, _
from ..identity import Identity, IdentityError, Vouched
from ..launch import Launch, default_name, practice_server, practice_table
from ..moderation import command_of
from ..moderation import usage as moderation_usage
from ..narrate import closed_text, error_text, move_refused_text
from . import messages as m
from .net import RECORD_FRAME, Net
from .screens.dialogs import ChooseDialog
from .screens.history import GamesScreen, LocalGames, ServerGames
from .screens.lobby import LobbyScreen
from .screens.menu import MenuScreen, NameForm
from .screens.ratings import LeaderboardScreen
from .screens.replay import ReplayScreen
from .screens.table import TableScreen
from .styles import ParsedOnce


class CoupApp(App):
    """Coup in the terminal."""

    CSS_PATH = Path(__file__).parent / "coup.tcss"
    TITLE = "Coup"
    # No command palette: Textual's offers its own commands in English only (Theme, Keys,
    # Maximize, Quit, and Screenshot, which saves a file on the machine the app runs on:
    # through the SSH door, the server's), while every move and screen here has its key.
    # Under load it was drawn a second late, and the key typed meanwhile went into its
    # search line instead of the game; its footer key took 12 of 80 columns.
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+c", "quit", N_("Quit"), priority=True, show=False),
        Binding("ctrl+q", "quit", N_("Quit"), priority=True, show=False),
    ]

    def __init__(self, launch: Launch | None = None) -> None:
        super().__init__()
        # Textual's own stylesheet, with nothing in it yet, for one that parses each source
        # once a process: a door's sessions start from what their host parsed.
        self.stylesheet = ParsedOnce(variables=self.theme_variables)
        self.launch = launch or Launch()
        self.name_wanted = self.launch.name or default_name()
        #: Ring the terminal's bell when a decision becomes ours (`--no-bell`: never); kept
        #: from the command line whatever the menu launches later.
        self.bell_wanted = self.launch.bell
        self.net = Net(self.post_message, self._told, self.launch.identity, self.launch.via)
        #: What finds the servers on the LAN for the join form: called with a callback, it
        #: returns something to `close`. None while discovery is off (COUP_DISCOVERY=off).
        self.discover: Callable[..., Browser] | None = Browser if enabled() else None
        self._trio_done: asyncio.Future | None = None
        #: The port of each server this process runs: "practice" (loopback, for `play`),
        #: "position FILE" (loopback, for `coup position`) and "lan" (every interface, for
        #: friends); each is started once and kept, the LAN one until the player stops it
        #: or hosts another in its place.
        self.servers: dict[str, int] = {}
        self._starting: str | None = None
        #: What to do once connected: "lobby", or "play" (create the table and start).
        self._then = "lobby"
        #: A new practice table was asked, and the server gives back a seat it kept for us
        #: (its game going on, or over while we were away): once at that table, the player
        #: chooses it or a new one.
        self._offer_back = False
        #: The player chose a new practice table over the seat given back: it is made once
        #: the server has let us leave that seat.
        self._new_after_leave = False
        #: Said on the terminal the app gives back, when a lobby-only app ends for a reason.
        self.farewell: str | None = None
        #: (game id, seat) of the record asked for to be reviewed as that seat once it comes.
        self._review_as: tuple[int, int] | None = None

    # ------------------------------------------------------------------ trio, the guest

    def get_default_screen(self) -> Screen:
        """The first screen: a lobby-only app's is the server's lobby itself, saying that
        it is connecting until the server answers; a table goes over it, and leaving the
        table comes back to it. One screen for a door's session to make, lay out and draw
        (an arrival screen under the lobby, pushed once the server answered, cost a ninth
        of what the session spent to a settled lobby)."""
        if self.launch.lobby_only:
            return LobbyScreen(f"{self.launch.host}:{self.launch.port}")
        return super().get_default_screen()

    def on_mount(self) -> None:
        self._start_trio()
        if self.launch.lobby_only:
            self.join_server(self.launch.host, self.launch.port, self.name_wanted)
            return
        menu = MenuScreen()
        self.push_screen(menu)
        if self.launch.ask_name:  # a first run: the name, before any table or lobby
            self.push_screen(NameForm(self.name_wanted), partial(self._named, menu))
            return
        self._begin(menu)

    def _named(self, menu: MenuScreen, name: str | None) -> None:
        """The first run's name is answered (None: cancelled, the default this once): kept
        beside the key, then the launch goes on."""
        if name is not None:
            self.name_wanted = self.launch.name = name
            if isinstance(self.launch.identity, Identity):
                try:
                    self.launch.identity.keep_name(name)
                except IdentityError as exc:
                    self.notify(str(exc), severity="warning", timeout=10)
        self._begin(menu)

    def _begin(self, menu: MenuScreen) -> None:
        """Over the `menu`, what the launch asks for: the table, a lobby, the join form or a
        replay (or nothing more)."""
        if self.launch.mode == "find":
            menu.action_join()
        elif self.launch.mode == "play":
            self.play(self.launch)
        elif self.launch.mode == "join":
            self.join_server(self.launch.host, self.launch.port, self.name_wanted)
        elif self.launch.mode == "replay":
            if self.launch.record is None:
                raise ValueError("a replay is launched with its record")
            self.push_screen(ReplayScreen(self.launch.record, self.launch.view_as),
                             self._replay_closed)

    def _replay_closed(self, _closed: object) -> None:
        self.call_later(self.action_quit)

    def _start_trio(self) -> None:
        loop = asyncio.get_running_loop()
        done = self._trio_done = loop.create_future()

        def finished(result) -> None:
            if not done.done():
                done.set_result(None)
            try:
                result.unwrap()
            except BaseException as exc:  # noqa: BLE001 — say it: nothing fails silently
                self.post_message(m.NetFailed(f"{type(exc).__name__}: {exc}"))

        try:
            trio.lowlevel.start_guest_run(
                self.net.main,
                run_sync_soon_threadsafe=loop.call_soon_threadsafe,
                run_sync_soon_not_threadsafe=loop.call_soon,
                done_callback=finished,
                host_uses_signal_set_wakeup_fd=True,
            )
        except BaseException:
            done.set_result(None)
            raise

    async def _stop_trio(self) -> None:
        if self._trio_done is None:
            return
        self.net.scope.cancel()
        try:
            await asyncio.wait_for(asyncio.shield(self._trio_done), 5)
        except TimeoutError:
            pass

    async def on_unmount(self) -> None:
        await self._stop_trio()

    async def action_quit(self) -> None:
        await self._stop_trio()
        self.exit(message=self.farewell, return_code=0 if self.farewell is None else 1)

    # ------------------------------------------------------------------ starting points

    def play(self, launch: Launch) -> None:
        """An embedded server on loopback, a table with bots, and straight to it."""
        self._then = "play"
        self.launch = launch
        self.name_wanted = launch.name or self.name_wanted
        # A position's server deals nothing else: it is kept apart from the practice one.
        kind = "practice" if launch.position is None else f"position {launch.position}"
        if kind in self.servers:
            self.net.connect("127.0.0.1", self.servers[kind], self.name_wanted)
            return
        self._starting = kind
        self.net.start_server(kind, practice_server(launch))

    def host_lan(self, port: int, name: str, announce: bool = False) -> None:
        """A server for the LAN in this process, announced there by mDNS if `announce`; its
        lobby, with the address for friends. While one is hosted here already: its lobby if
        it is on `port`, else the player chooses it or a new one on `port` in its place."""
        self._then = "lobby"
        self.name_wanted = name
        hosted = self.servers.get("lan")
        if hosted is None:
            self._start_lan(port, announce)
        elif hosted == port:
            self.net.connect("127.0.0.1", hosted, name)
        else:
            self.push_screen(ChooseDialog(
                _("Your LAN game is still open on port {port}.").format(port=hosted),
                [(_("Back to your game on port {port}").format(port=hosted), False),
                 (_("Stop it, and host on port {port}").format(port=port), True)],
                help_line=_("{keys} or ⏎ to choose · esc: back to the menu")),
                partial(self._host_anew, port, announce))

    def _host_anew(self, port: int, announce: bool, anew: bool | None) -> None:
        """The player's choice between the LAN game hosted here and a new one on `port`
        (None, escape: neither, the menu stays)."""
        if anew is None:
            return
        if not anew:
            self.net.connect("127.0.0.1", self.servers["lan"], self.name_wanted)
            return
        self.stop_lan()
        self._start_lan(port, announce)

    def _start_lan(self, port: int, announce: bool) -> None:
        self._starting = "lan"
        # The games hosted here are kept for good with the host's own (see practice_server).
        self.net.start_server("lan", ServerConfig(
            host="0.0.0.0", port=port, db=default_path("play"), forget_tables=True,
            announce=announce, keep_guest_games=0))

    def stop_lan(self) -> None:
        """Stop the LAN server hosted here (from the menu: no one of ours is connected to
        it); its port is free, and friends at its tables are let go."""
        self.net.stop_server("lan")
        self.servers.pop("lan", None)
        self._show_hosting()

    def _show_hosting(self) -> None:
        """Give the menu the port of the LAN server hosted here (None: none is)."""
        for screen in self.screen_stack:
            if isinstance(screen, MenuScreen):
                screen.hosting = self.servers.get("lan")

    def join_server(self, host: str, port: int, name: str) -> None:
        self._then = "lobby"
        self.name_wanted = name
        self.net.connect(host, port, name)

    def on_server_started(self, msg: m.ServerStarted) -> None:
        if self._starting is not None:  # (always: a server starts once named in _starting)
            self.servers[self._starting] = msg.port
        self._show_hosting()
        self.net.connect("127.0.0.1", msg.port, self.name_wanted)

    def on_server_failed(self, msg: m.ServerFailed) -> None:
        self.notify(_("The server could not start: {reason}").format(reason=msg.reason),
                    severity="error", timeout=10)

    def _connected(self, name: str, given_back: str | None, renamed: str | None) -> None:
        if renamed is not None:
            self.notify(_("Known here as {name}: this server keeps the name your key first "
                          "played under, so {wanted} was not used.").format(
                              name=name, wanted=renamed), timeout=15)
        if self._then == "play":
            # A key whose seat the server kept gets it back at once: a table asked for
            # now would be refused ("already at a table"), so the player chooses.
            self._offer_back = given_back is not None
            if given_back is None:
                self.net.submit(do.CreateTable(practice_table(self.launch)))
            return
        self._show_lobby()

    def _show_lobby(self) -> None:
        """The server's lobby, with our rating (a game just left may have moved it) and
        its tables asked for: a new one above the menu, or in a lobby-only app its first
        screen, told of the welcome (or of the game left) and shown again. Asked here once,
        not by the lobby as it mounts: a second asking, before the first was answered,
        made the answer to the first a stray refusal on screen."""
        if self.launch.lobby_only:
            while len(self.screen_stack) > 1:
                self.pop_screen()
            self.redraw()
        else:
            self.switch_to(LobbyScreen())
        self.ask_own_rating()
        self.net.submit(do.ListTables())

    def _connect_failed(self, reason: str, code: str | None) -> None:
        reason = error_text(code) if code else reason
        if code == "name_taken" and isinstance(self.launch.identity, Vouched):
            # Through the SSH door, the name is the SSH user name: only another one will do.
            reason = _("The name {name} belongs to another player on this server: log in "
                       "under another user name (ssh NAME@ this server).").format(
                           name=self.name_wanted)
        self.notify(reason, title=_("Cannot connect"), severity="error", timeout=10)
        self.back_to_menu(reason)

    def on_net_failed(self, msg: m.NetFailed) -> None:
        self.notify(msg.reason, title=_("Network failure"), severity="error", timeout=15)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """A notice, in plain text unless markup is asked for: notices carry words from the
        server (error codes and reasons it may have no sentence for, goodbyes), which must
        show as they were sent."""
        super().notify(message, title=title, severity=severity, timeout=timeout,
                       markup=markup)

    # What the app knows of the server is the client core's: the screens read it here.

    @property
    def core(self) -> Core:
        return self.net.core

    @property
    def connected(self) -> bool:
        return self.core.connected

    @property
    def me(self) -> str:
        return self.core.me

    @property
    def server_name(self) -> str:
        return self.core.server

    @property
    def identified(self) -> bool:
        """The server knows us by our key (else we are a guest there)."""
        return self.core.identified

    @property
    def operator(self) -> bool:
        """Our key is one of the server's operators: the chat lines take their commands."""
        return self.core.operator

    @property
    def rating(self) -> float | None:
        """Our own ordinal on the server, when we are identified and rated there."""
        return self.core.rating

    @property
    def tables(self) -> list[dict[str, Any]]:
        return self.core.tables

    @property
    def table(self) -> TableState | None:
        return self.core.table

    @property
    def lobby_chat(self) -> list[tuple[str, str]]:
        return self.core.lobby_chat

    @property
    def tournament(self) -> Tournament | None:
        """The server's tournament as it last said, if it has one."""
        return self.core.tournament

    # ------------------------------------------------------------------ screens

    @property
    def _above_menu(self) -> int:
        """How many screens the stack holds up to the one above the menu: Textual's default
        screen, the menu, and the lobby or the table (its dialogs go over that); in a
        lobby-only app, the lobby (its first screen) and the table."""
        return 2 if self.launch.lobby_only else 3

    def switch_to(self, screen) -> None:
        """Show `screen` as the one screen above the menu."""
        while len(self.screen_stack) > self._above_menu:
            self.pop_screen()
        if len(self.screen_stack) == self._above_menu:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def back_to_menu(self, reason: str | None = None) -> None:
        """Off the server, back to the menu; a lobby-only app has none and ends, saying
        `reason` (why the server was lost, if it was) on the terminal it gives back."""
        self.net.disconnect()
        if self.launch.lobby_only:
            self.farewell = reason
            self.call_later(self.action_quit)
            return
        while len(self.screen_stack) > self._above_menu - 1:
            self.pop_screen()

    def redraw(self) -> None:
        """Tell every screen on the stack that the model changed."""
        self.tell(m.TableChanged())

    def tell(self, message: m.ToScreens) -> None:
        """Post a copy of `message` to every screen of the stack that runs: each screen
        takes its own copy, as a message is handled once. One still being made handles it
        once it has mounted (a screen handles its queue only then), so it misses nothing
        that came while it mounted: a lobby-only app's lobby, mounting as the server
        answers. One not running yet draws itself from the model when it mounts."""
        for screen in list(self.screen_stack):
            if screen.is_running:
                screen.post_message(replace(message))

    # ------------------------------------------------------------------ requests

    def play_move(self, move: Move, answers: int | None = None) -> bool:
        """Check the move on our own view, then send it; False (and said why) if refused.
        `answers`: the decision shown when it was asked (its View.opened): if another has
        replaced it since, nothing is sent and the screens are told (PromptReplaced)."""
        self.net.submit(do.Play(move, answers))
        table = self.table
        return table is not None and table.pending is not None and table.pending.move is move

    def say(self, text: str, scope: str) -> None:
        """Chat, or a command typed in the chat line: `/help`, and the operators' (and a
        creator's) `/kick`, `/mute`, `/ban`, `/close` (client/moderation.py)."""
        text = text.strip()
        word, _space, rest = text[1:].partition(" ")
        command = "help" if word.lower() == "help" else command_of(word)
        if text.startswith("/") and command is not None:
            self.command(command, rest)
        elif text:
            self.net.submit(do.SayText(text, scope))

    def command(self, word: str, rest: str) -> None:
        if word == "help":
            lines = moderation_usage(self.operator)
            self.notify("\n".join("/" + line for line in lines), title=_("Commands"),
                        timeout=15)
            return
        self.net.submit(do.Moderate(word, rest))

    def ready(self, ready: bool) -> None:
        self.net.submit(do.SetReady(ready))

    def start_game(self) -> None:
        self.net.submit(do.StartGame())

    def rematch(self) -> None:
        self.net.submit(do.AskRematch())

    def join_table(self, table: str | None = None, code: str | None = None,
                   spectate: bool = False) -> None:
        self.net.submit(do.JoinTable(table, code, spectate))

    def create_table(self, options: dict) -> None:
        self.net.submit(do.CreateTable(options))

    # ------------------------------------------------------------------ finished games

    def server_games(self) -> None:
        """The list of the connected server's finished games."""
        self.push_screen(GamesScreen(ServerGames(self.server_name)))

    def recent_games(self) -> None:
        """The list of the games this computer's own servers kept (`coup play`, LAN)."""
        self.push_screen(GamesScreen(LocalGames(default_path("play"))))

    def list_games(self, before: int | None, player: str | None) -> int | None:
        """Ask the server for a page of finished games; the request's id, None if not sent.
        The answer goes to the screens as `GamesPage`, a refusal as `Refused`."""
        return self.net.submit(do.ListGames(before, player))

    def fetch_game(self, game: int, review_as: int | None = None) -> None:
        """Ask the server for a finished game's record; the replay opens when it comes,
        with `review_as` the review of that seat's game running in it."""
        self._review_as = None if review_as is None else (game, review_as)
        self.net.submit(do.FetchGame(game, RECORD_FRAME))

    def show_replay(self, record: dict) -> None:
        """Open a finished game's replay over whatever is shown (as the seat its review was
        asked for, reviewing it, if it is that game's record)."""
        wanted, self._review_as = self._review_as, None
        seat = wanted[1] if wanted is not None and wanted[0] == record.get("game") else None
        try:
            screen = ReplayScreen(record, seat, review=seat is not None)
        except RecordError as exc:
            self.notify(_("This game cannot be replayed: {reason}").format(reason=exc),
                        severity="error", timeout=10)
            return
        self.push_screen(screen)

    # ------------------------------------------------------------------ ratings

    def leaderboard(self) -> None:
        """The connected server's rated players."""
        self.push_screen(LeaderboardScreen())

    def get_leaderboard(self, offset: int) -> int | None:
        """Ask for a page of the leaderboard; the request's id, None if not sent. The answer
        goes to the screens as `LeaderboardPage`, a refusal as `Refused`."""
        return self.net.submit(do.GetLeaderboard(offset))

    def get_profile(self, name: str) -> int | None:
        """Ask for the profile of the rated player `name`; the request's id, None if not
        sent. The answer goes to the screens as `ProfileCame`, a refusal as `Refused`."""
        return self.net.submit(do.GetProfile(name))

    def ask_own_rating(self) -> None:
        """Ask for our own rating, if the server knows us by our key: the lobby shows it
        once it comes (a guest, or a player not rated yet, has none)."""
        self.net.submit(do.OwnRating())

    def queue(self, seats: int | dict, variant: str) -> int | None:
        """Wait in the server's quick-play queue; the request's id, or None if not sent."""
        return self.net.submit(do.JoinQueue(seats, variant))

    def unqueue(self) -> None:
        self.net.submit(do.LeaveQueue())

    def leave_table(self) -> None:
        """Back to the lobby (from a practice table: back to the menu), once the server
        has let us go: what is asked meanwhile waits for that (the client core's rule)."""
        self.net.submit(do.Leave())

    def _back_or_new(self, new: bool | None) -> None:
        """The player's choice between the seat given back and a new practice table (None,
        escape: back to the table)."""
        if new:
            self._new_after_leave = True
            self.net.submit(do.Leave())

    def _left_table(self) -> None:
        if self._new_after_leave:
            self._new_after_leave = False
            self.net.submit(do.CreateTable(practice_table(self.launch)))
            return
        if self._then == "play":
            self.back_to_menu()
            return
        self._show_lobby()

    # ------------------------------------------------------------------ the core's events

    def on_core_step(self, message: m.CoreStep) -> None:
        message.step()  # the core keeps up even while the app closes (see _told)

    def _told(self, events: Sequence[ev.Event]) -> None:
        if not self.is_running:
            return  # closing: the screens are being taken apart, nothing is drawn again
        for event in events:
            self._event(event)

    def _event(self, event: ev.Event) -> None:
        match event:
            case ev.Connected(name, given_back=given_back, renamed=renamed):
                self._connected(name, given_back, renamed)
            case ev.ConnectFailed(reason, code):
                self._connect_failed(reason, code)
            case ev.ConnectionLost(reason, said, said_message):
                # Why, said once: the banner says "reconnecting" for as long as it lasts.
                self.notify(closed_text(reason, said, said_message), title=_("Connection lost"),
                            severity="warning", timeout=10)
                self.redraw()
            case ev.ConnectionBack():
                # The seat's name; a new one if the seat was given up (bad_token follows).
                self.redraw()
            case ev.Disconnected(reason, said, said_message):
                why = closed_text(reason, said, said_message)
                self.notify(why, title=_("Disconnected"), severity="warning", timeout=10)
                self.back_to_menu(why)
            case ev.NotConnected():
                self.notify(_("Not connected to a server."), severity="error")
            case ev.TablesListed():
                self.redraw()
            case ev.TableJoined(table):
                # A practice table waits for its player to look, and to press s (Start).
                self.switch_to(TableScreen(table))
                if self._offer_back:
                    self._offer_back = False
                    self.push_screen(ChooseDialog(
                        _("You still have a seat at this table."),
                        [(_("Back to your table"), False), (_("A new table"), True)]),
                        self._back_or_new)
            case ev.SeatBack():
                self.notify(_("Reconnected: your seat is back."))
                self.redraw()
            case ev.TableChanged():
                self.redraw()
            case ev.ViewChanged(came, decision_opened):
                if decision_opened and self.bell_wanted:
                    self.bell()  # a decision of ours has just opened: call the player back
                self.redraw_game([] if came.retold else came.unseen, came.new_game,
                                 came.unseen if came.retold else [])
            case ev.PendingChanged():
                self.redraw()
            case ev.MoveStale():
                self.tell(m.PromptReplaced())
            case ev.MoveWaits():
                self.notify(_("Waiting for the server to answer your last move."))
            case ev.MoveRefused(code, local, kind=kind):
                if local:
                    self.notify(move_refused_text(code, kind), severity="warning")
                else:
                    self.notify(error_text(code), title=_("Move refused"), severity="warning")
            case ev.Refused(code, re, said):
                self.notify(_with(error_text(code), said), severity="warning")
                self.tell(m.Refused(re, error_text(code)))
            case ev.TableGone(code, said):
                self.notify(_with(error_text(code), said), severity="error", timeout=10)
            case ev.TableLeft():
                self._left_table()
            case ev.Done():
                self.notify(_("Done."))
            case ev.CommandRefused(reason):
                self.notify(reason, severity="warning")
            case ev.ChatHeard(scope, name, text, seat):
                self.tell(m.ChatSaid(scope, name, text, seat))
            case ev.PresenceChanged(seat, status, name):
                self.redraw()
                self.tell(m.PresenceChanged(seat, status, name))
            case ev.PlayPaused():
                self.redraw()
            case ev.QueueChanged(waiting):
                self.tell(m.QueueChanged(waiting))
            case ev.GamesPage(re, games, after):
                self.tell(m.GamesPage(re, games, after))
            case ev.LeaderboardPage(re, players, after):
                self.tell(m.LeaderboardPage(re, players, after))
            case ev.ProfileCame(re, profile):
                self.tell(m.ProfileCame(re, profile))
            case ev.RatingChanged() | ev.TournamentChanged():
                self.redraw()
            case ev.RecordCame(record):
                self.show_replay(record)
            case ev.Goodbye(reason, message):
                self.notify(_with(error_text(reason), message),
                            title=_("The server says goodbye"), severity="warning",
                            timeout=10)

    def redraw_game(self, events, new_game: bool, earlier=()) -> None:
        """Tell every screen on the stack that a view came, with its log lines."""
        self.tell(m.TableChanged(new_view=True, events=tuple(events), new_game=new_game,
                                 earlier=tuple(earlier)))


def _with(text: str, said: str | None) -> str:
    """Our sentence, and the server's own after it when it said who acted and why (safe:
    the link made it so)."""
    return text if not said else text + "\n" + said
