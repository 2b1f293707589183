"""The server's settings: every limit with its default, in one immutable object.

`coup serve` makes one from its flags (each field's help is the flag's help); tests and the
embedded server of `coup play` make their own. Nothing here does anything: it only says how
much is allowed and how long to wait.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.bots.ismcts import PLAYOUTS
from protocol import DEFAULT_PORT


def setting(default, text: str, kind: type | None = None):
    """A field with its flag's help; `kind` the flag's type where the default cannot say it
    (a default of None)."""
    return field(default=default, metadata={"help": text, "kind": kind or type(default)})


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str = setting("127.0.0.1", "address to bind: 127.0.0.1 is this machine only, "
                        "0.0.0.0 every interface")
    port: int = setting(DEFAULT_PORT, "TCP port (0: any free port)")
    name: str = setting("coup-server/0.1", "the server's name in welcome")
    max_frame: int = setting(64 * 1024, "largest message a client may send, in bytes")
    handshake_timeout: float = setting(5.0, "seconds a new connection has to say hello")
    ping_interval: float = setting(15.0, "seconds of silence before a ping; as long again "
                                   "without an answer closes the connection")
    rate: float = setting(20.0, "messages a connection may send per second on average")
    burst: int = setting(40, "messages a connection may send at once")
    chat_per_minute: int = setting(20, "chat messages a connection may send per minute")
    lobby_chat_per_address: int = setting(12, "lobby chat lines the connections of one address "
                                          "may send per minute together (a quarter of them "
                                          "at once)")
    lobby_chat_per_minute: int = setting(60, "lobby chat lines the whole lobby may carry per "
                                         "minute, whoever says them (a quarter of them at "
                                         "once)")
    lobby_chat_length: int = setting(200, "characters in a lobby chat line (a table's chat "
                                     "takes the protocol's 500)")
    max_connections: int = setting(4096, "connections in total")
    max_per_address: int = setting(64, "connections from one address (a door vouches for "
                                   "its players' own addresses)")
    outbox_bytes: int = setting(512 * 1024, "bytes waiting to be written to one client; a "
                                "client that lets more pile up is disconnected "
                                "(slow_consumer) so its table never waits")
    outbox_total_bytes: int = setting(64 * 1024 * 1024, "bytes waiting to be written to all "
                                      "clients together; past it, a client with any "
                                      "waiting is disconnected (slow_consumer)")
    max_tables: int = setting(2000, "tables at once")
    tables_per_address: int = setting(4, "tables that connections from one address may "
                                      "have made and still open (quick play's count for "
                                      "no one)")
    tables_per_player: int = setting(4, "tables that one identified player may have made "
                                     "and still open, from any address")
    grace: float = setting(120.0, "seconds a disconnected player keeps the seat")
    waiting_grace: float = setting(5.0, "seconds a disconnected player keeps the seat at a "
                                   "table whose game has not started: then the seat is "
                                   "free for others (and, the creator's, the start passes "
                                   "to the next person seated)")
    away_clock: float = setting(3.0, "seconds a player who is away (in its grace) has to "
                                "answer a challenge or block window, whatever the table's "
                                "clock: then it passes, as when any clock runs out (R10)")
    bot_strategies: str = setting("all", "the bot strategies tables may seat: all, or names "
                                  "separated by commas (random,honest,heuristic,ismcts)")
    bot_threads: int = setting(1, "worker threads that every table's searching bots (ismcts) "
                               "share to think in, off the event loop")
    bot_playouts: int = setting(PLAYOUTS, "playouts a searching bot (ismcts) may use for one "
                                "decision on this server")
    bot_delay: float = setting(0.6, "seconds a bot seat waits before it moves, so people "
                               "can follow")
    response_clock: int = setting(20, "seconds to answer (challenge, block, lose…) at tables "
                                  "that do not choose; 0 = no clock")
    turn_clock: int = setting(60, "seconds to take a turn at tables that do not choose; "
                              "0 = no clock")
    seed: int | None = setting(None, "deal every table's games from this seed (tests, "
                               "demonstrations); by default each table draws one from secrets",
                               int)
    queue_bot_fill: float = setting(0.0, "seconds a player waits in the quick-play queue "
                                    "before a table forms with server bots in the seats no "
                                    "one waits for; 0 = never")
    identities_per_hour: int = setting(20, "new identities (keys the server has not seen) "
                                       "one address (an IPv6 /64) may make per hour; more "
                                       "are refused too_many_identities, known keys come "
                                       "back as ever")
    provisional_games: int = setting(10, "rated games a player plays before the leaderboard "
                                     "lists them (their own profile shows their rating "
                                     "marked provisional until then); 0: list everyone")
    rated_min_turns: int = setting(2, "turns a person must take by their own move in a rated "
                                   "game (or be exiled in play first) for the game to move "
                                   "ratings: a game someone joined and left at once counts "
                                   "for no one")
    log_json: bool = setting(False, "log one JSON object per line")
    announce: bool = setting(False, "announce the server on the local network by mDNS "
                             "(DNS-SD), so that clients there list it: its name, address, "
                             "tables and players, heard by every machine on the network; "
                             "needs --host 0.0.0.0 or a network address")
    forget_tables: bool = setting(False, "at startup, close the unfinished tables the store "
                                  "kept instead of resuming them: for a server whose players "
                                  "cannot come back to them")
    door_secret: str | None = setting(None, "the file of the secret shared with the SSH door "
                                      "(coup ssh), with which it vouches for its players' keys "
                                      "(coup serve: door.secret in the user's data directory, "
                                      "made on first use); none: take no door's word", str)
    position: str | None = setting(None, "a position file (TOML, see docs/BOTS.md): every "
                                   "game starts from it, at its table size and rules, with "
                                   "bots in the seats no one takes; no record is kept and "
                                   "no game is rated. For testing bots and for puzzles",
                                   str)
    operators: str | None = setting(None, "the identity keys of the server's operators, "
                                    "separated by commas (each as hex, or as key:<hex>, the "
                                    "player id logs show): once identified, they may kick, "
                                    "mute, ban and close tables (docs/SERVER.md, Running a "
                                    "public server)", str)
    db: str | None = setting(None, "the SQLite file that keeps every table, accepted move and "
                             "finished game, so that a restarted server resumes its tables "
                             "(coup serve: server.db in the user's data directory); :memory: "
                             "keeps nothing", str)
    keep_guest_games: float = setting(30.0, "days the store keeps a finished unrated game in "
                                      "which no identified player sat (guests and bots), "
                                      "once its table has closed; 0: forever")
    keep_games: float = setting(0.0, "days the store keeps every finished game, rated and "
                                "identified players' included, once its table has closed; "
                                "0: forever")
    backup_dir: str | None = setting(None, "a folder where the server copies its store every "
                                     "--backup-every hours while it plays (as coup backup "
                                     "does), keeping the newest --backup-keep; none: no "
                                     "scheduled backups", str)
    backup_every: float = setting(24.0, "hours between two scheduled backups (--backup-dir), "
                                  "counted from the newest one in the folder")
    backup_keep: int = setting(7, "scheduled backups to keep in --backup-dir: older ones are "
                               "removed")
    late_write: float = setting(1.0, "seconds a write to the store may take before the "
                                "tables waiting for it are told play is paused (a file "
                                "locked by another program holds a write up to 5 s before "
                                "it fails); play goes on when the write lands")
