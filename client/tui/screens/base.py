"""What every screen of the app shares: key bindings shown in the chosen language.

Bindings are declared once per class, in English, marked with `N_` so that the catalog tool
extracts them; each screen translates its copy when it is made, so that the footer speaks
the language chosen at start (or in a test) rather than the one at import.
"""

from __future__ import annotations

from dataclasses import replace

from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen

from ...i18n import _


def translate_bindings(node: DOMNode) -> None:
    """Give `node`'s own copy of its bindings translated descriptions."""
    # Textual keeps each node's bindings in `_bindings`, copied from the class for the node.
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [replace(b, description=_(b.description)) if b.description else b
                      for b in bindings]


class CoupScreen(Screen):
    """A full screen of the app."""

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)


class CoupModal(ModalScreen):
    """A dialog over another screen; it returns its answer with `dismiss`."""

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)
