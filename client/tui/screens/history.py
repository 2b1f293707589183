"""Finished games, newest first, a page at a time, filtered by a player's name: those of the
server the app is connected to (the lobby's history), or those this computer's own games
left in its store (the menu's Recent games). Enter opens the game under the cursor in the
replay.

Where the games come from is a source. `ServerGames` asks the server: its answers come back
through the app, which posts them to this screen (`GamesPage`, `Refused`). `LocalGames`
reads the store file in a worker thread that posts the same messages, so that a slow disk
never holds up the screen; a file that is not there yet is a history with no games. Either
lists finished games only: a store's readers and a server's answers hold nothing else (R11).
"""

from __future__ import annotations

import itertools
from datetime import datetime
from pathlib import Path
from typing import Generic, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Input, Static

from protocol.messages import MAX_GAMES_LISTED
from protocol.text import shown_in
from server import Store, StoreError

from ..widgets.footer import Footer
from ...i18n import N_, _, ngettext
from ..messages import GamesPage, Refused
from ...core.table import TableState
from .base import CoupScreen


def when_text(iso: str) -> str:
    """An ISO 8601 time from a record as this computer's local date and time, to the
    minute: "2026-11-23 21:00"."""
    return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")


def players_text(players: list[dict]) -> str:
    """Who played: the people by name, then the bots counted ("Ana, Bruno, 2 bots")."""
    people = [p["name"] for p in players if p["name"] and not p["bot"]]
    bots = len(players) - len(people)
    return ", ".join(people + ([ngettext("{n} bot", "{n} bots", bots).format(n=bots)]
                               if bots else []))


def winner_text(line: dict) -> str:
    """The winner's name, as the table called the seat ("Bot 3 (Bluffer)" for a bot)."""
    return TableState(line["table"], None, players=line["players"]).name(line["winner"])


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


class ServerGames:
    """The finished games of the server the app is connected to."""

    def __init__(self, server: str) -> None:
        self.title = _("Finished games on {server}").format(server=server)

    def page(self, screen: GamesScreen, before: int | None, player: str | None) -> int | None:
        """Ask for a page; the id the answer will carry, or None if it could not be asked."""
        return screen.coup.list_games(before, player)

    def open(self, screen: GamesScreen, game: int) -> None:
        screen.coup.fetch_game(game)


class LocalGames:
    """The finished games kept in a store file on this computer (`coup play`'s, and those
    of the LAN games it hosted)."""

    _asks = itertools.count(1)

    def __init__(self, path: str) -> None:
        self.path = path
        self.title = _("Recent games on this computer")

    def page(self, screen: GamesScreen, before: int | None, player: str | None) -> int:
        asked = next(self._asks)

        def read() -> None:
            try:
                lines = self._read(
                    lambda store: store.finished(before, player, MAX_GAMES_LISTED + 1))
            except StoreError as exc:
                screen.post_message(Refused(asked, str(exc)))
                return
            more = len(lines) > MAX_GAMES_LISTED
            lines = lines[:MAX_GAMES_LISTED]
            screen.post_message(GamesPage(asked, lines, lines[-1]["game"] if more else None))

        screen.run_worker(read, thread=True, exit_on_error=False)
        return asked

    def open(self, screen: GamesScreen, game: int) -> None:
        def read() -> None:
            try:
                record = self._read(lambda store: store.record(game))
            except StoreError as exc:
                screen.app.call_from_thread(screen.app.notify, str(exc), severity="error")
                return
            if record is not None:
                screen.app.call_from_thread(screen.coup.show_replay, record)

        screen.run_worker(read, thread=True, exit_on_error=False)

    def _read(self, how):
        """What `how(store)` reads from the file (nothing, an empty list, if there is no
        file yet), its strings made safe for a terminal (protocol.text.shown: a file's
        names may be older than the server's checks); StoreError if it cannot be read."""
        if not Path(self.path).exists():
            return []
        store = Store(self.path, writer=False)
        try:
            return shown_in(how(store))
        except Exception as exc:  # sqlite3's errors, said as the store says them
            raise StoreError(f"cannot read {self.path}: {exc}") from exc
        finally:
            store.close()


class GameList(DataTable):
    """The games; enter replays the one under the cursor, and the footer says so (a
    DataTable's own enter is silent there)."""

    BINDINGS = [Binding("enter", "select_cursor", N_("Replay"))]


#: How a page is found: an offset, or a game's number (None: the newest).
Cursor = TypeVar("Cursor", int, int | None)


class Pages(Generic[Cursor]):
    """Where a list paged by the server is: the cursor of every page shown so far (the
    first page's is `first`), this one last, and the next page's as the server said
    (None: this is the last)."""

    def __init__(self, first: Cursor) -> None:
        self.cursors: list[Cursor] = [first]
        self.next: Cursor | None = None

    @property
    def cursor(self) -> Cursor:
        return self.cursors[-1]

    @property
    def number(self) -> int:
        return len(self.cursors)

    def forward(self) -> bool:
        """To the next page, if there is one."""
        if self.next is None:
            return False
        self.cursors.append(self.next)
        return True

    def back(self) -> bool:
        """To the page before, if there is one."""
        if len(self.cursors) == 1:
            return False
        self.cursors.pop()
        return True


class GamesScreen(CoupScreen):
    """A list of finished games from `source` (ServerGames or LocalGames)."""

    BINDINGS = [
        Binding("n", "next_page", N_("Next page")),
        Binding("p", "previous_page", N_("Previous page")),
        Binding("f", "filter", N_("Filter")),
        Binding("escape", "close", N_("Back")),
    ]

    def __init__(self, source: ServerGames | LocalGames) -> None:
        super().__init__()
        self.source = source
        #: The pages by their `before` (None: the newest).
        self.pages: Pages[int | None] = Pages(None)
        self.player: str | None = None
        #: The id of the page asked for last: an answer to any other is stale.
        self._asked: int | None = None
        self.lines: list[dict] = []

    def compose(self) -> ComposeResult:
        yield Static(Text(self.source.title, style="bold"), id="games-header")
        yield Input(placeholder=_("Filter by a player's name: ⏎ to apply, empty for all"),
                    id="games-filter", max_length=32, compact=True)
        yield GameList(id="games", cursor_type="row", zebra_stripes=True, cell_padding=0)
        yield Static(id="games-status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#games", GameList).focus()
        self._ask()

    def _ask(self) -> None:
        self.query_one("#games-status", Static).update(_("Reading the games…"))
        self._asked = self.source.page(self, self.pages.cursor, self.player)

    # ------------------------------------------------------------------ answers

    @on(GamesPage)
    def _page(self, page: GamesPage) -> None:
        if page.asked != self._asked or not self.built:
            return
        self.lines, self.pages.next = page.games, page.next
        self._show()

    @on(Refused)
    def _refused(self, refusal: Refused) -> None:
        """The page asked could not be read: why, in a sentence."""
        if refusal.asked != self._asked or not self.built:
            return
        self.query_one("#games-status", Static).update(Text(refusal.why))

    def _show(self) -> None:
        """The page as rows, in columns of measured widths: the players take the width the
        others leave (less the scroll bar and a column the table keeps), so that a row fits in
        80 columns with no sideways scrolling."""
        rows = [(str(g["game"]), when_text(g["started"]), g["table_name"],
                 players_text(g["players"]), winner_text(g), str(g["moves"]))
                for g in self.lines]
        labels = (_("When"), _("Table"), _("Players"), _("Winner"), _("Moves"))
        widths = [min(16, max([len(label)] + [len(r[n + 1]) for r in rows]))
                  for n, label in enumerate(labels)]
        others = sum(w + 1 for n, w in enumerate(widths) if n != 2)
        widths[2] = max(len(labels[2]), self.size.width - 5 - others)
        table = self.query_one("#games", GameList)
        table.clear(columns=True)
        for label, width in zip(labels, widths):
            table.add_column(label, width=width + 1)
        for key, *cells in rows:
            table.add_row(*(Text(_short(c, widths[n]), justify="right" if n == 4 else "left")
                            for n, c in enumerate(cells)), key=key)
        self.query_one("#games-status", Static).update(Text(self._status()))  # the filter as typed

    def on_resize(self) -> None:
        if self.lines:  # the players' column takes the new width
            self._show()

    def _status(self) -> str:
        if not self.lines:
            if self.player:
                return _("No finished games with a player named {name}.").format(
                    name=self.player)
            return _("No games yet: finished games show here.")
        if self.pages.number == 1 and self.pages.next is None:
            # Every game fits on this page: it holds the newest as much as the oldest.
            count = len(self.lines)
            if self.player:
                return ngettext("{count} game of {name}",
                                "{count} games of {name}, newest first", count).format(
                                    count=count, name=self.player)
            return ngettext("{count} game", "{count} games, newest first",
                            count).format(count=count)
        page = _("Page {n}").format(n=self.pages.number)
        if self.player:
            page += " · " + _("games of {name}").format(name=self.player)
        return page + " · " + (_("n: older games") if self.pages.next is not None
                                 else _("the oldest games"))

    # ------------------------------------------------------------------ keys

    @on(DataTable.RowSelected, "#games")
    def _game_chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if (game := event.row_key.value) is not None:  # each row is keyed by its game
            self.source.open(self, int(game))

    def action_next_page(self) -> None:
        if self.pages.forward():
            self._ask()

    def action_previous_page(self) -> None:
        if self.pages.back():
            self._ask()

    def action_filter(self) -> None:
        self.query_one("#games-filter", Input).focus()

    @on(Input.Submitted, "#games-filter")
    def _filter(self, event: Input.Submitted) -> None:
        event.stop()
        self.player = event.value.strip() or None
        self.pages = Pages(None)
        self.query_one("#games", GameList).focus()
        self._ask()

    def action_close(self) -> None:
        """Back where the list was opened (from the filter: back to the list)."""
        if self.focused is self.query_one("#games-filter", Input):
            self.query_one("#games", GameList).focus()
            return
        self.dismiss(None)
