"""The end of a game: the winner, every hand revealed, and a rematch at the same table (the
winner starts). It closes by itself when the rematch begins."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static

from ...i18n import N_, _, card_name
from .base import CoupModal


class ResultsScreen(CoupModal):
    BINDINGS = [
        Binding("r", "rematch", N_("Rematch")),
        Binding("l", "leave", N_("Leave the table")),
        Binding("escape", "close", N_("Back to the table")),
    ]

    def compose(self) -> ComposeResult:
        state = self.app.table
        view, reveal = state.view, state.reveal or state.view
        with Vertical(classes="dialog results"):
            winner = state.name(view.winner)
            title = (_("You win!") if view.winner == state.seat
                     else _("{name} wins the game!").format(name=winner))
            yield Label(Text(title), id="winner", classes="dialog-title")
            yield Static(self._hands(state, reveal), id="hands")
            with Horizontal(classes="buttons"):
                if state.seat is not None:
                    yield Button(_("Rematch (r)"), variant="primary", id="rematch")
                yield Button(_("Leave the table (l)"), id="leave")
                yield Button(_("Back to the table (esc)"), id="close")

    def _hands(self, state, reveal) -> Table:
        grid = Table(expand=True, box=None, padding=(0, 1))
        grid.add_column(_("Player"))
        grid.add_column(_("Coins"), justify="right")
        grid.add_column(_("Cards"))
        for seat in range(len(reveal.alive)):
            cards = Text()
            for card in reveal.hands[seat] or ():
                cards.append(f" {card_name(card)} ", style="bold reverse")
                cards.append(" ")
            for card in reveal.revealed[seat]:
                cards.append(card_name(card) + " ", style="dim strike")
            name = Text(state.name(seat), style="bold green" if seat == reveal.winner else "")
            grid.add_row(name, str(reveal.coins[seat]), cards)
        return grid

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        await self.run_action(event.button.id)

    def action_rematch(self) -> None:
        if self.app.table is not None and self.app.table.seat is not None:
            self.app.rematch()
            self.notify(_("Rematch asked: it starts when everyone agrees."))

    def action_leave(self) -> None:
        self.dismiss(None)
        self.app.leave_table()

    def action_close(self) -> None:
        self.dismiss(None)

    def game_changed(self, events, new_game: bool) -> None:
        table = self.app.table
        if table is None or table.view is None or not table.view.over:
            self.dismiss(None)
