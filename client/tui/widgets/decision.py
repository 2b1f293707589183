"""The open decision in words, with a countdown bar for its deadline (yours when you owe it,
else that of the seat the table waits for), and the move you sent while it is pending. Before
the game: how many seats are taken, or, to the creator of a full table, how to start it."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, ProgressBar

from ...i18n import _
from ...narrate import move_label, prompt
from .players import seconds


class DecisionPanel(Vertical):
    def compose(self) -> ComposeResult:
        yield Label(id="prompt")
        with Horizontal(id="countdown"):
            yield ProgressBar(total=100, show_percentage=False, show_eta=False, id="bar")
            yield Label(id="seconds")

    def on_mount(self) -> None:
        self.set_interval(0.25, self.tick)

    def show(self) -> None:
        state = self.app.table
        label = self.query_one("#prompt", Label)
        if state is None or state.view is None:
            seats = state.seats if state is not None else []
            taken = sum(1 for s in seats if s.get("name") or s.get("bot"))
            creator = (state is not None and state.seat is not None and bool(state.info)
                       and state.info.get("creator_seat") == state.seat)
            if creator and seats and (taken == len(seats) or state.bots_at_start):
                label.update(Text(_("Press s to start the game · ? shows the rules")))
            else:
                label.update(Text(_("Waiting for players: {taken} of {seats} seats "
                                    "taken").format(taken=taken, seats=len(seats))))
        elif state.pending is not None:
            label.update(Text(_("Sending: {move}…").format(
                move=move_label(state.pending.move, state.name))))
        else:
            label.update(Text(prompt(state.view, state.name)))
        self.tick()

    def tick(self) -> None:
        state = self.app.table
        clock = None
        if state is not None and state.view is not None and not state.view.over:
            view = state.view
            seats = [view.seat] if view.seat in view.waiting else list(view.waiting)
            for seat in seats:
                clock = state.time_left(seat)
                if clock is not None:
                    break
        box = self.query_one("#countdown")
        box.display = clock is not None
        if clock is not None:
            left, total = clock
            self.query_one("#bar", ProgressBar).update(
                progress=100 * left / total if total else 0)
            self.query_one("#seconds", Label).update(seconds(left))
