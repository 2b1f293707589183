"""The fan-out ceiling: what a server that knows no rules gets under the server benchmark's load.

    python -m benchmarks.fanout [--tables N] [--seconds S] [--think S] [--store]
                                [--hold MS] [--json]

`benchmarks.server` compares the game server with a bare echo, which writes one frame per
message. A move is dearer by nature: one frame in, and an update out to each of the four
seats. This program measures that floor on this machine, so that the game server's latency
can be read against what any one-process trio server could do:

1. **The relay** (its own process, spawned): a trio server with no rules, views, checks or
   sessions. Connections sit at tables of four ("sit": table, seat); each move a seat sends
   is answered at once by an update to all four seats, written straight to their sockets as
   the game server writes them, naming the next seat as the one to move. The updates are a
   real game's views (the state id and the seat to move change), packed per viewer.
2. **The bots**: 4 N connections on the server benchmark's bare epoll loop (`drive`). Each
   unpacks every frame and, when its seat is to move, builds the engine's `View` and its
   legal moves and sends a random one, exactly as the server benchmark's bots do; the
   latency is the same: move sent → the update carrying its result received.

3. **The rules alone**, in this process with no I/O: what the game server does for a move
   that the relay does not, timed over random 4-seat games replayed move by move: the
   move's frame decoded and checked as a client's is (`Connection` on the server's side),
   the move applied by the engine, and each seat's update built as `Table._after_move`
   builds it (public and own views, the events each seat may see, `UpdateFrames`, the
   summary at the end). The relay's figure plus this one is about the least a game server
   written like this one could spend a move; the sockets, sessions, tasks and the store
   come on top.

4. **At human pace** (`--think S`): each bot thinks a time drawn from an exponential of
   mean S before it moves, as `benchmarks.capacity`'s people do, so that a move arrives
   alone and costs its own wake of the loop. With `--store` the relay keeps what a move
   changes as the game server does, before anyone sees it: the server's own recorder and
   store (server/recorder.py, server/store.py, a fresh file, `synchronous=FULL`) take a
   `MovePlayed` a move, and the recorder sends the four updates once it is on the disk;
   `--hold MS` sets the recorder's hold for company (its HOLD; 0 writes each hand-over as
   it comes); `--store nothing` runs the recorder and its writer thread, which write
   nothing. The relay's CPU a move with the store less without is the least the store's
   share can be in a server built like this one, and its latency the least a move waits;
   with `nothing`, what the hand-overs alone cost, before SQLite and the disk.
   `--spectator` seats a fifth connection at each table that only watches (it gets the
   update too), as at `benchmarks.capacity`'s tables.

Figures (`--json` prints exactly these keys):

    tables, moves, moves_per_s, latency_p50_ms, latency_p99_ms
    relay_cpu_us            the relay's CPU time per move
    bots_cpu_us             the load generator's CPU time per move
    rules_cpu_us            the rules' own CPU time per move (3.)
    commits                 with --store: the store's commits, warm-up included (else 0)
    moves_a_commit          the moves sent, warm-up included, a commit (0 without --store)
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import shutil
import tempfile
import time

import msgpack
import trio

from engine import Game, Move, Options, View, legal_moves, summarize, visible_to
from engine.views import public_dict, view_dict
from protocol import Connection, Hello, MoveRequest, Role, UpdateFrames, Welcome
from server import recorder as recording
from server.changes import MovePlayed
from server.store import Store

from .server import (
    Child, Loop, Peer, cpu_seconds, open_sockets, process_cpu_seconds, raise_file_limit,
)


def _views() -> list[dict]:
    """Each seat's view of a fresh four-player game, as the wire carries it, and last a
    spectator's."""
    game = Game.new(Options(players=4), 1)
    return [game.view(seat).to_dict() for seat in (0, 1, 2, 3, None)]


class _Socket:
    """A seat's socket as the recorder sends to it (it calls `send` with the frames)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def send(self, *frames: bytes) -> None:
        try:
            os.write(self.fd, b"".join(frames))
        except OSError:  # a bot that hung up at the end of the run
            pass


class _Table:
    """A relay table as the recorder's `Waiting`: it plays on while its moves are written."""

    def pause(self, why: str) -> None:
        raise RuntimeError(f"the relay's store failed: {why}")

    def resume(self) -> None:
        pass

    def delivered(self) -> None:
        pass


def _relay_main(pipe, store_path: str | None = None, hold: float | None = None,
                written: bool = True, spectator: bool = False) -> None:
    """The relay's process: serve until the parent says stop. With `store_path`, each
    move's updates wait for its `MovePlayed` to be on the disk (4. in the docstring), or,
    not `written`, for the recorder's writer thread to have done nothing with it."""
    raise_file_limit()

    class Counted(Store):
        """The server's store, counting its commits."""
        commits = 0

        def write(self, changes) -> None:
            Counted.commits += 1
            if written:
                super().write(changes)

    if hold is not None:
        recording.HOLD, recording.BUSY = hold, 2 * hold
    store = Counted(store_path) if store_path else None
    record = recording.Recorder(store) if store else None
    views = _views()
    packb = msgpack.Packer().pack
    tables: dict[int, list[int | None]] = {}
    waiting = _Table()
    began = time.monotonic()

    def update(fds: list[int | None], state_id: int, table: int = 0,
               move: dict | None = None) -> None:
        seat_to_move = state_id % 4
        frames = []
        for seat, fd in enumerate(fds):
            assert fd is not None  # updates start once every seat has sat
            view = dict(views[seat], state_id=state_id, opened=state_id, actor=seat_to_move,
                        waiting=[seat_to_move])
            frames.append((_Socket(fd), (packb({"t": "update", "table": "relay", "view": view,
                                                "events": [], "deadlines": []}),)))
        if record is None or move is None:
            for socket, frame in frames:
                socket.send(*frame)
            return
        played = MovePlayed(game=table, n=state_id, seat=(state_id - 1) % 4, move=move,
                            state_id=state_id, ms=int((time.monotonic() - began) * 1000),
                            by="player")
        record.deliver([played], frames, waiting)

    async def handler(stream: trio.SocketStream) -> None:
        fd = stream.socket.fileno()
        unpacker = msgpack.Unpacker(raw=False)
        fds: list[int | None] | None = None  # its table's sockets, by seat
        while True:
            await trio.lowlevel.wait_readable(fd)
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                continue
            except OSError:
                return
            if not data:
                return
            unpacker.feed(data)
            for msg in unpacker:
                if msg["t"] == "sit":
                    table = msg["table"]
                    fds = tables.setdefault(table, [None] * (5 if spectator else 4))
                    fds[msg["seat"]] = fd
                    if None not in fds:
                        update(fds, 0)
                else:
                    assert fds is not None  # a bot sits before it moves
                    update(fds, msg["state_id"] + 1, table, msg["move"])

    async def run() -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        async with trio.open_nursery() as nursery:
            if record is not None:
                await nursery.start(record.run)
            await nursery.start(trio.serve_listeners, handler, listeners)
            pipe.send(("port", listeners[0].socket.getsockname()[1]))
            await trio.to_thread.run_sync(pipe.recv)
            nursery.cancel_scope.cancel()

    trio.run(run)
    if store is not None:
        store.close()
    pipe.send(("done", {"commits": Counted.commits}))


class RelayBot(Peer):
    """A seat at the relay: on its turn, the engine's legal moves on its view, one at random;
    with a think time, once it has thought (`thinking`, run by `play`)."""

    def __init__(self, sock, table: int, seat: int, rng: random.Random, latencies: list,
                 end: float, think: float = 0.0, thinking: list | None = None) -> None:
        super().__init__(sock)
        self.table = table
        self.seat = seat
        self.rng = rng
        self.latencies = latencies
        self.end = end
        self.think = think
        self.thinking = thinking
        self.sent: tuple[int, float] | None = None  # (state_id moved at, when)
        self.moves = 0  # sent, in the warm-up too

    def start(self) -> None:
        self.send({"t": "sit", "table": self.table, "seat": self.seat})

    def received(self, msg: dict) -> None:
        data = msg["view"]
        if self.sent is not None and data["state_id"] > self.sent[0]:
            self.latencies.append(time.perf_counter() - self.sent[1])
            self.sent = None
        if self.seat in data["waiting"] and time.perf_counter() < self.end:
            view = View.from_dict(data)
            if self.think and self.thinking is not None:
                due = time.perf_counter() + self.rng.expovariate(1 / self.think)
                heapq.heappush(self.thinking, (due, id(self), self, view))
            else:
                self.move(view)

    def move(self, view: View) -> None:
        moves = legal_moves(view, self.seat)
        chosen = moves[int(self.rng.random() * len(moves))]
        self.sent = (view.state_id, time.perf_counter())
        self.moves += 1
        self.send({"t": "move", "id": view.state_id, "state_id": view.state_id,
                   "move": chosen.to_dict()})


def play(bots: list[RelayBot], thinking: list, until: float, marks: list) -> None:
    """As `server.drive`, and each bot's move once its think time is up; each of `marks`, a (when,
    what) in order, is called once its time has come."""
    loop = Loop(bots)
    try:
        while loop.live:
            now = time.perf_counter()
            while marks and marks[0][0] <= now:
                marks.pop(0)[1]()
            while thinking and thinking[0][0] <= now:
                _, _, bot, view = heapq.heappop(thinking)
                loop.guarded(bot, bot.move, view)
            if now >= until:
                return
            wake = min(until, thinking[0][0] if thinking else until,
                       marks[0][0] if marks else until)
            loop.poll(wake - now)
    finally:
        loop.close()


def rules_cpu_us(games: int, seed: int) -> float:
    """The rules' own CPU time a move, in microseconds (3. in the module docstring)."""
    rng = random.Random(seed)
    played = []  # (seed, [(seat, frame of the move request)]) of each game
    for _ in range(games):
        game_seed = rng.getrandbits(32)
        game = Game.new(Options(players=4), game_seed)
        moves = []
        while not game.over:
            seat = rng.choice(game.waiting)
            move = rng.choice(game.legal_moves(seat))
            moves.append((seat, msgpack.packb({"t": "move", "id": 1, "state_id": game.state_id,
                                               "move": move.to_dict()})))
            game.apply(seat, move)
        played.append((game_seed, moves))
    hello = Connection(Role.CLIENT)
    server = Connection(Role.SERVER)
    server.receive_data(hello.send(Hello(versions=[1], client="rules", name="rules")))
    server.next_message()
    server.send(Welcome(version=1, server="rules", name="rules", nonce="0" * 64,
                        server_id="0" * 32))
    count = 0
    spent = time.process_time()
    for game_seed, moves in played:
        game = Game.new(Options(players=4), game_seed)
        for seat, frame in moves:
            server.receive_data(frame)
            msg = server.next_message()
            assert isinstance(msg, MoveRequest)  # every frame played is a move
            events = game.apply(seat, Move.from_dict(msg.move), msg.state_id)
            summary = summarize(game) if game.over else None
            as_dicts = {e: e.to_dict() for e in events}
            updates = UpdateFrames("t1", public_dict(game), list(as_dicts.values()), [],
                                   game.reveal().to_dict() if game.over else None, summary)
            for viewer in (0, 1, 2, 3, None):  # four seats and a spectator
                updates.frame(view_dict(game, viewer, {}),
                              [as_dicts[e] for e in visible_to(events, viewer)])
            count += 1
    return round((time.process_time() - spent) / count * 1e6, 1)


def measure(tables: int, seconds: float, seed: int, think: float = 0.0,
            store: str | None = None, hold: float | None = None, warmup: float = 0.0,
            spectator: bool = False) -> dict:
    """The relay under `tables` tables of bots for `seconds` (after `warmup` seconds of
    play, not measured), flat out or thinking `think` seconds a move, with or without the
    server's store (4. in the docstring): `store` is "file" or "nothing" (the recorder
    writing nothing), or None. With `spectator`, each table has a fifth connection that
    only watches, as `benchmarks.capacity`'s do."""
    raise_file_limit()
    folder = tempfile.mkdtemp(prefix="coup-relay-") if store else None
    relay = Child(_relay_main, os.path.join(folder, "relay.db") if folder else None, hold,
                  store == "file", spectator)
    each = 5 if spectator else 4
    window: dict[str, float | None] = {}
    latencies: list[float] = []
    try:
        port = relay.port()
        socks, failed = trio.run(open_sockets, port, tables * each)
        if failed:
            raise RuntimeError(f"{failed} connections failed")
        rng = random.Random(seed)
        thinking: list = []
        start = time.perf_counter()
        end = start + warmup + seconds
        bots = [RelayBot(sock, i // each, i % each, random.Random(rng.getrandbits(64)), [], end,
                         think, thinking) for i, sock in enumerate(socks)]

        def mark(at: str) -> None:
            window[f"relay_{at}"] = process_cpu_seconds(relay.pid)
            window[f"bots_{at}"] = cpu_seconds()
            for bot in bots:  # the window's moves are those sent from here on
                bot.latencies = latencies if at == "before" else []

        play(bots, thinking, end, [(start + warmup, lambda: mark("before")),
                                   (end, lambda: mark("after"))])
        if len(window) < 4:
            mark("after")
        if window["relay_before"] is None or window["relay_after"] is None:
            raise RuntimeError("the relay's CPU time cannot be read (no /proc)")
        relay_cpu = window["relay_after"] - window["relay_before"]
        bots_cpu = (window["bots_after"] or 0.0) - (window["bots_before"] or 0.0)
        sent = sum(bot.moves for bot in bots)
    finally:
        report = relay.stop()
        if folder:
            shutil.rmtree(folder)
    commits = report.get("commits", 0)
    lat = sorted(latencies)
    moves = len(lat)

    def pct(p: float) -> float:
        return round(lat[min(moves - 1, int(p * moves))] * 1000, 2) if lat else 0.0

    return {
        "tables": tables,
        "moves": moves,
        "moves_per_s": round(moves / seconds, 1),
        "latency_p50_ms": pct(0.50),
        "latency_p99_ms": pct(0.99),
        "relay_cpu_us": round(relay_cpu / moves * 1e6, 1) if moves else 0.0,
        "bots_cpu_us": round(bots_cpu / moves * 1e6, 1) if moves else 0.0,
        "rules_cpu_us": rules_cpu_us(300, seed),
        "commits": commits,
        "moves_a_commit": round(sent / commits, 2) if commits else 0.0,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=500, help="tables of 4 bots (default 500)")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long they play")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=1, help="the bots' random choices")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a bot thinks before a move (default 0: flat out)")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds of play before the measure (default 5 if --think)")
    parser.add_argument("--store", nargs="?", const="file", choices=("file", "nothing"),
                        help="keep each move in the server's store before its updates "
                             "(nothing: its recorder, writing nothing)")
    parser.add_argument("--spectator", action="store_true",
                        help="a fifth connection at each table that only watches")
    parser.add_argument("--hold", type=float, default=None,
                        help="with --store, the recorder's hold for company in ms "
                             f"(default {recording.HOLD * 1000:g})")
    args = parser.parse_args(argv)
    think = max(0.0, args.think)
    warmup = args.warmup if args.warmup is not None else (5.0 if think else 0.0)
    hold = None if args.hold is None else max(0.0, args.hold) / 1000
    result = measure(max(1, args.tables), args.seconds, args.seed, think, args.store, hold,
                     max(0.0, warmup), args.spectator)
    if args.json:
        print(json.dumps(result))
        return
    pace = f"thinking {think:g} s a move" if think else "flat out"
    store = "" if args.store is None else (
        f", the store{' writing nothing' if args.store == 'nothing' else ''} (hold "
        f"{(recording.HOLD if hold is None else hold) * 1000:g} ms)")
    each = 5 if args.spectator else 4
    print(f"fan-out ceiling: a relay with no rules, {result['tables']} tables of 4 bots"
          f"{' and a spectator' if args.spectator else ''} ({result['tables'] * each} "
          f"connections), {pace}{store}, {args.seconds:g} s "
          f"(load average {[round(x, 2) for x in os.getloadavg()]})")
    for key, value in result.items():
        shown = f"{value:,.2f}" if isinstance(value, float) else f"{value:,}"
        print(f"  {key:<18}{shown:>12}")


if __name__ == "__main__":
    main()
