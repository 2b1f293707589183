"""Asking a strategy what it plays in a position: the bot writer's test bench.

`choose_at(strategy, position)` builds the game of a `Position` (engine.position: a value,
or a TOML file such as those of docs/examples/positions) and hands the strategy the seat's
view and legal moves exactly as a table does, then returns its move. What the strategy
remembers is the position's history (its public events, given to `observe` first); with
none it starts as fresh as at a new table, knowing only what the table shows.

It never plays the move on and never stands in for a table's safety net: a strategy that
returns a move outside the legal ones is an error here (ValueError), not R10's default move,
so that a bot's test fails loudly.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..moves import Move
from ..position import Position
from .base import Strategy


def choose_at(strategy: Strategy | str, position: Position | str | os.PathLike[str],
              seat: int | None = None, seed: int = 0) -> Move:
    """The move `strategy` (an instance, or a strategy or level name made with `seed`) plays
    in `position` (a Position, or the path of its TOML file) for `seat` (None: the first
    seat that owes the open decision). ValueError when `seat` owes no decision there, or
    when the strategy answers with a move that is not legal; PositionError when the rules
    do not allow the position."""
    if isinstance(strategy, str):
        from . import make  # the package imports this module before it defines make

        strategy = make(strategy, seed)
    if not isinstance(position, Position):
        position = Position.load(os.fspath(position))
    game = position.game()
    if not game.waiting:
        raise ValueError("No seat owes a decision in this position: the game is over.")
    if seat is None:
        seat = game.waiting[0]
    elif seat not in game.waiting:
        raise ValueError(f"Seat {seat} owes no decision in this position; "
                         f"{_seats(game.waiting)} the {game.phase} decision.")
    moves = game.legal_moves(seat)
    view = game.view(seat)
    if position.history:
        strategy.observe(view, list(position.history))
    chosen = strategy.choose(view, moves)
    if chosen not in moves:
        raise ValueError(f"{strategy.name or type(strategy).__name__} chose {chosen!r} for "
                         f"seat {seat}, which is not one of its {len(moves)} legal moves.")
    return chosen


def _seats(waiting: Sequence[int]) -> str:
    """Who owes the decision, as the start of a sentence's clause."""
    if len(waiting) == 1:
        return f"seat {waiting[0]} owes"
    return "seats " + ", ".join(map(str, waiting)) + " owe"
