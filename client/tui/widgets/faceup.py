"""The characters face up: for each character of the table's deck, how many of its copies
lie face up in front of the players ("Captain 1 of 3"), which is where counting cards
starts. The characters and their copies are the engine's deck for this table's variant and
size (engine.cards), never a second copy of the rules.

It draws the TableState it is given (`state`), never the app's, and only what everyone
sees: it must never count a card of a hand, ours included (the hand has its own panel).
"""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static

from engine import View
from engine.cards import CAST, copies_in_game

from ...i18n import _, card_name
from ...core.table import TableState
from .items import Items


def face_up(view: View) -> list[tuple[str, int, int]]:
    """(character, copies face up, copies in the game) for each character of `view`'s
    deck, in the deck's order."""
    options = view.options
    copies = copies_in_game(options.players, options.draft)
    return [(card, sum(cards.count(card) for cards in view.revealed), copies)
            for card in CAST[options.variant]]


class FaceUpPanel(Static):
    """Drawn from `state` whenever it is set (the screen sets it at every change)."""

    DEFAULT_CSS = """
    FaceUpPanel {
        height: auto;
        border: round $primary;
        padding: 0 1;
    }
    """

    #: The table shown. It is changed in place: every assignment draws it again.
    state: reactive[TableState | None] = reactive(None, always_update=True, repaint=False)

    def on_mount(self) -> None:
        self.border_title = _("Face up")

    def watch_state(self, state: TableState | None) -> None:
        view = state.view if state is not None else None
        if view is None:
            self.update("")
            return
        self.update(Items([_("{card} {n} of {copies}").format(card=card_name(card), n=n,
                                                              copies=copies)
                           for card, n, copies in face_up(view)]))
