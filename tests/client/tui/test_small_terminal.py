"""The table and its results at 80x24, the smallest terminal the game is made for, in each
language (issue 30, items 5 and 6): what a player reads there is whole — the table's code in
the header, the claims under each seat, the action bar's labels, the results' claims and
buttons — and never cut at the edge or broken mid-item.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from client.core.table import TableState
from textual.widgets import Button

from client.i18n import _, action_name, card_name, set_language
from client.tui.app import CoupApp, Launch
from client.tui.screens import table as table_screen
from client.tui.screens.results import ResultsScreen
from client.tui.widgets.actions import ActionBar, Item
from client.tui.widgets.players import PlayersPanel
from client.narrate import event_text
from client.tui.widgets.log import TableLog
from engine import Event, Game, Options
from engine.cards import CLAIMS_IN
from engine.bots import make
from engine.summary import summarize
from protocol import Joined, Snapshot, TableInfo

from . import test_snapshots as snapshots
from .helpers import (answer_key, dialog, from_server, log_lines, my_decision, practice,
                      pretend_connected, run_app, shown, start_practice, until)
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


#: Six-player games (variant, seed): in the first the winner, Bot 6, claimed "Embaixador ×2",
#: which the results broke in two; in the second the rows pushed the buttons off the dialog.
GAMES = [("base", 5), ("inquisitor", 1)]


def six_finished(variant: str, seed: int) -> tuple[list, dict]:
    """What a player who sat at seat 0 receives at the end of a six-player game played out
    by seeded bots, on a server that keeps records (game 12); and the game's summary."""
    game = Game.new(Options(players=6, variant=variant), seed=seed)
    bots = [make("random", n) for n in range(6)]
    while not game.over:
        seat = game.waiting[0]
        game.apply(seat, bots[seat].choose(game.view(seat), game.legal_moves(seat)))
    seats = [*snapshots.PLAYERS, *({"seat": n, "name": f"Bot {n + 1}", "bot": "random",
                                    "ready": True, "away": False} for n in (4, 5))]
    table_info = dict(snapshots.info("over"), game=12, seats=seats)
    view = game.view(0).to_dict()
    return [Joined(table=snapshots.TABLE, seat=0, token="t" * 32), TableInfo(info=table_info),
            Snapshot(table=snapshots.TABLE, view=view, players=seats, deadlines=[],
                     reveal=game.reveal().to_dict(), summary=summarize(game))
            ], summarize(game)


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
@pytest.mark.parametrize("game", GAMES, ids=lambda game: game[0])
def test_the_results_show_every_claim_player_and_button_at_80_columns(lang, game):
    """Issue 30, item 6: at 80x24 the results broke "Duke ×3" over two lines, and in
    Portuguese the last player and the Rematch and Replay buttons were off screen."""
    set_language(lang)
    messages, summary = six_finished(*game)
    assert any(n >= 2 for record in summary["seats"] for n in record["claims"].values())
    app = CoupApp(Launch(name="Ana"))

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            pretend_connected(app)
            for msg in messages:
                from_server(app, msg)
            await until(pilot, lambda: isinstance(app.screen, ResultsScreen), "the results")
            screen = app.screen
            lines = shown(screen.query_one("#hands")).replace("\u00a0", " ").splitlines()
            for record in summary["seats"]:
                for card, n in record["claims"].items():
                    item = card_name(card) + (f" ×{n}" if n > 1 else "")
                    assert any(item in line for line in lines), item
            box = screen.query_one("#hands-box")
            assert box.max_scroll_y == 0  # every player in view
            dialog = screen.query_one(".dialog")
            assert screen.region.contains_region(dialog.region)
            for button in screen.query(Button):
                assert dialog.content_region.contains_region(button.region), str(button.label)

    asyncio.run(main())


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_the_claim_to_answer_is_the_logs_last_line_at_80x24(lang, monkeypatch):
    """Five seats at 80x24 (R6.1): when a bot's claim waits for Ana's answer, the log ends
    with the claim, in view, however many bots have let it stand already."""
    set_language(lang)
    # Ana answers each decision the moment it is drawn, as no person can: the grace that
    # keeps a key from answering a prompt that just replaced one of hers (test_keys.py) is
    # not what this test is about.
    monkeypatch.setattr(table_screen, "KEY_GRACE", 0)

    async def body(app, pilot):
        await start_practice(app, pilot)
        log = app.screen.query_one(TableLog)
        while True:
            view = await until(pilot, lambda: my_decision(app), "our decision")
            if view.phase == "respond" and view.step != "challenge_block" and any(
                    mv.kind == "challenge" for mv in view.legal_moves()):
                break
            state = view.state_id
            if dialog(app):
                await pilot.press("1")
            else:
                await pilot.press(answer_key(view) if view.phase in ("respond", "prove")
                                  else "i")
            await until(pilot, lambda state=state: app.table.view.state_id != state,
                        "the move's update")
        claim = Event("action", view.actor, view.target,
                      CLAIMS_IN[view.options.variant][view.action], action=view.action)
        claimed = event_text(claim, app.table.name, view.seat)
        told = " ".join(" ".join(log_lines(log)).split())
        assert log.is_vertical_scroll_end
        assert told.endswith(claimed)

    run_app(practice(bots=4, seed=3), body, size=(80, 24))
