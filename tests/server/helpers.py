"""Shared moves of the server tests: seat a table, play it out, wait for a condition.

`seat_table` makes a table the way clients do (create, join, ready) and returns once every
peer has its game's snapshot waiting in its inbox. `play_out` plays random legal moves on
every peer until the game is over. `eventually` polls server state that has no message of
its own (tables closed and gone).
"""

from __future__ import annotations

import random

import trio

from engine import move
from protocol import CreateTable, Join, MoveRequest, Ready
from server import Server, ServerConfig
from server.table import Table
from tests.server.peer import Peer, new_id


async def seat_table(connect, names, start: bool = True, **options) -> list[Peer]:
    """Peers named `names` at a new table (`names[0]` creates it, the others join in order).
    With `start`, all say ready and the game starts: each peer's `view` is then the game's
    first, and its inbox holds nothing older."""
    peers = [await connect(name) for name in names]
    options.setdefault("seats", len(names))
    joined = await peers[0].request(CreateTable(id=new_id(), options=options))
    assert joined.TYPE == "joined", joined
    for peer in peers[1:]:
        reply = await peer.request(Join(id=new_id(), table=joined.table))
        assert reply.TYPE == "joined", reply
    if start:
        for peer in peers:
            assert (await peer.request(Ready(id=new_id()))).TYPE == "ok"
        for peer in peers:
            await peer.expect("snapshot")
            peer.inbox.clear()
    return peers


async def play_out(peers, seed: int = 0) -> None:
    """Random legal moves from every peer until each sees the game over."""
    with trio.move_on_after(20) as timer:
        async with trio.open_nursery() as nursery:
            for i, peer in enumerate(peers):
                nursery.start_soon(peer.play_random, random.Random(seed * 100 + i))
    if timer.cancelled_caught:
        raise AssertionError("the game did not end: " + "; ".join(
            f"{p.name} seat {p.view.seat} at {p.view.state_id}: {p.view.phase} "
            f"waiting {p.view.waiting}; last frames {p.frames[-3:]}" for p in peers))


def by_seat(peers) -> dict:
    return {peer.seat: peer for peer in peers}


async def play(peer: Peer, kind: str, **fields):
    """`peer` plays a move against its latest view; returns the server's answer to it."""
    request = MoveRequest(id=new_id(), state_id=peer.view.state_id,
                          move=move(kind, **fields).to_dict())
    return await peer.request(request)


async def next_view(peer: Peer):
    """The view of `peer`'s next update (or snapshot)."""
    while True:
        msg = await peer.next()
        assert msg is not None, f"{peer.name}: closed"
        if msg.TYPE in ("update", "snapshot"):
            return msg


async def update_where(peer: Peer, predicate):
    """`peer`'s next update or snapshot whose message satisfies `predicate`."""
    while True:
        msg = await next_view(peer)
        if predicate(msg):
            return msg


async def eventually(condition, seconds: float = 5) -> None:
    """Wait until `condition()` holds (server state with no message of its own)."""
    with trio.fail_after(seconds):
        while not condition():
            await trio.sleep(0.01)


async def catch_up(peer: Peer, state_id: int) -> None:
    """Read `peer`'s updates until its view is at `state_id` (or later)."""
    while peer.view is None or peer.view.state_id < state_id:
        await next_view(peer)


class FullDisk:
    """Every Store.write fails as on a full disk while `full` is true (set it to let the
    writes through again): a store that fails in play, without filling a disk."""

    def __init__(self, monkeypatch, full: bool = True) -> None:
        from server.store import Store, StoreError

        self.full = full
        write = Store.write

        def failing(store, changes):
            if self.full:
                raise StoreError("the disk is full")
            write(store, changes)

        monkeypatch.setattr(Store, "write", failing)


def fail_table_named(monkeypatch, name: str):
    """Make the table named `name` raise the next time it tells its changes (a bug of ours
    in one table); returns the real method, to put back with monkeypatch."""
    tell = Table._tell_changes

    def fail_if_named(table):
        if table.name == name:
            raise RuntimeError("injected failure")
        tell(table)

    monkeypatch.setattr(Table, "_tell_changes", fail_if_named)
    return tell


async def served(nursery, db: str, **fields) -> Server:
    """A server of its own, keeping its records in `db`, run in `nursery` (its clocks and
    bots' delays off, `fields` as the test says)."""
    server = Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0, db=db,
                                 **fields))
    await nursery.start(server.serve)
    return server
