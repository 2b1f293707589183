"""A table's options: what a player asked for, with every default filled in and checked.

The options are a plain dict, as the wire and the store carry them. A server that plays a
fixed position gives every table that position's size and rules. This module checks and
fills options only: it must never make a table nor read the lobby.
"""

from __future__ import annotations

from typing import Any

from engine import Options, OptionsError
from engine.position import Position
from protocol.text import name_or_none

from .config import ServerConfig
from .refused import Refused

#: The bot that takes a seat after the grace when the table names none.
DEFAULT_BOT = "honest"


def fill_options(raw: dict[str, Any], config: ServerConfig, allowed: frozenset[str],
                 position: Position | None = None) -> dict[str, Any]:
    """The table options with every default filled in, or Refused(bad_options/…); a table
    may seat the bot strategies `allowed` only. At a server that plays a `position`, the
    table has the position's size and rules, whatever was asked, and is never rated."""
    if position is not None:  # every seat is played: bots in those no one takes
        rules = position.options
        raw = dict(raw, seats=rules.players, variant=rules.variant, treasury=rules.treasury,
                   two_player_draft=rules.two_player_draft, reformation=rules.reformation,
                   rated=False,
                   bots=raw.get("bots") or (DEFAULT_BOT if DEFAULT_BOT in allowed
                                            else min(allowed)))
    options = {
        "seats": raw["seats"],
        "variant": raw.get("variant", "base"),
        "two_player_draft": raw.get("two_player_draft", True),
        "treasury": raw.get("treasury", 50),
        "response_clock": raw.get("response_clock", config.response_clock),
        "turn_clock": raw.get("turn_clock", config.turn_clock),
        "private": raw.get("private", False),
        "on_disconnect": raw.get("on_disconnect", "bot"),
        "rated": raw.get("rated", False),
    }
    if raw.get("reformation"):  # written only when on, as engine.Options writes it (R12.1)
        options["reformation"] = True
    if "name" in raw:
        options["name"] = name_or_none(raw["name"])
        if options["name"] is None:
            raise Refused("bad_message", "Table names must be printable, as player names "
                          "are: no control, format or invisible characters, and not blank.")
    if raw.get("bots"):
        if raw["bots"] not in allowed:
            raise Refused("unknown_strategy", f"This server seats no bot strategy "
                          f"{raw['bots']!r}; it seats {', '.join(sorted(allowed))}.")
        options["bots"] = raw["bots"]
    try:
        Options(players=options["seats"], variant=options["variant"],
                two_player_draft=options["two_player_draft"], treasury=options["treasury"],
                reformation=options.get("reformation", False))
    except OptionsError as exc:
        raise Refused("bad_options", str(exc)) from None
    return options
