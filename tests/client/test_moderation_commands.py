"""Operators' commands as typed (client/moderation.py): each becomes its one request, and a
mistyped or hostile line becomes a sentence, never a request the protocol refuses (a field
over its limit, a negative or huge number), nor an exception."""

from __future__ import annotations

import pytest

from client.moderation import CommandError, command_of, request
from protocol import Ban, CloseTable, Kick, Mute, encode


def test_each_command_makes_its_request():
    assert request("kick", "eve  too slow", 1, "t7") == Kick(id=1, name="eve",
                                                              reason="too slow")
    assert request("mute", "eve 30", 2, None) == Mute(id=2, name="eve", minutes=30)
    assert request("ban", "eve 0", 3, None) == Ban(id=3, minutes=0, name="eve")
    assert request("ban", f"KEY:{'AB' * 32} 60 cheat", 4, None) == Ban(
        id=4, minutes=60, key="AB" * 32, reason="cheat")
    assert request("ban", "ip:2001:db8::1 5", 5, None) == Ban(id=5, minutes=5,
                                                               address="2001:db8::1")
    assert request("close", "", 6, "t7") == CloseTable(id=6, table="t7")
    assert request("close", "t8 spam", 7, None) == CloseTable(id=7, table="t8",
                                                                reason="spam")


@pytest.mark.parametrize("command, rest, table", [
    ("kick", "", "t7"), ("mute", "eve", None), ("mute", "eve -5", None),
    ("mute", "eve 525601", None), ("ban", "eve 1e9", None), ("ban", "key:abc 5", None),
    ("ban", "ip:x 5", None), ("ban", "ip:" + "1" * 46 + " 5", None), ("close", "", None),
    ("mute", "eve ²", None),  # a digit to str.isdigit, and no number to int
    ("mute", "eve " + "9" * 5000, None),  # more digits than int() reads from text
])
def test_a_mistyped_command_is_a_sentence(command, rest, table):
    with pytest.raises(CommandError):
        request(command, rest, 1, table)


def test_whatever_is_typed_fits_the_protocol():
    """Over-long names, reasons and ids are cut to their fields' limits: the request is one
    the server reads, and the server judges it."""
    long = "x" * 600
    for command, rest, table in [("kick", f"{long} {long}", "t7"),
                                 ("mute", f"{long} 10", None),
                                 ("ban", f"{long} 10 {long}", None),
                                 ("close", f"{long} {long}", None)]:
        encode(request(command, rest, 1, table))


def test_the_words_are_english_or_the_players_language_in_any_case():
    assert command_of("KICK") == "kick" and command_of("say") is None

