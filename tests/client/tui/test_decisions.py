"""Decisions that say what they are and why, in arranged positions on a real server (the
`server` fixture's, its game dealt by `Game.arrange`) against a scripted Bruno: proving and
conceding on keys no other decision uses, a confirmation before conceding a card you hold
(R6.2–R6.4), a forced Coup explained (R3.4), the card to lose asked with its reason (a lost
challenge, a concession, a Coup, an Assassination: R2.1, R5.3), and the Examine's decision
naming the card shown (R4.4). In English and in Brazilian Portuguese.
"""

from __future__ import annotations

import pytest

from client.i18n import set_language
from client.tui.app import Launch
from client.tui.screens.dialogs import ConfirmDialog
from client.tui.screens.table import ACTION_KEYS, RESPONSE_KEYS, TableScreen
from engine import move

from .helpers import (
    arrange,
    bar_keys,
    dialog,
    duel,
    my_decision,
    peer_plays,
    run_app,
    sent_by,
    shown,
    until,
)


def join(server) -> Launch:
    return Launch(mode="join", port=server.port, name="Ana")


async def bruno_plays(app, server, bruno, choose, phase=None) -> None:
    await server.run(peer_plays, bruno, app.table.view.state_id, choose, phase)


async def decision(app, pilot, phase: str):
    return await until(pilot, lambda: (v := my_decision(app)) and v.phase == phase and v,
                       f"our decision ({phase})")


def prompt(app) -> str:
    return shown(app.screen.query_one("#prompt"))


TEXTS = {
    "en": {
        "confirm": "You hold the Duke: concede all the same, and lose an influence?",
        "conceded": "You conceded Bruno's challenge of your Duke: choose the card you lose",
        "bluff": "You conceded Bruno's challenge of your Duke: choose the card you lose",
        "proved": "Bruno showed the Duke: you lost your challenge. Choose the card you lose",
        "coup": "Bruno launched a Coup against you: choose the card you lose",
        "assassinate": "Bruno assassinated you: choose the card you lose",
        "must_coup": "Your turn: with 10 coins you must Coup",
        "examine": "Bruno showed you the Contessa: what happens to it?",
    },
    "pt_BR": {
        "confirm": "Você tem esta carta: Duque. Ceder mesmo assim e perder uma influência?",
        "conceded": "Você cedeu à contestação de Bruno (Duque): escolha a carta que vai perder",
        "bluff": "Você cedeu à contestação de Bruno (Duque): escolha a carta que vai perder",
        "proved": "Bruno revelou Duque: você perdeu a contestação. Escolha a carta que vai "
                  "perder",
        "coup": "Bruno deu um Golpe de Estado em você: escolha a carta que vai perder",
        "assassinate": "Bruno assassinou você: escolha a carta que vai perder",
        "must_coup": "Sua vez: com 10 moedas, você deve dar um Golpe de Estado",
        "examine": "Bruno mostrou para você: Condessa. O que acontece com a carta?",
    },
}


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_conceding_a_card_you_hold_is_asked_first_on_a_key_of_its_own(server, monkeypatch,
                                                                        lang):
    """R6.2: Ana claims the Duke she holds (Tax) and Bruno challenges. Prove and concede are
    on keys that no action and no other answer uses, so the reflex `c` (Challenge, Coup)
    does nothing; conceding asks first, and no keeps the claim open. Once conceded, the
    dialog for the card to lose says why (R6.4)."""
    set_language(lang)
    arrange(monkeypatch, hands=[["duke", "captain"], ["assassin", "contessa"]], actor=0)

    async def body(app, pilot):
        bruno = await duel(app, pilot, server, two_player_draft=False)
        assert app.table.seat == 0
        await decision(app, pilot, "action")
        await pilot.press("t")
        await bruno_plays(app, server, bruno, lambda v: move("challenge"), "respond")
        await decision(app, pilot, "prove")
        prove, concede = RESPONSE_KEYS["prove"], RESPONSE_KEYS["concede"]
        assert bar_keys(app) == [prove, concede]
        others = set(ACTION_KEYS.values()) | {RESPONSE_KEYS[k]
                                              for k in ("challenge", "block", "pass")}
        assert prove != concede and not {prove, concede} & others
        sent = sent_by(app)
        await pilot.press("c")  # the reflex of the step before: nothing happens
        await pilot.press(concede)
        confirm = await until(pilot, lambda: isinstance(app.screen, ConfirmDialog)
                              and app.screen, "the question")
        assert confirm.question == TEXTS[lang]["confirm"]
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        assert sent == [] and app.table.view.phase == "prove"
        await pilot.press(concede)
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question again")
        await pilot.press("y")
        lose = await until(pilot, lambda: dialog(app), "the card to lose")
        assert [msg.move["kind"] for msg in sent] == ["concede"]
        assert lose.title_text == TEXTS[lang]["conceded"]

    run_app(join(server), body, size=(80, 24))


def test_conceding_a_bluff_asks_nothing(server, monkeypatch):
    """R6.4: Ana claims a Duke she does not hold; challenged, she may only concede, which
    is sent at once."""
    arrange(monkeypatch, hands=[["captain", "contessa"], ["assassin", "contessa"]], actor=0)

    async def body(app, pilot):
        bruno = await duel(app, pilot, server, two_player_draft=False)
        await decision(app, pilot, "action")
        await pilot.press("t")
        await bruno_plays(app, server, bruno, lambda v: move("challenge"), "respond")
        await decision(app, pilot, "prove")
        assert bar_keys(app) == [RESPONSE_KEYS["concede"]]
        sent = sent_by(app)
        await pilot.press(RESPONSE_KEYS["concede"])
        lose = await until(pilot, lambda: dialog(app), "the card to lose")
        assert [msg.move["kind"] for msg in sent] == ["concede"]
        assert lose.title_text == TEXTS["en"]["bluff"]

    run_app(join(server), body)


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_the_card_to_lose_after_a_lost_challenge_says_who_showed_what(server, monkeypatch,
                                                                      lang):
    """R6.3: Bruno claims the Duke he holds, Ana challenges, Bruno shows it: the dialog and
    the decision line say that Ana lost her challenge to Bruno's Duke."""
    set_language(lang)
    arrange(monkeypatch, hands=[["captain", "contessa"], ["duke", "assassin"]], actor=1)

    async def body(app, pilot):
        bruno = await duel(app, pilot, server, two_player_draft=False)
        await bruno_plays(app, server, bruno, lambda v: move("tax"), "action")
        await decision(app, pilot, "respond")
        await pilot.press("c")
        await bruno_plays(app, server, bruno, lambda v: move("prove"), "prove")
        lose = await until(pilot, lambda: dialog(app), "the card to lose")
        assert lose.title_text == TEXTS[lang]["proved"]
        assert TEXTS[lang]["proved"] in prompt_under(app)

    run_app(join(server), body, size=(120, 40))


def prompt_under(app) -> str:
    """The decision line of the table under the dialog."""
    return shown(app.screen_stack[-2].query_one("#prompt"))


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
@pytest.mark.parametrize("action", ["coup", "assassinate"])
def test_the_card_to_lose_to_an_action_says_which(server, monkeypatch, action, lang):
    """R4: Bruno coups or assassinates Ana (who lets the Assassin stand, and does not block):
    the dialog says what is done to her, and by whom."""
    set_language(lang)
    arrange(monkeypatch, hands=[["captain", "duke"], ["assassin", "contessa"]], actor=1,
            coins=[2, 7])

    async def body(app, pilot):
        bruno = await duel(app, pilot, server, two_player_draft=False)
        await bruno_plays(app, server, bruno, lambda v: move(action, target=0), "action")
        if action == "assassinate":
            await decision(app, pilot, "respond")
            await pilot.press("p")  # no challenge
            await until(pilot, lambda: (v := my_decision(app)) and v.step == "block",
                        "the block step")
            await pilot.press("p")  # no block
        lose = await until(pilot, lambda: dialog(app), "the card to lose")
        assert lose.title_text == TEXTS[lang][action]

    run_app(join(server), body)


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_a_forced_coup_says_why_it_is_the_only_move(server, monkeypatch, lang):
    """R3.4: Ana starts her turn with 10 coins; Coup is the only move, and the decision
    line says why."""
    set_language(lang)
    arrange(monkeypatch, hands=[["captain", "duke"], ["assassin", "contessa"]], actor=0,
            coins=[10, 2])

    async def body(app, pilot):
        await duel(app, pilot, server, two_player_draft=False)
        await decision(app, pilot, "action")
        assert bar_keys(app) == [ACTION_KEYS["coup"]]
        await until(pilot, lambda: TEXTS[lang]["must_coup"] in prompt(app), "the reason")

    run_app(join(server), body, size=(80, 24))


def test_the_examine_decision_names_the_card_shown_in_portuguese(server, monkeypatch):
    """R4.4 (Inquisitor): Ana examines Bruno, who shows his Contessa; her dialog names it
    (in English: test_dialogs)."""
    set_language("pt_BR")
    arrange(monkeypatch, hands=[["inquisitor", "duke"], ["contessa", "captain"]], actor=0)

    async def body(app, pilot):
        bruno = await duel(app, pilot, server, variant="inquisitor", two_player_draft=False)
        await decision(app, pilot, "action")
        await pilot.press("x")  # Bruno, the one possible target: no picker
        await bruno_plays(app, server, bruno, lambda v: move("pass"), "respond")
        await bruno_plays(app, server, bruno, lambda v: move("show", card="contessa"), "show")
        decide = await until(pilot, lambda: dialog(app) and app.table.view.phase
                             == "examine_decision" and dialog(app), "the Examine decision")
        assert decide.title_text == TEXTS["pt_BR"]["examine"]

    run_app(join(server), body, size=(80, 24))
