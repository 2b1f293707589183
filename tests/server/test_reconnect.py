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


def deadline_of(msg, seat: int) -> float | None:
    """Seconds `msg` (an update or a snapshot) gives `seat` to decide, if it has a clock."""
    return next((d["ms"] / 1000 for d in msg.deadlines if d["seat"] == seat), None)


@QUIET
async def test_a_player_back_in_a_response_window_has_the_whole_clock_again(
        connect, autojump_clock):
    # Issue 30: back within the grace with an answer owed, the clock showed 2 s left and
    # the server passed for the player soon after. A decision of theirs that is open
    # restarts in full when they come back (R10 is silent on reconnects), and every
    # viewer's deadlines say so.
    peers = await seat_table(connect, ["ana", "bruno", "chen"], turn_clock=60,
                             response_clock=20)
    by = by_seat(peers)
    actor = by[peers[0].view.actor]
    gone, stays = [p for p in peers if p is not actor]
    state = actor.view.state_id
    assert (await play(actor, "tax")).TYPE == "move_accepted"
    for peer in peers:
        await catch_up(peer, state + 1)
    await trio.sleep(15)  # most of the response clock runs out
    await gone.aclose()
    await presence_of(actor, gone.seat)
    await trio.sleep(1)  # back well within the away clock and the grace
    back = await connect("bruno", token=gone.token)
    returned = trio.current_time()
    snapshot = await back.expect("snapshot")
    assert deadline_of(snapshot, gone.seat) == pytest.approx(20, abs=0.01)
    for peer in (actor, stays):  # the others see the fresh deadline; theirs is unchanged
        await peer.expect("presence", seat=gone.seat, status="here")
        msg = await next_view(peer)
        assert msg.events == [] and msg.view["state_id"] == state + 1
        assert deadline_of(msg, gone.seat) == pytest.approx(20, abs=0.01)
        assert deadline_of(msg, stays.seat) == pytest.approx(4, abs=0.01)
    assert (await play(stays, "pass")).TYPE == "move_accepted"
    msg = await update_where(actor, lambda m: m.view["phase"] == "action")
    assert trio.current_time() - returned == pytest.approx(20, abs=0.1)
    assert {"kind": "pass", "seat": gone.seat, "target": actor.seat, "card": "duke"} in msg.events


@QUIET
async def test_a_player_back_on_their_turn_has_the_whole_turn_clock_again(
        connect, autojump_clock):
    ana, bruno = await seat_table(connect, ["ana", "bruno"], two_player_draft=False,
                                  turn_clock=60, response_clock=20)
    by = by_seat([ana, bruno])
    gone = by[ana.view.actor]
    stays = ana if gone is bruno else bruno
    await gone.aclose()
    await presence_of(stays, gone.seat)
    await trio.sleep(58)  # two seconds of the turn are left
    back = await connect(gone.name, token=gone.token)
    returned = trio.current_time()
    assert deadline_of(await back.expect("snapshot"), gone.seat) == pytest.approx(60, abs=0.01)
    msg = await next_view(stays)
    assert msg.events == [] and deadline_of(msg, gone.seat) == pytest.approx(60, abs=0.01)
    msg = await next_view(stays)  # the clock, in full, takes Income for the silent seat
    assert trio.current_time() - returned == pytest.approx(60, abs=0.1)
    assert msg.events[0] == {"kind": "action", "seat": gone.seat, "action": "income",
                             "amount": 0}


@QUIET
async def test_a_decision_restarts_once_however_often_its_player_comes_back(
        connect, autojump_clock):
    # The bound: one restart a seat a decision. A player who drops and comes back again
    # and again holds the table for at most two of its clocks a decision; a second return
    # only ends the away clock (the deadline is the one the first return gave). The next
    # decision of theirs may restart again.
    ana, bruno = await seat_table(connect, ["ana", "bruno"], two_player_draft=False,
                                  turn_clock=60, response_clock=20)
    by = by_seat([ana, bruno])
    gone = by[ana.view.actor]
    stays = ana if gone is bruno else bruno
    token, name, state = gone.token, gone.name, gone.view.state_id
    for returns in range(3):
        await gone.aclose()
        await presence_of(stays, gone.seat)
        await trio.sleep(20)
        gone = await connect(name, token=token)
        snapshot = await gone.expect("snapshot")
        assert snapshot.view["state_id"] == state  # the same decision all along
        if not returns:  # the first return: the whole clock again
            restarted = trio.current_time()
        left = restarted + 60 - trio.current_time()  # later ones: what it gave, running on
        assert deadline_of(snapshot, gone.seat) == pytest.approx(left, abs=0.01)
        assert (await presence_of(stays, gone.seat)).status == "here"
    # Only the first return told the others of a new deadline.
    msg = await next_view(stays)
    assert msg.events == [] and deadline_of(msg, gone.seat) == pytest.approx(60, abs=0.01)
    msg = await next_view(stays)
    assert trio.current_time() - restarted == pytest.approx(60, abs=0.1)
    assert msg.events[0]["action"] == "income" and msg.events[0]["seat"] == gone.seat
    await catch_up(stays, state + 1)
    assert (await play(stays, "income")).TYPE == "move_accepted"
    await catch_up(gone, state + 2)
    assert gone.view.actor == gone.seat  # a new decision of theirs: it may restart again
    await gone.aclose()
    await presence_of(stays, gone.seat)
    await trio.sleep(30)
    back = await connect(name, token=token)
    assert deadline_of(await back.expect("snapshot"), back.seat) == pytest.approx(60, abs=0.01)


@QUIET
async def test_a_player_back_at_a_table_without_clocks_has_no_away_clock_left(
        connect, autojump_clock):
    # Away, a seat passes a claim after the away clock (3 s) even at a table with no
    # clocks; back, it has no clock again: the window waits for its answer.
    peers = await seat_table(connect, ["ana", "bruno", "chen"])
    by = by_seat(peers)
    actor = by[peers[0].view.actor]
    gone, stays = [p for p in peers if p is not actor]
    state = actor.view.state_id
    assert (await play(actor, "tax")).TYPE == "move_accepted"
    for peer in peers:
        await catch_up(peer, state + 1)
    await gone.aclose()
    await presence_of(actor, gone.seat)
    await trio.sleep(1)
    back = await connect("bruno", token=gone.token)
    assert (await back.expect("snapshot")).deadlines == []
    assert (await presence_of(actor, gone.seat)).status == "here"
    msg = await next_view(actor)
    assert msg.events == [] and msg.deadlines == []
    await trio.sleep(30)  # table time: no clock passes for anyone, so our pass is ours
    assert (await play(back, "pass")).TYPE == "move_accepted"
    assert (await play(stays, "pass")).TYPE == "move_accepted"
    msg = await update_where(actor, lambda m: m.view["phase"] == "action")
    assert msg.view["coins"][actor.seat] == 5  # the tax stood: both passed


@QUIET
async def test_a_second_return_to_a_window_ends_the_away_clock_without_a_restart(
        connect, autojump_clock):
    # Away again in the same window, the seat passes after the away clock; back again, it
    # has what its first return gave (no second restart), not what is left of the away
    # clock.
    peers = await seat_table(connect, ["ana", "bruno", "chen"], turn_clock=60,
                             response_clock=20)
    by = by_seat(peers)
    actor = by[peers[0].view.actor]
    gone, stays = [p for p in peers if p is not actor]
    token, state = gone.token, actor.view.state_id
    assert (await play(actor, "tax")).TYPE == "move_accepted"
    for peer in peers:
        await catch_up(peer, state + 1)
    for returns in range(2):
        await gone.aclose()
        await presence_of(actor, gone.seat)
        await trio.sleep(1)
        gone = await connect("bruno", token=token)
        snapshot = await gone.expect("snapshot")
        assert snapshot.view["state_id"] == state + 1
        if not returns:
            restarted = trio.current_time()
        assert deadline_of(snapshot, gone.seat) == pytest.approx(
            restarted + 20 - trio.current_time(), abs=0.01)
        await presence_of(actor, gone.seat)
        await trio.sleep(5)
    assert (await play(stays, "pass")).TYPE == "move_accepted"
    await update_where(actor, lambda m: m.view["phase"] == "action")
    assert trio.current_time() - restarted == pytest.approx(20, abs=0.1)
