"""Lists that break only between their items: a seat's claims ("Duke ×2, Captain ×4,
Ambassador") laid out at whatever width they are drawn at, each item whole on its line.

Rich wraps text at spaces, so "Duke ×2" could end a line with "Duke" and start the next with
"×2", and a line that may not wrap is cut mid-item. This lays out the items itself. It never
breaks or cuts an item that fits on a line of its own (only one wider than the whole width is
cut, with an ellipsis), and it changes no item's text.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text


#: What stands between two items on a line.
SEPARATOR = ", "


def pack(items: Sequence[str], width: int, *, indent: str = "",
         separator: str = SEPARATOR) -> list[str]:
    """`items` joined by `separator` in lines of at most `width` cells, broken between items
    only (the separator's trailing space dropped at the break); every line starts with
    `indent`. An item too wide for any line gets one of its own."""
    lines: list[str] = []
    line = ""
    for n, item in enumerate(items):
        part = item + (separator if n < len(items) - 1 else "")
        if line and cell_len(indent + line + part.rstrip()) > width:
            lines.append(indent + line.rstrip())
            line = ""
        line += part
    if line:
        lines.append(indent + line.rstrip())
    return lines


class Items:
    """A Rich renderable: `items` packed to the width it is given."""

    def __init__(self, items: Sequence[str]) -> None:
        self.items = list(items)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in pack(self.items, options.max_width):
            yield Text(line, no_wrap=True, overflow="ellipsis")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """At least the widest item (with the separator it may end a line with), at most
        every item on one line."""
        ends = SEPARATOR.rstrip()
        widest = max((cell_len(item + ends) for item in self.items), default=0)
        whole = max((cell_len(line) for line in pack(self.items, 10**6)), default=0)
        return Measurement(widest, whole).clamp(max_width=options.max_width)
