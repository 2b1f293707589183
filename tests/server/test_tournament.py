"""A tournament on a server (issue 33): an operator opens it, identified players enter,
the server schedules every game and seats the entrants, and the standings go to whoever
follows the tournament. Absent entrants forfeit after the grace, and the run goes on.

Real TCP, the real protocol: an operator (`op`) and entrants, each a Peer identified with
a key of its own.
"""

from __future__ import annotations

import random

import pytest
import trio

from client.identity import load
from protocol import (
    CreateTable, EnterTournament, Leave, LeaveTournament, ListTables, OpenTournament,
    StartTournament, StopTournament,
)
from server import Server, ServerConfig
from server.tournament import Tournament, TournamentStatus
from tests.server.helpers import eventually
from tests.server.peer import Peer, new_id
from tests.server.test_identity import identify


@pytest.fixture
def keys(tmp_path):
    """keys(n) -> the n-th identity of the test; keys(1) is the operator's."""
    return lambda n: load(str(tmp_path / f"key{n}.pem"))


@pytest.fixture
async def served(nursery, keys, db, request) -> Server:
    marker = request.node.get_closest_marker("server_config")
    server = Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0, db=db,
                                 operators=f"key:{keys(1).key}",
                                 **(marker.kwargs if marker else {})))
    await nursery.start(server.serve)
    return server


@pytest.fixture
async def connect(served, keys):
    """connect(name, key=n) -> a Peer, identified with keys(n) unless n is None."""
    peers = []

    async def _connect(name: str, key: int | None) -> Peer:
        peer = await Peer.connect(served.address[1], name)
        peers.append(peer)
        if key is not None:
            assert (await identify(peer, keys(key))).TYPE == "identified"
        return peer

    yield _connect
    for peer in peers:
        await peer.aclose()


async def ok(peer: Peer, msg) -> None:
    reply = await peer.request(msg)
    assert reply.TYPE == "ok", reply


async def follow(peer: Peer) -> None:
    """`peer` lists the tables and follows the tournament."""
    assert (await peer.request(ListTables(id=new_id(), tournament=True))).TYPE == "tables"


async def refused(peer: Peer, msg) -> str:
    reply = await peer.request(msg)
    assert reply.TYPE == "error", reply
    return reply.code


async def standings(peer: Peer, where=lambda msg: True):
    return await peer.expect("tournament", where=where)


async def entrant(peer: Peer, seed: int, games: list) -> None:
    """Play every game the server seats `peer` at until the tournament is done; each game
    as (table, seat, winner) in `games`."""
    rng = random.Random(seed)
    while True:
        msg = await peer.next()
        assert msg is not None, f"{peer.name}: closed"
        if msg.TYPE == "tournament" and msg.status == "done":
            return
        if msg.TYPE == "joined":
            table, peer.view = msg.table, None
            await peer.play_random(rng)
            assert peer.view.over
            games.append((table, peer.view.seat, peer.view.winner))
            closed = await peer.expect("error", code="game_done")
            assert "over" in closed.message


async def test_three_entrants_play_every_game_and_the_standings_are_their_results(
        connect, served):
    op = await connect("op", 1)
    players = [await connect(name, n) for n, name in enumerate(("ana", "bruno", "cara"), 2)]
    await ok(op, OpenTournament(id=new_id(), name="Friday", sizes=[2]))
    for peer in players:
        await ok(peer, EnterTournament(id=new_id()))
    await follow(op)
    shown = await standings(op, lambda m: len(m.entrants) == 3)
    assert (shown.name, shown.status, shown.entrants) == ("Friday", "open",
                                                          ["ana", "bruno", "cara"])
    games: dict[str, list] = {p.name: [] for p in players}
    async with trio.open_nursery() as nursery:
        for seed, peer in enumerate(players):
            nursery.start_soon(entrant, peer, seed, games[peer.name])
        await ok(op, StartTournament(id=new_id()))
    done = await standings(op, lambda m: m.status == "done")
    # Every ordered pair of three entrants: 3 × 2 games, each entrant in 4 of them.
    assert (done.played, done.scheduled) == (6, 6)
    tables = {table for played in games.values() for table, _, _ in played}
    assert len(tables) == 6
    rows = {row["name"]: row for row in done.standings}
    for name, played in games.items():
        wins = sum(seat == winner for _, seat, winner in played)
        row = rows[name]
        assert (row["games"], row["wins"], row["forfeits"]) == (4, wins, 0)
        assert row["win_rate"] == pytest.approx(wins / 4)
        assert row["mean_place"] == pytest.approx(2 - wins / 4)  # 1st or 2nd of two
    ordinals = [row["ordinal"] for row in done.standings]
    assert ordinals == sorted(ordinals, reverse=True)
    # The games are the server's own: rated, kept, named after the tournament.
    store = served.lobby.recorder.store
    await eventually(lambda: len(store.leaderboard(0, 10)) == 3)


@pytest.mark.server_config(grace=0.5)
async def test_an_absent_entrant_forfeits_after_the_grace_and_the_run_goes_on(connect):
    op = await connect("op", 1)
    ana, bruno, cara = [await connect(name, n)
                        for n, name in enumerate(("ana", "bruno", "cara"), 2)]
    await ok(op, OpenTournament(id=new_id(), name="Cup", sizes=[2]))
    for peer in (ana, bruno, cara):
        await ok(peer, EnterTournament(id=new_id()))
    await cara.aclose()  # entered, then gone
    await follow(op)
    games: dict[str, list] = {"ana": [], "bruno": []}
    async with trio.open_nursery() as nursery:
        nursery.start_soon(entrant, ana, 1, games["ana"])
        nursery.start_soon(entrant, bruno, 2, games["bruno"])
        await ok(op, StartTournament(id=new_id()))
    done = await standings(op, lambda m: m.status == "done")
    assert (done.played, done.scheduled) == (6, 6)
    rows = {row["name"]: row for row in done.standings}
    assert (rows["cara"]["games"], rows["cara"]["wins"], rows["cara"]["forfeits"]) == (4, 0, 4)
    assert rows["cara"]["mean_place"] == 2
    assert done.standings[-1]["name"] == "cara"
    for name in ("ana", "bruno"):
        # Two games against each other, two against cara's fallback: all played out.
        assert len(games[name]) == 4 and rows[name]["forfeits"] == 0
    # The games against cara's seat are won by whoever won them at the table, or, when
    # her fallback won, by no one: she forfeited.
    assert rows["ana"]["wins"] + rows["bruno"]["wins"] <= 6


@pytest.mark.server_config(grace=0.5)
async def test_an_entrant_who_leaves_mid_game_forfeits_that_game(connect):
    op = await connect("op", 1)
    ana, bruno = await connect("ana", 2), await connect("bruno", 3)
    await ok(op, OpenTournament(id=new_id(), name="Duel", sizes=[2]))
    for peer in (ana, bruno):
        await ok(peer, EnterTournament(id=new_id()))
    await follow(op)
    await ok(op, StartTournament(id=new_id()))
    await ana.expect("joined")
    await ana.aclose()  # gone in her first game: her seat's grace runs out
    games: list = []
    await entrant(bruno, 3, games)
    done = await standings(op, lambda m: m.status == "done")
    rows = {row["name"]: row for row in done.standings}
    assert (done.played, rows["ana"]["forfeits"], rows["ana"]["wins"]) == (2, 2, 0)
    assert rows["bruno"]["games"] == 2 and rows["bruno"]["forfeits"] == 0


async def test_only_operators_run_a_tournament_and_only_identified_players_enter(connect):
    ana = await connect("ana", 2)
    guest = await connect("guest", None)
    for msg in (OpenTournament(id=new_id(), name="Mine"), StartTournament(id=new_id()),
                StopTournament(id=new_id())):
        assert await refused(ana, msg) == "not_allowed"
    assert await refused(ana, EnterTournament(id=new_id())) == "no_tournament"
    op = await connect("op", 1)
    await ok(op, OpenTournament(id=new_id(), name="Open"))
    assert await refused(guest, EnterTournament(id=new_id())) == "not_identified"
    assert await refused(op, OpenTournament(id=new_id(), name="Two")) == "tournament_exists"
    await ok(ana, EnterTournament(id=new_id()))
    # One entrant is no tournament: refused with a sentence, and it stays open.
    reply = await op.request(StartTournament(id=new_id()))
    assert (reply.TYPE, reply.code) == ("error", "bad_options")
    assert "2 to 10 entrants" in reply.message
    await ok(ana, LeaveTournament(id=new_id()))
    shown = await standings(ana)
    assert shown.status == "open"
    await ok(op, StopTournament(id=new_id()))
    assert await refused(ana, EnterTournament(id=new_id())) == "no_tournament"


async def test_entries_close_at_the_start_and_sizes_are_bounded_by_the_entrants(connect):
    op = await connect("op", 1)
    ana, bruno, cara = [await connect(name, n)
                        for n, name in enumerate(("ana", "bruno", "cara"), 2)]
    await ok(op, OpenTournament(id=new_id(), name="Big", sizes=[3], rounds=2))
    await ok(ana, EnterTournament(id=new_id()))
    await ok(bruno, EnterTournament(id=new_id()))
    reply = await op.request(StartTournament(id=new_id()))
    assert reply.code == "bad_options" and "3 seats" in reply.message
    await ok(op, StopTournament(id=new_id()))
    await ok(op, OpenTournament(id=new_id(), name="Small", sizes=[2]))
    await ok(ana, EnterTournament(id=new_id()))
    await ok(bruno, EnterTournament(id=new_id()))
    await ok(op, StartTournament(id=new_id()))
    assert await refused(cara, EnterTournament(id=new_id())) == "tournament_started"
    assert await refused(ana, LeaveTournament(id=new_id())) == "tournament_started"


async def test_a_hostile_tournament_name_is_refused(connect):
    op = await connect("op", 1)
    for name in ("\x1b[2J", "a\nb", "\u202eevil"):
        assert await refused(op, OpenTournament(id=new_id(), name=name)) == "bad_message"


async def test_a_client_that_did_not_ask_never_gets_a_tournament_message(connect):
    op = await connect("op", 1)
    old = await connect("old", 2)
    assert (await old.request(ListTables(id=new_id()))).TYPE == "tables"
    await ok(op, OpenTournament(id=new_id(), name="Quiet"))
    await follow(op)
    await standings(op)
    await ok(op, StopTournament(id=new_id()))
    await standings(op, lambda m: m.status == "stopped")
    # `old` is answered (and so has read everything sent before) and got no tournament.
    assert (await old.request(ListTables(id=new_id()))).TYPE == "tables"
    assert all(m.TYPE != "tournament" for m in old.inbox)


# ---------------------------------------------------------------- the schedule, without TCP

def running(entrants: str, sizes=(2,), wait: float = 10.0) -> Tournament:
    tournament = Tournament("T", sizes, 1, wait)
    for name in entrants:
        tournament.enter(f"key:{name}", name)
    tournament.start(seed=1)
    return tournament


async def test_the_last_game_started_is_played_before_the_tournament_is_done():
    tournament = running("ab")  # two games: a-b, then b-a
    first = tournament.due(0.0, lambda p: True)
    assert [s.fixture.lineup for s in first] == [("key:a", "key:b")]
    tournament.playing("t1", first[0])
    tournament.finished("t1", [1], 0, frozenset(), 10)
    last = tournament.due(1.0, lambda p: True)
    assert tournament.status is TournamentStatus.RUNNING  # not done: its game is to play
    tournament.playing("t2", last[0])
    tournament.finished("t2", [0], 1, frozenset(), 10)
    assert tournament.status is TournamentStatus.DONE


async def test_games_run_at_once_when_their_entrants_are_free_and_in_schedule_order():
    tournament = running("abcd")  # a-b, a-c, a-d, b-a, b-c, b-d, c-a, c-b, c-d, ...
    started = tournament.due(0.0, lambda p: True)
    # a-b first; a-c and the others of a or b wait; c-d is free and starts beside it.
    assert [s.fixture.lineup for s in started] == [("key:a", "key:b"), ("key:c", "key:d")]


async def test_a_due_game_waits_for_its_absent_entrant_then_seats_the_fallback():
    tournament = running("abc", wait=10.0)
    here = {"key:a"}  # b has not come
    assert tournament.due(0.0, here.__contains__) == []
    assert tournament.next_wake() == 10.0
    # Meanwhile a-b holds a and b: a-c (which needs a) does not jump ahead of it.
    assert tournament.due(9.0, lambda p: p != "key:b") == []
    late = tournament.due(10.0, here.__contains__)
    assert [s.present for s in late] == [("key:a", None)]
    tournament.playing("t1", late[0])
    played = tournament.finished("t1", [0], 1, frozenset(), 12)  # b's fallback won
    assert (played.places, played.winner, played.forfeits) == ((1, 2), None, (1,))


async def test_forfeits_share_the_last_place_and_a_no_show_game_is_not_played():
    tournament = running("abc", sizes=(3,), wait=1.0)
    assert tournament.due(0.0, lambda p: False) == []
    assert tournament.due(1.0, lambda p: False) == []  # no one came: recorded unplayed
    assert tournament.results[-1].places == (1, 1, 1)
    assert tournament.due(2.0, lambda p: p == "key:a") == []
    started = tournament.due(3.0, lambda p: p == "key:a")  # the next: b and c absent
    assert [s.present for s in started] == [("key:a", None, None)]
    tournament.playing("t1", started[0])
    played = tournament.finished("t1", [1, 2], 0, frozenset(), 30)
    assert (played.places, played.winner) == ((1, 2, 2), 0)
    rows = {row["name"]: row for row in tournament.message()().standings}
    assert (rows["b"]["forfeits"], rows["c"]["forfeits"], rows["a"]["forfeits"]) == (2, 2, 1)


@pytest.mark.server_config(max_tables=1)
async def test_a_game_waits_while_the_server_has_all_the_tables_it_allows(connect, served):
    op = await connect("op", 1)
    ana, bruno = await connect("ana", 2), await connect("bruno", 3)
    host = await connect("host", None)
    joined = await host.request(CreateTable(id=new_id(), options={"seats": 2}))
    assert joined.TYPE == "joined"  # the one table the server allows
    await ok(op, OpenTournament(id=new_id(), name="Full", sizes=[2]))
    for peer in (ana, bruno):
        await ok(peer, EnterTournament(id=new_id()))
    await ok(op, StartTournament(id=new_id()))
    with trio.move_on_after(0.5):
        await ana.expect("joined")
        raise AssertionError("a tournament's table opened beyond --max-tables")
    await ok(host, Leave(id=new_id()))  # its table closes: room for the tournament's
    await ana.expect("joined")
    assert len(served.lobby.tables) == 1


@pytest.mark.server_config(grace=60)
async def test_an_entrant_who_comes_back_is_seated_at_once_not_after_the_grace(connect,
                                                                              served):
    op = await connect("op", 1)
    ana, bruno = await connect("ana", 2), await connect("bruno", 3)
    await ok(op, OpenTournament(id=new_id(), name="Back", sizes=[2]))
    for peer in (ana, bruno):
        await ok(peer, EnterTournament(id=new_id()))
    await bruno.aclose()
    await eventually(lambda: all(s.name != "bruno" for s in served.lobby.sessions))
    await ok(op, StartTournament(id=new_id()))
    with trio.move_on_after(0.3):
        await ana.expect("joined")
        raise AssertionError("the game started without waiting for bruno")
    bruno = await connect("bruno", 3)  # back with his key, well within the grace
    with trio.fail_after(5):
        await bruno.expect("joined")
        await ana.expect("joined")
