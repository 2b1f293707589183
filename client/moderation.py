"""Operators' commands as a player types them, in plain mode (`kick ana`) and in the
full-screen client's chat lines (`/kick ana`): each becomes one protocol request.

    kick NAME [REASON]            remove NAME from your table (the creator too, before the start)
    mute NAME MINUTES             keep NAME out of chat (0 lifts it)
    ban WHO MINUTES [REASON]      WHO: a connected player's name, key:HEX or ip:ADDRESS (0 lifts)
    close [TABLE] [REASON]        close your table (in the lobby: the table TABLE)
    tournament open NAME [sizes 2,3] [rounds N] | start | stop
                                  run the server's tournament
    tournament enter | leave      enter it (an identified player), or leave it while open

It only reads words and builds messages; the server decides who may do what, and the front
ends send the request and show the answer.
"""

from __future__ import annotations

from protocol import (
    Ban, CloseTable, EnterTournament, Kick, LeaveTournament, Mute, OpenTournament,
    StartTournament, StopTournament,
)
from protocol.messages import MAX_ENTRANTS, MAX_ROUNDS
from protocol.text import whole_number

from .i18n import _, pgettext

#: The commands, by their English word.
MODERATION = ("kick", "mute", "ban", "close", "tournament")
#: What `tournament` does, by its English word (the next word typed); `sizes` and
#: `rounds` are the words of open's options.
TOURNAMENT_ACTS = ("open", "start", "stop", "enter", "leave")
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
        "tournament": pgettext("command", "tournament"),
    }


def tournament_words() -> dict[str, str]:
    """The words `tournament` takes after it, in the player's language, by English word."""
    return {
        "open": pgettext("tournament", "open"),
        "start": pgettext("tournament", "start"),
        "stop": pgettext("tournament", "stop"),
        "enter": pgettext("tournament", "enter"),
        "leave": pgettext("tournament", "leave"),
        "sizes": pgettext("tournament", "sizes"),
        "rounds": pgettext("tournament", "rounds"),
    }


def _english(word: str, names: dict[str, str]) -> str | None:
    """The English word of `names` that `word` is, in English or in the player's language,
    in any case."""
    wanted = word.casefold()
    return next((english for english, name in names.items()
                 if wanted in (english, name.casefold())), None)


def _tournament_word(word: str) -> str | None:
    return _english(word, tournament_words())


def command_of(word: str) -> str | None:
    """The command (its English word) that `word` names, in English or in the player's
    language, in any case."""
    return _english(word, command_names())


def usage(operator: bool = True) -> list[str]:
    """How each command is typed, a line each (for help and for a mistyped command): an
    operator's all; anyone else's, the creator's kick and a tournament's entry."""
    c, t = command_names(), tournament_words()
    entry = _("{tournament} {enter} | {leave}: enter the server's tournament (with a key), or "
              "leave it before it starts; {tournament} alone: its standings").format(
        tournament=c["tournament"], enter=t["enter"], leave=t["leave"])
    if not operator:
        return [_kick_usage(c), entry]
    return [
        _kick_usage(c),
        _("{mute} NAME MINUTES: keep a name out of chat (0 lifts the mute)").format(
            mute=c["mute"]),
        _("{ban} NAME MINUTES [REASON]: keep a player off the server (key:KEY or ip:ADDRESS "
          "instead of a name; 0 lifts the ban)").format(ban=c["ban"]),
        _("{close} [TABLE] [REASON]: close your table, or in the lobby the table TABLE"
          ).format(close=c["close"]),
        _("{tournament} {open} NAME [{sizes} 2,3] [{rounds} N] | {start} | {stop}: run the "
          "server's tournament").format(tournament=c["tournament"], open=t["open"],
                                         sizes=t["sizes"], rounds=t["rounds"],
                                         start=t["start"], stop=t["stop"]),
        entry,
    ]


def _kick_usage(c: dict[str, str]) -> str:
    return _("{kick} NAME [REASON]: remove a player from your table (the creator may, before "
             "the game starts)").format(kick=c["kick"])


def request(command: str, rest: str, request_id: int, table: str | None):
    """The request `command` (MODERATION) typed with `rest` makes, `table` being the one
    the player is at (None: the lobby); CommandError if it is mistyped."""
    words = rest.split()
    if command == "tournament":
        return _tournament(words, request_id)
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


def _tournament(words: list[str], request_id: int):
    """The tournament request `words` (after the command) make."""
    act = _tournament_word(words[0]) if words else None
    if act not in TOURNAMENT_ACTS:
        raise CommandError("\n".join(usage()[-2:]))
    if act != "open":
        return {"start": StartTournament, "stop": StopTournament, "enter": EnterTournament,
                "leave": LeaveTournament}[act](id=request_id)
    name: list[str] = []
    sizes: list[int] | None = None
    rounds: int | None = None
    rest = words[1:]
    while rest:
        option = _tournament_word(rest[0])
        if option not in ("sizes", "rounds"):
            name.append(rest.pop(0))
            continue
        if len(rest) < 2:
            raise CommandError(usage()[-2])
        value = rest[1]
        rest = rest[2:]
        if option == "rounds":
            rounds = whole_number(value, MAX_ROUNDS)
            if not rounds:
                raise CommandError(_("ROUNDS is a number from 1 to {most}.").format(
                    most=MAX_ROUNDS))
        else:
            parts = [whole_number(part, MAX_ENTRANTS) for part in value.split(",")]
            if not parts or any(p is None or p < 2 for p in parts):
                raise CommandError(_("SIZES are table sizes from 2 to {most}, parted by "
                                     "commas: 2,3.").format(most=MAX_ENTRANTS))
            sizes = [p for p in parts if p is not None]
    if not name:
        raise CommandError(usage()[-2])
    return OpenTournament(id=request_id, name=" ".join(name)[:32], sizes=sizes, rounds=rounds)


def _reason(words: list[str]) -> str | None:
    return " ".join(words)[:200] or None
