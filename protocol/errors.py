"""Every error code that can cross the wire, in one table, and the protocol's exceptions.

Codes are stable strings: a code never changes meaning, and a new one is only ever added.
`error` messages, `bye` reasons and `move_rejected` all take their code from here; the
engine's move codes are part of the table as they are. docs/PROTOCOL.md repeats it.
"""

from __future__ import annotations

from engine import MOVE_ERRORS

#: Codes of the connection itself. `closes`: the sender closes the connection after it.
SESSION_ERRORS: dict[str, tuple[bool, str]] = {
    "bad_frame": (True, "the bytes are not a msgpack map with a string 't'"),
    "frame_too_large": (True, "a frame is larger than the peer's frame limit"),
    "handshake_required": (True, "the first message was not hello"),
    "unsupported_version": (True, "no protocol version in hello is spoken here ('versions' lists ours)"),
    "handshake_timeout": (True, "hello did not arrive in time"),
    "unknown_type": (False, "the message type is not one this peer accepts"),
    "bad_message": (False, "a field is missing, of the wrong type, or over its limit"),
    "rate_limited": (False, "too many messages, or chat lines (from the connection, its address "
                            "or the whole lobby); slow down (too many messages end the "
                            "connection)"),
    "too_many_connections": (True, "the server, or your address, has all the connections it "
                                   "allows"),
    "idle_timeout": (True, "nothing was heard for too long (pings unanswered)"),
    "slow_consumer": (True, "the client did not read its messages fast enough"),
    "server_shutdown": (True, "the server is stopping, and its games with it: the seats are "
                              "gone"),
    "server_restart": (True, "the server is restarting and keeps its tables: connect again "
                             "with your reconnect token, within a few seconds, to your seat"),
    "client_quit": (True, "the client is leaving"),
    "replaced": (True, "the same seat reconnected on another connection"),
    "internal_error": (False, "the server failed to handle the request; nothing changed"),
    "bad_nonce": (False, "identify's or via's nonce is not the one this connection's welcome "
                         "gave"),
    "wrong_server": (False, "identify's or via's server id is not this server's"),
    "nonce_used": (False, "this connection has identified (or tried to) already"),
    "bad_key": (False, "identify's key is not 64 lower-case hex digits, or not a key that a "
                "signature can vouch for (small order, or not in canonical form)"),
    "bad_signature": (False, "identify's signature does not verify with its key, or a door's "
                             "HMAC (identify, via) does not verify"),
    "no_door": (False, "identify names a door, or via came, and this server takes no door's "
                       "word"),
    "name_taken": (False, "the name asked for (or one a reader would take for it) belongs to "
                   "another identity on this server"),
    "name_reserved": (False, "the name asked for is a guest's or a bot's (or looks like one): "
                      "no identity may take it"),
    "too_many_identities": (False, "the address has made as many new identities as the server "
                            "allows an hour: use a key it knows, or wait"),
    "banned": (True, "an operator banned your identity or your address from this server for "
                     "a time (the message says until when)"),
}

#: Codes of lobby and table requests (never close the connection).
LOBBY_ERRORS: dict[str, str] = {
    "no_such_table": "there is no table with that id or code",
    "table_full": "every seat of the table is taken",
    "seat_taken": "that seat is taken",
    "bad_options": "the table options are not valid (the message says which)",
    "bad_token": "the reconnect token is unknown or expired",
    "not_at_table": "you are not at a table",
    "already_at_table": "you are already at a table: leave it first",
    "not_seated": "spectators cannot do that",
    "not_creator": "only the table's creator can do that",
    "game_running": "the game has started",
    "game_not_over": "the game is not over yet",
    "not_ready": "not every seated player is ready",
    "no_players": "a game needs at least two seats filled",
    "no_game": "there is no game in play at this table",
    "unknown_strategy": "there is no bot strategy with that name",
    "too_many_attempts": "too many wrong private codes from your address: wait, then try again",
    "table_failed": "your table failed and was closed; you are back in the lobby",
    "too_many_tables": "the server, your address or you have as many tables open as allowed: "
                       "join one, or try later",
    "no_such_player": "no one of that name has played a rated game on this server (get_profile), "
                      "or is connected or at the table (kick, ban)",
    "no_such_game": "there is no finished game with that id (a game in play is never told)",
    "no_records": "this server keeps no records of its games",
    "store_failed": "the server could not read its records; nothing changed, try again later",
    "already_queued": "you are waiting in the quick-play queue already: unqueue first",
    "too_many_pending": "you have as many record requests being answered as a session may, or a "
                        "play waiting at a paused table: wait",
    "record_too_large": "the record is larger than the frame the client accepts (get_game's "
                        "max_frame) or than a record may be",
    "not_allowed": "only an operator (or, for kick, the creator of a table still waiting) may do "
                   "that; or a player removed from a table is refused there",
    "muted": "an operator muted your name in chat for a time (the message says until when)",
    "kicked": "an operator or the table's creator removed you from your table: you are in the "
              "lobby",
    "table_closed": "an operator closed your table: you are in the lobby",
    "game_done": "the game of your tournament's table is over and the table closed: you are in "
                 "the lobby, for your next game",
    "not_identified": "only an identified player may do that (enter a tournament): identify "
                      "with a key first",
    "no_tournament": "there is no tournament that takes that request now (none is open, or "
                     "running)",
    "tournament_exists": "the server runs one tournament at a time, and has one open or running",
    "tournament_full": "the tournament has as many entrants as it may",
    "tournament_started": "the tournament has started: its entries are closed",
    "needs_version": "the table (or the option asked for) needs a newer protocol version than "
                     "the connection agreed on (the message says which): say hello with it",
}

#: Every code: session, lobby and engine.
CODES: frozenset[str] = frozenset(SESSION_ERRORS) | frozenset(LOBBY_ERRORS) | frozenset(MOVE_ERRORS)


class ProtocolError(Exception):
    """A breach of the protocol, with the code and sentence to send about it."""

    def __init__(self, code: str, message: str, re: int | None = None) -> None:
        assert code in CODES, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        #: The id of the request that caused it, when one could be read: the reply's `re`.
        self.re = re

    @property
    def closes(self) -> bool:
        """Whether the connection must close after this error."""
        return SESSION_ERRORS.get(self.code, (False, ""))[0]


class RemoteProtocolError(ProtocolError):
    """The peer broke the protocol: answer with an `error` (and close if `closes`)."""


class LocalProtocolError(ProtocolError):
    """We tried to send something the protocol does not allow: a bug on our side."""
