"""The SSH door: anyone with `ssh` plays, with nothing to install (`coup ssh`, server/ssh.py).

An SSH server (asyncssh, in an asyncio process of its own; the game server stays trio and is
not touched). Each SSH session with a terminal gets the real client: `coup join` on a PTY of
its own (server/terminal.py), connected to the game server, with the session's size, resizes
and input. Its process is forked by the session host (server/hosting.py: one process that
has imported the client once), or with --spawn, or while no host can be had, started as a
program of its own. When the session ends or the connection drops, the process is ended;
when the process exits, the session closes with its exit status, or, for a client that used
up its --session-memory, with a sentence that says so.

Who is who: any SSH public key gets in and is the player's identity (`doorkey.ssh_key`); the
door vouches for it to the game server with the secret the two share, so the client process
never holds a key of its own, and no one without the secret can claim a key. It vouches,
the same way, for the address each player came from (`doorkey.vouch_address`), so that the
server's limits per address count the player and not the door. The SSH user
name is the display name; the game server's rule does the rest (a name belongs to the first
identity that used it). Without a key, keyboard-interactive auth with no prompt lets a
player in as a guest. Passwords are never asked for.

Limits: sessions in all, sessions from one address, new connections from one address a
minute, minutes without input (an IPv6 address counts as its /64, `sharer`); a terminal's
size (`Door.fit`). A connection holds a session's place only once it has logged in; until
then it has --login-seconds, and its address no more than --max-unauthenticated such
connections. A session refused, or one without a terminal (no PTY, a command, a
subsystem), is told why in a sentence on its channel before it closes. One
connection plays one session. The door never forwards ports, agents or X11.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import shutil
import signal
import sys
import tempfile
import time

import asyncssh
import platformdirs

from . import log
from .doorkey import sharer, ssh_key, vouch, vouch_address
from .hosting import OUT_OF_MEMORY, HostUnavailable, Order, SessionHost, out_of_memory
from .terminal import Program, Terminal, spawn

#: Host key file name in the user's data directory.
HOST_KEY_FILE = "ssh_host_ed25519_key"
#: Seconds a connection that has logged in has to open its session (and to be told why
#: not); logging in has --login-seconds.
LOGIN_WINDOW = 30
#: What a terminal is given back when the door ends the program on it: the main screen,
#: the cursor, no mouse reporting, no bracketed paste, plain colours.
RESET_TERMINAL = (b"\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l"
                  b"\x1b[?2004l\x1b[0m\r\n")
#: A display name's longest, as the game server takes it.
NAME_LENGTH = 32

#: The sentence for a session without a terminal.
NEEDS_TERMINAL = "The game needs a terminal: connect with ssh -t, and no command."
#: The sentence for a session whose input ended (ssh -tt host </dev/null).
NO_INPUT = "Your input ended; goodbye."
#: The most a terminal's size in pixels may say: what a PTY can hold.
MAX_PIXELS = 65535


def data_dir() -> str:
    return platformdirs.user_data_dir("coup", appauthor=False, ensure_exists=True)


def host_key(path: str) -> asyncssh.SSHKey:
    """The door's host key, kept at `path`: made there on first use (Ed25519, 0600); a
    ValueError if the file is there but is not an Ed25519 private key."""
    try:
        key = asyncssh.read_private_key(path)
    except FileNotFoundError:
        key = asyncssh.generate_private_key("ssh-ed25519", comment="coup ssh door")
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:  # another door made it meanwhile: use that one
            return host_key(path)
        with os.fdopen(fd, "wb") as file:
            file.write(key.export_private_key("openssh"))
    except (asyncssh.KeyImportError, OSError) as exc:
        raise ValueError(f"cannot read {path}: {exc}") from None
    if key.algorithm != b"ssh-ed25519":
        raise ValueError(f"{path} is not an Ed25519 private key")
    return key


def fingerprint_line(key: asyncssh.SSHKey) -> str:
    """The key as `ssh-keygen -lf` shows it: bits, SHA256 fingerprint, comment, type."""
    return f"256 {key.get_fingerprint('sha256')} {key.get_comment() or 'no comment'} (ED25519)"


def display_name(user: str) -> str:
    """The SSH user name as a name the game server takes: printable, trimmed, 32 at most."""
    name = "".join(c for c in user if c.isprintable()).strip()[:NAME_LENGTH].strip()
    return name or "player"


def clamp(value: int, low: int, high: int) -> int:
    """`value` brought within low..high: a size a client states is taken, never refused."""
    return max(low, min(high, value))


class Door:
    """The door's settings and the count of what is open, shared by every connection."""

    def __init__(self, args: argparse.Namespace, secret: bytes) -> None:
        self.server = args.server
        self.secret = secret
        self.max_sessions = args.max_sessions
        self.max_per_address = args.max_per_address
        self.per_minute = args.connections_per_minute
        self.idle = args.idle_minutes * 60
        self.idle_text = f"{args.idle_minutes:g}"
        self.max_columns = args.max_columns
        self.max_rows = args.max_rows
        self.players_dir = os.path.join(data_dir(), "door")
        self.open = 0
        self.by_address: collections.Counter[str] = collections.Counter()
        self.max_unauthenticated = args.max_unauthenticated
        self.login_seconds = args.login_seconds
        #: Connections that have not logged in yet, by address.
        self.unauthenticated: collections.Counter[str] = collections.Counter()
        self.arrivals: dict[str, collections.deque[float]] = {}
        self.visits: set[Visit] = set()
        self.sessions: set[Session] = set()
        self.tasks: set[asyncio.Task] = set()
        self.session_memory = args.session_memory
        #: Where sessions are forked from, once `serve` has started it; None with --spawn:
        #: a program each, as before.
        self.host: SessionHost | None = None

    async def start_client(self, args: list[str], env: dict[str, str], home: str,
                           slave: int) -> Program:
        """`coup` with `args` on the terminal `slave`: forked by the session host, or, with
        --spawn or no host to be had, a program of its own (slower, and three times the
        memory)."""
        if self.host is not None:
            try:
                return await self.host.run(Order(tuple(args), env, home, True),
                                           [slave, slave, slave])
            except HostUnavailable as exc:
                log.error("ssh_session_spawned", reason=str(exc))
        return await spawn([sys.executable, "-m", "client.cli", *args], env, home, slave)

    def spawn(self, work) -> None:
        """Run `work` (a coroutine) as a task the door keeps until it is done."""
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def fit(self, columns: int, rows: int, width: int, height: int
            ) -> tuple[int, int, int, int]:
        """A terminal's size as a client states it (SSH allows 32 bits, and 0 for "say
        nothing"), made one the client process can live with: a 65535x65535 screen grew
        it by 60 MB a second. Columns and rows within 1..the door's maximum, pixels within
        what a PTY holds."""
        return (clamp(columns or 80, 1, self.max_columns), clamp(rows or 24, 1, self.max_rows),
                clamp(width, 0, MAX_PIXELS), clamp(height, 0, MAX_PIXELS))

    def arrive(self, address: str) -> str | None:
        """A new connection from `address`, counted against its address's minute: None,
        or the sentence its session will be refused with (once it has logged in)."""
        address = sharer(address)
        now = time.monotonic()
        # The last per_minute + 1 arrivals tell whether there were more than per_minute in
        # the minute; a flood keeps no more than those.
        arrivals = self.arrivals.setdefault(address,
                                            collections.deque(maxlen=self.per_minute + 1))
        while arrivals and arrivals[0] <= now - 60:
            arrivals.popleft()
        arrivals.append(now)
        if len(arrivals) > self.per_minute:
            return (f"Too many connections from your address: {self.per_minute} a minute at "
                    "most. Wait a minute and try again.")
        return None

    def wait_for_login(self, address: str) -> bool:
        """Whether a connection from `address` may try to log in: False if its address has
        max_unauthenticated connections doing so already. It is counted until `logged_in`."""
        address = sharer(address)
        if self.unauthenticated[address] >= self.max_unauthenticated:
            return False
        self.unauthenticated[address] += 1
        return True

    def logged_in(self, address: str) -> None:
        """A connection from `address` is no longer waiting to log in: it has, or is gone."""
        _uncount(self.unauthenticated, sharer(address))

    def admit(self, address: str) -> str | None:
        """A connection from `address` has logged in: None if it may play (it is counted
        until `leave`), else the sentence that refuses it. Only a logged-in connection holds
        a session's place: ten addresses of silent TCP connections kept a 50-session door
        full."""
        address = sharer(address)
        if self.open >= self.max_sessions:
            return "The door is full. Try again in a while."
        if self.by_address[address] >= self.max_per_address:
            return (f"Too many sessions from your address: {self.max_per_address} at most. "
                    "Close one and try again.")
        self.open += 1
        self.by_address[address] += 1
        return None

    def leave(self, address: str) -> None:
        self.open -= 1
        _uncount(self.by_address, sharer(address))

    def forget_old_arrivals(self) -> None:
        """Drop the addresses that opened nothing in the last minute."""
        old = time.monotonic() - 60
        for address in [a for a, times in self.arrivals.items() if not times or times[-1] <= old]:
            del self.arrivals[address]


def _uncount(counts: collections.Counter[str], address: str) -> None:
    counts[address] -= 1
    if not counts[address]:
        del counts[address]


class Visit(asyncssh.SSHServer):
    """One SSH connection: its admission, its authentication, its one session."""

    def __init__(self, door: Door) -> None:
        self.door = door
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = ""
        self.refusal: str | None = None
        self.name = "player"
        self.key: str | None = None  # the identity; None for a guest
        self.session: Session | None = None
        self._timer: asyncio.TimerHandle | None = None
        self.waiting = False  # counted among its address's connections not logged in
        self.admitted = False  # counted among the door's sessions

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.door.visits.add(self)
        self.address = (conn.get_extra_info("peername") or ("?",))[0]
        self.refusal = self.door.arrive(self.address)
        if not self.door.wait_for_login(self.address):
            # Before SSH says anything there is no channel to tell it on: closed at once.
            log.info("ssh_refused", address=self.address, reason=(
                f"{self.door.max_unauthenticated} connections from the address are logging "
                "in already"))
            conn.close()
            return
        # asyncssh closes it if it has not logged in within --login-seconds.
        self.waiting = True

    def auth_completed(self) -> None:
        self.waiting = False
        self.door.logged_in(self.address)
        if self.refusal is None:
            self.refusal = self.door.admit(self.address)
            self.admitted = self.refusal is None
        if self.refusal is not None:
            log.info("ssh_refused", address=self.address, reason=self.refusal)
        self.close_later(LOGIN_WINDOW, unless_playing=True)

    def close_later(self, delay: float, unless_playing: bool = False) -> None:
        """Close the connection in `delay` seconds (if it has no game by then, or at any
        rate): one that has not logged in and started its game, or whose game is over, holds
        a place for nothing."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(delay, self._close, unless_playing)

    def _close(self, unless_playing: bool) -> None:
        if self.conn is not None and not (unless_playing and self.session is not None):
            self.conn.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self.waiting:
            self.door.logged_in(self.address)
        if self.admitted:
            self.door.leave(self.address)
        self.door.visits.discard(self)
        self.conn = None

    def begin_auth(self, username: str) -> bool:
        self.name = display_name(username)
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Called for each key offered, and again with its signature before that is checked:
        # the key of the last call is the one that logged in, if public key auth succeeds.
        self.key = ssh_key(key.public_data)
        return True

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        # A guest: no prompt, no key. A key offered before (and never signed for) is no
        # one's identity.
        self.key = None
        return True

    def password_auth_supported(self) -> bool:
        return False

    def session_requested(self) -> Session:
        return Session(self)


class Session(asyncssh.SSHServerSession):
    """One SSH session: a refusal in a sentence, or the client on a terminal."""

    def __init__(self, visit: Visit) -> None:
        self.visit = visit
        self.door = visit.door
        self.chan: asyncssh.SSHServerChannel | None = None
        self.terminal: Terminal | None = None
        self.early = bytearray()  # input typed before the client started
        self.last_input = time.monotonic()
        self.idle_timer: asyncio.TimerHandle | None = None
        self.muted = False  # the client's output no longer reaches the player
        self.gone = False  # the channel is closed
        self.home: str | None = None  # a guest's directories, removed at the end
        self.input_ended = False  # the player's end of the channel sent EOF

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self.chan = chan

    @property
    def channel(self) -> asyncssh.SSHServerChannel:
        """The session's channel: asyncssh hands it over before any other call."""
        assert self.chan is not None
        return self.chan

    def pty_requested(self, term_type, term_size, term_modes) -> bool:
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return True  # refused in a sentence once the session starts

    def subsystem_requested(self, subsystem: str) -> bool:
        return True  # likewise

    def session_started(self) -> None:
        chan, visit = self.channel, self.visit
        if visit.refusal is not None:
            self.refuse(visit.refusal)
        elif visit.session is not None:
            self.refuse("One game a connection: open another ssh session.")
        elif (chan.get_terminal_type() is None or chan.get_command() is not None
              or chan.get_subsystem() is not None):
            self.refuse(NEEDS_TERMINAL)
        else:
            visit.session = self
            self.door.sessions.add(self)
            self.door.spawn(self.play())

    def refuse(self, sentence: str, reset: bytes = b"") -> None:
        """Say `sentence` (after `reset`, for a terminal the client used) and close."""
        self.muted = True
        if not self.gone:
            self.channel.write(reset + b"coup: " + sentence.encode() + b"\r\n")
            self.channel.exit(1)
        self.visit.close_later(LOGIN_WINDOW)

    async def play(self) -> None:
        """Start the client on its terminal, relay, and close with its exit status."""
        chan, visit = self.channel, self.visit
        env = chan.get_environment()
        language = env.get("LC_ALL") or env.get("LANG") or ""
        # The lobby and nothing else: no menu whose practice and LAN servers would run on
        # this machine, and no other address to reach from here.
        # --name=NAME: a user name may begin with "-", and must never read as an option.
        args = ["join", self.door.server, f"--name={visit.name}", "--lobby-only"]
        if language.lower().startswith("pt"):
            args += ["--lang", "pt_BR"]
        if visit.key is None:
            args.append("--guest")
        try:
            home = self.make_home()
            env = self.environment(home)
            terminal = await Terminal.start(
                lambda slave: self.door.start_client(args, env, home, slave),
                self.door.fit(*chan.get_terminal_size()), self.output, self.drained)
        except OSError as exc:
            log.error("ssh_session_failed", address=visit.address, error=str(exc))
            self.refuse("The game could not start here. Try again later.")
            self.end_of_session()
            return
        self.terminal = terminal
        if self.gone:
            await terminal.end()
            self.end_of_session()
            return
        log.info("ssh_session", address=visit.address, name=visit.name, pid=terminal.pid,
                 player=visit.key or "guest")
        if self.early:
            self.input(bytes(self.early))
        if self.input_ended:
            self.door.spawn(self.end(NO_INPUT))
        else:
            self.watch_idle()
        status = await terminal.wait()
        if status == OUT_OF_MEMORY and not self.muted:
            log.warning("ssh_session_out_of_memory", address=visit.address, name=visit.name,
                        pid=terminal.pid, limit_mb=self.door.session_memory)
            self.refuse(out_of_memory(self.door.session_memory), RESET_TERMINAL)
        elif not self.muted:
            chan.exit(status)
        self.end_of_session()

    def make_home(self) -> str:
        """The client's own config and data directories: a player's are kept (a key's choices
        persist), a guest's are temporary."""
        if self.visit.key is None:
            home = self.home = tempfile.mkdtemp(prefix="coup-door-guest-")
        else:
            home = os.path.join(self.door.players_dir, self.visit.key)
        for folder in ("config", "data"):
            os.makedirs(os.path.join(home, folder), mode=0o700, exist_ok=True)
        return home

    def environment(self, home: str) -> dict[str, str]:
        """What the client's process is given: none of the door's own environment but the
        program path, so that no secret of the door's reaches a player."""
        visit = self.visit
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
               "TERM": self.channel.get_terminal_type() or "xterm",
               "LANG": "C.UTF-8", "USER": visit.name, "LOGNAME": visit.name,
               "XDG_CONFIG_HOME": os.path.join(home, "config"),
               "XDG_DATA_HOME": os.path.join(home, "data")}
        if "PYTHONPATH" in os.environ:
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        # Where the player is, so that the server's limits per address count them, not the
        # door (client/identity.py reads it).
        env["COUP_DOOR_ADDRESS"] = f"{vouch_address(self.door.secret, visit.address)}:" \
            f"{visit.address}"
        if visit.key is not None:
            env["COUP_DOOR_IDENTITY"] = f"{visit.key}:{vouch(self.door.secret, visit.key)}"
        return env

    def output(self, data: bytes) -> None:
        if not self.muted:
            self.channel.write(data)

    def drained(self) -> None:
        if not self.gone:
            self.channel.resume_reading()

    def pause_writing(self) -> None:
        if self.terminal is not None:
            self.terminal.pause_output()

    def resume_writing(self) -> None:
        if self.terminal is not None:
            self.terminal.resume_output()

    def data_received(self, data: bytes, datatype) -> None:
        self.last_input = time.monotonic()
        self.input(data)

    def eof_received(self) -> bool:
        """The player will type nothing more: the game ends, as when idle, with a sentence
        (the channel stays open for it)."""
        self.input_ended = True
        if self.terminal is not None and not self.muted:
            self.door.spawn(self.end(NO_INPUT))
        return True

    def input(self, data: bytes) -> None:
        if self.terminal is None:
            self.early += data[:4096 - len(self.early)]
        elif not self.terminal.write(data):
            self.channel.pause_reading()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        if self.terminal is not None:
            self.terminal.resize(*self.door.fit(width, height, pixwidth, pixheight))

    def watch_idle(self) -> None:
        quiet = time.monotonic() - self.last_input
        if quiet < self.door.idle:
            self.idle_timer = asyncio.get_running_loop().call_later(
                self.door.idle - quiet, self.watch_idle)
            return
        self.door.spawn(self.end(f"No input for {self.door.idle_text} minutes; goodbye."))

    async def end(self, sentence: str) -> None:
        """End the client, and say `sentence` on the terminal given back."""
        self.muted = True  # the client's last words are not the player's to see
        assert self.terminal is not None  # ended only once play started it
        await self.terminal.end()
        self.refuse(sentence, RESET_TERMINAL)

    def connection_lost(self, exc: Exception | None) -> None:
        self.muted = self.gone = True
        if self.idle_timer is not None:
            self.idle_timer.cancel()
        if self.terminal is not None and self.terminal.process.returncode is None:
            self.door.spawn(self.terminal.end())

    def end_of_session(self) -> None:
        """The client is gone: forget the session, and a guest's directories."""
        self.door.sessions.discard(self)
        if self.idle_timer is not None:
            self.idle_timer.cancel()
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)
        self.visit.close_later(5)  # one game a connection: the client closes it, or the door
        if self.terminal is not None:
            log.info("ssh_session_ended", address=self.visit.address, name=self.visit.name,
                     pid=self.terminal.pid, status=self.terminal.status)


async def serve(args: argparse.Namespace, key: asyncssh.SSHKey, secret: bytes) -> None:
    """Run the door until SIGINT or SIGTERM, then end every session's client."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    door = Door(args, secret)
    acceptor = await asyncssh.create_server(
        lambda: Visit(door), args.host, args.port, server_host_keys=[key],
        line_editor=False, encoding=None, login_timeout=door.login_seconds, allow_scp=False,
        agent_forwarding=False, x11_forwarding=False, password_auth=False, gss_host=None,
        keepalive_interval=30, keepalive_count_max=3)
    host, port = acceptor.sockets[0].getsockname()[:2]
    reach = "every interface: reachable from other machines" if host in (
        "0.0.0.0", "::") else "this machine only" if host.startswith(
        ("127.", "::1")) else "this address"
    if not args.spawn:
        door.host = SessionHost(args.session_memory,
                                lambda event, fields: log.info(event, **fields))
        try:
            await door.host.start()  # the first session need not wait for it
        except HostUnavailable as exc:
            log.error("session_host_failed", reason=str(exc))
    log.info("ssh_listening", host=host, port=port, reach=reach, server=args.server,
             fingerprint=key.get_fingerprint("sha256"))
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), 60)
        except TimeoutError:
            door.forget_old_arrivals()
    log.info("ssh_shutting_down", sessions=len(door.sessions))
    acceptor.close()
    for session in list(door.sessions):
        if session.terminal is not None:
            door.spawn(session.end("The door is closing; goodbye."))
        elif session.visit.conn is not None:  # its client still starting: ended once started
            session.visit.conn.close()
    while door.tasks:  # each client ended, each player told
        await asyncio.gather(*door.tasks)
    connections = [visit.conn for visit in door.visits if visit.conn is not None]
    for conn in connections:
        conn.close()
    await asyncio.gather(*(conn.wait_closed() for conn in connections))
    await acceptor.wait_closed()
    if door.host is not None:
        await door.host.close()
