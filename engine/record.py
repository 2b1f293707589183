"""A finished game's record: everything needed to replay it through the engine, as plain data
(JSON-ready), in the versioned format docs/RECORDS.md documents.

The server's store writes records, `coup export` prints them, `coup replay` and the replay
screen read them. `replay` plays a record's moves through the engine from its options and
seed; `check` says what is wrong with data that claims to be a record.
"""

from __future__ import annotations

from datetime import UTC, datetime
from collections.abc import Iterator
from typing import Any

from .errors import IllegalMove, OptionsError
from .events import Event
from .game import Game
from .moves import Move
from .options import Options

#: The value of a record's `format` field.
FORMAT = "coup-record"
#: The version of the format this code writes, and the highest it reads.
VERSION = 1
#: Who made a move: its player, the clock (R10's default), a bot, or a forfeit.
BY = ("player", "clock", "bot", "forfeit")


class RecordError(ValueError):
    """Data that is not a record this code can replay; the message says why."""


def iso(seconds: float | None) -> str | None:
    """A POSIX time as records write it: UTC, to the second, ISO 8601."""
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def make(*, game: int, table: str, table_name: str, number: int, options: dict[str, Any], seed: int,
         players: list[dict[str, Any]], started: float, finished: float | None, moves: list[dict[str, Any]],
         takeovers: list[dict[str, Any]], result: dict[str, Any] | None) -> dict[str, Any]:
    """A record, its fields in the documented order."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "table": table,
        "table_name": table_name,
        "number": number,
        "started": iso(started),
        "finished": iso(finished),
        "options": options,
        "seed": seed,
        "players": players,
        "moves": moves,
        "takeovers": takeovers,
        "result": result,
    }


def check_format(record: object) -> None:
    """RecordError unless `record` says it is a record of a version this code reads: what
    is checked before anything else of it, whose fields another version may change."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError("not a coup record (its format is not 'coup-record')")
    version = record.get("version")
    if type(version) is not int or not 1 <= version <= VERSION:
        raise RecordError(f"a record of version {version!r}; this coup reads versions 1 to "
                          f"{VERSION}")


def play(record: dict[str, Any]) -> Iterator[tuple[Game, list[Event]]]:
    """The record's game move by move, through the engine from its options and seed: the
    deal first (with no events), then the game after each move with the events it made
    (one Game, changed in place). RecordError if the record is not one this code reads, or
    a move does not replay (the record is damaged)."""
    check_format(record)
    n = 0
    try:
        game = Game.new(Options.from_dict(record["options"]), int(record["seed"]))
        yield game, []
        for n, step in enumerate(record["moves"]):
            if step["move"] is None:
                events = game.forfeit(step["seat"])
            else:
                events = game.apply(step["seat"], Move.from_dict(step["move"]),
                                    step["state_id"])
            yield game, events
    except IllegalMove as exc:
        raise RecordError(f"move {n + 1} does not replay: {exc.message}") from None
    except (KeyError, TypeError, ValueError, OptionsError) as exc:
        raise RecordError(f"the record is damaged: {exc!r}") from None


def replay(record: dict[str, Any], upto: int | None = None) -> Game:
    """The game after the record's first `upto` moves (all of them by default); RecordError
    as `play`."""
    for made, (game, _) in enumerate(play(record)):
        if made == upto:
            break
    return game


def check(record: dict[str, Any]) -> Game:
    """The finished game a record replays to; RecordError unless it replays and ends as
    its result says, and its players and take-overs are of the game's seats and moves."""
    game = replay(record)
    seats = game.options.players
    if [p.get("seat") for p in record["players"]] != list(range(seats)):
        raise RecordError(f"the record's players are not its {seats} seats, one each in "
                          f"seat order")
    for takeover in record.get("takeovers") or ():
        if takeover.get("seat") not in range(seats) or not isinstance(
                takeover.get("after"), int) or not 0 <= takeover["after"] <= len(record["moves"]):
            raise RecordError("a take-over of the record names a seat or a move the game "
                              "did not have")
    result = record.get("result")
    if not game.over or not isinstance(result, dict):
        raise RecordError("the record's game is not over")
    if result.get("winner") != game.winner or result.get("out") != list(game.exiled):
        raise RecordError("the record's result is not what its moves give")
    return game
