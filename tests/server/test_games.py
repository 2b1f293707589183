"""Games at the table: complete games with people, bots and spectators, simultaneous
answers to one window, refused moves, players who leave (a bot or a forfeit), and tables
that end when no person is left."""

from __future__ import annotations

import pytest
import trio

from protocol import CreateTable, Join, Leave, ListTables, MoveRequest, Ping, Ready, Start
from tests.server.helpers import (
    by_seat, eventually, next_view, play, play_out, seat_table, update_where,
)
from tests.server.peer import new_id


async def spectate(connect, name, table):
    peer = await connect(name)
    assert (await peer.request(Join(id=new_id(), table=table, spectate=True))).TYPE == "joined"
    return peer


# ------------------------------------------------------------------ complete games


@pytest.mark.parametrize("seats, options", [
    (2, {}),
    (2, {"two_player_draft": False}),
    (4, {}),
    (6, {"variant": "inquisitor"}),
])
async def test_people_finish_a_game_and_everyone_agrees(connect, seats, options):
    names = ["ana", "bruno", "chen", "dara", "eli", "fern"][:seats]
    peers = await seat_table(connect, names, **options)
    watcher = await spectate(connect, "gil", peers[0].table)
    await play_out(peers, seed=seats)
    final = await watcher.expect("update", where=lambda m: m.view["phase"] == "over")
    winner = final.view["winner"]
    assert all(p.view.over and p.view.winner == winner for p in peers)
    assert final.reveal is not None and final.reveal["winner"] == winner
    assert final.deadlines == []
    for peer in peers + [watcher]:
        info = (await peer.expect("table", where=lambda m: m.info["status"] == "over")).info
        assert info["status"] == "over"


async def test_people_and_bots_finish_a_game(connect, server):
    ana, bruno = await connect("ana"), await connect("bruno")
    joined = await ana.request(CreateTable(id=new_id(), options={"seats": 5, "bots": "honest"}))
    await bruno.request(Join(id=new_id(), table=joined.table))
    watcher = await spectate(connect, "chen", joined.table)
    await bruno.request(Ready(id=new_id()))
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"
    await play_out([ana, bruno], seed=11)
    final = await watcher.expect("update", where=lambda m: m.view["phase"] == "over")
    assert final.view["winner"] == ana.view.winner == bruno.view.winner
    assert server.lobby.tables[joined.table].status == "over"


# ------------------------------------------------------------------ simultaneous answers


async def three_at_a_tax(connect):
    """Three people at a table; the first actor has declared Tax. Returns (actor, others)."""
    peers = await seat_table(connect, ["ana", "bruno", "chen"])
    seats = by_seat(peers)
    actor = seats[peers[0].view.actor]
    assert (await play(actor, "tax")).TYPE == "move_accepted"
    others = [p for p in peers if p is not actor]
    for peer in peers:
        view = (await next_view(peer)).view
        assert view["phase"] == "respond" and view["waiting"] == [
            p.seat for p in sorted(others, key=lambda p: (p.seat - actor.seat) % 3)]
    return actor, others


async def test_simultaneous_challenges_one_counts(connect):
    actor, (one, two) = await three_at_a_tax(connect)
    state = one.view.state_id
    assert two.view.state_id == state
    first = MoveRequest(id=new_id(), state_id=state, move={"kind": "challenge"})
    second = MoveRequest(id=new_id(), state_id=state, move={"kind": "challenge"})
    async with trio.open_nursery() as nursery:
        nursery.start_soon(one.send, first)
        nursery.start_soon(two.send, second)
    answers = {one: await one.reply(first.id), two: await two.reply(second.id)}
    kinds = sorted(a.TYPE for a in answers.values())
    assert kinds == ["move_accepted", "move_rejected"]
    winner = next(p for p, a in answers.items() if a.TYPE == "move_accepted")
    loser = next(p for p, a in answers.items() if a.TYPE == "move_rejected")
    assert answers[loser].code == "stale_state"
    assert answers[loser].state_id == state + 1
    view = (await next_view(actor)).view
    assert view["state_id"] == state + 1 and view["phase"] == "prove"
    assert view["challenger"] == winner.seat and view["waiting"] == [actor.seat]
    # Exactly one update went out for the two challenges: the next one is the proof's.
    await play(actor, "concede")
    view = (await next_view(actor)).view
    assert view["state_id"] == state + 2


async def test_simultaneous_passes_both_count(connect):
    actor, (one, two) = await three_at_a_tax(connect)
    state = one.view.state_id
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play, one, "pass")
        nursery.start_soon(play, two, "pass")
    msg = await update_where(actor, lambda m: m.view["phase"] == "action")
    assert msg.view["state_id"] == state + 2
    assert msg.view["coins"][actor.seat] == 5 and msg.view["actor"] != actor.seat
    assert {"kind": "gain", "seat": actor.seat, "amount": 3} in msg.events


# ------------------------------------------------------------------ refused moves


async def test_refused_moves_change_nothing(connect):
    peers = await seat_table(connect, ["ana", "bruno", "chen"])
    seats = by_seat(peers)
    state = peers[0].view.state_id
    actor = seats[peers[0].view.actor]
    other = next(p for p in peers if p is not actor)
    target = other.seat
    refused = [
        (other, {"kind": "income"}, state, "not_your_turn"),
        (actor, {"kind": "income"}, state + 5, "stale_state"),
        (actor, {"kind": "dance"}, state, "unknown_move"),
        (actor, {"kind": "income", "target": target}, state, "bad_target"),
        (actor, {"kind": "tax", "card": "duke"}, state, "bad_move"),
        (actor, {"kind": "lose", "card": "joker"}, state, "unknown_card"),
        (actor, {"kind": "examine", "target": target}, state, "not_in_variant"),
        (actor, {"kind": "steal", "target": actor.seat}, state, "bad_target"),
        (actor, {"kind": "steal", "target": 7}, state, "bad_target"),
        (actor, {"kind": "assassinate", "target": target}, state, "cannot_afford"),
        (actor, {"kind": "pass"}, state, "not_allowed_now"),
    ]
    for peer, move, state_id, code in refused:
        reply = await peer.request(MoveRequest(id=new_id(), state_id=state_id, move=move))
        assert reply.TYPE == "move_rejected", (move, reply)
        assert (reply.code, reply.state_id) == (code, state), move
    for peer in peers:  # nothing was sent out for them
        assert (await peer.request(Ping(id=new_id()))).TYPE == "pong"
        assert not [m for m in peer.inbox if m.TYPE == "update"]
    assert (await play(actor, "income")).state_id == state + 1
    view = (await next_view(other)).view
    assert view["state_id"] == state + 1 and view["coins"][actor.seat] == 3


async def test_moves_outside_a_game(connect):
    ana, bruno = await connect("ana"), await connect("bruno")
    move = {"kind": "income"}
    reply = await ana.request(MoveRequest(id=new_id(), state_id=0, move=move))
    assert reply.TYPE == "error" and reply.code == "not_at_table"
    table = (await ana.request(CreateTable(id=new_id(), options={"seats": 2}))).table
    reply = await ana.request(MoveRequest(id=new_id(), state_id=0, move=move))
    assert reply.TYPE == "error" and reply.code == "no_game"
    watcher = await spectate(connect, "chen", table)
    reply = await watcher.request(MoveRequest(id=new_id(), state_id=0, move=move))
    assert reply.TYPE == "error" and reply.code == "not_seated"
    await bruno.request(Join(id=new_id(), table=table))
    for peer in (ana, bruno):
        await peer.request(Ready(id=new_id()))
    for peer in (ana, bruno):
        await peer.expect("snapshot")
    await play_out([ana, bruno], seed=5)
    reply = await ana.request(MoveRequest(id=new_id(), state_id=ana.view.state_id, move=move))
    assert reply.TYPE == "error" and reply.code == "no_game"


# ------------------------------------------------------------------ leaving a game


async def test_a_player_who_leaves_is_played_by_a_bot(connect):
    peers = await seat_table(connect, ["ana", "bruno", "chen"])
    ana, bruno, chen = peers
    assert (await chen.request(Leave(id=new_id()))).TYPE == "ok"
    got = await drain_until(ana, "table")
    presence = [(m.seat, m.status, m.name) for m in got if m.TYPE == "presence"]
    assert presence == [(chen.seat, "left", "chen")]  # told once
    info = got[-1].info
    assert info["seats"][chen.seat]["bot"] == "honest" and info["status"] == "playing"
    await play_out([ana, bruno], seed=7)
    assert ana.view.over and ana.view.winner == bruno.view.winner


async def drain_until(peer, kind):
    """Every message up to and including the next of type `kind` (taken out of the way)."""
    got = []
    while True:
        msg = await peer.next()
        assert msg is not None
        got.append(msg)
        if msg.TYPE == kind:
            return got


async def test_a_player_who_leaves_forfeits_when_the_table_says_so(connect):
    peers = await seat_table(connect, ["ana", "bruno", "chen"], on_disconnect="forfeit")
    ana, bruno, chen = peers
    state = ana.view.state_id
    assert (await chen.request(Leave(id=new_id()))).TYPE == "ok"
    got = await drain_until(ana, "table")
    presence = [(m.seat, m.status) for m in got if m.TYPE == "presence"]
    assert presence == [(chen.seat, "left")]  # told once, before the forfeit's update
    assert [m.TYPE for m in got].index("presence") < [m.TYPE for m in got].index("update")
    update = next(m for m in got if m.TYPE == "update")
    assert update.view["state_id"] == state + 1
    kinds = [e["kind"] for e in update.events]
    assert kinds[:1] == ["forfeit"] and kinds.count("lose") == 2 and "exile" in kinds
    assert update.view["alive"][chen.seat] is False
    await play_out([ana, bruno], seed=8)
    assert ana.view.winner in (ana.seat, bruno.seat)


# ------------------------------------------------------------------ tables without people


async def test_a_table_with_no_person_left_ends(connect, server):
    ana, bruno = await connect("ana"), await connect("bruno")
    table = (await ana.request(CreateTable(id=new_id(), options={
        "seats": 4, "bots": "random"}))).table
    watcher = await spectate(connect, "chen", table)
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"
    await ana.expect("snapshot")
    assert (await ana.request(Leave(id=new_id()))).TYPE == "ok"
    # A spectator still watches the bots: the table plays on to the end.
    final = await watcher.expect("update", where=lambda m: m.view["phase"] == "over")
    assert final.reveal is not None
    assert table in server.lobby.tables
    assert (await watcher.request(Leave(id=new_id()))).TYPE == "ok"
    await eventually(lambda: table not in server.lobby.tables)
    assert (await bruno.request(ListTables(id=new_id()))).tables == []
    reply = await bruno.request(Join(id=new_id(), table=table, spectate=True))
    assert reply.TYPE == "error" and reply.code == "no_such_table"


async def test_a_table_ends_when_its_last_players_leave_after_the_game(connect, server):
    peers = await seat_table(connect, ["ana", "bruno"])
    table = peers[0].table
    await play_out(peers, seed=2)
    for peer in peers:
        assert (await peer.request(Leave(id=new_id()))).TYPE == "ok"
    await eventually(lambda: table not in server.lobby.tables)


@pytest.mark.server_config(bot_delay=1)
async def test_a_game_left_by_every_person_ends_at_once(connect, server):
    ana = await connect("ana")
    table = (await ana.request(CreateTable(id=new_id(), options={
        "seats": 3, "bots": "honest"}))).table
    await ana.request(Start(id=new_id()))
    await ana.expect("snapshot")
    assert (await ana.request(Leave(id=new_id()))).TYPE == "ok"
    await eventually(lambda: table not in server.lobby.tables)


# ------------------------------------------------------------------ a seeded server


@pytest.mark.server_config(seed=5)
async def test_a_seeded_server_deals_every_table_the_same_game(connect):
    """`coup serve --seed` (and `coup play --seed`): the deal, the first seat and therefore
    the whole game follow from the seed, table after table."""
    first = await seat_table(connect, ["ana", "bruno", "chen"])
    second = await seat_table(connect, ["dara", "eli", "fern"])
    assert first[0].table != second[0].table
    for one, other in zip(first, second, strict=True):
        assert one.view.seat == other.view.seat
        assert one.view.hands == other.view.hands and one.view.hands[one.view.seat]
        assert one.view.actor == other.view.actor
