"""Backups, over real TCP and on the file: `coup backup` copies a running server's store
without stopping it, the copy restores (copied back, a server started on it) with every
table at the moves the backup held, and `coup serve --backup-dir` takes them on a schedule
in a worker thread, keeping the newest `--backup-keep`."""

from __future__ import annotations

import logging
import os
import random
import shutil
import stat
import threading

import pytest
import trio

from client.cli import main as coup
from server import backups
from server.store import Store, StoreError
from tests.server.helpers import catch_up, eventually, seat_table, served
from tests.server.peer import Peer


async def play_until(peers, state_id: int, seed: int) -> int:
    """Random moves at the peers' table until a view reaches `state_id`; returns the state
    every peer has seen once the last accepted move reached them all (so it is durable)."""
    async with trio.open_nursery() as nursery:
        for i, peer in enumerate(peers):
            nursery.start_soon(peer.play_random, random.Random(seed * 10 + i),
                               lambda view: view.state_id >= state_id)
    last = max(peer.view.state_id for peer in peers)
    for peer in peers:
        await catch_up(peer, last)
    return last


async def test_a_backup_taken_mid_play_restores_and_resumes_at_its_moves(db, tmp_path):
    """Two tables in play; `coup backup` copies the store while the server runs; both play
    on. The copy, copied to a new path and served, resumes each table at the last move the
    backup held, and its players come back with their tokens to exactly that state."""
    dest = str(tmp_path / "backup.db")
    async with trio.open_nursery() as nursery:
        first = await served(nursery, db)

        async def connect(name):
            return await Peer.connect(first.address[1], name)

        tables = [await seat_table(connect, [f"a{n}", f"b{n}"]) for n in range(2)]
        held = {}
        for n, peers in enumerate(tables):
            held[peers[0].table] = await play_until(peers, 3 + n, seed=n)
        tokens = {peers[0].table: {p.seat: p.token for p in peers} for peers in tables}
        status = await trio.to_thread.run_sync(coup, ["backup", "--db", db, dest])
        assert status == 0
        for n, peers in enumerate(tables):  # play goes on after the backup
            assert await play_until(peers, held[peers[0].table] + 3, seed=5 + n) > held[
                peers[0].table]
        assert stat.S_IMODE(os.stat(dest).st_mode) == 0o600

        restored = str(tmp_path / "restored.db")
        shutil.copy(dest, restored)
        second = await served(nursery, restored)
        for table, state_id in held.items():
            assert second.lobby.tables[table].game.state_id == state_id
            for seat, token in tokens[table].items():
                peer = await Peer.connect(second.address[1], "x", token=token)
                snapshot = await peer.expect("snapshot")
                assert peer.seat == seat and snapshot.view["state_id"] == state_id
                await peer.aclose()
        for peers in tables:
            for peer in peers:
                await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_a_backup_never_overwrites_a_file_unless_forced(db, tmp_path, capsys):
    """DEST that exists is refused (one line, status 2, the file untouched); --force
    replaces it with a copy. The store itself is never a backup's DEST, forced or not."""
    Store(db).close()
    dest = tmp_path / "kept.db"
    dest.write_text("an operator's file")
    assert coup(["backup", "--db", db, str(dest)]) == 2
    assert "exists" in capsys.readouterr().err
    assert dest.read_text() == "an operator's file"
    assert coup(["backup", "--db", db, "--force", str(dest)]) == 0
    Store(str(dest), writer=False).close()
    for forced in ([], ["--force"]):
        assert coup(["backup", "--db", db, *forced, db]) == 2
        assert "the store itself" in capsys.readouterr().err
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".part")]


@pytest.mark.parametrize("where", ["missing/backup.db", "", "."])
async def test_a_backup_to_where_no_file_can_be_made_says_so_in_one_line(
        db, tmp_path, capsys, where):
    """Hostile DESTs: a folder that does not exist, an empty name, a directory."""
    Store(db).close()
    assert coup(["backup", "--db", db, str(tmp_path / where) if where else ""]) == 2
    err = capsys.readouterr().err
    assert err.startswith("coup backup: ") and err.count("\n") == 1


async def test_a_backup_of_no_store_is_refused(tmp_path, capsys):
    assert coup(["backup", "--db", str(tmp_path / "none.db"), str(tmp_path / "b.db")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert not (tmp_path / "b.db").exists()


async def test_the_server_takes_backups_in_a_worker_and_keeps_the_newest(db, tmp_path,
                                                                          monkeypatch):
    """With no backup in --backup-dir yet, the first is due at once: it is taken off the
    event loop, readable as a store, 0600, and older backups of this store beyond
    --backup-keep go; files that are not its backups stay."""
    folder = tmp_path / "backups"
    folder.mkdir()
    for day, old in enumerate(("coup-20200101T000000Z.db", "coup-20200102T000000Z.db")):
        (folder / old).write_text("old")
        os.utime(folder / old, (1577836800 + day * 86400,) * 2)
    (folder / "notes.txt").write_text("mine")
    threads = []
    backup = Store.backup

    def watched(store, dest, force=False):
        threads.append(threading.current_thread())
        backup(store, dest, force)

    monkeypatch.setattr(Store, "backup", watched)
    async with trio.open_nursery() as nursery:
        await served(nursery, db, backup_dir=str(folder), backup_every=24.0, backup_keep=2)
        await eventually(lambda: "coup-20200101T000000Z.db" not in os.listdir(folder))
        nursery.cancel_scope.cancel()
    names = sorted(os.listdir(folder))
    assert names[0] == "coup-20200102T000000Z.db" and names[2] == "notes.txt"
    Store(str(folder / names[1]), writer=False).close()
    assert stat.S_IMODE(os.stat(folder / names[1]).st_mode) == 0o600
    assert threads and threading.main_thread() not in threads


async def test_the_next_backup_is_due_a_period_after_the_newest_one(tmp_path):
    """A server restarted more often than --backup-every still takes them: the schedule
    counts from the newest backup in the folder, not from the start."""
    folder = str(tmp_path)
    assert backups.due(folder, "coup", 3600.0, now=1000.0) == 1000.0
    (tmp_path / "coup-20200101T000000Z.db").write_text("")
    os.utime(tmp_path / "coup-20200101T000000Z.db", (500.0, 500.0))
    (tmp_path / "other-20200101T000000Z.db").write_text("")
    assert backups.due(folder, "coup", 3600.0, now=1000.0) == 4100.0


@pytest.mark.parametrize("flag, value", [
    ("--backup-every", "0"), ("--backup-keep", "0"), ("--backup-every", "nan"),
    ("--backup-dir", "{tmp}/none/x"),  # no such folder
    ("--backup-dir", "{tmp}/s.db"),  # a file, not a folder
])
async def test_a_schedule_that_makes_no_sense_is_refused_at_start(tmp_path, capsys, flag, value):
    store = tmp_path / "s.db"
    store.touch()
    status = coup(["serve", "--port", "0", "--db", str(store), "--backup-dir", str(tmp_path),
                   flag, value.format(tmp=tmp_path)])
    assert status == 2
    assert capsys.readouterr().err.startswith(f"coup serve: {flag}: ")


async def test_a_backup_that_fails_is_logged_and_tried_again(db, tmp_path, monkeypatch,
                                                             caplog):
    """The disk the backups go to fails once: the server logs backup_failed, plays on, and
    takes the backup at the next try (here a period of about a third of a second)."""
    caplog.set_level(logging.INFO, "coup.server")
    folder = tmp_path / "backups"
    folder.mkdir()
    backup = Store.backup
    failures = []

    def fails_once(store, dest, force=False):
        if not failures:
            failures.append(dest)
            raise StoreError(f"cannot back up to {dest}: the disk is full")
        backup(store, dest, force)

    monkeypatch.setattr(Store, "backup", fails_once)
    async with trio.open_nursery() as nursery:
        await served(nursery, db, backup_dir=str(folder), backup_every=1e-4)
        await eventually(lambda: any(r.getMessage() == "backup_taken" for r in caplog.records))
        nursery.cancel_scope.cancel()
    assert len(os.listdir(folder)) == 1
    assert [r.fields["error"] for r in caplog.records if r.getMessage() == "backup_failed"] == [
        f"cannot back up to {failures[0]}: the disk is full"]
    assert [r.getMessage() for r in caplog.records].count("backup_taken") == 1
