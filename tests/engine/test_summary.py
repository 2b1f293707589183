"""The summary of a finished game: the order seats went out, each seat's claims and bluffs
(R6.1, R7.2), and the challenges it won (R6.4) and lost (R6.3). Only once it is over (R11)."""

from __future__ import annotations

import pytest

from collections.abc import Iterator

from engine import Event, Game, Move, Options, move
from engine.summary import Call, count, summarize

from .helpers import PASS


def three_seats() -> Game:
    """Seed 1 deals seat 0 Ambassador and Duke, seat 1 Contessa and Assassin, seat 2
    Contessa and Ambassador; seat 0 starts."""
    g = Game.new(Options(players=3), seed=1)
    assert g.first_seat == 0
    assert g.hands == [["ambassador", "duke"], ["contessa", "assassin"],
                       ["contessa", "ambassador"]]
    return g


def test_R6_R7_R2_2_a_finished_game_tells_claims_bluffs_challenges_and_who_went_out():
    g = three_seats()
    # Seat 0 claims the Duke it holds; seat 1 challenges and loses a card (R6.3).
    g.apply(0, move("tax"))
    g.apply(1, move("challenge"))
    g.apply(0, move("prove"))
    g.apply(1, move("lose", card="assassin"))
    assert "duke" in g.hands[0] and "captain" not in g.hands[0]
    # Seat 1 claims a Captain it does not hold; seat 2 challenges; seat 1 concedes its last
    # card and is the first out (R6.4, R2.2).
    g.apply(1, move("steal", target=2))
    g.apply(2, move("challenge"))
    g.apply(1, move("concede"))
    assert g.exiled == [1]
    # Seat 2 bluffs a Captain too; seat 0 blocks it with a Captain it does not hold (R7.2),
    # and nobody challenges either claim.
    g.apply(2, move("steal", target=0))
    g.apply(0, PASS)
    g.apply(0, move("block", card="captain"))
    g.apply(2, PASS)
    # Seat 2 leaves the game for good: its forfeit counts as going out.
    g.forfeit(2)
    assert g.over and g.winner == 0

    assert summarize(g) == {
        "out": [1, 2],
        "seats": [
            {"claims": {"duke": 1, "captain": 1}, "bluffs": 1,
             "challenges_won": 0, "challenges_lost": 0},
            {"claims": {"captain": 1}, "bluffs": 1, "challenges_won": 0, "challenges_lost": 1},
            {"claims": {"captain": 1}, "bluffs": 1, "challenges_won": 1, "challenges_lost": 0},
        ],
    }


def test_R6_3_a_claim_proved_by_a_card_drawn_back_after_a_challenge_is_no_bluff():
    """Seat 0 proves its Duke, shuffles it back and happens to draw a Duke again (R6.3):
    its second Tax is as true as its first."""
    g = three_seats()
    g.apply(0, move("tax"))
    g.apply(1, move("challenge"))
    g.apply(0, move("prove"))
    g.apply(1, move("lose", card="assassin"))
    g.apply(1, move("income"))
    g.apply(2, move("income"))
    g.apply(0, move("tax"))
    g.apply(1, PASS)
    g.apply(2, PASS)
    g.forfeit(1)
    g.forfeit(2)

    summary = summarize(g)
    assert summary["out"] == [1, 2]
    assert summary["seats"][0] == {"claims": {"duke": 2}, "bluffs": 0,
                                   "challenges_won": 0, "challenges_lost": 0}


def test_R11_a_game_in_play_has_no_summary():
    g = three_seats()
    g.apply(0, move("income"))
    with pytest.raises(ValueError):
        summarize(g)


def _steps(g: Game, moves: list[tuple[int, Move]]) -> Iterator[tuple[Game, list[Event]]]:
    """`g` and then each of `moves` applied to it, as count() reads a game."""
    yield g, []
    for seat, m in moves:
        yield g, g.apply(seat, m)


@pytest.mark.parametrize("hand, answer, right", [
    (["captain", "assassin"], "prove", False),  # no Duke: proved by showing both (R12.12.1)
    (["duke", "assassin"], "concede", True),  # a Duke held: only a concession (R12.12.2)
])
def test_R12_12_a_challenge_of_an_embezzlement_is_a_call_right_or_wrong(hand, answer, right):
    g = Game.arrange(Options(players=4, reformation=True), almshouse=3,
                     hands=[hand, ["contessa", "duke"], ["duke", "ambassador"],
                            ["contessa", "captain"]])
    lose = (1, move("lose", card="duke")) if answer == "prove" else (0, move("lose",
                                                                              card="assassin"))
    numbers = count(_steps(g, [(0, move("embezzle")), (1, move("challenge")),
                               (0, move(answer)), lose]))
    assert numbers[1].calls == (Call(0, "embezzle", right),)
    assert numbers[1].challenges == 1 and numbers[1].challenges_right == int(right)
    # An Embezzlement is no character's claim: none is counted for seat 0.
    assert numbers[0].claims == 0 and numbers[0].by_card == ()
