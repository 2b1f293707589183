"""Ratings: a rated game's finishing order moves its players' openskill ratings the right
way (winner up, last out down), guests and unrated games move nothing, and the store's
leaderboard pages players by ordinal with each one's profile."""

from __future__ import annotations

import pytest

from server.ratings import Rating, finishing_order, rate
from server.store import Store
from tests.server.recorded import add_game, add_table


async def test_the_finishing_order_is_the_winner_then_the_last_out_first():
    assert finishing_order(2, [0, 3, 1]) == [2, 1, 3, 0]


async def test_a_game_moves_the_winner_up_and_the_first_out_down():
    after = rate({}, ["key:a", "key:b", "key:c"], winner=1, out=[2, 0])
    assert after["key:b"].mu > Rating().mu > after["key:c"].mu
    assert Rating().mu < after["key:a"].mu < after["key:b"].mu  # second: out last
    assert all(r.sigma < Rating().sigma for r in after.values())  # surer of everyone
    assert (after["key:b"].games, after["key:b"].wins) == (1, 1)
    assert (after["key:c"].games, after["key:c"].wins) == (1, 0)


async def test_guests_are_left_out_and_the_others_ranked_among_themselves():
    after = rate({}, [None, "key:b", "key:c"], winner=0, out=[1, 2])
    assert set(after) == {"key:b", "key:c"}
    assert after["key:c"].mu > after["key:b"].mu  # c outlasted b
    assert rate({}, [None, "key:b", None], winner=1, out=[0, 2]) == {}  # one rated: none


async def test_a_stronger_record_is_moved_less_by_a_loss():
    strong = Rating(mu=35.0, sigma=3.0, games=50, wins=30)
    after = rate({"key:s": strong}, ["key:s", "key:n"], winner=1, out=[0])
    assert strong.mu - after["key:s"].mu < after["key:n"].mu - Rating().mu


async def test_a_strategy_with_several_seats_moves_by_their_mean():
    after = rate({}, ["bot:heuristic", "bot:heuristic", "key:a"], winner=0, out=[2, 1])
    alone = rate({}, ["bot:heuristic", "bot:other", "key:a"], winner=0, out=[2, 1])
    assert after["bot:heuristic"].games == 1 and after["bot:heuristic"].wins == 1
    mean = (alone["bot:heuristic"].mu + alone["bot:other"].mu) / 2
    assert after["bot:heuristic"].mu == pytest.approx(mean, abs=1e-9)


def rated_game(store: Store, players: list[str], seed: int) -> int:
    """A finished rated game of seats held by `players` (ids, named after them)."""
    game_id = add_game(store, add_table(store), [p.split(":")[1] for p in players], seed)
    store._writer.execute("UPDATE games SET rated = 1 WHERE id = ?", (game_id,))
    for seat, player in enumerate(players):
        store._writer.execute("UPDATE game_players SET player = ? WHERE game = ? AND seat = ?",
                              (player, game_id, seat))
    store.write([("rate", (game_id, 1.0))])
    return game_id


async def test_the_store_rates_a_finished_rated_game_and_ranks_its_players(tmp_path):
    store = Store(str(tmp_path / "coup.db"))
    games = [rated_game(store, ["key:ana", "key:bruno", "key:chen"], seed) for seed in range(6)]
    board = store.leaderboard()
    assert [line["rank"] for line in board] == [1, 2, 3]
    assert [line["ordinal"] for line in board] == sorted(
        (line["ordinal"] for line in board), reverse=True)
    assert sum(line["games"] for line in board) == 18
    assert sum(line["wins"] for line in board) == 6
    second = store.leaderboard(offset=1, limit=1)
    assert [line["rank"] for line in second] == [2] and second[0]["player"] == board[1]["player"]
    profile = store.profile(board[0]["player"])
    assert profile["rank"] == 1 and profile["games"] == 6
    assert [line["game"] for line in profile["recent"]] == sorted(games, reverse=True)
    assert store.profile("key:nobody") is None
    store.close()


async def test_an_unrated_game_moves_no_rating(tmp_path):
    store = Store(str(tmp_path / "coup.db"))
    game_id = add_game(store, add_table(store), ["ana", "bruno"], seed=1)
    store.write([("rate", (game_id, 1.0))])
    assert store.leaderboard() == []
    store.close()


async def test_a_rated_game_over_tcp_ranks_its_players_and_serves_their_profiles(tmp_path):
    """Three identified players finish a rated table: the leaderboard lists all three,
    the winner first, and each one's profile has the game; an unknown name is
    no_such_player."""
    import random

    import trio

    from client.identity import load
    from protocol import CreateTable, GetLeaderboard, GetProfile, Join, Ready
    from server import Server, ServerConfig
    from tests.server.helpers import play_out
    from tests.server.peer import Peer, new_id
    from tests.server.test_identity import identify

    server = Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                 db=str(tmp_path / "coup.db")))
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        peers = []
        for n, name in enumerate(("ana", "bruno", "chen")):
            peer = await Peer.connect(server.address[1], name)
            assert (await identify(peer, load(str(tmp_path / f"{n}.pem")))).TYPE == "identified"
            peers.append(peer)
        joined = await peers[0].request(CreateTable(id=new_id(), options={
            "seats": 3, "rated": True}))
        for peer in peers[1:]:
            await peer.request(Join(id=new_id(), table=joined.table))
        for peer in peers:
            await peer.request(Ready(id=new_id()))
        for peer in peers:
            await peer.expect("snapshot")
        await play_out(peers, seed=random.Random(2).randrange(100))
        winner = next(p.name for p in peers if p.view.winner == p.seat)
        board = await peers[0].request(GetLeaderboard(id=new_id()))
        assert board.TYPE == "leaderboard" and board.next is None
        assert [line["rank"] for line in board.players] == [1, 2, 3]
        assert board.players[0]["name"] == winner and board.players[0]["wins"] == 1
        for peer in peers:
            profile = await peers[0].request(GetProfile(id=new_id(), name=peer.name.upper()))
            assert profile.TYPE == "profile" and profile.profile["games"] == 1
            assert [g["game"] for g in profile.profile["recent"]] == [
                server.lobby.tables[joined.table].game_id]
        missing = await peers[0].request(GetProfile(id=new_id(), name="nobody"))
        assert (missing.TYPE, missing.code) == ("error", "no_such_player")
        for peer in peers:
            await peer.aclose()
        nursery.cancel_scope.cancel()
