"""The open decision in words, with a countdown bar for its deadline (yours when you owe it,
else that of the seat the table waits for), and the move you sent while it is pending. Before
the game: how many seats are taken, or, to the creator of a full table, how to start it.

It draws the TableState it is given (`state`), never the app's; its countdown moves on a
timer that runs only while a clock does. It flashes when told (`flash`): a key came for the
prompt this one replaced, and did nothing.
"""

from __future__ import annotations

from functools import partial

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Label, ProgressBar

from ...i18n import _
from ...core.table import TableState
from ...narrate import move_label, prompt
from .players import seconds

#: Seconds between two steps of the countdown bar.
STEP = 0.25
#: Seconds the panel stays flashed: longer than the grace in which the table ignores keys
#: (KEY_GRACE, screens/table.py), for the flash to outlast the keys it answers.
FLASH = 0.8


def prompt_text(state: TableState | None) -> str:
    """The decision line for `state`."""
    if state is None or state.view is None:
        return _waiting_text(state)
    if state.pending is not None:
        return _("Sending: {move}…").format(move=move_label(state.pending.move, state.name))
    return prompt(state.view, state.name)


def _waiting_text(state: TableState | None) -> str:
    """Before the game: the seats taken, or to the creator of a table that can start, how."""
    seats = state.seats if state is not None else []
    taken = sum(1 for s in seats if s.get("name") or s.get("bot"))
    if state is not None and state.seat is not None and seats \
            and (state.info or {}).get("creator_seat") == state.seat \
            and (taken == len(seats) or state.bots_at_start):
        return _("Press s to start the game · ? shows the rules")
    return _("Waiting for players: {taken} of {seats} seats taken").format(
        taken=taken, seats=len(seats))


def countdown(state: TableState | None) -> tuple[float, float] | None:
    """(seconds left, the decision's length) of the clock the panel shows, if one runs."""
    if state is None or state.view is None or state.view.over:
        return None
    view = state.view
    seats = [view.seat] if view.seat in view.waiting else list(view.waiting)
    for seat in seats:
        clock = state.time_left(seat)
        if clock is not None:
            return clock
    return None


class DecisionPanel(Vertical):
    """Drawn from `state` whenever it is set (the screen sets it at every change)."""

    DEFAULT_CSS = """
    DecisionPanel {
        height: auto;
        padding: 0 1;
        background: $boost;
        &.-flash {
            background: $warning 40%;
        }
        #prompt {
            text-style: bold;
            width: 100%;
        }
        #countdown {
            height: 1;
        }
        #bar {
            width: 1fr;
        }
        #bar Bar {
            width: 1fr;
        }
        #seconds {
            width: 8;
            padding-left: 1;
        }
    }
    """

    #: The table shown. It is changed in place: every assignment draws it again.
    state: reactive[TableState | None] = reactive(None, always_update=True, repaint=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._ticking: Timer | None = None
        self._unflash: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Label(id="prompt")
        with Horizontal(id="countdown"):
            yield ProgressBar(total=100, show_percentage=False, show_eta=False, id="bar")
            yield Label(id="seconds")

    def on_mount(self) -> None:
        self._draw()

    def watch_state(self) -> None:
        if self.is_mounted:  # (before, on_mount draws it, its parts there)
            self._draw()

    def flash(self) -> None:
        """Call the eye to the prompt for FLASH seconds (from the last call)."""
        self.add_class("-flash")
        if self._unflash is not None:
            self._unflash.stop()
        self._unflash = self.set_timer(FLASH, partial(self.remove_class, "-flash"))

    def _draw(self) -> None:
        self.query_one("#prompt", Label).update(Text(prompt_text(self.state)))
        self._tick()

    def _tick(self) -> None:
        clock = countdown(self.state)
        self.query_one("#countdown").display = clock is not None
        if clock is None or self.state is None or self.state.paused_at is not None:
            if self._ticking is not None:
                self._ticking.stop()
                self._ticking = None
        elif self._ticking is None:
            self._ticking = self.set_interval(STEP, self._tick)
        if clock is not None:
            left, total = clock
            self.query_one("#bar", ProgressBar).update(
                progress=100 * left / total if total else 0)
            self.query_one("#seconds", Label).update(seconds(left))
