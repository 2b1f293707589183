"""The players: each seat's name, coins, face-down cards, face-up cards, marks (you, bot,
away, out), whose turn it is, the seconds left to each seat that owes a decision, and under
each the characters it has claimed this game; the seats of the last action highlighted for a
moment; the treasury and the deck's size under them."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from engine.cards import CHARACTERS

from ...i18n import _, card_name
from ...core.table import TableState

#: How the seats of the last action stand out while it is highlighted (TableState.lit).
SPOTLIGHT_STYLES = {"acted": "bold reverse", "targeted": "bold reverse red"}


def seconds(left: float) -> str:
    return f"⏱ {int(left + 0.999)}s"


def claims_text(claims: dict[str, int] | None) -> str:
    """A seat's claims this game, e.g. "claimed: Duke ×2, Captain"; "" if none."""
    if not claims:
        return ""
    cards = [card_name(card) + (f" ×{claims[card]}" if claims[card] > 1 else "")
             for card in CHARACTERS if card in claims]
    return _("claimed: {cards}").format(cards=", ".join(cards))



def seat_grid(widths: list[int]) -> Table:
    """A grid for one seat's line: a column of each width (the third, the coins, aligned
    right), then one that takes the rest of the line and ends in an ellipsis if cut."""
    grid = Table.grid(padding=(0, 1), expand=True)
    for column, width in enumerate(widths):
        grid.add_column(width=width, no_wrap=True, justify="right" if column == 2 else "left")
    grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    return grid

class PlayersPanel(Static):
    """Redrawn from the app's TableState by `show` (and every half second for the clocks)."""

    def on_mount(self) -> None:
        self.border_title = _("Players")
        self.set_interval(0.5, self.show)

    def show(self) -> None:
        state: TableState | None = self.app.table
        if state is None:
            self.update("")
            return
        view = state.view
        if view is not None:
            self.border_subtitle = _("Treasury {n}¢ · Deck {d}").format(n=view.treasury,
                                                                        d=view.deck_size)
        rows = [self._row(state, info) for info in state.seats]
        # Every seat's line, in columns as wide as their widest cell, so that no name is
        # cut; under it the seat's claims when the panel has room for a line under every
        # seat, else (a crowded table on a small terminal) at the end of the seat's line.
        widths = [max((cell_len(row[0][i].plain) for row in rows), default=0)
                  for i in range(4)]
        # Whether there is room is asked of every seat, claims or not yet: the layout must
        # not jump when a claim is made.
        height = self.content_size.height
        room = 2 * len(rows) <= height
        spaced = 3 * len(rows) <= height  # (a tall panel: air between seats)
        lines = []
        for cells, style, claims in rows:
            if spaced and lines:
                lines.append(Text())
            grid = seat_grid(widths)
            if claims and not room:
                cells[-1].append("  " + claims, style="dim")
            grid.add_row(*cells, style=style)
            lines.append(grid)
            if claims and room:
                lines.append(Text("  " + claims, style="dim", no_wrap=True,
                                  overflow="ellipsis"))
        self.update(Group(*lines))

    @staticmethod
    def _row(state: TableState, info: dict) -> tuple[list[Text], str, str]:
        """A seat's cells (turn mark, name, coins, cards, marks), the row's style, and the
        line of its claims."""
        view = state.view
        seat = info["seat"]
        name = Text(state.name(seat))
        guest = info.get("guest")  # a name no key vouches for: anyone may have typed it
        if seat == state.seat:
            name.append(" " + (_("(you, a guest)") if guest else _("(you)")), style="bold")
            name.stylize("bold")
        elif guest:
            name.append(" " + _("(guest)"), style="dim")
        marks = []
        if info.get("bot"):
            marks.append(_("bot"))
        if info.get("away"):
            marks.append(_("away"))
        free = view is None and not (info.get("name") or info.get("bot"))
        if free and state.bots_at_start:  # the bot that will sit there, ready as bots are
            return ([Text(), Text(_("Bot {n}").format(n=seat + 1)), Text(), Text(),
                     Text(_("bot") + " " + _("ready"), style="green")], "", "")
        if free:
            return ([Text(), Text(_("Seat {n}: free").format(n=seat + 1), style="dim"),
                     Text(), Text(), Text()], "", "")
        if view is None:
            ready = info.get("ready")
            return ([Text(), name, Text(), Text(),
                     Text(_("ready") if ready else _("not ready"),
                          style="green" if ready else "dim")], "", "")
        turn = Text("▶" if seat == view.actor and not view.over else "")
        if not view.alive[seat]:
            name.stylize("dim strike")
            marks.append(_("out"))
        coins = Text(_("{n}¢").format(n=view.coins[seat]), style="yellow")
        cards = Text("▮ " * view.influence[seat], style="bold cyan")
        for card in view.revealed[seat]:
            cards.append(card_name(card) + " ", style="dim strike")
        status = Text(" ".join(marks), style="magenta")
        clock = state.time_left(seat)
        if clock is not None and seat in view.waiting:
            status.append((" " if marks else "") + seconds(clock[0]),
                          style="bold red" if clock[0] < 5 else "bold")
        elif seat in view.waiting and not view.over:
            status.append((" " if marks else "") + "…", style="bold")
        style = SPOTLIGHT_STYLES.get(state.lit(seat), "")
        return [turn, name, coins, cards, status], style, claims_text(state.claims.get(seat))
