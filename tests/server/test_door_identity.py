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

from client.identity import IdentityError, Vouched, door_address, vouched
from protocol import Identify, Join, Via
from server import ServerConfig
from server.doorkey import DoorKeyError, load_secret, ssh_key, vouch, vouch_address
from server.lobby import CODE_TRIES
from tests.server.helpers import eventually
from tests.server.peer import Peer, new_id
from tests.server.test_core import create
from tests.server.test_identity import deal_to

KEY = ssh_key(b"ssh-ed25519 blob of ana's key")
OTHER = ssh_key(b"ssh-ed25519 blob of bruno's key")


@pytest.fixture
def secret_path(tmp_path) -> str:
    return str(tmp_path / "door.secret")


@pytest.fixture
def config(request, secret_path) -> ServerConfig:
    marker = request.node.get_closest_marker("server_config")
    return ServerConfig(**dict(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                               door_secret=secret_path) | (marker.kwargs if marker else {}))


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


# ------------------------------------------------------------------ where a door's player is


def via_for(peer: Peer, address: str, proof: str, **changes) -> Via:
    """The `via` the door's client sends, saying its player is at `address`."""
    welcome = next(f for f in peer.frames if f["t"] == "welcome")
    fields = dict(id=new_id(), address=address, nonce=welcome["nonce"],
                  server_id=welcome["server_id"],
                  signature=Via.vouched(proof, welcome["server_id"], welcome["nonce"]))
    return Via(**(fields | changes))


async def via(peer: Peer, address: str, proof: str, **changes):
    """The answer to `via_for(...)`."""
    return await peer.request(via_for(peer, address, proof, **changes))


async def test_door_players_at_other_addresses_are_counted_apart_for_wrong_codes(
        connect, secret_path):
    """Everyone through a door reached the server from the door's own address: five wrong
    codes from one door player locked every door player out of private tables."""
    secret = load_secret(secret_path)
    ana, eve, bob = await connect("ana"), await connect("eve"), await connect("bob")
    for peer, address in ((eve, "203.0.113.5"), (bob, "198.51.100.7")):
        assert (await via(peer, address, vouch_address(secret, address))).TYPE == "ok"
    made = await create(ana, seats=3, private=True)
    for _ in range(CODE_TRIES):
        assert (await eve.request(Join(id=new_id(), code="AAAA-AAAA-AAAA"))).code == (
            "no_such_table")
    assert (await eve.request(Join(id=new_id(), code=made.code))).code == "too_many_attempts"
    joined = await bob.request(Join(id=new_id(), code=made.code))
    assert joined.TYPE == "joined"


async def test_an_address_claimed_without_the_doors_proof_is_refused_and_changes_nothing(
        connect, server, secret_path):
    eve = await connect("eve")
    forged = vouch_address(b"a guess at the secret".ljust(32, b"!"), "203.0.113.5")
    answer = await via(eve, "203.0.113.5", forged)
    assert answer.TYPE == "error" and answer.code == "bad_signature"
    # another address's proof, another connection's nonce: refused the same way
    good = vouch_address(load_secret(secret_path), "203.0.113.5")
    assert (await via(eve, "198.51.100.7", good)).code == "bad_signature"
    assert (await via(eve, "203.0.113.5", good, nonce="00" * 32)).code == "bad_nonce"
    assert (await via(eve, "203.0.113.5", good, server_id="00" * 16)).code == "wrong_server"
    assert [s.address for s in server.sessions] == ["127.0.0.1"]
    assert dict(server.per_address) == {"127.0.0.1": 1}


@pytest.mark.server_config()
async def test_a_server_without_a_door_secret_takes_no_doors_word_for_an_address(nursery):
    from server import Server

    server = Server(ServerConfig(port=0))
    await nursery.start(server.serve)
    eve = await Peer.connect(server.address[1], "eve")
    answer = await via(eve, "203.0.113.5", vouch_address(bytes(32), "203.0.113.5"))
    assert answer.TYPE == "error" and answer.code == "no_door"
    await eve.aclose()


@pytest.mark.server_config(max_per_address=2)
async def test_connections_per_address_are_counted_at_the_vouched_address(
        connect, server, secret_path):
    """The door's own address is no longer charged for its players; the player's is."""
    secret = load_secret(secret_path)
    first, second = await connect("ana"), await connect("bea")
    for peer in (first, second):  # the address in its canonical form, whatever the door's
        spelled = "2001:db8:0::5"
        assert (await via(peer, spelled, vouch_address(secret, spelled))).TYPE == "ok"
    assert dict(server.per_address) == {"2001:db8::/64": 2}
    third = await connect("cy")  # the door's address has room again
    await third.send(via_for(third, "2001:db8::5", vouch_address(secret, "2001:db8::5")))
    bye = await third.expect("bye")
    assert bye.reason == "too_many_connections"
    await third.until_closed()
    await eventually(lambda: dict(server.per_address) == {"2001:db8::/64": 2})


@pytest.mark.parametrize("value", ["", "203.0.113.5", "zz" * 32 + ":203.0.113.5",
                                   "0" * 64 + ":not an address", "0" * 63 + ":10.0.0.1"])
async def test_the_doors_address_variable_must_be_proof_colon_address(value):
    with pytest.raises(IdentityError, match="COUP_DOOR_ADDRESS"):
        door_address(value)


async def test_the_clients_link_says_where_its_player_is_then_who(server, secret_path):
    from client.net import Link

    secret = load_secret(secret_path)
    where = door_address(f"{vouch_address(secret, '2001:db8::7')}:2001:db8::7")
    link = await Link.open("127.0.0.1", server.address[1], "ana", identity=door(secret_path),
                           via=where)
    assert link.identified.name == "ana"
    [session] = server.lobby.sessions
    assert (session.address, session.player) == ("2001:db8::7", f"key:{KEY}")
    await link.aclose()


async def test_an_address_that_is_no_ip_address_is_refused_even_with_a_proof(
        connect, server, secret_path):
    """Only a door makes proofs, and a door vouches for peer addresses; still, what the
    limits count must be an address."""
    eve = await connect("eve")
    secret = load_secret(secret_path)
    answer = await via(eve, "localhost", vouch_address(secret, "localhost"))
    assert answer.TYPE == "error" and answer.code == "bad_message"
    await eve.send_map({"t": "via", "id": 9, "address": "1" * 46, "nonce": "ab" * 32,
                        "server_id": "5e" * 16, "signature": "7f" * 64})
    assert (await eve.reply(9)).code == "bad_message"
    assert [s.address for s in server.sessions] == ["127.0.0.1"]


async def test_a_ban_on_an_address_holds_through_a_door(connect, server, secret_path):
    """A door player reaches the server from the door's address; a ban on their own address
    turns them away once the door says where they are."""
    server.lobby.moderation.ban("address", "203.0.113.5", 60, "spam", None)
    eve = await connect("eve")
    await eve.send(via_for(eve, "203.0.113.5",
                           vouch_address(load_secret(secret_path), "203.0.113.5")))
    bye = await eve.expect("bye")
    assert bye.reason == "banned"
