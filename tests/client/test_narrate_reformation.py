"""The shared words of Reformation (client/narrate.py, client/i18n.py): the log's lines for
a Conversion, an Embezzlement and its challenge, proof or concession, the prompts and move
labels of those decisions, and the refusals, in English and Portuguese. Games are played on
the engine; the lines are what a seat sees of them (R11, R12.18). No server and no screen.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from client import i18n
from client.narrate import (
    almshouse_text, error_text, event_text, loss_reason, move_label, move_refused_text,
    passes_text, prompt, said_already, unity_text,
)
from engine import Event, Game, Move, Options, move, visible_to

REF3 = Options(players=3, reformation=True)
NAMES = ("Ana", "Bruno", "Caio")


def names(seat: int | None) -> str:
    return "?" if seat is None else NAMES[seat]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def three(hands: list[list[str]] | None = None, coins: list[int] | None = None,
          almshouse: int = 0) -> Game:
    """Three seats, Ana (seat 0) to act: by R12.3 Ana and Caio are Loyalist, Bruno
    Reformist."""
    return Game.arrange(REF3, hands=hands or [["captain", "assassin"], ["contessa", "duke"],
                                              ["duke", "ambassador"]],
                        coins=coins or [2, 2, 2], almshouse=almshouse)


def lines(game: Game, seat: int, mv: Move, me: int) -> list[str]:
    """What `me` reads in the log when `seat` plays `mv` (an event that says nothing new is
    left out, as the front ends leave it out)."""
    events = visible_to(game.apply(seat, mv), me)
    return [text for i, e in enumerate(events)
            if not said_already(e, events[i - 1] if i else None)
            and (text := event_text(e, names, me)) is not None]


def test_R12_9_a_conversion_is_one_line_with_its_cost_and_new_faction() -> None:
    """R12.9, R12.18: the declaration and the Conversion make one line, which says who paid,
    whom they converted, into which faction, and what went into the Almshouse."""
    game = three()
    assert lines(game, 0, move("convert", target=1), 2) == [
        "Ana converts Bruno to Loyalist, paying 2 coins into the Almshouse",
        "— Bruno's turn —"]
    assert "Bruno converts you to Reformist" in lines(game, 1, move("convert", target=2), 2)[0]
    game = three()
    assert lines(game, 0, move("convert", target=0), 2)[0] == (
        "Ana converts to Reformist, paying 1 coin into the Almshouse")


def test_R12_11_an_embezzlement_unchallenged_takes_the_almshouse() -> None:
    """R12.11: the claim of no Duke is said, then asked about; passes are an
    Embezzlement's, and the Almshouse's coins go to the embezzler."""
    game = three(almshouse=3)
    assert lines(game, 0, move("embezzle"), 1) == [
        "Ana claims to hold no Duke, to embezzle the Almshouse"]
    view = game.view(1)
    assert prompt(view, names) == ("Ana claims to hold no Duke, to embezzle the Almshouse — "
                                   "challenge or pass?")
    passes = [e for e in visible_to(game.apply(1, move("pass")), 1) if e.kind == "pass"]
    assert event_text(passes[0], names, 2) == "Bruno does not challenge Ana's Embezzlement"
    assert event_text(passes[0], names, 0) == "Bruno does not challenge your Embezzlement"
    events = visible_to(game.apply(2, move("pass")), 1)
    assert passes_text([passes[0], events[0]], names, 1, everyone=True) == "No one challenges"
    assert passes_text([passes[0], events[0]], names, 1, everyone=False) == (
        "Bruno and Caio do not challenge")
    told = [event_text(e, names, 1) for e in events[1:]]
    assert "Ana takes 3 coins from the Almshouse" in told


def test_R12_12_1_a_challenged_embezzler_proves_by_showing_every_card() -> None:
    """R12.12.1: the challenge, the question to the embezzler, the proof (every card shown
    and as many drawn, one line) and the challenger's loss, each in words."""
    game = three(almshouse=2)
    game.apply(0, move("embezzle"))
    assert lines(game, 1, move("challenge"), 2) == ["Bruno challenges Ana's claim to hold no "
                                                    "Duke"]
    view = game.view(0)
    assert prompt(view, names) == ("Bruno challenges your Embezzlement: show all your cards, "
                                   "none a Duke, or concede")
    assert prompt(game.view(2), names) == "Ana must show every card, none a Duke, or concede"
    assert [move_label(mv, names, view) for mv in view.legal_moves()] == [
        "Show all your cards", "Concede"]
    told = lines(game, 0, move("prove"), 2)
    assert told[0] == ("Ana shows every card, none a Duke: Assassin, Captain, and draws as "
                       "many new ones from the deck")
    assert not [line for line in told if "shuffles it into the deck" in line]
    assert loss_reason(game.view(1), names) == (
        "Ana showed every card, none a Duke: you lost your challenge. Choose the card you "
        "lose")


def test_R12_12_2_a_conceded_embezzlement_fails_and_keeps_the_almshouse() -> None:
    """R12.12.2: holding a Duke, Ana can only concede; she loses an influence and the
    Embezzlement fails, its reason said."""
    game = three(hands=[["duke", "assassin"], ["contessa", "captain"], ["duke", "ambassador"]],
                 almshouse=2)
    game.apply(0, move("embezzle"))
    game.apply(1, move("challenge"))
    view = game.view(0)
    assert [move_label(mv, names, view) for mv in view.legal_moves()] == ["Concede"]
    assert lines(game, 0, move("concede"), 1) == ["Ana concedes the Embezzlement"]
    assert loss_reason(game.view(0), names) == (
        "You conceded Bruno's challenge of your Embezzlement: choose the card you lose")
    assert lines(game, 0, move("lose", card="assassin"), 1)[-2] == (
        "Ana's attempt to embezzle the Almshouse fails: the claim was given up")


def test_R12_9_conversion_labels_name_oneself_and_the_cost() -> None:
    """R12.9.1: the self-Conversion reads "yourself"; each label says its cost."""
    view = three().view(0)
    labels = [move_label(mv, names, view) for mv in view.legal_moves() if mv.kind == "convert"]
    assert labels == ["Convert yourself (1 coin)", "Convert Bruno (2 coins)",
                      "Convert Caio (2 coins)"]
    assert move_label(move("embezzle"), names, view) == "Embezzle"


def test_R12_refusals_and_the_table_status_in_words() -> None:
    """R12.5, R12.6, R12.10–R12.12: each refusal code, the cost of an unaffordable
    Conversion, the Almshouse and whether the table is divided."""
    assert "own faction" in error_text("same_faction")
    assert "Almshouse" in error_text("almshouse_empty")
    assert "Duke" in error_text("holds_duke")
    assert move_refused_text("cannot_afford", "convert") == (
        "You do not have enough coins: Convert costs 1 coin for yourself, 2 for anyone else.")
    view = three(almshouse=1).view(0)
    assert almshouse_text(view.almshouse) == "Almshouse: 1 coin"
    assert unity_text(view) == "The table is divided: aim only at the other faction"
    game = three(hands=[["duke", "assassin"], [], ["duke", "ambassador"]], coins=[2, 0, 2])
    assert unity_text(game.view(0)) == "The table is unified: anyone may be aimed at"


def test_R12_the_lines_are_portuguese_too() -> None:
    """The Portuguese catalog translates every Reformation line (names from
    docs/TRANSLATING.md)."""
    game = three()
    i18n.set_language("pt_BR")
    text = lines(game, 0, move("convert", target=1), 2)[0]
    assert text.startswith("Ana converte Bruno") and "Legalista" in text
    assert i18n.faction_name("reformist") == "Reformista"


def test_an_event_of_another_kind_is_untouched() -> None:
    """A base game's proof still names its card."""
    assert event_text(Event("prove", seat=0, card="duke"), names, 1) == (
        "Ana shows the Duke: the claim was true")
