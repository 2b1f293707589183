"""The seats of one table, the people and bots in them, and their reconnect tokens.

A seat is empty, a bot's, or a person's (here, or away in a grace). `Seats` answers who
sits where, by session, by player identity or by token hash, and who would inherit a
creator's rights. Reconnect tokens are made here and known to the server only by their
hash (`token_key`). This module holds the seats' own fields only: it must never send to
anyone, read a clock, nor tell the lobby anything (the table does).
"""

from __future__ import annotations

import hashlib
import secrets
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.bots import Strategy

from .session import Session

#: Letters and digits of private codes: the 32 that cannot be misread for one another.
CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "O0I1")
#: Characters of a private code: 12 of 32 are 2^60 codes (docs/SERVER.md has the arithmetic).
CODE_LENGTH = 12


def new_code() -> str:
    """A private table's join code, in groups of four for people to read out: K7TQ-2MXD-9PLA."""
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(code[i:i + 4] for i in range(0, CODE_LENGTH, 4))


def token_key(token: str) -> str:
    """How a reconnect token is known to the server and its store: its SHA-256, so that the
    store's file holds nothing that takes a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class Seat:
    """One seat. Empty when `name` is None; a bot when `bot` is set; a person otherwise,
    connected while `session` is set and away (in its grace) while `away_since` is."""

    index: int
    name: str | None = None
    session: Session | None = None
    #: The hash of the seat's reconnect token (token_key): the token itself is kept by its
    #: player alone, and the store keeps only this.
    token: str | None = None
    bot: Strategy | None = None
    bot_seed: int | None = None
    ready: bool = False
    rematch: bool = False
    away_since: float | None = None
    #: Seconds the seat waits for its player from `away_since`: a few before the game
    #: starts (no one is kept from a table by a seat that may never come back), the
    #: server's whole grace once it plays.
    grace: float = 0.0
    #: Who the person is ("key:<hex>", an identity), or None for a guest; kept while the
    #: seat is theirs, so that they get it back by identity as well as by token.
    player: str | None = None

    @property
    def human(self) -> bool:
        return self.name is not None and self.bot is None

    def info(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "name": None if self.bot else self.name,  # a bot's seat shows no person's name
            "bot": self.bot.name if self.bot else None,
            "ready": self.ready or self.bot is not None,  # bots always are
            "away": self.away_since is not None,
        } | ({"guest": True} if self.human and self.player is None else {})

    def sit(self, session: Session) -> tuple[str, str]:
        """`session`'s person takes the seat; its new reconnect token and the token's hash
        (the seat keeps only the hash)."""
        self.name = session.name
        self.session = session
        self.player = session.player
        return self.new_token()

    def new_token(self) -> tuple[str, str]:
        """A new reconnect token for the seat, the one before it void; the token and its
        hash."""
        token = secrets.token_urlsafe(24)
        self.token = key = token_key(token)
        return token, key

    def kept(self, now: float) -> dict[str, Any]:
        """The seat as the store keeps it: enough to seat its person or bot again after a
        restart (the token as its hash), and what is left at `now` of the grace of a person
        away."""
        grace_left = (None if self.away_since is None
                      else max(0.0, round(self.away_since + self.grace - now, 3)))
        return {"name": self.name, "token": self.token,
                "bot": self.bot.name if self.bot else None, "bot_seed": self.bot_seed,
                "ready": self.ready, "player": self.player, "grace_left": grace_left}

    @classmethod
    def restored(cls, index: int, kept: dict[str, Any], now: float, grace: float,
                 make_bot: Callable[[str, int], Strategy]) -> Seat:
        """Seat `index` as the store `kept` it, at a server started at `now`: its bot made
        again, or its person away from now on, with what was left of the grace when the
        server stopped, or the whole `grace`."""
        seat = cls(index, name=kept["name"], token=kept["token"], ready=kept["ready"],
                   player=kept.get("player"))
        if kept["bot"]:
            seat.bot_seed = kept["bot_seed"]
            seat.bot = make_bot(kept["bot"], kept["bot_seed"])
        elif seat.name is not None:
            # Away when the server stopped: what was left of the grace, so that restarts a
            # grace apart do not keep a seat for ever. Here when it stopped (or a server
            # that was killed): the whole grace, as the server itself went away.
            left = kept.get("grace_left")
            seat.away_since = now
            seat.grace = grace if left is None else left
        return seat

    def unseat(self) -> None:
        """The seat's person has it no more (the name stays: the table decides whether the
        seat is freed or played on)."""
        self.session = None
        self.token = None
        self.player = None
        self.away_since = None
        self.ready = False


class Seats:
    """A table's seats, in order: seat `n` is `seats[n]`."""

    def __init__(self, seats: list[Seat]) -> None:
        self._seats = seats

    @classmethod
    def empty(cls, count: int) -> Seats:
        return cls([Seat(i) for i in range(count)])

    def __iter__(self) -> Iterator[Seat]:
        return iter(self._seats)

    def __getitem__(self, index: int) -> Seat:
        return self._seats[index]

    def __len__(self) -> int:
        return len(self._seats)

    @property
    def free(self) -> int:
        """Seats no one sits in."""
        return sum(s.name is None for s in self._seats)

    def humans(self) -> list[Seat]:
        """The seats people (not bots) sit in."""
        return [s for s in self._seats if s.human]

    def of(self, session: Session) -> Seat | None:
        """The seat `session` sits in, if any."""
        return next((s for s in self._seats if s.session is session), None)

    def of_player(self, player: str) -> Seat | None:
        """The seat `player` holds here, connected or away (read-only: safe from any task)."""
        return next((s for s in self._seats if s.player == player and s.token), None)

    def with_token(self, key: str) -> Seat | None:
        """The seat whose token has the hash `key` (read-only: safe from any task)."""
        return next((s for s in self._seats if s.token == key), None)

    def name_for(self, key: str) -> str | None:
        """The name in the seat whose token has the hash `key` (read-only: safe from any
        task)."""
        seat = self.with_token(key)
        return seat.name if seat else None

    def player_for(self, key: str) -> str | None:
        """The player id of the seat whose token has the hash `key` (read-only: safe from
        any task)."""
        seat = self.with_token(key)
        return seat.player if seat else None

    def person_named(self, folded: str) -> Seat | None:
        """The seat of the person (no bot) whose name casefolds to `folded`."""
        return next((s for s in self._seats if s.bot is None and s.name is not None
                     and s.name.casefold() == folded), None)

    def heir(self, seat: Seat) -> Seat | None:
        """The creator once the creator's `seat` is freed before the start: the first person
        seated after it, round the table, who is here, else one who is away; so a table
        never waits for a start no one may give."""
        after = self._seats[seat.index + 1:] + self._seats[:seat.index]
        people = [s for s in after if s.human]
        return next((s for s in people if s.session is not None),
                    people[0] if people else None)

    def keep_seated(self) -> None:
        """Only the seats someone sits in remain, in order, numbered again from 0: the table
        shrinks to its players."""
        self._seats = [s for s in self._seats if s.name is not None]
        for index, seat in enumerate(self._seats):
            seat.index = index

    def info(self) -> list[dict[str, Any]]:
        return [s.info() for s in self._seats]

    def kept(self, now: float) -> list[dict[str, Any]]:
        """Every seat as the store keeps it (Seat.kept)."""
        return [s.kept(now) for s in self._seats]
