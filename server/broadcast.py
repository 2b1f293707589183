"""What a table shows its viewers: each one's own view of the game, built for that viewer.

The audience is every connected seated player and every spectator. After a move each of
them gets a complete view with the events it may see and the deadlines (R11), built by
adding what that viewer may see, never by removing secrets; the public part is checked and
packed once a move, and every spectator's update is one frame. A newcomer's snapshot holds
the game's recent events it may see. This module builds frames only: it must never send
them (the table's hand-over does, once the move is durable), nor change the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from engine import Event, Game, visible_to
from engine.views import public_dict, view_dict
from protocol import Snapshot
from protocol.codec import Frame, UpdateFrames

from .seats import Seats
from .session import Session


def audience(seats: Seats, spectators: Iterable[Session]) -> Iterator[tuple[Session, int | None]]:
    """(session, seat) for every connected seated player and spectator (seat None)."""
    for seat in seats:
        if seat.session is not None:
            yield seat.session, seat.index
    for spectator in spectators:
        yield spectator, None


def updates(table_id: str, game: Game, events: list[Event], deadlines: list[dict[str, Any]],
            summary: dict[str, Any] | None,
            viewers: Iterable[tuple[Session, int | None]]) -> Iterator[tuple[Session, Frame]]:
    """Each viewer's update after a move that caused `events`: its own view, the events it
    may see, the deadlines, and once the game is over the full reveal and `summary`."""
    reveal = game.reveal().to_dict() if game.over else None
    # The public view is checked and packed once per move; each viewer's own additions
    # (its secrets, its events) are checked and packed for that viewer alone.
    as_dicts = {e: e.to_dict() for e in events}
    frames = UpdateFrames(table_id, public_dict(game), list(as_dicts.values()), deadlines,
                          reveal, summary)
    watched = None  # every spectator's update is the same frame, made once
    for session, seat in viewers:
        if seat is not None:
            yield session, frames.frame(view_dict(game, seat, {}),
                                        [as_dicts[e] for e in visible_to(events, seat)])
        else:
            if watched is None:
                watched = frames.frame(view_dict(game, None, {}),
                                       [as_dicts[e] for e in visible_to(events, None)])
            yield session, watched


def snapshot(table_id: str, game: Game, seats: Seats, deadlines: list[dict[str, Any]],
             summary: dict[str, Any] | None, recent: Iterable[Event],
             seat: int | None) -> Snapshot:
    """The whole game as `seat` (None: a spectator) may see it, for who arrives or comes
    back: its view, the players, the deadlines and the recent events it may see."""
    return Snapshot(
        table=table_id,
        view=game.view(seat).to_dict(),
        players=seats.info(),
        deadlines=deadlines,
        reveal=game.reveal().to_dict() if game.over else None,
        summary=summary,
        events=[e.to_dict() for e in visible_to(list(recent), seat)],
    )
