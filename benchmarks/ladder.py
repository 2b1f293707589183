"""The rated ladder: four `coup bot` processes play quick-play games on a real server, and the
leaderboard says who is strongest.

    python -m benchmarks.ladder [--games N] [--arena-games M] [--quick] [--json]

A `coup serve` with a fresh store (no clocks, no bot delay) and four `coup bot --queue
--seats 4` processes, one per strategy (random, honest, heuristic, ismcts), each with its
own identity (a key file of its own) named after it (`random-bot`: a strategy's own name is
a bot's, which no identity may take), each playing N games: every quick-play table seats
all four, and every game is rated. Then it asks the server for the leaderboard and prints
each bot's ordinal (mu - 3 sigma), mu, sigma, games and wins; beside it, unless
--arena-games is 0, the same four in the in-process arena (`engine.bots.arena.tournament`,
seats rotated) for M games, whose win rates should put them in the same order.

The ratings rank by the whole finishing order (the winner first, then the last one out), not
by wins alone, so the ladder also reads the store it played into and prints each bot's mean
place with its 95% interval: the order the ratings should follow. openskill's dynamics
(tau: each game adds a little uncertainty back) keep sigma from shrinking to nothing, so a
rating follows a bot's recent games and two bots whose mean places overlap may swap places.

`--json` prints {"games", "seconds", "leaderboard": [...], "places": {name: [mean, half]},
"arena": {name: rate}}.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

import trio

from client.net import Link
from engine.bots.arena import tournament
from protocol import GetLeaderboard
from protocol.messages import Leaderboard
from server.ratings import finishing_order
from server.store import Store

STRATEGIES = ("random", "honest", "heuristic", "ismcts")
COUP = [sys.executable, "-c", "import sys; from client.cli import main; sys.exit(main())"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def leaderboard(port: int) -> list[dict]:
    link = await Link.open("127.0.0.1", port, "ladder")
    try:
        await link.send(GetLeaderboard(id=link.next_id()))
        while True:
            reply = await link.receive()
            if reply is None or reply.TYPE in ("leaderboard", "error"):
                break
    finally:
        await link.aclose()
    if not isinstance(reply, Leaderboard):
        raise SystemExit(f"ladder: no leaderboard from the server: {reply!r}")
    return reply.players


def play(games: int, folder: str) -> tuple[list[dict], float]:
    """The four bots' `games` games on a server of their own: its leaderboard, and the
    seconds they took."""
    port = free_port()
    server = subprocess.Popen(
        COUP + ["serve", "--port", str(port), "--db", os.path.join(folder, "coup.db"),
                "--bot-delay", "0", "--response-clock", "0", "--turn-clock", "0",
                # every bot on the board from its first game, --quick's 12 too
                "--provisional-games", "0"],
        stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.5)  # it listens within a second
        start = time.perf_counter()
        bots = [subprocess.Popen(
            COUP + ["bot", f"127.0.0.1:{port}", "--strategy", name, "--name", f"{name}-bot",
                    "--identity", os.path.join(folder, f"{name}.pem"), "--queue",
                    "--seats", "4", "--games", str(games)],
            stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL) for name in STRATEGIES]
        for bot in bots:
            if bot.wait() != 0:
                raise SystemExit(f"ladder: a bot stopped with status {bot.returncode}")
        seconds = time.perf_counter() - start
        return trio.run(leaderboard, port), seconds
    finally:
        server.terminate()
        server.wait(10)


def places(path: str) -> dict[str, tuple[float, float]]:
    """Each player's mean finishing place (1 is a win) over the finished games in the store
    at `path`, and the half-width of its 95% interval."""
    seen: dict[str, list[int]] = {}
    store = Store(path, writer=False)
    try:
        for record in store.export():
            result = record["result"]
            for place, seat in enumerate(finishing_order(result["winner"], result["out"]), 1):
                name = record["players"][seat]["name"].removesuffix("-bot")
                seen.setdefault(name, []).append(place)
    finally:
        store.close()
    stats = {}
    for name, got in seen.items():
        mean = sum(got) / len(got)
        spread = (sum((p - mean) ** 2 for p in got) / max(1, len(got) - 1)) ** 0.5
        stats[name] = (mean, 1.96 * spread / len(got) ** 0.5)
    return stats


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300, help="rated games (default 300)")
    parser.add_argument("--arena-games", type=int, default=400,
                        help="arena games of the same four for comparison (0: none)")
    parser.add_argument("--quick", action="store_true", help="12 games, 40 in the arena")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    games, arena_games = (12, 40) if args.quick else (args.games, args.arena_games)
    with tempfile.TemporaryDirectory() as folder:
        board, seconds = play(games, folder)
        for line in board:
            line["name"] = line["name"].removesuffix("-bot")  # the strategy's, as the arena's
        placed = places(os.path.join(folder, "coup.db"))
    arena: dict[str, float] = {}
    if arena_games:
        standings = tournament(list(STRATEGIES), arena_games)
        arena = {name: round(s.win_rate, 4) for name, s in standings.items()}
    if args.json:
        print(json.dumps({"games": games, "seconds": round(seconds, 1), "leaderboard": board,
                          "places": {n: [round(m, 3), round(h, 3)] for n, (m, h) in
                                     placed.items()},
                          "arena": arena}))
        return
    print(f"rated ladder: {games} quick-play games of the four, {seconds:.0f} s")
    print(f"  {'rank':<5}{'bot':<11}{'ordinal':>8}{'mu':>8}{'sigma':>7}{'games':>7}"
          f"{'wins':>6}{'mean place':>15}{'arena':>8}")
    for line in board:
        rate = arena.get(line["name"])
        shown = f"{rate:.1%}" if rate is not None else ""
        mean, half = placed.get(line["name"], (0.0, 0.0))
        place = f"{mean:.2f} ± {half:.2f}"
        print(f"  {line['rank']:<5}{line['name']:<11}{line['ordinal']:>8.2f}{line['mu']:>8.2f}"
              f"{line['sigma']:>7.2f}{line['games']:>7}{line['wins']:>6}{place:>15}"
              f"{shown:>8}")
    by_rating = [line["name"] for line in board]
    by_place = sorted(placed, key=lambda n: placed[n][0])
    print(f"  order by rating: {', '.join(by_rating)}; by mean place: {', '.join(by_place)}"
          f" — {'the same' if by_rating == by_place else 'DIFFERENT'}")
    if arena:
        by_arena = sorted(arena, key=arena.__getitem__, reverse=True)
        print(f"  order by the arena's win rates "
              f"({arena_games} games): {', '.join(by_arena)}"
              f" — {'the same' if by_rating == by_arena else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
