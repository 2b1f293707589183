"""A store file damaged for real (random bytes over its pages, the file cut short): a table
whose record cannot be read is set aside, closed and logged, and its players are told why
when they come back; every other table resumes and plays on. A file too damaged to list
its tables stops `coup serve` with one line saying what to do, and exit status 2."""

from __future__ import annotations

import logging
import sqlite3

import pytest
import trio

from protocol import Error
from server import Server, ServerConfig
from server.seats import token_key
from server.store import Store, StoreError
from tests.server.test_crash import COUP
from tests.server.damage import moves_pages, overwrite, pages_of, truncate
from tests.server.helpers import play_out
from tests.server.peer import Peer
from tests.server.recorded import add_game, add_running_table, add_table

HEALTHY = ["fine0", "fine1", "fine2"]


@pytest.fixture
def db(tmp_path) -> str:
    """A server's store with a history (24 finished games), three tables in play, and a
    fourth in play whose game's newest moves are on pages of their own, overwritten with
    random bytes: its record cannot be read. Finished games lie between the healthy
    tables' moves and the damaged pages: SQLite balances a page it writes with its
    neighbours, and a write next to the damage would fail (and pause its table)."""
    path = str(tmp_path / "coup.db")
    store = Store(path)
    for n in range(20):
        add_game(store, add_table(store, f"old{n:03d}"), ["ana", "bruno", None], seed=n)
    for n, table in enumerate(HEALTHY):
        add_running_table(store, table, 3, seed=100 + n, moves=12)
    for n in range(4):
        add_game(store, add_table(store, f"later{n}"), ["ana", "bruno"] + [None] * 4, seed=n)
    store.close()
    pages = moves_pages(path, lambda s: add_running_table(s, "broken", 6, seed=9, moves=70))
    assert pages
    overwrite(path, pages[-2:], seed=28)
    return path


async def served(nursery, db: str) -> Server:
    # The finished games are guests' games of January 2026: retention would prune them as the
    # server starts, writing beside the damaged pages while the test runs.
    server = Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0, db=db,
                                 keep_guest_games=0))
    await nursery.start(server.serve)
    return server


async def test_a_damaged_table_is_set_aside_and_every_other_table_resumes(db, caplog):
    with caplog.at_level(logging.ERROR, logger="coup.server"):
        async with trio.open_nursery() as nursery:
            server = await served(nursery, db)
            assert sorted(server.lobby.tables) == HEALTHY
            # a healthy table's people come back with their tokens and finish their game
            back = []
            for seat in range(3):
                peer = await Peer.connect(server.address[1], "x", token=f"token-fine1-{seat}")
                await peer.expect("snapshot")
                assert peer.seat == seat
                back.append(peer)
            await play_out(back, seed=5)
            assert server.lobby.tables["fine1"].game.over
            # the damaged table's player is told why its seat is gone
            lost = await Peer.connect(server.address[1], "x", token="token-broken-3")
            told = await lost.expect("error")
            assert told.code == "bad_token" and "damaged" in told.message
            assert "broken" in told.message
            for peer in [*back, lost]:
                await peer.aclose()
            nursery.cancel_scope.cancel()
    assert [r.getMessage() for r in caplog.records if r.fields.get("table") == "broken"] == [
        "table_damaged"]
    # and the file is not pruned (retention): removing rows beside the damaged pages would
    # fail, and hold every table's writes up behind it
    assert "store_damaged" in [r.getMessage() for r in caplog.records]
    # closed in the store: the next start does not try it again
    assert [t["id"] for t in Store(db, writer=False).open_tables()] == HEALTHY


@pytest.mark.parametrize("index", ["tables_open", "games_of_table"])
async def test_a_damaged_index_is_read_around_and_every_table_resumes(db, index):
    """An index is only a faster way to the rows: with its pages damaged, the tables it
    leads to are read without it."""
    overwrite(db, pages_of(db, index), seed=3)
    async with trio.open_nursery() as nursery:
        server = await served(nursery, db)
        assert sorted(server.lobby.tables) == HEALTHY
        nursery.cancel_scope.cancel()


async def test_a_stranger_with_a_made_up_token_is_not_told_of_damage(db):
    async with trio.open_nursery() as nursery:
        server = await served(nursery, db)
        for token in ("token-broken-9", "", "x" * 64, "token-fine0-0\x00"):
            peer = await Peer.connect(server.address[1], "x", token=token or None)
            if token:
                told = await peer.expect("error")
                assert told == Error(code="bad_token", message="That seat is no longer yours.")
            await peer.aclose()
        nursery.cancel_scope.cancel()


async def refused(db: str) -> str:
    """What `coup serve --db DB` says on stderr, having exited with status 2."""
    done = await trio.run_process(COUP + ["serve", "--port", "0", "--db", db], check=False,
                                  capture_stdout=True, capture_stderr=True)
    assert done.returncode == 2 and done.stdout == b""
    return done.stderr.decode()


async def test_a_file_whose_header_is_damaged_is_one_line_and_exit_2(db):
    overwrite(db, [1], seed=1)
    said = await refused(db)
    assert said.count("\n") == 1 and said.startswith("coup serve: --db: cannot use")
    assert "damaged" in said and "restore your latest backup (docs/SERVER.md)" in said


async def test_a_file_cut_short_is_one_line_naming_what_to_do_and_exit_2(db):
    truncate(db, 0.05)
    said = await refused(db)
    assert said.count("\n") == 1 and "damaged (database disk image is malformed)" in said
    assert "restore your latest backup (docs/SERVER.md)" in said and ".recover" in said


async def test_a_record_that_reads_but_does_not_replay_is_set_aside_too(tmp_path):
    """Damage SQLite cannot see (a move changed into one the rules refuse): the table's
    game does not replay, so it is set aside as damaged, its seats' tokens lead nowhere
    and say why, and the other table resumes."""
    path = str(tmp_path / "coup.db")
    store = Store(path)
    add_running_table(store, "fine0", 3, seed=100, moves=12)
    row, _ = add_running_table(store, "broken", 3, seed=101, moves=12)
    store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE moves SET move = '{\"kind\":\"coup\",\"target\":5}' WHERE n = 8 "
                     "AND game = (SELECT id FROM games WHERE table_row = ?)", (row,))
    conn.close()
    async with trio.open_nursery() as nursery:
        server = await served(nursery, path)
        assert list(server.lobby.tables) == ["fine0"]
        assert token_key("token-broken-0") not in server.lobby.tokens
        lost = await Peer.connect(server.address[1], "x", token="token-broken-0")
        told = await lost.expect("error")
        assert told.code == "bad_token" and "damaged" in told.message
        await lost.aclose()
        nursery.cancel_scope.cancel()


async def test_a_store_that_cannot_close_the_damaged_table_still_serves_the_others(
        db, monkeypatch, caplog):
    """Closing the damaged table is tried once: a store that refuses the write (full, say)
    leaves it to be set aside again at the next start, and the server starts meanwhile."""
    def full(self, changes):
        raise StoreError("the disk is full")

    monkeypatch.setattr(Store, "write", full)
    with caplog.at_level(logging.ERROR, logger="coup.server"):
        async with trio.open_nursery() as nursery:
            server = await served(nursery, db)
            assert sorted(server.lobby.tables) == HEALTHY
            nursery.cancel_scope.cancel()
    assert "damaged_tables_not_closed" in [r.getMessage() for r in caplog.records]
    monkeypatch.undo()
    assert [t["id"] for t in Store(db, writer=False).open_tables()] == [*HEALTHY, "broken"]


async def test_a_damaged_tables_own_id_is_not_told_as_it_was_stored(tmp_path):
    """The id a damaged table was stored under is read from the damaged file too: the
    sentence that names it keeps to a table id's size and to what a terminal shows."""
    path = str(tmp_path / "coup.db")
    store = Store(path)
    row, _ = add_running_table(store, "broken", 3, seed=101, moves=12)
    store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE moves SET move = '{\"kind\":\"coup\",\"target\":5}' WHERE n = 8 "
                     "AND game = (SELECT id FROM games WHERE table_row = ?)", (row,))
        conn.execute("UPDATE tables SET id = ? WHERE row = ?", ("\x1b[2J" + "x" * 5000, row))
    conn.close()
    async with trio.open_nursery() as nursery:
        server = await served(nursery, path)
        lost = await Peer.connect(server.address[1], "x", token="token-broken-0")
        told = await lost.expect("error")
        assert told.code == "bad_token" and "damaged" in told.message
        assert "\x1b" not in told.message and "xxxxxxx" not in told.message
        await lost.aclose()
        nursery.cancel_scope.cancel()
