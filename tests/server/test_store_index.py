"""The leaderboard is read off an index of the ratings by ordinal (the schema's version 3),
where each request sorted the whole table; a file of version 2 gets it when opened and keeps
its leaderboard."""

from __future__ import annotations

import sqlite3

from server.store import RATING, SCHEMA_VERSION, Store

#: The leaderboard's query, as Store.leaderboard asks it.
LEADERBOARD = ("SELECT player, name, mu, sigma, games, wins FROM ratings WHERE games >= ? "
               "ORDER BY mu - 3 * sigma DESC, player LIMIT ? OFFSET ?")


async def test_a_version_2_file_gets_the_ordinal_index_and_keeps_its_leaderboard(
        tmp_path, monkeypatch):
    path = str(tmp_path / "v2.db")
    monkeypatch.setattr("server.store.SCHEMA_VERSION", 2)
    old = Store(path)
    old._writer.executemany(RATING, [(f"key:{n:02x}", f"p{n}", 20 + n % 7, 8 - n % 5, n, 0,
                                      0.0) for n in range(30)])
    before = old.leaderboard(0, 25)
    old.close()
    monkeypatch.undo()
    store = Store(path)
    assert store.leaderboard(0, 25) == before
    store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        plan = [step[3] for step in conn.execute("EXPLAIN QUERY PLAN " + LEADERBOARD,
                                                 (10, 20, 0))]
    # Read in the index's order, not sorted apart.
    assert any("USING INDEX ratings_ordinal" in step for step in plan), plan
    assert not any("TEMP B-TREE" in step for step in plan), plan
