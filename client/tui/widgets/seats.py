"""The seats of one view, for the replay: each seat's name, coins, the cards the view knows
(named face down where it holds them, ▮ where it does not), its face-up cards struck out, its
faction at a Reformation table, and whose turn it is; the treasury (and the Almshouse) and
the deck's size under them, and whether a Reformation table is divided above them.

It draws exactly the View it is handed and nothing else: whether every hand shows is the
caller's choice of view (a seat's own view hides the others' cards, R11).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.text import Text
from textual.widgets import Static

from engine import View

from ...i18n import _, card_name
from .players import faction_text, seat_grid, table_title, table_totals


class SeatsPanel(Static):
    """Redrawn by `show` with a view and the names of its seats."""

    DEFAULT_CSS = """
    SeatsPanel {
        border: round $primary;
        padding: 0 1;
    }
    """

    def on_mount(self) -> None:
        self.border_title = table_title(None)
        self._shown: tuple[View, Callable[[int | None], str], set[int]] | None = None

    def on_resize(self) -> None:
        if self._shown is not None:  # the room for a second line per seat has changed
            self.show(*self._shown)

    def show(self, view: View, names: Callable[[int | None], str], bots: set[int]) -> None:
        """Draw `view`: its seats named by `names`, those in `bots` marked as bots."""
        self._shown = (view, names, bots)
        self.border_title = table_title(view)
        self.border_subtitle = table_totals(view)
        seats = range(len(view.alive))
        heads = [self._head(view, seat, names(seat), seat in bots) for seat in seats]
        cards = [self._cards(view, seat) for seat in seats]
        widths = [max(cell_len(head[i].plain) for head in heads) for i in range(3)]
        # A seat's cards on a line of their own when every seat has room for two lines,
        # else (many seats on a small terminal) at the end of its line.
        two_lines = 2 * len(heads) <= self.content_size.height
        spaced = 3 * len(heads) <= self.content_size.height
        lines: list[RenderableType] = []
        for seat, (head, hand) in enumerate(zip(heads, cards)):
            if spaced and lines:
                lines.append(Text())
            grid = seat_grid(widths)
            if not two_lines:
                head[3].append(" ").append_text(hand)
            style = "bold" if seat == view.seat else ""
            grid.add_row(*head, style=style)
            lines.append(grid)
            if two_lines:
                hand.no_wrap, hand.overflow = True, "ellipsis"
                lines.append(Text("  ").append_text(hand))
        self.update(Group(*lines))

    @staticmethod
    def _head(view: View, seat: int, name: str, bot: bool) -> list[Text]:
        """A seat's turn mark, name, coins, at a Reformation table its faction, and marks
        (bot, out, waited for)."""
        turn = Text("▶" if seat == view.actor and not view.over else "")
        label = Text(name)
        marks = [_("bot")] if bot else []
        if not view.alive[seat]:
            label.stylize("dim strike")
            marks.append(_("out"))
        if seat in view.waiting and not view.over:
            marks.append("…")
        coins = Text(_("{n}¢").format(n=view.coins[seat]), style="yellow")
        status = Text(" ".join(marks), style="magenta")
        if view.factions:
            status = faction_text(view.factions[seat], view.alive[seat]).append(" ").append_text(
                status)
        return [turn, label, coins, status]

    @staticmethod
    def _cards(view: View, seat: int) -> Text:
        """Face-down cards by name where the view holds them, else ▮ each; cards drawn in an
        Exchange after a +; face-up cards struck out."""
        text = Text()
        hand = view.hands[seat]
        if hand is None:
            text.append("▮ " * view.influence[seat], style="bold cyan")
        for card in hand or ():
            text.append(f" {card_name(card)} ", style="bold reverse")
            text.append(" ")
        if view.drawn and seat == view.actor:
            text.append("+ " + ", ".join(card_name(c) for c in view.drawn) + " ", style="cyan")
        for card in view.revealed[seat]:
            text.append(card_name(card), style="dim strike")
            text.append(" ")
        return text
