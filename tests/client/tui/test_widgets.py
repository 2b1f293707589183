"""The table's widgets alone: each mounted in a tiny app of its own, given a state, drawing it.
No server and no CoupApp: what a widget shows depends only on what it is given (and, for the
clocks, on time).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button

from client.core.table import Claim, Outcome, Pending, TableState
from client.i18n import set_language
from client.tui.widgets.actions import ActionBar, Item
from client.tui.widgets.decision import DecisionPanel
from client.tui.widgets.faceup import FaceUpPanel
from client.tui.widgets.hand import HandPanel
from client.tui.widgets.log import TableLog, WrappingLog
from client.tui.widgets.players import PlayersPanel, next_tick
from client.tui.widgets.reference import ActionsCard
from engine import Event, Game, Options, move

from .helpers import log_lines, shown, until

PLAYERS = [{"seat": 0, "name": "Ana"}, {"seat": 1, "name": "Bruno", "bot": None}]


class Alone(App[None]):
    """One widget, on its own, filling the screen."""

    def __init__(self, widget: Widget) -> None:
        super().__init__()
        self.widget = widget

    def compose(self) -> ComposeResult:
        yield self.widget


def run_alone(widget: Widget, body: Callable[[Pilot[None]], Awaitable[None]],
              size: tuple[int, int] = (80, 12)) -> None:
    async def main() -> None:
        async with Alone(widget).run_test(size=size) as pilot:
            await body(pilot)

    asyncio.run(main())


def duel(seat: int | None = 0, **position: list[Any]) -> TableState:
    """Ana (seat 0) against Bruno, Ana's turn, seen from `seat`: Duke and Captain against
    Contessa and Assassin unless `position` says otherwise."""
    values: dict[str, Any] = {"hands": [["duke", "captain"], ["contessa", "assassin"]]}
    values.update(position)
    state = TableState("t1", seat, players=[dict(p) for p in PLAYERS])
    state.view = Game.arrange(**values).view(seat)
    return state


def waiting_room(seated: list[dict[str, Any]], me: int = 0, creator: int = 0) -> TableState:
    return TableState("t1", me, info={"table": "t1", "seats": seated, "creator_seat": creator,
                                      "options": {}})


def test_the_players_panel_draws_each_seat_of_the_state_it_is_given() -> None:
    """Names, you, coins, face-down cards, whose turn it is, and the claims made; a face-up
    card struck out and `out` for an exiled seat (R2.1)."""
    state = duel(coins=[3, 5])
    state.claims = {1: {"duke": 2}}
    panel = PlayersPanel()

    async def body(pilot: Pilot[None]) -> None:
        panel.state = state
        await pilot.pause()
        text = shown(panel)
        assert "▶ Ana (you)" in text
        assert "3¢" in text and "5¢" in text
        assert text.count("▮ ▮") == 2
        assert "claimed: Duke ×2" in text
        assert "Treasury" in str(panel.border_subtitle)

        exiled = duel(hands=[["duke", "captain"], []], revealed=[[], ["contessa", "assassin"]])
        panel.state = exiled
        await pilot.pause()
        text = shown(panel)
        assert "out" in text and "Contessa" in text

    run_alone(panel, body)


def test_the_players_panel_lists_a_seat_s_latest_claims_where_it_has_room() -> None:
    """Under a seat's claims counted, its latest claims, newest first, with how a challenge
    of each ended (R6.3, R6.4), in both languages; where every seat has no room for that
    line (and air between seats), no seat has it, and the counts stay."""
    state = duel()
    state.claims = {1: {"duke": 1, "captain": 1}, 0: {"contessa": 1}}
    state.recent = {1: [Claim("captain", "steal", 0, Outcome.PROVED), Claim("duke", "tax", None)],
                    0: [Claim("contessa", None, 1, Outcome.CONCEDED)]}
    panel = PlayersPanel()
    panel.styles.height = "1fr"  # as in the table's left column

    async def body(pilot: Pilot[None]) -> None:
        panel.state = state
        await pilot.pause()
        lines = shown(panel).splitlines()
        bruno = next(n for n, line in enumerate(lines) if "Bruno" in line and "¢" in line)
        assert "claimed: Duke, Captain" in lines[bruno + 1]
        assert "last: Steal from Ana (Captain, proved) · Tax (Duke)" in lines[bruno + 2]
        assert "last: Block Bruno (Contessa, conceded)" in shown(panel)
        set_language("pt_BR")
        panel.state = state
        await pilot.pause()
        assert "últimas: Extorquir Ana (Capitão, provada) · Taxar (Duque)" in shown(panel)
        set_language("en")
        await pilot.resize_terminal(80, 7)  # five rows inside the border: the counts only
        panel.state = state
        await pilot.pause()
        assert "claimed: Duke, Captain" in shown(panel) and "last:" not in shown(panel)

    run_alone(panel, body)


def test_the_players_panel_counts_down_by_itself_and_rests_while_nothing_ticks() -> None:
    """A clock on the seat the table waits for shows its seconds, which go down with no new
    state; with no clock and no spotlight the panel is not drawn again at all."""
    state = duel()
    state.deadlines = {0: (time.monotonic() + 2.5, 20.0)}
    panel = PlayersPanel()

    async def body(pilot: Pilot[None]) -> None:
        panel.state = state
        await pilot.pause()
        assert "⏱ 3s" in shown(panel)
        await until(pilot, lambda: "⏱ 2s" in shown(panel), "the next second")

        state.deadlines = {}
        panel.state = state
        assert next_tick(state) is None
        draws = []
        panel.update = lambda *content: draws.append(content)  # type: ignore[method-assign]
        await pilot.pause(0.7)  # longer than the half second the panel used to redraw at
        assert draws == []

    run_alone(panel, body)


def test_next_tick_is_the_next_second_shown_or_the_spotlight_s_end() -> None:
    state = duel()
    now = time.monotonic()
    state.deadlines = {0: (now + 2.25, 20.0), 1: (now + 0.5, 20.0)}
    # Seat 1 owes nothing now: its clock is not shown, and does not tick the panel.
    assert 0.2 < (next_tick(state) or 0) <= 0.25
    state.spotlight = (1, 0, time.monotonic() + 0.1)
    assert 0 < (next_tick(state) or 0) <= 0.1
    state.spotlight = None
    state.paused_at = time.monotonic()  # play paused: the clocks stand still
    assert next_tick(state) is None


def test_the_face_up_panel_counts_each_character_of_the_deck_in_play() -> None:
    """R1.1: 3 copies of each character at 2–6 players, and a face-up card counts against
    its character; R1.2: 4 copies at 7–8; R1.3: the Inquisitor replaces the Ambassador. A
    card in a hand, ours included, is never counted. In both languages."""
    panel = FaceUpPanel()

    async def body(pilot: Pilot[None]) -> None:
        panel.state = duel(hands=[["duke", "captain"], ["contessa"]], revealed=[[], ["captain"]])
        await pilot.pause()
        text = shown(panel)
        assert panel.border_title == "Face up"
        for item in ("Duke 0 of 3", "Assassin 0 of 3", "Captain 1 of 3", "Ambassador 0 of 3",
                     "Contessa 0 of 3"):
            assert item in text
        assert "Inquisitor" not in text
        state = TableState("t1", 0)
        state.view = Game.arrange(Options(players=7, variant="inquisitor"),
                                  hands=[["duke", "captain"], ["assassin", "contessa"]] * 3
                                  + [["inquisitor"]],
                                  revealed=[[]] * 6 + [["inquisitor"]]).view(0)
        panel.state = state
        await pilot.pause()
        assert "Inquisitor 1 of 4" in shown(panel) and "Ambassador" not in shown(panel)
        set_language("pt_BR")
        panel.state = state
        await pilot.pause()
        assert "Inquisidor 1 de 4" in shown(panel)

    run_alone(panel, body, size=(60, 6))


def card_lines(card: ActionsCard) -> list[str]:
    """The actions card's lines under its heading, their runs of spaces made one."""
    return [" ".join(line.strip("│").split()) for line in shown(card).splitlines()[2:-1]]


def test_the_actions_card_says_each_action_s_cost_claim_and_blockers() -> None:
    """R4 and R7 as the engine plays them: Coup costs 7, Assassinate 3 and is blocked by the
    Contessa, Steal by the Captain and the Ambassador, Foreign Aid by the Duke; in the
    Inquisitor variant (R1.3) the Inquisitor claims Exchange and Examine and blocks Steal.
    In both languages."""
    card = ActionsCard()

    async def body(pilot: Pilot[None]) -> None:
        card.state = duel()
        await pilot.pause()
        assert card.border_title == "Actions"
        assert card_lines(card) == ["Income – – –", "Foreign Aid – – Duke", "Coup 7¢ – –",
                                    "Tax – Duke –", "Assassinate 3¢ Assassin Contessa",
                                    "Steal – Captain Captain, Ambassador",
                                    "Exchange – Ambassador –"]
        state = TableState("t1", 0)
        state.view = Game.arrange(Options(players=2, variant="inquisitor"),
                                  hands=[["duke"], ["inquisitor"]]).view(0)
        card.state = state
        await pilot.pause()
        lines = card_lines(card)
        assert "Exchange – Inquisitor –" in lines and "Examine – Inquisitor –" in lines
        assert "Steal – Captain Captain, Inquisitor" in lines
        assert "Ambassador" not in shown(card)
        set_language("pt_BR")
        card.state = state
        await pilot.pause()
        assert "Extorquir – Capitão Capitão, Inquisidor" in card_lines(card)

    run_alone(card, body, size=(60, 14))


def test_the_hand_shows_your_cards_and_a_spectator_none() -> None:
    panel = HandPanel()

    async def body(pilot: Pilot[None]) -> None:
        panel.state = duel(0)
        await pilot.pause()
        assert "Duke" in shown(panel) and "Captain" in shown(panel)
        assert panel.border_title == "Your hand"
        panel.state = duel(None)
        await pilot.pause()
        assert "You see the public table only." in shown(panel)
        assert panel.border_title == "Spectating"
        assert "Duke" not in shown(panel)

    run_alone(panel, body, size=(60, 3))


def test_the_decision_panel_says_what_is_asked_and_counts_down_the_clock() -> None:
    """Before the game: the seats taken, then the creator's start; in it: the prompt, the
    move sent while it is pending, and a countdown only while a clock runs."""
    panel = DecisionPanel()

    async def body(pilot: Pilot[None]) -> None:
        def prompt() -> str:
            return shown(panel.query_one("#prompt"))

        countdown = panel.query_one("#countdown")
        panel.state = waiting_room([{"seat": 0, "name": "Ana"}, {"seat": 1, "name": None}])
        await pilot.pause()
        assert "Waiting for players: 1 of 2 seats taken" in prompt()
        assert not countdown.display
        panel.state = waiting_room([{"seat": 0, "name": "Ana"}, {"seat": 1, "name": "Bo"}])
        await pilot.pause()
        assert "Press s to start the game" in prompt()

        state = duel()
        panel.state = state
        await pilot.pause()
        assert "Your turn" in prompt()
        assert not countdown.display
        state.pending = Pending(7, move("income"))
        state.deadlines = {0: (time.monotonic() + 9.5, 20.0)}
        panel.state = state
        await pilot.pause()
        assert "Sending: Income" in prompt()
        assert countdown.display
        assert "⏱ 10s" in shown(panel.query_one("#seconds"))
        await until(pilot, lambda: "⏱ 9s" in shown(panel.query_one("#seconds")),
                    "the countdown moving on its own")

    run_alone(panel, body, size=(80, 3))


def test_the_action_bar_runs_an_item_by_its_key_or_a_click_unless_disabled() -> None:
    ran: list[str] = []
    bar = ActionBar()

    async def body(pilot: Pilot[None]) -> None:
        bar.items = (Item("i", "Income", lambda: ran.append("income")),
                     Item("f", "Foreign aid", lambda: ran.append("aid")),
                     Item("enter", "Choose…", lambda: ran.append("choose")))
        await pilot.pause()
        labels = [str(b.label) for b in bar.query(Button)]
        assert labels == ["i Income", "f Foreign aid", "⏎ Choose…"]
        assert bar.press("f")
        assert not bar.press("x")
        await pilot.click(Button, offset=(2, 0))
        assert ran == ["aid", "income"]
        bar.disabled = True
        assert not bar.press("i")
        assert ran == ["aid", "income"]

    run_alone(bar, body, size=(80, 3))


def test_the_action_bar_keeps_labels_whole_four_to_a_row_at_the_least() -> None:
    """Eight actions in 80 columns: at least four to a row, every label whole; in 200
    columns, all in one row."""
    items = tuple(Item(k, f"Action number {n}", lambda: None)
                  for n, k in enumerate("abcdefgh"))
    for width, rows in ((80, 2), (200, 1)):
        bar = ActionBar()

        async def body(pilot: Pilot[None], bar: ActionBar = bar, rows: int = rows) -> None:
            bar.items = items
            await pilot.pause()
            buttons = list(bar.query(Button))
            assert len({b.region.y for b in buttons}) == rows
            assert all(len(str(b.label)) <= b.region.width for b in buttons)

        run_alone(bar, body, size=(width, 4))


def test_the_log_wraps_its_lines_again_at_a_new_width() -> None:
    """Lines written at 40 columns, read at 100: each long line takes fewer rows, no word is
    cut, and the log stays at its end."""
    log = WrappingLog(max_lines=100)
    words = " ".join(f"word{i}" for i in range(30))

    async def body(pilot: Pilot[None]) -> None:
        for _ in range(5):
            log.write(Text(words))
        await pilot.pause()
        narrow = len(log.lines)
        await pilot.resize_terminal(100, 12)
        await until(pilot, lambda: len(log.lines) < narrow, "the lines rewrapped")
        assert " ".join(log_lines(log)).split() == words.split() * 5
        assert log.is_vertical_scroll_end

    run_alone(log, body, size=(40, 12))


def test_the_table_log_tells_the_events_it_is_given_and_who_came_went_or_spoke() -> None:
    """A view's events in sentences (the turn's start dim, not its own line), a snapshot's
    earlier events under a heading, a new game with no events announced, presence and chat;
    the names come from the function it is given."""
    log = TableLog(max_lines=100)

    def names(seat: int | None) -> str:
        return {0: "Ana", 1: "Bruno"}.get(seat or 0, "?")

    async def body(pilot: Pilot[None]) -> None:
        log.tell([Event("challenge", seat=1, target=0, card="duke")], names, 0)
        log.tell([Event("pass", seat=1)], names, 0,
                 earlier=[Event("challenge", seat=0, target=1, card="captain")])
        log.tell([], names, 0, new_game=True)
        log.came_or_went("away", "Bruno")
        log.said("Cleo", "hello", spectator=True)
        await pilot.pause()
        assert log_lines(log) == [
            "Bruno challenges Ana: Duke?",
            "While you were away:",
            "Ana challenges Bruno: Captain?",
            "Bruno passes",
            "A new game begins.",
            "Bruno lost the connection: the seat waits for them",
            "Cleo (spectator): hello",
        ]

    run_alone(log, body, size=(80, 12))
