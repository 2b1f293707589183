"""benchmarks.review reviews the game it says, as many decisions as asked, and its figures
add up."""

from __future__ import annotations

from benchmarks import review as bench
from engine.review import WORLDS, Budget, decisions


def test_the_yardstick_is_the_first_game_with_enough_decisions_and_its_busiest_seat():
    record, seat = bench.yardstick(4, 30)
    counts = [len(decisions(record, s)) for s in range(4)]
    assert counts[seat] == max(counts) >= 30
    for seed in range(1, record["seed"]):  # no earlier seed gives a seat that many
        earlier = bench.played(seed, 4)
        assert max(len(decisions(earlier, s)) for s in range(4)) < 30


def test_a_timed_review_counts_the_decisions_asked_for():
    record, seat = bench.yardstick(3, 10)
    row = bench.timed(record, seat, Budget.QUICK, 4)
    assert (row["budget"], row["worlds"], row["decisions"]) == ("quick", WORLDS[Budget.QUICK], 4)
    assert row["options"] >= 8  # two or more options a decision
    assert row["cpu_ms_per_decision"] > 0 and row["wall_ms_per_decision"] > 0
