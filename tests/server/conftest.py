"""Server tests run real servers on loopback ports chosen by the OS."""

from __future__ import annotations

import pytest
import trio

from server import Server, ServerConfig


@pytest.fixture
def config() -> ServerConfig:
    return ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0)


@pytest.fixture
async def server(nursery, config):
    srv = Server(config)
    await nursery.start(srv.serve)
    yield srv
    nursery.cancel_scope.cancel()


@pytest.fixture
def port(server) -> int:
    return server.address[1]


@pytest.fixture
async def connect(port):
    """connect(name, **kw) -> a Peer on the test server; every peer is closed at the end."""
    from tests.server.peer import Peer

    peers = []

    async def _connect(name: str = "peer", **kw) -> Peer:
        peer = await Peer.connect(port, name, **kw)
        peers.append(peer)
        return peer

    yield _connect
    for peer in peers:
        await peer.aclose()
