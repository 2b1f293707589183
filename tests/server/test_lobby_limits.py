"""What one stranger may take of the lobby (issue 27, section 3): tables open per address
and per identified player; a seat left by a dropped connection before the game starts,
free again within seconds; lobby chat within a rate per address, a rate for the whole
lobby, and a shorter line than table chat's. Real TCP; other addresses are other loopback
addresses (127.0.0.2, …), as the server sees them."""

from __future__ import annotations

import pytest

from protocol import CreateTable, Leave, Queue
from tests.server.helpers import eventually
from tests.server.test_identity import identify, keys  # noqa: F401 — keys is a fixture
from tests.server.peer import new_id


async def create(peer, **options):
    options.setdefault("seats", 2)
    return await peer.request(CreateTable(id=new_id(), options=options))


# ------------------------------------------------------------------ tables per address


@pytest.mark.server_config(max_tables=40)
async def test_one_address_takes_its_share_of_tables_and_no_more(connect, config):
    made = []
    for n in range(40):  # a connection can sit at one table: each table a new one
        reply = await create(await connect(f"hoarder{n}"))
        if reply.TYPE == "error":
            break
        made.append(reply)
    assert len(made) == config.tables_per_address == 4
    assert reply.code == "too_many_tables" and "address" in reply.message
    elsewhere = await connect("neighbour", source="127.0.0.2")
    assert (await create(elsewhere)).TYPE == "joined"


async def test_a_closed_table_counts_no_more(connect, server, config):
    hosts = [await connect(f"host{n}") for n in range(config.tables_per_address + 1)]
    tables = [(await create(host)).table for host in hosts[:-1]]
    assert (await create(hosts[-1])).code == "too_many_tables"
    # The creator leaves its empty table: it closes, and the address may make another.
    assert (await hosts[0].request(Leave(id=new_id()))).TYPE == "ok"
    await eventually(lambda: tables[0] not in server.lobby.tables)
    assert (await create(hosts[-1])).TYPE == "joined"


@pytest.mark.server_config(tables_per_address=100, tables_per_player=2)
async def test_an_identified_player_has_its_share_from_any_address(connect, keys):  # noqa: F811
    places = [await connect("ana", source=f"127.0.0.{n}") for n in (3, 4, 5)]
    for peer in places:
        assert (await identify(peer, keys(1))).TYPE == "identified"
    assert (await create(places[0])).TYPE == "joined"
    assert (await create(places[1])).TYPE == "joined"
    refused = await create(places[2])
    assert refused.code == "too_many_tables" and "player" in refused.message
    guest = await connect("guest", source="127.0.0.5")  # the address itself is not full
    assert (await create(guest)).TYPE == "joined"


@pytest.mark.server_config(tables_per_address=1)
async def test_quick_play_tables_count_for_no_one(connect):
    first, second = await connect("first"), await connect("second")
    for peer in (first, second):
        assert (await peer.request(Queue(id=new_id(), seats=2))).TYPE == "queued"
    for peer in (first, second):
        await peer.expect("joined")
    assert (await create(await connect("host"))).TYPE == "joined"

