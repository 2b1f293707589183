"""Every refusal code of engine.errors.MOVE_ERRORS, each produced by a scenario that also
checks the refused move changed nothing (state_id, coins, hands, the open decision).

`refused()` records the codes it has seen, and `covers(code)` registers a scenario for a
code; the last test re-runs every registered scenario and fails if some code in
MOVE_ERRORS has no scenario, or a scenario never produced its code.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from engine import MOVE_ERRORS, Game, IllegalMove, Move, Options, check, move

SEEN: set[str] = set()
SCENARIOS: dict[str, list] = defaultdict(list)


def covers(*codes):
    def register(fn):
        for code in codes:
            SCENARIOS[code].append(fn)
        return fn
    return register


def state(g: Game) -> tuple:
    return (g.state_id, list(g.coins), [list(h) for h in g.hands],
            [list(r) for r in g.revealed], list(g.deck), g.treasury, g.phase,
            tuple(g.waiting), g.opened, g.step, list(g.drawn), len(g.history))


def refused(g: Game, seat, m, code: str, state_id="current") -> IllegalMove:
    """Apply a move that must be refused with `code`; assert nothing changed."""
    before = state(g)
    sid = g.state_id if state_id == "current" else state_id
    with pytest.raises(IllegalMove) as err:
        g.apply(seat, m, sid)
    assert err.value.code == code, err.value
    assert err.value.message and isinstance(err.value.message, str)
    assert state(g) == before
    # the same refusal from the stand-alone check
    with pytest.raises(IllegalMove) as err2:
        check(g, seat, m, sid)
    assert err2.value.code == code
    SEEN.add(code)
    return err.value


def bad_data(data, code: str) -> None:
    """Move.from_dict must refuse `data` with `code`."""
    with pytest.raises(IllegalMove) as err:
        Move.from_dict(data)
    assert err.value.code == code, err.value
    SEEN.add(code)


def three() -> Game:
    return Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"],
                               ["duke", "ambassador"]], coins=[2, 2, 2])


def four() -> Game:
    return Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"],
                               ["duke", "ambassador"], ["captain", "contessa"]])


# ------------------------------------------------------------------ stale_state


@covers("stale_state")
def test_stale_state_two_simultaneous_challenges_resolve_to_exactly_one():
    """R6.1: both seats challenge the Tax against the same state; the first is taken, the
    second is stale: exactly one challenge, one challenger."""
    g = three()
    g.apply(0, move("tax"))
    sid = g.state_id
    events = g.apply(2, move("challenge"), sid)
    assert [e.kind for e in events] == ["challenge"]
    refused(g, 1, move("challenge"), "stale_state", state_id=sid)
    assert g.challenger == 2 and g.phase == "prove" and g.waiting == (0,)
    assert [m.kind for _, m in g.history].count("challenge") == 1


@covers("stale_state")
def test_stale_state_several_passes_against_the_same_window_are_all_accepted():
    """R5: passes made against the state the window opened at are all accepted, whatever
    moves came in meanwhile; the claim then stands."""
    g = four()
    g.apply(0, move("tax"))
    sid = g.state_id
    for seat in (3, 1, 2):
        g.apply(seat, move("pass"), sid)
    assert g.coins[0] == 5 and g.waiting == (1,)
    # a move against the window that is now closed is stale
    refused(g, 2, move("challenge"), "stale_state", state_id=sid)


@covers("stale_state")
def test_stale_state_a_challenge_after_others_passed_in_the_same_window_is_accepted():
    """R5, R6.1: a challenge made against the window's opening state counts even though
    other seats passed meanwhile; a later challenge against that state is then stale."""
    g = four()
    g.apply(0, move("tax"))
    sid = g.state_id
    g.apply(1, move("pass"), sid)
    g.apply(3, move("challenge"), sid)
    assert g.challenger == 3 and g.phase == "prove"
    refused(g, 2, move("challenge"), "stale_state", state_id=sid)
    refused(g, 2, move("pass"), "stale_state", state_id=sid)


@covers("stale_state")
def test_stale_state_a_pass_for_an_old_window_is_not_a_pass_in_the_next():
    """R5: a pass made against the challenge window is stale once the block window opened."""
    g = three()
    g.apply(0, move("steal", target=1))
    sid = g.state_id
    g.apply(1, move("pass"), sid)
    g.apply(2, move("pass"), sid)
    assert g.step == "block" and g.waiting == (1,)
    refused(g, 1, move("pass"), "stale_state", state_id=sid)
    assert g.step == "block" and g.waiting == (1,)


@covers("stale_state")
def test_stale_state_from_the_future_or_not_a_number():
    """A state the game has not reached, or that is not a number, is stale."""
    g = three()
    refused(g, 0, move("income"), "stale_state", state_id=g.state_id + 1)
    refused(g, 0, move("income"), "stale_state", state_id="0x")
    refused(g, 0, move("income"), "stale_state", state_id=-1)


@covers("stale_state")
def test_stale_state_an_action_made_before_the_turn_began():
    """R3.1: a seat's action sent against a state from before its turn is stale."""
    g = three()
    sid = g.state_id
    g.apply(0, move("income"))
    refused(g, 1, move("income"), "stale_state", state_id=sid)
    g.apply(1, move("income"), g.state_id)
    assert g.coins == [3, 3, 2]


# ------------------------------------------------------------------ game_over ... not_allowed_now


@covers("game_over")
def test_game_over_no_move_after_the_win():
    """R2.3: once a seat has won, every move by every seat is refused."""
    g = Game.arrange(hands=[["duke", "captain"], ["contessa"], []],
                     revealed=[[], ["assassin"], ["duke", "ambassador"]], coins=[7, 1, 0])
    g.apply(0, move("coup", target=1))
    assert g.over
    refused(g, 0, move("income"), "game_over")
    refused(g, 1, move("pass"), "game_over")
    refused(g, 5, move("income"), "game_over")


@covers("bad_seat")
def test_bad_seat_no_such_seat():
    """A seat number the table does not have is refused."""
    g = three()
    refused(g, 3, move("income"), "bad_seat")
    refused(g, -1, move("income"), "bad_seat")
    refused(g, "0", move("income"), "bad_seat")


@covers("exiled")
def test_exiled_seat_never_moves_again():
    """R2.2: an exiled seat cannot act, challenge or block."""
    g = Game.arrange(hands=[["duke", "captain"], [], ["duke", "ambassador"]],
                     revealed=[[], ["contessa", "assassin"], []], coins=[2, 0, 2])
    refused(g, 1, move("income"), "exiled")
    g.apply(0, move("foreign_aid"))
    refused(g, 1, move("block", card="duke"), "exiled")
    refused(g, 1, move("pass"), "exiled")


@covers("not_your_turn")
def test_not_your_turn_when_the_seat_owes_nothing():
    """R3.1, R5: a seat that owes no decision is refused: another's turn, a window it is
    not in, or a window it already answered."""
    g = three()
    refused(g, 1, move("income"), "not_your_turn")
    g.apply(0, move("steal", target=1))
    refused(g, 0, move("challenge"), "not_your_turn")  # no challenging oneself
    g.apply(1, move("pass"))
    refused(g, 1, move("challenge"), "not_your_turn")  # already passed
    g.apply(2, move("pass"))
    refused(g, 2, move("block", card="captain"), "not_your_turn")  # only the target blocks


@covers("not_allowed_now")
def test_not_allowed_now_the_move_does_not_answer_the_decision():
    """R3.2, R5: a pass on one's turn, a block in a challenge window, a challenge in a
    block window, a lose when proving, an action in a response window."""
    g = three()
    refused(g, 0, move("pass"), "not_allowed_now")
    refused(g, 0, move("challenge"), "not_allowed_now")
    g.apply(0, move("steal", target=1))
    refused(g, 1, move("block", card="captain"), "not_allowed_now")
    refused(g, 2, move("income"), "not_allowed_now")
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    refused(g, 1, move("challenge"), "not_allowed_now")
    g.apply(1, move("block", card="ambassador"))
    g.apply(0, move("challenge"))
    assert g.phase == "prove"
    refused(g, 1, move("lose", card="contessa"), "not_allowed_now")
    refused(g, 1, move("pass"), "not_allowed_now")


@covers("not_allowed_now")
def test_not_allowed_now_in_the_keep_show_and_decision_steps():
    """R4.3, R4.4: the exchanger must keep; the target must show; the Inquisitor decides."""
    opts = Options(players=3, variant="inquisitor")
    g = Game.arrange(opts, hands=[["inquisitor", "captain"], ["duke", "contessa"],
                                  ["duke", "captain"]])
    g.apply(0, move("exchange"))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    assert g.phase == "keep"
    refused(g, 0, move("pass"), "not_allowed_now")
    refused(g, 0, move("lose", card="captain"), "not_allowed_now")
    g.apply(0, move("keep", cards=("inquisitor", "captain")))
    g.apply(1, move("examine", target=0))
    g.apply(2, move("pass"))
    g.apply(0, move("pass"))
    assert g.phase == "show"
    refused(g, 0, move("lose", card="captain"), "not_allowed_now")
    g.apply(0, move("show", card="captain"))
    assert g.phase == "examine_decision"
    refused(g, 1, move("pass"), "not_allowed_now")


# ------------------------------------------------------------------ malformed data


@covers("unknown_move")
def test_unknown_move_kind():
    """A kind that is not a move id is refused when the move is read, and an unknown kind
    handed straight to the game is refused too, changing nothing."""
    for kind in ("give", "fly", "Income", "", "show_cards"):
        bad_data({"kind": kind}, "unknown_move")
    g = three()
    before = state(g)
    with pytest.raises(IllegalMove):
        g.apply(0, move("give", target=1))
    assert state(g) == before


@covers("bad_move")
def test_bad_move_malformed_data():
    """A move read from data must be a map with a kind string, no key that is not a move's
    field, and each field it has of the right type. Which of them its kind takes is judged
    by the game (test_bad_move_applied_to_the_game), after staleness."""
    for data in (None, "income", ["income"], {}, {"kind": 3},
                 {"kind": "income", "amount": 2},                   # no such field
                 {"kind": "coup", "target": "1"},                   # wrong type
                 {"kind": "coup", "target": True},
                 {"kind": "coup", "target": 1.0},
                 {"kind": "block", "card": 3},
                 {"kind": "keep", "cards": "duke"},
                 {"kind": "keep", "cards": ["duke"] * 5},
                 {"kind": "keep", "cards": ["duke", 3]},
                 {"kind": "examine_decision", "swap": 1}):
        bad_data(data, "bad_move")
    assert Move.from_dict({"kind": "coup", "target": 1}) == move("coup", target=1)
    assert Move.from_dict({"kind": "keep", "cards": ["duke", "captain"]}) is move(
        "keep", cards=("captain", "duke"))


@covers("bad_move")
def test_bad_move_applied_to_the_game():
    """A move with a field its kind does not use, or without one it needs, is refused by
    the game (a target that is not wanted is a bad_target)."""
    g = three()
    refused(g, 0, move("income", target=1), "bad_target")
    refused(g, 0, move("tax", card="duke"), "bad_move")
    refused(g, 0, move("block"), "bad_move")
    refused(g, 0, move("keep"), "bad_move")
    refused(g, 0, "income", "bad_move")
    for data in ({"kind": "block"}, {"kind": "examine_decision"},
                 {"kind": "pass", "card": "duke"}):
        refused(g, 0, Move.from_dict(data), "bad_move")
    refused(g, 0, Move.from_dict({"kind": "income", "target": 1}), "bad_target")


@covers("unknown_card")
def test_unknown_card():
    """A card that is not a character id is refused, read from data or applied."""
    bad_data({"kind": "block", "card": "joker"}, "unknown_card")
    bad_data({"kind": "keep", "cards": ["duke", "Duke"]}, "unknown_card")
    g = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"],
                            ["duke", "ambassador"]], coins=[7, 2, 2])
    g.apply(0, move("coup", target=1))
    refused(g, 1, move("lose", card="joker"), "unknown_card")


@covers("not_in_variant")
def test_not_in_variant():
    """R1.3: Examine and the Inquisitor in the base game; the Ambassador in the variant."""
    g = three()
    refused(g, 0, move("examine", target=1), "not_in_variant")
    g.apply(0, move("steal", target=2))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    refused(g, 2, move("block", card="inquisitor"), "not_in_variant")
    opts = Options(players=3, variant="inquisitor")
    g = Game.arrange(opts, hands=[["inquisitor", "captain"], ["duke", "contessa"],
                                  ["duke", "captain"]])
    g.apply(0, move("steal", target=1))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    refused(g, 1, move("block", card="ambassador"), "not_in_variant")
    refused(three(), 0, move("convert", target=0), "not_in_variant")  # R12.1
    refused(three(), 0, move("embezzle"), "not_in_variant")


# ------------------------------------------------------------------ Reformation (R12)


def reformation(**kw) -> Game:
    """Four seats at a Reformation table: 0 and 2 Loyalist, 1 and 3 Reformist (R12.3)."""
    return Game.arrange(Options(players=4, reformation=True),
                        hands=kw.pop("hands", [["duke", "captain"], ["contessa", "assassin"],
                                               ["duke", "ambassador"], ["captain", "contessa"]]),
                        **kw)


@covers("same_faction")
def test_same_faction():
    """R12.6: a target of one's own faction; R12.7: a block of one's own faction."""
    g = reformation(coins=[7, 2, 2, 2])
    refused(g, 0, move("coup", target=2), "same_faction")
    refused(g, 0, move("steal", target=2), "same_faction")
    g.apply(0, move("foreign_aid"))
    refused(g, 2, move("block", card="duke"), "same_faction")


@covers("almshouse_empty")
def test_almshouse_empty():
    """R12.11.2: an Embezzlement needs a coin in the Almshouse."""
    refused(reformation(), 0, move("embezzle"), "almshouse_empty")


@covers("holds_duke")
def test_holds_duke():
    """R12.12.1: a Duke held face down cannot be disproved."""
    g = reformation(almshouse=2)
    g.apply(0, move("embezzle"))
    g.apply(1, move("challenge"))
    refused(g, 0, move("prove"), "holds_duke")


# ------------------------------------------------------------------ actions


@covers("must_coup")
def test_must_coup_with_ten_coins():
    """R3.4: 10+ coins at the start of the turn: anything but a Coup is refused."""
    g = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"],
                            ["duke", "ambassador"]], coins=[10, 2, 2])
    refused(g, 0, move("income"), "must_coup")
    refused(g, 0, move("assassinate", target=1), "must_coup")


@covers("cannot_afford")
def test_cannot_afford():
    """R3.3: Coup costs 7 and Assassinate 3."""
    g = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"],
                            ["duke", "ambassador"]], coins=[6, 2, 2])
    refused(g, 0, move("coup", target=1), "cannot_afford")
    g.apply(0, move("income"))
    refused(g, 1, move("assassinate", target=2), "cannot_afford")


@covers("bad_target")
def test_bad_target():
    """R3.5: oneself, an exiled seat, no seat, or no target at all."""
    g = Game.arrange(hands=[["duke", "captain"], [], ["duke", "ambassador"]],
                     revealed=[[], ["contessa", "assassin"], []], coins=[7, 0, 2])
    refused(g, 0, move("coup", target=0), "bad_target")
    refused(g, 0, move("coup", target=1), "bad_target")
    refused(g, 0, move("steal", target=3), "bad_target")
    refused(g, 0, move("assassinate"), "bad_target")


@covers("bad_target", "cannot_afford")
def test_a_target_is_judged_as_the_spec_orders_it():
    """R3.5 before R3.3 for a target that is no other seat: a Coup on oneself or on no seat
    with 3 coins is bad_target; a Coup on an exiled seat with 3 coins is cannot_afford (the
    phase's own rules judge the target's influence after the cost)."""
    g = Game.arrange(hands=[["duke", "captain"], [], ["duke", "ambassador"]],
                     revealed=[[], ["contessa", "assassin"], []], coins=[3, 0, 2])
    refused(g, 0, move("coup", target=0), "bad_target")
    refused(g, 0, move("coup", target=5), "bad_target")
    refused(g, 0, move("coup", target=1), "cannot_afford")
    refused(g, 0, move("coup", target=2), "cannot_afford")


def judged(g: Game, seat: int, data: dict, state_id: int) -> str:
    """The code a move sent as `data` gets, read and applied as the server does."""
    with pytest.raises(IllegalMove) as err:
        g.apply(seat, Move.from_dict(data), state_id)
    return err.value.code


def test_a_move_is_judged_in_the_order_the_spec_gives():
    """docs/PROTOCOL.md, the order a move is judged in: its form (unknown_move, bad_move,
    unknown_card), its staleness, the game being over, the fields its kind takes and the
    variant, the seat's influence and turn, then the phase's own rules. Each move below
    breaks one step and every step after it, and gets that step's code."""
    # seat 1 is exiled and owes nothing; in the base game there is no Inquisitor
    g = Game.arrange(hands=[["duke", "captain"], [], ["duke", "ambassador"]],
                     revealed=[[], ["contessa", "assassin"], []], coins=[3, 0, 2])
    g.apply(0, move("income"))
    old, now = 0, g.state_id
    form = [
        ({"kind": "teleport", "target": "1", "card": "joker"}, "unknown_move"),
        ({"kind": "pass", "target": "1", "card": "joker"}, "bad_move"),
        ({"kind": "coup", "card": "joker"}, "unknown_card"),
    ]
    for data, code in form + [({"kind": "coup", "card": "inquisitor"}, "stale_state")]:
        assert judged(g, 1, data, old) == code, data
    for data, code in form + [
        ({"kind": "coup", "card": "inquisitor"}, "bad_target"),      # no target, a card
        ({"kind": "tax", "card": "inquisitor"}, "bad_move"),         # a card tax takes not
        ({"kind": "block", "card": "inquisitor"}, "not_in_variant"),
        ({"kind": "examine", "target": 1}, "not_in_variant"),        # and one's own seat
        ({"kind": "steal", "target": 1}, "bad_target"),              # one's own seat
        ({"kind": "steal", "target": 7}, "bad_target"),              # no seat at the table
        ({"kind": "pass"}, "exiled"),
    ]:
        assert judged(g, 1, data, now) == code, data
    assert judged(g, 0, {"kind": "examine", "target": 2}, now) == "not_in_variant"
    assert judged(g, 0, {"kind": "pass"}, now) == "not_your_turn"
    assert judged(g, 2, {"kind": "assassinate", "target": 1}, now) == "cannot_afford"
    # a game that is over: seat 2 is exiled too
    g = Game.arrange(hands=[["duke", "captain"], ["contessa"], []],
                     revealed=[[], ["assassin"], ["duke", "ambassador"]], coins=[7, 1, 0])
    g.apply(0, move("coup", target=1))
    assert g.over
    for data, code in form + [({"kind": "coup", "card": "inquisitor"}, "stale_state")]:
        assert judged(g, 2, data, 0) == code, data
    for data, code in form + [({"kind": "coup", "card": "inquisitor"}, "game_over")]:
        assert judged(g, 2, data, g.state_id) == code, data


@covers("bad_block")
def test_bad_block():
    """R4: Steal is blocked by Captain or Ambassador, Assassinate by Contessa, Foreign Aid
    by Duke; any other character is refused."""
    g = three()
    g.apply(0, move("steal", target=1))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    refused(g, 1, move("block", card="duke"), "bad_block")
    refused(g, 1, move("block", card="contessa"), "bad_block")
    g = Game.arrange(hands=[["duke", "assassin"], ["contessa", "captain"],
                            ["duke", "ambassador"]], coins=[3, 2, 2])
    g.apply(0, move("assassinate", target=1))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    refused(g, 1, move("block", card="captain"), "bad_block")
    g = three()
    g.apply(0, move("foreign_aid"))
    refused(g, 2, move("block", card="captain"), "bad_block")


@covers("card_not_held")
def test_card_not_held():
    """R6.2, R2.1, R4.4: proving a claim without the card, losing or showing a card not
    held face down."""
    g = three()
    g.apply(0, move("steal", target=1))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    g.apply(1, move("block", card="captain"))
    g.apply(0, move("challenge"))
    refused(g, 1, move("prove"), "card_not_held")
    g.apply(1, move("concede"))
    assert g.phase == "lose"
    refused(g, 1, move("lose", card="duke"), "card_not_held")
    opts = Options(players=3, variant="inquisitor")
    g = Game.arrange(opts, hands=[["inquisitor", "captain"], ["duke", "contessa"],
                                  ["duke", "captain"]])
    g.apply(0, move("examine", target=1))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    refused(g, 1, move("show", card="captain"), "card_not_held")


@covers("bad_keep")
def test_bad_keep():
    """R4.3: keep exactly as many as were face down, all from hand and draw."""
    g = Game.arrange(hands=[["duke", "ambassador"], ["contessa", "assassin"],
                            ["duke", "captain"]], deck=["captain", "contessa", "assassin"])
    g.apply(0, move("exchange"))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    assert sorted(g.drawn) == ["captain", "contessa"]
    refused(g, 0, move("keep", cards=("duke",)), "bad_keep")
    refused(g, 0, move("keep", cards=("duke", "captain", "contessa")), "bad_keep")
    refused(g, 0, move("keep", cards=("duke", "assassin")), "bad_keep")
    refused(g, 0, move("keep", cards=("duke", "duke")), "bad_keep")
    g.apply(0, move("keep", cards=("duke", "contessa")))
    assert sorted(g.hands[0]) == ["contessa", "duke"]


# ------------------------------------------------------------------ coverage


def test_every_error_code_has_a_scenario():
    """Every code in MOVE_ERRORS is produced by at least one scenario of this file."""
    missing = sorted(set(MOVE_ERRORS) - set(SCENARIOS))
    assert not missing, f"no scenario produces: {missing}"
    assert set(SCENARIOS) <= set(MOVE_ERRORS)
    for code, tests in SCENARIOS.items():
        for fn in tests:
            SEEN.clear()
            fn()
            assert code in SEEN, f"{fn.__name__} did not produce {code}"
