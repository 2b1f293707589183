"""Bot processes that break the line protocol (issue 33), one test a way: each plays seat 0
of a three-player arena game against two heuristics. The game goes on without it: its seat
is forfeited (engine.bots.arena.Result.forfeits: a loss), the host says ONE line naming the
bot and quoting what it sent (shortened, terminal-safe), and no process of it is left,
reaped or stray. Over the network the same breaks hand the seat to a fallback
(tests/client/test_exec_online.py)."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from pathlib import Path

import pytest

from client.botproc import GRACE, MAX_LINE, STDERR_BYTES, ExecStrategy
from client.cli import main
from engine import Options
from engine.bots import Withdrawn, make
from engine.bots.arena import play

#: Every test bot starts so: its pid on stderr (to look for it afterwards), and `say`.
PRELUDE = """
import json, os, signal, subprocess, sys, time
sys.stderr.write(f"pid {os.getpid()}\\n"); sys.stderr.flush()
def say(message):
    print(json.dumps(message), flush=True)
def messages():
    for line in sys.stdin:
        yield json.loads(line)
"""

#: A bot that answers well until the decision, where `on_decide` does its misdeed.
ANSWERS = PRELUDE + """
for m in messages():
    if m["type"] == "hello":
        say({"ready": True, "name": "rogue"})
    elif m["type"] == "decide":
ON_DECIDE
"""


def bot_file(tmp_path: Path, source: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text(source)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


def on_decide(code: str) -> str:
    return ANSWERS.replace("ON_DECIDE", "\n".join("        " + ln for ln in code.splitlines()))


def gone(pid: int, within: float = 3.0) -> bool:
    """Whether process `pid` no longer exists (reaped: not even a zombie) within `within`."""
    end = time.monotonic() + within
    while os.path.exists(f"/proc/{pid}"):
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def pids(stderr_file: Path) -> list[int]:
    return [int(line.split()[1]) for line in stderr_file.read_text().splitlines()
            if line.startswith("pid ")]


def broken_game(tmp_path: Path, source: str, *, seconds: float = 2.0,
                ready_seconds: float = 10.0, grace: float = GRACE) -> tuple[list[str], ExecStrategy]:
    """Seat 0 runs `source`; returns the lines the host said, after checking the game went on
    to its end with seat 0 forfeited and last, and every process of the bot gone."""
    said: list[str] = []
    bot = ExecStrategy(bot_file(tmp_path, source), seconds=seconds, ready_seconds=ready_seconds,
                       grace=grace, logs=tmp_path / "logs", report=said.append)
    try:
        result = play([bot, make("heuristic", 1), make("heuristic", 2)], Options(players=3), 7)
    finally:
        bot.close()
    assert result.forfeits == (0,)
    assert 0 in result.exiled and result.winner in (1, 2)
    assert len(said) == 1, said
    assert said[0].startswith("coup: bot ")
    assert bot.stderr_file is not None
    assert all(gone(pid) for pid in pids(bot.stderr_file))
    with pytest.raises(Withdrawn):
        bot.choose(None, [])  # type: ignore[arg-type]  # a withdrawn bot is asked nothing
    return said, bot


def test_a_bot_that_crashes_is_forfeited_and_its_exit_said(tmp_path):
    [line], _ = broken_game(tmp_path, on_decide("sys.exit(3)"))
    assert "exited with code 3" in line and "rogue" in line


def test_a_bot_that_hangs_past_its_time_is_forfeited(tmp_path):
    start = time.monotonic()
    [line], _ = broken_game(tmp_path, on_decide("time.sleep(60)"), seconds=0.5)
    assert "gave no move within 0.5 s" in line
    assert time.monotonic() - start < 15


@pytest.mark.parametrize("answer,says,quotes", [
    ('print("e2 e4", flush=True)', "not JSON", "e2 e4"),
    ('print("\\x1b]0;owned\\x07", flush=True)', "not JSON", "\\x1b]0;owned\\x07"),
    ('print("[1, 2]", flush=True)', "JSON that is not an object", "[1, 2]"),
    ('say({"mvoe": 0})', "wrong fields", '{"mvoe": 0}'),
    ('say({"move": 0, "id": m["id"] + 1})', "answered decision", '"id"'),
    ('say({"move": "tax"})', "neither an index nor a move object", '"tax"'),
], ids=["not-json", "escapes", "not-an-object", "wrong-fields", "wrong-id", "not-a-move"])
def test_a_bot_that_writes_garbage_is_forfeited_and_quoted(tmp_path, answer, says, quotes):
    """What it sent is quoted, terminal-safe: an escape sequence shows as text."""
    [line], _ = broken_game(tmp_path, on_decide(answer))
    assert says in line and quotes in line
    assert "\x1b" not in line and "\x07" not in line


@pytest.mark.parametrize("answer,says", [
    ('say({"move": 99})', "chose move 99, not one of 0 to"),
    ('say({"move": -1})', "chose move -1"),
    ('say({"move": {"kind": "coup", "target": 1}})', "chose a move it was not offered"),
    ('say({"move": {"kind": "bogus"}})', "sent no move (unknown_move)"),
], ids=["index-too-big", "index-negative", "not-offered", "no-such-move"])
def test_a_bot_that_chooses_an_illegal_move_is_told_why_and_forfeited(tmp_path, answer, says):
    """Before it is ended, the bot hears why: an error line with the decision's id."""
    source = on_decide(answer + '\nsys.stderr.write("heard " + sys.stdin.readline())'
                                '\nsys.stderr.flush()')
    [line], bot = broken_game(tmp_path, source)
    assert says in line
    assert bot.stderr_file is not None
    heard = [json.loads(ln[len("heard "):]) for ln in bot.stderr_file.read_text().splitlines()
             if ln.startswith("heard ")]
    assert [(h["type"], says.split(",")[0] in h["message"]) for h in heard] == [("error", True)]


def test_a_bot_that_chooses_a_huge_index_is_quoted_short(tmp_path):
    """A 4,000-digit index fits in one line: the host's line quotes it shortened, as it
    quotes anything else the bot sent, never in full."""
    [line], _ = broken_game(tmp_path, on_decide('say({"move": 10 ** 4000})'))
    assert "chose move 1000" in line and "not one of 0 to" in line
    assert "0" * 100 not in line


def test_a_bot_that_floods_one_huge_line_is_cut_off(tmp_path):
    """Ten megabytes with no newline: the host stops reading past MAX_LINE, quotes the start."""
    start = time.monotonic()
    [line], _ = broken_game(tmp_path, on_decide('sys.stdout.write("x" * 10_000_000)'
                                                '\nsys.stdout.flush()'))
    assert f"longer than {MAX_LINE} bytes" in line and "xxxx" in line
    assert len(line) < 400
    assert time.monotonic() - start < 15


def test_a_bot_that_writes_endless_lines_is_stopped(tmp_path):
    """Ready, then answers nobody asked for, a thousand in its first write and then without
    end: the first decision finds them waiting, and the host holds no more of them than
    one read."""
    source = PRELUDE + """
sys.stdin.readline()
sys.stdout.write(json.dumps({"ready": True}) + "\\n" + 1000 * (json.dumps({"move": 0}) + "\\n"))
while True:
    say({"move": 0})
"""
    [line], _ = broken_game(tmp_path, source)
    assert "wrote a line nobody asked for" in line and '{"move": 0}' in line


def test_a_bot_that_never_says_ready_is_forfeited(tmp_path):
    [line], _ = broken_game(tmp_path, PRELUDE + "time.sleep(60)\n", ready_seconds=1.0)
    assert "did not say ready within 1 s" in line


def test_a_bot_that_says_something_else_than_ready_is_forfeited(tmp_path):
    [line], _ = broken_game(tmp_path, PRELUDE + 'say({"ready": False})\ntime.sleep(60)\n')
    assert 'something else than {"ready": true}' in line and '{"ready": false}' in line


def test_a_bot_that_closes_its_output_early_is_forfeited(tmp_path):
    source = PRELUDE + 'sys.stdin.readline()\nsay({"ready": True})\nos.close(1)\ntime.sleep(60)\n'
    [line], _ = broken_game(tmp_path, source)
    assert "closed its output" in line


def test_a_bot_that_closes_its_input_early_is_forfeited(tmp_path):
    """It closes its input before it says ready, so that nothing reaches it after."""
    source = PRELUDE + 'sys.stdin.readline()\nos.close(0)\nsay({"ready": True})\ntime.sleep(60)\n'
    [line], _ = broken_game(tmp_path, source)
    assert "closed its input" in line


def test_a_bot_that_ignores_sigterm_is_killed_after_the_grace(tmp_path):
    source = ("import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
              + on_decide("time.sleep(60)"))
    start = time.monotonic()
    [line], _ = broken_game(tmp_path, source, seconds=0.5, grace=0.3)
    assert "gave no move" in line
    assert time.monotonic() - start < 15


def test_a_bot_that_outstays_its_goodbye_is_killed_at_close(tmp_path):
    """It plays well, but ignores goodbye, its input's end and SIGTERM: close() ends it all
    the same, after two graces, and reaps it."""
    source = PRELUDE + """
signal.signal(signal.SIGTERM, signal.SIG_IGN)
for m in messages():
    if m["type"] == "hello":
        say({"ready": True})
    elif m["type"] == "decide":
        say({"move": 0})
time.sleep(60)
"""
    said: list[str] = []
    bot = ExecStrategy(bot_file(tmp_path, source), grace=0.3, logs=tmp_path, report=said.append)
    result = play([bot, make("heuristic", 1)], Options(players=2), 5)
    assert result.forfeits == () and said == []
    start = time.monotonic()
    bot.close()
    assert 0.6 <= time.monotonic() - start < 5
    assert bot.pid is not None and gone(bot.pid, within=0.0)


def test_a_bots_own_children_end_with_it(tmp_path):
    """A bot that starts a program of its own and then crashes leaves nothing running."""
    source = on_decide('child = subprocess.Popen(["sleep", "60"])\n'
                       'sys.stderr.write(f"pid {child.pid}\\n"); sys.stderr.flush()\n'
                       'os._exit(1)')
    _, bot = broken_game(tmp_path, source)
    assert bot.stderr_file is not None
    assert len(pids(bot.stderr_file)) == 2  # the bot's and its child's, both gone


def test_a_bots_stderr_is_kept_for_its_author_and_bounded(tmp_path):
    """Three megabytes on stderr before it breaks: the file keeps the first STDERR_BYTES,
    then a note; the line saying it broke names the file."""
    [line], bot = broken_game(tmp_path, on_decide(
        'sys.stderr.write("my trace\\n" + "e" * 3_000_000); sys.stderr.flush()\nsys.exit(2)'))
    assert bot.stderr_file is not None and str(bot.stderr_file) in line
    kept = bot.stderr_file.read_bytes()
    assert kept.startswith(b"pid ") and b"my trace" in kept
    assert STDERR_BYTES <= len(kept) < STDERR_BYTES + 100
    assert kept.rstrip().endswith(b"bytes]")


def test_a_bot_that_cannot_start_is_forfeited(tmp_path):
    said: list[str] = []
    bot = ExecStrategy("/nonexistent/coup-bot --fast", logs=tmp_path, report=said.append)
    result = play([make("heuristic", 1), bot], Options(players=2), 3)
    bot.close()
    assert result.forfeits == (1,) and result.winner == 0 and result.exiled == (1,)
    assert len(said) == 1 and "could not start" in said[0]


def test_coup_arena_goes_on_past_a_broken_bot_and_counts_its_forfeits(tmp_path, capfd):
    """Two games: the bot crashes in each (a new process for each game), one line each on
    stderr; the run ends normally and the table says the forfeits."""
    command = bot_file(tmp_path, on_decide("sys.exit(5)"))
    assert main(["arena", "--strategies", f"exec:{command},heuristic", "--games", "2"]) == 0
    out, err = capfd.readouterr()  # the games are played in a pool's process
    lines = [ln for ln in err.splitlines() if "coup: bot" in ln]
    assert len(lines) == 2 and all("exited with code 5" in ln for ln in lines)
    assert "forfeited 2 of its seats" in out
    assert "heuristic" in out and "100.0%" in out
