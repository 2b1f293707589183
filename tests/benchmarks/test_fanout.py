"""benchmarks.fanout's relay: flat out, at human pace, and keeping its moves in the store."""

from __future__ import annotations

from benchmarks import fanout


def test_thinking_bots_move_at_their_pace_and_flat_out_ones_do_not() -> None:
    flat = fanout.measure(2, 1.0, 1)
    human = fanout.measure(2, 1.0, 1, think=0.1, warmup=0.2)
    # 2 tables of one seat to move a time, thinking 0.1 s: ~20 moves in the second
    assert 0 < human["moves"] < 60 < flat["moves"]
    assert flat["commits"] == human["commits"] == 0


def test_the_relay_with_the_store_commits_its_moves() -> None:
    kept = fanout.measure(2, 1.0, 1, think=0.05, store="file", warmup=0.2)
    assert kept["moves"] > 0 and kept["commits"] > 0
    # each commit holds at least one move; the moves sent after the window are written too
    assert 1.0 <= kept["moves_a_commit"]
    nothing = fanout.measure(2, 1.0, 1, think=0.05, store="nothing", warmup=0.2)
    assert nothing["moves"] > 0 and nothing["commits"] > 0
