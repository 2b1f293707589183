"""A table's status: whether it waits for players, plays a game, or has one over.

A `StrEnum`, so the value the lobby list, the `table` message and the store carry is the
same string it always was. This module must never hold more than the status itself.
"""

from __future__ import annotations

from enum import StrEnum


class TableStatus(StrEnum):
    """Where a table is in its life: it waits (seats fill, players get ready), plays a game,
    or has a game over (and may play a rematch)."""

    WAITING = "waiting"
    PLAYING = "playing"
    OVER = "over"
