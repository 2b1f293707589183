"""The strict codec: every message survives a round trip, and every breach of a field's spec
is refused with the protocol's own error.

Frames are what a peer could send: maps built from real messages (engine views and events
included) and then broken one field at a time. The breaches are derived from the specs in
protocol.messages, so a field added there is covered here without a new test: every field
is removed, set to nil, and given each wrong type and each out-of-range value its spec
forbids, at every depth (a view's coins, a table summary's seats, a move's cards...).
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import MISSING, fields
from typing import Any

import msgpack
import pytest

from protocol import (
    ALL, BY_TYPE, LocalProtocolError, RemoteProtocolError, State, decode, encode,
)
from protocol.codec import CLIENT_SENDS, SERVER_SENDS
from protocol.messages import (
    Chat, CreateTable, Error, Hello, Join, Message, MoveRequest, Ping, Ready, Say, TableInfo,
    Tables, Update, Welcome, wire_spec,
)
from protocol.schema import (
    Bool, Enum, Float, Int, Invalid, List, Map, Nullable, OneOf, Str, compile_spec,
)

from .helpers import (
    ACCEPT_ALL, get_all_messages, large_update, mid_game_update, one_of_each, open_pair,
    table_options, table_summary, variants,
)

Path = tuple[str | int, ...]
DELETE = object()


def roundtrip(msg: Message, accepted: frozenset[str] = ACCEPT_ALL) -> Message:
    return decode(msgpack.unpackb(encode(msg)), accepted)


def refusal(obj: Any, accepted: frozenset[str] = ACCEPT_ALL) -> RemoteProtocolError:
    """The error decoding `obj` raises (after a real msgpack round trip of the map)."""
    frame = msgpack.unpackb(msgpack.packb(obj, use_bin_type=True), strict_map_key=False)
    with pytest.raises(RemoteProtocolError) as info:
        decode(frame, accepted)
    return info.value


# --------------------------------------------------------------------------- round trips


def test_the_samples_cover_every_message_class() -> None:
    assert [type(m) for m in one_of_each()] == list(ALL)
    assert {type(m) for m in variants()} == set(ALL)


@pytest.mark.parametrize("msg", variants(), ids=lambda m: m.TYPE)
def test_every_message_survives_encode_unpack_decode(msg: Message) -> None:
    assert roundtrip(msg) == msg


@pytest.mark.parametrize("msg", one_of_each(), ids=lambda m: m.TYPE)
def test_each_message_is_decoded_by_the_side_it_is_meant_for(msg: Message) -> None:
    sender = type(msg).SENDER
    if sender in ("client", "both"):
        assert roundtrip(msg, CLIENT_SENDS) == msg
    if sender in ("server", "both"):
        assert roundtrip(msg, SERVER_SENDS) == msg


def test_the_frame_is_the_message_map_with_t_first_and_no_nils() -> None:
    msg = Join(id=3, table="t7")
    assert msgpack.unpackb(encode(msg)) == {"t": "join", "id": 3, "table": "t7"}
    assert next(iter(msgpack.unpackb(encode(msg)))) == "t"


def test_defaults_travel_and_come_back() -> None:
    assert roundtrip(Ready(id=1, ready=False)) == Ready(id=1, ready=False)
    assert decode({"t": "ready", "id": 1}, CLIENT_SENDS) == Ready(id=1, ready=True)
    assert decode({"t": "say", "id": 1, "text": "hi"}, CLIENT_SENDS).scope == "table"


def test_a_nil_optional_field_reads_as_absent() -> None:
    frame = {"t": "join", "id": 3, "table": "t7", "code": None, "seat": None}
    assert decode(frame, CLIENT_SENDS) == Join(id=3, table="t7")


def test_a_nil_that_the_spec_allows_inside_a_view_is_kept() -> None:
    update = mid_game_update()
    assert None in update.view["hands"]  # the other seats' hands are unknown
    assert roundtrip(update).view["hands"] == update.view["hands"]


# --------------------------------------------------------------------------- spec-derived breaches


def valid_value(spec: Any) -> Any:
    """Some value `spec` accepts."""
    if isinstance(spec, Int):
        return spec.lo
    if isinstance(spec, Float):
        return float(spec.lo)
    if isinstance(spec, Str):
        return "x" * max(1, spec.min_len)
    if isinstance(spec, Bool):
        return True
    if isinstance(spec, Enum):
        return spec.values[0]
    if isinstance(spec, List):
        return [valid_value(spec.item)] * spec.min_len
    if isinstance(spec, Nullable):
        return None
    if isinstance(spec, Map):
        return {f.name: valid_value(f.spec) for f in spec.fields if f.required}
    if isinstance(spec, OneOf):
        return valid_value(spec.options[0])
    raise TypeError(spec)


def bad_values(spec: Any) -> list[tuple[str, Any]]:
    """Values `spec` must refuse, each with a label: wrong types and out-of-range values."""
    if isinstance(spec, Nullable):
        return bad_values(spec.inner)
    if isinstance(spec, Int):
        return [
            ("bool for int", True),
            ("str for int", str(spec.lo)),
            ("float for int", float(spec.lo)),
            ("bytes for int", b"\x01"),
            ("list for int", [spec.lo]),
            ("int below range", spec.lo - 1),
            ("int above range", spec.hi + 1),
        ]
    if isinstance(spec, Float):
        return [
            ("int for number", 7),
            ("str for number", "1.5"),
            ("bool for number", True),
            ("NaN", float("nan")),
            ("infinity", float("inf")),
            ("number below range", spec.lo * 2 - 1),
            ("number above range", spec.hi * 2 + 1),
        ]
    if isinstance(spec, Str):
        out = [
            ("int for str", 7),
            ("bytes for str", b"abc"),
            ("bool for str", False),
            ("float for str", 1.5),
            ("list for str", ["abc"]),
            ("str too long", "x" * (spec.max_len + 1)),
        ]
        if spec.min_len:
            out.append(("str too short", "x" * (spec.min_len - 1)))
        return out
    if isinstance(spec, Bool):
        return [("int for bool", 1), ("zero for bool", 0), ("str for bool", "true")]
    if isinstance(spec, Enum):
        return [
            ("not in enum", "not_" + spec.values[0]),
            ("enum in upper case", spec.values[0].upper()),
            ("int for enum", 0),
            ("bytes for enum", spec.values[0].encode()),
        ]
    if isinstance(spec, List):
        out = [
            ("str for list", "abc"),
            ("map for list", {}),
            ("int for list", 3),
            ("list too long", [valid_value(spec.item)] * (spec.max_len + 1)),
        ]
        if spec.min_len:
            out.append(("list too short", [valid_value(spec.item)] * (spec.min_len - 1)))
        return out
    if isinstance(spec, Map):
        return [("list for map", []), ("str for map", "abc"), ("int for map", 0)]
    if isinstance(spec, OneOf):  # what each option refuses, unless another option takes it
        checks = [compile_spec(option) for option in spec.options]
        return [(label, bad) for option in spec.options for label, bad in bad_values(option)
                if not any(_accepts(check, bad) for check in checks)]
    raise TypeError(spec)


def _accepts(check, value: Any) -> bool:
    try:
        check(copy.deepcopy(value))
        return True
    except Invalid:
        return False


def breaches(spec: Map, value: dict, path: Path = ()) -> Iterator[tuple[Path, str, Any]]:
    """(path, label, new value or DELETE) for every way to break each field of `value`."""
    for f in spec.fields:
        here = path + (f.name,)
        if f.required:
            yield here, "missing required field", DELETE
            if not isinstance(f.spec, Nullable):
                yield here, "nil for required field", None
        for label, bad in bad_values(f.spec):
            yield here, label, bad
        if value.get(f.name) is not None:
            yield from breaches_inside(f.spec, value[f.name], here)


def breaches_inside(spec: Any, value: Any, path: Path) -> Iterator[tuple[Path, str, Any]]:
    if isinstance(spec, Nullable):
        spec = spec.inner
    if isinstance(spec, OneOf):  # the option the value takes, broken inside
        spec = next(o for o in spec.options if _accepts(compile_spec(o), value))
    if isinstance(spec, Map):
        yield from breaches(spec, value, path)
    elif isinstance(spec, List) and value:
        index = next((i for i, v in enumerate(value) if v is not None), 0)
        here = path + (index,)
        if not isinstance(spec.item, Nullable):
            yield here, "nil list item", None
        for label, bad in bad_values(spec.item):
            yield here, label, bad
        if value[index] is not None:
            yield from breaches_inside(spec.item, value[index], here)


def apply_breach(wire: dict, path: Path, new: Any) -> dict:
    out = copy.deepcopy(wire)
    node: Any = out
    for key in path[:-1]:
        node = node[key]
    if new is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = new
    return out


def dotted(path: Path) -> str:
    """A path as Invalid spells it: view.revealed[][]."""
    out = ""
    for key in path:
        out += "[]" if isinstance(key, int) else ("." if out else "") + key
    return out


def breach_cases() -> list[tuple[Message, Path, str, Any]]:
    cases = []
    seen: set[tuple[str, Path, str]] = set()
    for msg in variants():
        wire = msg.to_wire()
        for path, label, new in breaches(wire_spec(type(msg)), wire):
            key = (msg.TYPE, tuple("[]" if isinstance(p, int) else p for p in path), label)
            if key not in seen:  # the same breach of the same field once per type
                seen.add(key)
                cases.append((msg, path, label, new))
    return cases


BREACHES = breach_cases()


def test_the_breaches_reach_deep_fields() -> None:
    reached = {(m.TYPE, dotted(p)) for m, p, _, _ in BREACHES}
    for deep in [
        ("update", "view.coins[]"),
        ("update", "view.revealed[][]"),
        ("update", "view.options.treasury"),
        ("update", "events[].kind"),
        ("update", "deadlines[].ms"),
        ("snapshot", "players[].name"),
        ("tables", "tables[].seats[].ready"),
        ("create_table", "options.on_disconnect"),
        ("move", "move.cards[]"),
        ("game_record", "record.moves[].move.target"),
        ("game_record", "record.seed"),
        ("games", "games[].players[].bot"),
        ("table", "info.game"),
    ]:
        assert deep in reached
    assert len(BREACHES) > 1000


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.TYPE)
def test_every_breach_of_every_field_is_a_bad_message(cls: type[Message]) -> None:
    wrong: list[str] = []
    for msg, path, label, new in (c for c in BREACHES if type(c[0]) is cls):
        frame = apply_breach(msg.to_wire(), path, new)
        expected_re = frame.get("id") if path != ("id",) else None
        try:
            got = decode(frame, ACCEPT_ALL)
        except RemoteProtocolError as exc:
            if exc.code != "bad_message":
                wrong.append(f"{dotted(path)} ({label}): code {exc.code}")
            elif exc.re != expected_re:
                wrong.append(f"{dotted(path)} ({label}): re {exc.re!r} != {expected_re!r}")
            elif dotted(path) not in exc.message:
                wrong.append(f"{dotted(path)} ({label}): not named in {exc.message!r}")
        else:
            wrong.append(f"{dotted(path)} ({label}): accepted as {got!r}"[:300])
    assert not wrong, f"{len(wrong)} breaches of {cls.TYPE} misjudged:\n" + "\n".join(wrong[:20])


# --------------------------------------------------------------------------- named limits


def test_a_name_of_32_characters_passes_and_33_does_not() -> None:
    ok = {"t": "hello", "versions": [1], "client": "c", "name": "n" * 32}
    assert decode(ok, CLIENT_SENDS).name == "n" * 32
    err = refusal(ok | {"name": "n" * 33})
    assert (err.code, err.re) == ("bad_message", None)
    assert "name" in err.message


def test_a_name_counts_characters_not_bytes() -> None:
    assert decode({"t": "hello", "versions": [1], "client": "c", "name": "é" * 32}, CLIENT_SENDS)


def test_chat_up_to_500_characters_and_never_empty() -> None:
    say = {"t": "say", "id": 9, "text": "x" * 500}
    assert decode(say, CLIENT_SENDS) == Say(id=9, text="x" * 500)
    for text in ("x" * 501, ""):
        err = refusal(say | {"text": text})
        assert (err.code, err.re) == ("bad_message", 9)
    chat = Chat(scope="lobby", name="ana", text="x" * 501)
    with pytest.raises(LocalProtocolError):
        encode(chat)


def test_a_bool_is_not_an_int_even_though_python_says_so() -> None:
    err = refusal({"t": "move", "id": 4, "state_id": True, "move": {"kind": "income"}})
    assert (err.code, err.re) == ("bad_message", 4)
    assert "state_id" in err.message


def test_a_bool_id_gives_no_re() -> None:
    err = refusal({"t": "start", "id": True})
    assert (err.code, err.re) == ("bad_message", None)


@pytest.mark.parametrize("bad_id", [-1, 2**31, 1.0, "5", None])
def test_an_id_out_of_range_or_of_the_wrong_type_is_refused_without_re(bad_id: Any) -> None:
    err = refusal({"t": "leave", "id": bad_id})
    assert (err.code, err.re) == ("bad_message", None)


@pytest.mark.parametrize(
    "field, value",
    [
        ("state_id", 1.0),  # float for int
        ("state_id", b"\x00"),  # bytes for int
        ("state_id", None),  # nil for required
        ("move", None),
        ("move", [{"kind": "income"}]),
        ("move", {"kind": 7}),  # int for str
        ("move", {"kind": "coup", "target": "2"}),
        ("move", {"kind": "keep", "cards": ["duke"] * 5}),
    ],
)
def test_wrong_types_in_a_move_request_name_the_request(field: str, value: Any) -> None:
    frame = {"t": "move", "id": 77, "state_id": 3, "move": {"kind": "income"}} | {field: value}
    err = refusal(frame)
    assert (err.code, err.re) == ("bad_message", 77)


@pytest.mark.parametrize("target", [-1, 10, 1000, 2**31 - 1, -(2**31)])
def test_a_move_target_outside_the_seats_is_refused_naming_the_request(target: int) -> None:
    """Targets are seat numbers, 0..9 as everywhere on the wire: anything else is the
    peer's bad_message before the engine reads it (issue 11: the engine used to keep every
    distinct target it was handed)."""
    frame = {"t": "move", "id": 77, "state_id": 3, "move": {"kind": "coup", "target": target}}
    err = refusal(frame, CLIENT_SENDS)
    assert (err.code, err.re) == ("bad_message", 77)
    assert "move.target" in err.message


def test_every_seat_is_a_target_the_codec_passes_on() -> None:
    for seat in range(10):
        frame = {"t": "move", "id": 1, "state_id": 3, "move": {"kind": "coup", "target": seat}}
        assert decode(dict(frame), CLIENT_SENDS).move == {"kind": "coup", "target": seat}


def test_an_unknown_move_kind_is_the_engines_business_not_the_codecs() -> None:
    msg = decode({"t": "move", "id": 1, "state_id": 3, "move": {"kind": "teleport"}}, CLIENT_SENDS)
    assert msg == MoveRequest(id=1, state_id=3, move={"kind": "teleport"})


def test_enum_violations() -> None:
    assert refusal({"t": "say", "id": 1, "text": "hi", "scope": "world"}).code == "bad_message"
    options = table_options() | {"variant": "reformation"}
    err = refusal({"t": "create_table", "id": 2, "options": options})
    assert (err.code, err.re) == ("bad_message", 2)
    assert "options.variant" in err.message


def test_list_bounds() -> None:
    hello = {"t": "hello", "client": "c"}
    assert refusal(hello | {"versions": []}).code == "bad_message"
    assert refusal(hello | {"versions": [1] * 17}).code == "bad_message"
    assert decode(hello | {"versions": list(range(1, 17))}, CLIENT_SENDS).versions[-1] == 16
    update = mid_game_update().to_wire()
    err = refusal(update | {"events": update["events"] * 64})  # more than 64
    assert err.code == "bad_message" and "events" in err.message
    assert decode(update | {"events": (update["events"] * 64)[:64]}, SERVER_SENDS)


def test_int_ranges() -> None:
    update = mid_game_update().to_wire()
    for path, bad in [
        (("view", "coins", 2), 1001),
        (("view", "coins", 2), -1),
        (("view", "seat"), 10),
        (("view", "influence", 0), 3),
        (("deadlines", 0, "ms"), 3_600_001),
    ]:
        err = refusal(apply_breach(update, path, bad))
        assert err.code == "bad_message" and dotted(path) in err.message
    welcome = {"t": "welcome", "version": 1, "server": "s"}
    assert refusal(welcome | {"max_frame": 1023}).code == "bad_message"
    assert refusal(welcome | {"version": 0}).code == "bad_message"
    assert decode(welcome | {"max_frame": 1024}, SERVER_SENDS).max_frame == 1024


# --------------------------------------------------------------------------- newer peers


def test_unknown_fields_at_the_top_are_ignored() -> None:
    msg = Ping(id=5)
    frame = msg.to_wire() | {"priority": "high", "trace": {"hops": [1, 2]}, "blob": b"\x00"}
    assert decode(frame, CLIENT_SENDS) == msg


def test_unknown_fields_deep_in_a_view_are_dropped_and_the_rest_is_equal() -> None:
    msg = mid_game_update()
    frame = msg.to_wire()
    frame["view"] = frame["view"] | {"spectators": 4, "clock": {"turn": 12.5}}
    frame["view"]["options"] = frame["view"]["options"] | {"house_rule": True}
    frame["events"] = [e | {"at_ms": 1234} for e in frame["events"]]
    frame["deadlines"] = [d | {"kind": "turn"} for d in frame["deadlines"]]
    frame["mood"] = None
    assert decode(frame, SERVER_SENDS) == msg


def test_an_unknown_field_is_ignored_even_when_its_value_would_be_invalid_anywhere() -> None:
    frame = {"t": "list_tables", "id": 1, "filter": [None, -(2**63), 1.5e300, {"": []}]}
    assert decode(frame, CLIENT_SENDS) == BY_TYPE["list_tables"](id=1)


# --------------------------------------------------------------------------- types and directions


def test_an_unknown_type_is_unknown_type_with_re() -> None:
    err = refusal({"t": "teleport", "id": 3, "where": "duke"})
    assert (err.code, err.re) == ("unknown_type", 3)
    assert not err.closes


def test_after_an_unknown_type_the_connection_stays_open_and_reads_on() -> None:
    pair = open_pair()
    pair.server.receive_data(msgpack.packb({"t": "teleport", "id": 3}) + pair.client.send(Ping(id=4)))
    with pytest.raises(RemoteProtocolError) as info:
        pair.server.next_message()
    assert (info.value.code, info.value.re) == ("unknown_type", 3)
    assert pair.server.state is State.OPEN
    assert get_all_messages(pair.server) == [Ping(id=4)]


@pytest.mark.parametrize("msg", one_of_each(), ids=lambda m: m.TYPE)
def test_a_message_of_the_wrong_direction_is_unknown_type(msg: Message) -> None:
    sender = type(msg).SENDER
    if sender == "both":
        assert roundtrip(msg, CLIENT_SENDS) == roundtrip(msg, SERVER_SENDS) == msg
        return
    receiver_would_be = CLIENT_SENDS if sender == "server" else SERVER_SENDS
    err = refusal(msg.to_wire(), receiver_would_be)
    assert err.code == "unknown_type"
    assert err.re == msg.to_wire().get("id")


def test_the_server_receiving_welcome_after_the_handshake_says_unknown_type_and_stays_open() -> None:
    pair = open_pair()
    pair.server.receive_data(encode(Welcome(version=1, server="evil")))
    with pytest.raises(RemoteProtocolError) as info:
        pair.server.next_message()
    assert info.value.code == "unknown_type"
    assert pair.server.state is State.OPEN


def test_the_client_receiving_a_move_request_says_unknown_type_with_re() -> None:
    pair = open_pair()
    pair.client.receive_data(encode(MoveRequest(id=12, state_id=1, move={"kind": "income"})))
    with pytest.raises(RemoteProtocolError) as info:
        pair.client.next_message()
    assert (info.value.code, info.value.re) == ("unknown_type", 12)
    assert pair.client.state is State.OPEN


@pytest.mark.parametrize(
    "obj",
    [[1, 2], "hello", 7, None, {}, {"id": 1}, {"t": 1}, {"t": None}, {"t": b"ping", "id": 1}],
    ids=repr,
)
def test_what_is_not_a_map_with_a_string_t_is_a_bad_frame(obj: Any) -> None:
    with pytest.raises(RemoteProtocolError) as info:
        decode(obj, ACCEPT_ALL)
    assert info.value.code == "bad_frame"
    assert info.value.closes


# --------------------------------------------------------------------------- encoding


def _bad_view_update() -> Update:
    msg = mid_game_update()
    del msg.view["coins"]
    return msg


@pytest.mark.parametrize(
    "make",
    [
        lambda: Hello(versions=[], client="c"),
        lambda: Hello(versions=(1,), client="c"),  # a tuple is not a list
        lambda: Hello(versions=[1], client="c", name="n" * 33),
        lambda: Welcome(version=True, server="s"),
        lambda: Ping(id=-1),
        lambda: Error(code="", message="m"),
        lambda: Say(id=1, text="hi", scope="everyone"),
        lambda: Say(id=1, text="\ud800"),  # a lone surrogate cannot be UTF-8
        lambda: Join(id=1, seat=10),
        lambda: CreateTable(id=1, options={"seats": 11}),
        lambda: MoveRequest(id=1, state_id=0, move={"kind": "coup", "target": 2.0}),
        _bad_view_update,
        lambda: Update(table="t7", view={}, events=[], deadlines=[]),
        # The spec types creator_seat `int 0..9`, left out once the creator has gone:
        # senders leave out an optional field rather than send nil.
        lambda: TableInfo(info=table_summary() | {"creator_seat": None}),
        lambda: Tables(tables=[table_summary() | {"game": None}]),
    ],
)
def test_encoding_an_invalid_message_is_a_local_bad_message(make: Any) -> None:
    with pytest.raises(LocalProtocolError) as info:
        encode(make())
    assert info.value.code == "bad_message"


@pytest.mark.parametrize("env, checked", [("1", True), ("0", False), (None, False)])
def test_what_we_send_is_checked_only_when_coup_check_sent_is_1(env, checked) -> None:
    """The tests run with COUP_CHECK_SENT=1 (tests/conftest.py), as anyone debugging may; a
    process started without it packs what it built unchecked."""
    environ = {k: v for k, v in os.environ.items() if k != "COUP_CHECK_SENT"}
    if env is not None:
        environ["COUP_CHECK_SENT"] = env
    said = subprocess.run(
        [sys.executable, "-c", "from protocol import encode; from protocol.messages import "
         "Update\ntry:\n encode(Update(table='t7', view={}, events=[], deadlines=[]))\n"
         "except Exception as exc:\n print(type(exc).__name__)\nelse:\n print('packed')"],
        env=environ, capture_output=True, text=True, check=True).stdout.strip()
    assert said == ("LocalProtocolError" if checked else "packed")


@pytest.mark.parametrize("obj", [{"t": "ping", "id": 1}, None, "ping", Ping])
def test_encoding_something_that_is_not_a_message_is_a_local_error(obj: Any) -> None:
    with pytest.raises(LocalProtocolError) as info:
        encode(obj)
    assert info.value.code == "bad_message"


def test_encoding_over_the_peers_frame_limit_is_a_local_frame_too_large() -> None:
    frame = encode(large_update())
    assert encode(large_update(), max_frame=len(frame)) == frame
    with pytest.raises(LocalProtocolError) as info:
        encode(large_update(), max_frame=len(frame) - 1)
    assert info.value.code == "frame_too_large"


@pytest.mark.parametrize("extra", [{7: "x"}, {None: 1}, {"x": msgpack.ExtType(5, b"!")}], ids=repr)
def test_a_frame_encode_accepts_is_one_the_peer_reads(extra: dict) -> None:
    """Whatever `send` lets out, the peer's connection must read (or `send` must refuse it).

    A nested map's unknown entries are not checked on the way out, yet the receiving side
    refuses non-string keys and ext types as a bad frame and closes: encode should refuse
    them as LocalProtocolError instead."""
    pair = open_pair()
    msg = CreateTable(id=1, options={"seats": 4} | extra)
    try:
        data = pair.client.send(msg)
    except LocalProtocolError as exc:
        assert exc.code == "bad_message"
        return
    pair.server.receive_data(data)
    got = get_all_messages(pair.server)  # RemoteProtocolError bad_frame here is the bug
    assert got == [CreateTable(id=1, options={"seats": 4})]


def test_decoded_messages_encode_to_frames_that_decode_the_same() -> None:
    for msg in variants():
        again = roundtrip(msg)
        assert encode(again) == encode(msg)


def test_fields_metadata_agrees_with_the_wire_spec() -> None:
    for cls in ALL:
        required = {f.name for f in fields(cls) if f.default is MISSING}
        assert required == {f.name for f in wire_spec(cls).fields if f.required}
