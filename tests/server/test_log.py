"""No client can write a line of the server's log: what it sends (its client string, its
name) is quoted and escaped in text logs, and every `--log-json` line stays one JSON object."""

from __future__ import annotations

import io
import json
import logging
import sys

import pytest

from protocol import Hello
from server import log
from tests.server.peer import Peer

#: A client string that, written raw, would forge a line, move the cursor and clear a screen.
FORGED = "e/1\n2026-11-23T00:00:00 ERROR table_failed table=abc\r\x1b[2J\u2028"
#: A printable name that, written bare, would pass for more fields than one.
NAME = 'ana level=ERROR event="x"'


@pytest.fixture
def server_log(monkeypatch):
    """setup(as_json) sends the server's log to a buffer; the logger is put back after."""
    logger = logging.getLogger("coup.server")
    saved = logger.handlers[:], logger.level, logger.propagate
    buffer = io.StringIO()

    def setup(as_json: bool) -> io.StringIO:
        monkeypatch.setattr(sys, "stderr", buffer)
        log.setup(as_json)
        return buffer

    yield setup
    logger.handlers[:], level, logger.propagate = saved
    logger.setLevel(level)  # not a plain assignment: the logger caches what it lets through


async def say_hello(port: int) -> None:
    peer = await Peer.connect(port, handshake=False)
    await peer.send(Hello(versions=[1], client=FORGED, name=NAME))
    await peer.expect("welcome")
    await peer.aclose()


def hello_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if " hello " in line or '"hello"' in line]


async def test_a_forged_client_string_stays_inside_one_text_line(server_log, port):
    buffer = server_log(as_json=False)
    await say_hello(port)
    text = buffer.getvalue()
    assert "\x1b" not in text and "\r" not in text and "\u2028" not in text
    assert "table_failed" not in text.replace("table_failed table=abc", "")
    (line,) = hello_lines(text)
    assert 'name="ana level=ERROR event=\\"x\\""' in line
    assert '\\n2026-11-23T00:00:00 ERROR table_failed table=abc\\r\\x1b[2J' in line
    assert len(text.splitlines()) == sum(
        1 for line in text.splitlines() if line[:4].isdigit())  # every line is a log line


async def test_a_forged_client_string_stays_inside_one_json_line(server_log, port):
    buffer = server_log(as_json=True)
    await say_hello(port)
    records = [json.loads(line) for line in buffer.getvalue().splitlines()]
    (hello,) = [r for r in records if r["event"] == "hello"]
    assert hello["client"] == FORGED and hello["name"] == NAME
    assert "\u2028" not in buffer.getvalue()


async def test_safe_values_stay_bare_and_others_are_quoted():
    assert log.quote("k7tq2m") == "k7tq2m"
    assert log.quote("João") == "João"
    assert log.quote("") == '""'
    assert log.quote("a b") == '"a b"'
    assert log.quote('say "hi"\\') == '"say \\"hi\\"\\\\"'
    assert log.quote("bell\a") == '"bell\\x07"'
