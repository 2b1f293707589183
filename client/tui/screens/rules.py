"""The rules card on `?`: the game on one screen, in the chosen language.

At a table the card lists the actions of the variant in play (with Reformation's, and its
page: factions, the Almshouse, proving an Embezzlement), and keeps the open decision and its
clock in sight at its foot: the game does not wait while the card is read. Outside a table
(the menu, the lobby) it lists the base game, then what the Inquisitor changes, then what
Reformation adds.
The actions come from the engine's own tables (engine.cards), so the card cannot tell
another game than the one the server plays.
"""

from __future__ import annotations

from rich.table import Table
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Markdown, Static

from engine.cards import (
    ACTIONS_IN, BASE, EXAMINE, EXCHANGE, INQUISITOR_VARIANT, REFORMATION_ACTIONS,
    blockers_of, exchange_draw,
)

from ...i18n import N_, _, action_name, card_name, ngettext
from ..messages import TableChanged
from ...core.table import TableState
from ..widgets.decision import DecisionPanel
from ..widgets.reference import claimed
from .base import CoupModal

#: What each action does, in a few words (R4); Exchange's depends on the variant. Lambdas
#: keep each text a literal call the extractor finds, translated when shown.
EFFECTS = {
    "income": lambda: _("+1 coin"),
    "foreign_aid": lambda: _("+2 coins"),
    "coup": lambda: _("pay 7: the target loses an influence"),
    "tax": lambda: _("+3 coins"),
    "assassinate": lambda: _("pay 3: the target loses an influence"),
    "steal": lambda: _("take up to 2 coins from the target"),
    "examine": lambda: _("see a card the target picks; you say if they swap it"),
    "convert": lambda: _("pay 1 to change your own faction, 2 to change another "
                         "player's, into the Almshouse"),
    "embezzle": lambda: _("take every coin in the Almshouse"),
}


def effect(action: str, variant: str) -> str:
    if action == EXCHANGE:
        n = exchange_draw(variant)
        return ngettext("draw {n} card, keep as many as you had",
                        "draw {n} cards, keep as many as you had", n).format(n=n)
    return EFFECTS[action]()


def actions_table(variant: str, actions: tuple[str, ...]) -> Table:
    """One row per action: its name, the character it claims, its effect, who blocks it.
    Names stay on one line and the effect takes the width that is left."""
    grid = Table(box=None, expand=True, padding=(0, 1, 0, 0), show_edge=False)
    grid.add_column(_("Action"), no_wrap=True, style="bold")
    grid.add_column(_("Claims"), no_wrap=True)
    grid.add_column(_("Effect"), ratio=1)
    grid.add_column(_("Blocked by"), max_width=12)
    for action in actions:
        blockers = blockers_of(action, variant)
        grid.add_row(action_name(action), claimed(action, variant) or "–",
                     effect(action, variant),
                     ", ".join(card_name(c) for c in blockers) if blockers else "–")
    return grid


def rules_intro() -> str:
    return _("""\
# Coup — the rules card

**Goal:** be the last player with face-down cards (influence). Everyone starts with
2 cards and 2 coins. Losing an influence turns one of your cards face up; with none left
you are out.

**On your turn** take one action. With 10 coins or more you must Coup.
""")


def inquisitor_note() -> str:
    return _("""\
**The Inquisitor variant:** the Inquisitor replaces the Ambassador. It blocks Steal, and
claims these two actions instead of the Ambassador's Exchange:
""")


def reformation_page() -> str:
    """R12 for players: factions, the divided table, the Almshouse; its two actions follow
    in a table, then `reformation_proof`."""
    return _("""\
## Reformation

**Factions:** every player is Loyalist (◆) or Reformist (◇), dealt in turn from the first
player; anyone may see them. While both factions still have players in the game the table
is **divided**: Coup, Assassinate, Steal and Examine may name only a player of the other
faction, and nobody blocks a player of their own faction. Once everyone left shares one
faction the table is **unified**, and anyone may be aimed at. Challenges ignore factions.

**The Almshouse** is a pile of coins beside the treasury, empty at the start: Conversions
pay into it, and an Embezzlement takes all of it. Two actions are added:
""")


def reformation_proof() -> str:
    return _("""\
Nobody challenges or blocks a Conversion. An Embezzlement claims that you hold no Duke:
anyone may challenge it. You then prove it by showing all your face-down cards, none of
them a Duke (the challenger loses an influence, and your cards are shuffled back and
replaced), or you concede and lose an influence. Holding a Duke, you can only concede.
""")


def rules_rest() -> str:
    return _("""\
**Bluffing is allowed:** you may claim any character. Anyone may **challenge** a claim.
The claimant then shows the card (the challenger loses an influence, the card is shuffled
back and replaced) or concedes (the claimant loses an influence and the action fails,
its cost refunded).

**Blocks** are claims too, and may be challenged the same way.

**Clocks:** when your time runs out the table plays for you: a response passes, a turn
takes Income, and any other choice is made for you.

**Keys:** the action bar shows each move's key; `/` chats, `q` leaves, `?` shows this card.
""")


class RulesScreen(CoupModal):
    BINDINGS = [Binding("escape,question_mark,q", "close", N_("Close"))]

    #: The table whose decision shows under the card (the app's), changed in place: every
    #: assignment draws it again.
    state: reactive[TableState | None] = reactive(None, always_update=True, repaint=False)

    def compose(self) -> ComposeResult:
        table = self.coup.table
        view = table.view if table is not None else None
        with Vertical(classes="dialog rules"):
            with VerticalScroll(id="rules-text"):
                yield Markdown(rules_intro())
                if view is not None:
                    variant = view.options.variant
                    yield Static(actions_table(variant, ACTIONS_IN[variant]),
                                 id="rules-actions")
                else:
                    variant = BASE
                    yield Static(actions_table(BASE, ACTIONS_IN[BASE]), id="rules-actions")
                    yield Markdown(inquisitor_note())
                    yield Static(actions_table(INQUISITOR_VARIANT, (EXCHANGE, EXAMINE)),
                                 id="rules-inquisitor")
                yield Markdown(rules_rest())
                if view is None or view.options.reformation:
                    yield Markdown(reformation_page(), id="rules-reformation")
                    yield Static(actions_table(variant, REFORMATION_ACTIONS),
                                 id="rules-reformation-actions")
                    yield Markdown(reformation_proof())
            if view is not None and not view.over:
                yield DecisionPanel(id="decision").data_bind(RulesScreen.state)

    def on_mount(self) -> None:
        if self.built:
            self.state = self.coup.table

    @on(TableChanged)
    def _changed(self) -> None:
        if self.built:
            self.state = self.coup.table

    def action_close(self) -> None:
        self.dismiss(None)
