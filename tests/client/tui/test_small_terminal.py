"""The table and its results at 80x24, the smallest terminal the game is made for, in each
language (issue 30, items 5 and 6): what a player reads there is whole — the table's code in
the header, the claims under each seat, the action bar's labels, the results' claims and
buttons — and never cut at the edge or broken mid-item.
"""

from __future__ import annotations

import re

import pytest

from client.core.table import TableState
from textual.widgets import Button

from client.i18n import _, action_name, card_name, set_language
from client.tui.widgets.actions import ActionBar, Item
from client.tui.widgets.players import PlayersPanel
from engine import Game

from .helpers import practice, run_app, shown, start_practice, until
from .test_widgets import run_alone

#: A table whose header has the most to say: the Inquisitor variant, and both clocks.
LONG_RULES = {"variant": "inquisitor", "response_clock": 60, "turn_clock": 180}


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_the_header_shows_the_table_code_whole(lang):
    """The code is what a player reads out to a friend: the rules line gives way first."""
    set_language(lang)

    async def body(app, pilot):
        await start_practice(app, pilot)
        header = app.screen.query_one("#table-header")
        code = app.table.code
        await until(pilot, lambda: code and code in shown(header), "the header")
        assert code in shown(header)

    run_app(practice(bots=4, **LONG_RULES), body, size=(80, 24))


#: A talkative seat's claims: every character, some many times.
MANY = {"duke": 2, "captain": 4, "ambassador": 1, "contessa": 1, "assassin": 1}


def five_seats() -> TableState:
    """Ana (seat 0) and four bots, seat 1 having claimed every character."""
    state = TableState("t1", 0, players=[
        {"seat": 0, "name": "Ana"}, *({"seat": s, "name": f"Bot {s + 1}", "bot": None}
                                      for s in range(1, 5))])
    state.view = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"],
                                     ["ambassador", "duke"], ["captain", "contessa"],
                                     ["assassin", "ambassador"]]).view(0)
    state.claims = {1: dict(MANY)}
    return state


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_the_claims_under_a_seat_are_whole(lang):
    """The players panel is 48 columns wide at 80x24: a seat's claims wrap between claims,
    each whole ("Captain ×4", never "Ambassador,…"), under the seat."""
    set_language(lang)

    async def body(pilot):
        panel = pilot.app.query_one(PlayersPanel)
        panel.state = five_seats()
        await pilot.pause()
        text = shown(panel)
        assert not re.search(r"[\w,]…", text)  # (a bare "…" marks a seat that is awaited)
        lines = [line.strip(" │") for line in text.splitlines()]
        for card, n in MANY.items():
            item = card_name(card) + (f" ×{n}" if n > 1 else "")
            assert any(item in line for line in lines), item

    panel = PlayersPanel()
    panel.styles.height = "1fr"  # as tall as at 80x24, where the hand's panel is under it
    run_alone(panel, body, size=(48, 15))


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
@pytest.mark.parametrize("offer", [["challenge", "block", "pass"],
                                   ["income", "foreign_aid", "tax", "steal", "exchange",
                                    "assassinate", "coup", "examine"]])
def test_the_action_bar_shows_every_label_whole(lang, offer):
    """A block answered at 80 columns read "b Block as Contes…": each button's label is
    whole, however many rows the bar then takes."""
    set_language(lang)
    labels = {"challenge": _("Challenge"), "pass": _("Pass"),
              "block": _("Block as {card}").format(card=card_name("contessa"))}
    items = tuple(Item(kind[0], labels.get(kind) or action_name(kind), lambda: None)
                  for kind in offer)

    async def body(pilot):
        bar = pilot.app.query_one(ActionBar)
        bar.items = items
        await pilot.pause()
        text = " ".join(shown(button) for button in bar.query(Button))
        assert "…" not in text
        for item in items:
            assert f"{item.key} {item.label}" in text

    run_alone(ActionBar(), body, size=(80, 6))
