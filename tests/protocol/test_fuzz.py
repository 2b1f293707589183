"""Hostile bytes: whatever a peer sends, the connection answers with the protocol's error.

Arbitrary bytes, truncated and mutated valid frames, deeply nested arrays and maps, headers
claiming 4 GiB, ext types, non-string keys, random msgpack values in place of a frame or of
one of its fields: fed to a server and to a client, before and after the handshake, the only
exception `next_message` may raise is RemoteProtocolError, with a code of the session table,
and a closing code leaves the connection CLOSED. `codec.decode` is held to the same rule for
any unpacked value, and whatever it accepts `encode` accepts back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol import (
    CONNECTION_CLOSED, NEED_DATA, SESSION_ERRORS, Connection, Hello, Ping, RemoteProtocolError,
    Role, State, Welcome, decode, encode,
)
from protocol.connection import DEFAULT_MAX_FRAME
from protocol.messages import Message

from .helpers import ACCEPT_ALL, by_sender, one_of_each, receive_and_get, variants

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

HELLO = Hello(versions=[1], client="fuzz/1")
WELCOME = Welcome(version=1, server="fuzz/1")


def fresh_server(max_frame: int = DEFAULT_MAX_FRAME) -> Connection:
    return Connection(Role.SERVER, max_frame=max_frame)


def open_server(max_frame: int = DEFAULT_MAX_FRAME) -> Connection:
    server = fresh_server(max_frame)
    receive_and_get(server, encode(HELLO))
    server.send(WELCOME)
    return server


def fresh_client(max_frame: int = DEFAULT_MAX_FRAME) -> Connection:
    client = Connection(Role.CLIENT, max_frame=max_frame)
    client.send(HELLO)
    return client


def open_client(max_frame: int = DEFAULT_MAX_FRAME) -> Connection:
    client = fresh_client(max_frame)
    receive_and_get(client, encode(WELCOME))
    return client


CONNECTIONS: dict[str, Callable[..., Connection]] = {
    "server before handshake": fresh_server,
    "server after handshake": open_server,
    "client before handshake": fresh_client,
    "client after handshake": open_client,
}


def drain(conn: Connection, data: bytes, eof: bool = False) -> list[Message]:
    """Feed `data` (and the end of the stream), read until nothing is left, and check that
    nothing but the protocol's error comes out. Returns the messages read."""
    if data:
        conn.receive_data(data)
    if eof:
        conn.receive_data(b"")
    got: list[Message] = []
    for _ in range(len(data) + 3):  # every round reads a frame, fails, or ends
        try:
            result = conn.next_message()
        except RemoteProtocolError as exc:
            assert exc.code in SESSION_ERRORS, exc.code
            if exc.closes:
                assert conn.state is State.CLOSED, exc
            continue
        if result is NEED_DATA:
            assert not eof
            return got
        if result is CONNECTION_CLOSED:
            assert conn.state is State.CLOSED
            return got
        assert isinstance(result, Message)
        got.append(result)
        if conn.role is Role.SERVER and isinstance(result, Hello) and conn.state is State.HANDSHAKE:
            conn.send(WELCOME)  # as a server would, so that reading goes on
    raise AssertionError("next_message kept going without consuming anything")


def each_connection(data: bytes, eof: bool = False) -> None:
    for make in CONNECTIONS.values():
        drain(make(), data, eof)


# --------------------------------------------------------------------------- samples


CLIENT_FRAMES = [encode(m) for m in one_of_each() if by_sender("client")(m)]
SERVER_FRAMES = [encode(m) for m in variants() if by_sender("server")(m)]
ALL_FRAMES = CLIENT_FRAMES + SERVER_FRAMES
frames = st.sampled_from(ALL_FRAMES)

leaves = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=True)
    | st.text(max_size=40)
    | st.binary(max_size=40)
    | st.sampled_from(["t", "id", "hello", "update", "view", "duke", "ping"])
)
msgpack_values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=6)
    | st.dictionaries(st.text(max_size=10) | st.sampled_from(["t", "id", "seat"]), inner, max_size=6),
    max_leaves=30,
)
#: Keys msgpack can write but a frame may not hold.
odd_keys = st.integers(-5, 5) | st.none() | st.booleans() | st.binary(max_size=4) | st.floats()


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


# --------------------------------------------------------------------------- byte-level garbage


@FUZZ
@given(data=st.binary(max_size=400), eof=st.booleans())
def test_arbitrary_bytes(data: bytes, eof: bool) -> None:
    each_connection(data, eof)


@FUZZ
@given(frame=frames, data=st.data())
def test_a_truncated_frame_waits_for_more_and_is_a_bad_frame_at_eof(frame: bytes, data: Any) -> None:
    cut = data.draw(st.integers(1, len(frame) - 1))
    for name, make in CONNECTIONS.items():
        conn = make()
        conn.receive_data(frame[:cut])
        assert conn.next_message() is NEED_DATA, name
        conn.receive_data(b"")
        with pytest.raises(RemoteProtocolError) as info:
            conn.next_message()
        assert info.value.code == "bad_frame"
        assert conn.state is State.CLOSED


@FUZZ
@given(
    frame=frames,
    edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=6),
    eof=st.booleans(),
)
def test_byte_mutated_frames(frame: bytes, edits: list[tuple[int, int]], eof: bool) -> None:
    mutated = bytearray(frame)
    for at, byte in edits:
        mutated[at % len(mutated)] = byte
    each_connection(bytes(mutated), eof)


@FUZZ
@given(
    frame=frames,
    at=st.integers(0, 10**6),
    insert=st.binary(min_size=0, max_size=8),
    remove=st.integers(0, 8),
)
def test_frames_with_bytes_inserted_or_removed_then_a_valid_frame(
    frame: bytes, at: int, insert: bytes, remove: int
) -> None:
    at %= len(frame)
    each_connection(frame[:at] + insert + frame[at + remove :] + encode(HELLO), eof=True)


# --------------------------------------------------------------------------- values of any shape


@FUZZ
@given(obj=msgpack_values, eof=st.booleans())
def test_random_msgpack_values_as_frames(obj: Any, eof: bool) -> None:
    each_connection(pack(obj), eof)


@FUZZ
@given(obj=msgpack_values)
def test_decode_of_any_value_is_a_message_or_the_protocols_error(obj: Any) -> None:
    try:
        msg = decode(obj, ACCEPT_ALL)
    except RemoteProtocolError as exc:
        assert exc.code in ("bad_frame", "unknown_type", "bad_message")
    else:
        assert decode(msgpack.unpackb(encode(msg)), ACCEPT_ALL) == msg


@FUZZ
@given(msg=st.sampled_from(variants()), data=st.data())
def test_any_field_replaced_by_any_value_is_a_message_or_a_bad_message(
    msg: Message, data: Any
) -> None:
    """Wrong types, at the top and one level down (a view's field, an option, a seat)."""
    wire = msg.to_wire()
    names = sorted(k for k in wire if k != "t") + ["extra"]
    name = data.draw(st.sampled_from(names))
    value = data.draw(msgpack_values)
    inner = wire.get(name)
    if isinstance(inner, dict) and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(inner) + ["extra"]))
        wire[name] = inner | {key: value}
    else:
        wire[name] = value
    frame = pack(wire)
    try:
        got = decode(msgpack.unpackb(frame), ACCEPT_ALL)
    except RemoteProtocolError as exc:
        assert exc.code == "bad_message", exc
        if name != "id":
            assert exc.re == msg.to_wire().get("id")
    else:
        assert decode(msgpack.unpackb(encode(got)), ACCEPT_ALL) == got
    for make in (open_server, open_client):
        drain(make(), frame)


@FUZZ
@given(frame=st.sampled_from(SERVER_FRAMES), key=odd_keys, value=msgpack_values)
def test_non_string_map_keys_are_refused(frame: bytes, key: Any, value: Any) -> None:
    wire = msgpack.unpackb(frame)
    bad = pack(wire | {key: value})
    for make in (open_client, fresh_client):
        conn = make()
        conn.receive_data(bad)
        if isinstance(key, (bytes, str)):  # bin keys are allowed by msgpack and ignored here
            drain(conn, b"")
            continue
        with pytest.raises(RemoteProtocolError) as info:
            conn.next_message()
        assert info.value.code == "bad_frame"


@FUZZ
@given(code=st.integers(0, 127), payload=st.binary(min_size=1, max_size=20), where=st.integers(0, 2))
def test_ext_types_anywhere_are_a_bad_frame(code: int, payload: bytes, where: int) -> None:
    ext = msgpack.ExtType(code, payload)
    obj = [ext, {"t": "ping", "id": ext}, {"t": "ping", "id": 1, "x": [ext]}][where]
    for name, make in CONNECTIONS.items():
        conn = make()
        conn.receive_data(pack(obj))
        with pytest.raises(RemoteProtocolError) as info:
            conn.next_message()
        assert info.value.code == "bad_frame", name


@pytest.mark.parametrize("size", [1, 4, 16, 0], ids=lambda n: f"{n} bytes")
def test_an_ext_type_of_any_size_in_an_unknown_field_is_refused_the_same_way(size: int) -> None:
    """The unpacker's max_ext_len=0 refuses every ext type but the empty one: an empty ext
    (fixext/ext8 of length 0) slips through and the ping below is read, while the same
    ping with a one-byte ext closes the connection."""
    frame = pack({"t": "ping", "id": 1, "x": msgpack.ExtType(5, b"\x00" * size)})
    conn = open_server()
    conn.receive_data(frame)
    with pytest.raises(RemoteProtocolError) as info:
        conn.next_message()
    assert info.value.code == "bad_frame"


def test_a_timestamp_is_a_bad_frame() -> None:
    import datetime

    when = datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)
    frame = msgpack.packb({"t": "ping", "id": 1, "at": when}, datetime=True)
    for make in CONNECTIONS.values():
        conn = make()
        conn.receive_data(frame)
        with pytest.raises(RemoteProtocolError) as info:
            conn.next_message()
        assert info.value.code == "bad_frame"


# --------------------------------------------------------------------------- nesting and lengths


def nested_arrays(depth: int) -> bytes:
    return b"\x91" * depth + b"\xc0"


def nested_maps(depth: int) -> bytes:
    return b"\x81\xa1a" * depth + b"\xc0"


def in_ping(inner: bytes) -> bytes:
    """A ping frame with `inner` as the value of an unknown field."""
    return b"\x83\xa1t\xa4ping\xa2id\x01\xa1x" + inner


@pytest.mark.parametrize("depth", [10_000, 2_000])
@pytest.mark.parametrize("nest", [nested_arrays, nested_maps], ids=["arrays", "maps"])
def test_deep_nesting_is_a_bad_frame(nest: Callable[[int], bytes], depth: int) -> None:
    for frame in (nest(depth), in_ping(nest(depth))):
        for name, make in CONNECTIONS.items():
            conn = make()
            conn.receive_data(frame)
            with pytest.raises(RemoteProtocolError) as info:
                conn.next_message()
            assert info.value.code == "bad_frame", name
            assert conn.state is State.CLOSED


@pytest.mark.parametrize("nest", [nested_arrays, nested_maps], ids=["arrays", "maps"])
def test_nesting_reaches_1024_levels_and_no_further(nest: Callable[[int], bytes]) -> None:
    """docs/PROTOCOL.md, decoder limits: the frame's own map is level 1, so a field nested
    1023 deep reaches level 1024, the most, and is ignored as unknown; one more is
    bad_frame, on either side."""
    for name, make in [("server", open_server), ("client", open_client)]:
        conn = make()
        conn.receive_data(in_ping(nest(1023)))
        assert conn.next_message() == Ping(id=1), name
        conn.receive_data(in_ping(nest(1024)))
        with pytest.raises(RemoteProtocolError) as info:
            conn.next_message()
        assert info.value.code == "bad_frame", name
        assert conn.state is State.CLOSED


@pytest.mark.parametrize("nest", [nested_arrays, nested_maps], ids=["arrays", "maps"])
def test_moderate_nesting_in_an_unknown_field_is_ignored(nest: Callable[[int], bytes]) -> None:
    conn = open_server()
    conn.receive_data(in_ping(nest(200)))
    assert drain(conn, b"") == [Ping(id=1)]


@pytest.mark.parametrize("field", ["versions", "client"])
def test_deep_nesting_in_place_of_a_known_field(field: str) -> None:
    frame = pack({"t": "hello", "versions": [1], "client": "c"})
    wire = msgpack.unpackb(frame)
    for depth in (50, 600):
        deep: Any = None
        for _ in range(depth):
            deep = [deep]
        bad = pack(wire | {field: deep})
        conn = fresh_server()
        conn.receive_data(bad)
        with pytest.raises(RemoteProtocolError) as info:
            conn.next_message()
        assert info.value.code == "handshake_required"  # a hello that is not valid
        conn = open_server()
        conn.receive_data(pack({"t": "list_tables", "id": 1, "x": 0} | {"id": deep}))
        with pytest.raises(RemoteProtocolError) as info:
            conn.next_message()
        assert info.value.code == "bad_message"


def buffered(conn: Connection) -> int:
    """The bytes of the current frame the connection has handed to its unpacker."""
    return conn._fed - conn._frame_start


HUGE = (2**32 - 1).to_bytes(4, "big")


@pytest.mark.parametrize(
    "header",
    [b"\xdb" + HUGE, b"\xc6" + HUGE, b"\xdd" + HUGE, b"\xdf" + HUGE, b"\xc9" + HUGE + b"\x01"]
    + [b"\xda\xff\xff", b"\xdc\xff\xff", b"\xde\xff\xff"],
    ids=["str32", "bin32", "array32", "map32", "ext32", "str16", "array16", "map16"],
)
@pytest.mark.parametrize("where", ["frame", "field"])
def test_huge_declared_lengths_fail_without_buffering_past_the_cap(
    header: bytes, where: str
) -> None:
    cap = 4096
    prefix = header if where == "frame" else b"\x83\xa1t\xa4ping\xa2id\x01\xa1x" + header
    for name, make in CONNECTIONS.items():
        conn = make(cap)
        conn.receive_data(prefix)
        with pytest.raises(RemoteProtocolError) as info:
            for _ in range(100):
                assert conn.next_message() is NEED_DATA
                assert buffered(conn) <= cap
                conn.receive_data(b"\x00" * 512)
        assert info.value.code in ("bad_frame", "frame_too_large"), name
        assert conn.state is State.CLOSED
        assert buffered(conn) <= cap


@FUZZ
@given(
    kind=st.sampled_from([0xDB, 0xC6, 0xDD, 0xDF, 0xDA, 0xC5, 0xDC, 0xDE]),
    length=st.integers(0, 2**32 - 1),
    body=st.binary(max_size=200),
)
def test_any_declared_length_with_any_body(kind: int, length: int, body: bytes) -> None:
    size = 2 if kind in (0xDA, 0xC5, 0xDC, 0xDE) else 4
    header = bytes([kind]) + (length % 256**size).to_bytes(size, "big")
    each_connection(header + body, eof=True)
    each_connection(b"\x82\xa1t\xa5hello\xa8versions" + header + body, eof=False)
