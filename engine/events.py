"""Events: what happened when a move was applied, each with the seats allowed to see it.

`to` is None for an event everyone sees (spectators included), or the tuple of seats that
may see it: that one field is how an Exchange's draw, an Examine's card and a replacement
card stay secret (R11). Filter with `visible_to` at the boundary, once per recipient.

Events are NamedTuples rather than frozen dataclasses because a move makes one to four of
them on the engine's hot path, and a tuple is several times cheaper to build.

Kinds and the fields they use (the others are None). A secret never rides on a public
event: where something is hidden, a public event says that it happened and a private one
(`to` set) says what it was.
  turn         seat                   a turn begins
  action       seat, action[, target], amount — declared; amount is the cost paid (R4.1);
               card is the character claimed, if any
  pass         seat, target, card | action
                                      let the open window go by: in a challenge window,
                                      target's claim to be card; in the block window,
                                      target's action
  challenge    seat, target, card     seat challenges target's claim to be card
  prove        seat, card             revealed the claimed card; it goes back to the deck
  redraw       seat                   drew a replacement card (R6.3)
  concede      seat, card             gave up the claim to be card
  refund       seat, amount           the cost of a failed action comes back (R6.4)
  block        seat, target, card     seat blocks target's action, claiming card
  lose         seat, card             turned card face up: one influence lost
  exile        seat, amount           no influence left; amount coins back to the treasury
  gain         seat, amount           coins from the treasury
  steal        seat, target, amount   coins taken from target
  exchange     seat, amount           drew amount cards to exchange
  keep         seat, amount           returned amount cards to the deck
  examine      seat, target           target must show the Inquisitor (seat) a card
  examine_keep seat, target           the Inquisitor let target keep the shown card
  examine_swap seat, target           target's shown card went back; target drew anew
  drafted      seat                   picked a draft card (R1.7)
  fail         seat, action, reason[, target]
                                      seat's action (on target) had no effect, for a
                                      reason in FAIL_REASONS
  win          seat                   the game is over; seat won
  forfeit      seat                   the seat left the game for good (its cards follow,
                                      face up, as lose events, then exile)
  convert      seat, target, amount, faction
                                      seat converted target (itself, or another) for amount
                                      coins paid into the Almshouse; target's faction is now
                                      faction (R12.9)
  embezzle     seat, amount           took amount coins, the whole Almshouse (R12.11)
  disprove     seat, cards            showed every face-down card, none a Duke, to prove an
                                      Embezzlement (R12.12.1); they go back to the deck, and
                                      a redraw event follows for each
Private kinds:
  drew         seat, cards            to seat: the cards it drew (replacement, exchange,
                                      examine swap, the draft's second card)
  kept         seat, cards            to seat: the cards it kept after an exchange
  shown        seat, target, card     to both: seat showed card to target (R4.4)
  picked       seat, card             to seat: its draft pick
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

#: Why an action had no effect (the `reason` of a `fail` event), in the order the engine
#: judges them: its actor, then its target, was exiled before it resolved (R5.2); the actor
#: conceded the challenged claim (R6.4); a block stood (R7.1).
FAIL_REASONS = ("actor_out", "target_out", "conceded", "blocked")


class Event(NamedTuple):
    """One thing that happened. See the module docstring for each kind's fields."""

    kind: str
    seat: int | None = None
    target: int | None = None
    card: str | None = None
    cards: tuple[str, ...] | None = None
    amount: int | None = None
    action: str | None = None
    reason: str | None = None
    to: tuple[int, ...] | None = None
    faction: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data (audience left out: the recipient already passed it)."""
        d: dict[str, Any] = {"kind": self.kind}
        for name in ("seat", "target", "card", "cards", "amount", "action", "reason", "faction"):
            value = getattr(self, name)
            if value is not None:
                d[name] = list(value) if name == "cards" else value
        return d


def visible_to(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events `seat` may see (a spectator is seat None and sees public ones only)."""
    return [e for e in events if e.to is None or (seat is not None and seat in e.to)]
