"""The changes a table, the lobby and the server hand the store: one frozen dataclass a
kind, its statement beside it.

A statement names its parameters after the fields of its change (`:row`, `:options`), and
the store binds them by those names, so no list of values has to follow the order of a
statement's columns by hand. A field holding a dict or a list is stored as JSON. Two kinds
are not one statement but work the store does in the write's transaction (RatingsMoved,
Prune): their statement is empty. This module holds the types and their SQL only: it must
never open, read or write a database, nor know of trio.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


class Change:
    """A change of the store, made by `Store.write` in one transaction with the others of
    its batch."""

    __slots__ = ()
    #: The statement that makes the change, its parameters named after the fields.
    SQL: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class NewTable(Change):
    """A table is created (written at once, so that a waiting table survives a kill)."""

    SQL: ClassVar[str] = (
        "INSERT INTO tables (row, id, name, options, code, state, created) "
        "VALUES (:row, :id, :name, :options, :code, :state, :created)")
    row: int
    id: str
    name: str
    options: dict[str, Any]
    #: The private code's hash (code_key), or None for a public table.
    code: str | None
    state: dict[str, Any]
    created: float


@dataclass(frozen=True, slots=True)
class TableState(Change):
    """A table's options and state (seats, status, creator) as they are now."""

    SQL: ClassVar[str] = "UPDATE tables SET options = :options, state = :state WHERE row = :row"
    options: dict[str, Any]
    state: dict[str, Any]
    row: int


@dataclass(frozen=True, slots=True)
class TableClosed(Change):
    """A table closed for good: the next start resumes nothing of it."""

    SQL: ClassVar[str] = "UPDATE tables SET closed = :closed WHERE row = :row"
    closed: float
    row: int


@dataclass(frozen=True, slots=True)
class TableGone(Change):
    """A table that closed with no game played leaves nothing (a fuzz of ten minutes left
    8,351 rows)."""

    SQL: ClassVar[str] = ("DELETE FROM tables WHERE row = :row AND NOT EXISTS "
                          "(SELECT 1 FROM games WHERE table_row = :row)")
    row: int


@dataclass(frozen=True, slots=True)
class NewGame(Change):
    """A game starts at a table: its options, seed and players."""

    SQL: ClassVar[str] = (
        "INSERT INTO games (id, table_row, number, options, seed, players, started, rated) "
        "VALUES (:id, :table_row, :number, :options, :seed, :players, :started, :rated)")
    id: int
    table_row: int
    number: int
    options: dict[str, Any]
    seed: str
    players: list[dict[str, Any]]
    started: float
    rated: bool


@dataclass(frozen=True, slots=True)
class GamePlayer(Change):
    """Who plays a seat of a game, as ratings know them ("key:…", "bot:<strategy>", or
    None for a guest)."""

    SQL: ClassVar[str] = ("INSERT INTO game_players (game, seat, name, player) "
                          "VALUES (:game, :seat, :name, :player)")
    game: int
    seat: int
    name: str | None
    player: str | None


@dataclass(frozen=True, slots=True)
class IdentitySeen(Change):
    """A verified key was seen: its name is set by its first visit, and kept."""

    SQL: ClassVar[str] = (
        "INSERT INTO identities (key, name, first_seen, last_seen) "
        "VALUES (:key, :name, :first_seen, :last_seen) "
        "ON CONFLICT (key) DO UPDATE SET last_seen = excluded.last_seen")
    key: str
    name: str
    first_seen: float
    last_seen: float


@dataclass(frozen=True, slots=True)
class MovePlayed(Change):
    """An accepted move (None for a forfeit), and who made it ("player", "bot", "clock" or
    "forfeit"), `ms` after the game started."""

    SQL: ClassVar[str] = ("INSERT INTO moves (game, n, seat, move, state_id, ms, by) "
                          "VALUES (:game, :n, :seat, :move, :state_id, :ms, :by)")
    game: int
    n: int
    seat: int
    move: dict[str, Any] | None
    state_id: int
    ms: int
    by: str


@dataclass(frozen=True, slots=True)
class Takeover(Change):
    """A bot took a person's seat after the game's first `after` moves."""

    SQL: ClassVar[str] = ("INSERT INTO takeovers (game, seat, bot, after, ms) "
                          "VALUES (:game, :seat, :bot, :after, :ms)")
    game: int
    seat: int
    bot: str
    after: int
    ms: int


@dataclass(frozen=True, slots=True)
class GameResult(Change):
    """A game ended: when, its winner, and the seats in the order they were exiled."""

    SQL: ClassVar[str] = ("UPDATE games SET finished = :finished, winner = :winner, "
                          "out = :out WHERE id = :id")
    finished: float
    winner: int | None
    out: list[int]
    id: int


@dataclass(frozen=True, slots=True)
class Banned(Change):
    """An operator's ban, or its lifting, over the last one on the same key or address."""

    SQL: ClassVar[str] = (
        "INSERT INTO bans (kind, value, until, reason, by, made) "
        "VALUES (:kind, :value, :until, :reason, :by, :made) "
        "ON CONFLICT (kind, value) DO UPDATE SET until = excluded.until, "
        "reason = excluded.reason, by = excluded.by, made = excluded.made")
    kind: str
    value: str
    until: float | None
    reason: str | None
    by: str
    made: float


@dataclass(frozen=True, slots=True)
class RatingsMoved(Change):
    """The ratings of finished rated game `game`'s players move by its finishing `order` of
    seats and the seat credited with the win (server/ratings.py), in the transaction with
    its result."""

    game: int
    when: float
    order: list[int]
    winner: int | None


@dataclass(frozen=True, slots=True)
class Prune(Change):
    """Up to `most` finished games of closed tables go, and the closed tables it leaves
    without a game (see Store._prune)."""

    now: float
    guest_days: float
    all_days: float
    most: int


#: The order of the kinds of change in a write: each kind goes in one go (a few statements
#: of many rows, see store._many_rows), after the kinds it refers to (a game after its
#: table, a game's moves after the game, the ratings after the result that moves them).
#: Changes of one kind keep their order.
ORDER: tuple[type[Change], ...] = (
    NewTable, NewGame, GamePlayer, IdentitySeen, MovePlayed, Takeover, TableState, GameResult,
    TableClosed, TableGone, RatingsMoved, Banned, Prune)
