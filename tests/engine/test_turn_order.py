"""Scenario tests for the order of a turn (R5): declare, the challenge window on the action,
the block window, the challenge window on the block, resolution; R5.1 (a target who lost a
challenge may still block), R5.2 (actor or target exiled before resolution) and R5.3 (the
card to lose is chosen before anything else)."""

from __future__ import annotations

import pytest

from engine import Game, Options, move
from tests.engine.helpers import kinds, only, pass_window, refused, total

PASS = move("pass")
CHALLENGE = move("challenge")
PROVE = move("prove")
CONCEDE = move("concede")
BASE3 = Options(players=3)
BASE4 = Options(players=4)


def four_with_seat_2_exiled(**kw):
    """Seats 0, 1 and 3 play; seat 2 was exiled earlier (two cards face up)."""
    return Game.arrange(
        BASE4,
        hands=[["duke", "captain"], ["contessa", "assassin"], [], ["duke", "ambassador"]],
        revealed=[[], [], ["captain", "contessa"], []],
        coins=kw.pop("coins", [3, 3, 0, 3]),
        **kw,
    )


# ---------------------------------------------------------------- steps 1 and 2


def test_R5_step1_declaring_an_action_names_action_target_and_pays():
    g = Game.arrange(BASE3, hands=[["assassin", "duke"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[4, 2, 2])
    ev = g.apply(0, move("assassinate", target=2))
    assert kinds(ev) == ["action"]
    action = ev[0]
    assert (action.seat, action.action, action.target, action.card, action.amount) == (
        0, "assassinate", 2, "assassin", 3,
    )
    assert (g.actor, g.action, g.target) == (0, "assassinate", 2)
    assert g.coins[0] == 1


def test_R5_step2_the_challenge_window_opens_to_every_other_seat_with_influence():
    g = four_with_seat_2_exiled()
    g.apply(0, move("tax"))
    assert (g.phase, g.step) == ("respond", "challenge_action")
    assert set(g.waiting) == {1, 3}
    assert g.legal_moves(0) == ()  # the actor does not challenge itself
    assert g.legal_moves(2) == ()  # the exiled never respond (R2.2)
    assert set(g.legal_moves(1)) == set(g.legal_moves(3)) == {CHALLENGE, PASS}
    assert refused(g, 2, CHALLENGE) == "exiled"
    assert refused(g, 0, CHALLENGE) == "not_your_turn"


def test_R5_step2_the_target_is_in_the_challenge_window_like_any_other_seat():
    g = Game.arrange(BASE3, hands=[["captain", "duke"], ["contessa", "duke"], ["duke", "captain"]])
    g.apply(0, move("steal", target=2))
    assert set(g.waiting) == {1, 2}


def test_R5_step2_when_everyone_passes_the_claim_stands():
    g = four_with_seat_2_exiled()
    g.apply(0, move("tax"))
    ev = g.apply(1, PASS)
    assert kinds(ev) == ["pass"] and g.waiting == (3,)
    assert g.legal_moves(1) == ()  # a seat answers a window once
    assert refused(g, 1, CHALLENGE) == "not_your_turn"
    ev = g.apply(3, PASS)
    assert kinds(ev) == ["pass", "gain", "turn"]
    assert g.coins[0] == 6
    assert g.actor == 1


@pytest.mark.parametrize("action", ["income", "foreign_aid", "coup"])
def test_R5_step2_actions_without_a_character_open_no_challenge_window(action):
    g = Game.arrange(BASE3, hands=[["captain", "duke"], ["contessa", "duke"], ["duke", "captain"]],
                     coins=[7, 2, 2])
    target = 1 if action == "coup" else None
    ev = g.apply(0, move(action, target=target))
    assert only(ev, "action").card is None
    assert g.step != "challenge_action"
    assert CHALLENGE not in g.legal_moves(1) and CHALLENGE not in g.legal_moves(2)


# ---------------------------------------------------------------- step 3


@pytest.mark.parametrize("action", ["tax", "exchange"])
def test_R5_step3_an_unblockable_action_that_stands_opens_no_block_window(action):
    g = Game.arrange(
        BASE3,
        hands=[["ambassador", "duke"], ["contessa", "duke"], ["duke", "captain"]],
    )
    g.apply(0, move(action))
    ev = pass_window(g)
    assert "block" not in kinds(ev)
    assert g.step != "block"
    assert g.phase == ("keep" if action == "exchange" else "action")


def test_R5_step3_foreign_aid_may_be_blocked_by_any_other_seat_with_influence():
    g = four_with_seat_2_exiled()
    g.apply(0, move("foreign_aid"))
    assert (g.phase, g.step) == ("respond", "block")
    assert set(g.waiting) == {1, 3}
    for seat in (1, 3):
        assert set(g.legal_moves(seat)) == {move("block", card="duke"), PASS}
    assert g.legal_moves(0) == () and g.legal_moves(2) == ()


@pytest.mark.parametrize("action", ["steal", "assassinate"])
def test_R5_step3_only_the_target_may_block_a_steal_or_an_assassination(action):
    g = Game.arrange(
        BASE4,
        hands=[
            ["captain", "assassin"], ["contessa", "duke"], ["duke", "captain"],
            ["ambassador", "contessa"],
        ],
        coins=[3, 2, 2, 2],
    )
    g.apply(0, move(action, target=2))
    pass_window(g)  # the claim stands
    assert (g.phase, g.step, g.waiting) == ("respond", "block", (2,))
    for seat in (0, 1, 3):
        assert g.legal_moves(seat) == ()
    card = "contessa" if action == "assassinate" else "captain"
    assert refused(g, 3, move("block", card=card)) == "not_your_turn"
    assert refused(g, 1, move("block", card=card)) == "not_your_turn"
    assert move("block", card=card) in g.legal_moves(2)


def test_R5_step3_the_first_block_ends_the_block_window():
    g = four_with_seat_2_exiled()
    g.apply(0, move("foreign_aid"))
    ev = g.apply(1, move("block", card="duke"))
    block = only(ev, "block")
    assert (block.seat, block.target, block.card) == (1, 0, "duke")
    assert (g.step, g.blocker, g.block_card) == ("challenge_block", 1, "duke")
    assert move("block", card="duke") not in g.legal_moves(3)


# ---------------------------------------------------------------- step 4


def test_R5_step4_the_block_can_be_challenged_by_all_but_the_blocker_actor_included():
    g = four_with_seat_2_exiled()
    g.apply(0, move("foreign_aid"))
    g.apply(3, move("block", card="duke"))
    assert (g.phase, g.step, g.claimant, g.claim) == ("respond", "challenge_block", 3, "duke")
    assert set(g.waiting) == {0, 1}
    assert set(g.legal_moves(0)) == {CHALLENGE, PASS}
    assert g.legal_moves(3) == () and g.legal_moves(2) == ()


def test_R5_step4_the_target_blocking_a_steal_faces_the_actor_and_the_bystanders():
    g = Game.arrange(
        BASE4,
        hands=[
            ["captain", "assassin"], ["contessa", "duke"], ["duke", "captain"],
            ["ambassador", "contessa"],
        ],
    )
    g.apply(0, move("steal", target=2))
    pass_window(g)
    g.apply(2, move("block", card="ambassador"))
    assert set(g.waiting) == {0, 1, 3}


# ---------------------------------------------------------------- step 5


def test_R5_step5_an_unblocked_action_resolves():
    g = four_with_seat_2_exiled()
    g.apply(0, move("foreign_aid"))
    ev = pass_window(g)
    assert only(ev, "gain").amount == 2
    assert g.coins[0] == 5 and g.actor == 1


def test_R5_step5_a_block_nobody_challenges_stops_the_action():
    g = four_with_seat_2_exiled()
    g.apply(0, move("foreign_aid"))
    g.apply(1, move("block", card="duke"))
    ev = pass_window(g)
    assert "gain" not in kinds(ev)
    fail = only(ev, "fail")
    assert (fail.seat, fail.action) == (0, "foreign_aid")
    assert g.coins == [3, 3, 0, 3] and g.actor == 1


def test_R5_a_whole_turn_runs_in_order():
    """Steal: challenge window, block window, challenge window on the block, resolution."""
    g = Game.arrange(
        BASE3,
        hands=[["captain", "assassin"], ["contessa", "duke"], ["duke", "captain"]],
        coins=[2, 2, 4],
    )
    log = g.apply(0, move("steal", target=2))
    log += pass_window(g)                                   # step 2
    log += g.apply(2, move("block", card="ambassador"))     # step 3 (a bluff)
    log += g.apply(0, CHALLENGE)                            # step 4
    log += g.apply(2, CONCEDE)                              # R6.4
    log += g.apply(2, move("lose", card="duke"))            # R5.3
    assert kinds(log) == [
        "action", "pass", "pass", "block", "challenge", "concede", "lose", "steal", "turn",
    ]
    assert g.coins == [4, 2, 2]


# ---------------------------------------------------------------- R5.1


def test_R5_1_a_target_who_lost_a_challenge_may_still_block():
    g = Game.arrange(
        BASE3,
        hands=[["captain", "assassin"], ["contessa", "duke"], ["ambassador", "duke"]],
        coins=[2, 2, 4],
    )
    g.apply(0, move("steal", target=2))
    g.apply(2, CHALLENGE)
    g.apply(0, PROVE)
    assert (g.phase, g.waiting) == ("lose", (2,))
    g.apply(2, move("lose", card="duke"))
    assert (g.phase, g.step, g.waiting) == ("respond", "block", (2,))
    ev = g.apply(2, move("block", card="ambassador"))
    assert only(ev, "block").seat == 2
    ev = pass_window(g)
    assert "steal" not in kinds(ev) and only(ev, "fail").action == "steal"
    assert g.coins == [2, 2, 4]
    assert g.hands[2] == ["ambassador"] and g.revealed[2] == ["duke"]


# ---------------------------------------------------------------- R5.2


def test_R5_2_a_steal_whose_target_is_exiled_by_its_challenge_takes_nothing():
    g = Game.arrange(BASE3, hands=[["captain", "assassin"], ["contessa", "duke"], ["duke"]],
                     revealed=[[], [], ["assassin"]], coins=[2, 2, 4])
    g.apply(0, move("steal", target=2))
    g.apply(2, CHALLENGE)
    ev = g.apply(0, PROVE)
    assert "steal" not in kinds(ev)
    assert only(ev, "exile").amount == 4
    assert only(ev, "fail").action == "steal"
    assert g.coins == [2, 2, 0] and total(g) == 50  # the coins went to the treasury, not the actor
    assert g.actor == 1


def test_R5_2_an_assassination_whose_target_is_exiled_by_its_challenge_ends_without_effect():
    g = Game.arrange(BASE3, hands=[["captain", "assassin"], ["contessa", "duke"], ["duke"]],
                     revealed=[[], [], ["assassin"]], coins=[3, 2, 2])
    g.apply(0, move("assassinate", target=2))
    g.apply(2, CHALLENGE)
    ev = g.apply(0, PROVE)
    assert kinds(ev).count("lose") == 1
    assert "refund" not in kinds(ev)  # the claim was true: no refund
    assert only(ev, "fail").action == "assassinate"
    assert g.coins == [0, 2, 0] and total(g) == 50
    assert g.actor == 1 and g.phase == "action"


def test_R5_2_a_blocker_exiled_by_its_failed_block_suffers_nothing_further():
    g = Game.arrange(BASE3, hands=[["captain", "assassin"], ["contessa", "duke"], ["duke"]],
                     revealed=[[], [], ["assassin"]], coins=[3, 2, 2])
    g.apply(0, move("assassinate", target=2))
    pass_window(g)
    g.apply(2, move("block", card="contessa"))
    g.apply(0, CHALLENGE)
    ev = g.apply(2, CONCEDE)
    assert [(e.seat, e.card) for e in ev if e.kind == "lose"] == [(2, "duke")]
    assert "exile" in kinds(ev) and only(ev, "fail").action == "assassinate"
    assert g.actor == 1


@pytest.mark.parametrize("action, resume", [("tax", "resolve"), ("steal", "block")])
def test_R5_2_an_actor_exiled_before_resolution_has_no_effect(action, resume):
    """No ordinary line exiles the actor while its action still stands, so the position is
    set up directly: the actor must turn up its last card, then play resumes."""
    target = 1 if action == "steal" else None
    g = Game.arrange(
        BASE3,
        hands=[["duke"], ["contessa", "duke"], ["duke", "captain"]],
        revealed=[["captain"], [], []],
        coins=[2, 4, 2],
        phase="lose", waiting=(0,), action=action, target=target,
        reason="challenge", resume=resume,
    )
    ev = g.apply(0, move("lose", card="duke"))
    assert kinds(ev)[:2] == ["lose", "exile"]
    assert "gain" not in kinds(ev) and "steal" not in kinds(ev)
    assert only(ev, "fail").action == action
    assert g.coins == [0, 4, 2]
    assert g.step != "block"
    assert g.actor == 1 and g.phase == "action"


# ---------------------------------------------------------------- R5.3


def test_R5_3_a_coup_target_chooses_its_card_before_anyone_moves():
    g = Game.arrange(
        BASE3,
        hands=[["captain", "assassin"], ["contessa", "duke"], ["duke", "captain"]],
        coins=[7, 2, 2],
    )
    g.apply(0, move("coup", target=1))
    assert (g.phase, g.waiting) == ("lose", (1,))
    assert g.legal_moves(0) == () and g.legal_moves(2) == ()
    assert refused(g, 2, move("income")) == "not_your_turn"
    assert refused(g, 1, move("income")) == "not_allowed_now"
    assert refused(g, 1, move("lose", card="captain")) == "card_not_held"
    g.apply(1, move("lose", card="contessa"))
    assert g.revealed[1] == ["contessa"] and (g.phase, g.actor) == ("action", 1)


def test_R5_3_a_failed_challenger_chooses_before_the_target_may_block():
    g = Game.arrange(
        BASE3,
        hands=[["captain", "assassin"], ["contessa", "duke"], ["duke", "captain"]],
    )
    g.apply(0, move("steal", target=1))
    g.apply(2, CHALLENGE)  # a bystander challenges and is wrong
    ev = g.apply(0, PROVE)
    assert (g.phase, g.waiting, g.reason) == ("lose", (2,), "challenge")
    assert "block" not in kinds(ev)
    assert g.legal_moves(1) == () and g.legal_moves(0) == ()
    assert refused(g, 1, move("block", card="captain")) == "not_your_turn"
    assert g.coins == [2, 2, 2]  # nothing resolved yet
    ev = g.apply(2, move("lose", card="captain"))
    assert (g.phase, g.step, g.waiting) == ("respond", "block", (1,))


def test_R5_3_a_conceding_claimant_chooses_before_the_turn_moves_on():
    g = Game.arrange(
        BASE3,
        hands=[["captain", "assassin"], ["contessa", "duke"], ["duke", "captain"]],
    )
    g.apply(0, move("tax"))
    g.apply(1, CHALLENGE)
    ev = g.apply(0, CONCEDE)
    assert (g.phase, g.waiting) == ("lose", (0,))
    assert "turn" not in kinds(ev)
    assert g.legal_moves(1) == ()
    ev = g.apply(0, move("lose", card="assassin"))
    assert kinds(ev) == ["lose", "fail", "turn"]
    assert g.coins == [2, 2, 2] and g.actor == 1
