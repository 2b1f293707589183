"""The players: each seat's name, coins, face-down cards, face-up cards, its faction at a
Reformation table (a mark and the word: never colour alone), marks (you, bot, away, out),
whose turn it is, the seconds left to each seat that owes a decision, and under
each the characters it has claimed this game and, where the panel has room (a tall
terminal), its latest claims; the seats of the last action highlighted for a moment; the
treasury (and the Almshouse) and the deck's size under them, and above them whether a
Reformation table is divided or unified (R12.5).

It draws the TableState it is given (`state`), never the app's. Only time changes it between
two states: while a clock runs or the spotlight is on, it draws itself again when the next
second shows or the spotlight ends, and not at all while nothing ticks.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Static

from engine import View
from engine.cards import CHARACTERS, LOYALIST, REFORMIST

from ...i18n import _, card_name, faction_name
from ...core.table import Claim, TableState
from ...narrate import claim_text, recent_claim_text
from .items import pack

#: What a seat's claims are set in by under its line.
INDENT = "  "
#: What stands between two of a seat's latest claims (a comma is inside a claim's text).
BETWEEN_CLAIMS = " · "

#: How the seats of the last action stand out while it is highlighted (TableState.lit).
SPOTLIGHT_STYLES = {"acted": "bold reverse", "targeted": "bold reverse red"}


#: Each faction's mark and colour: the mark tells them apart where colour does not show.
FACTION_MARKS = {LOYALIST: ("◆", "bold blue"), REFORMIST: ("◇", "bold yellow")}


def faction_text(faction: str, alive: bool = True) -> Text:
    """A seat's faction as its mark and its name, e.g. "◆ Loyalist"; dim once the seat is
    out, where it counts for nothing (R12.4)."""
    mark, style = FACTION_MARKS[faction]
    return Text(f"{mark} {faction_name(faction)}", style=style if alive else "dim")


def table_title(view: View | None) -> str:
    """The panel's title: "Players", and at a Reformation table whether it is divided or
    unified (R12.5)."""
    if view is None or not view.factions:
        return _("Players")
    return _("Players · unified") if view.unified else _("Players · divided")


def table_totals(view: View) -> str:
    """The coins off the players and the deck's size: the treasury, the Almshouse beside it
    at a Reformation table (R12.10), the deck."""
    if view.options.reformation:
        return _("Treasury {n}¢ · Almshouse {a}¢ · Deck {d}").format(
            n=view.treasury, a=view.almshouse, d=view.deck_size)
    return _("Treasury {n}¢ · Deck {d}").format(n=view.treasury, d=view.deck_size)


def seconds(left: float) -> str:
    return f"⏱ {int(left + 0.999)}s"


def claim_items(claims: dict[str, int] | None) -> list[str]:
    """A seat's claims this game as the items of a list, the first led by the word for them,
    e.g. ["claimed: Duke ×2", "Captain"]; none if none."""
    if not claims:
        return []
    cards = [claim_text(card, claims[card]) for card in CHARACTERS if card in claims]
    return [_("claimed: {cards}").format(cards=cards[0]), *cards[1:]]


def recent_items(recent: list[Claim] | None, names: Callable[[int | None], str]) -> list[str]:
    """A seat's latest claims, newest first, as the items of a list, the first led by the
    word for them, e.g. ["last: Steal from Ana (Captain, proved)", "Tax (Duke)"]; none if
    none."""
    if not recent:
        return []
    claims = [recent_claim_text(claim, names) for claim in recent]
    return [_("last: {claim}").format(claim=claims[0]), *claims[1:]]


def seat_grid(widths: list[int]) -> Table:
    """A grid for one seat's line: a column of each width (the third, the coins, aligned
    right), then one that takes the rest of the line and ends in an ellipsis if cut."""
    grid = Table.grid(padding=(0, 1), expand=True)
    for column, width in enumerate(widths):
        grid.add_column(width=width, no_wrap=True, justify="right" if column == 2 else "left")
    grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    return grid


def next_tick(state: TableState) -> float | None:
    """Seconds until time alone changes what the panel shows of `state`: a countdown's next
    whole second, or the spotlight's end; None while nothing ticks (no clock runs, or play is
    paused, and no spotlight)."""
    moments = []
    view = state.view
    if view is not None and not view.over and state.paused_at is None:
        for seat in view.waiting:
            clock = state.time_left(seat)
            if clock is not None and clock[0] > 0:
                # `seconds` shows n from n - 0.999 s left: the next change is there.
                moments.append((clock[0] - 0.001) % 1)
    if state.spotlight is not None:
        end = state.spotlight[2] - time.monotonic()
        if end > 0:
            moments.append(end)
    return min(moments, default=None)


class PlayersPanel(Static):
    """Drawn from `state` whenever it is set (the screen sets it at every change)."""

    DEFAULT_CSS = """
    PlayersPanel {
        border: round $primary;
        padding: 0 1;
    }
    """

    #: The table shown. It is changed in place: every assignment draws it again.
    state: reactive[TableState | None] = reactive(None, always_update=True, repaint=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._tick: Timer | None = None

    def on_mount(self) -> None:
        self.border_title = table_title(None)

    def watch_state(self) -> None:
        self._draw()

    def on_resize(self) -> None:
        self._draw()  # the room for a line of claims under each seat has changed

    def _draw(self) -> None:
        if self._tick is not None:
            self._tick.stop()
            self._tick = None
        state = self.state
        if state is None:
            self.update("")
            return
        wait = next_tick(state)
        if wait is not None:
            # A hundredth of a second late: the second has changed for certain by then.
            self._tick = self.set_timer(wait + 0.01, self._draw)
        view = state.view
        self.border_title = table_title(view)
        if view is not None:
            self.border_subtitle = table_totals(view)
        rows = [self._row(state, info) for info in state.seats]
        # Every seat's line, in columns as wide as their widest cell, so that no name is
        # cut; under it the seat's claims when the panel has room for a line under every
        # seat, else (a crowded table on a small terminal) at the end of the seat's line.
        columns = min((len(row[0]) for row in rows), default=1) - 1
        widths = [max((cell_len(row[0][i].plain) for row in rows), default=0)
                  for i in range(columns)]
        # Whether there is room is asked of every seat, claims or not yet: the layout must
        # not jump when a claim is made. The claims wrap between claims, each whole, when
        # every seat's fit so (issue 30: "Ambassador,…" cut at 80 columns), else each seat's
        # take one line, cut at its end.
        width, height = self.content_size.width, self.content_size.height
        room = 2 * len(rows) <= height
        wrapped = [pack(items, width, indent=INDENT) for _cells, _style, items, _last in rows]
        needed = sum(1 + max(1, len(claims)) for claims in wrapped)
        spaced = needed + len(rows) - 1 <= height  # (a tall panel: air between seats)
        # The latest claims come last: only where every seat has a line for them besides
        # its counts and the air between seats (issue 30: a tall terminal's empty rows).
        latest = [pack(last, width, indent=INDENT, separator=BETWEEN_CLAIMS)
                  for _cells, _style, _items, last in rows]
        told = sum(max(1, len(last)) for last in latest) + needed + len(rows) - 1 <= height
        lines: list[RenderableType] = []
        for (cells, style, items, _last), packed, last in zip(rows, wrapped, latest,
                                                               strict=True):
            if spaced and lines:
                lines.append(Text())
            grid = seat_grid(widths)
            one_line = INDENT + ", ".join(items)
            if items and not room:
                cells[-1].append(one_line, style="dim")
            grid.add_row(*cells, style=style)
            lines.append(grid)
            if items and room:
                lines.extend(Text(line, style="dim", no_wrap=True, overflow="ellipsis")
                             for line in (packed if needed <= height else [one_line]))
            if told:
                lines.extend(Text(line, style="dim italic", no_wrap=True, overflow="ellipsis")
                             for line in last)
        self.update(Group(*lines))

    @staticmethod
    def _row(state: TableState,
             info: dict[str, Any]) -> tuple[list[Text], str, list[str], list[str]]:
        """A seat's cells (turn mark, name, coins, cards, at a Reformation table its
        faction, marks), the row's style, the items of its claims counted, and those of its
        latest claims."""
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
                     Text(_("bot") + " " + _("ready"), style="green")], "", [], [])
        if free:
            return ([Text(), Text(_("Seat {n}: free").format(n=seat + 1), style="dim"),
                     Text(), Text(), Text()], "", [], [])
        if view is None:
            ready = info.get("ready")
            return ([Text(), name, Text(), Text(),
                     Text(_("ready") if ready else _("not ready"),
                          style="green" if ready else "dim")], "", [], [])
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
        lit = state.lit(seat)
        style = SPOTLIGHT_STYLES[lit] if lit is not None else ""
        cells = [turn, name, coins, cards, status]
        if view.factions:
            cells.insert(4, faction_text(view.factions[seat], view.alive[seat]))
        return (cells, style, claim_items(state.claims.get(seat)),
                recent_items(state.recent.get(seat), state.name))
