"""The main menu (`coup`), and the small forms that start a game from it: against bots, on a
server, or hosting one for the LAN. Its Recent games lists the games this computer kept. A LAN
game hosted here listens on after its lobby is left: the menu says where, and stops it."""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass
from typing import TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from engine.bots.levels import DEFAULT_LEVEL
from protocol import DEFAULT_PORT

from ...discovery import Browser, Found
from ...i18n import N_, _
from ...net import LinkError, parse_address
from ...launch import CLOCKS, Launch
from ...narrate import strategy_choices, variant_choices
from ..widgets.footer import Footer
from ..widgets.tickbox import TickBox
from .base import CoupModal, CoupScreen
from .rules import RulesScreen

T = TypeVar("T")

TITLE_ART = """\
 ██████  ██████  ██    ██ ██████
██      ██    ██ ██    ██ ██   ██
██      ██    ██ ██    ██ ██████
██      ██    ██ ██    ██ ██
 ██████  ██████   ██████  ██"""


def clock_choices() -> list[tuple[str, str]]:
    """The practice table's clocks (launch.CLOCKS) as a form's (label, value) choices."""
    labels = {"relaxed": _("Relaxed: {answer} s to answer, {turn} s a turn"),
              "off": _("Off: take all the time you want"),
              "server": _("The server's: {answer} s to answer, {turn} s a turn")}
    return [(labels[name].format(answer=answer, turn=turn), name)
            for name, (answer, turn) in CLOCKS.items()]


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent to find it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def join_command(address: str, port: int | str) -> str:
    """What friends type to join a game hosted here."""
    return f"coup join {address}:{port}"


class MenuScreen(CoupScreen):
    """The entries, and under the subtitle the LAN game hosted here, if one is (with an
    entry that stops it)."""

    BINDINGS = [
        Binding("p", "play", N_("Play")),
        Binding("j", "join", N_("Join")),
        Binding("h", "host", N_("Host")),
        Binding("g", "games", N_("Games")),
        Binding("question_mark", "rules", N_("Rules")),
        Binding("q", "app.quit", N_("Quit")),
    ]

    #: The port of the LAN server this app hosts (the app sets it), None while it hosts none.
    hosting: reactive[int | None] = reactive(None, init=False)

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            with Center():
                yield Static(TITLE_ART, id="title")
            with Center():
                yield Static(_("The bluffing card game"), id="subtitle")
            with Center():
                yield Static(id="hosting")
            with Center():
                yield OptionList(*self._entries(), id="menu")
        yield Footer()

    def _entries(self) -> list[Option]:
        stop = [Option(_("Stop hosting the LAN game"), id="stop")] if self.hosting else []
        return [
            Option(_("Play against bots"), id="play"),
            Option(_("Join a server"), id="join"),
            Option(_("Host a LAN game"), id="host"),
            *stop,
            Option(_("Recent games"), id="games"),
            Option(_("Rules"), id="rules"),
            Option(_("Quit"), id="quit"),
        ]

    def on_mount(self) -> None:
        self.query_one("#hosting", Static).display = False

    def watch_hosting(self, port: int | None) -> None:
        said = self.query_one("#hosting", Static)
        said.display = port is not None
        if port is not None:
            said.update(_("Your LAN game is still open. Friends join with:\n{command}").format(
                command=join_command(lan_address(), port)))
        entries = self.query_one("#menu", OptionList)
        chosen = entries.highlighted_option.id if entries.highlighted_option else None
        entries.clear_options()
        entries.add_options(self._entries())
        ids = [option.id for option in self._entries()]
        entries.highlighted = ids.index(chosen) if chosen in ids else 0

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == "quit":
            await self.run_action("app.quit")
        elif event.option.id is not None:  # each option is named for its action
            await self.run_action(event.option.id)

    def action_play(self) -> None:
        self.app.push_screen(PlayForm(self.coup.name_wanted), self._play)

    def action_join(self) -> None:
        self.app.push_screen(JoinForm(self.coup.name_wanted), self._join)

    def action_host(self) -> None:
        self.app.push_screen(HostForm(self.coup.name_wanted), self._host)

    def action_games(self) -> None:
        self.coup.recent_games()

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen())

    def action_stop(self) -> None:
        self.coup.stop_lan()

    def _play(self, launch) -> None:
        if launch is not None:
            self.coup.play(launch)

    def _join(self, answer) -> None:
        if answer is not None:
            host, port, name = answer
            self.coup.join_server(host, port, name)

    def _host(self, answer) -> None:
        if answer is not None:
            port, name, announce = answer
            self.coup.host_lan(port, name, announce)


class Form(CoupModal):
    """A dialog of labelled fields with OK and Cancel; subclasses say what it returns."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    TITLE_TEXT = ""

    def fields(self) -> ComposeResult:
        raise NotImplementedError

    def answer(self):
        """The form's result, or None (after saying why) if a field is wrong."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog form"):
            yield Label(_(self.TITLE_TEXT), classes="dialog-title")
            yield from self.fields()
            with Horizontal(classes="buttons"):
                yield Button(_("OK"), variant="primary", id="ok")
                yield Button(_("Cancel"), id="cancel")

    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        self._submit()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)

    def on_input_submitted(self) -> None:
        self._submit()

    def choice(self, selector: str, kind: type[T]) -> T:
        """What is chosen in the Select `selector`, one of its `kind` values (a form's
        selects allow no blank)."""
        value = self.query_one(selector, Select).value
        if not isinstance(value, kind):
            raise TypeError(f"{selector} holds {value!r}, not a {kind.__name__}")
        return value

    def _submit(self) -> None:
        result = self.answer()
        if result is not None:
            self.dismiss(result)

    def action_cancel(self) -> None:
        self.dismiss(None)


class NamedForm(Form):
    """A form that also asks the player's name, offering `name` first."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def name_field(self) -> ComposeResult:
        yield Label(_("Your name"))
        yield Input(self.player, id="name", max_length=32, compact=True)

    def name_value(self) -> str | None:
        name = self.query_one("#name", Input).value.strip()
        if not name:
            self.notify(_("Choose a name."), severity="warning")
            return None
        return name


class NameForm(NamedForm):
    """The first run's question: the name to play under, offering a default; it answers the
    name, kept by the app for the runs to come (Cancel: the default, this once)."""

    TITLE_TEXT = N_("Welcome to Coup")

    def fields(self) -> ComposeResult:
        yield from self.name_field()
        yield Static(_("The name the other players see. It is kept for the next games; a "
                       "server that knew you before keeps the name it knew."),
                     classes="dialog-help")

    def answer(self) -> str | None:
        return self.name_value()


class PlayForm(NamedForm):
    TITLE_TEXT = N_("Play against bots")

    def fields(self) -> ComposeResult:
        yield from self.name_field()
        yield Label(_("Bots"))
        yield Select([(str(n), n) for n in range(1, 10)], value=3, allow_blank=False,
                     id="bots", compact=True)
        yield Label(_("Level"))
        yield Select(strategy_choices(), value=DEFAULT_LEVEL,
                     allow_blank=False, id="strategy", compact=True)
        with Horizontal(classes="row"):  # side by side: the form fits 80x24
            with Vertical():
                yield Label(_("Variant"))
                yield Select(variant_choices(), value="base",
                             allow_blank=False, id="variant", compact=True)
            with Vertical():
                yield Label(_("Expansion"))
                yield TickBox(_("Reformation: factions and the Almshouse"),
                              id="reformation", compact=True)
        yield Label(_("Clocks"))
        yield Select(clock_choices(), value="relaxed", allow_blank=False, id="clock",
                     compact=True)

    def answer(self):
        name = self.name_value()
        if name is None:
            return None
        answer, turn = CLOCKS[self.choice("#clock", str)]
        return Launch("play", name=name, bots=self.choice("#bots", int),
                      strategy=self.choice("#strategy", str),
                      variant=self.choice("#variant", str),
                      reformation=self.query_one("#reformation", Checkbox).value,
                      response_clock=answer, turn_clock=turn)


class JoinForm(NamedForm):
    """The address, and under it the servers that announce themselves on this network, live
    (the app's `discover`; none listed when discovery is off): choosing one joins it."""

    TITLE_TEXT = N_("Join a server")

    @dataclass
    class Heard(Message):
        """News of server `key` on the LAN (from the browser's thread); found None: gone."""

        key: str
        found: Found | None

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.found: dict[str, Found] = {}
        self._browser: Browser | None = None

    def fields(self) -> ComposeResult:
        yield Label(_("Server address (host or host:port)"))
        yield Input(f"127.0.0.1:{DEFAULT_PORT}", id="address", compact=True)
        if self.coup.discover is not None:
            yield Label(_("Servers on this network"))
            yield OptionList(id="servers", compact=True)
        yield from self.name_field()

    def on_mount(self) -> None:
        if self.coup.discover is None:
            return
        try:
            self._browser = self.coup.discover(
                lambda key, found: self.post_message(self.Heard(key, found)))
        except OSError as exc:
            self.query_one("#servers", OptionList).add_option(Option(
                _("Cannot look for servers on this network: {reason}").format(reason=exc),
                disabled=True))
            return
        self._list_servers()

    async def on_unmount(self) -> None:
        if self._browser is not None:
            await asyncio.to_thread(self._browser.close)  # it waits for zeroconf's threads

    def on_join_form_heard(self, event: Heard) -> None:
        if event.found is None:
            self.found.pop(event.key, None)
        else:
            self.found[event.key] = event.found
        self._list_servers()

    def _list_servers(self) -> None:
        """The list anew, the server the player had highlighted still highlighted (else the
        first: Enter on the list joins it, with no arrow key first)."""
        servers = self.query_one("#servers", OptionList)
        chosen = servers.highlighted_option.id if servers.highlighted_option else None
        servers.clear_options()
        if not self.found:
            servers.add_option(Option(_("Looking for servers…"), disabled=True))
        for key, found in sorted(self.found.items(), key=lambda item: item[1].name.lower()):
            # A name from the network: plain text, never markup (which it could break).
            servers.add_option(Option(Content("  ".join(found.said())), id=key))
        if chosen in self.found:
            servers.highlighted = servers.get_option_index(chosen)
        elif self.found:
            servers.highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        found = self.found.get(event.option.id) if event.option.id is not None else None
        if found is not None:
            self.query_one("#address", Input).value = found.where
            self._submit()

    def answer(self):
        name = self.name_value()
        if name is None:
            return None
        try:
            host, port = parse_address(self.query_one("#address", Input).value.strip())
        except LinkError:
            self.notify(_("That is not an address: write host or host:port."),
                        severity="warning")
            return None
        return host, port, name


class HostForm(NamedForm):
    """Your name first (where the focus starts), then the port; the command friends type to
    join sits on a line of its own, whole at any width, and follows the port. Announcing the
    game on the network is off until the host ticks it."""

    TITLE_TEXT = N_("Host a LAN game")

    def fields(self) -> ComposeResult:
        yield from self.name_field()
        yield Label(_("Port"))
        yield Input(str(DEFAULT_PORT), id="port", type="integer", compact=True)
        yield Label(_("Friends on your network join with:"))
        yield Label(join_command(lan_address(), DEFAULT_PORT), id="address")
        # Off until the host chooses it: a cafe's network is not theirs to announce on.
        yield TickBox(_("Announce on this network"), id="announce", compact=True)
        yield Static(_("Everyone on this network will then see the game and its address "
                       "in their list of servers."), classes="dialog-help")

    @on(Input.Changed, "#port")
    def _port_changed(self, event: Input.Changed) -> None:
        self.query_one("#address", Label).update(
            join_command(lan_address(), event.value or "…"))

    def answer(self):
        name = self.name_value()
        if name is None:
            return None
        try:
            port = int(self.query_one("#port", Input).value)
            if not 0 < port < 65536:
                raise ValueError
        except ValueError:
            self.notify(_("A port is a number from 1 to 65535."), severity="warning")
            return None
        return port, name, self.query_one("#announce", Checkbox).value
