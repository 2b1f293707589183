"""The footer every screen shows its keys in: Textual's footer, its keys drawn in one line by
one widget, and drawn again only when the keys it shows change.

Textual's footer makes a widget of each key: the lobby's nine were a sixth of what a door's
session spent to draw its lobby (59 ms to a settled lobby, 50 without them), each one made,
styled with its two parts, mounted, laid out and drawn twice. Here one widget, `Keys`, draws
them all as Textual's look: its CSS is theirs (its parts have their names, so a theme or our
stylesheet styles both alike), each key spaced, padded, dimmed when disabled and lit under
the mouse as theirs, and a key pressed with the mouse is the key pressed (a disabled one
rings the bell), its tooltip shown over it. It must never leave a key out of date: what the
footer compares is everything a key is drawn from. Textual's footer also shows the command
palette's key and groups of keys; the app has neither.

Textual's footer builds all its keys again each time its screen says its bindings may have
changed (the screen pushed, focus moved, a binding refreshed), and says so several times
while a screen opens; this one compares what it would show with what it shows. Textual's
footer is first drawn empty, and gets its keys only once its screen has said its bindings
changed: the keys are then mounted, laid out and drawn in a pass of their own, after the
screen's first. One mounted into a screen whose focus is already given (the lobby's, after
its list has the focus) builds its keys at once, and the screen's first layout has them.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Spacing
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter


class Shown(NamedTuple):
    """What one key in the footer is drawn from."""

    key: str
    #: How the key is written ("⏎", "esc").
    display: str
    action: str
    description: str
    group: Binding.Group | None
    enabled: bool
    tooltip: str


class Keys(Widget):
    """The footer's keys in one line, as Textual's footer draws its keys (one widget each)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"footer-key", "footer-key--key", "footer-key--description",
                         "footer-key--hover", "footer-key--disabled"}
    # Textual's FooterKey's, part for part: its own style is footer-key's (footer-key--hover
    # under the mouse, in its place), a disabled key's footer-key--disabled, its key's and
    # description's footer-key--key and footer-key--description.
    DEFAULT_CSS = """
    Keys {
        width: auto;
        height: 1;
        text-wrap: nowrap;
        &:hover {
            pointer: pointer;
        }
        .footer-key {
            background: $footer-item-background;
        }
        .footer-key--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        .footer-key--disabled {
            text-style: dim;
        }
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
            padding: 0 1;
        }
        .footer-key--description {
            padding: 0 1 0 0;
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        &.-compact {
            .footer-key--key {
                padding: 0;
            }
            .footer-key--description {
                padding: 0 0 0 1;
            }
        }
    }
    """

    #: The keys, in the order they are drawn.
    keys: reactive[tuple[Shown, ...]] = reactive((), layout=True)
    #: The key under the mouse, by its place in `keys`.
    hovered: reactive[int | None] = reactive(None)

    def __init__(self, keys: tuple[Shown, ...], *, compact: bool) -> None:
        super().__init__()
        self.set_reactive(Keys.keys, keys)
        # Not narrowed to the footer's width, as Textual's keys are not: the footer scrolls.
        self.set_reactive(Widget.shrink, False)
        # Its footer's: the keys' parts are padded less, and the keys a column apart.
        self.set_class(compact, "-compact", update=False)

    def _paddings(self) -> tuple[Spacing, Spacing]:
        """How a key's two parts are padded: its key's, its description's."""
        return (self.get_component_styles("footer-key--key").padding,
                self.get_component_styles("footer-key--description").padding)

    def spans(self) -> list[tuple[Shown, int, int]]:
        """Each key with the columns it is drawn in, from its first to past its last."""
        key_padding, description_padding = self._paddings()
        # A compact footer's keys are a column apart (Textual's have a margin of one).
        gap = 1 if self.has_class("-compact") else 0
        spans = []
        start = 0
        for key in self.keys:
            # Padded only with a description, as Textual's keys are.
            width = cell_len(key.display)
            if key.description:
                width += (key_padding.left + key_padding.right + description_padding.left
                          + cell_len(key.description) + description_padding.right)
            spans.append((key, start, start + width))
            start += width + gap
        return spans

    def render(self) -> Text:
        line = Text(no_wrap=True)
        # A key's margin is drawn as the footer's background is: no colour of its own.
        gap = Style(bgcolor=self.rich_style.bgcolor)
        end = 0
        paddings = self._paddings()
        for place, (key, start, stop) in enumerate(self.spans()):
            line.append(" " * (start - end), gap)
            line.append_text(self._drawn(key, place == self.hovered, paddings))
            end = stop
        return line

    def _drawn(self, key: Shown, hovered: bool, paddings: tuple[Spacing, Spacing]) -> Text:
        """One key, as Textual's FooterKey renders itself: its parts' styles laid over its
        own (footer-key's, or footer-key--hover's under the mouse, with footer-key--disabled
        if it is), each background blended over the one under it."""
        own = ("footer-key--hover" if hovered else "footer-key",
               *(() if key.enabled else ("footer-key--disabled",)))
        key_padding, description_padding = paddings
        key_style = self.get_visual_style(*own, "footer-key--key").rich_style
        if key.description:
            text = Text.assemble(
                (" " * key_padding.left + key.display + " " * key_padding.right, key_style),
                (" " * description_padding.left + key.description
                 + " " * description_padding.right,
                 self.get_visual_style(*own, "footer-key--description").rich_style))
        else:
            text = Text.assemble((key.display, key_style))
        text.stylize_before(self.get_visual_style(*own).rich_style)
        return text

    def _at(self, x: int) -> int | None:
        """The place in `keys` of the key drawn at column `x`, if any."""
        return next((place for place, (_key, start, stop) in enumerate(self.spans())
                     if start <= x < stop), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hovered = self._at(event.x)

    def on_leave(self) -> None:
        self.hovered = None

    def watch_hovered(self, hovered: int | None) -> None:
        tooltip = self.keys[hovered].tooltip if hovered is not None else ""
        self.tooltip = tooltip or None

    def on_mouse_down(self, event: events.MouseDown) -> None:
        place = self._at(event.x)
        if place is None:
            return
        key = self.keys[place]
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()


class Footer(TextualFooter):
    """Textual's footer, its keys drawn by one widget, built again only for a change it
    shows."""

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(compact=compact)
        #: The keys the footer was last built with; None before its first build with keys.
        self._shown: tuple[Shown, ...] | None = None

    def compose(self) -> ComposeResult:
        if self.screen.focused is not None:
            # The keys the focus gives are known: built now, not after a first empty draw
            # (a screen's focus is given after the footer its compose yields is built).
            self.set_reactive(TextualFooter._bindings_ready, True)
        if self._bindings_ready:
            self._shown = self._keys()
            yield Keys(self._shown, compact=self.compact)

    def watch_compact(self, compact: bool) -> None:
        for line in self.query_children(Keys):
            line.set_class(compact, "-compact")

    def _keys(self) -> tuple[Shown, ...]:
        # One key for each action, the first bound to it, as Textual's footer shows them.
        first: dict[str, Shown] = {}
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show:
                first.setdefault(binding.action, Shown(
                    binding.key, self.app.get_key_display(binding), binding.action,
                    binding.description, binding.group, enabled, tooltip))
        return tuple(first.values())

    async def recompose(self) -> None:
        if not self.is_attached:
            return
        keys = self._keys()
        if keys == self._shown:
            return
        self._shown = keys
        for line in self.query_children(Keys):
            line.keys = keys
            line.hovered = None
            return
        await super().recompose()
