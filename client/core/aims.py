"""Whom a targeted action may name now, what it costs, and why a seat it may not name is
refused: what a target picker offers (Coup, Assassinate, Steal, Examine, and Reformation's
Conversion, which may name oneself).

Every answer is the engine's legality asked on the client's own view (`View.check`, the
code the server checks the move with), never a second table of rules. It must never import
trio, Textual or a front end.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import IllegalMove, Move, View, move
from engine.cards import CONVERT, COST, convert_cost


@dataclass(frozen=True, slots=True)
class Aim:
    """One seat an action could name: the move naming it, the coins it costs the viewer,
    and the engine's refusal code when the viewer may not make it now (None: legal)."""

    seat: int
    move: Move
    cost: int
    refused: str | None


def aims(view: View, kind: str) -> tuple[Aim, ...]:
    """Every seat with influence that a `kind` move by the viewer could name, in seat order:
    the others, and the viewer too for a Conversion (R12.9.1). () for a spectator."""
    me = view.seat
    if me is None:
        return ()
    found = []
    for seat, alive in enumerate(view.alive):
        if not alive or (seat == me and kind != CONVERT):
            continue
        mv = move(kind, target=seat)
        cost = convert_cost(me, seat) if kind == CONVERT else COST.get(kind, 0)
        try:
            view.check(mv)
        except IllegalMove as exc:
            found.append(Aim(seat, mv, cost, exc.code))
        else:
            found.append(Aim(seat, mv, cost, None))
    return tuple(found)
