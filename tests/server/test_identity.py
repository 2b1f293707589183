"""Identities without passwords (issue 16): a client proves it holds a key by signing its
connection's nonce and the server's id; every way of getting that wrong is refused with its
own code; the first key to use a name keeps it, guests are marked and never take such a
name; and a player who comes back with the key gets the seat back, with no token at all,
even from a restarted server.

Real TCP, the real protocol; the keys are client.identity's, in files of the test's own.
"""

from __future__ import annotations

import pytest
import trio

from client.identity import Identity, load
from protocol import CreateTable, Identify, Join, ListTables, Ready
from server import Server, ServerConfig
from tests.server.helpers import eventually, play
from tests.server.peer import Peer, new_id


@pytest.fixture
def keys(tmp_path):
    """keys(n) -> the n-th identity of the test (made in a file on first use)."""
    return lambda n: load(str(tmp_path / f"key{n}.pem"))


def welcome_of(peer: Peer) -> dict:
    return next(f for f in peer.frames if f["t"] == "welcome")


async def identify(peer: Peer, identity: Identity, **changes):
    """`peer` identifies with `identity` as its welcome asks (fields replaced by `changes`);
    the server's answer."""
    welcome = welcome_of(peer)
    msg = identity.identify(new_id(), welcome["server_id"], welcome["nonce"])
    fields = {f: getattr(msg, f) for f in ("id", "key", "nonce", "server_id", "signature")}
    return await peer.request(Identify(**(fields | changes)))


async def test_welcome_gives_a_fresh_nonce_and_the_servers_id(connect, server):
    ana, bruno = await connect("ana"), await connect("bruno")
    first, second = welcome_of(ana), welcome_of(bruno)
    assert len(first["nonce"]) == 64 and first["nonce"] != second["nonce"]
    assert first["server_id"] == second["server_id"] == server.lobby.server_id
    assert len(first["server_id"]) == 32


async def test_a_verified_key_is_the_player_and_keeps_the_name_it_asked(connect, server, keys):
    ana = await connect("ana")
    answer = await identify(ana, keys(1))
    assert answer.TYPE == "identified" and answer.name == "ana" and answer.table is None
    session = next(s for s in server.lobby.sessions if s.name == "ana")
    assert session.player == f"key:{keys(1).key}"


async def test_a_signature_made_for_another_connection_is_bad_nonce(connect, keys):
    """A key replayed from another connection: its signature is over that one's nonce."""
    ana, thief = await connect("ana"), await connect("thief")
    welcome = welcome_of(ana)
    stolen = keys(1).identify(new_id(), welcome["server_id"], welcome["nonce"])
    answer = await thief.request(stolen)
    assert answer.TYPE == "error" and answer.code == "bad_nonce"
    # and the connection it was made for may still use it
    assert (await ana.request(stolen)).TYPE == "identified"


async def test_a_signature_for_another_server_is_wrong_server(connect, keys):
    ana = await connect("ana")
    other = "0" * 32
    signed = keys(1).identify(new_id(), other, welcome_of(ana)["nonce"])
    answer = await ana.request(signed)
    assert answer.TYPE == "error" and answer.code == "wrong_server"


async def test_a_second_identify_on_a_connection_is_nonce_used(connect, keys):
    ana = await connect("ana")
    assert (await identify(ana, keys(1))).TYPE == "identified"
    answer = await identify(ana, keys(2))
    assert answer.TYPE == "error" and answer.code == "nonce_used"


async def test_a_failed_signature_spends_the_nonce_too(connect, keys):
    """One try per connection: a signature cannot be fished for."""
    ana = await connect("ana")
    good = await identify(ana, keys(1), signature="00" * 64)
    assert good.TYPE == "error" and good.code == "bad_signature"
    answer = await identify(ana, keys(1))
    assert answer.TYPE == "error" and answer.code == "nonce_used"


@pytest.mark.parametrize("forged", ["signature", "key", "not hex"])
async def test_a_signature_that_does_not_verify_is_bad_signature(connect, server, keys, forged):
    ana = await connect("ana")
    welcome = welcome_of(ana)
    msg = keys(1).identify(new_id(), welcome["server_id"], welcome["nonce"])
    change = {"signature": {"signature": msg.signature[:-2] + ("00" if msg.signature[-2:] != "00"
                                                              else "11")},
              "key": {"key": keys(2).key},
              "not hex": {"signature": "zz" * 64}}[forged]
    answer = await identify(ana, keys(1), **change)
    assert answer.TYPE == "error" and answer.code == "bad_signature"
    assert all(s.player is None for s in server.lobby.sessions)


async def test_a_name_another_key_holds_is_name_taken(connect, keys):
    first = await connect("ana")
    assert (await identify(first, keys(1))).name == "ana"
    await first.aclose()
    second = await connect("ANA")  # in any case
    answer = await identify(second, keys(2))
    assert answer.TYPE == "error" and answer.code == "name_taken"


async def test_an_identity_comes_back_to_its_own_name(connect, server, keys):
    first = await connect("ana")
    await identify(first, keys(1))
    await first.aclose()
    await eventually(lambda: not server.lobby.sessions)
    # the name is the identity's: a newcomer asking for it is a guest named otherwise...
    again = await connect("ana")
    assert again.name == "ana-2"
    # ...until it proves it is that identity; whatever name it asks for, it is "ana" here
    assert (await identify(again, keys(1))).name == "ana"
    renamed = await connect("anita")
    assert (await identify(renamed, keys(1))).name == "ana"


async def test_a_guest_never_takes_a_name_an_identity_holds(connect, keys):
    ana = await connect("ana")
    await identify(ana, keys(1))
    await ana.aclose()
    guest = await connect("Ana")
    assert guest.name == "Ana-2"


async def test_guests_are_marked_in_the_lobby_and_at_the_table(connect, keys):
    ana, bruno, chen = await connect("ana"), await connect("bruno"), await connect("chen")
    await identify(ana, keys(1))
    joined = await ana.request(CreateTable(id=new_id(), options={"seats": 2}))
    await bruno.request(Join(id=new_id(), table=joined.table))
    info = await ana.expect("table", where=lambda m: m.info["seats"][1]["name"] == "bruno")
    ana_seat, bruno_seat = info.info["seats"]
    assert "guest" not in ana_seat and bruno_seat["guest"] is True
    listed = await chen.request(ListTables(id=new_id()))
    assert [s.get("guest", False) for s in listed.tables[0]["seats"]] == [False, True]


async def start_two(connect, keys) -> tuple[Peer, Peer]:
    """ana (identified with keys(1)) and bruno (a guest) in a game at a table of two."""
    ana, bruno = await connect("ana"), await connect("bruno")
    await identify(ana, keys(1))
    await deal_to(ana, bruno)
    return ana, bruno


async def deal_to(ana: Peer, bruno: Peer) -> None:
    """A table of two that ana creates and bruno joins, both ready: the game is dealt."""
    joined = await ana.request(CreateTable(id=new_id(), options={"seats": 2}))
    await bruno.request(Join(id=new_id(), table=joined.table))
    for peer in (ana, bruno):
        await peer.request(Ready(id=new_id()))
    for peer in (ana, bruno):
        await peer.expect("snapshot")


async def test_a_second_connection_of_the_key_takes_the_seat_over(connect, keys):
    """A client started again while the old one still runs: no token, the seat comes back,
    and the old connection is told it was replaced."""
    ana, bruno = await start_two(connect, keys)
    again = await connect("ana")
    answer = await identify(again, keys(1))
    assert answer.TYPE == "identified" and answer.table == ana.table
    joined = await again.expect("joined")
    assert joined.re is None and joined.seat == ana.seat and joined.token != ana.token
    snapshot = await again.expect("snapshot")
    assert snapshot.view["seat"] == ana.seat
    await bruno.expect("presence", status="here", seat=ana.seat)
    words = await ana.until_closed()
    assert any(m.TYPE == "bye" and m.reason == "replaced" for m in words)
    # and the seat plays on from the new connection
    if again.seat in again.view.waiting and again.view.phase == "action":
        assert (await play(again, "income")).TYPE == "move_accepted"


async def test_a_client_closed_and_started_again_gets_its_away_seat_back(connect, keys):
    ana, bruno = await start_two(connect, keys)
    seat = ana.seat
    await ana.aclose()
    await bruno.expect("presence", status="away", seat=seat)
    again = await connect("ana")
    assert (await identify(again, keys(1))).table == ana.table
    assert (await again.expect("joined")).seat == seat
    await bruno.expect("presence", status="here", seat=seat)


@pytest.mark.parametrize("away", [True, False], ids=["away", "still_connected"])
async def test_a_seat_given_back_on_identify_is_told_in_the_order_the_spec_gives(
        connect, keys, away):
    """docs/PROTOCOL.md, `identify` and Reconnecting: after `identified` the seat comes back
    as by a token, whether the old connection went away or is still open: joined, table,
    snapshot, presence (here, of the seat itself), and table again."""
    ana, bruno = await start_two(connect, keys)
    if away:
        await ana.aclose()
        await bruno.expect("presence", status="away", seat=ana.seat)
    again = await connect("ana")
    assert (await identify(again, keys(1))).table == ana.table
    with trio.fail_after(5):
        told = [await again.next() for _ in range(5)]
    assert [m.TYPE for m in told] == ["joined", "table", "snapshot", "presence", "table"]
    assert (told[3].seat, told[3].status) == (ana.seat, "here")


async def test_another_key_of_the_same_name_gets_no_seat(connect, keys):
    ana, bruno = await start_two(connect, keys)
    stranger = await connect("bruno")  # bruno is a guest: his name gives no seat
    answer = await identify(stranger, keys(2))
    assert answer.TYPE == "identified" and answer.table is None
    assert answer.name == "bruno-2"


async def test_a_restarted_server_gives_the_seat_back_by_identity(tmp_path, keys):
    """The store keeps who sat where (Seat.player), and the server's id: the same key
    signs for the same server after the restart, and gets its seat with no token."""
    db = str(tmp_path / "coup.db")

    async def served(nursery) -> Server:
        server = Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                     db=db))
        await nursery.start(server.serve)
        return server

    async with trio.open_nursery() as nursery:
        first = await served(nursery)

        async def connect(name):
            return await Peer.connect(first.address[1], name)

        ana, bruno = await start_two(connect, keys)
        server_id, table, seat = first.lobby.server_id, ana.table, ana.seat
        nursery.cancel_scope.cancel()  # the lobby closes the store when its writer is done
    for peer in (ana, bruno):
        await peer.aclose()

    async with trio.open_nursery() as nursery:
        second = await served(nursery)
        assert second.lobby.server_id == server_id
        again = await Peer.connect(second.address[1], "ana")
        answer = await identify(again, keys(1))
        assert answer.TYPE == "identified" and answer.name == "ana" and answer.table == table
        assert (await again.expect("joined")).seat == seat
        snapshot = await again.expect("snapshot")
        assert snapshot.players[seat]["name"] == "ana" and "guest" not in snapshot.players[seat]
        await again.aclose()
        nursery.cancel_scope.cancel()


#: The eight points of small order (libsodium's list), and two non-canonical encodings:
#: the identity with x's sign bit set, and y = p (which is 0, as 00…00).
SMALL_ORDER = [
    "01" + "00" * 31,
    "ec" + "ff" * 30 + "7f",
    "00" * 32,
    "00" * 31 + "80",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
]
NON_CANONICAL = ["01" + "00" * 30 + "80", "ed" + "ff" * 30 + "7f"]


@pytest.mark.parametrize("key", SMALL_ORDER + NON_CANONICAL + ["zz" * 32, " " * 64])
async def test_a_small_order_or_non_canonical_key_is_bad_key(connect, server, key):
    """Issue 27: the key 01 00…00 signed for anything with R = 01 00…00, S = 0: anyone could
    be that player. Every such key is refused before its signature is looked at."""
    mallory = await connect("mallory")
    welcome = welcome_of(mallory)
    trivial = "01" + "00" * 63
    answer = await mallory.request(Identify(id=new_id(), key=key, nonce=welcome["nonce"],
                                            server_id=welcome["server_id"], signature=trivial))
    assert answer.TYPE == "error" and answer.code == "bad_key"
    assert all(s.player is None for s in server.lobby.sessions)


async def test_a_key_in_upper_case_hex_is_bad_key_not_a_second_identity(connect, server, keys):
    """Issue 27: the same key in upper-case hex was a second identity. One key, one form."""
    ana = await connect("ana")
    assert (await identify(ana, keys(1))).TYPE == "identified"
    again = await connect("ana2")
    answer = await identify(again, keys(1), key=keys(1).key.upper())
    assert answer.TYPE == "error" and answer.code == "bad_key"
    assert "lower-case" in answer.message
    assert len(server.lobby.identities._keys) == 1


# ---------------------------------------------------------------- names (issue 27)

#: Names a reader takes for "alice": Cyrillic а, Cyrillic і, fullwidth ａ, a Roman numeral ⅼ, case.
LOOKALIKES = ["\u0430lice", "al\u0456ce", "\uff41lice", "a\u217cice", "ALICE"]


@pytest.mark.parametrize("lookalike", LOOKALIKES)
async def test_a_name_confusable_with_one_a_key_holds_is_name_taken(connect, keys, lookalike):
    """Issue 27: `аlice` (Cyrillic а) was a second player beside `alice`. Names are told
    apart by their TR39 skeletons: a new key asking for a lookalike is refused, and a guest
    asking for one gets a suffix, as for the name itself."""
    alice = await connect("alice")
    assert (await identify(alice, keys(1))).name == "alice"
    mallory = await connect(lookalike)
    assert mallory.name == f"{lookalike}-2"  # a guest: the name is held
    answer = await identify(mallory, keys(2))
    assert answer.TYPE == "error" and answer.code == "name_taken"


async def test_a_lookalike_of_a_connected_guest_gets_a_suffix(connect):
    first = await connect("bob")
    second = await connect("b\u043eb")  # Cyrillic о
    assert first.name == "bob" and second.name == "b\u043eb-2"


@pytest.mark.parametrize("name", ["guest-7", "GUEST-12", "gu\u0435st-1O", "random", "R\u0430ndom",
                                  "heuristic", "hard", "bluffer", "honest bot 2", "hard bot 3"])
async def test_guest_and_bot_names_are_reserved(connect, server, keys, name):
    """Issue 27: `guest-7` and `random` (a bot's name, which then answered get_profile
    random) were taken by identities. Guests' names and bots' (every strategy and level,
    and how bot seats are named) are no person's: a guest asking for one gets a suffix, an
    identity asking for one is refused name_reserved."""
    peer = await connect(name)
    assert peer.name == f"{name}-2"
    answer = await identify(peer, keys(1))
    assert answer.TYPE == "error" and answer.code == "name_reserved"
    assert all(s.player is None for s in server.lobby.sessions)


async def test_a_second_guest_asking_for_guest_gets_its_own_guest_name(connect):
    """Every name `guest-2`, `guest-3`, … that a suffix makes of a taken `guest` is a
    guest's name, so looking for a free one never ended: the second browser-door session
    (each asks for `guest`) hung the whole server. It has the name the server gave it."""
    first = await connect("guest")
    second = await connect("guest")
    assert first.name == "guest"
    assert second.name.startswith("guest-") and second.name != "guest-2"


async def test_a_guest_the_server_names_keeps_its_guest_name(port):
    peer = await Peer.connect(port, None)
    try:
        assert peer.name.startswith("guest-") and not peer.name.endswith("-2")
    finally:
        await peer.aclose()


@pytest.mark.server_config(identities_per_hour=3)
async def test_new_identities_from_one_address_are_limited_per_hour(connect, keys):
    """Issue 27: one loop took 1,000 names a second, held forever. One address makes at most
    --identities-per-hour new identities an hour; a known key still comes back."""
    for n in range(3):
        assert (await identify(await connect(f"p{n}"), keys(n))).TYPE == "identified"
    answer = await identify(await connect("p3"), keys(3))
    assert answer.TYPE == "error" and answer.code == "too_many_identities"
    assert (await identify(await connect("again"), keys(0))).name == "p0"
