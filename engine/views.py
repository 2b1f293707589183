"""Views: what one viewer may know of a game, built by adding only that (R11).

A view starts empty and receives the public table — coins, face-up cards, face-down counts,
the treasury, the deck's size, the open decision — and then the viewer's own secrets: its
hand, an Exchange's draw while it exchanges, an Examine's card it showed or was shown, its
draft set. Nothing is ever copied whole from the game and pruned. The deck order, the
removed draft cards and the random generator appear in no view; only `reveal_of`, once the
game is over, shows every hand.

A View has the attributes legality reads, so `legal_moves(view, view.seat)` answers exactly
as the server would. `to_dict`/`from_dict` carry a view over the wire as plain data.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .legality import OVER, check, legal_moves
from .moves import Move
from .options import Options


@dataclass(frozen=True, slots=True)
class View:
    """One viewer's knowledge of the table at one state.

    seat: the viewer (None for a spectator or the full reveal). Per seat, indexed by seat
    number: coins, alive, influence (face-down count), revealed (face-up cards), and hands
    (face-down cards: the viewer's own, every seat's in a reveal, None where unknown).
    phase/waiting/opened: the open decision, who owes it, the state_id it opened at.
    actor/action/target: the turn; step/claimant/claim: the open response window or the
    challenge being answered; challenger, blocker/block_card; reason: why a seat loses a
    card; keep_count: how many an Exchange keeps. drawn: an Exchange's draw (the exchanger
    only); shown: an Examine's card (those two only); draft_sets: a seat's draft set (its
    own only). exiled: seats in the order they went out; winner once the game is over.
    """

    options: Options
    seat: int | None
    state_id: int
    phase: str
    waiting: tuple[int, ...]
    opened: int
    coins: tuple[int, ...]
    alive: tuple[bool, ...]
    influence: tuple[int, ...]
    revealed: tuple[tuple[str, ...], ...]
    hands: tuple[tuple[str, ...] | None, ...]
    treasury: int
    deck_size: int
    first_seat: int
    actor: int | None
    action: str | None
    target: int | None
    step: str | None
    claimant: int | None
    claim: str | None
    challenger: int | None
    blocker: int | None
    block_card: str | None
    reason: str | None
    keep_count: int | None
    drawn: tuple[str, ...]
    shown: str | None
    draft_sets: tuple[tuple[str, ...] | None, ...]
    exiled: tuple[int, ...]
    winner: int | None

    @property
    def alive_mask(self) -> int:
        return sum(1 << s for s, a in enumerate(self.alive) if a)

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def legal_moves(self, seat: int | None = None) -> tuple[Move, ...]:
        """The moves `seat` (by default the viewer) may make now."""
        seat = self.seat if seat is None else seat
        return () if seat is None else legal_moves(self, seat)

    def check(self, m: Move) -> None:
        """Raise IllegalMove, with the server's code, unless the viewer may make `m` now."""
        if self.seat is None:
            from .errors import IllegalMove

            raise IllegalMove("not_your_turn", "Spectators do not play.")
        check(self, self.seat, m)

    def to_dict(self) -> dict:
        """Plain data for the wire: lists for tuples, options as a map, unknowns as None."""
        d = {"options": self.options.to_dict()}
        for name in _FIELDS:
            value = getattr(self, name)
            if name in _NESTED:
                value = [None if v is None else list(v) for v in value]
            elif type(value) is tuple:
                value = list(value)
            d[name] = value
        return d

    @classmethod
    def from_dict(cls, data: dict) -> View:
        """A View from `to_dict` data. The shape is the protocol's to check; a missing
        field raises KeyError and a wrong option OptionsError."""
        values = {}
        for name in _FIELDS:
            value = data[name]
            if name in _NESTED:
                value = tuple(None if v is None else tuple(v) for v in value)
            elif type(value) is list:
                value = tuple(value)
            values[name] = value
        values["options"] = Options.from_dict(data["options"])
        return cls(**values)


_FIELDS = tuple(f.name for f in fields(View) if f.name != "options")
_NESTED = frozenset({"hands", "draft_sets", "revealed"})


def _public(g) -> dict:
    """The part of a view everyone may see: the same for every seat and for spectators."""
    n = g.options.players
    return dict(
        options=g.options,
        state_id=g.state_id,
        phase=g.phase,
        waiting=tuple(g.waiting),
        opened=g.opened,
        coins=tuple(g.coins),
        alive=tuple(g.alive),
        influence=tuple(len(g.hands[s]) for s in range(n)),
        revealed=tuple(tuple(r) for r in g.revealed),
        treasury=g.treasury,
        deck_size=len(g.deck),
        first_seat=g.first_seat,
        actor=g.actor,
        action=g.action,
        target=g.target,
        step=g.step,
        claimant=g.claimant,
        claim=g.claim,
        challenger=g.challenger,
        blocker=g.blocker,
        block_card=g.block_card,
        reason=g.reason,
        keep_count=g.keep_count,
        exiled=tuple(g.exiled),
        winner=g.winner,
    )


def _secrets(g, seat: int | None) -> tuple[list, list, list, str | None]:
    """What only `seat` may see, added to the public table: its hand, its draft set, an
    Exchange's draw while it exchanges, an Examine's card it showed or was shown (R11)."""
    n = g.options.players
    hands: list = [None] * n
    draft_sets: list = [None] * n
    drawn: list = []
    shown = None
    if seat is not None:
        hands[seat] = list(g.hands[seat])
        if g.draft_sets[seat] is not None:
            draft_sets[seat] = list(g.draft_sets[seat])
        if g.drawn and seat == g.actor:
            drawn = list(g.drawn)
        if g.shown is not None and seat in (g.actor, g.target):
            shown = g.shown
    return hands, draft_sets, drawn, shown


def view_of(g, seat: int | None) -> View:
    """The view of `seat` (None for a spectator): the public table plus its own secrets."""
    hands, draft_sets, drawn, shown = _secrets(g, seat)
    return View(
        seat=seat,
        hands=tuple(None if h is None else tuple(h) for h in hands),
        draft_sets=tuple(None if d is None else tuple(d) for d in draft_sets),
        drawn=tuple(drawn),
        shown=shown,
        **_public(g),
    )


def reveal_of(g) -> View:
    """Every hand shown to everyone: allowed only once the game is over (R11)."""
    if g.phase != OVER:
        raise ValueError("Cards are revealed only when the game is over.")
    n = g.options.players
    return View(
        seat=None,
        hands=tuple(tuple(g.hands[s]) for s in range(n)),
        draft_sets=(None,) * n,
        drawn=(),
        shown=None,
        **_public(g),
    )


def public_dict(g) -> dict:
    """The public part of every viewer's view, already in to_dict form: build it once per
    move and add each viewer's own secrets with `view_dict` (the server's fast path)."""
    n = g.options.players
    return {
        "options": g.options.to_dict(),
        "state_id": g.state_id,
        "phase": g.phase,
        "waiting": list(g.waiting),
        "opened": g.opened,
        "coins": list(g.coins),
        "alive": list(g.alive),
        "influence": [len(g.hands[s]) for s in range(n)],
        "revealed": [list(r) for r in g.revealed],
        "treasury": g.treasury,
        "deck_size": len(g.deck),
        "first_seat": g.first_seat,
        "actor": g.actor,
        "action": g.action,
        "target": g.target,
        "step": g.step,
        "claimant": g.claimant,
        "claim": g.claim,
        "challenger": g.challenger,
        "blocker": g.blocker,
        "block_card": g.block_card,
        "reason": g.reason,
        "keep_count": g.keep_count,
        "exiled": list(g.exiled),
        "winner": g.winner,
    }


def view_dict(g, seat: int | None, public: dict) -> dict:
    """`view_of(g, seat).to_dict()`, made by adding the viewer's secrets to `public`."""
    d = dict(public)
    d["seat"] = seat
    d["hands"], d["draft_sets"], d["drawn"], d["shown"] = _secrets(g, seat)
    return d
