"""The lobby of a server: its public tables, creating a table with every option, joining by
id or private code, spectating, the lobby's chat, and the server's finished games."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import (Checkbox, DataTable, Input, Label, RichLog, Select,
                             Static)

from ...i18n import N_, _, ngettext
from ..messages import ChatSaid, TableChanged
from ...narrate import game_label, strategy_choices, variant_choices
from ...standings import standings_lines
from ..widgets.footer import Footer
from ..widgets.log import WrappingLog
from ..widgets.tickbox import TickBox
from .base import CoupScreen
from .menu import Form, join_command, lan_address
from .quick import quick_play
from .ratings import rating_text
from .rules import RulesScreen


def clocks_text(options: dict) -> str:
    response, turn = options.get("response_clock", 0), options.get("turn_clock", 0)
    if not response and not turn:
        return _("no clock")
    return f"{response}s/{turn}s"


def who_sits(seats: list[dict]) -> str:
    """A table's seats for the list: how many are taken, the bots counted, and the people by
    name ("4/4 2 bots, Ana, Bruno")."""
    people = [s["name"] for s in seats if s["name"] and not s["bot"]]
    bots = sum(1 for s in seats if s["bot"])
    names = ([ngettext("{n} bot", "{n} bots", bots).format(n=bots)] if bots else []) + people
    return f"{len(people) + bots}/{len(seats)} " + _short(", ".join(names), 16)


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def status_text(status: str) -> str:
    return {"waiting": _("waiting"), "playing": _("playing"), "over": _("over")}.get(
        status, status)


def chat_placeholder(operator: bool) -> str:
    """What the lobby's empty chat line says: only an operator is shown the commands (to
    anyone else they say no)."""
    return (_("Say something, or /kick /mute /ban /close (/help)") if operator
            else _("Say something to the lobby"))


class TableList(DataTable):
    """The list of tables; enter joins the table under the cursor, and the footer says so
    (a DataTable's own enter is silent there)."""

    BINDINGS = [Binding("enter", "select_cursor", N_("Join"))]


class LobbyScreen(CoupScreen):
    # Short descriptions: with the list's Join, the footer fits in 80 columns in every
    # language. The rules (?) are not in it, to make room for quick play (q, "Play now": the
    # words that fit in Portuguese too): ? is where people look for help anyway. The ratings
    # (r) are not in it either: the footer has no room left for them.
    BINDINGS = [
        Binding("q", "quick", N_("Play now")),
        Binding("c", "create", N_("Create")),
        Binding("s", "spectate", N_("Spectate")),
        Binding("k", "code", N_("Code")),
        Binding("g", "games", N_("Games")),
        Binding("r", "ratings", N_("Ratings")),
        Binding("slash", "chat", N_("Chat")),
        Binding("question_mark", "rules", N_("Rules"), show=False),
        Binding("escape", "leave", N_("Leave")),
    ]
    #: Narrower than this, the chat goes under the list of tables, which needs the width.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]

    def __init__(self, where: str = "") -> None:
        super().__init__()
        #: The server being reached ("host:port"), said until it answers: a lobby-only
        #: app's lobby is its first screen.
        self.where = where

    def compose(self) -> ComposeResult:
        yield Static(id="lobby-header")
        with Horizontal(id="lobby-main"):
            # Without a table to list, the list is not drawn: its place says so (-empty).
            with Vertical(id="lobby-tables", classes="-empty"):
                yield TableList(id="tables", cursor_type="row", zebra_stripes=True,
                                cell_padding=0)
                yield Static(id="no-tables")
                # The server's tournament, while it has one: its line and standings.
                yield Static(id="lobby-tournament")
            with Vertical(id="lobby-chat") as chat:
                chat.border_title = _("Lobby chat")
                yield WrappingLog(id="chat-log", max_lines=500)
                yield Input(placeholder=chat_placeholder(self.coup.operator),
                            id="chat-input", max_length=500, compact=True)

    #: The line above the list (two with a LAN command): the server, who we are there, our
    #: rating.
    header: reactive[str] = reactive("", init=False, repaint=False)
    #: The public tables as the list's rows, each keyed by its first cell (the table's id):
    #: the list is drawn again only when they change.
    rows: reactive[tuple[tuple[str, ...], ...] | None] = reactive(None, init=False,
                                                                   repaint=False)
    #: The server's tournament in lines (standings.py), none while it has none.
    tournament: reactive[tuple[str, ...]] = reactive((), init=False, repaint=False)

    async def on_mount(self) -> None:
        # The chat so far is written once the log is laid out (it wraps what it is given at
        # its width then); what comes before that is in the history too.
        self._chat_shown = False
        if not self.built:
            return
        self.call_after_refresh(self._show_chat_history)
        self._changed()
        self.query_one("#tables", DataTable).focus()
        # Mounted once the list has the focus, whose Join is one of its keys: the footer is
        # built with its keys, in the lobby's first layout (client/tui/widgets/footer.py).
        await self.mount(Footer(compact=True))

    def _show_chat_history(self) -> None:
        if not self.built:
            return
        log = self.query_one("#chat-log", RichLog)
        for name, text in self.coup.lobby_chat:
            log.write(Text(f"{name}: {text}"))
        self._chat_shown = True

    @on(TableChanged)
    def _changed(self) -> None:
        if not self.built:
            return
        app = self.coup
        if not app.server_name:  # not welcomed yet: a lobby-only app's first screen
            self.header = _("Connecting to {server}…").format(server=self.where)
            return
        self.query_one("#chat-input", Input).placeholder = chat_placeholder(app.operator)
        you = (_("{server} — you are {name}") if app.identified
               else _("{server} — you are {name}, a guest"))
        header = you.format(server=app.server_name, name=app.me)
        if app.rating is not None:
            header += " · " + rating_text(app.rating)
        if "lan" in app.servers:  # on a line of its own: the one thing that must show whole
            header += "\n" + _("Friends on your network join with: {command}").format(
                command=join_command(lan_address(), app.servers["lan"]))
        self.header = header
        self.rows = tuple((t["table"], t["name"], who_sits(t["seats"]),
                           game_label(t["options"]),
                           clocks_text(t["options"]), status_text(t["status"]), t["table"])
                          for t in app.tables)
        self.tournament = (tuple(standings_lines(app.tournament))
                           if app.tournament is not None else ())

    def watch_tournament(self, lines: tuple[str, ...]) -> None:
        pane = self.query_one("#lobby-tournament", Static)
        pane.display = bool(lines)
        pane.update(Text("\n".join(lines)))

    def watch_header(self, header: str) -> None:
        self.query_one("#lobby-header", Static).update(Text(header))

    def watch_rows(self, rows: tuple[tuple[str, ...], ...]) -> None:
        """Draw the list anew, keeping the row the cursor was on.

        Columns get widths measured here: the table's own measuring lags behind a list
        that is redrawn twice a second. They are one space apart, not the table's two, so
        that every column, the id last, fits in 80 columns in every language.
        """
        table = self.query_one("#tables", DataTable)
        chosen = self._selected()
        # The id is what `coup bot --table` takes.
        labels = (_("Table"), _("Players"), _("Variant"), _("Clocks"), _("Status"), _("Id"))
        table.clear(columns=True)
        for n, label in enumerate(labels, 1):
            table.add_column(label, width=1 + max([len(label)] + [len(r[n]) for r in rows]))
        for key, *cells in rows:
            table.add_row(*(Text(c) for c in cells), key=key)
        if chosen is not None and chosen in {r[0] for r in rows}:
            table.move_cursor(row=table.get_row_index(chosen))
        self.query_one("#lobby-tables").set_class(not rows, "-empty")
        self.query_one("#no-tables", Static).update(
            "" if rows else _("No public tables yet: press c to create one."))

    @on(ChatSaid)
    def _chat(self, msg: ChatSaid) -> None:
        if msg.scope == "lobby" and self._chat_shown and self.built:
            self.query_one("#chat-log", RichLog).write(Text(f"{msg.name}: {msg.text}"))

    def _selected(self) -> str | None:
        table = self.query_one("#tables", DataTable)
        if table.row_count == 0:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    @on(DataTable.RowSelected, "#tables")
    def _join(self, event: DataTable.RowSelected) -> None:
        self.coup.join_table(table=event.row_key.value)

    def action_spectate(self) -> None:
        chosen = self._selected()
        if chosen is not None:
            self.coup.join_table(table=chosen, spectate=True)

    def action_quick(self) -> None:
        quick_play(self.app)

    def action_create(self) -> None:
        self.app.push_screen(CreateTableForm(), self._create)

    def _create(self, options) -> None:
        if options is not None:
            self.coup.create_table(options)

    def action_code(self) -> None:
        self.app.push_screen(CodeForm(), self._code)

    def _code(self, code) -> None:
        if code:
            self.coup.join_table(code=code)

    def action_games(self) -> None:
        self.coup.server_games()

    def action_ratings(self) -> None:
        self.coup.leaderboard()

    def action_chat(self) -> None:
        self.query_one("#chat-input", Input).focus()

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen())

    def action_leave(self) -> None:
        if self.focused is self.query_one("#chat-input", Input):
            self.query_one("#tables", DataTable).focus()
            return
        self.coup.back_to_menu()

    @on(Input.Submitted, "#chat-input")
    def _say(self, event: Input.Submitted) -> None:
        self.coup.say(event.value, "lobby")
        event.input.value = ""


class CodeForm(Form):
    """A private table's code: twelve letters and digits in groups of four (K7TQ-2MXD-9PLA),
    which the server reads in any case, with or without its dashes or spaces, up to 16
    characters."""

    TITLE_TEXT = N_("Join a private table")

    def fields(self) -> ComposeResult:
        yield Label(_("The table's code"))
        yield Input(id="code", placeholder="XXXX-XXXX-XXXX", max_length=16,
                    restrict=r"[0-9A-Za-z -]*", compact=True)
        yield Label(_("12 letters and digits, in any case, with or without the dashes."),
                    classes="dialog-help")

    def answer(self):
        code = self.query_one("#code", Input).value.strip().upper()
        if not code:
            self.notify(_("Type the code your friend gave you."), severity="warning")
            return None
        return code


class CreateTableForm(Form):
    """Every option a table has on the server."""

    TITLE_TEXT = N_("Create a table")

    def fields(self) -> ComposeResult:
        with Horizontal(classes="row"):
            with Vertical():
                yield Label(_("Name (optional)"))
                yield Input(id="table-name", max_length=32, compact=True)
            with Vertical():
                yield Label(_("Seats"))
                yield Select([(str(n), n) for n in range(2, 11)], value=4,
                             allow_blank=False, id="seats", compact=True)
            with Vertical():
                yield Label(_("Coins in the game"))
                yield Input("50", id="treasury", type="integer", compact=True)
        with Horizontal(classes="row"):
            with Vertical():
                yield Label(_("Variant"))
                yield Select(variant_choices(),
                             value="base", allow_blank=False, id="variant", compact=True)
            with Vertical():
                yield Label(_("Empty seats"))
                yield Select([(_("stay empty"), "")] + strategy_choices(),
                             value="", allow_blank=False, id="bots", compact=True)
        with Horizontal(classes="row"):
            with Vertical():
                yield Label(_("Answer clock, s (0: none)"))
                yield Input(placeholder=_("server default"), id="response-clock",
                            type="integer", compact=True)
            with Vertical():
                yield Label(_("Turn clock, s (0: none)"))
                yield Input(placeholder=_("server default"), id="turn-clock", type="integer",
                            compact=True)
        with Horizontal(classes="row"):
            with Vertical():
                yield Label(_("After a disconnect"))
                yield Select([(_("a bot plays on"), "bot"), (_("the seat forfeits"),
                                                            "forfeit")],
                             value="bot", allow_blank=False, id="on-disconnect", compact=True)
            with Vertical(classes="switches"):  # a line each, to fit 80x24
                yield TickBox(_("Private (join by code)"), id="private", compact=True)
                # R1.7: on unless turned off
                yield TickBox(_("Two-player draft"), value=True, id="draft", compact=True)
                yield TickBox(_("Rated (games move ratings)"), id="rated", compact=True)
                yield TickBox(_("Reformation: factions and the Almshouse"), id="reformation",
                              compact=True)

    def answer(self):
        try:
            treasury = int(self.query_one("#treasury", Input).value or 50)
            if not 20 <= treasury <= 1000:
                raise ValueError
        except ValueError:
            self.notify(_("The game holds from 20 to 1000 coins in all."), severity="warning")
            return None
        # A clock left empty is the server's default for its tables (`coup serve` flags).
        clocks = {}
        try:
            for field, key, longest in (("response-clock", "response_clock", 600),
                                        ("turn-clock", "turn_clock", 3600)):
                if text := self.query_one(f"#{field}", Input).value.strip():
                    clocks[key] = int(text)
                    if not 0 <= clocks[key] <= longest:
                        raise ValueError
        except ValueError:
            self.notify(_("Clocks are whole seconds: up to 600 to answer, 3600 per turn."),
                        severity="warning")
            return None
        options = {
            "seats": self.query_one("#seats", Select).value,
            "variant": self.query_one("#variant", Select).value,
            "treasury": treasury,
            **clocks,
            "on_disconnect": self.query_one("#on-disconnect", Select).value,
            "private": self.query_one("#private", Checkbox).value,
            "two_player_draft": self.query_one("#draft", Checkbox).value,
            "rated": self.query_one("#rated", Checkbox).value,
        }
        if bots := self.query_one("#bots", Select).value:
            options["bots"] = bots
        if self.query_one("#reformation", Checkbox).value:  # R12.1: asked only when on
            options["reformation"] = True
        # Unnamed, the table is named in the creator's language (the server's default name
        # is in English).
        name = self.query_one("#table-name", Input).value.strip()
        options["name"] = name or _("{name}'s table").format(name=self.coup.me)[:32]
        return options
