"""A log that rewraps: the table's log and the lobby's chat, read from the keyboard; and the
table's log, which tells a game's events, the seats' comings and goings and the table's chat.

Textual's RichLog wraps each line once, at the width it had when the line was written, so a
terminal made wider keeps lines broken short and one made narrower cuts them. This log keeps
what was written (as many entries as it keeps lines) and writes it all again at the new width
when its width changes (the terminal's, or a scrollbar shown or hidden), staying at the end if
it was there. It never changes the text itself.

The table's log writes what it is given, in the words of narrate.py; it never reads the app.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Self

from rich.console import RenderableType
from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog

from engine import Event

from ...i18n import _
from ...narrate import event_text, passes_text, presence_text, said_already

#: How each event kind reads in the log.
EVENT_STYLES = {"turn": "dim", "win": "bold green", "lose": "red", "exile": "bold red",
                "challenge": "yellow", "block": "cyan", "forfeit": "red"}


def event_line(event: Event, names: Callable[[int | None], str], me: int | None) -> Text | None:
    """`event` as a line of the log, told to seat `me` (None: a spectator) with the seats
    named by `names`; None for an event the log does not tell."""
    text = event_text(event, names, me)
    return Text(text, style=EVENT_STYLES.get(event.kind, "")) if text else None


class WrappingLog(RichLog):
    """A RichLog that wraps its lines again when its width changes."""

    def __init__(self, *, max_lines: int, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, min_width=20, max_lines=max_lines)
        #: What was written, oldest first: each entry makes at least one line, so keeping
        #: max_lines entries keeps every line the log can show.
        self._written: deque[RenderableType | object] = deque(maxlen=max_lines)
        #: The width the lines are wrapped at, and the height they were last shown in.
        self._wrapped_at = 0
        self._shown_height = 0

    def write(self, content: RenderableType | object, width: int | None = None,
              expand: bool = False, shrink: bool = True, scroll_end: bool | None = None,
              animate: bool = False) -> Self:
        # Before its first size RichLog holds a write back and makes it again, through this
        # method, once the size is known: it is kept then, and so once.
        if self._size_known:
            self._written.append(content)
        return super().write(content, width, expand, shrink, scroll_end, animate)

    def clear(self) -> Self:
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
        self._wrap_at(region.width)
        if at_end:
            self.scroll_end(animate=False, immediate=True)

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        # A log styled `overflow-y: auto` (the lobby's chat) shows its scrollbar once its
        # lines overflow, in columns the lines had: they are written again in what is left,
        # and the log, at its end as it was written, stays there (no Resize says so: the
        # log's size is the same).
        if self._size_known and self._wrap_at(self.scrollable_content_region.width) and shown:
            self.scroll_end(animate=False, immediate=True)

    def _wrap_at(self, width: int) -> bool:
        """Write every line kept again at `width`, unless they are wrapped at it already;
        whether they were written again."""
        if width == self._wrapped_at:
            return False
        self._wrapped_at = width
        super().clear()
        for content in self._written:
            super().write(content, scroll_end=False)
        return True

    def scroll_for_key(self, where: str) -> None:
        """Scroll as a reading key asks: "page_up", "page_down", "home" or "end"."""
        {
            "page_up": self.scroll_page_up,
            "page_down": self.scroll_page_down,
            "home": self.scroll_home,
            "end": self.scroll_end,
        }[where](animate=False)


class TableLog(WrappingLog):
    """The table's log: each new view's events, who came or went, and what was said.

    The passes of a response window are held back and told on one line once the window
    closes (issue 30: at 80x24 a line per pass, each wrapped in two, pushed the claim out
    of sight), so while answers are awaited the claim is the last thing the log says."""

    DEFAULT_CSS = """
    TableLog {
        border: round $primary;
    }
    """

    def __init__(self, *, max_lines: int, id: str | None = None) -> None:
        super().__init__(max_lines=max_lines, id=id)
        #: The passes of the open response window, in order.
        self._passes: list[Event] = []

    def tell(self, events: Iterable[Event], names: Callable[[int | None], str],
             me: int | None, *, new_game: bool = False,
             earlier: Iterable[Event] = ()) -> None:
        """Write a new view's `events`, after `earlier`, what happened before the view came
        that the log lacks (a snapshot's), under a heading; `new_game`: the view starts a
        game."""
        events, earlier = list(events), list(earlier)
        if earlier or new_game:
            self._fold(None, names, me)
        if earlier:
            self.write(Text(_("Earlier in this game:") if new_game
                            else _("While you were away:"), style="bold"))
        elif new_game and not events:
            self.write(Text(_("A new game begins."), style="bold"))
        before: Event | None = None
        for e in (*earlier, *events):
            # Anything but a pass of the window held closes it; so does another's pass.
            if e.kind != "pass" or (self._passes and not self._same_window(e)):
                self._fold(e, names, me)
            if e.kind == "pass":
                self._passes.append(e)
            elif not said_already(e, before) and (line := event_line(e, names, me)):
                self.write(line)
            before = e

    def _same_window(self, e: Event) -> bool:
        first = self._passes[0]
        return (e.target, e.card, e.action) == (first.target, first.card, first.action)

    def _fold(self, closing: Event | None, names: Callable[[int | None], str],
              me: int | None) -> None:
        """Tell the held passes, if any, on one line: the window was closed by `closing`
        (None: by a gap in what the log was told)."""
        if not self._passes:
            return
        # A challenge or a forfeit cuts a window short. So does a block, unless its blocker
        # is among those who passed: then the claim's window had closed, every answer in,
        # and the block answers the next one (the target blocks after letting a claim stand).
        cut = closing is None or closing.kind in ("challenge", "forfeit") or (
            closing.kind == "block" and closing.seat not in {e.seat for e in self._passes})
        self.write(Text(passes_text(self._passes, names, me, everyone=not cut)))
        self._passes = []

    def came_or_went(self, status: str, name: str) -> None:
        """A seat's presence changed to `status` ("here", "away", "bot", "left")."""
        text = presence_text(status, name)
        if text:
            self.write(Text(text, style="italic"))

    def said(self, name: str, text: str, spectator: bool) -> None:
        """`name` said `text` at the table, from a seat or (`spectator`) from none."""
        who = _("{name} (spectator)").format(name=name) if spectator else name
        line = Text(f"{who}: ", style="bold magenta")
        line.append(text)
        self.write(line)
