"""Files a stranger might hand over, through the real commands: `coup replay FILE`, `coup
position FILE` (the practice table and --bot) and `coup serve --position FILE`. Each is
refused with one line on stderr and exit status 2, never a traceback, and no file is read
past its cap (a sparse file of gigabytes, /dev/zero). Issue 27, section 7: eight of 27 such
files gave tracebacks, and a 300 MB file was read whole."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from client.cli import main
from client.i18n import set_language
from tests.client.records import record

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "positions" / "exchange_keep.toml"
#: Larger than any cap: made sparse, so that it costs nothing to make.
HUGE = 3 * 2**30


@pytest.fixture(autouse=True)
def english():
    yield
    set_language("en")  # the commands chose the environment's language


def _json(change) -> bytes:
    data = copy.deepcopy(record())  # its players are shared with other tests'
    change(data)
    return json.dumps(data).encode()


def _with(**fields) -> bytes:
    return _json(lambda r: r.update(fields))


def _raw_seed(text: str) -> bytes:
    """A record whose seed is written as `text`, which json.dumps would not write."""
    return json.dumps(dict(record(), seed=123456789)).replace("123456789", text).encode()


def _move(**fields) -> bytes:
    return _json(lambda r: r["moves"][0].update(fields))


#: (label, the file's bytes, what the line says) for `coup replay FILE`.
RECORDS = [
    ("empty", b"", "is not JSON"),
    ("binary", bytes(range(256)) * 64, "is not UTF-8 text (byte 128"),
    ("not UTF-8", b'{"format": "coup-record", "table_name": "caf\xe9"}', "is not UTF-8"),
    ("NUL bytes", b"\0" * 4096, "is not JSON"),
    ("a list nested 100,000 deep", b"[" * 100_000 + b"]" * 100_000, "nests"),
    ("a map nested 50,000 deep", b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "nests"),
    ("options nested 500 deep", _with(options=json.loads("[" * 500 + "]" * 500)), "nests"),
    ("a seed of 5,000 digits", _raw_seed("9" * 5000), "a number of 5000 digits"),
    ("a state id of 5,000 digits",
     json.dumps(record()).replace('"state_id": 0', '"state_id": ' + "7" * 5000, 1).encode(),
     "a number of 5000 digits"),
    ("seed 1e999", _raw_seed("1e999"), "1e999"),
    ("seed NaN", _raw_seed("NaN"), "NaN, which is no number"),
    ("seed Infinity", _raw_seed("-Infinity"), "-Infinity, which is no number"),
    ("a negative seed", _with(seed=-1), "record.seed: must be an int from 0"),
    ("a seed past 64 bits", _with(seed=2**64), "a number larger than 18446744073709551615"),
    ("a seed with a fraction", _with(seed=3.5), "record.seed: must be an int"),
    ("a seed as a string", _with(seed="3"), "record.seed: must be an int"),
    ("a seed that is true", _with(seed=True), "record.seed: must be an int"),
    ("a list", b"[1, 2, 3]", "not a coup record"),
    ("a string", b'"coup-record"', "not a coup record"),
    ("version 1.0", _with(version=1.0), "a record of version 1.0"),
    ("players as a string", _with(players="Ana"), "record.players: must be a list"),
    ("players as numbers", _with(players=[1, 2, 3]), "record.players[]: must be a map"),
    ("a player seat past 9", _json(lambda r: r["players"][0].update(seat=10)),
     "record.players[].seat"),
    ("moves as a map", _with(moves={}), "record.moves: must be a list"),
    ("moves as numbers", _with(moves=[1, 2]), "record.moves[]: must be a map"),
    ("a move's seat as a string", _move(seat="0"), "record.moves[].seat"),
    ("a move of no kind", _move(move={"card": "duke"}), "record.moves[].move.kind"),
    ("a move by a ghost", _move(by="ghost"), "record.moves[].by"),
    ("options as a list", _with(options=[3]), "record.options: must be a map"),
    ("a million players", _json(lambda r: r["options"].update(players=10**6)),
     "record.options.players"),
    ("a result as a list", _with(result=[1]), "record.result: must be a map"),
    ("a table name as a number", _with(table_name=5), "record.table_name"),
    ("a start time as a number", _with(started=5), "record.started"),
    ("a game id as a string", _with(game="7"), "record.game"),
    ("no seed", _json(lambda r: r.pop("seed")), "record.seed: is required"),
    ("no players", _json(lambda r: r.pop("players")), "record.players: is required"),
    ("a lone surrogate", _with(table_name="\ud800"), "not text (a lone surrogate"),
    ("players of 2 seats in a game of 3", _json(lambda r: r["players"].pop()),
     "players are not its 3 seats"),
    ("a seat played twice", _json(lambda r: r["players"][1].update(seat=0)),
     "players are not its 3 seats"),
    ("a take-over of seat 9", _with(takeovers=[{"seat": 9, "bot": "random", "after": 1,
                                                "ms": 5}]), "a take-over of the record"),
    ("a take-over after moves never made", _with(takeovers=[
        {"seat": 1, "bot": "random", "after": 4000, "ms": 5}]), "a take-over of the record"),
    ("a first line past the cap", b"[" + b" " * (3 * 2**20) + b"]\n{}\n", "larger than 2 MiB"),
]


@pytest.mark.parametrize("content, says", [c[1:] for c in RECORDS], ids=[c[0] for c in RECORDS])
def test_replay_refuses_a_hostile_file_in_one_line(tmp_path, content, says, capsys):
    path = tmp_path / "game.json"
    path.write_bytes(content)
    assert says in refused(["replay", str(path)], capsys)


@pytest.mark.parametrize("game", ["\u00b2", "9" * 5000], ids=["superscript", "5000 digits"])
def test_replay_of_a_game_number_that_is_no_number_is_one_line(tmp_path, monkeypatch, game,
                                                                capsys):
    """Digits to str.isdigit that int() refuses ("²"), or too many for it to read, were
    taken for a game's number in the store and raised."""
    monkeypatch.chdir(tmp_path)  # no file of that name is there
    assert "cannot be read" in refused(["replay", game], capsys)


def _sparse(tmp_path) -> str:
    path = tmp_path / "huge"
    with open(path, "wb") as file:
        file.truncate(HUGE)
    return str(path)


def _directory(tmp_path) -> str:
    return str(tmp_path)


def _dev_zero(tmp_path) -> str:
    return "/dev/zero"


#: Files that are no ordinary small file: (label, the path it makes, what the line says).
SPECIAL = [
    ("a sparse file of 3 GiB", _sparse, "is larger than"),
    ("a directory", _directory, "Is a directory"),
    ("/dev/zero", _dev_zero, "is larger than"),
]


@pytest.mark.parametrize("command", [["replay"], ["position"], ["position", "--bot", "random"]])
@pytest.mark.parametrize("make, says", [c[1:] for c in SPECIAL], ids=[c[0] for c in SPECIAL])
def test_no_file_is_read_past_its_cap(tmp_path, command, make, says, capsys):
    """Each is read up to its cap and no further: /dev/zero never ends, and the sparse
    file's 3 GiB would take that much memory read whole."""
    assert says in refused([command[0], make(tmp_path), *command[1:]], capsys)


def _toml(change: str = "", drop: str = "") -> bytes:
    """The example position with the lines of `drop` taken out and `change` put first."""
    lines = [line for line in EXAMPLE.read_text().splitlines() if not drop or
             not line.startswith(drop)]
    return (change + "\n" + "\n".join(lines) + "\n").encode()


#: (label, the file's bytes, what the line says) for the position's readers.
POSITIONS = [
    ("empty", b"", "seats must be a list"),
    ("binary", bytes(range(256)) * 64, "is not UTF-8 text (byte 128"),
    ("not UTF-8", b"turn = 0\n# caf\xe9\n", "is not UTF-8"),
    ("NUL bytes", b"\0" * 4096, "is not TOML"),
    ("an array nested 100,000 deep", b"x = " + b"[" * 100_000 + b"]" * 100_000, "nests"),
    ("tables nested 20,000 deep", b"[" + b".".join([b"a"] * 20_000) + b"]\n", "nests"),
    ("inline tables nested deep", b"x = " + b"{a = " * 5000 + b"1" + b"}" * 5000, "nests"),
    ("a number of 5,000 digits", _toml("seed = " + "9" * 5000, drop="seed"),
     "a number larger than"),
    ("a seed of 30 digits", _toml("seed = " + "9" * 30), "a number larger than"),
    ("a negative seed", _toml("seed = -1"), "seed must be a whole number from 0"),
    ("a seed as a string", _toml('seed = "x"'), "seed must be a whole number"),
    ("coins of inf", _toml().replace(b"coins = 3", b"coins = inf"), "inf, which is no number"),
    ("coins of nan", _toml().replace(b"coins = 3", b"coins = nan"), "nan, which is no number"),
    ("coins with a fraction", _toml().replace(b"coins = 3", b"coins = 3.5"),
     "coins must be a list of whole numbers"),
    ("turn as a string", _toml('turn = "0"', drop="turn"), "turn must be a seat"),
    ("a turn past the seats", _toml("turn = 99", drop="turn"), "turn must be a seat"),
    ("seats as a string", _toml('seats = "four"', drop="[[seats]]"), "not TOML"),
    ("a hand of numbers", _toml().replace(b'hand = ["captain"]', b"hand = [1]"),
     "hand must be a list of card names"),
    ("an unknown card", _toml().replace(b'"captain"]', b'"joker"]'), "'joker' is not"),
    ("options as a number", _toml().replace(b"[options]\nplayers = 4", b"options = 4"),
     "options must be a table"),
    ("a decision of no phase", _toml().replace(b'phase = "keep"\n', b""),
     "decision needs its phase"),
    ("no seats", b"turn = 0\n", "seats must be a list"),
    ("a lone surrogate", _toml('name = "\\ud800"'), "not TOML"),
    ("over its cap", b"# " + b"x" * (300 * 1024) + b"\nturn = 0\n", "larger than 256 KiB"),
]


@pytest.mark.parametrize("command", [["position"], ["position", "--bot", "random"]])
@pytest.mark.parametrize("content, says", [c[1:] for c in POSITIONS],
                         ids=[c[0] for c in POSITIONS])
def test_position_refuses_a_hostile_file_in_one_line(tmp_path, command, content, says, capsys):
    path = tmp_path / "position.toml"
    path.write_bytes(content)
    assert says in refused([command[0], str(path), *command[1:]], capsys)


@pytest.mark.parametrize("content, says", [
    (bytes(range(256)) * 64, "is not UTF-8 text"),
    (_toml("seed = " + "9" * 5000, drop="seed"), "a number larger than"),
    (b"x = " + b"[" * 100_000 + b"]" * 100_000, "nests"),
], ids=["binary", "a number of 5,000 digits", "deep nesting"])
def test_serve_refuses_a_hostile_position_in_one_line(tmp_path, content, says):
    """The three files that gave `coup serve --position` a traceback: a process of its own,
    as the server's command sets up the process (logging, the collector) for itself."""
    path = tmp_path / "position.toml"
    path.write_bytes(content)
    done = subprocess.run(
        [sys.executable, "-m", "client.cli", "serve", "--port", "0", "--db", ":memory:",
         "--position", str(path)], capture_output=True, text=True, timeout=60,
        env=dict(os.environ, PYTHONPATH=str(Path(__file__).parents[2])))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("coup serve: --position: ") and says in done.stderr


def refused(argv: list[str], capsys) -> str:
    """What `coup ARGV` says on stderr, having exited with status 2 and printed nothing
    else: one line, no traceback."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    return err
