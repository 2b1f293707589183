"""Ratings in the terminal client (issue 16): from the lobby, r opens the server's
leaderboard, a page at a time, bots marked as bots; enter opens a player's profile (rating,
rank, record, latest games) and enter there replays a game. The lobby's header gives an
identified player's own rating, in both languages, and nothing (no notice either) to a
player the server has not rated. A server that keeps no records says so."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from client.i18n import set_language
from client.identity import Identity
from client.tui.app import Launch
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.ratings import LeaderboardScreen, ProfileScreen
from client.tui.screens.replay import ReplayScreen
from server import ServerConfig
from server.changes import IdentitySeen, RatingsMoved
from server.store import Store
from tests.server.recorded import add_game, add_table

from .helpers import ServerThread, notes, run_app, shown, until

#: Rated bot strategies enough for two pages of the leaderboard (20 and 5), with Ana.
BOTS = [f"bot:b{n:02}" for n in range(24)]


def rated_game(store: Store, players: list[tuple[str, str]], seed: int) -> None:
    """A finished rated game of seats held by `players`, as (player id, name), rated as
    the server rates it (see tests/server/test_ratings.py)."""
    game_id = add_game(store, add_table(store), [name for _player, name in players], seed)
    store._writer.execute("UPDATE games SET rated = 1 WHERE id = ?", (game_id,))
    for seat, (player, _name) in enumerate(players):
        store._writer.execute("UPDATE game_players SET player = ? WHERE game = ? AND seat = ?",
                              (player, game_id, seat))
    record = store.record(game_id)
    winner, out = record["result"]["winner"], record["result"]["out"]
    store.write([RatingsMoved(game_id, 1.0, [winner, *reversed(out)], winner)])


def rated_server(tmp_path, ana: Identity | None) -> ServerThread:
    """A server whose store holds rated games: the bots of BOTS in pairs, and, given her
    identity, Ana (as that key) against two of them."""
    db = str(tmp_path / "server.db")
    store = Store(db)
    try:
        for n in range(0, len(BOTS), 2):
            rated_game(store, [(b, b[4:]) for b in BOTS[n:n + 2]], seed=n)
        if ana is not None:
            store.write([IdentitySeen(ana.key, "Ana", 0.0, 0.0)])
            for seed in range(2):
                rated_game(store, [(f"key:{ana.key}", "Ana"), ("bot:b00", "b00")], seed=seed)
    finally:
        store.close()
    return ServerThread(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                     db=db, provisional_games=0)).start()


def join(thread: ServerThread, identity: Identity | None) -> Launch:
    return Launch(mode="join", host="127.0.0.1", port=thread.port, name="Ana",
                  identity=identity)


def key() -> Identity:
    return Identity("(test)", Ed25519PrivateKey.generate())


def ranked(screen: LeaderboardScreen) -> list[list[str]]:
    """The leaderboard's rows as they read, top to bottom."""
    table = screen.query_one("#ranked")
    return [[cell.plain for cell in table.get_row(row.key)] for row in table.ordered_rows]


def status(screen: LeaderboardScreen) -> str:
    return shown(screen.query_one("#ranked-status")).strip()


async def leaderboard(app, pilot) -> LeaderboardScreen:
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    await pilot.press("r")
    return await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen)
                       and app.screen.lines is not None and app.screen, "the leaderboard")


def lobby_header(screen) -> str:
    return " ".join(shown(screen.query_one("#lobby-header")).split())


def test_the_leaderboard_pages_and_opens_a_profile_and_its_replay(tmp_path):
    ana = key()
    thread = rated_server(tmp_path, ana)
    try:
        async def body(app, pilot):
            screen = await leaderboard(app, pilot)
            rows = ranked(screen)
            assert [r[0] for r in rows] == [str(n) for n in range(1, 21)]
            ordinals = [float(r[2]) for r in rows]
            assert ordinals == sorted(ordinals, reverse=True)
            assert status(screen) == "Page 1 · n: next page"
            await pilot.press("n")
            await until(pilot, lambda: ranked(screen)[0][0] == "21", "the second page")
            assert len(ranked(screen)) == 5 and status(screen) == "Page 2 · the last page"
            names = {r[1] for r in ranked(screen)} | {r[1] for r in rows}
            await pilot.press("p")
            await until(pilot, lambda: ranked(screen)[0][0] == "1", "the first page again")
            # Bots are marked as bots, the person is not.
            assert "Ana" in names and "b00 (bot)" in names and "b00" not in names
            top = ranked(screen)[0]
            await pilot.press("enter")
            profile = await until(pilot, lambda: isinstance(app.screen, ProfileScreen)
                                  and app.screen, "the top player's profile")
            assert shown(profile.query_one("#profile-header")).strip() == top[1]
            text = " ".join(shown(profile.query_one("#profile-rating")).split())
            assert text.startswith(f"Rank 1 · rated {top[2]} (μ ")
            games = profile.query_one("#profile-games")
            assert games.row_count == int(top[3])
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")

        run_app(join(thread, ana), body, size=(80, 24))
    finally:
        thread.stop()


@pytest.mark.parametrize("lang, rated", [("en", "rated "), ("pt_BR", "pontuação ")])
def test_the_lobby_header_gives_an_identified_players_own_rating(tmp_path, lang, rated):
    set_language(lang)
    ana = key()
    thread = rated_server(tmp_path, ana)
    try:
        async def body(app, pilot):
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.identified
                        and rated in lobby_header(app.screen), "the rating in the header")
            assert f"{app.rating:.1f}" in lobby_header(app.screen)

        run_app(join(thread, ana), body)
    finally:
        thread.stop()


@pytest.mark.parametrize("identity", [key(), None], ids=["unrated", "guest"])
def test_a_player_with_no_rating_sees_none_and_no_notice(tmp_path, identity):
    thread = rated_server(tmp_path, None)
    try:
        async def body(app, pilot):
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.me,
                        "the lobby")
            if identity is not None:  # the answer to our own profile request has come
                await until(pilot, lambda: app.core._rating_asked is not None, "the request")
            screen = await leaderboard(app, pilot)  # answered after our own profile
            assert len(ranked(screen)) == 20
            assert app.rating is None and "rated" not in lobby_header(app.screen_stack[-2])
            assert notes(app) == []

        run_app(join(thread, identity), body)
    finally:
        thread.stop()


def test_a_server_with_no_records_says_so_on_the_leaderboard(server):
    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("r")
        screen = await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen)
                             and app.screen, "the leaderboard")
        said = "This server keeps no records of its games."
        await until(pilot, lambda: status(screen) == said, "the refusal")
        assert said in notes(app)

    run_app(Launch(mode="join", host="127.0.0.1", port=server.port, name="Ana"), body)
