"""The lobby: the one registry of tables, private codes, reconnect tokens and who is where.

Sessions reach it as their `Router` (hello, requests, departure); tables reach it as their
`TableHost` (claim and release the sessions at them, issue and revoke tokens, say that the
list of tables changed). Nothing else changes the registry, and the lobby changes nothing
of a session or a table but through their own methods (`send`, `close`, `submit`).

It runs every table's task under a guard: a table that fails is logged with its id, closed
in the store (a restarted server would resume it only to fail again), its members are told
(`table_failed`) and are back in the lobby, and every other table plays on. It pushes the
list of tables to the sessions that asked for it at most a few times a second, whatever the
churn. It limits what one stranger may take of it: wrong private codes per address; the
tables one address, and one identified player, may have open (a table counts for the
address and the player that made it until it closes; the queue's and those resumed from
the store count for no one); and lobby chat, which every viewer of the lobby is shown, to
lines shorter than a table's, within a rate per address and one for the whole lobby.
Requests for records it hands to `history`, which answers them. Operators' acts
(server/moderation.py keeps the operators, bans and mutes) are checked here: a banned key or
address is turned away at hello, identify and reconnect, a muted name's chat is refused;
kick and close_table are the table's. The server's one tournament (server/tournament.py)
is run from here: operators open, start and stop it, identified players enter it, and the
lobby opens its games' tables as they come due (each tells it its result as its game ends)
and pushes its standings to the sessions that follow it, as the list of tables.

A session that agreed on protocol version 1 never meets a Reformation table, which its
client would take for a base one (docs/PROTOCOL.md, Versioning): the list it is sent leaves
them out, and every way to one (join, spectate, a private code, a reconnect token, identify,
create_table and queue with the option) is refused it with `needs_version` or leads nowhere.

Names are unique among the server's players, and so are names a reader would take for one
another (`alice`, `ALICE`, `аlice` with a Cyrillic а: server/names.py): a name is taken
while a connected session has it, a seat holds it for a player who may come back with its
token, or an identity holds it; and guests' and bots' names are taken by them. A newcomer
asking for a taken name gets it with a suffix (`ana-2`), and its `welcome` says so. New
identities are limited per address and hour.
"""

from __future__ import annotations

import ipaddress
import math
import secrets
import time
from collections import Counter

import trio

from engine import Game
from engine.position import Position
from protocol import (
    MAX_LISTED, REFORMATION_VERSION, Chat, Error, Frame, Identified, Ok, Queued, Tables,
    encode_once, with_re,
)
from protocol.messages import NAME, TABLE_ID
from protocol.text import name_or_none, printable

from . import backups, history, log, retention
from .changes import TableClosed, TableGone
from .config import ServerConfig
from .doorkey import load_secret, sharer
from .identity import Identities, player_id
from .inbox import Disconnected, End, Matched, Quit, Reconnect, Reseat
from .limits import TokenBucket
from .moderation import Ban, Moderation, operator_ids, until_text
from .names import name_key, reserved
from .options import fill_options
from .queue import Formed, QuickPlay, Wish
from .recorder import Recorder
from .refused import Refused, too_old
from .seats import token_key
from .session import Session
from .status import TableStatus
from .store import Store, StoreError, code_key
from .table import Table
from .thinking import Thinkers
from .tournament import Starting, Tournament

#: Seconds between two pushes of the table list to the lobby.
LOBBY_PUSH = 0.5
#: The tournament requests only an operator may make.
TOURNAMENT_ACTS = ("open_tournament", "start_tournament", "stop_tournament")
#: Operators' acts (kick is a table creator's too): each may give a reason.
MODERATION = ("kick", "mute", "ban", "close_table")
#: Wrong private codes one address may try at once, and then one every CODE_RETRY seconds.
CODE_TRIES = 5
CODE_RETRY = 12.0
#: Addresses whose wrong codes are counted each on its own; while that many are counted and
#: not forgiven, any other address counts in one bucket shared by all of them.
CODE_ADDRESSES = 4096


class Lobby:
    """The registry (see the module docstring). Run it with `run` inside a trio nursery."""

    def __init__(self, config: ServerConfig) -> None:
        """The lobby of a server configured by `config`; StoreError if its `db` cannot be
        used."""
        self.config = config
        # Read before the store opens: a secret that cannot be read leaves nothing open.
        door_secret = load_secret(config.door_secret) if config.door_secret else None
        self.thinkers = Thinkers(config)
        #: The position every game starts from, if the server plays one (PositionError if
        #: the rules do not allow it); such games are not kept.
        self.position = Position.load(config.position) if config.position else None
        #: The store's one writer, if the server keeps records.
        self.recorder = (Recorder(Store(config.db), config.late_write)
                         if config.db and self.position is None else None)
        #: The server's id and its identities' names.
        self.identities = Identities(self.recorder.store if self.recorder else None,
                                     door_secret)
        self.history = history.History(self.recorder.store if self.recorder else None,
                                       config.provisional_games)
        self.moderation = Moderation(operator_ids(config.operators),
                                     self.recorder.store.bans(time.time()) if self.recorder
                                     else [])
        #: The tables the store kept open, to resume: read now, so that a store too damaged
        #: to list them stops the server before it starts (StoreError).
        self._to_resume = self.recorder.store.open_tables() if self.recorder else []
        #: The tokens (as token_key) of the seats at tables set aside as damaged at startup,
        #: by table id: their players are told why when they come back.
        self._damaged: dict[str, str] = {}
        self.server_id = self.identities.server_id
        self.tables: dict[str, Table] = {}
        #: Private tables by their code's hash (code_key).
        self.codes: dict[str, Table] = {}
        self.tokens: dict[str, Table] = {}
        #: Names taken (by name_key), by sessions and by seats' tokens; what each holds.
        self._names: Counter[str] = Counter()
        self._held: dict[Session | str, str] = {}
        #: Sessions that said hello and have not ended.
        self.sessions: set[Session] = set()
        #: The table each session sits or watches at; a session absent here is in the lobby.
        self.where: dict[Session, Table] = {}
        #: Who is at each table, and its tokens: what to undo when it closes.
        self._members: dict[Table, set[Session]] = {}
        self._issued: dict[Table, set[str]] = {}
        #: Tables open by who made them ("address", its sharer) and ("player", its
        #: id); whom each table counts for.
        self._made: Counter[tuple[str, str]] = Counter()
        self._makers: dict[Table, tuple[tuple[str, str], ...]] = {}
        #: Sessions that asked for the list of tables, and so get its changes.
        self.subscribers: set[Session] = set()
        #: Wrong private codes per address (an IPv6 address counts by its /64), the address
        #: that tried one last at the end; and the bucket of the addresses beyond them.
        self._code_tries: dict[str, TokenBucket] = {}
        self._crowd: TokenBucket | None = None  # made in `run`: it keeps trio's time
        #: New identities made per address (an IPv6 address counts by its /64).
        self._new_identities: dict[str, TokenBucket] = {}
        #: Lobby chat lines per address, for the addresses whose bucket is not full again;
        #: and the lobby's own bucket, for all lines.
        self._chatters: dict[str, TokenBucket] = {}
        self._lobby_lines: TokenBucket | None = None  # made in `run`, as _crowd
        #: The list of tables as packed since it last changed, one for every request: by
        #: whether it lists Reformation tables (version 1 sessions are not shown them).
        self._listing: dict[bool, Frame] = {}
        self._dirty = trio.Event()
        self._nursery: trio.Nursery | None = None
        #: The sessions waiting for quick play: sitting at any table or ending leaves it.
        self.quick = QuickPlay(config.queue_bot_fill, self._form)
        #: The server restarts: its tables stay as they were written (see keep_tables).
        self._keeping = False
        #: The server's tournament, if an operator opened one (server/tournament.py); the
        #: sessions that follow it (asked with list_tables, or entered), and its message
        #: as packed last, while the tournament has not changed since.
        self.tournament: Tournament | None = None
        self.followers: set[Session] = set()
        self._standings: Frame | None = None
        #: The tournament changed since its followers were last told (_push_standings).
        self._standings_due = trio.Event()
        #: Set when something a tournament's next games wait for may have changed.
        self._poke = trio.Event()

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Run the tables' tasks and the lobby's pushes until cancelled."""
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                self._crowd = TokenBucket(1 / CODE_RETRY, CODE_TRIES)
                self._lobby_lines = _per_minute(self.config.lobby_chat_per_minute)
                nursery.start_soon(self._push)
                nursery.start_soon(self._push_standings)
                nursery.start_soon(self.quick.run)
                nursery.start_soon(self._schedule)
                recorder = self.recorder
                if recorder:
                    await nursery.start(recorder.run)
                    if self.config.backup_dir:
                        nursery.start_soon(backups.run, recorder.store, self.config)
                    kept, self._to_resume = self._to_resume, []
                    if self.config.forget_tables:
                        await recorder.commit(
                            [change for saved in kept for change in (
                                TableClosed(time.time(), saved["row"]),
                                TableGone(saved["row"]))])
                        kept = []
                    damaged = []
                    for saved in kept:
                        try:
                            if "damaged" in saved:
                                raise StoreError(saved["damaged"])
                            self._resume(saved)
                        except Exception as exc:  # noqa: BLE001 — one bad table, not all
                            self._set_aside(saved, exc)
                            damaged.append(saved["row"])
                    if damaged:
                        await self._close_damaged(recorder, damaged)
                    nursery.start_soon(self._prune_unless_damaged, recorder)
                task_status.started()
        finally:
            if self.recorder:
                self.recorder.store.close()

    @property
    def keeps_tables(self) -> bool:
        """A server that stops now can come back to its tables: its store keeps them, and
        its next start resumes them."""
        return self.recorder is not None and not self.config.forget_tables

    async def keep_tables(self) -> None:
        """The server restarts: every table's state is written as it stands (each away
        seat's grace as it is left), and from now on connections that end are the server's
        own goodbyes, not players going away (the next start gives them the whole grace)."""
        self._keeping = True
        assert self.recorder is not None  # only a server that keeps_tables keeps them
        await self.recorder.commit([t.kept() for t in self.tables.values() if not t.closed])

    async def end_tables(self) -> None:
        """End every table for good (the server shuts down): each abandons its game and
        closes, in the store too; returns once all have (the caller bounds the wait)."""
        for table in list(self.tables.values()):
            table.submit(None, End())
        while self.tables:  # noqa: ASYNC110 — each table closes on its own; none signals
            await trio.sleep(0.05)

    # ------------------------------------------------------------------ Router

    def arrive(self, session: Session, name: str, token: str | None) -> str:
        self.sessions.add(session)
        key = token_key(token) if token else ""
        table = self.tokens.get(key) if key else None
        # A banned address, or a token of a banned identity's seat, goes no further.
        self._turn_away_if_banned(session, table.seats.player_for(key) if table else None)
        # A seat the session's version cannot play is not its own: nor is the seat's name.
        held = (table.seats.name_for(key) if table is not None and _sees(session, table)
                else None)
        # A returning player's name is its seat's; a session that asked for none, or for
        # one no suffix frees, has the guest name the server gave it, reserved for it.
        unique = (held or self._unique(name, own=session.asked is None)
                  or self._unique(session.name, own=True))
        assert unique is not None  # the guest name a session was given is free for it
        self._take_name(session, unique)
        return unique

    def reconnect(self, session: Session, token: str) -> Refused | None:
        key = token_key(token)
        table = self.tokens.get(key)
        if table is not None and not _sees(session, table):
            return too_old(session.version)
        if table is not None and table.submit(session, Reconnect(token)):
            return None
        if key in self._damaged:
            return Refused("bad_token", f"Your table {self._damaged[key]} could not be "
                           "resumed: its record in the server's store is damaged, so the "
                           "server closed it.")
        return Refused("bad_token", "That seat is no longer yours.")

    def depart(self, session: Session) -> None:
        self.sessions.discard(session)
        self._free_name(session)
        self.subscribers.discard(session)
        self.followers.discard(session)
        self.quick.remove(session)
        table = self.where.pop(session, None)
        if table is not None:
            self._members[table].discard(session)
            if not self._keeping:
                table.submit(session, Quit() if session.quit else Disconnected())

    def request(self, session: Session, msg) -> None:
        kind = msg.TYPE
        try:
            if kind == "say":
                self._unmuted(session)
            elif kind in MODERATION and msg.reason and not printable(msg.reason):
                # A reason goes to the acted-on player's screen and to the store.
                raise Refused("bad_message", "A reason must be printable text.")
            if kind == "list_tables":
                self.subscribers.add(session)
                session.send(with_re(self._listing_frame(session), msg.id))
                if msg.tournament:
                    self._follow(session)
            elif kind in TOURNAMENT_ACTS:
                self._operator(session)
                self._tournament_act(session, msg)
            elif kind in ("enter_tournament", "leave_tournament"):
                self._entry(session, msg)
            elif kind == "create_table":
                self._create(session, msg)
            elif kind == "join":
                self._join(session, msg)
            elif kind in history.ASKED:
                assert self._nursery is not None  # made in run, before any session
                self.history.ask(session, msg, self._nursery)
            elif kind == "say" and msg.scope == "lobby":
                self._lobby_chat(session, msg)
            elif kind == "identify":
                self._identify(session, msg)
            elif kind == "via":
                self._via(session, msg)
            elif kind == "queue":
                self._queue(session, msg)
            elif kind == "unqueue":
                self.quick.remove(session)
                session.send(Ok(re=msg.id))
            elif kind == "mute":
                self._mute(session, msg)
            elif kind == "ban":
                self._ban(session, msg)
            elif kind in ("kick", "close_table") and (msg.table or kind == "close_table"):
                self._act_at(session, msg)
            else:  # leave, ready, start, rematch, move, table chat: the table's business
                table = self.where.get(session)
                if table is None:
                    raise Refused("not_at_table", "You are not at a table.")
                if not table.submit(session, msg):
                    raise Refused("no_such_table", "That table is closing.")
        except Refused as refused:
            session.send(Error(code=refused.code, message=refused.message, re=msg.id))

    # ------------------------------------------------------------------ TableHost

    def claim(self, session: Session, table: Table) -> bool:
        # Already at a table (this one too: two joins back to back), or ended while its
        # request waited in the table's inbox.
        if session in self.where or session not in self.sessions:
            return False
        self.where[session] = table
        self._members[table].add(session)
        self.quick.remove(session)
        return True

    def release(self, session: Session, table: Table) -> None:
        if self.where.get(session) is table:
            del self.where[session]
            self._members[table].discard(session)

    def issue(self, token: str, table: Table) -> None:
        self.tokens[token] = table
        self._issued[table].add(token)
        name = table.seats.name_for(token)
        assert name is not None  # a token is issued to its seat, which has a name
        self._take_name(token, name)

    def revoke(self, token: str) -> None:
        table = self.tokens.pop(token, None)
        if table is not None:
            self._issued[table].discard(token)
            self._free_name(token)

    def changed(self) -> None:
        self._listing.clear()
        self._dirty.set()
        self._poke.set()  # a table closed, or a seat changed: a tournament may go on

    def operator(self, session: Session) -> bool:
        return self.moderation.is_operator(session.player)

    # ------------------------------------------------------------------ requests

    def _create(self, session: Session, msg) -> None:
        if session in self.where:
            raise Refused("already_at_table", "Leave your table first.")
        if len(self.tables) >= self.config.max_tables:
            raise Refused("too_many_tables", "The server has as many tables as it allows.")
        makers = self._makers_of(session)
        options = fill_options(msg.options, self.config, self.thinkers.allowed,
                               self.position)
        # Asked for, or the position the server plays is a Reformation game.
        if options.get("reformation") and not _new_enough(session):
            raise too_old(session.version)
        table = Table(self, self.config, self.thinkers, self._new_table_id(), options,
                      session.name, self.recorder, position=self.position)
        self._makers[table] = makers
        self._made.update(makers)
        self._open(table)
        table.submit(session, msg)  # the table seats its creator

    def _makers_of(self, session: Session) -> tuple[tuple[str, str], ...]:
        """Whom a table `session` makes counts for: its address, and its player if it
        identified; Refused(too_many_tables) if either has as many open as it may. One
        connection sits at one table, but one address may hold many connections."""
        address = ("address", sharer(session.address))
        if self._made[address] >= self.config.tables_per_address:
            raise Refused("too_many_tables", f"Your address has {self._made[address]} tables "
                          f"open, as many as one address may: play at one of them, or join "
                          f"another.")
        if session.player is None:
            return (address,)
        player = ("player", session.player)
        if self._made[player] >= self.config.tables_per_player:
            raise Refused("too_many_tables", f"You have {self._made[player]} tables open, as "
                          f"many as one player may: play at one of them, or join another.")
        return address, player

    def _queue(self, session: Session, msg) -> None:
        if session in self.where:
            raise Refused("already_at_table", "Leave your table first.")
        if session in self.quick:
            raise Refused("already_queued", "You are waiting in the queue already.")
        if self.position is not None:
            raise Refused("bad_options", "This server plays one position, at tables of its "
                          "own: create one or join one; there is no quick play.")
        if len(self.tables) >= self.config.max_tables:  # as create_table is refused
            raise Refused("too_many_tables", "The server has as many tables as it allows.")
        seats = msg.seats if isinstance(msg.seats, dict) else {"min": msg.seats,
                                                               "max": msg.seats}
        if msg.reformation and not _new_enough(session):
            raise too_old(session.version)
        if seats["min"] > seats["max"]:
            raise Refused("bad_options", f"A range of seats from {seats['min']} to "
                          f"{seats['max']} holds no table.")
        wish = Wish(session, seats["min"], seats["max"], msg.variant or "base",
                    trio.current_time(), bool(msg.reformation))
        session.send(Queued(re=msg.id, waiting=self.quick.waiting_like(wish) + 1))
        self.quick.add(wish)  # and if a table forms with it, `joined` follows

    def _form(self, formed: Formed) -> None:
        """Open the rated table the queue formed, its players claimed for it (they are in
        the lobby: the queue keeps no one who sits or has ended), and seat them."""
        raw = {"seats": formed.seats, "variant": formed.variant, "rated": True,
               "name": "Quick play", "reformation": formed.reformation}
        if formed.bots:
            raw["bots"] = self._fill_strategy()
        table = Table(self, self.config, self.thinkers, self._new_table_id(),
                      fill_options(raw, self.config, self.thinkers.allowed), "", self.recorder)
        self._open(table)
        players = [wish.who for wish in formed.players]
        for session in players:
            self.claim(session, table)
        table.submit(None, Matched(tuple(players)))
        log.info("queue_formed", table=table.id, players=len(players), bots=formed.bots)

    def _fill_strategy(self) -> str:
        """The server bots that fill a quick-play table: `hard` (the heuristic) if this
        server seats it, else the first strategy it names."""
        allowed = self.thinkers.allowed
        if "hard" in allowed:
            return "hard"
        return next(n.strip() for n in self.config.bot_strategies.split(",")
                    if n.strip() in allowed)

    def _resume(self, saved: dict) -> None:
        """Open a table the store kept, as it was at its last accepted move."""
        table = Table(self, self.config, self.thinkers, saved["id"], saved["options"], "",
                      self.recorder, saved["row"])
        self._members[table] = set()
        self._issued[table] = set()
        try:
            table.restore(saved)
        except Exception:
            # The tokens it issued before its game failed to replay lead nowhere.
            self._members.pop(table)
            for token in self._issued.pop(table):
                self.tokens.pop(token, None)
                self._free_name(token)
            raise
        self._open(table)
        log.info("table_resumed_from_store", table=table.id, status=table.status)

    def _set_aside(self, saved: dict, exc: Exception) -> None:
        """Table `saved` could not be read or replayed: it is not resumed, and the players
        whose tokens can still be read are told why when they come back."""
        if isinstance(exc, StoreError):
            log.error("table_damaged", table=saved["id"], error=str(exc))
        else:  # it was read but does not replay: a bug of ours, or damage SQLite missed
            log.error("table_damaged", table=saved["id"], error=repr(exc), exc_info=True)
        state = saved["state"] if isinstance(saved["state"], dict) else {}
        seats = state.get("seats")
        # Its id was read from the damaged file too: told only if it is one a table may have.
        table_id = saved["id"]
        if not (isinstance(table_id, str) and len(table_id) <= TABLE_ID.max_len
                and printable(table_id)):
            table_id = "?"
        for seat in seats if isinstance(seats, list) else ():
            if isinstance(seat, dict) and isinstance(seat.get("token"), str):
                self._damaged[seat["token"]] = table_id

    async def _close_damaged(self, recorder: Recorder, rows: list[int]) -> None:
        """Close the damaged tables at `rows` in the store, so that the next start does not
        try them again, if the store can still write that. Written once and not retried (as
        the recorder would, pausing nothing here but the startup): a file too damaged to take
        it leaves them open, to be set aside again. Nothing else writes yet."""
        closed = [TableClosed(time.time(), row) for row in rows]
        try:
            await trio.to_thread.run_sync(recorder.store.write, closed)
        except StoreError as exc:
            log.error("damaged_tables_not_closed", tables=len(rows), error=str(exc))

    async def _prune_unless_damaged(self, recorder: Recorder) -> None:
        """Prune old games (server/retention.py) if the file's pages are sound. Removing rows
        rewrites the pages beside them, and a write that meets a damaged page fails and is
        tried again, holding up every table's writes behind it: a damaged store is left as
        it is, and said so once, for its operator to restore or recover."""
        damage = await trio.to_thread.run_sync(recorder.store.damage)
        if damage is not None:
            log.error("store_damaged", error=damage, pruning="off")
            return
        await retention.run(recorder, self.config)

    def _new_table_id(self) -> str:
        table_id = secrets.token_hex(3)
        while table_id in self.tables:
            table_id = secrets.token_hex(3)
        return table_id

    def _open(self, table: Table) -> None:
        """Register `table` and run its task."""
        self.tables[table.id] = table
        self._members.setdefault(table, set())
        self._issued.setdefault(table, set())
        if table.private:
            assert table.code_hash is not None  # a private table has its code
            self.codes[table.code_hash] = table
        assert self._nursery is not None  # made in run, before any table
        self._nursery.start_soon(self._run_table, table)

    def _join(self, session: Session, msg) -> None:
        if session in self.where:
            raise Refused("already_at_table", "Leave your table first.")
        if msg.table:
            table = self.tables.get(msg.table)
            # A private table is joined with its code only: its id is no secret to its members.
            if table is not None and table.private:
                table = None
        else:
            table = self._by_code(session, msg.code or "")
        if table is not None and not table.closed and not _sees(session, table):
            raise too_old(session.version)
        if table is None or table.closed or not table.submit(session, msg):
            raise Refused("no_such_table", "There is no such table.")

    def _identify(self, session: Session, msg) -> None:
        """A verified key is the session's player from now on, under the name the key holds
        here; a table that keeps a seat of that player gives it back (the client may have
        been closed with its token)."""
        self.identities.verify(msg, session.nonce, session.spend_nonce)
        if self._turn_away_if_banned(session, player_id(msg.key)):
            return
        new = not self.identities.known(msg.key)
        made = self._identities_made(sharer(session.address)) if new else None
        if made is not None and made.peek() < 1:
            raise Refused("too_many_identities", "Your address has made as many new "
                          "identities as it may this hour: use one you have, or wait.")
        name, visit = self.identities.bind(msg.key, session.asked, session.name)
        if made is not None:
            made.take()
        if self.recorder:
            assert self._nursery is not None  # made in run, before any session
            self._nursery.start_soon(self.recorder.commit, [visit])
        player = player_id(msg.key)
        self._free_name(session)
        self._take_name(session, name)
        session.identified(player, name)
        table = None
        if session not in self.where:
            table = next((t for t in self.tables.values() if not t.closed
                          and t.seats.of_player(player) and _sees(session, t)), None)
        session.send(Identified(re=msg.id, name=name, table=table.id if table else None,
                                operator=self.moderation.is_operator(player) or None))
        if table is not None:
            table.submit(session, Reseat(player))
        self._poke.set()  # an entrant that came back may be seated for its game
        log.info("identified", session=session.number, name=name, player=player,
                 reseated=table.id if table else None)

    def _via(self, session: Session, msg) -> None:
        """A door vouches for where the session's player is: every limit per address
        (`sharer(session.address)`) counts them there from now on, not at the door."""
        address = self.identities.verify_via(msg, session.nonce)
        # A ban on the player's address holds through a door too.
        if session.move_to(address) and not self._turn_away_if_banned(session,
                                                                       session.player):
            session.send(Ok(re=msg.id))

    def _identities_made(self, address: str) -> TokenBucket:
        """The new identities `address` may still make (--identities-per-hour, refilled
        over the hour). Addresses that are forgiven all are forgotten once many are kept."""
        made = self._new_identities.get(address)
        if made is None:
            if len(self._new_identities) >= CODE_ADDRESSES:
                self._new_identities = {a: b for a, b in self._new_identities.items()
                                        if b.peek() < b.burst}
            per_hour = self.config.identities_per_hour
            made = self._new_identities[address] = TokenBucket(per_hour / 3600, per_hour)
        return made

    def _by_code(self, session: Session, code: str) -> Table | None:
        """The private table of `code`. Wrong codes are limited per address, and over the
        limit no code is even looked up: guessing must stay hopeless (docs/SERVER.md)."""
        key = sharer(session.address)
        tries = self._tries(key)
        if tries is not None and tries.peek() < 1:
            raise Refused("too_many_attempts", f"Too many wrong codes: try again in "
                          f"{CODE_RETRY:.0f} seconds.")
        table = self.codes.get(code_key(code))
        if table is None:
            if tries is not self._crowd:
                tries = self._code_tries.pop(key, None) or TokenBucket(1 / CODE_RETRY,
                                                                       CODE_TRIES)
                self._code_tries[key] = tries  # last: the address that tried one last
            assert tries is not None  # else the crowd's bucket, made in run
            tries.take()
            log.info("wrong_code", session=session.number, address=session.address)
        return table

    def _tries(self, key: str) -> TokenBucket | None:
        """The wrong codes counted for address `key`: its own bucket, or None while it has
        none and there is room for one. When CODE_ADDRESSES addresses are counted, the one
        that tried longest ago (the most forgiven by now) makes room once it is forgiven
        all; until then a newcomer shares the crowd's bucket. Every wrong code costs the
        same, and no number of addresses buys more guesses than CODE_ADDRESSES + 1 do."""
        tries = self._code_tries.get(key)
        if tries is not None or len(self._code_tries) < CODE_ADDRESSES:
            return tries
        oldest = next(iter(self._code_tries))
        if self._code_tries[oldest].peek() < CODE_TRIES:
            return self._crowd
        del self._code_tries[oldest]
        return None

    def _lobby_chat(self, session: Session, msg) -> None:
        """Every viewer of the lobby hears the line, if it is short enough and both its
        address and the lobby are within their rates; a refused line spends neither."""
        if len(msg.text) > self.config.lobby_chat_length:
            raise Refused("bad_message", f"A lobby chat line is at most "
                          f"{self.config.lobby_chat_length} characters.")
        key = sharer(session.address)
        own = self._chatters.get(key)
        if own is not None and own.peek() < 1:
            raise Refused("rate_limited", "Your address is chatting too fast in the lobby: "
                          "wait a little.")
        assert self._lobby_lines is not None  # made in run, before any session
        if self._lobby_lines.peek() < 1:
            raise Refused("rate_limited", "The lobby has as much chat as it carries: wait a "
                          "little.")
        if own is None:
            own = self._chatters[key] = self._chatter()
        own.take()
        self._lobby_lines.take()
        session.send(Ok(re=msg.id))
        chat = encode_once(Chat(scope="lobby", name=session.name, text=msg.text))
        for other in self.sessions:
            if other not in self.where:
                other.send(chat)

    def _chatter(self) -> TokenBucket:
        """A new address's bucket of lobby chat lines, once those whose buckets are full
        again are forgotten: the lobby keeps no more buckets than it carried lines in the
        time one takes to fill, however many addresses speak."""
        quiet = [key for key, bucket in self._chatters.items() if bucket.peek() >= bucket.burst]
        for key in quiet:
            del self._chatters[key]
        return _per_minute(self.config.lobby_chat_per_address)
    # ------------------------------------------------------------------ moderation

    def _operator(self, session: Session) -> None:
        if not self.moderation.is_operator(session.player):
            raise Refused("not_allowed", "Only the server's operators may do that.")

    def _act_at(self, session: Session, msg) -> None:
        """A kick or close_table that names its table by id goes to that table, which
        checks who may. Only an operator may name a table it is not at: to anyone else,
        whether an id is a table's (a private one's, say) is no answer."""
        table = self.tables.get(msg.table)
        if not self.moderation.is_operator(session.player) and (
                msg.TYPE == "close_table" or table is None
                or self.where.get(session) is not table):
            raise Refused("not_allowed", "Only the server's operators may do that.")
        if table is None or table.closed or not table.submit(session, msg):
            raise Refused("no_such_table", "There is no such table.")

    def _turn_away_if_banned(self, session: Session, player: str | None) -> bool:
        """Close `session` (bye banned) if its address, or `player`, is banned; whether it
        was."""
        ban = (self.moderation.ban_on("address", sharer(session.address))
               or self.moderation.ban_on("key", player))
        if ban is None:
            return False
        log.info("banned_refused", session=session.number, address=session.address,
                 player=player, ban=ban.value)
        session.close("banned", _ban_sentence(ban))
        return True

    def _unmuted(self, session: Session) -> None:
        until = self.moderation.muted_until(session.name)
        if until is not None:
            raise Refused("muted", f"An operator muted you in chat until {until_text(until)}.")

    def _mute(self, session: Session, msg) -> None:
        self._operator(session)
        self.moderation.mute(msg.name, msg.minutes)
        log.info("moderation", act="mute", by=session.name, operator=session.player,
                 name=msg.name, minutes=msg.minutes, reason=msg.reason)
        session.send(Ok(re=msg.id))

    def _ban(self, session: Session, msg) -> None:
        """Ban what `msg` names (a connected player's key, or its address if it has none; a
        key; an address) and close the sessions it covers; `ok` once the store keeps it."""
        self._operator(session)
        kind, value = self._banned_by(msg)
        if kind == "key" and self.moderation.is_operator(value):
            raise Refused("not_allowed", "An operator cannot be banned: take the key out of "
                          "--operators first.")
        if kind == "address" and msg.minutes and value == sharer(session.address):
            raise Refused("not_allowed", "That address is your own: the ban would turn you "
                          "away too.")
        assert session.player is not None  # _operator: an operator has a key
        ban, change = self.moderation.ban(kind, value, msg.minutes, msg.reason or "",
                                          session.player)
        log.info("moderation", act="ban", by=session.name, operator=session.player,
                 **{kind: value}, minutes=msg.minutes, reason=msg.reason)
        if msg.minutes:
            for other in list(self.sessions):
                if (other.player == value if kind == "key"
                        else sharer(other.address) == value):
                    other.close("banned", _ban_sentence(ban))
        if self.recorder:
            assert self._nursery is not None  # made in run, before any session
            self._nursery.start_soon(self._kept, self.recorder, session, msg.id, change)
        else:
            session.send(Ok(re=msg.id))

    def _banned_by(self, msg) -> tuple[str, str]:
        """What a `ban` names: ("key", player id) or ("address", address key)."""
        if sum(x is not None for x in (msg.name, msg.key, msg.address)) != 1:
            raise Refused("bad_message", "A ban names one of: name, key, address.")
        if msg.key is not None:
            key = msg.key.lower()
            if any(c not in "0123456789abcdef" for c in key):
                raise Refused("bad_message", "A key is 64 hex digits.")
            return "key", player_id(key)
        if msg.address is not None:
            try:
                ipaddress.ip_address(msg.address)
            except ValueError:
                raise Refused("bad_message", f"{msg.address!r} is not an IP address.") \
                    from None
            return "address", sharer(msg.address)
        wanted = msg.name.casefold()
        target = next((s for s in self.sessions if s.name.casefold() == wanted), None)
        if target is None:
            raise Refused("no_such_player", f"No one called {msg.name} is connected.")
        if target.player is not None:
            return "key", target.player
        return "address", sharer(target.address)

    async def _kept(self, recorder: Recorder, session: Session, request_id: int,
                    change) -> None:
        """Answer `ok` to the act `request_id` once the store keeps its `change`."""
        await recorder.commit([change])
        session.send(Ok(re=request_id))

    # ------------------------------------------------------------------ tables

    async def _run_table(self, table: Table) -> None:
        """Run one table's task; a failure ends that table alone, and for good."""
        failed = False
        try:
            await table.run()
        except Exception as exc:  # noqa: BLE001 — end this table, not the server
            failed = True
            log.error("table_failed", table=table.id, error=repr(exc), exc_info=True)
        finally:
            self._forget(table, failed)
        if failed and self.recorder and table.row is not None:
            await self.recorder.commit([TableClosed(time.time(), table.row)])

    def _forget(self, table: Table, failed: bool) -> None:
        """`table` has closed: its id, code and tokens are gone, its members in the lobby."""
        self.tables.pop(table.id, None)
        for maker in self._makers.pop(table, ()):
            self._made[maker] -= 1
            if not self._made[maker]:  # whoever has no table open is forgotten
                del self._made[maker]
        if table.private and table.code_hash is not None:
            self.codes.pop(table.code_hash, None)
        for token in self._issued.pop(table):
            self.tokens.pop(token, None)
            self._free_name(token)
        if self.tournament is not None and self.tournament.plays_at(table.id):
            self.tournament.lost(table.id)  # closed before its game's end: not played
            self._tournament_changed()
        for session in self._members.pop(table):
            del self.where[session]
            if failed:
                session.send(Error(code="table_failed", message="Your table failed and was "
                                   "closed; you are back in the lobby."))
        self.changed()

    # ------------------------------------------------------------------ names

    def _unique(self, name: str, own: bool = False) -> str | None:
        """`name`, or if it is taken the first of `name-2`, `name-3`, … that is not (cut so
        that it stays within a name's length on the wire); None when those are reserved
        (`guest` numbered so is every guest's name). With `own`, `name` is the guest name
        the server gave, which is not reserved from its session."""
        if not self._taken(name, own):
            return name
        number = 1
        while True:  # ends: the suffixes run into reserved names, or free ones
            number += 1
            suffix = f"-{number}"
            candidate = name[:NAME.max_len - len(suffix)] + suffix
            if reserved(candidate) is not None:
                return None
            if not self._taken(candidate):
                return candidate

    def _taken(self, name: str, own: bool = False) -> bool:
        """Someone here has `name` (or a lookalike), an identity holds it (which a guest
        may not take), or it is a guest's or a bot's (unless it is the session's `own`)."""
        return (bool(self._names[name_key(name)]) or self.identities.holder(name) is not None
                or (not own and reserved(name) is not None))

    def _take_name(self, holder: Session | str, name: str) -> None:
        key = name_key(name)
        self._held[holder] = key
        self._names[key] += 1

    def _free_name(self, holder: Session | str) -> None:
        key = self._held.pop(holder, None)
        if key is not None:
            self._names[key] -= 1
            if not self._names[key]:
                del self._names[key]

    def _listing_frame(self, session: Session) -> Frame:
        """The public tables worth listing to `session` (those its version can read),
        tables waiting for players first, packed."""
        reformation = _new_enough(session)
        listing = self._listing.get(reformation)
        if listing is None:
            public = [t for t in self.tables.values() if not t.private and not t.closed
                      and (reformation or not t.reformation)]
            public.sort(key=lambda t: (t.status is not TableStatus.WAITING, t.seats.free == 0,
                                       t.id))
            listing = self._listing[reformation] = encode_once(Tables(tables=[
                t.summary() for t in public[:MAX_LISTED]]))
        return listing

    async def _push(self) -> None:
        while True:
            await self._dirty.wait()
            self._dirty = trio.Event()
            for session in [s for s in self.subscribers if s not in self.where]:
                session.send(self._listing_frame(session))
            await trio.sleep(LOBBY_PUSH)

    # ------------------------------------------------------------------ the tournament

    async def _push_standings(self) -> None:
        """Until cancelled: tell the tournament's followers (at a table too: an entrant in a
        game hears how the others do) when it changed, at most every LOBBY_PUSH seconds,
        one message for a burst of changes. Its standings are added up in a worker thread
        (see Tournament.message): the lobby's other work goes on meanwhile."""
        while True:
            await self._standings_due.wait()
            self._standings_due = trio.Event()
            current = self.tournament
            if current is not None and self.followers:
                frame = encode_once(await trio.to_thread.run_sync(current.message()))
                if current is self.tournament:
                    if not self._standings_due.is_set():  # else it changed meanwhile
                        self._standings = frame
                    for session in list(self.followers):
                        session.send(frame)
            await trio.sleep(LOBBY_PUSH)

    def _tournament_changed(self) -> None:
        self._standings = None
        self._standings_due.set()

    def _follow(self, session: Session) -> None:
        """`session` gets the tournament's messages: the latest now, or with the next
        push if it changed since."""
        self.followers.add(session)
        if self._standings is not None:
            session.send(self._standings)
        elif self.tournament is not None:
            self._standings_due.set()

    def _tournament_act(self, session: Session, msg) -> None:
        """An operator opens, starts or stops the server's one tournament."""
        current = self.tournament
        if msg.TYPE == "open_tournament":
            if current is not None and not current.over:
                raise Refused("tournament_exists", f"The tournament {current.name} is "
                              f"{current.status}: stop it first.")
            name = name_or_none(msg.name)
            if name is None:
                raise Refused("bad_message", "A tournament's name must be printable text.")
            sizes = sorted(set(msg.sizes or [2]))
            self.tournament = Tournament(name, sizes, msg.rounds or 1, self.config.grace)
            log.info("tournament_opened", by=session.name, operator=session.player,
                     name=name, sizes=sizes, rounds=msg.rounds or 1)
        elif current is None or current.over:
            raise Refused("no_tournament", "There is no tournament open or running.")
        elif msg.TYPE == "start_tournament":
            seed = self.config.seed if self.config.seed is not None else secrets.randbits(63)
            current.start(seed)
            log.info("tournament_started", by=session.name, operator=session.player,
                     name=current.name, entrants=len(current.entrants),
                     games=current.scheduled, seed=seed)
        else:
            current.stop()
            log.info("tournament_stopped", by=session.name, operator=session.player,
                     name=current.name, played=len(current.results))
        session.send(Ok(re=msg.id))
        self._tournament_changed()
        self._poke.set()  # a start makes games due

    def _entry(self, session: Session, msg) -> None:
        """An identified player enters the open tournament, or leaves it."""
        current = self.tournament
        if current is None or current.over:
            raise Refused("no_tournament", "There is no tournament open.")
        if session.player is None:
            raise Refused("not_identified", "Only identified players enter a tournament: "
                          "connect with your key, not as a guest.")
        if msg.TYPE == "enter_tournament":
            current.enter(session.player, session.name)
            log.info("tournament_entered", name=session.name, player=session.player)
        else:
            current.leave(session.player)
        session.send(Ok(re=msg.id))
        if msg.TYPE == "enter_tournament":
            self._follow(session)
        self._tournament_changed()

    async def _schedule(self) -> None:
        """Until cancelled: open the tournament's games as they come due, when an entrant
        comes or goes, a table changes, or an absent entrant's wait ends."""
        while True:
            current = self.tournament
            # A tournament's tables count against --max-tables as any: when the server has
            # them all, its games wait for one to close (which pokes this again).
            full = len(self.tables) >= self.config.max_tables
            wake = current.next_wake() if current is not None and not full else None
            with trio.move_on_at(math.inf if wake is None else wake):
                await self._poke.wait()
            self._poke = trio.Event()
            current = self.tournament
            if current is None or len(self.tables) >= self.config.max_tables:
                continue
            status, played = current.status, len(current.results)
            started = current.due(trio.current_time(),
                                  lambda player: self._available(player) is not None)
            for starting in started:
                self._fixture(current, starting)
            # A game started, or no one came to one (a result), or the last is played.
            if started or len(current.results) != played or current.status is not status:
                self._tournament_changed()

    def _available(self, player: str) -> Session | None:
        """A connected session of `player` in the lobby, if there is one."""
        return next((s for s in self.sessions if s.player == player and s not in self.where),
                    None)

    def _fixture(self, current: Tournament, starting: Starting) -> None:
        """Open the table of a tournament's game, as quick play's: rated, the server's
        clocks, its entrants claimed and seated in the lineup's order, the fallback bot in
        the seats of those absent."""
        suffix = f" #{starting.fixture.number + 1}"
        raw = {"seats": len(starting.present), "rated": True, "bots": self._fill_strategy(),
               "name": current.name[:32 - len(suffix)] + suffix}
        table = Table(self, self.config, self.thinkers, self._new_table_id(),
                      fill_options(raw, self.config, self.thinkers.allowed), "", self.recorder,
                      finish=self._finished)
        self._open(table)
        current.playing(table.id, starting)
        seated = tuple(self._available(p) if p is not None else None for p in starting.present)
        for session in seated:
            if session is not None:
                self.claim(session, table)
        table.submit(None, Matched(seated))
        log.info("tournament_game", table=table.id, number=starting.fixture.number,
                 absent=sum(p is None for p in starting.present))

    def _finished(self, table: Table, game: Game) -> None:
        """A tournament's table has its game over (called in the table's task)."""
        current = self.tournament
        if current is None or not current.plays_at(table.id):
            return
        played = current.finished(table.id, game.exiled, game.winner,
                                  frozenset(table.forsaken), len(game.history))
        log.info("tournament_result", table=table.id, number=played.number,
                 places=list(played.places), forfeits=list(played.forfeits))
        self._tournament_changed()


def _new_enough(session: Session) -> bool:
    """Whether `session`'s protocol version has Reformation tables: a client of version 1
    takes one for a base table, and ends its connection at the first Conversion."""
    return session.version >= REFORMATION_VERSION


def _sees(session: Session, table: Table) -> bool:
    """Whether `session`'s protocol version can read `table`."""
    return not table.reformation or _new_enough(session)


def _per_minute(lines: int) -> TokenBucket:
    """A bucket of `lines` a minute, a quarter of them at once (as a session's chat)."""
    return TokenBucket(lines / 60, lines / 4)


def _ban_sentence(ban: Ban) -> str:
    reason = f": {ban.reason}" if ban.reason else "."
    return f"You are banned from this server until {until_text(ban.until)}{reason}"
