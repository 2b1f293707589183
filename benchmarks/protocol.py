"""The wire's cost per table update: our checked codec next to bare msgpack on the same map.

The message is a realistic `update` for seat 0 of a 6-player table mid-game: the engine's
real view of that seat, the events of a busy move as seat 0 may see them, and the deadline
of the seat that owes a decision. Timed, per message:

    ours   encode(msg) (to_wire + spec check + pack) then codec.decode(unpackb(frame)) (spec
           check + building the dataclass): everything a server and a client do to one
           update besides the socket
    conn   the same encode, then decoding through an open client `Connection`
           (receive_data + next_message: the frame accounting on top of `ours`)
    bare   msgpack.packb(map) + msgpack.unpackb(frame) of the very same map, nothing checked
    check  the compiled spec check alone, once (ours runs it twice: sending and receiving)
    pack   msgpack.packb alone, to compare the check with the encoding it guards

Each figure is the best of `--repeat` runs of `--n` messages on one core (a shared machine
only ever slows a run down). `ratio` = ours / bare, in time per message.

    python -m benchmarks.protocol [--n N] [--repeat R] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

import msgpack

from engine import Game, Options, visible_to
from protocol import Connection, Hello, Role, Update, Welcome, encode
from protocol.codec import _CHECKS, SERVER_SENDS, decode


def table_update(players: int = 6, seed: int = 9) -> Update:
    """Seat 0's update after a busy move (≥ 3 events it may see) with most seats alive."""
    g = Game.new(Options(players=players), seed)
    rnd = random.Random(seed)
    moves = 0
    while not g.over:
        seat = g.waiting[int(rnd.random() * len(g.waiting))]
        legal = g.legal_moves(seat)
        events = visible_to(g.apply(seat, legal[int(rnd.random() * len(legal))]), 0)
        moves += 1
        view = g.view(0)
        if moves >= 15 and len(events) >= 3 and sum(view.alive) >= players - 1 and view.alive[0]:
            return Update(
                table="t7",
                view=view.to_dict(),
                events=[e.to_dict() for e in events],
                deadlines=[{"seat": s, "ms": 14_250} for s in g.waiting],
            )
    raise RuntimeError(f"seed {seed} never reached a busy mid-game state")


def best(fns: dict[str, Callable[[int], None]], n: int, repeat: int) -> dict[str, float]:
    """Seconds per call of each function: the fastest of `repeat` runs of n calls. The runs
    take turns, so that a busy spell of the machine does not fall on one figure only."""
    for fn in fns.values():
        fn(min(n, 1000))  # warm up
    runs: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(max(1, repeat)):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn(n)
            runs[name].append(time.perf_counter() - start)
    return {name: min(r) / n for name, r in runs.items()}


def measure(msg: Update, n: int, repeat: int) -> dict:
    wire = msg.to_wire()
    frame = encode(msg)
    packb, unpackb = msgpack.packb, msgpack.unpackb
    check = _CHECKS[type(msg)]
    assert decode(unpackb(frame), SERVER_SENDS) == msg

    client = Connection(Role.CLIENT)
    client.send(Hello(versions=[1], client="bench"))
    client.receive_data(encode(Welcome(version=1, server="bench")))
    client.next_message()

    def ours(k: int) -> None:
        for _ in range(k):
            decode(unpackb(encode(msg)), SERVER_SENDS)

    def conn(k: int) -> None:
        receive, next_message = client.receive_data, client.next_message
        for _ in range(k):
            receive(encode(msg))
            next_message()

    def bare(k: int) -> None:
        for _ in range(k):
            unpackb(packb(wire))

    def check_only(k: int) -> None:
        for _ in range(k):
            check(wire)

    def pack_only(k: int) -> None:
        for _ in range(k):
            packb(wire)

    t = best(
        {"ours": ours, "conn": conn, "bare": bare, "check": check_only, "pack": pack_only},
        n,
        repeat,
    )
    return {
        "frame_bytes": len(frame),
        "events": len(msg.events),
        "n": n,
        "ours_us": round(t["ours"] * 1e6, 2),
        "conn_us": round(t["conn"] * 1e6, 2),
        "bare_us": round(t["bare"] * 1e6, 2),
        "check_us": round(t["check"] * 1e6, 2),
        "pack_us": round(t["pack"] * 1e6, 2),
        "ours_per_s": round(1 / t["ours"]),
        "conn_per_s": round(1 / t["conn"]),
        "bare_per_s": round(1 / t["bare"]),
        "ratio": round(t["ours"] / t["bare"], 2),
        # Both checks (sending and receiving) as a share of our whole path.
        "validation_share": round(2 * t["check"] / t["ours"], 3),
        # One check against the packing it guards: below 1 meets the aim.
        "check_vs_pack": round(t["check"] / t["pack"], 2),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=20_000, help="messages per timed run")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the best counts")
    parser.add_argument("--seed", type=int, default=9, help="the game the update comes from")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    r = measure(table_update(seed=args.seed), max(1, args.n), args.repeat)
    if args.json:
        print(json.dumps(r))
        return
    print(f"update for seat 0 of a 6-player table: {r['frame_bytes']} bytes, {r['events']} events")
    print(f"  ours  encode + decode + validate   {r['ours_us']:8.2f} µs  {r['ours_per_s']:>9,} msg/s")
    print(f"  conn  the same through Connection  {r['conn_us']:8.2f} µs  {r['conn_per_s']:>9,} msg/s")
    print(f"  bare  msgpack packb + unpackb      {r['bare_us']:8.2f} µs  {r['bare_per_s']:>9,} msg/s")
    print(f"  ratio ours / bare                  {r['ratio']:8.2f}")
    print(
        f"  validation: {r['check_us']:.2f} µs per check, twice per message = "
        f"{r['validation_share']:.0%} of ours; one check is {r['check_vs_pack']:.2f}× "
        f"a packb ({r['pack_us']:.2f} µs)"
    )


if __name__ == "__main__":
    main()
