"""The server with its store, over real TCP: every accepted move is durable before anyone
sees it, a server that stops without warning resumes its tables from the file, and a store
that fails pauses the tables it holds up and loses nothing."""

from __future__ import annotations

import dataclasses
import os
import random
import re
import sqlite3
import threading
import time

import pytest
import trio
import trio.testing

from engine import record as records
from protocol import CreateTable, Join, MoveRequest, Ready, Start
from server import Server, changes
from server.changes import (
    ORDER, Change, GamePlayer, GameResult, IdentitySeen, MovePlayed, NewGame, NewTable, Prune,
    RatingsMoved, TableClosed, TableState,
)
from server.recorder import COMPANY, HOLD, QUEUE, Recorder
from server.store import MIGRATIONS, SCHEMA_VERSION, Store, StoreError, code_key
from tests.server.helpers import FullDisk, eventually, play_out, seat_table, served
from tests.server.peer import Peer, new_id


def assert_kept(store: Store, game_id: int, game) -> None:
    """The finished game's record replays through the engine to its end: the same winner,
    every move once."""
    record = store.record(game_id)
    assert records.check(record).winner == game.winner
    assert len(record["moves"]) == game.state_id


async def two_at_a_table(server: Server) -> list[Peer]:
    """Two players at a table of the server's, their game started."""
    return await seat_table(lambda name: Peer.connect(server.address[1], name), ["ana", "bruno"])


async def test_updates_are_held_until_the_store_has_the_move(db, monkeypatch):
    """Durable before visible: with the store's writes slowed down, a player's update for a
    move never arrives before the file has that move."""
    real_write = Store.write
    written = []

    def slow_write(self, changes):
        time.sleep(0.02)
        real_write(self, changes)
        written.extend(c for c in changes if isinstance(c, MovePlayed))

    monkeypatch.setattr(Store, "write", slow_write)
    async with trio.open_nursery() as nursery:
        server = await served(nursery, db)
        peers = await two_at_a_table(server)
        checked = []
        for peer in peers:
            def watched(peer=peer, read=peer.next):
                async def next_checked():
                    msg = await read()
                    if msg is not None and msg.TYPE == "update":
                        # the update arrived: its move was in the file before it was sent
                        checked.append((peer.view.state_id, len(written)))
                    return msg
                return next_checked
            peer.next = watched()
        await play_out(peers, seed=2)
        assert all(made <= stored for made, stored in checked), checked
        assert len(checked) > 10
        for peer in peers:
            await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_what_a_table_says_while_a_move_is_written_comes_after_that_move(
        db, monkeypatch):
    """The table plays on while the recorder writes its changes, so what it says meanwhile
    with nothing to write (a refusal here) waits behind the frames the move holds: the
    mover reads its move accepted, its update, then the refusal, in that order."""
    real_write = Store.write
    writing = threading.Event()

    def slow_write(self, changes):
        writing.set()
        time.sleep(0.1)
        real_write(self, changes)

    monkeypatch.setattr(Store, "write", slow_write)
    async with trio.open_nursery() as nursery:
        server = await served(nursery, db)
        peers = await seat_table(lambda name: Peer.connect(server.address[1], name),
                                 ["ana", "bruno", "chen"])
        actor = next(p for p in peers if p.seat == p.view.actor)
        state = actor.view.state_id
        first, again = (MoveRequest(id=new_id(), state_id=state, move={"kind": "income"})
                        for _ in range(2))
        writing.clear()
        await actor.send(first)
        await trio.to_thread.run_sync(writing.wait)  # the move is being written
        await actor.send(again)  # the same move again: stale, as the first was accepted
        seen = []
        while len(seen) < 3:
            msg = await actor.next()
            if msg.TYPE in ("move_accepted", "update", "move_rejected"):
                seen.append((msg.TYPE, getattr(msg, "re", None)))
        assert seen == [("move_accepted", first.id), ("update", None),
                        ("move_rejected", again.id)]
        for peer in peers:
            await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_a_server_stopped_without_warning_resumes_its_tables(db):
    """R: the same table id, private code, seats and tokens after a restart; the players
    come back with their tokens and finish the game, and the record replays to its end."""
    async with trio.open_nursery() as nursery:
        first = await served(nursery, db)

        async def connect(name):
            return await Peer.connect(first.address[1], name)

        peers = [await connect(name) for name in ("ana", "bruno", "chen")]
        joined = await peers[0].request(CreateTable(id=new_id(), options={
            "seats": 3, "private": True}))
        for peer in peers[1:]:
            assert (await peer.request(Join(id=new_id(), code=joined.code))).TYPE == "joined"
        for peer in peers:
            await peer.request(Ready(id=new_id()))
        for peer in peers:
            await peer.expect("snapshot")
        table = first.lobby.tables[peers[0].table]
        code, table_id, game_id = table.code, table.id, table.game_id
        # six moves, then the server is gone at once: no goodbye, nothing closed
        async with trio.open_nursery() as players:
            for i, peer in enumerate(peers):
                players.start_soon(peer.play_random, random.Random(i),
                                   lambda view: view.state_id >= 6)
        seen = max(p.view.state_id for p in peers)
        tokens = {p.seat: p.token for p in peers}
        nursery.cancel_scope.cancel()  # the lobby closes the store when its writer is done
    for peer in peers:
        await peer.aclose()

    async with trio.open_nursery() as nursery:
        second = await served(nursery, db)
        resumed = second.lobby.tables[table_id]
        # the code in clear is its members' alone now; the table is found by its hash
        assert resumed.private and resumed.code_hash == code_key(code)
        assert resumed.status == "playing"
        # no move any player saw accepted is missing
        assert resumed.game.state_id >= seen and resumed.game_id == game_id
        back = []
        for seat, token in sorted(tokens.items()):
            peer = await Peer.connect(second.address[1], "x", token=token)
            await peer.expect("snapshot")
            assert peer.seat == seat
            back.append(peer)
        await play_out(back, seed=3)
        assert resumed.game.over
        assert_kept(second.lobby.recorder.store, game_id, resumed.game)
        for peer in back:
            await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_the_file_is_its_owners_alone_and_of_this_schema(db):
    Store(db).close()
    assert os.stat(db).st_mode & 0o777 == 0o600
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_a_file_from_a_newer_coup_is_refused_and_left_alone(db):
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer coup"):
        Store(db)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


async def test_a_file_that_is_not_a_database_is_refused(db):
    with open(db, "wb") as f:
        f.write(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="not a coup database"):
        Store(db)


async def test_a_second_server_on_the_same_file_is_refused(db):
    first = Store(db)
    with pytest.raises(StoreError, match="another coup server"):
        Store(db)
    first.close()
    Store(db).close()


async def test_a_place_where_no_file_can_be_made_is_refused_at_startup(tmp_path):
    (tmp_path / "a-file").write_text("")
    with pytest.raises(StoreError, match="cannot use"):
        Store(str(tmp_path / "a-file" / "coup.db"))


@pytest.mark.parametrize("failure", ["full", "locked"])
async def test_a_store_that_fails_pauses_the_table_and_loses_nothing(db, failure,
                                                                      monkeypatch):
    """A full disk (the file may not grow) or a file locked by another program while a
    game is played: its players are told play is paused, the moves wait, and when writes
    succeed again play resumes and every move is in the file, in order."""
    async with trio.open_nursery() as nursery:
        server = await served(nursery, db)
        peers = await two_at_a_table(server)
        table = server.lobby.tables[peers[0].table]
        store = server.lobby.recorder.store
        if failure == "full":  # as the store says it (test_a_full_disk_is_said_so)
            disk = FullDisk(monkeypatch)
        else:
            other = sqlite3.connect(db, isolation_level=None)
            other.execute("BEGIN EXCLUSIVE")
        store._writer.execute("PRAGMA busy_timeout = 0")
        async with trio.open_nursery() as players:
            for i, peer in enumerate(peers):
                players.start_soon(peer.play_random, random.Random(i))
            await eventually(lambda: table.handover.paused)
            why = server.lobby.recorder.failing
            assert ("full" if failure == "full" else "locked") in why
            held = table.game.state_id
            await trio.sleep(0.5)
            assert table.game.state_id == held  # nothing more is played while paused
            if failure == "full":
                disk.full = False
            else:
                other.execute("ROLLBACK")
                other.close()
        assert table.game.over
        for peer in peers:  # told, both ways, with the reason
            notices = [f for f in peer.frames if f["t"] == "paused"]
            assert [f["paused"] for f in notices] == [True, False]
            assert why in notices[0]["message"] and notices[0]["table"] == table.id
        assert_kept(store, table.game_id, table.game)
        for peer in peers:
            await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_a_full_disk_is_said_so_and_the_next_write_succeeds(db):
    """SQLite's "database or disk is full" (here: the file may not grow) is a StoreError
    that says so, the batch is not written in part, and a write after room is made works."""
    store = Store(db)
    pages = store._writer.execute("PRAGMA page_count").fetchone()[0]
    store._writer.execute(f"PRAGMA max_page_count = {pages}")
    row = store.take_table_row()
    big = {"padding": "x" * 2000}
    with pytest.raises(StoreError, match="the disk is full"):
        for n in range(100):
            store.write([NewTable(row + n, f"t{n}", "n", big, None, {}, 0.0)])
    written = store._writer.execute("SELECT count(*) FROM tables").fetchone()[0]
    store._writer.execute("PRAGMA max_page_count = 1073741823")
    store.write([NewTable(row + 1000, "after", "n", big, None, {}, 0.0)])
    assert store._writer.execute("SELECT count(*) FROM tables").fetchone()[0] == written + 1
    store.close()


@pytest.mark.parametrize("version", range(0, SCHEMA_VERSION + 1))
async def test_a_file_of_any_earlier_schema_is_brought_up_to_date(db, version):
    """The migration path from every version on: a file left at `version` (0: a new, empty
    file) opens at SCHEMA_VERSION with every table the schema has."""
    with sqlite3.connect(db) as conn:
        conn.create_function("code_key", 1, code_key)  # as the store gives its migrations
        for n in range(1, version + 1):
            for statement in MIGRATIONS[n]:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {version}")
    Store(db).close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"tables", "games", "game_players", "moves", "takeovers"} <= names


async def test_a_server_that_forgets_its_tables_closes_them_and_frees_their_names(db):
    """coup play's own server (forget_tables): its player cannot come back to last time's
    table, so it is closed at startup, not resumed, and its seat's name is free again."""
    async with trio.open_nursery() as nursery:
        first = await served(nursery, db)
        peers = await two_at_a_table(first)
        nursery.cancel_scope.cancel()  # the lobby closes the store when its writer is done
    for peer in peers:
        await peer.aclose()
    async with trio.open_nursery() as nursery:
        second = await served(nursery, db, forget_tables=True)
        assert second.lobby.tables == {}
        ana = await Peer.connect(second.address[1], "ana")
        assert ana.name == "ana"  # not ana-2: no seat holds the name
        await ana.aclose()
        nursery.cancel_scope.cancel()
    assert Store(db, writer=False).open_tables() == []


async def test_bot_seats_play_on_after_a_restart(db):
    """A table of one person and three server bots, stopped without warning mid-game: after
    the restart its bots are dealt again from their kept seeds, and once the person is back
    they play the game to its end with them; the record replays to that end."""
    async with trio.open_nursery() as nursery:
        first = await served(nursery, db)
        ana = await Peer.connect(first.address[1], "ana")
        joined = await ana.request(CreateTable(id=new_id(), options={
            "seats": 4, "bots": "heuristic"}))
        assert (await ana.request(Start(id=new_id()))).TYPE == "ok"
        await ana.expect("snapshot")
        await ana.play_random(random.Random(4), lambda view: view.state_id >= 8)
        table = first.lobby.tables[joined.table]
        bots = [(s.bot.name, s.bot_seed) for s in table.seats if s.bot]
        nursery.cancel_scope.cancel()  # the lobby closes the store when its writer is done
    await ana.aclose()

    async with trio.open_nursery() as nursery:
        second = await served(nursery, db)
        resumed = second.lobby.tables[joined.table]
        assert [(s.bot.name, s.bot_seed) for s in resumed.seats if s.bot] == bots
        back = await Peer.connect(second.address[1], "ana", token=joined.token)
        await back.expect("snapshot")
        await play_out([back], seed=6)
        assert resumed.game.over
        assert_kept(second.lobby.recorder.store, resumed.game_id, resumed.game)
        await back.aclose()
        nursery.cancel_scope.cancel()


async def test_a_version_1_file_keeps_its_games_when_brought_up_to_date(db, monkeypatch):
    """A file written by the first schema (before identities and ratings) is migrated when
    opened, and its finished games are served as they were."""
    from tests.server.recorded import add_game, add_table

    monkeypatch.setattr("server.store.SCHEMA_VERSION", 1)
    # The first schema's seats had no `player` column: a seat of it was nobody's.
    monkeypatch.setattr(GamePlayer, "SQL", "INSERT INTO game_players (game, seat, name) "
                        "SELECT :game, :seat, :name WHERE :player IS NULL")
    # The first schema's games had no `rated` column: a game of it was unrated.
    monkeypatch.setattr(NewGame, "SQL", "INSERT INTO games (id, table_row, number, options, "
                        "seed, players, started) SELECT :id, :table_row, :number, :options, "
                        ":seed, :players, :started WHERE :rated = 0")
    old = Store(db)
    game_id = add_game(old, add_table(old), ["ana", "bruno", None], seed=4)
    before = old.record(game_id)
    old.close()
    monkeypatch.undo()
    store = Store(db)
    assert store.record(game_id) == before
    store.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 2


async def test_a_long_run_of_rows_is_written_whole_and_in_order(db):
    """Rows of one kind go in statements of many rows (as many as SQLite's parameters
    allow): more moves than fit one statement are all kept, in order, and a key seen twice
    in one run of identities is one identity that was seen last at the later time."""
    from tests.server.recorded import START, add_table

    store = Store(db)
    row = add_table(store)
    game_id = store.take_game_id()
    moves = 400  # over two statements' worth of 7 parameters a move
    store.write(
        [NewGame(game_id, row, 1, {"players": 2}, "1", [], START, False)]
        + [MovePlayed(game_id, n, n % 2, {"kind": "income"}, n, n, "bot")
           for n in range(moves)]
        + [IdentitySeen("aa", "ana", START, START), IdentitySeen("bb", "bia", START, START),
           IdentitySeen("aa", "ana", START, START + 9),
           GameResult(START + 1, 0, [1], game_id)])
    record = store.record(game_id)
    assert [m["state_id"] for m in record["moves"]] == list(range(moves))
    assert [m["seat"] for m in record["moves"]] == [n % 2 for n in range(moves)]
    assert sorted(store.identities()) == [("aa", "ana"), ("bb", "bia")]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT last_seen FROM identities WHERE key = 'aa'").fetchone() == (
            START + 9,)
    store.close()


async def test_a_write_of_one_statement_is_its_own_transaction(db):
    """At human pace a commit is mostly a few moves: one INSERT, sent alone (SQLite makes
    a statement its own transaction), for each statement is a step of SQLite's during which
    the writer lets the loop have the interpreter and then waits to have it back. A write
    of several statements is still one transaction, and one that fails keeps nothing."""
    from tests.server.recorded import START, add_table

    store = Store(db)
    row = add_table(store)
    game_id = store.take_game_id()
    store.write([NewGame(game_id, row, 1, {"players": 2}, "1", [], START, False)])
    sent: list[str] = []
    store._writer.set_trace_callback(sent.append)
    store.write([MovePlayed(game_id, n, n % 2, {"kind": "income"}, n, n, "bot")
                 for n in range(3)])
    assert [s.split()[0] for s in sent] == ["INSERT"]
    sent.clear()
    store.write([MovePlayed(game_id, 3, 1, {"kind": "income"}, 3, 3, "bot"),
                 TableClosed(START + 1, row)])
    assert [s.split()[0] for s in sent] == ["BEGIN", "INSERT", "UPDATE", "COMMIT"]
    with pytest.raises(StoreError):  # the same move twice: the key refuses the statement
        store.write([MovePlayed(game_id, n, 0, {"kind": "income"}, n, n, "bot")
                     for n in (4, 0)])
    store.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM moves").fetchone() == (4,)


async def test_a_run_of_updates_leaves_each_row_as_its_last_change_left_it(db):
    """Updates of one kind go in one statement (a CASE on the key): of two changes to one
    table in a run, the later stands, and every other table gets its own."""
    from tests.server.recorded import START

    store = Store(db)
    rows = [store.take_table_row() for _ in range(3)]
    store.write([NewTable(row, f"t{row}", "n", {"seats": 2}, None, {"status": "waiting"},
                          START) for row in rows])
    store.write([TableState({"seats": 2}, {"status": "playing"}, rows[0]),
                 TableState({"seats": 3}, {"status": "playing"}, rows[1]),
                 TableState({"seats": 2}, {"status": "over"}, rows[0]),
                 TableClosed(START + 5, rows[2])])
    with sqlite3.connect(db) as conn:
        kept = conn.execute("SELECT row, options, state, closed FROM tables ORDER BY row")
        assert kept.fetchall() == [
            (rows[0], '{"seats":2}', '{"status":"over"}', None),
            (rows[1], '{"seats":3}', '{"status":"playing"}', None),
            (rows[2], '{"seats":2}', '{"status":"waiting"}', START + 5)]
    store.close()


async def test_every_kind_of_change_has_its_place_in_a_write():
    kinds = {kind for kind in vars(changes).values()
             if isinstance(kind, type) and issubclass(kind, Change) and kind is not Change}
    assert len(ORDER) == len(set(ORDER)) and set(ORDER) == kinds


async def test_every_statement_of_a_change_names_each_of_its_fields_and_no_other():
    """A change's values are bound to its statement by name: each field has its place in
    the statement (none is dropped), and each place is a field (none is left unbound).
    RatingsMoved and Prune are work the store does, with no statement."""
    for kind in ORDER:
        places = set(re.findall(r":(\w+)", kind.SQL))
        if kind in (RatingsMoved, Prune):
            assert not places, kind
        else:
            assert places == {field.name for field in dataclasses.fields(kind)}, kind


async def test_a_table_waits_for_room_while_the_recorders_queue_is_full(db):
    """The recorder holds QUEUE hand-overs at most: a table then waits for `room` (and
    hands over no more) until the writer has taken the queue, and then it may go on."""
    store = Store(db)
    recorder = Recorder(store)
    delivered = []

    class Table:
        def delivered(self):
            delivered.append(1)

    for _ in range(QUEUE):
        recorder.deliver([], [], Table())
    assert not recorder.has_room()
    roomy = trio.Event()

    async def wait_for_room():
        await recorder.room()
        roomy.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(wait_for_room)
        await trio.testing.wait_all_tasks_blocked()
        assert not roomy.is_set()
        await nursery.start(recorder.run)
        with trio.fail_after(5):
            await roomy.wait()
        assert recorder.has_room()
        await eventually(lambda: len(delivered) == QUEUE)
        nursery.cancel_scope.cancel()
    store.close()


class Written:
    """Store.write counted and held: each call's size and thread, and, while `held` is
    clear, every write waits for it (a slow disk), saying so through `writing`."""

    def __init__(self, monkeypatch) -> None:
        self.sizes: list[int] = []
        self.threads: set[threading.Thread] = set()
        self.writing = threading.Event()
        self.held = threading.Event()
        self.held.set()
        write = Store.write

        def counted(store, changes):
            self.sizes.append(len(changes))
            self.threads.add(threading.current_thread())
            self.writing.set()
            self.held.wait()
            write(store, changes)

        monkeypatch.setattr(Store, "write", counted)


class Delivered:
    """A table as the recorder sees it: it counts what was delivered."""

    def __init__(self) -> None:
        self.count = 0
        self._more = trio.Event()

    def delivered(self) -> None:
        self.count += 1
        self._more.set()
        self._more = trio.Event()

    async def until(self, count: int) -> None:
        """Wait (on no clock) until `count` hand-overs were delivered."""
        while self.count < count:
            await self._more.wait()


async def test_a_change_that_comes_alone_is_written_at_once(db, monkeypatch, mock_clock):
    """At human pace moves come one by one: an idle writer writes a lone hand-over at
    once, with no wait for company (on a clock that never moves, a wait would never end)."""
    written = Written(monkeypatch)
    store = Store(db)
    recorder = Recorder(store)
    table = Delivered()
    async with trio.open_nursery() as nursery:
        await nursery.start(recorder.run)
        recorder.deliver([TableClosed(0.0, 1)], [], table)
        assert await trio.to_thread.run_sync(written.writing.wait, 5)
        await table.until(1)
        nursery.cancel_scope.cancel()
    assert written.sizes == [1]
    store.close()


async def test_what_comes_while_a_write_runs_shares_the_next_one(db, monkeypatch):
    """Group commit: while one transaction is on its way to the disk, every hand-over that
    arrives gathers into the next, so a busy server writes many moves a commit."""
    written = Written(monkeypatch)
    store = Store(db)
    recorder = Recorder(store)
    table = Delivered()
    async with trio.open_nursery() as nursery:
        await nursery.start(recorder.run)
        written.held.clear()
        recorder.deliver([TableClosed(0.0, 1)], [], table)
        assert await trio.to_thread.run_sync(written.writing.wait, 5)
        for row in (2, 3, 4):
            recorder.deliver([TableClosed(0.0, row)], [], table)
        written.held.set()
        await table.until(4)
        nursery.cancel_scope.cancel()
    assert written.sizes == [1, 3]
    store.close()


async def busy(recorder: Recorder, written: Written, table: Delivered, clock) -> None:
    """Hand-overs every 0.5 ms (30, while the first is written): a busy server."""
    written.held.clear()
    recorder.deliver([TableClosed(0.0, 1)], [], table)
    assert await trio.to_thread.run_sync(written.writing.wait, 5)
    for row in range(2, 32):
        clock.jump(0.0005)
        recorder.deliver([TableClosed(0.0, row)], [], table)
    written.held.set()
    await table.until(31)
    assert written.sizes == [1, 30]


async def test_a_busy_writer_holds_a_lone_change_until_company_comes(db, monkeypatch,
                                                                      mock_clock):
    """While hand-overs come every few ms, one that comes alone is held for COMPANY: a
    commit costs about the same whatever it holds, and they share it."""
    written = Written(monkeypatch)
    store = Store(db)
    recorder = Recorder(store)
    table = Delivered()
    async with trio.open_nursery() as nursery:
        await nursery.start(recorder.run)
        await busy(recorder, written, table, mock_clock)
        for row in range(100, 100 + COMPANY):
            mock_clock.jump(0.0005)
            recorder.deliver([TableClosed(0.0, row)], [], table)
            await trio.testing.wait_all_tasks_blocked()
        await table.until(31 + COMPANY)
        nursery.cancel_scope.cancel()
    assert written.sizes == [1, 30, COMPANY]
    store.close()


async def test_a_busy_writer_holds_a_change_for_hold_at_the_most(db, monkeypatch, mock_clock):
    """The hold for company ends HOLD after the first hand-over came, company or not."""
    written = Written(monkeypatch)
    store = Store(db)
    recorder = Recorder(store)
    table = Delivered()
    async with trio.open_nursery() as nursery:
        await nursery.start(recorder.run)
        await busy(recorder, written, table, mock_clock)
        written.writing.clear()
        mock_clock.jump(0.0005)
        recorder.deliver([TableClosed(0.0, 100)], [], table)
        await trio.testing.wait_all_tasks_blocked()
        assert not await trio.to_thread.run_sync(written.writing.wait, 0.2)  # held
        mock_clock.jump(HOLD)
        await table.until(32)
        nursery.cancel_scope.cancel()
    assert written.sizes == [1, 30, 1]
    store.close()


async def test_the_writes_run_in_one_thread_that_ends_with_the_recorder(db, monkeypatch):
    """The recorder owns one writer thread for as long as it runs: every transaction is
    handed to it (no thread started or borrowed a write), and it is gone once the recorder
    stops; a write under way when it is told to stop is finished first."""
    written = Written(monkeypatch)
    store = Store(db)
    recorder = Recorder(store)
    table = Delivered()
    async with trio.open_nursery() as nursery:
        await nursery.start(recorder.run)
        for row in range(1, 4):
            recorder.deliver([TableClosed(0.0, row)], [], table)
            await table.until(row)
        written.held.clear()
        written.writing.clear()
        recorder.deliver([TableClosed(0.0, 9)], [], table)
        assert await trio.to_thread.run_sync(written.writing.wait, 5)
        nursery.cancel_scope.cancel()
        written.held.set()
    assert table.count == 4
    assert len(written.sizes) == 4 and len(written.threads) == 1
    assert not any(thread.is_alive() for thread in written.threads)
    store.close()


async def test_keys_kept_in_upper_case_become_one_lower_case_identity(db, monkeypatch):
    """Issue 27: a store of schema 3 may hold a key in upper case, a second identity of a
    key also held in lower case. Brought up to date, each key is one identity, in lower
    case: the lower-case row (or the first seen) keeps its name, the other's is freed."""
    monkeypatch.setattr("server.store.SCHEMA_VERSION", 3)
    old = Store(db)
    a, b = "ab" * 32, "cd" * 32
    old.write([IdentitySeen(a, "ana", 1.0, 1.0), IdentitySeen(a.upper(), "anA-copy", 2.0, 2.0),
               IdentitySeen(b.upper(), "bruno", 3.0, 3.0)])
    with sqlite3.connect(db) as conn:
        conn.executemany("INSERT INTO ratings VALUES (?, ?, 30, 1, 3, 3, 0)",
                         [(f"key:{a}", "ana"), (f"key:{a.upper()}", "anA-copy"),
                          (f"key:{b.upper()}", "bruno")])
    old.close()
    monkeypatch.undo()
    store = Store(db)
    assert sorted(store.identities()) == [(a, "ana"), (b, "bruno")]
    assert {line["player"] for line in store.leaderboard()} == {f"key:{a}", f"key:{b}"}
    store.close()


def stored_codes(db: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [c for (c,) in conn.execute("SELECT code FROM tables WHERE code IS NOT NULL")]


async def joins_with(server: Server, code: str) -> str:
    """A newcomer's answer to joining with `code` typed loosely (lower case, no dashes)."""
    peer = await Peer.connect(server.address[1], "newcomer")
    try:
        return (await peer.request(Join(id=new_id(), code=code.lower().replace("-", "")))).TYPE
    finally:
        await peer.aclose()


async def test_a_private_code_is_kept_as_a_hash_and_still_opens_its_table_after_a_restart(db):
    """Issue 27: private codes were kept in the store in plain text, so whoever read the
    file (a backup) could join any private table. It keeps a hash, as for tokens."""
    async with trio.open_nursery() as nursery:
        first = await served(nursery, db)
        ana = await Peer.connect(first.address[1], "ana")
        joined = await ana.request(CreateTable(id=new_id(), options={"seats": 3,
                                                                     "private": True}))
        code = joined.code
        await eventually(lambda: stored_codes(db))
        nursery.cancel_scope.cancel()
    await ana.aclose()
    kept = stored_codes(db)
    assert len(kept) == 1 and len(kept[0]) == 64
    plain = code.replace("-", "")
    assert plain not in kept[0].upper() and code not in kept[0]
    async with trio.open_nursery() as nursery:
        second = await served(nursery, db)
        assert await joins_with(second, code) == "joined"
        assert await joins_with(second, "AAAA-BBBB-CCCC") == "error"
        nursery.cancel_scope.cancel()


async def test_a_store_of_plain_codes_is_brought_to_hashes_and_its_tables_open(db, monkeypatch):
    """A file of schema 4 kept a private table's code in plain text: brought up to date,
    it keeps the hash, and the resumed table is joined with the code as before."""
    monkeypatch.setattr("server.store.SCHEMA_VERSION", 4)
    old = Store(db)
    row = old.take_table_row()
    old.write([NewTable(row, "c0ffee", "Old", {
        "seats": 3, "variant": "base", "two_player_draft": True, "treasury": 50,
        "response_clock": 0, "turn_clock": 0, "private": True, "on_disconnect": "bot",
        "rated": False, "name": "Old"}, "K7TQ-2MXD-9PLA", {
        "status": "waiting", "creator_seat": None, "games": 0,
        "seats": [{"name": None, "token": None, "bot": None, "bot_seed": None,
                   "ready": False, "player": None}] * 3}, 1.0)])
    old.close()
    monkeypatch.undo()
    async with trio.open_nursery() as nursery:
        server = await served(nursery, db)
        assert "K7TQ" not in stored_codes(db)[0].upper()
        assert await joins_with(server, "k7tq 2mxd 9pla") == "joined"
        nursery.cancel_scope.cancel()
