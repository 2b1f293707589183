"""Plain mode at Reformation tables (rules.md R12), as transcripts through pipes: `coup play
--plain --reformation` against bots, and `coup join --plain` creating a Reformation table on a
server over TCP.

A whole game is played by words and numbers: the factions in the seat lines and the
Almshouse and the table's division in the status (R12.4, R12.5, R12.18), an Embezzlement
refused while the Almshouse is empty (R12.11.2), a target of one's own faction refused in
words on a divided table (R12.6), a Conversion of oneself typed as "convert me" (R12.9), an
Embezzlement typed as "embezzle" (R12.11), and every decision of the game answered until it
ends. No escape sequence is ever written.
"""

from __future__ import annotations

import re
from pathlib import Path

from client.i18n import set_language
from client.narrate import move_label
from client.plain.text import matches
from engine import Game, Options
from server import ServerConfig
from tests.client.test_plain import leaves_cleanly
from tests.client.transcript import Transcript
from tests.client.tui.helpers import ServerThread

#: A deal of three seats where Ana acts first, and her first turn is refused a Steal
#: from Bot 3, of her own faction (R12.3: seats 0 and 2 are Loyalist).
THREE = "1"
#: A two-seat deal whose game, played as `answer` plays it, meets both of Reformation's
#: actions (two seats: a window on a claim is one seat's, so no answer meets another's).
TWO = "3"
SEAT = re.compile(r"^(?P<name>.+?)(?P<you> \(you\))?, (?P<faction>Loyalist|Reformist): ")


def practice(bots: int, seed: str, lang: str = "en") -> Transcript:
    return Transcript("play", "--plain", "--reformation", "--bots", str(bots), "--strategy",
                      "random", "--seed", seed, "--bot-delay", "0", "--clock", "off",
                      "--name", "Ana", lang=lang)


def status(t: Transcript) -> tuple[dict[str, str], str, str]:
    """`status`: each seat's faction by name, our own name, and the table's line (a line of
    the game that a bot's move writes meanwhile is passed over)."""
    t.send("status")
    factions: dict[str, str] = {}
    me = ""
    while not (line := t.line()).startswith("Treasury:"):
        seat = SEAT.match(line)
        if seat is None:
            continue
        factions[seat["name"]] = seat["faction"]
        if seat["you"]:
            me = seat["name"]
    return factions, me, line


def answer(labels: list[str], done: set[str]) -> str:
    """What the test types: Reformation's actions once each when offered (by words), else
    a Coup when it must or can, else Income; every other question by its first choice, or
    a pass."""
    if labels[0] == "Income" or labels[0].startswith("Coup against"):
        if "Embezzle" in labels and "embezzle" not in done:
            done.add("embezzle")
            return "embezzle"
        if "Convert yourself (1 coin)" in labels and "convert" not in done:
            done.add("convert")
            return "convert me"
        coups = [label for label in labels if label.startswith("Coup against")]
        return coups[0] if coups else "income"
    if "Pass" in labels:
        return "pass"
    return "1"


def test_the_first_turn_at_a_reformation_table_by_words() -> None:
    """R12.4–R12.6, R12.9, R12.11.2 at Ana's first turn, which waits for her: the status,
    an Embezzlement and a Steal from her own faction refused in words, "convert me"."""
    t = practice(2, THREE)
    try:
        assert t.prompt() == ["Ready", "Start the game"]
        t.send("help")
        t.until('"convert bot 2" or "convert me"')
        t.send("start")
        t.until("A new game begins.")
        labels = t.prompt()
        assert labels[0] == "Income" and "Embezzle" not in labels
        factions, me, table = status(t)
        assert factions == {me: "Loyalist", "Bot 2": "Reformist", "Bot 3": "Loyalist"}
        assert "; Almshouse: 0 coins; Court deck: " in table
        assert table.endswith("; The table is divided: aim only at the other faction")
        t.send("embezzle")
        assert t.line() == "The Almshouse has no coins to embezzle."
        assert t.prompt() == labels
        t.send("steal from bot 3")
        assert t.line() == ("While the table is divided, you cannot aim at or block a player "
                            "of your own faction.")
        assert t.prompt() == labels
        assert "Convert Bot 3 (2 coins)" in labels
        t.send("convert me")
        assert t.until("converts") == (f"{me} converts to Reformist, paying 1 coin into the "
                                       "Almshouse")
        t.send("quit")
        t.until("Type quit again to leave.")
        leaves_cleanly(t, "quit")
    finally:
        t.close()


def test_a_whole_two_player_reformation_game_in_plain_mode() -> None:
    """R12.14: a whole game at two, the draft included, with a Conversion typed as "convert
    me" and an Embezzlement typed as "embezzle", to its winner."""
    t = practice(1, TWO)
    try:
        assert t.prompt() == ["Ready", "Start the game"]
        t.send("start")
        t.until("A new game begins.")
        done: set[str] = set()
        labels = t.prompt()
        while labels[0] != "Rematch":
            t.send(answer(labels, done))
            labels = t.prompt()
        assert done == {"convert", "embezzle"}
        assert any(line.endswith((" converts to Loyalist, paying 1 coin into the Almshouse",
                                  " converts to Reformist, paying 1 coin into the Almshouse"))
                   for line in t.lines)
        assert any(line.endswith(" claims to hold no Duke, to embezzle the Almshouse")
                   for line in t.lines)
        assert any(line.endswith("wins the game!") for line in t.lines)
        leaves_cleanly(t, "quit")
    finally:
        t.close()


def test_the_status_and_the_help_in_portuguese() -> None:
    t = practice(2, THREE, lang="pt_BR")
    try:
        t.prompt()
        t.send("2")
        t.until("Uma nova partida começa.")
        assert t.prompt()[0] == "Renda"  # Ana's turn comes first at this deal
        t.send("estado")
        seats = [t.line() for _seat in range(3)]
        assert all("Legalista" in line or "Reformista" in line for line in seats)
        table = t.line()
        assert "; Asilo: 0 moeda; " in table and table.endswith("A mesa está dividida: mire só "
                                                               "na outra facção")
        leaves_cleanly(t, "sair")
    finally:
        t.close()


def test_join_creates_a_reformation_table_and_lists_it_as_such() -> None:
    """R12.1 over TCP: `create 2 random reformation` asks the server for the option; the
    lobby lists the table as a Reformation one, and its game deals factions, shown from the
    draft on (R12.3, R12.14), to a spectator too (R12.18)."""
    server = ServerThread(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                       seed=3)).start()
    address = f"127.0.0.1:{server.port}"
    t = Transcript("join", address, "--plain", "--name", "Ana")
    watcher = Transcript("join", address, "--plain", "--name", "Bruno")
    try:
        t.until("Connected to")
        t.send("create 2 random reformation")
        table_id = t.until("You sit at table").removeprefix("You sit at table ").rstrip(".")
        assert t.prompt() == ["Ready", "Start the game"]
        t.send("list")
        assert ", Base game, Reformation, 1 of 2 seats taken, waiting" in t.until("Table ")
        t.send("start")
        t.until("A new game begins.")
        assert t.prompt()[0].startswith("Pick ")  # the draft waits for us
        factions, me, table = status(t)
        assert me == "Ana" and sorted(factions.values()) == ["Loyalist", "Reformist"]
        assert "; Almshouse: 0 coins; Court deck: " in table and "table is divided" in table
        watcher.until("Connected to")
        watcher.send(f"spectate {table_id}")
        watcher.until(f"You are watching table {table_id}.")
        # The snapshot: the game is seen (retold if it has events yet).
        watcher.until(lambda line: line in ("Earlier in this game:", "A new game begins."))
        seen, _me, table = status(watcher)
        assert seen == factions and "; Almshouse: 0 coins; " in table
        leaves_cleanly(watcher, "quit")
        leaves_cleanly(t, "quit")
    finally:
        watcher.close()
        t.close()
        server.stop()


#: Ana (seat 0) embezzled holding a Duke, and Bot 2 challenged: she can only concede.
CHALLENGED = """
turn = 0
almshouse = 2

[options]
players = 2
reformation = true
two_player_draft = false

[[seats]]
hand = ["duke", "captain"]

[[seats]]
hand = ["contessa", "assassin"]

[decision]
phase = "prove"
action = "embezzle"
step = "challenge_action"
challenger = 1
"""


def test_a_challenged_embezzler_holding_a_duke_is_told_why_she_cannot_prove(
        tmp_path: Path) -> None:
    """R12.12: the question says what proving takes; holding a Duke, "show all your cards"
    is refused in words (holds_duke), and conceding asks for the card to lose."""
    position = tmp_path / "challenged.toml"
    position.write_text(CHALLENGED, encoding="utf-8")
    t = Transcript("position", str(position), "--plain", "--strategy", "random",
                   "--bot-delay", "0", "--clock", "off", "--name", "Ana")
    try:
        assert t.prompt() == ["Ready", "Start the game"]
        t.send("start")
        assert t.prompt() == ["Concede"]
        assert t.lines[-1].startswith("Bot 2 challenges your Embezzlement: show all your "
                                      "cards, none a Duke, or concede: ")
        t.send("show all your cards")
        assert t.line() == "You hold a Duke: you cannot prove you hold none."
        assert t.prompt() == ["Concede"]
        t.send("concede")
        assert t.prompt() == ["Lose Duke", "Lose Captain"]
        assert t.lines[-1].startswith("You conceded Bot 2's challenge of your Embezzlement: "
                                      "choose the card you lose")
        t.send("quit")
        t.until("Type quit again to leave.")
        leaves_cleanly(t, "quit")
    finally:
        t.close()


def test_convert_me_names_the_self_conversion_in_either_language() -> None:
    """R12.9.1: "convert me" ("converter eu") is the Conversion of oneself, and a player's
    name after the action's the Conversion of that player; the English words always work
    for oneself, as the commands' do."""
    view = Game.arrange(Options(players=3, reformation=True),
                        hands=[["duke", "captain"], ["contessa", "assassin"],
                               ["ambassador", "duke"]]).view(0)
    convert = [mv for mv in view.legal_moves() if mv.kind == "convert"]
    names = ("Ana", "Bot 2", "Bot 3").__getitem__
    try:
        for lang, me, bot in (("en", "convert me", "convert bot 3"),
                              ("pt_BR", "converter eu", "converter bot 3")):
            set_language(lang)
            labels = [move_label(mv, names, view) for mv in convert]
            assert matches(me, labels, own=(0,)) == [0]
            assert matches(bot, labels, own=(0,)) == [2]
            assert matches(me.split()[0] + " me", labels, own=(0,)) == [0]
    finally:
        set_language("en")


def test_a_proof_by_showing_every_card_is_one_line_in_plain_mode(tmp_path: Path) -> None:
    """R12.12.1: Ana, holding no Duke, proves her Embezzlement by showing every card, and
    draws as many new ones. One line says so: the redraw of each card shown is not told
    again after it (narrate.said_already); she alone reads what she drew."""
    position = tmp_path / "proved.toml"
    position.write_text(CHALLENGED.replace('["duke", "captain"]', '["assassin", "captain"]'),
                        encoding="utf-8")
    t = Transcript("position", str(position), "--plain", "--strategy", "random",
                   "--bot-delay", "0", "--clock", "off", "--name", "Ana")
    try:
        assert t.prompt() == ["Ready", "Start the game"]
        t.send("start")
        assert t.prompt() == ["Show all your cards", "Concede"]
        start = len(t.lines)
        t.send("show all your cards")
        t.until("Bot 2 loses an influence")
        told = t.lines[start:]
        assert told[0] == ("Ana shows every card, none a Duke: Assassin, Captain, and draws "
                           "as many new ones from the deck")
        assert not [line for line in told if "shuffles it into the deck" in line]
        assert told[1].startswith("You draw: ")  # what she drew, hers alone to read
        t.send("quit")
        t.until("Type quit again to leave.")
        leaves_cleanly(t, "quit")
    finally:
        t.close()
