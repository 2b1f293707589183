"""Plain mode's own words: the prompt line with its numbered choices, the table's state one
line a seat, the hand, the lobby's tables, a finished game's results, the help, and what a
typed line means (a choice's number or words, or a command).

Everything here returns text and knows nothing of terminals or the network; the game's
sentences (events, questions, move labels, refusals) come from client/narrate.py, so the
two clients say the same things. Nothing here carries meaning by colour or layout: each
line reads whole on its own, as a screen reader speaks it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from engine import Options, View
from engine.cards import ACTIONS, ALLOWED

from ..core.table import TableState
from ..i18n import _, action_name, faction_name, ngettext, pgettext
from ..moderation import MODERATION
from ..moderation import command_names as moderation_names
from ..moderation import usage as moderation_usage
from ..narrate import Names, almshouse_text, cards_text, claim_text, game_label, unity_text

#: Commands, by their English word; each has its translated word too (`command_words`).
COMMANDS = ("help", "status", "hand", "log", "repeat", "say", "list", "create", "join",
            "spectate", "leave", "quit", *MODERATION)


def command_names() -> dict[str, str]:
    """Each command's word in the player's language, by its English word."""
    return {
        "help": pgettext("command", "help"),
        "status": pgettext("command", "status"),
        "hand": pgettext("command", "hand"),
        "log": pgettext("command", "log"),
        "repeat": pgettext("command", "repeat"),
        "say": pgettext("command", "say"),
        "list": pgettext("command", "list"),
        "create": pgettext("command", "create"),
        "join": pgettext("command", "join"),
        "spectate": pgettext("command", "spectate"),
        "leave": pgettext("command", "leave"),
        "quit": pgettext("command", "quit"),
    } | moderation_names()


def command_words() -> dict[str, str]:
    """Every word that names a command, in English and in the player's language → the
    command's English word."""
    words = {fold(word): command for command, word in command_names().items()}
    words.update({command: command for command in COMMANDS})
    return words


def help_lines(operator: bool = False) -> list[str]:
    """What `help` prints: how to answer, then each command, a line each; the operators'
    commands for an operator, and for everyone else the one a table's creator has."""
    c = command_names()
    return [
        _("Answer a prompt with the number of a choice, or its words (\"income\", \"coup "
          "bot 2\")."),
        _("{status}: coins and cards of every player; {hand}: your cards").format(
            status=c["status"], hand=c["hand"]),
        _("{log} N: the last N lines again; {repeat}: the question again").format(
            log=c["log"], repeat=c["repeat"]),
        _("{say} TEXT: chat; {quit}: leave the table and quit").format(say=c["say"],
                                                                          quit=c["quit"]),
        _("In a lobby: {list} the tables; {create} SEATS [BOTS] a table, with bots of that "
          "level in the empty seats when it starts; {join} ID or CODE; {spectate} ID").format(
            list=c["list"], create=c["create"], join=c["join"], spectate=c["spectate"]),
        _("{create} SEATS [BOTS] {reformation}: a table of the Reformation expansion. At one, "
          "\"convert bot 2\" or \"convert me\" converts, \"embezzle\" embezzles; {status} "
          "says each faction and the Almshouse").format(
            create=c["create"], reformation=reformation_word(), status=c["status"]),
        _("{leave}: leave the table for the lobby (in a game, a bot plays your seat)").format(
            leave=c["leave"]),
    ] + moderation_usage(operator)


@dataclass(frozen=True, slots=True)
class Prompt:
    """A question with numbered choices. `key` tells one asking from another (the same key
    is not printed twice); `seat`: whose clock the question runs on, if any."""

    question: str
    choices: tuple[tuple[str, object], ...]
    key: tuple
    seat: int | None = None


def prompt_line(p: Prompt, seconds: float | None) -> str:
    """The prompt as one line: "Your turn: choose an action (45 s): 1 Income; 2 Tax"."""
    # Choices are parted by semicolons: a choice of cards to keep has commas of its own.
    choices = "; ".join(f"{n} {label}" for n, (label, _value) in enumerate(p.choices, 1))
    if seconds is None:
        return _("{question}: {choices}").format(question=p.question, choices=choices)
    return _("{question} ({seconds} s): {choices}").format(
        question=p.question, seconds=round(seconds), choices=choices)


def fold(text: str) -> str:
    """`text` as typed words are compared: lower case, without accents, single spaces."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in plain if not unicodedata.combining(c)).split())


def _words(text: str) -> list[str]:
    return fold(text).replace(",", " ").replace("(", " ").replace(")", " ").split()


def reformation_word() -> str:
    """The word `create` takes for a Reformation table, in the player's language."""
    return pgettext("command", "reformation")


def self_words() -> set[str]:
    """The words by which a player names themself in a typed move ("convert me"), in
    English and in the player's language."""
    return {"me", "myself", *_words(pgettext("typed", "me myself"))}


def matches(typed: str, labels: list[str], own: tuple[int, ...] = ()) -> list[int]:
    """The indexes of the labels `typed` names: a label typed whole, else those that hold
    every typed word ("coup 2" names "Coup against Bot 2"). Typed with a word for oneself
    ("convert me"), only the labels at the indexes `own` (the moves that name the player,
    such as a self-Conversion) are named, by the other words."""
    wanted = fold(typed)
    whole = [i for i, label in enumerate(labels) if fold(label) == wanted]
    if whole:
        return whole
    words = _words(typed)
    me = self_words()
    if any(w in me for w in words):
        rest = [w for w in words if w not in me]
        return [i for i in own if all(w in _words(labels[i]) for w in rest)]
    return [i for i, label in enumerate(labels)
            if words and all(w in _words(label) for w in words)]


def action_named(typed: str, options: Options) -> tuple[str, str] | None:
    """The action of the game (its variant's, and Reformation's at such a table) whose name
    begins `typed` ("renda": income; "converter bot 2": convert), and the words after its
    name, if any action's name does."""
    words = fold(typed).split()
    allowed = ALLOWED[options.variant, options.reformation]
    for action in (a for a in ACTIONS if a in allowed):
        name = fold(action_name(action)).split()
        if words[:len(name)] == name:
            return action, " ".join(words[len(name):])
    return None


def seat_line(state: TableState, view: View, seat: int) -> str:
    """One seat's public state: "Bot 2: 3 coins, 2 cards face down, face up: Duke"."""
    name = state.name(seat)
    if seat == view.seat:
        name = _("{name} (you)").format(name=name)
    if view.factions:  # R12.4: every seat's faction, said in words, the exiled's too
        name = _("{name}, {faction}").format(name=name,
                                             faction=faction_name(view.factions[seat]))
    if not view.alive[seat]:
        line = _("{name}: out of the game").format(name=name)
    else:
        coins = ngettext("{n} coin", "{n} coins", view.coins[seat]).format(n=view.coins[seat])
        cards = ngettext("{n} card face down", "{n} cards face down",
                         view.influence[seat]).format(n=view.influence[seat])
        line = _("{name}: {coins}, {cards}").format(name=name, coins=coins, cards=cards)
    if view.revealed[seat]:
        line += "; " + _("face up: {cards}").format(cards=cards_text(view.revealed[seat]))
    return line


def table_line(view: View) -> str:
    """The treasury and the Court deck, the table's own public state; at a Reformation
    table the Almshouse beside the treasury, and whether the table is divided (R12.18)."""
    coins = ngettext("{n} coin", "{n} coins", view.treasury).format(n=view.treasury)
    cards = ngettext("{n} card", "{n} cards", view.deck_size).format(n=view.deck_size)
    if view.options.reformation:
        return _("Treasury: {coins}; {almshouse}; Court deck: {cards}; {unity}").format(
            coins=coins, almshouse=almshouse_text(view.almshouse), cards=cards,
            unity=unity_text(view))
    return _("Treasury: {coins}; Court deck: {cards}").format(coins=coins, cards=cards)


def hand_line(view: View) -> str:
    """The viewer's cards: face down, face up, and an Exchange's draw or a draft's set."""
    me = view.seat
    if me is None:
        return _("You are spectating: you hold no cards.")
    line = _("Your cards: {cards}").format(cards=cards_text(view.hands[me] or ()) or "–")
    if view.revealed[me]:
        line += "; " + _("face up: {cards}").format(cards=cards_text(view.revealed[me]))
    if view.drawn:
        line += "; " + _("drawn: {cards}").format(cards=cards_text(view.drawn))
    if view.draft_sets and view.draft_sets[me]:
        line += "; " + _("to pick from: {cards}").format(cards=cards_text(view.draft_sets[me]))
    return line


def tables_lines(tables: list[dict]) -> list[str]:
    """The lobby's tables, a line each: id, name, variant, seats taken, status."""
    if not tables:
        return [_("No tables yet: create one with create SEATS.")]
    statuses = {"waiting": _("waiting for players"), "playing": _("playing"),
                "over": _("game over")}
    lines = []
    for t in tables:
        taken = sum(1 for s in t["seats"] if s["name"] or s["bot"])
        lines.append(_("Table {id}: {name}, {variant}, {taken} of {seats} seats taken, "
                       "{status}").format(
            id=t["table"], name=t["name"], variant=game_label(t["options"]), taken=taken,
            seats=len(t["seats"]), status=statuses.get(t["status"], t["status"])))
    return lines


def seats_line(state: TableState) -> str:
    """Who sits at the table before the game: "Seats: Ana (ready), empty"."""
    names = []
    for info in state.seats:
        if info.get("name") or info.get("bot"):
            name = state.name(info["seat"])
            names.append(_("{name} (ready)").format(name=name) if info.get("ready") else name)
        else:
            names.append(_("empty"))
    return _("Seats: {names}").format(names=", ".join(names))


def results_lines(state: TableState, names: Names) -> list[str]:
    """A finished game: who went out in which order, and every seat's cards, claims,
    bluffs and challenges (from the summary, when the server sent it)."""
    reveal = state.reveal or state.view
    assert reveal is not None  # a game that ended was seen
    lines = []
    summary = state.summary
    if summary is not None and summary["out"]:
        lines.append(_("Out, first to last: {names}").format(
            names=", ".join(names(seat) for seat in summary["out"])))
    for seat in range(len(reveal.alive)):
        line = _("{name}: {cards}").format(
            name=names(seat), cards=cards_text([*(reveal.hands[seat] or ()),
                                               *reveal.revealed[seat]]))
        if summary is not None:
            record = summary["seats"][seat]
            claims = ", ".join(claim_text(c, n) for c, n in record["claims"].items())
            line += "; " + _("claims: {claims}; bluffs: {bluffs}; challenges won {won}, "
                             "lost {lost}").format(
                claims=claims or "–", bluffs=record["bluffs"],
                won=record["challenges_won"], lost=record["challenges_lost"])
        lines.append(line)
    return lines
