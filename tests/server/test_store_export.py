"""Store.export (`coup records export`) reads the finished games while the server may go on
writing the same file: a game that retention prunes meanwhile is simply no longer there.

The store is filled by tests/server/recorded.py (random bots through the engine).
"""

from __future__ import annotations

import sqlite3

from server.store import Store
from tests.server.recorded import add_game, add_table


async def test_a_game_pruned_while_the_export_reads_is_left_out(db):
    """The export lists the finished games, then reads them one by one; the server's
    retention deletes the second in between (as its writer may at any time). The export
    gives the first record and nothing else: no empty record in the file it writes."""
    store = Store(db)
    row = add_table(store)
    first = add_game(store, row, ["ana", "bruno"], seed=1)
    second = add_game(store, row, ["ana", "bruno"], seed=2, number=2)
    exported = store.export()
    assert next(exported)["game"] == first
    with sqlite3.connect(db) as other_writer:
        other_writer.execute("DELETE FROM games WHERE id = ?", (second,))
    assert list(exported) == []
    store.close()
