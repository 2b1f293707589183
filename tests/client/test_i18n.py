"""The translations: complete catalogs in step with the code, and the language chosen as documented."""

from __future__ import annotations

import gettext
import io
import string

import pytest

from client import i18n
from client.i18n_catalogs import (
    Entry, catalog_path, compile_mo, extract, parse_po, render_po, update,
)
from client.narrate import error_text, event_text, move_label, prompt
from client.tui.screens.rules import rules_rest
from engine import ACTIONS, CHARACTERS, Event, Game, Options, move
from protocol.errors import CODES

CARDS_PT = {
    "duke": "Duque", "assassin": "Assassino", "captain": "Capitão",
    "ambassador": "Embaixador", "inquisitor": "Inquisidor", "contessa": "Condessa",
}
ACTIONS_PT = {
    "income": "Renda", "foreign_aid": "Ajuda Externa", "coup": "Golpe de Estado", "tax": "Taxar",
    "assassinate": "Assassinar", "steal": "Extorquir", "exchange": "Trocar", "examine": "Investigar",
    "convert": "Converter", "embezzle": "Desfalcar",
}
CARDS_EN = {
    "duke": "Duke", "assassin": "Assassin", "captain": "Captain",
    "ambassador": "Ambassador", "inquisitor": "Inquisitor", "contessa": "Contessa",
}
ACTIONS_EN = {
    "income": "Income", "foreign_aid": "Foreign Aid", "coup": "Coup", "tax": "Tax",
    "assassinate": "Assassinate", "steal": "Steal", "exchange": "Exchange", "examine": "Examine",
    "convert": "Convert", "embezzle": "Embezzle",
}
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language("en")


@pytest.fixture
def environment(monkeypatch):
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    return monkeypatch


def catalog(lang: str) -> list[Entry]:
    path = catalog_path(lang, ".po")
    return parse_po(path.read_text(encoding="utf-8"), str(path))


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


# The catalogs against the code


def test_every_message_the_client_uses_is_translated_in_every_language():
    messages, errors = extract()
    assert errors == []
    assert messages
    for lang in i18n.LANGUAGES:
        entries = {entry.key: entry for entry in catalog(lang)}
        for message in messages:
            entry = entries.get(message.key)
            assert entry is not None, f"{lang} lacks {message.msgid!r}"
            assert entry.plural == message.plural, f"{lang}: plural of {message.msgid!r}"
            assert entry.translated, f"{lang} does not translate {message.msgid!r}"


def test_the_po_files_are_what_the_tool_writes_for_the_code():
    messages, _ = extract()
    for lang in i18n.LANGUAGES:
        text = catalog_path(lang, ".po").read_text(encoding="utf-8")
        assert render_po(update(lang, messages, parse_po(text))) == text, (
            f"{lang}: run python -m client.i18n_catalogs")


def test_the_mo_files_are_compiled_from_the_po_files():
    for lang in i18n.LANGUAGES:
        assert catalog_path(lang, ".mo").read_bytes() == compile_mo(catalog(lang)), (
            f"{lang}: run python -m client.i18n_catalogs")


def test_every_translation_fills_the_same_placeholders_as_its_message():
    for lang in i18n.LANGUAGES:
        for entry in catalog(lang):
            if not entry.msgid:
                continue
            wanted = fields(entry.msgid) | fields(entry.plural or "")
            for form in entry.msgstr:
                assert fields(form) == wanted, f"{lang}: {form!r} for {entry.msgid!r}"


def test_both_catalogs_declare_utf8_and_their_plural_rule():
    rules = {"en": "nplurals=2; plural=(n != 1);", "pt_BR": "nplurals=2; plural=(n > 1);"}
    for lang, rule in rules.items():
        head = catalog(lang)[0]
        assert head.msgid == ""
        assert "Content-Type: text/plain; charset=UTF-8\n" in head.msgstr[0]
        assert f"Plural-Forms: {rule}\n" in head.msgstr[0]


# Choosing the language


@pytest.mark.parametrize(("lang", "chosen"), [
    ("en", "en"), ("en_US.UTF-8", "en"), ("pt", "pt_BR"), ("pt_BR", "pt_BR"),
    ("pt-BR", "pt_BR"), ("pt_BR.UTF-8", "pt_BR"), ("pt_PT", "pt_BR"),
])
def test_an_explicit_language_picks_its_catalog(lang, chosen):
    assert i18n.set_language(lang) == chosen
    assert i18n.language() == chosen


@pytest.mark.parametrize("lang", ["fr", "de_DE.UTF-8", "C", ""])
def test_an_explicit_unsupported_language_is_refused_naming_the_supported_ones(lang):
    i18n.set_language("pt_BR")
    with pytest.raises(ValueError, match="en, pt_BR"):
        i18n.set_language(lang)
    assert i18n.language() == "pt_BR"


@pytest.mark.parametrize(("variables", "chosen"), [
    ({}, "en"),
    ({"LANG": "pt_BR.UTF-8"}, "pt_BR"),
    ({"LC_MESSAGES": "pt_PT.UTF-8", "LANG": "en_US.UTF-8"}, "pt_BR"),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "pt_BR.UTF-8"}, "en"),
    ({"LANGUAGE": "fr:pt_BR:en", "LANG": "en_US.UTF-8"}, "pt_BR"),
    ({"LANGUAGE": "", "LANG": "pt_BR.UTF-8"}, "pt_BR"),
    ({"LC_ALL": "fr_FR.UTF-8", "LANG": "pt_BR.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
])
def test_the_environment_chooses_like_gettext_and_falls_back_to_english(
        environment, variables, chosen):
    i18n.set_language("pt_BR" if chosen == "en" else "en")
    for variable, value in variables.items():
        environment.setenv(variable, value)
    assert i18n.set_language(None) == chosen
    assert i18n.language() == chosen


def test_switching_language_changes_what_every_function_returns():
    i18n.set_language("pt_BR")
    assert (i18n.card_name("duke"), i18n.action_name("tax")) == ("Duque", "Taxar")
    i18n.set_language("en")
    assert (i18n.card_name("duke"), i18n.action_name("tax")) == ("Duke", "Tax")


# Names of the game's identifiers


@pytest.mark.parametrize(("lang", "cards", "actions"), [
    ("en", CARDS_EN, ACTIONS_EN), ("pt_BR", CARDS_PT, ACTIONS_PT),
])
def test_every_card_and_action_has_its_name_in_each_language(lang, cards, actions):
    i18n.set_language(lang)
    assert {c: i18n.card_name(c) for c in CHARACTERS} == cards
    assert {a: i18n.action_name(a) for a in ACTIONS} == actions


def test_names_live_in_their_own_context_apart_from_other_messages():
    i18n.set_language("pt_BR")
    assert i18n.pgettext("card", "Inquisitor") == "Inquisidor"
    assert i18n.pgettext("action", "Coup") == "Golpe de Estado"
    assert i18n._("Coup") == "Coup"  # no context: not the action's entry


# Error codes

#: Codes a player never reads from error_text: the handshake's (a connection refused before
#: the welcome is said by the network code), the one only a client sends, and the one only
#: a version-1 connection is sent (ours speak version 2: docs/PROTOCOL.md, Versioning).
UNSEEN_CODES = {"handshake_required", "unsupported_version", "handshake_timeout",
                "client_quit", "needs_version"}


def test_every_error_code_a_server_sends_reads_as_a_sentence_in_each_language():
    """Only a newer server's codes show as sent (tui/test_plain_text.py): every code of
    the protocol is said in words, and in pt_BR the words are Portuguese."""
    codes = sorted(CODES - UNSEEN_CODES)
    english = {code: error_text(code) for code in codes}
    assert [code for code, text in english.items() if text == code] == []
    i18n.set_language("pt_BR")
    assert [code for code in codes if error_text(code) in (code, english[code])] == []


# Plurals


def plural_message() -> Entry:
    messages, _ = extract()
    plurals = [m for m in messages if m.plural is not None]
    assert plurals, "the client uses no ngettext message to test the plural rules with"
    return plurals[0]


@pytest.mark.parametrize(("lang", "singular_counts", "plural_counts"), [
    ("en", (1,), (0, 2, 7)), ("pt_BR", (0, 1), (2, 7)),
])
def test_ngettext_picks_the_form_by_each_language_rule(lang, singular_counts, plural_counts):
    message = plural_message()
    forms = {e.key: e.msgstr for e in catalog(lang)}[message.key]
    i18n.set_language(lang)
    assert message.plural is not None
    for n in singular_counts:
        assert i18n.ngettext(message.msgid, message.plural, n) == forms[0]
    for n in plural_counts:
        assert i18n.ngettext(message.msgid, message.plural, n) == forms[1]


# The tool's formats and extraction

SAMPLE_PO = r'''msgid ""
msgstr ""
"Language: pt_BR\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\n"

# Said when a card is lost.
msgctxt "card"
msgid "Duke"
msgstr "Duque"

msgid "Tab\there, \"quoted\", back\\slash"
msgstr "Tab\taqui, \"aspas\", barra\\invertida"

msgid ""
"Two\n"
"lines"
msgstr ""
"Duas\n"
"linhas"

msgid "{n} coin"
msgid_plural "{n} coins"
msgstr[0] "{n} moeda"
msgstr[1] "{n} moedas"

#, fuzzy
msgid "Pass"
msgstr "Passe"
'''


def test_a_po_file_reads_back_and_writes_out_unchanged():
    entries = parse_po(SAMPLE_PO)
    assert [e.msgid for e in entries] == [
        "", "Duke", 'Tab\there, "quoted", back\\slash', "Two\nlines", "{n} coin", "Pass"]
    assert entries[1].context == "card" and entries[1].comments == ("Said when a card is lost.",)
    assert entries[3].msgstr == ("Duas\nlinhas",)
    assert entries[4].msgstr == ("{n} moeda", "{n} moedas")
    assert entries[5].flags == ("fuzzy",)
    assert render_po(entries) == SAMPLE_PO


def test_the_compiled_mo_is_read_by_gettext_with_contexts_plurals_and_no_fuzzy_entries():
    translations = gettext.GNUTranslations(io.BytesIO(compile_mo(parse_po(SAMPLE_PO))))
    assert translations.pgettext("card", "Duke") == "Duque"
    assert translations.gettext("Duke") == "Duke"
    assert translations.gettext("Two\nlines") == "Duas\nlinhas"
    assert translations.ngettext("{n} coin", "{n} coins", 0) == "{n} moeda"
    assert translations.ngettext("{n} coin", "{n} coins", 2) == "{n} moedas"
    assert translations.gettext("Pass") == "Pass"


def test_updating_keeps_translations_adds_new_messages_and_drops_gone_ones():
    old = [Entry("Pass", msgstr=("Passar",)), Entry("Gone", msgstr=("Sumiu",))]
    code = [Entry("New", references=("client/x.py",)), Entry("Pass")]
    pt = update("pt_BR", code, old)
    assert [(e.msgid, e.msgstr) for e in pt[1:]] == [("New", ("",)), ("Pass", ("Passar",))]
    en = update("en", [Entry("{n} card", plural="{n} cards")], [])
    assert en[1].msgstr == ("{n} card", "{n} cards")


def test_the_extractor_reads_literals_and_reports_other_arguments_by_line(tmp_path):
    package = tmp_path / "client"
    package.mkdir()
    (package / "screen.py").write_text(
        'from client import i18n\n'
        'LABEL = N_("Play")\n'
        'title = _(LABEL)\n'
        'a = _(f"Hello {name}")\n'
        'b = ngettext("{n} coin", "{n} coins", n)\n'
        'c = i18n.pgettext("card", "Duke")\n'
        'd = ngettext(word, "{n} coins", n)\n'
        'e = _("Quit", "extra")\n',
        encoding="utf-8",
    )
    messages, errors = extract(package)
    assert [(m.context, m.msgid, m.plural) for m in messages] == [
        (None, "Play", None), (None, "{n} coin", "{n} coins"), ("card", "Duke", None)]
    assert messages[0].references == ("client/screen.py",)
    assert [error.split(": ")[0] for error in errors] == [
        "client/screen.py:4", "client/screen.py:7", "client/screen.py:8"]


# The log's and the decision line's words (issue 13), in each language


def seat_name(seat: int | None) -> str:
    """Seat 0 is root, the viewer; the others are bots, counted from 1 as the table names them."""
    if seat is None:
        return "?"
    return "root" if seat == 0 else f"Bot {seat + 1}"


def said(lang: str, event: Event) -> str:
    i18n.set_language(lang)
    return event_text(event, seat_name, 0)


@pytest.mark.parametrize("lang, challenge, block, yours", [
    ("en", "Bot 4 does not challenge Bot 2's Captain", "Bot 4 does not block",
     "Bot 4 does not challenge your Contessa"),
    ("pt_BR", "Bot 4 não contesta a declaração de Capitão de Bot 2", "Bot 4 não bloqueia",
     "Bot 4 não contesta a sua declaração de Condessa"),
])
def test_two_passes_in_a_row_say_which_window_each_lets_go_by(lang, challenge, block, yours):
    """R5 steps 2-4: a pass on the Captain's claim, then one on the Steal's block window;
    a pass on the viewer's own block says whose claim it lets stand."""
    assert said(lang, Event("pass", 3, target=1, card="captain")) == challenge
    assert said(lang, Event("pass", 3, target=1, action="steal")) == block
    assert said(lang, Event("pass", 3, target=0, card="contessa")) == yours


@pytest.mark.parametrize("lang, expected", [
    ("en", [
        "root's attempt to assassinate Bot 3 fails: Bot 3 is already out",
        "Bot 2's attempt to steal from root fails: Bot 2 is out of the game",
        "root's attempt to collect Tax fails: the claim was given up",
        "root's attempt to take Foreign Aid fails: the block stands",
        "root's attempt to exchange cards fails: the block stands",
        "Bot 2's attempt to examine Bot 3 fails: the claim was given up",
    ]),
    ("pt_BR", [
        "A tentativa de root de assassinar Bot 3 falha: Bot 3 já está fora do jogo",
        "A tentativa de Bot 2 de extorquir root falha: Bot 2 está fora do jogo",
        "A tentativa de root de cobrar impostos falha: a declaração foi retirada",
        "A tentativa de root de pegar Ajuda Externa falha: o bloqueio se mantém",
        "A tentativa de root de trocar cartas falha: o bloqueio se mantém",
        "A tentativa de Bot 2 de investigar Bot 3 falha: a declaração foi retirada",
    ]),
])
def test_a_failed_action_says_whose_it_was_on_whom_and_why(lang, expected):
    """Every reason the engine gives (R5.2, R6.4, R7.1), the action of whom on whom in words."""
    fails = [Event("fail", 0, 2, action="assassinate", reason="target_out"),
             Event("fail", 1, 0, action="steal", reason="actor_out"),
             Event("fail", 0, action="tax", reason="conceded"),
             Event("fail", 0, action="foreign_aid", reason="blocked"),
             Event("fail", 0, action="exchange", reason="blocked"),
             Event("fail", 1, 2, action="examine", reason="conceded")]
    assert [said(lang, e) for e in fails] == expected


@pytest.mark.parametrize("lang, expected", [
    ("en", ["Bot 2 claims Captain to steal from you", "root claims Assassin to assassinate Bot 3",
            "Bot 3 launches a Coup against you", "root launches a Coup against Bot 2",
            "Bot 2 blocks you as Contessa", "Bot 3 claims Duke to collect Tax",
            "Bot 3 claims Inquisitor to exchange cards"]),
    ("pt_BR", ["Bot 2 declara Capitão para extorquir você",
               "root declara Assassino para assassinar Bot 3",
               "Bot 3 dá um Golpe de Estado em você", "root dá um Golpe de Estado em Bot 2",
               "Bot 2 bloqueia você como Condessa", "Bot 3 declara Duque para cobrar impostos",
               "Bot 3 declara Inquisidor para trocar cartas"]),
])
def test_an_action_is_said_in_words_and_to_you_when_you_are_its_target(lang, expected):
    events = [Event("action", 1, 0, "captain", amount=0, action="steal"),
              Event("action", 0, 2, "assassin", amount=3, action="assassinate"),
              Event("action", 2, 0, amount=7, action="coup"),
              Event("action", 0, 1, amount=7, action="coup"),
              Event("block", 1, 0, "contessa"),
              Event("action", 2, card="duke", amount=0, action="tax"),
              Event("action", 2, card="inquisitor", amount=0, action="exchange")]
    assert [said(lang, e) for e in events] == expected


@pytest.mark.parametrize("lang, labels", [
    ("en", ["Steal from Bot 2", "Assassinate Bot 3", "Coup against Bot 2", "Examine Bot 4"]),
    ("pt_BR", ["Extorquir Bot 2", "Assassinar Bot 3", "Golpe de Estado em Bot 2",
               "Investigar Bot 4"]),
])
def test_a_targeted_move_is_labelled_in_words_not_with_an_arrow(lang, labels):
    i18n.set_language(lang)
    moves = [move("steal", target=1), move("assassinate", target=2), move("coup", target=1),
             move("examine", target=3)]
    assert [move_label(mv, seat_name) for mv in moves] == labels


def steal_from_bot_2() -> Game:
    """root (seat 0) claims Captain to steal from Bot 2 (seat 1); Bot 3 watches."""
    g = Game.arrange(Options(players=3), hands=[["captain", "duke"], ["contessa", "duke"],
                                                ["duke", "captain"]])
    g.apply(0, move("steal", target=1))
    return g


@pytest.mark.parametrize("lang, yours, waiting, blocks_you, blocked", [
    ("en", "root claims Captain to steal from you — block or pass?",
     "root claims Captain to steal from Bot 2 — waiting for answers",
     "Bot 2 blocks you as Captain — challenge or pass?",
     "Bot 2 blocks root as Captain — waiting for answers"),
    ("pt_BR", "root declara Capitão para extorquir você — bloquear ou passar?",
     "root declara Capitão para extorquir Bot 2 — aguardando respostas",
     "Bot 2 bloqueia você como Capitão — contestar ou passar?",
     "Bot 2 bloqueia root como Capitão — aguardando respostas"),
])
def test_the_block_prompt_says_it_is_you_and_the_waiting_line_names_the_target(
        lang, yours, waiting, blocks_you, blocked):
    """The decision line as the target (seat 1), a bystander who has answered (seat 2), the
    actor (seat 0) and a spectator read it."""
    i18n.set_language(lang)
    g = steal_from_bot_2()
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))  # the claim stands: the block window is the target's
    assert prompt(g.view(1), seat_name) == yours
    assert prompt(g.view(2), seat_name) == waiting
    g.apply(1, move("block", card="captain"))
    assert prompt(g.view(0), seat_name) == blocks_you
    assert prompt(g.view(None), seat_name) == blocked


def test_the_portuguese_a_new_player_tripped_over_reads_naturally():
    """Issue 13: names are not masculine nouns ("Vez de Bot 2", never "do"); words, not
    arrows; the rules card says the table plays for you (R10), not that choices are "made by
    you"; a lost challenge is conceded ("cede"), which does not say that it was a bluff."""
    i18n.set_language("pt_BR")
    assert said("pt_BR", Event("turn", 1)) == "— Vez de Bot 2 —"
    g = steal_from_bot_2()
    for _ in range(2):
        g.apply(g.waiting[0], move("pass"))
    g.apply(1, move("pass"))
    assert prompt(g.view(0), seat_name) == "Vez de Bot 2"
    assert not [e.msgid for e in catalog("pt_BR") if any("→" in s for s in e.msgstr)]
    card = rules_rest()
    assert "a mesa joga por você" in card and "feita por você" not in card
    assert "ou cede (quem declarou" in card and "blefe" not in card


@pytest.mark.parametrize("lang, expected", [
    ("en", "Bot 3 concedes the Duke claim"),
    ("pt_BR", "Bot 3 desiste da declaração de Duque"),
])
def test_a_concession_does_not_say_the_card_was_missing(lang, expected):
    """R6.2: conceding is allowed with the card in hand; the log said "Bot 3 had no Duke"."""
    assert said(lang, Event("concede", 2, card="duke")) == expected
