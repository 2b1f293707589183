"""A finished game told seat by seat: who went out when, and each seat's claims, bluffs and
challenges, for the results screen.

The summary is worked out by replaying the game (`Game.replay`: its options, seed and
history), watching each seat's face-down cards as it claims. That costs one replay when a
game ends and nothing while it is played, so the engine's hot path does not change. It must
never be made for a game still in play: a bluff tells what a hand held, and only once the
game is over may all cards be shown to all (R11).
"""

from __future__ import annotations

from typing import Any, TypedDict

from .game import Game
from .moves import PASS


class SeatSummary(TypedDict):
    """One seat's part of a summary (see `summarize`)."""

    claims: dict[str, int]
    bluffs: int
    challenges_won: int
    challenges_lost: int


def summarize(game: Game) -> dict[str, Any]:
    """The summary of `game`, which is over and was made by `Game.new` (as the server's
    games are), as plain data (protocol.messages.SUMMARY):

    - `out`: the seats in the order they left the game (R2.2: exiled, by losing their last
      influence or forfeiting), first out first; the winner is not in it;
    - `seats`, one per seat: `claims`, how often it claimed each character, by action or
      block (R6.1); `bluffs`, how many of those it made without a face-down card of that
      character; `challenges_won` and `challenges_lost`, the challenges it made that the
      claimant conceded (R6.4) or proved (R6.3). A challenge whose claimant left the game
      before answering counts as neither.
    """
    if not game.over:
        raise ValueError("a game has a summary only once it is over (R11)")
    replay = Game.new(game.options, game.seed)
    seats: list[SeatSummary] = [SeatSummary(claims={}, bluffs=0, challenges_won=0, challenges_lost=0)
             for _ in range(game.options.players)]
    challenger = None
    for seat, m in game.history:
        if m is None:
            replay.forfeit(seat)
            continue
        held = () if m.kind == PASS else tuple(replay.hands[seat])
        for e in replay.apply(seat, m):
            kind = e.kind
            if kind in ("action", "block") and e.card is not None and e.seat is not None:
                record = seats[e.seat]
                record["claims"][e.card] = record["claims"].get(e.card, 0) + 1
                record["bluffs"] += e.card not in held
            elif kind == "challenge":
                challenger = e.seat
            elif kind in ("prove", "concede") and challenger is not None:
                if kind == "concede":
                    seats[challenger]["challenges_won"] += 1
                else:
                    seats[challenger]["challenges_lost"] += 1
                challenger = None
    return {"out": list(replay.exiled), "seats": seats}
