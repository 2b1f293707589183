"""A session's TCP fast path (os.read and os.write on the socket's descriptor) is taken only
where it works (POSIX); elsewhere a TCP session reads and writes through trio's Stream API,
and serves the client the same."""

from __future__ import annotations

import os

import pytest

from protocol import ListTables, Ping
from server import session
from tests.server.peer import new_id


@pytest.fixture
def no_fast_io(monkeypatch) -> None:
    monkeypatch.setattr(session, "FAST_IO", False)


async def test_without_the_fast_path_a_tcp_session_uses_the_stream_api(no_fast_io, connect,
                                                                        server):
    peer = await connect("ana")
    (served,) = server.lobby.sessions
    assert served._direct is None
    assert (await peer.request(Ping(id=new_id()))).TYPE == "pong"
    assert (await peer.request(ListTables(id=new_id()))).TYPE == "tables"


@pytest.mark.skipif(os.name != "posix", reason="the fast path is POSIX's")
async def test_on_posix_a_tcp_session_takes_the_fast_path(connect, server):
    await connect("ana")
    (served,) = server.lobby.sessions
    assert served._direct is not None
