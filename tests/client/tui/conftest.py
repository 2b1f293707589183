"""Tests of the terminal client: real apps driven by Textual's Pilot, against real servers.

Every test is a plain sync function that runs its body with `asyncio.run` (see `run_app`),
so that no asyncio plugin is needed and pytest-trio never takes them over. After each test
the autouse fixture checks that no trio guest run was left behind: a leaked run would poison
the next test's app, so the test that leaks it is the one that fails. Tests that need a
server outside the app (a lobby, other players) take the `server` fixture.
"""

from __future__ import annotations

import pytest
import trio

from client.i18n import set_language
from server import ServerConfig

from .helpers import OPERATOR, ServerThread


@pytest.fixture(autouse=True)
def no_trio_run_left():
    set_language("en")
    yield
    assert not trio.lowlevel.in_trio_run(), "a trio guest run outlived its app"
    set_language("en")


@pytest.fixture
def server():
    """A real server in a background thread (bots move at once, no clocks, seeded deals),
    stopped at the end of the test; see helpers.ServerThread."""
    thread = ServerThread(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                       seed=11)).start()
    yield thread
    thread.stop()


@pytest.fixture
def moderated():
    """A real server as `server`'s but unseeded, whose operator is helpers.OPERATOR."""
    thread = ServerThread(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                       operators=OPERATOR.key)).start()
    yield thread
    thread.stop()
