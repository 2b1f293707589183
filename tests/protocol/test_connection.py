"""The sans-I/O connection: the handshake both ways, version negotiation, the states, local
misuse, byte streams cut anywhere, the frame limit and the end of the stream.

Scenarios run a client and a server `Connection` back to back (helpers.ConnectionPair), or
feed one side bytes a peer could have sent.
"""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol import (
    CONNECTION_CLOSED, NEED_DATA, VERSIONS, Bye, Chat, Connection, CreateTable, Error, Hello,
    Join, Joined, ListTables, LocalProtocolError, MoveAccepted, MoveRequest, Ok, Ping, Pong,
    Presence, Ready, RemoteProtocolError, Role, Say, State, TableInfo, Tables, Update, Welcome,
    choose_version, encode,
)
from protocol.connection import DEFAULT_MAX_FRAME
from protocol.messages import MAX_LISTED, Message, Snapshot

from .helpers import (
    TABLE, ConnectionPair, by_sender, large_update, mid_game_move,
    mid_game_update, one_of_each, open_pair, receive_and_get, seat_infos, serve, table_options,
    table_summary,
)

HELLO = Hello(versions=[1], client="coup-tui/0.1.0", name="ana")
WELCOME = Welcome(version=1, server="coupd/0.1.0", name="ana", max_frame=DEFAULT_MAX_FRAME)


def remote_error(conn: Connection) -> RemoteProtocolError:
    with pytest.raises(RemoteProtocolError) as info:
        conn.next_message()
    return info.value


def local_error(conn: Connection, msg: object) -> LocalProtocolError:
    with pytest.raises(LocalProtocolError) as info:
        conn.send(msg)  # type: ignore[arg-type]
    return info.value


# --------------------------------------------------------------------------- handshake


def test_server_reads_hello_then_sends_welcome_and_is_open() -> None:
    server = Connection(Role.SERVER)
    assert receive_and_get(server, encode(HELLO)) == [HELLO]
    assert server.state is State.HANDSHAKE
    assert server.peer_versions == (1,)
    server.send(WELCOME)
    assert server.state is State.OPEN
    assert server.version == 1


def test_client_sends_hello_reads_welcome_and_is_open_with_the_servers_frame_limit() -> None:
    client = Connection(Role.CLIENT)
    assert msgpack.unpackb(client.send(HELLO))["t"] == "hello"
    assert client.state is State.HANDSHAKE
    welcome = Welcome(version=1, server="coupd", max_frame=4096)
    assert receive_and_get(client, encode(welcome)) == [welcome]
    assert client.state is State.OPEN
    assert (client.version, client.peer_max_frame) == (1, 4096)


@pytest.mark.parametrize(
    "first",
    [
        Ping(id=1),
        ListTables(id=1),
        Join(id=1, table=TABLE),
        Error(code="bad_frame", message=""),
        Bye(reason="client_quit"),
    ],
    ids=lambda m: m.TYPE,
)
def test_a_first_message_other_than_hello_is_handshake_required_and_closes(first: Message) -> None:
    server = Connection(Role.SERVER)
    server.receive_data(encode(first) + encode(HELLO))
    err = remote_error(server)
    assert err.code == "handshake_required" and err.closes
    assert server.state is State.CLOSED
    assert server.next_message() is CONNECTION_CLOSED  # the hello behind it is never read


def test_a_server_type_sent_first_to_the_server_is_handshake_required() -> None:
    server = Connection(Role.SERVER)
    server.receive_data(encode(WELCOME))
    assert remote_error(server).code == "handshake_required"
    assert server.state is State.CLOSED


def test_an_invalid_hello_is_handshake_required() -> None:
    server = Connection(Role.SERVER)
    server.receive_data(msgpack.packb({"t": "hello", "versions": [], "client": "c"}))
    assert remote_error(server).code == "handshake_required"
    assert server.state is State.CLOSED


def test_garbage_before_hello_is_a_bad_frame() -> None:
    server = Connection(Role.SERVER)
    server.receive_data(b"GET / HTTP/1.1\r\n\r\n")
    err = remote_error(server)
    assert err.code == "bad_frame" and err.closes
    assert server.state is State.CLOSED


def test_a_second_hello_before_welcome_is_handshake_required() -> None:
    server = Connection(Role.SERVER)
    server.receive_data(encode(HELLO) + encode(HELLO))
    assert server.next_message() == HELLO
    assert remote_error(server).code == "handshake_required"


def test_the_client_refuses_a_welcome_with_a_version_it_does_not_speak() -> None:
    client = Connection(Role.CLIENT)
    client.send(HELLO)
    client.receive_data(encode(Welcome(version=3, server="future")))
    err = remote_error(client)
    assert err.code == "unsupported_version" and err.closes
    assert client.state is State.CLOSED
    assert client.version is None


def test_the_client_refuses_a_welcome_with_a_version_its_hello_did_not_offer() -> None:
    """A client of versions 1 and 2 that offered only 1 (to play as an older client does)
    is held to it: the fixed core's welcome names a version the hello asked for."""
    client = Connection(Role.CLIENT)
    assert client.versions == (1, 2)
    client.send(Hello(versions=[1], client="c"))
    client.receive_data(encode(Welcome(version=2, server="s")))
    assert remote_error(client).code == "unsupported_version"
    assert client.version is None


def test_version_2_is_the_highest_both_speak() -> None:
    """Version 2 (Reformation tables) is chosen whenever both sides speak it; an older
    client gets version 1."""
    assert choose_version([1, 2]) == 2 and choose_version([1]) == 1
    assert choose_version([2, 7]) == 2 and choose_version([3]) is None
    pair = ConnectionPair()
    [hello] = pair.send(Role.CLIENT, Hello(versions=list(VERSIONS), client="c"))
    assert hello.versions == [1, 2]
    pair.send(Role.SERVER, Welcome(version=2, server="s"))
    assert pair.client.version == pair.server.version == 2


def test_the_client_refuses_anything_but_welcome_or_error_in_answer_to_hello() -> None:
    client = Connection(Role.CLIENT)
    client.send(HELLO)
    client.receive_data(encode(Tables(tables=[])))
    assert remote_error(client).code == "handshake_required"
    assert client.state is State.CLOSED


def test_a_server_that_speaks_no_common_version_answers_with_its_versions() -> None:
    pair = ConnectionPair(client_versions=(1,), server_versions=(2, 3))
    [hello] = pair.send(Role.CLIENT, Hello(versions=[1], client="old/1"))
    assert choose_version(hello.versions, pair.server.versions) is None
    error = Error(
        code="unsupported_version",
        message="This server speaks versions 2 and 3.",
        versions=list(pair.server.versions),
    )
    [got] = pair.send(Role.SERVER, error)
    assert got.versions == [2, 3]
    assert pair.server.state is State.CLOSED
    assert pair.client.state is State.CLOSED
    assert pair.client.next_message() is CONNECTION_CLOSED


def test_a_handshake_required_error_closes_the_client() -> None:
    client = Connection(Role.CLIENT)
    client.send(HELLO)
    client.receive_data(encode(Error(code="handshake_required", message="hello first")))
    assert client.next_message() == Error(code="handshake_required", message="hello first")
    assert client.state is State.CLOSED


def test_a_non_closing_error_during_the_handshake_leaves_it_open_to_welcome() -> None:
    pair = ConnectionPair()
    pair.send(Role.CLIENT, HELLO)
    pair.send(Role.SERVER, [Error(code="rate_limited", message="slow down"), WELCOME])
    assert pair.client.state is pair.server.state is State.OPEN


@pytest.mark.parametrize(
    "client_versions, server_versions, agreed",
    [
        ((1,), (1,), 1),
        ((1, 2), (1,), 1),  # a newer client meets an older server
        ((1,), (1, 2), 1),  # an older client meets a newer server
        ((1, 2, 3), (2, 3, 4), 3),
        ((3, 1, 2), (2, 1), 2),
    ],
)
def test_version_negotiation_both_ways_agrees_on_the_highest_common_version(
    client_versions: tuple[int, ...], server_versions: tuple[int, ...], agreed: int
) -> None:
    pair = ConnectionPair(client_versions=client_versions, server_versions=server_versions)
    pair.handshake(Hello(versions=list(client_versions), client="c"))
    assert pair.client.version == pair.server.version == agreed


def test_the_server_may_not_welcome_with_a_version_the_client_did_not_offer() -> None:
    server = Connection(Role.SERVER, versions=(1, 2))
    receive_and_get(server, encode(Hello(versions=[1], client="old")))
    err = local_error(server, Welcome(version=2, server="s"))
    assert err.code == "unsupported_version"
    assert server.state is State.HANDSHAKE
    server.send(Welcome(version=1, server="s"))
    assert server.state is State.OPEN


def test_the_server_may_not_welcome_with_a_version_it_does_not_speak() -> None:
    server = Connection(Role.SERVER, versions=(1,))
    receive_and_get(server, encode(Hello(versions=[1, 2], client="new")))
    assert local_error(server, Welcome(version=2, server="s")).code == "unsupported_version"


@pytest.mark.parametrize(
    "theirs, ours, best",
    [
        ([1], (1,), 1),
        ([1, 2, 3], (2, 3), 3),
        ([3, 2, 1], (1, 2), 2),
        ([5, 5, 1], (1, 5), 5),
        ([2], (1,), None),
        ([], (1,), None),
        ((7, 8), (8, 7), 8),
    ],
)
def test_choose_version_picks_the_highest_common_one(
    theirs: list[int], ours: tuple[int, ...], best: int | None
) -> None:
    assert choose_version(theirs, ours) == best


def test_choose_version_defaults_to_the_versions_spoken_here() -> None:
    assert choose_version([999, *VERSIONS]) == max(VERSIONS)


# --------------------------------------------------------------------------- open connection


def test_ping_and_pong_both_ways_after_the_handshake() -> None:
    pair = open_pair()
    [ping] = pair.send(Role.CLIENT, Ping(id=7))
    pair.send(Role.SERVER, Pong(re=ping.id))
    [ping] = pair.send(Role.SERVER, Ping(id=2**31 - 1))
    pair.send(Role.CLIENT, Pong(re=ping.id))
    assert pair.client.state is pair.server.state is State.OPEN


def test_every_message_passes_an_open_pair_the_way_it_is_meant_to() -> None:
    pair = open_pair()
    msgs = [m for m in one_of_each() if not isinstance(m, (Hello, Welcome, Bye))]
    pair.send(Role.CLIENT, [m for m in msgs if by_sender("client")(m)])
    pair.send(Role.SERVER, [m for m in msgs if by_sender("server")(m)])
    assert pair.client.state is pair.server.state is State.OPEN


@pytest.mark.parametrize("leaver", [Role.CLIENT, Role.SERVER])
def test_bye_closes_both_sides(leaver: Role) -> None:
    pair = open_pair()
    pair.send(leaver, Bye(reason="client_quit" if leaver is Role.CLIENT else "server_shutdown"))
    assert pair.client.state is pair.server.state is State.CLOSED
    other = pair.other(leaver)
    other.receive_data(encode(Ping(id=1)))  # late bytes are ignored
    assert other.next_message() is CONNECTION_CLOSED
    assert local_error(pair.conn(leaver), Ping(id=1)).code == "bad_message"
    assert local_error(other, Pong(re=1)).code == "bad_message"


def test_bye_can_end_the_handshake_from_either_side() -> None:
    pair = ConnectionPair()
    pair.send(Role.CLIENT, HELLO)
    pair.send(Role.SERVER, Bye(reason="too_many_connections"))
    assert pair.client.state is pair.server.state is State.CLOSED


def test_sending_a_closing_error_closes_a_non_closing_one_does_not() -> None:
    pair = open_pair()
    pair.send(Role.SERVER, Error(code="no_such_table", message="no t9", re=3))
    assert pair.server.state is pair.client.state is State.OPEN
    pair.send(Role.SERVER, Error(code="slow_consumer", message="bye"))
    assert pair.server.state is State.CLOSED


def test_hello_and_welcome_after_the_handshake() -> None:
    pair = open_pair()
    assert local_error(pair.client, HELLO).code == "bad_message"
    assert local_error(pair.server, WELCOME).code == "bad_message"
    pair.server.receive_data(encode(HELLO))
    err = remote_error(pair.server)
    assert err.code == "bad_message" and not err.closes
    assert pair.server.state is State.OPEN


# --------------------------------------------------------------------------- local misuse


def test_a_client_must_send_hello_before_anything_else() -> None:
    client = Connection(Role.CLIENT)
    for msg in (Ping(id=1), ListTables(id=1), Pong(re=1), Say(id=1, text="hi")):
        assert local_error(client, msg).code == "handshake_required"
    assert client.state is State.HANDSHAKE
    client.send(HELLO)
    assert local_error(client, HELLO).code == "handshake_required"  # hello once
    assert local_error(client, Ping(id=1)).code == "handshake_required"  # before welcome


def test_a_server_must_read_hello_and_send_welcome_before_anything_else() -> None:
    server = Connection(Role.SERVER)
    assert local_error(server, WELCOME).code == "handshake_required"  # no hello yet
    receive_and_get(server, encode(HELLO))
    for msg in (Tables(tables=[]), Ping(id=1), Ok(re=1)):
        assert local_error(server, msg).code == "handshake_required"
    server.send(WELCOME)
    assert msgpack.unpackb(server.send(Ping(id=1))) == {"t": "ping", "id": 1}


@pytest.mark.parametrize(
    "msg",
    [ListTables(id=1), Say(id=1, text="hi"), MoveRequest(id=1, state_id=1, move={"kind": "income"})],
    ids=lambda m: m.TYPE,
)
def test_a_server_cannot_send_a_client_message(msg: Message) -> None:
    pair = open_pair()
    assert local_error(pair.server, msg).code == "bad_message"
    assert pair.server.state is State.OPEN


@pytest.mark.parametrize(
    "msg",
    [Tables(tables=[]), Ok(re=1), Chat(scope="lobby", name="a", text="b"), mid_game_update()],
    ids=lambda m: m.TYPE,
)
def test_a_client_cannot_send_a_server_message(msg: Message) -> None:
    pair = open_pair()
    assert local_error(pair.client, msg).code == "bad_message"


def test_sending_what_is_not_a_message_is_a_local_error() -> None:
    pair = open_pair()
    assert local_error(pair.client, {"t": "ping", "id": 1}).code == "bad_message"
    assert local_error(pair.client, Ping(id=-5)).code == "bad_message"


def test_sending_after_the_peer_closed_is_a_local_error() -> None:
    pair = open_pair()
    pair.client.receive_data(b"")
    assert pair.client.next_message() is CONNECTION_CLOSED
    assert local_error(pair.client, Ping(id=1)).code == "bad_message"


def test_a_client_will_not_send_more_than_the_servers_frame_limit() -> None:
    pair = ConnectionPair()
    pair.handshake(welcome=Welcome(version=1, server="tiny", max_frame=1024))
    pair.send(Role.CLIENT, Say(id=1, text="x" * 500))
    err = local_error(pair.client, Say(id=2, text="é" * 500))  # 1000 bytes of text
    assert err.code == "frame_too_large"
    assert pair.client.state is State.OPEN


# --------------------------------------------------------------------------- byte streams


def client_stream() -> tuple[bytes, list[Message]]:
    """Everything a client writes in a short session, and the messages it is made of."""
    msgs: list[Message] = [
        HELLO,
        ListTables(id=1),
        CreateTable(id=2, options=table_options()),
        Ready(id=3),
        MoveRequest(id=4, state_id=23, move=mid_game_move()),
        Say(id=5, text="é" * 200 + " nice bluff"),
        Ping(id=6),
        Pong(re=99),
        Bye(reason="client_quit"),
    ]
    client = Connection(Role.CLIENT)
    data = client.send(msgs[0])
    receive_and_get(client, encode(WELCOME))
    data += b"".join(client.send(m) for m in msgs[1:])
    return data, msgs


def server_stream() -> tuple[bytes, list[Message]]:
    """Everything a server writes to a player through a game's end, with a large update."""
    msgs: list[Message] = [
        WELCOME,
        Tables(tables=[table_summary(), table_summary("t8", "waiting")], re=1),
        Joined(table=TABLE, re=2, seat=0, token="k" * 40),
        TableInfo(info=table_summary()),
        Snapshot(table=TABLE, view=mid_game_update().view, players=seat_infos(), deadlines=[]),
        mid_game_update(),
        MoveAccepted(re=4, state_id=24),
        large_update(),
        Chat(scope="table", name="chen", text="gg", seat=2, table=TABLE),
        Presence(table=TABLE, seat=4, status="left"),
        Ping(id=1),
        Bye(reason="server_shutdown"),
    ]
    server = Connection(Role.SERVER)
    receive_and_get(server, encode(HELLO))
    return b"".join(server.send(m) for m in msgs), msgs


def read_as_server(chunks: list[bytes]) -> list[Message]:
    return serve(Connection(Role.SERVER), chunks, WELCOME)


def read_as_client(chunks: list[bytes]) -> list[Message]:
    client = Connection(Role.CLIENT)
    client.send(HELLO)
    got: list[Message] = []
    for chunk in chunks:
        if chunk:  # b"" would mean the end of the stream
            got += receive_and_get(client, chunk)
    return got


def test_the_streams_are_realistic() -> None:
    data, _ = server_stream()
    assert len(data) > 4000
    assert len(encode(large_update())) > 2500


def test_a_client_stream_split_at_every_byte_boundary_reads_the_same() -> None:
    data, msgs = client_stream()
    for cut in range(len(data) + 1):
        assert read_as_server([data[:cut], data[cut:]]) == msgs, f"cut at byte {cut}"


def test_a_server_stream_split_at_every_byte_boundary_reads_the_same() -> None:
    data, msgs = server_stream()
    for cut in range(len(data) + 1):
        assert read_as_client([data[:cut], data[cut:]]) == msgs, f"cut at byte {cut}"


def test_streams_fed_one_byte_at_a_time_read_the_same() -> None:
    data, msgs = client_stream()
    assert read_as_server([data[i : i + 1] for i in range(len(data))]) == msgs
    data, msgs = server_stream()
    assert read_as_client([data[i : i + 1] for i in range(len(data))]) == msgs


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cuts=st.lists(st.integers(0, 10**6), max_size=12))
def test_streams_cut_anywhere_any_number_of_times_read_the_same(cuts: list[int]) -> None:
    for stream, read in ((client_stream, read_as_server), (server_stream, read_as_client)):
        data, msgs = stream()
        points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
        chunks = [data[a:b] for a, b in zip(points, points[1:])]
        assert read(chunks) == msgs


# --------------------------------------------------------------------------- frame limit


def padded_ping(size: int) -> bytes:
    """A ping frame of exactly `size` bytes (padded with an unknown field)."""
    base = len(msgpack.packb({"t": "ping", "id": 1, "pad": ""}))
    for pad in range(max(0, size - base - 4), size):
        frame = msgpack.packb({"t": "ping", "id": 1, "pad": "x" * pad})
        if len(frame) == size:
            return frame
    raise AssertionError(size)


def test_a_frame_of_exactly_max_frame_bytes_is_read_one_more_is_too_large() -> None:
    pair = open_pair(server_max_frame=4096)
    pair.server.receive_data(padded_ping(4096))
    assert pair.server.next_message() == Ping(id=1)
    pair.server.receive_data(padded_ping(4097))
    err = remote_error(pair.server)
    assert err.code == "frame_too_large" and err.closes
    assert pair.server.state is State.CLOSED


def test_a_frame_of_the_default_limit_is_read_in_pieces_though_the_buffer_starts_small(
) -> None:
    pair = open_pair()
    frame = padded_ping(DEFAULT_MAX_FRAME)
    for start in range(0, len(frame), 1500):  # as TCP segments bring it
        pair.server.receive_data(frame[start:start + 1500])
    assert pair.server.next_message() == Ping(id=1)


def test_a_thousand_idle_connections_hold_little_memory() -> None:
    """A server holds thousands of connections, nearly all reading frames of a few hundred
    bytes: each one's buffer starts small (READ_SIZE) and grows only for a large frame. With
    msgpack's default it was 44 KB a connection."""
    def rss_kb() -> int:
        with open("/proc/self/status") as status:
            return int(status.read().split("VmRSS:")[1].split()[0])

    before = rss_kb()
    held = [Connection(Role.SERVER) for _ in range(1000)]
    assert (rss_kb() - before) / len(held) < 15


def test_many_frames_just_under_the_limit_in_one_read_are_all_read() -> None:
    pair = open_pair(server_max_frame=4096)
    frame = padded_ping(4000)
    assert receive_and_get(pair.server, frame * 25) == [Ping(id=1)] * 25


@pytest.mark.parametrize("handshake_done", [False, True])
@pytest.mark.parametrize(
    "header",
    [
        b"\xdb" + (10_000_000).to_bytes(4, "big"),  # str32 of 10 MB
        b"\xc6" + (10_000_000).to_bytes(4, "big"),  # bin32 of 10 MB
        b"\xda\xff\xff",  # str16 of 64 KiB - 1
    ],
    ids=["str32", "bin32", "str16"],
)
def test_a_frame_claiming_megabytes_fails_once_the_cap_is_reached(
    header: bytes, handshake_done: bool
) -> None:
    cap, chunk = 4096, 1000
    pair = open_pair(server_max_frame=cap) if handshake_done else None
    server = pair.server if pair else Connection(Role.SERVER, max_frame=cap)
    server.receive_data(b"\x82\xa1t\xa5hello\xa8versions" + header)
    fed = 0
    with pytest.raises(RemoteProtocolError) as info:
        while True:
            assert server.next_message() is NEED_DATA
            assert server._fed - server._frame_start <= cap  # in the unpacker
            assert len(server._pending) <= chunk  # not yet handed to it
            server.receive_data(b"a" * chunk)
            fed += chunk
            assert fed < 10 * cap, "the connection kept buffering past its cap"
    assert info.value.code == "frame_too_large"
    assert fed <= cap + chunk
    assert server.state is State.CLOSED
    server.receive_data(b"a" * chunk)
    assert server.next_message() is CONNECTION_CLOSED


def test_a_10_mb_frame_delivered_in_one_read_is_refused_after_reading_only_the_cap() -> None:
    server = Connection(Role.SERVER)
    big = msgpack.packb({"t": "hello", "versions": [1], "client": "x" * 10_000_000})
    server.receive_data(big)
    assert remote_error(server).code == "frame_too_large"
    assert server._fed - server._frame_start <= server.max_frame


# --------------------------------------------------------------------------- end of stream


def test_eof_between_frames_is_connection_closed() -> None:
    pair = open_pair()
    pair.server.receive_data(encode(Ping(id=1)))
    pair.server.receive_data(b"")
    assert pair.server.next_message() == Ping(id=1)
    assert pair.server.next_message() is CONNECTION_CLOSED
    assert pair.server.state is State.CLOSED
    assert pair.server.next_message() is CONNECTION_CLOSED


def test_eof_before_anything_is_connection_closed() -> None:
    server = Connection(Role.SERVER)
    server.receive_data(b"")
    assert server.next_message() is CONNECTION_CLOSED


@pytest.mark.parametrize("keep", [1, 2, 10, -1])
def test_eof_in_the_middle_of_a_frame_is_a_bad_frame(keep: int) -> None:
    pair = open_pair()
    frame = encode(mid_game_update())
    pair.client.receive_data(frame[:keep])
    assert pair.client.next_message() is NEED_DATA
    pair.client.receive_data(b"")
    err = remote_error(pair.client)
    assert err.code == "bad_frame" and err.closes
    assert pair.client.state is State.CLOSED
    assert pair.client.next_message() is CONNECTION_CLOSED


def test_eof_mid_frame_after_complete_frames_reads_them_first() -> None:
    pair = open_pair()
    frame = encode(MoveRequest(id=3, state_id=4, move={"kind": "income"}))
    pair.server.receive_data(frame + frame[:5])
    pair.server.receive_data(b"")
    assert pair.server.next_message() == MoveRequest(id=3, state_id=4, move={"kind": "income"})
    assert remote_error(pair.server).code == "bad_frame"


def test_data_is_kept_until_asked_for() -> None:
    pair = open_pair()
    data = pair.client.send(Ping(id=1)) + pair.client.send(Ping(id=2))
    pair.server.receive_data(data)
    assert pair.server.next_message() == Ping(id=1)
    assert pair.server.next_message() == Ping(id=2)
    assert pair.server.next_message() is NEED_DATA


def test_a_large_update_crosses_the_pair_intact() -> None:
    pair = open_pair()
    update: Update = large_update()
    [got] = pair.send(Role.SERVER, update)
    assert got.reveal == update.reveal and len(got.events) == 64


# --------------------------------------------------------------------------- known gaps


def test_a_welcome_before_our_hello_is_handshake_required() -> None:
    """A server cannot answer a hello that was never sent. Today the client takes such a
    welcome, goes OPEN, and can then never send its hello (a local bad_message)."""
    client = Connection(Role.CLIENT)
    client.receive_data(encode(WELCOME))
    err = remote_error(client)
    assert err.code == "handshake_required"
    assert client.state is State.CLOSED


def test_a_client_cannot_offer_a_version_it_does_not_speak() -> None:
    """Offering 2 while speaking only 1 lets the server pick 2, which this same client then
    refuses as unsupported_version: the hello itself should be the local error."""
    client = Connection(Role.CLIENT, versions=(1,))
    err = local_error(client, Hello(versions=[1, 2], client="c"))
    assert err.code == "unsupported_version"


def test_the_longest_tables_list_the_spec_allows_fits_a_default_frame() -> None:
    """`tables` holds at most MAX_LISTED summaries: even that many of the largest kind (ten
    seats, every name and option at its longest) fit the 64 KiB default frame."""
    name = "n" * 32
    seats = [{"seat": i, "name": name, "bot": "s" * 32, "ready": True, "away": False}
             for i in range(10)]
    options = {"seats": 10, "variant": "inquisitor", "two_player_draft": True, "treasury": 1000,
               "response_clock": 600, "turn_clock": 3600, "private": False, "name": name,
               "bots": "s" * 32, "on_disconnect": "forfeit"}
    summary = {"table": "t" * 16, "name": name, "options": options, "status": "waiting",
               "seats": seats, "spectators": 10_000, "creator": name}
    pair = open_pair()
    pair.send(Role.SERVER, Tables(tables=[summary] * MAX_LISTED))
