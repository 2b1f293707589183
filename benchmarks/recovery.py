"""How long a restarted server takes to resume its running tables from the store.

    python -m benchmarks.recovery [--tables N] [--moves M] [--json]

It writes a store as a server leaves it when it is killed mid-game: N tables of 4 seats
(people with token hashes), each with a game that random bots played M moves into, written
with the store's own changes. Then it starts a `server.Server` on that file and times it
from the start until it listens, every table resumed: the file opened and checked, every
table read, its game replayed through the engine and its task started. It prints that time
and the tables resumed; `--json` prints {"tables", "moves_per_game", "resumed",
"recovery_s", "store_mb"}.

Target (issue 15): 500 running tables resumed in under 5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time

import trio

from engine import Game, Options
from engine.bots import make
from server import Server, ServerConfig
from server.store import Store
from server.table import token_key


def write_store(path: str, tables: int, moves: int, seed: int = 0) -> None:
    """`tables` tables in play, each `moves` moves into its game, as a killed server left
    them."""
    store = Store(path)
    rng = random.Random(seed)
    now = time.time()
    for n in range(tables):
        row, game_id = store.take_table_row(), store.take_game_id()
        names = [f"p{n}-{s}" for s in range(4)]
        options = {"seats": 4, "variant": "base", "two_player_draft": True, "treasury": 50,
                   "response_clock": 20, "turn_clock": 60, "private": False,
                   "on_disconnect": "bot", "name": f"table {n}"}
        seats = [{"name": name, "token": token_key(f"token-{n}-{s}"), "bot": None,
                  "bot_seed": None, "ready": True} for s, name in enumerate(names)]
        state = {"status": "playing", "creator_seat": 0, "games": 1, "seats": seats}
        game = Game.new(Options(players=4), rng.randrange(2**63))
        bots = [make("random", rng.randrange(2**32)) for _ in range(4)]
        changes = [
            ("table", (row, f"t{n:05x}", options["name"], options, None, state, now)),
            ("game", (game_id, row, 1, game.options.to_dict(), str(game.seed),
                      [{"seat": s, "name": name, "bot": None} for s, name in enumerate(names)],
                      now, False)),
        ]
        changes += [("player", (game_id, s, name, None)) for s, name in enumerate(names)]
        for k in range(moves):
            if game.over:
                break
            seat = game.waiting[0]
            move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
            game.apply(seat, move)
            changes.append(("move", (game_id, k, seat, move.to_dict(), k, 1000 * k, "player")))
        store.write(changes)
    store.close()


async def resume(path: str) -> tuple[float, int]:
    """Seconds from a server's start on `path` until it listens, and tables resumed."""
    start = time.perf_counter()
    server = Server(ServerConfig(port=0, db=path, max_tables=100_000))
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        elapsed = time.perf_counter() - start
        resumed = len(server.lobby.tables)
        nursery.cancel_scope.cancel()
    return elapsed, resumed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--moves", type=int, default=40, help="moves into each game")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "coup.db")
        write_store(path, args.tables, args.moves)
        size = os.path.getsize(path) / 2**20
        elapsed, resumed = trio.run(resume, path)
    result = {"tables": args.tables, "moves_per_game": args.moves, "resumed": resumed,
              "recovery_s": round(elapsed, 3), "store_mb": round(size, 2)}
    if args.json:
        print(json.dumps(result))
    else:
        verdict = "ok" if elapsed < 5 and resumed == args.tables else "MISSED"
        print(f"recovery: {resumed} of {args.tables} running tables ({args.moves} moves into "
              f"each game, a {size:.1f} MB store) resumed in {elapsed:.2f} s "
              f"(target < 5 s: {verdict})")


if __name__ == "__main__":
    main()
