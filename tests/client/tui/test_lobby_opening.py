"""What the lobby costs as it opens (issue 32, the doors): a door's session pays for every
time its screen is styled, laid out and drawn, so the lobby comes up in as few of them as
it can. Its first layout already has what it shows: its breakpoint class for the size of
the terminal, and the keys in its footer."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.screen import Screen
from textual.widgets import DataTable, RichLog
from textual.widgets._toast import Toast, ToastRack

from client.tui.app import Launch
from client.tui.screens.lobby import LobbyScreen
from client.tui.widgets.footer import Keys
from protocol import Tables

from .helpers import from_server, pretend_connected, run_app, shown, until

#: A table as the server lists it.
TABLE = {"table": "beef01", "name": "Bruno's den", "status": "waiting",
         "seats": [{"seat": 0, "name": "Bruno", "bot": None, "ready": True, "away": False},
                   {"seat": 1, "name": None, "bot": None, "ready": False, "away": False}],
         "options": {"variant": "classic", "response_clock": 20, "turn_clock": 60}}


async def opened(app, pilot, settled: bool = False) -> LobbyScreen:
    """The lobby, pushed on an app that believes it is connected, once drawn (`settled`:
    once what its opening set off has settled too)."""
    pretend_connected(app)
    lobby = LobbyScreen()
    await app.push_screen(lobby)
    for _ in range(3 if settled else 1):
        await pilot.pause()
    return lobby


@pytest.fixture
def first_layouts(monkeypatch: pytest.MonkeyPatch) -> dict[Screen, tuple[set[str], int]]:
    """Each screen laid out from now on: its classes and its footer's keys at its first
    layout."""
    seen: dict[Screen, tuple[set[str], int]] = {}
    refresh_layout = Screen._refresh_layout

    def looked(self: Screen, *args: object, **kwargs: object) -> None:
        seen.setdefault(self, (set(self.classes), sum(len(line.keys) for line in self.query(Keys))))
        refresh_layout(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Screen, "_refresh_layout", looked)
    return seen


@pytest.mark.parametrize("width,wanted", [(100, "-wide"), (80, "-narrow")])
def test_the_lobby_is_laid_out_first_with_its_breakpoint_class(first_layouts, width,
                                                               wanted) -> None:
    """Given it only at its first layout, the class restyled the whole screen and laid it
    out again."""
    async def body(app, pilot):
        lobby = await opened(app, pilot)
        classes, _keys = first_layouts[lobby]
        assert wanted in classes
        assert lobby.has_class(wanted)

    run_app(Launch(), body, size=(width, 30))


def test_the_lobby_is_laid_out_first_with_the_keys_of_its_footer(first_layouts) -> None:
    """Built only once the list had the focus (whose Join is one of them), the keys were
    mounted after the lobby's first layout, and laid out and drawn twice more."""
    async def body(app, pilot):
        lobby = await opened(app, pilot, settled=True)
        _classes, keys = first_layouts[lobby]
        assert keys == len(lobby.query_one(Keys).keys) > 0

    run_app(Launch(), body)


@pytest.fixture
def restyled(monkeypatch: pytest.MonkeyPatch) -> list[Screen]:
    """Each screen restyled as a whole (itself and all it holds) from now on."""
    seen: list[Screen] = []
    update_node_styles = Screen.update_node_styles

    def counted(self: Screen, animate: bool = True) -> None:
        seen.append(self)
        update_node_styles(self, animate)

    monkeypatch.setattr(Screen, "update_node_styles", counted)
    return seen


def test_the_lobby_is_styled_as_it_is_mounted_and_not_all_again_as_it_is_shown(
        restyled) -> None:
    """Textual restyles a screen and all it holds each time it is shown, the first time
    too, right after each widget was styled as it was mounted: the lobby's 31 nodes and
    their parts, half of what a door's session spent on styles as it opened."""
    async def body(app, pilot):
        lobby = await opened(app, pilot, settled=True)
        assert lobby not in restyled

    run_app(Launch(), body)



@pytest.fixture
def layouts(monkeypatch: pytest.MonkeyPatch) -> list[Screen]:
    """Each screen laid out from now on, once for each time."""
    seen: list[Screen] = []
    refresh_layout = Screen._refresh_layout

    def counted(self: Screen, *args: object, **kwargs: object) -> None:
        seen.append(self)
        refresh_layout(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return seen


def test_the_lobby_is_not_laid_out_again_for_its_own_size_or_its_hidden_notices(
        layouts) -> None:
    """Textual laid a new screen out again for the size its first layout gave it (it tells
    the screen its size as it tells each widget), and the screen under it too; and once more
    when the notices' rack, hidden, was hidden again as the screen was shown. What is left
    is Textual's own: it lays a pushed screen out again once its mount has been awaited."""
    async def body(app, pilot):
        pretend_connected(app)
        await pilot.pause()  # the screen under it, settled
        under = app.screen
        before = len(layouts)
        lobby = LobbyScreen()
        await app.push_screen(lobby)
        for _ in range(3):
            await pilot.pause()
        assert layouts[before:].count(lobby) == 2
        assert under not in layouts[before:]

    run_app(Launch(), body, notifications=True)


def test_the_lobby_is_laid_out_again_for_a_terminal_of_another_size(layouts) -> None:
    async def body(app, pilot):
        lobby = await opened(app, pilot)
        before = len(layouts)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert lobby in layouts[before:]
        assert lobby.outer_size == (120, 40)

    run_app(Launch(), body)


def test_a_notice_is_shown_on_the_lobby(layouts) -> None:
    """Its rack is hidden as the lobby is shown; a notice still shows it."""
    async def body(app, pilot):
        lobby = await opened(app, pilot)
        lobby.notify("Table 7 is full")
        await pilot.pause()
        rack = lobby.query_one(ToastRack)
        assert rack.display
        assert "Table 7 is full" in str(rack.query_one(Toast).render())

    run_app(Launch(), body, notifications=True)


def test_an_empty_list_of_tables_is_not_drawn_and_the_lobby_says_so_in_its_place() -> None:
    """An empty grid (its line of headings, then blank lines to the foot of its pane) was
    a sixth of what a door's session drew as its lobby opened, above a line saying there
    is no table. That line is now the pane's first, and the grid comes with the first
    table, the focus on it as before (its Join in the footer)."""
    async def body(app, pilot):
        lobby = await opened(app, pilot)
        grid = lobby.query_one("#tables", DataTable)
        none = lobby.query_one("#no-tables")
        assert not grid.display
        assert none.region.y == lobby.query_one("#lobby-tables").region.y
        assert "press c" in shown(none)
        assert grid.has_focus
        from_server(app, Tables(tables=[TABLE]))
        await until(pilot, lambda: grid.display and grid.row_count == 1, "the table listed")
        assert grid.has_focus and grid.region.y == lobby.query_one("#lobby-tables").region.y
        assert shown(none).strip() == ""
        from_server(app, Tables(tables=[]))
        await until(pilot, lambda: not grid.display, "the list hidden again")
        assert "press c" in shown(none)

    run_app(Launch(), body)


def test_the_lobby_chat_has_a_scrollbar_only_once_its_lines_overflow() -> None:
    """An empty chat drew a scrollbar down its whole height, a tenth of what a door's
    lobby cost as it opened: it comes once the lines fill the log, which stays at its
    end, the lines wrapped again for the column the scrollbar takes."""
    async def body(app, pilot):
        lobby = await opened(app, pilot)
        log = lobby.query_one("#chat-log", RichLog)
        assert not log.show_vertical_scrollbar
        width = log.scrollable_content_region.width
        for n in range(60):
            log.write(Text(f"Bruno: line {n} " + "x" * (width - 15)))
        await until(pilot, lambda: log.show_vertical_scrollbar, "the scrollbar")
        await pilot.pause()
        narrower = width - log.styles.scrollbar_size_vertical
        assert log.scrollable_content_region.width == narrower
        assert log.is_vertical_scroll_end
        assert all(strip.cell_length <= narrower for strip in log.lines)

    run_app(Launch(), body)
