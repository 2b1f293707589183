"""benchmarks.commit_floor writes what it says it measures, and its floor adds up."""

from __future__ import annotations

import sqlite3

import pytest

from benchmarks import commit_floor


def test_bare_commits_deal_the_moves_round_the_games(tmp_path) -> None:
    cpu, walls = commit_floor.bare(str(tmp_path), 3, 4, 100, "FULL")
    assert cpu > 0 and len(walls) == 100
    conn = sqlite3.connect(tmp_path / "bare-FULL-3.db")
    by_game = dict(conn.execute("SELECT game, count(*) FROM moves GROUP BY game"))
    each = (commit_floor.WARM + 100) * 3 // 4  # the untimed commits first
    assert by_game == {0: each, 1: each, 2: each, 3: each}


def test_the_store_writes_the_same_moves(tmp_path) -> None:
    cpu, python = commit_floor.store(str(tmp_path), 2, 4, 100)
    assert 0 < python < cpu
    conn = sqlite3.connect(tmp_path / "store-2.db")
    assert conn.execute("SELECT count(DISTINCT game), count(*) FROM moves").fetchone() == (
        4, (commit_floor.WARM + 100) * 2)


def test_the_floor_is_a_commit_and_a_hand_over_shared_by_its_moves() -> None:
    found = commit_floor.measure([1, 4], games=8, commits=100)
    trip = found["handover_cpu_us"]
    assert trip > 0 and found["timer_wake_cpu_us"] > 0
    for row in found["rows"]:
        assert row["floor_us_a_move"] == pytest.approx(
            (row["bare_full_cpu_us"] + trip) / row["moves"], abs=0.2)
        assert row["bare_full_wall_p50_ms"] <= row["bare_full_wall_p99_ms"]
