"""The heuristic and the expert at Reformation tables (R12): whom they aim at on a divided
table, when a Conversion pays, when the Almshouse is worth an Embezzlement, and when an
Embezzler probably holds a Duke. Each scenario is a position; the bots are asked on several
seeds, since the heuristic's bluffs draw from its generator."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Event, move
from engine.bots import choose_at
from engine.bots.beliefs import Beliefs
from engine.position import Position

SEEDS = range(8)


def position(**data: Any) -> Position:
    return Position.from_dict({"options": {"players": len(data["seats"]), "reformation": True},
                               **data})


def seats(*hands: tuple[list[str], int, str]) -> list[dict[str, Any]]:
    """Each seat's face-down cards, coins and faction; a seat with one card has lost the
    Duke."""
    return [{"hand": hand, "coins": coins, "faction": faction,
             "revealed": ["duke"] if len(hand) == 1 else []}
            for hand, coins, faction in hands]


def test_r12_6_heuristic_coups_the_strongest_seat_it_may_target_on_a_divided_table() -> None:
    # Seat 2, my fellow Loyalist, is the richest and the only one with two cards: the
    # strongest seat, but out of reach while the table is divided. Of the Reformists,
    # seat 3 (6 coins) is stronger than seat 1 (1 coin).
    p = position(seats=seats((["duke", "captain"], 7, "loyalist"),
                             (["contessa"], 1, "reformist"),
                             (["assassin", "ambassador"], 9, "loyalist"),
                             (["captain"], 6, "reformist")))
    for seed in SEEDS:
        assert choose_at("heuristic", p, seed=seed) == move("coup", target=3)


def lone_reformist() -> Position:
    # Seat 0 is the only Reformist: while the table is divided, both Loyalists may aim
    # every Coup, Assassination and Steal at it alone, and the richer one (6 coins) is a
    # Coup away. It holds no Duke, no Assassin and no Captain.
    return position(seats=seats((["contessa", "ambassador"], 3, "reformist"),
                                (["duke", "captain"], 6, "loyalist"),
                                (["assassin", "contessa"], 4, "loyalist")))


@pytest.mark.parametrize("strategy", ["heuristic", "cautious", "expert"])
def test_r12_9_a_lone_target_of_a_strong_faction_converts(strategy: str) -> None:
    for seed in SEEDS:
        chosen = choose_at(strategy, lone_reformist(), seed=seed)
        assert chosen.kind == "convert", (seed, chosen)


def test_r12_9_a_seat_of_the_bigger_faction_keeps_it() -> None:
    # Three Loyalists against one Reformist: only seat 1 may aim at me, and every
    # Conversion would bring more attackers into reach.
    p = position(seats=seats((["contessa", "ambassador"], 3, "loyalist"),
                             (["duke", "captain"], 6, "reformist"),
                             (["assassin", "contessa"], 2, "loyalist"),
                             (["duke", "ambassador"], 2, "loyalist")))
    for seed in SEEDS:
        assert choose_at("heuristic", p, seed=seed).kind != "convert"


def test_r12_14_heads_up_a_conversion_shelters_nobody() -> None:
    p = position(seats=seats((["contessa", "ambassador"], 3, "reformist"),
                             (["duke", "captain"], 6, "loyalist")))
    for seed in SEEDS:
        assert choose_at("heuristic", p, seed=seed).kind != "convert"


def big_almshouse(hand: list[str]) -> Position:
    # Six coins in the Almshouse; I am of the bigger faction, so no Conversion would help.
    return position(almshouse=6,
                    seats=seats((hand, 2, "loyalist"),
                                (["duke", "captain"], 2, "reformist"),
                                (["assassin", "contessa"], 2, "loyalist"),
                                (["duke", "ambassador"], 2, "loyalist")))


@pytest.mark.parametrize("strategy", ["heuristic", "cautious", "banker", "expert"])
def test_r12_11_a_big_almshouse_is_embezzled_by_a_seat_without_a_duke(strategy: str) -> None:
    for seed in SEEDS:
        assert choose_at(strategy, big_almshouse(["captain", "contessa"]),
                         seed=seed) == move("embezzle")


def test_r12_11_a_truth_teller_holding_a_duke_takes_tax_not_the_almshouse() -> None:
    for seed in SEEDS:
        assert choose_at("cautious", big_almshouse(["duke", "contessa"]),
                         seed=seed) == move("tax")


def embezzlement(history: list[Event], coins: int = 3, almshouse: int = 5) -> Position:
    # Heads-up, seat 1 embezzles 5 coins, which would take it to 8: a Coup at me next turn.
    # I may challenge (R12.8); a right call costs it a card and the Almshouse, a wrong one
    # costs me a card.
    return position(almshouse=almshouse, turn=1, history=[e.to_dict() for e in history],
                    seats=seats((["captain", "contessa"], 4, "loyalist"),
                                (["assassin", "ambassador"], coins, "reformist")),
                    decision={"phase": "respond", "action": "embezzle",
                              "step": "challenge_action"})


#: Seat 1's last turn: a Tax, claiming the Duke, that I let stand.
TAX = [Event("action", seat=1, card="duke", amount=0, action="tax"),
       Event("pass", seat=0, target=1, card="duke"),
       Event("gain", seat=1, amount=3)]


@pytest.mark.parametrize("strategy", ["heuristic", "expert"])
def test_r12_12_an_embezzlement_by_a_seat_that_just_claimed_tax_is_challenged(
        strategy: str) -> None:
    history = TAX + [Event("action", seat=1, amount=0, action="embezzle")]
    for seed in range(3):
        assert choose_at(strategy, embezzlement(history), seed=seed) == move("challenge")


def test_r12_12_the_expert_calls_an_embezzler_already_armed_at_even_odds_only() -> None:
    # Seat 1 holds 7 coins: it may Coup me next turn whether it takes the Almshouse's 2 or
    # not, so the Embezzlement arms nothing. Its Tax makes its Duke likelier (0.42) but not
    # likelier than not: the call costs me a card more often than it, and it stands.
    history = TAX + [Event("action", seat=1, amount=0, action="embezzle")]
    for seed in range(3):
        assert choose_at("expert", embezzlement(history, coins=7, almshouse=2),
                         seed=seed) == move("pass")


@pytest.mark.parametrize("strategy", ["heuristic", "expert"])
def test_r12_12_an_embezzlement_by_a_seat_that_claimed_nothing_stands(strategy: str) -> None:
    history = [Event("action", seat=1, amount=0, action="embezzle")]
    for seed in range(3):
        assert choose_at(strategy, embezzlement(history), seed=seed) == move("pass")


EMBEZZLE = Event("action", seat=1, amount=0, action="embezzle")
CHALLENGED = Event("challenge", seat=0, target=1)


def duke_chance(history: list[Event]) -> float:
    """How likely seat 0's beliefs make it that seat 1 holds a Duke after `history`."""
    game = embezzlement([]).game()
    view = game.view(0)
    beliefs = Beliefs()
    beliefs.observe(view, history)
    return beliefs.holds(view, 1, "duke")


def test_r12_11_an_embezzlement_claims_no_duke() -> None:
    assert duke_chance([EMBEZZLE]) < duke_chance([]) / 3


def test_r12_12_2_a_conceded_embezzlement_all_but_shows_a_duke() -> None:
    assert duke_chance([EMBEZZLE, CHALLENGED, Event("concede", seat=1)]) > 0.9


def test_r12_12_1_a_proved_embezzlement_leaves_a_new_hand() -> None:
    # Whatever its Tax said of its old cards, the cards it drew after showing them are
    # unknown: counting alone.
    shown = Event("disprove", seat=1, cards=("assassin", "captain"))
    redraw = Event("redraw", seat=1)
    after = duke_chance(TAX + [EMBEZZLE, CHALLENGED, shown, redraw, redraw])
    assert after == pytest.approx(duke_chance([]))
    assert duke_chance(TAX) > after


def lie_rate(history: list[Event]) -> float:
    """Seat 1's lie rate in seat 0's beliefs after `history`."""
    game = embezzlement([]).game()
    beliefs = Beliefs()
    beliefs.observe(game.view(0), history)
    return beliefs.lie_rate(1)


def test_r12_11_1_a_duke_claimed_and_denied_with_one_hand_is_a_lie_in_either_order() -> None:
    # A Tax then an Embezzlement, or an Embezzlement then a Tax, with no new card between:
    # one of the two claims was false, whichever came first.
    taxed_first = lie_rate(TAX + [EMBEZZLE])
    assert taxed_first > lie_rate(TAX)
    assert lie_rate([EMBEZZLE] + TAX) == pytest.approx(taxed_first)
