"""The app's styles are parsed once a process (client/tui/styles.py): a second app, or a
door's session forked from the session host that drew a lobby before the fork, parses no
CSS. These tests also guard the one private method of Textual's that it overrides."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import textual
import textual.css.stylesheet

import client.tui.styles as styles
from client.host import _draw_once
from client.launch import Launch
from client.tui.app import CoupApp
from client.tui.screens.lobby import LobbyScreen


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Each CSS source Textual's parser is given, from now on."""
    given: list[object] = []
    parse = textual.css.stylesheet.parse

    def counted(*args: object, **kwargs: object) -> Iterator[object]:
        given.append(args[2])  # where the source was read from
        return parse(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(textual.css.stylesheet, "parse", counted)
    return given


def draw_lobby() -> None:
    """A lobby-only session's first screens, drawn off screen in a fresh app, with what a
    session's screens hold (run_test leaves out the tooltip and the notices' rack)."""
    app = CoupApp(Launch())

    async def draw() -> None:
        async with app.run_test(size=(80, 24), tooltips=True, notifications=True) as pilot:
            await app.push_screen(LobbyScreen("example.org:7777"))
            await pilot.pause()

    asyncio.run(draw())


def test_textual_is_the_version_the_override_was_written_for() -> None:
    assert textual.__version__.split(".")[0] == "8"


def test_a_second_app_parses_no_css(parses: list[object]) -> None:
    draw_lobby()
    parses.clear()
    draw_lobby()
    assert parses == []


def test_the_session_hosts_drawing_leaves_nothing_for_a_session_to_parse(
        parses: list[object], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(styles, "_parsed", {})  # as in a process that drew nothing yet
    _draw_once()
    assert parses  # the host parsed the sources itself
    parses.clear()
    draw_lobby()
    assert parses == []


def test_styles_with_other_variables_are_parsed_for_them(parses: list[object]) -> None:
    css = "Static { color: $text-muted; }"
    first = styles.ParsedOnce(variables={"text-muted": "red"})
    first.add_source(css, read_from=("test", "first"))
    first.parse()
    second = styles.ParsedOnce(variables={"text-muted": "blue"})
    second.add_source(css, read_from=("test", "first"))
    second.parse()
    assert len(parses) == 2
    assert first.rules[0].styles.color != second.rules[0].styles.color
