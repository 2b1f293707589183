"""Reformation (R12) at the table: every seat's faction in words and a mark (R12.4), the
Almshouse beside the treasury and the table's divided or unified status (R12.5, R12.10,
R12.18) for players and spectators alike; Convert and Embezzle on the action bar on keys of
their own; Convert's picker with oneself and each cost (R12.9), the targeted actions'
pickers with the seats R12.6 refuses and why; the prove-by-showing dialog of a challenged
Embezzlement (R12.12); the rules card's Reformation page and the actions card; the play
form's and the create form's option (R12.1); the replay's seats.

The table is mostly fed the server's messages (tests/client/tui/reformation.py) with no
network; the whole game is played at 80×24 against bots on the app's own server, and a
spectator watches a real server's table.
"""

from __future__ import annotations

import pytest
from textual.widgets import Checkbox, Markdown

from client.i18n import set_language
from client.tui.app import Launch
from client.tui.screens.lobby import CreateTableForm, LobbyScreen
from client.tui.screens.menu import MenuScreen, PlayForm
from client.tui.screens.rules import RulesScreen
from client.tui.screens.table import ACTION_KEYS, RESPONSE_KEYS, TableScreen, by_dialog
from client.tui.widgets.log import TableLog
from client.tui.widgets.players import PlayersPanel
from client.tui.widgets.reference import ActionsCard
from client.tui.widgets.seats import SeatsPanel
from engine import move
from engine.bots import STRATEGIES
from engine.bots.random import RandomStrategy
from protocol import Ready
from tests.server.helpers import catch_up, play

from .helpers import (answer_key, bar_keys, bar_text, create_table, dialog,
                      dialog_labels, from_server, log_lines, my_decision, new_id, notes, practice,
                      pretend_connected, run_app, sent_by, shown, sit, start_practice,
                      until)
from .reformation import position, seated, update
from .test_widgets import run_alone


async def at_table(app, pilot, messages) -> TableScreen:
    pretend_connected(app)
    for msg in messages:
        from_server(app, msg)
    return await until(pilot, lambda: isinstance(app.screen, TableScreen)
                       and app.table.view is not None and app.screen, "the table")


@pytest.mark.parametrize("viewer", [0, None], ids=["player", "spectator"])
def test_every_seat_s_faction_the_almshouse_and_the_divided_table_are_shown(viewer):
    """R12.4, R12.18: factions by mark and word, the Almshouse's coins and the status, to a
    player and to a spectator alike."""
    async def body(app, pilot):
        screen = await at_table(app, pilot, seated(position(), viewer))
        panel = shown(screen.query_one(PlayersPanel))
        lines = panel.splitlines()
        for name, faction in (("Ana", "◇ Reformist"), ("Bruno", "◆ Loyalist"),
                              ("Bot 3", "◇ Reformist"), ("Carla", "◆ Loyalist")):
            [line] = [line for line in lines if name in line]
            assert faction in line
        assert "Players · divided" in lines[0]
        assert "Treasury 33¢ · Almshouse 3¢ · Deck" in lines[-1]

    run_app(Launch(name="Ana"), body, size=(80, 24))


def test_a_unified_table_says_so_in_portuguese():
    """R12.5: with Bruno and Carla out, every player left is Reformist."""
    set_language("pt_BR")
    game = position()
    game.alive = [True, False, True, False]
    game.hands[1], game.hands[3] = [], []

    async def body(app, pilot):
        screen = await at_table(app, pilot, seated(game))
        lines = shown(screen.query_one(PlayersPanel)).splitlines()
        assert "Jogadores · mesa unificada" in lines[0]
        assert "◇ Reformista" in next(line for line in lines if "Ana" in line)
        assert "Asilo 3¢" in lines[-1]

    run_app(Launch(name="Ana"), body, size=(80, 24))


def test_convert_and_embezzle_have_keys_no_other_move_nor_the_table_uses():
    """R12.9, R12.11 on the action bar: o and m, clashing with no action, no answer, no key
    of the table screen, and no key of the table's bar before and after the game."""
    table_keys = {key for binding in TableScreen.BINDINGS
                  for key in binding.key.split(",")} | {"r", "s", "enter"}
    assert len(set(ACTION_KEYS.values())) == len(ACTION_KEYS)
    for key in (ACTION_KEYS["convert"], ACTION_KEYS["embezzle"]):
        assert key not in set(RESPONSE_KEYS.values()) | table_keys

    async def body(app, pilot):
        await at_table(app, pilot, seated(position()))
        text = bar_text(app)
        assert "o Convert" in text and "m Embezzle" in text
        assert bar_keys(app) == ["i", "f", "t", "a", "s", "e", "o", "m"]

    run_app(Launch(name="Ana"), body, size=(80, 24))


def test_convert_s_picker_offers_yourself_first_with_each_cost():
    """R12.9.1: oneself for 1 coin, anyone else with influence for 2, each with the
    faction it leaves and the one it takes; the choice is sent as a Conversion."""
    async def body(app, pilot):
        await at_table(app, pilot, seated(position()))
        sent = sent_by(app)
        await pilot.press("o")
        picker = await until(pilot, lambda: dialog(app), "Convert's picker")
        assert picker.title_text == "Convert: choose the target"
        assert dialog_labels(app) == [
            "Ana (you) — 1¢: ◇ Reformist becomes ◆ Loyalist",
            "Bruno — 2¢: ◆ Loyalist becomes ◇ Reformist",
            "Bot 3 — 2¢: ◇ Reformist becomes ◆ Loyalist",
            "Carla — 2¢: ◆ Loyalist becomes ◇ Reformist",
        ]
        assert picker.refused == []
        await pilot.press("1")
        await until(pilot, lambda: sent, "the Conversion sent")
        assert sent[0].move == {"kind": "convert", "target": 0}

    run_app(Launch(name="Ana"), body, size=(80, 24))


def test_with_one_coin_only_your_own_conversion_is_offered_the_others_say_why():
    async def body(app, pilot):
        await at_table(app, pilot, seated(position(coins=1)))
        await pilot.press("o")
        picker = await until(pilot, lambda: dialog(app), "Convert's picker")
        assert dialog_labels(app) == ["Ana (you) — 1¢: ◇ Reformist becomes ◆ Loyalist"]
        assert [why for _label, why in picker.refused] == [
            "You do not have enough coins: Convert costs 1 coin for yourself, 2 for anyone "
            "else."] * 3
        await pilot.press("2")  # a refused target has no digit: nothing is chosen
        assert dialog(app) is picker

    run_app(Launch(name="Ana"), body, size=(80, 24))


def test_a_steal_on_a_divided_table_lists_your_own_faction_as_refused_with_why():
    """R12.6: Ana (Reformist) may steal from Bruno and Carla (Loyalist), not from Bot 3."""
    async def body(app, pilot):
        await at_table(app, pilot, seated(position()))
        await pilot.press("s")
        picker = await until(pilot, lambda: dialog(app), "Steal's picker")
        assert dialog_labels(app) == ["Bruno — 4¢, 2 cards · ◆ Loyalist",
                                      "Carla — 5¢, 2 cards · ◆ Loyalist"]
        assert picker.refused == [(
            "Bot 3 — 2¢, 1 card · ◇ Reformist",
            "While the table is divided, you cannot aim at or block a player of your own "
            "faction.")]
        text = shown(picker.query_one("#choices"))
        assert "Bot 3" in text and "own faction" in text

    run_app(Launch(name="Ana"), body, size=(80, 24))


def test_a_challenged_embezzlement_is_proved_by_showing_every_card():
    """R12.12.1: Ana holds no Duke; Bruno challenges; the dialog opens by itself and shows
    her cards; proving is sent."""
    game = position()
    messages = seated(game) + [update(game, 0, 0, move("embezzle")),
                               update(game, 0, 1, move("challenge"))]

    async def body(app, pilot):
        await at_table(app, pilot, messages[:3])
        sent = sent_by(app)
        for msg in messages[3:]:
            from_server(app, msg)
        picker = await until(pilot, lambda: dialog(app), "the proof's dialog")
        assert picker.title_text == ("Bruno challenges your Embezzlement: you claimed to hold "
                                     "no Duke")
        assert dialog_labels(app) == [
            "Show all your cards: Captain, Contessa",
            "Concede: lose an influence, the Almshouse keeps its coins"]
        await pilot.press("1")
        await until(pilot, lambda: sent, "the proof sent")
        assert sent[0].move == {"kind": "prove"}

    run_app(Launch(name="Ana"), body, size=(80, 24))


def test_holding_a_duke_a_challenged_embezzler_may_only_concede_and_is_told_why():
    """R12.12: proving is refused to a Duke's holder (holds_duke)."""
    game = position(hand=("duke", "contessa"))
    messages = seated(game) + [update(game, 0, 0, move("embezzle")),
                               update(game, 0, 1, move("challenge"))]

    async def body(app, pilot):
        await at_table(app, pilot, messages)
        picker = await until(pilot, lambda: dialog(app), "the proof's dialog")
        assert dialog_labels(app) == [
            "Concede: lose an influence, the Almshouse keeps its coins"]
        assert picker.refused == [("Show all your cards: Duke, Contessa",
                                   "You hold a Duke: you cannot prove you hold none.")]

    run_app(Launch(name="Ana"), body, size=(80, 24))


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_the_rules_card_at_a_reformation_table_has_its_page(lang):
    """R12: after the base game's actions, the card's Reformation page explains factions,
    the divided table and the Almshouse, lists Convert (1 or 2 coins, into the Almshouse)
    and Embezzle (claims no Duke), and how an Embezzlement is proved, in both languages."""
    set_language(lang)

    async def body(app, pilot):
        await at_table(app, pilot, seated(position()))
        await pilot.press("question_mark")
        rules = await until(pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen,
                            "the rules card")
        actions = " ".join(shown(rules.query_one("#rules-reformation-actions")).split())
        page = " ".join(markdown.source for markdown in rules.query(Markdown))
        if lang == "en":
            assert "Convert – pay 1 to change your own faction" in actions
            assert "Embezzle no Duke take every coin in the Almshouse" in actions
            assert "Loyalist" in page and "divided" in page and "Almshouse" in page
            assert "Holding a Duke, you can only concede" in page
        else:
            assert "Converter" in actions and "Desfalcar" in actions
            assert "Legalista" in page and "dividida" in page and "Asilo" in page

    run_app(Launch(name="Ana"), body, size=(80, 24))


def test_the_rules_card_outside_a_table_ends_with_reformation():
    async def body(app, pilot):
        await pilot.press("question_mark")
        rules = await until(pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen,
                            "the rules card")
        assert "Reformation" in rules.query_one("#rules-reformation", Markdown).source
        base = shown(rules.query_one("#rules-actions"))
        assert "Convert" not in base  # the base game's list stays the base game's
        added = " ".join(shown(rules.query_one("#rules-reformation-actions")).split())
        assert "Convert" in added and "Embezzle" in added

    run_app(Launch(name="Ana"), body, size=(80, 24))


def test_the_play_form_s_reformation_option_opens_a_reformation_practice_table():
    """The menu's practice options: Reformation ticked, the table dealt has factions and the
    Almshouse (R12.1, R12.3); the header names it."""
    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("p")
        form = await until(pilot, lambda: isinstance(app.screen, PlayForm) and app.screen,
                           "the play form")
        box = form.query_one("#reformation", Checkbox)
        assert box.value is False  # off unless asked for (R12.1)
        box.value = True
        await pilot.click("#ok")
        await start_practice(app, pilot)
        view = await until(pilot, lambda: app.table.view, "the game")
        assert view.options.reformation and len(view.factions) == 4
        header = shown(app.screen.query_one("#table-header"))
        assert "Base game, Reformation" in header
        assert "Almshouse 0¢" in shown(app.screen.query_one(PlayersPanel))

    run_app(Launch(name="Ana", bot_delay=0, response_clock=0, turn_clock=0), body,
            size=(80, 24))


def test_the_create_form_s_reformation_option_and_the_lobby_listing(server):
    """R12.1: the form asks for Reformation only when ticked; the lobby lists the table as
    a Reformation one."""
    async def body(app, pilot):
        bruno = await server.peer("Bruno")
        await server.run(create_table, bruno, seats=3, reformation=True)
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                            and app.screen.rows and app.screen, "Bruno's table listed")
        assert "Base game, Reformation" in lobby.rows[0]
        await pilot.press("c")
        form = await until(pilot, lambda: isinstance(app.screen, CreateTableForm)
                           and app.screen, "the form")
        form.query_one("#reformation", Checkbox).value = True
        await pilot.click("#ok")
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info,
                    "the new table")
        assert app.table.info["options"]["reformation"] is True

    run_app(Launch(mode="join", port=server.port, name="Ana"), body, size=(120, 40))


class Doubter(RandomStrategy):
    """A bot that challenges every Embezzlement, and otherwise plays at random among the
    base game's moves (it leaves the Almshouse to Ana, who is to embezzle it)."""

    name = "doubter"

    def choose(self, view, moves):
        if move("challenge") in moves and view.action == "embezzle":
            return move("challenge")
        plain = [mv for mv in moves if mv.kind not in ("convert", "embezzle")]
        return super().choose(view, plain or moves)


async def answer(app, pilot, view) -> str:
    """Ana's answer to a decision that is not her turn: pass a response, the first choice
    of a dialog (a proof of an Embezzlement first, when it is offered), a challenged claim
    shown or conceded. Returns what was done: "proved" when an Embezzlement was."""
    if by_dialog(view):
        picker = await until(pilot, lambda: dialog(app), "the dialog")
        proving = view.phase == "prove" and move("prove") in view.legal_moves()
        assert not proving or picker.options[0][1] == move("prove")
        await pilot.press("1")
        return "proved" if proving else "chose"
    await pilot.press(answer_key(view))
    return "answered"


async def turn(app, pilot, view, done: set[str]) -> None:
    """Ana's turn: convert herself first (o), then embezzle the Almshouse (m) while she
    holds no Duke, else Coup when she can, else Income."""
    me = view.seat
    if "converted" not in done and move("convert", target=me) in view.legal_moves():
        await pilot.press("o")
        picker = await until(pilot, lambda: dialog(app), "Convert's picker")
        assert picker.options[0][0].startswith("Ana (you) — 1¢")
        await pilot.press("1")
        done.add("converted")
    elif move("embezzle") in view.legal_moves() and "duke" not in view.hands[me]:
        await pilot.press("m")
        done.add("embezzled")
    elif view.coins[me] >= 7:
        state = view.state_id
        await pilot.press("c")
        await until(pilot, lambda: dialog(app) or app.table.view.state_id != state
                    or app.table.pending, "the Coup or its picker")
        if dialog(app):
            await pilot.press("1")
    else:
        await pilot.press("i")


def squashed(text: str) -> str:
    """`text` without its spaces: a log line as the narrow log wraps it, or not."""
    return "".join(text.split())


def test_a_whole_reformation_game_at_80x24_against_bots(monkeypatch):
    """R12: Ana converts herself (1 coin into the Almshouse), embezzles it, is challenged by
    a bot and proves it by showing both cards, none a Duke (R12.12.1); the game is played
    to its end on the keyboard, the factions and the Almshouse shown all along."""
    monkeypatch.setitem(STRATEGIES, Doubter.name, Doubter)

    async def body(app, pilot):
        await start_practice(app, pilot)
        done: set[str] = set()
        while True:
            view = await until(pilot, lambda: my_decision(app), "a decision or the end")
            if view.over:
                break
            state = view.state_id
            if view.phase == "action":
                await turn(app, pilot, view, done)
            else:
                done.add(await answer(app, pilot, view))
            await until(pilot, lambda: app.table.view.state_id != state, "the move's update")
            if "converted" in done and "checked" not in done:
                panel = shown(app.screen.query_one(PlayersPanel))
                assert "Almshouse" in panel and "Players · " in panel
                done.add("checked")
        assert {"converted", "embezzled", "proved"} <= done
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        log = squashed("".join(log_lines(table.query_one(TableLog))))  # (lines wrap at 80)
        for line in ("Ana converts to Reformist, paying 1 coin into the Almshouse",
                     "Ana claims to hold no Duke, to embezzle the Almshouse",
                     "Ana shows every card, none a Duke: Assassin, Contessa",
                     "Ana takes 1 coin from the Almshouse"):
            assert squashed(line) in log

    run_app(practice(bots=2, strategy="doubter", reformation=True), body, size=(80, 24))


def test_at_120x40_the_actions_card_lists_convert_and_embezzle_and_factions_show():
    """The tall table's actions card: Convert costs 1 or 2 (R12.9.1) and claims nothing,
    Embezzle claims no Duke (R12.11.1); nobody blocks either."""
    async def body(app, pilot):
        screen = await at_table(app, pilot, seated(position()))
        card = {line.split()[1]: " ".join(line.split()[2:-1])
                for line in shown(screen.query_one(ActionsCard)).splitlines()[1:-1]}
        assert card["Convert"] == "1–2¢ – –"
        assert card["Embezzle"] == "– no Duke –"
        lines = shown(screen.query_one(PlayersPanel)).splitlines()
        assert "◆ Loyalist" in next(line for line in lines if "Carla" in line)

    run_app(Launch(name="Ana"), body, size=(120, 40))


def test_a_replay_s_seats_show_factions_and_the_almshouse():
    """R12.4, R12.18: the replay's seats panel draws a Reformation view's factions, the
    Almshouse and the divided table, as the players panel does."""
    view = position().view(None)

    async def body(pilot):
        panel = pilot.app.query_one(SeatsPanel)
        panel.show(view, lambda seat: ["Ana", "Bruno", "Bot 3", "Carla"][seat], {2})
        await pilot.pause()
        lines = shown(panel).splitlines()
        assert "Players · divided" in lines[0]
        assert "◇ Reformist" in next(line for line in lines if "Bot 3" in line)
        assert "◆ Loyalist" in next(line for line in lines if "Carla" in line)
        assert "Treasury 33¢ · Almshouse 3¢ · Deck" in lines[-1]

    run_alone(SeatsPanel(), body, size=(80, 14))


def test_embezzle_and_convert_keys_not_offered_are_explained_and_nothing_is_sent():
    """R12.11.2: with the Almshouse empty m is not on the bar, and pressing it says why;
    with 10 coins a Conversion is refused for the Coup owed (R12.9.4, R3.4)."""
    async def body(app, pilot):
        await at_table(app, pilot, seated(position(almshouse=0)))
        assert "m" not in bar_keys(app)
        sent = sent_by(app)
        await pilot.press("m")
        assert notes(app)[-1] == "The Almshouse has no coins to embezzle."
        assert sent == []

    run_app(Launch(name="Ana"), body, size=(80, 24))

    async def rich(app, pilot):
        await at_table(app, pilot, seated(position(coins=10)))
        assert "o" not in bar_keys(app)
        await pilot.press("o")
        assert notes(app)[-1] == "With 10 coins or more you must Coup."

    run_app(Launch(name="Ana"), rich, size=(80, 24))


async def a_conversion(bruno, carla) -> None:
    """Bruno and Carla sit at a two-seat Reformation table (no draft); the first to act
    converts the other (2 coins into the Almshouse: the table is unified, R12.5)."""
    table = (await create_table(bruno, seats=2, two_player_draft=False,
                                reformation=True)).table
    await sit(carla, table)
    await bruno.request(Ready(id=new_id()))
    await catch_up(bruno, 0)
    await catch_up(carla, 0)
    first, other = (bruno, carla) if bruno.view.actor == bruno.seat else (carla, bruno)
    reply = await play(first, "convert", target=other.seat)
    assert reply.TYPE == "move_accepted", reply
    await catch_up(first, 1)


def test_a_spectator_sees_the_factions_the_almshouse_and_the_conversion(server):
    """R12.18 over the network: a spectator who comes after a Conversion sees both players
    of one faction, the table unified, the Almshouse's 2 coins, and the Conversion told."""
    async def body(app, pilot):
        bruno, carla = await server.peer("Bruno"), await server.peer("Carla")
        await server.run(a_conversion, bruno, carla)
        app.join_table(bruno.table, spectate=True)
        screen = await until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and app.table.view and app.screen, "the game, spectated")
        view = app.table.view
        assert view.seat is None and view.almshouse == 2 and view.unified
        lines = shown(screen.query_one(PlayersPanel)).splitlines()
        assert "Players · unified" in lines[0] and "Almshouse 2¢" in lines[-1]
        faction = "◆ Loyalist" if view.factions[0] == "loyalist" else "◇ Reformist"
        for name in ("Bruno", "Carla"):
            assert faction in next(line for line in lines if name in line)
        log = await until(pilot, lambda: squashed("".join(log_lines(screen.query_one(
            TableLog)))), "the log")
        assert squashed("paying 2 coins into the Almshouse") in log

    run_app(Launch(mode="join", port=server.port, name="Ana"), body, size=(80, 24))
