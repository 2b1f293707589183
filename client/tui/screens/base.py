"""What every screen of the app shares: key bindings shown in the chosen language, and notices
in plain text.

Bindings are declared once per class, in English, marked with `N_` so that the catalog tool
extracts them. A screen hands them out translated from `active_bindings` (the public
property the footer and the keys panel read), in the language chosen at start or in a test
rather than the one at import, the app's own bindings included.

A screen's notices go to the app's `notify` as plain text, as the app's own do: Textual's
screens would ask for markup, and a notice may carry a name or a code from the network.

A screen has its breakpoint classes (-wide, -narrow…) from the moment it is made, for the
terminal's size then; Textual gives them at its first layout, restyling the whole screen and
laying it out again, and keeps them up to date at each resize from then on.

A screen is styled as its widgets are mounted, and not all over again when it is first
shown (Textual does both). It is laid out again when the terminal's size changes, not when
it is told the size it was just laid out at, and showing it does not lay it out again to
hide its notices' rack, hidden already.

A screen reaches the app's own state and requests through `coup`, typed as the `CoupApp`
it runs in (Textual's `app` knows only a generic `App`); it never keeps the app elsewhere.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual import events
from textual.binding import ActiveBinding, Binding
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen, Screen
from textual.widgets._toast import ToastRack

from ...i18n import _

if TYPE_CHECKING:
    from ..app import CoupApp
    # What the mixins below are mixed into, for the checker: at run time they stay plain
    # classes, so that Textual's CSS type names and bindings see the screens as before.
    _Screen = Screen
else:
    _Screen = object


def translated(binding: Binding) -> Binding:
    """`binding` with its description in the chosen language."""
    return replace(binding, description=_(binding.description)) if binding.description \
        else binding


class TranslatedBindings(_Screen):
    """Mixed into a screen: its active bindings, described in the chosen language."""

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return {key: active._replace(binding=translated(active.binding))
                for key, active in super().active_bindings.items()}


class Built(_Screen):
    """Mixed into a screen: whether its widgets are there to draw on."""

    @property
    def built(self) -> bool:
        """False once the screen was taken off the app's stack or the app was asked to close
        (then it is no longer attached). A screen taken off while it was being built never
        gets its widgets, yet its `on_mount` and the calls it deferred still run: they look
        here first."""
        return self.is_attached and self.app.is_running and self in self.app.screen_stack


class SizedFromTheStart(_Screen):
    """Mixed into a screen: its breakpoint classes set for the terminal's size as it is made
    (a door's lobby was styled twice over and laid out once more as it opened, for its
    -wide)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        app = self.app
        # Which breakpoints are the screen's, as Textual's Screen._on_resize reads them; the
        # class each size gets is decided by the method it calls.
        horizontal = (app.HORIZONTAL_BREAKPOINTS if self.HORIZONTAL_BREAKPOINTS is None
                      else self.HORIZONTAL_BREAKPOINTS)
        vertical = (app.VERTICAL_BREAKPOINTS if self.VERTICAL_BREAKPOINTS is None
                    else self.VERTICAL_BREAKPOINTS)
        for size, breakpoints in ((app.size.width, horizontal), (app.size.height, vertical)):
            self.add_class(*self._get_breakpoint_classes(size, breakpoints or []),
                           update=False)


class StyledOnce(_Screen):
    """Mixed into a screen: not restyled as a whole when it is first shown. Textual restyles
    a screen and all it holds each time it is pushed, right after each of its widgets was
    styled as it was mounted (the screen's own CSS, if any, is read before that): the same
    styles computed twice, half of what a door's lobby spent on styles as it opened. From
    its second showing on, Textual decides as before."""

    _shown_before = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual calls each class's handler, the most derived first: this one before the
        # Screen's own, which reads the event's refresh_styles.
        if not self._shown_before:
            self._shown_before = True
            event.refresh_styles = False


class LaidOutForNewSizes(_Screen):
    """Mixed into a screen: laid out again for a size it has not been laid out at. Textual
    tells a screen its size after its first layout, as it tells each widget, and then lays
    the screen out again (and the screens under it) for that same size; it also passes on a
    terminal's size unchanged (a terminal's first report). A door's lobby was laid out and
    drawn once more for each."""

    async def _on_resize(self, event: events.Resize) -> None:
        # Textual calls each class's handler, the most derived first (a screen's own
        # on_resize still runs): this one before the Screen's, which lays out, updates the
        # screens under it and the breakpoints, all of them decided by the size alone.
        if event.size == self.outer_size:
            event.prevent_default()


class NoticesHiddenFromTheStart(_Screen):
    """Mixed into a screen: its notices' rack hidden as Textual hides it while there is no
    notice (display: none, inline), from its mount. Textual's rack is hidden by its own CSS
    at first, and hidden again each time its screen is shown, inline, which lays the screen
    out once more: a door's lobby, right after it was drawn. Showing a notice sets it
    inline too, and lays the screen out for it, as before."""

    def _on_mount(self, event: events.Mount) -> None:
        for rack in self.query_children(ToastRack):
            # Set without a refresh: what it is drawn from is the same.
            rack.styles.set_rule("display", "none")


class PlainNotices(_Screen):
    """Mixed into a screen: its notices in plain text unless markup is asked for."""

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        self.app.notify(message, title=title, severity=severity, timeout=timeout,
                        markup=markup)


class OfCoupApp(_Screen):
    """Mixed into a screen: the app it runs in, with the app's own state and requests."""

    @property
    def coup(self) -> CoupApp:
        # Imported here: the app imports the screens, so this module cannot import it first.
        from ..app import CoupApp
        app = self.app
        if not isinstance(app, CoupApp):
            raise TypeError(f"{type(self).__name__} runs only in the CoupApp, not in "
                            f"{type(app).__name__}")
        return app


class CoupScreen(TranslatedBindings, Built, SizedFromTheStart, StyledOnce, LaidOutForNewSizes,
                 NoticesHiddenFromTheStart, PlainNotices, OfCoupApp, Screen):
    """A full screen of the app."""


class CoupModal(TranslatedBindings, Built, StyledOnce, LaidOutForNewSizes,
                NoticesHiddenFromTheStart, PlainNotices, OfCoupApp, ModalScreen):
    """A dialog over another screen; it returns its answer with `dismiss`."""
