"""Whom an action may name (client/core/aims.py): each living seat with the move's cost and
the engine's refusal for a seat the viewer may not name now, read from the viewer's own
view at Reformation tables (R12.6, R12.9) and in the base game. No server and no screen.
"""

from __future__ import annotations

from client.core.aims import Aim, aims
from engine import Game, Options, move

REF4 = Options(players=4, reformation=True)


def four(coins: list[int], **kw: object) -> Game:
    """Four seats, seat 0 to act: by R12.3 seats 0 and 2 are Loyalist, 1 and 3 Reformist."""
    return Game.arrange(REF4, hands=[["captain", "assassin"], ["contessa", "duke"],
                                     ["duke", "ambassador"], ["contessa", "captain"]],
                        coins=coins, **kw)


def test_R12_6_a_divided_table_refuses_a_target_of_ones_own_faction() -> None:
    """R12.6: Ana (seat 0, Loyalist) may steal from the Reformists, seats 1 and 3; seat 2,
    a Loyalist, is refused as same_faction."""
    view = four([2, 2, 2, 2]).view(0)
    assert aims(view, "steal") == (
        Aim(1, move("steal", target=1), 0, None),
        Aim(2, move("steal", target=2), 0, "same_faction"),
        Aim(3, move("steal", target=3), 0, None),
    )


def test_R12_9_a_conversion_names_anyone_oneself_included_at_its_cost() -> None:
    """R12.9.1: a Conversion may name oneself (1 coin) or anyone else (2 coins), of either
    faction; with 1 coin only oneself is affordable."""
    rich = aims(four([2, 2, 2, 2]).view(0), "convert")
    assert [(a.seat, a.cost, a.refused) for a in rich] == [
        (0, 1, None), (1, 2, None), (2, 2, None), (3, 2, None)]
    poor = aims(four([1, 2, 2, 2]).view(0), "convert")
    assert [(a.seat, a.cost, a.refused) for a in poor] == [
        (0, 1, None), (1, 2, "cannot_afford"), (2, 2, "cannot_afford"),
        (3, 2, "cannot_afford")]


def test_R12_5_an_exiled_seat_is_never_offered_and_unifies_the_table() -> None:
    """R12.5, R12.9.4: with both Reformists out, the table is unified: Ana may aim at seat
    2, her own faction, and the exiled seats are not offered at all."""
    game = Game.arrange(REF4, hands=[["captain", "assassin"], [], ["duke", "ambassador"], []],
                        coins=[3, 0, 2, 0])
    assert [(a.seat, a.cost, a.refused) for a in aims(game.view(0), "assassinate")] == [
        (2, 3, None)]


def test_R3_3_the_base_game_refuses_what_the_viewer_cannot_afford() -> None:
    """R3.3, R3.5: in the base game every other living seat is offered; an Assassinate
    the viewer cannot pay for is refused as cannot_afford, and oneself is never named."""
    game = Game.arrange(hands=[["captain", "assassin"], ["contessa", "duke"],
                               ["duke", "ambassador"]], coins=[2, 2, 2])
    assert [(a.seat, a.cost, a.refused) for a in aims(game.view(0), "assassinate")] == [
        (1, 3, "cannot_afford"), (2, 3, "cannot_afford")]
    assert aims(game.view(None), "coup") == ()
