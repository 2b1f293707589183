"""The end of a game: the winner, every hand revealed, the order players went out, each
player's claims (how many were bluffs) and challenges, a rematch at the same table (the
winner starts), and the game's replay on a server that keeps records, also with the
player's own decisions reviewed by the expert. It closes by itself when the rematch begins.

The claims, bluffs and challenges come from the game's summary, which the server sends only
once the game is over (R11: a bluff tells what a hand held).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Label, Static

from ...i18n import N_, _, card_name
from ..messages import TableChanged
from ...core.table import TableState
from ...narrate import claim_text, error_text
from ..widgets.items import Items
from .base import CoupModal


def claims_list(claims: dict[str, int]) -> Items:
    """A seat's claims this game, most made first, broken between claims only: "Duke ×2,
    Captain" ("Duke" and "×2" were on two lines at 80 columns); "–" for none."""
    ranked = sorted(claims.items(), key=lambda item: -item[1])
    return Items([claim_text(card, n) for card, n in ranked] or ["–"])


def card_cells(hand: list[str], revealed: list[str], width: int) -> Text:
    """A hand as cells of one width, face-down cards first (bold, reversed) and then the
    face-up ones (struck out), so that the cards of every player line up."""
    cells = Text()
    for card in hand:
        cells.append(f" {card_name(card):<{width}} ", style="bold reverse")
        cells.append(" ")
    for card in revealed:
        name = card_name(card)
        cells.append(" ")
        cells.append(name, style="dim strike")
        cells.append(" " * (width - len(name) + 2))
    return cells


class ResultsScreen(CoupModal):
    BINDINGS = [
        Binding("r", "rematch", N_("Rematch")),
        Binding("l", "leave", N_("Leave the table")),
        Binding("p", "replay", N_("Replay")),
        Binding("v", "review", N_("Review")),
        Binding("escape", "close", N_("Back to the table")),
    ]

    def __init__(self, state: TableState) -> None:
        """The results of the game over in `state` (the table's, which the app keeps)."""
        super().__init__()
        self.state = state

    def compose(self) -> ComposeResult:
        state = self.state
        view = state.view
        if view is None:  # opened on a game that is over, never before one
            raise RuntimeError("no game to show the results of")
        reveal = state.reveal or view
        with Vertical(classes="dialog results"):
            winner = state.name(view.winner)
            title = (_("You win!") if view.winner == state.seat
                     else _("{name} wins the game!").format(name=winner))
            yield Label(Text(title), id="winner", classes="dialog-title")
            summary = state.summary
            if summary is not None and summary["out"]:
                yield Label(Text(_("Out, first to last: {names}").format(
                    names=", ".join(state.name(seat) for seat in summary["out"]))), id="out")
            with VerticalScroll(id="hands-box"):
                yield Static(self._hands(state, reveal, summary), id="hands")
            recorded = self._game() is not None
            # All five buttons fit 80 columns only at their text's width (-crowded).
            crowded = recorded and state.seat is not None
            with Horizontal(classes="buttons -crowded" if crowded else "buttons"):
                if state.seat is not None:
                    yield Button(_("Rematch (r)"), variant="primary", id="rematch")
                if recorded:
                    yield Button(_("Replay (p)"), id="replay")
                    if state.seat is not None:
                        yield Button(_("Review (v)"), id="review")
                yield Button(_("Leave (l)"), id="leave")
                yield Button(_("Back (esc)"), id="close")

    def _hands(self, state, reveal, summary: dict | None) -> Table:
        """One row per seat: its cards, and with the summary its claims, bluffs and
        challenges; the claims take the width that is left. (No coins: a player out has
        none, R2.2, and the winner's no longer matter.)"""
        grid = Table(expand=True, box=None, padding=(0, 1, 0, 0))
        grid.add_column(_("Player"), no_wrap=True, max_width=16, overflow="ellipsis")
        grid.add_column(_("Cards"), no_wrap=True)
        if summary is not None:
            claims = [claims_list(record["claims"]) for record in summary["seats"]]
            # Never narrower than its widest claim and comma: a narrower one cut "Embaixador
            # ×2" (the other columns wrap their headings instead).
            grid.add_column(_("Claims"), ratio=1, min_width=max(
                cell_len(item) + 1 for items in claims for item in items.items))
            grid.add_column(_("Bluffs"), justify="right")
            grid.add_column(_("Challenges won/lost"), justify="center", max_width=15)
        seats = range(len(reveal.alive))
        width = max((len(card_name(c)) for s in seats
                     for c in [*(reveal.hands[s] or ()), *reveal.revealed[s]]), default=0)
        for seat in seats:
            name = Text(state.name(seat), style="bold green" if seat == reveal.winner else "")
            row: list[RenderableType] = [
                name, card_cells(reveal.hands[seat] or [], reveal.revealed[seat], width)]
            if summary is not None:
                record = summary["seats"][seat]
                row += [claims[seat], str(record["bluffs"]),
                        f"{record['challenges_won']}/{record['challenges_lost']}"]
            grid.add_row(*row)
        return grid

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id is not None:  # each button is named for its action
            await self.run_action(event.button.id)

    def action_rematch(self) -> None:
        if self.state.seat is not None:
            self.coup.rematch()
            self.notify(_("Rematch asked: it starts when everyone agrees."))

    def _game(self) -> int | None:
        """The id of the game that just ended, on a server that keeps records."""
        return (self.state.info or {}).get("game")

    def action_replay(self) -> None:
        """Fetch the game's record from the server it was played on; its replay opens over
        the table when it comes (the results are a click away there)."""
        game = self._game()
        if game is None:
            self.notify(error_text("no_records"), severity="warning")
            return
        self.dismiss(None)
        self.coup.fetch_game(game)

    def action_review(self) -> None:
        """The replay, as this player saw the game, with the review of their decisions
        running in it (a spectator has none to review)."""
        game = self._game()
        if self.state.seat is None:
            return
        if game is None:
            self.notify(error_text("no_records"), severity="warning")
            return
        self.dismiss(None)
        self.coup.fetch_game(game, review_as=self.state.seat)

    def action_leave(self) -> None:
        self.dismiss(None)
        self.coup.leave_table()

    def action_close(self) -> None:
        self.dismiss(None)

    @on(TableChanged)
    def _changed(self, change: TableChanged) -> None:
        """A rematch began (or the table is gone): these results are over."""
        view = self.state.view
        if change.new_view and self.built and (self.coup.table is not self.state
                                               or view is None or not view.over):
            self.dismiss(None)
