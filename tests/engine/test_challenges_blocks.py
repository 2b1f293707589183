"""Scenario tests for challenges (R6.1–R6.4), blocks (R7.1, R7.2), the double loss of one
assassination (R8) and a mid-turn exile that ends the game at once (R2.3)."""

from __future__ import annotations

from collections import Counter


from engine import Game, Options, move
from tests.engine.helpers import kinds, only, pass_window, refused, total

PASS = move("pass")
CHALLENGE = move("challenge")
PROVE = move("prove")
CONCEDE = move("concede")
BASE2 = Options(players=2, two_player_draft=False)
BASE3 = Options(players=3)
BASE4 = Options(players=4)


def losses(events):
    return [(e.seat, e.card) for e in events if e.kind == "lose"]


def four(**kw):
    return Game.arrange(
        BASE4,
        hands=kw.pop("hands", [["captain", "assassin"], ["contessa", "duke"],
                               ["duke", "ambassador"], ["contessa", "captain"]]),
        **kw,
    )


# ---------------------------------------------------------------- R6.1


def test_R6_1_an_uninvolved_seat_may_challenge_an_action():
    g = four()
    g.apply(0, move("steal", target=1))
    ev = g.apply(3, CHALLENGE)  # seat 3 is neither actor nor target
    ch = only(ev, "challenge")
    assert (ch.seat, ch.target, ch.card) == (3, 0, "captain")
    assert (g.phase, g.waiting, g.challenger) == ("prove", (0,), 3)


def test_R6_1_after_the_first_challenge_the_window_is_closed():
    g = four()
    g.apply(0, move("tax"))
    g.apply(1, PASS)
    g.apply(2, CHALLENGE)
    for seat in (1, 3):
        assert g.legal_moves(seat) == ()
        assert refused(g, seat, CHALLENGE) == "not_your_turn"
    g.apply(0, CONCEDE)  # no duke
    g.apply(0, move("lose", card="assassin"))
    assert g.actor == 1 and g.phase == "action"  # nobody else was asked


def test_R6_1_a_proved_claim_is_not_challenged_again():
    g = four(hands=[["duke", "assassin"], ["contessa", "duke"],
                    ["duke", "ambassador"], ["contessa", "captain"]])
    g.apply(0, move("tax"))
    g.apply(1, CHALLENGE)
    g.apply(0, PROVE)
    ev = g.apply(1, move("lose", card="duke"))
    # seats 2 and 3 never get a second chance: the Tax resolves at once
    assert kinds(ev) == ["lose", "gain", "turn"]
    assert g.coins[0] == 5


def test_R6_1_an_uninvolved_seat_may_challenge_a_block():
    g = four()
    g.apply(0, move("steal", target=1))
    pass_window(g)
    g.apply(1, move("block", card="captain"))
    ev = g.apply(2, CHALLENGE)
    ch = only(ev, "challenge")
    assert (ch.seat, ch.target, ch.card) == (2, 1, "captain")
    assert (g.phase, g.waiting) == ("prove", (1,))
    assert g.legal_moves(0) == () and g.legal_moves(3) == ()


def test_R6_1_a_seat_without_influence_may_not_challenge():
    g = Game.arrange(BASE3, hands=[["duke", "assassin"], [], ["captain", "contessa"]],
                     revealed=[[], ["duke", "captain"], []], coins=[2, 0, 2])
    g.apply(0, move("tax"))
    assert g.waiting == (2,)
    assert refused(g, 1, CHALLENGE) == "exiled"


# ---------------------------------------------------------------- R6.2


def test_R6_2_a_steal_blocked_as_ambassador_is_proved_only_by_an_ambassador():
    g = four(hands=[["captain", "assassin"], ["captain", "duke"],
                    ["duke", "ambassador"], ["contessa", "captain"]])
    g.apply(0, move("steal", target=1))
    pass_window(g)
    g.apply(1, move("block", card="ambassador"))  # holds a captain, claims an ambassador
    g.apply(0, CHALLENGE)
    assert (g.phase, g.waiting, g.claim) == ("prove", (1,), "ambassador")
    assert g.legal_moves(1) == (CONCEDE,)
    assert refused(g, 1, PROVE) == "card_not_held"
    g.apply(1, CONCEDE)
    ev = g.apply(1, move("lose", card="duke"))
    assert only(ev, "steal").amount == 2
    assert g.coins == [4, 0, 2, 2]


def test_R6_2_a_true_ambassador_block_may_be_proved():
    g = four(hands=[["captain", "assassin"], ["ambassador", "duke"],
                    ["duke", "ambassador"], ["contessa", "captain"]])
    g.apply(0, move("steal", target=1))
    pass_window(g)
    g.apply(1, move("block", card="ambassador"))
    g.apply(0, CHALLENGE)
    assert set(g.legal_moves(1)) == {PROVE, CONCEDE}
    ev = g.apply(1, PROVE)
    assert only(ev, "prove").card == "ambassador"


def test_R6_2_an_action_claim_without_the_character_can_only_be_conceded():
    g = four()
    g.apply(0, move("tax"))
    g.apply(1, CHALLENGE)
    assert g.legal_moves(0) == (CONCEDE,)
    assert refused(g, 0, PROVE) == "card_not_held"


def test_R6_2_a_claimant_holding_the_card_may_still_concede():
    g = four(hands=[["duke", "assassin"], ["contessa", "duke"],
                    ["duke", "ambassador"], ["contessa", "captain"]])
    g.apply(0, move("tax"))
    g.apply(1, CHALLENGE)
    assert set(g.legal_moves(0)) == {PROVE, CONCEDE}
    ev = g.apply(0, CONCEDE)
    assert only(ev, "concede").card == "duke"
    assert (g.phase, g.waiting) == ("lose", (0,))
    ev = g.apply(0, move("lose", card="duke"))
    assert "gain" not in kinds(ev) and only(ev, "fail").action == "tax"
    assert g.hands[0] == ["assassin"] and g.coins[0] == 2


# ---------------------------------------------------------------- R6.3


def test_R6_3_a_proved_claim_costs_the_challenger_and_the_claim_stands():
    g = Game.arrange(
        BASE3,
        hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]],
        deck=["contessa", "contessa", "assassin"],
    )
    cards_before = Counter(g.hands[0] + g.deck)
    g.apply(0, move("tax"))
    g.apply(1, CHALLENGE)
    ev = g.apply(0, PROVE)
    assert kinds(ev) == ["prove", "redraw", "drew"]
    assert only(ev, "prove").card == "duke"
    drew = only(ev, "drew")
    assert drew.seat == 0 and drew.to == (0,) and len(drew.cards) == 1
    # the duke went back into the deck and a replacement was drawn
    assert sorted(g.hands[0]) == sorted(["captain", drew.cards[0]])
    assert len(g.deck) == 3
    assert Counter(g.hands[0] + g.deck) == cards_before
    assert g.revealed[0] == []
    # the challenger loses one influence, of its choice
    assert (g.phase, g.waiting, g.reason) == ("lose", (1,), "challenge")
    ev = g.apply(1, move("lose", card="assassin"))
    assert g.revealed[1] == ["assassin"]
    assert only(ev, "gain").amount == 3  # the claim stood
    assert g.coins[0] == 5


def test_R6_3_the_proved_card_is_shuffled_back_before_the_replacement_is_drawn():
    # an empty deck: the only card to draw is the duke just returned
    g = Game.arrange(
        BASE3,
        hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]],
        deck=[],
    )
    g.apply(0, move("tax"))
    g.apply(2, CHALLENGE)
    ev = g.apply(0, PROVE)
    assert only(ev, "drew").cards == ("duke",)
    assert sorted(g.hands[0]) == ["captain", "duke"] and g.deck == []


def test_R6_3_a_challenger_with_one_influence_is_exiled_and_the_claim_stands():
    g = Game.arrange(BASE3, hands=[["duke", "captain"], ["contessa"], ["duke", "captain"]],
                     revealed=[[], ["assassin"], []], coins=[2, 5, 2])
    g.apply(0, move("tax"))
    g.apply(1, CHALLENGE)
    ev = g.apply(0, PROVE)
    assert losses(ev) == [(1, "contessa")]
    assert only(ev, "exile").amount == 5
    assert only(ev, "gain").amount == 3
    assert g.coins == [5, 0, 2] and total(g) == 50
    assert g.actor == 2  # the exiled seat is skipped


def test_R6_3_a_proved_block_costs_the_challenger_and_the_block_stands():
    g = Game.arrange(
        BASE3,
        hands=[["captain", "assassin"], ["captain", "duke"], ["duke", "captain"]],
        deck=["contessa", "contessa"],
    )
    before = Counter(g.hands[1] + g.deck)
    g.apply(0, move("steal", target=1))
    pass_window(g)
    g.apply(1, move("block", card="captain"))
    g.apply(0, CHALLENGE)
    ev = g.apply(1, PROVE)
    assert only(ev, "prove").card == "captain" and only(ev, "drew").seat == 1
    assert Counter(g.hands[1] + g.deck) == before
    assert (g.phase, g.waiting) == ("lose", (0,))
    ev = g.apply(0, move("lose", card="assassin"))
    assert "steal" not in kinds(ev) and only(ev, "fail").action == "steal"
    assert g.coins == [2, 2, 2]


# ---------------------------------------------------------------- R6.4


def test_R6_4_a_conceded_assassination_refunds_its_three_coins():
    g = Game.arrange(BASE3, hands=[["captain", "duke"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[4, 2, 2])
    treasury = g.treasury
    g.apply(0, move("assassinate", target=1))
    assert g.coins[0] == 1
    g.apply(1, CHALLENGE)
    ev = g.apply(0, CONCEDE)
    refund = only(ev, "refund")
    assert (refund.seat, refund.amount) == (0, 3)
    assert g.coins[0] == 4 and g.treasury == treasury
    assert (g.phase, g.waiting) == ("lose", (0,))  # the claimant chooses its card
    ev = g.apply(0, move("lose", card="captain"))
    assert only(ev, "fail").action == "assassinate"
    assert g.hands[1] == ["contessa", "duke"] and g.revealed[1] == []  # the target is untouched
    assert g.revealed[0] == ["captain"]
    assert total(g) == 50


def test_R6_4_a_conceded_steal_takes_nothing_and_opens_no_block_window():
    g = Game.arrange(BASE3, hands=[["duke", "assassin"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[2, 4, 2])
    g.apply(0, move("steal", target=1))
    g.apply(2, CHALLENGE)
    g.apply(0, CONCEDE)
    ev = g.apply(0, move("lose", card="duke"))
    assert "steal" not in kinds(ev) and g.step != "block"
    assert g.coins == [2, 4, 2] and g.actor == 1


def test_R6_4_a_failed_block_lets_foreign_aid_resolve():
    g = Game.arrange(
        BASE3,
        hands=[["captain", "assassin"], ["contessa", "captain"], ["duke", "captain"]],
    )
    g.apply(0, move("foreign_aid"))
    g.apply(1, move("block", card="duke"))  # a bluff
    g.apply(0, CHALLENGE)
    ev = g.apply(1, CONCEDE)
    assert only(ev, "concede").card == "duke"
    assert (g.phase, g.waiting) == ("lose", (1,))
    ev = g.apply(1, move("lose", card="captain"))
    assert kinds(ev) == ["lose", "gain", "turn"]
    assert g.coins == [4, 2, 2]
    assert g.revealed[1] == ["captain"]


def test_R6_4_a_failed_contessa_block_lets_the_assassination_resolve():
    g = Game.arrange(BASE4, hands=[["assassin", "duke"], ["captain", "duke"], ["duke", "captain"],
                                   ["ambassador", "captain"]], coins=[3, 2, 2, 2])
    g.apply(0, move("assassinate", target=1))
    pass_window(g)
    g.apply(1, move("block", card="contessa"))
    g.apply(3, CHALLENGE)  # a bystander calls the bluff
    ev = g.apply(1, CONCEDE)
    assert "refund" not in kinds(ev)  # only a failed action claim refunds
    g.apply(1, move("lose", card="captain"))
    assert not g.alive[1]
    assert sorted(g.revealed[1]) == ["captain", "duke"]
    assert g.coins[0] == 0


# ---------------------------------------------------------------- R7.1


def test_R7_1_a_standing_contessa_block_fails_the_assassination_and_keeps_the_coins_spent():
    g = Game.arrange(BASE3, hands=[["assassin", "duke"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[5, 2, 2])
    treasury = g.treasury
    g.apply(0, move("assassinate", target=1))
    pass_window(g)
    g.apply(1, move("block", card="contessa"))
    ev = pass_window(g)
    assert only(ev, "fail").action == "assassinate"
    assert "refund" not in kinds(ev) and "lose" not in kinds(ev)
    assert g.coins == [2, 2, 2] and g.treasury == treasury + 3
    assert g.hands[1] == ["contessa", "duke"]


def test_R7_1_a_proved_block_fails_the_action_and_keeps_the_coins_spent():
    g = Game.arrange(BASE3, hands=[["assassin", "duke"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[3, 2, 2])
    g.apply(0, move("assassinate", target=1))
    pass_window(g)
    g.apply(1, move("block", card="contessa"))
    g.apply(0, CHALLENGE)
    g.apply(1, PROVE)
    ev = g.apply(0, move("lose", card="duke"))
    assert only(ev, "fail").action == "assassinate"
    assert "refund" not in kinds(ev)
    assert g.coins == [0, 2, 2] and total(g) == 50
    assert len(g.hands[1]) == 2 and g.revealed[1] == []


def test_R7_1_a_blocked_steal_takes_nothing():
    g = Game.arrange(BASE3, hands=[["captain", "duke"], ["captain", "duke"], ["duke", "captain"]],
                     coins=[2, 5, 2])
    g.apply(0, move("steal", target=1))
    pass_window(g)
    g.apply(1, move("block", card="captain"))
    ev = pass_window(g)
    assert "steal" not in kinds(ev)
    assert g.coins == [2, 5, 2]


# ---------------------------------------------------------------- R7.2


def test_R7_2_only_the_first_block_is_taken():
    g = four()
    g.apply(0, move("foreign_aid"))
    g.apply(2, move("block", card="duke"))
    assert g.step == "challenge_block"
    assert move("block", card="duke") not in g.legal_moves(3)
    assert refused(g, 3, move("block", card="duke")) == "not_allowed_now"
    assert refused(g, 2, move("block", card="duke")) == "not_your_turn"


def test_R7_2_after_a_failed_block_nobody_else_may_block():
    g = four(hands=[["captain", "assassin"], ["contessa", "captain"],
                    ["duke", "ambassador"], ["duke", "captain"]])
    g.apply(0, move("foreign_aid"))
    g.apply(1, move("block", card="duke"))  # bluff: seats 2 and 3 hold real dukes
    g.apply(2, CHALLENGE)
    g.apply(1, CONCEDE)
    ev = g.apply(1, move("lose", card="contessa"))
    assert "block" not in kinds(ev)
    assert only(ev, "gain").amount == 2
    assert g.coins[0] == 4 and (g.phase, g.actor) == ("action", 1)


# ---------------------------------------------------------------- R8


def test_R8_challenging_a_true_assassin_then_being_assassinated_loses_two():
    g = Game.arrange(
        BASE3,
        hands=[["assassin", "duke"], ["contessa", "captain"], ["duke", "captain"]],
        coins=[3, 2, 2],
    )
    log = g.apply(0, move("assassinate", target=1))
    log += g.apply(1, CHALLENGE)
    log += g.apply(0, PROVE)
    log += g.apply(1, move("lose", card="captain"))        # 1 for the challenge
    assert (g.step, g.waiting) == ("block", (1,))            # R5.1: may still block
    log += g.apply(1, PASS)
    assert losses(log) == [(1, "captain"), (1, "contessa")]  # 1 more, the last one
    assert "exile" in kinds(log)
    assert g.alive == [True, False, True] and g.phase == "action" and g.actor == 2


def test_R8_a_false_contessa_challenged_then_assassinated_loses_two():
    g = Game.arrange(BASE3, hands=[["assassin", "duke"], ["duke", "captain"], ["duke", "captain"]],
                     coins=[3, 2, 2])
    log = g.apply(0, move("assassinate", target=1))
    log += pass_window(g)
    log += g.apply(1, move("block", card="contessa"))
    log += g.apply(0, CHALLENGE)
    log += g.apply(1, CONCEDE)
    assert (g.phase, g.waiting) == ("lose", (1,))
    log += g.apply(1, move("lose", card="duke"))            # 1 for the failed block
    assert losses(log) == [(1, "duke"), (1, "captain")]     # 1 more from the assassination
    assert only(log, "exile").seat == 1
    assert sorted(g.revealed[1]) == ["captain", "duke"] and g.hands[1] == []
    assert g.coins == [0, 0, 2] and total(g) == 50


# ---------------------------------------------------------------- R2.3 mid-turn


def assert_over(g, winner):
    assert (g.phase, g.winner, g.waiting) == ("over", winner, ())
    for seat in range(g.options.players):
        assert g.legal_moves(seat) == ()
    assert refused(g, winner, move("income")) == "game_over"


def test_R2_3_a_failed_challenge_exiling_the_last_rival_ends_the_game_before_the_tax():
    g = Game.arrange(BASE2, hands=[["duke", "captain"], ["contessa"]],
                     revealed=[[], ["assassin"]], coins=[2, 3])
    g.apply(0, move("tax"))
    g.apply(1, CHALLENGE)
    ev = g.apply(0, PROVE)
    assert kinds(ev)[-3:] == ["lose", "exile", "win"]
    assert "gain" not in kinds(ev) and "turn" not in kinds(ev)
    assert only(ev, "win").seat == 0
    assert_over(g, 0)
    assert g.coins == [2, 0] and total(g) == 50


def test_R2_3_an_actor_conceding_its_last_card_loses_at_once():
    g = Game.arrange(BASE2, hands=[["duke"], ["contessa", "captain"]],
                     revealed=[["captain"], []], coins=[3, 2])
    g.apply(0, move("assassinate", target=1))
    g.apply(1, CHALLENGE)
    ev = g.apply(0, CONCEDE)
    assert kinds(ev) == ["concede", "refund", "lose", "exile", "win"]
    assert only(ev, "exile").amount == 3  # the refunded coins go back with the exile
    assert only(ev, "win").seat == 1
    assert_over(g, 1)
    assert g.hands[1] == ["contessa", "captain"]
    assert total(g) == 50


def test_R2_3_a_double_loss_ends_a_two_player_game():
    g = Game.arrange(BASE2, hands=[["assassin", "duke"], ["duke", "captain"]], coins=[3, 2])
    g.apply(0, move("assassinate", target=1))
    g.apply(1, PASS)
    g.apply(1, move("block", card="contessa"))
    g.apply(0, CHALLENGE)
    g.apply(1, CONCEDE)
    ev = g.apply(1, move("lose", card="captain"))
    assert kinds(ev) == ["lose", "lose", "exile", "win"]
    assert_over(g, 0)


def test_R2_3_a_failed_challenge_of_a_block_ends_the_game_for_the_actor():
    g = Game.arrange(BASE3, hands=[["captain"], ["duke", "contessa"], []],
                     revealed=[["assassin"], [], ["duke", "captain"]], coins=[4, 2, 0])
    g.apply(0, move("foreign_aid"))
    assert g.waiting == (1,)
    g.apply(1, move("block", card="duke"))
    g.apply(0, CHALLENGE)
    ev = g.apply(1, PROVE)
    assert kinds(ev)[-3:] == ["lose", "exile", "win"]
    assert "fail" not in kinds(ev) and "gain" not in kinds(ev)
    assert_over(g, 1)
    assert g.coins == [0, 2, 0] and total(g) == 50


# ---------------------------------------------------------------- what passes and failures say


def test_R5_a_pass_says_which_window_it_lets_go_by():
    """Two passes in a row can answer different windows: each names the claim it lets stand
    (steps 2 and 4 of R5) or the action it does not block (step 3)."""
    g = Game.arrange(BASE3, hands=[["assassin", "duke"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[3, 2, 2])
    g.apply(0, move("assassinate", target=1))
    passes = [e for e in pass_window(g) if e.kind == "pass"]
    assert {(e.target, e.card, e.action) for e in passes} == {(0, "assassin", None)}
    ev = g.apply(1, PASS)
    assert (ev[0].kind, ev[0].target, ev[0].card, ev[0].action) == ("pass", 0, None, "assassinate")

    g = Game.arrange(BASE3, hands=[["assassin", "duke"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[3, 2, 2])
    g.apply(0, move("assassinate", target=1))
    pass_window(g)
    g.apply(1, move("block", card="contessa"))
    ev = g.apply(0, PASS)
    assert (ev[0].target, ev[0].card, ev[0].action) == (1, "contessa", None)


def fail_reason(events) -> tuple:
    fail = only(events, "fail")
    return fail.seat, fail.action, fail.target, fail.reason


def test_R5_2_a_fail_says_its_target_was_already_out():
    g = Game.arrange(BASE3, hands=[["assassin", "duke"], ["contessa"], ["duke", "captain"]],
                     coins=[3, 2, 2])
    g.apply(0, move("assassinate", target=1))
    g.apply(1, CHALLENGE)
    ev = g.apply(0, PROVE)  # seat 1 loses its last card: the assassination has no one to hit
    assert fail_reason(ev) == (0, "assassinate", 1, "target_out")


def test_R5_2_a_fail_says_its_actor_is_out():
    g = Game.arrange(BASE3, hands=[["captain"], ["captain", "duke"], ["duke", "captain"]],
                     coins=[2, 5, 2])
    g.apply(0, move("steal", target=1))
    pass_window(g)
    g.apply(1, move("block", card="captain"))
    g.apply(0, CHALLENGE)
    ev = g.apply(1, PROVE)  # seat 0 loses its last card
    assert fail_reason(ev) == (0, "steal", 1, "actor_out")


def test_R6_4_a_fail_says_the_claim_was_conceded():
    g = four()
    g.apply(0, move("tax"))
    g.apply(1, CHALLENGE)
    g.apply(0, CONCEDE)
    ev = g.apply(0, move("lose", card="assassin"))
    assert fail_reason(ev) == (0, "tax", None, "conceded")


def test_R7_1_a_fail_says_a_block_stood():
    g = four()
    g.apply(0, move("foreign_aid"))
    g.apply(1, move("block", card="duke"))
    assert fail_reason(pass_window(g)) == (0, "foreign_aid", None, "blocked")
