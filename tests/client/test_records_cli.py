"""`coup export` and `coup replay` on real store files and record files: records come out
oldest first as JSON lines, and whatever cannot be read (no file, not a database, not JSON,
a record from a newer coup, a game not in the store, a move that does not replay, a store
file cut short) is refused with one line on stderr and exit status 2, before any screen is
drawn. An export from a store with damaged pages prints every record it can read and says
which it skipped, with exit status 1."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import server
from client.cli import main
from client.record_file import MAX_FILE
from client.i18n import set_language
from engine.record import VERSION, check, replay
from server.store import Store
from tests.client.records import keep, record
from tests.client.test_cli import launched
from tests.server.damage import (
    games_on_pages, overwrite, pages_of, rowids_on_page, truncate,
)

#: `coup` in a process of its own, as this interpreter runs it.
COUP = [sys.executable, "-c", "import sys; from client.cli import main; sys.exit(main())"]

#: The user and group `nobody`: someone who may read a store but not write its folder.
NOBODY = 65534
#: `sh -c` this with a folder, a store file and a command: the command runs with a copy of
#: the file on a read-only file system mounted at the folder (in a mount namespace of its
#: own, which the test's `unshare -m` makes: nothing is mounted for anyone else).
READ_ONLY_MOUNT = """set -e
mount -t tmpfs -o size=16m coup "$1"
cp -p "$2" "$1/games.db"
mount -o remount,ro "$1"
shift 2
exec "$@"
"""


@pytest.fixture(autouse=True)
def english():
    yield
    set_language("en")  # coup replay chose the environment's language


@pytest.fixture
def db(tmp_path):
    """A store file holding three finished games (ids 1-3, finished an hour apart from
    13:10 UTC on 2026-03-01) and one still in play (id 4)."""
    path = str(tmp_path / "games.db")
    store = Store(path)
    for seed in (3, 4, 5):
        keep(store, seed)
    keep(store, 6, over=False)
    store.close()
    return path


def refused(argv, capsys) -> str:
    """What `coup ARGV` says on stderr, having exited with status 2 and printed nothing."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    return err


def test_export_prints_every_finished_game_oldest_first_as_json_lines(db, capsys):
    assert main(["export", "--db", db]) == 0
    lines = capsys.readouterr().out.splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["game"] for r in records] == [1, 2, 3]  # the game in play is not there
    for r in records:
        check(r)  # each replays through the engine to its result


@pytest.mark.parametrize("since,games", [
    ("2026-03-01", [1, 2, 3]),
    ("2026-03-01T14:10", [2, 3]),           # UTC when the time names no offset
    ("2026-03-01T15:10:00+01:00", [2, 3]),  # 14:10 UTC
    ("2026-03-02", []),
])
def test_export_since_keeps_the_games_finished_from_then_on(db, since, games, capsys):
    assert main(["export", "--db", db, "--since", since]) == 0
    assert [json.loads(line)["game"] for line in capsys.readouterr().out.splitlines()] == games


def test_export_reads_a_store_while_a_server_writes_it(db, capsys):
    server_side = Store(db)  # the one writer, holding the file's lock
    try:
        assert main(["export", "--db", db]) == 0
        assert len(capsys.readouterr().out.splitlines()) == 3
        assert main(["replay", "2", "--db", db, "--as", "9"]) == 2  # read, then refused
        assert "seats 1 to 3" in capsys.readouterr().err
    finally:
        server_side.close()


def test_export_of_a_missing_store_says_so_and_makes_no_file(tmp_path, capsys):
    path = tmp_path / "none.db"
    assert "no such file" in refused(["export", "--db", str(path)], capsys)
    assert not path.exists()


def test_export_of_a_file_that_is_no_store_says_so(tmp_path, capsys):
    path = tmp_path / "notes.db"
    path.write_text("these are not the games you are looking for\n" * 100)
    assert "not a coup database" in refused(["export", "--db", str(path)], capsys)


def test_export_reads_coup_serves_store_by_default(db, monkeypatch, capsys):
    monkeypatch.setattr(server, "default_path",
                        lambda kind: db if kind == "server" else "/nonexistent/play.db")
    assert main(["export"]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 3
    assert err == f"coup export: coup serve's games, from {db}\n"


def kept_as(db: str, kind: str) -> str:
    """A copy of the store `db` where the data directory keeps `kind`'s games ("play": what
    coup play and a hosted LAN game keep; "server": coup serve's), and its path."""
    path = server.default_path(kind)
    shutil.copyfile(db, path)
    return path


def test_export_reads_the_players_own_games_by_default_and_says_from_where(db, capsys):
    """Someone who only ever ran coup play: `coup export > games.jsonl`, as the README
    shows it, exports the games they played, and says which file it read."""
    played = kept_as(db, "play")
    assert main(["export"]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["game"] for line in out.splitlines()] == [1, 2, 3]
    assert err == f"coup export: your own games (coup play, LAN hosting), from {played}\n"
    assert not os.path.exists(server.default_path("server"))


def test_export_by_default_prefers_your_own_games_and_names_the_servers(db, tmp_path, capsys):
    """A player who also runs coup serve here: their own games come out, and the line on
    stderr says where the server's are and how to export them."""
    played = kept_as(db, "play")
    store = Store(kept_as(db, "server"))
    keep(store, 7)  # the server's store holds one more game than the player's
    store.close()
    assert main(["export"]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 3
    served = server.default_path("server")
    assert err == (f"coup export: your own games (coup play, LAN hosting), from {played}; "
                   f"coup serve's are in {served}: coup export --db {served}\n")
    assert main(["export", "--db", served]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 4 and err == ""  # the file named is the file read


def test_export_with_no_games_on_this_machine_says_what_to_do(capsys):
    """No store at all: one line says so, names where it looked and what to do, exit 2,
    and no empty store is made."""
    err = refused(["export"], capsys)
    played, served = server.default_path("play"), server.default_path("server")
    assert err == (f"coup export: no games to export: none played with coup play here yet "
                   f"(no {played}) and no coup serve store (no {served}); name a store with "
                   f"--db PATH\n")
    assert not os.path.exists(played) and not os.path.exists(served)


@pytest.fixture
def damaged_db(tmp_path) -> tuple[str, set[int]]:
    """A store of forty finished games, the page holding game 12's moves overwritten with
    random bytes; and the games whose moves were on that page, which cannot be read."""
    path = str(tmp_path / "games.db")
    store = Store(path)
    for seed in range(3, 43):
        keep(store, seed)
    store.close()
    page, games = next((p, g) for p, g in sorted(games_on_pages(path).items()) if 12 in g)
    overwrite(path, [page], seed=114)
    return path, games


def test_export_prints_every_readable_record_and_says_which_it_skipped(damaged_db, capsys):
    path, lost = damaged_db
    assert main(["export", "--db", path]) == 1
    out, err = capsys.readouterr()
    assert [json.loads(line)["game"] for line in out.splitlines()] == [
        game for game in range(1, 41) if game not in lost]
    said = err.splitlines()
    assert len(said) == len(lost) >= 1
    for game, line in zip(sorted(lost), said):
        assert line.startswith(f"coup export: skipped game {game}: the file is damaged "
                               "(database disk image is malformed)")


def test_export_lists_the_games_from_their_index_when_a_page_of_games_is_damaged(tmp_path,
                                                                                 capsys):
    """A page of the games table itself damaged: the index of finished games still lists
    them all, so the games on that page are named as skipped and every other one exported."""
    path = str(tmp_path / "games.db")
    store = Store(path)
    for seed in range(3, 83):
        keep(store, seed)
    store.close()
    page = sorted(pages_of(path, "games"))[-2]
    lost = rowids_on_page(path, page)
    overwrite(path, [page], seed=150)
    assert main(["export", "--db", path]) == 1
    out, err = capsys.readouterr()
    assert [json.loads(line)["game"] for line in out.splitlines()] == [
        game for game in range(1, 81) if game not in lost]
    assert [line.split(":")[1] for line in err.splitlines()] == [
        f" skipped game {game}" for game in sorted(lost)]


def test_replay_of_a_damaged_record_says_what_to_do(damaged_db, capsys):
    path, lost = damaged_db
    said = refused(["replay", str(min(lost)), "--db", path], capsys)
    assert "damaged" in said and "restore your latest backup (docs/SERVER.md)" in said


@pytest.mark.parametrize("command", [["export"], ["replay", "2"]])
def test_a_file_cut_short_says_what_it_means_and_what_to_do(db, command, capsys):
    truncate(db, 0.2)
    said = refused([*command, "--db", db], capsys)
    assert "the file is damaged (database disk image is malformed)" in said
    assert "restore your latest backup (docs/SERVER.md)" in said
    assert f"sqlite3 {db} .recover" in said


def test_export_reads_a_store_on_a_read_only_file_system(db, tmp_path):
    folder = tmp_path / "mounted"
    folder.mkdir()
    done = subprocess.run(["unshare", "-m", "sh", "-c", READ_ONLY_MOUNT, "sh", str(folder), db,
                           *COUP, "export", "--db", str(folder / "games.db")],
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["game"] for line in done.stdout.splitlines()] == [1, 2, 3]


@pytest.mark.parametrize("name", ["a?mode=rwc.db", "b#c.db", "100%25.db", "d e&immutable=0.db"])
def test_export_reads_a_store_whose_name_would_mean_something_in_a_uri(db, tmp_path, name,
                                                                       capsys):
    path = tmp_path / name
    shutil.copy(db, path)
    assert main(["export", "--db", str(path)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_export_by_its_owner_reads_a_store_in_a_folder_it_cannot_write(db):
    """Not root (who writes anywhere): the user `nobody`, whose store it is, in a folder of
    its own that it may read and not write; `replay` reads it too."""
    folder = tempfile.mkdtemp()
    try:
        path = os.path.join(folder, "games.db")
        shutil.copy(db, path)
        os.chown(path, NOBODY, NOBODY)
        os.chown(folder, NOBODY, NOBODY)
        os.chmod(folder, 0o555)
        as_nobody = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
        done = subprocess.run([*as_nobody, *COUP, "export", "--db", path],
                              capture_output=True, timeout=60, cwd=folder)
        assert done.returncode == 0, done.stderr
        assert len(done.stdout.splitlines()) == 3
        assert sorted(os.listdir(folder)) == ["games.db"]  # nothing made beside it
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(folder)


def test_replay_opens_a_record_file_as_the_seat_asked(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(), indent=2))
    launch = launched(["replay", str(path), "--as", "2"], monkeypatch)
    assert launch.mode == "replay" and launch.record == record()
    assert launch.view_as == 1  # seats count from 1 on the command line


def test_replay_opens_the_first_record_of_json_lines(db, tmp_path, monkeypatch, capsys):
    assert main(["export", "--db", db]) == 0
    path = tmp_path / "games.jsonl"
    path.write_text(capsys.readouterr().out)
    assert launched(["replay", str(path)], monkeypatch).record["game"] == 1


def test_replay_reads_only_the_first_line_of_json_lines_past_the_cap(tmp_path, monkeypatch):
    """`coup export` of a busy server is larger than replay's 2 MiB: its first record is
    shown, and the rest of the file (here lines that are no records) is never parsed."""
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record()) + "\n" + ("not a record\n" * 300_000))
    assert path.stat().st_size > MAX_FILE
    assert launched(["replay", str(path)], monkeypatch).record == record()


def test_replay_finds_a_game_by_id_in_the_players_own_store(db, monkeypatch):
    monkeypatch.setattr(server, "default_path",
                        lambda kind: db if kind == "play" else "/nonexistent/server.db")
    assert launched(["replay", "2"], monkeypatch).record["game"] == 2
    assert launched(["replay", "3", "--db", db], monkeypatch).record["game"] == 3


def damaged() -> dict:
    bad = record()
    bad["moves"][1]["state_id"] += 5  # a move made against a state that never was
    return bad


@pytest.mark.parametrize("content,said", [
    ("{not json", "is not JSON: Expecting property name"),
    (json.dumps({"format": "chess-pgn"}), "not a coup record"),
    (json.dumps(dict(record(), version=VERSION + 1)), f"a record of version {VERSION + 1}"),
    (json.dumps(damaged()), "move 2 does not replay"),
    (json.dumps(dict(record(), result={"winner": 9, "out": []})), "result is not what"),
])
def test_replay_refuses_a_file_that_is_no_record_it_can_replay(tmp_path, content, said,
                                                                capsys):
    path = tmp_path / "game.json"
    path.write_text(content)
    assert said in refused(["replay", str(path)], capsys)


def test_replay_refuses_an_unknown_or_unfinished_game_and_a_seat_not_at_it(db, tmp_path,
                                                                             capsys):
    assert "no finished game 9" in refused(["replay", "9", "--db", db], capsys)
    assert "no finished game 4" in refused(["replay", "4", "--db", db], capsys)  # in play
    assert "seats 1 to 3" in refused(["replay", "1", "--db", db, "--as", "4"], capsys)
    assert "cannot be read" in refused(["replay", str(tmp_path / "gone.json")], capsys)
    assert "no such file" in refused(["replay", "1", "--db", str(tmp_path / "x.db")],
                                     capsys)



def test_the_example_in_records_md_replays_as_it_says():
    text = (Path(__file__).parents[2] / "docs" / "RECORDS.md").read_text(encoding="utf-8")
    example = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    game = check(example)
    assert (game.winner, game.exiled) == (1, [0])
    assert replay(example, upto=3).view(0).hands[0] == ("duke", "contessa")
