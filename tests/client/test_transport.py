"""The one transport loop against a real server: the core's messages go out, the server's
come back into it, its events reach the front end in order, and a leave holds back what
follows it until the server's `ok` (so a spectate typed right after leaving lands)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
import trio

from client.core import Core
from client.core import events as ev
from client.core import intents as do
from client.transport import Transport
from server import Server, ServerConfig


class Front:
    """A front end that keeps every event and wakes whoever waits for one kind."""

    def __init__(self) -> None:
        self.events: list[ev.Event] = []
        self._changed = trio.Event()

    def deliver(self, events: Sequence[ev.Event]) -> None:
        self.events += events
        self._changed.set()
        self._changed = trio.Event()

    async def first(self, kind: type[ev.Event], after: int = 0) -> ev.Event:
        while True:
            found = [e for e in self.events[after:] if isinstance(e, kind)]
            if found:
                return found[0]
            await self._changed.wait()


async def started(nursery: trio.Nursery, name: str, port: int) -> tuple[Transport, Front]:
    front = Front()
    transport = Transport(Core(), front.deliver)
    nursery.start_soon(transport.run, "127.0.0.1", port, name)
    await front.first(ev.Connected)
    return transport, front


@pytest.mark.trio
async def test_a_spectate_sent_right_after_a_leave_waits_for_the_ok_and_lands() -> None:
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            server = Server(ServerConfig(port=0))
            await nursery.start(server.serve)
            port = server.address[1]
            ana, ana_front = await started(nursery, "ana", port)
            bo, bo_front = await started(nursery, "bo", port)
            bo.submit(do.CreateTable({"seats": 3}))
            other = await bo_front.first(ev.TableJoined)
            ana.submit(do.CreateTable({"seats": 3}))
            await ana_front.first(ev.TableJoined)
            mark = len(ana_front.events)
            ana.submit(do.Leave())
            held = ana.submit(do.JoinTable(table=other.table.table, spectate=True))
            assert held is None  # not sent: the leave is in flight
            await ana_front.first(ev.TableLeft, mark)
            watching = await ana_front.first(ev.TableJoined, mark)
            assert watching.table.table == other.table.table and watching.table.seat is None
            assert not [e for e in ana_front.events[mark:] if isinstance(e, ev.Refused)]
            nursery.cancel_scope.cancel()


@pytest.mark.trio
async def test_a_server_that_is_not_there_is_a_failed_connect() -> None:
    front = Front()
    with trio.fail_after(10):
        await Transport(Core(), front.deliver).run("127.0.0.1", 1, "ana")
    [failed] = front.events
    assert isinstance(failed, ev.ConnectFailed) and "cannot connect" in failed.reason


@pytest.mark.trio
async def test_a_server_shutting_down_ends_the_session_with_its_goodbye() -> None:
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            server = Server(ServerConfig(port=0))
            await nursery.start(server.serve)
            transport, front = await started(nursery, "ana", server.address[1])
            transport.submit(do.CreateTable({"seats": 3}))
            await front.first(ev.TableJoined)
            await server.shutdown()
            gone = await front.first(ev.Disconnected)
            assert isinstance(gone, ev.Disconnected) and gone.said == "server_shutdown"
            assert not [e for e in front.events if isinstance(e, ev.ConnectionLost)]
            nursery.cancel_scope.cancel()
