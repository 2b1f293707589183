"""The engine's errors: one type for refused moves, one for refused table options.

A refused move carries a stable, machine-readable code from the table below (the protocol
sends it as is, so codes never change meaning) and a sentence a person understands. This
module never decides legality; it only names the reasons.
"""

from __future__ import annotations

#: Every code an illegal move can carry, with what it means. docs/PROTOCOL.md repeats it.
MOVE_ERRORS: dict[str, str] = {
    "stale_state": "the move was made against an older state than the decision it answers",
    "game_over": "the game has ended; no move is possible",
    "bad_seat": "there is no such seat at this table",
    "exiled": "the seat has no influence left and never moves again",
    "not_your_turn": "this seat owes no decision now",
    "not_allowed_now": "this kind of move does not answer the decision that is open",
    "unknown_move": "the move's kind is not one of the move ids",
    "bad_move": "the move is malformed: a field is missing, extra or of the wrong type",
    "unknown_card": "the card is not one of the character ids",
    "not_in_variant": "the card or action does not exist in this table's variant",
    "must_coup": "a player who starts the turn with 10 or more coins must Coup",
    "cannot_afford": "the action costs more coins than the player has",
    "bad_target": "the target is missing, oneself, exiled, not a seat, or not wanted",
    "bad_block": "that character cannot block this action",
    "card_not_held": "the seat does not hold that card face down (or may not pick it)",
    "bad_keep": "the cards to keep are not the right number or not among the cards in hand",
    "same_faction": "on a divided Reformation table, a target or a block of one's own faction",
    "almshouse_empty": "an Embezzlement while the Almshouse holds no coin",
    "holds_duke": "proving an Embezzlement while holding a Duke face down",
}


class IllegalMove(Exception):
    """A move the engine refuses. `code` is a key of MOVE_ERRORS; `message` is for people."""

    def __init__(self, code: str, message: str) -> None:
        assert code in MOVE_ERRORS, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class OptionsError(ValueError):
    """Table options the engine refuses, with a sentence saying which and why."""
