"""The fan-out ceiling: what a server that knows no rules gets under the server benchmark's load.

    python -m benchmarks.fanout [--tables N] [--seconds S] [--json]

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

Figures (`--json` prints exactly these keys):

    tables, moves, moves_per_s, latency_p50_ms, latency_p99_ms
    relay_cpu_us            the relay's CPU time per move
    bots_cpu_us             the load generator's CPU time per move
    rules_cpu_us            the rules' own CPU time per move (3.)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

import msgpack
import trio

from engine import Game, Move, Options, View, legal_moves, summarize, visible_to
from engine.views import public_dict, view_dict
from protocol import Connection, Hello, MoveRequest, Role, UpdateFrames, Welcome

from .server import (
    Child, Peer, cpu_seconds, drive, open_sockets, process_cpu_seconds, raise_file_limit,
)


def _views() -> list[dict]:
    """Each seat's view of a fresh four-player game, as the wire carries it."""
    game = Game.new(Options(players=4), 1)
    return [game.view(seat).to_dict() for seat in range(4)]


def _relay_main(pipe) -> None:
    """The relay's process: serve until the parent says stop."""
    raise_file_limit()
    views = _views()
    packb = msgpack.Packer().pack
    tables: dict[int, list[int | None]] = {}

    def update(fds: list[int | None], state_id: int) -> None:
        seat_to_move = state_id % 4
        for seat, fd in enumerate(fds):
            assert fd is not None  # updates start once every seat has sat
            view = dict(views[seat], state_id=state_id, opened=state_id, actor=seat_to_move,
                        waiting=[seat_to_move])
            try:
                os.write(fd, packb({"t": "update", "table": "relay", "view": view,
                                    "events": [], "deadlines": []}))
            except OSError:  # a bot that hung up at the end of the run
                pass

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
                    fds = tables.setdefault(msg["table"], [None] * 4)
                    fds[msg["seat"]] = fd
                    if None not in fds:
                        update(fds, 0)
                else:
                    assert fds is not None  # a bot sits before it moves
                    update(fds, msg["state_id"] + 1)

    async def run() -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        async with trio.open_nursery() as nursery:
            await nursery.start(trio.serve_listeners, handler, listeners)
            pipe.send(("port", listeners[0].socket.getsockname()[1]))
            await trio.to_thread.run_sync(pipe.recv)
            nursery.cancel_scope.cancel()

    trio.run(run)
    pipe.send(("done", {}))


class RelayBot(Peer):
    """A seat at the relay: on its turn, the engine's legal moves on its view, one at random."""

    def __init__(self, sock, table: int, seat: int, rng: random.Random, latencies: list,
                 end: float) -> None:
        super().__init__(sock)
        self.table = table
        self.seat = seat
        self.rng = rng
        self.latencies = latencies
        self.end = end
        self.sent: tuple[int, float] | None = None  # (state_id moved at, when)

    def start(self) -> None:
        self.send({"t": "sit", "table": self.table, "seat": self.seat})

    def received(self, msg: dict) -> None:
        data = msg["view"]
        if self.sent is not None and data["state_id"] > self.sent[0]:
            self.latencies.append(time.perf_counter() - self.sent[1])
            self.sent = None
        if self.seat in data["waiting"] and time.perf_counter() < self.end:
            view = View.from_dict(data)
            moves = legal_moves(view, self.seat)
            chosen = moves[int(self.rng.random() * len(moves))]
            self.sent = (view.state_id, time.perf_counter())
            self.send({"t": "move", "id": view.state_id, "state_id": view.state_id,
                       "move": chosen.to_dict()})


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
                        server_id="rules"))
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


def measure(tables: int, seconds: float, seed: int) -> dict:
    raise_file_limit()
    relay = Child(_relay_main)
    try:
        port = relay.port()
        socks, failed = trio.run(open_sockets, port, tables * 4)
        if failed:
            raise RuntimeError(f"{failed} connections failed")
        rng = random.Random(seed)
        latencies: list[float] = []
        start = time.perf_counter()
        end = start + seconds
        bots = [RelayBot(sock, i // 4, i % 4, random.Random(rng.getrandbits(64)), latencies,
                         end) for i, sock in enumerate(socks)]
        relay_before = process_cpu_seconds(relay.pid)
        bots_cpu = cpu_seconds()
        drive(bots, end)  # every table plays until the end: the bots are cut off there
        bots_cpu = cpu_seconds() - bots_cpu
        relay_after = process_cpu_seconds(relay.pid)
        if relay_before is None or relay_after is None:
            raise RuntimeError("the relay's CPU time cannot be read (no /proc)")
        relay_cpu = relay_after - relay_before
    finally:
        relay.stop()
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
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=500, help="tables of 4 bots (default 500)")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long they play")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=1, help="the bots' random choices")
    args = parser.parse_args(argv)
    result = measure(max(1, args.tables), args.seconds, args.seed)
    if args.json:
        print(json.dumps(result))
        return
    print(f"fan-out ceiling: a relay with no rules, {result['tables']} tables of 4 bots "
          f"({result['tables'] * 4} connections), {args.seconds:g} s")
    for key, value in result.items():
        shown = f"{value:,.2f}" if isinstance(value, float) else f"{value:,}"
        print(f"  {key:<18}{shown:>12}")


if __name__ == "__main__":
    main()
