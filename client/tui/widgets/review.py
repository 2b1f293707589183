"""The replay's review pane: one seat's review by the expert as far as it has gone (a bar
while it runs), the decisions it marked with the one shown picked out, the options of the
decision at the replay's step with their estimated win chances, and the seat's game in
numbers with its summary in words.

It draws the `ReviewState` it is given (`review`) and nothing else: it never runs the
review, never reads the record, and never reaches the screen or the app. The chances are the
search's estimates (docs/REVIEW.md), shown with their uncertainty, never as certainties.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import ProgressBar, Sparkline, Static

from engine.review import Judged, Mark, Numbers

from ...i18n import _, ngettext
from ...review import chance_text, mark_label, option_label

#: How each mark looks in the list and beside the options.
MARK_STYLES = {Mark.INACCURACY: "yellow", Mark.MISTAKE: "dark_orange", Mark.BLUNDER: "bold red"}
#: Cells of the bar that draws an option's win chance.
BAR = 8


class Progress(Enum):
    """Where a review stands."""

    RUNNING = "running"
    STOPPED = "stopped"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class ReviewState:
    """One seat's review as far as it went, and the replay's step (`at`) it is seen at:
    `decisions` are the steps the seat chose at, `judged` those judged so far, in order."""

    seat: int
    names: tuple[str, ...]
    decisions: tuple[int, ...]
    judged: tuple[Judged, ...] = ()
    progress: Progress = Progress.RUNNING
    numbers: Numbers | None = None
    summary: tuple[str, ...] = ()
    at: int = 0

    @property
    def marked(self) -> tuple[Judged, ...]:
        return tuple(j for j in self.judged if j.mark is not None)

    def judged_at(self, step: int) -> Judged | None:
        return next((j for j in self.judged if j.step == step), None)


def points(chance: float) -> int:
    """A chance (0..1) in win-chance points, as the review's docs count them."""
    return round(100 * chance)


def status_text(review: ReviewState) -> str:
    """Where the review stands, and the key that changes it."""
    done, total = len(review.judged), len(review.decisions)
    if not total:
        return _("{name} had no choice to make in this game.").format(
            name=review.names[review.seat])
    if review.progress is Progress.RUNNING:
        return _("Reviewing decision {n} of {total} · s stops").format(
            n=min(done + 1, total), total=total)
    if review.progress is Progress.STOPPED:
        return ngettext("Stopped after {n} of {total} decision · r reviews again",
                        "Stopped after {n} of {total} decisions · r reviews again",
                        total).format(n=done, total=total)
    return ngettext("{total} decision reviewed, {marked} marked",
                    "{total} decisions reviewed, {marked} marked",
                    total).format(total=total, marked=len(review.marked))


def marks_table(review: ReviewState) -> Table | Text:
    """The marked decisions in the game's order, the one at the replay's step pointed at."""
    if not review.marked:
        return Text(_("No decision marked so far.") if review.progress is Progress.RUNNING
                    else _("No decision marked."), style="dim")
    # Expanded: the names take what the other columns leave, and are cut first.
    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True, ratio=1, overflow="ellipsis")
    grid.add_column(no_wrap=True, justify="right")
    for judged in review.marked:
        here = judged.step == review.at
        grid.add_row("▶" if here else " ", _("Move {n}").format(n=judged.step),
                     Text(mark_label(judged.mark), style=MARK_STYLES[judged.mark]
                          if judged.mark is not None else ""),
                     f"−{points(judged.cost)}", style="reverse" if here else "")
    return grid


def options_table(review: ReviewState) -> Table | Text:
    """The decision at the replay's step: each option with its bar and chance, best first,
    the one played pointed at; or why there is none to show."""
    judged = review.judged_at(review.at)
    name = review.names[review.seat]
    if judged is None:
        if review.at in review.decisions and review.progress is Progress.RUNNING:
            return Text(_("Move {n}: not judged yet.").format(n=review.at), style="dim")
        if review.at in review.decisions:
            return Text(_("Move {n} was not judged.").format(n=review.at), style="dim")
        return Text(_("{name} did not choose at move {n} · n, p: the marked decisions")
                    .format(name=name, n=review.at), style="dim")
    # Expanded: the names take what the other columns leave, and are cut first.
    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True, ratio=1, overflow="ellipsis")
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True, justify="right")
    for option in judged.options:
        played = option == judged.played
        cells = round(BAR * option.win)
        grid.add_row("▸" if played else " ",
                     Text(option_label(option.move, review.names, judged.view)),
                     Text("█" * cells + "·" * (BAR - cells), style="green"),
                     chance_text(option),
                     style="bold" if played else "")
    return grid


def options_title(review: ReviewState) -> Text:
    """The heading of the options: the step, and its mark and cost if it has one."""
    judged = review.judged_at(review.at)
    title = Text(_("Move {n}: {name}'s options").format(n=review.at,
                                                        name=review.names[review.seat]),
                 style="bold")
    if judged is not None and judged.mark is not None:
        title.append(" · ")
        title.append(_("{mark}, −{points} points").format(
            mark=mark_label(judged.mark), points=points(judged.cost)),
            style=MARK_STYLES[judged.mark])
    return title


def numbers_lines(numbers: Numbers) -> list[str]:
    """A seat's game in numbers, a line per kind of move."""
    return [
        _("Claims {claims} · bluffs {bluffs}, caught {caught}").format(
            claims=numbers.claims, bluffs=numbers.bluffs, caught=numbers.bluffs_caught),
        _("Challenges {made}, right {right}").format(
            made=numbers.challenges, right=numbers.challenges_right),
        _("Blocks {blocks}, bluffed {bluffs}").format(
            blocks=numbers.blocks, bluffs=numbers.block_bluffs),
    ]


class ReviewPane(VerticalScroll):
    """Drawn from `review` whenever it is set (the replay screen sets it at every change)."""

    DEFAULT_CSS = """
    ReviewPane {
        border: round $primary;
        padding: 0 1;
        scrollbar-size-vertical: 1;
        & > * {
            height: auto;
        }
        #review-bar {
            width: 100%;
            & > Bar {
                width: 1fr;
            }
        }
        #review-options, #review-marks, #review-numbers {
            margin-top: 1;
        }
        #review-coins {
            height: 2;
        }
    }
    """

    review: reactive[ReviewState | None] = reactive(None, always_update=True, repaint=False)

    def compose(self) -> ComposeResult:
        yield Static(id="review-status")
        yield ProgressBar(show_percentage=False, show_eta=False, id="review-bar")
        yield Static(id="review-options")
        yield Static(id="review-marks")
        yield Static(id="review-numbers")
        yield Sparkline(id="review-coins")
        yield Static(id="review-summary")

    def watch_review(self, review: ReviewState | None) -> None:
        if review is None or not self.is_mounted:
            return
        # Text, not a str: a str title is markup, and a name is anyone's to choose.
        self.border_title = Text(_("Review · {name}").format(name=review.names[review.seat]))
        self.query_one("#review-status", Static).update(Text(status_text(review)))
        bar = self.query_one("#review-bar", ProgressBar)
        bar.display = review.progress is Progress.RUNNING
        bar.update(total=max(1, len(review.decisions)), progress=len(review.judged))
        for part in ("#review-options", "#review-marks"):
            self.query_one(part).display = bool(review.decisions)
        marks = Table.grid()
        marks.add_row(Text(_("Marked decisions · n, p: go to one"), style="bold"))
        marks.add_row(marks_table(review))
        self.query_one("#review-marks", Static).update(marks)
        options = Table.grid()
        options.add_row(options_title(review))
        options.add_row(options_table(review))
        self.query_one("#review-options", Static).update(options)
        self._draw_numbers(review.numbers, review.summary)

    def on_mount(self) -> None:
        self.watch_review(self.review)

    def _draw_numbers(self, numbers: Numbers | None, summary: Sequence[str]) -> None:
        counted = self.query_one("#review-numbers", Static)
        coins = self.query_one("#review-coins", Sparkline)
        words = self.query_one("#review-summary", Static)
        for widget in (counted, coins, words):
            widget.display = numbers is not None
        if numbers is None:
            return
        lines = Table.grid()
        lines.add_row(Text(_("The game in numbers"), style="bold"))
        for line in numbers_lines(numbers):
            lines.add_row(line)
        if numbers.coins:
            lines.add_row(_("Coins: {first} at the start, {last} at the end, {most} at most")
                          .format(first=numbers.coins[0], last=numbers.coins[-1],
                                  most=max(numbers.coins)))
        counted.update(lines)
        coins.data = list(numbers.coins)
        words.update(Text("\n".join(summary)))
