"""The claims the client core keeps of its table (client/core/table.py): each seat's latest,
newest first, and how a challenge of each ended, from a game played on the engine and the
events a seat would see of it (R11). No server and no screen.
"""

from __future__ import annotations

from client.core.table import RECENT_CLAIMS, Claim, Outcome, TableState
from engine import Event, Game, Move, move, visible_to


def watched(game: Game, state: TableState, seat: int, mv: Move) -> None:
    """`seat` plays `mv`; the state takes in what seat 0 sees of it."""
    state.record(visible_to(game.apply(seat, mv), 0), fresh=False)


def test_a_seat_s_latest_claims_come_newest_first_with_how_challenges_ended() -> None:
    """R6.1–R6.4, R7: Bruno claims the Duke for Tax and no one challenges; Ana steals from
    him as the Captain she lacks, he challenges and she concedes; he claims the Duke again,
    Ana challenges, he shows it."""
    game = Game.arrange(hands=[["contessa", "assassin"], ["duke", "captain"]], actor=1,
                        coins=[2, 2])
    state = TableState("t1", 0)
    watched(game, state, 1, move("tax"))
    watched(game, state, 0, move("pass"))
    assert state.recent == {1: [Claim("duke", "tax", None)]}
    watched(game, state, 0, move("steal", target=1))
    watched(game, state, 1, move("challenge"))
    watched(game, state, 0, move("concede"))
    watched(game, state, 0, move("lose", card="assassin"))
    assert state.recent[0] == [Claim("captain", "steal", 1, Outcome.CONCEDED)]
    watched(game, state, 1, move("tax"))
    watched(game, state, 0, move("challenge"))
    watched(game, state, 1, move("prove"))  # Ana's last card goes: the game is over
    assert state.recent[1] == [Claim("duke", "tax", None, Outcome.PROVED),
                               Claim("duke", "tax", None)]
    assert state.claims == {1: {"duke": 2}, 0: {"captain": 1}}


def test_a_block_is_a_claim_of_its_own() -> None:
    """R7, R6.3: Ana blocks Bruno's Foreign Aid as the Duke, Bruno challenges and Ana shows
    it. Foreign Aid itself claims no character."""
    game = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"]], actor=1)
    state = TableState("t1", 0)
    watched(game, state, 1, move("foreign_aid"))
    watched(game, state, 0, move("block", card="duke"))
    watched(game, state, 1, move("challenge"))
    watched(game, state, 0, move("prove"))
    assert state.recent == {0: [Claim("duke", None, 1, Outcome.PROVED)]}


def test_only_the_latest_few_are_kept_and_a_new_game_starts_them_anew() -> None:
    state = TableState("t1", 0)
    taxes = [Event("action", seat=1, action="tax", card="duke")] * (RECENT_CLAIMS + 2)
    state.record([*taxes, Event("action", seat=1, action="steal", target=0, card="captain")],
                 fresh=True)
    assert state.recent[1] == [Claim("captain", "steal", 0),
                               *[Claim("duke", "tax", None)] * (RECENT_CLAIMS - 1)]
    assert state.claims[1] == {"duke": RECENT_CLAIMS + 2, "captain": 1}
    state.record([Event("action", seat=0, action="exchange", card="ambassador")], fresh=True)
    assert state.recent == {0: [Claim("ambassador", "exchange", None)]}
