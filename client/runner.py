"""The bot runner: plays any strategy over TCP, as `coup bot` does.

It connects and says hello; finds a table (by id, by private code, by creating one, or
else the first public table waiting with a free seat, the server listing them oldest
first); says ready; and then answers every decision its seat owes with the strategy's
choice, made in a worker thread so that the connection stays alive while it thinks. If the
strategy is still thinking close to the decision's deadline, the runner sends a safe default
(the one R10 would play) and says so in the log. After each game it asks for a rematch
until it has played the games it was asked for. A dropped connection is re-opened with the
seat's token, and play goes on from the fresh snapshot (a move sent on the broken link is
made again if the snapshot still asks for it: it may have been lost with the link), unless
the server said it is stopping, gave the seat to a newer connection, or no longer has the
seat: then the runner stops (Dismissed).
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass

import trio

from engine import Event, Move, View, default_move, legal_moves
from engine.bots import Strategy
from protocol import (
    CreateTable, Error, Join, Leave, ListTables, MoveRequest, Pong, Ready, Rematch,
)

from .net import FINAL_GOODBYES, Link, LinkError

log = logging.getLogger("coup.bot")

#: Seconds kept in hand before a deadline: the move must reach the server in time.
MARGIN = 1.0


class Dismissed(LinkError):
    """The seat is gone for good: the server said a goodbye that a reconnect cannot undo
    (FINAL_GOODBYES), or refused the seat's token when the runner came back."""


@dataclass
class Seating:
    """How the runner finds its table: one of table, code, create (seats), or none."""

    table: str | None = None
    code: str | None = None
    create: int | None = None


@dataclass
class _Answer:
    """The runner's answer to the open decision, as far as one link and one game know it
    (each `_play` starts a new one): a move sent on a link that broke may have been lost with
    it, so the next link decides again from its snapshot instead of waiting for an answer."""

    decision: int | None = None  #: the decision a move was sent for (its View.opened)
    move_id: int | None = None  #: that move's request id


class BotRunner:
    """One bot seat played over the network."""

    def __init__(self, host: str, port: int, strategy: Strategy, *, name: str | None = None,
                 seating: Seating | None = None, games: int = 1,
                 reconnect_for: float = 120.0) -> None:
        self.host = host
        self.port = port
        self.strategy = strategy
        self.name = name or f"{strategy.name}-bot"
        self.seating = seating or Seating()
        self.games = games
        self.reconnect_for = reconnect_for
        self.played = 0
        self.wins = 0
        self.token: str | None = None
        self.table: str | None = None
        self.view: View | None = None
        self._fallback = random.Random()

    async def run(self) -> int:
        """Play until `games` games are over; returns how many this seat won."""
        link = await Link.open(self.host, self.port, self.name)
        self.name = link.welcome.name or self.name
        try:
            await self._find_table(link)
            while self.played < self.games:
                try:
                    await self._play(link)
                except Dismissed:
                    raise
                except LinkError as exc:
                    log.warning("%s: %s; reconnecting", self.name, exc)
                    await link.aclose()
                    link = await self._reconnect()
            await link.send(Leave(id=link.next_id()))
        finally:
            await link.aclose()
        return self.wins

    async def _reconnect(self) -> Link:
        deadline = trio.current_time() + self.reconnect_for
        delay = 0.2
        while True:
            try:
                return await Link.open(self.host, self.port, self.name, token=self.token)
            except LinkError:
                if trio.current_time() + delay > deadline:
                    raise
                await trio.sleep(delay)
                delay = min(5.0, delay * 2)

    # ------------------------------------------------------------------ the lobby

    async def _find_table(self, link: Link) -> None:
        seating = self.seating
        if seating.create:
            request = CreateTable(id=link.next_id(), options={"seats": seating.create})
        elif seating.table or seating.code:
            request = Join(id=link.next_id(), table=seating.table, code=seating.code)
        else:
            request = Join(id=link.next_id(), table=await self._wait_for_table(link))
        await link.send(request)
        while True:
            msg = await self._receive(link)
            if msg.TYPE == "joined" and msg.re == request.id:
                self.table, self.token = msg.table, msg.token
                log.info("%s: seat %s at table %s", self.name, msg.seat, msg.table)
                break
            if msg.TYPE == "error" and msg.re == request.id:
                raise LinkError(f"could not sit: {msg.code}: {msg.message}")
        await link.send(Ready(id=link.next_id()))

    async def _wait_for_table(self, link: Link) -> str:
        """The first public table waiting for players with a free seat (waits for one)."""
        await link.send(ListTables(id=link.next_id()))
        while True:
            msg = await self._receive(link)
            if msg.TYPE != "tables":
                continue
            for table in msg.tables:
                if table["status"] == "waiting" and any(
                    s["name"] is None for s in table["seats"]
                ):
                    return table["table"]

    async def _receive(self, link: Link):
        msg = await link.receive()
        if msg is None:
            raise LinkError("the server closed the connection")
        if msg.TYPE == "bye":
            said = f"the server said goodbye ({msg.reason})"
            if msg.message:
                said += f": {msg.message}"
            if msg.reason in FINAL_GOODBYES:
                raise Dismissed(said)
            raise LinkError(said)
        if isinstance(msg, Error) and msg.code == "bad_token":
            # The seat was played out by a bot or its table closed while we were away: no
            # snapshot will come for it.
            raise Dismissed(f"the seat is gone ({msg.code}): {msg.message}")
        if isinstance(msg, Error) and msg.re is None:
            log.warning("%s: server says %s: %s", self.name, msg.code, msg.message)
        return msg

    # ------------------------------------------------------------------ the game

    async def _play(self, link: Link) -> None:
        """Play until this game is over (then ask for the rematch, if more are wanted)."""
        answer = _Answer()
        while True:
            msg = await self._receive(link)
            kind = msg.TYPE
            if kind == "ping":
                await link.send(Pong(re=msg.id))
            elif kind in ("snapshot", "update"):
                view = View.from_dict(msg.view)
                self.view = view
                if kind == "update":
                    events = [Event(**e) for e in msg.events]
                    self.strategy.observe(view, events)
                if view.over:
                    await self._game_over(link, view)
                    return
                await self._decide(link, answer, view, msg.deadlines)
            elif kind == "move_rejected" or (kind == "error" and msg.re is not None
                                             and msg.re == answer.move_id):
                log.info("%s: move refused: %s (%s)", self.name, msg.code, msg.message)
                answer.decision = None  # decide again on the newest view
                if msg.code == "rate_limited":
                    await trio.sleep(0.5)  # the server asked us to slow down
                if self.view is not None and msg.code != "stale_state":
                    await self._decide(link, answer, self.view, [])

    async def _decide(self, link: Link, answer: _Answer, view: View,
                      deadlines: list[dict]) -> None:
        me = view.seat
        if me is None or me not in view.waiting:
            return
        decision = view.opened  # every decision opens at its own state
        if answer.decision == decision:
            return
        moves = legal_moves(view, me)
        ms = next((d["ms"] for d in deadlines if d["seat"] == me), None)
        move = await self._think(view, moves, ms)
        answer.decision = decision
        answer.move_id = link.next_id()
        await link.send(MoveRequest(id=answer.move_id, state_id=view.state_id,
                                    move=move.to_dict()))

    async def _think(self, view: View, moves, ms: int | None) -> Move:
        if ms is None:
            return await trio.to_thread.run_sync(self.strategy.choose, view, moves)
        allowed = max(0.05, ms / 1000 - MARGIN)
        with trio.move_on_after(allowed):
            return await trio.to_thread.run_sync(
                self.strategy.choose, view, moves, abandon_on_cancel=True)
        log.warning("%s: still thinking near the deadline; playing the safe default",
                    self.name)
        return default_move(view, view.seat, self._fallback)

    async def _game_over(self, link: Link, view: View) -> None:
        self.played += 1
        if view.winner == view.seat:
            self.wins += 1
        self.strategy.game_over(view)
        log.info("%s: game %d over, winner seat %s", self.name, self.played, view.winner)
        if self.played < self.games:
            await link.send(Rematch(id=link.next_id()))
