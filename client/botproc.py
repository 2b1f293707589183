"""A bot in any language: the host side of the line protocol of docs/BOTS.md.

A bot is a program that reads JSON lines on stdin and writes JSON lines on stdout.
`BotProcess` owns one such process: it starts it (the command split with shlex, run without
a shell, in the caller's working directory and environment, in a session of its own so that
its children end with it), writes it lines and reads its lines back, each within a deadline
and each bounded in length, keeps what it writes on stderr in a file of its own (cut at
STDERR_BYTES), and ends it: goodbye, then SIGTERM, then SIGKILL, each after a grace, and
always reaped. `ExecStrategy` speaks protocol 1 through it as a Strategy, so that every host
of strategies (the arena, `coup position`, the network runner) runs a bot process as it runs
a built-in one; `strategy_for` makes either from an entrant's name.

What a bot is sent is what the wire sends its seat, in the same dicts (View.to_dict,
Event.to_dict, Move.to_dict): never another seat's hidden card, and no second encoding. A bot
that breaks (it exits, hangs past its time, writes what is not an answer, answers a move it
was not offered, floods its output, never says ready, closes its pipes) is told why while it
can still hear, ended, reported in ONE line on stderr that names it and quotes what it sent
(shortened and made terminal-safe by protocol.text.shown), and its strategy raises
Withdrawn from then on. Nothing here ever waits on a bot past a deadline, or trusts a size it
states.
"""

from __future__ import annotations

import json
import os
import re
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import IO, Any, ClassVar

import platformdirs

from engine import Event, Move, View
from engine.bots import Strategy, Withdrawn, known, make
from engine.errors import IllegalMove
from protocol.text import shown

#: The version of the line protocol this host speaks (hello's "protocol").
PROTOCOL = 1
#: An entrant's name that names a bot process: "exec:" and its command line.
PREFIX = "exec:"
#: Seconds a bot has for each decision, unless a clock says less.
SECONDS = 5.0
#: Seconds a bot has to say ready after hello: it may have an interpreter to start.
READY_SECONDS = 10.0
#: Seconds a bot is given to exit after goodbye, and again after SIGTERM.
GRACE = 1.0
#: The longest line a bot may write, in bytes (an answer is a hundred or so).
MAX_LINE = 4096
#: The most of its stderr kept for its author, in bytes; the rest is read and dropped.
STDERR_BYTES = 1 << 20
#: How much of what a bot sent its one line of stderr quotes, in characters.
QUOTED = 80

_CHUNK = 65536


class Broke(Exception):
    """Why a bot process can play no more, and what it sent that showed it (if anything)."""

    def __init__(self, why: str, sent: bytes | str | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.sent = sent


def quoted(sent: bytes | str) -> str:
    """What a bot sent, as its line of stderr quotes it: shortened, terminal-safe."""
    text = sent.decode("utf-8", "replace") if isinstance(sent, bytes) else sent
    if len(text) > QUOTED:
        text = text[:QUOTED] + "…"
    return shown(text)


def logs_directory() -> Path:
    """Where bots' stderr files go unless a host says: the user's data directory's bots/."""
    return Path(platformdirs.user_data_dir("coup", appauthor=False)) / "bots"


# ------------------------------------------------------------------ the host's messages
# One class a message type, its fields in the order docs/BOTS.md lists them. The view, the
# events and the moves in them are already the wire's dicts (to_dict), never re-encoded.


@dataclass(frozen=True, slots=True)
class Message:
    """A line from the host to a bot: `as_json` is the object written, `type` first."""

    TYPE: ClassVar[str] = ""

    def as_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, **{f.name: getattr(self, f.name) for f in fields(self)}}


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """The first line: the bot answers {"ready": true}."""

    TYPE: ClassVar[str] = "hello"
    protocol: int
    seat: int
    players: list[str]
    options: dict[str, Any]
    time: float


@dataclass(frozen=True, slots=True)
class NewGame(Message):
    """Another game for the same process (a rematch, the arena's next game): no answer."""

    TYPE: ClassVar[str] = "new_game"
    seat: int
    players: list[str]
    options: dict[str, Any]
    time: float


@dataclass(frozen=True, slots=True)
class Events(Message):
    """What the seat may see of a move, as the wire's update gives it."""

    TYPE: ClassVar[str] = "events"
    events: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Decide(Message):
    """A decision the seat owes: the bot answers {"move": ...} within `time` seconds."""

    TYPE: ClassVar[str] = "decide"
    id: int
    view: dict[str, Any]
    moves: list[dict[str, Any]]
    time: float


@dataclass(frozen=True, slots=True)
class Refusal(Message):
    """Why the answer to decision `id` was refused (the bot is ended after it)."""

    TYPE: ClassVar[str] = "error"
    id: int
    message: str


@dataclass(frozen=True, slots=True)
class GameOver(Message):
    """The game's end: its winner, the seats first to last, the seat's final view."""

    TYPE: ClassVar[str] = "game_over"
    winner: int | None
    places: list[int]
    view: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Goodbye(Message):
    """The host is done with the bot, which should exit (its input closes next)."""

    TYPE: ClassVar[str] = "goodbye"


class BotProcess:
    """One bot program, running: lines to it and from it, each within a deadline."""

    def __init__(self, argv: Sequence[str], stderr_file: Path) -> None:
        stderr_file.parent.mkdir(parents=True, exist_ok=True)
        self.stderr_file = stderr_file
        try:
            self._process = subprocess.Popen(
                list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, bufsize=0)
        except OSError as exc:
            raise Broke(f"could not start: {exc.strerror or exc}") from None
        stdin, stdout, stderr = self._process.stdin, self._process.stdout, self._process.stderr
        assert stdin is not None and stdout is not None and stderr is not None  # all PIPE
        self._in = stdin.fileno()
        self._out = stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._buffer = bytearray()
        self._keeper = threading.Thread(target=_keep, args=(stderr, stderr_file), daemon=True)
        self._keeper.start()

    @property
    def pid(self) -> int:
        return self._process.pid

    def send(self, message: Message, deadline: float) -> None:
        """Write `message` as one line, by `deadline` (time.monotonic) at the latest."""
        data = memoryview(json.dumps(message.as_json(), ensure_ascii=False,
                                     separators=(",", ":")).encode() + b"\n")
        while data:
            try:
                data = data[os.write(self._in, data):]
            except BlockingIOError:
                if not _ready(self._in, select.POLLOUT, deadline):
                    raise Broke("stopped reading its input") from None
            except (BrokenPipeError, ConnectionResetError):
                raise Broke(self._gone("closed its input")) from None

    def unasked(self) -> bytes:
        """What the bot has written that nobody asked for yet (b"" if nothing)."""
        if not self._buffer and _ready(self._out, select.POLLIN, 0.0):
            self._fill()
        return bytes(self._buffer)

    def receive(self, deadline: float, waited: str) -> bytes:
        """The bot's next line (without its newline), by `deadline`; Broke(`waited`) if none
        comes in time. Never holds more than MAX_LINE + one read of the bot's output."""
        while (end := self._buffer.find(b"\n")) < 0:
            if len(self._buffer) > MAX_LINE:
                raise Broke(f"wrote a line longer than {MAX_LINE} bytes", bytes(self._buffer))
            if not _ready(self._out, select.POLLIN, deadline):
                raise Broke(waited, bytes(self._buffer) or None)
            if not self._fill():
                raise Broke(self._gone("closed its output"), bytes(self._buffer) or None)
        if end > MAX_LINE:
            raise Broke(f"wrote a line longer than {MAX_LINE} bytes", bytes(self._buffer[:end]))
        line = bytes(self._buffer[:end])
        del self._buffer[:end + 1]
        return line

    def _fill(self) -> bool:
        """Read what the bot wrote into the buffer; False at the end of its output."""
        try:
            chunk = os.read(self._out, _CHUNK)
        except BlockingIOError:
            return True
        self._buffer += chunk
        return bool(chunk)

    def _gone(self, otherwise: str) -> str:
        """How the bot went: its exit, if it exited within a moment, else `otherwise`."""
        try:
            code = self._process.wait(0.2)
        except subprocess.TimeoutExpired:
            return otherwise
        return f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"

    def end(self, goodbye: Goodbye | None, grace: float) -> None:
        """Stop the bot and reap it: `goodbye` said (if given) and its input closed, then
        SIGTERM and SIGKILL to its whole session, each after `grace` seconds of waiting."""
        if goodbye is not None and self._process.poll() is None:
            try:
                self.send(goodbye, time.monotonic() + grace)
            except Broke:
                pass  # it is past hearing: the signals below end it
        for pipe in (self._process.stdin, self._process.stdout):
            assert pipe is not None
            pipe.close()
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None:
                try:
                    os.killpg(self._process.pid, sig)
                except ProcessLookupError:
                    pass  # the session is empty already
            try:
                self._process.wait(grace if goodbye is not None or sig is not None else 0)
                break
            except subprocess.TimeoutExpired:
                continue
        self._sweep()
        self._keeper.join(grace)

    def _sweep(self) -> None:
        """SIGKILL whatever the bot left running in its session (children of its own)."""
        try:
            os.killpg(self._process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self._process.wait()


def _ready(fd: int, event: int, deadline: float) -> bool:
    """Whether `fd` is ready for `event` (or at its end) before `deadline`."""
    poller = select.poll()
    poller.register(fd, event)
    timeout = max(0.0, deadline - time.monotonic())
    return bool(poller.poll(timeout * 1000))


def _keep(stderr: IO[bytes], path: Path) -> None:
    """Copy a bot's stderr into `path` until its end, the first STDERR_BYTES of it; the rest
    is read (so the bot never blocks on it) and dropped, with a note that it was."""
    kept = 0
    with stderr, path.open("wb") as file:
        while chunk := stderr.read(_CHUNK):
            if kept < STDERR_BYTES:
                file.write(chunk[:STDERR_BYTES - kept])
                kept += len(chunk)
                if kept >= STDERR_BYTES:
                    file.write(f"\n[coup: the rest cut, past {STDERR_BYTES} bytes]\n".encode())
                file.flush()


def _slug(argv: Sequence[str]) -> str:
    """A bot's command as a file name's part: its program's name, or its script's (the
    first argument that is no option), in letters, digits, dots and dashes, at most 40."""
    named = next((a for a in argv[1:] if not a.startswith("-")), argv[0])
    return re.sub(r"[^A-Za-z0-9.-]+", "_", Path(named).name).strip("_")[:40] or "bot"


class ExecStrategy(Strategy):
    """A bot process behind the Strategy interface, speaking line protocol 1.

    The process starts with the first game it is told of (hello, then its ready); each later
    game begins with new_game. `seconds` is its time for a decision unless a host's clock
    says (`clock`); `report` is where its one line goes when it breaks (stderr)."""

    name = "exec"

    def __init__(self, command: str, seed: int | None = None, *, seconds: float = SECONDS,
                 ready_seconds: float = READY_SECONDS, grace: float = GRACE,
                 logs: Path | None = None,
                 report: Callable[[str], None] | None = None) -> None:
        super().__init__(seed)
        self.command = command
        self.argv = shlex.split(command)
        self.seconds = seconds
        self.ready_seconds = ready_seconds
        self.grace = grace
        self.logs = logs or logs_directory()
        self.report = report or _to_stderr
        #: Who the bot is in messages: its command, then the name it gives with ready.
        self.label = quoted(command)
        #: Why it can play no more, once it broke (its line of stderr says it too).
        self.withdrawn: str | None = None
        self._process: BotProcess | None = None
        #: The file its stderr is kept in, and its process id, once it started (both kept
        #: after it ended).
        self.stderr_file: Path | None = None
        self.pid: int | None = None
        self._names: list[str] | None = None
        self._clock: float | None = None
        self._seat: int | None = None  # the seat of the game in hand; None between games
        self._decision = 0


    # ------------------------------------------------------------------ the Strategy hooks

    def seated(self, names: Sequence[str]) -> None:
        self._names = list(names)

    def clock(self, seconds: float | None) -> None:
        self._clock = seconds

    def observe(self, view: View, events: Sequence[Event]) -> None:
        self._begin(view)
        if events:
            self._send(Events([e.to_dict() for e in events]))

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        self._begin(view)
        process = self._process
        assert process is not None  # _begin started it
        self._decision += 1
        seconds = self.seconds if self._clock is None else min(self.seconds, self._clock)
        self._clock = None  # a clock's word is for the one decision it was told before
        try:
            if extra := process.unasked():
                raise Broke("wrote a line nobody asked for", extra)
            process.send(Decide(self._decision, view.to_dict(), [m.to_dict() for m in moves],
                                round(seconds, 3)), time.monotonic() + seconds)
            line = process.receive(time.monotonic() + seconds,
                                   f"gave no move within {seconds:g} s")
            try:
                return _answer(line, self._decision, moves)
            except Broke as refused:
                try:  # tell the bot why, if it still hears; goodbye then lets it go
                    process.send(Refusal(self._decision, refused.why),
                                 time.monotonic() + self.grace)
                except Broke:
                    raise self._broke(refused) from None
                raise self._broke(refused, Goodbye()) from None
        except Broke as broke:
            raise self._broke(broke) from None

    def game_over(self, view: View) -> None:
        if self.withdrawn is not None or self._seat is None:
            return
        self._seat = None
        places = ([] if view.winner is None else [view.winner]) + list(reversed(view.exiled))
        try:
            self._send(GameOver(view.winner, places, view.to_dict()))
        except Withdrawn:
            pass  # its game is over: nothing to forfeit (its line said what broke)

    def close(self) -> None:
        if self._process is not None:
            self._process.end(None if self.withdrawn else Goodbye(), self.grace)
            self._process = None

    def next_game(self) -> None:
        """A new game begins for this process: the one in hand, if its host stopped it
        without game_over (another entrant forfeited), is over, and the next view is told
        with new_game."""
        self._seat = None

    # ------------------------------------------------------------------ the protocol

    def _begin(self, view: View) -> None:
        """Make sure the bot knows of the game of `view`: hello (starting it) or new_game."""
        if self.withdrawn is not None:
            raise Withdrawn(self.withdrawn)
        if self._seat is not None:
            return
        assert view.seat is not None  # a strategy plays a seat
        self._seat = view.seat
        players = self._names or [f"seat {s}" for s in range(view.options.players)]
        options = view.options.to_dict()
        if self._process is not None:
            self._send(NewGame(view.seat, players, options, self.seconds))
            return
        try:
            self.stderr_file = self.logs / f"{_slug(self.argv)}-{os.getpid()}-{id(self):x}.stderr"
            self._process = BotProcess(self.argv, self.stderr_file)
            self.pid = self._process.pid
            deadline = time.monotonic() + self.ready_seconds
            self._process.send(Hello(PROTOCOL, view.seat, players, options, self.seconds),
                               deadline)
            self._ready(self._process.receive(deadline,
                                              f"did not say ready within {self.ready_seconds:g} s"))
        except Broke as broke:
            raise self._broke(broke) from None

    def _ready(self, line: bytes) -> None:
        said = _object(line, {"ready", "name"}, "ready")
        if said.get("ready") is not True:
            raise Broke('said something else than {"ready": true}', line)
        name = said.get("name")
        if name is not None:
            if not isinstance(name, str) or not name.strip():
                raise Broke("gave a name that is not a string", line)
            self.label = f"{quoted(name.strip()[:40])} ({self.label})"

    def _send(self, message: Message) -> None:
        assert self._process is not None
        try:
            self._process.send(message, time.monotonic() + self.seconds)
        except Broke as broke:
            raise self._broke(broke) from None

    def _broke(self, broke: Broke, goodbye: Goodbye | None = None) -> Withdrawn:
        """The bot is past playing: say so once, end it (with `goodbye` if it still hears),
        and the Withdrawn to raise."""
        said = f"; it sent: {quoted(broke.sent)}" if broke.sent else ""
        self.withdrawn = f"{broke.why}{said}"
        where = f" (its stderr: {self.stderr_file})" if self.stderr_file else ""
        self.report(f"coup: bot {self.label} {self.withdrawn}{where}")
        if self._process is not None:
            self._process.end(goodbye, self.grace)
            self._process = None
        return Withdrawn(self.withdrawn)


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _object(line: bytes, keys: set[str], needed: str) -> dict[str, Any]:
    """`line` as a JSON object with only `keys` and at least `needed`; Broke if not."""
    try:
        said = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        raise Broke("wrote a line that is not UTF-8", line) from None
    except (ValueError, RecursionError):
        raise Broke("wrote a line that is not JSON", line) from None
    if not isinstance(said, dict):
        raise Broke("wrote JSON that is not an object", line)
    if needed not in said or not keys.issuperset(said):
        wrong = sorted(set(said) - keys)
        raise Broke(f"wrote an object with the wrong fields ({needed!r} needed"
                    + (f", {quoted(', '.join(map(repr, wrong)))} unknown)" if wrong else ")"),
                    line)
    return said


def _answer(line: bytes, decision: int, moves: Sequence[Move]) -> Move:
    """The move `line` answers decision `decision` with: an index into `moves`, or a move
    in full that is one of them; Broke saying why not."""
    said = _object(line, {"move", "id"}, "move")
    if "id" in said and said["id"] != decision:
        raise Broke(f"answered decision {quoted(repr(said['id']))}, not {decision}", line)
    chosen = said["move"]
    if type(chosen) is int:
        if not 0 <= chosen < len(moves):
            raise Broke(f"chose move {quoted(str(chosen))}, not one of 0 to {len(moves) - 1}",
                        line)
        return moves[chosen]
    if isinstance(chosen, dict):
        try:
            m = Move.from_dict(chosen)
        except IllegalMove as exc:
            raise Broke(f"sent no move ({exc.code})", line) from None
        if m not in moves:
            raise Broke("chose a move it was not offered", line)
        return m
    raise Broke("sent a move that is neither an index nor a move object", line)


def strategy_for(name: str, seed: int | None = None, *, settings: dict[str, float] | None = None,
                 seconds: float = SECONDS, logs: Path | None = None) -> Strategy:
    """The strategy an entrant's `name` names: "exec:CMD ARGS" a bot process (ExecStrategy,
    `seconds` a decision, its stderr in `logs`), else a built-in strategy or level made with
    `seed` and `settings`. KeyError for a name that is neither; ValueError for an exec:
    with no command. The caller closes it when done (a no-op for a built-in)."""
    if name.startswith(PREFIX):
        command = name[len(PREFIX):]
        if not shlex.split(command):
            raise ValueError("exec: needs a command, e.g. exec:'python3 bot.py'")
        return ExecStrategy(command, seed, seconds=seconds, logs=logs)
    return make(name, seed, **(settings or {}))


def entrant(name: str) -> bool:
    """Whether `strategy_for` knows `name`: a strategy, a level, or exec: and a command."""
    if name.startswith(PREFIX):
        try:
            return bool(shlex.split(name[len(PREFIX):]))
        except ValueError:
            return False
    return known(name)


class Entrants:
    """Makes entrants' strategies by name, one call a game, for the arena's tournament
    (engine.bots.arena.Maker: name, seed, entrant index) and for `--tournament`'s
    (engine.bots.tournament.Factory: name, seed; each name once a game): a built-in strategy
    made fresh for each game, a bot process started once per entrant and kept from game to
    game, told each time that a new game begins (one that withdrew is closed, and a new one
    starts for its next game). A context manager: leaving it closes every bot process."""

    def __init__(self, settings: dict[str, dict[str, float]] | None = None, *,
                 seconds: float = SECONDS, logs: Path | None = None) -> None:
        self.settings = settings or {}
        self.seconds = seconds
        self.logs = logs
        self._kept: dict[tuple[str, int], ExecStrategy] = {}

    def __call__(self, name: str, seed: int, entrant: int = 0) -> Strategy:
        if not name.startswith(PREFIX):
            return make(name, seed, **self.settings.get(name, {}))
        kept = self._kept.get((name, entrant))
        if kept is not None and kept.withdrawn is None:
            kept.next_game()
            return kept
        if kept is not None:
            kept.close()
        made = self._kept[name, entrant] = ExecStrategy(name[len(PREFIX):], seed,
                                                        seconds=self.seconds, logs=self.logs)
        return made

    def close(self) -> None:
        for strategy in self._kept.values():
            strategy.close()
        self._kept.clear()

    def __enter__(self) -> Entrants:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
