"""Finished games in the terminal client (issue 15): the menu's Recent games lists the games
this computer kept (the store file `coup play` writes), the lobby lists the server's, a page
at a time, newest first, filtered by a player's name; enter opens a game's replay, and the
results of a game just played open its replay from the server it was played on. While the
server cannot save a game, the table says play is paused and its clocks stand still."""

from __future__ import annotations

import time

from client.i18n import set_language
from client.tui.app import Launch
from client.tui.screens.history import GamesScreen
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.menu import MenuScreen
from client.tui.screens.replay import ReplayScreen
from client.tui.screens.results import ResultsScreen
from client.tui.screens.table import TableScreen
from engine import Game, Options
from engine.bots import make
from protocol import GameRecord, Paused, encode
from server import ServerConfig
from server.store import Store, default_path
from tests.client.records import PLAYERS, keep

from .helpers import (
    from_server,
    ServerThread, play_to_the_end, practice, run_app, shown, start_practice, until,
)

CARLA = [{"seat": 0, "name": "Carla", "bot": None}, *PLAYERS[1:]]


def kept(path: str, games: int, carla: range = range(0)) -> None:
    """`games` finished games in the store at `path`; those numbered in `carla` (from 0)
    had Carla in Ana's seat."""
    store = Store(path)
    try:
        for n in range(games):
            keep(store, seed=n, players=CARLA if n in carla else PLAYERS)
    finally:
        store.close()


def listed(screen: GamesScreen) -> list[int]:
    """The game ids the list shows, top to bottom."""
    table = screen.query_one("#games")
    return [int(row.key.value) for row in table.ordered_rows]


def status(screen: GamesScreen) -> str:
    return shown(screen.query_one("#games-status")).strip()


async def games_screen(app, pilot) -> GamesScreen:
    return await until(pilot, lambda: isinstance(app.screen, GamesScreen)
                       and app.screen._asked is not None and app.screen.lines is not None
                       and "…" not in status(app.screen) and app.screen, "the list of games")


async def page_shows(pilot, screen: GamesScreen, first: int, count: int) -> None:
    await until(pilot, lambda: listed(screen)[:1] == [first] and len(listed(screen)) == count,
                f"a page of {count} games from game {first}")


async def filter_by(pilot, name: str) -> None:
    await pilot.press("f")
    await pilot.pause()
    await pilot.press("ctrl+u", *name, "enter")


def test_recent_games_pages_newest_first_filters_and_replays_from_the_file():
    """23 games in the player's file: g in the menu lists 20, newest first; n shows the
    last 3 and p the first page again; a filter by name (in any case) keeps that player's
    games; enter opens the game under the cursor in the replay, and esc comes back."""
    kept(default_path("play"), 23, carla=range(5, 8))

    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("g")
        screen = await games_screen(app, pilot)
        await page_shows(pilot, screen, 23, 20)
        assert listed(screen) == list(range(23, 3, -1))
        assert "n: older games" in status(screen)
        await pilot.press("n")
        await page_shows(pilot, screen, 3, 3)
        assert status(screen).startswith("Page 2") and "oldest" in status(screen)
        await pilot.press("n")  # no page after the last
        await pilot.pause(0.2)
        assert listed(screen) == [3, 2, 1]
        await pilot.press("p")
        await page_shows(pilot, screen, 23, 20)

        await filter_by(pilot, "carla")
        await page_shows(pilot, screen, 8, 3)
        assert listed(screen) == [8, 7, 6]
        assert status(screen) == "3 games of carla, newest first"  # one page: no "oldest"
        await pilot.press("down", "enter")
        replay = await until(pilot, lambda: isinstance(app.screen, ReplayScreen)
                             and app.screen, "the replay")
        assert replay.record["game"] == 7
        assert replay.record["players"][0]["name"] == "Carla"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the list again")
        await filter_by(pilot, "zed")
        await until(pilot, lambda: not listed(screen), "no game")
        assert status(screen) == "No finished games with a player named zed."
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu again")

    run_app(Launch(), body, size=(80, 24))


def test_recent_games_with_no_file_yet_says_no_games_in_portuguese():
    """A player who never finished a game has no file: that is no error, just no games."""
    set_language("pt_BR")

    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("g")
        screen = await games_screen(app, pilot)
        await until(pilot, lambda: "partida" in status(screen), "the empty list's line")
        assert status(screen) == "Nenhuma partida ainda: as partidas terminadas aparecem aqui."
        assert not notes_of(app)

    run_app(Launch(), body, size=(80, 24))


def notes_of(app) -> list[str]:
    return [n.message for n in app._notifications]


def test_the_lobby_lists_the_servers_games_and_replays_one_over_the_network(tmp_path):
    """A server that keeps records: g in its lobby lists its finished games (a page of 20
    and the cursor to the rest, filtered by the server), and enter fetches the record with
    get_game and opens the replay."""
    db = str(tmp_path / "server.db")
    kept(db, 22, carla=range(0, 2))
    # The games are kept as finished in March 2026: a server's retention would prune them.
    thread = ServerThread(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                       db=db, keep_guest_games=0)).start()
    try:
        async def body(app, pilot):
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await pilot.press("g")
            screen = await games_screen(app, pilot)
            await page_shows(pilot, screen, 22, 20)
            await pilot.press("n")
            await page_shows(pilot, screen, 2, 2)
            await filter_by(pilot, "CARLA")
            await page_shows(pilot, screen, 2, 2)
            await pilot.press("enter")
            replay = await until(pilot, lambda: isinstance(app.screen, ReplayScreen)
                                 and app.screen, "the replay")
            assert replay.record["game"] == 2
            await pilot.press("q")
            await until(pilot, lambda: app.screen is screen, "the list again")
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")

        run_app(Launch(mode="join", host="127.0.0.1", port=thread.port, name="Ana"), body,
                size=(80, 24))
    finally:
        thread.stop()


def test_the_results_open_the_replay_of_the_game_just_played():
    """`coup play` keeps its games in the player's file: at the end of a game, p on the
    results fetches its record from the embedded server and replays it, to the same
    winner."""
    async def body(app, pilot):
        await play_to_the_end(app, pilot)
        results = await until(pilot, lambda: isinstance(app.screen, ResultsScreen)
                              and app.screen, "the results")
        game = app.table.info["game"]
        assert results.query_one("#replay")
        await pilot.press("p")
        replay = await until(pilot, lambda: isinstance(app.screen, ReplayScreen)
                             and app.screen, "the replay")
        assert replay.record["game"] == game
        assert replay.record["result"]["winner"] == app.table.view.winner
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table again")

    run_app(practice(), body, size=(80, 24))


def test_a_paused_table_says_so_and_its_clocks_stand_still_until_play_goes_on():
    """The server cannot save the game: a banner says play is paused and the clock of the
    decision stops; when play goes on the banner goes and the clock runs from where it
    stood."""
    async def body(app, pilot):
        await start_practice(app, pilot)
        await until(pilot, lambda: app.table.deadlines, "a clock")
        table = app.table.table
        screen = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        banner = screen.query_one("#banner")
        assert not banner.display
        from_server(app, Paused(table=table, paused=True, message="disk full"))
        await until(pilot, lambda: banner.display, "the banner")
        assert "Play is paused: the server cannot save the game" in shown(banner)
        seat = next(iter(app.table.deadlines))
        stood = app.table.time_left(seat)
        await pilot.pause(0.3)
        assert app.table.time_left(seat) == stood
        resumed = time.monotonic()
        from_server(app, Paused(table=table, paused=False, message="Play goes on."))
        await until(pilot, lambda: not banner.display, "the banner gone")
        left, _total = app.table.time_left(seat)
        # The clock lost what ran since play went on (however busy the machine), not the
        # 0.3 s it stood still.
        assert stood[0] - (time.monotonic() - resumed) - 0.05 < left <= stood[0]

    run_app(practice(bots=2, response_clock=60, turn_clock=60, seed=5), body, size=(80, 24))


def long_game(seed: int = 1) -> tuple[Game, list]:
    """A ten-seat game of more than 1200 moves: every turn an Exchange that all let stand,
    until the random bots play it out. Its record is larger than 64 KiB."""
    game = Game.new(Options(players=10), seed)
    bots = [make("random", seed + s) for s in range(10)]
    moves = []
    while not game.over:
        seat = game.waiting[0]
        legal = game.legal_moves(seat)
        stalling = [mv for mv in legal if mv.kind in ("exchange", "pass", "keep")]
        mv = stalling[0] if stalling and len(moves) < 1300 else \
            bots[seat].choose(game.view(seat), legal)
        moves.append({"seat": seat, "move": mv.to_dict(), "state_id": game.state_id,
                      "ms": 100 * len(moves), "by": "player"})
        game.apply(seat, mv, game.state_id)
    return game, moves


def test_a_record_larger_than_64_kib_comes_whole(tmp_path):
    """get_game asks for frames up to 4 MiB, and the app's connection takes them: a long
    game's record, past the 64 KiB of every other message, opens in the replay."""
    db = str(tmp_path / "server.db")
    game, moves = long_game()
    players = [{"seat": s, "name": f"P{s}", "bot": None} for s in range(10)]
    store = Store(db)
    try:
        game_id = keep(store, seed=1, players=players, made=(game, moves))
        size = len(encode(GameRecord(re=1, record=store.record(game_id)), 2**24))
    finally:
        store.close()
    assert size > 64 * 1024
    thread = ServerThread(ServerConfig(port=0, db=db, keep_guest_games=0)).start()
    try:
        async def body(app, pilot):
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await pilot.press("g")
            screen = await games_screen(app, pilot)
            await page_shows(pilot, screen, game_id, 1)
            await pilot.press("enter")
            replay = await until(pilot, lambda: isinstance(app.screen, ReplayScreen)
                                 and app.screen, "the replay")
            assert len(replay.record["moves"]) == len(moves)
            assert app.connected

        run_app(Launch(mode="join", host="127.0.0.1", port=thread.port, name="Ana"), body,
                size=(80, 24))
    finally:
        thread.stop()
