"""Scenario tests for the actions of R4: each action's claim, cost, effect and blockers,
R4.1 (costs at declaration), R4.2 (Steal), R4.3 (Exchange), R4.4 (Examine) and the
treasury's limits (R1.5)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from engine import Game, Options, move
from tests.engine.helpers import kinds, only, pass_window, refused, total

PASS = move("pass")
CHALLENGE = move("challenge")
BASE3 = Options(players=3)
INQ3 = Options(players=3, variant="inquisitor")


# ---------------------------------------------------------------- helpers


def all_cards(game):
    """Every card of the game, wherever it lies (hands, face up, deck, an Exchange draw)."""
    cards = list(game.deck) + list(game.drawn)
    for hand in game.hands:
        cards += hand
    for up in game.revealed:
        cards += up
    return Counter(cards)


# ---------------------------------------------------------------- the R4 table


def test_R4_income_takes_one_coin_without_any_window():
    g = Game.arrange(
        BASE3,
        hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]],
    )
    treasury = g.treasury
    ev = g.apply(0, move("income"))
    assert kinds(ev) == ["action", "gain", "turn"]
    assert only(ev, "action").card is None  # no character claimed
    assert only(ev, "gain").amount == 1
    assert g.coins == [3, 2, 2]
    assert g.treasury == treasury - 1
    assert (g.phase, g.waiting, g.actor) == ("action", (1,), 1)


def test_R4_foreign_aid_claims_nothing_and_unblocked_gains_two():
    g = Game.arrange(
        BASE3,
        hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]],
    )
    ev = g.apply(0, move("foreign_aid"))
    assert only(ev, "action").card is None
    # no challenge window: straight to the block window, open to every other seat
    assert (g.phase, g.step) == ("respond", "block")
    assert set(g.waiting) == {1, 2}
    assert set(g.legal_moves(1)) == {move("block", card="duke"), PASS}
    ev = pass_window(g)
    assert only(ev, "gain").amount == 2
    assert g.coins == [4, 2, 2]
    assert total(g) == 50
    assert g.actor == 1


def test_R4_coup_costs_seven_and_the_target_loses_an_influence_unopposed():
    g = Game.arrange(
        BASE3,
        hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]],
        coins=[7, 2, 2],
    )
    treasury = g.treasury
    ev = g.apply(0, move("coup", target=1))
    action = only(ev, "action")
    assert (action.card, action.amount, action.target) == (None, 7, 1)
    assert g.coins[0] == 0 and g.treasury == treasury + 7
    # neither challenge nor block: the target chooses the card at once
    assert (g.phase, g.waiting) == ("lose", (1,))
    assert set(g.legal_moves(1)) == {move("lose", card="contessa"), move("lose", card="assassin")}
    ev = g.apply(1, move("lose", card="assassin"))
    assert kinds(ev) == ["lose", "turn"]
    assert g.hands[1] == ["contessa"] and g.revealed[1] == ["assassin"]
    assert total(g) == 50


def test_R4_coup_on_a_last_influence_turns_it_up_and_exiles():
    g = Game.arrange(BASE3, hands=[["duke", "captain"], ["contessa"], ["duke", "captain"]],
                     revealed=[[], ["assassin"], []], coins=[8, 3, 2])
    ev = g.apply(0, move("coup", target=1))
    assert kinds(ev) == ["action", "lose", "exile", "turn"]
    assert only(ev, "exile").amount == 3  # R2.2: coins back to the treasury
    assert g.alive == [True, False, True]
    assert g.coins == [1, 0, 2] and total(g) == 50
    assert g.actor == 2  # seat 1 is skipped


def test_R4_tax_claims_the_duke_and_gains_three():
    g = Game.arrange(
        BASE3,
        hands=[["assassin", "captain"], ["contessa", "assassin"], ["duke", "captain"]],
    )
    ev = g.apply(0, move("tax"))
    assert only(ev, "action").card == "duke"
    assert (g.phase, g.step, g.claim, g.claimant) == ("respond", "challenge_action", "duke", 0)
    ev = pass_window(g)  # a bluff nobody challenged stands; nobody may block a Tax
    assert "block" not in kinds(ev)
    assert only(ev, "gain").amount == 3
    assert g.coins == [5, 2, 2] and total(g) == 50


def test_R4_assassinate_claims_the_assassin_costs_three_and_takes_an_influence():
    g = Game.arrange(
        BASE3,
        hands=[["assassin", "captain"], ["contessa", "duke"], ["duke", "captain"]],
        coins=[3, 2, 2],
    )
    ev = g.apply(0, move("assassinate", target=1))
    action = only(ev, "action")
    assert (action.card, action.amount, action.target) == ("assassin", 3, 1)
    pass_window(g)
    assert (g.step, g.waiting) == ("block", (1,))
    assert set(g.legal_moves(1)) == {move("block", card="contessa"), PASS}
    g.apply(1, PASS)
    assert (g.phase, g.waiting) == ("lose", (1,))
    g.apply(1, move("lose", card="duke"))
    assert g.hands[1] == ["contessa"] and g.revealed[1] == ["duke"]
    assert g.coins == [0, 2, 2] and total(g) == 50


def test_R4_steal_claims_the_captain_and_takes_two_from_the_target():
    g = Game.arrange(BASE3, hands=[["captain", "duke"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[2, 5, 2])
    treasury = g.treasury
    ev = g.apply(0, move("steal", target=1))
    assert only(ev, "action").card == "captain"
    pass_window(g)
    assert (g.step, g.waiting) == ("block", (1,))
    ev = g.apply(1, PASS)
    steal = only(ev, "steal")
    assert (steal.seat, steal.target, steal.amount) == (0, 1, 2)
    assert g.coins == [4, 3, 2]
    assert g.treasury == treasury  # coins move between players only


@pytest.mark.parametrize(
    "variant, blockers",
    [("base", {"captain", "ambassador"}), ("inquisitor", {"captain", "inquisitor"})],
)
def test_R4_steal_is_blocked_by_captain_and_ambassador_or_inquisitor_in_the_variant(
    variant, blockers
):
    hands = [["captain", "duke"], ["contessa", "duke"], ["duke", "captain"]]
    g = Game.arrange(Options(players=3, variant=variant), hands=hands)
    g.apply(0, move("steal", target=1))
    pass_window(g)
    assert set(g.legal_moves(1)) == {move("block", card=c) for c in blockers} | {PASS}
    other = "inquisitor" if variant == "base" else "ambassador"
    assert refused(g, 1, move("block", card=other)) in ("bad_block", "not_in_variant")
    assert refused(g, 1, move("block", card="duke")) == "bad_block"


def test_R4_exchange_with_the_ambassador_draws_two_and_keeps_two():
    g = Game.arrange(
        BASE3,
        hands=[["ambassador", "duke"], ["contessa", "duke"], ["duke", "captain"]],
        deck=["captain", "contessa", "assassin", "assassin"],
    )
    before = all_cards(g)
    ev = g.apply(0, move("exchange"))
    assert only(ev, "action").card == "ambassador"
    ev = pass_window(g)
    assert only(ev, "exchange").amount == 2
    drew = only(ev, "drew")
    assert (drew.seat, drew.cards, drew.to) == (0, ("captain", "contessa"), (0,))
    assert (g.phase, g.waiting, g.keep_count) == ("keep", (0,), 2)
    assert "block" not in kinds(ev)  # nobody blocks an Exchange
    ev = g.apply(0, move("keep", cards=("captain", "contessa")))
    assert only(ev, "keep").amount == 2
    assert sorted(g.hands[0]) == ["captain", "contessa"]
    assert sorted(g.deck) == ["ambassador", "assassin", "assassin", "duke"]
    assert all_cards(g) == before


def test_R4_exchange_with_the_inquisitor_draws_only_one():
    g = Game.arrange(
        INQ3,
        hands=[["inquisitor", "duke"], ["contessa", "duke"], ["duke", "captain"]],
        deck=["captain", "contessa", "assassin"],
    )
    ev = g.apply(0, move("exchange"))
    assert only(ev, "action").card == "inquisitor"
    ev = pass_window(g)
    assert only(ev, "exchange").amount == 1
    assert only(ev, "drew").cards == ("captain",)
    assert g.keep_count == 2
    expected = {move("keep", cards=c) for c in combinations(["inquisitor", "duke", "captain"], 2)}
    assert set(g.legal_moves(0)) == expected and len(g.legal_moves(0)) == 3
    g.apply(0, move("keep", cards=("duke", "captain")))
    assert sorted(g.hands[0]) == ["captain", "duke"]
    assert sorted(g.deck) == ["assassin", "contessa", "inquisitor"]


def test_R4_R1_3_ambassador_exchange_and_examine_do_not_exist_in_the_wrong_game():
    base = Game.arrange(
        BASE3,
        hands=[["ambassador", "duke"], ["contessa", "duke"], ["duke", "captain"]],
    )
    assert refused(base, 0, move("examine", target=1)) == "not_in_variant"
    assert all(m.kind != "examine" for m in base.legal_moves(0))
    inq = Game.arrange(
        INQ3,
        hands=[["inquisitor", "duke"], ["contessa", "duke"], ["duke", "captain"]],
    )
    assert {move("examine", target=1), move("examine", target=2)} <= set(inq.legal_moves(0))


def test_R4_examine_claims_the_inquisitor_and_nobody_blocks_it():
    g = Game.arrange(
        INQ3,
        hands=[["inquisitor", "duke"], ["contessa", "duke"], ["duke", "captain"]],
    )
    ev = g.apply(0, move("examine", target=1))
    action = only(ev, "action")
    assert (action.card, action.target, action.amount) == ("inquisitor", 1, 0)
    ev = pass_window(g)
    assert "block" not in kinds(ev)
    examine = only(ev, "examine")
    assert (examine.seat, examine.target) == (0, 1)
    assert (g.phase, g.waiting) == ("show", (1,))


# ---------------------------------------------------------------- R4.1 costs


@pytest.mark.parametrize("action, cost", [("coup", 7), ("assassinate", 3)])
def test_R4_1_the_cost_is_paid_when_the_action_is_declared(action, cost):
    g = Game.arrange(BASE3, hands=[["assassin", "duke"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[9, 2, 2])
    treasury = g.treasury
    ev = g.apply(0, move(action, target=1))
    # before anyone has answered, the coins are already in the treasury
    assert only(ev, "action").amount == cost
    assert g.coins[0] == 9 - cost
    assert g.treasury == treasury + cost
    assert g.phase in ("respond", "lose")
    assert total(g) == 50


def test_R4_1_R3_3_an_action_that_cannot_be_paid_for_is_refused():
    g = Game.arrange(BASE3, hands=[["assassin", "duke"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[2, 2, 2])
    assert refused(g, 0, move("assassinate", target=1)) == "cannot_afford"
    assert refused(g, 0, move("coup", target=1)) == "cannot_afford"
    assert g.coins == [2, 2, 2] and g.phase == "action"


def test_R4_1_the_cost_stays_paid_while_the_challenge_window_is_open():
    g = Game.arrange(BASE3, hands=[["assassin", "duke"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[5, 2, 2])
    g.apply(0, move("assassinate", target=1))
    g.apply(1, PASS)
    assert g.coins[0] == 2 and g.waiting == (2,)


# ---------------------------------------------------------------- R4.2 steal


def test_R4_2_steal_from_a_player_with_no_coins_is_legal_and_moves_nothing():
    g = Game.arrange(BASE3, hands=[["captain", "duke"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[2, 0, 2])
    assert move("steal", target=1) in g.legal_moves(0)
    g.apply(0, move("steal", target=1))
    pass_window(g)
    ev = g.apply(1, PASS)
    assert only(ev, "steal").amount == 0
    assert g.coins == [2, 0, 2] and total(g) == 50
    assert g.actor == 1


def test_R4_2_steal_from_a_player_with_one_coin_takes_that_coin():
    g = Game.arrange(BASE3, hands=[["captain", "duke"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[2, 1, 2])
    g.apply(0, move("steal", target=1))
    pass_window(g)
    ev = g.apply(1, PASS)
    assert only(ev, "steal").amount == 1
    assert g.coins == [3, 0, 2] and total(g) == 50


# ---------------------------------------------------------------- R4.3 exchange


def _exchange(options, hand, deck, revealed=None):
    hands = [hand, ["contessa", "duke"], ["duke", "captain"]]
    g = Game.arrange(options, hands=hands, deck=deck, revealed=revealed)
    g.apply(0, move("exchange"))
    pass_window(g)
    assert (g.phase, g.waiting) == ("keep", (0,))
    return g


def test_R4_3_exchange_keeps_exactly_as_many_cards_as_were_face_down():
    g = _exchange(BASE3, ["ambassador", "duke"], ["captain", "contessa", "assassin"])
    assert g.keep_count == 2
    assert all(len(m.cards) == 2 for m in g.legal_moves(0))
    assert refused(g, 0, move("keep", cards=("captain",))) == "bad_keep"
    assert refused(g, 0, move("keep", cards=("captain", "contessa", "duke"))) == "bad_keep"
    assert refused(g, 0, move("keep", cards=("assassin", "duke"))) == "bad_keep"  # not drawn
    assert g.phase == "keep"


def test_R4_3_an_ambassador_with_one_influence_keeps_one_of_three():
    g = _exchange(BASE3, ["ambassador"], ["captain", "contessa", "assassin"],
                  revealed=[["duke"], [], []])
    assert g.keep_count == 1
    assert set(g.legal_moves(0)) == {
        move("keep", cards=(c,)) for c in ("ambassador", "captain", "contessa")
    }
    assert refused(g, 0, move("keep", cards=("ambassador", "captain"))) == "bad_keep"
    g.apply(0, move("keep", cards=("contessa",)))
    assert g.hands[0] == ["contessa"] and g.revealed[0] == ["duke"]
    assert sorted(g.deck) == ["ambassador", "assassin", "captain"]


def test_R4_3_every_keep_combination_is_offered_once():
    # pool: ambassador, captain, ambassador, captain — only three distinct pairs
    g = _exchange(BASE3, ["ambassador", "captain"], ["ambassador", "captain", "duke"])
    moves = g.legal_moves(0)
    assert len(moves) == len(set(moves)) == 3
    assert {tuple(sorted(m.cards)) for m in moves} == {
        ("ambassador", "ambassador"), ("ambassador", "captain"), ("captain", "captain"),
    }


def test_R4_3_every_keep_combination_of_four_distinct_cards_is_offered():
    g = _exchange(BASE3, ["ambassador", "duke"], ["captain", "contessa"])
    moves = g.legal_moves(0)
    pool = ["ambassador", "duke", "captain", "contessa"]
    assert {tuple(sorted(m.cards)) for m in moves} == {
        tuple(sorted(c)) for c in combinations(pool, 2)
    }
    assert len(moves) == 6


def test_R4_3_returned_cards_go_into_the_deck_and_the_counts_hold():
    g = Game.arrange(
        BASE3,
        hands=[["ambassador", "duke"], ["contessa", "duke"], ["duke", "captain"]],
    )
    before = all_cards(g)
    deck_before = Counter(g.deck)
    deck_size = len(g.deck)
    g.apply(0, move("exchange"))
    ev = pass_window(g)
    drawn = list(only(ev, "drew").cards)
    assert len(g.deck) == deck_size - 2
    assert all_cards(g) == before  # the drawn cards are held aside, none lost
    keep = tuple(drawn)
    ev = g.apply(0, move("keep", cards=keep))
    kept = only(ev, "kept")
    assert kept.to == (0,) and sorted(kept.cards) == sorted(keep)
    # the public events say how many, never which (R4.3)
    public = [e for e in ev if e.to is None]
    assert all(e.cards is None and e.card is None for e in public)
    assert sorted(g.hands[0]) == sorted(keep)
    assert len(g.deck) == deck_size
    # the two drawn cards were kept; the ambassador and the duke went into the deck
    assert Counter(g.deck) == deck_before - Counter(drawn) + Counter(["ambassador", "duke"])
    assert all_cards(g) == before
    assert not g.drawn
    assert sum(all_cards(g).values()) == 15
    assert g.phase == "action" and g.actor == 1


def test_R4_3_keeping_the_original_cards_returns_the_drawn_ones():
    g = _exchange(BASE3, ["ambassador", "duke"], ["captain", "contessa", "assassin"])
    g.apply(0, move("keep", cards=("ambassador", "duke")))
    assert sorted(g.hands[0]) == ["ambassador", "duke"]
    assert sorted(g.deck) == ["assassin", "captain", "contessa"]


# ---------------------------------------------------------------- R4.4 examine


def _examine(target_hand, deck=None, revealed=None):
    hands = [["inquisitor", "duke"], target_hand, ["duke", "captain"]]
    g = Game.arrange(INQ3, hands=hands, deck=deck, revealed=revealed)
    g.apply(0, move("examine", target=1))
    return g, pass_window(g)


def test_R4_4_the_target_chooses_which_card_to_show():
    g, ev = _examine(["contessa", "assassin"])
    assert (g.phase, g.waiting) == ("show", (1,))
    assert set(g.legal_moves(1)) == {move("show", card="contessa"), move("show", card="assassin")}
    assert g.legal_moves(0) == ()
    assert refused(g, 1, move("show", card="duke")) == "card_not_held"
    ev = g.apply(1, move("show", card="assassin"))
    shown = only(ev, "shown")
    assert (shown.seat, shown.target, shown.card) == (1, 0, "assassin")
    assert set(shown.to) == {0, 1}  # only the two of them see it
    assert (g.phase, g.waiting) == ("examine_decision", (0,))
    assert set(g.legal_moves(0)) == {
        move("examine_decision", swap=False), move("examine_decision", swap=True),
    }


def test_R4_4_a_target_with_one_card_shows_it_automatically():
    g, ev = _examine(["contessa"], revealed=[[], ["assassin"], []])
    shown = only(ev, "shown")
    assert (shown.seat, shown.card) == (1, "contessa")
    assert (g.phase, g.waiting) == ("examine_decision", (0,))


def test_R4_4_the_inquisitor_lets_the_target_keep_the_card():
    g, _ = _examine(["contessa", "assassin"])
    deck = list(g.deck)
    g.apply(1, move("show", card="contessa"))
    ev = g.apply(0, move("examine_decision", swap=False))
    assert kinds(ev) == ["examine_keep", "turn"]
    assert sorted(g.hands[1]) == ["assassin", "contessa"]
    assert g.deck == deck
    assert g.actor == 1


def test_R4_4_a_swap_returns_the_shown_card_and_the_target_draws_anew():
    g, _ = _examine(["contessa", "assassin"], deck=["captain", "captain", "captain"])
    before = all_cards(g)
    g.apply(1, move("show", card="contessa"))
    ev = g.apply(0, move("examine_decision", swap=True))
    assert kinds(ev)[:2] == ["examine_swap", "drew"]
    drew = only(ev, "drew")
    assert drew.seat == 1 and drew.to == (1,)  # only the target learns the new card
    assert len(drew.cards) == 1
    hand = g.hands[1]
    assert len(hand) == 2 and "assassin" in hand  # the card not shown stays
    assert sorted(hand) == sorted(["assassin", drew.cards[0]])
    # the shown contessa went back and was shuffled in with three captains
    assert Counter(hand + g.deck) == Counter(
        ["assassin", "contessa", "captain", "captain", "captain"]
    )
    assert len(g.deck) == 3
    assert all_cards(g) == before
    assert g.actor == 1


def test_R4_4_a_swap_of_a_last_card_keeps_the_target_in_the_game():
    g, _ = _examine(["contessa"], deck=["duke"], revealed=[[], ["assassin"], []])
    g.apply(0, move("examine_decision", swap=True))
    assert len(g.hands[1]) == 1 and g.alive[1]
    assert sorted(g.hands[1] + g.deck) == ["contessa", "duke"]


# ---------------------------------------------------------------- R1.5 treasury


def test_R1_5_tax_with_two_coins_left_in_the_treasury_yields_two():
    g = Game.arrange(Options(players=3, treasury=8),
                     hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    assert g.treasury == 2
    g.apply(0, move("tax"))
    ev = pass_window(g)
    assert only(ev, "gain").amount == 2
    assert g.coins == [4, 2, 2] and g.treasury == 0 and total(g) == 8


def test_R1_5_foreign_aid_with_one_coin_left_yields_one():
    g = Game.arrange(Options(players=3, treasury=7),
                     hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    g.apply(0, move("foreign_aid"))
    ev = pass_window(g)
    assert only(ev, "gain").amount == 1
    assert g.coins == [3, 2, 2] and g.treasury == 0


def test_R1_5_income_from_an_empty_treasury_yields_nothing():
    g = Game.arrange(Options(players=3, treasury=6),
                     hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    assert g.treasury == 0
    ev = g.apply(0, move("income"))
    assert all(e.amount in (0, None) for e in ev if e.kind == "gain")
    assert g.coins == [2, 2, 2] and g.treasury == 0
    assert g.actor == 1


def test_R1_5_payments_go_back_to_the_treasury():
    g = Game.arrange(Options(players=3, treasury=14),
                     hands=[["assassin", "captain"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[10, 2, 2])
    assert g.treasury == 0
    g.apply(0, move("coup", target=1))
    assert g.treasury == 7 and total(g) == 14
    g.apply(1, move("lose", card="duke"))
    # seat 1 now taxes the paid coins back out
    g.apply(1, move("income"))
    assert g.treasury == 6 and g.coins == [3, 3, 2]


def test_R4_3_an_inquisitor_with_one_influence_keeps_one_of_two():
    g = _exchange(INQ3, ["inquisitor"], ["captain", "contessa"], revealed=[["duke"], [], []])
    assert g.keep_count == 1
    assert set(g.legal_moves(0)) == {
        move("keep", cards=("inquisitor",)), move("keep", cards=("captain",)),
    }
    g.apply(0, move("keep", cards=("captain",)))
    assert g.hands[0] == ["captain"]
    assert sorted(g.deck) == ["contessa", "inquisitor"]


def test_R4_3_R6_3_a_proved_ambassador_exchanges_a_full_hand_and_the_counts_hold():
    g = Game.arrange(
        BASE3,
        hands=[["ambassador", "duke"], ["contessa", "duke"], ["duke", "captain"]],
    )
    before = all_cards(g)
    g.apply(0, move("exchange"))
    g.apply(1, CHALLENGE)
    g.apply(0, move("prove"))
    g.apply(1, move("lose", card="duke"))
    assert (g.phase, g.waiting, g.keep_count) == ("keep", (0,), 2)
    assert len(g.drawn) == 2 and len(g.hands[0]) == 2
    assert all_cards(g) == before
    g.apply(0, g.legal_moves(0)[-1])
    assert len(g.hands[0]) == 2 and len(g.deck) == 9  # 15 - 5 face down - 1 face up
    assert all_cards(g) == before
