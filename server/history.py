"""The server's answers read from the store: about finished games, `list_games` (a page of
them) and `get_game` (one game's record); about ratings, `get_leaderboard` (a page of the
rated players past their provisional period) and `get_profile` (one player's, marked
provisional while it is).

Reads run in worker threads, a few at a time for the whole server, so a slow disk holds up
no table; a session has at most PENDING requests being answered at once. A record's frame
is checked and packed in the worker too, and, since a finished game never changes, kept in
a small cache: the event loop spends no more on a record than adding the request's id.
Only finished games are ever told: the store's readers return nothing else, and a game in
play is answered as unknown (and never cached), so its seed and moves (which decide and
show hidden cards, R11) stay on the server. A private table's games are told to the
identities that played them, and to no one else: to others they are unknown, in lists,
profiles and records alike (the operator's `coup export` reads the file itself). A request
that fails, whatever the reason, is logged and answered with an error; it never ends the
session, nor the server.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass
from functools import partial

import msgpack
import trio

from protocol import (
    Error, Frame, GameRecord, Games, GetGame, GetLeaderboard, GetProfile, Leaderboard, ListGames,
    REFORMATION_VERSION, Message, Profile, encode, with_re,
)
from protocol.connection import DEFAULT_MAX_FRAME
from protocol.messages import MAX_GAMES_LISTED, MAX_RANKED, MAX_RECORD_MOVES

from . import log
from .refused import Refused, too_old
from .store import Store


#: The requests answered here.
ASKED = frozenset({"list_games", "get_game", "get_leaderboard", "get_profile"})
#: Their messages.
Asked = ListGames | GetGame | GetLeaderboard | GetProfile
#: Requests of one session being answered at once; one more is refused (too_many_pending).
PENDING = 2
#: Reads of the store running at once, for the whole server.
READERS = 4
#: Bytes of record frames the cache keeps, the least recently asked for dropped first.
CACHED_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class _Packed:
    """A finished game's record, checked and packed without `re`; `frame` None if it has
    more moves than a record may have (`moves` says how many). `keepers`: the players a
    private game's record goes to (None: a public game's, to anyone)."""

    frame: Frame | None
    moves: int
    keepers: frozenset[str] | None = None
    #: The game was played with Reformation (R12): a version-1 session cannot replay it.
    reformation: bool = False


class History:
    """The answers of one server, from its `store` (None: it keeps no records)."""

    def __init__(self, store: Store | None, provisional: int = 0) -> None:
        self.store = store
        #: Rated games a player plays before the leaderboard lists them.
        self.provisional = provisional
        self._readers = trio.CapacityLimiter(READERS)
        self._pending: Counter = Counter()
        self._cache: OrderedDict[int, _Packed] = OrderedDict()
        self._cached = 0

    def ask(self, session, msg: Asked, nursery: trio.Nursery) -> None:
        """Answer `msg` (one of ASKED, from `session`) in a task of `nursery`; Refused if
        `session` has PENDING requests being answered already."""
        if self._pending[session] >= PENDING:
            raise Refused("too_many_pending", f"Wait for the answers to your {PENDING} "
                          "requests for records before asking for more.")
        self._pending[session] += 1
        nursery.start_soon(self._answer, session, msg)

    async def _answer(self, session, msg: Asked) -> None:
        try:
            reply = await self._reply(msg, session.player, session.version)
        except Exception as exc:  # noqa: BLE001 — a bad record or read fails this request only
            log.error("store_request_failed", request=msg.TYPE, error=repr(exc),
                      exc_info=True)
            reply = Error(code="store_failed", re=msg.id,
                          message="The server could not read its records. Try again later.")
        finally:
            self._pending[session] -= 1
            if not self._pending[session]:
                del self._pending[session]
        session.send(reply)

    async def _reply(self, msg: Asked, viewer: str | None, version: int) -> Message | bytes:
        """The answer to `viewer` (a player id, None for a guest) whose session agreed on
        protocol `version`: a message, or the record's frame already made."""
        store = self.store
        if store is None:
            return Error(code="no_records", message="This server keeps no records.",
                         re=msg.id)
        if isinstance(msg, ListGames):
            return await self._page(store, msg, viewer)
        if isinstance(msg, GetLeaderboard):
            return await self._ranking(store, msg)
        if isinstance(msg, GetProfile):
            return await self._profile(store, msg, viewer)
        return await self._record(store, msg, viewer, version)

    async def _read(self, read, *args):
        return await trio.to_thread.run_sync(partial(read, *args), limiter=self._readers)

    async def _page(self, store: Store, msg: ListGames, viewer: str | None) -> Games:
        """A page of the finished games `viewer` may see, and the cursor of the next if
        there are more: one game more than a page is read to know."""
        lines = await self._read(store.finished, msg.before, msg.player,
                                 MAX_GAMES_LISTED + 1, viewer)
        more = len(lines) > MAX_GAMES_LISTED
        lines = lines[:MAX_GAMES_LISTED]
        return Games(re=msg.id, games=lines, next=lines[-1]["game"] if more else None)

    async def _ranking(self, store: Store, msg: GetLeaderboard) -> Leaderboard:
        """A page of the leaderboard, and the offset of the next if there are more."""
        offset = msg.offset or 0
        lines = await self._read(store.leaderboard, offset, MAX_RANKED + 1,
                                 self.provisional)
        more = len(lines) > MAX_RANKED
        return Leaderboard(re=msg.id, players=lines[:MAX_RANKED],
                           next=offset + MAX_RANKED if more else None)

    async def _profile(self, store: Store, msg: GetProfile, viewer: str | None) -> Message:
        """The profile of the rated player of that name (its games that `viewer` may see),
        or no_such_player."""
        def read() -> dict | None:
            player = store.player_named(msg.name)
            return store.profile(player, established=self.provisional,
                                      viewer=viewer) if player else None

        profile = await self._read(read)
        if profile is None:
            return Error(code="no_such_player", re=msg.id,
                         message=f"No one named {msg.name} has played a rated game here.")
        return Profile(re=msg.id, profile=profile)

    async def _record(self, store: Store, msg: GetGame, viewer: str | None,
                      version: int) -> Message | bytes:
        """The game_record frame, as large as the request allows, or the error saying why
        it cannot be sent. The frame is made here, not by the session's Connection: only
        this answer may pass the 64 KiB the client accepts of every other frame."""
        packed = self._cache.get(msg.game)
        if packed is None:
            packed = await self._read(_pack, store, msg.game)
            if packed is not None:
                self._keep(msg.game, packed)
        else:
            self._cache.move_to_end(msg.game)
        # A private game is unknown to whoever did not play it: the same answer as for a
        # game that does not exist, so that its id tells a stranger nothing.
        if packed is None or (packed.keepers is not None and viewer not in packed.keepers):
            return Error(code="no_such_game", re=msg.id,
                         message=f"There is no finished game {msg.game}.")
        if packed.reformation and version < REFORMATION_VERSION:
            refused = too_old(version)
            return Error(code=refused.code, message=refused.message, re=msg.id)
        if packed.frame is not None:
            frame = with_re(packed.frame, msg.id).data
            if len(frame) <= (msg.max_frame or DEFAULT_MAX_FRAME):
                return frame
        return Error(code="record_too_large", re=msg.id,
                     message=f"The record of game {msg.game} is too large to send here "
                             f"({packed.moves} moves): ask with a larger max_frame.")

    def _keep(self, game: int, packed: _Packed) -> None:
        """Cache `packed`, dropping the least recently asked for past CACHED_BYTES."""
        size = len(packed.frame.data) if packed.frame else 0
        if game in self._cache or size > CACHED_BYTES:
            return
        self._cache[game] = packed
        self._cached += size
        while self._cached > CACHED_BYTES:
            _, dropped = self._cache.popitem(last=False)
            self._cached -= len(dropped.frame.data) if dropped.frame else 0


def _pack(store: Store, game: int) -> _Packed | None:
    """In a worker thread: finished game `game`'s record read, checked as a game_record and
    packed without `re` (for `with_re`); None if there is no such finished game."""
    record = store.record(game)
    if record is None:
        return None
    moves = len(record["moves"])
    keepers = store.keepers(game)
    reformation = bool(record["options"].get("reformation"))
    if moves > MAX_RECORD_MOVES:
        return _Packed(None, moves, keepers, reformation)
    checked = GameRecord(re=0, record=record)
    # LocalProtocolError if the record is not one the protocol may send. (The codec's packer
    # is shared with the event loop's thread, and safe so: the C packer holds the GIL.)
    encode(checked)
    wire = checked.to_wire()
    del wire["re"]
    return _Packed(Frame(checked.TYPE, msgpack.packb(wire, use_bin_type=True)), moves, keepers,
                   reformation)
