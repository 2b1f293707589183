"""The server's answers read from the store: about finished games, `list_games` (a page of
them) and `get_game` (one game's record); about ratings, `get_leaderboard` (a page of the
rated players) and `get_profile` (one player's).

Reads run in a worker thread, so a slow disk holds up no table. Only finished games are
ever told: the store's readers return nothing else, and a game in play is answered as
unknown, so its seed and moves (which decide and show hidden cards, R11) stay on the
server. A read that fails is answered with an error; it never ends the session.
"""

from __future__ import annotations

import sqlite3
from functools import partial

import trio

from protocol import (
    Error, GameRecord, Games, Leaderboard, LocalProtocolError, Message, Profile, encode,
)
from protocol.connection import DEFAULT_MAX_FRAME
from protocol.messages import MAX_GAMES_LISTED, MAX_RANKED, MAX_RECORD_MOVES

from . import log
from .store import Store, StoreError


#: The requests answered here.
ASKED = frozenset({"list_games", "get_game", "get_leaderboard", "get_profile"})


async def answer(session, msg: Message, store: Store | None) -> None:
    """Answer `msg` (one of ASKED, from `session`) from `store`, None when the server keeps
    no records."""
    session.send(await _reply(msg, store))


async def _reply(msg: Message, store: Store | None) -> Message | bytes:
    """The answer: a message, or the record's frame already made."""
    if store is None:
        return Error(code="no_records", message="This server keeps no records.", re=msg.id)
    try:
        if msg.TYPE == "list_games":
            return await _page(msg, store)
        if msg.TYPE == "get_leaderboard":
            return await _ranking(msg, store)
        if msg.TYPE == "get_profile":
            return await _profile(msg, store)
        record = await trio.to_thread.run_sync(store.record, msg.game)
    except (StoreError, sqlite3.Error) as exc:
        log.error("store_read_failed", request=msg.TYPE, error=str(exc))
        return Error(code="store_failed", re=msg.id,
                     message="The server could not read its records. Try again later.")
    if record is None:
        return Error(code="no_such_game", message=f"There is no finished game {msg.game}.",
                     re=msg.id)
    return _record_frame(msg, record)


async def _page(msg: Message, store: Store) -> Games:
    """A page of finished games, and the cursor of the next if there are more: one game
    more than a page is read to know."""
    lines = await trio.to_thread.run_sync(
        partial(store.finished, msg.before, msg.player, MAX_GAMES_LISTED + 1))
    more = len(lines) > MAX_GAMES_LISTED
    lines = lines[:MAX_GAMES_LISTED]
    return Games(re=msg.id, games=lines, next=lines[-1]["game"] if more else None)


async def _ranking(msg: Message, store: Store) -> Leaderboard:
    """A page of the leaderboard, and the offset of the next if there are more."""
    offset = msg.offset or 0
    lines = await trio.to_thread.run_sync(
        partial(store.leaderboard, offset, MAX_RANKED + 1))
    more = len(lines) > MAX_RANKED
    return Leaderboard(re=msg.id, players=lines[:MAX_RANKED],
                       next=offset + MAX_RANKED if more else None)


async def _profile(msg: Message, store: Store) -> Message:
    """The profile of the rated player of that name, or no_such_player."""
    def read() -> dict | None:
        player = store.player_named(msg.name)
        return store.profile(player) if player else None

    profile = await trio.to_thread.run_sync(read)
    if profile is None:
        return Error(code="no_such_player", re=msg.id,
                     message=f"No one named {msg.name} has played a rated game here.")
    return Profile(re=msg.id, profile=profile)


def _record_frame(msg: Message, record: dict) -> Message | bytes:
    """The game_record frame, as large as the request allows, or the error saying why it
    cannot be sent. The frame is made here, not by the session's Connection: only this
    answer may pass the 64 KiB the client accepts of every other frame."""
    too_large = Error(
        code="record_too_large", re=msg.id,
        message=f"The record of game {msg.game} is too large to send here "
                f"({len(record['moves'])} moves): ask with a larger max_frame.")
    if len(record["moves"]) > MAX_RECORD_MOVES:
        return too_large
    try:
        return encode(GameRecord(re=msg.id, record=record), msg.max_frame or DEFAULT_MAX_FRAME)
    except LocalProtocolError as exc:
        if exc.code == "frame_too_large":
            return too_large
        log.error("record_not_sent", game=msg.game, error=str(exc))
        return Error(code="internal_error", re=msg.id,
                     message=f"The record of game {msg.game} could not be sent.")
