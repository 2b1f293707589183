"""Moderation: who the server's operators are, and the bans and mutes in force.

Operators are named by identity key in the server's configuration (`--operators`); a session
is an operator once it has identified with such a key. A ban keeps an identity ("key:<hex>")
or an address (as the lobby counts addresses: an IPv6 address by its /64) out until a time
of the wall clock, so that it means the same after a restart: the store keeps bans, and a
server loads those still in force when it starts. A mute keeps a name (in any case) out of
chat until a time; mutes live in memory only, and end with the server.

This module decides nothing about sessions or tables and sends nothing: the lobby asks it
who is an operator, who is banned or muted, and gives it the acts to remember.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from collections.abc import Callable, Sequence

from .changes import Banned

#: What a ban keeps out: an identity's player id, or an address.
BAN_KINDS = ("key", "address")


@dataclass(frozen=True, slots=True)
class Ban:
    """A ban in force: `kind` (BAN_KINDS) `value` is kept out until `until` (epoch seconds)."""

    kind: str
    value: str
    until: float
    reason: str
    by: str


def operator_ids(text: str | None) -> frozenset[str]:
    """The player ids of the keys `text` names, separated by commas, each as 64 hex digits
    or as "key:" and them (in any case); ValueError says which one is not a key."""
    ids = set()
    for part in (text or "").split(","):
        key = part.strip().lower().removeprefix("key:")
        if not key:
            continue
        if len(key) != 64 or any(c not in "0123456789abcdef" for c in key):
            raise ValueError(f"{part.strip()!r} is not an identity key (64 hex digits)")
        ids.add(f"key:{key}")
    return frozenset(ids)


def until_text(until: float) -> str:
    """A ban's or a mute's end as people read it: UTC, to the minute."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))


class Moderation:
    """The operators, bans and mutes of one server (see the module docstring)."""

    def __init__(self, operators: frozenset[str],
                 kept: Sequence[tuple[str, str, float, str, str]] = ()) -> None:
        """`kept`: the bans the store holds, as (kind, value, until, reason, by) rows."""
        self.operators = operators
        #: The wall clock bans and mutes are timed by (a test moves it on).
        self.clock: Callable[[], float] = time.time
        self._bans: dict[tuple[str, str], Ban] = {
            (kind, value): Ban(kind, value, until, reason, by)
            for kind, value, until, reason, by in kept}
        self._mutes: dict[str, float] = {}

    def is_operator(self, player: str | None) -> bool:
        return player is not None and player in self.operators

    def ban_on(self, kind: str, value: str | None) -> Ban | None:
        """The ban in force on `value` of `kind`, if any (one that ran out is forgotten)."""
        ban = self._bans.get((kind, value)) if value is not None else None
        if ban is not None and ban.until <= self.clock():
            del self._bans[(kind, ban.value)]
            return None
        return ban

    def ban(self, kind: str, value: str, minutes: int, reason: str,
            by: str) -> tuple[Ban, Banned]:
        """Ban `value` of `kind` for `minutes` from now (0: lift its ban); the ban, and the
        store's change that keeps it (a lifted ban is kept as one that has run out)."""
        now = self.clock()
        ban = Ban(kind, value, now + minutes * 60, reason, by)
        if minutes:
            self._bans[(kind, value)] = ban
        else:
            self._bans.pop((kind, value), None)
        return ban, Banned(kind=kind, value=value, until=ban.until, reason=reason, by=by,
                           made=now)

    def muted_until(self, name: str) -> float | None:
        """When the mute on `name` (in any case) ends, if it is muted now."""
        until = self._mutes.get(name.casefold())
        if until is not None and until <= self.clock():
            del self._mutes[name.casefold()]
            return None
        return until

    def mute(self, name: str, minutes: int) -> float:
        """Mute `name` (in any case) for `minutes` from now (0: lift its mute); its end."""
        until = self.clock() + minutes * 60
        if minutes:
            self._mutes[name.casefold()] = until
        else:
            self._mutes.pop(name.casefold(), None)
        return until
