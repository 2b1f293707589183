"""A table paused because its store fails still answers everything but play, over real TCP:
its players chat, leave, and make or join another table (which is paused too, and says
so), each answered at once; and a write held up by another program's lock pauses play
within the server's late_write, not after SQLite's 5 s busy timeout."""

from __future__ import annotations

import sqlite3

import trio

from protocol import CreateTable, Join, Leave, MoveRequest, Say
from tests.server.helpers import FullDisk, eventually, seat_table, served
from tests.server.peer import Peer, new_id

#: Seconds within which a paused table answers (the issue saw none within 5).
PROMPT = 2.0


async def a_move_held(peers: list[Peer]) -> Peer:
    """The player whose turn it is takes income (the game's first move: there is no
    draft), whose answer the store holds up; that player."""
    mover = next(p for p in peers if p.view.seat in p.view.waiting)
    await mover.send(MoveRequest(id=new_id(), state_id=mover.view.state_id,
                                 move={"kind": "income"}))
    return mover


async def test_a_paused_table_answers_chat_leave_and_a_new_table(db, monkeypatch):
    """The disk fills in a game: play pauses. The other player chats and is answered; the
    mover leaves and is answered, makes a new table and is told `joined` and then that it
    is paused too; the other player leaves and joins it, the same. Nothing of the old table
    reaches the mover after its `ok`. When the disk has room, the new table goes on and the
    old one's record has every accepted move."""
    async with trio.open_nursery() as nursery:
        server = await served(nursery, db)
        peers = await seat_table(lambda name: Peer.connect(server.address[1], name),
                                 ["ana", "bruno"], two_player_draft=False)
        old = peers[0].table
        disk = FullDisk(monkeypatch)
        mover = await a_move_held(peers)
        other = next(p for p in peers if p is not mover)
        with trio.fail_after(PROMPT):
            await other.expect("paused", table=old, paused=True)
            await mover.expect("paused", table=old, paused=True)
            assert (await other.request(Say(id=new_id(), text="still here?"))).TYPE == "ok"
            await mover.expect("chat", text="still here?")
            assert (await mover.request(Leave(id=new_id()))).TYPE == "ok"
            after_leave = len(mover.inbox)
            joined = await mover.request(CreateTable(id=new_id(), options={"seats": 2}))
            assert joined.TYPE == "joined" and joined.table != old
            new = joined.table
            await mover.expect("paused", table=new, paused=True)
            assert (await other.request(Leave(id=new_id()))).TYPE == "ok"
            reply = await other.request(Join(id=new_id(), table=new))
            assert reply.TYPE == "joined"
            await other.expect("paused", table=new, paused=True)
        disk.full = False
        with trio.fail_after(10):
            await mover.expect("paused", table=new, paused=False)
            await other.expect("paused", table=new, paused=False)
        assert all(getattr(m, "table", new) != old for m in mover.inbox[after_leave:])
        await eventually(lambda: old not in server.lobby.tables)
        for peer in peers:
            await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_a_write_held_by_another_programs_lock_pauses_play_promptly(db):
    """Another program holds the file (BEGIN EXCLUSIVE): a move's write waits for SQLite's
    busy timeout (5 s) before it fails. The players are told play is paused once the write
    is late_write late, and play goes on as soon as the lock is let go."""
    async with trio.open_nursery() as nursery:
        server = await served(nursery, db, late_write=0.5)
        peers = await seat_table(lambda name: Peer.connect(server.address[1], name),
                                 ["ana", "bruno"], two_player_draft=False)
        table = peers[0].table
        other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        other.execute("BEGIN EXCLUSIVE")
        try:
            mover = await a_move_held(peers)
            with trio.fail_after(PROMPT):
                notice = await mover.expect("paused", table=table, paused=True)
            assert "late" in notice.message
        finally:
            other.execute("ROLLBACK")
            other.close()
        with trio.fail_after(PROMPT):
            await mover.expect("move_accepted")
            await mover.expect("paused", table=table, paused=False)
        for peer in peers:
            await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_a_player_has_one_play_waiting_at_a_paused_table(db, monkeypatch):
    """A stranger who sends move after move at a paused table does not pile them up in the
    server: the first waits for the store, every other is refused at once
    (too_many_pending); the one that waited is answered when play goes on."""
    async with trio.open_nursery() as nursery:
        server = await served(nursery, db)
        peers = await seat_table(lambda name: Peer.connect(server.address[1], name),
                                 ["ana", "bruno"], two_player_draft=False)
        disk = FullDisk(monkeypatch)
        mover = await a_move_held(peers)
        with trio.fail_after(PROMPT):
            await mover.expect("paused", paused=True)
            first = MoveRequest(id=new_id(), state_id=mover.view.state_id + 1,
                                move={"kind": "income"})
            await mover.send(first)
            for _ in range(3):
                reply = await mover.request(MoveRequest(
                    id=new_id(), state_id=mover.view.state_id + 1, move={"kind": "income"}))
                assert (reply.TYPE, reply.code) == ("error", "too_many_pending")
        disk.full = False
        with trio.fail_after(10):
            assert (await mover.reply(first.id)).TYPE == "move_rejected"  # not its turn
        for peer in peers:
            await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_a_player_who_comes_back_to_a_paused_table_is_told_at_once(db, monkeypatch):
    """A player's connection drops while play is paused and comes back with its token: it
    gets `joined`, the table and `paused` at once, and the game's snapshot (which shows the
    move the store holds) only once play goes on."""
    async with trio.open_nursery() as nursery:
        server = await served(nursery, db)
        peers = await seat_table(lambda name: Peer.connect(server.address[1], name),
                                 ["ana", "bruno"], two_player_draft=False)
        table = peers[0].table
        disk = FullDisk(monkeypatch)
        mover = await a_move_held(peers)
        other = next(p for p in peers if p is not mover)
        with trio.fail_after(PROMPT):
            await other.expect("paused", paused=True)
            await other.aclose()
            back = await Peer.connect(server.address[1], other.name, token=other.token)
            assert (await back.expect("joined")).table == table
            await back.expect("table")
            await back.expect("paused", table=table, paused=True)
        assert not any(m.TYPE == "snapshot" for m in back.inbox)
        disk.full = False
        with trio.fail_after(10):
            snapshot = await back.expect("snapshot")
        assert snapshot.view["state_id"] == 1  # the income the store held
        for peer in (mover, back):
            await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_a_player_whose_return_finds_the_disk_full_is_told_at_once(db, monkeypatch):
    """A player away comes back with its token once the disk is full, at a table that has
    not paused yet: saving the return is the write that fails. It gets `joined`, the table
    and `paused` at once (`paused` used to come alone, its `joined` held with the write),
    and the snapshot once play goes on. (Found on a real full disk, test_full_disk.py's
    tmpfs, by a server started on it again.)"""
    async with trio.open_nursery() as nursery:
        server = await served(nursery, db)
        peers = await seat_table(lambda name: Peer.connect(server.address[1], name),
                                 ["ana", "bruno"], two_player_draft=False)
        table = peers[0].table
        await peers[1].aclose()
        await peers[0].expect("presence", status="away")
        disk = FullDisk(monkeypatch)
        with trio.fail_after(PROMPT):
            back = await Peer.connect(server.address[1], "bruno", token=peers[1].token)
            assert (await back.expect("joined")).table == table
            await back.expect("table")
            await back.expect("paused", table=table, paused=True)
        disk.full = False
        with trio.fail_after(10):
            await back.expect("snapshot")
        for peer in (peers[0], back):
            await peer.aclose()
        nursery.cancel_scope.cancel()
