"""What a table tells about its game beyond the latest move, over real TCP: the summary of a
finished game (and never of one in play, R11), and the earlier events a snapshot brings to
whoever arrives mid-game, each viewer's own secrets and nobody else's (R11)."""

from __future__ import annotations

from engine import summarize
from protocol import Join
from tests.server.helpers import by_seat, catch_up, play, play_out, seat_table
from tests.server.peer import new_id

PRIVATE = {"drew", "kept", "shown", "picked"}


async def spectate(connect, name, table):
    peer = await connect(name)
    assert (await peer.request(Join(id=new_id(), table=table, spectate=True))).TYPE == "joined"
    return peer


async def test_R11_only_the_update_that_ends_the_game_carries_its_summary(connect, server):
    peers = await seat_table(connect, ["ana", "bruno", "chen"])
    await play_out(peers, seed=3)
    updates = [f for f in peers[0].frames if f["t"] == "update"]
    assert "summary" in updates[-1] and updates[-1]["view"]["phase"] == "over"
    assert not any("summary" in f for f in updates[:-1])
    game = server.lobby.tables[peers[0].table].game
    summary = summarize(game)
    assert updates[-1]["summary"] == summary
    assert summary["out"] == game.exiled and game.winner not in summary["out"]
    # Someone who comes to watch the finished game gets it in the snapshot.
    late = await spectate(connect, "dara", peers[0].table)
    snapshot = await late.expect("snapshot")
    assert snapshot.summary == summary and snapshot.reveal is not None


async def test_a_snapshot_of_a_game_just_started_has_no_earlier_events(connect):
    peers = await seat_table(connect, ["ana", "bruno"], two_player_draft=False)
    watcher = await spectate(connect, "chen", peers[0].table)
    snapshot = await watcher.expect("snapshot")
    assert snapshot.events == [] and snapshot.summary is None


async def exchanged(connect):
    """Two players; the first actor has exchanged (R4.3), kept its cards, and the other's
    turn has begun. Returns (actor, other)."""
    peers = await seat_table(connect, ["ana", "bruno"], two_player_draft=False)
    seats = by_seat(peers)
    actor = seats[peers[0].view.actor]
    other = seats[1 - actor.seat]
    assert (await play(actor, "exchange")).TYPE == "move_accepted"
    await catch_up(other, 1)
    assert (await play(other, "pass")).TYPE == "move_accepted"
    await catch_up(actor, 2)
    assert actor.view.phase == "keep"
    keep = actor.view.hands[actor.seat]
    assert (await play(actor, "keep", cards=keep)).TYPE == "move_accepted"
    await catch_up(other, 3)
    return actor, other


async def test_R11_a_spectator_arriving_mid_game_sees_the_public_history_only(connect):
    actor, other = await exchanged(connect)
    watcher = await spectate(connect, "chen", actor.table)
    snapshot = await watcher.expect("snapshot")
    kinds = [e["kind"] for e in snapshot.events]
    assert kinds == ["action", "pass", "exchange", "keep", "turn"]
    assert snapshot.events[0] == {"kind": "action", "seat": actor.seat, "action": "exchange",
                                  "card": "ambassador", "amount": 0}
    for event in snapshot.events[2:]:  # what was drawn and kept stays secret
        assert "card" not in event and "cards" not in event, event


async def test_R11_a_player_back_after_a_reconnect_sees_its_own_secrets_again(connect):
    actor, other = await exchanged(connect)
    token, seat = actor.token, actor.seat
    await actor.aclose()
    await other.expect("presence", seat=seat)
    back = await connect("ana", token=token)
    snapshot = await back.expect("snapshot")
    kinds = [e["kind"] for e in snapshot.events]
    assert kinds == ["action", "pass", "exchange", "drew", "keep", "kept", "turn"]
    assert all(e["seat"] == seat for e in snapshot.events if e["kind"] in PRIVATE)
