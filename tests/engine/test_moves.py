"""Reading moves: what a client sends is judged and forgotten, never kept.

Issue 11, defect 3: `move()` kept one object per distinct move it was asked for, and the
server reads every move a client sends through it, so ever new targets grew the server
without end. The moves the engine can offer are shared objects made once; anything else is a
fresh value that is refused and collected.
"""

from __future__ import annotations

import gc
import tracemalloc

import pytest

from engine import Game, IllegalMove, Move, Options, move

#: Distinct targets read, as issue 11 states the defect.
DISTINCT = 100_000


def test_reading_100000_distinct_targets_leaves_memory_flat() -> None:
    targets = [t if t % 2 else -t for t in range(10, 10 + DISTINCT)]
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for t in targets:
            Move.from_dict({"kind": "coup", "target": t})
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 16 * 1024, f"{grown:,} bytes kept after reading {DISTINCT:,} moves"


def test_a_target_that_is_no_seat_is_read_and_refused_as_bad_target() -> None:
    """R3.5: a target outside the table is a bad_target, however large."""
    g = Game.arrange(hands=[["duke", "captain"], ["contessa", "assassin"],
                            ["duke", "ambassador"]], coins=[7, 2, 2])
    for t in (3, 10, -1, 2**31, -(2**63)):
        m = Move.from_dict({"kind": "coup", "target": t})
        assert m == Move("coup", target=t)
        with pytest.raises(IllegalMove) as refused:
            g.apply(0, m)
        assert refused.value.code == "bad_target"
    assert g.state_id == 0


def test_every_move_the_engine_offers_is_one_shared_object() -> None:
    """Legality compares a move with the offered ones; the same object makes that an
    identity check. Moves read from data and made with move() are those very objects."""
    for players, variant in ((2, "base"), (6, "inquisitor"), (10, "base")):
        g = Game.new(Options(players=players, variant=variant), seed=players)
        while not g.over:
            seat = g.waiting[0]
            moves = g.legal_moves(seat)
            for m in moves:
                assert Move.from_dict(m.to_dict()) is m
                assert move(*m) is m
            g.apply(seat, moves[g.state_id % len(moves)])
