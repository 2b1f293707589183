"""The store: every table, game and accepted move in one SQLite file, and the records of the
finished games.

It knows SQL and nothing of trio. The server's recorder (server/recorder.py) hands `write`
a batch of changes from one worker thread, one transaction and one fsync for every table
whose changes are in it; readers (`open_tables` at startup, `finished`, `record`, `export`)
each use a connection of their own, which WAL mode lets read while the writer writes.

Play is append-only: a game's row is written when it starts and completed when it ends, and
each accepted move, forfeit and bot take-over is a row of its own, never rewritten. A table's
own row (its seats, whose names and tokens change before and between games) is updated.
Reconnect tokens and private codes are kept only as hashes; seeds, which decide every hidden
card, are why the file is created readable by its owner only (0600).

The schema's version is SQLite's `user_version`; MIGRATIONS[n] brings a file from version
n - 1 to n, so a file of any earlier version is brought up to date when opened, and a file
from a newer coup is refused.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import secrets
import shlex
import sqlite3
import sys
import tempfile
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from typing import cast

import platformdirs

if sys.platform == "win32":  # no flock: one server per file is then the operator's care
    fcntl = None
else:
    import fcntl

from engine import record as records

from . import ratings
from .changes import ORDER, Change, Prune, RatingsMoved

#: The schema this code reads and writes.
SCHEMA_VERSION = 6

#: The statements that bring a file from version n - 1 to version n.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        # A table, from its creation until it closes. `state` is its status, seats (name,
        # token hash, bot strategy and seed, readiness) and creator's seat, as JSON.
        """CREATE TABLE tables (
            row INTEGER PRIMARY KEY,
            id TEXT NOT NULL,
            name TEXT NOT NULL,
            options TEXT NOT NULL,
            code TEXT,
            state TEXT NOT NULL,
            created REAL NOT NULL,
            closed REAL
        )""",
        "CREATE INDEX tables_open ON tables(row) WHERE closed IS NULL",
        # A game, from its deal; `finished`, `winner` and `out` once it ends.
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            table_row INTEGER NOT NULL REFERENCES tables(row),
            number INTEGER NOT NULL,
            options TEXT NOT NULL,
            seed TEXT NOT NULL,
            players TEXT NOT NULL,
            started REAL NOT NULL,
            finished REAL,
            winner INTEGER,
            out TEXT
        )""",
        "CREATE INDEX games_of_table ON games(table_row, id)",
        "CREATE INDEX games_finished ON games(finished, id) WHERE finished IS NOT NULL",
        # Who sat where, to find a player's games.
        """CREATE TABLE game_players (
            game INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            name TEXT NOT NULL COLLATE NOCASE,
            PRIMARY KEY (game, seat)
        ) WITHOUT ROWID""",
        "CREATE INDEX game_players_name ON game_players(name, game)",
        # Each accepted move (a forfeit: move NULL), in order, with its state id and its
        # time in milliseconds since the game started.
        """CREATE TABLE moves (
            game INTEGER NOT NULL REFERENCES games(id),
            n INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            move TEXT,
            state_id INTEGER NOT NULL,
            ms INTEGER NOT NULL,
            by TEXT NOT NULL,
            PRIMARY KEY (game, n)
        ) WITHOUT ROWID""",
        # A bot taking a person's seat, after `after` moves.
        """CREATE TABLE takeovers (
            game INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            bot TEXT NOT NULL,
            after INTEGER NOT NULL,
            ms INTEGER NOT NULL
        )""",
    ),
    2: (
        # Facts about the server itself: its id, which identities sign for.
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
        # Identities: a verified public key (hex) and the name it holds on this server; a
        # name belongs to the first key that used it.
        """CREATE TABLE identities (
            key TEXT PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            first_seen REAL NOT NULL,
            last_seen REAL NOT NULL
        ) WITHOUT ROWID""",
        # A rated player: "key:<hex>" for an identity, "bot:<strategy>" for a server bot;
        # its openskill rating, games and wins.
        """CREATE TABLE ratings (
            player TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            updated REAL NOT NULL
        ) WITHOUT ROWID""",
        # Who sat in a seat, beyond the name: its player id as ratings know it (NULL: a
        # guest), and whether the game counts for ratings.
        "ALTER TABLE game_players ADD COLUMN player TEXT",
        "CREATE INDEX game_players_player ON game_players(player, game)",
        "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0",
    ),
    3: (
        # The ratings by ordinal, as the leaderboard pages them and a profile counts its
        # rank: an index walked from the top, where each request sorted the whole table.
        "CREATE INDEX ratings_ordinal ON ratings(mu - 3 * sigma DESC, player)",
    ),
    4: (
        # A key is kept in one form, lower-case hex: the server took upper case as another
        # identity of the same key (issue 27), and refuses it now. Of the rows of one key,
        # the lower-case one stays, else the first seen; the others (and the names they
        # held) go, and every game and rating is the lower-case key's.
        """DELETE FROM identities AS i WHERE key != lower(key) AND EXISTS (
            SELECT 1 FROM identities AS j WHERE lower(j.key) = lower(i.key) AND j.key != i.key
            AND (j.key = lower(j.key) OR (j.first_seen, j.key) < (i.first_seen, i.key)))""",
        "UPDATE identities SET key = lower(key) WHERE key != lower(key)",
        """DELETE FROM ratings AS r WHERE player GLOB 'key:*' AND player != lower(player)
            AND EXISTS (SELECT 1 FROM ratings AS s WHERE lower(s.player) = lower(r.player)
            AND s.player != r.player AND (s.player = lower(s.player) OR s.player < r.player))""",
        "UPDATE ratings SET player = lower(player) WHERE player GLOB 'key:*'",
        "UPDATE game_players SET player = lower(player) WHERE player GLOB 'key:*'",
    ),
    5: (
        # A private table's code is kept as its hash (code_key), as tokens are: whoever
        # reads the file (a backup) must not be able to join the table with it.
        "UPDATE tables SET code = code_key(code) WHERE code IS NOT NULL",
    ),
    6: (
        # Operators' bans (server/moderation.py): an identity ("key:<hex>") or an address
        # kept out until `until`; a lifted ban is kept as one that ran out.
        """CREATE TABLE bans (
            kind TEXT NOT NULL,
            value TEXT NOT NULL,
            until REAL NOT NULL,
            reason TEXT NOT NULL,
            by TEXT NOT NULL,
            made REAL NOT NULL,
            PRIMARY KEY (kind, value)
        ) WITHOUT ROWID""",
    ),
}

def code_key(code: str) -> str:
    """A private table's code as the server and its store know it: the SHA-256 of the code
    as typed in any case, with or without dashes and spaces. The file then holds nothing
    that joins a table, and the table is still found by the code its players type."""
    typed = "".join(c for c in code.upper() if c not in "- ")
    return hashlib.sha256(typed.encode()).hexdigest()


def default_path(kind: str) -> str:
    """Where records are kept unless told: `kind` "server" for `coup serve`, "play" for the
    games a player hosts (`coup play`, a LAN game), in the user's data directory."""
    folder = platformdirs.user_data_dir("coup", appauthor=False, ensure_exists=True)
    return os.path.join(folder, f"{kind}.db")


#: A player's rating written over its last.
RATING = ("INSERT INTO ratings (player, name, mu, sigma, games, wins, updated) "
          "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player) DO UPDATE SET name = excluded.name, "
          "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
          "wins = excluded.wins, updated = excluded.updated")

#: Seconds in a day, as the keep policies count them.
DAY = 86400.0

#: The most parameters a statement may take in any SQLite (999 before 3.32).
MOST_PARAMETERS = 999


@functools.cache
def _positional(statement: str) -> tuple[str, tuple[str, ...]]:
    """A statement of named parameters (`:row`) as one of positional ones, and the names in
    the order of their places: the fields of a change, read by name, fill them."""
    return re.sub(r":(\w+)", "?", statement), tuple(re.findall(r":(\w+)", statement))


@functools.cache
def _split(statement: str) -> tuple[str, str, str]:
    """An INSERT of one row as its part up to VALUES, the row's placeholders and the rest."""
    head, _, tail = statement.partition("VALUES ")
    row, _, rest = tail.partition(")")
    return head + "VALUES ", row + ")", rest


def _many_rows(statement: str, rows: list[tuple]) -> Iterator[tuple[str, list]]:
    """`statement`, an INSERT of one row of VALUES, for all of `rows`, in as few statements
    as the parameters allow. SQLite runs each statement as one step, during which the
    writer's thread lets the loop have the interpreter, and then waits up to a switch
    interval (1 ms, see server/cli.py) to have it back: row by row (executemany) a group
    commit of 100 moves took 50-190 ms on a busy server, in one statement 4-7 ms."""
    head, row, rest = _split(statement)
    each = MOST_PARAMETERS // len(rows[0])
    for start in range(0, len(rows), each):
        chunk = rows[start:start + each]
        yield (head + ", ".join([row] * len(chunk)) + rest,
               [value for values in chunk for value in values])


@functools.cache
def _update_parts(statement: str) -> tuple[str, list[str], str]:
    """"UPDATE t SET a = ?, b = ? WHERE k = ?" as its table, columns and key: t, [a, b], k."""
    match = re.fullmatch(r"UPDATE (\w+) SET (.+) WHERE (\w+) = \?", statement)
    assert match is not None, statement  # write() sends only UPDATEs of this form here
    columns = [part.split("=")[0].strip() for part in match.group(2).split(",")]
    return match.group(1), columns, match.group(3)


def _many_updates(statement: str, rows: list[tuple]) -> Iterator[tuple[str, list]]:
    """`statement`, an UPDATE of one row by its key (the last parameter), for all of `rows`
    in as few statements as the parameters allow (see _many_rows: a step each): a CASE on
    the key per column. Of two changes to one row, the later stands, as one by one."""
    table, columns, key = _update_parts(statement)
    last = list({row[-1]: row[:-1] for row in rows}.items())
    each = MOST_PARAMETERS // (2 * len(columns) + 1)
    for start in range(0, len(last), each):
        chunk = last[start:start + each]
        cases = " WHEN ? THEN ?" * len(chunk)
        sets = ", ".join(f"{column} = CASE {key}{cases} END" for column in columns)
        values = [v for i in range(len(columns)) for k, row in chunk for v in (k, row[i])]
        yield (f"UPDATE {table} SET {sets} WHERE {key} IN ({', '.join('?' * len(chunk))})",
               values + [k for k, _ in chunk])


class StoreError(Exception):
    """The store cannot be opened or written; the message says why, for a person."""


def _json(value):
    return json.dumps(value, separators=(",", ":")) if isinstance(value, (dict, list)) else value


class Store:
    """One SQLite file. `write` from one thread at a time; the readers from any thread."""

    def __init__(self, path: str, writer: bool = True) -> None:
        """Open `path` (made 0600 if new): as its one `writer`, brought to this schema and
        locked against a second server; or only to read, where a server may be writing."""
        self.path = path
        self._lock = None
        self._writer: sqlite3.Connection | None = None  # the writer's connection, if it is one
        try:
            if writer:
                self._lock = _lock(path)
                if not os.path.exists(path):
                    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
                self._writer = self._connect()
                self._migrate(self._writer)
                self._check_writable()
                self.next_table, self.next_game = self._writer.execute(
                    "SELECT (SELECT coalesce(max(row), 0) + 1 FROM tables),"
                    " (SELECT coalesce(max(id), 0) + 1 FROM games)").fetchone()
            else:
                if not os.path.exists(path):
                    raise StoreError(f"cannot use {path}: there is no such file")
                version = self._reader().execute("PRAGMA user_version").fetchone()[0]
                if version != SCHEMA_VERSION:
                    raise StoreError(f"cannot read {path}: its schema is version {version}, "
                                     f"this coup reads {SCHEMA_VERSION}")
        except (OSError, sqlite3.Error) as exc:
            self.close()
            raise StoreError(f"cannot use {path}: {_why(exc, path)}") from exc
        except StoreError:
            self.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA busy_timeout = 5000")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode != "wal":
            raise sqlite3.OperationalError(f"the file cannot use WAL mode ({mode})")
        # FULL: a committed transaction is on the disk before write returns, even if the
        # machine loses power; group commits make that one fsync for many tables.
        conn.execute("PRAGMA synchronous = FULL")
        return conn

    @staticmethod
    def _migrate(conn: sqlite3.Connection) -> None:
        conn.create_function("code_key", 1, code_key, deterministic=True)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"the file is of schema version {version}, from a newer coup; "
                             f"this one knows versions up to {SCHEMA_VERSION}")
        for n in range(version + 1, SCHEMA_VERSION + 1):
            conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[n]:
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {n}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def _check_writable(self) -> None:
        """Raise unless the file can be written now. SQLite opens a file it may not write
        (its mode, its directory, a read-only file system) read-only without a word: a
        server on it resumed its tables, then hung every new one. So a write is tried, of
        the schema version the file holds already, and rolled back."""
        conn = self._writing()
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        finally:
            conn.execute("ROLLBACK")

    def _writing(self) -> sqlite3.Connection:
        """The writer's connection: writes are the writer's alone."""
        assert self._writer is not None, "this store was opened only to read"
        return self._writer

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        if self._lock is not None:
            self._lock.close()  # and with it the lock

    # ------------------------------------------------------------------ writing

    def take_table_row(self) -> int:
        """A new table's row number (the store is the file's only writer)."""
        self.next_table += 1
        return self.next_table - 1

    def take_game_id(self) -> int:
        """A new game's id: the id its record is known by."""
        self.next_game += 1
        return self.next_game - 1

    def write(self, changes: Sequence[Change]) -> None:
        """Every change in one transaction, kind by kind in ORDER: all of them are on the
        disk when this returns, or none is and StoreError says why."""
        conn = self._writing()
        try:
            steps = list(self._steps(conn, changes))
            if len(steps) == 1 and isinstance(steps[0], tuple):
                # One statement is its own transaction: no BEGIN and COMMIT of their own,
                # each a step during which the writer gives up the interpreter and then
                # waits to have it back (see _many_rows). At human pace most writes are this.
                conn.execute(*steps[0])
                return
            conn.execute("BEGIN")
            try:
                for step in steps:
                    if isinstance(step, tuple):
                        conn.execute(*step)
                    else:
                        step()
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise StoreError(_why(exc, self.path)) from exc

    def _steps(self, conn: sqlite3.Connection, changes: Sequence[Change],
               ) -> Iterator[tuple[str, Sequence[object]] | Callable[[], None]]:
        """What writes `changes`, kind by kind in ORDER: a statement and its values, or the
        work of a change that is not a statement (ratings, pruning)."""
        kinds: dict[type[Change], list[Change]] = {kind: [] for kind in ORDER}
        for change in changes:
            kinds[type(change)].append(change)
        for kind, changed in kinds.items():
            if not changed:
                continue
            if kind is RatingsMoved:
                for moved in cast("list[RatingsMoved]", changed):
                    yield functools.partial(self._rate, conn, moved.game, moved.when,
                                            moved.order, moved.winner)
                continue
            if kind is Prune:
                for prune in cast("list[Prune]", changed):
                    yield functools.partial(self._prune, conn, prune.now, prune.guest_days,
                                            prune.all_days, prune.most)
                continue
            statement, names = _positional(kind.SQL)
            rows = [tuple(_json(getattr(change, name)) for name in names)
                    for change in changed]
            if " VALUES (" in statement:  # an INSERT of a row
                yield from _many_rows(statement, rows)
            elif statement.startswith("UPDATE"):  # an UPDATE of a row by its key
                yield from _many_updates(statement, rows)
            else:
                yield from ((statement, row) for row in rows)

    @staticmethod
    def _rate(conn: sqlite3.Connection, game_id: int, when: float, order: list[int],
              winner: int | None) -> None:
        """Move the ratings of game `game_id`'s players, if it is rated and over, by its
        finishing `order` of seats and the seat credited with the win (ratings.Standing)."""
        row = conn.execute("SELECT finished, rated, players FROM games WHERE id = ?",
                           (game_id,)).fetchone()
        if row is None or row[0] is None or not row[1]:
            return
        players: list[str | None] = [None] * len(json.loads(row[2]))
        names: dict[str, str] = {}
        for seat, player, name in conn.execute(
                "SELECT seat, player, name FROM game_players WHERE game = ?", (game_id,)):
            players[seat] = player
            if player is not None:
                names[player] = name
        known = {p: ratings.Rating(mu, sigma, games, wins) for p, mu, sigma, games, wins in
                 conn.execute("SELECT player, mu, sigma, games, wins FROM ratings WHERE "
                              f"player IN ({','.join('?' * len(names))})", tuple(names))}
        for player, r in ratings.rate(known, players, order, winner).items():
            conn.execute(RATING, (player, names[player], r.mu, r.sigma, r.games, r.wins, when))

    @staticmethod
    def _prune(conn: sqlite3.Connection, now: float, guest_days: float, all_days: float,
               most: int) -> None:
        """Remove up to `most` finished games of closed tables, oldest first: those that
        finished over `guest_days` before `now`, unrated, where no identified player sat
        (guests' and bots'), and if `all_days`, every one that finished over `all_days`
        before; 0 days keeps them forever. Then the closed tables left with no game. An
        open table's games stay (a resumed table replays its last), and the newest game."""
        kinds = []
        if guest_days > 0:
            kinds.append("(g.finished < ? AND NOT g.rated AND NOT EXISTS (SELECT 1 FROM "
                         "game_players p WHERE p.game = g.id AND p.player GLOB 'key:*'))")
        if all_days > 0:
            kinds.append("g.finished < ?")
        if not kinds:
            return
        cutoffs = [now - days * DAY for days in (guest_days, all_days) if days > 0]
        # The newest game stays whatever its age: ids are given from past it when the file
        # is opened, and a game's id is how its record is asked for, so none is given twice.
        # `finished < latest cutoff` walks index games_finished over the old games only.
        found = conn.execute(
            "SELECT g.id, g.table_row FROM games g JOIN tables t ON t.row = g.table_row "
            f"WHERE g.finished < ? AND t.closed IS NOT NULL AND ({' OR '.join(kinds)}) "
            "AND g.id < (SELECT max(id) FROM games) ORDER BY g.finished, g.id LIMIT ?",
            (max(cutoffs), *cutoffs, most)).fetchall()
        if not found:
            return
        ids = [game for game, _ in found]
        marks = ",".join("?" * len(ids))
        for table in ("moves", "takeovers", "game_players"):
            conn.execute(f"DELETE FROM {table} WHERE game IN ({marks})", ids)
        conn.execute(f"DELETE FROM games WHERE id IN ({marks})", ids)
        rows = sorted({row for _, row in found})
        conn.execute(f"DELETE FROM tables WHERE row IN ({','.join('?' * len(rows))}) AND NOT "
                     "EXISTS (SELECT 1 FROM games WHERE table_row = tables.row)", rows)

    def server_id(self) -> str:
        """This server's id (16 random bytes as hex), made and kept the first time it is
        asked: what its players' identities sign for."""
        conn = self._writing()
        try:
            row = conn.execute(
                "SELECT value FROM meta WHERE key = 'server_id'").fetchone()
            if row is not None:
                return row[0]
            value = secrets.token_hex(16)
            conn.execute("INSERT INTO meta (key, value) VALUES ('server_id', ?)", (value,))
        except sqlite3.Error as exc:
            raise StoreError(f"cannot use {self.path}: {_why(exc, self.path)}") from exc
        return value

    # ------------------------------------------------------------------ backing up

    def backup(self, dest: str, force: bool = False) -> None:
        """Copy the store to `dest` as it is at one moment, while a server may be writing
        it (SQLite's online backup, from a reader: in WAL mode it holds the writer up for
        nothing). The copy is made 0600 beside `dest` and checked, then put in place: an
        existing `dest` is refused unless `force`, and the store itself always is."""
        if os.path.exists(dest) and os.path.samefile(dest, self.path):
            raise StoreError(f"cannot back up to {dest}: it is the store itself")
        if not force and os.path.lexists(dest):
            raise StoreError(f"cannot back up to {dest}: it exists (--force replaces it)")
        part = None
        try:
            fd, part = tempfile.mkstemp(prefix=".coup-backup-", suffix=".part",
                                        dir=os.path.dirname(os.path.abspath(dest)))
            os.close(fd)  # mkstemp made it 0600, as the store
            source, target = self._reader(), sqlite3.connect(part, isolation_level=None)
            try:
                # One step: the copy is the one moment the read began at; steps would start
                # over at each of the server's writes.
                source.backup(target)
                problem = target.execute("PRAGMA quick_check").fetchone()[0]
                if problem != "ok":
                    raise sqlite3.DatabaseError(f"the copy fails its check: {problem}")
            finally:
                target.close()
                source.close()
            _fsync(part)
            if force:
                os.replace(part, dest)
            else:  # a link is never made over a file that came meanwhile
                os.link(part, dest)
            _fsync(os.path.dirname(os.path.abspath(dest)))
        except FileExistsError:
            raise StoreError(f"cannot back up to {dest}: it exists (--force replaces it)") \
                from None
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot back up to {dest}: {_why(exc)}") from exc
        finally:
            if part is not None and os.path.lexists(part):
                os.unlink(part)

    # ------------------------------------------------------------------ reading

    def identities(self) -> list[tuple[str, str]]:
        """Every identity as (key, name); StoreError if they cannot be read (a server that
        does not know who holds which name must not start)."""
        return self._startup_read("SELECT key, name FROM identities", ())

    def bans(self, now: float) -> list[tuple[str, str, float, str, str]]:
        """The bans in force at `now`, as (kind, value, until, reason, by); StoreError if
        they cannot be read (a server must not start without its bans)."""
        return self._startup_read("SELECT kind, value, until, reason, by FROM bans "
                                  "WHERE until > ?", (now,))

    def damage(self) -> str | None:
        """What is wrong with the file's pages, in words an operator can act on, or None if
        SQLite's quick check finds nothing. It reads the whole file: for a worker thread."""
        try:
            conn = self._reader()
            try:
                problems = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
            finally:
                conn.close()
        except sqlite3.Error as exc:  # too damaged to go through
            return _why(exc, self.path)
        if problems == ["ok"]:
            return None
        return (f"the file is damaged ({'; '.join(problems)})" + _remedy(self.path))

    def _startup_read(self, query: str, params: tuple) -> list[tuple]:
        """Every row of `query`, or StoreError saying why they cannot be read."""
        try:
            conn = self._reader()
            try:
                return conn.execute(query, params).fetchall()
            finally:
                conn.close()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot use {self.path}: {_why(exc, self.path)}") from exc

    def leaderboard(self, offset: int = 0, limit: int = 20, established: int = 0) -> list[dict]:
        """Rated players of `established` rated games or more, from the highest ordinal
        (mu - 3 sigma) down, `limit` from the `offset`-th: rank, player, name, ordinal, mu,
        sigma, games, wins. (The order is the index ratings_ordinal's, expression and all:
        so the page is read off it.)"""
        conn = self._reader()
        try:
            rows = conn.execute(
                "SELECT player, name, mu, sigma, games, wins FROM ratings WHERE games >= ? "
                "ORDER BY mu - 3 * sigma DESC, player LIMIT ? OFFSET ?",
                (established, limit, offset)).fetchall()
        finally:
            conn.close()
        return [{"rank": offset + i + 1, "player": p, "name": n,
                 "ordinal": round(mu - 3 * sigma, 3), "mu": round(mu, 3),
                 "sigma": round(sigma, 3), "games": g, "wins": w}
                for i, (p, n, mu, sigma, g, w) in enumerate(rows)]

    def player_named(self, name: str) -> str | None:
        """The rated player called `name` (in any case): the identity holding that name, or
        else the bot strategy of that name; None if neither has played a rated game."""
        conn = self._reader()
        try:
            row = conn.execute(
                "SELECT player FROM ratings WHERE player = (SELECT 'key:' || key FROM "
                "identities WHERE name = ?) OR player = 'bot:' || ? ORDER BY player DESC",
                (name, name.lower())).fetchone()
        finally:
            conn.close()
        return row[0] if row else None

    def profile(self, player: str, recent: int = 10, established: int = 0,
                viewer: str | None = None) -> dict | None:
        """`player`'s rating, rank and record, with its `recent` latest finished games that
        `viewer` may see (as `finished` lists them); None if it has never played a rated
        game. The rank is
        among players of `established` rated games or more; a player of fewer is marked
        `provisional` (the place it has is the one it would have on the leaderboard)."""
        conn = self._reader()
        try:
            row = conn.execute("SELECT name, mu, sigma, games, wins FROM ratings "
                               "WHERE player = ?", (player,)).fetchone()
            if row is None:
                return None
            name, mu, sigma, games, wins = row
            rank = conn.execute("SELECT count(*) FROM ratings WHERE mu - 3 * sigma > ? "
                                "AND games >= ?", (mu - 3 * sigma, established)).fetchone()[0] + 1
        finally:
            conn.close()
        lines = self._lines(["g.finished IS NOT NULL",
                             "g.id IN (SELECT game FROM game_players WHERE player = ?)"],
                            [player], recent, viewer)
        return {"player": player, "name": name, "rank": rank,
                "ordinal": round(mu - 3 * sigma, 3), "mu": round(mu, 3),
                "sigma": round(sigma, 3), "games": games, "wins": wins,
                "recent": lines} | ({"provisional": True} if games < established else {})


    def _reader(self) -> sqlite3.Connection:
        """A connection that only reads. In WAL mode even a reader makes the file's -shm
        beside it, which a folder it cannot write (a read-only file system, someone else's
        folder) refuses: there, with no -wal either, no server can be writing the file, and
        it is read as immutable, with no lock and no -shm."""
        uri = "file:" + urllib.parse.quote(os.path.abspath(self.path)) + "?mode=ro"
        folder = os.path.dirname(os.path.abspath(self.path))
        if not os.access(folder, os.W_OK) and not os.path.exists(self.path + "-wal"):
            uri += "&immutable=1"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA busy_timeout = 5000")
        return conn

    def open_tables(self) -> list[dict]:
        """Every table not closed, in the order they were made, each with its latest game
        (finished or not) and that game's moves and take-overs: what a restarted server
        resumes. A table whose own row or game cannot be read (damaged pages) is there with
        `damaged`, the reason, and whatever of it could be read: one damaged record sets its
        table aside, not the server. StoreError if not even the list of tables can be read."""
        conn = self._reader()
        try:
            columns = "row, id, name, options, code, state, created"
            try:
                rows = _either(conn, (
                    f"SELECT {columns} FROM tables WHERE closed IS NULL ORDER BY row",
                    f"SELECT {columns} FROM tables NOT INDEXED WHERE closed IS NULL ORDER BY row",
                ), ())
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"cannot use {self.path}: {_why(exc, self.path)}") from exc
            return [self._open_table(conn, *row) for row in rows]
        finally:
            conn.close()

    def _open_table(self, conn: sqlite3.Connection, row: int, id_: str, name: str,
                    options: str, code: str | None, state: str, created: float) -> dict:
        """One open table as `open_tables` gives it."""
        table: dict = {"row": row, "id": id_, "name": name, "code": code, "created": created,
                       "options": None, "state": None, "games": 0, "game": None}
        try:
            table["options"], table["state"] = json.loads(options), json.loads(state)
            [(game, table["games"])] = _either(conn, (
                "SELECT max(id), count(*) FROM games WHERE table_row = ?",
                "SELECT max(id), count(*) FROM games NOT INDEXED WHERE table_row = ?",
            ), (row,))
            table["game"] = self._game(conn, game, finished=False) if game else None
        except (sqlite3.DatabaseError, ValueError, TypeError) as exc:
            table["damaged"] = _why(exc, self.path)
        return table

    def finished(self, before: int | None = None, player: str | None = None,
                 limit: int = 20, viewer: str | None = None) -> list[dict]:
        """Finished games that `viewer` may see (see `_lines`), newest first: those with an
        id below `before` (a page's cursor), with a seat named `player` (in any case) if
        given; each as a line of a list: id, table, players, winner's seat and the times."""
        where = ["g.finished IS NOT NULL"]
        params: list = []
        if before is not None:
            where.append("g.id < ?")
            params.append(before)
        if player is not None:
            where.append("g.id IN (SELECT game FROM game_players WHERE name = ?)")
            params.append(player)
        return self._lines(where, params, limit, viewer)

    def _lines(self, where: list[str], params: list, limit: int,
               viewer: str | None) -> list[dict]:
        """The games that meet every condition of `where`, newest first, as list lines:
        of public tables, and of private ones only those `viewer` (a player id; None, a
        guest) played in."""
        where = [*where, "(t.code IS NULL OR g.id IN (SELECT game FROM game_players "
                         "WHERE player = ?))"]
        params = [*params, viewer]
        conn = self._reader()
        try:
            rows = conn.execute(
                "SELECT g.id, t.id, t.name, g.players, g.winner, g.started, g.finished, "
                "(SELECT count(*) FROM moves m WHERE m.game = g.id) "
                "FROM games g JOIN tables t ON t.row = g.table_row "
                f"WHERE {' AND '.join(where)} ORDER BY g.id DESC LIMIT ?",
                (*params, limit)).fetchall()
        finally:
            conn.close()
        return [{"game": g, "table": t, "table_name": tn, "players": json.loads(p),
                 "winner": w, "started": records.iso(s), "finished": records.iso(f),
                 "moves": n} for g, t, tn, p, w, s, f, n in rows]

    def keepers(self, game_id: int) -> frozenset[str] | None:
        """Whose game `game_id`'s record is, if it is a private table's: the identities that
        sat in it (a guest who played has no key to show for it). None for a public game."""
        conn = self._reader()
        try:
            private = conn.execute("SELECT t.code IS NOT NULL FROM games g JOIN tables t "
                                   "ON t.row = g.table_row WHERE g.id = ?",
                                   (game_id,)).fetchone()
            if not private or not private[0]:
                return None
            return frozenset(p for (p,) in conn.execute(
                "SELECT player FROM game_players WHERE game = ? AND player GLOB 'key:*'",
                (game_id,)))
        finally:
            conn.close()

    def record(self, game_id: int) -> dict | None:
        """The record of finished game `game_id` (engine.record's format), or None if there
        is no such game or it is not over: a game in play is never told. StoreError if it
        cannot be read (the file is damaged where it is)."""
        conn = self._reader()
        try:
            return self._game(conn, game_id, finished=True)
        except (sqlite3.DatabaseError, ValueError, TypeError) as exc:
            raise StoreError(f"game {game_id} cannot be read: {_why(exc, self.path)}") from exc
        finally:
            conn.close()

    def export(self, since: float | None = None,
               skipped: Callable[[int, str], object] | None = None) -> Iterator[dict]:
        """The records of every finished game (that finished at or after `since`, a POSIX
        time), oldest first. A record that cannot be read (damaged pages) is passed to
        `skipped` as its game id and why, and the others follow; without `skipped` it is a
        StoreError. StoreError too if not even the list of games can be read."""
        conn = self._reader()
        try:
            try:
                where = "WHERE finished IS NOT NULL AND finished >= ? ORDER BY id"
                ids = [r[0] for r in _either(conn, (
                    f"SELECT id FROM games {where}",
                    f"SELECT id FROM games INDEXED BY games_finished {where}",
                ), (since or 0.0,))]
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"cannot read {self.path}: {_why(exc, self.path)}") from exc
            for game_id in ids:
                try:
                    record = self._game(conn, game_id, finished=True)
                except (sqlite3.DatabaseError, ValueError, TypeError) as exc:
                    if skipped is None:
                        raise StoreError(f"game {game_id} cannot be read: "
                                         f"{_why(exc, self.path)}") from exc
                    skipped(game_id, _why(exc, self.path))
                    continue
                if record is not None:  # else pruned since the list was read: gone
                    yield record
        finally:
            conn.close()

    @staticmethod
    def _game(conn: sqlite3.Connection, game_id: int, finished: bool) -> dict | None:
        """Game `game_id` as a record; with `finished`, None unless it is over."""
        row = conn.execute(
            "SELECT g.number, g.options, g.seed, g.players, g.started, g.finished, g.winner, "
            "g.out, t.id, t.name FROM games g JOIN tables t ON t.row = g.table_row "
            "WHERE g.id = ?", (game_id,)).fetchone()
        if row is None or (finished and row[5] is None):
            return None
        number, options, seed, players, started, ended, winner, out, table, table_name = row
        moves = [
            {"seat": seat, "move": json.loads(move) if move else None, "state_id": state_id,
             "ms": ms, "by": by}
            for seat, move, state_id, ms, by in conn.execute(
                "SELECT seat, move, state_id, ms, by FROM moves WHERE game = ? ORDER BY n",
                (game_id,))
        ]
        takeovers = [
            {"seat": seat, "bot": bot, "after": after, "ms": ms}
            for seat, bot, after, ms in conn.execute(
                "SELECT seat, bot, after, ms FROM takeovers WHERE game = ? ORDER BY rowid",
                (game_id,))
        ]
        return records.make(
            game=game_id, table=table, table_name=table_name, number=number,
            options=json.loads(options), seed=int(seed), players=json.loads(players),
            started=started, finished=ended, moves=moves, takeovers=takeovers,
            result=None if ended is None else {"winner": winner, "out": json.loads(out)})


def _either(conn: sqlite3.Connection, queries: tuple[str, ...], params: tuple) -> list[tuple]:
    """The rows of the first of `queries` that can be read: one question asked of other
    pages (an index, or the table it indexes), so that one damaged page of either does not
    hide rows the other still has. The last query's error if none can be read."""
    for query in queries[:-1]:
        try:
            return conn.execute(query, params).fetchall()
        except sqlite3.DatabaseError:
            continue  # its pages are damaged: ask the others
    return conn.execute(queries[-1], params).fetchall()


def _lock(path: str):
    """An exclusive lock on `path` (through PATH.lock) for as long as the returned file stays
    open: two servers appending to one file would take the same ids. None where the
    platform has no flock."""
    if fcntl is None:
        return None
    lock = os.fdopen(os.open(path + ".lock", os.O_CREAT | os.O_RDWR, 0o600), "r+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise StoreError(f"cannot use {path}: another coup server is using it") from None
    return lock


def _fsync(path: str) -> None:
    """Have `path` (a file, or a folder's names) on the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _why(exc: BaseException, path: str | None = None) -> str:
    """An SQLite or OS error in words a server's operator can act on; with the file's
    `path`, a read-only one says what is read-only for this user, and a damaged one what
    to do about it."""
    text = str(exc) or type(exc).__name__
    if isinstance(exc, sqlite3.DatabaseError) and "not a database" in text:
        return "the file is not a coup database (or it is damaged)" + _remedy(path)
    if isinstance(exc, sqlite3.DatabaseError) and "malformed" in text:
        return f"the file is damaged ({text})" + _remedy(path)
    if "readonly" in text or "read-only" in text:
        folder = os.path.dirname(os.path.abspath(path)) if path else None
        if path and not os.access(path, os.W_OK):
            return ("the file cannot be written by this user (its mode or owner): coup "
                    "serve must be able to write it")
        if folder and not os.access(folder, os.W_OK):
            return (f"its directory {folder} cannot be written by this user: SQLite keeps "
                    "the file's -wal and -shm files beside it")
        return "the file cannot be written (read-only)"
    if "disk is full" in text or "database or disk is full" in text:
        return "the disk is full"
    if "locked" in text:
        return "the file is locked by another program"
    return text


def _remedy(path: str | None) -> str:
    """What to do about a damaged file: a backup, or SQLite's own salvage of what it can
    still read."""
    salvage = f"sqlite3 {shlex.quote(path)} .recover" if path else "sqlite3 FILE .recover"
    return (f"; restore your latest backup (docs/SERVER.md), or save what can still be read "
            f"with `{salvage} | sqlite3 NEW.db`")
