"""Scenarios for influence and elimination (R2), turns (R3), table talk (R9) and the
server's default decisions when a clock runs out (R10)."""

from __future__ import annotations

import random

import pytest

from engine import KINDS, Game, IllegalMove, Move, Options, default_move, move
from engine.cards import ACTIONS


def refused(g: Game, seat, m, code: str) -> None:
    before = (g.state_id, list(g.coins), [list(h) for h in g.hands], g.phase, g.waiting)
    with pytest.raises(IllegalMove) as err:
        g.apply(seat, m, g.state_id)
    assert err.value.code == code
    assert (g.state_id, list(g.coins), [list(h) for h in g.hands], g.phase, g.waiting) == before


def kinds(moves) -> set[str]:
    return {m.kind for m in moves}


# ------------------------------------------------------------------ R2 influence


def test_R2_1_loser_chooses_which_card_to_turn_face_up():
    """R2.1: a Coup's target chooses the card it loses; it turns face up, public."""
    g = Game.arrange(hands=[["duke", "captain"], ["assassin", "contessa"], ["duke", "captain"]],
                     coins=[7, 2, 2])
    g.apply(0, move("coup", target=1))
    assert g.phase == "lose" and g.waiting == (1,)
    assert set(g.legal_moves(1)) == {move("lose", card="assassin"),
                                     move("lose", card="contessa")}
    events = g.apply(1, move("lose", card="contessa"))
    assert ("lose", 1, "contessa") in [(e.kind, e.seat, e.card) for e in events]
    assert all(e.to is None for e in events if e.kind == "lose")
    assert g.hands[1] == ["assassin"] and g.revealed[1] == ["contessa"]
    for viewer in (None, 0, 2):
        v = g.view(viewer)
        assert v.revealed[1] == ("contessa",) and v.influence[1] == 1
    assert g.phase == "action" and g.waiting == (1,)


def test_R2_1_the_other_card_may_be_chosen_too():
    """R2.1: the choice is the loser's: the same Coup, losing the other card."""
    g = Game.arrange(hands=[["duke", "captain"], ["assassin", "contessa"], ["duke", "captain"]],
                     coins=[7, 2, 2])
    g.apply(0, move("coup", target=1))
    g.apply(1, move("lose", card="assassin"))
    assert g.hands[1] == ["contessa"] and g.revealed[1] == ["assassin"]


def test_R2_1_face_up_cards_give_no_influence_and_no_actions():
    """R2.1: a face-up Duke cannot prove a Tax claim; only face-down cards count."""
    g = Game.arrange(hands=[["contessa"], ["assassin", "captain"], ["duke", "captain"]],
                     revealed=[["duke"], [], []])
    assert g.view(None).influence == (1, 2, 2)
    g.apply(0, move("tax"))
    g.apply(1, move("challenge"))
    assert g.phase == "prove" and g.waiting == (0,)
    assert g.legal_moves(0) == (move("concede"),)
    refused(g, 0, move("prove"), "card_not_held")


def test_R2_1_a_face_up_card_cannot_be_lost_again():
    """R2.1: only face-down cards can be chosen; with one face-down card left there is no
    choice, it is turned up at once."""
    g = Game.arrange(hands=[["duke", "captain"], ["assassin", "duke"], ["duke", "captain"]],
                     revealed=[[], ["contessa"], []], coins=[7, 2, 2])
    g.apply(0, move("coup", target=1))
    assert set(g.legal_moves(1)) == {move("lose", card="assassin"), move("lose", card="duke")}
    refused(g, 1, move("lose", card="contessa"), "card_not_held")
    g = Game.arrange(hands=[["duke", "captain"], ["assassin"], ["duke", "captain"]],
                     revealed=[[], ["contessa"], []], coins=[7, 2, 2])
    events = g.apply(0, move("coup", target=1))
    assert [(e.kind, e.card) for e in events if e.kind == "lose"] == [("lose", "assassin")]
    assert g.revealed[1] == ["contessa", "assassin"] and g.phase == "action"


def test_R2_2_exiled_at_once_coins_back_never_again_in_play():
    """R2.2: losing the last face-down card exiles a player at once: coins to the treasury;
    their turn is skipped, they are in no response window and cannot be targeted."""
    g = Game.arrange(hands=[["duke", "captain"], ["assassin"], ["duke", "captain"]],
                     revealed=[[], ["contessa"], []], coins=[7, 5, 2])
    treasury = g.treasury
    events = g.apply(0, move("coup", target=1))
    assert [(e.kind, e.seat, e.amount) for e in events if e.kind == "exile"] == [("exile", 1, 5)]
    assert g.alive == [True, False, True] and g.exiled == [1]
    assert g.coins == [0, 0, 2] and g.treasury == treasury + 7 + 5
    assert g.treasury + sum(g.coins) == 50
    assert g.revealed[1] == ["contessa", "assassin"] and g.hands[1] == []
    # the turn skips seat 1
    assert g.waiting == (2,)
    assert {m.target for m in g.legal_moves(2) if m.target is not None} == {0}
    refused(g, 2, move("steal", target=1), "bad_target")
    g.apply(2, move("tax"))
    assert g.waiting == (0,)  # only seat 0 may challenge
    refused(g, 1, move("challenge"), "exiled")
    assert g.legal_moves(1) == ()


def test_R2_2_exiled_players_cannot_block_foreign_aid():
    """R2.2: an exiled player never responds, not even to a block window open to all."""
    g = Game.arrange(hands=[["duke", "captain"], [], ["duke", "captain"], ["contessa"]],
                     revealed=[[], ["captain", "ambassador"], [], ["assassin"]],
                     coins=[2, 0, 2, 2])
    g.apply(0, move("foreign_aid"))
    assert g.step == "block" and g.waiting == (2, 3)


def test_R2_3_game_ends_at_once_with_one_player_left():
    """R2.3: when only one player has face-down cards, the game ends: they win, nobody owes
    a decision and no move is possible."""
    g = Game.arrange(Options(players=2, two_player_draft=False),
                     hands=[["duke", "captain"], ["assassin"]], revealed=[[], ["contessa"]],
                     coins=[7, 3])
    events = g.apply(0, move("coup", target=1))
    assert events[-1].kind == "win" and events[-1].seat == 0
    assert g.over and g.phase == "over" and g.winner == 0 and g.waiting == ()
    assert g.legal_moves(0) == () and g.legal_moves(1) == ()
    assert all(e.kind != "turn" for e in events)
    refused(g, 0, move("income"), "game_over")


def test_R2_3_game_ends_mid_turn_before_the_action_resolves():
    """R2.3: the last opponent loses a challenge against a true Duke: the game ends at once,
    the Tax is not resolved afterwards; the order of exile is recorded."""
    g = Game.arrange(hands=[["duke", "captain"], ["contessa"], []],
                     revealed=[[], ["assassin"], ["duke", "captain"]], coins=[2, 2, 0])
    assert g.exiled == [2]
    g.apply(0, move("tax"))
    g.apply(1, move("challenge"))
    events = g.apply(0, move("prove"))
    assert g.over and g.winner == 0
    assert g.exiled == [2, 1]
    assert [e.kind for e in events if e.kind in ("gain", "turn")] == []
    assert g.coins[0] == 2
    assert g.view(None).winner == 0 and g.view(None).exiled == (2, 1)


# ------------------------------------------------------------------ R3 turns


def test_R3_1_turns_go_clockwise_and_wrap():
    """R3.1: ascending seat order, wrapping after the last seat."""
    g = Game.arrange(hands=[["duke", "captain"]] * 2 + [["contessa", "assassin"]] * 2, actor=1)
    order = []
    for _ in range(6):
        (seat,) = g.waiting
        order.append(seat)
        g.apply(seat, move("income"))
    assert order == [1, 2, 3, 0, 1, 2]


def test_R3_1_turns_skip_exiled_players():
    """R3.1: exiled seats are skipped, including across the wrap."""
    g = Game.arrange(hands=[["duke", "captain"], [], ["contessa", "assassin"], []],
                     revealed=[[], ["duke", "captain"], [], ["assassin", "contessa"]],
                     coins=[2, 0, 2, 0], actor=0)
    order = []
    for _ in range(4):
        (seat,) = g.waiting
        order.append(seat)
        g.apply(seat, move("income"))
    assert order == [0, 2, 0, 2]


def test_R3_2_exactly_one_action_and_no_pass():
    """R3.2: the acting player must act (no pass) and takes exactly one action."""
    g = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    assert "pass" not in kinds(g.legal_moves(0))
    assert kinds(g.legal_moves(0)) <= set(ACTIONS)
    refused(g, 0, move("pass"), "not_allowed_now")
    g.apply(0, move("income"))
    assert g.waiting == (1,)
    refused(g, 0, move("income"), "not_your_turn")


@pytest.mark.parametrize("coins,assassinate,coup", [(0, False, False), (2, False, False),
                                                    (3, True, False), (6, True, False),
                                                    (7, True, True), (9, True, True)])
def test_R3_3_any_action_the_player_can_pay_for(coins, assassinate, coup):
    """R3.3: every action is allowed that can be paid for: Assassinate 3, Coup 7."""
    g = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]],
                     coins=[coins, 2, 2])
    ks = kinds(g.legal_moves(0))
    assert {"income", "foreign_aid", "tax", "steal", "exchange"} <= ks
    assert ("assassinate" in ks) == assassinate
    assert ("coup" in ks) == coup
    if not coup:
        refused(g, 0, move("coup", target=1), "cannot_afford")
    if not assassinate:
        refused(g, 0, move("assassinate", target=1), "cannot_afford")


def test_R3_3_bluffed_claims_are_legal_actions():
    """R3.3: a character action is allowed without holding the character (a bluff)."""
    g = Game.arrange(hands=[["contessa", "contessa"], ["duke", "assassin"], ["duke", "captain"]],
                     coins=[3, 2, 2])
    for m in (move("tax"), move("steal", target=1), move("exchange"),
              move("assassinate", target=2)):
        assert m in g.legal_moves(0)


@pytest.mark.parametrize("coins", [10, 11, 14])
def test_R3_4_ten_coins_must_coup(coins):
    """R3.4: with 10+ coins at the start of the turn, Coup is the only legal action."""
    g = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]],
                     coins=[coins, 2, 2])
    assert set(g.legal_moves(0)) == {move("coup", target=1), move("coup", target=2)}
    for m in (move("income"), move("tax"), move("assassinate", target=1),
              move("steal", target=2), move("exchange"), move("foreign_aid")):
        refused(g, 0, m, "must_coup")
    g.apply(0, move("coup", target=2))
    assert g.coins[0] == coins - 7


def test_R3_4_reaching_ten_on_anothers_turn_forces_the_coup():
    """R3.4: a player who reaches 10 coins during another's turn must Coup on their own."""
    g = Game.arrange(hands=[["captain", "duke"], ["contessa", "assassin"], ["duke", "captain"]],
                     coins=[8, 2, 2], actor=0)
    g.apply(0, move("steal", target=1))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    g.apply(1, move("pass"))  # no block
    assert g.coins == [10, 0, 2]
    g.apply(1, move("income"))
    g.apply(2, move("income"))
    assert kinds(g.legal_moves(0)) == {"coup"}


def test_R3_4_nine_coins_are_not_forced():
    """R3.4: at 9 coins every affordable action remains legal."""
    g = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]],
                     coins=[9, 2, 2])
    assert move("income") in g.legal_moves(0) and move("coup", target=1) in g.legal_moves(0)


def test_R3_5_targets_are_other_players_with_influence():
    """R3.5: Coup, Assassinate, Steal and Examine name another player who has influence:
    never oneself, an exiled player, or a seat that does not exist."""
    opts = Options(players=4, variant="inquisitor")
    g = Game.arrange(opts, hands=[["duke", "captain"], [], ["contessa", "assassin"],
                                  ["duke", "inquisitor"]],
                     revealed=[[], ["duke", "captain"], [], []], coins=[7, 0, 2, 2])
    targeted = [m for m in g.legal_moves(0) if m.target is not None]
    assert {m.kind for m in targeted} == {"coup", "assassinate", "steal", "examine"}
    assert {m.target for m in targeted} == {2, 3}
    for kind in ("coup", "assassinate", "steal", "examine"):
        refused(g, 0, move(kind, target=0), "bad_target")
        refused(g, 0, move(kind, target=1), "bad_target")
        refused(g, 0, move(kind, target=4), "bad_target")
        refused(g, 0, move(kind), "bad_target")


# ------------------------------------------------------------------ R9 table talk


def test_R9_no_move_shows_cards_or_gives_coins():
    """R9: there is no move to show one's cards voluntarily, nor to give or lend coins."""
    assert set(KINDS) == set(ACTIONS) | {"challenge", "pass", "block", "prove", "concede",
                                         "lose", "keep", "show", "examine_decision",
                                         "draft_pick"}
    assert not {"give", "lend", "reveal", "pay", "transfer"} & set(KINDS)
    assert Move._fields == ("kind", "target", "card", "cards", "swap")  # no amount of coins
    for data in ({"kind": "give", "target": 1}, {"kind": "reveal", "card": "duke"}):
        with pytest.raises(IllegalMove) as err:
            Move.from_dict(data)
        assert err.value.code == "unknown_move"
    with pytest.raises(IllegalMove) as err:
        Move.from_dict({"kind": "income", "amount": 2})
    assert err.value.code == "bad_move"


def test_R9_show_is_only_an_answer_to_an_examine():
    """R9: "show" exists only as the answer to an Examine; it is never legal otherwise."""
    g = Game.arrange(Options(players=3, variant="inquisitor"),
                     hands=[["inquisitor", "captain"], ["duke", "contessa"], ["duke", "captain"]])
    assert "show" not in kinds(g.legal_moves(0))
    refused(g, 0, move("show", card="duke"), "not_allowed_now")
    g.apply(0, move("tax"))
    assert "show" not in kinds(g.legal_moves(1))
    refused(g, 1, move("show", card="duke"), "not_allowed_now")


@pytest.mark.parametrize("seed", range(4))
def test_R9_no_legal_move_ever_gives_coins_or_volunteers_a_card(seed):
    """R9 over random play: no move moves coins except an action's own effect, and "show"
    is legal only for the target of an Examine in its show step."""
    opts = Options(players=4, variant="inquisitor")
    g = Game.new(opts, seed=seed)
    rng = random.Random(seed)
    while not g.over:
        for s in range(4):
            for m in g.legal_moves(s):
                if m.kind == "show":
                    assert g.phase == "show" and g.action == "examine" and s == g.target
        seat = rng.choice(g.waiting)
        g.apply(seat, rng.choice(g.legal_moves(seat)))


# ------------------------------------------------------------------ R10 default moves


def test_R10_every_phase_has_a_default_move():
    """R10: the default for each phase id is covered below; every phase but the end asks
    a decision of someone, and has its default."""
    from engine import PHASES
    from engine.legality import DECISIONS
    assert set(PHASES) == {"draft", "action", "respond", "prove", "lose", "keep", "show",
                           "examine_decision", "over"}
    assert set(DECISIONS) == set(PHASES) - {"over"}


def test_R10_response_windows_default_to_pass():
    """R10: in every response window (challenge, block, challenge of a block), pass."""
    rng = random.Random(0)
    g = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    g.apply(0, move("steal", target=1))
    assert g.step == "challenge_action"
    assert default_move(g, 1, rng) == move("pass") == default_move(g, 2, rng)
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    assert g.step == "block"
    assert default_move(g, 1, rng) == move("pass")
    g.apply(1, move("block", card="captain"))
    assert g.step == "challenge_block"
    assert default_move(g, 0, rng) == move("pass") == default_move(g, 2, rng)


def test_R10_turn_defaults_to_income():
    """R10: a turn with fewer than 10 coins takes Income (even with Coup affordable)."""
    rng = random.Random(0)
    for coins in (0, 3, 9):
        g = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"]] * 2,
                         coins=[2, 2, coins, 2], actor=2)
        assert default_move(g, 2, rng) == move("income")


def test_R10_forced_coup_targets_the_next_player_in_turn_order():
    """R10 with R3.4: 10+ coins: Coup on the next player in turn order, skipping exiled
    seats and wrapping."""
    rng = random.Random(0)
    hands = [["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"],
             ["contessa", "assassin"]]
    g = Game.arrange(hands=hands, coins=[2, 10, 2, 2], actor=1)
    assert default_move(g, 1, rng) == move("coup", target=2)
    g = Game.arrange(hands=hands, coins=[2, 2, 2, 12], actor=3)
    assert default_move(g, 3, rng) == move("coup", target=0)
    g = Game.arrange(hands=[["duke", "captain"], ["contessa"], [], ["contessa", "assassin"]],
                     revealed=[[], ["duke"], ["duke", "assassin"], []],
                     coins=[2, 10, 0, 2], actor=1)
    assert default_move(g, 1, rng) == move("coup", target=3)
    g = Game.arrange(hands=[[], ["contessa"], ["duke", "captain"], ["contessa", "assassin"]],
                     revealed=[["duke", "assassin"], ["duke"], [], []],
                     coins=[0, 2, 2, 10], actor=3)
    assert default_move(g, 3, rng) == move("coup", target=1)


def test_R10_card_to_lose_is_picked_with_the_given_rng():
    """R10: a card to lose is picked at random, by the rng passed in (not the game's)."""
    picks = set()
    for seed in range(30):
        g = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"]] * 2,
                         coins=[7, 2, 2, 2])
        g.apply(0, move("coup", target=1))
        game_rng = g.rng.getstate()
        m = default_move(g, 1, random.Random(seed))
        assert m in g.legal_moves(1) and m.kind == "lose"
        assert m == default_move(g, 1, random.Random(seed))  # the rng decides
        assert g.rng.getstate() == game_rng  # the game's generator is untouched
        picks.add(m.card)
    assert picks == {"contessa", "assassin"}


def test_R10_card_to_show_is_picked_at_random():
    """R10: the card shown for an Examine is picked at random among the target's cards."""
    picks = set()
    for seed in range(30):
        g = Game.arrange(Options(players=3, variant="inquisitor"),
                         hands=[["inquisitor", "captain"], ["duke", "contessa"],
                                ["duke", "captain"]])
        g.apply(0, move("examine", target=1))
        g.apply(1, move("pass"))
        g.apply(2, move("pass"))
        assert g.phase == "show"
        m = default_move(g, 1, random.Random(seed))
        assert m in g.legal_moves(1) and m.kind == "show"
        assert m == default_move(g, 1, random.Random(seed))
        picks.add(m.card)
    assert picks == {"duke", "contessa"}


def test_R10_draft_choice_is_picked_at_random():
    """R10: a draft choice is picked at random among the seat's set."""
    g = Game.new(Options(players=2), seed=3)
    picks = set()
    for seed in range(60):
        m = default_move(g, 0, random.Random(seed))
        assert m in g.legal_moves(0) and m.kind == "draft_pick"
        picks.add(m.card)
    assert picks == {"duke", "assassin", "captain", "ambassador", "contessa"}
    g.apply(0, default_move(g, 0, random.Random(1)))
    g.apply(1, default_move(g, 1, random.Random(2)))
    assert g.phase == "action"


def test_R10_exchange_keeps_the_original_cards():
    """R10: a silent exchanger keeps the cards it had; the drawn ones go back."""
    g = Game.arrange(hands=[["contessa", "ambassador"], ["duke", "assassin"],
                            ["duke", "captain"]], deck=["captain", "duke", "assassin"])
    g.apply(0, move("exchange"))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    assert g.phase == "keep" and sorted(g.drawn) == ["captain", "duke"]
    m = default_move(g, 0, random.Random(0))
    assert m == move("keep", cards=("ambassador", "contessa"))
    g.apply(0, m)
    assert sorted(g.hands[0]) == ["ambassador", "contessa"]


def test_R10_exchange_with_one_influence_keeps_the_original_card():
    """R10 with R4.3: one face-down card: keep that one of the three."""
    g = Game.arrange(hands=[["contessa"], ["duke", "assassin"], ["duke", "captain"]],
                     revealed=[["ambassador"], [], []], deck=["captain", "duke", "assassin"])
    g.apply(0, move("exchange"))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    assert default_move(g, 0, random.Random(0)) == move("keep", cards=("contessa",))


@pytest.mark.parametrize("seed", range(3))
def test_R10_examine_decision_lets_the_target_keep(seed):
    """R10: the Inquisitor's silent decision lets the target keep the shown card."""
    g = Game.arrange(Options(players=3, variant="inquisitor"),
                     hands=[["inquisitor", "captain"], ["duke", "contessa"],
                            ["duke", "captain"]])
    g.apply(0, move("examine", target=1))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    g.apply(1, move("show", card="duke"))
    assert g.phase == "examine_decision"
    m = default_move(g, 0, random.Random(seed))
    assert m == move("examine_decision", swap=False)
    g.apply(0, m)
    assert sorted(g.hands[1]) == ["contessa", "duke"]


def test_R10_challenged_claim_is_proved_when_able_else_conceded():
    """R10 (a challenged claim): prove when the card is held, concede otherwise."""
    rng = random.Random(0)
    g = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    g.apply(0, move("tax"))
    g.apply(1, move("challenge"))
    assert default_move(g, 0, rng) == move("prove")
    g = Game.arrange(hands=[["contessa", "captain"], ["contessa", "assassin"],
                            ["duke", "captain"]])
    g.apply(0, move("tax"))
    g.apply(1, move("challenge"))
    assert default_move(g, 0, rng) == move("concede")


def test_R10_no_default_for_a_seat_that_owes_nothing():
    """R10: only a seat whose decision is open can time out."""
    g = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"], ["duke", "captain"]])
    with pytest.raises(IllegalMove) as err:
        default_move(g, 1, random.Random(0))
    assert err.value.code == "not_your_turn"


@pytest.mark.parametrize("seed", range(5))
def test_R10_defaults_alone_finish_a_game_and_work_on_views(seed):
    """R10: a game where every seat times out always has a legal default, the client can
    compute the same default from its own view, and the forced Coups end the game."""
    opts = Options(players=3, variant="inquisitor" if seed % 2 else "base")
    g = Game.new(opts, seed=seed)
    steps = 0
    while not g.over and steps < 2000:
        seat = g.waiting[0]
        m = default_move(g, seat, random.Random(steps))
        assert m in g.legal_moves(seat)
        assert default_move(g.view(seat), seat, random.Random(steps)) == m
        g.apply(seat, m, g.state_id)
        steps += 1
    assert g.over
