"""A finished game reviewed for one seat: each of its decisions judged by the expert search
from what the seat knew then, and every seat's game in numbers.

`review` replays the record and, at each decision of the seat, gives the expert (the
`ismcts` bot's search, engine/bots/ismcts.py) exactly what the seat had: its view at that
step and the events it was shown before, fed to the expert's `observe` as a table feeds a
bot. The expert then plays out every legal option in the same sampled worlds (its
`estimate`: a fixed number of worlds, no halving) and each option's mean score is its
estimated win chance, with a 95% half-width for its uncertainty. The played option's cost is
the best option's chance less its own; a cost past a threshold, and past its own
uncertainty, marks the decision.

`numbers` reads the whole record once the game is over, every hand included: who claimed
what without the card, whose bluffs were called, whose challenges were right, who blocked,
and everyone's coins after each move.

It is pure like the rest of the engine: no I/O, no clock, no threads; a record, a seat, a
budget and a seed always give the same judgements. The search must never be given anything
the seat could not see (the test plants a card and swaps it); only `numbers`, which is
about a game that is over (R11), reads the hidden cards. It has no words: the client says
what the figures mean (client/review.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from math import sqrt
from typing import Any

from .bots.ismcts import Ismcts
from .events import Event, visible_to
from .game import Game
from .legality import DRAFT
from .moves import Move
from .record import play
from .summary import Call as Call
from .summary import Claimed as Claimed
from .summary import Numbers as Numbers
from .summary import count
from .views import View, view_of


class Budget(Enum):
    """How long the expert thinks about each decision: the worlds it plays every option
    out in (WORLDS; docs/REVIEW.md gives the figures behind them)."""

    QUICK = "quick"
    DEFAULT = "default"


#: Sampled worlds per decision, every option played out once in each. At 300, an option's
#: 95% half-width was 1.6 points typically and 4.6 at most, and the marks of 190 decisions
#: were those of 1,500 worlds but for 6; the first 40 decisions of benchmarks/review.py's
#: four-seat game take 6.3 s on one core. 32 worlds take 0.7 s: a first look (4.7 points
#: typically, 15 at most). docs/REVIEW.md has the figures.
WORLDS = {Budget.QUICK: 32, Budget.DEFAULT: 300}


class Mark(Enum):
    """How costly a decision was, by THRESHOLDS."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


#: The least cost (in win chance, 0..1) of each mark, the gravest first. An inaccuracy is
#: more than the widest half-width of any option at the default budget; a blunder costs a
#: four-seat player the whole of a fair share.
THRESHOLDS = ((Mark.BLUNDER, 0.25), (Mark.MISTAKE, 0.12), (Mark.INACCURACY, 0.06))
#: The z of a 95% interval.
Z95 = 1.96


@dataclass(frozen=True, slots=True)
class Option:
    """One legal option of a decision as the expert estimates it."""

    move: Move
    #: The expert's estimated win chance for the seat, 0..1.
    win: float
    #: Its uncertainty: the 95% half-width of the mean, in the same units.
    spread: float
    #: The worlds it was played out in.
    samples: int


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision of the reviewed seat, judged."""

    #: The record's move index this decision answered: the position is the game after the
    #: record's first `step` moves (engine.record.replay(record, step)); the played move is
    #: record["moves"][step].
    step: int
    seat: int
    #: Every legal option, best first.
    options: tuple[Option, ...]
    #: The option actually played (one of `options`).
    played: Option
    #: The best option's chance less the played one's, never below 0.
    cost: float
    #: The mark, given only when the cost passes its threshold and the best option beat
    #: the played one by more than `cost_spread`.
    mark: Mark | None
    #: The 95% half-width of the cost, from the two options' scores world by world.
    cost_spread: float = 0.0
    #: The seat's view at the decision: what it knew, and what its options are said from
    #: (a proof of an Embezzlement shows every card, of a claim one).
    view: View | None = None


def decisions(record: dict[str, Any], seat: int) -> list[int]:
    """The steps at which `seat` chose between two or more options (cheap; no search). The
    two-player draft's first pick is not among them: it is made before the deal is done,
    where the expert's worlds do not reach. RecordError for a record that does not replay;
    ValueError for a seat the game does not have."""
    moves = record["moves"]
    steps = []
    for step, (game, _) in enumerate(play(record)):
        if step == 0:
            _check_seat(game, seat)
        if step == len(moves):
            break
        made = moves[step]
        if (made["seat"] == seat and made["move"] is not None and game.phase != DRAFT
                and len(game.legal_moves(seat)) > 1):
            steps.append(step)
    return steps


def review(record: dict[str, Any], seat: int, *, budget: Budget = Budget.DEFAULT,
           seed: int = 0) -> Iterator[Judged]:
    """Judges each of decisions(record, seat) in order, one at a time (a caller shows
    progress as len(decisions) and stops by no longer iterating). Uses only what `seat`
    could see at each decision. Deterministic for a seed."""
    wanted = decisions(record, seat)
    if not wanted:
        return
    last = wanted[-1]
    wanted_set = set(wanted)
    expert = Ismcts(seed)
    moves = record["moves"]
    for step, (game, events) in enumerate(play(record)):
        if step:
            expert.observe(view_of(game, seat), visible_to(events, seat))
        if step in wanted_set:
            yield _judge(expert, view_of(game, seat), Move.from_dict(moves[step]["move"]),
                         step=step, budget=budget, seed=seed)
            if step == last:
                return


def judge(view: View, seen: Sequence[Sequence[Event]], played: Move, *, step: int = 0,
          budget: Budget = Budget.DEFAULT, seed: int = 0) -> Judged:
    """One decision judged from what its seat knew: `view` (the seat's, with a decision
    open to it), the events it was shown before, move by move, and the move it played. What
    `review` does at each step; a position (engine.position) gives the same for a puzzle:
    its game's view and its history as one batch of events."""
    expert = Ismcts(seed)
    for events in seen:
        expert.observe(view, events)
    return _judge(expert, view, played, step=step, budget=budget, seed=seed)


def _judge(expert: Ismcts, view: View, played: Move, *, step: int, budget: Budget,
           seed: int) -> Judged:
    seat = view.seat
    assert seat is not None  # a decision is a seat's
    legal = view.legal_moves()
    if played not in legal:
        raise ValueError(f"{played!r} is not a legal move of seat {seat} here")
    # Its own generator for each decision: a decision's judgement depends on the seed and
    # the step, not on what was judged before it (or whether it was).
    expert.rng = random.Random(seed * 1_000_003 + step)
    scores = expert.estimate(view, legal, WORLDS[budget])
    options = [_option(m, row) for m, row in zip(legal, scores)]
    # Best first; a tie keeps the legal moves' order, so the ranking is the same everywhere.
    order = sorted(range(len(legal)), key=lambda i: -options[i].win)
    best, chosen = order[0], legal.index(played)
    cost = max(0.0, options[best].win - options[chosen].win)
    # The two were played out in the same worlds: their difference is known better than
    # either chance, world by world.
    sure = _half_width([b - p for b, p in zip(scores[best], scores[chosen])])
    return Judged(step=step, seat=seat, options=tuple(options[i] for i in order),
                  played=options[chosen], cost=cost,
                  mark=mark_of(cost) if cost > sure else None, cost_spread=sure, view=view)


def _option(m: Move, scores: Sequence[float]) -> Option:
    return Option(move=m, win=sum(scores) / len(scores), spread=_half_width(scores),
                  samples=len(scores))


def _half_width(scores: Sequence[float]) -> float:
    """The 95% half-width of the mean of `scores` (one score alone: the widest there is,
    a half)."""
    n = len(scores)
    if n < 2:
        return 0.5
    mean = sum(scores) / n
    variance = sum((s - mean) ** 2 for s in scores) / (n - 1)
    return Z95 * sqrt(variance / n)


def mark_of(cost: float) -> Mark | None:
    """The mark a decision of this cost earns (THRESHOLDS), or None."""
    for mark, least in THRESHOLDS:
        if cost >= least:
            return mark
    return None


def numbers(record: dict[str, Any]) -> tuple[Numbers, ...]:
    """Every seat's numbers (the record is over, so every claim can be judged)."""
    return count(play(record))


def _check_seat(game: Game, seat: int) -> None:
    if type(seat) is not int or not 0 <= seat < game.options.players:
        raise ValueError(f"the game has seats 0 to {game.options.players - 1}, not {seat!r}")
