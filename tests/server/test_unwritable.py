"""A store `coup serve` cannot write is refused at start, with one line and exit status 2,
rather than a server that resumes its tables and then hangs every new one.

The server runs as an ordinary user (root writes a 0444 file all the same): as
nobody (65534) when the tests run as root, else as whoever runs them."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

import pytest
import trio

from server.changes import NewTable
from server.store import Store
from tests.server.test_command import COUP

#: The ordinary user a root test suite runs the server as.
NOBODY = 65534


@pytest.fixture
def folder():
    """A directory the server's user may read (pytest's own is its owner's alone)."""
    path = tempfile.mkdtemp(prefix="coup-unwritable-")
    os.chmod(path, 0o755)
    yield path
    os.chmod(path, 0o755)
    shutil.rmtree(path)


def as_user(*paths: str) -> list[str]:
    """Give `paths` to the server's user; the command prefix that runs it as them
    (util-linux's setpriv: Popen's own `user=` could not execute this venv's python)."""
    if os.geteuid() != 0:
        return []
    for path in paths:
        os.chown(path, NOBODY, NOBODY)
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


async def serve(db: str, user: list[str]) -> subprocess.CompletedProcess:
    """`coup serve` on `db`; a server that starts instead of refusing the file fails the
    test by its deadline."""
    with trio.fail_after(15):
        return await trio.run_process(
            user + COUP + ["serve", "--port", "0", "--db", db, "--door-secret", "none"],
            check=False, capture_stdout=True, capture_stderr=True, cwd=os.path.dirname(db))


def a_store_with_a_table(folder: str) -> str:
    """A store that holds a table to resume, closed as a stopped server leaves it (its
    server id made: a store a server has used already)."""
    db = os.path.join(folder, "coup.db")
    store = Store(db)
    store.server_id()
    store.write([NewTable(store.take_table_row(), "k7tq2m", "ana's table", {"seats": 2},
                          None, {"status": "waiting", "creator_seat": None, "games": 0,
                                 "seats": []}, 0.0)])
    store.close()
    return db


async def test_a_store_whose_file_is_read_only_is_refused_at_start(folder):
    """A 0444 file: SQLite opens it read-only without a word, so the server must ask."""
    db = a_store_with_a_table(folder)
    user = as_user(db, db + ".lock", folder)
    os.chmod(db, 0o444)
    done = await serve(db, user)
    assert done.returncode == 2
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and "cannot be written" in lines[0] and db in lines[0]


async def test_a_store_in_a_read_only_directory_is_refused_at_start(folder):
    """The file is writable but its directory is not: no -wal file can be made beside it."""
    db = a_store_with_a_table(folder)
    user = as_user(db, db + ".lock", folder)
    os.chmod(folder, 0o555)
    done = await serve(db, user)
    assert done.returncode == 2
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and "directory" in lines[0] and db in lines[0]
