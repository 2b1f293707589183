"""Who sees what (R11), checked on the wire: every frame sent to every player and spectator
during complete games, with people, bots and spectators (some joining mid-game), in the
base game, the two-player draft and the Inquisitor variant.

Each frame is checked twice: by the rules of R11 alone (no other seat's hand, no draw, shown
card or pick of another, no reveal before the end, no card name outside the game messages,
no other seat's reconnect token), and against the engine: the game's recorded history is
replayed and every view and event list sent must be exactly the one the engine gives that
viewer at that state; a snapshot's earlier events must be those the viewer may see among
the game's last 200.
"""

from __future__ import annotations

import copy
import random

import msgpack
import pytest
import trio

from engine import CHARACTERS, Game, visible_to
from protocol import (
    BY_TYPE, MAX_EARLIER_EVENTS, CreateTable, Join, Leave, ListTables, Ready, Start,
)
from protocol.codec import _STRICT as STRICT
from tests.server.peer import new_id

PRIVATE = {"drew", "kept", "picked"}
#: Public events that say something hidden happened, and must not say what.
HIDDEN = {"redraw", "exchange", "keep", "examine", "examine_swap", "examine_keep", "drafted"}


def strings(value):
    """Every string in a frame but a variant's name (which may be "inquisitor")."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k != "variant":
                yield from strings(k)
                yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def check_r11(frames: list[dict], seat: int | None) -> None:
    """R11 on every frame one viewer received (seat None: a spectator)."""
    for frame in frames:
        t = frame["t"]
        if t not in ("snapshot", "update"):
            assert not set(strings(frame)) & set(CHARACTERS), frame
            continue
        view = frame["view"]
        assert view["seat"] == seat
        for other, hand in enumerate(view["hands"]):
            if other != seat:
                assert hand is None, (seat, frame)
        for other, drafted in enumerate(view["draft_sets"]):
            if other != seat:
                assert drafted is None, (seat, frame)
        if view["drawn"]:
            assert seat is not None and view["actor"] == seat and view["phase"] == "keep"
        if view["shown"] is not None:
            assert seat is not None and seat in (view["actor"], view["target"])
        assert ("reveal" in frame) == (view["phase"] == "over" and (
            t == "snapshot" or any(e["kind"] == "win" for e in frame["events"])))
        for event in frame.get("events", []):
            kind = event["kind"]
            if kind in PRIVATE:
                assert event["seat"] == seat, (seat, event)
            elif kind == "shown":
                assert seat in (event["seat"], event["target"]), (seat, event)
            elif kind in HIDDEN:
                assert "card" not in event and "cards" not in event, event


def engine_record(game: Game, viewers) -> dict:
    """(state_id, viewer) -> (view, events, earlier events) as the engine gives them,
    replaying `game`: the earlier events are those a snapshot then carries."""
    replay = Game.new(game.options, game.seed)
    record = {}
    so_far = []

    def note(events):
        so_far.extend(events)
        for viewer in viewers:
            record[replay.state_id, viewer] = (
                replay.view(viewer).to_dict(), [e.to_dict() for e in visible_to(events, viewer)],
                [e.to_dict() for e in visible_to(so_far[-MAX_EARLIER_EVENTS:], viewer)])

    note([])
    for seat, move in game.history:
        note(replay.forfeit(seat) if move is None else replay.apply(seat, move))
    assert replay.state_id == game.state_id and replay.hands == game.hands
    return record


def check_against_engine(frames, seat, record, reveal) -> int:
    """Every view and event list in `frames` is the engine's for that viewer; returns how
    many game frames there were."""
    count = 0
    for frame in frames:
        if frame["t"] not in ("snapshot", "update"):
            continue
        count += 1
        view, events, earlier = record[frame["view"]["state_id"], seat]
        assert frame["view"] == view
        assert frame["events"] == (events if frame["t"] == "update" else earlier)
        if "reveal" in frame:
            assert frame["reveal"] == reveal
    return count


async def watch(peer) -> None:
    """Read everything (answering pings) until the game is over."""
    while True:
        msg = await peer.next()
        assert msg is not None
        if msg.TYPE in ("snapshot", "update") and msg.view["phase"] == "over":
            return


GAMES = [
    # (seats, table options, humans, bots, spectators before, spectators after the start)
    (2, {}, 2, 0, 1, 1),
    (2, {"two_player_draft": False}, 2, 0, 1, 0),
    (4, {"bots": "random"}, 2, 2, 1, 1),
    (5, {"variant": "inquisitor", "bots": "honest"}, 3, 2, 1, 1),
    (6, {"variant": "inquisitor"}, 6, 0, 0, 2),
]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("seats, options, humans, bots, early, late", GAMES)
async def test_no_frame_of_a_complete_game_tells_a_secret(
        connect, server, seed, seats, options, humans, bots, early, late):
    rng = random.Random(seed * 1000 + seats)
    players = [await connect(f"player{i}") for i in range(humans)]
    joined = await players[0].request(CreateTable(id=new_id(), options=dict(
        options, seats=seats)))
    table = joined.table
    for peer in players[1:]:
        assert (await peer.request(Join(id=new_id(), table=table))).TYPE == "joined"
    watchers = []
    for i in range(early):
        watchers.append(await connect(f"early{i}"))
        await watchers[-1].request(Join(id=new_id(), table=table, spectate=True))
    for peer in players[1:]:
        await peer.request(Ready(id=new_id()))
    assert (await players[0].request(Start(id=new_id()))).TYPE == "ok"

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            for i, peer in enumerate(players):
                nursery.start_soon(peer.play_random, random.Random(rng.random()))
            for peer in watchers:
                nursery.start_soon(watch, peer)
            for i in range(late):  # spectators who come in while the game is on
                await trio.sleep(0.002)
                late_watcher = await connect(f"late{i}")
                watchers.append(late_watcher)
                await late_watcher.request(Join(id=new_id(), table=table, spectate=True))
                nursery.start_soon(watch, late_watcher)
    game = server.lobby.tables[table].game
    assert game.over

    viewers = list(range(seats)) + [None]
    record = engine_record(game, viewers)
    reveal = game.reveal().to_dict()
    tokens = {peer.token: peer for peer in players}
    seen_kinds = set()
    for peer in players + watchers:
        seat = peer.seat if peer in players else None
        if peer in players:
            await peer.expect("table", where=lambda m: m.info["status"] == "over")
        check_r11(peer.frames, seat)
        assert check_against_engine(peer.frames, seat, record, reveal) > 0
        raw = msgpack.packb(peer.frames)
        for token, owner in tokens.items():
            assert (token.encode() in raw) == (owner is peer)
        seen_kinds |= {e["kind"] for f in peer.frames for e in f.get("events", [])}
    if options.get("two_player_draft", True) and seats == 2:
        assert "picked" in seen_kinds  # the draft's secrets went by


@pytest.mark.server_config(tables_per_address=40)
async def test_every_kind_of_secret_was_scanned(connect, server):
    """Random games of four, base and inquisitor in turn, until every private event and
    every phase holding a secret has gone by (a few games do it): the scans above are not
    vacuous, and these games are scanned too. Each game's table is made from 127.0.0.1 as
    the last one closes, so the address may make as many as there are games."""
    wanted_kinds = {"drew", "kept", "shown", "redraw", "exchange", "examine"}
    wanted_phases = {"keep", "examine_decision", "prove", "lose"}
    kinds: set[str] = set()
    phases: set[str] = set()
    for game in range(40):
        if wanted_kinds <= kinds and wanted_phases <= phases:
            break
        players = [await connect(f"p{game}.{i}") for i in range(4)]
        table = (await players[0].request(CreateTable(id=new_id(), options={
            "seats": 4, "variant": "inquisitor" if game % 2 else "base"}))).table
        for peer in players[1:]:
            await peer.request(Join(id=new_id(), table=table))
        for peer in players:
            await peer.request(Ready(id=new_id()))
        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                for i, peer in enumerate(players):
                    nursery.start_soon(peer.play_random, random.Random(game * 10 + i))
        for peer in players:
            check_r11(peer.frames, peer.seat)
            for frame in peer.frames:
                if frame["t"] in ("snapshot", "update"):
                    phases.add(frame["view"]["phase"])
                    kinds |= {e["kind"] for e in frame.get("events", [])}
            await peer.aclose()
    assert wanted_kinds <= kinds and wanted_phases <= phases


async def test_no_frame_sends_nil_where_the_spec_leaves_a_field_out(connect, server):
    """PROTOCOL.md: senders leave out an optional field rather than send nil, and
    `creator_seat` is absent once the creator has left a game that started. Every frame
    the players and a lobby watcher received, as the server packed it, meets the codec's
    strict spec (nil only where the spec allows it), and the table's info after the
    creator left says no creator seat at all."""
    ana, bruno, watcher = [await connect(name) for name in ("ana", "bruno", "watcher")]
    await watcher.request(ListTables(id=new_id()))
    table = (await ana.request(CreateTable(id=new_id(), options={
        "seats": 3, "bots": "random"}))).table
    assert (await bruno.request(Join(id=new_id(), table=table))).TYPE == "joined"
    await bruno.request(Ready(id=new_id()))
    assert (await ana.request(Start(id=new_id()))).TYPE == "ok"
    await bruno.expect("snapshot")
    assert (await ana.request(Leave(id=new_id()))).TYPE == "ok"
    info = (await bruno.expect("table", where=lambda m: m.info["creator"] is None)).info
    assert "creator_seat" not in info
    await watcher.expect("tables", where=lambda m: any(
        t["table"] == table and t["creator"] is None for t in m.tables))
    scanned = 0
    for peer in (ana, bruno, watcher):
        for frame in peer.frames:
            STRICT[BY_TYPE[frame["t"]]](copy.deepcopy(frame))
            scanned += 1
    assert scanned > 10
