"""Fixtures the client's tests share."""

from __future__ import annotations

import pytest

from server import Server, ServerConfig


@pytest.fixture
async def port(nursery):
    """A real server on loopback for a trio test, its bots and clocks at once: its port."""
    server = Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0))
    await nursery.start(server.serve)
    yield server.address[1]
    nursery.cancel_scope.cancel()
