"""A move at human pace beside a move flat out, in one run: what a move costs each way.

    python -m benchmarks.pace [--tables N] [--flat-tables M] [--seconds S] [--warmup S]
                              [--rounds K] [--seed K] [--json]

Two programs measure the server's move. `benchmarks.capacity` plays N tables (800) of
people at human pace, open-loop, against `coup serve`; `benchmarks.server` plays M tables
(500) of bots as fast as they can. At human pace a move shares nothing with the next (its
own wake of the loop, its own commit): it should still cost little more than flat out.
This program runs, one after the other on the same machine:

1. `benchmarks.capacity --tables N` with the store, then `--without-store`;
2. `benchmarks.server --tables M --rounds K` (K = 1 by default: the store on, off, off,
   on), with its floors (the relay and the rules alone);
3. the floors at human pace: `benchmarks.fanout`'s relay (a trio server with no rules)
   under N tables of 4 bots and a spectator that think as long as makes the moves come as
   fast as they did in 1. (N / 1.'s moves a second), without a store, with the server's
   recorder writing nothing, and with the server's recorder and store (`--store`), each
   for up to 10 s;

and prints them side by side: the server's CPU a move each way with the store and without,
the store's share (the difference), and the latency, each beside its floor. The machine's
load average before and after is printed too: figures from a busy machine move by a third.

Targets (issue 32): CPU a move at human pace <= 1.4x flat out; the store's share at human
pace <= 50 µs a move; latency p50 at human pace, with the store, <= 2 ms. The floors say
what no server built like this one (trio, the recorder's writer thread, SQLite with
`synchronous=FULL`) can beat on this machine: the relay's store share, the relay's p50
with the store, and the pace ratio of a server that added nothing at human pace beyond
what the relay adds (`ratio_floor`: flat out without the store, plus the relay's CPU a move
at human pace less flat out, plus the relay's store share, over flat out with the store).

`--json` prints one object: `human` and `human_without_store` (benchmarks.capacity's keys),
`flat` (benchmarks.server's keys), `relay`, `relay_nothing_written` and `relay_store`
(benchmarks.fanout's keys, 3.), and `pace_ratio`, `human_store_us`, `flat_store_us`,
`human_latency_p50_ms`, `relay_store_us`, `relay_handover_us`, `relay_store_p50_ms`,
`ratio_floor`, `load_before`, `load_after`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from . import capacity, fanout, server

#: The targets: (key, at most, unit, the key of its floor).
TARGETS = (("pace_ratio", 1.4, "x", "ratio_floor"),
           ("human_store_us", 50.0, " µs", "relay_store_us"),
           ("human_latency_p50_ms", 2.0, " ms", "relay_store_p50_ms"))
#: The longest window of each relay floor, in seconds, and its warm-up.
RELAY_SECONDS = 10.0
RELAY_WARMUP = 5.0


def _difference(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else round(a - b, 1)


def run(tables: int, flat_tables: int, seconds: float, warmup: float, rounds: int,
        seed: int, say) -> dict:
    """Both benchmarks, one after the other; the figures side by side."""
    load_before = [round(x, 2) for x in os.getloadavg()]
    say(f"human pace: {tables} tables, with the store")
    human = capacity.trial(tables, 2.0, warmup, seconds, seed, store=True)
    say(f"human pace: {tables} tables, without the store")
    bare = capacity.trial(tables, 2.0, warmup, seconds, seed, store=False)
    say(f"flat out: {flat_tables} tables, {rounds} round(s) of the store on, off, off, on")
    flat, _ = server.measure(flat_tables, 5.0, 600.0, seed, rounds)
    think = tables / human["moves_per_s"] if human["moves_per_s"] else 2.0
    relays = {}
    for key, store in (("relay", None), ("relay_nothing_written", "nothing"),
                       ("relay_store", "file")):
        say(f"the relay at human pace: {tables} tables thinking {think:.2f} s a move"
            f"{'' if store is None else ', the store' if store == 'file' else ', writing nothing'}")
        relays[key] = fanout.measure(tables, min(seconds, RELAY_SECONDS), seed, think, store,
                                     warmup=RELAY_WARMUP, spectator=True)
    human_cpu = human["server_cpu_us_a_move"] or None
    flat_cpu = flat["cpu_us_a_move"]
    relay_cpu = relays["relay"]["relay_cpu_us"]
    relay_store = _difference(relays["relay_store"]["relay_cpu_us"], relay_cpu)
    flat_bare = flat["cpu_us_a_move_without_store"]
    floor = (flat_bare + relay_cpu - flat["relay_cpu_us"] + relay_store
             if flat_bare and relay_store is not None else None)
    return {
        "human": human,
        "human_without_store": bare,
        "flat": flat,
        **relays,
        "pace_ratio": round(human_cpu / flat_cpu, 2) if human_cpu and flat_cpu else None,
        "human_store_us": _difference(human_cpu, bare["server_cpu_us_a_move"] or None),
        "flat_store_us": _difference(flat_cpu, flat["cpu_us_a_move_without_store"]),
        "human_latency_p50_ms": human["latency_p50_ms"],
        "relay_store_us": relay_store,
        "relay_handover_us": _difference(relays["relay_nothing_written"]["relay_cpu_us"],
                                         relay_cpu),
        "relay_store_p50_ms": relays["relay_store"]["latency_p50_ms"],
        "ratio_floor": round(floor / flat_cpu, 2) if floor and flat_cpu else None,
        "load_before": load_before,
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }


def show(found: dict) -> None:
    human, bare, flat = found["human"], found["human_without_store"], found["flat"]

    def us(value: float | None) -> str:
        return "-" if value is None else f"{value:,.0f} µs"

    rows = [
        ("", f"human pace ({human['tables']})", f"flat out ({flat['tables']})"),
        ("server CPU a move, store", us(human["server_cpu_us_a_move"]),
         us(flat["cpu_us_a_move"])),
        ("server CPU a move, no store", us(bare["server_cpu_us_a_move"]),
         us(flat["cpu_us_a_move_without_store"])),
        ("the store's share", us(found["human_store_us"]), us(found["flat_store_us"])),
        ("latency p50 / p99, store", f"{human['latency_p50_ms']:.1f} / "
         f"{human['latency_p99_ms']:.1f} ms",
         f"{flat['latency_p50_ms']:.1f} / {flat['latency_p99_ms']:.1f} ms"),
        ("latency p50 / p99, no store", f"{bare['latency_p50_ms']:.1f} / "
         f"{bare['latency_p99_ms']:.1f} ms", "-"),
        ("moves/s, store", f"{human['moves_per_s']:,.0f}", f"{flat['moves_per_s']:,.0f}"),
        ("server CPU share, store", f"{human['server_cpu_share']:.0%}", "-"),
        ("server RSS", f"{human['server_rss_mb']:,.0f} MB",
         f"{flat['server_peak_rss_mb']:,.0f} MB (peak)"),
    ]
    print(f"a move at human pace beside a move flat out (load average "
          f"{found['load_before']} before, {found['load_after']} after)")
    for label, left, right in rows:
        print(f"  {label:<30}{left:>22}{right:>24}")
    print(f"  floors, flat out: relay {flat['relay_cpu_us']:,.0f} µs + rules alone "
          f"{flat['rules_cpu_us']:,.0f} µs a move; relay latency "
          f"{flat['relay_latency_p50_ms']:.1f} / {flat['relay_latency_p99_ms']:.1f} ms")
    relay, nothing, kept = (found["relay"], found["relay_nothing_written"],
                            found["relay_store"])
    print(f"  floors, human pace ({relay['moves_per_s']:,.0f} moves/s): relay "
          f"{relay['relay_cpu_us']:,.0f} µs a move, p50 {relay['latency_p50_ms']:.1f} ms; "
          f"with the recorder writing nothing {nothing['relay_cpu_us']:,.0f} µs; with the "
          f"store {kept['relay_cpu_us']:,.0f} µs, p50 {kept['latency_p50_ms']:.1f} ms, "
          f"{kept['moves_a_commit']:.1f} moves a commit")
    for key, most, unit, floor_key in TARGETS:
        value, floor = found[key], found[floor_key]
        verdict = "-" if value is None else ("ok" if value <= most else "MISSED")
        shown = "-" if value is None else f"{value:,.2f}{unit}"
        below = "" if floor is None or floor <= most else " (the target is below it)"
        print(f"  {key:<30}{shown:>22}   target <= {most:g}{unit}: {verdict}; floor "
              f"{'-' if floor is None else f'{floor:,.2f}{unit}'}{below}")
    for name, result in (("human pace, store", human), ("human pace, no store", bare)):
        if result["problems"] or result["server_warnings"]:
            print(f"  {name}: problems {result['problems']}, "
                  f"server warnings {result['server_warnings']}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=800,
                        help="tables at human pace (default 800)")
    parser.add_argument("--flat-tables", type=int, default=500,
                        help="tables flat out (default 500)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="the human-pace window (default 20)")
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="seconds of human-pace play before the window (default 10)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="flat-out rounds of the store on, off, off, on (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="the players' random choices")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    server.raise_file_limit()
    say = (lambda line: print(line, file=sys.stderr)) if args.json else print
    found = run(max(1, args.tables), max(1, args.flat_tables), args.seconds, args.warmup,
                max(1, args.rounds), args.seed, say)
    if args.json:
        print(json.dumps(found))
    else:
        show(found)


if __name__ == "__main__":
    main()
