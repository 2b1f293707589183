"""Snapshots (pytest-textual-snapshot) of the key screens — the menu, the lobby, the table in
play (a hand, four players, a response prompt), a dialog (the card to lose) and the results —
at 80×24 and 120×40, in English and in Brazilian Portuguese; a table after a challenge at
120×40, where the cards face up, the actions card and the latest claims show, in both; and
a first run's name question, a finished game's replay, the list of finished games and the
leaderboard at 80×24 in both; a replay with its review at 80×24 and 120×40 in both; a
Reformation table in play (factions, the Almshouse, Convert and Embezzle on the bar) at
80×24 and 120×40 in both, and its Steal picker with a target refused and why at 80×24 in
both.

No network and no clock: each app starts at the menu and is fed, in `run_before`, the
messages a server would send (Joined, TableInfo, Snapshot, Update, Tables, Chat), built from
engine games in fixed positions (`Game.arrange`) or played out from a seed, so that every
picture is the same on every run. Update them with `pytest --snapshot-update` and look at
the SVGs in __snapshots__/.
"""

from __future__ import annotations

import time

import pytest
from textual.widgets import Input

from client.i18n import set_language
from client.core import table as model
from client.tui.app import CoupApp, Launch
from client.tui.screens.dialogs import ChooseDialog
from client.tui.screens.history import GamesScreen
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.menu import MenuScreen, NameForm
from client.tui.screens.ratings import LeaderboardScreen
import client.tui.screens.replay as replay_screen
from client.tui.screens.replay import ReplayScreen
from client.tui.screens.results import ResultsScreen
from client.tui.screens.table import TableScreen
from client.tui.widgets.review import Progress
from engine import Game, Options, move, visible_to
from engine.bots import make
from engine.review import Budget
from engine.summary import summarize
from protocol import Chat, Games, Joined, Leaderboard, Snapshot, TableInfo, Tables, Update
from server.store import Store

from tests.client.records import keep, record

from .helpers import from_server, pretend_connected, until
from . import reformation

SIZES = [(80, 24), (120, 40)]
LANGUAGES = ["en", "pt_BR"]
TABLE = "f00d42"

PLAYERS = [
    {"seat": 0, "name": "Ana", "bot": None, "ready": True, "away": False},
    {"seat": 1, "name": "Bruno", "bot": None, "ready": True, "away": False},
    {"seat": 2, "name": None, "bot": "heuristic", "ready": True, "away": False},
    {"seat": 3, "name": "Carla", "bot": None, "ready": True, "away": True},
]


def info(status: str) -> dict:
    return {"table": TABLE, "name": "Friday night", "status": status, "seats": PLAYERS,
            "spectators": 1, "creator": "Ana", "creator_seat": 0,
            "options": {"seats": 4, "variant": "base", "two_player_draft": True,
                        "treasury": 50, "response_clock": 0, "turn_clock": 0,
                        "private": False, "on_disconnect": "bot", "name": "Friday night"}}


def position(coins: list[int]) -> Game:
    """Four players, one of them down to a card, Bruno (seat 1) to act."""
    return Game.arrange(Options(players=4), hands=[["duke", "captain"], ["assassin", "contessa"],
                                                   ["ambassador"], ["duke", "contessa"]],
                        revealed=[[], [], ["captain"], []], coins=coins, actor=1, seed=1)


def played(game: Game, seat: int, mv) -> Update:
    """The Update seat 0 receives for `mv`."""
    events = game.apply(seat, mv)
    return Update(table=TABLE, view=game.view(0).to_dict(), deadlines=[], reveal=None,
                  events=[e.to_dict() for e in visible_to(events, 0)])


def snapshot(game: Game) -> Snapshot:
    players = PLAYERS[:len(game.alive)]
    return Snapshot(table=TABLE, view=game.view(0).to_dict(), players=players, deadlines=[],
                    reveal=game.reveal().to_dict() if game.over else None,
                    summary=summarize(game) if game.over else None)


def at_table(game: Game, *moves) -> list:
    """What the server sends a player who sits down at `game`, and then sees `moves` made."""
    messages = [Joined(table=TABLE, seat=0, token="t" * 32), TableInfo(info=info("playing")),
                snapshot(game)]
    messages += [played(game, seat, mv) for seat, mv in moves]
    return messages


def in_play() -> list:
    """Bruno steals from Ana, who may challenge, and then block."""
    game = position([3, 4, 2, 5])
    return at_table(game, (1, move("steal", target=0)))


#: Bruno steals from Ana as a Captain he lacks (R4.6); Ana challenges, he concedes (R6.4)
#: and turns his Assassin face up; then Bot 3 claims the Duke for Tax, which Ana may
#: challenge.
CAUGHT = [(1, move("steal", target=0)), (0, move("challenge")), (1, move("concede")),
          (1, move("lose", card="assassin")), (2, move("tax"))]


def caught(upto: int = len(CAUGHT)) -> list:
    """The four players of `in_play`, then the first `upto` moves of CAUGHT."""
    return at_table(position([3, 4, 2, 5]), *CAUGHT[:upto])


def losing() -> list:
    """Bruno coups Ana, who chooses the card she loses."""
    game = position([3, 7, 2, 5])
    return at_table(game, (1, move("coup", target=0)))


def finished() -> list:
    """A three-player game played out by seeded bots, with its summary (who went out
    first, each seat's claims, bluffs and challenges)."""
    game = Game.new(Options(players=3), seed=5)
    bots = [make("random", seed) for seed in range(3)]
    while not game.over:
        seat = game.waiting[0]
        game.apply(seat, bots[seat].choose(game.view(seat), game.legal_moves(seat)))
    return [Joined(table=TABLE, seat=0, token="t" * 32), TableInfo(info=info("over")),
            snapshot(game)]


def lobby() -> list:
    other = dict(info("waiting"), table="beef01", name="Bruno's den", status="waiting",
                 seats=[dict(PLAYERS[1], seat=0), {"seat": 1, "name": None, "bot": None,
                                                  "ready": False, "away": False}])
    other["options"] = dict(other["options"], seats=2, variant="inquisitor",
                            response_clock=20, turn_clock=60)
    return [Tables(tables=[other, info("playing")]),
            Chat(scope="lobby", name="Bruno", text="anyone for a duel?"),
            Chat(scope="lobby", name="Carla", text="in five minutes")]


#: screen → (the messages that bring it, the screen it ends on)
SCREENS = {
    "menu": (list, MenuScreen),
    "lobby": (lobby, LobbyScreen),
    "table": (in_play, TableScreen),
    "dialog": (losing, ChooseDialog),
    "results": (finished, ResultsScreen),
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("screen", list(SCREENS))
def test_screen(snap_compare, monkeypatch, screen, lang, size):
    set_language(lang)
    # The last action's seats stay lit for the whole test (a slow run could see them go out).
    monkeypatch.setattr(model, "SPOTLIGHT", 3600.0)
    messages, kind = SCREENS[screen]
    app = CoupApp(Launch(name="Ana"))

    async def run_before(pilot):
        pretend_connected(app)
        if screen == "lobby":
            app.switch_to(LobbyScreen())
        for msg in messages():
            from_server(app, msg)
        await until(pilot, lambda: isinstance(app.screen, kind), kind.__name__)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tall_table(snap_compare, monkeypatch, lang):
    """The table at 120×40 after Bruno's caught Steal and Bot 3's Tax: under the players
    each seat's latest claims (Bruno's conceded), then the cards face up (an Assassin and a
    Captain), the base game's actions card and the hand."""
    set_language(lang)
    monkeypatch.setattr(model, "SPOTLIGHT", 3600.0)
    app = CoupApp(Launch(name="Ana"))

    async def run_before(pilot):
        pretend_connected(app)
        for msg in caught():
            from_server(app, msg)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.view
                    and app.table.view.phase == "respond", "the Tax to answer")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_reformation_table(snap_compare, monkeypatch, lang, size):
    """A Reformation table (R12) after Ana converted herself and the others took Income:
    each seat's faction by mark and word, the Almshouse beside the treasury, the divided
    table in the players' title, Convert and Embezzle on the bar (and, at 120×40, on the
    actions card), the Conversion in the log."""
    set_language(lang)
    monkeypatch.setattr(model, "SPOTLIGHT", 3600.0)
    app = CoupApp(Launch(name="Ana"))

    async def run_before(pilot):
        pretend_connected(app)
        for msg in reformation.a_round():
            from_server(app, msg)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.view
                    and app.table.view.phase == "action"
                    and app.table.view.actor == 0, "Ana's turn again")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_reformation_picker(snap_compare, lang):
    """Ana (Reformist) on a divided table presses s: Bruno and Carla (Loyalist) are offered,
    Bot 3 (Reformist) is listed greyed with R12.6's reason under it."""
    set_language(lang)
    app = CoupApp(Launch(name="Ana"))

    async def run_before(pilot):
        pretend_connected(app)
        for msg in reformation.seated(reformation.position()):
            from_server(app, msg)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.view,
                    "Ana's turn")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, ChooseDialog), "the picker")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_first_run_name(snap_compare, lang):
    """A first run's question at 80×24, over the menu: the name to play under, the default
    offered, and what keeping it means."""
    set_language(lang)
    app = CoupApp(Launch(name="player", ask_name=True))

    async def run_before(pilot):
        await until(pilot, lambda: isinstance(app.screen, NameForm), "NameForm")
        # The name's input has the focus: its cursor blinks, and the picture would catch it
        # shown or hidden as the machine's load has it. A steady cursor is always shown.
        app.screen.query_one(Input).cursor_blink = False
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_replay(snap_compare, lang):
    """A finished game's replay at 80×24, nine moves in, as Ana saw it: her cards named,
    the others' face down, the log of those moves, the step and the turn."""
    set_language(lang)
    app = CoupApp(Launch("replay", record=record()))

    async def run_before(pilot):
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "ReplayScreen")
        await pilot.press(*["right"] * 9, "v")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_replay_review(snap_compare, monkeypatch, lang, size):
    """The replay as Ana saw it with her review done (the real search, at the quick budget)
    and the first marked decision after the deal shown: beside the board, its options with
    their chances, the marked decisions, and her game in numbers; at 80×24 in the log's
    place, at 120×40 beside it."""
    set_language(lang)
    monkeypatch.setattr(replay_screen, "BUDGET", Budget.QUICK)
    app = CoupApp(Launch("replay", record=record(), view_as=0))

    async def run_before(pilot):
        screen = await until(pilot, lambda: isinstance(app.screen, ReplayScreen)
                             and app.screen, "ReplayScreen")
        await pilot.press("r")
        await until(pilot, lambda: screen.review.progress is Progress.DONE, "the review")
        await pilot.press("n")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_games_list(snap_compare, monkeypatch, tmp_path, lang):
    """The lobby's list of finished games at 80×24: a page of twenty, newest first, with a
    next page to come, its times in this computer's zone (UTC here)."""
    set_language(lang)
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    store = Store(str(tmp_path / "coup.db"))
    for seed in range(21):
        keep(store, seed=seed)
    lines = store.finished(limit=20)
    store.close()
    app = CoupApp(Launch(name="Ana"))

    async def run_before(pilot):
        pretend_connected(app)
        app.server_games()
        screen = await until(pilot, lambda: isinstance(app.screen, GamesScreen)
                             and app.screen._asked is not None and app.screen,
                             "GamesScreen")
        from_server(app, Games(re=screen._asked, games=lines, next=2))
        await until(pilot, lambda: screen.lines, "the page")
        await pilot.pause()

    try:
        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
    finally:
        monkeypatch.undo()
        time.tzset()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_leaderboard(snap_compare, lang):
    """The server's leaderboard at 80×24: the first page of twenty, people and bots (marked
    as bots), best ordinal first, with a next page to come."""
    set_language(lang)
    players = [{"player": f"bot:s{n}" if n % 3 else f"key:{n:064x}",
                "name": f"s{n}" if n % 3 else f"Player {n}", "rank": n + 1,
                "ordinal": round(20 - 1.5 * n, 3), "mu": round(30 - n, 3),
                "sigma": round(3.3 + n / 6, 3), "games": 40 - n, "wins": (40 - n) // (2 + n % 3)}
               for n in range(20)]
    app = CoupApp(Launch(name="Ana"))

    async def run_before(pilot):
        pretend_connected(app)
        app.leaderboard()
        screen = await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen)
                             and app.screen._asked is not None and app.screen,
                             "LeaderboardScreen")
        from_server(app, Leaderboard(re=screen._asked, players=players, next=20))
        await until(pilot, lambda: screen.lines, "the page")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
