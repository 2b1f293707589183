"""`coup serve` itself, run as a person runs it: the startup line says where it listens and who
can reach it, `--log-json` makes every log line a JSON object, and a signal tells every client
why before a clean exit: SIGTERM `bye server_restart` if a store keeps the tables (else
`server_shutdown`), SIGINT `bye server_shutdown`."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest
import trio

from protocol import ListTables
from tests.server.peer import Peer, new_id

COUP = [sys.executable, "-c", "import sys; from client.cli import main; sys.exit(main())"]


class LogLines:
    """The server's standard error, a line at a time."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.buffer = b""

    async def next(self) -> str | None:
        while b"\n" not in self.buffer:
            data = await self.stream.receive_some(65536)
            if not data:
                return None
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()


@pytest.mark.parametrize(("stop", "flags", "reason"), [
    (signal.SIGTERM, [], "server_restart"),  # a store keeps the tables for the next start
    (signal.SIGINT, [], "server_shutdown"),
    (signal.SIGTERM, ["--db", ":memory:"], "server_shutdown"),  # nothing to come back to
])
async def test_coup_serve_logs_json_and_says_bye_when_stopped(stop, flags, reason):
    process = await trio.lowlevel.open_process(
        COUP + ["serve", "--port", "0", "--log-json", *flags], stderr=subprocess.PIPE)
    try:
        with trio.fail_after(20):
            log = LogLines(process.stderr)
            listening = json.loads(await log.next())
            assert listening["event"] == "listening"
            assert listening["host"] == "127.0.0.1"  # loopback unless told otherwise
            assert listening["reach"] == "this machine only"
            peer = await Peer.connect(listening["port"], "ana")
            assert (await peer.request(ListTables(id=new_id()))).TYPE == "tables"
            process.send_signal(stop)
            frames = await peer.raw_until_closed()
            assert (frames[-1]["t"], frames[-1]["reason"]) == ("bye", reason)
            assert await process.wait() == 0
            events = []
            while (line := await log.next()) is not None:
                events.append(json.loads(line)["event"])  # every line is a JSON object
            assert {"connected", "hello", "signal", "shutting_down", "disconnected"} <= set(
                events)
            await peer.aclose()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_coup_serve_says_when_it_listens_on_every_interface():
    process = await trio.lowlevel.open_process(
        COUP + ["serve", "--port", "0", "--host", "0.0.0.0"], stderr=subprocess.PIPE)
    try:
        with trio.fail_after(20):
            line = await LogLines(process.stderr).next()
            assert "listening" in line and "host=0.0.0.0" in line
            assert "every interface: reachable from other machines" in line
            process.send_signal(signal.SIGTERM)
            assert await process.wait() == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


#: `coup serve` that signals itself the moment it logs that it listens: the earliest moment
#: anyone who watches its log can stop it.
STOP_AT_ONCE = """
import os, signal, sys
from server import log
from client.cli import main
say = log.info
def info(event, **fields):
    say(event, **fields)
    if event == "listening":
        os.kill(os.getpid(), signal.SIGTERM)
log.info = info
sys.exit(main())
"""


async def test_coup_serve_stopped_as_soon_as_it_listens_exits_cleanly():
    process = await trio.lowlevel.open_process(
        [sys.executable, "-c", STOP_AT_ONCE, "serve", "--port", "0"], stderr=subprocess.PIPE)
    try:
        with trio.fail_after(20):
            assert await process.wait() == 0  # not -15: the signal was caught
            lines = []
            log = LogLines(process.stderr)
            while (line := await log.next()) is not None:
                lines.append(line)
            assert any(" signal signal=SIGTERM" in line for line in lines), lines
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()



async def test_coup_serve_keeps_records_in_the_data_directory_and_alone(tmp_path):
    """By default the records go to server.db in the user's data directory (0600); a second
    server on that file is refused with a clear error and exit status 2, the first unharmed."""
    import os

    process = await trio.lowlevel.open_process(
        COUP + ["serve", "--port", "0", "--log-json"], stderr=subprocess.PIPE)
    try:
        with trio.fail_after(20):
            log = LogLines(process.stderr)
            assert json.loads(await log.next())["event"] == "listening"
            db = os.path.join(os.environ["XDG_DATA_HOME"], "coup", "server.db")
            assert os.stat(db).st_mode & 0o777 == 0o600
            second = await trio.run_process(COUP + ["serve", "--port", "0"], check=False,
                                            capture_stderr=True)
            assert second.returncode == 2
            assert b"another coup server is using it" in second.stderr
            assert process.returncode is None
    finally:
        process.kill()
        await process.wait()
