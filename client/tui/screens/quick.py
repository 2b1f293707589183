"""Quick play from the lobby: choose the tables you would sit at (seats and variant), then
wait in the server's queue, seeing how many wait with you, until it seats you at a rated
table (the app then shows the table) or you stop waiting (esc)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Label, Select, Static

from ...i18n import N_, _
from ..messages import QueueChanged, Refused
from ...narrate import variant_choices
from .base import CoupModal
from .menu import Form

#: Seats of a quick-play table (the server forms tables of 2 to 6).
SEATS = range(2, 7)


class QuickPlayForm(Form):
    """The tables to wait for: a number of seats, or any from 2 to 6, and the variant.
    Returns (seats, variant): seats an int or {"min", "max"}, as `queue` sends it."""

    TITLE_TEXT = N_("Quick play")

    def fields(self) -> ComposeResult:
        with Horizontal(classes="row"):
            with Vertical():
                yield Label(_("Seats"))
                yield Select([(_("any, 2 to 6"), 0)] + [(str(n), n) for n in SEATS], value=0,
                             allow_blank=False, id="quick-seats", compact=True)
            with Vertical():
                yield Label(_("Variant"))
                yield Select(variant_choices(), value="base", allow_blank=False,
                             id="quick-variant", compact=True)
        # A Static, not a Label: it wraps to the dialog's width.
        yield Static(_("The server seats you at a rated table as soon as enough players "
                       "wait for one like it."), classes="dialog-help")

    def answer(self):
        seats = self.query_one("#quick-seats", Select).value
        wanted = seats or {"min": SEATS[0], "max": SEATS[-1]}
        return wanted, self.query_one("#quick-variant", Select).value


def waiting_text(seats: int | dict, waiting: int) -> str:
    """How the wait stands: of a number of seats, how many wait; of a range, how many."""
    if isinstance(seats, int):
        line = _("Waiting for a table: {waiting} of {seats}").format(waiting=waiting,
                                                                      seats=seats)
    else:
        line = _("Waiting for a table of {low} to {high}: {waiting} waiting").format(
            low=seats["min"], high=seats["max"], waiting=waiting)
    return line + " · " + _("esc to stop")


class WaitingScreen(CoupModal):
    """The wait in the queue after `queue` request `request` (the count comes with `queued`
    and `queue_status`). Dismissed with True when you stop waiting (esc), with False when
    the server refused the request; the app replaces it with the table once seated."""

    BINDINGS = [Binding("escape", "stop", N_("Stop waiting"))]

    #: How many wait in the queue, ourselves included.
    waiting: reactive[int] = reactive(1, init=False, repaint=False)

    def __init__(self, request: int, seats: int | dict) -> None:
        super().__init__()
        self.request = request
        self.seats = seats

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(_("Quick play"), classes="dialog-title")
            yield Label(waiting_text(self.seats, self.waiting), id="queue-wait")

    @on(QueueChanged)
    def _queue_changed(self, change: QueueChanged) -> None:
        if self.built:
            self.waiting = change.waiting

    def watch_waiting(self, waiting: int) -> None:
        self.query_one("#queue-wait", Label).update(waiting_text(self.seats, waiting))

    @on(Refused)
    def _refused(self, refusal: Refused) -> None:
        if refusal.asked == self.request and self.built:
            self.dismiss(False)

    def action_stop(self) -> None:
        self.dismiss(True)


def quick_play(app) -> None:
    """Ask which tables to wait for, then queue and wait (the lobby's Quick play key)."""
    def chosen(answer) -> None:
        if answer is None:
            return
        seats, variant = answer
        request = app.queue(seats, variant)
        if request is not None:
            app.push_screen(WaitingScreen(request, seats), stopped)

    def stopped(by_player: bool) -> None:
        if by_player:
            app.unqueue()

    app.push_screen(QuickPlayForm(), chosen)
