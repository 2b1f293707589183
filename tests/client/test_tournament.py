"""`coup arena --tournament` (issue 33): the standings and crosstable at 80 columns, the
same for a seed in one process or two, --json's documented shape, a schedule too large
refused with its count and how to shrink it, names made safe for the terminal; a progress
bar on a terminal's stderr and nothing on a pipe's; and ctrl+c stops the run and prints
the standings so far, marked partial.

The progress and ctrl+c tests run `coup` as a real process, its stderr a pseudo-terminal's
(where a terminal is the point) or a pipe."""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator

import pytest

from client.cli import main
from client.tournament import report
from engine.bots.tournament import Played, standings

EIGHT = "random,honest,heuristic,baseline,careless,bluffer,cautious,vengeful"


def tournament(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["arena", "--tournament", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_standings_and_crosstable_fit_80_columns_best_first(capsys):
    code, out, err = tournament(capsys, "--strategies", "random,heuristic", "--sizes", "2",
                                "--games", "20", "--seed", "3", "--jobs", "1")
    assert code == 0 and err == ""  # stderr is no terminal here: no progress at all
    assert "40 games" in out and "partial" not in out.lower()
    rows = [line for line in out.splitlines() if re.match(r"\s*[12]\s+\w", line)]
    assert rows[0].split()[1] == "heuristic" and rows[1].split()[1] == "random"
    assert "crosstable" in out.lower()
    code, out, _ = tournament(capsys, "--strategies", EIGHT, "--sizes", "2", "--games", "1",
                              "--jobs", "1")
    assert code == 0 and "56 games" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert all(name in out for name in EIGHT.split(","))


def test_json_gives_everything_in_its_documented_shape_and_a_seed_decides_it(capsys):
    argv = ("--strategies", "heuristic,honest,random", "--sizes", "2,3", "--games", "2",
            "--seed", "9", "--json")
    code, out, _ = tournament(capsys, *argv, "--jobs", "1")
    assert code == 0
    result = json.loads(out)
    assert {k: result[k] for k in ("entrants", "sizes", "rounds", "seed", "variant",
                                   "scheduled", "played", "partial")} == {
        "entrants": ["heuristic", "honest", "random"], "sizes": [2, 3], "rounds": 2,
        "seed": 9, "variant": "base", "scheduled": 24, "played": 24, "partial": False}
    first = result["standings"][0]
    assert set(first) == {"name", "games", "wins", "forfeits", "win_rate", "win_interval",
                          "mean_place", "place_interval", "rating"}
    assert set(first["rating"]) == {"mu", "sigma", "ordinal"}
    ordinals = [s["rating"]["ordinal"] for s in result["standings"]]
    assert ordinals == sorted(ordinals, reverse=True)
    low, high = first["win_interval"]
    # Each entrant: 4 games at size 2 and 6 at size 3 a round; each pair: 2 and 6.
    assert low <= first["win_rate"] <= high and first["games"] == 20
    meeting = result["crosstable"]["heuristic"]["random"]
    assert set(meeting) == {"games", "ahead", "rate"} and meeting["games"] == 16
    assert "heuristic" not in result["crosstable"]["heuristic"]
    # Two processes play the same games: the same seed, the same standings.
    code, again, _ = tournament(capsys, *argv, "--jobs", "2")
    assert code == 0 and json.loads(again) == result


@pytest.mark.parametrize("argv,said", [
    (["--strategies", EIGHT, "--sizes", "2,3,4,5,6", "--games", "10"],
     ["289,520 games", "--games", "--sizes"]),
    (["--strategies", "random,random", "--sizes", "2"], ["distinct"]),
    (["--strategies", "random,honest", "--sizes", "3"], ["sizes"]),
    (["--strategies", "random,honest", "--sizes", "two"], ["sizes"]),
    (["--strategies", "random,psychic"], ["strategies or levels"]),
    (["--strategies", "random,honest", "--games", "0"], ["--games"]),
])
def test_a_tournament_it_cannot_play_is_refused_with_a_sentence(capsys, argv, said):
    code, out, err = tournament(capsys, *argv)
    assert code == 2 and out == ""
    assert all(s in err for s in said), err


def test_sizes_belong_to_a_tournament_and_a_tournament_is_no_table(capsys):
    assert main(["arena", "--strategies", "random,honest", "--sizes", "2"]) == 2
    assert main(["arena", "--strategies", "random,honest", "--tournament", "--table"]) == 2
    said = capsys.readouterr().err.splitlines()
    assert said == ["coup arena: --sizes goes with --tournament",
                    "coup arena: --tournament or --table, not both"]


def test_reformation_goes_with_a_tournament_and_its_help_says_so(capsys):
    """The flag plays a tournament's games at Reformation tables, and --help does not
    say otherwise."""
    code, out, _ = tournament(capsys, "--strategies", "random,honest", "--games", "1",
                              "--reformation", "--json")
    assert code == 0 and json.loads(out)["reformation"] is True
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "Reformation table, with either variant, --tournament's too" in said


def test_names_are_shown_terminal_safe_and_shortened_with_the_full_name_kept():
    evil = "exec:./bots/\x1b]0;pwned\x07title-setter.py"
    long = "exec:./bots/a-very-long-bot-name-indeed.py"
    entrants = [evil, long, "random"]
    games = [Played(0, (evil, long), (1, 2), 0, (), 9),
             Played(1, (long, "random"), (2, 1), 1, (), 9)]
    out = report(standings(entrants, games, 2), entrants, [2], 1, 0, "base")
    assert "\x1b" not in out and "\x07" not in out and "\\x1b" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "…" in out and "a-very-long-bot-name-indeed.py" in out  # in full, once, below


def test_a_run_stopped_before_its_first_game_says_so_and_shows_no_figures():
    out = report(standings(["random", "honest"], [], 4), ["random", "honest"], [2], 2, 0, "base")
    assert "PARTIAL: stopped after 0 of 4 games" in out
    row = next(line for line in out.splitlines() if line.startswith(" 1  "))
    assert row.split()[2:6] == ["0", "—", "—", "—"] and "%" not in row


Run = Callable[..., tuple[subprocess.Popen[bytes], "Screen | None"]]


@pytest.fixture
def coup() -> Iterator[Run]:
    """Runs `coup arena --tournament ARGV` in a session of its own (so that a ctrl+c reaches
    it and its workers alone), stdout a pipe, stderr a pseudo-terminal's (read by the Screen
    returned) or a pipe; whatever a failed test left running is killed after it."""
    started: list[subprocess.Popen[bytes]] = []

    def run(*argv: str, terminal: bool) -> tuple[subprocess.Popen[bytes], Screen | None]:
        env = dict(os.environ, PYTHONIOENCODING="utf-8", TERM="xterm", COLUMNS="80")
        screen, stderr = None, subprocess.PIPE
        if terminal:
            ours, stderr = pty.openpty()
            screen = Screen(ours)
        process = subprocess.Popen([sys.executable, "-m", "client.cli", "arena",
                                    "--tournament", *argv], stdout=subprocess.PIPE,
                                   stderr=stderr, env=env, start_new_session=True)
        started.append(process)
        if terminal:
            os.close(stderr)
        return process, screen

    yield run
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()


class Screen:
    """What a process writes to a terminal, read as it comes."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.text = ""
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:  # the process ended: the terminal is gone
                chunk = b""
            with self.changed:
                self.text += chunk.decode(errors="replace")
                self.changed.notify_all()
            if not chunk:
                os.close(self.fd)
                return

    def wait_for(self, pattern: str, timeout: float = 90) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: re.search(pattern, self.text), timeout), \
                self.text[-500:]


def test_progress_is_a_bar_on_a_terminal_and_nothing_on_a_pipe(coup):
    argv = ("--strategies", "random,honest,heuristic", "--sizes", "2,3", "--games", "30",
            "--jobs", "1")
    process, screen = coup(*argv, terminal=True)
    assert screen is not None
    out, _ = process.communicate(timeout=120)
    screen.wait_for(r"360/360")
    assert process.returncode == 0 and "360 games" in out.decode()
    # Updated in place (carriage returns or cursor moves), with the rate and time to go.
    assert "\r" in screen.text or "\x1b[" in screen.text
    assert "games/s" in screen.text and re.search(r"\d+:\d\d:\d\d", screen.text)
    process, _ = coup(*argv, terminal=False)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0 and err == b"" and "360 games" in out.decode()


@pytest.mark.parametrize("jobs", ["1", "2"])  # played here, or by a pool of workers
def test_ctrl_c_stops_and_prints_the_standings_so_far_marked_partial(coup, jobs):
    process, screen = coup("--strategies", "random,honest,heuristic,bluffer", "--sizes",
                               "2,3,4", "--games", "300", "--jobs", jobs, terminal=True)
    assert screen is not None
    screen.wait_for(r"\b[1-9][\d,]*/18,000")  # some games done
    os.killpg(process.pid, signal.SIGINT)  # as ctrl+c does: to the whole process group
    out, _ = process.communicate(timeout=60)
    text = out.decode()
    assert process.returncode == 130
    assert "partial" in text.lower() and "of 18,000 games" in text
    assert "Traceback" not in screen.text and "KeyboardInterrupt" not in screen.text
    assert "crosstable" in text.lower()
