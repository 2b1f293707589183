"""Operators' commands as a player types them, in plain mode (`kick ana`) and in the
full-screen client's chat lines (`/kick ana`): each becomes one protocol request.

    kick NAME [REASON]            remove NAME from your table (the creator too, before the start)
    mute NAME MINUTES             keep NAME out of chat (0 lifts it)
    ban WHO MINUTES [REASON]      WHO: a connected player's name, key:HEX or ip:ADDRESS (0 lifts)
    close [TABLE] [REASON]        close your table (in the lobby: the table TABLE)

It only reads words and builds messages; the server decides who may do what, and the front
ends send the request and show the answer.
"""

from __future__ import annotations

from protocol import Ban, CloseTable, Kick, Mute
from protocol.text import whole_number

from .i18n import _, pgettext

#: The commands, by their English word.
MODERATION = ("kick", "mute", "ban", "close")
#: What a ban of a key or of an address is typed with, before the key or the address.
KEY_PREFIX, ADDRESS_PREFIX = "key:", "ip:"
#: Longest mute or ban, in minutes: a year (the protocol's limit).
MOST_MINUTES = 525_600


class CommandError(Exception):
    """The typed command cannot be a request; the message says how to type it."""


def command_names() -> dict[str, str]:
    """Each command's word in the player's language, by its English word."""
    return {
        "kick": pgettext("command", "kick"),
        "mute": pgettext("command", "mute"),
        "ban": pgettext("command", "ban"),
        "close": pgettext("command", "close"),
    }


def command_of(word: str) -> str | None:
    """The command (its English word) that `word` names, in English or in the player's
    language, in any case."""
    wanted = word.casefold()
    return next((command for command, name in command_names().items()
                 if wanted in (command, name.casefold())), None)


def usage() -> list[str]:
    """How each command is typed, a line each, the creator's first (for help and for a
    mistyped command)."""
    c = command_names()
    return [
        _("{kick} NAME [REASON]: remove a player from your table (the creator may, before "
          "the game starts)").format(kick=c["kick"]),
        _("{mute} NAME MINUTES: keep a name out of chat (0 lifts the mute)").format(
            mute=c["mute"]),
        _("{ban} NAME MINUTES [REASON]: keep a player off the server (key:KEY or ip:ADDRESS "
          "instead of a name; 0 lifts the ban)").format(ban=c["ban"]),
        _("{close} [TABLE] [REASON]: close your table, or in the lobby the table TABLE"
          ).format(close=c["close"]),
    ]


def request(command: str, rest: str, request_id: int, table: str | None):
    """The request `command` (MODERATION) typed with `rest` makes, `table` being the one
    the player is at (None: the lobby); CommandError if it is mistyped."""
    words = rest.split()
    if command == "close":
        if table is None:
            if not words:
                raise CommandError(_("Close which table? Type {close} and its id.").format(
                    close=command_names()["close"]))
            table, words = words[0], words[1:]
        return CloseTable(id=request_id, table=table[:16], reason=_reason(words))
    if not words:
        raise CommandError(usage()[MODERATION.index(command)])
    who, words = words[0], words[1:]
    if command == "kick":
        return Kick(id=request_id, name=who[:32], reason=_reason(words))
    minutes = whole_number(words[0], MOST_MINUTES) if words else None
    if minutes is None:
        raise CommandError(_("MINUTES is a number from 0 to {most}.").format(most=MOST_MINUTES))
    words = words[1:]
    if command == "mute":
        return Mute(id=request_id, name=who[:32], minutes=minutes)
    if who.lower().startswith(KEY_PREFIX):
        key = who[len(KEY_PREFIX):]
        if len(key) != 64:
            raise CommandError(_("A key is 64 hex digits: key:KEY."))
        return Ban(id=request_id, minutes=minutes, key=key, reason=_reason(words))
    if who.lower().startswith(ADDRESS_PREFIX):
        address = who[len(ADDRESS_PREFIX):]
        if not 2 <= len(address) <= 45:
            raise CommandError(_("An address is typed ip:ADDRESS (IPv4 or IPv6)."))
        return Ban(id=request_id, minutes=minutes, address=address, reason=_reason(words))
    return Ban(id=request_id, minutes=minutes, name=who[:32], reason=_reason(words))


def _reason(words: list[str]) -> str | None:
    return " ".join(words)[:200] or None
