"""The players: each seat's name, coins, face-down cards, face-up cards, marks (you, bot,
away, out), whose turn it is, and the seconds left to each seat that owes a decision; the
treasury and the deck's size under them."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from ...i18n import _, card_name
from ..model import TableState


def seconds(left: float) -> str:
    return f"⏱ {int(left + 0.999)}s"


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
        grid = Table.grid(padding=(0, 1), expand=True)
        grid.add_column(width=1)
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        grid.add_column(justify="right", no_wrap=True)
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True)
        for info in state.seats:
            seat = info["seat"]
            name = Text(state.name(seat))
            if seat == state.seat:
                name.append(" " + _("(you)"), style="bold")
                name.stylize("bold")
            marks = []
            if info.get("bot"):
                marks.append(_("bot"))
            if info.get("away"):
                marks.append(_("away"))
            if view is None and not (info.get("name") or info.get("bot")):
                grid.add_row("", Text(_("Seat {n}: free").format(n=seat + 1), style="dim"),
                             "", "", "")
                continue
            if view is None:
                ready = info.get("ready")
                grid.add_row("", name, "", "", Text(_("ready") if ready else _("not ready"),
                                                    style="green" if ready else "dim"))
                continue
            turn = "▶" if seat == view.actor and not view.over else ""
            out = not view.alive[seat]
            if out:
                name.stylize("dim strike")
                marks.append(_("out"))
            coins = Text(_("{n}¢").format(n=view.coins[seat]), style="yellow")
            hidden = Text("▮ " * view.influence[seat], style="bold cyan")
            for card in view.revealed[seat]:
                hidden.append(card_name(card) + " ", style="dim strike")
            status = Text(" ".join(marks), style="magenta")
            clock = state.time_left(seat)
            if clock is not None and seat in view.waiting:
                status.append((" " if marks else "") + seconds(clock[0]),
                              style="bold red" if clock[0] < 5 else "bold")
            elif seat in view.waiting and not view.over:
                status.append((" " if marks else "") + "…", style="bold")
            grid.add_row(turn, name, coins, hidden, status)
        self.update(grid)
