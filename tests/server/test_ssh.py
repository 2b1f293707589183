"""The SSH door, `coup ssh`, run as a host runs it: `coup serve` and `coup ssh` as programs on
loopback sharing a door secret, and SSH clients (asyncssh) that play the real client on a
terminal, resize it, leave, come back with their key, come without one, or are turned away
by a limit or for having no terminal, each told why in a sentence.

The game server and the doors are shared by the module's tests (each starts in about a
second, and every session of the door starts a client process). The tests are trio tests, as
every server test is; the SSH clients run in asyncio, asyncssh's loop, in a worker thread.
Limits count per address: each test that meets one connects from its own loopback address
(127.0.0.N), so the tests do not count against each other.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import fcntl
import hashlib
import json
import os
import re
import signal
import socket
import stat
import struct
import subprocess
import sys
import termios
import threading
import time

import asyncssh
import pytest
import trio

from server.door import NEEDS_TERMINAL, Door, Visit, display_name
from server.doorkey import vouch
from server.hosting import Order
from server.terminal import Terminal, spawn

COUP = [sys.executable, "-m", "client.cli"]
#: Escape sequences: CSI (colours, cursor moves, modes), OSC, charsets, and two-byte ones.
ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
                     rb"|\x1b[()][0-9A-Za-z]|\x1b[@-Z\\-_=>]")
#: A cursor move to row N: the rows a screen is drawn on.
CURSOR_ROW = re.compile(rb"\x1b\[(\d+);\d+H")
#: Seconds to wait for what a test waits for, at the most.
PATIENCE = 15
#: The seed the game server deals every table from.
SEED = "3"


class Program:
    """A `coup` command the tests run, with the JSON lines of its log collected as they come."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen(COUP + args + ["--log-json"], env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.lines: list[dict] = []
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read)
        self.reader.start()

    def _read(self) -> None:
        for raw in self.process.stderr:
            try:
                line = json.loads(raw)
            except ValueError:
                line = {"event": "text", "text": raw.decode(errors="replace")}
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()

    def event(self, name: str, /, **fields) -> dict:
        """The first line logged for event `name` with `fields`, waiting for it."""
        deadline = time.monotonic() + PATIENCE
        with self.changed:
            while True:
                for line in self.lines:
                    if line.get("event") == name and all(
                            str(line.get(k)) == str(v) for k, v in fields.items()):
                        return line
                left = deadline - time.monotonic()
                assert left > 0, f"no {name} {fields} in {self.lines}"
                self.changed.wait(left)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        finally:
            if self.process.returncode is None:
                self.process.kill()
                self.process.wait()
            self.reader.join()
            self.process.stderr.close()


class Site:
    """The game server and two doors onto it: one with the default limits, one with small ones."""

    def __init__(self, root) -> None:
        self.secret_path = str(root / "door.secret")
        self.host_key = str(root / "host_key")
        self.tmp = root / "door-tmp"  # where the door makes guests' directories
        self.tmp.mkdir()
        self.env = dict(os.environ, XDG_DATA_HOME=str(root / "data"),
                        XDG_CONFIG_HOME=str(root / "config"), TMPDIR=str(self.tmp))
        self.programs: list[Program] = []
        # Quick play fills a table with bots at once; every table deals from one seed, so
        # the player of a two-seat table is first to move.
        self.server = self.run(["serve", "--port", "0", "--db", ":memory:", "--bot-delay",
                                "0", "--queue-bot-fill", "0.1", "--seed", SEED,
                                "--door-secret", self.secret_path])
        self.server_port = int(self.server.event("listening")["port"])
        self.door = self.run_door()
        self.tight = self.run_door("--max-sessions", "3", "--max-per-address", "1",
                                   "--connections-per-minute", "3", "--idle-minutes", "0.03")

    def run(self, args: list[str]) -> Program:
        program = Program(args, self.env)
        self.programs.append(program)
        return program

    def run_door(self, *limits: str) -> Program:
        door = self.run(["ssh", "--port", "0", "--server", f"127.0.0.1:{self.server_port}",
                         "--door-secret", self.secret_path, "--host-key", self.host_key,
                         *limits])
        door.port = int(door.event("ssh_listening")["port"])
        return door

    def stop(self) -> None:
        for program in reversed(self.programs):
            program.stop()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    site = Site(tmp_path_factory.mktemp("site"))
    yield site
    site.stop()


async def in_asyncio(scenario, *args, **kwargs):
    """Run `scenario(*args, **kwargs)`, an asyncio coroutine function, to its end in a worker
    thread."""
    return await trio.to_thread.run_sync(lambda: asyncio.run(scenario(*args, **kwargs)))


class Keyless(asyncssh.SSHClient):
    """A client with no key, as `ssh` is then: it tries keyboard-interactive, and answers
    no prompt (there should be none)."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts) -> list | None:
        return None if prompts else []


def connect(door: Program, user: str, key: asyncssh.SSHKey | None = None,
            source: str = "127.0.0.1"):
    """An SSH connection to `door` as `user`, with `key` or none, from loopback address
    `source`; nothing of the user's own SSH setup (keys, agent, config) is used."""
    return asyncssh.connect("127.0.0.1", door.port, username=user, local_addr=(source, 0),
                            client_keys=[key] if key else [], agent_path=None, config=None,
                            known_hosts=None, client_factory=None if key else Keyless)


class Screen:
    """What a terminal session shows: everything it was sent, read as it comes."""

    def __init__(self, process: asyncssh.SSHClientProcess) -> None:
        self.process = process
        self.raw = b""

    @classmethod
    async def open(cls, conn, columns: int = 100, rows: int = 30, **env: str) -> Screen:
        return cls(await conn.create_process(term_type="xterm-256color",
                                             term_size=(columns, rows), env=env,
                                             encoding=None))

    async def until(self, looked_for, since: int = 0) -> bytes:
        """Read until `looked_for` (text, or a predicate of the raw bytes) is in what came
        after byte `since`, the escape sequences left out of text; returns those bytes."""
        deadline = time.monotonic() + PATIENCE
        while True:
            seen = self._after(since)
            if (looked_for(seen) if callable(looked_for)
                    else looked_for.encode() in ESCAPES.sub(b"", seen)):
                return seen
            left = deadline - time.monotonic()
            assert left > 0, f"{looked_for!r} not on the screen: {self.text(since)[-3000:]}"
            try:
                data = await asyncio.wait_for(self.process.stdout.read(65536), left)
            except TimeoutError:
                continue
            assert data, f"the session ended before {looked_for!r}: {self.text(since)[-3000:]}"
            self.raw += data

    def _after(self, since: int) -> bytes:
        """What came after byte `since`, from the start of an escape sequence cut there: the
        rest of one ("[38;5;241m") would read as text."""
        begun = self.raw.rfind(b"\x1b", max(0, since - 64), since)
        if begun >= 0 and (cut := ESCAPES.match(self.raw, begun)) and cut.end() > since:
            return self.raw[begun:]
        return self.raw[since:]

    def text(self, since: int = 0) -> str:
        return ESCAPES.sub(b"", self._after(since)).decode(errors="replace")

    def type(self, keys: str) -> int:
        """Type `keys`; returns where the screen's answer to them starts."""
        mark = len(self.raw)
        self.process.stdin.write(keys.encode())
        return mark


async def gone(pid: int) -> None:
    """Wait until process `pid` is no more: ended, and reaped by the door."""
    deadline = time.monotonic() + 5
    while os.path.exists(f"/proc/{pid}"):
        assert time.monotonic() < deadline, f"the client {pid} outlived its session by 5 s"
        await asyncio.sleep(0.05)


async def refusal(door: Program, user: str, source: str, **session) -> tuple[str, int]:
    """What a session of `user` from `source` is told, and its exit status."""
    async with connect(door, user, source=source) as conn:
        process = await conn.create_process(encoding=None, **session)
        said = await process.stdout.read()
        await process.wait_closed()
        return said.decode(), process.exit_status


# ------------------------------------------------------------------ the host key


async def test_the_host_key_is_made_once_kept_private_and_its_fingerprint_printed(site):
    assert stat.S_IMODE(os.stat(site.host_key).st_mode) == 0o600
    printed = subprocess.run(COUP + ["ssh", "--fingerprint", "--host-key", site.host_key],
                             env=site.env, capture_output=True, text=True, check=True).stdout
    assert re.fullmatch(r"256 SHA256:[A-Za-z0-9+/]{43} coup ssh door \(ED25519\)\n", printed)

    async def seen_by_a_client() -> str:
        async with connect(site.door, "hal") as conn:
            key = conn.get_server_host_key()
        digest = hashlib.sha256(key.public_data).digest()
        return "SHA256:" + base64.b64encode(digest).decode().rstrip("=")

    fingerprint = await in_asyncio(seen_by_a_client)
    # both doors started on the same file: the key was made once and kept
    assert printed.split()[1] == fingerprint == site.door.event("ssh_listening")[
        "fingerprint"] == site.tight.event("ssh_listening")["fingerprint"]


# ------------------------------------------------------------------ playing


async def test_a_player_with_a_key_plays_the_client_on_a_terminal_of_its_size(site):
    async def scenario() -> int:
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with connect(site.door, "ana", key) as conn:
            screen = await Screen.open(conn, 100, 30)
            await screen.until("you are ana")
            assert "a guest" not in screen.text()  # the door vouched for the key
            rows = [int(n) for n in CURSOR_ROW.findall(screen.raw)]
            assert rows and max(rows) <= 30
            mark = len(screen.raw)
            screen.process.change_terminal_size(120, 40)  # redrawn at the new size
            await screen.until(lambda seen: any(30 < int(n) <= 40
                                                for n in CURSOR_ROW.findall(seen)), mark)
            # Quick play at two seats: the seats list opened (its arrow up), down from "any"
            # to 2, chosen (2 shown in the closed list), then OK: a table with a bot deals
            await screen.until("Quick play", screen.type("q"))
            await screen.until("\u25b2", screen.type("\r"))
            await screen.until(lambda seen: re.search("2 +\u25bc".encode(), ESCAPES.sub(
                b"", seen)), screen.type("\x1b[B\r"))
            await screen.until("Pick a card", screen.type("\t\t\r"))  # the draft of 2
            await screen.until("ana picks a card", screen.type("1"))  # the draft's pick
            await screen.until("ana's turn")
            await screen.until("ana takes 1 coin", screen.type("i"))  # Income, accepted
            session = await asyncio.to_thread(site.door.event, "ssh_session", name="ana")
            assert session["player"] == hashlib.sha256(key.public_data).hexdigest()
            # Leaving the table, then the lobby, ends the session: no menu on the door
            await screen.until("Leave the game?", screen.type("q"))
            await screen.until("you are ana", screen.type("y"))
            screen.type("\x1b")
            await asyncio.wait_for(screen.process.wait_closed(), PATIENCE)
            assert screen.process.exit_status == 0
        return int(session["pid"])

    pid = await in_asyncio(scenario)
    await in_asyncio(gone, pid)


async def test_the_same_key_comes_back_to_its_seat(site):
    async def scenario() -> None:
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with connect(site.door, "bea", key) as conn:
            screen = await Screen.open(conn)
            await screen.until("you are bea")
            await screen.until("Create a table", screen.type("c"))
            await screen.until("Seat 2: free", screen.type("beatable\r"))
        first = await asyncio.to_thread(site.door.event, "ssh_session", name="bea")
        await gone(int(first["pid"]))
        async with connect(site.door, "bea", key) as conn:
            screen = await Screen.open(conn)
            await screen.until("bea (you)")  # at the table, not in the lobby
            assert "Seat 2: free" in screen.text()

    await in_asyncio(scenario)


async def test_a_name_another_key_holds_is_refused_saying_how_to_take_another(site):
    """The SSH user name is the display name, and a name belongs to the first identity that
    used it: another key under it is told how to come in under another, and the session
    fails (exit status 1)."""
    async def scenario() -> int:
        async with connect(site.door, "kim", asyncssh.generate_private_key("ssh-ed25519")
                           ) as conn:
            await (await Screen.open(conn)).until("you are kim")
        async with connect(site.door, "kim", asyncssh.generate_private_key("ssh-ed25519")
                           ) as conn:
            screen = await Screen.open(conn)
            said = ("The name kim belongs to another player on this server: log in under "
                    "another user name (ssh NAME@ this server).")
            await screen.until(lambda seen: said in " ".join(  # wrapped to the terminal
                ESCAPES.sub(b"", seen).decode(errors="replace").split()))
            await asyncio.wait_for(screen.process.wait_closed(), PATIENCE)
            return screen.process.exit_status

    assert await in_asyncio(scenario) == 1


async def test_a_player_without_a_key_is_a_guest_whose_files_go_with_the_session(site):
    """In their own language, as their ssh sends LANG (OpenSSH's SendEnv)."""
    async def scenario() -> None:
        async with connect(site.door, "cy") as conn:
            screen = await Screen.open(conn, LANG="pt_BR.UTF-8")
            await screen.until("você é cy, convidado")
            session = await asyncio.to_thread(site.door.event, "ssh_session", name="cy")
            assert session["player"] == "guest"
            assert guests() != []
        await gone(int(session["pid"]))
        deadline = time.monotonic() + 5
        while guests():
            assert time.monotonic() < deadline, guests()
            await asyncio.sleep(0.05)

    def guests() -> list[str]:
        """The guests' directories in the door's temporary directory (where its session
        host keeps its socket, too)."""
        return [p.name for p in site.tmp.iterdir() if p.name.startswith("coup-door-guest-")]

    await in_asyncio(scenario)


async def test_a_client_without_the_secret_cannot_claim_an_identity(site):
    """Someone on the machine runs the client with a proof made without the door's secret:
    the server refuses it, and the player never reaches the lobby as that key."""
    async def scenario() -> str:
        shown = bytearray()
        key = hashlib.sha256(b"ana's SSH key").hexdigest()
        env = dict(site.env, TERM="xterm-256color",
                   COUP_DOOR_IDENTITY=f"{key}:{vouch(b'a guess at the secret!' * 2, key)}")
        argv = COUP + ["join", f"127.0.0.1:{site.server_port}", "--name", "eve"]
        terminal = await Terminal.start(
            lambda slave: spawn(argv, env, str(site.tmp.parent), slave), (100, 30, 0, 0),
            shown.extend, lambda: None)
        try:
            deadline = time.monotonic() + PATIENCE
            while b"did not verify" not in ESCAPES.sub(b"", shown):
                assert time.monotonic() < deadline, ESCAPES.sub(b"", shown)[-3000:]
                await asyncio.sleep(0.05)
        finally:
            await terminal.end()
        return ESCAPES.sub(b"", shown).decode(errors="replace")

    assert "you are eve" not in await in_asyncio(scenario)


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize("session", [
    {},  # a shell with no terminal: ssh -T
    {"command": "ls", "term_type": "xterm"},  # a command, even on a terminal
    {"subsystem": "sftp"},
], ids=["no-pty", "command", "subsystem"])
async def test_a_session_without_a_terminal_is_refused_in_a_sentence(site, session):
    said, status = await in_asyncio(refusal, site.door, "dan", "127.0.0.1", **session)
    assert said == f"coup: {NEEDS_TERMINAL}\r\n" and status == 1


async def test_sessions_in_all_are_limited(site):
    async def scenario():
        async with connect(site.tight, "fay", source="127.0.0.21"), \
                connect(site.tight, "fay", source="127.0.0.22"), \
                connect(site.tight, "fay", source="127.0.0.23"):
            return await refusal(site.tight, "fay", "127.0.0.24")

    said, status = await in_asyncio(scenario)
    assert said == "coup: The door is full. Try again in a while.\r\n" and status == 1


async def test_sessions_from_one_address_are_limited(site):
    async def scenario():
        async with connect(site.tight, "eli", source="127.0.0.11"):
            return await refusal(site.tight, "eli", "127.0.0.11")

    said, status = await in_asyncio(scenario)
    assert said == ("coup: Too many sessions from your address: 1 at most. Close one and try "
                    "again.\r\n") and status == 1


async def test_new_connections_from_one_address_are_limited_a_minute(site):
    async def scenario():
        for _ in range(3):
            async with connect(site.tight, "gus", source="127.0.0.31"):
                pass
        return await refusal(site.tight, "gus", "127.0.0.31")

    said, status = await in_asyncio(scenario)
    assert said == ("coup: Too many connections from your address: 3 a minute at most. Wait a "
                    "minute and try again.\r\n") and status == 1


async def test_an_ipv6_network_counts_as_one_address():
    """One home or host is given a whole IPv6 /64: counted address by address, it would
    pass every per-address limit by taking a new address for each session. An IPv4 address
    mapped into IPv6 counts as that IPv4 address."""
    door = Door(argparse.Namespace(server="127.0.0.1:7700", max_sessions=50,
                                   max_per_address=2, connections_per_minute=20,
                                   idle_minutes=30, max_columns=500, max_rows=200,
                                   max_unauthenticated=3, login_seconds=10,
                                   session_memory=200),
                secret=b"s" * 32)
    assert door.admit("2001:db8:1:2::1") is None
    assert door.admit("2001:db8:1:2:ffff::9") is None
    assert door.admit("2001:db8:1:2:abcd::5").startswith("Too many sessions from your")
    assert door.admit("2001:db8:1:3::1") is None  # the next /64 is another's
    door.leave("2001:db8:1:2::1")
    assert door.admit("2001:db8:1:2::77") is None
    assert door.admit("203.0.113.7") is None and door.admit("::ffff:203.0.113.7") is None
    assert door.admit("203.0.113.7").startswith("Too many sessions from your")
    assert door.admit("203.0.113.8") is None  # IPv4 addresses each count alone


async def test_a_session_without_input_ends_with_a_sentence(site):
    async def scenario() -> None:
        async with connect(site.tight, "ivy", source="127.0.0.41") as conn:
            screen = await Screen.open(conn)
            await screen.until("coup: No input for 0.03 minutes; goodbye.")
            await screen.process.wait_closed()
            assert screen.process.exit_status == 1
            assert b"\x1b[?1049l" in screen.raw  # the terminal given back its main screen
        session = await asyncio.to_thread(site.tight.event, "ssh_session", name="ivy")
        await gone(int(session["pid"]))

    await in_asyncio(scenario)


async def test_a_door_told_to_stop_ends_every_client_and_tells_its_player(site):
    door = site.run_door()

    async def scenario() -> None:
        async with connect(door, "jo", source="127.0.0.51") as conn:
            screen = await Screen.open(conn)
            await screen.until("you are jo")
            session = await asyncio.to_thread(door.event, "ssh_session", name="jo")
            door.process.send_signal(signal.SIGTERM)
            await screen.until("coup: The door is closing; goodbye.")
            await screen.process.wait_closed()
        await gone(int(session["pid"]))

    await in_asyncio(scenario)
    assert await trio.to_thread.run_sync(door.process.wait, PATIENCE) == 0


# ------------------------------------------------------------------ who is who


async def test_the_ssh_user_name_is_made_a_name_the_server_takes():
    assert display_name("  ana ") == "ana"
    assert display_name("b\x1b[2Jea\n") == "b[2Jea"
    assert display_name("x" * 40) == "x" * 32
    assert display_name("\x07 ") == "player"


async def test_a_key_offered_but_never_signed_for_is_no_ones_identity():
    """A client may offer someone's public key (public keys are public) without proving it,
    then log in by keyboard-interactive: it is a guest, not that key."""
    visit = Visit(door=None)
    visit.validate_public_key("ana", asyncssh.generate_private_key("ssh-ed25519"))
    assert visit.key is not None
    assert visit.get_kbdint_challenge("ana", "", "") is True
    assert visit.key is None


# ------------------------------------------------------------------ hostile sessions


def pty_size(pid: int) -> tuple[int, int]:
    """The (columns, rows) of the terminal process `pid` runs on, as it reads them."""
    fd = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        rows, columns, _, _ = struct.unpack(
            "HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, bytes(8)))
    finally:
        os.close(fd)
    return columns, rows


async def size_becomes(pid: int, wanted: tuple[int, int]) -> None:
    """Wait until the terminal of `pid` is `wanted` (a resize reaches it in a moment)."""
    deadline = time.monotonic() + PATIENCE
    while (seen := pty_size(pid)) != wanted:
        assert time.monotonic() < deadline, f"the terminal is {seen}, not {wanted}"
        await asyncio.sleep(0.02)


async def test_a_huge_terminal_is_clamped_on_the_first_request_and_every_resize(site):
    """A 65535x65535 terminal grew its client by ~60 MB/s; a width over 65535 raised. The
    door gives the client --max-columns x --max-rows at most (500x200), and reads a size
    of 0 as SSH's "not said": 80 columns, 24 rows."""
    async def scenario() -> None:
        async with connect(site.door, "huge", source="127.0.0.71") as conn:
            screen = await Screen.open(conn, 65535, 65535)
            session = await asyncio.to_thread(site.door.event, "ssh_session", name="huge")
            pid = int(session["pid"])
            await size_becomes(pid, (500, 200))
            screen.process.change_terminal_size(70000, 0)  # past a PTY's 16 bits
            await size_becomes(pid, (500, 24))
            screen.process.change_terminal_size(80, 2**32 - 1)
            await size_becomes(pid, (80, 200))
            screen.process.change_terminal_size(120, 40)  # a sane size passes as it is
            await size_becomes(pid, (120, 40))
            await screen.until("you are huge")
        await gone(pid)

    await in_asyncio(scenario)


async def test_a_session_closed_by_eof_at_once_ends_in_one_line_without_a_traceback(site):
    """`ssh -tt host </dev/null`: a terminal and a shell, then end of input at once."""
    door = site.run_door()

    async def scenario() -> None:
        async with connect(door, "eve", source="127.0.0.72") as conn:
            process = await conn.create_process(term_type="xterm", term_size=(80, 24),
                                                encoding=None)
            process.stdin.write_eof()
            await asyncio.wait_for(process.wait_closed(), PATIENCE)
        ended = await asyncio.to_thread(door.event, "ssh_session_ended", name="eve")
        await gone(int(ended["pid"]))

    await in_asyncio(scenario)
    await trio.to_thread.run_sync(door.stop)
    logged = json.dumps(door.lines)
    assert "Traceback" not in logged and "error" not in {line.get("level") for line in
                                                         door.lines}, logged
    assert [line["event"] for line in door.lines].count("ssh_session_ended") == 1


@pytest.mark.parametrize("user", ["-x", "--guest", "--help"])
async def test_a_user_name_that_looks_like_an_option_is_the_players_name(site, user):
    """`coup join ... --name -x` read the name as an option: the client failed to start,
    or (--guest) a player with a key would have played as a guest."""
    async def scenario() -> None:
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with connect(site.door, user, key, source="127.0.0.73") as conn:
            screen = await Screen.open(conn)
            await screen.until(f"you are {user}")
            assert f"you are {user}, a guest" not in screen.text()

    await in_asyncio(scenario)


async def test_a_known_key_under_another_user_name_is_told_the_name_it_plays_as(site):
    """The server gives a key the name it holds; the player who typed another is told so,
    rather than finding it out in the lobby's corner."""
    async def scenario() -> None:
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with connect(site.door, "lee", key, source="127.0.0.74") as conn:
            await (await Screen.open(conn)).until("you are lee")
        async with connect(site.door, "max", key, source="127.0.0.74") as conn:
            screen = await Screen.open(conn)
            await screen.until("Known here as lee: this server keeps")  # a toast's
            await screen.until("so max was not")  # first line, and its second
            await screen.until("you are lee")  # the lobby, drawn in its own time

    await in_asyncio(scenario)


async def test_connections_that_never_log_in_hold_no_session_and_are_closed_soon(site):
    """Ten addresses of silent TCP connections kept a 50-session door full for 30 s. A
    connection counts as a session once it has logged in; one that has not is held in a
    small count of its own per address, and for --login-seconds only."""
    door = site.run_door("--max-sessions", "2", "--max-unauthenticated", "3",
                         "--login-seconds", "2")

    async def scenario() -> list[float]:
        silent = [await asyncio.open_connection("127.0.0.1", door.port,
                                                local_addr=("127.0.0.81", 0))
                  for _ in range(5)]
        async with connect(door, "uma", source="127.0.0.82") as conn:
            await (await Screen.open(conn)).until("you are uma")
        started = time.monotonic()
        closed = []
        for reader, writer in silent:
            while await asyncio.wait_for(reader.read(4096), PATIENCE):
                pass  # the door's SSH banner, then the end
            closed.append(time.monotonic() - started)
            writer.close()
        return closed

    closed = await in_asyncio(scenario)
    assert max(closed) < PATIENCE
    refused = [line for line in door.lines if line.get("event") == "ssh_refused"]
    assert [line["address"] for line in refused] == ["127.0.0.81"] * 2, refused


# ------------------------------------------------------------------ where players are


async def test_door_players_at_two_addresses_are_two_addresses_to_the_server(site):
    """Every door player reached the server from the door's address: five wrong private
    codes from one locked every door player out of private tables. The door vouches for
    each player's own address (`via`), and the server counts each there."""
    from client.net import Link
    from protocol import CreateTable, Joined
    from server.lobby import CODE_TRIES

    host = await Link.open("127.0.0.1", site.server_port, "host")
    await host.send(CreateTable(id=1, options={"seats": 3, "private": True}))
    while not isinstance(made := await host.receive(), Joined):
        pass

    async def plain(conn) -> Screen:
        """A session in plain mode (a dumb terminal): lines typed, lines answered."""
        screen = Screen(await conn.create_process(term_type="dumb", term_size=(100, 30),
                                                  encoding=None))
        await screen.until("Type help for the commands.")
        return screen

    async def scenario() -> None:
        async with connect(site.door, "gil", source="127.0.0.91") as one, \
                connect(site.door, "hob", source="127.0.0.92") as other:
            guesser, joiner = await plain(one), await plain(other)
            for _ in range(CODE_TRIES):
                await guesser.until("no such table", guesser.type("join AAAA-AAAA-AAAA\r"))
            await guesser.until("Too many wrong codes", guesser.type(f"join {made.code}\r"))
            await joiner.until("You sit at table", joiner.type(f"join {made.code}\r"))

    try:
        await in_asyncio(scenario)
    finally:
        await host.aclose()
    assert site.server.event("via", address="127.0.0.92")


# ------------------------------------------------------------------ the session host


def children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(child) for child in f.read().split()]


def zombies(pid: int) -> list[int]:
    """The children of `pid` that have ended and not been reaped."""
    found = []
    for child in children(pid):
        with contextlib.suppress(OSError), open(f"/proc/{child}/stat") as f:
            if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                found.append(child)
    return found


async def test_a_session_killed_mid_game_leaves_the_others_playing_and_its_seat_waits(site):
    """Both sessions are forked from the door's one session host: one killed with SIGKILL
    in the middle of its game ends alone (its player's ssh told the status), the other
    plays on, the host reaps the dead one, and the same key comes back to the seat."""
    async def scenario() -> None:
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with connect(site.door, "kai", key, source="127.0.0.101") as conn, \
                connect(site.door, "lea", source="127.0.0.102") as other:
            screen, bystander = await Screen.open(conn), await Screen.open(other)
            await screen.until("you are kai")
            await bystander.until("you are lea")
            await screen.until("Quick play", screen.type("q"))
            await screen.until("\u25b2", screen.type("\r"))
            await screen.until(lambda seen: re.search("2 +\u25bc".encode(), ESCAPES.sub(
                b"", seen)), screen.type("\x1b[B\r"))
            await screen.until("Pick a card", screen.type("\t\t\r"))  # dealt: mid-game
            session = await asyncio.to_thread(site.door.event, "ssh_session", name="kai")
            host = await asyncio.to_thread(site.door.event, "session_host_started")
            pid = int(session["pid"])
            assert pid in children(int(host["pid"]))  # forked by the host, not spawned
            os.kill(pid, signal.SIGKILL)
            await asyncio.wait_for(screen.process.wait_closed(), PATIENCE)
            assert screen.process.exit_status == 128 + signal.SIGKILL
            await gone(pid)
            assert zombies(int(host["pid"])) == []
            await bystander.until("Create a table", bystander.type("c"))  # still playing
        async with connect(site.door, "kai", key, source="127.0.0.101") as conn:
            await (await Screen.open(conn)).until("kai (you)")  # back at the table

    await in_asyncio(scenario)


async def test_a_session_over_its_memory_is_told_so_and_ends_alone(site):
    """A limit so small that the client reaches it at once (a real one is 200 MB): the
    player sees the terminal given back and why, with no traceback, and the door and its
    host go on."""
    door = site.run_door("--session-memory", "2")

    async def scenario() -> int:
        async with connect(door, "max", source="127.0.0.103") as conn:
            screen = await Screen.open(conn)
            await screen.until("coup: This session used up its memory (2 MB) and had to end.")
            await asyncio.wait_for(screen.process.wait_closed(), PATIENCE)
            assert b"Traceback" not in screen.raw
            return screen.process.exit_status

    assert await in_asyncio(scenario) == 1
    assert door.event("ssh_session_out_of_memory", name="max", limit_mb=2)
    assert door.process.poll() is None  # the door, and its host, live on


async def test_a_session_host_that_dies_is_started_again_and_its_sessions_play_on(site):
    door = site.run_door()

    async def scenario() -> None:
        async with connect(door, "ned", source="127.0.0.104") as conn:
            screen = await Screen.open(conn)
            await screen.until("you are ned")
            first = await asyncio.to_thread(door.event, "session_host_started", started=1)
            os.kill(int(first["pid"]), signal.SIGKILL)
            await screen.until("Create a table", screen.type("c"))  # its session plays on
            async with connect(door, "ora", source="127.0.0.105") as other:
                await (await Screen.open(other)).until("you are ora")
            second = await asyncio.to_thread(door.event, "session_host_started", started=2)
            assert second["pid"] != first["pid"]
            assert await asyncio.to_thread(door.event, "session_host_died", pid=first["pid"])
            session = await asyncio.to_thread(door.event, "ssh_session", name="ned")
        await asyncio.to_thread(door.event, "ssh_session_ended", name="ned")
        await gone(int(session["pid"]))  # reaped, though its host is gone

    await in_asyncio(scenario)


async def test_the_session_host_takes_orders_from_its_door_alone(site):
    """Its socket is in a directory of the door's alone, and a process of the same user
    that is not the door is closed unheard: nothing runs."""
    host = int(site.door.event("session_host_started")["pid"])
    with open(f"/proc/{host}/cmdline", "rb") as f:
        argv = f.read().decode().split("\0")
    path = argv[argv.index("--socket") + 1]
    assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
    before = children(host)
    order = Order(("--help",), {"PATH": os.environ["PATH"]}, "/", False)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as stranger:
        stranger.settimeout(PATIENCE)
        stranger.connect(path)
        try:
            socket.send_fds(stranger, [order.encode()], [0, 1, 2])
            heard = stranger.recv(64)
        except (BrokenPipeError, ConnectionResetError):  # closed before the order was in
            heard = b""
        assert heard == b""
    assert children(host) == before
