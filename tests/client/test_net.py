"""The client's one connection code, shared by the bot runner and the terminal client: a
Link answers the server's pings itself, and `Link.reopen` takes a seat back with growing
pauses until its time is up or the seat is given up.

The pings are checked against a scripted server on a memory stream; the reconnect loop
against a Link whose `open` fails as the test says, on trio's autojumping clock.
"""

from __future__ import annotations

import random
from functools import partial

import msgpack
import pytest
import trio
import trio.testing

from client.core.policy import LAST_PAUSE, RECONNECT_FOR, STEADY, Backoff
from client.net import Link, LinkError
from protocol import Chat, Connection, Hello, ListTables, Ping, Pong, Role, Welcome
from tests.client.broken_servers import Hangup


async def handshaken() -> tuple[Link, trio.testing.MemoryStream, Connection]:
    """A Link past its hello, and the server's end of it: (link, stream, connection)."""
    ours, theirs = trio.testing.memory_stream_pair()
    link, server = Link(ours), Connection(Role.SERVER)
    await link.send(Hello(versions=[1], client="test"))
    server.receive_data(await theirs.receive_some())
    assert isinstance(server.next_message(), Hello)
    await theirs.send_all(server.send(Welcome(version=1, server="scripted")))
    assert isinstance(await link.receive(), Welcome)
    return link, theirs, server


@pytest.mark.trio
async def test_a_ping_is_answered_by_the_link_and_never_returned() -> None:
    link, theirs, server = await handshaken()
    await theirs.send_all(server.send(Ping(id=7))
                          + server.send(Chat(scope="lobby", name="Ana", text="hi")))
    assert isinstance(await link.receive(), Chat)
    server.receive_data(await theirs.receive_some())
    assert server.next_message() == Pong(re=7)


@pytest.mark.trio
async def test_a_message_type_from_a_newer_server_is_dropped_and_the_link_goes_on() -> None:
    """PROTOCOL.md, Versioning: a server message an older client does not know is dropped
    as unknown_type, which never closes; the next message arrives as usual. (A known
    message with a field it cannot read is a broken server: tests/client/
    test_hostile_server.py.)"""
    link, theirs, server = await handshaken()
    await theirs.send_all(msgpack.packb({"t": "from_the_future", "x": 1})
                          + server.send(Chat(scope="lobby", name="Ana", text="hi")))
    assert await link.receive() == Chat(scope="lobby", name="Ana", text="hi")


@pytest.mark.trio
async def test_sending_on_a_link_the_server_closed_is_a_broken_link() -> None:
    """A server that vanished (killed) closes the stream: once the link has read that end,
    sending is a LinkError, which the runner and the app reopen, and not the protocol's
    error about a closed connection, which ended the runner."""
    link, theirs, _ = await handshaken()
    await theirs.aclose()
    assert await link.receive() is None
    with pytest.raises(LinkError):
        await link.send(ListTables(id=1))


class Flaky(Link):
    """A Link whose `open` fails while `failures` lasts, noting the time and token of each
    try."""

    failures = 0
    tries: list[tuple[float, str | None]] = []

    @classmethod
    async def open(cls, host, port, name=None, token=None, timeout=10, max_frame=None,
                   identity=None, via=None) -> Link:
        cls.tries.append((trio.current_time(), token))
        if cls.failures:
            cls.failures -= 1
            raise LinkError("cannot connect: refused")
        return cls(trio.testing.memory_stream_pair()[0])


@pytest.fixture
def flaky():
    Flaky.tries = []
    Flaky.failures = 0
    return Flaky


def ceilings() -> Backoff:
    """A back-off whose every pause is its whole ceiling (no jitter)."""
    return Backoff(rng=lambda: 1.0)


@pytest.mark.trio
async def test_reopen_tries_again_with_growing_pauses(flaky, autojump_clock) -> None:
    flaky.failures = 3
    link = await flaky.reopen("127.0.0.1", 1, "Ana", lambda: "seat-token", 60, ceilings())
    assert isinstance(link, Flaky)
    assert flaky.tries == [(0.5, "seat-token"), (1.5, "seat-token"), (3.5, "seat-token"),
                           (7.5, "seat-token")]


@pytest.mark.trio
async def test_reopen_gives_up_when_its_time_is_up(flaky, autojump_clock) -> None:
    flaky.failures = 100
    with pytest.raises(LinkError, match="refused"):
        await flaky.reopen("127.0.0.1", 1, "Ana", lambda: "seat-token", 10, ceilings())
    # After 0.5, 1, 2 and 4 s: a pause of 8 s more would end after 10 s.
    assert [when for when, _token in flaky.tries] == [0.5, 1.5, 3.5, 7.5]


@pytest.mark.trio
async def test_reopen_stops_when_the_seat_is_given_up(flaky, autojump_clock) -> None:
    """The player left the table while the client was trying: no more tries."""
    flaky.failures = 100
    tokens = iter(["seat-token", "seat-token", None])
    with pytest.raises(LinkError, match="given up"):
        await flaky.reopen("127.0.0.1", 1, "Ana", lambda: next(tokens), 60, ceilings())
    assert len(flaky.tries) == 2


def test_each_pause_is_drawn_below_a_ceiling_that_doubles_to_thirty_seconds() -> None:
    """Full jitter: a pause is anywhere from 0 to its ceiling, so that the clients a server
    dropped together do not all come back in the same instant."""
    draws = iter([0.0, 0.5, 0.999, 1.0] + [1.0] * 8)
    backoff = Backoff(rng=lambda: next(draws))
    assert [backoff.pause() for _ in range(12)] == [
        0.0, 0.5, 0.999 * 2, 4, 8, 16, 30, 30, 30, 30, 30, 30]


@pytest.mark.trio
async def test_the_pauses_start_again_after_a_connection_that_stayed_up(flaky,
                                                                       autojump_clock) -> None:
    backoff = ceilings()
    for _ in range(4):  # connections that dropped at once: 0.5, 1, 2, 4 s before each
        await flaky.reopen("127.0.0.1", 1, "Ana", None, 60, backoff)
    assert [when for when, _ in flaky.tries] == [0.5, 1.5, 3.5, 7.5]
    await flaky.reopen("127.0.0.1", 1, "Ana", None, 60, backoff)  # 8 s, and it stays up
    await trio.sleep(STEADY)
    await flaky.reopen("127.0.0.1", 1, "Ana", None, 60, backoff)
    assert flaky.tries[-1][0] - flaky.tries[-2][0] == STEADY + 0.5


@pytest.mark.trio
async def test_a_server_that_hangs_up_at_once_is_tried_a_few_times_a_minute(
        autojump_clock) -> None:
    """A real server that closes every connection it takes: in the two minutes a client
    keeps trying for its seat, it tries 14 times (the jitter seeded), not thousands."""
    hangup = Hangup()
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, host="127.0.0.1"), hangup, 0)
        port = listeners[0].socket.getsockname()[1]
        start = trio.current_time()
        with pytest.raises(LinkError, match="closed the connection"):
            await Link.reopen("127.0.0.1", port, "Ana", lambda: "seat-token", RECONNECT_FOR,
                              Backoff(rng=random.Random(7).random))
        assert RECONNECT_FOR - LAST_PAUSE <= trio.current_time() - start <= RECONNECT_FOR
        assert 8 <= hangup.connections <= 20
        nursery.cancel_scope.cancel()


@pytest.mark.trio
async def test_a_server_that_hangs_up_during_hello_leaves_no_socket_open(monkeypatch) -> None:
    """A server killed while a link says hello (as one being restarted is): the hello finds
    the connection reset, LinkError, and the link's socket is closed, not left open for the
    collector to find."""
    import gc
    import warnings

    async def reset(self, msg) -> None:
        raise LinkError("the connection broke: reset by peer")

    async def listen(stream: trio.SocketStream) -> None:
        await trio.sleep_forever()

    monkeypatch.setattr(Link, "send", reset)
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(trio.serve_tcp, listen, 0)
        port = listeners[0].socket.getsockname()[1]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(LinkError):
                await Link.open("127.0.0.1", port, "ana")
            gc.collect()
        assert not [w for w in caught if issubclass(w.category, ResourceWarning)]
        nursery.cancel_scope.cancel()


@pytest.mark.trio
async def test_messages_that_come_before_identified_wait_for_receive(tmp_path) -> None:
    """A server that gives a seat back sends its news before it answers identify: the link
    keeps them for receive, in order, and identifies. It spun for ever, every message set
    aside coming round again, and a bot restarted with its key hung at 100% CPU."""
    from client.identity import load
    from protocol import Identified, Identify

    async def scripted(stream: trio.SocketStream) -> None:
        server = Connection(Role.SERVER)
        server.receive_data(await stream.receive_some())
        assert isinstance(server.next_message(), Hello)
        await stream.send_all(server.send(Welcome(version=1, server="scripted",
                                                  nonce="ab" * 32, server_id="cd" * 16)))
        while not isinstance(msg := server.next_message(), Identify):
            server.receive_data(await stream.receive_some())
        await stream.send_all(server.send(Chat(scope="lobby", name="Ana", text="one"))
                              + server.send(Chat(scope="lobby", name="Ana", text="two"))
                              + server.send(Identified(re=msg.id, name="bo")))
        await trio.sleep_forever()

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(trio.serve_tcp, scripted, 0)
        port = listeners[0].socket.getsockname()[1]
        with trio.fail_after(5):
            link = await Link.open("127.0.0.1", port, "bo",
                                   identity=load(str(tmp_path / "bo.pem")))
            assert link.identified.name == "bo"
            assert [(await link.receive()).text for _ in range(2)] == ["one", "two"]
        await link.aclose()
        nursery.cancel_scope.cancel()
