"""Dialogs over the table: choose one of a few things (a card to lose, the cards to keep, the
card to show, an Examine's decision, a target, a blocking character), or confirm leaving the game
or conceding a card you hold.

A choice made for a decision closes by itself when the table moves past that decision (a
clock ran out and the server decided), so it never answers a question no longer asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Label, OptionList
from textual.widgets.option_list import Option

from ...i18n import N_, _
from ..messages import TableChanged
from ...core.table import TableState
from .base import CoupModal


class DecisionDialog(CoupModal):
    """A dialog about the decision opened at `opened` (None: about none)."""

    def __init__(self, opened: int | None) -> None:
        super().__init__()
        self.opened = opened

    def _moved_past(self, change: TableChanged) -> bool:
        """Whether `change` brought a view past the decision, with the dialog still shown
        (a change that came while it closed no longer concerns it)."""
        return (change.new_view and self.opened is not None and self.built
                and not _still_open(self.coup.table, self.opened))


class ChooseDialog(DecisionDialog):
    """Pick one of `options` ((label, value) pairs) with the arrows and enter, a digit, or
    the mouse. Returns the value (a move, or whatever else was offered), or None on escape.
    `opened`: the decision it answers. `help_line`: the line under the choices, with `{keys}`
    for the digits that choose (None: escape goes back to the table). `refused`: (label,
    reason) pairs listed after the choices, greyed, with no digit: what the rules do not
    allow now, and why (a target of one's own faction on a divided table, R12.6)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Back to the table")),
        *(Binding(str(n), f"pick({n})", show=False) for n in range(1, 10)),
    ]

    def __init__(self, title: str, options: Sequence[tuple[str, object]],
                 opened: int | None = None, help_line: str | None = None,
                 refused: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__(opened)
        self.title_text = title
        self.options = options
        self.help_line = help_line
        self.refused = refused

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self.title_text), classes="dialog-title")
            # Labels carry players' names: plain text, never markup.
            yield OptionList(*(Option(Content.assemble((str(n), "bold"), "  ", label),
                                      id=str(n))
                               for n, (label, _v) in enumerate(self.options, 1)),
                             *(Option(refused_entry(label, reason), disabled=True)
                               for label, reason in self.refused),
                             id="choices")
            keys = "1" if len(self.options) == 1 else f"1–{len(self.options)}"
            help_line = self.help_line or _("{keys} or ⏎ to choose · esc: back to the table")
            yield Label(help_line.format(keys=keys), classes="dialog-help")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_pick(event.option_index + 1)

    def action_pick(self, n: int) -> None:
        if 1 <= n <= len(self.options):
            self.dismiss(self.options[n - 1][1])

    def action_close(self) -> None:
        self.dismiss(None)

    @on(TableChanged)
    def _changed(self, change: TableChanged) -> None:
        if self._moved_past(change):
            self.dismiss(None)


class ConfirmDialog(DecisionDialog):
    """A yes-or-no question; returns True for yes. `opened`: the decision it is about, if
    any: it closes by itself, answering no, once the table has moved past that decision."""

    BINDINGS = [
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n,escape", "answer(False)", N_("No")),
    ]

    def __init__(self, question: str, opened: int | None = None) -> None:
        super().__init__(opened)
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title")
            with Horizontal(classes="buttons"):
                yield Button(_("Yes (y)"), variant="error", id="yes")
                yield Button(_("No (n)"), variant="primary", id="no")

    @on(Button.Pressed, "#yes")
    def _yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def _no(self) -> None:
        self.dismiss(False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(TableChanged)
    def _changed(self, change: TableChanged) -> None:
        if self._moved_past(change):
            self.dismiss(False)


def refused_entry(label: str, reason: str) -> Table:
    """A choice the rules refuse now, as its dialog lists it: a dash where a digit would
    be, the label, and under it the reason, both indented as the choices are."""
    grid = Table.grid(padding=(0, 2, 0, 0))
    grid.add_column(width=1)
    grid.add_column(ratio=1)
    grid.add_row("–", Text(label))
    grid.add_row("", Text(reason, style="italic"))
    return grid


def _still_open(table: TableState | None, opened: int) -> bool:
    """Whether the decision opened at `opened` is still open and still ours."""
    view = table.view if table is not None else None
    return view is not None and view.opened == opened and view.seat in view.waiting
