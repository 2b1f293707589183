"""The name you ask for (issue 30, item 3), from the command line and in plain mode: a first
run at a terminal asks the name once and keeps it beside the key; a kept name is the one the
practice table shows, not the login; a name the server does not use for a key it knew is
said ("Known here as Ana"); and two players on one machine keep apart by profile, each its
own key and name.

Real processes: `coup` through pipes (a pseudo-terminal where a terminal is the point), its
practice server on loopback.
"""

from __future__ import annotations

import os
import pty
import queue
import subprocess
import sys
import threading

import pytest

from client.cli import main
from client.identity import NAME_LENGTH, load
from client.launch import default_name

from .transcript import Transcript


class AtATerminal(Transcript):
    """`coup ARGV… --plain` whose stdin is a terminal (a pseudo-terminal's), as a screen
    reader's user runs it; its stdout a pipe, read as a transcript's."""

    def __init__(self, *argv: str, identity: str) -> None:
        env = dict(os.environ, PYTHONIOENCODING="utf-8", TERM="xterm")
        self.terminal, typed = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "client.cli", "--lang", "en", "--identity", identity,
             *argv], stdin=typed, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        os.close(typed)
        self.lines: list[str] = []
        self.raw: list[bytes] = []
        self.errors: str | None = None
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        # What the terminal echoes back is read and dropped, so that it never fills up.
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        try:
            while os.read(self.terminal, 1024):
                pass
        except OSError:  # the process ended: the terminal is gone
            pass

    def send(self, line: str) -> None:
        os.write(self.terminal, line.encode() + b"\n")

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()
        self.process.stdout.close()
        self.process.stderr.close()
        os.close(self.terminal)


def test_a_first_run_at_a_terminal_asks_the_name_and_keeps_it_beside_the_key(tmp_path):
    key = str(tmp_path / "me.pem")
    t = AtATerminal("play", "--plain", "--bots", "1", identity=key)
    try:
        assert t.line().startswith("Your name, kept for the next games (Enter: ")
        t.send("Ana")
        assert t.until("Seats:").startswith("Seats: Ana,")
        assert t.prompt() == ["Ready", "Start the game"]
    finally:
        t.stop()
    assert (tmp_path / "me.name").read_text("utf-8") == "Ana\n"


def test_an_empty_answer_plays_under_the_default_and_keeps_nothing(tmp_path):
    t = AtATerminal("play", "--plain", "--bots", "1", identity=str(tmp_path / "me.pem"))
    try:
        assert t.line() == f"Your name, kept for the next games (Enter: {default_name()}):"
        t.send("")
        assert t.until("Seats:").startswith(f"Seats: {default_name()},")
    finally:
        t.stop()
    assert not (tmp_path / "me.name").exists()  # asked again next time


def test_a_kept_name_is_not_asked_again_and_is_the_practice_tables_name(tmp_path):
    (tmp_path / "me.name").write_text("Ana\n", "utf-8")
    t = AtATerminal("play", "--plain", "--bots", "1", identity=str(tmp_path / "me.pem"))
    try:
        assert t.until("Seats:").startswith("Seats: Ana,")  # not the login's "root"
        assert t.prompt() == ["Ready", "Start the game"]
        assert not any("Your name" in line for line in t.lines)
    finally:
        t.stop()


def test_without_a_terminal_the_default_is_taken_without_a_question(tmp_path):
    t = Transcript("play", "--plain", "--bots", "1", identity=str(tmp_path / "me.pem"))
    try:
        assert t.prompt() == ["Ready", "Start the game"]
        assert not any("Your name" in line for line in t.lines)
        t.send("quit")
    finally:
        t.close()
    assert not (tmp_path / "me.name").exists()  # asked nothing, so nothing kept


def test_a_name_the_server_does_not_use_for_a_key_it_knew_is_said(tmp_path):
    key = str(tmp_path / "me.pem")
    (tmp_path / "me.name").write_text("Ana\n", "utf-8")
    first = Transcript("play", "--plain", "--bots", "1", identity=key)
    try:
        assert first.prompt() == ["Ready", "Start the game"]  # the practice server knows Ana
        first.send("quit")
    finally:
        first.close()
    again = Transcript("play", "--plain", "--bots", "1", "--name", "Bia", identity=key)
    try:
        assert again.until("Known here as") == (
            "Known here as Ana: this server keeps the name your key first played under, so "
            "Bia was not used.")
        again.send("quit")
    finally:
        again.close()


def test_each_profile_is_a_player_of_its_own(capsys):
    def key(*argv: str) -> str:
        assert main([*argv, "key"]) == 0
        return capsys.readouterr().out.strip()

    ana, bia, mine = key("--profile", "ana"), key("--profile", "bia"), key()
    assert len({ana, bia, mine}) == 3
    assert key("--profile", "ana") == ana  # kept: the same player next time


def test_a_profile_name_that_cannot_name_a_directory_is_refused(capsys):
    assert main(["--profile", "../bia", "key"]) == 2
    assert "no profile '../bia'" in capsys.readouterr().err


def test_the_help_names_the_profiles(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "--profile NAME" in capsys.readouterr().out


def test_a_name_is_kept_beside_its_key_and_read_back_as_it_was_given(tmp_path):
    identity = load(str(tmp_path / "me.pem"))
    assert identity.kept_name() is None  # a first run
    identity.keep_name("  Ana  ")
    assert (tmp_path / "me.name").read_text("utf-8") == "Ana\n"
    assert load(str(tmp_path / "me.pem")).kept_name() == "Ana"


@pytest.mark.parametrize("written, kept", [
    (b"\n", None), (b"\xff\xfe not utf-8", None),  # nothing usable: asked again
    (b"x" * 100_000, "x" * NAME_LENGTH),  # a long one is cut to a name, not read whole
    (b"Ana\x1b[2J\n", None),  # one a terminal would obey is no name: asked again
    (b"  Bia  \n", "Bia"),
])
def test_a_name_file_is_read_for_a_name_and_no_more(tmp_path, written, kept):
    identity = load(str(tmp_path / "me.pem"))
    (tmp_path / "me.name").write_bytes(written)
    assert identity.kept_name() == kept


def test_the_default_name_is_the_login_unless_it_is_an_accounts_role(monkeypatch):
    monkeypatch.setattr("getpass.getuser", lambda: "ana")
    assert default_name() == "ana"
    monkeypatch.setattr("getpass.getuser", lambda: "root")
    assert default_name() == "player"  # no one wants "root (you)"
