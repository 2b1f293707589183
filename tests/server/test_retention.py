"""What the store keeps, and for how long: a table that closes with no game played leaves no
row, and `--keep-guest-games` (and `--keep-games`, if the operator sets it) prunes finished
games of closed tables, in small batches through the one writer; rated games and games
of identified players stay by default."""

from __future__ import annotations

import sqlite3

import pytest
import trio

from protocol import Leave
from server import ServerConfig
from server.changes import (
    GamePlayer, GameResult, MovePlayed, NewGame, NewTable, Prune, TableClosed,
)
from server.store import DAY, Store
from tests.server.helpers import eventually, play_out, seat_table, served
from tests.server.peer import Peer, new_id

NOW = 1_800_000_000.0


def rows(db: str, table: str) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


async def test_a_table_that_closes_with_no_game_played_leaves_no_row(db):
    """Made, joined and left before any game: nothing of it stays. A table that played a
    game is kept, closed, with its game."""
    async with trio.open_nursery() as nursery:
        server = await served(nursery, db)
        connect = lambda name: Peer.connect(server.address[1], name)  # noqa: E731
        idle = await seat_table(connect, ["ana", "bruno"], start=False)
        played = await seat_table(connect, ["chen", "dara"])
        await play_out(played)
        for peer in idle + played:
            assert (await peer.request(Leave(id=new_id()))).TYPE == "ok"
        await eventually(lambda: not server.lobby.tables)
        await eventually(lambda: rows(db, "tables") == 1)
        for peer in idle + played:
            await peer.aclose()
        nursery.cancel_scope.cancel()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT closed IS NOT NULL FROM tables").fetchall() == [(1,)]
    assert rows(db, "games") == 1


def stored_game(store: Store, row: int, game: int, finished: float | None, *,
                rated: bool = False, players=(None, None), closed: bool = True) -> None:
    """A table `row` with one game `game`, finished at `finished`, its seats' players."""
    changes = [NewTable(row, f"t{row}", "n", {"seats": 2}, None, {"status": "over"},
                        NOW - 100 * DAY),
               NewGame(game, row, 1, {}, "7", [{"seat": s, "name": f"p{s}", "bot": None}
                                               for s in range(2)], NOW - 100 * DAY, rated)]
    changes += [GamePlayer(game, seat, f"p{seat}", player)
                for seat, player in enumerate(players)]
    changes += [MovePlayed(game, 0, 0, {"kind": "income"}, 0, 10, "player")]
    if finished is not None:
        changes.append(GameResult(finished, 0, [1], game))
    if closed:
        changes.append(TableClosed(NOW - 100 * DAY, row))
    store.write(changes)


def kept(db: str) -> list[int]:
    with sqlite3.connect(db) as conn:
        return [g for (g,) in conn.execute("SELECT id FROM games ORDER BY id")]


async def test_guests_unrated_games_go_after_their_time_and_the_rest_stay(db):
    """--keep-guest-games 30 (the default): a guests' unrated game that finished 31 days
    ago goes, moves, seats and all, and its closed table with it; one of 29 days stays, a
    rated one stays, one with an identified player stays, a game not over stays, and a
    game of a table still open stays (a resumed table replays its last game)."""
    store = Store(db)
    stored_game(store, 1, 1, NOW - 31 * DAY)
    stored_game(store, 2, 2, NOW - 29 * DAY)
    stored_game(store, 3, 3, NOW - 31 * DAY, rated=True)
    stored_game(store, 4, 4, NOW - 31 * DAY, players=(None, "key:" + "ab" * 32))
    stored_game(store, 5, 5, None)
    stored_game(store, 6, 6, NOW - 31 * DAY, closed=False)
    stored_game(store, 7, 7, NOW - 31 * DAY, players=(None, "bot:random"))
    stored_game(store, 8, 8, NOW - 1 * DAY)
    store.write([Prune(NOW, 30.0, 0.0, 100)])
    assert kept(db) == [2, 3, 4, 5, 6, 8]
    for table in ("moves", "game_players"):
        with sqlite3.connect(db) as conn:
            assert {g for (g,) in conn.execute(f"SELECT game FROM {table}")} == {
                2, 3, 4, 5, 6, 8}
    with sqlite3.connect(db) as conn:
        assert [r for (r,) in conn.execute("SELECT row FROM tables")] == [2, 3, 4, 5, 6, 8]
    store.close()


async def test_keep_games_prunes_every_finished_game_after_its_time(db):
    """--keep-games 60: rated games and identified players' go too after 60 days; the
    guests' rule still applies to its own (shorter) time."""
    store = Store(db)
    stored_game(store, 1, 1, NOW - 61 * DAY, rated=True)
    stored_game(store, 2, 2, NOW - 59 * DAY, players=("key:" + "cd" * 32, None))
    stored_game(store, 3, 3, NOW - 31 * DAY)
    stored_game(store, 4, 4, NOW - 1 * DAY)
    store.write([Prune(NOW, 30.0, 60.0, 100)])
    assert kept(db) == [2, 4]
    store.close()


async def test_pruning_goes_in_batches_and_keeps_forever_when_told_0(db):
    """Two games a write at the most here; the newest game stays whatever its age (see
    the test below)."""
    store = Store(db)
    for n in range(1, 6):
        stored_game(store, n, n, NOW - 400 * DAY)
    store.write([Prune(NOW, 0.0, 0.0, 2)])  # 0: forever
    assert kept(db) == [1, 2, 3, 4, 5]
    store.write([Prune(NOW, 30.0, 0.0, 2)])
    assert kept(db) == [3, 4, 5]
    store.close()


async def test_the_server_prunes_old_guest_games_through_its_writer(db):
    """Over TCP: two guests' games played to their end and their tables closed; the next
    server, told to keep guests' games a moment, prunes the older soon after it starts
    (the newest game always stays)."""
    async with trio.open_nursery() as nursery:
        first = await served(nursery, db)
        games, peers = [], []
        for names in (["ana", "bruno"], ["chen", "dara"]):
            peers += await seat_table(lambda name: Peer.connect(first.address[1], name),
                                      names)
            await play_out(peers[-2:])
            games.append(first.lobby.tables[peers[-1].table].game_id)
        for peer in peers:
            assert (await peer.request(Leave(id=new_id()))).TYPE == "ok"
        await eventually(lambda: Store(db, writer=False).open_tables() == [])
        for peer in peers:
            await peer.aclose()
        nursery.cancel_scope.cancel()
    assert rows(db, "games") == 2
    async with trio.open_nursery() as nursery:
        await served(nursery, db, keep_guest_games=1e-9)
        await eventually(lambda: rows(db, "games") == 1)
        nursery.cancel_scope.cancel()
    store = Store(db, writer=False)
    assert store.record(games[0]) is None and store.record(games[1]) is not None
    store.close()
    assert rows(db, "tables") == 1


@pytest.mark.parametrize("flag, value", [("--keep-guest-games", "-1"),
                                         ("--keep-games", "nan")])
async def test_a_keep_time_that_makes_no_sense_is_refused_at_start(tmp_path, capsys, flag,
                                                                   value):
    from client.cli import main as coup

    assert coup(["serve", "--port", "0", "--db", str(tmp_path / "s.db"), flag, value]) == 2
    assert capsys.readouterr().err.startswith(f"coup serve: {flag}: ")


async def test_a_pruned_games_id_is_never_given_again(db):
    """A game's id is how its record is fetched: the newest game is never pruned, however
    old, so a reopened store gives ids from past every game it ever had."""
    store = Store(db)
    stored_game(store, 1, 1, NOW - 40 * DAY)
    stored_game(store, 2, 2, NOW - 40 * DAY)
    store.write([Prune(NOW, 30.0, 0.0, 100)])
    assert kept(db) == [2]
    store.close()
    store = Store(db)
    assert store.take_game_id() == 3
    store.close()


async def test_a_players_own_games_are_kept_for_good(tmp_path, monkeypatch):
    """coup play's server keeps every game in the player's own store (play.db): the
    player's history, guest or not, is never pruned; a public server's default is 30."""
    from client.launch import Launch, practice_server

    monkeypatch.setattr("client.launch.default_path", lambda kind: str(tmp_path / "p.db"))
    config = practice_server(Launch(mode="play"))
    assert config.db and config.keep_guest_games == 0 == config.keep_games
    assert ServerConfig().keep_guest_games == 30
