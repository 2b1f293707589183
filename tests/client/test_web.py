"""The browser door, `coup web`, run as people run it: a real `coup web` process on loopback,
and an HTTP and websocket client doing what a browser's page does (fetch the page, open the
session's websocket with the terminal's size, send a resize) and reading the terminal's
output the session streams. The door must serve the page, start the client in each session
and draw its menu, refuse a session over its cap with a sentence, and end every session's
process when it stops."""

from __future__ import annotations

import asyncio
import json
import os
import re
import select
import signal
import subprocess
import sys
import time

import aiohttp
import pytest
import trio

from client import web
from client.cli import build_parser
from server import out_of_memory

#: Seconds a test waits for the door, or a session, before it fails.
WAIT = 15
#: Escape sequences (CSI and OSC): what is left of the terminal's output is its text.
ESCAPES = re.compile(rb"\x1b\[[0-9;?$]*[A-Za-z]|\x1b\][^\x07]*\x07")
#: A cursor move to row N: the rows a screen is drawn on.
CURSOR_ROW = re.compile(rb"\x1b\[(\d+);\d+H")


class Door:
    """A `coup web` process on a free loopback port, stopped (SIGTERM) at the end of the
    test, which also checks that it stopped cleanly and left no session's process behind."""

    def __init__(self, *flags: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "client.cli", "web", "--port", "0", *flags],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.output: str | None = None
        self.stopping = False
        line = self._line()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, f"coup web said {line!r}"
        self.url = found.group(0)

    def _line(self) -> str:
        ready, _, _ = select.select([self.process.stdout], [], [], WAIT)
        assert ready, "coup web said nothing"
        return self.process.stdout.readline().decode()

    def host(self) -> int | None:
        """The pid of the door's session host, if it runs one."""
        return next((pid for pid in _pids() if _parent(pid) == self.process.pid
                     and b"client.host" in _cmdline(pid)), None)

    def sessions(self) -> set[int]:
        """The pids of the sessions' processes: the host's children (or the door's own, each
        spawned, when it has no host)."""
        host = self.host()
        return {pid for pid in _pids() if _parent(pid) in (self.process.pid, host)} - {host}

    def terminate(self) -> None:
        """SIGTERM, once: a second one, once the door has let its signal handlers go on its
        way out, would kill it."""
        self.stopping = True
        self.process.send_signal(signal.SIGTERM)

    def stop(self) -> str:
        """Stop the door as SIGTERM does; its exit status must be 0. Returns its output."""
        if self.output is None:
            if not self.stopping:
                self.terminate()
            self.output = self.process.communicate(timeout=WAIT)[0].decode()
        assert self.process.returncode == 0, self.output
        return self.output


def _pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command's name: state, parent, ...; none for a
    process that is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return []


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


def _parent(pid: int) -> int | None:
    fields = _stat(pid)
    return int(fields[1]) if fields else None


def wait_gone(pids: set[int]) -> None:
    """Wait until none of these processes is left."""
    deadline = time.monotonic() + WAIT
    while any(_stat(pid)[:1] not in ([], ["Z"]) for pid in pids):  # a zombie has ended
        assert time.monotonic() < deadline, f"a session's process outlived the door: {pids}"
        time.sleep(0.05)


@pytest.fixture
def door():
    """`door(*flags)` starts a `coup web` with those flags; every door is stopped after the
    test, and the processes its sessions ran must be gone."""
    doors: list[Door] = []

    def start(*flags: str) -> Door:
        doors.append(Door(*flags))
        return doors[-1]

    yield start
    for each in doors:
        sessions = each.sessions()
        each.stop()
        wait_gone(sessions)


async def page(client: aiohttp.ClientSession, door: Door) -> tuple[int, str]:
    async with client.get(door.url) as response:
        return response.status, await response.text()


async def session(client: aiohttp.ClientSession, text: str, size: str = "width=100&height=30",
                  resize: bool = True, **headers: str):
    """Open the session's websocket as the page's script does: at the address the page
    names, from the page's origin (a browser sends it), with the terminal's size, then (if
    `resize`) a resize to 100x30."""
    found = re.search(r'data-session-websocket-url="([^"]+)"', text)
    assert found, "the page names no websocket"
    origin = re.match(r"ws(s?://[^/]+)", found.group(1))
    socket = await client.ws_connect(f"{found.group(1)}?{size}",
                                     headers={"Origin": f"http{origin.group(1)}"} | headers)
    if resize:
        await socket.send_json(["resize", {"width": 100, "height": 30}])
    return socket


async def screen_until(socket, *wanted: bytes) -> bytes:
    """The text the session drew, read until one of `wanted` is in it."""
    drawn = b""
    deadline = time.monotonic() + WAIT
    while not any(w in ESCAPES.sub(b"", drawn) for w in wanted):
        left = deadline - time.monotonic()
        assert left > 0, f"{wanted!r} never drawn; drawn: {ESCAPES.sub(b'', drawn)[-500:]!r}"
        try:
            message = await socket.receive(timeout=left)
        except TimeoutError:
            continue
        assert message.type == aiohttp.WSMsgType.BINARY, f"the session ended: {message}"
        drawn += message.data
    return ESCAPES.sub(b"", drawn)


def test_the_page_is_served_and_names_its_session_websocket(door):
    served = door()

    async def body():
        async with aiohttp.ClientSession() as client:
            return await page(client, served)

    status, text = asyncio.run(body())
    assert status == 200
    assert "<div>Coup</div>" in text and "js/textual.js" in text
    assert f'data-session-websocket-url="ws{served.url[4:]}ws"' in text


def test_the_page_asks_no_other_site_for_anything_and_its_font_is_the_door_s(door):
    """A visitor's browser talks to the door alone: textual-serve's page would fetch its
    font from fonts.googleapis.com, telling Google of every visit (and drawing in a fallback
    font where that site cannot be reached)."""
    served = door()

    async def body():
        async with aiohttp.ClientSession() as client:
            status, text = await page(client, served)
            fonts = re.findall(r'@font-face\s*{[^}]*url\("([^"]+)"\)', text)
            loaded = []
            for font in fonts:
                async with client.get(font) as response:
                    loaded.append((response.status, len(await response.read())))
            return status, text, fonts, loaded

    status, text, fonts, loaded = asyncio.run(body())
    assert status == 200
    fetched = re.findall(r'(?:src|href)="([^"]+)"', text) + re.findall(
        r'url\("?([^")]+)"?\)', text)
    assert fetched and all(url.startswith(served.url) for url in fetched), fetched
    assert len(fonts) == 2 and all(s == 200 and size > 10_000 for s, size in loaded), loaded


def _environment(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as f:
        pairs = f.read().decode().split("\0")
    return dict(pair.split("=", 1) for pair in pairs if "=" in pair)


def test_a_session_starts_the_client_as_a_guest_at_home_and_draws_the_menu(door):
    served = door()

    async def body():
        async with aiohttp.ClientSession() as client:
            _, text = await page(client, served)
            socket = await session(client, text)
            drawn = await screen_until(socket, b"Join a server")
            assert b"Play against bots" in drawn
            [pid] = served.sessions()
            # Forked by the session host (web.arguments says a guest, web.environment what
            # it is given), in its own home
            assert _parent(pid) == served.host()
            home = os.readlink(f"/proc/{pid}/cwd")
            assert os.path.basename(home).startswith("coup-web-")
            assert home != os.path.dirname(os.environ["XDG_CONFIG_HOME"])
            # What it was started with is the host's: nothing of the door's but what runs
            # Python
            assert set(_environment(pid)) <= {"PATH", "PYTHONPATH", "LANG"}
            await socket.close()
            return home

    home = asyncio.run(body())
    deadline = time.monotonic() + WAIT
    while os.path.exists(home):
        assert time.monotonic() < deadline, "the session's home outlived it"
        time.sleep(0.05)


def test_a_session_over_the_cap_is_refused_with_a_sentence_and_a_closed_one_frees_its_place(
        door):
    served = door("--max-sessions", "1")
    sentence = "This game door is full: it seats no more than 1 at once."

    async def body():
        async with aiohttp.ClientSession() as client:
            _, text = await page(client, served)
            first = await session(client, text)
            await screen_until(first, b"Join a server")
            status, refused = await page(client, served)
            assert status == 503 and sentence in refused
            second = await session(client, text)  # a page fetched before the door filled
            assert sentence.encode() in await screen_until(second, sentence.encode())
            closed = await second.receive(timeout=WAIT)
            assert closed.type == aiohttp.WSMsgType.CLOSE
            assert (closed.data, closed.extra) == (1013, web.full(1))
            await first.close()
            deadline = time.monotonic() + WAIT
            while (await page(client, served))[0] != 200:
                assert time.monotonic() < deadline, "the closed session kept its place"
                await asyncio.sleep(0.05)

    asyncio.run(body())
    assert "refused a session from 127.0.0.1" in served.stop()


def test_stopping_the_door_ends_the_sessions_it_runs(door):
    served = door()

    async def body():
        async with aiohttp.ClientSession() as client:
            _, text = await page(client, served)
            socket = await session(client, text)
            await screen_until(socket, b"Join a server")
            sessions = served.sessions()
            assert len(sessions) == 1
            served.terminate()
            while (closed := await socket.receive(timeout=WAIT)).type == (
                    aiohttp.WSMsgType.BINARY):
                pass  # the last of the screen
            assert (closed.type, closed.data) == (aiohttp.WSMsgType.CLOSE, 1001)  # going away
            return sessions

    sessions = asyncio.run(body())
    served.stop()
    wait_gone(sessions)


def test_each_session_runs_coup_as_a_guest_with_the_door_s_choices():
    parser = build_parser()
    coup = f"exec {sys.executable} -m client.cli --guest"
    assert web.command(parser.parse_args(["web"])) == coup
    assert web.command(parser.parse_args(["--lang", "pt_BR", "web", "--join", "h:1"])) == (
        f"{coup} --lang pt_BR join h:1 --lobby-only")
    assert web.command(parser.parse_args(["web", "--play"])) == f"{coup} play"


def test_a_session_keeps_none_of_the_door_s_environment_but_what_runs_the_client():
    given = {"PATH": "/bin", "LANG": "pt_BR.UTF-8", "TEXTUAL_DRIVER": "web", "COLUMNS": "90",
             "HOME": "/root", "USER": "root", "AWS_SECRET_ACCESS_KEY": "x",
             "XDG_CONFIG_HOME": "/root/.config"}
    assert web.environment(given, "/tmp/s") == {
        "PATH": "/bin", "LANG": "pt_BR.UTF-8", "TEXTUAL_DRIVER": "web", "COLUMNS": "90",
        "HOME": "/tmp/s", "USER": "guest", "LOGNAME": "guest",
        "XDG_CONFIG_HOME": "/tmp/s/config", "XDG_DATA_HOME": "/tmp/s/data"}


def test_without_the_web_extra_the_door_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "textual_serve.server", None)  # import fails
    assert web.main(build_parser().parse_args(["web"])) == 2
    assert capsys.readouterr().err.strip() == web.MISSING


@pytest.mark.parametrize("argv", [["--host", "0.0.0.0"], ["--public-url", "https://c.example"],
                                  ["--host", "0.0.0.0", "--play"]])
def test_a_door_others_reach_serves_one_servers_lobby_only(argv, capsys):
    """The menu (and --play's way back to it) would let visitors start servers on the door's
    machine and reach any address from it: refused before anything listens."""
    assert web.main(build_parser().parse_args(["web", *argv])) == 2
    assert capsys.readouterr().err.strip() == f"coup web: {web.OPEN_MENU}"


# ------------------------------------------------------------------ hostile browsers


def test_a_websocket_from_another_sites_page_is_refused(door):
    """A page elsewhere opened the websocket, drove the menu, hosted a LAN game on 0.0.0.0
    and read the screen. A browser always says which page opens a websocket (Origin)."""
    served = door()
    ws = f"ws{served.url[4:]}ws?width=80&height=24"

    async def body():
        async with aiohttp.ClientSession() as client:
            for headers in ({"Origin": "http://evil.example"}, {},
                            {"Origin": served.url.replace("127.0.0.1", "127.0.0.1.evil.example")}):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await client.ws_connect(ws, headers=headers)
                assert refused.value.status == 403
            assert not served.sessions()

    asyncio.run(body())


def test_the_page_makes_its_urls_from_the_doors_address_not_the_requests_host(door):
    served = door()
    hostile = 'evil.example"><script>alert(1)</script>'

    async def body():
        async with aiohttp.ClientSession() as client:
            async with client.get(served.url, headers={"Host": hostile}) as response:
                return await response.text()

    text = asyncio.run(body())
    assert "evil" not in text and "<script>alert" not in text
    assert f'data-session-websocket-url="ws{served.url[4:]}ws"' in text


def test_a_huge_terminal_is_clamped_and_a_malformed_message_ends_nothing(door):
    """A 65535x65535 terminal took a session's process to 3 GB in 45 s. The session opens
    that size with no resize after (a resize to 100x30 racing the first drawing made which
    size was drawn first a matter of timing), then goes to 100x30 and to 70000x70000."""
    served = door()

    async def body():
        async with aiohttp.ClientSession() as client:
            _, text = await page(client, served)
            socket = await session(client, text, size="width=65535&height=65535", resize=False)
            drawn = await screen_until(socket, b"Join a server")
            while b"\x1b[200;" not in drawn:  # drawn to the last row the door allows
                message = await socket.receive(timeout=WAIT)
                assert message.type == aiohttp.WSMsgType.BINARY, message
                drawn += message.data
            assert max(map(int, CURSOR_ROW.findall(drawn))) == 200
            await socket.send_json(["resize", {"width": 100, "height": 30}])
            drawn = b""
            while b"\x1b[30;" not in drawn:  # redrawn at 30 rows
                message = await socket.receive(timeout=WAIT)
                assert message.type == aiohttp.WSMsgType.BINARY, message
                drawn += message.data
            await socket.send_json(["resize", {"width": 70000, "height": 70000}])
            drawn = b""
            while b"\x1b[200;" not in drawn:  # redrawn to the last row the door allows
                message = await socket.receive(timeout=WAIT)
                assert message.type == aiohttp.WSMsgType.BINARY, message
                drawn += message.data
            assert max(map(int, CURSOR_ROW.findall(drawn))) == 200
            for hostile in (["resize", {"width": "x", "height": -5}], ["resize", 7],
                            ["stdin"], {"stdin": 1}, "not json", ["resize", {"width": "9" * 5000}]):
                await socket.send_str(hostile if isinstance(hostile, str) else json.dumps(hostile))
            await socket.send_json(["ping", "still here"])
            while (reply := await socket.receive(timeout=WAIT)).type == aiohttp.WSMsgType.BINARY:
                assert max(map(int, CURSOR_ROW.findall(reply.data)), default=0) <= 200
            assert reply.json() == ["pong", "still here"]
            await socket.close()

    asyncio.run(body())


def test_a_session_over_its_memory_is_told_so_and_the_door_goes_on(door):
    """A limit so small that the client reaches it at once (a real one is 200 MB): a table
    against bots, its server in the session, needs more than the session host leaves free
    (the menu alone may not: the host drew a lobby before the fork, and its freed memory is
    the session's to reuse)."""
    served = door("--play", "--session-memory", "1")
    line = out_of_memory(1)

    async def body():
        async with aiohttp.ClientSession() as client:
            _, text = await page(client, served)
            socket = await session(client, text)
            drawn = await screen_until(socket, line.encode())
            assert b"Traceback" not in drawn
            while (closed := await socket.receive(timeout=WAIT)).type == (
                    aiohttp.WSMsgType.BINARY):
                pass
            assert closed.type == aiohttp.WSMsgType.CLOSE
            assert (await page(client, served))[0] == 200  # the door goes on

    asyncio.run(body())
    assert "a session used up its memory (1 MB)" in served.stop()


def test_sessions_from_one_address_are_capped_and_the_rest_still_come_in(door):
    served = door("--max-per-address", "1")
    sentence = web.too_many(1)

    async def body():
        async with aiohttp.ClientSession() as client, aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))) as other:
            _, text = await page(client, served)
            first = await session(client, text)
            await screen_until(first, b"Join a server")
            assert (await page(client, served))[0] == 503
            # a door that is not told it is behind a proxy takes no X-Forwarded-For
            second = await session(client, text, **{"X-Forwarded-For": "203.0.113.9"})
            assert sentence.encode() in await screen_until(second, sentence.encode())
            closed = await second.receive(timeout=WAIT)
            assert (closed.type, closed.data, closed.extra) == (
                aiohttp.WSMsgType.CLOSE, 1013, sentence)
            neighbour = await session(other, text)
            await screen_until(neighbour, b"Join a server")
            for socket in (first, neighbour):
                await socket.close()

    asyncio.run(body())


@pytest.fixture
def game_server(tmp_path):
    """A `coup serve` on loopback sharing a door secret: (its port, the secret's path, the
    program, whose log lines it collects)."""
    from tests.server.test_ssh import Program

    secret = str(tmp_path / "door.secret")
    server = Program(["serve", "--port", "0", "--db", ":memory:", "--door-secret", secret],
                     dict(os.environ))
    yield int(server.event("listening")["port"]), secret, server
    server.stop()


def test_behind_a_proxy_the_address_is_the_last_the_proxy_forwarded(door, game_server):
    port, secret, _ = game_server
    served = door("--max-per-address", "1", "--behind-proxy", "--public-url",
                  "https://coup.example.org", "--join", f"127.0.0.1:{port}",
                  "--door-secret", secret)
    ws = f"ws{served.url[4:]}ws?width=80&height=24"
    sentence = web.too_many(1)

    async def connect(client, forwarded: str):
        return await client.ws_connect(ws, headers={"Origin": "https://coup.example.org",
                                                    "X-Forwarded-For": forwarded})

    async def body():
        async with aiohttp.ClientSession() as client:
            first = await connect(client, "198.51.100.1, 203.0.113.1")  # the first is a lie
            await screen_until(first, b"you are")
            second = await connect(client, "203.0.113.1")
            assert sentence.encode() in await screen_until(second, sentence.encode())
            third = await connect(client, "203.0.113.1, 203.0.113.2")
            await screen_until(third, b"you are")
            for socket in (first, third):
                await socket.close()

    asyncio.run(body())
    assert "refused a session from 203.0.113.1" in served.stop()


def test_a_session_without_input_ends_with_a_line(door):
    served = door("--idle-minutes", "0.02")

    async def body():
        async with aiohttp.ClientSession() as client:
            _, text = await page(client, served)
            socket = await session(client, text)
            await screen_until(socket, b"coup: No input for 0.02 minutes; goodbye.")
            while (closed := await socket.receive(timeout=WAIT)).type == (
                    aiohttp.WSMsgType.BINARY):
                pass
            assert closed.type == aiohttp.WSMsgType.CLOSE

    asyncio.run(body())


@pytest.mark.parametrize("argv", [["--host", "0.0.0.0", "--join", "h:1"],
                                  ["--host", "::", "--join", "h:1"]])
def test_a_door_on_every_interface_needs_the_url_browsers_use(argv, capsys):
    """Its page's URLs are made from the configured address, and 0.0.0.0 is none."""
    assert web.main(build_parser().parse_args(["web", *argv])) == 2
    assert capsys.readouterr().err.strip() == f"coup web: {web.WILDCARD_URL}"


def test_browsers_at_two_addresses_are_two_addresses_to_the_server(door, game_server):
    """Every browser reached the server from the door's address: five wrong private codes
    from one locked every browser out of private tables. The door vouches for each one's
    address (`via`), and the server counts each there."""
    from client.net import Link
    from protocol import CreateTable, Joined
    from server.lobby import CODE_TRIES

    port, secret, server = game_server
    served = door("--join", f"127.0.0.1:{port}", "--door-secret", secret)

    async def made_code() -> tuple[Link, str]:
        host = await Link.open("127.0.0.1", port, "host")
        await host.send(CreateTable(id=1, options={"seats": 3, "private": True}))
        while not isinstance(made := await host.receive(), Joined):
            pass
        return host, made.code

    async def code(socket, typed: str, *answers: bytes) -> bytes:
        """Type `typed` as a table's code; the first of `answers` the session draws."""
        await socket.send_json(["stdin", "k"])
        await screen_until(socket, b"The table's code")
        await socket.send_json(["stdin", typed + "\r"])
        return await screen_until(socket, *answers)

    async def guess(socket, tried: int) -> bool:
        """Type a wrong code, the guesser's `tried`th: True once the session says it tried
        too often, False once the server counts this one wrong. (Not the session's "There
        is no such table.": an earlier guess's may still be on screen, and the next key
        would then reach this guess's form, still open.)"""
        await socket.send_json(["stdin", "k"])
        await screen_until(socket, b"The table's code")
        await socket.send_json(["stdin", "AAAA-AAAA-AAAA\r"])
        drawn = b""
        deadline = time.monotonic() + WAIT
        while b"Too many wrong codes" not in ESCAPES.sub(b"", drawn):
            if sum(line.get("event") == "wrong_code" for line in list(server.lines)) >= tried:
                return False
            assert time.monotonic() < deadline, f"no answer to wrong code {tried}"
            try:  # the server's log comes on a thread of its own: look at it between reads
                message = await socket.receive(timeout=0.05)
            except TimeoutError:
                continue
            assert message.type == aiohttp.WSMsgType.BINARY, f"the session ended: {message}"
            drawn += message.data
        return True

    async def body(made: str):
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(
                local_addr=("127.0.0.2", 0))) as one, aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=("127.0.0.3", 0))) as other:
            _, text = await page(one, served)
            guesser, joiner = [await session(client, text) for client in (one, other)]
            for socket in (guesser, joiner):  # the lobby, its list come: it takes keys
                await screen_until(socket, b"No public tables yet")
            # The guesser is locked out once its tries are spent: after CODE_TRIES, or a few
            # more if a slow machine let one come back meanwhile (one every CODE_RETRY s).
            for tried in range(1, CODE_TRIES + 4):
                if await guess(guesser, tried):
                    break
            else:
                raise AssertionError("the guesser was never told it had tried too often")
            await code(joiner, made, b"(you, a guest)")
            for socket in (guesser, joiner):
                await socket.close()

    host, made = trio.run(made_code)
    try:
        asyncio.run(body(made))
    finally:
        trio.run(host.aclose)
    server.event("via", address="127.0.0.2")


@pytest.mark.parametrize("public_url, origin", [
    ("https://Coup.Example.org/", "https://coup.example.org"),
    ("https://coup.example.org:443/play", "https://coup.example.org"),
    ("http://192.168.1.5:7680", "http://192.168.1.5:7680"),
    ("https://[2001:db8::1]:8443", "https://[2001:db8::1]:8443"),
])
def test_the_origin_of_the_public_url_is_as_a_browser_names_it(public_url, origin):
    assert web.origins(public_url, "127.0.0.1", 7680) == {origin}


def test_on_loopback_every_name_of_loopback_at_the_doors_port_is_its_own():
    assert web.origins(None, "127.0.0.1", 7680) == {
        "http://127.0.0.1:7680", "http://localhost:7680", "http://[::1]:7680"}
    assert web.origins(None, "192.168.1.5", 7680) == {"http://192.168.1.5:7680"}


@pytest.mark.parametrize("url", ["coup.example.org", "ftp://coup.example.org",
                                 "https://coup.example.org:99999", "https://"])
def test_a_public_url_must_be_an_http_address(url, capsys):
    argv = ["web", "--join", "h:1", "--public-url", url]
    assert web.main(build_parser().parse_args(argv)) == 2
    assert "--public-url" in capsys.readouterr().err
