"""Identities the SSH door vouches for (issue 17): the door and the server share a secret;
the door gives the client it starts a proof for one identity, made with that secret, and the
client answers its connection's nonce with an HMAC under the proof. Without the secret no
plain TCP client can claim an identity; a proof opens its own identity only; a server that
was given no secret takes no door's word. A vouched identity is a player like a key: the
first to use a name keeps it, and its seat comes back on another connection.

Real TCP, the real protocol; the proofs are server/doorkey.py's, the clients'
client/identity.py's.
"""

from __future__ import annotations

import os
import stat

import pytest

from client.identity import IdentityError, Vouched, vouched
from protocol import Identify
from server import ServerConfig
from server.doorkey import DoorKeyError, load_secret, ssh_key, vouch
from tests.server.peer import Peer, new_id
from tests.server.test_identity import deal_to

KEY = ssh_key(b"ssh-ed25519 blob of ana's key")
OTHER = ssh_key(b"ssh-ed25519 blob of bruno's key")


@pytest.fixture
def secret_path(tmp_path) -> str:
    return str(tmp_path / "door.secret")


@pytest.fixture
def config(secret_path) -> ServerConfig:
    return ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                        door_secret=secret_path)


def door(secret_path: str, key: str = KEY) -> Vouched:
    """The identity the door would give the client of the player whose SSH key is `key`."""
    return vouched(f"{key}:{vouch(load_secret(secret_path), key)}")


async def identify(peer: Peer, identity, **changes):
    welcome = next(f for f in peer.frames if f["t"] == "welcome")
    msg = identity.identify(new_id(), welcome["server_id"], welcome["nonce"])
    fields = {f: getattr(msg, f) for f in ("id", "key", "nonce", "server_id", "signature",
                                            "door")}
    return await peer.request(Identify(**(fields | changes)))


async def test_an_identity_the_door_vouches_for_is_the_player(connect, server, secret_path):
    ana = await connect("ana")
    answer = await identify(ana, door(secret_path))
    assert answer.TYPE == "identified" and answer.name == "ana"
    session = next(s for s in server.lobby.sessions if s.name == "ana")
    assert session.player == f"key:{KEY}"


async def test_a_proof_made_without_the_servers_secret_is_refused(connect, tmp_path):
    """A plain TCP client that does not hold the secret makes its own: bad_signature."""
    thief = await connect("ana")
    forged = vouched(f"{KEY}:{vouch(b'a guess at the secret' + bytes(11), KEY)}")
    answer = await identify(thief, forged)
    assert answer.TYPE == "error" and answer.code == "bad_signature"


async def test_a_proof_opens_its_own_identity_only(connect, secret_path):
    """bruno's proof, sent as ana's key, proves nothing."""
    bruno = await connect("bruno")
    stolen = Vouched(KEY, vouch(load_secret(secret_path), OTHER))
    answer = await identify(bruno, stolen)
    assert answer.TYPE == "error" and answer.code == "bad_signature"


async def test_a_door_signature_replayed_on_another_connection_is_bad_nonce(
        connect, secret_path):
    ana, thief = await connect("ana"), await connect("thief")
    welcome = next(f for f in ana.frames if f["t"] == "welcome")
    seen = door(secret_path).identify(new_id(), welcome["server_id"], welcome["nonce"])
    answer = await thief.request(seen)
    assert answer.TYPE == "error" and answer.code == "bad_nonce"


async def test_an_ed25519_signature_passed_off_as_the_doors_is_refused(connect, tmp_path):
    """A key's own signature sent with door: ssh is checked as the door's HMAC: refused."""
    from client.identity import load

    ana = await connect("ana")
    answer = await identify(ana, load(str(tmp_path / "key.pem")), door="ssh")
    assert answer.TYPE == "error" and answer.code == "bad_signature"


@pytest.mark.server_config()
async def test_a_server_without_a_door_secret_takes_no_doors_word(nursery, tmp_path):
    """The default ServerConfig (the embedded servers of coup play and LAN games)."""
    from server import Server

    server = Server(ServerConfig(port=0))
    await nursery.start(server.serve)
    ana = await Peer.connect(server.address[1], "ana")
    answer = await identify(ana, door(str(tmp_path / "any.secret")))
    assert answer.TYPE == "error" and answer.code == "no_door"
    await ana.aclose()


async def test_a_vouched_identity_keeps_its_name_and_gets_its_seat_back(connect, secret_path):
    ana, bruno = await connect("ana"), await connect("bruno")
    await identify(ana, door(secret_path))
    await deal_to(ana, bruno)
    await ana.aclose()
    await bruno.expect("presence", status="away", seat=ana.seat)
    # another door identity cannot take the name; the same one gets name and seat back
    other = await connect("ana")
    assert (await identify(other, door(secret_path, OTHER))).code == "name_taken"
    again = await connect("ana")
    answer = await identify(again, door(secret_path))
    assert (answer.name, answer.table) == ("ana", ana.table)
    assert (await again.expect("joined")).seat == ana.seat


async def test_the_secret_is_made_once_for_its_owner_only(secret_path):
    first = load_secret(secret_path)
    assert len(first) == 32 and load_secret(secret_path) == first
    assert stat.S_IMODE(os.stat(secret_path).st_mode) == 0o600


async def test_a_file_that_is_no_secret_is_refused_with_its_path(tmp_path):
    path = tmp_path / "door.secret"
    path.write_bytes(b"short")
    with pytest.raises(DoorKeyError, match="is not a door secret"):
        load_secret(str(path))


@pytest.mark.parametrize("value", ["", "abc", "0" * 64, "0" * 64 + ":" + "zz" * 32,
                                   "0" * 63 + ":" + "0" * 64])
async def test_the_doors_variable_must_be_key_colon_proof_in_hex(value):
    with pytest.raises(IdentityError, match="COUP_DOOR_IDENTITY"):
        vouched(value)


async def test_the_clients_link_signs_in_as_the_vouched_identity(server, secret_path):
    from client.net import Link

    link = await Link.open("127.0.0.1", server.address[1], "ana", identity=door(secret_path))
    assert link.identified.name == "ana"
    assert [s.player for s in server.lobby.sessions] == [f"key:{KEY}"]
    await link.aclose()
