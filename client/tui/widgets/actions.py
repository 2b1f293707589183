"""The action bar: one button per thing you may do now, each showing its one-key shortcut,
at least four to a row so that every one stays on screen at 80 columns, and all in one row
when the terminal is wide enough for every label whole.

The table screen hands it (key, label, callback) triples; a click or the key runs the callback.
Buttons are rebuilt only when the triples' keys and labels change, so that the bar does not
flicker on every update.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rich.cells import cell_len

from textual.containers import Container
from textual.content import Content
from textual.widgets import Button


class Item(NamedTuple):
    key: str
    label: str
    run: Callable[[], object]


class ActionBar(Container):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.items: list[Item] = []
        self._shown: list[tuple[str, str]] = []

    def set_items(self, items: list[Item], enabled: bool = True) -> None:
        self.items = items
        shown = [(i.key, i.label) for i in items]
        if shown != self._shown:
            self._shown = shown
            self.remove_children()
            self.mount_all(
                Button(Content.assemble((self._key_text(i.key), "bold"), " ", i.label),
                       name=str(n), compact=True, classes="action")
                for n, i in enumerate(items)
            )
        self.disabled = not enabled
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """As many buttons to a row as fit with their labels whole, four at the least."""
        if not self.items:
            return
        widest = max(cell_len(f"{self._key_text(i.key)} {i.label}") for i in self.items)
        gutter = 1  # (coup.tcss: grid-gutter)
        room = (self.content_size.width + gutter) // (widest + gutter)
        self.styles.grid_size_columns = max(4, min(len(self.items), room))

    @staticmethod
    def _key_text(key: str) -> str:
        return {"enter": "⏎", "question_mark": "?", "slash": "/"}.get(key, key)

    def press(self, key: str) -> bool:
        """Run the item bound to `key`, if the bar offers one; True if it did."""
        if self.disabled:
            return False
        for item in self.items:
            if item.key == key:
                item.run()
                return True
        return False

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        index = int(event.button.name)
        if index < len(self.items) and not self.disabled:
            self.items[index].run()
