"""The rated players of the server the app is connected to: the leaderboard, a page at a
time from the best ordinal (mu - 3 sigma) down, and one player's profile, with its rating and
its latest finished games (enter replays one).

The server's answers come back through the app, which hands them to every screen on the
stack (`LeaderboardPage`, `ProfileCame`, `Refused`); each screen takes only the answer to the
request it asked last. Both screens show finished games only, as the server tells nothing
else (R11).
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from ..widgets.footer import Footer
from ...i18n import N_, _, ngettext
from ..messages import LeaderboardPage, ProfileCame, Refused
from .base import CoupScreen
from .history import GameList, Pages, players_text, when_text, winner_text


def who_text(line: dict) -> str:
    """A rated player's name, a bot's marked as one ("heuristic (bot)")."""
    if line["player"].startswith("bot:"):
        return _("{name} (bot)").format(name=line["name"])
    return line["name"]


def share_text(line: dict) -> str:
    """The share of its games a player won, in whole percent ("40%")."""
    return f"{round(100 * line['wins'] / line['games'])}%" if line["games"] else "–"


def rating_text(ordinal: float) -> str:
    """The rating people read: the ordinal to one decimal ("rated 12.3")."""
    return _("rated {rating}").format(rating=f"{ordinal:.1f}")


class RankedList(DataTable):
    """The leaderboard's players; enter opens the profile of the one under the cursor, and
    the footer says so (a DataTable's own enter is silent there)."""

    BINDINGS = [Binding("enter", "select_cursor", N_("Profile"))]


class LeaderboardScreen(CoupScreen):
    """The server's rated players, best first, MAX_RANKED a page."""

    BINDINGS = [
        Binding("n", "next_page", N_("Next page")),
        Binding("p", "previous_page", N_("Previous page")),
        Binding("escape", "close", N_("Back")),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: The pages by their offset.
        self.pages: Pages[int] = Pages(0)
        self.lines: list[dict] | None = None
        #: The ids of the page and the profile asked for last: answers to others are stale.
        self._asked: int | None = None
        self._profile_asked: int | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(_("Ratings on {server}").format(server=self.coup.server_name),
                          style="bold"), id="ranked-header")
        yield RankedList(id="ranked", cursor_type="row", zebra_stripes=True, cell_padding=1)
        yield Static(id="ranked-status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#ranked", RankedList).focus()
        self._ask()

    def _ask(self) -> None:
        self.query_one("#ranked-status", Static).update(_("Reading the ratings…"))
        self._asked = self.coup.get_leaderboard(self.pages.cursor)

    # ------------------------------------------------------------------ answers

    @on(LeaderboardPage)
    def _page(self, page: LeaderboardPage) -> None:
        if page.asked != self._asked or not self.built:
            return
        lines = page.players
        self.lines, self.pages.next = lines, page.next
        table = self.query_one("#ranked", RankedList)
        table.clear(columns=True)
        for label in (_("Rank"), _("Player"), _("Rating"), _("Games"), _("Wins"),
                      _("Won")):
            table.add_column(label)
        for line in lines:
            table.add_row(*(Text(c, justify="left" if n == 1 else "right") for n, c in
                            enumerate((str(line["rank"]), who_text(line),
                                       f"{line['ordinal']:.1f}", str(line["games"]),
                                       str(line["wins"]), share_text(line)))),
                          key=line["name"])
        self.query_one("#ranked-status", Static).update(self._status())

    def _status(self) -> str:
        if not self.lines:
            return _("No one has played a rated game here yet.")
        page = _("Page {n}").format(n=self.pages.number)
        return page + " · " + (_("n: next page") if self.pages.next is not None
                               else _("the last page"))

    @on(ProfileCame)
    def _profile(self, came: ProfileCame) -> None:
        if came.asked == self._profile_asked and self.built:
            self.app.push_screen(ProfileScreen(came.profile))

    @on(Refused)
    def _refused(self, refusal: Refused) -> None:
        """The page asked could not be read: why, in a sentence."""
        if refusal.asked == self._asked and self.built:
            self.query_one("#ranked-status", Static).update(Text(refusal.why))

    # ------------------------------------------------------------------ keys

    @on(DataTable.RowSelected, "#ranked")
    def _profile_chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if (name := event.row_key.value) is not None:  # each row is keyed by its player
            self._profile_asked = self.coup.get_profile(name)

    def action_next_page(self) -> None:
        if self.pages.forward():
            self._ask()

    def action_previous_page(self) -> None:
        if self.pages.back():
            self._ask()

    def action_close(self) -> None:
        self.dismiss(None)


class ProfileScreen(CoupScreen):
    """One rated player: rank, rating (ordinal, mu ± sigma), record, and its latest finished
    games; enter replays the game under the cursor."""

    BINDINGS = [Binding("escape", "close", N_("Back"))]

    def __init__(self, profile: dict) -> None:
        super().__init__()
        self.player = profile

    def compose(self) -> ComposeResult:
        p = self.player
        yield Static(Text(who_text(p), style="bold"), id="profile-header")
        yield Static(Text("\n".join((
            _("Rank {rank} · {rating} (μ {mu} ± σ {sigma})").format(
                rank=p["rank"], rating=rating_text(p["ordinal"]), mu=f"{p['mu']:.1f}",
                sigma=f"{p['sigma']:.1f}"),
            ngettext("{n} rated game · {wins} won ({share})",
                     "{n} rated games · {wins} won ({share})", p["games"]).format(
                n=p["games"], wins=p["wins"], share=share_text(p)),
            _("Latest games:") if p["recent"] else _("No finished games to show."),
        ))), id="profile-rating")
        yield GameList(id="profile-games", cursor_type="row", zebra_stripes=True,
                       cell_padding=1)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#profile-games", GameList)
        for label in (_("When"), _("Players"), _("Winner")):
            table.add_column(label)
        for game in self.player["recent"]:
            table.add_row(*(Text(c) for c in (when_text(game["started"]),
                                              players_text(game["players"]),
                                              winner_text(game))), key=str(game["game"]))
        table.focus()

    @on(DataTable.RowSelected, "#profile-games")
    def _game_chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if (game := event.row_key.value) is not None:  # each row is keyed by its game
            self.coup.fetch_game(int(game))

    def action_close(self) -> None:
        self.dismiss(None)
