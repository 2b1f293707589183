"""Words for the table: events as log sentences, the open decision as a prompt, moves as
button labels, and error codes as sentences — all through the translation catalog.

Everything takes a `names` function (seat → the name to show) so that it knows nothing of
widgets; the wire's ids (cards, actions, codes) are turned into words here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TypeVar

from engine import VARIANTS, Event, Move, View
from engine.bots import LEVELS, STRATEGIES
from engine.cards import CLAIMS_IN, CONVERT, COST, DENIED, EMBEZZLE, MUST_COUP, convert_cost

from .core.table import Claim, Outcome
from .i18n import N_, _, action_name, card_name, faction_name, ngettext

Names = Callable[[int | None], str]
T = TypeVar("T")


def _given(value: T | None, what: str) -> T:
    """`value`, which an event, move or view of this kind always carries (engine/events.py
    lists each kind's fields): one without it is malformed, and fails here saying so rather
    than further on, or on screen as "None"."""
    if value is None:
        raise ValueError(f"no {what} where this kind always names one")
    return value


def _card(card: str | None) -> str:
    """The name of the card that an event, move or view of this kind always names."""
    return card_name(_given(card, "card"))


def cards_text(cards) -> str:
    return ", ".join(card_name(c) for c in cards)


def claim_text(card: str, times: int) -> str:
    """A character claimed `times` this game, as a list of claims shows it: "Duke ×2"."""
    return card_name(card) + (f" ×{times}" if times > 1 else "")


def recent_claim_text(claim: Claim, names: Names) -> str:
    """One of a seat's latest claims, as its list shows it: what was claimed, and how a
    challenge of it ended: "Tax (Duke)", "Steal from Ana (Captain, proved)", "Block Bruno
    (Contessa, conceded)"."""
    if claim.action is None:
        deed = _("Block {name}").format(name=names(claim.target))
    elif claim.target is not None:
        deed = _aimed(claim.action, names(claim.target))
    else:
        deed = action_name(claim.action)
    card = card_name(claim.card)
    if claim.outcome is Outcome.PROVED:
        card = _("{card}, proved").format(card=card)
    elif claim.outcome is Outcome.CONCEDED:
        card = _("{card}, conceded").format(card=card)
    return f"{deed} ({card})"


def said_already(e: Event, before: Event | None) -> bool:
    """Whether `e` tells nothing the event `before` it did not: the redraws that follow a
    proof by showing every card (R12.12.1, one a card), whose line tells them all. A front
    end tells an event only if not."""
    return (e.kind == "redraw" and before is not None and before.seat == e.seat
            and before.kind in ("disprove", "redraw"))


def event_text(e: Event, names: Names, me: int | None) -> str | None:
    """The sentence for one event (None for those not worth a line, like a turn's start)."""
    who = names(e.seat)
    target = names(e.target)
    kind = e.kind
    if kind == "turn":
        return _("— {name}'s turn —").format(name=who)
    if kind == "action":
        if e.action == CONVERT:  # the convert event that follows at once says it all
            return None
        return _action_text(e, who, target, e.target is not None and e.target == me)
    if kind == "pass":
        if e.card is not None:  # a challenge window: the claim stands as far as `who` goes
            if e.target == me:
                return _("{name} does not challenge your {card}").format(
                    name=who, card=_card(e.card))
            return _("{name} does not challenge {target}'s {card}").format(
                name=who, target=target, card=_card(e.card))
        if e.action is not None:
            return _("{name} does not block").format(name=who)
        if e.target is not None:  # a window on a claim of no card: an Embezzlement's
            if e.target == me:
                return _("{name} does not challenge your Embezzlement").format(name=who)
            return _("{name} does not challenge {target}'s Embezzlement").format(
                name=who, target=target)
        return _("{name} passes").format(name=who)
    if kind == "challenge":
        if e.card is None:  # R12.11.1: an Embezzlement claims to hold no Duke
            return _("{name} challenges {target}'s claim to hold no {card}").format(
                name=who, target=target, card=card_name(DENIED))
        return _("{name} challenges {target}: {card}?").format(
            name=who, target=target, card=_card(e.card))
    if kind == "disprove":  # R12.12.1: its redraws are told here (see said_already)
        return _("{name} shows every card, none a {card}: {cards}, and draws as many new "
                 "ones from the deck").format(name=who, card=card_name(DENIED),
                                              cards=cards_text(e.cards))
    if kind == "prove":
        return _("{name} shows the {card}: the claim was true").format(
            name=who, card=_card(e.card))
    if kind == "redraw":
        return _("{name} shuffles it into the deck and draws a new card").format(name=who)
    if kind == "concede":
        # R6.2: a claimant may concede with the card in hand, so this says no more than that
        if e.card is None:  # R12.12.2: the claim of no card is an Embezzlement's
            return _("{name} concedes the Embezzlement").format(name=who)
        return _("{name} concedes the {card} claim").format(name=who, card=_card(e.card))
    if kind == "refund":
        return ngettext("{name} gets {n} coin back", "{name} gets {n} coins back",
                        _given(e.amount, "amount")).format(name=who, n=e.amount)
    if kind == "block":
        return _block_text(who, target, _card(e.card), e.target == me)
    if kind == "lose":
        return _("{name} loses an influence: {card}").format(name=who, card=_card(e.card))
    if kind == "exile":
        return _("{name} is out of the game").format(name=who)
    if kind == "gain":
        return ngettext("{name} takes {n} coin", "{name} takes {n} coins",
                        _given(e.amount, "amount")).format(name=who, n=e.amount)
    if kind == "steal":
        return ngettext("{name} steals {n} coin from {target}",
                        "{name} steals {n} coins from {target}",
                        _given(e.amount, "amount")).format(name=who, n=e.amount, target=target)
    if kind == "exchange":
        return ngettext("{name} draws {n} card to exchange", "{name} draws {n} cards to exchange",
                        _given(e.amount, "amount")).format(name=who, n=e.amount)
    if kind == "keep":
        return ngettext("{name} returns {n} card to the deck",
                        "{name} returns {n} cards to the deck",
                        _given(e.amount, "amount")).format(name=who, n=e.amount)
    if kind == "examine":
        return _("{target} must show {name} a card").format(name=who, target=target)
    if kind == "examine_keep":
        return _("{name} lets {target} keep the card").format(name=who, target=target)
    if kind == "examine_swap":
        return _("{name} makes {target} swap the card for a new one").format(
            name=who, target=target)
    if kind == "drafted":
        return _("{name} picks a card").format(name=who)
    if kind == "convert":
        return _convert_text(e, who, target, me)
    if kind == "embezzle":
        return ngettext("{name} takes {n} coin from the Almshouse",
                        "{name} takes {n} coins from the Almshouse",
                        _given(e.amount, "amount")).format(name=who, n=e.amount)
    if kind == "fail":
        return _fail_text(e, who, target)
    if kind == "win":
        return _("{name} wins the game!").format(name=who)
    if kind == "forfeit":
        return _("{name} forfeits").format(name=who)
    if kind == "drew":
        return _("You draw: {cards}").format(cards=cards_text(e.cards))
    if kind == "kept":
        return _("You keep: {cards}").format(cards=cards_text(e.cards))
    if kind == "shown":
        if e.seat == me:
            return _("You show {target} your {card}").format(target=target,
                                                             card=_card(e.card))
        return _("{name} shows you the {card}").format(name=who, card=_card(e.card))
    if kind == "picked":
        return _("You pick: {card}").format(card=_card(e.card))
    return None


def _convert_text(e: Event, who: str, target: str, me: int | None) -> str:
    """R12.9, R12.18: a Conversion, its payer, its target, its cost and the new faction."""
    faction = faction_name(_given(e.faction, "faction"))
    n = _given(e.amount, "amount")
    if e.target == e.seat:
        text = ngettext("{name} converts to {faction}, paying {n} coin into the Almshouse",
                        "{name} converts to {faction}, paying {n} coins into the Almshouse", n)
    elif e.target == me:
        text = ngettext("{name} converts you to {faction}, paying {n} coin into the Almshouse",
                        "{name} converts you to {faction}, paying {n} coins into the "
                        "Almshouse", n)
    else:
        text = ngettext("{name} converts {target} to {faction}, paying {n} coin into the "
                        "Almshouse",
                        "{name} converts {target} to {faction}, paying {n} coins into the "
                        "Almshouse", n)
    return text.format(name=who, target=target, faction=faction, n=n)


def face_up_text(e: Event, names: Names, returned: Sequence[str] = ()) -> str | None:
    """A private event (engine/events.py) as a replay with every card face up tells it: the
    cards of whoever drew, kept, showed or picked them, in the third person (the seat's own
    words are event_text's, told to that seat alone). `returned`, with the cards an Exchange
    kept: those it put back in the deck. None for a public event."""
    who = names(e.seat)
    kind = e.kind
    if kind == "drew":
        return _("{name} draws: {cards}").format(name=who, cards=cards_text(e.cards))
    if kind == "kept":
        return _("{name} keeps: {kept}; returns: {returned}").format(
            name=who, kept=cards_text(e.cards), returned=cards_text(returned))
    if kind == "shown":
        return _("{name} shows {target} the {card}").format(
            name=who, target=names(e.target), card=_card(e.card))
    if kind == "picked":
        return _("{name} picks: {card}").format(name=who, card=_card(e.card))
    return None


def passes_text(passes: Sequence[Event], names: Names, me: int | None, everyone: bool) -> str:
    """One line for the passes of one response window, all on the same claim (R6.1) or all on
    the same action that may be blocked (R7): a lone pass in its own words, as `event_text`
    says it; "No one challenges" when `everyone` who could answer passed; else the passers
    by name, since someone else answered or the window ended early."""
    if not passes:
        raise ValueError("no passes to tell")
    if len(passes) == 1:
        return _given(event_text(passes[0], names, me), "sentence")
    claim = passes[0].action is None  # a block window's passes name the action
    if everyone:
        return _("No one challenges") if claim else _("No one blocks")
    who = [names(e.seat) for e in passes]
    listed = _("{names} and {last}").format(names=", ".join(who[:-1]), last=who[-1])
    if claim:
        return _("{names} do not challenge").format(names=listed)
    return _("{names} do not block").format(names=listed)


def _action_text(e: Event, who: str, target: str, at_me: bool) -> str:
    return _declared(_given(e.action, "action"), e.card, who, target, at_me)


def _declared(action: str, card: str | None, who: str, target: str, at_me: bool) -> str:
    """An action as declared, each in words of its own (never "action on target"), and to
    "you" when `at_me`: the seat it is aimed at reads that it is the one in danger."""
    if action in ("income", "foreign_aid"):  # no claim, no target: the action's name says it
        return _("{name}: {action}").format(name=who, action=action_name(action))
    card = card_name(card) if card is not None else ""
    if action == "tax":
        return _("{name} claims {card} to collect Tax").format(name=who, card=card)
    if action == EMBEZZLE:  # R12.11.1: an inverse claim
        return _("{name} claims to hold no {card}, to embezzle the Almshouse").format(
            name=who, card=card_name(DENIED))
    if action == "exchange":
        return _("{name} claims {card} to exchange cards").format(name=who, card=card)
    if action == "steal":
        if at_me:
            return _("{name} claims {card} to steal from you").format(name=who, card=card)
        return _("{name} claims {card} to steal from {target}").format(
            name=who, card=card, target=target)
    if action == "assassinate":
        if at_me:
            return _("{name} claims {card} to assassinate you").format(name=who, card=card)
        return _("{name} claims {card} to assassinate {target}").format(
            name=who, card=card, target=target)
    if action == "examine":
        if at_me:
            return _("{name} claims {card} to examine you").format(name=who, card=card)
        return _("{name} claims {card} to examine {target}").format(
            name=who, card=card, target=target)
    if at_me:  # a Coup, the one targeted action that claims nothing
        return _("{name} launches a Coup against you").format(name=who)
    return _("{name} launches a Coup against {target}").format(name=who, target=target)


def _block_text(who: str, target: str, card: str, at_me: bool) -> str:
    if at_me:
        return _("{name} blocks you as {card}").format(name=who, card=card)
    return _("{name} blocks {target} as {card}").format(name=who, target=target, card=card)


def _fail_text(e: Event, who: str, target: str) -> str:
    """Whose action failed and why (the engine's FAIL_REASONS)."""
    action = e.action
    if action == "steal":
        deed = _("{name}'s attempt to steal from {target}").format(name=who, target=target)
    elif action == "assassinate":
        deed = _("{name}'s attempt to assassinate {target}").format(name=who, target=target)
    elif action == "examine":
        deed = _("{name}'s attempt to examine {target}").format(name=who, target=target)
    elif action == "foreign_aid":
        deed = _("{name}'s attempt to take Foreign Aid").format(name=who)
    elif action == "tax":
        deed = _("{name}'s attempt to collect Tax").format(name=who)
    elif action == EMBEZZLE:
        deed = _("{name}'s attempt to embezzle the Almshouse").format(name=who)
    else:  # an Exchange: Income and Coup cannot fail
        deed = _("{name}'s attempt to exchange cards").format(name=who)
    reason = e.reason
    if reason == "actor_out":
        why = _("{name} is out of the game").format(name=who)
    elif reason == "target_out":
        why = _("{name} is already out").format(name=target)
    elif reason == "conceded":
        why = _("the claim was given up")
    elif reason == "blocked":
        why = _("the block stands")
    else:
        return _("{deed} fails").format(deed=deed)
    return _("{deed} fails: {why}").format(deed=deed, why=why)


def move_label(mv: Move, names: Names, view: View | None = None) -> str:
    """A move as its button says it. `view`, the view the move is made on, if known: then a
    Conversion says its cost and names its mover "yourself" (R12.9.1), and the proof of an
    Embezzlement shows every card (R12.12.1)."""
    kind = mv.kind
    me = view.seat if view is not None else None
    if kind == CONVERT and me is not None:
        cost = convert_cost(me, mv.target)
        if mv.target == me:
            text = ngettext("Convert yourself ({n} coin)", "Convert yourself ({n} coins)", cost)
        else:
            text = ngettext("Convert {target} ({n} coin)", "Convert {target} ({n} coins)", cost)
        return text.format(target=names(mv.target), n=cost)
    if kind == "prove" and view is not None and view.action == EMBEZZLE:
        return _("Show all your cards")
    if kind == "challenge":
        return _("Challenge")
    if kind == "pass":
        return _("Pass")
    if kind == "block":
        return _("Block as {card}").format(card=_card(mv.card))
    if kind == "prove":
        return _("Show the card")
    if kind == "concede":
        return _("Concede")
    if kind == "lose":
        return _("Lose {card}").format(card=_card(mv.card))
    if kind == "keep":
        return _("Keep {cards}").format(cards=cards_text(mv.cards))
    if kind == "show":
        return _("Show {card}").format(card=_card(mv.card))
    if kind == "examine_decision":
        return _("Make them swap it") if mv.swap else _("Let them keep it")
    if kind == "draft_pick":
        return _("Pick {card}").format(card=_card(mv.card))
    if mv.target is not None:
        return _aimed(kind, names(mv.target))
    return action_name(kind)


def _aimed(action: str, target: str) -> str:
    """A targeted action with its target, as a button says it: "Steal from Bot 2"."""
    if action == "steal":
        return _("Steal from {target}").format(target=target)
    if action == "assassinate":
        return _("Assassinate {target}").format(target=target)
    if action == "examine":
        return _("Examine {target}").format(target=target)
    if action == CONVERT:
        return _("Convert {target}").format(target=target)
    return _("Coup against {target}").format(target=target)


def prompt(view: View, names: Names) -> str:
    """What the table is waiting for, said to this viewer."""
    me = view.seat
    mine = me is not None and me in view.waiting
    phase = view.phase
    if phase == "over":
        return _("{name} wins the game!").format(name=names(view.winner))
    if phase == "draft":
        return _("Pick a card for your hand") if mine else _("The draft: both players pick")
    if phase == "action":
        coins = view.coins[me] if me is not None else 0
        if mine and coins >= MUST_COUP:  # R3.4: the one move left needs its reason
            return ngettext("Your turn: with {n} coin you must Coup",
                            "Your turn: with {n} coins you must Coup",
                            coins).format(n=coins)
        if mine:
            return _("Your turn: choose an action")
        return _("{name}'s turn").format(name=names(view.actor))
    if phase == "respond":
        return _respond_prompt(view, names, mine)
    if phase == "prove" and view.action == EMBEZZLE and view.claim is None:  # R12.12
        if view.claimant == me:
            return _("{name} challenges your Embezzlement: show all your cards, none a "
                     "{card}, or concede").format(name=names(view.challenger),
                                                  card=card_name(DENIED))
        return _("{name} must show every card, none a {card}, or concede").format(
            name=names(view.claimant), card=card_name(DENIED))
    if phase == "prove":
        if view.claimant == me:
            return _("{name} challenges your {card}: show it or concede").format(
                name=names(view.challenger), card=_card(view.claim))
        return _("{name} must show the {card} or concede").format(
            name=names(view.claimant), card=_card(view.claim))
    if phase == "lose":
        waiting = view.waiting[0] if view.waiting else None
        if mine:
            return loss_reason(view, names)
        return _("{name} chooses a card to lose").format(name=names(waiting))
    if phase == "keep":
        if mine:
            return ngettext("Choose {n} card to keep", "Choose {n} cards to keep",
                            view.keep_count or 0).format(n=view.keep_count)
        return _("{name} exchanges cards").format(name=names(view.actor))
    if phase == "show":
        if mine:
            return _("Show {name} one of your cards").format(name=names(view.actor))
        return _("{target} shows {name} a card").format(name=names(view.actor),
                                                         target=names(view.target))
    if phase == "examine_decision":
        if mine:
            return _("{target} showed you the {card}: let them keep it or make them swap it"
                     ).format(target=names(view.target), card=_card(view.shown))
        return _("{name} decides what {target} does with the shown card").format(
            name=names(view.actor), target=names(view.target))
    return ""


def loss_reason(view: View, names: Names) -> str:
    """Why the viewer, who owes the open loss, loses an influence (R2.1, R5.3, R6.3, R6.4):
    the line that said so in the log is under the dialog that asks for the card."""
    if view.reason == "coup":
        return _("{name} launched a Coup against you: choose the card you lose").format(
            name=names(view.actor))
    if view.reason == "assassinate":
        return _("{name} assassinated you: choose the card you lose").format(
            name=names(view.actor))
    if view.claim is None and view.action == EMBEZZLE:  # R12.12: a claim of no Duke
        if view.seat == view.challenger:
            return _("{name} showed every card, none a {card}: you lost your challenge. "
                     "Choose the card you lose").format(name=names(view.claimant),
                                                       card=card_name(DENIED))
        return _("You conceded {name}'s challenge of your Embezzlement: choose the card you "
                 "lose").format(name=names(view.challenger))
    if view.seat == view.challenger:  # the claim was proved
        return _("{name} showed the {card}: you lost your challenge. Choose the card you lose"
                 ).format(name=names(view.claimant), card=_card(view.claim))
    return _("You conceded {name}'s challenge of your {card}: choose the card you lose"
             ).format(name=names(view.challenger), card=_card(view.claim))


def choice_title(view: View, names: Names) -> str:
    """The question of a decision made in a dialog, which the viewer owes."""
    phase = view.phase
    if phase == "draft":
        return _("Pick a card for your hand")
    if phase == "lose":
        return loss_reason(view, names)
    if phase == "keep":
        return _("Choose the cards you keep")
    if phase == "show":
        return _("Choose the card you show")
    return _("{name} showed you the {card}: what happens to it?").format(  # R4.4
        name=names(view.target), card=_card(view.shown))


def _respond_prompt(view: View, names: Names, mine: bool) -> str:
    me = view.seat
    if view.step == "challenge_block":  # whose action the block stops
        text = _block_text(names(view.blocker), names(view.actor), _card(view.block_card),
                           view.actor == me)
    else:  # the action's claim, or its block window (the claim stood, or there is none)
        action = _given(view.action, "action")
        text = _declared(action, CLAIMS_IN[view.options.variant][action],
                         names(view.actor), names(view.target),
                         view.target is not None and view.target == me)
    if not mine:
        return _("{what} — waiting for answers").format(what=text)
    kinds = {mv.kind for mv in view.legal_moves()}
    if "challenge" in kinds and "block" in kinds:
        return _("{what} — challenge, block or pass?").format(what=text)
    if "block" in kinds:
        return _("{what} — block or pass?").format(what=text)
    return _("{what} — challenge or pass?").format(what=text)


def presence_text(status: str, name: str) -> str | None:
    """What the log says when a seated player goes away, comes back, leaves, or is replaced
    by a bot at the end of the grace (the wire's presence statuses)."""
    texts = {
        "away": _("{name} lost the connection: the seat waits for them"),
        "here": _("{name} is back"),
        "left": _("{name} left the table"),
        "bot": _("{name} did not come back: a bot plays the seat"),
    }
    text = texts.get(status)
    return text.format(name=name) if text else None


def move_refused_text(code: str, kind: str | None) -> str:
    """Why our move of `kind` was refused: error_text's sentence, and for a move we cannot
    afford, what it costs (a newcomer cannot know that Assassinate needs 3)."""
    if code == "cannot_afford" and kind == CONVERT:  # R12.9.1: its cost is its target's
        return _("You do not have enough coins: {action} costs 1 coin for yourself, 2 for "
                 "anyone else.").format(action=action_name(kind))
    cost = COST.get(kind) if kind is not None else None
    if code == "cannot_afford" and cost is not None and kind is not None:
        return _("You do not have enough coins: {action} costs {cost}.").format(
            action=action_name(kind), cost=cost)
    return error_text(code)


def almshouse_text(coins: int) -> str:
    """The Almshouse's coins (R12.10), as a status line says them."""
    return ngettext("Almshouse: {n} coin", "Almshouse: {n} coins", coins).format(n=coins)


def unity_text(view: View) -> str:
    """Whether a Reformation table is divided or unified (R12.5), and what that means for
    aiming (R12.6)."""
    if view.unified:
        return _("The table is unified: anyone may be aimed at")
    return _("The table is divided: aim only at the other faction")


def closed_text(reason: str | None, said: str | None, said_message: str | None = None) -> str:
    """Why the connection ended: the server's goodbye (its own sentence `said_message`, else
    our sentence for its code `said`), else the link's words `reason`."""
    return (said_message or (error_text(said) if said is not None else None) or reason
            or _("the server closed the connection"))


def error_text(code: str) -> str:
    """A refusal's code as a sentence for players (the server's own sentence is English)."""
    texts = {
        "stale_state": _("Too late: the game has moved on."),
        "game_over": _("The game is over."),
        "bad_seat": _("There is no such seat."),
        "exiled": _("You are out of the game."),
        "not_your_turn": _("It is not your move."),
        "not_allowed_now": _("That move does not answer the decision that is open."),
        "unknown_move": _("That is not a move."),
        "bad_move": _("That move is malformed."),
        "unknown_card": _("That is not a card."),
        "not_in_variant": _("That card or action is not in this game."),
        "must_coup": _("With 10 coins or more you must Coup."),
        "cannot_afford": _("You do not have enough coins."),
        "bad_target": _("You cannot target that player."),
        "bad_block": _("That character cannot block this action."),
        "card_not_held": _("You do not hold that card."),
        "bad_keep": _("Those cards cannot be kept."),
        "same_faction": _("While the table is divided, you cannot aim at or block a player "
                          "of your own faction."),
        "almshouse_empty": _("The Almshouse has no coins to embezzle."),
        "holds_duke": _("You hold a Duke: you cannot prove you hold none."),
        "no_such_table": _("There is no such table."),
        "table_full": _("That table is full."),
        "seat_taken": _("That seat is taken."),
        "bad_options": _("Those table options are not valid."),
        "bad_token": _("The seat could not be taken back."),
        "not_at_table": _("You are not at a table."),
        "already_at_table": _("You are already at a table."),
        "already_queued": _("You are already waiting for a quick-play table."),
        "not_seated": _("Spectators cannot do that."),
        "not_creator": _("Only the table's creator can do that."),
        "game_running": _("The game has already started."),
        "game_not_over": _("The game is not over yet."),
        "not_ready": _("Not every player is ready."),
        "no_players": _("A game needs at least two players."),
        "no_game": _("There is no game in play."),
        "unknown_strategy": _("There is no such bot."),
        "too_many_attempts": _("Too many wrong codes: wait a little, then try again."),
        "too_many_tables": _("The server, your address or you have all the tables allowed "
                             "open: join one, or try again later."),
        "table_failed": _("Your table failed on the server and was closed."),
        "no_such_game": _("There is no finished game with that number."),
        "no_such_player": _("No one of that name has played a rated game on this server."),
        "no_records": _("This server keeps no records of its games."),
        "store_failed": _("The server could not read its records; try again later."),
        "record_too_large": _("That game's record is too large to fetch."),
        "too_many_pending": _("The server is still reading your last requests: wait for "
                              "them, then ask again."),
        "rate_limited": _("Slow down: too many messages."),
        "bad_message": _("The server could not read that request."),
        "unknown_type": _("The server does not know that request."),
        "bad_frame": _("The server could not read what this client sent."),
        "frame_too_large": _("A message was too large for the server."),
        "internal_error": _("The server failed; nothing changed."),
        "server_shutdown": _("The server is stopping."),
        "server_restart": _("The server is restarting; seats are kept for their players to "
                            "come back to."),
        "slow_consumer": _("The connection was too slow."),
        "replaced": _("Your seat was taken back on another connection."),
        "too_many_connections": _("The server is full."),
        "idle_timeout": _("The connection was idle for too long."),
        "bad_nonce": _("The server did not take this client's proof of who you are."),
        "wrong_server": _("Your proof of who you are was meant for another server."),
        "nonce_used": _("This connection has already said who you are."),
        "bad_signature": _("Your key's signature did not verify: check your identity file."),
        "no_door": _("This server does not take the door's word for who you are."),
        "name_taken": _("That name belongs to another player on this server: choose "
                        "another."),
        "not_allowed": _("You may not do that: it is for the server's operators (or, to "
                         "remove a player, for the table's creator before the game)."),
        "muted": _("An operator muted you in chat for a while."),
        "kicked": _("You were removed from the table: you are in the lobby."),
        "table_closed": _("An operator closed your table: you are in the lobby."),
        "game_done": _("The tournament's game is over: you are in the lobby, for your next."),
        "not_identified": _("Only a player with a key enters a tournament: connect with "
                            "your identity, not as a guest."),
        "no_tournament": _("There is no tournament for that now."),
        "tournament_exists": _("The server has a tournament open or running already: stop "
                               "it first."),
        "tournament_full": _("The tournament has as many entrants as it may."),
        "tournament_started": _("The tournament has started: its entries are closed."),
        "banned": _("You are banned from this server for a while."),
        "bad_key": _("The server does not take this key: it cannot be anyone's. Make a new "
                     "identity file."),
        "name_reserved": _("That name is kept for guests or bots on this server: choose "
                           "another."),
        "too_many_identities": _("Your address has made as many new identities as it may "
                                 "this hour: use one you have, or wait."),
    }
    return texts.get(code, code)


def strategy_label(name: str) -> str:
    """A bot strategy as the forms offer it."""
    labels = {
        "random": _("Random: any legal move"),
        "honest": _("Honest: never bluffs"),
        "heuristic": _("Heuristic: counts cards, bluffs"),
        "baseline": _("Baseline: the old heuristic"),
        "ismcts": _("Search: thinks ahead"),
        "careless": _("Careless: misjudges at times"),
        "bluffer": _("Bluffer: lies boldly"),
        "cautious": _("Cautious: never lies"),
        "vengeful": _("Vengeful: strikes back"),
        "banker": _("Banker: races to Coup"),
    }
    return labels.get(name, name)


def variant_label(variant: str) -> str:
    return _("Inquisitor") if variant == "inquisitor" else _("Base game")


def game_label(options: dict) -> str:
    """The game a table's options (the wire's map) play, as the lobbies (the terminal
    app's and plain mode's) and the table's header name it: the deck's variant, and
    Reformation when it is on (R12.1)."""
    variant = variant_label(options.get("variant", "base"))
    if options.get("reformation"):
        return _("{variant}, Reformation").format(variant=variant)
    return variant


#: What each difficulty level's bots do, in a few words, in English: the one description of
#: the levels, which the forms (`level_label`, translated) and `coup play --help` both show.
LEVEL_DESCRIPTIONS: Mapping[str, str] = MappingProxyType({
    "easy": N_("any legal move"),
    "medium": N_("calls bluffs, slips"),
    "hard": N_("counts cards, bluffs"),
    "expert": N_("thinks ahead, slower"),
})
#: Each level's name as the forms write it.
_LEVEL_NAMES = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard"),
                "expert": N_("Expert")}


def level_label(name: str) -> str:
    """A difficulty level as the forms offer it: its name, then what its bots do."""
    if name not in LEVEL_DESCRIPTIONS:
        return name
    level, description = _LEVEL_NAMES[name], LEVEL_DESCRIPTIONS[name]
    return _("{level}: {description}").format(level=_(level), description=_(description))


def strategy_choices() -> list[tuple[str, str]]:
    """Every difficulty level, then every bot strategy, as a form's (label, value) choices."""
    return [(level_label(n), n) for n in LEVELS] + [(strategy_label(s), s) for s in STRATEGIES]


def variant_choices() -> list[tuple[str, str]]:
    """Every variant as a form's (label, value) choices."""
    return [(variant_label(v), v) for v in VARIANTS]
