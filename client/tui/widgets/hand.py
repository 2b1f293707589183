"""Your hand: your face-down cards, which only you know (a spectator has none).

It draws the TableState it is given (`state`), never the app's.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from ...i18n import _, card_name
from ...core.table import TableState


class HandPanel(Static):
    """Drawn from `state` whenever it is set (the screen sets it at every change)."""

    DEFAULT_CSS = """
    HandPanel {
        height: 3;
        border: round $accent;
        padding: 0 1;
    }
    """

    #: The table shown. It is changed in place: every assignment draws it again.
    state: reactive[TableState | None] = reactive(None, always_update=True, repaint=False)

    def on_mount(self) -> None:
        self.border_title = _("Your hand")

    def watch_state(self, state: TableState | None) -> None:
        view = state.view if state is not None else None
        if view is None:
            self.update("")
            return
        text = Text()
        if view.seat is None:
            self.border_title = _("Spectating")
            text.append(_("You see the public table only."), style="dim")
        else:
            self.border_title = _("Your hand")
            hand = view.hands[view.seat] or ()
            for card in hand:
                text.append(f" {card_name(card)} ", style="bold reverse")
                text.append(" ")
            if not hand:
                text.append(_("no cards yet: pick one from your set") if view.phase == "draft"
                            else _("no cards left"), style="dim")
        self.update(text)
