"""Finished games over the wire, from a server that keeps records (ServerConfig.db): pages
of games with their cursor, the filter by player in any case, a record that replays through
the engine to its result, and a game in play that is never told (R11: its seed and moves
would show hidden cards). A server without records, a store that cannot be read and a record
larger than the client's frames each get an error of their own, and the session goes on.

The stores are filled by tests/server/recorded.py (random bots through the engine) before
the server opens them, except the games the tests play themselves.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from engine import record as records
from protocol import Connection, GetGame, Hello, Join, ListGames, Ping, Role
from server import Server, ServerConfig
from server.changes import MovePlayed
from server.store import Store
from tests.server.helpers import play_out, seat_table
from tests.server.peer import Peer, new_id
from tests.server.recorded import START, add_game, add_table

#: Finished games in the store besides the long one: with it, pages of 20, 20 and 6.
FINISHED = 45
#: The moves of the long game: its record passes 64 KiB.
LONG = 1500


def names_of(n: int) -> list[str | None]:
    """The seats of stored game `n`: every third has Alice, in one case or another."""
    if n % 3 == 0:
        return [("Alice", "alice", "ALICE")[n % 9 // 3], "bob", None]
    return ["carol", "dave"]


def add_long_game(store: Store) -> int:
    """A finished game of LONG moves at a table of its own: a two-seat game's moves over
    and over (a shape for the wire, not a game that replays)."""
    game_id = add_game(store, add_table(store, "long1", "Long"), ["lena", "lou"], seed=5)
    moves = store.record(game_id)["moves"]
    store.write([MovePlayed(game_id, n, m["seat"], m["move"], m["state_id"], m["ms"], m["by"])
                 for n, m in enumerate((moves * LONG)[len(moves):LONG], start=len(moves))])
    return game_id


@pytest.fixture
def stored(tmp_path: Path) -> dict:
    """A store file with the long game, FINISHED finished games and, after them, one left in
    play; and the records of the finished ones as the store gives them (the server, once
    running, is the file's only user)."""
    path = str(tmp_path / "coup.db")
    store = Store(path)
    long_game = add_long_game(store)
    row = add_table(store)
    finished = [add_game(store, row, names_of(n), seed=n, number=n + 1)
                for n in range(FINISHED)]
    running = add_game(store, row, ["alice", "erin"], seed=99, finished=False, moves=6)
    saved = {g: store.record(g) for g in [long_game, *finished]}
    store.close()
    return {"path": path, "long": long_game, "finished": finished, "running": running,
            "records": saved}


@pytest.fixture
def config(stored: dict) -> ServerConfig:
    # The stored games are guests' games of January 2026: a server's retention would prune
    # them (its first prune runs as it starts, racing the test's requests).
    return ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                        db=stored["path"], keep_guest_games=0)


async def test_finished_games_come_newest_first_in_pages_of_20_with_a_cursor(connect, stored):
    peer = await connect("reader")
    pages = []
    before = None
    while True:
        page = await peer.request(ListGames(id=new_id(), before=before))
        assert page.TYPE == "games", page
        pages.append([line["game"] for line in page.games])
        if page.next is None:
            break
        assert page.next == page.games[-1]["game"]
        before = page.next
    assert [len(p) for p in pages] == [20, 20, 6]
    listed = [g for p in pages for g in p]
    assert listed == sorted([stored["long"], *stored["finished"]], reverse=True)
    assert stored["running"] not in listed


async def test_a_games_line_says_who_played_who_won_and_how_long(connect, stored):
    peer = await connect("reader")
    page = await peer.request(ListGames(id=new_id()))
    line = page.games[-1]
    n = stored["finished"].index(line["game"])
    record = stored["records"][line["game"]]
    assert line["players"] == [{"seat": s, "name": name, "bot": None if name else "random"}
                               for s, name in enumerate(names_of(n))]
    assert line["winner"] == record["result"]["winner"]
    assert line["moves"] == len(record["moves"])
    assert (line["started"], line["finished"]) == (record["started"], record["finished"])
    assert line["table"] == "k7tq2m" and line["table_name"] == "Friday night"


@pytest.mark.parametrize("asked", ["alice", "ALICE", "aLiCe"])
async def test_the_filter_by_player_finds_their_games_in_any_case(connect, stored, asked):
    peer = await connect("reader")
    page = await peer.request(ListGames(id=new_id(), player=asked))
    expected = [g for n, g in enumerate(stored["finished"]) if n % 3 == 0]
    assert [line["game"] for line in page.games] == sorted(expected, reverse=True)
    assert page.next is None
    assert all(line["players"][0]["name"].lower() == "alice" for line in page.games)


async def test_the_filter_pages_too(connect, stored):
    peer = await connect("reader")
    first = await peer.request(ListGames(id=new_id(), player="CAROL"))
    rest = await peer.request(ListGames(id=new_id(), player="carol", before=first.next))
    carol = [g for n, g in enumerate(stored["finished"]) if n % 3]
    assert len(first.games) == 20 and rest.next is None
    assert [line["game"] for line in first.games + rest.games] == sorted(carol, reverse=True)


async def test_nobody_of_that_name_gives_an_empty_last_page(connect):
    peer = await connect("reader")
    page = await peer.request(ListGames(id=new_id(), player="zed"))
    assert (page.TYPE, page.games, page.next) == ("games", [], None)


async def test_a_fetched_record_replays_through_the_engine_to_its_result_R2_3(connect, stored):
    peer = await connect("reader")
    game_id = stored["finished"][7]
    got = await peer.request(GetGame(id=new_id(), game=game_id))
    assert got.TYPE == "game_record", got
    assert got.record == stored["records"][game_id]
    game = records.check(got.record)
    assert got.record["result"] == {"winner": game.winner, "out": list(game.exiled)}
    assert got.record["started"] == records.iso(START + 60 * game_id)


async def test_a_game_in_play_is_refused_as_unknown_R11(connect, stored):
    peer = await connect("reader")
    for game_id in (stored["running"], stored["running"] + 1):
        got = await peer.request(GetGame(id=new_id(), game=game_id))
        assert (got.TYPE, got.code) == ("error", "no_such_game")
        assert got.message == f"There is no finished game {game_id}."
    assert not any("seed" in frame or frame["t"] == "game_record" for frame in peer.frames)


def everything(value):
    """Every key and value in a frame, at any depth."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from everything(v)
    elif isinstance(value, list):
        for v in value:
            yield from everything(v)
    else:
        yield value


async def test_a_live_game_is_told_only_once_over_and_no_other_frame_holds_its_seed_R11(
        connect):
    players = await seat_table(connect, ["ann", "ben", "cy"])
    watcher = await connect("watcher")
    await watcher.request(Join(id=new_id(), table=players[0].table, spectate=True))
    game_id = next(f["info"]["game"] for f in reversed(players[0].frames)
                   if f["t"] == "table" and "game" in f["info"])

    early = await watcher.request(GetGame(id=new_id(), game=game_id))
    assert (early.TYPE, early.code) == ("error", "no_such_game")
    await play_out(players, seed=3)
    lines = await watcher.request(ListGames(id=new_id(), player="BEN"))
    assert [line["game"] for line in lines.games] == [game_id]
    got = await watcher.request(GetGame(id=new_id(), game=game_id))
    assert got.TYPE == "game_record", got
    game = records.check(got.record)
    assert [p["name"] for p in got.record["players"]] == ["ann", "ben", "cy"]
    assert game.winner == next(p.view.winner for p in players)

    seed = got.record["seed"]
    for peer in [*players, watcher]:
        for frame in peer.frames:
            if frame["t"] == "game_record":
                continue
            values = list(everything(frame))
            assert "seed" not in values, (peer.name, frame)
            assert seed not in values and str(seed) not in values, (peer.name, frame)


async def test_a_record_past_64_kib_goes_only_to_a_request_that_accepts_its_size(
        connect, stored, port):
    game_id = stored["long"]
    small = await connect("small")
    refused = await small.request(GetGame(id=new_id(), game=game_id))
    assert (refused.TYPE, refused.code) == ("error", "record_too_large")
    assert f"{LONG} moves" in refused.message

    big = await Peer.connect(port, handshake=False)
    big.conn = Connection(Role.CLIENT, max_frame=2**20)
    await big.send(Hello(versions=[1], client="test/1", name="big"))
    await big.expect("welcome")
    got = await big.request(GetGame(id=new_id(), game=game_id, max_frame=2**20))
    assert got.TYPE == "game_record"
    assert got.record == stored["records"][game_id] and len(got.record["moves"]) == LONG
    await big.aclose()


async def test_a_store_that_cannot_be_read_answers_store_failed_and_the_session_goes_on(
        connect, stored):
    peer = await connect("reader")
    Path(stored["path"]).write_bytes(b"this is no longer a database" * 100)
    for request in (ListGames(id=new_id()), GetGame(id=new_id(), game=stored["finished"][0])):
        got = await peer.request(request)
        assert (got.TYPE, got.code) == ("error", "store_failed"), got
        assert got.message == "The server could not read its records. Try again later."
    assert (await peer.request(Ping(id=new_id()))).TYPE == "pong"


async def test_a_server_without_records_says_so():
    async with trio.open_nursery() as nursery:
        server = Server(ServerConfig(port=0, bot_delay=0, db=None))
        await nursery.start(server.serve)
        peer = await Peer.connect(server.address[1], "reader")
        for request in (ListGames(id=new_id()), GetGame(id=new_id(), game=1)):
            got = await peer.request(request)
            assert (got.TYPE, got.code, got.message) == (
                "error", "no_records", "This server keeps no records.")
        await peer.aclose()
        nursery.cancel_scope.cancel()


async def test_a_private_games_record_goes_to_its_players_only(connect, server, tmp_path):
    """Issue 27, section 5: a finished private game's record, every hidden card in it, was
    served to anyone. Now its players (identities, by key) find it in list_games, the
    profiles and get_game; to anyone else (a guest, another identity) it does not exist."""
    from client.identity import load
    from protocol import CreateTable, GetProfile, Ready
    from tests.server.test_identity import identify
    from tests.server.test_ratings import take_turns

    keys = {name: load(str(tmp_path / f"{name}.pem")) for name in ("ana", "bruno", "carol")}
    ana, bruno, carol, guest = [await connect(n) for n in ("ana", "bruno", "carol", "guest")]
    for peer in (ana, bruno, carol):
        assert (await identify(peer, keys[peer.name])).TYPE == "identified"
    joined = await ana.request(CreateTable(id=new_id(), options={
        "seats": 2, "private": True, "rated": True, "two_player_draft": False}))
    assert (await bruno.request(Join(id=new_id(), code=joined.code))).TYPE == "joined"
    for peer in (ana, bruno):
        await peer.request(Ready(id=new_id()))
    for peer in (ana, bruno):
        await peer.expect("snapshot")
    await take_turns([ana, bruno], 2)
    await play_out([ana, bruno])
    game = server.lobby.tables[joined.table].game_id
    for stranger in (carol, guest):
        answer = await stranger.request(GetGame(id=new_id(), game=game))
        assert (answer.TYPE, answer.code) == ("error", "no_such_game")
        listed = await stranger.request(ListGames(id=new_id()))
        assert game not in [line["game"] for line in listed.games]
        theirs = await stranger.request(ListGames(id=new_id(), player="ana"))
        assert theirs.games == []
        profile = await stranger.request(GetProfile(id=new_id(), name="ana"))
        assert profile.profile["recent"] == []  # her rating is public, the game is not
    for player in (ana, bruno):
        answer = await player.request(GetGame(id=new_id(), game=game))
        assert answer.TYPE == "game_record" and answer.record["game"] == game
        listed = await player.request(ListGames(id=new_id()))
        assert listed.games[0]["game"] == game
        profile = await player.request(GetProfile(id=new_id(), name="bruno"))
        assert [line["game"] for line in profile.profile["recent"]] == [game]
    # and a stranger asking first does not make it cached for everyone
    answer = await carol.request(GetGame(id=new_id(), game=game))
    assert answer.TYPE == "error"
