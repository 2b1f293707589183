"""Each dialog of the table, reached through real play against a scripted player (Bruno, a
peer in the `server` fixture's thread): the block-character chooser, the card to lose, the
cards to keep after an Exchange, the draft pick (two players), the card to show and the
decision of an Examine (Inquisitor variant), and a dialog that closes by itself when a clock
runs out (one short real clock of two seconds). A key for an action when it is not our turn
is refused at once, with nothing sent.
"""

from __future__ import annotations

from client.i18n import card_name
from client.tui.app import Launch
from client.tui.screens.dialogs import ConfirmDialog
from client.tui.screens.results import ResultsScreen
from client.tui.screens.rules import RulesScreen
from client.tui.screens.table import TableScreen
from engine import move

from .helpers import (
    from_server, pretend_connected,
    bar_keys,
    dialog,
    duel,
    dialog_labels,
    my_decision,
    notes,
    peer_plays,
    run_app,
    sent_by,
    shown,
    until,
)
from .test_snapshots import finished


async def bruno_plays(app, server, bruno, choose, phase=None) -> None:
    """Bruno plays `choose(view)` once he owes a decision (in `phase`) at our state or later."""
    await server.run(peer_plays, bruno, app.table.view.state_id, choose, phase)


def join(server) -> Launch:
    return Launch(mode="join", port=server.port, name="Ana")


async def answer(app, pilot, key: str, what: str) -> None:
    """Press `key` for the decision we owe, and wait for the table to move on."""
    view = await until(pilot, lambda: my_decision(app), what)
    await pilot.press(key)
    await until(pilot, lambda: app.table.view.state_id != view.state_id, f"{what}: answered")


async def bruno_to_act(app, pilot, server, bruno) -> None:
    """Our Income if we start, so that Bruno's turn comes."""
    view = await until(pilot, lambda: app.table.view.phase == "action" and app.table.view,
                       "the first turn")
    if view.actor == app.table.seat:
        await answer(app, pilot, "i", "our first turn")


async def block_step(app, pilot) -> None:
    """Let the steal's claim stand, up to the moment we may block it."""
    await answer(app, pilot, "p", "no challenge to the Captain")
    await until(pilot, lambda: my_decision(app) and "b" in bar_keys(app), "the block step")


def test_block_chooser_the_card_to_lose_and_the_cards_to_keep(server):
    async def body(app, pilot):
        bruno = await duel(app, pilot, server, two_player_draft=False)
        me = app.table.seat
        await bruno_to_act(app, pilot, server, bruno)
        # Not our turn: a key for an action is explained at once, and nothing is sent.
        sent = sent_by(app)
        await pilot.press("i")
        assert notes(app)[-1] == "It is not your move." and sent == []
        await bruno_plays(app, server, bruno, lambda v: move("steal", target=me), "action")
        await block_step(app, pilot)
        await pilot.press("b")
        chooser = await until(pilot, lambda: dialog(app), "the block chooser")
        assert chooser.title_text == "Block as which character?"
        assert dialog_labels(app) == ["Block as Captain", "Block as Ambassador"]
        await pilot.press("1")
        await until(pilot, lambda: app.table.view.blocker == me, "our block")
        await bruno_plays(app, server, bruno, lambda v: move("challenge"))
        # We concede (whatever we hold: yes when asked), and choose the card we lose.
        view = await until(pilot, lambda: my_decision(app), "the challenge to our block")
        assert view.phase == "prove"
        await pilot.press("g")
        if isinstance(app.screen, ConfirmDialog):
            await pilot.press("y")
        lose = await until(pilot, lambda: dialog(app), "the card to lose")
        claim = view.claim.capitalize()
        assert lose.title_text == (f"You conceded Bruno's challenge of your {claim}: "
                                   "choose the card you lose")
        assert sorted(dialog_labels(app)) == sorted(f"Lose {card.capitalize()}"
                                                    for card in set(view.hands[me]))
        await pilot.press("1")
        await until(pilot, lambda: app.table.view.influence[me] == 1, "the card lost")
        # Our turn: Exchange, Bruno lets it be, and we keep what we choose.
        view = await until(pilot, lambda: (v := my_decision(app)) and v.phase == "action"
                           and v, "our turn")
        await pilot.press("e")
        await bruno_plays(app, server, bruno, lambda v: move("pass"), "respond")
        keep = await until(pilot, lambda: dialog(app), "the cards to keep")
        assert keep.title_text == "Choose the cards you keep"
        view = app.table.view
        count = view.influence[me]
        assert view.phase == "keep" and len(view.drawn) == 2
        assert all(label.startswith("Keep ") for label in dialog_labels(app))
        chosen = keep.options[0][1]
        await pilot.press("1")
        await until(pilot, lambda: app.table.view.phase != "keep", "the exchange done")
        assert sorted(app.table.view.hands[me]) == sorted(chosen.cards)
        assert len(chosen.cards) == count

    run_app(join(server), body, size=(120, 40))


def test_draft_pick_card_to_show_and_the_examine_decision(server):
    async def body(app, pilot):
        bruno = await duel(app, pilot, server, variant="inquisitor", two_player_draft=True)
        me = app.table.seat
        while app.table.view.phase == "draft":  # both pick, in turns of the draft
            pick = await until(pilot, lambda: dialog(app), "the draft pick")
            assert pick.title_text == "Pick a card for your hand"
            if not app.table.view.hands[me]:  # the hand says why it is empty
                hand = shown(app.screen_stack[-2].query_one("#hand"))
                assert "no cards yet" in hand and "left" not in hand
            assert all(label.startswith("Pick ") for label in dialog_labels(app))
            state = app.table.view.state_id
            await pilot.press("1")
            await bruno_plays(app, server, bruno, lambda v: v.legal_moves()[0], "draft")
            await until(pilot, lambda state=state: app.table.view.state_id > state + 1,
                        "both picks")
        assert len(app.table.view.hands[me]) == 2
        await until(pilot, lambda: app.table.view.phase == "action", "the first turn")
        if app.table.view.actor == me:
            await we_examine(app, pilot, server, bruno)
            await bruno_examines(app, pilot, server, bruno, me)
        else:
            await bruno_examines(app, pilot, server, bruno, me)
            await we_examine(app, pilot, server, bruno)

    run_app(join(server), body, size=(120, 40))


async def we_examine(app, pilot, server, bruno) -> None:
    await until(pilot, lambda: (v := my_decision(app)) and v.phase == "action", "our turn")
    await pilot.press("x")  # Bruno, the one possible target: no picker
    await bruno_plays(app, server, bruno, lambda v: move("pass"), "respond")
    await bruno_plays(app, server, bruno, lambda v: v.legal_moves()[0], "show")
    decide = await until(pilot, lambda: dialog(app), "the Examine decision")
    card = app.table.view.shown.capitalize()
    assert decide.title_text == f"Bruno showed you the {card}: what happens to it?"
    assert dialog_labels(app) == ["Let them keep it", "Make them swap it"]
    await pilot.press("2")
    await until(pilot, lambda: app.table.view.phase == "action", "the Examine done")


async def bruno_examines(app, pilot, server, bruno, me) -> None:
    await bruno_plays(app, server, bruno, lambda v: move("examine", target=me), "action")
    await answer(app, pilot, "p", "letting the Examine be")
    show = await until(pilot, lambda: dialog(app), "the card to show")
    assert show.title_text == "Choose the card you show"
    hand = app.table.view.hands[me]
    assert sorted(dialog_labels(app)) == sorted(f"Show {card.capitalize()}" for card in set(hand))
    await pilot.press("1")
    await until(pilot, lambda: app.table.view.phase == "examine_decision", "our card shown")
    await bruno_plays(app, server, bruno, lambda v: v.legal_moves()[0], "examine_decision")


def test_a_dialog_closes_by_itself_when_its_clock_runs_out(server):
    async def body(app, pilot):
        # A clock long enough that a busy machine reaches the block step and opens the
        # chooser before it runs out.
        bruno = await duel(app, pilot, server, two_player_draft=False, response_clock=4)
        me = app.table.seat
        await bruno_to_act(app, pilot, server, bruno)
        await bruno_plays(app, server, bruno, lambda v: move("steal", target=me), "action")
        await block_step(app, pilot)
        opened = app.table.view.opened
        sent = sent_by(app)
        await pilot.press("b")
        assert dialog(app), "the block chooser"
        await until(pilot, lambda: not dialog(app), "the dialog to close itself", timeout=10)
        assert app.table.view.opened != opened and sent == []
        assert isinstance(app.screen, TableScreen)

    run_app(join(server), body, size=(120, 40))


def steal_blockers(actions: str) -> str:
    """The last column of the rules card's Steal row, over the lines it wraps to."""
    lines = actions.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("Steal"))
    end = next((n for n in range(start + 1, len(lines)) if lines[n][:1] != " "), len(lines))
    return " ".join(lines[n][-13:].strip() for n in range(start, end)).strip()


def test_the_rules_card_at_a_table_lists_its_variant_and_keeps_the_decision_in_sight(server):
    """At an Inquisitor table (R1.3) the card lists the Inquisitor's Exchange and Examine and
    its block of Steal, and no Ambassador; opened while a decision runs on its clock (R10),
    it shows that decision and its countdown at its foot."""
    async def body(app, pilot):
        await duel(app, pilot, server, variant="inquisitor", two_player_draft=False,
                   response_clock=60, turn_clock=180)
        table = app.screen
        await until(pilot, lambda: "⏱" in shown(table.query_one("#seconds")),
                    "the countdown at the table")
        await pilot.press("question_mark")
        rules = await until(pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen,
                            "the rules card")
        actions = shown(rules.query_one("#rules-actions"))
        assert "Ambassador" not in actions and not rules.query("#rules-inquisitor")
        rows = [line.split() for line in actions.splitlines() if line[:1] == "E"]
        assert [row[:2] for row in rows] == [["Exchange", "Inquisitor"],
                                             ["Examine", "Inquisitor"]]
        assert steal_blockers(actions) == "Captain, Inquisitor"
        await until(pilot, lambda: "⏱" in shown(rules.query_one("#seconds")),
                    "the countdown on the card")
        assert shown(rules.query_one("#prompt")).strip() == shown(
            table.query_one("#prompt")).strip()
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is table, "back at the table")

    run_app(join(server), body, size=(80, 24))


def test_the_rules_card_of_a_base_table_has_no_inquisitor(server):
    """In the base game (R1.1, R4) the Ambassador exchanges (draws 2) and blocks Steal."""
    async def body(app, pilot):
        await duel(app, pilot, server, two_player_draft=False)
        await pilot.press("question_mark")
        rules = await until(pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen,
                            "the rules card")
        actions = shown(rules.query_one("#rules-actions"))
        assert "Inquisitor" not in actions and "Examine" not in actions
        assert "Exchange Ambassador draw 2 cards" in " ".join(actions.split())
        assert steal_blockers(actions) == "Captain, Ambassador"

    run_app(join(server), body, size=(120, 40))


def test_the_results_tell_who_went_out_and_each_player_s_claims_bluffs_and_challenges():
    """The results read the game's summary (R11: sent once the game is over): who went out
    first (R2.3), each player's claims with how many were bluffs, and the challenges each
    made, won and lost (R6.3, R6.4); the cards of every player line up in cells."""
    messages = finished()
    summary = messages[-1].summary

    async def body(app, pilot):
        pretend_connected(app)
        for msg in messages:
            from_server(app, msg)
        results = await until(pilot, lambda: isinstance(app.screen, ResultsScreen)
                              and app.screen, "the results")
        names = [app.table.name(seat) for seat in summary["out"]]
        assert shown(results.query_one("#out")).strip() == (
            "Out, first to last: " + ", ".join(names))
        lines = shown(results.query_one("#hands")).splitlines()
        assert " ".join(lines[:2]).split() == ["Challenges", "Player", "Cards", "Claims",
                                               "Bluffs", "won/lost"]
        rows = [line for line in lines[2:] if line[:1] != " "]
        reveal, columns = app.table.reveal, set()
        for seat, record in enumerate(summary["seats"]):
            row = rows[seat]
            assert row.startswith(app.table.name(seat))
            first, second = (card_name(c) for c in [*reveal.hands[seat],
                                                     *reveal.revealed[seat]])
            columns.add((row.index(first), row.index(second, row.index(first) + len(first))))
            assert all(card_name(card) in " ".join(lines) for card in record["claims"])
            assert row.split()[-2:] == [str(record["bluffs"]), "{}/{}".format(
                record["challenges_won"], record["challenges_lost"])]
        assert len(columns) == 1  # every player's cards start in the same two columns

    run_app(Launch(name="Ana"), body, size=(80, 24))
