"""The table on a tall terminal (issue 30, item 7): at 120x40 the left column's spare rows
show the cards face up per character, the actions card of the table's variant, and under
each seat its latest claims; at 80x24 and 100x30 none of them takes a row from the
players, the hand or the log. The app is fed what a server would send (as the snapshots
are), so that every position is exact.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from textual.pilot import Pilot

from client.i18n import set_language
from client.tui.app import CoupApp, Launch
from client.tui.screens.rules import RulesScreen
from client.tui.screens.table import TableScreen
from engine import Game, Options
from protocol import Joined, Snapshot, TableInfo

from . import test_snapshots as snapshots
from .helpers import from_server, pretend_connected, shown, until
from .test_widgets import card_lines

Body = Callable[[CoupApp, Pilot[None]], Awaitable[None]]


def at_table(messages: list, body: Body, size: tuple[int, int]) -> None:
    """Run `body` once the app, sized `size`, shows the table `messages` bring, and has
    taken every view they hold."""
    app = CoupApp(Launch(name="Ana"))
    last = messages[-1].view["state_id"]

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            pretend_connected(app)
            for msg in messages:
                from_server(app, msg)
            await until(pilot, lambda: isinstance(app.screen, TableScreen)
                        and app.table.view is not None and app.table.view.state_id == last,
                        "the table's last view")
            await body(app, pilot)

    asyncio.run(main())


def seated(game: Game, variant: str = "base") -> list:
    """What a player who sits at seat 0 of `game` receives (its seats named, the others
    bots)."""
    seats = [*snapshots.PLAYERS, *({"seat": n, "name": None, "bot": "random", "ready": True,
                                    "away": False} for n in range(4, len(game.alive)))]
    seats = seats[:len(game.alive)]
    info = snapshots.info("playing")
    info = dict(info, seats=seats, options=dict(info["options"], seats=len(seats),
                                                variant=variant))
    return [Joined(table=snapshots.TABLE, seat=0, token="t" * 32), TableInfo(info=info),
            Snapshot(table=snapshots.TABLE, view=game.view(0).to_dict(), players=seats,
                     deadlines=[])]


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_at_120x40_the_cards_face_up_and_the_latest_claims_follow_the_game(lang):
    """R1.1, R6.4, R2.1 (snapshots.CAUGHT): before the challenge one Captain is face up
    (Bot 3's) and no Assassin; once Bruno concedes and turns his Assassin face up, one of each; under Bruno
    his caught Steal, under Bot 3 its Tax; the actions card is the base game's."""
    set_language(lang)
    words = {"en": ("Captain 1 of 3", "Assassin 0 of 3", "Assassin 1 of 3",
                    "last: Steal from Ana (Captain, conceded)", "last: Tax (Duke)",
                    "Steal – Captain Captain, Ambassador"),
             "pt_BR": ("Capitão 1 de 3", "Assassino 0 de 3", "Assassino 1 de 3",
                       "últimas: Extorquir Ana (Capitão, retirada)", "últimas: Taxar (Duque)",
                       "Extorquir – Capitão Capitão, Embaixador")}[lang]
    one_captain, no_assassin, one_assassin, bruno_last, bot_last, steal_row = words

    async def before(app: CoupApp, pilot: Pilot[None]) -> None:
        face_up = app.screen.query_one("#face-up")
        assert face_up.display and one_captain in shown(face_up)
        assert no_assassin in shown(face_up)
        assert steal_row in card_lines(app.screen.query_one("#actions-card"))

    async def after(app: CoupApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        text = shown(screen.query_one("#face-up"))
        assert one_captain in text and one_assassin in text
        players = shown(screen.query_one("#players")).splitlines()
        bruno = next(n for n, line in enumerate(players) if "Bruno" in line and "¢" in line)
        bot = next(n for n, line in enumerate(players) if "Bot 3" in line and "¢" in line)
        assert bruno_last in players[bruno + 2]  # under the seat's claims counted
        assert bot_last in players[bot + 2]
        # Nothing of the left column is hidden: the hand is whole under the cards.
        hand = screen.query_one("#hand")
        assert screen.query_one("#table-left").content_region.contains_region(hand.region)

    at_table(snapshots.caught(1), before, (120, 40))
    at_table(snapshots.caught(), after, (120, 40))


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_on_a_smaller_terminal_the_players_and_the_hand_keep_their_rows(size):
    """At 80x24 and 100x30 neither card shows and the players panel has every row over the
    hand that it had before them; at 80x24 the latest claims do not show either, while the
    counts do."""
    async def body(app: CoupApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert not screen.query_one("#face-up").display
        assert not screen.query_one("#actions-card").display
        left = screen.query_one("#table-left").content_region
        players, hand = screen.query_one("#players").region, screen.query_one("#hand").region
        assert players.height + hand.height == left.height
        text = shown(screen.query_one("#players"))
        assert "claimed: Captain" in text
        if size == (80, 24):
            assert "last:" not in text

    at_table(snapshots.caught(), body, size)


def test_the_cards_are_the_variant_s_and_the_table_size_s():
    """R1.2, R1.3: at seven seats of the Inquisitor variant every character has 4 copies,
    the Inquisitor's among them and no Ambassador; the card is the Inquisitor's (Exchange
    and Examine, its block of Steal). A crowded table's players need the actions card's
    rows: it gives way, and `?` still shows the card."""
    game = Game.arrange(Options(players=7, variant="inquisitor"),
                        hands=[["duke", "captain"], ["assassin", "contessa"]] * 3
                        + [["inquisitor"]], revealed=[[]] * 6 + [["inquisitor"]], actor=0)
    duel = Game.arrange(Options(players=2, variant="inquisitor", two_player_draft=False),
                        hands=[["duke", "captain"], ["inquisitor", "contessa"]], actor=0)

    async def crowded(app: CoupApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        face_up = shown(screen.query_one("#face-up"))
        assert "Inquisitor 1 of 4" in face_up and "Duke 0 of 4" in face_up
        assert "Ambassador" not in face_up
        assert not screen.query_one("#actions-card").display
        await pilot.press("question_mark")
        rules = await until(pilot, lambda: isinstance(app.screen, RulesScreen) and app.screen,
                            "the rules card")
        assert "Examine" in shown(rules.query_one("#rules-actions"))

    async def two(app: CoupApp, pilot: Pilot[None]) -> None:
        lines = card_lines(app.screen.query_one("#actions-card"))
        assert "Exchange – Inquisitor –" in lines and "Examine – Inquisitor –" in lines
        assert "Steal – Captain Captain, Inquisitor" in lines
        assert "Inquisitor 0 of 3" in shown(app.screen.query_one("#face-up"))

    at_table(seated(game, "inquisitor"), crowded, (120, 40))
    at_table(seated(duel, "inquisitor"), two, (120, 40))
