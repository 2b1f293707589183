"""Scaffolding for the protocol tests: a connected client/server pair and sample messages.

`ConnectionPair` is a client `Connection` and a server `Connection` wired back to back, in
the manner of h11's tests/helpers.py: whatever one side sends is fed to the other, and the
messages the other side reads come back to the test. `get_all_messages` drains one side.

`one_of_each()` gives one valid, realistic instance of every message class in
`protocol.messages.ALL` (real engine views and events for `snapshot` and `update`, a
realistic table summary, real moves); `variants()` adds, for every class, the instance with
only its required fields and the one with every optional field set, for round trips.
Every call builds fresh objects, so a test may mutate what it gets.
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import MISSING, fields
from typing import Any

from engine import Event, Game, Options, record, visible_to
from protocol import (
    ALL, BY_TYPE, CONNECTION_CLOSED, NEED_DATA, VERSIONS, Bye, Chat, Connection, CreateTable,
    Error, GameRecord, Games, GetGame, Hello, Join, Joined, Leave, ListGames, ListTables,
    MoveAccepted, MoveRejected, MoveRequest, Ok, Paused, Ping, Pong, Presence, Queue, Queued,
    QueueStatus, Ready, Rematch, Role, Say, Snapshot, Start, State, TableInfo, Tables, Unqueue,
    Update, Welcome, choose_version,
)
from protocol.messages import (
    Ban, CloseTable, EnterTournament, GetLeaderboard, GetProfile, Identified, Identify, Kick,
    Leaderboard, LeaveTournament, Message, Mute, OpenTournament, Profile, StartTournament,
    StopTournament, Tournament, Via,
)

#: Every wire type: what `codec.decode` accepts when a test does not care about direction.
ACCEPT_ALL: frozenset[str] = frozenset(BY_TYPE)

TABLE = "t7"
PLAYER_NAMES = ("ana", "bruno", "chen", "dara", "eli", "fern")


# --------------------------------------------------------------------------- connections


def get_all_messages(conn: Connection) -> list[Message]:
    """Every complete message `conn` holds now (stops at NEED_DATA or CONNECTION_CLOSED)."""
    got: list[Message] = []
    while True:
        msg = conn.next_message()
        if msg is NEED_DATA or msg is CONNECTION_CLOSED:
            return got
        got.append(msg)


def receive_and_get(conn: Connection, data: bytes) -> list[Message]:
    """Feed `data` to `conn` and return every message that completes."""
    conn.receive_data(data)
    return get_all_messages(conn)


def serve(
    server: Connection, chunks: Iterable[bytes], welcome: Welcome | None = None
) -> list[Message]:
    """Feed `chunks` one at a time to a server-side connection, answering hello with
    `welcome` the moment it is read (as a real server must before reading on). Empty
    chunks are skipped: b"" would mean the end of the stream."""
    welcome = welcome or Welcome(version=VERSIONS[-1], server="coupd/test")
    got: list[Message] = []
    for chunk in chunks:
        if not chunk:
            continue
        server.receive_data(chunk)
        while True:
            msg = server.next_message()
            if msg is NEED_DATA or msg is CONNECTION_CLOSED:
                break
            got.append(msg)
            if isinstance(msg, Hello):
                server.send(welcome)
    return got


class ConnectionPair:
    """A client and a server connection that push their bytes into each other."""

    def __init__(
        self,
        *,
        client_versions: tuple[int, ...] = VERSIONS,
        server_versions: tuple[int, ...] = VERSIONS,
        client_max_frame: int | None = None,
        server_max_frame: int | None = None,
    ) -> None:
        ckw: dict[str, Any] = {"versions": client_versions}
        skw: dict[str, Any] = {"versions": server_versions}
        if client_max_frame is not None:
            ckw["max_frame"] = client_max_frame
        if server_max_frame is not None:
            skw["max_frame"] = server_max_frame
        self.client = Connection(Role.CLIENT, **ckw)
        self.server = Connection(Role.SERVER, **skw)

    def conn(self, role: Role) -> Connection:
        return self.client if role is Role.CLIENT else self.server

    def other(self, role: Role) -> Connection:
        return self.server if role is Role.CLIENT else self.client

    def send(
        self, role: Role, msgs: Message | Sequence[Message], expect: Any = "match"
    ) -> list[Message]:
        """`role` sends `msgs`; return what the other side reads from the bytes.

        `expect="match"` asserts the other side read exactly `msgs`; a list asserts it
        read that list; None checks nothing."""
        if isinstance(msgs, Message):
            msgs = [msgs]
        data = b"".join(self.conn(role).send(m) for m in msgs)
        got = receive_and_get(self.other(role), data)
        if expect == "match":
            assert got == list(msgs)
        elif expect is not None:
            assert got == expect
        return got

    def handshake(self, hello: Hello | None = None, welcome: Welcome | None = None) -> None:
        """hello one way, welcome the other: both sides OPEN on the same version."""
        hello = hello or Hello(versions=list(self.client.versions), client="coup-test/1.0")
        self.send(Role.CLIENT, hello)
        if welcome is None:
            version = choose_version(hello.versions, self.server.versions)
            assert version is not None
            welcome = Welcome(version=version, server="coupd/test")
        self.send(Role.SERVER, welcome)
        assert self.client.state is State.OPEN
        assert self.server.state is State.OPEN
        assert self.client.version == self.server.version == welcome.version


def open_pair(**kwargs: Any) -> ConnectionPair:
    """A pair whose handshake is done."""
    pair = ConnectionPair(**kwargs)
    pair.handshake()
    return pair


# --------------------------------------------------------------------------- engine data


def _pick(rnd: random.Random, items: Sequence[Any]) -> Any:
    return items[int(rnd.random() * len(items))]


@functools.cache
def _mid_game(players: int, seed: int) -> tuple[dict, list[dict], list[int], list[dict]]:
    """A random game played until seat 0 sees a busy move (≥ 3 events) with most of the
    table alive: seat 0's view, the events it saw, who is waiting, and its move offer."""
    g = Game.new(Options(players=players), seed)
    rnd = random.Random(seed)
    moves = 0
    while not g.over:
        seat = _pick(rnd, g.waiting)
        events = g.apply(seat, _pick(rnd, g.legal_moves(seat)))
        moves += 1
        seen = visible_to(events, 0)
        view = g.view(0)
        if moves >= 15 and len(seen) >= 3 and sum(view.alive) >= players - 1 and view.alive[0]:
            offer = [m.to_dict() for m in g.legal_moves(g.waiting[0])]
            return view.to_dict(), [e.to_dict() for e in seen], list(g.waiting), offer
    raise AssertionError(f"seed {seed} never reached a busy mid-game state")


@functools.cache
def _finished_game(players: int, seed: int) -> tuple[dict, list[dict], dict]:
    """A random game played to its end: seat 0's last view, the last events it saw (the
    win among them) and the full reveal."""
    g = Game.new(Options(players=players), seed)
    rnd = random.Random(seed)
    events: list[Event] = []
    while not g.over:
        seat = _pick(rnd, g.waiting)
        events = g.apply(seat, _pick(rnd, g.legal_moves(seat)))
    return g.view(0).to_dict(), [e.to_dict() for e in visible_to(events, 0)], g.reveal().to_dict()


@functools.cache
def _recorded_game(players: int, seed: int) -> dict:
    """A random game played to its end, as its record (engine.record's format), with a
    person's seat, a bot's seat and a take-over."""
    g = Game.new(Options(players=players), seed)
    rnd = random.Random(seed)
    moves = []
    while not g.over:
        seat = _pick(rnd, g.waiting)
        move = _pick(rnd, g.legal_moves(seat))
        moves.append({"seat": seat, "move": move.to_dict(), "state_id": g.state_id,
                      "ms": 2500 * len(moves), "by": "bot" if seat == 1 else "player"})
        g.apply(seat, move, g.state_id)
    players_ = [{"seat": s, "name": f"player {s}", "bot": None} for s in range(players)]
    players_[1] = {"seat": 1, "name": None, "bot": "heuristic"}
    return record.make(
        game=17, table=TABLE, table_name="Friday night", number=2, options=g.options.to_dict(),
        seed=seed, players=players_, started=1_767_225_600.0,
        finished=1_767_225_600.0 + 1.5 * len(moves), moves=moves,
        # a person's seat (seat 1 is the bot's), as a game of two has no seat 2
        takeovers=[{"seat": 2 if players > 2 else 0, "bot": "heuristic", "after": 3,
                    "ms": 7500}],
        result={"winner": g.winner, "out": list(g.exiled)})


def game_record(players: int = 4, seed: int = 3) -> dict:
    """A finished game's record, as `game_record` carries it."""
    return copy.deepcopy(_recorded_game(players, seed))


def game_line(game: int = 17, name: str = "ana") -> dict:
    """A finished game as `games` lists it."""
    return {"game": game, "table": TABLE, "table_name": "Friday night",
            "players": [{"seat": 0, "name": name, "bot": None},
                        {"seat": 1, "name": None, "bot": "heuristic"}],
            "winner": 1, "started": "2026-01-01T00:00:00+00:00",
            "finished": "2026-01-01T00:09:41+00:00", "moves": 142}


@functools.cache
def _long_event_list(players: int, seed: int, count: int) -> list[dict]:
    """The first `count` events of a game as seat 0 saw them (for large updates)."""
    g = Game.new(Options(players=players), seed)
    rnd = random.Random(seed)
    out: list[dict] = []
    while not g.over and len(out) < count:
        seat = _pick(rnd, g.waiting)
        out += [e.to_dict() for e in visible_to(g.apply(seat, _pick(rnd, g.legal_moves(seat))), 0)]
    return out[:count]


def mid_game_view(players: int = 6, seed: int = 9) -> dict:
    """Seat 0's view of a 6-player game mid-way (engine View.to_dict())."""
    return copy.deepcopy(_mid_game(players, seed)[0])


def mid_game_events(players: int = 6, seed: int = 9) -> list[dict]:
    return copy.deepcopy(_mid_game(players, seed)[1])


def mid_game_move(players: int = 6, seed: int = 9) -> dict:
    """A real legal move of the waiting seat, as a client would send it."""
    offer = _mid_game(players, seed)[3]
    targeted = [m for m in offer if "target" in m]
    return copy.deepcopy(targeted[0] if targeted else offer[0])


def deadlines(seats: Iterable[int], ms: int = 14_250) -> list[dict]:
    return [{"seat": s, "ms": ms} for s in seats]


def seat_infos(players: int = 6, *, away: int | None = 4, bot: int | None = 5) -> list[dict]:
    return [
        {
            "seat": i,
            "name": None if i == bot else PLAYER_NAMES[i % len(PLAYER_NAMES)],
            "bot": "cautious" if i == bot else None,
            "ready": True,
            "away": i == away,
        }
        for i in range(players)
    ]


def table_options() -> dict:
    """Table options with every field set, as create_table sends them."""
    return {
        "seats": 6,
        "variant": "base",
        "two_player_draft": False,
        "treasury": 50,
        "response_clock": 15,
        "turn_clock": 60,
        "private": False,
        "name": "Friday night",
        "bots": "cautious",
        "on_disconnect": "bot",
    }


def table_summary(
    table: str = TABLE, status: str = "playing", players: int = 6, name: str = "Friday night"
) -> dict:
    """A table as the lobby lists it: six seats, one bot, one away, a few spectators."""
    options = table_options() | {"seats": players, "name": name}
    return {
        "table": table,
        "name": name,
        "options": options,
        "status": status,
        "seats": seat_infos(players),
        "spectators": 3,
        "creator": "ana",
    }


def mid_game_update(players: int = 6, seed: int = 9) -> Update:
    """The update seat 0 receives after a busy move mid-game."""
    view, events, waiting, _ = _mid_game(players, seed)
    return Update(
        table=TABLE,
        view=copy.deepcopy(view),
        events=copy.deepcopy(events),
        deadlines=deadlines(waiting),
    )


def large_update(players: int = 6, seed: int = 5) -> Update:
    """A large update: the end of a game with the reveal and 64 events (the list's cap)."""
    view, _, reveal = _finished_game(players, seed)
    return Update(
        table=TABLE,
        view=copy.deepcopy(view),
        events=copy.deepcopy(_long_event_list(players, seed, 64)),
        deadlines=[],
        reveal=copy.deepcopy(reveal),
    )


# --------------------------------------------------------------------------- messages


def ranked(rank: int, name: str, bot: bool = False) -> dict:
    """A line of the leaderboard."""
    return {"player": f"bot:{name}" if bot else "key:" + "ab" * 32, "name": name,
            "rank": rank, "ordinal": 12.5 - rank, "mu": 30.25, "sigma": 5.75 + rank,
            "games": 40, "wins": 14}


def one_of_each() -> list[Message]:
    """One valid, realistic instance of every message class, in the order of ALL.

    Nothing here closes a connection except `bye` (the error is a lobby error), so the
    whole list may be sent over an open pair in order, each the right way."""
    view = mid_game_view()
    msgs: list[Message] = [
        Hello(versions=[1], client="coup-tui/0.1.0", name="ana"),
        Welcome(version=1, server="coupd/0.1.0", name="ana", max_frame=65536, nonce="ab" * 32,
                server_id="5e" * 16),
        Identify(id=40, key="c0" * 32, nonce="ab" * 32, server_id="5e" * 16,
                 signature="51" * 64),
        Identified(re=40, name="ana", table=TABLE),
        Via(id=42, address="203.0.113.5", nonce="ab" * 32, server_id="5e" * 16,
            signature="7f" * 64),
        Ping(id=41),
        Pong(re=41),
        Error(code="table_full", message="Every seat of table t7 is taken.", re=12),
        Bye(reason="client_quit", message="See you."),
        ListTables(id=1),
        Tables(
            tables=[table_summary(), table_summary("t8", "waiting", 4, "Beginners")],
            re=1,
        ),
        CreateTable(id=2, options=table_options()),
        Join(id=3, table=TABLE, seat=0),
        Joined(table=TABLE, re=3, seat=0, token="tok-" + "a1b2c3d4" * 4),
        Leave(id=4),
        Ready(id=5, ready=True),
        Start(id=6),
        Rematch(id=7),
        Ok(re=5),
        TableInfo(info=table_summary() | {"code": "KQ7Z", "game": 17}),
        Snapshot(
            table=TABLE,
            view=view,
            players=seat_infos(),
            deadlines=deadlines(view["waiting"]),
        ),
        mid_game_update(),
        MoveRequest(id=8, state_id=view["state_id"], move=mid_game_move()),
        MoveAccepted(re=8, state_id=view["state_id"] + 1),
        MoveRejected(
            re=9,
            code="stale_state",
            message="That move was made against an older state.",
            state_id=view["state_id"],
        ),
        Say(id=10, text="nice bluff, chen", scope="table"),
        Chat(scope="table", name="chen", text="you'll never know", seat=2, table=TABLE),
        Presence(table=TABLE, seat=4, status="away", name="eli"),
        Paused(table=TABLE, paused=True,
               message="The server cannot save this game; play waits, clocks stopped."),
        ListGames(id=11, player="ana"),
        Games(re=11, games=[game_line(18), game_line(17)], next=17),
        GetGame(id=12, game=17),
        GameRecord(re=12, record=game_record()),
        Queue(id=13, seats={"min": 3, "max": 5}, variant="base"),
        Queued(re=13, waiting=2),
        Unqueue(id=14),
        QueueStatus(waiting=3),
        GetLeaderboard(id=15),
        Leaderboard(re=15, players=[ranked(1, "ana"), ranked(2, "heuristic", bot=True)],
                    next=20),
        GetProfile(id=16, name="ana"),
        Profile(re=16, profile=dict(ranked(1, "ana"), recent=[game_line(18)])),
        Kick(id=17, name="eli", table=TABLE, reason="idle"),
        Mute(id=18, name="eli", minutes=30, reason="spam"),
        Ban(id=19, minutes=1440, name="eli", reason="cheating"),
        CloseTable(id=20, table=TABLE, reason="offensive name"),
        OpenTournament(id=21, name="Friday cup", sizes=[2, 3], rounds=2),
        StartTournament(id=22),
        StopTournament(id=23),
        EnterTournament(id=24),
        LeaveTournament(id=25),
        Tournament(name="Friday cup", status="running", entrants=["ana", "chen", "eli"],
                   played=5, scheduled=24, standings=[
                       {"name": "ana", "games": 4, "wins": 3, "win_rate": 0.75,
                        "mean_place": 1.5, "ordinal": 3.2, "forfeits": 0},
                       {"name": "eli", "games": 3, "wins": 0, "win_rate": 0.0,
                        "mean_place": 3.0, "ordinal": -4.1, "forfeits": 1}]),
    ]
    assert [type(m) for m in msgs] == list(ALL), "one_of_each must follow ALL"
    return msgs


def minimal(msg: Message) -> Message:
    """`msg` with every optional field at its default."""
    cls = type(msg)
    return cls(**{f.name: getattr(msg, f.name) for f in fields(cls) if f.default is MISSING})


def variants() -> list[Message]:
    """Every class with only its required fields, realistic, and with every optional set."""
    view, events, reveal = _finished_game(6, 5)
    full: list[Message] = [
        Hello(versions=[1, 2, 3], client="coup-bot/2", name="dara", token="x" * 64),
        Welcome(version=999, server="s" * 64, name="d" * 32, max_frame=2**24),
        Error(code="unsupported_version", message="", re=2**31 - 1, versions=[1, 2]),
        Bye(reason="server_shutdown", message="m" * 500),
        Tables(tables=[], re=0),
        Join(id=0, code="KQ7Z", seat=9, spectate=True),
        Joined(table=TABLE, re=3, seat=None, token=None, code="KQ7Z"),
        Identified(re=40, name="ana", table=TABLE, operator=True),
        Ban(id=19, minutes=0, key="c0" * 32),
        Ban(id=19, minutes=525_600, address="2001:db8::1"),
        Ready(id=5, ready=False),
        Snapshot(table=TABLE, view=view, players=seat_infos(), deadlines=[], reveal=reveal),
        Update(table=TABLE, view=view, events=events, deadlines=[], reveal=reveal),
        MoveRequest(id=1, state_id=0, move={"kind": "keep", "cards": ["duke", "contessa"]}),
        MoveRequest(id=1, state_id=0, move={"kind": "examine_decision", "swap": False}),
        Say(id=10, text="é" * 500, scope="lobby"),
        Chat(scope="lobby", name="n" * 32, text="hi"),
        Presence(table=TABLE, seat=1, status="bot"),
        Paused(table=TABLE, paused=False, message=""),
        ListGames(id=0, before=2**31 - 1, player="N" * 32),
        GetGame(id=0, game=2**31 - 1, max_frame=2**24),
        Games(re=0, games=[game_line(g, "n" * 32) for g in range(20, 0, -1)], next=1),
        GameRecord(re=0, record=game_record(10, 2**64 - 1)),
        Queue(id=0, seats=6, variant="inquisitor"),
        large_update(),
    ]
    realistic = one_of_each()
    return [minimal(m) for m in realistic] + realistic + full


def frame_maps(msgs: Iterable[Message]) -> list[dict]:
    """The wire maps of `msgs` (fresh copies)."""
    return [copy.deepcopy(m.to_wire()) for m in msgs]


def by_sender(sender: str) -> Callable[[Message], bool]:
    """A filter for messages a client (or server) may send."""
    return lambda m: type(m).SENDER in (sender, "both")
