"""Ratings: a rated game's finishing order moves its players' openskill ratings the right
way (winner up, last out down), guests and unrated games move nothing, and the store's
leaderboard pages players by ordinal with each one's profile. Over TCP (issue 27): a rated
game counts only between two identified people who each played, and a leaver is ranked
where they left, whatever the bot that took the seat did after."""

from __future__ import annotations

from collections import Counter

import pytest

from server.ratings import Rating, Standing, finishing_order, rate
from server.changes import RatingsMoved
from server.store import Store
from tests.server.recorded import add_game, add_table


async def test_the_finishing_order_is_the_winner_then_the_last_out_first():
    standing = Standing({0: "key:a", 1: "key:b", 2: "key:c", 3: "key:d"},
                        turns=Counter({0: 2, 1: 2, 2: 2, 3: 2}))
    standing.exiled([0, 3, 1])
    assert standing.result(4, winner=2, min_turns=2) == ([2, 1, 3, 0], 2)
    assert finishing_order(2, [0, 3, 1]) == [2, 1, 3, 0]  # as a record's result says it


async def test_a_leaver_departs_where_they_left_and_the_seat_wins_for_no_one():
    standing = Standing({0: "key:a", 1: "key:b", 2: "key:c"}, turns=Counter({0: 2, 1: 2, 2: 2}))
    standing.leave(1)
    standing.exiled([0])  # the bot in seat 1 put seat 0 out...
    standing.exiled([0, 2])  # ...and seat 2: it won, for no one
    standing.leave(1)  # a second departure of a seat changes nothing
    assert standing.result(3, winner=1, min_turns=2) == ([2, 0, 1], None)


async def test_a_game_counts_only_if_each_person_played_or_was_exiled_in_play():
    early = Standing({0: "key:a", 1: "key:b"}, turns=Counter({0: 2, 1: 1}))
    assert early.result(2, winner=0, min_turns=2) is None  # b took one turn, and is in
    early.exiled([1])
    assert early.result(2, winner=0, min_turns=2) == ([0, 1], 0)  # put out in play: counts
    left = Standing({0: "key:a", 1: "key:b"}, turns=Counter({0: 2}))
    left.leave(1)
    left.exiled([1])
    assert left.result(2, winner=0, min_turns=2) is None  # left before playing
    assert not Standing({0: "key:a", 2: "key:a"}).counts  # one key in two seats: one person


async def test_a_game_moves_the_winner_up_and_the_first_out_down():
    after = rate({}, ["key:a", "key:b", "key:c"], order=[1, 0, 2], winner=1)
    assert after["key:b"].mu > Rating().mu > after["key:c"].mu
    assert Rating().mu < after["key:a"].mu < after["key:b"].mu  # second: out last
    assert all(r.sigma < Rating().sigma for r in after.values())  # surer of everyone
    assert (after["key:b"].games, after["key:b"].wins) == (1, 1)
    assert (after["key:c"].games, after["key:c"].wins) == (1, 0)


async def test_guests_are_left_out_and_the_others_ranked_among_themselves():
    after = rate({}, [None, "key:b", "key:c"], order=[0, 2, 1], winner=0)
    assert set(after) == {"key:b", "key:c"}
    assert after["key:c"].mu > after["key:b"].mu  # c outlasted b
    assert rate({}, [None, "key:b", None], order=[1, 2, 0], winner=1) == {}  # one rated: none


async def test_a_stronger_record_is_moved_less_by_a_loss():
    strong = Rating(mu=35.0, sigma=3.0, games=50, wins=30)
    after = rate({"key:s": strong}, ["key:s", "key:n"], order=[1, 0], winner=1)
    assert strong.mu - after["key:s"].mu < after["key:n"].mu - Rating().mu


async def test_a_strategy_with_several_seats_moves_by_their_mean():
    after = rate({}, ["bot:heuristic", "bot:heuristic", "key:a"], order=[0, 1, 2], winner=0)
    alone = rate({}, ["bot:heuristic", "bot:other", "key:a"], order=[0, 1, 2], winner=0)
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
    record = store.record(game_id)
    winner, out = record["result"]["winner"], record["result"]["out"]
    store.write([RatingsMoved(game_id, 1.0, [winner, *reversed(out)], winner)])
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
    store.write([RatingsMoved(game_id, 1.0, [0, 1], 0)])
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
                                 db=str(tmp_path / "coup.db"), provisional_games=1))
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
        await take_turns(peers, 2)  # a game counts once each has played (issue 27)
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


# ---------------------------------------------------------------- issue 27, over TCP

@pytest.fixture
async def rated(nursery, tmp_path, request):
    """A server that keeps records (ratings live in its store) and lists every rated player
    (a provisional period of 0 unless the test's server_config says), and `people(*names)`:
    peers of those names, each identified with a key of its own."""
    from client.identity import load
    from server import Server, ServerConfig
    from tests.server.peer import Peer
    from tests.server.test_identity import identify

    marker = request.node.get_closest_marker("server_config")
    server = Server(ServerConfig(**{"port": 0, "bot_delay": 0, "response_clock": 0,
                                    "turn_clock": 0, "db": str(tmp_path / "coup.db"),
                                    "provisional_games": 0} | (marker.kwargs if marker else {})))
    await nursery.start(server.serve)
    peers = []

    async def people(*names):
        for name in names:
            peer = await Peer.connect(server.address[1], name)
            peers.append(peer)
            key = load(str(tmp_path / f"{name}.pem"))
            assert (await identify(peer, key)).TYPE == "identified"
        return peers[-len(names):]

    server.people = people
    yield server
    for peer in peers:
        await peer.aclose()


async def sit(peers, guests=(), **options):
    """`peers` at a new rated table (the first creates it), ready, their game started; the
    table's summary as the first peer was told it once the game started."""
    from protocol import CreateTable, Join, Ready, Start
    from tests.server.peer import new_id

    options = {"seats": len(peers), "rated": True, "two_player_draft": False} | options
    joined = await peers[0].request(CreateTable(id=new_id(), options=options))
    for peer in peers[1:]:
        assert (await peer.request(Join(id=new_id(), table=joined.table))).TYPE == "joined"
    for peer in peers:
        await peer.request(Ready(id=new_id()))
    if "bots" in options:  # the empty seats are the bots': the creator starts
        assert (await peers[0].request(Start(id=new_id()))).TYPE == "ok"
    for peer in peers:
        await peer.expect("snapshot")
    return (await peers[0].expect("table", lambda m: m.info["status"] == "playing")).info


async def take_turns(peers, turns: int) -> None:
    """Each of `peers` (every seat of the game) takes `turns` turns of Income, in turn order."""
    from tests.server.helpers import catch_up, play

    for _ in range(turns * len(peers)):
        mover = next(p for p in peers if p.view.phase == "action" and p.seat in p.view.waiting)
        accepted = await play(mover, "income")
        assert accepted.TYPE == "move_accepted", accepted
        for peer in peers:
            await catch_up(peer, accepted.state_id)


async def leaderboard(peer) -> list[dict]:
    from protocol import GetLeaderboard
    from tests.server.peer import new_id

    board = await peer.request(GetLeaderboard(id=new_id()))
    assert board.TYPE == "leaderboard"
    return board.players


async def test_a_new_identity_that_leaves_at_once_rates_no_one(rated):
    """Issue 27's farm: a fresh identity sits at a two-seat rated table and leaves at once;
    the creator beats the bot that took the seat. That game moves no rating: neither the
    creator's win nor the leaver's loss (the leaver took no turn)."""
    from protocol import Leave
    from tests.server.helpers import play_out
    from tests.server.peer import new_id

    farmer, fresh = await rated.people("farmer", "fresh")
    info = await sit([farmer, fresh])
    assert info["game_rated"] is True  # two people at the start: rated, if they play
    assert (await fresh.request(Leave(id=new_id()))).TYPE == "ok"
    await play_out([farmer])
    assert await leaderboard(farmer) == []


@pytest.mark.parametrize("other", ["guest", "bots"])
async def test_a_rated_table_of_one_identity_plays_unrated_and_says_so(rated, other):
    """Two identified people at the start, or the game is unrated (game_rated false): a
    guest is nobody, and a table's bots are no person."""
    from tests.server.helpers import play_out
    from tests.server.peer import Peer

    ana, = await rated.people("ana")
    if other == "guest":
        guest = await Peer.connect(rated.address[1], "guest")
        peers = [ana, guest]
        info = await sit(peers)
    else:
        peers = [ana]
        info = await sit(peers, seats=3, bots="random")
    assert info["game_rated"] is False and info["options"]["rated"] is True
    await take_turns(peers, 2) if other == "guest" else None
    await play_out(peers)
    assert await leaderboard(ana) == []
    if other == "guest":
        await guest.aclose()


async def test_a_game_both_people_played_moves_both_ratings(rated):
    from tests.server.helpers import play_out

    ana, bruno = await rated.people("ana", "bruno")
    await sit([ana, bruno])
    await take_turns([ana, bruno], 2)
    await play_out([ana, bruno], seed=5)
    board = await leaderboard(ana)
    assert {line["name"]: line["games"] for line in board} == {"ana": 1, "bruno": 1}
    assert sum(line["wins"] for line in board) == 1
    winner = next(p.name for p in (ana, bruno) if p.view.winner == p.seat)
    assert board[0]["name"] == winner


async def test_leavers_are_ranked_where_they_left_and_the_bots_win_counts_for_no_one(rated):
    """Three people play two turns each, then leave one by one (bruno, ana, chen): bots
    play every seat to the end, watched by a guest, so a bot wins. The ranking is the
    order they left, last out first; no one is credited a win, and no bot is rated."""
    from protocol import Join, Leave
    from tests.server.helpers import next_view
    from tests.server.peer import Peer, new_id

    ana, bruno, chen = await rated.people("ana", "bruno", "chen")
    info = await sit([ana, bruno, chen])
    watcher = await Peer.connect(rated.address[1], "watcher")
    assert (await watcher.request(Join(id=new_id(), table=info["table"],
                                       spectate=True))).TYPE == "joined"
    await take_turns([ana, bruno, chen], 2)
    for peer in (bruno, ana, chen):
        assert (await peer.request(Leave(id=new_id()))).TYPE == "ok"
    while watcher.view is None or not watcher.view.over:
        await next_view(watcher)
    board = await leaderboard(watcher)
    assert [line["name"] for line in board] == ["chen", "ana", "bruno"]
    assert [line["wins"] for line in board] == [0, 0, 0]
    assert board[0]["mu"] > Rating().mu > board[2]["mu"]
    await watcher.aclose()


async def test_a_restarted_server_rates_a_game_by_the_turns_and_leaves_before_it(tmp_path):
    """ana and bruno take two turns each; bruno leaves (a bot takes the seat); the server
    stops without warning. Restarted, it knows from its store who played and who left:
    ana plays on against the bot, and the game ranks ana first and bruno second."""
    import trio

    from client.identity import load
    from protocol import Leave
    from server import Server, ServerConfig
    from tests.server.helpers import play_out
    from tests.server.peer import Peer, new_id
    from tests.server.test_identity import identify

    config = ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                          db=str(tmp_path / "coup.db"), provisional_games=0)
    async with trio.open_nursery() as nursery:
        first = Server(config)
        await nursery.start(first.serve)
        peers = []
        for name in ("ana", "bruno"):
            peer = await Peer.connect(first.address[1], name)
            assert (await identify(peer, load(str(tmp_path / f"{name}.pem")))).TYPE == \
                "identified"
            peers.append(peer)
        ana, bruno = peers
        await sit(peers)
        await take_turns(peers, 2)
        assert (await bruno.request(Leave(id=new_id()))).TYPE == "ok"
        await ana.expect("presence", lambda m: m.status == "left")
        nursery.cancel_scope.cancel()
    for peer in peers:
        await peer.aclose()
    async with trio.open_nursery() as nursery:
        second = Server(config)
        await nursery.start(second.serve)
        back = await Peer.connect(second.address[1], "x", token=ana.token)
        await back.expect("snapshot")
        await play_out([back])
        board = await leaderboard(back)
        assert [(line["name"], line["games"]) for line in board] == [("ana", 1), ("bruno", 1)]
        assert board[1]["wins"] == 0
        await back.aclose()
        nursery.cancel_scope.cancel()


async def test_the_leaderboard_lists_players_past_their_provisional_period(tmp_path):
    """Issue 27: like lichess, the board hides provisional ratings. chen has played three
    rated games, ana and bruno six: with a period of four games, chen is not listed, ranks
    are counted without chen, and chen's own profile says provisional."""
    store = Store(str(tmp_path / "coup.db"))
    for seed in range(3):
        rated_game(store, ["key:ana", "key:bruno", "key:chen"], seed)
    for seed in range(3, 6):
        rated_game(store, ["key:ana", "key:bruno"], seed)
    board = store.leaderboard(established=4)
    assert {line["player"] for line in board} == {"key:ana", "key:bruno"}
    assert [line["rank"] for line in board] == [1, 2]
    chen = store.profile("key:chen", established=4)
    assert chen["provisional"] is True and chen["games"] == 3 and chen["rank"] <= 3
    assert "provisional" not in store.profile("key:ana", established=4)
    assert len(store.leaderboard(established=3)) == 3
    store.close()


@pytest.mark.server_config(provisional_games=2)
async def test_a_provisional_player_is_off_the_board_and_sees_their_own_rating(rated):
    from protocol import GetProfile
    from tests.server.helpers import play_out
    from tests.server.peer import new_id

    ana, bruno = await rated.people("ana", "bruno")
    await sit([ana, bruno])
    await take_turns([ana, bruno], 2)
    await play_out([ana, bruno])
    assert await leaderboard(ana) == []
    mine = await ana.request(GetProfile(id=new_id(), name="ana"))
    assert mine.TYPE == "profile" and mine.profile["provisional"] is True
    assert mine.profile["games"] == 1


@pytest.mark.server_config(grace=0.2)
async def test_a_player_whose_grace_ends_is_ranked_where_the_bot_took_the_seat(rated):
    """The other way to leave: bruno's connection drops after two turns each, his grace
    ends and a bot plays his seat; then ana leaves too, and bots finish the game before a
    guest. bruno, out first, ranks last; no one is credited the bots' win."""
    from protocol import Join, Leave
    from tests.server.helpers import next_view
    from tests.server.peer import Peer, new_id

    ana, bruno = await rated.people("ana", "bruno")
    info = await sit([ana, bruno])
    watcher = await Peer.connect(rated.address[1], "watcher")
    assert (await watcher.request(Join(id=new_id(), table=info["table"],
                                       spectate=True))).TYPE == "joined"
    await take_turns([ana, bruno], 2)
    await bruno.aclose()
    await ana.expect("presence", lambda m: m.status == "bot")
    assert (await ana.request(Leave(id=new_id()))).TYPE == "ok"
    while watcher.view is None or not watcher.view.over:
        await next_view(watcher)
    board = await leaderboard(watcher)
    assert [(line["name"], line["wins"]) for line in board] == [("ana", 0), ("bruno", 0)]
    await watcher.aclose()
