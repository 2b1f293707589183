"""Driving the app in tests: start it, wait for a state (the network answers in its own
time: `pilot.pause()` alone never waits for a round trip), play whatever is asked, and run a
server (with scripted players) beside the app.

`ServerThread` is a real server in a background thread with its own `trio.run`: the app's
trio guest run and the server's run never share a thread, so the app connects to it exactly
as `coup join` would. Scripted players (`Peer`s of the server tests) live in that thread too;
a test runs their coroutines with `await server.run(fn, …)`, which waits in a worker thread
so that the app's loop keeps running meanwhile, and bounds every call by WAIT seconds.

`until` waits on the app's messages: an app that `run_app` runs wakes its waiter each time
any of its widgets, screens or the app itself takes a message (Textual's message hook), which
is how every change reaches a client (the network posts messages; keys are messages). It lets
the screen settle (`pilot.pause`, which visits every widget) once the state it waits for is
there, not on every look.
"""

from __future__ import annotations

import asyncio
import threading
import time
import weakref
from collections.abc import Callable
from contextlib import suppress

import trio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from client.core.events import Send
from client.identity import Identity
from client.tui.app import CoupApp, Launch
from client.tui.screens.dialogs import ChooseDialog
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.table import RESPONSE_KEYS, TableScreen
import server.table as table_module
from engine import Game
from protocol import CreateTable, Join, MoveRequest, Ready
from server import Server, ServerConfig
from tests.server.peer import Peer, new_id

#: The operator of the `moderated` server (conftest.py): an app with this identity may
#: moderate and run tournaments there.
OPERATOR = Identity("(test)", Ed25519PrivateKey.generate())

#: Seconds a test waits for a state before it fails.
WAIT = 20
#: Seconds `until` waits at most before it looks again with no message taken: what changes
#: outside the app (a server's thread, the app closing, an app `run_app` did not start, as a
#: snapshot test's) changes without one.
RECHECK = 0.02

#: Each app `run_app` runs, and the event set whenever it takes a message.
_stirred: weakref.WeakKeyDictionary[CoupApp, asyncio.Event] = weakref.WeakKeyDictionary()


def run_app(launch: Launch, body, size=(100, 30), notifications: bool = False) -> CoupApp:
    """Run `body(app, pilot)` in the app, in a fresh asyncio loop; returns the app. Its
    notices are drawn only with `notifications` (else `notes` has them)."""
    app = CoupApp(launch)

    async def main():
        stirred = _stirred[app] = asyncio.Event()
        # The hook runs as a message is dispatched, before its handler: a waiter woken by it
        # runs only once the dispatching task yields, so after a handler that does not await.
        async with app.run_test(size=size, notifications=notifications,
                                message_hook=lambda _message: stirred.set()) as pilot:
            await body(app, pilot)

    asyncio.run(main())
    return app


async def until(pilot, ready: Callable[[], object], what: str, timeout: float = WAIT,
                settle: bool = True):
    """Wait until `ready()` is true, the screen on top drawn (a screen just pushed is on
    top before its widgets are there), and the screen has drawn what the app knows then (the
    app tells its screens by message); fail saying `what` was awaited. It looks again each
    time the app takes a message, and at least every RECHECK seconds. Without `settle` it
    returns as soon as `ready()` is true, not waiting for the process to idle (which a
    busy worker thread would make it wait for up to a second)."""
    stirred = _stirred.get(pilot.app) or asyncio.Event()
    deadline = time.monotonic() + timeout
    while not (pilot.app.screen.is_mounted and (result := ready())):
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"timed out waiting for {what}")
        stirred.clear()
        with suppress(TimeoutError):
            async with asyncio.timeout(min(RECHECK, left)):
                await stirred.wait()
    if settle:
        await pilot.pause()
    return result


def practice(**settings) -> Launch:
    """`coup play` with bots that move at once and no clocks, unless the test says otherwise,
    and a key of its own (kept in no file), as `coup play` always has one."""
    values = {"mode": "play", "name": "Ana", "bots": 1, "strategy": "random", "seed": 7,
              "bot_delay": 0, "response_clock": 0, "turn_clock": 0,
              "identity": Identity("(test)", Ed25519PrivateKey.generate())}
    values.update(settings)
    return Launch(**values)


async def start_practice(app, pilot) -> None:
    """At a practice table (`coup play`) that waits for its player, press s to deal, as the
    player does once the bots are seated; nothing once the game runs."""
    if app.launch.mode != "play" or (app.table is not None and app.table.view is not None):
        return
    await until(pilot, lambda: isinstance(app.screen, TableScreen) and "s" in bar_keys(app),
                "the practice table's Start")
    await pilot.press("s")
    await until(pilot, lambda: app.table.view is not None, "the game")


def my_decision(app: CoupApp):
    """The view, when this client owes a decision with no move pending (or the game is over)
    and the table takes keys for it: not while they would be taken as meant for a prompt
    of ours that it just replaced (KEY_GRACE), which a person would read first."""
    table = app.table
    view = table.view if table is not None else None
    if view is None or table.pending is not None:
        return None
    if isinstance(app.screen, TableScreen) and app.screen.holding_keys:
        return None
    if view.over or view.seat in view.waiting:
        return view
    return None


def dialog(app: CoupApp) -> ChooseDialog | None:
    """The choice dialog on top, if one is open."""
    return app.screen if isinstance(app.screen, ChooseDialog) else None


def dialog_labels(app: CoupApp) -> list[str]:
    return [label for label, _value in app.screen.options]


#: The key that answers each kind of decision when the bar offers it: pass, and show the
#: challenged card when it is held (else concede, which then asks nothing).
ANSWERS = {"respond": RESPONSE_KEYS["pass"], "prove": RESPONSE_KEYS["prove"]}


def answer_key(view) -> str:
    """The key `play_to_the_end` and `my_turn` answer `view`'s decision with."""
    if view.phase == "prove" and view.claim not in view.hands[view.seat]:
        return RESPONSE_KEYS["concede"]
    return ANSWERS[view.phase]


async def play_to_the_end(app, pilot) -> int:
    """Answer every decision with keys (Income, Coup when forced, pass, concede, the
    first choice of every dialog) until the game is over, starting a practice game first;
    returns how many moves were made."""
    await start_practice(app, pilot)
    moves = 0
    while True:
        view = await until(pilot, lambda: my_decision(app), "a decision or the end")
        if view.over:
            return moves
        state = view.state_id
        if view.phase == "action":
            must_coup = view.coins[view.seat] >= 10
            await pilot.press("c" if must_coup else "i")
            if must_coup and sum(view.alive) > 2:  # one target is played at once
                await until(pilot, lambda: dialog(app), "targets")
                await pilot.press("1")
        elif view.phase in ANSWERS:
            await pilot.press(answer_key(view))
        else:  # a choice the table opened a dialog for
            await until(pilot, lambda: dialog(app), "the dialog")
            await pilot.press("1")
        moves += 1
        await until(pilot, lambda state=state: app.table.view.state_id != state,
                    "the move's update")


class ServerThread:
    """A real server on a loopback port, in its own thread and trio run, with peers."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.server = Server(config)
        self.peers: list[Peer] = []
        self._token: trio.lowlevel.TrioToken | None = None
        self._scope: trio.CancelScope | None = None
        self._started = threading.Event()
        self._thread = threading.Thread(target=trio.run, args=(self._main,), daemon=True)

    @property
    def port(self) -> int:
        return self.server.address[1]

    def start(self) -> ServerThread:
        self._thread.start()
        if not self._started.wait(WAIT):
            raise AssertionError("the test server did not start")
        return self

    @property
    def running(self) -> bool:
        """The server's thread runs: a test may have shut the server down itself."""
        return self._thread.is_alive()

    def stop(self) -> None:
        if self.running:
            trio.from_thread.run_sync(self._scope.cancel, trio_token=self._token)
        self._thread.join(WAIT)
        assert not self._thread.is_alive(), "the test server did not stop"

    async def _main(self) -> None:
        try:
            async with trio.open_nursery() as nursery:
                self._scope = nursery.cancel_scope
                await nursery.start(self.server.serve)
                self._token = trio.lowlevel.current_trio_token()
                self._started.set()
        finally:
            with trio.CancelScope(shield=True):
                for peer in self.peers:
                    await trio.aclose_forcefully(peer.stream)

    async def run(self, fn, *args, **kwargs):
        """Run the trio coroutine `fn(*args, **kwargs)` in the server's thread and return
        its result; the app's loop runs on meanwhile."""
        async def bounded():
            with trio.fail_after(WAIT):
                return await fn(*args, **kwargs)

        return await asyncio.to_thread(trio.from_thread.run, bounded, trio_token=self._token)

    async def peer(self, name: str) -> Peer:
        """A scripted player connected to the server."""
        async def connect():
            peer = await Peer.connect(self.port, name)
            self.peers.append(peer)
            return peer

        return await self.run(connect)


async def create_table(peer: Peer, **options):
    """The peer creates a table (options as the wire's) and sits at seat 0; returns the
    Joined (the table's id, and its code if private)."""
    reply = await peer.request(CreateTable(id=new_id(), options=options))
    assert reply.TYPE == "joined", reply
    return reply


async def sit(peer: Peer, table: str | None = None, code: str | None = None,
              ready: bool = True):
    """The peer joins a table (by id or code), ready to play if `ready`."""
    reply = await peer.request(Join(id=new_id(), table=table, code=code))
    assert reply.TYPE == "joined", reply
    if ready:
        await peer.request(Ready(id=new_id(), ready=True))
    return reply


def log_lines(widget) -> list[str]:
    """The lines a RichLog shows, as plain text."""
    return [strip.text for strip in widget.lines]


def bar_keys(app: CoupApp) -> list[str]:
    """The keys the table's action bar offers now."""
    return [item.key for item in app.screen.query_one("#actions").items]


def shown(widget) -> str:
    """The text a widget shows on screen now (its lines joined), borders included."""
    return "\n".join(strip.text for strip in widget.render_lines(widget.region.reset_offset))


def sent_by(app: CoupApp) -> list:
    """Record every message the app's client core sends from now on (they are still sent)."""
    sent = []
    core = app.core
    intend = core.intend

    def recording(intent):
        events = intend(intent)
        sent.extend(e.msg for e in events if isinstance(e, Send))
        return events

    core.intend = recording
    return sent


def from_server(app: CoupApp, msg) -> None:
    """Hand the app `msg` as if its server had sent it."""
    app.net.transport.received(msg)


def pretend_connected(app: CoupApp, name: str = "Ana", server: str = "coup-server/0.1") -> None:
    """A stand-in connection: the app's client core believes it is connected to `server`
    as `name` (what it sends goes nowhere)."""
    app.core.opened(name, server, False, False, 0.0)


def notes(app: CoupApp) -> list[str]:
    """The messages of the notifications shown so far."""
    return [n.message for n in app._notifications]


async def my_turn(app, pilot):
    """Wait for this client's turn to act (a practice game started, a dialog's decisions
    answered with its first choice, responses with pass, on the way); returns the view."""
    await start_practice(app, pilot)
    while True:
        view = await until(pilot, lambda: my_decision(app), "our decision")
        if view.phase == "action":
            return view
        state = view.state_id
        if view.phase in ANSWERS:
            await pilot.press(answer_key(view))
        else:
            await until(pilot, lambda: dialog(app), "the dialog")
            await pilot.press("1")
        await until(pilot, lambda state=state: app.table.view.state_id != state,
                    "the move's update")


def bar_text(app: CoupApp) -> str:
    """The action bar's buttons as they read."""
    return " · ".join(str(button.label) for button in app.screen.query("#actions Button"))


async def peer_plays(peer: Peer, state_id: int, choose: Callable, phase: str | None = None):
    """Once the peer has seen state `state_id` (or a later one) and owes a decision (in
    `phase`, if given), it plays `choose(view)` (a Move); returns the view it moved on."""
    def due(view) -> bool:
        return (view is not None and view.state_id >= state_id and peer.seat in view.waiting
                and (phase is None or view.phase == phase))

    while not due(peer.view):
        if await peer.next() is None:
            raise AssertionError(f"{peer.name}: closed while waiting to play")
    view = peer.view
    reply = await peer.request(MoveRequest(id=new_id(), state_id=view.state_id,
                                           move=choose(view).to_dict()))
    assert reply.TYPE == "move_accepted", reply
    return view


def arrange(monkeypatch, **position) -> None:
    """The server's next game is the position given (`Game.arrange`: Ana at seat 0, Bruno
    at seat 1 in a `duel`)."""
    class Arranged(Game):
        @classmethod
        def new(cls, options, seed=None):
            return Game.arrange(options, seed=1, **position)

    monkeypatch.setattr(table_module, "Game", Arranged)


async def duel(app, pilot, server, rival: str = "Bruno", **options):
    """A two-seat table made by the app, a peer named `rival` sitting and everyone ready;
    returns the peer."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    app.create_table({"seats": 2, "response_clock": 0, "turn_clock": 0, **options})
    await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info,
                "the table")
    bruno = await server.peer(rival)
    await server.run(sit, bruno, app.table.table)
    app.ready(True)
    await until(pilot, lambda: app.table.view is not None, "the game")
    return bruno
