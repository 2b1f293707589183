"""Requests for records (list_games, get_game, get_leaderboard, get_profile) as a store that
misbehaves or a client that asks too much sees them, over real TCP: whatever a read raises
fails that request alone (store_failed, logged with its type) and the server plays on; a
session has at most history.PENDING of them being answered; and a finished game's record is
read and packed once, then served from a cache bounded in bytes, and a game in play never
is."""

from __future__ import annotations

import sqlite3
import threading

import msgpack
import pytest

from protocol import GameRecord, GetGame, GetLeaderboard, ListGames
from server import ServerConfig, history
from server.store import Store
from tests.server.helpers import play_out, seat_table
from tests.server.peer import new_id
from tests.server.recorded import add_game, add_table


@pytest.fixture
def stored(tmp_path) -> dict:
    """A store file with three finished games (of three, four and two seats, so of three
    sizes) and their records as the store gives them."""
    path = str(tmp_path / "coup.db")
    store = Store(path)
    row = add_table(store)
    games = [add_game(store, row, names, seed=n, number=n + 1) for n, names in
             enumerate([["ana", "bo", None], ["ana", "bo", "cy", None], ["di", None]])]
    records = {g: store.record(g) for g in games}
    store.close()
    return {"path": path, "games": games, "records": records}


@pytest.fixture
def config(stored: dict) -> ServerConfig:
    # The stored games are guests' games of January 2026: a server's retention would prune
    # them (its first prune runs as it starts, racing the test's requests).
    return ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                        db=stored["path"], keep_guest_games=0)


def counted_reads(monkeypatch) -> list[int]:
    """The games whose record the store reads from now on, in order."""
    reads = []
    record = Store.record

    def counted(store, game):
        reads.append(game)
        return record(store, game)

    monkeypatch.setattr(Store, "record", counted)
    return reads


async def test_a_damaged_record_or_a_failing_read_is_store_failed_and_the_server_plays_on(
        connect, stored, monkeypatch, caplog):
    damaged = stored["games"][0]
    with sqlite3.connect(stored["path"]) as conn:  # its options are no longer JSON
        conn.execute("UPDATE games SET options = '{' WHERE id = ?", (damaged,))

    def lost(*args):  # whatever it is asked, the read fails as no store read should
        raise KeyError("mu")

    monkeypatch.setattr(Store, "leaderboard", lost)
    reader = await connect("reader")
    for request in (GetGame(id=new_id(), game=damaged), GetLeaderboard(id=new_id())):
        got = await reader.request(request)
        assert (got.TYPE, got.code) == ("error", "store_failed"), got
        assert got.message == "The server could not read its records. Try again later."
    assert [r.fields["request"] for r in caplog.records
            if r.getMessage() == "store_request_failed"] == ["get_game", "get_leaderboard"]

    # The same session and the others are answered, and tables play.
    got = await reader.request(GetGame(id=new_id(), game=stored["games"][1]))
    assert got.record == stored["records"][stored["games"][1]]
    peers = await seat_table(connect, ["ana", "bruno"])
    await play_out(peers, seed=1)
    assert (await peers[0].request(ListGames(id=new_id()))).TYPE == "games"


async def test_a_session_has_at_most_PENDING_requests_for_records_being_answered(
        connect, stored, monkeypatch):
    release = threading.Event()
    finished = Store.finished

    def held(store, *args):
        release.wait(10)
        return finished(store, *args)

    monkeypatch.setattr(Store, "finished", held)
    reader = await connect("reader")
    asked = [ListGames(id=new_id()) for _ in range(history.PENDING + 1)]
    try:
        for request in asked:
            await reader.send(request)
        refused = await reader.reply(asked[-1].id)
        assert (refused.TYPE, refused.code) == ("error", "too_many_pending"), refused
        # Another session's requests are its own.
        other = await connect("other")
        got = await other.request(GetGame(id=new_id(), game=stored["games"][0]))
        assert got.TYPE == "game_record"
    finally:
        release.set()
    for request in asked[:-1]:
        assert (await reader.reply(request.id)).TYPE == "games"
    assert (await reader.request(ListGames(id=new_id()))).TYPE == "games"


async def test_a_finished_games_record_is_read_once_and_then_served_the_same_from_the_cache(
        connect, stored, monkeypatch):
    reads = counted_reads(monkeypatch)
    game = stored["games"][1]
    reader = await connect("reader")
    answers = [await reader.request(GetGame(id=new_id(), game=game)) for _ in range(3)]
    assert reads == [game]
    frames = [f for f in reader.frames if f["t"] == "game_record"]
    assert frames == [GameRecord(re=a.re, record=stored["records"][game]).to_wire()
                      for a in answers]


async def test_the_cache_keeps_the_records_asked_for_last_within_its_bytes(
        connect, stored, monkeypatch):
    sizes = {g: len(msgpack.packb({"t": "game_record", "record": r}, use_bin_type=True))
             for g, r in stored["records"].items()}
    large, *small = sorted(sizes, key=sizes.get, reverse=True)
    monkeypatch.setattr(history, "CACHED_BYTES", sizes[large] + sizes[small[0]])
    reads = counted_reads(monkeypatch)
    reader = await connect("reader")
    for game in (small[0], large, small[0], small[1], small[0], large):
        assert (await reader.request(GetGame(id=new_id(), game=game))).TYPE == "game_record"
    # small[1] pushed out `large`, the one asked for longest ago; small[0] stayed.
    assert reads == [small[0], large, small[1], large]


async def test_a_game_in_play_is_not_cached_as_unknown_R11(connect):
    players = await seat_table(connect, ["ann", "ben"])
    game_id = next(f["info"]["game"] for f in reversed(players[0].frames)
                   if f["t"] == "table" and "game" in f["info"])
    watcher = await connect("watcher")
    early = await watcher.request(GetGame(id=new_id(), game=game_id))
    assert (early.TYPE, early.code) == ("error", "no_such_game")
    await play_out(players, seed=2)
    got = await watcher.request(GetGame(id=new_id(), game=game_id))
    assert got.TYPE == "game_record" and got.record["game"] == game_id
