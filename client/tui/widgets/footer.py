"""The footer every screen shows its keys in: Textual's, composed again only when the keys
it shows change.

Textual's footer builds all its keys again each time its screen says its bindings may have
changed (the screen pushed, focus moved, a binding refreshed), and says so several times
while a screen opens: the lobby's footer was built five times over, each time eight keys
styled from scratch, a third of the CPU a door's session spent to draw its lobby. This one
compares what it would show with what it shows. It must never leave a key out of date: what
it compares is everything a key is drawn from.

Textual's footer is first drawn empty, and gets its keys only once its screen has said its
bindings changed: the keys are then mounted, laid out and drawn in a pass of their own,
after the screen's first. One mounted into a screen whose focus is already given (the
lobby's, after its list has the focus) builds its keys at once, and the screen's first
layout has them. Its keys come with the footer's -compact class, which Textual's give
themselves once mounted, styling each key a second time.
"""

from __future__ import annotations

from typing import TypeAlias

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

#: What one key in the footer is drawn from: its key, how the key is written, what it does,
#: its description, its group, whether it is enabled, its tooltip.
Shown: TypeAlias = tuple[str, str, str, str, Binding.Group | None, bool, str]


class Footer(TextualFooter):
    """Textual's footer, rebuilt only for a change it shows."""

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
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                # As Textual's key gives itself once mounted (its compact is bound to the
                # footer's), when it restyles itself and its parts: given before, it is not.
                widget.set_class(self.compact, "-compact", update=False)
            yield widget

    def _keys(self) -> tuple[Shown, ...]:
        return tuple((binding.key, self.app.get_key_display(binding), binding.action,
                      binding.description, binding.group, enabled, tooltip)
                     for _node, binding, enabled, tooltip in self.screen.active_bindings.values()
                     if binding.show)

    async def recompose(self) -> None:
        if not self.is_attached:
            return
        keys = self._keys()
        if keys == self._shown:
            return
        self._shown = keys
        await super().recompose()
