"""Driving `coup ... --plain` through pipes, as a transcript: a real process, lines sent to
its stdin, its stdout read line by line by a thread into a queue, every wait bounded by a
deadline (no sleeps). `Transcript.play` answers every prompt by a policy until the game is
over, noting which kinds of decision it met.
"""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time

#: Seconds a test waits for a line before it fails.
WAIT = 20
#: A prompt: its question, the seconds left if a clock runs, and the numbered choices.
PROMPT = re.compile(r"^(?P<question>.*?)(?: \((?P<seconds>\d+) s\))?: (?P<choices>1 .*)$")


def choices_of(line: str) -> list[str] | None:
    """The labels of a prompt line's choices, in order; None for a line that is no prompt
    (its choices must number 1, 2, 3... in turn)."""
    found = PROMPT.match(line)
    if not found:
        return None
    labels = []
    for n, part in enumerate(found["choices"].split("; "), 1):
        number, _space, label = part.partition(" ")
        if number != str(n) or not label:
            return None
        labels.append(label)
    return labels


class Transcript:
    """A `coup` process in plain mode, stopped at the end of the test."""

    def __init__(self, *argv: str, lang: str = "en", identity: str | None = None) -> None:
        """`coup ARGV…` in `lang`, as a guest, or with the key in the file `identity`."""
        env = dict(os.environ, PYTHONIOENCODING="utf-8", TERM="xterm")
        who = ["--identity", identity] if identity else ["--guest"]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "client.cli", "--lang", lang, *who, *argv],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.lines: list[str] = []
        self.raw: list[bytes] = []
        #: The lines sent, in order: the answers that play this transcript back.
        self.sent: list[str] = []
        self.errors: str | None = None
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for raw in self.process.stdout:
            self.raw.append(raw)
            self._queue.put(raw.decode("utf-8").rstrip("\n"))
        self._queue.put(None)

    def send(self, line: str) -> None:
        self.sent.append(line)
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def line(self, timeout: float = WAIT) -> str:
        """The next line; fails at the deadline or at the end of the output."""
        try:
            line = self._queue.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no line came; the last were {self.lines[-8:]}") from None
        if line is None:
            raise AssertionError(f"the output ended; the last lines were {self.lines[-8:]}")
        self.lines.append(line)
        return line

    def rest(self, timeout: float = WAIT) -> list[str]:
        """Every line left, until the output ends; fails at the deadline."""
        deadline = time.monotonic() + timeout
        start = len(self.lines)
        while True:
            try:
                line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"the output went on; the last lines were "
                                     f"{self.lines[-8:]}") from None
            if line is None:
                return self.lines[start:]
            self.lines.append(line)

    def until(self, wanted, timeout: float = WAIT) -> str:
        """Read lines until one for which `wanted` (a string it must contain, or a
        predicate) is true; returns it."""
        test = wanted if callable(wanted) else (lambda line: wanted in line)
        deadline = time.monotonic() + timeout
        while True:
            line = self.line(max(0.0, deadline - time.monotonic()))
            if test(line):
                return line

    def prompt(self, timeout: float = WAIT) -> list[str]:
        """The next prompt's choices."""
        return choices_of(self.until(lambda line: choices_of(line) is not None, timeout))

    def close(self) -> str:
        """End the process (it should have ended: then its exit status is 0); returns its
        error output (again, for a second call)."""
        if self.errors is not None:
            return self.errors
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.process.wait(WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join(WAIT)
        self.errors = self.process.stderr.read().decode()
        self.process.stdout.close()
        self.process.stderr.close()
        return self.errors
