"""Text from outside, as a terminal gets it: `shown` leaves nothing a terminal obeys and
nothing that draws nothing, on one line; `printable` and `name_or_none` are the server's
check of the names and chat it stores and relays."""

from __future__ import annotations

import pytest

from protocol.text import name_or_none, printable, shown, shown_in, whole_number

#: What a stranger puts in a name or a line: a title, a cleared screen, a clipboard write
#: (OSC 52), a bell, a carriage return over the line, C1's CSI, DEL, bidi overrides and
#: isolates, marks, zero-width and filler characters, a BOM, a line separator.
HOSTILE = ("\x1b]0;PWNED\x07\x1b[2J\x1b[31mRED\nFAKE\rLINE\x00\x7f\x9b31m\x85"
           "\x1b]52;c;cHduZWQ=\x07\u202eevil\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069"
           "\u200e\u200f\u061c\u200b\u200c\u200d\u2060\ufeff\u00ad\u3164\u115f\u034f\u2028"
           "\u2029\u00a0\ue000")

#: Characters the tests look for: below 0x20, DEL and C1, and every bidi control.
BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def unsafe(text: str) -> set[str]:
    """The characters of `text` a terminal obeys, or that turn or hide text."""
    return {c for c in text if ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f or c in BIDI
            or c in "\u200b\u200c\u200d\u2060\ufeff\u00ad\u3164\u115f\u034f\u2028\u2029"}


def test_shown_writes_every_unsafe_character_as_a_visible_escape():
    out = shown(HOSTILE)
    assert not unsafe(out)
    assert out.startswith("\\x1b]0;PWNED\\x07\\x1b[2J") and "RED\\x0aFAKE\\x0dLINE" in out
    assert "\\u202eevil" in out and "\\u3164" in out and "\\ue000" in out


def test_shown_leaves_ordinary_text_as_it_is():
    for text in ("Ana", "Zoë's table", "Ана", "李小龙", "x [b]bold[/b] {name}", "a  b",
                 "smile 😀", "🏳"):
        assert shown(text) == text and printable(text)


def test_what_a_server_takes_a_client_shows_exactly():
    """A name shown is the name a client can send back (get_profile, a filter): variation
    selectors, Mongolian's too, are printable and kept."""
    for name in ("I \u2764\ufe0f coup", "\u1820\u180b\u1821", "\u8fb9\U000e0100"):
        assert printable(name) and shown(name) == name


def test_shown_in_reaches_every_string_of_nested_values():
    value = {"name\x1b": ["a\x07", ("b\u202e", 3)], "n": None, "ok": True}
    assert shown_in(value) == {"name\\x1b": ["a\\x07", ("b\\u202e", 3)], "n": None, "ok": True}


@pytest.mark.parametrize("name", ["bell\x07", "ana\u200b", "\u202eana", "\u3164", "  ",
                                  "two\nlines", "tab\there", "nb\u00a0sp", "\U000e0041"])
def test_names_that_are_not_printable_or_blank_are_refused(name):
    assert name_or_none(name) is None


def test_a_name_is_trimmed():
    assert name_or_none("  Ana's den ") == "Ana's den"
    assert printable(shown(HOSTILE))


@pytest.mark.parametrize("text, most, number", [
    ("0", 10, 0), ("10", 10, 10), ("07", 10, 7), ("007", 10, None), ("11", 10, None),
    ("", 10, None),
    ("-1", 10, None), ("1.0", 10, None), (" 1", 10, None), ("\u00b2", 10, None),
    ("\u0663", 10, None), ("9" * 5000, 10**6, None), ("1" * 7, 10**6, None),
])
def test_a_whole_number_is_ascii_digits_within_its_bound(text, most, number):
    assert whole_number(text, most) == number
