"""Stores with games in them, written without a server: the changes the recorder would
write for a table and its games, each game played by random bots through the engine.

`add_table` writes a table (closed, so that a server opening the store has nothing to
resume); `add_game` plays and writes one of its games, finished or left in play;
`add_running_table` writes a table left open with its game in play and a person in each
seat, as a server killed mid-game leaves it, for a restarted server to resume.
"""

from __future__ import annotations

import random

from engine import Game, Options
from engine.bots import make
from server.changes import (
    GamePlayer, GameResult, MovePlayed, NewGame, NewTable, TableClosed,
)
from server.seats import token_key
from server.store import Store

#: The time the first game starts, as a POSIX time (2026-01-01 00:00 UTC).
START = 1_767_225_600.0


def add_table(store: Store, table: str = "k7tq2m", name: str = "Friday night") -> int:
    """A closed table's row."""
    row = store.take_table_row()
    store.write([
        NewTable(row, table, name, {"seats": 4}, None, {"status": "over"}, START),
        TableClosed(START, row),
    ])
    return row


def add_game(store: Store, row: int, names: list[str | None], seed: int, *, number: int = 1,
             finished: bool = True, moves: int | None = None) -> int:
    """A game at table `row` with a seat for each of `names` (None: a bot's seat), played by
    random bots to its end, or with `finished` False for `moves` moves and left in play;
    its id."""
    game_id = store.take_game_id()
    options = Options(players=len(names))
    game = Game.new(options, seed)
    started = START + 60 * game_id
    players = [{"seat": s, "name": n, "bot": None if n else "random"}
               for s, n in enumerate(names)]
    changes = [NewGame(game_id, row, number, options.to_dict(), str(seed), players, started,
                       False)]
    changes += [GamePlayer(game_id, s, n, None) for s, n in enumerate(names) if n]
    bots = [make("random", seed=seed + s) for s in range(len(names))]
    order = random.Random(seed)
    n = 0
    while not game.over and (finished or n < moves):
        seat = game.waiting[order.randrange(len(game.waiting))]
        move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
        state_id = game.state_id
        game.apply(seat, move, state_id)
        changes.append(MovePlayed(game_id, n, seat, move.to_dict(), state_id, 1500 * n,
                                  "player" if names[seat] else "bot"))
        n += 1
    if finished:
        changes.append(GameResult(started + 1.5 * n, game.winner, list(game.exiled), game_id))
    store.write(changes)
    return game_id


def add_running_table(store: Store, table: str, seats: int, seed: int,
                      moves: int) -> tuple[int, list[str]]:
    """An open table `table` of `seats` people, each with its reconnect token, its game
    `moves` moves in (fewer if it ends sooner); the table's row and the tokens by seat."""
    row = store.take_table_row()
    names = [f"{table}-{s}" for s in range(seats)]
    tokens = [f"token-{table}-{s}" for s in range(seats)]
    options = {"seats": seats, "variant": "base", "two_player_draft": True, "treasury": 50,
               "response_clock": 0, "turn_clock": 0, "private": False,
               "on_disconnect": "bot", "name": table}
    state = {"status": "playing", "creator_seat": 0, "games": 1,
             "seats": [{"name": name, "token": token_key(token), "bot": None,
                        "bot_seed": None, "ready": True} for name, token in zip(names, tokens)]}
    store.write([NewTable(row, table, table, options, None, state, START)])
    add_game(store, row, names, seed, finished=False, moves=moves)
    return row, tokens
