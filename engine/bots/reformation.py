"""Reformation sense for the bots (R12): how exposed a seat's faction leaves it, which
Conversion takes it out of the line of fire, and when the Almshouse is worth an
Embezzlement.

A seat's exposure is how much of the table's attacking power may be aimed at it: each
opponent that may target it (R12.6: of the other faction while the table is divided, anyone
once it is unified) brings its force (its coins, which buy Coups and Assassinations), shared
among the seats it may aim at by how threatening each looks. A Conversion pays when it cuts
that exposure by more than its price: a seat alone in its faction against a rich other one
takes every attack, and either converting itself (unifying the table) or converting the
strongest opponent to its own side (who then may not attack it) spreads them again.

These are pure functions of what a seat may see (factions, coins, who is alive, the
Almshouse), given a threat measure by the caller; they never decide a move on their own and
never read a card the seat may not see. The heuristic (engine/bots/heuristic.py) and the
search (engine/bots/ismcts.py) weigh what they say against their other options; `Reformed`
is the search's model of the other seats, the frozen baseline taught to take the Almshouse.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .. import cards as C
from ..moves import Move
from .base import Sight, seat_of, target_of
from .baseline import Baseline

#: Coins that make a seat's force: each Coup's worth (R4) adds a full attacker, and a
#: seat with none can still Steal.
COUP_AT = C.COST[C.COUP]
#: The price of a Conversion's coin, in attackers off the seat's exposure (a seat that may
#: Coup counts 1.5 to 2): the coins feed the Almshouse, which an opponent without a Duke
#: may take next turn. A Conversion is played when it cuts the exposure by more than its
#: price. Demanding more of it lost games: against three of the heuristic as it was before
#: Reformation sense, 1,000 games each, alone at four seats, a cut of at least 0.8 more won
#: 34.8%, 0.4 more 47.8%, 0.2 more 48.2%, none 50.6%, and no Conversion at all 23.6%;
#: the coin's price barely mattered (0.05: 50.9%, 0.3: 49.3%).
CONVERT_COIN = 0.15
#: The fewest coins in the Almshouse worth a turn's Embezzlement for a seat without a Duke
#: (Foreign Aid brings 2 and may be blocked; an Embezzlement that is challenged and proved
#: costs the challenger a card), and for one holding a Duke, whose Tax brings 3 with no lie.
EMBEZZLE_AT = 2
EMBEZZLE_BLUFF_AT = 6
#: What a card lost to a called bluff is worth, in coins (a Coup's price).
CARD_COINS = C.COST[C.COUP]

Threat = Callable[[Sight, int], float]


def aims(factions: Sequence[str], alive: Sequence[bool], seat: int) -> list[int]:
    """The seats `seat` may aim a Coup, Assassination, Steal or Examine at (R12.5, R12.6):
    every other seat with influence, only those of the other faction while the living seats
    include both factions. (engine.legality.divided judges a table's own factions; these
    may be the factions a Conversion would make.)"""
    others = [t for t, a in enumerate(alive) if a and t != seat]
    if not factions:
        return others
    split = len({factions[t] for t, a in enumerate(alive) if a}) > 1
    return [t for t in others if not split or factions[t] != factions[seat]]


def force(view: Sight, seat: int) -> float:
    """How much attacking `seat` may do in the next round: half an attacker with no coins
    (a Steal), and one more for each Coup's worth of coins, counted up to the coins at
    which it must Coup (R3.4)."""
    coins = view.coins[seat]
    return 0.5 + min(coins, C.MUST_COUP) / COUP_AT


def exposure(view: Sight, factions: Sequence[str], threat: Threat) -> float:
    """How much of the table's force may fall on the viewer with these `factions`: each
    opponent that may aim at it gives its force, shared among the seats it may aim at by
    `threat` (the more threatening a seat looks, the likelier it is aimed at)."""
    me = seat_of(view)
    alive = view.alive
    total = 0.0
    for seat, living in enumerate(alive):
        if not living or seat == me:
            continue
        targets = aims(factions, alive, seat)
        if me in targets:
            weights = [max(threat(view, t), 1.0) for t in targets]
            total += force(view, seat) * max(threat(view, me), 1.0) / sum(weights)
    return total


def conversion(view: Sight, moves: Sequence[Move], threat: Threat) -> Move | None:
    """The Conversion among `moves` that cuts the viewer's exposure most for its price, if
    one cuts it by more than CONVERT_COIN a coin; else None."""
    factions = list(view.factions)
    if not factions:
        return None
    me = seat_of(view)
    now = exposure(view, factions, threat)
    best: Move | None = None
    best_gain = 0.0
    for m in moves:
        if m.kind != C.CONVERT:
            continue
        target = target_of(m)
        after = list(factions)
        after[target] = C.OTHER_FACTION[after[target]]
        gain = now - exposure(view, after, threat)
        gain -= CONVERT_COIN * C.convert_cost(me, target)
        if gain > best_gain:
            best, best_gain = m, gain
    return best


def called(calls: Sequence[float]) -> float:
    """The chance that at least one of the seats, each calling the share `calls` of the
    claims it may, challenges a claim."""
    stands = 1.0
    for share in calls:
        stands *= 1 - share
    return 1 - stands


def embezzle_pays(almshouse: int, holds_duke: bool, calls: Sequence[float]) -> bool:
    """Whether an Embezzlement of `almshouse` coins beats the seat's plain economy: always
    from EMBEZZLE_AT coins when it holds no Duke (the claim is true, and a challenge of it
    costs the challenger a card, R12.12.1); holding one, only a big Almshouse, and only when
    what it brings if it stands beats a Tax by more than a caught bluff's card costs at the
    chance that one of the opponents, who call `calls` of the claims they may, calls it."""
    if not holds_duke:
        return almshouse >= EMBEZZLE_AT
    if almshouse < EMBEZZLE_BLUFF_AT:
        return False
    risk = called(calls)
    return (1 - risk) * almshouse - risk * CARD_COINS > C.GAIN[C.TAX]


class Reformed(Baseline):
    """The frozen baseline with the one piece of Reformation sense a search's model of the
    table needs: it takes the Almshouse when it holds no Duke and the Almshouse holds at
    least a Foreign Aid's coins (EMBEZZLE_AT). Without it the playouts' seats leave the
    Almshouse alone, and coins a Conversion pays in look safe there. At a table without
    Reformation (an empty Almshouse) it plays every move as the baseline does, drawing the
    same numbers."""

    def _action(self, view: Sight, hand: list[str], moves: Sequence[Move]) -> Move:
        if view.almshouse >= EMBEZZLE_AT and C.DENIED not in hand:
            for m in moves:
                if m.kind == C.EMBEZZLE:
                    return m
        return super()._action(view, hand, moves)
