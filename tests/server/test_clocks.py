"""R10 on a real server: every clock, left to run out, plays the default move, at the time
the table's option says. The tests run on a MockClock (`autojump_clock`): minutes of
table time pass in milliseconds, and `trio.current_time()` is the server's own clock."""

from __future__ import annotations

import pytest
import trio

from tests.server.helpers import by_seat, catch_up, next_view, play, seat_table, update_where

RESPONSE, TURN = 20, 60
CLOCKS = {"response_clock": RESPONSE, "turn_clock": TURN}

# The server's pings would close peers the test is not reading during long waits.
pytestmark = pytest.mark.server_config(ping_interval=100_000)


async def table_of(connect, n, **options):
    """n people at a table with clocks; returns (peers by seat, the first actor if any)."""
    options = dict(CLOCKS, **{"two_player_draft": False, **options})
    peers = await seat_table(connect, ["ana", "bruno", "chen", "dara"][:n], **options)
    seats = by_seat(peers)
    return seats, seats.get(peers[0].view.actor)


async def after_silence(peer, seconds: float):
    """The update that a clock brings after `seconds` of silence (checked on the clock);
    `peer` must have read every update before."""
    start = trio.current_time()
    msg = await next_view(peer)
    assert trio.current_time() - start == pytest.approx(seconds, abs=0.05)
    return msg


def deadlines(msg) -> dict[int, float]:
    """{seat: seconds left} (ms are rounded down, so within a millisecond of the clock)."""
    return {d["seat"]: pytest.approx(d["ms"] / 1000, abs=0.002) for d in msg.deadlines}


def snapshot_of(peer) -> dict:
    return next(f for f in reversed(peer.frames) if f["t"] == "snapshot")


def kinds(msg) -> list[str]:
    return [e["kind"] for e in msg.events]


async def test_the_turn_clock_takes_income(connect, autojump_clock):
    seats, actor = await table_of(connect, 2)
    other = next(p for p in seats.values() if p is not actor)
    assert snapshot_of(actor)["deadlines"] == [{"seat": actor.seat, "ms": TURN * 1000}]
    msg = await after_silence(other, TURN)
    assert msg.events[:2] == [
        {"kind": "action", "seat": actor.seat, "action": "income", "amount": 0},
        {"kind": "gain", "seat": actor.seat, "amount": 1}]
    assert msg.view["coins"][actor.seat] == 3 and msg.view["actor"] == other.seat
    assert deadlines(msg) == {other.seat: TURN}


async def test_a_response_window_has_one_clock_and_passes(connect, autojump_clock):
    seats, actor = await table_of(connect, 3)
    assert (await play(actor, "tax")).TYPE == "move_accepted"
    first, second = sorted((p for p in seats.values() if p is not actor),
                           key=lambda p: (p.seat - actor.seat) % 3)
    opened = trio.current_time()
    msg = await next_view(first)
    assert deadlines(msg) == {first.seat: RESPONSE, second.seat: RESPONSE}
    await trio.sleep(5)
    assert (await play(first, "pass")).TYPE == "move_accepted"
    await catch_up(second, first.view.state_id + 1)
    assert second.view.waiting == (second.seat,)
    last = next(f for f in reversed(second.frames) if f["t"] == "update")
    assert {d["seat"]: d["ms"] for d in last["deadlines"]} == {
        second.seat: pytest.approx((RESPONSE - 5) * 1000, abs=2)}  # passes restart nothing
    msg = await next_view(second)
    assert trio.current_time() - opened == pytest.approx(RESPONSE, abs=0.05)
    assert kinds(msg)[:2] == ["pass", "gain"] and msg.events[0]["seat"] == second.seat
    assert msg.view["coins"][actor.seat] == 5


async def test_prove_or_concede_then_a_random_loss(connect, autojump_clock):
    seats, actor = await table_of(connect, 2)
    other = next(p for p in seats.values() if p is not actor)
    hand = list(actor.view.hands[actor.seat])
    state = actor.view.state_id
    await play(actor, "tax")
    await catch_up(other, state + 1)
    assert (await play(other, "challenge")).TYPE == "move_accepted"
    await catch_up(actor, state + 2)
    assert actor.view.phase == "prove"
    msg = await after_silence(actor, RESPONSE)  # the claimant stays silent
    if "duke" in hand:  # R10: proved when it can be, conceded otherwise
        assert kinds(msg)[:3] == ["prove", "redraw", "drew"]
        loser = other
    else:
        assert kinds(msg) == ["concede"]
        loser = actor
    assert msg.view["phase"] == "lose" and msg.view["waiting"] == [loser.seat]
    await catch_up(loser, state + 3)
    loser_hand = list(loser.view.hands[loser.seat])
    msg = await after_silence(loser, RESPONSE)
    lost = msg.events[0]
    assert lost["kind"] == "lose" and lost["seat"] == loser.seat and lost["card"] in loser_hand
    assert msg.view["revealed"][loser.seat] == [lost["card"]]
    assert msg.view["phase"] == "action"


async def test_an_exchange_keeps_the_original_cards(connect, autojump_clock):
    seats, actor = await table_of(connect, 2)
    other = next(p for p in seats.values() if p is not actor)
    hand = sorted(actor.view.hands[actor.seat])
    state = actor.view.state_id
    await play(actor, "exchange")
    await catch_up(other, state + 1)
    await play(other, "pass")
    await catch_up(actor, state + 2)
    assert actor.view.phase == "keep" and len(actor.view.drawn) == 2
    msg = await after_silence(actor, RESPONSE)
    assert msg.events[0] == {"kind": "keep", "seat": actor.seat, "amount": 2}
    assert msg.events[1]["kind"] == "kept" and sorted(msg.events[1]["cards"]) == hand
    assert sorted(msg.view["hands"][actor.seat]) == hand and msg.view["drawn"] == []


async def test_examine_shows_a_random_card_and_lets_it_be_kept(connect, autojump_clock):
    seats, actor = await table_of(connect, 2, variant="inquisitor")
    target = next(p for p in seats.values() if p is not actor)
    hand = list(target.view.hands[target.seat])
    state = actor.view.state_id
    await play(actor, "examine", target=target.seat)
    await catch_up(target, state + 1)
    await play(target, "pass")
    await catch_up(target, state + 2)
    assert target.view.phase == "show"
    msg = await after_silence(target, RESPONSE)
    shown = msg.events[0]
    assert shown["kind"] == "shown" and shown["card"] in hand
    assert (shown["seat"], shown["target"]) == (target.seat, actor.seat)
    assert msg.view["phase"] == "examine_decision" and msg.view["shown"] == shown["card"]
    msg = await after_silence(target, RESPONSE)
    assert msg.events[0] == {"kind": "examine_keep", "seat": actor.seat, "target": target.seat}
    assert sorted(msg.view["hands"][target.seat]) == sorted(hand)


async def test_the_draft_picks_at_random_for_both(connect, autojump_clock):
    seats, _ = await table_of(connect, 2, two_player_draft=True)
    ana, bruno = seats[0], seats[1]
    assert ana.view.phase == "draft"
    assert snapshot_of(ana)["deadlines"] == [{"seat": 0, "ms": RESPONSE * 1000},
                                             {"seat": 1, "ms": RESPONSE * 1000}]
    sets = {p.seat: p.view.draft_sets[p.seat] for p in (ana, bruno)}
    await after_silence(ana, RESPONSE)
    for peer in (ana, bruno):
        msg = await update_where(peer, lambda m: m.view["phase"] == "action")
        picked = [e for f in peer.frames for e in f.get("events", []) if e["kind"] == "picked"]
        assert len(picked) == 1 and picked[0]["seat"] == peer.seat
        assert picked[0]["card"] in sets[peer.seat]
        assert picked[0]["card"] in peer.view.hands[peer.seat]
        assert deadlines(msg) == {msg.view["actor"]: TURN}


async def test_ten_coins_on_the_clock_coup_the_next_seat(connect, autojump_clock):
    seats, actor = await table_of(connect, 3)
    order = [seats[(actor.seat + i) % 3] for i in range(3)]
    for _ in range(3):  # the actor taxes up to 11 coins; the others pass, take Income
        state = actor.view.state_id
        await play(actor, "tax")
        for peer in order[1:]:
            await catch_up(peer, state + 1)
            await play(peer, "pass")
        for step, peer in enumerate(order[1:]):
            await catch_up(peer, state + 3 + step)
            assert peer.view.actor == peer.seat
            await play(peer, "income")
        await catch_up(actor, state + 5)
    assert actor.view.coins[actor.seat] == 11 and actor.view.phase == "action"
    victim = order[1]
    await catch_up(victim, actor.view.state_id)
    msg = await after_silence(victim, TURN)
    assert msg.events[0] == {"kind": "action", "seat": actor.seat, "target": victim.seat,
                             "action": "coup", "amount": 7}
