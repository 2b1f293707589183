"""Server tests run real servers on loopback ports chosen by the OS.

Every test here is a trio test. `@pytest.mark.server_config(grace=5, …)` sets fields of the
test server's ServerConfig (the defaults: no clocks, bots move at once). A test that asks
for `autojump_clock` runs on a MockClock that jumps over idle time, so deadlines of minutes
pass in milliseconds; its threshold is above pytest-trio's 0 so that loopback I/O in flight
is never mistaken for idleness. A test that hangs fails after TEST_LIMIT real seconds.
"""

from __future__ import annotations

import signal

import pytest
import trio
import trio.testing

from server import Server, ServerConfig


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers", "server_config(**fields): ServerConfig fields for the test's server")
    config.addinivalue_line(
        "markers", "time_limit(seconds): real seconds the test may take, not TEST_LIMIT")


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        if "tests/server/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.trio)


#: Real seconds a test may take before it is failed rather than left hanging.
TEST_LIMIT = 30


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    def expire(signum, frame):
        raise TimeoutError(f"{item.name} took more than {seconds} s")

    marker = item.get_closest_marker("time_limit")
    seconds = marker.args[0] if marker else TEST_LIMIT
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def autojump_clock() -> trio.testing.MockClock:
    return trio.testing.MockClock(autojump_threshold=0.02)


@pytest.fixture
def db(tmp_path) -> str:
    """A store's file in the test's own folder."""
    return str(tmp_path / "coup.db")


@pytest.fixture
def config(request) -> ServerConfig:
    fields = dict(port=0, bot_delay=0, response_clock=0, turn_clock=0)
    marker = request.node.get_closest_marker("server_config")
    if marker is not None:
        fields.update(marker.kwargs)
    return ServerConfig(**fields)


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
