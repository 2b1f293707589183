"""How long a restarted server takes to resume its running tables from the store, whole or
with damaged records.

    python -m benchmarks.recovery [--tables N] [--moves M] [--damaged K] [--json]

It writes a store as a server leaves it when it is killed mid-game: N tables of 4 seats
(people with token hashes), each with a game that random bots played M moves into, written
with the store's own changes. Then it starts a `server.Server` on that file and times it
from the start until it listens, every table resumed: the file opened and checked, every
table read, its game replayed through the engine and its task started. It does it again on
a second such store with K more tables in play whose moves' pages are overwritten with
random bytes (tests/server/damage.py, as `dd conv=notrunc` would): every healthy table must
resume and the damaged ones be set aside. It prints both times, the tables resumed and
those set aside; `--json` prints {"tables", "moves_per_game", "resumed", "recovery_s",
"store_mb", "damaged_tables", "damaged_resumed", "healthy_resumed", "set_aside",
"damaged_recovery_s"}.

Target (issue 15): 500 running tables resumed in under 5 s; (issue 28) with damaged ones
among them too, every healthy one resumed.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import tempfile
import time
from typing import Any

import trio

from engine import Game, Options
from engine.bots import make
from server import Server, ServerConfig
from server.changes import Change, GamePlayer, MovePlayed, NewGame, NewTable
from server.seats import token_key
from server.store import Store
from tests.server.damage import moves_pages, overwrite


def write_store(path: str, tables: int, moves: int, seed: int = 0) -> None:
    """`tables` tables in play, each `moves` moves into its game, as a killed server left
    them."""
    store = Store(path)
    try:
        write_tables(store, range(tables), moves, random.Random(seed))
    finally:
        store.close()


def write_tables(store: Store, numbers: range, moves: int, rng: random.Random) -> None:
    """Tables numbered `numbers` in play, each `moves` moves into its game."""
    now = time.time()
    for n in numbers:
        row, game_id = store.take_table_row(), store.take_game_id()
        names = [f"p{n}-{s}" for s in range(4)]
        options: dict[str, Any] = {
            "seats": 4, "variant": "base", "two_player_draft": True, "treasury": 50,
            "response_clock": 20, "turn_clock": 60, "private": False, "on_disconnect": "bot",
            "name": f"table {n}"}
        seats = [{"name": name, "token": token_key(f"token-{n}-{s}"), "bot": None,
                  "bot_seed": None, "ready": True} for s, name in enumerate(names)]
        state = {"status": "playing", "creator_seat": 0, "games": 1, "seats": seats}
        game = Game.new(Options(players=4), rng.randrange(2**63))
        bots = [make("random", rng.randrange(2**32)) for _ in range(4)]
        changes: list[Change] = [
            NewTable(row=row, id=table_id(n), name=options["name"], options=options, code=None,
                     state=state, created=now),
            NewGame(id=game_id, table_row=row, number=1, options=game.options.to_dict(),
                    seed=str(game.seed),
                    players=[{"seat": s, "name": name, "bot": None}
                             for s, name in enumerate(names)],
                    started=now, rated=False),
        ]
        changes += [GamePlayer(game=game_id, seat=s, name=name, player=None)
                    for s, name in enumerate(names)]
        for k in range(moves):
            if game.over:
                break
            seat = game.waiting[0]
            move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
            game.apply(seat, move)
            changes.append(MovePlayed(game=game_id, n=k, seat=seat, move=move.to_dict(),
                                      state_id=k, ms=1000 * k, by="player"))
        store.write(changes)


def table_id(n: int) -> str:
    return f"t{n:05x}"


def damage_store(path: str, tables: int, damaged: int, moves: int, seed: int = 0) -> None:
    """`damaged` more tables in play after the first `tables`, then random bytes over every
    page that holds only their moves (as `dd conv=notrunc` over a running table's game):
    their records cannot be read."""
    rng = random.Random(seed + 1)
    pages = moves_pages(path, lambda store: write_tables(store, range(tables, tables + damaged),
                                                         moves, rng))
    overwrite(path, pages, seed)

async def resume(path: str) -> tuple[float, set[str]]:
    """Seconds from a server's start on `path` until it listens, and the tables resumed."""
    start = time.perf_counter()
    server = Server(ServerConfig(port=0, db=path, max_tables=100_000))
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        elapsed = time.perf_counter() - start
        resumed = set(server.lobby.tables)
        nursery.cancel_scope.cancel()
    return elapsed, resumed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--moves", type=int, default=40, help="moves into each game")
    parser.add_argument("--damaged", type=int, default=10,
                        help="tables whose records are damaged, in a second store")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    # The tables set aside are listed below; their log lines would only interleave.
    logging.getLogger("coup.server").setLevel(logging.CRITICAL)
    healthy = {table_id(n) for n in range(args.tables)}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "coup.db")
        write_store(path, args.tables, args.moves)
        size = os.path.getsize(path) / 2**20
        elapsed, resumed = trio.run(resume, path)
        damaged_path = os.path.join(folder, "damaged.db")
        write_store(damaged_path, args.tables, args.moves)
        damage_store(damaged_path, args.tables, args.damaged, args.moves)
        damaged_s, damaged_resumed = trio.run(resume, damaged_path)
    set_aside = sorted({table_id(args.tables + n) for n in range(args.damaged)}
                       - damaged_resumed)
    result = {"tables": args.tables, "moves_per_game": args.moves, "resumed": len(resumed),
              "recovery_s": round(elapsed, 3), "store_mb": round(size, 2),
              "damaged_tables": args.damaged, "damaged_resumed": len(damaged_resumed),
              "healthy_resumed": len(healthy & damaged_resumed), "set_aside": set_aside,
              "damaged_recovery_s": round(damaged_s, 3)}
    if args.json:
        print(json.dumps(result))
        return
    verdict = "ok" if elapsed < 5 and resumed == healthy else "MISSED"
    print(f"recovery: {len(resumed)} of {args.tables} running tables ({args.moves} moves into "
          f"each game, a {size:.1f} MB store) resumed in {elapsed:.2f} s "
          f"(target < 5 s: {verdict})")
    verdict = "ok" if damaged_s < 5 and healthy <= damaged_resumed else "MISSED"
    # Of the tables written last, the first may have all its moves on the page before the
    # overwritten ones: it is whole, and resumes.
    print(f"damaged store: {len(healthy & damaged_resumed)} of {args.tables} healthy tables "
          f"resumed and {len(set_aside)} damaged ones set aside ({', '.join(set_aside)}; "
          f"{args.damaged} tables written on the pages overwritten) in {damaged_s:.2f} s "
          f"(target < 5 s, every healthy table resumed: {verdict})")


if __name__ == "__main__":
    main()
