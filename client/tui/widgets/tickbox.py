"""A check box whose mark differs in shape, not only in colour, ticked or not.

Textual's Checkbox draws "▐X▌" either way and tells the two apart by colour alone, which a
colour-blind player, a monochrome terminal or a screen capture loses. This one draws the X
only when ticked. It changes nothing else of Checkbox: never its keys, messages or value.
"""

from __future__ import annotations

from textual.widgets import Checkbox


class TickBox(Checkbox):
    """A Checkbox drawn "▐X▌" ticked and "▐ ▌" not."""

    def __init__(self, label: str, value: bool = False, *, id: str | None = None,
                 compact: bool = False) -> None:
        super().__init__(label, value, id=id, compact=compact)
        self._mark()

    def watch_value(self) -> None:
        super().watch_value()
        self._mark()

    def _mark(self) -> None:
        # Checkbox draws its mark from BUTTON_INNER at each render: an instance value wins.
        self.BUTTON_INNER = "X" if self.value else " "
