"""A key answers only the prompt that was on screen when it was pressed (issue 30, item 4).

At a three-seat table on a real server (its game dealt by `Game.arrange`), Bruno takes
Foreign Aid and Ana is asked to block or pass; Carla blocks first, and Ana's prompt becomes
"challenge Carla's Duke or pass". A key that comes within KEY_GRACE of that change was meant
for the prompt replaced: nothing is sent, and the new prompt flashes. The screen's clock is
a stand-in the test moves, so that a loaded machine cannot make a key late.
"""

from __future__ import annotations

import pytest

import client.tui.screens.table as table_screen
from client.tui.app import CoupApp, Launch
from client.tui.messages import CoreStep
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.table import KEY_GRACE, RESPONSE_KEYS, TableScreen
from client.tui.widgets.decision import DecisionPanel
from engine import Game, Options, move
from protocol import Joined, Snapshot, TableInfo, Update

from .helpers import (arrange, bar_keys, from_server, peer_plays, pretend_connected, run_app,
                      sent_by, shown, sit, until)

HANDS = [["captain", "contessa"], ["assassin", "contessa"], ["duke", "captain"]]


class Clock:
    """The screen's monotonic clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    stand_in = Clock()
    monkeypatch.setattr(table_screen, "monotonic", stand_in)
    return stand_in


async def three_seats(app, pilot, server):
    """Ana's table of three, Bruno and Carla seated and everyone ready; the peers."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    app.create_table({"seats": 3, "response_clock": 0, "turn_clock": 0})
    await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info,
                "the table")
    bruno, carla = await server.peer("Bruno"), await server.peer("Carla")
    await server.run(sit, bruno, app.table.table)
    await server.run(sit, carla, app.table.table)
    app.ready(True)
    await until(pilot, lambda: app.table.view is not None, "the game")
    return bruno, carla


async def asked(app, pilot, keys: list[str], what: str):
    """Wait until the bar offers `keys` for a decision of Ana's; returns her view."""
    def ready():
        view = app.table.view if app.table is not None else None
        return (view is not None and view.seat in view.waiting and app.table.pending is None
                and bar_keys(app) == keys and view)

    return await until(pilot, ready, what)


async def foreign_aid(app, pilot, server, bruno):
    """Bruno takes Foreign Aid: Ana is asked to block it or pass."""
    await server.run(peer_plays, bruno, app.table.view.state_id,
                     lambda view: move("foreign_aid"), "action")
    return await asked(app, pilot, [RESPONSE_KEYS["block"], RESPONSE_KEYS["pass"]],
                       "block or pass")


def join(server) -> Launch:
    return Launch(mode="join", port=server.port, name="Ana")


def test_a_key_pressed_as_the_prompt_changes_answers_nothing_and_the_new_prompt_flashes(
        server, monkeypatch, clock):
    """Ana's `p` was meant to let Bruno's Foreign Aid pass; it comes 0.1 s after Carla's
    block replaced that prompt, so it does not pass on the block: nothing is sent, the
    decision panel flashes with the new prompt. Once the new prompt has been on screen for
    KEY_GRACE, `p` passes on the block."""
    arrange(monkeypatch, hands=HANDS, actor=1)

    async def body(app, pilot):
        bruno, carla = await three_seats(app, pilot, server)
        assert app.table.seat == 0
        before = await foreign_aid(app, pilot, server, bruno)
        clock.now += 5  # Ana has read the prompt
        await server.run(peer_plays, carla, before.state_id,
                         lambda view: move("block", card="duke"), "respond")
        view = await asked(app, pilot, [RESPONSE_KEYS["challenge"], RESPONSE_KEYS["pass"]],
                           "challenge or pass")
        assert view.opened != before.opened
        panel = app.screen.query_one(DecisionPanel)
        assert not panel.has_class("-flash")
        sent = sent_by(app)
        clock.now += KEY_GRACE / 3
        await pilot.press(RESPONSE_KEYS["pass"])
        assert sent == [] and app.table.pending is None
        assert panel.has_class("-flash")
        assert "Carla" in shown(panel.query_one("#prompt"))
        await until(pilot, lambda: not panel.has_class("-flash"), "the flash to end")
        clock.now += KEY_GRACE
        await pilot.press(RESPONSE_KEYS["pass"])
        assert [(msg.state_id, msg.move["kind"]) for msg in sent] == [(view.state_id, "pass")]

    run_app(join(server), body)


def test_a_prompt_that_replaced_none_of_ours_answers_a_key_at_once(server, monkeypatch, clock):
    """Before Bruno's Foreign Aid, Ana was asked nothing: a key that comes as the prompt
    opens was meant for it, and passes."""
    arrange(monkeypatch, hands=HANDS, actor=1)

    async def body(app, pilot):
        bruno, _carla = await three_seats(app, pilot, server)
        view = await foreign_aid(app, pilot, server, bruno)
        sent = sent_by(app)
        await pilot.press(RESPONSE_KEYS["pass"])
        assert [(msg.state_id, msg.move["kind"]) for msg in sent] == [(view.state_id, "pass")]
        assert not app.screen.query_one(DecisionPanel).has_class("-flash")

    run_app(join(server), body)


def test_a_move_offered_for_a_prompt_since_replaced_is_not_sent(server, monkeypatch, clock):
    """A button (or a key queued behind the update) still answers the prompt it was offered
    for: played once Carla's block has replaced that prompt, the pass on the Foreign Aid
    is not sent, even long after, and the new prompt flashes."""
    arrange(monkeypatch, hands=HANDS, actor=1)

    async def body(app, pilot):
        bruno, carla = await three_seats(app, pilot, server)
        before = await foreign_aid(app, pilot, server, bruno)
        await server.run(peer_plays, carla, before.state_id,
                         lambda view: move("block", card="duke"), "respond")
        await asked(app, pilot, [RESPONSE_KEYS["challenge"], RESPONSE_KEYS["pass"]],
                    "challenge or pass")
        clock.now += 5
        sent = sent_by(app)
        app.play_move(move("pass"), before.opened)
        panel = app.screen.query_one(DecisionPanel)
        await until(pilot, lambda: panel.has_class("-flash"), "the flash")
        assert sent == [] and app.table.pending is None

    run_app(join(server), body)


def test_a_key_after_our_answer_gave_way_to_our_next_prompt_answers_it(clock):
    """Ana passes on Bruno's Foreign Aid and Carla blocks it: on a loaded machine the pass
    and the update with Ana's new prompt reach the screen in one redraw, which never shows
    the move pending. The prompt that gave way was answered, so there is no grace: her `p`
    at once passes on the block (the grace swallowed it when it went by the redraws)."""
    game = Game.arrange(Options(players=3), hands=HANDS, actor=1)
    game.apply(1, move("foreign_aid"))
    seats = [{"seat": n, "name": name, "bot": None, "ready": True, "away": False}
             for n, name in enumerate(["Ana", "Bruno", "Carla"])]
    info = {"table": "t1", "status": "playing", "seats": seats, "spectators": 0,
            "options": {"seats": 3, "variant": "base", "response_clock": 0, "turn_clock": 0}}

    async def body(app: CoupApp, pilot):
        pretend_connected(app)
        for msg in [Joined(table="t1", seat=0, token="t" * 32), TableInfo(info=info),
                    Snapshot(table="t1", view=game.view(0).to_dict(), players=seats,
                             deadlines=[])]:
            from_server(app, msg)
        before = await asked(app, pilot, [RESPONSE_KEYS["block"], RESPONSE_KEYS["pass"]],
                             "block or pass")
        clock.now += 5
        sent = sent_by(app)
        game.apply(0, move("pass"))
        game.apply(2, move("block", card="duke"))
        # The pass, and the update with the block, in one turn of the app's loop:
        app.post_message(CoreStep(lambda: app.play_move(move("pass"), before.opened)))
        from_server(app, Update(table="t1", view=game.view(0).to_dict(), events=[],
                                deadlines=[]))
        view = await asked(app, pilot, [RESPONSE_KEYS["challenge"], RESPONSE_KEYS["pass"]],
                           "challenge or pass")
        await pilot.press(RESPONSE_KEYS["pass"])
        assert [(msg.state_id, msg.move["kind"]) for msg in sent] == [
            (before.state_id, "pass"), (view.state_id, "pass")]
        assert not app.screen.query_one(DecisionPanel).has_class("-flash")

    run_app(Launch(name="Ana"), body)
