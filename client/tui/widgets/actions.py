"""The action bar: one button per thing you may do now, each showing its one-key shortcut
and its label whole: four to a row, all in one row when the terminal is wide enough, fewer
when four would cut a label.

The table screen hands it (key, label, callback) triples in `items`; a click or the key runs
the callback, unless the bar is disabled. Buttons are rebuilt only when the triples' keys and
labels change, so that the bar does not flicker on every update.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rich.cells import cell_len
from textual import on
from textual.containers import Container
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Button

#: Cells between two buttons of a row.
GUTTER = 1


class Item(NamedTuple):
    key: str
    label: str
    run: Callable[[], object]


class ActionBar(Container):
    DEFAULT_CSS = f"""
    ActionBar {{
        layout: grid;
        grid-size: 4;
        grid-gutter: 0 {GUTTER};
        grid-rows: 1;
        height: auto;
        padding: 0 1;
        Button {{
            width: 1fr;
            min-width: 0;
            text-wrap: nowrap;
            text-overflow: ellipsis;
        }}
    }}
    """

    #: What the bar offers, in its order.
    items: reactive[tuple[Item, ...]] = reactive((), repaint=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: list[tuple[str, str]] = []

    def watch_items(self, items: tuple[Item, ...]) -> None:
        shown = [(i.key, i.label) for i in items]
        if shown != self._shown:
            self._shown = shown
            self.remove_children()
            self.mount_all(
                Button(Content.assemble((self._key_text(i.key), "bold"), " ", i.label),
                       name=i.key, compact=True, classes="action")
                for i in items
            )
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """Four columns, or one a button when there are more and they fit, and fewer only
        where four would cut a label (at 80 columns "Bloquear como Condessa"): one row more
        costs the log a line, a cut label leaves a player guessing."""
        if not self.items:
            return
        widest = max(cell_len(f"{self._key_text(i.key)} {i.label}") for i in self.items)
        room = (self.content_size.width + GUTTER) // (widest + GUTTER)
        self.styles.grid_size_columns = max(1, min(room, max(4, len(self.items))))

    @staticmethod
    def _key_text(key: str) -> str:
        return {"enter": "⏎", "question_mark": "?", "slash": "/"}.get(key, key)

    def offered(self, key: str) -> Item | None:
        """The item bound to `key`, if the bar offers one now."""
        if self.disabled:
            return None
        return next((item for item in self.items if item.key == key), None)

    def press(self, key: str) -> bool:
        """Run the item bound to `key`, if the bar offers one; True if it did."""
        item = self.offered(key)
        if item is not None:
            item.run()
        return item is not None

    @on(Button.Pressed, ".action")
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.press(event.button.name or "")
