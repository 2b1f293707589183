"""The Textual app: starts trio as a guest of its asyncio loop, keeps what the client knows,
and moves between the menu, the lobby, the table and the results.

`Launch` says how the app starts: at the menu (`coup`), at a table against bots (`coup play`:
an embedded server on loopback, the table created with its bots, started when the player
presses s), in a server's lobby (`coup join`), at the join form with the servers found on the
LAN (`coup join` with no address), or on a finished game's replay (`coup replay`, which
closes the app when it closes). Messages from the server arrive as
`Received` and update the model (the lobby's tables, the table's state); the screens are then
told by message (`tell`: one coalescing `TableChanged`, and the answers the model does not
keep) and redraw from it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import trio
from textual.app import App
from textual.binding import Binding
from textual.notifications import SeverityLevel

from engine import IllegalMove, Move, check
from engine.record import RecordError
from protocol import (
    CreateTable, GetGame, GetLeaderboard, GetProfile, Join, Leave, ListGames, ListTables,
    MoveRequest, Queue, Ready, Rematch, Say, Start, Unqueue,
)
from server import ServerConfig, default_path

from ..discovery import Browser, enabled
from ..i18n import N_, _
from ..identity import Vouched
from ..moderation import (
    CommandError, command_of, request as moderation_request, usage as moderation_usage,
)
from . import messages as m
from .launch import Launch, default_name, practice_server, practice_table
from .model import Pending, TableState
from .narrate import error_text
from .net import RECORD_FRAME, Net
from .screens.history import GamesScreen, LocalGames, ServerGames
from .screens.lobby import LobbyScreen
from .screens.menu import ArrivalScreen, MenuScreen
from .screens.ratings import LeaderboardScreen
from .screens.replay import ReplayScreen
from .screens.table import TableScreen


#: Errors, sent without `re`, that say the player's table is no longer theirs: the seat was
#: given up while they were away (bad_token, after a reconnect), or the table failed on the
#: server and was closed (table_failed). Either way the server has them in its lobby.
TABLE_GONE = frozenset({"bad_token", "table_failed", "kicked", "table_closed"})
#: Errors whose sentence from the server (who acted, and why) is worth showing after ours.
ACTS = frozenset({"kicked", "table_closed", "muted"})


class CoupApp(App):
    """Coup in the terminal."""

    CSS_PATH = Path(__file__).parent / "coup.tcss"
    TITLE = "Coup"
    BINDINGS = [
        Binding("ctrl+c", "quit", N_("Quit"), priority=True, show=False),
        Binding("ctrl+q", "quit", N_("Quit"), priority=True, show=False),
    ]

    def __init__(self, launch: Launch | None = None) -> None:
        super().__init__()
        self.launch = launch or Launch()
        self.name_wanted = self.launch.name or default_name()
        #: Ring the terminal's bell when a decision becomes ours (`--no-bell`: never); kept
        #: from the command line whatever the menu launches later.
        self.bell_wanted = self.launch.bell
        self.net = Net(self.post_message, self.launch.identity, self.launch.via)
        #: What finds the servers on the LAN for the join form: called with a callback, it
        #: returns something to `close`. None while discovery is off (COUP_DISCOVERY=off).
        self.discover: Callable[..., Browser] | None = Browser if enabled() else None
        self._trio_done: asyncio.Future | None = None
        #: The port of each server this process runs: "practice" (loopback, for `play`),
        #: "position FILE" (loopback, for `coup position`) and "lan" (every interface, for
        #: friends); each is started once and kept.
        self.servers: dict[str, int] = {}
        self._starting: str | None = None
        #: What to do once connected: "lobby", or "play" (create the table and start).
        self._then = "lobby"
        self.server_name = ""
        self.me = ""
        #: The server knows us by our key (else we are a guest there).
        self.identified = False
        #: Our key is one of the server's operators: the chat lines take their commands.
        self.operator = False
        #: The id of our latest operator's (or creator's) act, until the server answers.
        self._acting: int | None = None
        #: Our own ordinal on the server, when we are identified and rated there (the lobby
        #: shows it), and the id of the request that asks for it.
        self.rating: float | None = None
        self._rating_asked: int | None = None
        self.tables: list[dict] = []
        self.table: TableState | None = None
        self.lobby_chat: list[tuple[str, str]] = []
        self._ids = 0
        #: Said on the terminal the app gives back, when a lobby-only app ends for a reason.
        self.farewell: str | None = None

    # ------------------------------------------------------------------ trio, the guest

    def on_mount(self) -> None:
        self._start_trio()
        if self.launch.lobby_only:  # in the menu's place, under the lobby: no way out but quit
            self.push_screen(ArrivalScreen(f"{self.launch.host}:{self.launch.port}"))
            self.join_server(self.launch.host, self.launch.port, self.name_wanted)
            return
        menu = MenuScreen()
        self.push_screen(menu)
        if self.launch.mode == "find":
            menu.action_join()
        elif self.launch.mode == "play":
            self.play(self.launch)
        elif self.launch.mode == "join":
            self.join_server(self.launch.host, self.launch.port, self.name_wanted)
        elif self.launch.mode == "replay":
            self.push_screen(ReplayScreen(self.launch.record, self.launch.view_as),
                             lambda _closed: self.call_later(self.action_quit))

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
        self.net.start_server(practice_server(launch))

    def host_lan(self, port: int, name: str, announce: bool = False) -> None:
        """A server for the LAN in this process, announced there by mDNS if `announce`; its
        lobby, with the address for friends. The first one started stays as it was asked."""
        self._then = "lobby"
        self.name_wanted = name
        if "lan" in self.servers:
            self.net.connect("127.0.0.1", self.servers["lan"], name)
            return
        self._starting = "lan"
        # The games hosted here are kept for good with the host's own (see practice_server).
        self.net.start_server(ServerConfig(host="0.0.0.0", port=port, db=default_path("play"),
                                           forget_tables=True, announce=announce,
                                           keep_guest_games=0))

    def join_server(self, host: str, port: int, name: str) -> None:
        self._then = "lobby"
        self.name_wanted = name
        self.net.connect(host, port, name)

    def on_server_started(self, msg: m.ServerStarted) -> None:
        self.servers[self._starting] = msg.port
        self.net.connect("127.0.0.1", msg.port, self.name_wanted)

    def on_server_failed(self, msg: m.ServerFailed) -> None:
        self.notify(_("The server could not start: {reason}").format(reason=msg.reason),
                    severity="error", timeout=10)

    def on_connected(self, msg: m.Connected) -> None:
        self.me = msg.name
        self.identified = msg.identified
        self.operator = msg.operator
        self.server_name = msg.server
        if self._then == "play":
            self.request(CreateTable(id=self.next_id(), options=practice_table(self.launch)))
        else:
            self.switch_to(LobbyScreen())
            self.request(ListTables(id=self.next_id()))
            if msg.identified and msg.name.casefold() != self.name_wanted.casefold():
                # A key keeps the name it first played under: through the SSH door the
                # player typed another as the user name, and would not know why it was not
                # used.
                self.notify(_("Your key plays as {name} on this server; the name {wanted} "
                              "was not used.").format(name=msg.name, wanted=self.name_wanted),
                            timeout=15)

    def on_connect_failed(self, msg: m.ConnectFailed) -> None:
        reason = error_text(msg.code) if msg.code else msg.reason
        if msg.code == "name_taken" and isinstance(self.launch.identity, Vouched):
            # Through the SSH door, the name is the SSH user name: only another one will do.
            reason = _("The name {name} belongs to another player on this server: log in "
                       "under another user name (ssh NAME@ this server).").format(
                           name=self.name_wanted)
        self.notify(reason, title=_("Cannot connect"), severity="error", timeout=10)
        self.back_to_menu(reason)

    def on_connection_lost(self, msg: m.ConnectionLost) -> None:
        # Why, said once: the banner says "reconnecting" for as long as it lasts.
        self.notify(msg.reason, title=_("Connection lost"), severity="warning", timeout=10)
        self.redraw()

    def on_reconnected(self, msg: m.Reconnected) -> None:
        # The seat's name; a new one if the seat was given up meanwhile (bad_token follows).
        self.me = msg.name
        self.identified = msg.identified
        self.operator = msg.operator
        self.redraw()
        if self.table is None:  # back in a restarted server's lobby: its tables again
            self.request(ListTables(id=self.next_id()))

    def on_disconnected(self, msg: m.Disconnected) -> None:
        self.notify(msg.reason, title=_("Disconnected"), severity="warning", timeout=10)
        self.table = None
        self.back_to_menu(msg.reason)

    def on_net_failed(self, msg: m.NetFailed) -> None:
        self.notify(msg.reason, title=_("Network failure"), severity="error", timeout=15)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """A notice, in plain text unless markup is asked for: notices carry words from the
        server (error codes and reasons it may have no sentence for, goodbyes), which must
        show as they were sent."""
        super().notify(message, title=title, severity=severity, timeout=timeout,
                       markup=markup)

    @property
    def connected(self) -> bool:
        return self.net.link is not None

    # ------------------------------------------------------------------ screens

    # The stack is Textual's default screen, the menu, and at most one screen above it
    # (the lobby or the table), with its dialogs over that.
    _ABOVE_MENU = 3

    def switch_to(self, screen) -> None:
        """Show `screen` as the one screen above the menu."""
        while len(self.screen_stack) > self._ABOVE_MENU:
            self.pop_screen()
        if len(self.screen_stack) == self._ABOVE_MENU:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def back_to_menu(self, reason: str | None = None) -> None:
        """Off the server, back to the menu; a lobby-only app has none and ends, saying
        `reason` (why the server was lost, if it was) on the terminal it gives back."""
        self.net.disconnect()
        self.table = None
        if self.launch.lobby_only:
            self.farewell = reason
            self.call_later(self.action_quit)
            return
        while len(self.screen_stack) > self._ABOVE_MENU - 1:
            self.pop_screen()

    def redraw(self) -> None:
        """Tell every screen on the stack that the model changed."""
        self.tell(m.TableChanged())

    def tell(self, message: m.ToScreens) -> None:
        """Post a copy of `message` to every screen of the stack that is drawn already (one
        still being made draws itself from the model when it mounts): each screen takes its
        own copy, as a message is handled once."""
        for screen in list(self.screen_stack):
            if screen.is_mounted:
                screen.post_message(replace(message))

    # ------------------------------------------------------------------ requests

    def next_id(self) -> int:
        self._ids += 1
        return self._ids

    def request(self, msg) -> bool:
        if self.net.send(msg):
            return True
        self.notify(_("Not connected to a server."), severity="error")
        return False

    def play_move(self, move: Move) -> bool:
        """Check the move on our own view, then send it; False (and said why) if refused."""
        table = self.table
        if table is None or table.view is None or table.seat is None:
            return False
        if table.pending is not None:
            self.notify(_("Waiting for the server to answer your last move."))
            return False
        try:
            check(table.view, table.seat, move)
        except IllegalMove as exc:
            self.notify(error_text(exc.code), severity="warning")
            return False
        msg = MoveRequest(id=self.next_id(), state_id=table.view.state_id, move=move.to_dict())
        if not self.request(msg):
            return False
        table.pending = Pending(msg.id, move)
        self.redraw()
        return True

    def say(self, text: str, scope: str) -> None:
        """Chat, or a command typed in the chat line: `/help`, and the operators' (and a
        creator's) `/kick`, `/mute`, `/ban`, `/close` (client/moderation.py)."""
        text = text.strip()[:500]
        word, _space, rest = text[1:].partition(" ")
        command = "help" if word.lower() == "help" else command_of(word)
        if text.startswith("/") and command is not None:
            self.command(command, rest)
        elif text:
            self.request(Say(id=self.next_id(), text=text, scope=scope))

    def command(self, word: str, rest: str) -> None:
        if word == "help":
            lines = moderation_usage() if self.operator else moderation_usage()[:1]
            self.notify("\n".join("/" + line for line in lines), title=_("Commands"),
                        timeout=15)
            return
        try:
            msg = moderation_request(word, rest, self.next_id(),
                                     self.table.table if self.table is not None else None)
        except CommandError as exc:
            self.notify(str(exc), severity="warning")
            return
        if self.request(msg):
            self._acting = msg.id

    def ready(self, ready: bool) -> None:
        self.request(Ready(id=self.next_id(), ready=ready))

    def start_game(self) -> None:
        self.request(Start(id=self.next_id()))

    def rematch(self) -> None:
        self.request(Rematch(id=self.next_id()))

    def join_table(self, table: str | None = None, code: str | None = None,
                   spectate: bool = False) -> None:
        self.request(Join(id=self.next_id(), table=table, code=code,
                          spectate=True if spectate else None))

    def create_table(self, options: dict) -> None:
        self.request(CreateTable(id=self.next_id(), options=options))

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
        msg = ListGames(id=self.next_id(), before=before, player=player)
        return msg.id if self.request(msg) else None

    def fetch_game(self, game: int) -> None:
        """Ask the server for a finished game's record; the replay opens when it comes."""
        self.request(GetGame(id=self.next_id(), game=game, max_frame=RECORD_FRAME))

    def show_replay(self, record: dict) -> None:
        """Open a finished game's replay over whatever is shown."""
        try:
            screen = ReplayScreen(record)
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
        msg = GetLeaderboard(id=self.next_id(), offset=offset or None)
        return msg.id if self.request(msg) else None

    def get_profile(self, name: str) -> int | None:
        """Ask for the profile of the rated player `name`; the request's id, None if not
        sent. The answer goes to the screens as `ProfileCame`, a refusal as `Refused`."""
        msg = GetProfile(id=self.next_id(), name=name)
        return msg.id if self.request(msg) else None

    def ask_own_rating(self) -> None:
        """Ask for our own rating, if the server knows us by our key: the lobby shows it
        once it comes (a guest, or a player not rated yet, has none)."""
        self.rating = None
        if self.identified and self.connected:
            self._rating_asked = self.get_profile(self.me)

    def queue(self, seats: int | dict, variant: str) -> int | None:
        """Wait in the server's quick-play queue; the request's id, or None if not sent."""
        msg = Queue(id=self.next_id(), seats=seats, variant=variant)
        return msg.id if self.request(msg) else None

    def unqueue(self) -> None:
        self.request(Unqueue(id=self.next_id()))

    def leave_table(self) -> None:
        """Back to the lobby (from a practice table: back to the menu)."""
        self.request(Leave(id=self.next_id()))
        self._left_table()

    def _left_table(self) -> None:
        self.table = None
        self.net.token = None
        if self._then == "play":
            self.back_to_menu()
            return
        self.switch_to(LobbyScreen())
        self.request(ListTables(id=self.next_id()))

    # ------------------------------------------------------------------ from the server

    def on_received(self, event: m.Received) -> None:
        if not self.is_running:
            return  # closing: the screens are being taken apart, nothing is drawn again
        msg = event.msg
        handler = getattr(self, f"_on_{msg.TYPE}", None)
        if handler is not None:
            handler(msg)

    def _on_tables(self, msg) -> None:
        self.tables = msg.tables
        self.redraw()

    def _on_joined(self, msg) -> None:
        table = self.table
        if msg.re is None and table is not None and table.table == msg.table:
            table.seat = msg.seat  # our seat is back after a reconnect
            table.pending = None
            self.notify(_("Reconnected: your seat is back."))
            self.redraw()
            return
        self.table = TableState(msg.table, msg.seat, msg.token, msg.code)
        self.net.token = msg.token
        # A practice table waits for its player to look, and to press s (the Start item).
        self.switch_to(TableScreen(self.table))

    def _on_table(self, msg) -> None:
        if self.table is not None and msg.info["table"] == self.table.table:
            self.table.info = msg.info
            self.table.code = msg.info.get("code", self.table.code)
            self.redraw()

    def _on_snapshot(self, msg) -> None:
        self._new_view(msg)

    def _on_update(self, msg) -> None:
        self._new_view(msg)

    def _new_view(self, msg) -> None:
        table = self.table
        if table is None or msg.table != table.table:
            return
        came = table.arrive(msg)
        view, old = table.view, came.old
        if table.pending is not None and view.seat not in view.waiting:
            table.pending = None
        mine = view.seat is not None and view.seat in view.waiting and not view.over
        if mine and self.bell_wanted and (
                came.new_game or old.opened != view.opened or view.seat not in old.waiting):
            self.bell()  # a decision of ours has just opened: call the player back to it
        self.redraw_game([] if came.retold else came.unseen, came.new_game,
                         came.unseen if came.retold else [])

    def redraw_game(self, events, new_game: bool, earlier=()) -> None:
        """Tell every screen on the stack that a view came, with its log lines."""
        self.tell(m.TableChanged(new_view=True, events=tuple(events), new_game=new_game,
                                 earlier=tuple(earlier)))

    def _answered(self, re: int | None) -> None:
        """The server answered request `re`: if it was our pending move, it is no longer."""
        table = self.table
        if table is not None and table.pending is not None and table.pending.id == re:
            table.pending = None
            self.redraw()

    def _on_queued(self, msg) -> None:
        self.tell(m.QueueChanged(msg.waiting))

    def _on_queue_status(self, msg) -> None:
        self.tell(m.QueueChanged(msg.waiting))

    def _on_games(self, msg) -> None:
        self.tell(m.GamesPage(msg.re, msg.games, msg.next))

    def _on_leaderboard(self, msg) -> None:
        self.tell(m.LeaderboardPage(msg.re, msg.players, msg.next))

    def _on_profile(self, msg) -> None:
        if msg.re == self._rating_asked:
            self.rating = msg.profile["ordinal"]
            self.redraw()
            return
        self.tell(m.ProfileCame(msg.re, msg.profile))

    def _on_game_record(self, msg) -> None:
        self.show_replay(msg.record)

    def _on_paused(self, msg) -> None:
        if self.table is not None and msg.table == self.table.table:
            self.table.pause(msg.paused)
            self.redraw()

    def _on_move_accepted(self, msg) -> None:
        self._answered(msg.re)

    def _on_move_rejected(self, msg) -> None:
        self._answered(msg.re)
        self.notify(error_text(msg.code), title=_("Move refused"), severity="warning")

    def _on_ok(self, msg) -> None:
        if msg.re == self._acting:
            self._acting = None
            self.notify(_("Done."))

    def _on_error(self, msg) -> None:
        self._answered(msg.re)
        if msg.re is not None and msg.re == self._rating_asked:
            return  # not rated there (or no records kept): the lobby just shows no rating
        text = error_text(msg.code)
        if msg.code in ACTS:  # the server's sentence (who, why), safe: Link made it so
            text += "\n" + msg.message
        if msg.re is None and msg.code in TABLE_GONE and self.table is not None:
            self.notify(text, severity="error", timeout=10)
            self._left_table()
            return
        self.notify(text, severity="warning")
        self.tell(m.Refused(msg.re, error_text(msg.code)))

    def _on_chat(self, msg) -> None:
        if msg.scope == "lobby":
            self.lobby_chat.append((msg.name, msg.text))
            del self.lobby_chat[:-200]
        self.tell(m.ChatSaid(msg.scope, msg.name, msg.text, msg.seat))

    def _on_presence(self, msg) -> None:
        if self.table is not None and msg.table == self.table.table:
            self.table.set_presence(msg.seat, msg.status, msg.name)
            self.redraw()
            self.tell(m.PresenceChanged(msg.seat, msg.status, msg.name))

    def _on_bye(self, msg) -> None:
        text = error_text(msg.reason)
        if msg.reason == "banned" and msg.message:
            text += "\n" + msg.message
        self.notify(text, title=_("The server says goodbye"), severity="warning", timeout=10)
