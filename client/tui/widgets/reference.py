"""The actions card, as the game's reference card has it: each action of this table's
variant (and Reformation's two, at its tables) with its cost, the character it claims and
the characters that block it. Every
entry comes from the engine's own tables (engine.cards), so the card cannot tell another
game than the one the server plays; it must never hold a rule of its own.

It draws the TableState it is given (`state`), never the app's: the variant is its view's.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from engine import View
from engine.cards import (ACTIONS_IN, CONVERT, COST, DENIED, EMBEZZLE, REFORMATION_ACTIONS,
                          blockers_of, claim_of, convert_cost)

from ...i18n import _, action_name, card_name
from ...core.table import TableState

#: What an entry without a cost, a claim or a block reads.
NONE = "–"


def entry(text: str | None, style: str = "") -> Text:
    """An entry of the card: `text` in `style`, or NONE, dim, where there is nothing."""
    return Text(text, style=style) if text else Text(NONE, style="dim")


def claimed(action: str, variant: str) -> str | None:
    """What `action` claims, as a card's column says it: a character, "no Duke" for an
    Embezzlement (R12.11.1, an inverse claim), or None."""
    if action == EMBEZZLE:
        return _("no {card}").format(card=card_name(DENIED))
    claim = claim_of(action, variant)
    return card_name(claim) if claim else None


def cost_text(action: str) -> str | None:
    """What `action` costs when declared (R4.1), e.g. "7¢"; a Conversion's both costs,
    oneself's and another's (R12.9.1): "1–2¢"; None if nothing."""
    if action == CONVERT:
        return _("{low}–{high}¢").format(low=convert_cost(0, 0), high=convert_cost(0, 1))
    cost = COST.get(action)
    return _("{n}¢").format(n=cost) if cost else None


def card_actions(view: View) -> tuple[str, ...]:
    """The actions of `view`'s table: its variant's, then Reformation's at its tables."""
    actions = ACTIONS_IN[view.options.variant]
    return actions + REFORMATION_ACTIONS if view.options.reformation else actions


def actions_card(variant: str, actions: tuple[str, ...] | None = None) -> Table:
    """One row per action (by default, every one of `variant`): its name, cost, claim and
    blockers. The names stay on one line; the blockers take the width that is left,
    wrapping between names."""
    grid = Table(box=None, expand=True, padding=(0, 1, 0, 0), show_edge=False)
    grid.add_column(_("Action"), no_wrap=True, style="bold")
    grid.add_column(_("Cost"), no_wrap=True, justify="right")
    grid.add_column(_("Claims"), no_wrap=True)
    grid.add_column(_("Blocked by"), ratio=1)
    for action in ACTIONS_IN[variant] if actions is None else actions:
        blockers = blockers_of(action, variant)
        grid.add_row(action_name(action), entry(cost_text(action), "yellow"),
                     entry(claimed(action, variant)),
                     entry(", ".join(card_name(c) for c in blockers)))
    return grid


class ActionsCard(Static):
    """Drawn from `state` whenever it is set (the screen sets it at every change)."""

    DEFAULT_CSS = """
    ActionsCard {
        height: auto;
        border: round $primary;
        padding: 0 1;
    }
    """

    #: The table shown. It is changed in place: every assignment draws it again.
    state: reactive[TableState | None] = reactive(None, always_update=True, repaint=False)

    def on_mount(self) -> None:
        self.border_title = _("Actions")

    def watch_state(self, state: TableState | None) -> None:
        view = state.view if state is not None else None
        self.update(actions_card(view.options.variant, card_actions(view))
                    if view is not None else "")
