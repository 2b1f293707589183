"""Every message of protocol versions 1 and 2, as frozen dataclasses with the spec of each
field. Version 2 is version 1 with Reformation tables (REFORMATION_VERSION); the messages
and their specs are the same in both, and what a version-1 session is never sent is the
server's to withhold (docs/PROTOCOL.md, Versioning).

A message class names its wire type (`TYPE`, the `t` field), who may send it (`SENDER`:
"client", "server" or "both") and, per field, the spec its value must meet (see schema.py).
Fields without a default are required; optional ones default to None and are left out of
the frame when None. Nested data (table options, views, events, moves) travels as maps with
the specs below; the engine turns them into its own types (View.from_dict, Move.from_dict).
docs/PROTOCOL.md is written from this module: change one, change the other.
"""

from __future__ import annotations

import hashlib
import hmac
import dataclasses
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar

from engine import ACTIONS, CHARACTERS, FACTIONS, FAIL_REASONS, PHASES, STEPS, VARIANTS, VIEW_FIELDS
from engine import record as records

from .schema import Bool, Enum, Field, Float, Int, List, Map, Nullable, OneOf, Str

#: At most this many tables in one `tables` message: 40 of the largest summaries fit 64 KiB.
MAX_LISTED = 40

#: Protocol versions this implementation speaks.
VERSIONS: tuple[int, ...] = (1, 2)
#: The first version whose sessions may see a Reformation table (R12): a client of version
#: 1 would take one for a base table and end its connection at the first Conversion.
REFORMATION_VERSION = 2

#: The TCP port a server listens on unless told otherwise (docs/PROTOCOL.md says it too).
DEFAULT_PORT = 7654

NAME = Str(32, 1)
TEXT = Str(500, 1)
MESSAGE = Str(500)
CODE = Str(32, 1)
TABLE_ID = Str(16, 1)
TOKEN = Str(64, 1)
REQUEST_ID = Int(0, 2**31 - 1)
SEAT = Int(0, 9)
COINS = Int(0, 1000)
CARD = Enum(CHARACTERS)
SEATS = List(SEAT, 10)
STRATEGY = Str(32, 1)
#: A finished or running game's id on its server: the id its record is fetched by.
GAME_ID = Int(1, 2**31 - 1)
#: 32 random bytes as hex: a connection's nonce, an Ed25519 public key.
HEX32 = Str(64, 64)
#: A server's id: 16 random bytes as hex, made once per server (kept in its store).
SERVER_ID = Str(32, 32)
#: The prefix of what a client signs to identify: the signature is good for nothing else.
IDENTIFY_CONTEXT = b"coup-identify\0"
#: The doors that vouch for identities (Identify.door).
DOORS = ("ssh",)
#: The prefix of what a door's client signs to say where its player is (Via).
VIA_CONTEXT = b"coup-via\0"
#: An IP address as text: IPv6 is 45 characters at the most (with an IPv4 tail).
ADDRESS = Str(45, 2)


def _bound(context: bytes, server_id: str, nonce: str) -> bytes:
    """What is signed (or HMACed) for `context`: bound to one server and one connection."""
    return context + server_id.encode() + b"\0" + nonce.encode()


def _door_mac(proof: str, signed: bytes) -> str:
    """A door's word, hex: the HMAC-SHA512 of `signed` under the `proof` it gave."""
    return hmac.new(bytes.fromhex(proof), signed, hashlib.sha512).hexdigest()

#: Options of a table, as create_table sends them and table summaries show them.
TABLE_OPTIONS = Map((
    Field("seats", Int(2, 10)),
    Field("variant", Enum(VARIANTS), False),
    Field("two_player_draft", Bool(), False),
    Field("treasury", Int(20, 1000), False),
    Field("reformation", Bool(), False),  # the Reformation expansion (R12); a summary
    # carries it only when true
    Field("response_clock", Int(0, 600), False),
    Field("turn_clock", Int(0, 3600), False),
    Field("private", Bool(), False),
    Field("name", NAME, False),
    Field("bots", STRATEGY, False),
    Field("on_disconnect", Enum(("bot", "forfeit")), False),
    Field("rated", Bool(), False),
))

#: One seat as the lobby and the table show it.
SEAT_INFO = Map((
    Field("seat", SEAT),
    Field("name", Nullable(NAME)),
    Field("bot", Nullable(STRATEGY)),
    Field("ready", Bool()),
    Field("away", Bool()),
    Field("guest", Bool(), False),
))

#: A table as the lobby lists it.
TABLE_SUMMARY = Map((
    Field("table", TABLE_ID),
    Field("name", NAME),
    Field("options", TABLE_OPTIONS),
    Field("status", Enum(("waiting", "playing", "over"))),
    Field("seats", List(SEAT_INFO, 10)),
    Field("spectators", Int(0, 10_000)),
    Field("creator", Nullable(NAME)),
    Field("creator_seat", SEAT, False),
    Field("code", TABLE_ID, False),
    Field("game", GAME_ID, False),
    Field("game_rated", Bool(), False),
))

#: engine.Options as a view carries it.
GAME_OPTIONS = Map((
    Field("players", Int(2, 10)),
    Field("variant", Enum(VARIANTS)),
    Field("two_player_draft", Bool()),
    Field("treasury", Int(20, 1000)),
    Field("first_seat", Nullable(SEAT)),
    Field("reformation", Bool(), False),  # sent only when true (R12.1)
))

#: The wire spec of each kind of value a view holds. engine.View declares its fields once,
#: each with its kind (engine.VIEW_FIELDS), and VIEW follows that declaration.
VIEW_VALUES: dict[str, Any] = {
    "options": GAME_OPTIONS,
    "seat": Nullable(SEAT),
    "seats": SEATS,
    "state_id": Int(0, 2**31 - 1),
    "phase": Enum(PHASES),
    "step": Nullable(Enum(STEPS)),
    "action": Nullable(Enum(ACTIONS)),
    "card": Nullable(CARD),
    "coins": COINS,
    "coins_by_seat": List(COINS, 10),
    "alive_by_seat": List(Bool(), 10),
    "influence_by_seat": List(Int(0, 2), 10),
    "face_up_by_seat": List(List(CARD, 2), 10),
    "hand_by_seat": List(Nullable(List(CARD, 2)), 10),
    "draft_set_by_seat": List(Nullable(List(CARD, 6)), 10),
    "drawn": List(CARD, 2),
    "deck_size": Int(0, 50),
    "reason": Nullable(Str(32)),
    "keep_count": Nullable(Int(0, 2)),
    "factions": List(Enum(FACTIONS), 10),
    "flag": Bool(),
}

#: engine.View.to_dict(): one viewer's complete knowledge of the game.
VIEW = Map(tuple(Field(f.name, VIEW_VALUES[f.kind]) for f in VIEW_FIELDS))

EVENT_KINDS = (
    "turn", "action", "pass", "challenge", "prove", "redraw", "concede", "refund", "block",
    "lose", "exile", "gain", "steal", "exchange", "keep", "examine", "examine_keep",
    "examine_swap", "drafted", "fail", "win", "forfeit", "drew", "kept", "shown", "picked",
    "convert", "embezzle", "disprove",
)

#: engine.Event.to_dict(): what happened, as the recipient may see it.
EVENT = Map((
    Field("kind", Enum(EVENT_KINDS)),
    Field("seat", SEAT, False),
    Field("target", SEAT, False),
    Field("card", CARD, False),
    Field("cards", List(CARD, 4), False),
    Field("amount", COINS, False),
    Field("action", Enum(ACTIONS), False),
    Field("reason", Enum(FAIL_REASONS), False),
    Field("faction", Enum(FACTIONS), False),
))

#: engine.Move.to_dict(). Only the shape is checked here: the engine judges the move and
#: answers with its own codes (move_rejected), unknown kinds and cards included. A target
#: is a seat number, as everywhere on the wire: no table has a seat outside 0..9.
MOVE = Map((
    Field("kind", Str(32, 1)),
    Field("target", SEAT, False),
    Field("card", Str(32, 1), False),
    Field("cards", List(Str(32, 1), 4), False),
    Field("swap", Bool(), False),
))

#: How many of the current game's earlier events a snapshot carries at most (the newest).
MAX_EARLIER_EVENTS = 200

#: One seat's record in a finished game's summary: its claims by character (actions and
#: blocks), how many of them were bluffs, and how its challenges went.
SEAT_SUMMARY = Map((
    Field("claims", Map(tuple(Field(c, Int(1, 10_000), False) for c in CHARACTERS))),
    Field("bluffs", Int(0, 10_000)),
    Field("challenges_won", Int(0, 10_000)),
    Field("challenges_lost", Int(0, 10_000)),
))

#: engine.summary.summarize(): a finished game told seat by seat (R11: only once it is over).
SUMMARY = Map((
    Field("out", SEATS),
    Field("seats", List(SEAT_SUMMARY, 10)),
))

#: A decision's deadline: `ms` milliseconds left for `seat` when the message was sent.
DEADLINE = Map((Field("seat", SEAT), Field("ms", Int(0, 3_600_000))))

#: Who sits where, as a table shows it.
PLAYERS = List(SEAT_INFO, 10)

#: At most this many finished games in one `games` message (a page; `next` asks for more).
MAX_GAMES_LISTED = 20
#: At most this many moves in a record on the wire: the longest list any receiver unpacks
#: (connection.py). Games end long before (a ten-seat game takes about 800 moves); a longer
#: record is refused with record_too_large.
MAX_RECORD_MOVES = 4096
#: A point in time as records write it: ISO 8601, UTC, to the second.
TIME = Str(32, 1)
#: Milliseconds since a game started.
MS = Int(0, 2**31 - 1)

#: One seat of a recorded game: who played it (a bot's seat: no name) and the bot that
#: played it from the deal, if any.
RECORD_PLAYER = Map((
    Field("seat", SEAT),
    Field("name", Nullable(NAME)),
    Field("bot", Nullable(STRATEGY)),
))

#: A finished game as `games` lists it.
GAME_LINE = Map((
    Field("game", GAME_ID),
    Field("table", TABLE_ID),
    Field("table_name", NAME),
    Field("players", List(RECORD_PLAYER, 10)),
    Field("winner", SEAT),
    Field("started", TIME),
    Field("finished", TIME),
    Field("moves", Int(0, 2**31 - 1)),
))

#: One accepted move of a record: a forfeit has no move.
RECORD_MOVE = Map((
    Field("seat", SEAT),
    Field("move", Nullable(MOVE)),
    Field("state_id", Int(0, 2**31 - 1)),
    Field("ms", MS),
    Field("by", Enum(records.BY)),
))

#: A bot taking a person's seat after `after` moves.
TAKEOVER = Map((
    Field("seat", SEAT),
    Field("bot", STRATEGY),
    Field("after", Int(0, MAX_RECORD_MOVES)),
    Field("ms", MS),
))

#: engine.record's format (docs/RECORDS.md), as a finished game's record travels: every
#: field, the seed included, which only a finished game may tell (R11).
RECORD = Map((
    Field("format", Enum((records.FORMAT,))),
    Field("version", Int(1, 999)),
    Field("game", GAME_ID),
    Field("table", TABLE_ID),
    Field("table_name", NAME),
    Field("number", Int(1, 2**31 - 1)),
    Field("started", TIME),
    Field("finished", TIME),
    Field("options", GAME_OPTIONS),
    Field("seed", Int(0, 2**64 - 1)),
    Field("players", List(RECORD_PLAYER, 10, 2)),
    Field("moves", List(RECORD_MOVE, MAX_RECORD_MOVES)),
    Field("takeovers", List(TAKEOVER, 64)),
    Field("result", Map((Field("winner", SEAT), Field("out", SEATS)))),
))


#: Seats a quick-play table may have.
QUEUE_SEATS = Int(2, 6)
#: The tables a player in the queue will sit at: a number of seats, or a range of them.
SEATS_WANTED = OneOf((QUEUE_SEATS, Map((Field("min", QUEUE_SEATS), Field("max", QUEUE_SEATS)))))
#: How many wait in the queue for tables like yours.
WAITING = Int(0, 100_000)


def spec(s: Any, default: Any = MISSING) -> Any:
    """A dataclass field carrying its wire spec."""
    if default is MISSING:
        return field(metadata={"spec": s})
    return field(default=default, metadata={"spec": s})


class Message:
    """Base of every message. TYPE is the wire `t`; SENDER who may send it."""

    __slots__ = ()
    TYPE: ClassVar[str]
    SENDER: ClassVar[str]
    # Every message class is a dataclass: declared here so that `fields()` accepts any.
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def to_wire(self) -> dict[str, Any]:
        """The frame's map: `t` first, then every field that is not None."""
        out: dict[str, Any] = {"t": self.TYPE}
        for name in _FIELD_NAMES[type(self)]:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


# --------------------------------------------------------------------------- session


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """The client's first message: the versions it speaks, who it is (fixed core)."""

    TYPE = "hello"
    SENDER = "client"
    versions: list[int] = spec(List(Int(1, 999), 16, 1))
    client: str = spec(Str(64, 1))
    name: str | None = spec(NAME, None)
    token: str | None = spec(TOKEN, None)


@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """The server's answer to hello: the version chosen (fixed core), the name it gave."""

    TYPE = "welcome"
    SENDER = "server"
    version: int = spec(Int(1, 999))
    server: str = spec(Str(64, 1))
    name: str | None = spec(NAME, None)
    max_frame: int | None = spec(Int(1024, 2**24), None)
    #: This connection's nonce and the server's id, for a client that identifies.
    nonce: str | None = spec(HEX32, None)
    server_id: str | None = spec(SERVER_ID, None)


@dataclass(frozen=True, slots=True)
class Identify(Message):
    """Who the client is: its Ed25519 public `key`, and its `signature` over `signed(...)` of
    the nonce and server id its welcome carried. Answered by `identified`.

    With `door`, the key is an identity that door vouches for (server/doorkey.py), and the
    signature is `vouched(...)`, made with the proof the door gave for that key."""

    TYPE = "identify"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    key: str = spec(HEX32)
    nonce: str = spec(HEX32)
    server_id: str = spec(SERVER_ID)
    signature: str = spec(Str(128, 128))
    door: str | None = spec(Enum(DOORS), None)

    @staticmethod
    def signed(server_id: str, nonce: str) -> bytes:
        """The bytes a client signs: bound to one server and one connection."""
        return _bound(IDENTIFY_CONTEXT, server_id, nonce)

    @staticmethod
    def vouched(proof: str, server_id: str, nonce: str) -> str:
        """The signature, hex, of an identity a door vouches for with `proof`: the
        HMAC-SHA512 of `signed(...)` under it."""
        return _door_mac(proof, Identify.signed(server_id, nonce))


@dataclass(frozen=True, slots=True)
class Via(Message):
    """Where the player of a door's client is: the `address` the door saw them come from
    (the client's own connection comes from the door's machine), and the door's word for
    it, `signature`, made with the proof the door gave the client for that address
    (server/doorkey.py). Answered by `ok`; every limit per address counts the connection
    at `address` from then on."""

    TYPE = "via"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    address: str = spec(ADDRESS)
    nonce: str = spec(HEX32)
    server_id: str = spec(SERVER_ID)
    signature: str = spec(Str(128, 128))

    @staticmethod
    def signed(server_id: str, nonce: str) -> bytes:
        """The bytes the HMAC is of: bound to one server and one connection."""
        return _bound(VIA_CONTEXT, server_id, nonce)

    @staticmethod
    def vouched(proof: str, server_id: str, nonce: str) -> str:
        """The signature, hex: the HMAC-SHA512 of `signed(...)` under the door's `proof`."""
        return _door_mac(proof, Via.signed(server_id, nonce))


@dataclass(frozen=True, slots=True)
class Identified(Message):
    """The key is this player's identity here, named `name`; with `table`, that table gives
    the player's seat back (`joined` without `re` follows)."""

    TYPE = "identified"
    SENDER = "server"
    re: int = spec(REQUEST_ID)
    name: str = spec(NAME)
    table: str | None = spec(TABLE_ID, None)
    #: The key is one of the server's operators: kick, mute, ban and close_table are its.
    operator: bool | None = spec(Bool(), None)


@dataclass(frozen=True, slots=True)
class Ping(Message):
    """Are you there? Answered by pong with the same id, at any time after the handshake."""

    TYPE = "ping"
    SENDER = "both"
    id: int = spec(REQUEST_ID)


@dataclass(frozen=True, slots=True)
class Pong(Message):
    TYPE = "pong"
    SENDER = "both"
    re: int = spec(REQUEST_ID)


@dataclass(frozen=True, slots=True)
class Error(Message):
    """Something went wrong: a code from the table in errors.py, and a sentence."""

    TYPE = "error"
    SENDER = "both"
    code: str = spec(CODE)
    message: str = spec(MESSAGE)
    re: int | None = spec(REQUEST_ID, None)
    versions: list[int] | None = spec(List(Int(1, 999), 16), None)


@dataclass(frozen=True, slots=True)
class Bye(Message):
    """The sender is closing the connection, and why (a code of errors.py)."""

    TYPE = "bye"
    SENDER = "both"
    reason: str = spec(CODE)
    message: str | None = spec(MESSAGE, None)


# --------------------------------------------------------------------------- lobby


@dataclass(frozen=True, slots=True)
class ListTables(Message):
    """Ask for the public tables; answered by `tables`, and subscribes to its updates."""

    TYPE = "list_tables"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    #: Also subscribe to the server's tournament (`tournament` messages): a client that
    #: does not ask never gets a message type it may not know.
    tournament: bool | None = spec(Bool(), None)


@dataclass(frozen=True, slots=True)
class Tables(Message):
    """The public tables (the answer to list_tables, or an update with no `re`)."""

    TYPE = "tables"
    SENDER = "server"
    tables: list[dict[str, Any]] = spec(List(TABLE_SUMMARY, MAX_LISTED))
    re: int | None = spec(REQUEST_ID, None)


@dataclass(frozen=True, slots=True)
class CreateTable(Message):
    """Create a table and take its first seat; answered by `joined`."""

    TYPE = "create_table"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    options: dict[str, Any] = spec(TABLE_OPTIONS)


@dataclass(frozen=True, slots=True)
class Join(Message):
    """Sit at a table (by id or private code), in `seat` or any free one, or spectate."""

    TYPE = "join"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    table: str | None = spec(TABLE_ID, None)
    code: str | None = spec(TABLE_ID, None)
    seat: int | None = spec(SEAT, None)
    spectate: bool | None = spec(Bool(), None)


@dataclass(frozen=True, slots=True)
class Joined(Message):
    """You are at `table`: in `seat` with a reconnect `token`, or spectating (no seat).
    Without `re` after a handshake whose hello carried a valid token: your seat is back."""

    TYPE = "joined"
    SENDER = "server"
    table: str = spec(TABLE_ID)
    re: int | None = spec(REQUEST_ID, None)
    seat: int | None = spec(SEAT, None)
    token: str | None = spec(TOKEN, None)
    code: str | None = spec(TABLE_ID, None)


@dataclass(frozen=True, slots=True)
class Leave(Message):
    """Leave the table you are at (a seat in a running game is then played by the table's
    rule for the departed: a bot, or forfeit)."""

    TYPE = "leave"
    SENDER = "client"
    id: int = spec(REQUEST_ID)


@dataclass(frozen=True, slots=True)
class Ready(Message):
    """Say you are ready (or not) for the game to start."""

    TYPE = "ready"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    ready: bool = spec(Bool(), True)


@dataclass(frozen=True, slots=True)
class Start(Message):
    """The creator starts the game (empty seats get bots if the table says so)."""

    TYPE = "start"
    SENDER = "client"
    id: int = spec(REQUEST_ID)


@dataclass(frozen=True, slots=True)
class Rematch(Message):
    """Ask for another game at the same table once the game is over; the winner starts."""

    TYPE = "rematch"
    SENDER = "client"
    id: int = spec(REQUEST_ID)


@dataclass(frozen=True, slots=True)
class Ok(Message):
    """The request `re` was done (for requests with no other answer)."""

    TYPE = "ok"
    SENDER = "server"
    re: int = spec(REQUEST_ID)


@dataclass(frozen=True, slots=True)
class TableInfo(Message):
    """The table you are at changed: seats, names, ready marks, status."""

    TYPE = "table"
    SENDER = "server"
    info: dict[str, Any] = spec(TABLE_SUMMARY)


# --------------------------------------------------------------------------- table


@dataclass(frozen=True, slots=True)
class Snapshot(Message):
    """Everything you may know of the game now: sent on joining, rejoining and starting,
    with the game's latest events you may see (those before you came) and, once it is
    over, the reveal and the summary."""

    TYPE = "snapshot"
    SENDER = "server"
    table: str = spec(TABLE_ID)
    view: dict[str, Any] = spec(VIEW)
    players: list[dict[str, Any]] = spec(PLAYERS)
    deadlines: list[dict[str, Any]] = spec(List(DEADLINE, 10))
    reveal: dict[str, Any] | None = spec(VIEW, None)
    summary: dict[str, Any] | None = spec(SUMMARY, None)
    events: list[dict[str, Any]] | None = spec(List(EVENT, MAX_EARLIER_EVENTS), None)


@dataclass(frozen=True, slots=True)
class Update(Message):
    """After every accepted move: your complete new view, the events you may see, the
    deadlines, and once the game is over the full reveal and the game's summary."""

    TYPE = "update"
    SENDER = "server"
    table: str = spec(TABLE_ID)
    view: dict[str, Any] = spec(VIEW)
    events: list[dict[str, Any]] = spec(List(EVENT, 64))
    deadlines: list[dict[str, Any]] = spec(List(DEADLINE, 10))
    reveal: dict[str, Any] | None = spec(VIEW, None)
    summary: dict[str, Any] | None = spec(SUMMARY, None)


@dataclass(frozen=True, slots=True)
class MoveRequest(Message):
    """Play a move, made against the view with `state_id`."""

    TYPE = "move"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    state_id: int = spec(Int(0, 2**31 - 1))
    move: dict[str, Any] = spec(MOVE)


@dataclass(frozen=True, slots=True)
class MoveAccepted(Message):
    """The move `re` was played; the game is now at `state_id` (an update follows)."""

    TYPE = "move_accepted"
    SENDER = "server"
    re: int = spec(REQUEST_ID)
    state_id: int = spec(Int(0, 2**31 - 1))


@dataclass(frozen=True, slots=True)
class MoveRejected(Message):
    """The move `re` was refused with an engine code; nothing changed."""

    TYPE = "move_rejected"
    SENDER = "server"
    re: int = spec(REQUEST_ID)
    code: str = spec(CODE)
    message: str = spec(MESSAGE)
    state_id: int = spec(Int(0, 2**31 - 1))


# --------------------------------------------------------------------------- chat, presence


@dataclass(frozen=True, slots=True)
class Say(Message):
    """Chat to the lobby or to your table."""

    TYPE = "say"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    text: str = spec(TEXT)
    scope: str = spec(Enum(("lobby", "table")), "table")


@dataclass(frozen=True, slots=True)
class Chat(Message):
    """Someone said something in the lobby or at your table."""

    TYPE = "chat"
    SENDER = "server"
    scope: str = spec(Enum(("lobby", "table")))
    name: str = spec(NAME)
    text: str = spec(TEXT)
    seat: int | None = spec(SEAT, None)
    table: str | None = spec(TABLE_ID, None)


@dataclass(frozen=True, slots=True)
class Presence(Message):
    """A seat's connection came or went: here, away (in its grace period), taken by a bot,
    or left."""

    TYPE = "presence"
    SENDER = "server"
    table: str = spec(TABLE_ID)
    seat: int = spec(SEAT)
    status: str = spec(Enum(("here", "away", "bot", "left")))
    name: str | None = spec(NAME, None)


@dataclass(frozen=True, slots=True)
class Paused(Message):
    """Your table's play stopped (`paused`: the server cannot save its moves; clocks
    stopped) or goes on again (not `paused`), and a sentence saying why."""

    TYPE = "paused"
    SENDER = "server"
    table: str = spec(TABLE_ID)
    paused: bool = spec(Bool())
    message: str = spec(MESSAGE)


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class ListGames(Message):
    """Ask for finished games, newest first: those before game `before` (the cursor of a
    page), with a seat named `player` (in any case) if given. Answered by `games`."""

    TYPE = "list_games"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    before: int | None = spec(GAME_ID, None)
    player: str | None = spec(NAME, None)


@dataclass(frozen=True, slots=True)
class Games(Message):
    """A page of finished games; `next` is the cursor of the next page (absent on the last)."""

    TYPE = "games"
    SENDER = "server"
    re: int = spec(REQUEST_ID)
    games: list[dict[str, Any]] = spec(List(GAME_LINE, MAX_GAMES_LISTED))
    next: int | None = spec(GAME_ID, None)


@dataclass(frozen=True, slots=True)
class GetGame(Message):
    """Ask for the record of finished game `game`, in a frame of at most `max_frame` bytes
    (the 64 KiB every peer accepts if absent: a long game's record can be larger). Answered
    by `game_record`."""

    TYPE = "get_game"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    game: int = spec(GAME_ID)
    max_frame: int | None = spec(Int(64 * 1024, 2**24), None)


@dataclass(frozen=True, slots=True)
class GameRecord(Message):
    """The record of a finished game, seed included: everything needed to replay it."""

    TYPE = "game_record"
    SENDER = "server"
    re: int = spec(REQUEST_ID)
    record: dict[str, Any] = spec(RECORD)


# --------------------------------------------------------------------------- quick play


@dataclass(frozen=True, slots=True)
class Queue(Message):
    """Wait for a rated table of `seats` seats (a number, or a range {min, max}) and
    `variant`, with Reformation (R12) if `reformation`, formed by the server; answered by
    `queued`, then `joined` once it forms."""

    TYPE = "queue"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    seats: int | dict[str, Any] = spec(SEATS_WANTED)
    variant: str | None = spec(Enum(VARIANTS), None)
    reformation: bool | None = spec(Bool(), None)


@dataclass(frozen=True, slots=True)
class Queued(Message):
    """You wait in the queue; `waiting` of you (you included) wait for a table like it."""

    TYPE = "queued"
    SENDER = "server"
    re: int = spec(REQUEST_ID)
    waiting: int = spec(WAITING)


@dataclass(frozen=True, slots=True)
class Unqueue(Message):
    """Stop waiting in the queue; answered by `ok` (also when you were not in it)."""

    TYPE = "unqueue"
    SENDER = "client"
    id: int = spec(REQUEST_ID)


@dataclass(frozen=True, slots=True)
class QueueStatus(Message):
    """How many wait for a table like yours now (pushed while you wait, when it changes)."""

    TYPE = "queue_status"
    SENDER = "server"
    waiting: int = spec(WAITING)


# --------------------------------------------------------------------------- ratings

#: Rated players in one `leaderboard` message (a page; `next` asks for more).
MAX_RANKED = 20
#: A player as the ratings know it: "key:" and an identity's key, or "bot:" and a strategy.
PLAYER_ID = Str(80, 5)
RATING_FIELDS = (
    Field("player", PLAYER_ID),
    Field("name", NAME),
    Field("rank", Int(1, 2**31 - 1)),
    Field("ordinal", Float()),
    Field("mu", Float()),
    Field("sigma", Float()),
    Field("games", Int(0, 2**31 - 1)),
    Field("wins", Int(0, 2**31 - 1)),
)
#: A rated player on the leaderboard.
RANKED = Map(RATING_FIELDS)
#: A rated player's profile: its line of the leaderboard and its latest finished games.
PROFILE = Map((*RATING_FIELDS, Field("recent", List(GAME_LINE, MAX_GAMES_LISTED)),
               Field("provisional", Bool(), False)))


@dataclass(frozen=True, slots=True)
class GetLeaderboard(Message):
    """Ask for the rated players from the highest ordinal (mu - 3 sigma) down, from the
    `offset`-th (0: the top). Answered by `leaderboard`."""

    TYPE = "get_leaderboard"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    offset: int | None = spec(Int(0, 2**31 - 1), None)


@dataclass(frozen=True, slots=True)
class Leaderboard(Message):
    """A page of rated players, best first; `next` is the offset of the next page (absent
    on the last)."""

    TYPE = "leaderboard"
    SENDER = "server"
    re: int = spec(REQUEST_ID)
    players: list[dict[str, Any]] = spec(List(RANKED, MAX_RANKED))
    next: int | None = spec(Int(0, 2**31 - 1), None)


@dataclass(frozen=True, slots=True)
class GetProfile(Message):
    """Ask for the profile of the rated player named `name` on this server (an identity's
    name, or a bot strategy's). Answered by `profile`, or `no_such_player`."""

    TYPE = "get_profile"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    name: str = spec(NAME)


@dataclass(frozen=True, slots=True)
class Profile(Message):
    """A rated player's rating, rank and record, and its latest finished games."""

    TYPE = "profile"
    SENDER = "server"
    re: int = spec(REQUEST_ID)
    profile: dict[str, Any] = spec(PROFILE)


# --------------------------------------------------------------------------- moderation

#: How long a mute or a ban lasts, in minutes (0: lift it); a year at the most.
MINUTES = Int(0, 525_600)
#: Why an operator acted, as the acted-on player is told and the log keeps it.
REASON = Str(200)
#: An address as an operator names it: an IPv4 or IPv6 address.
ADDRESS = Str(45, 2)


@dataclass(frozen=True, slots=True)
class Kick(Message):
    """Remove the player or spectator called `name` from `table` (the table you are at if
    absent): an operator at any time, the table's creator before the game starts. The
    removed person is told (error `kicked`), is back in the lobby, and cannot come back to
    that table. Answered by `ok`."""

    TYPE = "kick"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    name: str = spec(NAME)
    table: str | None = spec(TABLE_ID, None)
    reason: str | None = spec(REASON, None)


@dataclass(frozen=True, slots=True)
class Mute(Message):
    """An operator mutes the name `name` (in any case) in lobby and table chat for
    `minutes` (0 lifts the mute). Answered by `ok`."""

    TYPE = "mute"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    name: str = spec(NAME)
    minutes: int = spec(MINUTES)
    reason: str | None = spec(REASON, None)


@dataclass(frozen=True, slots=True)
class Ban(Message):
    """An operator bans, for `minutes` (0 lifts the ban), one of: the connected player
    called `name` (its identity's key if it identified, else its address), an identity's
    `key`, or an `address`. Banned sessions are closed (bye `banned`). Answered by `ok`."""

    TYPE = "ban"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    minutes: int = spec(MINUTES)
    name: str | None = spec(NAME, None)
    key: str | None = spec(HEX32, None)
    address: str | None = spec(ADDRESS, None)
    reason: str | None = spec(REASON, None)


@dataclass(frozen=True, slots=True)
class CloseTable(Message):
    """An operator closes `table`: its game ends unfinished and everyone at it is told
    (error `table_closed`) and is back in the lobby. Answered by `ok`."""

    TYPE = "close_table"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    table: str = spec(TABLE_ID)
    reason: str | None = spec(REASON, None)


# --------------------------------------------------------------------------- tournaments

#: Entrants of a server's tournament, at most (a tournament's schedule grows as n!).
MAX_ENTRANTS = 10
#: A tournament's rounds, at most (the schedule's size is bounded too: MAX_GAMES).
MAX_ROUNDS = 100
#: One entrant's standing, as `tournament` shows it (engine.bots.tournament.Entry).
STANDING = Map((
    Field("name", NAME),
    Field("games", Int(0, 2**31 - 1)),
    Field("wins", Int(0, 2**31 - 1)),
    Field("win_rate", Float()),
    Field("mean_place", Float()),
    Field("ordinal", Float()),
    Field("forfeits", Int(0, 2**31 - 1)),
))
TOURNAMENT_STATUSES = ("open", "running", "done", "stopped")


@dataclass(frozen=True, slots=True)
class OpenTournament(Message):
    """An operator opens the server's tournament `name` for entries: tables of `sizes`
    seats (default [2]), `rounds` rounds (default 1). Answered by `ok`."""

    TYPE = "open_tournament"
    SENDER = "client"
    id: int = spec(REQUEST_ID)
    name: str = spec(NAME)
    sizes: list[int] | None = spec(List(Int(2, MAX_ENTRANTS), 9), None)
    rounds: int | None = spec(Int(1, MAX_ROUNDS), None)


@dataclass(frozen=True, slots=True)
class StartTournament(Message):
    """An operator closes the open tournament's entries and starts its games. Answered by
    `ok`."""

    TYPE = "start_tournament"
    SENDER = "client"
    id: int = spec(REQUEST_ID)


@dataclass(frozen=True, slots=True)
class StopTournament(Message):
    """An operator stops the tournament (its games in play finish and count; no more
    start). Answered by `ok`."""

    TYPE = "stop_tournament"
    SENDER = "client"
    id: int = spec(REQUEST_ID)


@dataclass(frozen=True, slots=True)
class EnterTournament(Message):
    """An identified player enters the open tournament (and gets its `tournament`
    messages). Answered by `ok`."""

    TYPE = "enter_tournament"
    SENDER = "client"
    id: int = spec(REQUEST_ID)


@dataclass(frozen=True, slots=True)
class LeaveTournament(Message):
    """Leave the tournament while it is open. Answered by `ok`."""

    TYPE = "leave_tournament"
    SENDER = "client"
    id: int = spec(REQUEST_ID)


@dataclass(frozen=True, slots=True)
class Tournament(Message):
    """The server's tournament as it stands: pushed to who asked for it when it changes."""

    TYPE = "tournament"
    SENDER = "server"
    name: str = spec(NAME)
    status: str = spec(Enum(TOURNAMENT_STATUSES))
    entrants: list[str] = spec(List(NAME, MAX_ENTRANTS))
    played: int = spec(Int(0, 2**31 - 1))
    scheduled: int = spec(Int(0, 2**31 - 1))
    standings: list[dict[str, Any]] = spec(List(STANDING, MAX_ENTRANTS))


ALL: tuple[type[Message], ...] = (
    Hello, Welcome, Identify, Identified, Via, Ping, Pong, Error, Bye,
    ListTables, Tables, CreateTable, Join, Joined, Leave, Ready, Start, Rematch, Ok, TableInfo,
    Snapshot, Update, MoveRequest, MoveAccepted, MoveRejected,
    Say, Chat, Presence, Paused,
    ListGames, Games, GetGame, GameRecord,
    Queue, Queued, Unqueue, QueueStatus,
    GetLeaderboard, Leaderboard, GetProfile, Profile,
    Kick, Mute, Ban, CloseTable,
    OpenTournament, StartTournament, StopTournament, EnterTournament, LeaveTournament,
    Tournament,
)

#: Message classes by wire type.
BY_TYPE: dict[str, type[Message]] = {cls.TYPE: cls for cls in ALL}

_FIELD_NAMES: dict[type[Message], tuple[str, ...]] = {
    cls: tuple(f.name for f in fields(cls)) for cls in ALL
}


def wire_spec(cls: type[Message]) -> Map:
    """The map spec of a message's fields (without `t`)."""
    return Map(tuple(
        Field(f.name, f.metadata["spec"], f.default is MISSING) for f in fields(cls)
    ))
