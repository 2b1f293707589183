"""The rules card on `?`: the game on one screen, in the chosen language."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Markdown

from ...i18n import N_, _
from .base import CoupModal


def rules_card() -> str:
    return _("""\
# Coup — the rules card

**Goal:** be the last player with face-down cards (influence). Everyone starts with
2 cards and 2 coins. Losing an influence turns one of your cards face up; with none left
you are out.

**On your turn** take one action. With 10 coins or more you must Coup.

| Action | Claims | Effect | Blocked by |
| --- | --- | --- | --- |
| Income | – | +1 coin | – |
| Foreign Aid | – | +2 coins | Duke |
| Coup | – | pay 7: the target loses an influence | – |
| Tax | Duke | +3 coins | – |
| Assassinate | Assassin | pay 3: the target loses an influence | Contessa |
| Steal | Captain | take 2 coins from the target | Captain, Ambassador, Inquisitor |
| Exchange | Ambassador | draw 2, keep as many as you had | – |
| Exchange | Inquisitor | draw 1, keep as many as you had | – |
| Examine | Inquisitor | see one card of the target; keep it or make them swap it | – |

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

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog rules"):
            yield Markdown(rules_card())

    def action_close(self) -> None:
        self.dismiss(None)
