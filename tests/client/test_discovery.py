"""LAN discovery end to end, on a network of the test's own: two network namespaces joined
by a veth pair (the test runs as root). `coup serve --announce` runs in one; in the other a
browser (client.discovery) prints what it finds, and a player connects over TCP and creates
a table. The server is found with its name, address, port and counts; the counts follow the
table and the player; a stopped server is gone from the list. No mDNS ever leaves the two
namespaces, which vanish with the test.

And `coup serve --announce` on loopback, where no other machine could join, is refused
with a sentence before anything is sent; a server asked to announce where it cannot (on
loopback, or with discovery off) says why in its log and serves all the same.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio

from client.cli import main
from client.net import Link
from server import Server, ServerConfig

ROOT = Path(__file__).resolve().parents[2]
IP = "/usr/sbin/ip"
#: Seconds to wait for each thing the test expects to hear: three programs start Python and
#: the client at once here, which on a busy 2-core machine took over 15 s (a deadline, never
#: a figure the test checks).
WAIT = 40
SERVER_IP, CLIENT_IP, PORT = "10.77.1.1", "10.77.1.2", 7654
_runs = itertools.count()

#: Prints each change the browser hears as a JSON line, until its stdin closes.
BROWSE = """
import json, sys
from dataclasses import asdict
from client.discovery import Browser
browser = Browser(lambda key, found: print(json.dumps(
    {"key": key, "found": found and asdict(found)}), flush=True))
sys.stdin.read()
browser.close()
"""

#: Connects as ana, creates a table and sits at it, says "seated", and leaves when its
#: stdin closes.
PLAY = """
import sys, trio
from client.net import Link
from protocol import CreateTable

async def main():
    link = await Link.open(sys.argv[1], int(sys.argv[2]), name="ana")
    await link.send(CreateTable(id=link.next_id(), options={"seats": 2}))
    while (msg := await link.receive()).TYPE != "joined":
        pass
    print("seated", flush=True)
    await trio.to_thread.run_sync(sys.stdin.read)
    await link.aclose()

trio.run(main)
"""


@dataclass
class Lan:
    """Two namespaces on one link: the server's (`a`) and the client's (`b`)."""

    a: str
    b: str


def ip(*args: str) -> None:
    subprocess.run([IP, *args], check=True, capture_output=True)


@pytest.fixture
def lan(monkeypatch):
    monkeypatch.delenv("COUP_DISCOVERY")  # on, inside these namespaces only
    tag = f"{os.getpid()}x{next(_runs)}"
    spaces = Lan(f"coupa{tag}", f"coupb{tag}")
    made = []
    try:
        for space in (spaces.a, spaces.b):
            ip("netns", "add", space)
            made.append(space)
        ip("link", "add", f"cva{tag}", "type", "veth", "peer", "name", f"cvb{tag}")
        for space, end, address in ((spaces.a, f"cva{tag}", SERVER_IP),
                                    (spaces.b, f"cvb{tag}", CLIENT_IP)):
            ip("link", "set", end, "netns", space)
            ip("-n", space, "addr", "add", f"{address}/24", "dev", end)
            ip("-n", space, "link", "set", end, "up", "multicast", "on")
            ip("-n", space, "link", "set", "lo", "up")
        yield spaces
    finally:
        # A veth end not yet moved into its namespace is still in the machine's own.
        subprocess.run([IP, "link", "del", f"cva{tag}"], capture_output=True)
        for space in made:
            ip("netns", "del", space)


class Program:
    """A Python program run in a namespace, its stdout read line by line in a thread."""

    def __init__(self, space: str, *args: str) -> None:
        self.process = subprocess.Popen(
            [IP, "netns", "exec", space, sys.executable, *args], cwd=ROOT, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.lines: queue.Queue[str] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)

    def expect(self, wanted, what: str):
        """The first line (as `wanted` reads it) that `wanted` does not turn down (None)."""
        deadline = time.monotonic() + WAIT
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"timed out waiting for {what}") from None
            if (seen := wanted(line)) is not None:
                return seen

    def end(self, sig: int | None = None) -> None:
        """Close its stdin (and send `sig`), and wait for it to exit; one that has not
        exited in WAIT seconds is killed (its returncode then says so), so that a test
        that fails ends every program it started all the same."""
        try:
            if sig is not None:
                self.process.send_signal(sig)
            self.process.stdin.close()
            self.process.wait(WAIT)
        except subprocess.TimeoutExpired:
            pass
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self._reader.join(WAIT)
            self.process.stdout.close()


def server_with(tables: int, players: int):
    """Reads a browser's line: the server found, once it says these counts."""
    def wanted(line: str):
        heard = json.loads(line)
        found = heard["found"]
        if found and (found["tables"], found["players"]) == (tables, players):
            return found
        return None
    return wanted


def test_a_server_announced_on_the_lan_is_found_followed_and_gone_when_it_stops(lan):
    server = Program(lan.a, "-m", "client.cli", "serve", "--announce", "--host", SERVER_IP,
                     "--port", str(PORT), "--db", ":memory:", "--name", "Ana's den")
    browser = Program(lan.b, "-c", BROWSE)
    player = None
    try:
        found = browser.expect(server_with(0, 0), "the server, idle")
        assert (found["name"], found["address"], found["port"]) == (
            "Ana's den", SERVER_IP, PORT)
        key = found["key"]

        player = Program(lan.b, "-c", PLAY, SERVER_IP, str(PORT))
        player.expect(lambda line: line.strip() == "seated" or None, "the player's seat")
        assert browser.expect(server_with(1, 1), "one table, one player")["key"] == key
        player.end()
        player = None
        assert browser.expect(server_with(1, 0), "the player gone")["key"] == key

        server.end(signal.SIGINT)
        assert server.process.returncode == 0
        server = None
        browser.expect(lambda line: json.loads(line) == {"key": key, "found": None} or None,
                       "the server to be gone")
    finally:
        for program in (player, server, browser):
            if program is not None:
                program.end(signal.SIGINT if program is server else None)


def test_plain_join_with_no_address_numbers_the_servers_found_and_joins_the_one_typed(lan):
    """`coup join --plain` with no address: each server heard of is a numbered line; one
    gone is said, and its number is then refused; the number of another joins it."""
    ports = {"Ana's den": PORT, "Bia's": PORT + 1}
    servers = {name: Program(lan.a, "-m", "client.cli", "serve", "--announce", "--host",
                             SERVER_IP, "--port", str(port), "--db", ":memory:", "--name",
                             name)
               for name, port in ports.items()}
    player = Program(lan.b, "-m", "client.cli", "--lang", "en", "--guest", "join", "--plain",
                     "--name", "Cy")

    def line(what: str) -> str:
        return player.expect(lambda text: text.rstrip("\n"), what)

    def send(text: str) -> None:
        player.process.stdin.write(text + "\n")
        player.process.stdin.flush()

    try:
        assert line("the first line") == (
            "Looking for servers on this network: type a server's number to join it, or its "
            "address (host or host:port).")
        numbers = {}
        while len(numbers) < 2:
            number, _colon, said = line("a server").partition(": ")
            name, address, tables, players = said.split(", ")
            numbers[name] = number
            assert (address, tables, players) == (f"{SERVER_IP}:{ports[name]}", "0 tables",
                                                  "0 players")
        assert sorted(numbers.values()) == ["1", "2"]
        bia, ana = numbers["Bia's"], numbers["Ana's den"]
        servers["Bia's"].end(signal.SIGINT)
        assert line("Bia's gone") == f"{bia}: Bia's is gone."
        send(bia)
        assert line("a refusal") == f"{bia}: Bia's is gone."
        send("3")
        assert line("a refusal") == "There is no server 3."
        send(ana)
        assert line("joining") == f"Joining Ana's den at {SERVER_IP}:{PORT}…"
        assert line("the lobby").startswith("Connected to Ana's den as Cy.")
    finally:
        player.end()
        for server in servers.values():
            server.end(signal.SIGINT)


def test_a_server_on_loopback_is_not_announced(capsys):
    assert main(["serve", "--announce", "--host", "127.0.0.1", "--db", ":memory:"]) == 2
    assert capsys.readouterr().err == (
        "coup serve: --announce: 127.0.0.1 is this machine only, and no other machine could "
        "join it: serve on 0.0.0.0 or on this machine's address on the network\n")


@pytest.mark.parametrize("discovery", ["off", "on"])
def test_a_server_that_cannot_announce_says_why_and_serves(monkeypatch, caplog, discovery):
    monkeypatch.setenv("COUP_DISCOVERY", discovery)
    why = {"off": "COUP_DISCOVERY is off",
           "on": "127.0.0.1 is this machine only, and no other machine could join it: serve "
                 "on 0.0.0.0 or on this machine's address on the network"}[discovery]

    def said() -> list:
        return [r.fields["reason"] for r in caplog.records if r.getMessage() == "not_announced"]

    async def run() -> None:
        async with trio.open_nursery() as nursery:
            host, port = await nursery.start(Server(ServerConfig(port=0, announce=True)).serve)
            link = await Link.open(host, port, name="ana")
            await link.aclose()
            with trio.fail_after(WAIT):
                while not said():
                    await trio.sleep(0.01)
            nursery.cancel_scope.cancel()

    trio.run(run)
    assert said() == [why]
