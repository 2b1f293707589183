"""A finished game told seat by seat: who went out when, and each seat's claims, bluffs,
challenges, blocks and coins, for the results screen (`summarize`) and a game's review
(engine/review.py's `numbers`).

The one count of it is `count`, which reads a game move by move as `engine.record.play`
gives it (the deal, then the game after each move with the events it made), watching each
seat's face-down cards as it claims. `summarize` feeds it a replay of a finished Game (its
options, seed and history): one replay when a game ends and nothing while it is played, so
the engine's hot path does not change. It must never be made for a game still in play: a
bluff tells what a hand held, and only once the game is over may all cards be shown to all
(R11).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from . import cards as C
from .events import Event
from .game import Game


@dataclass(frozen=True, slots=True)
class Claimed:
    """One seat's claims of one character (actions and blocks) over a game."""

    card: str
    claims: int
    #: Claims made without a face-down card of that character at the time.
    bluffs: int
    #: Bluffs that were challenged (and so lost).
    caught: int


@dataclass(frozen=True, slots=True)
class Call:
    """One challenge a seat made."""

    #: The seat whose claim was challenged, and the character it claimed (`embezzle` for
    #: an Embezzlement's claim of holding no Duke, R12.11).
    target: int
    card: str
    #: The claimant conceded: the challenge was right. None when the claimant left the game
    #: before answering.
    right: bool | None


@dataclass(frozen=True, slots=True)
class Numbers:
    """The game in numbers for one seat."""

    seat: int
    claims: int
    bluffs: int
    bluffs_caught: int
    challenges: int
    challenges_right: int
    blocks: int
    block_bluffs: int
    #: The seat's coins after each move of the game.
    coins: tuple[int, ...]
    #: Its claims by character, in the order it first claimed each (only those claimed).
    by_card: tuple[Claimed, ...] = ()
    #: Its challenges, in the order it made them.
    calls: tuple[Call, ...] = ()


def count(steps: Iterable[tuple[Game, Sequence[Event]]]) -> tuple[Numbers, ...]:
    """Every seat's numbers from a finished game's `steps`: the deal first (with no events),
    then the game after each move with the events it made, one Game changed in place (as
    `engine.record.play` yields them). A claim is a bluff when the claimant held no
    face-down card of that character as it claimed (R6.1); a challenge is right when the
    claimant conceded (R6.4), wrong when it proved (R6.3, or R12.12.1 by showing its cards),
    and neither when it left the game before answering."""
    counts: list[_Counts] = []
    challenger: int | None = None
    claim: tuple[int, str, bool] | None = None  # the open claim: seat, card, a bluff
    held: list[list[str]] = []
    for step, (game, events) in enumerate(steps):
        if step == 0:
            counts = [_Counts() for _ in range(game.options.players)]
        for e in events:
            kind, seat = e.kind, e.seat
            if seat is None:
                continue
            if kind in ("action", "block") and e.card is not None:
                bluff = e.card not in held[seat]
                counts[seat].claim(e.card, bluff, kind == "block")
                claim = (seat, e.card, bluff)
            elif kind == "action" and e.action == C.EMBEZZLE:
                # R12.11.1: the claim of holding no Duke, false while one is held. It is no
                # character's claim (not among the claims by card), but it can be called.
                claim = (seat, C.EMBEZZLE, C.DUKE in held[seat])
            elif kind == "challenge" and claim is not None:
                challenger = seat
            elif (kind in ("prove", "disprove", "concede") and challenger is not None
                    and claim is not None):
                claimant, card, bluff = claim
                counts[challenger].calls.append(Call(claimant, card, kind == "concede"))
                if kind == "concede" and bluff and card != C.EMBEZZLE:
                    counts[claimant].caught(card)
                challenger = None
            elif (kind == "forfeit" and challenger is not None and claim is not None
                    and claim[0] == seat):
                counts[challenger].calls.append(Call(seat, claim[1], None))
                challenger = None
            elif kind == "turn":
                claim = challenger = None
        for seat, c in enumerate(counts):
            c.coins.append(game.coins[seat])
        held = [list(h) for h in game.hands]
    return tuple(c.numbers(seat) for seat, c in enumerate(counts))


class _Counts:
    """One seat's tallies while `count` reads a game."""

    def __init__(self) -> None:
        self.claimed: dict[str, list[int]] = {}  # card: [claims, bluffs, caught]
        self.blocks = 0
        self.block_bluffs = 0
        self.calls: list[Call] = []
        self.coins: list[int] = []

    def claim(self, card: str, bluff: bool, block: bool) -> None:
        tally = self.claimed.setdefault(card, [0, 0, 0])
        tally[0] += 1
        tally[1] += bluff
        if block:
            self.blocks += 1
            self.block_bluffs += bluff

    def caught(self, card: str) -> None:
        self.claimed[card][2] += 1

    def numbers(self, seat: int) -> Numbers:
        by_card = tuple(Claimed(c, *tally) for c, tally in self.claimed.items())
        return Numbers(
            seat=seat,
            claims=sum(c.claims for c in by_card),
            bluffs=sum(c.bluffs for c in by_card),
            bluffs_caught=sum(c.caught for c in by_card),
            challenges=len(self.calls),
            challenges_right=sum(1 for call in self.calls if call.right),
            blocks=self.blocks,
            block_bluffs=self.block_bluffs,
            coins=tuple(self.coins[1:]),  # after each move: the deal's coins are not one
            by_card=by_card,
            calls=tuple(self.calls),
        )


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
    seats = [SeatSummary(claims={c.card: c.claims for c in n.by_card}, bluffs=n.bluffs,
                         challenges_won=sum(1 for call in n.calls if call.right is True),
                         challenges_lost=sum(1 for call in n.calls if call.right is False))
             for n in count(_replayed(game))]
    return {"out": list(game.exiled), "seats": seats}


def _replayed(game: Game) -> Iterator[tuple[Game, list[Event]]]:
    """`game`'s moves again from its deal, as `count` reads them."""
    replay = Game.new(game.options, game.seed)
    yield replay, []
    for seat, m in game.history:
        yield replay, replay.forfeit(seat) if m is None else replay.apply(seat, m)
