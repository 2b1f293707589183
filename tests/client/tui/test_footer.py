"""The screens' footer (client/tui/widgets/footer.py): its keys drawn in one line by one
widget, as Textual's footer draws them with a widget each (the snapshots hold their look),
pressed and lit by the mouse as theirs are; the lobby opens with its keys built once, not
once for each time its screen says its bindings may have changed, and a change the footer
shows is still shown."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer as TextualFooter

from client.i18n import set_language
from client.tui.app import Launch
from client.tui.screens.lobby import CreateTableForm, LobbyScreen
from client.tui.widgets.footer import Footer, Keys

from .helpers import pretend_connected, run_app, shown, until


@pytest.fixture
def keys_built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The description of each footer key built from now on."""
    built: list[str] = []
    init = Keys.__init__

    def counted(self: Keys, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        built.extend(key.description for key in self.keys)

    monkeypatch.setattr(Keys, "__init__", counted)
    return built


def described(app) -> list[str]:
    """What the keys in the footer of the app's screen say they do."""
    return [key.description for line in app.screen.query(Keys) for key in line.keys]


async def opened_lobby(app, pilot) -> LobbyScreen:
    pretend_connected(app)
    lobby = LobbyScreen()
    await app.push_screen(lobby)
    for _ in range(3):  # what the lobby's opening set off, settled
        await pilot.pause()
    return lobby


def test_the_lobby_s_footer_draws_its_keys_with_one_widget() -> None:
    """Textual's footer makes a widget of each key: the lobby's nine were a sixth of the CPU
    a door's session spent to its lobby."""
    async def body(app, pilot):
        lobby = await opened_lobby(app, pilot)
        footer = lobby.query_one(Footer)
        assert [type(child) for child in footer.children] == [Keys]
        line = shown(footer.query_one(Keys))
        for words in ("⏎ Join", "q Play now", "c Create", "esc Leave"):
            assert words in line

    run_app(Launch(), body)


def test_the_lobby_builds_its_footer_keys_once(keys_built: list[str]) -> None:
    async def body(app, pilot):
        keys_built.clear()
        await opened_lobby(app, pilot)
        assert "Play now" in described(app)
        assert sorted(keys_built) == sorted(described(app))

    run_app(Launch(), body)


def test_a_compact_footer_s_keys_are_not_styled_again_for_it(monkeypatch) -> None:
    """Textual gives each key the footer's -compact once the key is mounted, restyling it
    (and its parts) then: each key of the lobby's was styled twice as the lobby opened."""
    restyled: list[Keys] = []
    update_node_styles = Keys.update_node_styles

    def counted(self: Keys, animate: bool = True) -> None:
        restyled.append(self)
        update_node_styles(self, animate)

    async def body(app, pilot):
        monkeypatch.setattr(Keys, "update_node_styles", counted)
        lobby = await opened_lobby(app, pilot)
        assert lobby.query_one(Keys).has_class("-compact")
        assert restyled == []

    run_app(Launch(), body)


def test_the_footer_shows_a_change_of_its_keys() -> None:
    async def body(app, pilot):
        await opened_lobby(app, pilot)
        assert "Play now" in described(app)
        set_language("pt_BR")  # the descriptions are translated as the footer asks
        app.screen.refresh_bindings()
        for _ in range(3):
            await pilot.pause()
        assert "Play now" not in described(app)
        assert "Jogar já" in described(app)
        assert "k Código" in shown(app.screen.query_one(Keys))

    run_app(Launch(), body)


def column_of(line: Keys, action: str) -> int:
    """A column of the footer's line inside the key bound to `action`."""
    return next(start + 1 for key, start, _end in line.spans() if key.action == action)


def test_a_key_clicked_in_the_footer_is_pressed() -> None:
    async def body(app, pilot):
        lobby = await opened_lobby(app, pilot)
        line = lobby.query_one(Keys)
        await pilot.click(Keys, offset=(column_of(line, "create"), 0))
        await until(pilot, lambda: isinstance(app.screen, CreateTableForm), "the form")

    run_app(Launch(), body)


class Bound(App[None]):
    """An app with a footer (`footer`, Textual's or ours) that shows a key that can be
    pressed, one that cannot now, and one more."""

    ENABLE_COMMAND_PALETTE = False  # as the CoupApp
    BINDINGS = [Binding("x", "x", "Ex", tooltip="Does x"), Binding("y", "y", "Why"),
                Binding("z", "z", "Zed")]

    def __init__(self, footer: type[TextualFooter] = Footer, compact: bool = False) -> None:
        super().__init__()
        self.footer, self.compact = footer, compact
        self.done: list[str] = []

    def compose(self) -> ComposeResult:
        yield self.footer(compact=self.compact)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "y" else True  # shown, disabled

    def action_x(self) -> None:
        self.done.append("x")

    def bell(self) -> None:
        self.done.append("bell")


async def footer_row(footer: type[TextualFooter], compact: bool,
                     hover: int | None) -> list[tuple[object, ...]]:
    """The footer's row on the screen of a Bound app, cell by cell: its character and what
    it looks drawn with (a space, its background alone), the mouse over column `hover` (if
    given)."""
    app = Bound(footer, compact)
    async with app.run_test(size=(40, 3)) as pilot:
        await until(pilot, lambda: "Zed" in app.screen._compositor.render_strips()[-1].text,
                    "the footer's keys")
        if hover is not None:
            await pilot.hover(offset=(hover, 2))
            await pilot.pause()
        row = app.screen._compositor.render_strips()[-1]
        return [(character, style.bgcolor) + ((style.color, style.bold, style.dim)
                                              if character.strip() else ())
                for text, style, _ in row for character in text if style is not None]


@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("hover", [None, 1, 6, 12, 39])
def test_the_keys_look_as_textual_s_own_footer_draws_them(compact: bool,
                                                           hover: int | None) -> None:
    """Keys pressed or not, enabled or not, under the mouse or not, compact or not: cell
    for cell what Textual's footer draws, one widget a key (the snapshots show the app's
    screens with it)."""
    ours = asyncio.run(footer_row(Footer, compact, hover))
    textual = asyncio.run(footer_row(TextualFooter, compact, hover))
    assert ours == textual


def test_a_key_clicked_is_pressed_a_disabled_one_rings_and_a_tooltip_shows() -> None:
    async def body() -> None:
        app = Bound()
        async with app.run_test() as pilot:
            line = await until(pilot, lambda: app.screen.query(Keys)
                               and app.screen.query_one(Keys), "the footer's keys")
            starts = {key.action: start for key, start, _end in line.spans()}
            await pilot.click(Keys, offset=(starts["y"] + 1, 0))
            await pilot.click(Keys, offset=(starts["x"] + 1, 0))
            await pilot.pause()
            assert app.done == ["bell", "x"]
            await pilot.hover(Keys, offset=(starts["x"] + 1, 0))
            assert line.tooltip == "Does x"
            await pilot.hover(Keys, offset=(starts["z"] + 1, 0))
            assert line.tooltip is None

    asyncio.run(body())
