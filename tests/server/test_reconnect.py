"""Presence, disconnection and reconnecting: away, here, replaced, bad tokens, and the end of
a grace (a bot takes the seat, or it forfeits). Grace periods run on the MockClock."""

from __future__ import annotations

import random

import pytest
import trio

from protocol import CreateTable, Join, ListTables, MoveRequest, Ping
from tests.server.helpers import by_seat, catch_up, next_view, play, seat_table, update_where
from tests.server.peer import new_id

GRACE = 120
#: Long table-time waits must not end in pings the test is not there to answer.
QUIET = pytest.mark.server_config(ping_interval=100_000)


async def presence_of(peer, seat):
    return await peer.expect("presence", seat=seat)


async def test_reconnect_in_the_middle_of_a_response_window(connect):
    peers = await seat_table(connect, ["ana", "bruno", "chen"])
    seats = by_seat(peers)
    actor = seats[peers[0].view.actor]
    first, second = sorted((p for p in peers if p is not actor),
                           key=lambda p: (p.seat - actor.seat) % 3)
    state = actor.view.state_id
    await play(actor, "tax")
    await catch_up(first, state + 1)
    token, seat, hand = first.token, first.seat, first.view.hands[first.seat]

    await first.aclose()  # the connection drops with the window open
    away = await presence_of(actor, seat)
    assert (away.status, away.name) == ("away", first.name)
    info = (await actor.expect("table", where=lambda m: m.info["seats"][seat]["away"])).info
    assert info["status"] == "playing"
    await catch_up(second, state + 1)
    assert (await play(second, "pass")).TYPE == "move_accepted"  # the table goes on

    back = await connect("whoever", token=token)
    assert back.name == first.name  # welcome names the seat's player, not the new hello
    joined = await back.expect("joined")
    assert (joined.re, joined.seat, joined.token, joined.table) == (
        None, seat, token, actor.table)
    snapshot = await back.expect("snapshot")
    view = snapshot.view
    assert view["seat"] == seat and view["state_id"] == state + 2
    assert view["phase"] == "respond" and view["waiting"] == [seat]
    assert view["hands"][seat] == list(hand)
    here = await presence_of(actor, seat)
    assert here.status == "here"
    reply = await back.request(MoveRequest(id=new_id(), state_id=view["state_id"],
                                           move={"kind": "pass"}))
    assert reply.TYPE == "move_accepted"
    msg = await next_view(back)
    assert msg.view["phase"] == "action" and msg.view["coins"][actor.seat] == 5


async def test_a_second_connection_replaces_the_first(connect):
    ana, bruno = await seat_table(connect, ["ana", "bruno"])
    again = await connect("ana", token=ana.token)
    assert (await again.expect("joined")).seat == ana.seat
    await again.expect("snapshot")
    with trio.fail_after(5):
        rest = await ana.until_closed()  # the old one hears why, and is closed
    assert [(m.TYPE, m.reason) for m in rest if m.TYPE == "bye"] == [("bye", "replaced")]
    assert (await presence_of(bruno, ana.seat)).status == "here"


async def test_an_unknown_token_is_refused_after_welcome(connect):
    ana = await connect("ana", token="no-such-token")
    error = await ana.expect("error")
    assert error.code == "bad_token"
    assert (await ana.request(ListTables(id=new_id()))).TYPE == "tables"  # in the lobby


async def test_a_seat_waiting_for_its_game_is_kept_while_away(connect, server):
    ana, bruno = await seat_table(connect, ["ana", "bruno"], start=False, seats=3)
    await bruno.aclose()
    assert (await presence_of(ana, bruno.seat)).status == "away"
    back = await connect("bruno", token=bruno.token)
    assert (await back.expect("joined")).seat == bruno.seat
    info = (await back.expect("table")).info  # no game yet: the table, not a snapshot
    assert info["status"] == "waiting" and info["seats"][bruno.seat]["name"] == "bruno"


@QUIET
@pytest.mark.parametrize("seats", [2, 3])
async def test_after_the_grace_a_bot_plays_the_seat(connect, server, autojump_clock, seats):
    peers = await seat_table(connect, ["ana", "bruno", "chen"][:seats], two_player_draft=False)
    by = by_seat(peers)
    gone = by[peers[0].view.actor]  # the seat that owes the turn goes away
    stays = [p for p in peers if p is not gone]
    watcher = stays[0]
    await gone.aclose()
    left_at = trio.current_time()
    assert (await presence_of(watcher, gone.seat)).status == "away"
    presence = await presence_of(watcher, gone.seat)
    assert presence.status == "bot" and presence.name == gone.name
    assert trio.current_time() - left_at == pytest.approx(GRACE, abs=0.1)
    info = (await watcher.expect("table", where=lambda m: m.info["seats"][gone.seat]["bot"])
            ).info
    assert info["seats"][gone.seat]["away"] is False
    msg = await watcher.expect("update")  # the bot takes the turn at once
    assert msg.events[0]["seat"] == gone.seat and msg.events[0]["kind"] == "action"
    assert (await watcher.request(Ping(id=new_id()))).TYPE == "pong"
    assert not [m for m in watcher.inbox if m.TYPE == "presence"]  # "bot" said it all
    late = await connect("late", token=gone.token)
    assert (await late.expect("error")).code == "bad_token"
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for i, peer in enumerate(stays):
                nursery.start_soon(peer.play_random, random.Random(i))
    assert all(p.view.over for p in stays)


@QUIET
async def test_after_the_grace_a_seat_forfeits_when_the_table_says_so(connect, autojump_clock):
    ana, bruno = await seat_table(connect, ["ana", "bruno"], on_disconnect="forfeit")
    await bruno.aclose()
    assert (await presence_of(ana, bruno.seat)).status == "away"
    left = await presence_of(ana, bruno.seat)
    assert left.status == "left"
    msg = await ana.expect("update")
    assert [e["kind"] for e in msg.events][:1] == ["forfeit"]
    assert msg.view["phase"] == "over" and msg.view["winner"] == ana.seat
    assert msg.reveal is not None


@QUIET
async def test_clocks_run_on_for_a_seat_that_is_away(connect, autojump_clock):
    peers = await seat_table(connect, ["ana", "bruno"], two_player_draft=False,
                             turn_clock=30, response_clock=10)
    by = by_seat(peers)
    gone = by[peers[0].view.actor]
    stays = next(p for p in peers if p is not gone)
    await gone.aclose()
    start = trio.current_time()
    msg = await stays.expect("update")
    assert trio.current_time() - start == pytest.approx(30, abs=0.1)  # not the grace: R10
    assert msg.events[0] == {"kind": "action", "seat": gone.seat, "action": "income",
                             "amount": 0}
    assert not [m for m in stays.inbox if m.TYPE == "presence" and m.status != "away"]


@QUIET
async def test_an_away_creator_alone_at_a_waiting_table_ends_it(connect, server, config,
                                                                 autojump_clock):
    ana, bruno = await connect("ana"), await connect("bruno")
    table = (await ana.request(CreateTable(id=new_id(), options={"seats": 3}))).table
    await bruno.request(ListTables(id=new_id()))
    await bruno.expect("tables", where=lambda m: m.tables)
    await ana.aclose()
    start = trio.current_time()
    await bruno.expect("tables", where=lambda m: not m.tables)
    # Before the start a seat waits a few seconds, not the whole grace (issue 27).
    assert trio.current_time() - start == pytest.approx(config.waiting_grace, abs=1)
    assert table not in server.lobby.tables
    reply = await bruno.request(Join(id=new_id(), table=table))
    assert reply.TYPE == "error" and reply.code == "no_such_table"


@pytest.mark.server_config(away_clock=3)
async def test_a_seat_that_is_away_answers_claims_after_the_away_clock(connect, autojump_clock):
    # R10: a response window does not wait the table's 20 s for a player who is away; it
    # passes for them after the server's away clock. Their own turn keeps the table's clock.
    peers = await seat_table(connect, ["ana", "bruno", "chen"], turn_clock=60,
                             response_clock=20)
    by = by_seat(peers)
    actor = by[peers[0].view.actor]
    gone, stays = [p for p in peers if p is not actor]
    await gone.aclose()
    await presence_of(actor, gone.seat)
    state = actor.view.state_id
    assert (await play(actor, "tax")).TYPE == "move_accepted"
    await catch_up(stays, state + 1)
    assert (await play(stays, "pass")).TYPE == "move_accepted"
    start = trio.current_time()
    msg = await update_where(actor, lambda m: m.view["phase"] == "action")
    assert trio.current_time() - start == pytest.approx(3, abs=0.2)
    assert {"kind": "pass", "seat": gone.seat, "target": actor.seat, "card": "duke"} in msg.events
