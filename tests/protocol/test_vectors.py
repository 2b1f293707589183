"""The conformance vectors of tests/protocol/vectors/ hold for our Connection.

Each case's bytes go to a Connection of the case's receiver role, brought to the case's state
by a real handshake; the messages it decodes (as `to_wire()` maps), the error it raises and
the state it ends in must be what the case expects. Every case is fed twice: in one piece,
and cut into small pieces, since TCP may split frames anywhere. See vectors/README.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from protocol import (
    BY_TYPE, CONNECTION_CLOSED, NEED_DATA, Connection, Hello, RemoteProtocolError, Role, State,
    Welcome,
)
from protocol.codec import CLIENT_SENDS, SERVER_SENDS

from . import make_vectors

VECTORS = Path(__file__).parent / "vectors"
FILES = sorted(VECTORS.glob("*.json"))
CASES = [(f.stem, case) for f in FILES for case in json.loads(f.read_text(encoding="utf-8"))]


def connection(receiver: str, state: str) -> Connection:
    """A Connection of the receiver's role, in `state`, reached through the connection API."""
    client = Connection(Role.CLIENT)
    server = Connection(Role.SERVER)
    hello = client.send(Hello(versions=[1, 2], client="vectors"))
    if receiver == "server" and state == "handshake":
        conn = server
    else:
        server.receive_data(hello)
        assert isinstance(server.next_message(), Hello)
        welcome = server.send(Welcome(version=2, server="vectors"))
        if receiver == "server":
            conn = server
        else:
            conn = client
            if state == "open":
                client.receive_data(welcome)
                assert isinstance(client.next_message(), Welcome)
    assert conn.state.value == state
    return conn


def run(case: dict, chunk: int) -> dict:
    """Feed the case's bytes `chunk` at a time; what came out."""
    conn = connection(case["receiver"], case["state"])
    data = bytes.fromhex(case["hex"])
    before: list = []
    after: list = []
    errors: list[RemoteProtocolError] = []
    end = None

    def drain():
        while True:
            try:
                m = conn.next_message()
            except RemoteProtocolError as exc:
                errors.append(exc)
                continue
            if m is NEED_DATA or m is CONNECTION_CLOSED:
                return m
            (after if errors else before).append(m.to_wire())

    end = drain()
    for i in range(0, len(data), chunk):
        conn.receive_data(data[i:i + chunk])
        end = drain()
    if case.get("eof"):
        conn.receive_data(b"")
        end = drain()
    return {"before": before, "after": after, "errors": errors, "end": end,
            "state": conn.state}


def chunk_sizes(case: dict) -> list[int]:
    size = len(case["hex"]) // 2
    return [max(size, 1), 1 if size <= 4096 else 997]


@pytest.mark.parametrize(
    "case", [c for _, c in CASES], ids=[f"{f}: {c['name']}" for f, c in CASES]
)
def test_vector(case):
    expect = case["expect"]
    for chunk in chunk_sizes(case):
        got = run(case, chunk)
        where = f"fed {chunk} bytes at a time"
        if "error" in expect:
            assert len(got["errors"]) == 1, (where, got["errors"])
            exc = got["errors"][0]
            assert exc.code == expect["error"], (where, exc)
            assert exc.closes is expect["closes"], where
            if "re" in expect:
                assert exc.re == expect["re"], where
            assert got["before"] == expect.get("messages", []), where
            assert got["after"] == expect.get("after", []), where
        else:
            assert not got["errors"], (where, got["errors"])
            assert got["before"] == expect["messages"], where
        assert got["state"] is State(expect["state_after"]), where
        if got["state"] is State.CLOSED:
            assert got["end"] is CONNECTION_CLOSED, where
        else:
            assert got["end"] is NEED_DATA, where


def test_vector_files_are_what_make_vectors_writes():
    """The committed files are up to date with the generator (and it is deterministic)."""
    built = make_vectors.build()
    assert built == make_vectors.build()
    assert sorted(built) == [f.name for f in FILES]
    for f in FILES:
        assert f.read_text(encoding="utf-8") == built[f.name], f"rerun make_vectors ({f.name})"


def test_vector_format():
    for file, case in CASES:
        assert set(case) <= {"name", "receiver", "state", "hex", "expect", "eof", "note"}, case
        assert case["receiver"] in ("server", "client")
        assert case["state"] in ("handshake", "open")
        bytes.fromhex(case["hex"])
        expect = case["expect"]
        assert ("messages" in expect) or ("error" in expect), case["name"]
        assert expect["state_after"] in ("handshake", "open", "closed")
        for m in expect.get("messages", []) + expect.get("after", []):
            assert m["t"] in BY_TYPE


def test_vectors_cover_every_message_and_every_receiving_error():
    valid = {"server": set(), "client": set()}
    codes = set()
    for _, case in CASES:
        for m in case["expect"].get("messages", []) + case["expect"].get("after", []):
            valid[case["receiver"]].add(m["t"])
        if "error" in case["expect"]:
            codes.add(case["expect"]["error"])
    assert valid["server"] == CLIENT_SENDS
    assert valid["client"] == SERVER_SENDS
    assert codes == {"bad_frame", "frame_too_large", "handshake_required", "unknown_type",
                     "bad_message", "unsupported_version"}
