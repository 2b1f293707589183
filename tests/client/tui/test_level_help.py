"""The difficulty levels are described the same way wherever a player chooses one: `coup play
--help` (the --level flag) and the menu's play form say the same words of each level."""

from __future__ import annotations

import pytest
from textual.widgets import Select

from client.cli import main
from client.tui.app import Launch
from client.tui.screens.menu import MenuScreen, PlayForm
from engine.bots.levels import LEVELS

from .helpers import run_app, until


def play_help(capsys) -> str:
    """`coup play --help` as one line: argparse wraps it to the terminal's width."""
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_play_help_describes_each_level_as_the_play_form_does(capsys):
    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("p")
        form = await until(pilot, lambda: isinstance(app.screen, PlayForm) and app.screen,
                           "the play form")
        labels = {value: str(label)
                  for label, value in form.query_one("#strategy", Select)._options}
        shown.update({level: labels[level] for level in LEVELS})
        await pilot.press("ctrl+c")
        await until(pilot, lambda: not app.is_running, "ctrl+c to quit")

    shown: dict[str, str] = {}
    run_app(Launch(name="Ana"), body, size=(100, 40))
    assert list(shown) == ["easy", "medium", "hard", "expert"]
    said = play_help(capsys)
    for level, label in shown.items():
        # The form says "Hard: counts cards, bluffs"; the help, "hard (counts cards, bluffs)".
        description = label.split(": ", 1)[1]
        assert f"{level} ({description})" in said
