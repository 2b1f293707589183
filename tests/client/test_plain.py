"""Plain mode through a pipe, as a transcript: `coup play --plain` and `coup join --plain` run
as real processes, lines sent to stdin and read from stdout.

A whole game against a bot, in English and in Brazilian Portuguese, from one seed: a
two-player Inquisitor game that meets every dialog (the draft pick, R1.7; the cards to keep
after an Exchange, R4.3; the Examine's decision and the card to show for one, R4.4; proving a
challenged claim, R6.2; the card to lose, R2.1), answered by number or by words; the
commands (help, status, hand, log, repeat, say); a wrong input and an illegal move answered
with a sentence and the prompt again. Against a server the test runs: the lobby commands,
one warning line at 10 s left and no ticking, and a connection the server closes under the
client, and a server that restarts, after each of which it comes back with its seat and plays
on. No escape sequence is ever written.
"""

from __future__ import annotations

import argparse
import io
import asyncio
import socket
from dataclasses import replace

import pytest
import trio

from client.cli import _plain
from client.i18n import _, pgettext, set_language
from client.plain.finder import Finder
from server import ServerConfig
from server.table import Table
from tests.client.transcript import Transcript, choices_of
from tests.client.tui.helpers import ServerThread

#: A deal (with the bot's own seed) whose game meets every dialog of plain mode.
SEED = "14"
#: The dialogs a whole game must meet, by the kind of choices offered.
DIALOGS = {"pick", "keep", "examine_decision", "show", "prove", "lose"}


def words(lang: str) -> dict[str, str]:
    """How the choices begin in `lang`, from the client's own catalog."""
    set_language(lang)
    try:
        return {
            "pick": _("Pick {card}").split("{")[0], "lose": _("Lose {card}").split("{")[0],
            "keep": _("Keep {cards}").split("{")[0], "show": _("Show {card}").split("{")[0],
            "prove": _("Show the card"), "swap": _("Make them swap it"),
            "examine": _("Examine {target}").split("{")[0],
            "exchange": pgettext("action", "Exchange"), "income": pgettext("action", "Income"),
            "coup": _("Coup against {target}").split("{")[0], "pass": _("Pass"),
            "rematch": _("Rematch"), "start": _("Start the game"),
        }
    finally:
        set_language("en")


def kind(labels: list[str], w: dict[str, str]) -> str:
    """The kind of decision a prompt's choices ask for."""
    if labels[0] == w["rematch"]:
        return "over"
    if w["prove"] in labels:
        return "prove"
    if w["swap"] in labels:
        return "examine_decision"
    for dialog in ("pick", "lose", "keep", "show"):
        if all(label.startswith(w[dialog]) for label in labels):
            return dialog
    if w["income"] in labels or any(label.startswith(w["coup"]) for label in labels):
        return "action"
    return "respond"


def answer(labels: list[str], asked: str, w: dict[str, str], done: set[str]) -> str:
    """What the test types: a number, or on a turn the action's words (the first Examine
    and the first Exchange, then Coup when it can, else Income)."""
    if asked == "prove":
        return str(labels.index(w["prove"]) + 1)
    if asked == "examine_decision":
        return str(labels.index(w["swap"]) + 1)
    if asked == "respond":
        return w["pass"].lower() if w["pass"] in labels else "1"
    if asked == "action":
        for action in ("examine", "exchange"):
            if action not in done and any(label.startswith(w[action]) for label in labels):
                done.add(action)
                return next(label for label in labels if label.startswith(w[action]))
        coups = [label for label in labels if label.startswith(w["coup"])]
        return coups[0] if coups else w["income"].upper()
    return "1"


def play_to_the_end(t: Transcript, lang: str, first: list[str] | None = None) -> set[str]:
    """Answer every prompt until the game is over; the kinds of decision met. The first
    choice of cards to keep is first answered with a word every choice holds: the client
    names them all, and asks again."""
    w = words(lang)
    met: set[str] = set()
    done: set[str] = set()
    labels = first or t.prompt()
    while (asked := kind(labels, w)) != "over":
        if asked == "keep" and "keep" not in met:
            t.send(w["keep"].strip().lower())
            assert t.line().endswith(f": {'; '.join(labels)}. " + {
                "en": "Type its number.", "pt_BR": "Digite o número."}[lang])
            assert t.prompt() == labels
        met.add(asked)
        t.send(answer(labels, asked, w, done))
        labels = t.prompt()
    return met


def practice(lang: str, *flags: str) -> Transcript:
    return Transcript("play", *flags, "--bots", "1", "--strategy", "random", "--seed", SEED,
                      "--bot-delay", "0", "--variant", "inquisitor", "--clock", "off",
                      "--name", "Ana", lang=lang)


def leaves_cleanly(t: Transcript, word: str) -> None:
    """`word` (quit, or leaving the table) ends the session: no error on stderr, exit 0,
    and never an escape sequence in all it wrote."""
    t.send(word)
    assert t.close() == ""
    assert t.process.returncode == 0
    assert not any(b"\x1b" in raw for raw in t.raw)


def test_a_whole_game_in_english_with_every_dialog_and_the_commands():
    t = practice("en", "--plain")
    try:
        assert t.prompt() == ["Ready", "Start the game"]
        t.send("help")
        t.until("Answer a prompt with the number of a choice")
        t.send("start")
        assert t.until("Pick a card for your hand").startswith("Pick a card for your hand: 1 ")
        labels = choices_of(t.lines[-1])
        t.send("hand")
        assert t.until("Your cards:").endswith("to pick from: Duke, Assassin, Captain, "
                                               "Inquisitor, Contessa")
        t.send(labels[0])  # a choice's words, whole
        first = t.prompt()
        assert t.lines[-1].startswith("Your turn: choose an action: 1 Income; ")
        t.send("status")
        assert t.line() == "Ana (you): 1 coin, 2 cards face down"  # R1.7: she starts
        assert t.line() == "Bot 2: 2 coins, 2 cards face down"
        assert t.line().startswith("Treasury: ")
        t.send("log 2")
        assert t.line() == "You draw: Inquisitor"
        assert t.line() == "— Ana's turn —"
        t.send("say good luck")
        assert t.line() == "Ana says: good luck"
        t.send("xyzzy")
        assert t.line() == ("\u201cxyzzy\u201d is neither a choice nor a command: type help "
                            "for the commands.")
        assert choices_of(t.line()) == first  # the prompt again
        t.send("coup")  # 2 coins: what it costs, as the terminal app says, and the prompt
        assert t.line() == "You do not have enough coins: Coup costs 7."
        assert choices_of(t.line()) == first
        t.send("99")
        assert t.line() == "There is no choice 99 now."
        assert choices_of(t.line()) == first
        t.send("repeat")
        assert choices_of(t.line()) == first
        t.send("quit")  # as the app's dialog asks; a practice table ends with its player
        assert t.line() == ("Leave the game? Only bots play with you: the game ends. Type "
                            "quit again to leave.")
        t.send("repeat")  # anything else: the game goes on, and quit asks again
        assert choices_of(t.line()) == first
        met = play_to_the_end(t, "en", first) | {"pick"}
        assert DIALOGS <= met
        assert t.lines[-1] == "Game over: 1 Rematch; 2 Leave the table"
        assert any(line.startswith("Out, first to last: ") for line in t.lines)
        leaves_cleanly(t, "2")  # leave: the practice table ends with the session
    finally:
        t.close()


#: Typed lines that look like numbers to str.isdigit and are none that int() takes, or are
#: one longer than int() reads from text: each was a traceback that ended plain mode.
NOT_NUMBERS = ["\u00b2", "1\u00b2", "\u0663", "9" * 5000]


def test_a_typed_number_that_is_no_number_is_told_not_raised():
    t = practice("en", "--plain")
    try:
        first = t.prompt()
        for typed in NOT_NUMBERS:
            t.send(typed)
            assert t.line().endswith("is neither a choice nor a command: type help for the "
                                     "commands.")
            assert choices_of(t.line()) == first
            t.send(f"log {typed}")
            t.until("Nothing has happened yet.")
        leaves_cleanly(t, "quit")
    finally:
        t.close()


def test_leaving_a_game_going_on_is_confirmed_by_the_same_word_again():
    t = practice("pt_BR", "--plain")
    try:
        t.prompt()
        t.send("começar")
        t.until("Uma nova partida começa.")
        t.prompt()
        t.send("sair")
        # A practice table has no other person: its server ends the game when Ana goes.
        assert t.until("Sair da partida?") == (
            "Sair da partida? Só bots jogam com você: a partida termina. Digite sair de novo "
            "para sair.")
        leaves_cleanly(t, "sair")
    finally:
        t.close()


def test_a_whole_game_in_portuguese_answered_in_portuguese():
    t = practice("pt_BR")  # no --plain: pipes are no terminal, and plain mode is chosen
    w = words("pt_BR")
    try:
        t.prompt()
        t.send("ajuda")  # the commands have words in the player's language too
        t.until("com o número de uma escolha")
        t.send(w["start"].split()[0].lower())
        t.until("Uma nova partida começa.")
        met = play_to_the_end(t, "pt_BR")
        assert DIALOGS <= met
        assert any(line.startswith("Sua vez: escolha uma ação: 1 Renda; ") for line in t.lines)
        assert t.lines[-1] == "Fim de jogo: 1 Revanche; 2 Sair da mesa"
        for said, asked in zip(t.lines, t.lines[1:]):  # a claim is said once here too
            assert not (choices_of(asked) and asked.startswith(said)), (said, asked)
        leaves_cleanly(t, "sair")
    finally:
        t.close()


@pytest.fixture
def clocked_server():
    """A server whose tables give 12 s a decision: the warning comes 2 s into one."""
    thread = ServerThread(ServerConfig(port=0, bot_delay=0, response_clock=12, turn_clock=12,
                                       seed=14)).start()
    yield thread
    thread.stop()


def test_join_warns_once_and_comes_back_after_a_drop(clocked_server):
    t = Transcript("join", f"127.0.0.1:{clocked_server.port}", "--plain", "--name", "Ana")
    try:
        t.until("Connected to")
        assert t.line() == "No tables yet: create one with create SEATS."
        t.send("create 2 random")
        t.until("You sit at table")
        assert t.prompt() == ["Ready", "Start the game"]
        t.send("list")
        assert ", Base game, 1 of 2 seats taken, waiting for players" in t.until("Table ")
        t.send("start")
        t.until("A new game begins.")
        labels = t.prompt()
        assert t.lines[-1].startswith("Pick a card for your hand (12 s): 1 Pick ")
        asked = len(t.lines)
        t.until("10 seconds left to choose.", timeout=12)
        assert all(choices_of(line) is None for line in t.lines[asked:])  # nothing ticks
        t.send("1")
        labels = t.prompt()
        # The server closes the connection under the client: it comes back to its seat.
        session = next(s for s in clocked_server.server.sessions if s.name == "Ana")
        session.stream.socket.shutdown(socket.SHUT_RDWR)
        t.until("Connection lost: ")
        t.until("Reconnected: your seat is back.")
        # The snapshot's events were all told before the drop: the question comes next.
        assert choices_of(t.line()) == labels
        play_to_the_end(t, "en", labels)
        assert sum(line == "10 seconds left to choose." for line in t.lines) == 1
        leaves_cleanly(t, "quit")
    finally:
        t.close()


def test_join_comes_back_to_its_seat_after_the_server_restarts(tmp_path):
    """The server restarts (SIGTERM's restart, on a store) mid-game: the client says why,
    tries again until the next server on the same store and port listens, and is back in
    its seat with the same question before it; the game plays on to its end."""
    config = ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0, seed=14,
                          db=str(tmp_path / "coup.db"))
    first = ServerThread(config).start()
    servers = [first]
    t = Transcript("join", f"127.0.0.1:{first.port}", "--plain", "--name", "Ana")
    try:
        t.until("Connected to")
        t.send("create 2 random")
        t.until("You sit at table")
        assert t.prompt() == ["Ready", "Start the game"]
        t.send("start")
        t.until("A new game begins.")
        labels = t.prompt()
        asyncio.run(first.run(first.server.shutdown, True))
        t.until("Connection lost: The server is restarting; seats are kept")
        first.stop()  # (its store let go)
        servers.append(ServerThread(replace(config, port=first.port)).start())
        t.until("Reconnected: your seat is back.")
        assert choices_of(t.line()) == labels
        play_to_the_end(t, "en", labels)
        leaves_cleanly(t, "quit")
    finally:
        t.close()
        servers[-1].stop()


def test_join_comes_back_to_the_lobby_after_the_server_restarts(tmp_path):
    """A restart sends the lobby away too: the client tries again, as for a seat, and is in
    the lobby of the next server (not disconnected), its tables listed."""
    config = ServerConfig(port=0, db=str(tmp_path / "coup.db"))
    first = ServerThread(config).start()
    servers = [first]
    t = Transcript("join", f"127.0.0.1:{first.port}", "--plain", "--name", "Ana")
    try:
        t.until("Connected to")
        t.until("No tables yet")
        asyncio.run(first.run(first.server.shutdown, True))
        t.until("Connection lost: The server is restarting")
        first.stop()  # (its store let go)
        servers.append(ServerThread(replace(config, port=first.port)).start())
        t.until("You are in the lobby.")
        t.until("No tables yet")
        leaves_cleanly(t, "quit")
    finally:
        t.close()
        servers[-1].stop()


def test_join_with_no_address_takes_one_typed(clocked_server):
    """`coup join --plain` and no address: servers on this network would be listed (that is
    tests/client/test_discovery.py's, in network namespaces); with discovery off, as here,
    the player types the address, and a wrong one is told."""
    t = Transcript("join", "--plain", "--name", "Ana")
    try:
        assert t.line() == "Type the address of the server to join (host or host:port)."
        t.send("list")
        assert t.line() == "Looking for servers on this network is off (COUP_DISCOVERY=off)."
        t.send("no such:address")
        assert t.line() == "That is not an address: write host or host:port."
        t.send(f"127.0.0.1:{clocked_server.port}")
        assert t.line().startswith("Connected to ")
        leaves_cleanly(t, "quit")
    finally:
        t.close()


@pytest.mark.parametrize("typed", NOT_NUMBERS, ids=["²", "1²", "٣", "5000 digits"])
def test_a_typed_server_number_that_is_no_number_is_taken_as_an_address(typed):
    """The finder read "²" as a server's number and raised; it is no number, so it is
    what the player typed for an address (whether any host has that name is the
    connection's to find)."""
    said: list[str] = []
    finder = Finder(said.append, None)
    finder.typed(typed, None)
    assert said == [] and finder.where is not None and finder.where[0] == typed


def test_plain_mode_is_chosen_for_a_dumb_terminal_but_not_for_the_browser_door(monkeypatch):
    asked = argparse.Namespace(plain=False)
    monkeypatch.setenv("TERM", "dumb")
    assert _plain(asked)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    assert not _plain(asked)  # pipes, but to the browser door's page: the app
    assert _plain(argparse.Namespace(plain=True))


def test_the_lobby_commands_join_spectate_leave_and_chat(monkeypatch):
    """The lobby commands, typed ahead as a transcript or a script may: `spectate` typed
    right after `leave` waits for the server to let the seat go (`ok`), even when the table
    is slow to (here: half a second), rather than finding us still at the table."""
    submit = Table.submit

    def slow_leave(table, session, item):
        if getattr(item, "TYPE", None) != "leave":
            return submit(table, session, item)

        async def later():
            await trio.sleep(0.5)
            submit(table, session, item)

        trio.lowlevel.spawn_system_task(later)
        return True

    monkeypatch.setattr(Table, "submit", slow_leave)
    server = ServerThread(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0)
                          ).start()
    address = f"127.0.0.1:{server.port}"
    ana = Transcript("join", address, "--plain", "--name", "Ana")
    bruno = Transcript("join", address, "--plain", "--name", "Bruno")
    try:
        ana.until("Connected to")
        ana.send("create 2")
        table = ana.until("You sit at table").removeprefix("You sit at table ").rstrip(".")
        bruno.until("Connected to")
        bruno.send("list")
        bruno.until(f"Table {table}: Ana's table, Base game, 1 of 2 seats taken")
        bruno.send(f"join {table}")
        assert bruno.until("You sit at table") == f"You sit at table {table}."
        assert bruno.prompt() == ["Ready"]  # not its creator: no start
        ana.until("Seats: Ana, Bruno")
        bruno.send("say hi Ana")
        assert ana.until("says:") == "Bruno says: hi Ana"
        bruno.until("Bruno says: hi Ana")
        bruno.send("leave")
        bruno.send(f"spectate {table}")
        assert bruno.line() == "You are in the lobby."
        assert bruno.line() == f"You are watching table {table}."
        assert bruno.line() == "Seats: Ana, empty"  # Bruno's seat is free again
        bruno.send("hand")
        assert bruno.line() == "No game is running."
        for t in (ana, bruno):
            leaves_cleanly(t, "quit")
    finally:
        ana.close()
        bruno.close()
        server.stop()


def test_every_command_and_every_word_a_prompt_stands_for_has_its_handler():
    from client.launch import Launch
    from client.plain.session import Plain
    from client.plain.text import COMMANDS

    plain = Plain(Launch(), out=io.StringIO())
    prompt_words = {"rematch", "leave", "ready", "unready", "start"}
    assert set(plain.commands) == set(COMMANDS) | prompt_words


def test_a_listener_hears_the_hand_when_it_changes_a_claim_once_and_no_passes():
    """Nobody types `hand` here: the cards are said when the draft has dealt them, and again
    after each change (a card lost, a proved card swapped for a new one); a claim is said
    once, in the question that asks about it, not also on the line before; passes are not
    said one by one."""
    t = practice("en", "--plain")
    try:
        t.prompt()
        t.send("start")
        play_to_the_end(t, "en")
        first_turn = next(i for i, line in enumerate(t.lines)
                          if line.startswith("Your turn: "))
        assert any(line.startswith("Your cards: ") for line in t.lines[:first_turn])
        changes = [i for i, line in enumerate(t.lines)
                   if line.startswith(("Ana loses an influence: ",
                                       "Ana shuffles it into the deck"))]
        assert changes  # the seed's game has both
        for i in changes:  # said before what others do next
            if t.lines[i + 1] == "Ana is out of the game":
                continue
            told = next(line for line in t.lines[i + 1:]
                        if not line.startswith(("Ana ", "You draw: ")))
            assert told.startswith("Your cards: "), t.lines[i:i + 4]
        for said, asked in zip(t.lines, t.lines[1:]):
            assert not (choices_of(asked) and asked.startswith(said)), (said, asked)
            # Nor is a challenge of ours said, then asked about ("… challenges your Duke").
            if choices_of(asked) and " challenges your " in asked:
                assert " challenges Ana: " not in said, (said, asked)
        # A pass is no news: the line after the window says whether the claim stood.
        assert not [line for line in t.lines if " does not challenge " in line
                    or line.endswith((" does not block", " passes"))]
        leaves_cleanly(t, "quit")
    finally:
        t.close()


def test_answers_piped_in_at_once_play_a_transcript_back():
    """A game played answer by answer, then its answers written to a new process all at
    once (as `coup play --plain < answers.txt` does): each waits for its question, a command
    too (`leave` would otherwise leave the game going on), and the second transcript reads
    as the first, line for line."""
    t = practice("en", "--plain")
    try:
        t.prompt()
        t.send("start")
        play_to_the_end(t, "en")
        t.send("status")  # a command keeps its place among the answers
        t.until("Treasury: ")
        t.send("leave")  # the command that answers "Game over" ends the practice session
        t.rest()
        assert t.close() == ""
    finally:
        t.close()
    again = practice("en", "--plain")
    try:
        for line in t.sent:
            again.send(line)
        again.process.stdin.close()  # the end of the file, read after every answer
        again.rest()
        assert again.close() == ""
        assert again.lines[0].startswith("You sit at table ")
        assert again.lines[1:] == t.lines[1:]  # (the table's id is new)
    finally:
        again.close()


def test_a_refused_choice_piped_in_leaves_its_question_open(clocked_server):
    """Lines piped in wait for the table they asked for, then for a question: a choice the
    server refuses (starting a table that has one player of two) asks the question again,
    and the next line goes on."""
    t = Transcript("join", f"127.0.0.1:{clocked_server.port}", "--plain", "--name", "Ana")
    try:
        t.until("Connected to")
        for line in ("create 2", "start", "say still here"):
            t.send(line)
        t.until("says:")
        asked = "The table waits for its players: 1 Ready; 2 Start the game"
        assert t.lines[-6:] == [  # each line in its place: start once seated, chat after
            t.lines[-6], "Seats: Ana, empty", asked, "A game needs at least two players.",
            asked, "Ana says: still here"]
        assert t.lines[-6].startswith("You sit at table ")
        leaves_cleanly(t, "quit")
    finally:
        t.close()
