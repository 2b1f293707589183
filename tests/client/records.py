"""Finished games for the replay tests, made without a server: seeded bots play a game
through the engine, and `keep` writes it to a store as the server's recorder would (the
changes of server/changes.py, one transaction), so that the store's readers give back its
record.
"""

from __future__ import annotations

from engine import Game, Options
from engine.bots import make
from engine.record import make as make_record
from server.changes import (
    GamePlayer, GameResult, MovePlayed, NewGame, NewTable, TableClosed,
)
from server.store import Store

#: When the games of these tests started: 2026-03-01 12:00:00 UTC.
STARTED = 1772366400.0

PLAYERS = [{"seat": 0, "name": "Ana", "bot": None}, {"seat": 1, "name": "Bruno", "bot": None},
           {"seat": 2, "name": None, "bot": "heuristic"}]


def played(seed: int = 3, players: int = 3, strategy: str = "random") -> tuple[Game, list]:
    """A game seeded bots played to its end, and its moves as a record lists them."""
    options = Options(players=players)
    game = Game.new(options, seed)
    bots = [make(strategy, seed + s) for s in range(players)]
    moves = []
    while not game.over:
        seat = game.waiting[0]
        mv = bots[seat].choose(game.view(seat), game.legal_moves(seat))
        moves.append({"seat": seat, "move": mv.to_dict(), "state_id": game.state_id,
                      "ms": 1500 * (len(moves) + 1), "by": "bot" if seat == 2 else "player"})
        game.apply(seat, mv, game.state_id)
    return game, moves


def record(seed: int = 3, players: int = 3, game_id: int = 1) -> dict:
    """The record of a game `played` with these settings."""
    game, moves = played(seed, players)
    return make_record(
        game=game_id, table="f00d42", table_name="Friday night", number=1,
        options=game.options.to_dict(), seed=seed, players=PLAYERS[:players],
        started=STARTED, finished=STARTED + 600, moves=moves, takeovers=[],
        result={"winner": game.winner, "out": list(game.exiled)})


def keep(store: Store, seed: int = 3, finished_at: float | None = None,
         over: bool = True, players: list[dict] = PLAYERS,
         made: tuple[Game, list] | None = None) -> int:
    """Write a game `played` from `seed` by `players` (three seats) to `store`, or the game
    already `made` from `seed` and its moves, finished at `finished_at` (or ten minutes
    after it started) unless not `over`; returns its game id."""
    game, moves = made or played(seed)
    row, game_id = store.take_table_row(), store.take_game_id()
    started = STARTED + 3600 * game_id
    changes = [
        NewTable(row, "f00d42", "Friday night", game.options.to_dict(), None, {}, started),
        NewGame(game_id, row, 1, game.options.to_dict(), str(seed), players, started, False),
        *[GamePlayer(game_id, p["seat"], p["name"], None) for p in players if p["name"]],
        *[MovePlayed(game_id, n, m["seat"], m["move"], m["state_id"], m["ms"], m["by"])
          for n, m in enumerate(moves)],
    ]
    if over:  # and its table closed: a server on the store has nothing to resume
        ended = finished_at or started + 600
        changes += [GameResult(ended, game.winner, list(game.exiled), game_id),
                    TableClosed(ended, row)]
    store.write(changes)
    return game_id
