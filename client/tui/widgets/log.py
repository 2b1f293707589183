"""A log that rewraps: the table's log and the lobby's chat, read from the keyboard.

Textual's RichLog wraps each line once, at the width it had when the line was written, so a
terminal made wider keeps lines broken short and one made narrower cuts them. This log keeps
what was written (as many entries as it keeps lines) and writes it all again at the new width
when its width changes, staying at the end if it was there. It never changes the text itself.
"""

from __future__ import annotations

from collections import deque

from rich.console import RenderableType
from textual.events import Resize
from textual.widgets import RichLog


class WrappingLog(RichLog):
    """A RichLog that wraps its lines again when its width changes."""

    def __init__(self, *, max_lines: int, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, min_width=20, max_lines=max_lines)
        #: What was written, oldest first: each entry makes at least one line, so keeping
        #: max_lines entries keeps every line the log can show.
        self._written: deque[RenderableType] = deque(maxlen=max_lines)
        #: The width the lines are wrapped at, and the height they were last shown in.
        self._wrapped_at = 0
        self._shown_height = 0

    def write(self, content: RenderableType, *args, **kwargs) -> WrappingLog:
        # Before its first size RichLog holds a write back and makes it again, through this
        # method, once the size is known: it is kept then, and so once.
        if self._size_known:
            self._written.append(content)
        return super().write(content, *args, **kwargs)

    def clear(self) -> WrappingLog:
        self._written.clear()
        return super().clear()

    def on_resize(self, event: Resize) -> None:
        # RichLog's own handler (run after this one) writes what waited for the first size.
        region = self.scrollable_content_region
        # At the end as it was shown before this resize: the new height moves the end.
        at_end = self.scroll_y >= self.virtual_size.height - self._shown_height
        self._shown_height = region.height
        if not self._size_known:
            self._wrapped_at = region.width
            return
        if region.width != self._wrapped_at:
            self._wrapped_at = region.width
            super().clear()
            for content in self._written:
                super().write(content, scroll_end=False)
        if at_end:
            self.scroll_end(animate=False, immediate=True)

    def scroll_for_key(self, where: str) -> None:
        """Scroll as a reading key asks: "page_up", "page_down", "home" or "end"."""
        {
            "page_up": self.scroll_page_up,
            "page_down": self.scroll_page_down,
            "home": self.scroll_home,
            "end": self.scroll_end,
        }[where](animate=False)
