"""Words from the network show as they are, never as markup: a server's, a table's or a
player's name, a chat line, an error code or a goodbye's reason written as Textual or Rich
markup appears literally wherever the client shows it — toasts, the lobby's header, list and
chat, the players, the log, the choices of a dialog, the leaderboard and a player's profile,
a screen's own notices (defect 5 of issue 11: an unknown error code was shown in a toast that
parsed it; a profile's games parsed the players' names). A name typed as the games list's
filter shows as typed too.

The strings are the kinds that slip through a partial escape: tags, links, actions, Textual
variables, capitals and spaces inside the brackets, a trailing backslash.
"""

from __future__ import annotations

from textual.widgets import DataTable, RichLog

from client.tui.app import Launch
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.menu import MenuScreen
from client.tui.screens.ratings import ProfileScreen
from client.tui.screens.table import TableScreen
from engine import move
from protocol import Bye, Error, MoveRejected, Say
from server import ServerConfig, Store
from server.changes import IdentitySeen

from .helpers import (
    from_server,
    ServerThread,
    create_table,
    duel,
    log_lines,
    my_turn,
    new_id,
    peer_plays,
    run_app,
    shown,
    until,
)
from .test_games import filter_by, games_screen, status
from .test_ratings import join, leaderboard, ranked, rated_game

#: Markup, each short enough for a name (32 characters).
NAME = "[bold red]B[/] [$accent]runo"
TABLE = "[link='http://e.vil']M[/link]"
SERVER = "[$accent]Coup[/] [ B]x[/ B]"
CHAT = "[@click=app.quit]hi[/] [on red]you\\"
CODE = "[reverse]no_such_code"
REASON = "[blink]gone[/blink]"
#: Rated players: a closing tag alone (Rich refuses it as markup), and a bold one.
RATED = ("[/x]", "[b]bold[/b]")


def flat(text: str) -> str:
    """Text as one line of single spaces, however it was wrapped or padded on screen."""
    return " ".join(text.split())


def toasts(app) -> list[str]:
    """The notices on screen as they read, each once it is laid out (Toast is not exported:
    found by its name)."""
    return [flat(shown(toast)) for toast in app.screen.query("Toast") if toast.region]


def test_codes_and_reasons_the_client_has_no_words_for_show_as_sent():
    async def body(app, pilot):
        for msg in (Error(code=CODE, message="?"),
                    MoveRejected(re=1, code=CODE + "2", message="?", state_id=1),
                    Bye(reason=REASON, message=None)):
            from_server(app, msg)
        said = " ".join(await until(pilot, lambda: len(toasts(app)) == 3 and toasts(app),
                                    "the three notices on screen"))
        assert CODE in said and CODE + "2" in said and REASON in said

    run_app(Launch(), body, notifications=True)


def test_the_lobby_shows_names_tables_and_chat_as_sent():
    server = ServerThread(ServerConfig(port=0, bot_delay=0, name=SERVER)).start()

    async def body(app, pilot):
        bruno = await server.peer(NAME)
        table = (await server.run(create_table, bruno, seats=3, name=TABLE)).table
        await server.run(bruno.send, Say(id=new_id(), text=CHAT, scope="lobby"))
        lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen,
                            "the lobby")
        grid = lobby.query_one(DataTable)
        await until(pilot, lambda: grid.row_count, "Bruno's table")
        header = lobby.query_one("#lobby-header")
        await until(pilot, lambda: SERVER in shown(header), "the server's name")
        name, players, *_rest = (cell.plain for cell in grid.get_row(table))
        assert name == TABLE and players.startswith("1/3 [bold red]B[/]")  # (cut to fit)
        chat = lobby.query_one("#chat-log", RichLog)
        await until(pilot, lambda: CHAT in flat(" ".join(log_lines(chat))), "Bruno's line")

    try:
        run_app(Launch(mode="join", port=server.port, name="Ana"), body, size=(140, 30))
    finally:
        server.stop()


def test_the_table_shows_players_names_and_chat_as_sent(server):
    async def body(app, pilot):
        bruno = await duel(app, pilot, server, rival=NAME, two_player_draft=False)
        await server.run(bruno.send, Say(id=new_id(), text=CHAT, scope="table"))
        table = app.screen
        assert isinstance(table, TableScreen)
        players = table.query_one("#players")
        await until(pilot, lambda: NAME in shown(players), "Bruno in the players")
        log = table.query_one("#log", RichLog)
        await until(pilot, lambda: CHAT in flat(" ".join(log_lines(log))), "Bruno's line")
        view = await until(pilot, lambda: app.table.view.phase == "action" and app.table.view,
                           "the first turn")
        if view.actor != app.table.seat:
            await server.run(peer_plays, bruno, view.state_id, lambda v: move("income"))
        await my_turn(app, pilot)
        named = flat(" ".join(log_lines(log))).count(NAME)
        await pilot.press("s")  # Steal from Bruno, the one possible target
        await until(pilot, lambda: flat(" ".join(log_lines(log))).count(NAME) > named,
                    "the steal from Bruno in the log")
        await server.run(bruno.aclose)
        await until(pilot, lambda: f"{NAME} lost the connection" in flat(" ".join(
            log_lines(log))), "the line about Bruno's drop")

    run_app(Launch(mode="join", port=server.port, name="Ana"), body, size=(120, 40))


def test_a_screens_own_notices_show_as_sent():
    async def body(app, pilot):
        await until(pilot, lambda: app.screen.is_mounted, "the menu")
        app.screen.notify(CODE)
        said = await until(pilot, lambda: toasts(app), "the notice on screen")
        assert len(said) == 1 and CODE in said[0]

    run_app(Launch(), body, notifications=True)


def test_the_leaderboard_and_a_profile_show_players_names_as_sent(tmp_path):
    """Two rated players named in markup: the leaderboard lists them, and the profile of the
    first shows its name and its game (the players, the winner) as they were sent."""
    db = str(tmp_path / "server.db")
    store = Store(db)
    try:
        players = [(f"key:k{n}", name) for n, name in enumerate(RATED)]
        store.write([IdentitySeen(player[4:], name, 0.0, 0.0) for player, name in players])
        rated_game(store, players, seed=1)
    finally:
        store.close()
    thread = ServerThread(ServerConfig(port=0, bot_delay=0, db=db, provisional_games=0)).start()
    try:
        async def body(app, pilot):
            screen = await leaderboard(app, pilot)
            assert {row[1] for row in ranked(screen)} == set(RATED)
            # The rows are in the table before it has drawn them: wait for the drawing.
            await until(pilot, lambda: all(name in flat(shown(screen.query_one("#ranked")))
                                           for name in RATED), "every name drawn")
            first = ranked(screen)[0][1]
            await pilot.press("enter")
            profile = await until(pilot, lambda: isinstance(app.screen, ProfileScreen)
                                  and app.screen, "the first player's profile")
            assert shown(profile.query_one("#profile-header")).strip() == first
            games = profile.query_one("#profile-games")
            assert games.row_count == 1
            await until(pilot, lambda: all(name in flat(shown(games)) for name in RATED),
                        "the game's players drawn")

        run_app(join(thread, None), body, size=(100, 30))
    finally:
        thread.stop()


def test_a_filter_by_a_name_in_markup_is_shown_as_typed():
    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("g")
        screen = await games_screen(app, pilot)
        await filter_by(pilot, RATED[0])
        said = await until(pilot, lambda: screen.player and "…" not in status(screen)
                           and status(screen), "the filtered list's line")
        assert said == f"No finished games with a player named {RATED[0]}."

    run_app(Launch(), body, size=(80, 24))
