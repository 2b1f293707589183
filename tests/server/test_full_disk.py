"""`coup serve` with its store on a file system that really fills up, not a patched write:
a small tmpfs mounted in the server's own mount namespace (`unshare -m`: nobody else sees
it), with a ballast file that leaves only a little room once a game is under way. Two
players play over TCP until SQLite meets ENOSPC; they are told `paused`, the server stays
up, and when the ballast goes (removed through /proc/PID/root, the server's view of the
files) play goes on to the game's end, whose stored record holds every move the players
saw accepted, in state id order."""

from __future__ import annotations

import os
import random
import signal

import pytest

from engine import legal_moves
from engine import record as records
from protocol import GetGame, ListGames, MoveRequest
from tests.server.helpers import catch_up, seat_table
from tests.server.peer import Peer, new_id
from tests.ports import free_port
from tests.server.test_crash import start
from tests.server.test_restart import stopped

#: `sh -c` this with a folder and a command: the command runs with a tmpfs of its own
#: mounted at the folder (in the mount namespace that the test's `unshare -m` makes).
SMALL_DISK = """set -e
mount -t tmpfs -o size=2m coup "$1"
shift
exec "$@"
"""
#: Bytes the ballast leaves free: a few moves' WAL frames (4 KiB and a header each).
ROOM = 16 * 1024


def fill(folder: str) -> int:
    """Fill the file system at `folder` but for about ROOM bytes; the bytes left free."""
    disk = os.statvfs(folder)
    with open(os.path.join(folder, "ballast"), "wb") as ballast:
        ballast.write(bytes(disk.f_bavail * disk.f_frsize - ROOM))
    disk = os.statvfs(folder)
    return disk.f_bavail * disk.f_frsize


async def answer_or_pause(peer: Peer, request_id: int):
    """The answer to request `request_id`, or `paused` if that comes first; the other
    messages wait in the inbox."""
    skipped = []
    try:
        while True:
            msg = await peer.next()
            assert msg is not None, f"{peer.name}: closed"
            if getattr(msg, "re", None) == request_id or msg.TYPE == "paused":
                return msg
            skipped.append(msg)
    finally:
        peer.inbox[:0] = skipped


def state_ids_seen(peer: Peer) -> list[int]:
    """The state id of each view that `peer` received, in order."""
    return [f["view"]["state_id"] for f in peer.frames if f.get("t") in ("snapshot", "update")]


def told_paused(peer: Peer) -> list[bool]:
    """What each `paused` that `peer` received said, in order."""
    return [f["paused"] for f in peer.frames if f.get("t") == "paused"]


@pytest.mark.time_limit(30)
async def test_a_disk_that_fills_up_pauses_play_and_loses_no_move(tmp_path):
    """A game starts on a disk with room for a few moves. Its players move until one move
    finds the disk full: both are told `paused`, and that move waits for its answer. The
    ballast goes: play goes on, and the game is played to its end, every move of it in the
    stored record as the players saw it, and the server says it failed once and
    recovered once."""
    folder = tmp_path / "disk"
    folder.mkdir()
    port = free_port()
    process = await start(str(folder / "coup.db"), port,
                          within=("unshare", "-m", "sh", "-c", SMALL_DISK, "sh", str(folder)))
    seen = f"/proc/{process.pid}/root{folder}"  # the folder as the server sees it
    rng = random.Random(28)
    peers: list[Peer] = []
    try:
        peers[:] = await seat_table(lambda name: Peer.connect(port, name), ["ana", "bruno"],
                                    two_player_draft=False)
        assert 0 < fill(seen) <= ROOM
        moved: dict[int, dict] = {}
        before_pause = None
        while not peers[0].view.over:
            mover = next(p for p in peers if p.view.seat in p.view.waiting)
            view = mover.view
            choices = legal_moves(view, view.seat)
            request = MoveRequest(id=new_id(), state_id=view.state_id,
                                  move=choices[rng.randrange(len(choices))].to_dict())
            await mover.send(request)
            answer = await answer_or_pause(mover, request.id)
            if answer.TYPE == "paused":
                assert before_pause is None and answer.paused, answer
                assert "the disk is full" in answer.message, answer
                before_pause = len(moved)
                assert process.returncode is None
                os.remove(os.path.join(seen, "ballast"))
                answer = await mover.reply(request.id)
            assert answer.TYPE == "move_accepted", answer
            moved[view.state_id] = request.move
            for peer in peers:
                await catch_up(peer, view.state_id + 1)
        assert before_pause, "the disk never filled, or was full before any move"
        for peer in peers:
            assert told_paused(peer) == [True, False]
        page = await peers[0].request(ListGames(id=new_id()))
        reply = await peers[0].request(GetGame(id=new_id(), game=page.games[0]["game"]))
        record = reply.record
    finally:
        for peer in peers:
            await peer.aclose()
        events = await stopped(process, signal.SIGTERM)
    game = records.check(record)  # replays, move by move, to the result it says
    assert game.state_id == len(moved)
    for peer in peers:  # each saw every move once, in order, the last one included
        assert state_ids_seen(peer) == list(range(len(moved) + 1))
    assert [(m["state_id"], m["move"]) for m in record["moves"]] == sorted(moved.items())
    said = [e["event"] for e in events]
    assert said.count("store_failed") == 1 and said.count("store_recovered") == 1, said
    assert next(e for e in events if e["event"] == "store_failed")["error"] == \
        "the disk is full"
