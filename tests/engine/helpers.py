"""Small steps the engine's scenario tests share."""

from __future__ import annotations

import pytest

from engine import Game, IllegalMove, move

PASS = move("pass")


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def only(events, kind: str):
    """The one event of `kind` (the test fails if there are none or several)."""
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, (kind, events)
    return found[0]


def total(game: Game) -> int:
    """Coins in play and in the treasury (R1.5: always the options' total)."""
    return game.treasury + sum(game.coins)


def pass_window(game: Game) -> list:
    """Every seat the open response window waits for passes; the events, in order."""
    events = []
    for seat in tuple(game.waiting):
        events += game.apply(seat, PASS)
    return events


def refused(game: Game, seat: int, m) -> str:
    """The code `game` refuses `m` from `seat` with."""
    with pytest.raises(IllegalMove) as info:
        game.apply(seat, m)
    return info.value.code
