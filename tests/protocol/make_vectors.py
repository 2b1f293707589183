"""Write the protocol's conformance vectors: tests/protocol/vectors/*.json (see its README.md).

Each case is bytes on the wire (hex) that a server or a client receives, and what a correct
receiver makes of them: the messages it decodes, or the error it answers with. The
expectations here are written from docs/PROTOCOL.md, not computed by our Connection, so that
test_vectors.py checks the code against the spec, and other languages can check theirs.

Run it after changing the protocol: `python -m tests.protocol.make_vectors`. The output is
deterministic (test_vectors.py checks that the committed files are what this writes).
"""

from __future__ import annotations

import json
import random
import struct
from itertools import product
from pathlib import Path

import msgpack

from engine import Game, Options, move, summarize, visible_to

VECTORS = Path(__file__).parent / "vectors"

#: Whether the receiver closes the connection after each error code a receiver can raise.
CLOSES = {
    "bad_frame": True,
    "frame_too_large": True,
    "handshake_required": True,
    "unsupported_version": True,
    "unknown_type": False,
    "bad_message": False,
}
MAX_FRAME = 64 * 1024
_ABSENT = object()


def pack(obj) -> bytes:
    """One frame, in the ordinary (smallest) msgpack encoding: str for str, bin for bytes."""
    return msgpack.packb(obj, use_bin_type=True)


def frames(*objs) -> bytes:
    return b"".join(pack(o) for o in objs)


def ok(name, receiver, data, messages, *, state="open", after_state=None, eof=False, note=None):
    """A case whose bytes all decode: `messages` are the decoded maps, in order."""
    if after_state is None:
        after_state = state
        if receiver == "client" and any(m.get("t") == "welcome" for m in messages):
            after_state = "open"
        if eof or any(m.get("t") == "bye" for m in messages):
            after_state = "closed"
    case = {"name": name, "receiver": receiver, "state": state, "hex": data.hex()}
    if note:
        case["note"] = note
    if eof:
        case["eof"] = True
    case["expect"] = {"messages": list(messages), "state_after": after_state}
    return case


def err(name, receiver, data, code, *, state="open", messages=(), re=_ABSENT, after=None,
        eof=False, note=None):
    """A case that ends in the error `code` (after `messages`, if any decode first)."""
    closes = CLOSES[code]
    case = {"name": name, "receiver": receiver, "state": state, "hex": data.hex()}
    if note:
        case["note"] = note
    if eof:
        case["eof"] = True
    expect: dict = {"error": code, "closes": closes}
    if re is not _ABSENT:
        expect["re"] = re
    if messages:
        expect["messages"] = list(messages)
    if after is not None:
        expect["after"] = list(after)
    expect["state_after"] = "closed" if closes else state
    case["expect"] = expect
    return case


def without(d: dict, *names: str) -> dict:
    return {k: v for k, v in d.items() if k not in names}


def with_(d: dict, **changes) -> dict:
    out = dict(d)
    out.update(changes)
    return out


# --------------------------------------------------------------------------- sample data

OPTIONS_MIN = {"seats": 2}
OPTIONS_FULL = {
    "seats": 4, "variant": "inquisitor", "two_player_draft": False, "treasury": 60,
    "response_clock": 0, "turn_clock": 90, "private": True, "name": "Friday night",
    "bots": "random", "on_disconnect": "forfeit",
}
SEATS = [
    {"seat": 0, "name": "alice", "bot": None, "ready": True, "away": False},
    {"seat": 1, "name": "bob", "bot": None, "ready": False, "away": True},
    {"seat": 2, "name": None, "bot": "random", "ready": True, "away": False},
    {"seat": 3, "name": None, "bot": None, "ready": False, "away": False},
]
SUMMARY = {
    "table": "k7tq2m", "name": "Friday night", "options": OPTIONS_FULL, "status": "waiting",
    "seats": SEATS, "spectators": 3, "creator": "alice", "code": "WOLF-42",
}
SUMMARY_MIN = {
    "table": "a1", "name": "t", "options": OPTIONS_MIN, "status": "playing",
    "seats": [], "spectators": 0, "creator": None,
}

#: One event of every kind, with the fields the engine gives it (docs/PROTOCOL.md, Events).
EVENTS_EVERY_KIND = [
    {"kind": "turn", "seat": 0},
    {"kind": "action", "seat": 0, "target": 1, "card": "assassin", "amount": 3,
     "action": "assassinate"},
    {"kind": "pass", "seat": 2, "target": 0, "card": "assassin"},
    {"kind": "pass", "seat": 1, "target": 0, "action": "assassinate"},
    {"kind": "challenge", "seat": 1, "target": 0, "card": "assassin"},
    {"kind": "prove", "seat": 0, "card": "assassin"},
    {"kind": "redraw", "seat": 0},
    {"kind": "concede", "seat": 1, "card": "contessa"},
    {"kind": "refund", "seat": 0, "amount": 3},
    {"kind": "block", "seat": 1, "target": 0, "card": "contessa"},
    {"kind": "lose", "seat": 1, "card": "duke"},
    {"kind": "exile", "seat": 1, "amount": 4},
    {"kind": "gain", "seat": 0, "amount": 2},
    {"kind": "steal", "seat": 0, "target": 2, "amount": 1},
    {"kind": "exchange", "seat": 0, "amount": 2},
    {"kind": "keep", "seat": 0, "amount": 2},
    {"kind": "examine", "seat": 0, "target": 2},
    {"kind": "examine_keep", "seat": 0, "target": 2},
    {"kind": "examine_swap", "seat": 0, "target": 2},
    {"kind": "drafted", "seat": 1},
    {"kind": "fail", "seat": 0, "target": 2, "action": "steal", "reason": "blocked"},
    {"kind": "win", "seat": 0},
    {"kind": "drew", "seat": 0, "cards": ["captain", "inquisitor"]},
    {"kind": "kept", "seat": 0, "cards": ["duke", "captain"]},
    {"kind": "shown", "seat": 2, "target": 0, "card": "contessa"},
    {"kind": "picked", "seat": 0, "card": "duke"},
    {"kind": "convert", "seat": 0, "target": 2, "amount": 2, "faction": "reformist"},
    {"kind": "embezzle", "seat": 0, "amount": 3},
    {"kind": "disprove", "seat": 0, "cards": ["captain", "contessa"]},
]


def _games():
    """Real views and events from the engine: a running game and a finished one (with its
    summary), and a draft."""
    rng = random.Random(2024)
    g = Game.new(Options(players=3), seed=5)
    events = []
    while g.state_id < 6:
        seat = g.waiting[0]
        events = g.apply(seat, rng.choice(g.legal_moves(seat)), g.state_id)
    running = (g.view(0).to_dict(), [e.to_dict() for e in visible_to(events, 0)],
               g.view(None).to_dict())
    while not g.over:
        seat = g.waiting[0]
        events = g.apply(seat, rng.choice(g.legal_moves(seat)), g.state_id)
    over = (g.view(0).to_dict(), [e.to_dict() for e in visible_to(events, 0)],
            g.reveal().to_dict())
    d = Game.new(Options(players=2), seed=1)
    return running, over, d.view(1).to_dict(), summarize(g)


(VIEW, EVENTS, SPECTATOR_VIEW), (OVER_VIEW, OVER_EVENTS, REVEAL), DRAFT_VIEW, GAME_SUMMARY = (
    _games())
DEADLINES = [{"seat": 1, "ms": 19875}, {"seat": 2, "ms": 20000}]


def _record() -> dict:
    """A finished three-seat game's record (docs/RECORDS.md), its moves from the engine."""
    rng = random.Random(7)
    g = Game.new(Options(players=3), seed=11)
    moves = []
    while not g.over:
        seat = g.waiting[0]
        move = rng.choice(g.legal_moves(seat))
        moves.append({"seat": seat, "move": move.to_dict(), "state_id": g.state_id,
                      "ms": 1800 * len(moves), "by": "bot" if seat == 2 else "player"})
        g.apply(seat, move, g.state_id)
    moves[3]["by"] = "clock"
    return {
        "format": "coup-record", "version": 1, "game": 12, "table": "k7tq2m",
        "table_name": "Friday night", "number": 1, "started": "2026-11-23T20:00:00+00:00",
        "finished": "2026-11-23T20:04:12+00:00", "options": g.options.to_dict(), "seed": 11,
        "players": [{"seat": 0, "name": "alice", "bot": None},
                    {"seat": 1, "name": "bob", "bot": None},
                    {"seat": 2, "name": None, "bot": "random"}],
        "moves": moves, "takeovers": [{"seat": 1, "bot": "heuristic", "after": 5, "ms": 9000}],
        "result": {"winner": g.winner, "out": list(g.exiled)},
    }


RECORD = _record()


def _reformation() -> tuple[dict, list, dict, list]:
    """A Reformation game (R12) of three: seat 0 converts itself, then embezzles, is
    challenged and proves it (no Duke: every card shown, as many drawn). Seat 0's view and
    events after the Conversion, and after the proof."""
    options = Options(players=3, reformation=True, first_seat=0)
    seed = next(s for s in range(100) if "duke" not in Game.new(options, s).hands[0])
    g = Game.new(options, seed)
    events = g.apply(0, move("convert", target=0), g.state_id)
    converted = (g.view(0).to_dict(), [e.to_dict() for e in visible_to(events, 0)])
    g.apply(1, move("income"), g.state_id)
    g.apply(2, move("income"), g.state_id)
    g.apply(0, move("embezzle"), g.state_id)
    g.apply(1, move("challenge"), g.state_id)
    events = g.apply(0, move("prove"), g.state_id)
    return (*converted, g.view(0).to_dict(), [e.to_dict() for e in visible_to(events, 0)])


REFORM_VIEW, REFORM_EVENTS, DISPROVED_VIEW, DISPROVED_EVENTS = _reformation()
#: A rated player's line of the leaderboard: ordinal, mu and sigma are msgpack floats.
#: One entrant's row of a tournament's standings.
STANDING_ROW = {"name": "ana", "games": 1, "wins": 1, "win_rate": 1.0, "mean_place": 1.0,
                "ordinal": 0.5, "forfeits": 0}
RANKED = {"player": "key:" + "c0" * 32, "name": "Alice", "rank": 1, "ordinal": 14.25,
          "mu": 31.5, "sigma": 5.75, "games": 42, "wins": 17}
GAME_LINE = {
    "game": 12, "table": "k7tq2m", "table_name": "Friday night",
    "players": RECORD["players"], "winner": RECORD["result"]["winner"],
    "started": RECORD["started"], "finished": RECORD["finished"], "moves": len(RECORD["moves"]),
}


# --------------------------------------------------------------------------- valid messages


def valid_server() -> list:
    """Every message a server accepts, minimal (required fields only) and full."""
    s = "server"
    hello_full = {"t": "hello", "versions": [1, 2], "client": "mybot/1.0", "name": "alice",
                  "token": "r2VtY3b9J7c1XoLq0s8HkA"}
    cases = [
        ok("hello, minimal", s, pack({"t": "hello", "versions": [1], "client": "c"}),
           [{"t": "hello", "versions": [1], "client": "c"}], state="handshake"),
        ok("hello, every field", s, pack(hello_full), [hello_full], state="handshake"),
        ok("hello of a client of versions 1 and 2 (docs/PROTOCOL.md, welcome)", s,
           pack(m := {"t": "hello", "versions": [1, 2], "client": "mybot/1.0",
                      "name": "alice"}), [m], state="handshake"),
        ok("hello listing only versions the server lacks (decodes; the server then answers "
           "error unsupported_version)", s,
           pack({"t": "hello", "versions": [7, 9], "client": "future"}),
           [{"t": "hello", "versions": [7, 9], "client": "future"}], state="handshake"),
        ok("hello, name of 32 characters in 64 bytes (limits count characters, not bytes)", s,
           pack({"t": "hello", "versions": [1], "client": "c", "name": "é" * 32}),
           [{"t": "hello", "versions": [1], "client": "c", "name": "é" * 32}],
           state="handshake"),
        ok("hello, name of 32 characters outside the BMP (code points, not UTF-16 units)", s,
           pack({"t": "hello", "versions": [1], "client": "c", "name": "🂡" * 32}),
           [{"t": "hello", "versions": [1], "client": "c", "name": "🂡" * 32}],
           state="handshake"),
        ok("hello, 16 versions (the most)", s,
           pack({"t": "hello", "versions": list(range(1, 17)), "client": "c"}),
           [{"t": "hello", "versions": list(range(1, 17)), "client": "c"}], state="handshake"),
    ]
    plain = [
        ("ping", {"t": "ping", "id": 0}),
        ("ping, largest id", {"t": "ping", "id": 2**31 - 1}),
        ("pong", {"t": "pong", "re": 17}),
        ("error, minimal", {"t": "error", "code": "bad_message", "message": ""}),
        ("error, every field", {"t": "error", "code": "rate_limited",
                                "message": "Slow down.", "re": 4, "versions": [1]}),
        ("error with a code this receiver does not know",
         {"t": "error", "code": "some_future_code", "message": "?"}),
        ("list_tables", {"t": "list_tables", "id": 1}),
        ("create_table, minimal options", {"t": "create_table", "id": 2, "options": OPTIONS_MIN}),
        ("create_table, every option", {"t": "create_table", "id": 2, "options": OPTIONS_FULL}),
        ("create_table, no clocks, 10 seats",
         {"t": "create_table", "id": 3, "options": {"seats": 10, "response_clock": 0,
                                                     "turn_clock": 0, "treasury": 1000}}),
        ("join, minimal (no table nor code: the server answers with an error)",
         {"t": "join", "id": 3}),
        ("join by table id", {"t": "join", "id": 3, "table": "k7tq2m"}),
        ("join by table id and seat", {"t": "join", "id": 3, "table": "k7tq2m", "seat": 9}),
        ("join by private code", {"t": "join", "id": 3, "code": "WOLF-42"}),
        ("join as a spectator", {"t": "join", "id": 3, "table": "k7tq2m", "spectate": True}),
        ("join, every field", {"t": "join", "id": 3, "table": "k7tq2m", "code": "WOLF-42",
                               "seat": 0, "spectate": False}),
        ("leave", {"t": "leave", "id": 4}),
        ("ready true", {"t": "ready", "id": 5, "ready": True}),
        ("ready false", {"t": "ready", "id": 5, "ready": False}),
        ("start", {"t": "start", "id": 6}),
        ("rematch", {"t": "rematch", "id": 7}),
        ("say to the table", {"t": "say", "id": 8, "text": "good luck!", "scope": "table"}),
        ("say to the lobby, 500 characters (the most)",
         {"t": "say", "id": 8, "text": "x" * 500, "scope": "lobby"}),
        ("bye, minimal", {"t": "bye", "reason": "client_quit"}),
        ("bye, with a message", {"t": "bye", "reason": "client_quit", "message": "good night"}),
        ("list_games, minimal", {"t": "list_games", "id": 10}),
        ("list_games, the next page of a player's games",
         {"t": "list_games", "id": 10, "before": 12, "player": "Alice"}),
        ("get_game", {"t": "get_game", "id": 11, "game": 12}),
        ("get_game in a frame of up to 1 MiB",
         {"t": "get_game", "id": 11, "game": 12, "max_frame": 2**20}),
        ("identify", {"t": "identify", "id": 14, "key": "c0" * 32, "nonce": "ab" * 32,
                      "server_id": "5e" * 16, "signature": "51" * 64}),
        ("via, an IPv6 address a door vouches for",
         {"t": "via", "id": 17, "address": "2001:db8::5", "nonce": "ab" * 32,
          "server_id": "5e" * 16, "signature": "7f" * 64}),
        ("queue for a table of 4 seats", {"t": "queue", "id": 12, "seats": 4}),
        ("queue for 2 to 6 seats of a variant",
         {"t": "queue", "id": 12, "seats": {"min": 2, "max": 6}, "variant": "inquisitor"}),
        ("unqueue", {"t": "unqueue", "id": 13}),
        ("get_leaderboard, the top", {"t": "get_leaderboard", "id": 15}),
        ("get_leaderboard, the third page", {"t": "get_leaderboard", "id": 15, "offset": 40}),
        ("get_profile", {"t": "get_profile", "id": 16, "name": "Alice"}),
        ("kick at your own table", {"t": "kick", "id": 17, "name": "Bob"}),
        ("kick at a table, with a reason",
         {"t": "kick", "id": 17, "name": "Bob", "table": "t7", "reason": "idle"}),
        ("mute for 30 minutes", {"t": "mute", "id": 18, "name": "Bob", "minutes": 30}),
        ("ban a connected player by name for a day, with a reason",
         {"t": "ban", "id": 19, "minutes": 1440, "name": "Bob", "reason": "cheating"}),
        ("lift the ban of a key", {"t": "ban", "id": 19, "minutes": 0, "key": "c0" * 32}),
        ("ban an address", {"t": "ban", "id": 19, "minutes": 60, "address": "2001:db8::1"}),
        ("close_table", {"t": "close_table", "id": 20, "table": "t7"}),
        ("list_tables, following the tournament",
         {"t": "list_tables", "id": 1, "tournament": True}),
        ("open_tournament, minimal", {"t": "open_tournament", "id": 21, "name": "Cup"}),
        ("open_tournament at tables of 2 and 3, two rounds",
         {"t": "open_tournament", "id": 21, "name": "Cup", "sizes": [2, 3], "rounds": 2}),
        ("start_tournament", {"t": "start_tournament", "id": 22}),
        ("stop_tournament", {"t": "stop_tournament", "id": 23}),
        ("enter_tournament", {"t": "enter_tournament", "id": 24}),
        ("leave_tournament", {"t": "leave_tournament", "id": 25}),
    ]
    cases += [ok(n, s, pack(m), [m]) for n, m in plain]
    cases += [
        ok("ready without `ready` (optional, default true)", s, pack({"t": "ready", "id": 5}),
           [{"t": "ready", "id": 5, "ready": True}]),
        ok("say without `scope` (optional, default \"table\")", s,
           pack({"t": "say", "id": 8, "text": "hi"}),
           [{"t": "say", "id": 8, "text": "hi", "scope": "table"}]),
    ]
    moves = [
        ("an action", {"kind": "income"}),
        ("a targeted action", {"kind": "coup", "target": 2}),
        ("a response", {"kind": "pass"}),
        ("block", {"kind": "block", "card": "duke"}),
        ("lose", {"kind": "lose", "card": "contessa"}),
        ("keep", {"kind": "keep", "cards": ["captain", "duke"]}),
        ("examine_decision", {"kind": "examine_decision", "swap": True}),
        ("draft_pick", {"kind": "draft_pick", "card": "ambassador"}),
        ("an unknown kind: the shape is valid, the engine answers move_rejected unknown_move",
         {"kind": "teleport"}),
        ("target seat 9 and an unknown card: valid shape, judged by the engine",
         {"kind": "steal", "target": 9, "card": "joker"}),
        ("every move field at once (valid shape; the engine answers bad_target)",
         {"kind": "keep", "target": 0, "card": "duke", "cards": [], "swap": False}),
    ]
    cases += [
        ok(f"move: {n}", s, pack(m := {"t": "move", "id": 9, "state_id": 41, "move": mv}), [m])
        for n, mv in moves
    ]
    return cases


def valid_client() -> list:
    """Every message a client accepts, minimal and full."""
    c = "client"
    welcome_full = {"t": "welcome", "version": 2, "server": "coup-server/0.1", "name": "alice",
                    "max_frame": 65536, "nonce": "ab" * 32, "server_id": "5e" * 16}
    cases = [
        ok("welcome, minimal (version 1, as to a client that offers only it)", c, pack({"t": "welcome", "version": 1, "server": "s"}),
           [{"t": "welcome", "version": 1, "server": "s"}], state="handshake"),
        ok("welcome, every field (version 2)", c, pack(welcome_full), [welcome_full],
           state="handshake"),
        ok("welcome choosing version 2 (docs/PROTOCOL.md, welcome)", c,
           pack(m := {"t": "welcome", "version": 2, "server": "coup-server/0.1",
                      "name": "alice", "max_frame": 65536}), [m], state="handshake"),
        ok("welcome with a larger frame limit for what the client sends", c,
           pack({"t": "welcome", "version": 1, "server": "s", "max_frame": 2**24}),
           [{"t": "welcome", "version": 1, "server": "s", "max_frame": 2**24}],
           state="handshake"),
        ok("error unsupported_version during the handshake (the server then closes)", c,
           pack(m := {"t": "error", "code": "unsupported_version",
                      "message": "This server speaks versions 1 and 2.", "versions": [1, 2]}),
           [m], state="handshake", after_state="closed"),
        ok("error handshake_required during the handshake", c,
           pack(m := {"t": "error", "code": "handshake_required", "message": "hello first"}),
           [m], state="handshake", after_state="closed"),
        ok("bye during the handshake", c,
           pack(m := {"t": "bye", "reason": "too_many_connections"}), [m], state="handshake"),
    ]
    plain = [
        ("ping", {"t": "ping", "id": 12}),
        ("pong", {"t": "pong", "re": 0}),
        ("error, minimal", {"t": "error", "code": "no_such_table", "message": ""}),
        ("error answering a request", {"t": "error", "code": "table_full",
                                       "message": "Every seat is taken.", "re": 3}),
        ("error needs_version, a Reformation table refused to a version-1 session",
         {"t": "error", "code": "needs_version", "re": 4, "message": "Reformation tables need "
          "protocol version 2; your client speaks version 1: update it to play or watch "
          "them."}),
        ("bye", {"t": "bye", "reason": "server_shutdown", "message": "The server is stopping."}),
        ("tables, the answer to list_tables", {"t": "tables", "tables": [SUMMARY], "re": 1}),
        ("tables, an update (no re)", {"t": "tables", "tables": [SUMMARY_MIN, SUMMARY]}),
        ("tables, empty", {"t": "tables", "tables": []}),
        ("joined, minimal (a spectator, after reconnecting: no re)",
         {"t": "joined", "table": "k7tq2m"}),
        ("joined a seat", {"t": "joined", "table": "k7tq2m", "re": 3, "seat": 1,
                           "token": "r2VtY3b9J7c1XoLq0s8HkA"}),
        ("joined a private table it created", {"t": "joined", "table": "k7tq2m", "re": 2,
                                               "seat": 0, "token": "x" * 64, "code": "WOLF-42"}),
        ("ok", {"t": "ok", "re": 5}),
        ("identified", {"t": "identified", "re": 14, "name": "alice"}),
        ("identified, a seat coming back", {"t": "identified", "re": 14, "name": "alice",
                                            "table": "k7tq2m"}),
        ("identified, an operator", {"t": "identified", "re": 14, "name": "alice",
                                     "operator": True}),
        ("table", {"t": "table", "info": SUMMARY}),
        ("table, minimal summary", {"t": "table", "info": SUMMARY_MIN}),
        ("snapshot of a running game", {"t": "snapshot", "table": "k7tq2m", "view": VIEW,
                                         "players": SEATS[:3], "deadlines": DEADLINES}),
        ("snapshot for a spectator (seat nil, no hands)",
         {"t": "snapshot", "table": "k7tq2m", "view": SPECTATOR_VIEW, "players": SEATS[:3],
          "deadlines": []}),
        ("snapshot of a two-player draft", {"t": "snapshot", "table": "k7tq2m",
                                            "view": DRAFT_VIEW, "players": SEATS[:2],
                                            "deadlines": [{"seat": 0, "ms": 20000},
                                                          {"seat": 1, "ms": 20000}]}),
        ("snapshot of a finished game, with reveal",
         {"t": "snapshot", "table": "k7tq2m", "view": OVER_VIEW, "players": SEATS[:3],
          "deadlines": [], "reveal": REVEAL}),
        ("snapshot of a finished game, with reveal, summary and earlier events",
         {"t": "snapshot", "table": "k7tq2m", "view": OVER_VIEW, "players": SEATS[:3],
          "deadlines": [], "reveal": REVEAL, "summary": GAME_SUMMARY, "events": OVER_EVENTS}),
        ("snapshot of a running game with its earlier events",
         {"t": "snapshot", "table": "k7tq2m", "view": VIEW, "players": SEATS[:3],
          "deadlines": DEADLINES, "events": EVENTS}),
        ("update", {"t": "update", "table": "k7tq2m", "view": VIEW, "events": EVENTS,
                    "deadlines": DEADLINES}),
        ("update of a Reformation game: a Conversion (R12.9)",
         {"t": "update", "table": "k7tq2m", "view": REFORM_VIEW, "events": REFORM_EVENTS,
          "deadlines": []}),
        ("update of a Reformation game: an Embezzlement proved (R12.12)",
         {"t": "update", "table": "k7tq2m", "view": DISPROVED_VIEW,
          "events": DISPROVED_EVENTS, "deadlines": []}),
        ("update with one event of every kind",
         {"t": "update", "table": "k7tq2m", "view": VIEW, "events": EVENTS_EVERY_KIND,
          "deadlines": []}),
        ("update that ends the game, with reveal",
         {"t": "update", "table": "k7tq2m", "view": OVER_VIEW, "events": OVER_EVENTS,
          "deadlines": [], "reveal": REVEAL}),
        ("update that ends the game, with reveal and summary",
         {"t": "update", "table": "k7tq2m", "view": OVER_VIEW, "events": OVER_EVENTS,
          "deadlines": [], "reveal": REVEAL, "summary": GAME_SUMMARY}),
        ("move_accepted", {"t": "move_accepted", "re": 9, "state_id": 42}),
        ("move_rejected", {"t": "move_rejected", "re": 9, "code": "stale_state",
                           "message": "The game has moved on since state 40 (it is at 42).",
                           "state_id": 42}),
        ("chat in the lobby, minimal", {"t": "chat", "scope": "lobby", "name": "bob",
                                        "text": "anyone for a game?"}),
        ("chat at a table, every field", {"t": "chat", "scope": "table", "name": "alice",
                                          "text": "good luck!", "seat": 0, "table": "k7tq2m"}),
        ("presence, minimal", {"t": "presence", "table": "k7tq2m", "seat": 1, "status": "away"}),
        ("table of a server that keeps records (the game in play)",
         {"t": "table", "info": with_(SUMMARY, status="playing", game=12)}),
        ("paused", {"t": "paused", "table": "k7tq2m", "paused": True,
                    "message": "The server cannot save this game: play waits."}),
        ("paused: play goes on", {"t": "paused", "table": "k7tq2m", "paused": False,
                                  "message": ""}),
        ("games, a page with more after it", {"t": "games", "re": 10, "games": [GAME_LINE],
                                              "next": 12}),
        ("games, the last page", {"t": "games", "re": 10, "games": []}),
        ("game_record", {"t": "game_record", "re": 11, "record": RECORD}),
        ("queued", {"t": "queued", "re": 12, "waiting": 1}),
        ("queue_status", {"t": "queue_status", "waiting": 3}),
        ("tournament, open", {"t": "tournament", "name": "Cup", "status": "open",
                              "entrants": ["ana", "bo"], "played": 0, "scheduled": 0,
                              "standings": []}),
        ("tournament, running", {"t": "tournament", "name": "Cup", "status": "running",
                                 "entrants": ["ana", "bo"], "played": 1, "scheduled": 2,
                                 "standings": [STANDING_ROW, dict(STANDING_ROW, name="bo",
                                                                  wins=0, win_rate=0.0,
                                                                  mean_place=2.0,
                                                                  ordinal=-1.5)]}),
        ("leaderboard, a page with more after it",
         {"t": "leaderboard", "re": 15, "players": [RANKED], "next": 20}),
        ("leaderboard, empty", {"t": "leaderboard", "re": 15, "players": []}),
        ("profile", {"t": "profile", "re": 16, "profile": dict(RANKED, recent=[GAME_LINE])}),
        ("table of a quick-play table (rated)",
         {"t": "table", "info": with_(SUMMARY, options={"seats": 4, "rated": True})}),
        ("table of a rated table whose game plays unrated (one identified person)",
         {"t": "table", "info": with_(SUMMARY, options={"seats": 4, "rated": True}, game=12,
                                      game_rated=False)}),
        ("profile of a provisional player",
         {"t": "profile", "re": 16, "profile": dict(RANKED, recent=[], provisional=True)}),
        ("error: a key of small order",
         {"t": "error", "code": "bad_key", "re": 3, "message":
          "That key is a point of small order: any signature would do for it."}),
        ("error: a name a bot has",
         {"t": "error", "code": "name_reserved", "re": 3, "message":
          "The name random is a bot's on this server. Choose another name."}),
        ("error: queued already",
         {"t": "error", "code": "already_queued", "message": "You are in the queue already.",
          "re": 12}),
        ("error: no finished game of that id",
         {"t": "error", "code": "no_such_game", "message": "There is no finished game 13.",
          "re": 11}),
    ]
    cases += [ok(n, c, pack(m), [m]) for n, m in plain]
    cases += [
        ok(f"presence {status}", c,
           pack(m := {"t": "presence", "table": "k7tq2m", "seat": 1, "status": status,
                      "name": "bob"}), [m])
        for status in ("here", "away", "bot", "left")
    ]
    return cases


# --------------------------------------------------------------------------- streams, encodings


def _int(fmt: int, value: int) -> bytes:
    """An int in a chosen msgpack encoding (not necessarily the smallest)."""
    sizes = {0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q",
             0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q"}
    return bytes([fmt]) + struct.pack(sizes[fmt], value)


def _str(fmt: int, s: str) -> bytes:
    b = s.encode()
    if fmt == 0xD9:
        return bytes([0xD9, len(b)]) + b
    if fmt == 0xDA:
        return bytes([0xDA]) + struct.pack(">H", len(b)) + b
    return bytes([0xDB]) + struct.pack(">I", len(b)) + b


def streams() -> list:
    ping = {"t": "ping", "id": 1}
    lt = {"t": "list_tables", "id": 2}
    mv = {"t": "move", "id": 3, "state_id": 0, "move": {"kind": "draft_pick", "card": "duke"}}
    welcome = {"t": "welcome", "version": 1, "server": "s"}
    table = {"t": "table", "info": SUMMARY}
    snap = {"t": "snapshot", "table": "k7tq2m", "view": DRAFT_VIEW, "players": SEATS[:2],
            "deadlines": []}
    non_minimal_ping = b"\x82" + _str(0xD9, "t") + _str(0xDA, "ping") + _str(0xDB, "id")
    return [
        ok("no bytes: nothing yet", "server", b"", []),
        ok("three frames back to back", "server", frames(lt, ping, mv), [lt, ping, mv]),
        ok("three frames and the first bytes of a fourth (it waits for the rest)", "server",
           frames(lt, ping, mv) + pack(ping)[:3], [lt, ping, mv]),
        ok("half a frame: nothing yet, no error", "server", pack(mv)[: len(pack(mv)) // 2], []),
        ok("welcome followed at once by the first messages", "client",
           frames(welcome, table, snap), [welcome, table, snap], state="handshake"),
        ok("`t` need not come first", "server", b"\x82\xa2id\x01\xa1t\xa4ping", [ping]),
        ok("ints in every msgpack int encoding are the same int", "server",
           b"".join(b"\x82\xa1t\xa4ping\xa2id" + _int(f, 7)
                    for f in (0xCC, 0xCD, 0xCE, 0xCF, 0xD0, 0xD1, 0xD2, 0xD3)),
           [{"t": "ping", "id": 7}] * 8),
        ok("strings in str8, str16 and str32 encodings", "server",
           non_minimal_ping + b"\x05", [{"t": "ping", "id": 5}]),
        ok("a map16 and an array16 holding few items", "server",
           b"\xde\x00\x03\xa1t\xa5hello\xa8versions\xdc\x00\x01\x01\xa6client\xa1c",
           [{"t": "hello", "versions": [1], "client": "c"}], state="handshake"),
        ok("a map32 and an array32", "server",
           b"\xdf\x00\x00\x00\x03\xa1t\xa5hello\xa8versions\xdd\x00\x00\x00\x01\x01"
           b"\xa6client\xa1c",
           [{"t": "hello", "versions": [1], "client": "c"}], state="handshake"),
        ok("the stream ends cleanly after a frame", "server", pack(ping), [ping], eof=True),
        ok("nothing is read after bye", "server",
           frames(m := {"t": "bye", "reason": "client_quit"}, ping), [m]),
        ok("nothing is read after bye (client)", "client",
           frames(m := {"t": "bye", "reason": "server_shutdown"}, {"t": "ok", "re": 1}), [m]),
        err("after an error that does not close, the next frames are read", "server",
            frames({"t": "nonsense", "id": 4}, ping, lt), "unknown_type", re=4,
            after=[ping, lt]),
        err("a valid frame, then a bad message, then a valid frame", "server",
            frames(ping, {"t": "ping", "id": "two"}, lt), "bad_message", re=None,
            messages=[ping], after=[lt]),
    ]


def ignored() -> list:
    """Unknown fields are a newer peer's additions: dropped. Nil optional fields are absent."""
    s, c = "server", "client"
    view_plus = with_(VIEW, future_field={"x": [1, 2]})
    events_plus = [with_(EVENTS[0], colour="red")] + EVENTS[1:]
    return [
        ok("unknown top-level field", s, pack({"t": "ping", "id": 1, "priority": "high"}),
           [{"t": "ping", "id": 1}]),
        ok("unknown fields of every msgpack type", s,
           pack({"t": "list_tables", "id": 1, "a": None, "b": 1.5, "c": b"\x00\xff", "d": [1, "x"],
                 "e": {"k": True}, "f": -3}),
           [{"t": "list_tables", "id": 1}]),
        ok("unknown field in hello", s,
           pack({"t": "hello", "versions": [1], "client": "c", "features": ["compression"]}),
           [{"t": "hello", "versions": [1], "client": "c"}], state="handshake"),
        ok("unknown field in welcome", c,
           pack({"t": "welcome", "version": 1, "server": "s", "motd": "hi"}),
           [{"t": "welcome", "version": 1, "server": "s"}], state="handshake"),
        ok("unknown table option", s,
           pack({"t": "create_table", "id": 2, "options": {"seats": 3, "theme": "dark"}}),
           [{"t": "create_table", "id": 2, "options": {"seats": 3}}]),
        ok("unknown move field (dropped before the engine sees the move)", s,
           pack({"t": "move", "id": 9, "state_id": 3, "move": {"kind": "pass", "why": "meh"}}),
           [{"t": "move", "id": 9, "state_id": 3, "move": {"kind": "pass"}}]),
        ok("unknown view field", c,
           pack({"t": "update", "table": "k7tq2m", "view": view_plus, "events": EVENTS,
                 "deadlines": DEADLINES}),
           [{"t": "update", "table": "k7tq2m", "view": VIEW, "events": EVENTS,
             "deadlines": DEADLINES}]),
        ok("unknown event field", c,
           pack({"t": "update", "table": "k7tq2m", "view": VIEW, "events": events_plus,
                 "deadlines": []}),
           [{"t": "update", "table": "k7tq2m", "view": VIEW, "events": EVENTS,
             "deadlines": []}]),
        ok("unknown fields in a table summary and a seat", c,
           pack({"t": "table", "info": with_(SUMMARY, rating=1500,
                                             seats=[with_(SEATS[0], flag="fr")] + SEATS[1:])}),
           [{"t": "table", "info": SUMMARY}]),
        ok("unknown field in a deadline", c,
           pack({"t": "snapshot", "table": "k7tq2m", "view": DRAFT_VIEW, "players": [],
                 "deadlines": [{"seat": 0, "ms": 5, "total": 20000}]}),
           [{"t": "snapshot", "table": "k7tq2m", "view": DRAFT_VIEW, "players": [],
             "deadlines": [{"seat": 0, "ms": 5}]}]),
        ok("nil optional fields are absent", s,
           pack({"t": "join", "id": 3, "table": "k7tq2m", "code": None, "seat": None,
                 "spectate": None}),
           [{"t": "join", "id": 3, "table": "k7tq2m"}]),
        ok("nil optional fields of hello are absent", s,
           pack({"t": "hello", "versions": [1], "client": "c", "name": None, "token": None}),
           [{"t": "hello", "versions": [1], "client": "c"}], state="handshake"),
        ok("a nil optional table option is absent", s,
           pack({"t": "create_table", "id": 2, "options": {"seats": 3, "bots": None}}),
           [{"t": "create_table", "id": 2, "options": {"seats": 3}}]),
        ok("a nil optional field with a default takes the default", s,
           pack({"t": "ready", "id": 5, "ready": None}),
           [{"t": "ready", "id": 5, "ready": True}]),
        ok("nil optional fields of error are absent", c,
           pack({"t": "error", "code": "bad_token", "message": "", "re": None,
                 "versions": None}),
           [{"t": "error", "code": "bad_token", "message": ""}]),
        ok("a required field that may be nil stays nil", c,
           pack({"t": "table", "info": SUMMARY_MIN}), [{"t": "table", "info": SUMMARY_MIN}]),
    ]


# --------------------------------------------------------------------------- errors


def bad_frame() -> list:
    s, c = "server", "client"
    ping = {"t": "ping", "id": 1}
    not_maps = [("an int", 5), ("nil", None), ("true", True), ("a float", 1.5),
                ("a string", "ping"), ("an array", ["t", "ping"]), ("bin", b"ping")]
    cases = [err(f"the frame is {n}, not a map", s, pack(o), "bad_frame") for n, o in not_maps]
    no_t = [("no t", {"id": 1}), ("t is an int", {"t": 1, "id": 1}),
            ("t is nil", {"t": None, "id": 1}), ("t is bin", {"t": b"ping", "id": 1}),
            ("t is an array", {"t": ["ping"], "id": 1}), ("t is a map", {"t": {}, "id": 1}),
            ("the empty map", {})]
    cases += [err(f"map with {n}", s, pack(o), "bad_frame") for n, o in no_t]
    cases += [
        err("0xc1 (never used in msgpack)", s, b"\xc1", "bad_frame"),
        err("0xc1 after a valid frame", s, pack(ping) + b"\xc1", "bad_frame", messages=[ping]),
        err("0xc1 inside a map", s, b"\x82\xa1t\xa4ping\xa2id\xc1", "bad_frame"),
        err("invalid UTF-8 in a str value", s, b"\x82\xa1t\xa4ping\xa2id\xa2\xff\xfe",
            "bad_frame"),
        err("invalid UTF-8 in t", s, b"\x82\xa1t\xa4p\xffng\xa2id\x01", "bad_frame"),
        err("invalid UTF-8 in a key", s, b"\x82\xa1t\xa4ping\xa2\xc3\x28\x01", "bad_frame"),
        err("an int map key", s, b"\x83\xa1t\xa4ping\xa2id\x01\x07\x01", "bad_frame"),
        err("a nil map key", s, b"\x83\xa1t\xa4ping\xa2id\x01\xc0\x01", "bad_frame"),
        err("an ext value (fixext 1)", s, b"\x83\xa1t\xa4ping\xa2id\x01\xa1x\xd4\x01\x00",
            "bad_frame"),
        err("a timestamp (ext -1)", s,
            b"\x83\xa1t\xa4ping\xa2id\x01\xa1x\xd6\xff\x00\x00\x00\x00", "bad_frame"),
        err("a map of more than 256 entries", s,
            pack({"t": "ping", "id": 1, **{f"k{i}": 0 for i in range(255)}}), "bad_frame"),
        ok("a map of 256 entries (the most)", s,
           pack({"t": "ping", "id": 1, **{f"k{i}": 0 for i in range(254)}}), [ping]),
        err("an array of more than 4096 items", s,
            pack({"t": "ping", "id": 1, "x": [0] * 4097}), "bad_frame"),
        ok("an array of 4096 items (the most)", s, pack({"t": "ping", "id": 1, "x": [0] * 4096}),
           [ping]),
        err("arrays nested 2000 deep", s, b"\x91" * 2000 + b"\x01", "bad_frame"),
    ]
    # The nesting limit at its boundary: 1024 levels, the frame's own map being level 1.
    for kind, (receiver, side) in product(NESTERS, ((s, ""), (c, " (client)"))):
        cases += [
            ok(f"{kind} nested to level 1024 in an unknown field (the most){side}", receiver,
               _nested_in_ping(kind, 1024), [ping]),
            err(f"{kind} nested to level 1025 in an unknown field{side}", receiver,
                _nested_in_ping(kind, 1025), "bad_frame"),
        ]
    cases += [
        err("the stream ends in the middle of a frame", s, pack(ping)[:-1], "bad_frame",
            eof=True),
        err("the stream ends in the middle of the second frame", s,
            pack(ping) + pack(ping)[:4], "bad_frame", messages=[ping], eof=True),
        err("bad_frame during the handshake (server)", s, b"\xc1", "bad_frame",
            state="handshake"),
        err("a non-map during the handshake (server)", s, pack([1]), "bad_frame",
            state="handshake"),
        err("a non-map (client)", c, pack("welcome"), "bad_frame"),
        err("map without t (client)", c, pack({"re": 1}), "bad_frame"),
        err("0xc1 during the handshake (client)", c, b"\xc1", "bad_frame", state="handshake"),
        err("the stream ends in the middle of a frame (client)", c,
            pack({"t": "ok", "re": 1})[:-1], "bad_frame", eof=True),
    ]
    return cases


#: One level of nesting of each kind, as its msgpack header: an array of one item, a map of
#: one entry (its key "a"); the innermost value is nil.
NESTERS = {"arrays": b"\x91", "maps": b"\x81\xa1a"}


def _nested_in_ping(kind: str, levels: int) -> bytes:
    """A ping frame whose unknown field `x` holds `kind` nested so that the deepest is at
    `levels`, counting the frame's own map as level 1 (as docs/PROTOCOL.md counts)."""
    return b"\x83\xa1t\xa4ping\xa2id\x01\xa1x" + NESTERS[kind] * (levels - 1) + b"\xc0"


def _padded(size: int, **fields) -> bytes:
    """A ping frame of exactly `size` bytes, grown with an unknown string field."""
    for n in range(size, 0, -1):
        data = pack({"t": "ping", "id": 1, **fields, "pad": "x" * n})
        if len(data) == size:
            return data
        if len(data) < size:
            break
    raise AssertionError(size)


def frame_too_large() -> list:
    s, c = "server", "client"
    ping = {"t": "ping", "id": 1}
    return [
        ok("a frame of exactly 65536 bytes", s, _padded(MAX_FRAME), [ping]),
        ok("two frames of 40000 bytes back to back (the limit is per frame)", s,
           _padded(40000) * 2, [ping, ping]),
        err("a frame of 65537 bytes", s, _padded(MAX_FRAME + 1), "frame_too_large"),
        err("a frame of 65537 bytes (client)", c, _padded(MAX_FRAME + 1), "frame_too_large"),
    ]


def handshake() -> list:
    s, c = "server", "client"
    hello = {"t": "hello", "versions": [1], "client": "c"}
    bad_hellos = [
        ("no versions", without(hello, "versions")),
        ("no client", without(hello, "client")),
        ("empty versions", with_(hello, versions=[])),
        ("17 versions", with_(hello, versions=list(range(1, 18)))),
        ("version 0", with_(hello, versions=[0])),
        ("version 1000", with_(hello, versions=[1000])),
        ("versions is an int", with_(hello, versions=1)),
        ("empty client", with_(hello, client="")),
        ("client of 65 characters", with_(hello, client="c" * 65)),
        ("name of 33 characters", with_(hello, name="n" * 33)),
        ("empty name", with_(hello, name="")),
        ("token of 65 characters", with_(hello, token="k" * 65)),
    ]
    cases = [
        err("the first message is ping, not hello", s, pack({"t": "ping", "id": 1}),
            "handshake_required", state="handshake"),
        err("the first message is list_tables", s, pack({"t": "list_tables", "id": 5}),
            "handshake_required", state="handshake"),
        err("the first message is an error", s,
            pack({"t": "error", "code": "bad_message", "message": ""}), "handshake_required",
            state="handshake"),
        err("the first message has an unknown type", s, pack({"t": "howdy", "id": 1}),
            "handshake_required", state="handshake"),
        err("the first message is a welcome (servers do not accept it)", s,
            pack({"t": "welcome", "version": 1, "server": "s"}), "handshake_required",
            state="handshake"),
        err("bye before hello", s, pack({"t": "bye", "reason": "client_quit"}),
            "handshake_required", state="handshake"),
    ]
    cases += [err(f"hello with {n}", s, pack(o), "handshake_required", state="handshake")
              for n, o in bad_hellos]
    cases += [
        err("welcome with a version the client does not speak", c,
            pack({"t": "welcome", "version": 3, "server": "s"}), "unsupported_version",
            state="handshake"),
        err("ping before welcome", c, pack({"t": "ping", "id": 1}), "handshake_required",
            state="handshake"),
        err("tables before welcome", c, pack({"t": "tables", "tables": []}),
            "handshake_required", state="handshake"),
        err("an unknown type before welcome", c, pack({"t": "greetings"}),
            "handshake_required", state="handshake"),
        err("hello sent to a client", c, pack(hello), "handshake_required", state="handshake"),
        err("welcome without server", c, pack({"t": "welcome", "version": 1}),
            "handshake_required", state="handshake"),
        err("welcome with version 0", c, pack({"t": "welcome", "version": 0, "server": "s"}),
            "handshake_required", state="handshake"),
        err("welcome with max_frame 1023 (below the least)", c,
            pack({"t": "welcome", "version": 1, "server": "s", "max_frame": 1023}),
            "handshake_required", state="handshake"),
        err("hello after the handshake", s, pack(hello), "bad_message", re=None),
        err("welcome after the handshake", c,
            pack({"t": "welcome", "version": 1, "server": "s"}), "bad_message", re=None),
    ]
    return cases


def unknown_type() -> list:
    s, c = "server", "client"
    return [
        err("an unknown type with an id", s, pack({"t": "teleport", "id": 3}), "unknown_type",
            re=3),
        err("an unknown type without an id", s, pack({"t": "teleport"}), "unknown_type",
            re=None),
        err("an unknown type with an id that is not a request id", s,
            pack({"t": "teleport", "id": -3}), "unknown_type", re=None),
        err("the empty type", s, pack({"t": "", "id": 3}), "unknown_type", re=3),
        err("a type differing only in case", s, pack({"t": "PING", "id": 3}), "unknown_type",
            re=3),
        err("a server's message sent to the server (welcome)", s,
            pack({"t": "welcome", "version": 1, "server": "s"}), "unknown_type", re=None),
        err("a server's message sent to the server (snapshot)", s,
            pack({"t": "snapshot", "id": 8}), "unknown_type", re=8),
        err("a server's message sent to the server (ok)", s, pack({"t": "ok", "re": 1}),
            "unknown_type", re=None),
        err("a client's message sent to the client (move)", c,
            pack({"t": "move", "id": 2, "state_id": 0, "move": {"kind": "pass"}}),
            "unknown_type", re=2),
        err("a client's message sent to the client (hello)", c, pack({"t": "hello"}),
            "unknown_type", re=None),
        err("an unknown type (client)", c, pack({"t": "news", "text": "hi"}), "unknown_type",
            re=None),
    ]


def bad_message() -> list:
    s, c = "server", "client"
    mv = {"t": "move", "id": 9, "state_id": 4, "move": {"kind": "pass"}}
    ct = {"t": "create_table", "id": 2, "options": {"seats": 4}}
    server_cases = [
        # a required field missing
        ("missing required field (ping without id)", {"t": "ping"}, None),
        ("missing required field (move without state_id)", without(mv, "state_id"), 9),
        ("missing required field (move without move)", without(mv, "move"), 9),
        ("missing required field (create_table without options)", without(ct, "options"), 2),
        ("missing required field (say without text)", {"t": "say", "id": 4}, 4),
        ("missing required field (pong without re)", {"t": "pong"}, None),
        ("missing required field (error without message)", {"t": "error", "code": "x"}, None),
        ("missing required field in a nested map (options without seats)",
         with_(ct, options={"variant": "base"}), 2),
        ("missing required field in a nested map (move without kind)",
         with_(mv, move={"target": 1}), 9),
        # nil where a value is required
        ("nil for a required field (ping id)", {"t": "ping", "id": None}, None),
        ("nil for a required field (create_table options)", with_(ct, options=None), 2),
        ("nil for a required nested field (move kind)", with_(mv, move={"kind": None}), 9),
        # wrong types
        ("a string for an int (id)", {"t": "ping", "id": "1"}, None),
        ("true for an int (id)", {"t": "ping", "id": True}, None),
        ("a float for an int (id 1.0)", {"t": "ping", "id": 1.0}, None),
        ("a float for an int (state_id)", with_(mv, state_id=4.0), 9),
        ("an int for a bool (ready 1)", {"t": "ready", "id": 5, "ready": 1}, 5),
        ("an int for a string (say text)", {"t": "say", "id": 4, "text": 42}, 4),
        ("bin for a string (say text)", {"t": "say", "id": 4, "text": b"hi"}, 4),
        ("a list for a map (options)", with_(ct, options=[4]), 2),
        ("a string for a map (move)", with_(mv, move="pass"), 9),
        ("a map for a list (keep cards)", with_(mv, move={"kind": "keep", "cards": {}}), 9),
        ("an int for a string (move card)", with_(mv, move={"kind": "block", "card": 1}), 9),
        ("a string for an int (move target)", with_(mv, move={"kind": "coup", "target": "1"}),
         9),
        ("true for an int (move target)", with_(mv, move={"kind": "coup", "target": True}), 9),
        ("an int for a bool (move swap)",
         with_(mv, move={"kind": "examine_decision", "swap": 0}), 9),
        ("a string in a list of ints (error versions)",
         {"t": "error", "code": "x", "message": "", "versions": ["1"]}, None),
        # ints out of range
        ("a negative request id", {"t": "list_tables", "id": -1}, None),
        ("a request id of 2**31", {"t": "list_tables", "id": 2**31}, None),
        ("a request id of 2**64-1", {"t": "list_tables", "id": 2**64 - 1}, None),
        ("a negative state_id", with_(mv, state_id=-1), 9),
        ("seat 10 (seats are 0..9)", {"t": "join", "id": 3, "table": "t", "seat": 10}, 3),
        ("table of 1 seat", with_(ct, options={"seats": 1}), 2),
        ("table of 11 seats", with_(ct, options={"seats": 11}), 2),
        ("treasury 19", with_(ct, options={"seats": 2, "treasury": 19}), 2),
        ("response_clock 601", with_(ct, options={"seats": 2, "response_clock": 601}), 2),
        ("turn_clock 3601", with_(ct, options={"seats": 2, "turn_clock": 3601}), 2),
        ("negative turn_clock", with_(ct, options={"seats": 2, "turn_clock": -1}), 2),
        ("queue for 7 seats (quick play seats 2..6)", {"t": "queue", "id": 12, "seats": 7}, 12),
        ("queue for a range whose max is 1",
         {"t": "queue", "id": 12, "seats": {"min": 2, "max": 1}}, 12),
        ("queue for a range without max", {"t": "queue", "id": 12, "seats": {"min": 2}}, 12),
        ("move target of 2**31", with_(mv, move={"kind": "coup", "target": 2**31}), 9),
        ("move target 10 (seats are 0..9)", with_(mv, move={"kind": "coup", "target": 10}), 9),
        ("negative move target", with_(mv, move={"kind": "coup", "target": -1}), 9),
        ("a pong re of 2**31", {"t": "pong", "re": 2**31}, None),
        # strings too long or too short
        ("empty say text", {"t": "say", "id": 4, "text": ""}, 4),
        ("say text of 501 characters", {"t": "say", "id": 4, "text": "x" * 501}, 4),
        ("table name of 33 characters", with_(ct, options={"seats": 2, "name": "é" * 33}), 2),
        ("empty table name", with_(ct, options={"seats": 2, "name": ""}), 2),
        ("bots strategy of 33 characters",
         with_(ct, options={"seats": 2, "bots": "b" * 33}), 2),
        ("table id of 17 characters", {"t": "join", "id": 3, "table": "t" * 17}, 3),
        ("empty table id", {"t": "join", "id": 3, "table": ""}, 3),
        ("empty private code", {"t": "join", "id": 3, "code": ""}, 3),
        ("empty error code", {"t": "error", "code": "", "message": ""}, None),
        ("error code of 33 characters", {"t": "error", "code": "c" * 33, "message": ""}, None),
        ("error message of 501 characters",
         {"t": "error", "code": "x", "message": "m" * 501}, None),
        ("bye reason empty", {"t": "bye", "reason": ""}, None),
        ("empty move kind", with_(mv, move={"kind": ""}), 9),
        ("move kind of 33 characters", with_(mv, move={"kind": "k" * 33}), 9),
        ("move card of 33 characters", with_(mv, move={"kind": "lose", "card": "c" * 33}), 9),
        # values not among the allowed ones
        ("say scope not lobby or table", {"t": "say", "id": 4, "text": "hi", "scope": "world"},
         4),
        ("unknown variant", with_(ct, options={"seats": 2, "variant": "reformation"}), 2),
        ("unknown on_disconnect", with_(ct, options={"seats": 2, "on_disconnect": "kick"}), 2),
        # lists too long
        ("move cards of 5 items",
         with_(mv, move={"kind": "keep", "cards": ["duke"] * 5}), 9),
        ("error versions of 17 items",
         {"t": "error", "code": "x", "message": "", "versions": list(range(1, 18))}, None),
        # records
        ("get_game without game", {"t": "get_game", "id": 11}, 11),
        ("get_game of game 0 (ids start at 1)", {"t": "get_game", "id": 11, "game": 0}, 11),
        ("a string for a game id", {"t": "get_game", "id": 11, "game": "12"}, 11),
        ("list_games before game 0", {"t": "list_games", "id": 10, "before": 0}, 10),
        ("get_game with max_frame 65535 (below the least every peer accepts)",
         {"t": "get_game", "id": 11, "game": 12, "max_frame": 65535}, 11),
        ("list_games for an empty name", {"t": "list_games", "id": 10, "player": ""}, 10),
        ("list_games for a name of 33 characters",
         {"t": "list_games", "id": 10, "player": "n" * 33}, 10),
        # ratings
        ("get_leaderboard from a negative offset",
         {"t": "get_leaderboard", "id": 15, "offset": -1}, 15),
        ("get_profile without a name", {"t": "get_profile", "id": 16}, 16),
    ]
    cases = [err(n, s, pack(o), "bad_message", re=re) for n, o, re in server_cases]

    snap = {"t": "snapshot", "table": "k7tq2m", "view": VIEW, "players": SEATS[:3],
            "deadlines": DEADLINES}
    upd = {"t": "update", "table": "k7tq2m", "view": VIEW, "events": EVENTS, "deadlines": []}
    hands = list(VIEW["hands"])
    hands[0] = ["duke", "duke", "duke"]
    client_cases = [
        ("missing required field (ok without re)", {"t": "ok"}),
        ("missing required field (joined without table)", {"t": "joined", "re": 1}),
        ("missing required field (move_rejected without state_id)",
         {"t": "move_rejected", "re": 1, "code": "bad_move", "message": ""}),
        ("missing required field (view without winner)",
         with_(snap, view=without(VIEW, "winner"))),
        ("missing required nullable field (view without blocker: it must be there, "
         "nil or not)", with_(snap, view=without(VIEW, "blocker"))),
        ("missing required field (seat info without away)",
         with_(snap, players=[without(SEATS[0], "away")])),
        ("missing required field (table summary without status)",
         {"t": "table", "info": without(SUMMARY, "status")}),
        ("nil for a required non-nullable field (view state_id)",
         with_(snap, view=with_(VIEW, state_id=None))),
        ("unknown phase", with_(snap, view=with_(VIEW, phase="lobby"))),
        ("unknown step", with_(snap, view=with_(VIEW, step="block_block"))),
        ("unknown card in a hand", with_(snap, view=with_(VIEW, hands=[["joker"], None, None]))),
        ("a hand of 3 cards", with_(snap, view=with_(VIEW, hands=hands))),
        ("coins over 1000", with_(snap, view=with_(VIEW, coins=[1001, 2, 2]))),
        ("influence 3", with_(snap, view=with_(VIEW, influence=[3, 2, 2]))),
        ("a string seat in waiting", with_(snap, view=with_(VIEW, waiting=["1"]))),
        ("11 seats of coins", with_(snap, view=with_(VIEW, coins=[2] * 11))),
        ("deadline ms over an hour", with_(snap, deadlines=[{"seat": 1, "ms": 3_600_001}])),
        ("11 deadlines", with_(snap, deadlines=[{"seat": 1, "ms": 1}] * 11)),
        ("reveal that is not a view", with_(snap, reveal={"seat": None})),
        ("unknown event kind", with_(upd, events=[{"kind": "explode", "seat": 0}])),
        ("event without kind", with_(upd, events=[{"seat": 0}])),
        ("event with 5 cards", with_(upd, events=[{"kind": "drew", "seat": 0,
                                                   "cards": ["duke"] * 5}])),
        ("event with an unknown action", with_(upd, events=[{"kind": "fail", "seat": 0,
                                                             "action": "dance"}])),
        ("65 events", with_(upd, events=[{"kind": "pass", "seat": 1}] * 65)),
        ("unknown table status", {"t": "table", "info": with_(SUMMARY, status="closed")}),
        ("unknown presence status",
         {"t": "presence", "table": "k7tq2m", "seat": 1, "status": "gone"}),
        ("chat scope not lobby or table",
         {"t": "chat", "scope": "world", "name": "bob", "text": "hi"}),
        ("chat without name", {"t": "chat", "scope": "lobby", "text": "hi"}),
        ("joined token of 65 characters", {"t": "joined", "table": "k7tq2m", "token": "k" * 65}),
        ("tables is a map", {"t": "tables", "tables": {}}),
        ("games without re", {"t": "games", "games": []}),
        ("21 games in a page", {"t": "games", "re": 10, "games": [GAME_LINE] * 21}),
        ("a record move by someone unknown",
         {"t": "game_record", "re": 11, "record": with_(
             RECORD, moves=[with_(RECORD["moves"][0], by="ghost")])}),
        ("a record without its seed",
         {"t": "game_record", "re": 11, "record": without(RECORD, "seed")}),
        ("a record of another format",
         {"t": "game_record", "re": 11, "record": with_(RECORD, format="pgn")}),
        ("paused without message", {"t": "paused", "table": "k7tq2m", "paused": True}),
        # each field fits its spec, but the view does not agree with itself (PROTOCOL.md, The
        # view): a three-seat game's
        ("coins of 2 seats in a view of 3", with_(snap, view=with_(VIEW, coins=[2, 2]))),
        ("the viewer's seat past the table's", with_(snap, view=with_(VIEW, seat=3))),
        ("a seat twice in waiting", with_(snap, view=with_(VIEW, waiting=[1, 1]))),
        ("an Inquisitor in a base game's hand",
         with_(snap, view=with_(VIEW, hands=[[VIEW["hands"][0][0], "inquisitor"], None,
                                              None]))),
        ("a deadline for a seat past the table's",
         with_(snap, deadlines=[{"seat": 5, "ms": 1000}])),
        ("an event's target past the table's",
         with_(upd, events=[{"kind": "action", "seat": 0, "action": "coup", "target": 7}])),
    ]
    cases += [err(n + " (client)", c, pack(o), "bad_message", re=None) for n, o in client_cases]
    return cases


FILES = {
    "valid_server": valid_server,
    "valid_client": valid_client,
    "streams": streams,
    "ignored": ignored,
    "bad_frame": bad_frame,
    "frame_too_large": frame_too_large,
    "handshake": handshake,
    "unknown_type": unknown_type,
    "bad_message": bad_message,
}


def build() -> dict[str, str]:
    """Every vector file's name and text."""
    out = {}
    for name, make in FILES.items():
        cases = make()
        names = [c["name"] for c in cases]
        assert len(names) == len(set(names)), f"duplicate case names in {name}"
        out[f"{name}.json"] = json.dumps(cases, ensure_ascii=False, indent=1) + "\n"
    return out


def main() -> None:
    VECTORS.mkdir(exist_ok=True)
    total = 0
    for filename, text in build().items():
        (VECTORS / filename).write_text(text, encoding="utf-8")
        total += len(json.loads(text))
    print(f"{total} cases in {len(FILES)} files under {VECTORS}")


if __name__ == "__main__":
    main()
