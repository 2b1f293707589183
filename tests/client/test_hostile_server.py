"""The clients against a hostile server (issue 27, section 7): a snapshot whose per-seat
lists are short crashed the full-screen client with an IndexError, and plain mode
reconnected 3,418 times in about 20 s to a server that broke every connection. Each front
end now refuses the frame as the server's protocol error, says so, drops that connection,
and tries again after growing pauses: a handful of tries a minute.

Plain mode and the bot runner run here in one trio run with the server, on the autojumping
clock, so that minutes of back-off take no time (the full-screen app's test is in
tests/client/tui/test_hostile_server.py)."""

from __future__ import annotations

import io
import os
from functools import partial

import pytest
import trio

from client.plain.session import Plain
from client.runner import BotRunner, Seating
from client.launch import Launch
from engine.bots import make
from tests.client.broken_servers import BROKE, AlwaysRestarting, BadSnapshot

#: The server breaks off counting here: a client that never pauses would loop for ever on
#: the autojumping clock, whose time only passes while every task waits.
TOO_MANY = 200


async def _against(client, seconds: float, hostile: BadSnapshot | None = None) -> int:
    """Run `client()` against a BadSnapshot server (or `hostile`) for `seconds` of the
    test's clock (or until it has connected TOO_MANY times); how many connections it made."""
    hostile = hostile or BadSnapshot()
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, host="127.0.0.1"), hostile, 0)
        port = listeners[0].socket.getsockname()[1]
        nursery.start_soon(client, port)
        with trio.move_on_after(seconds):
            while hostile.connections < TOO_MANY:
                hostile.came = trio.Event()
                await hostile.came.wait()
        nursery.cancel_scope.cancel()
    return hostile.connections


@pytest.mark.trio
async def test_plain_mode_says_the_server_broke_the_protocol_and_backs_off(autojump_clock):
    out = io.StringIO()
    keyboard, typist = os.pipe()  # nothing is typed

    async def plain(port: int) -> None:
        await Plain(Launch("join", name="Ana", port=port), out, keyboard).run()

    try:
        connections = await _against(plain, 60)
    finally:
        os.close(keyboard)
        os.close(typist)
    said = out.getvalue().splitlines()
    assert f"Connection lost: {BROKE} — reconnecting…" in said
    assert 5 <= connections <= 15  # after pauses of up to 0.5, 1, 2, 4, 8, 16, 30 s


@pytest.mark.trio
async def test_the_bot_runner_drops_the_server_and_backs_off(autojump_clock, caplog):
    async def runner(port: int) -> None:
        bot = BotRunner("127.0.0.1", port, make("random", 1), name="bo",
                        seating=Seating(create=6), reconnect_for=60)
        await bot.run()

    connections = await _against(runner, 60)
    assert BROKE in caplog.text
    assert 5 <= connections <= 15


@pytest.mark.trio
async def test_a_server_that_always_says_it_restarts_gets_a_few_tries_a_minute(autojump_clock):
    """`bye server_restart` sends the clients back, with their back-off: a server that says
    it on every connection sees plain mode and the bot runner a handful of times a minute,
    as one that breaks every connection does."""
    out = io.StringIO()
    keyboard, typist = os.pipe()  # nothing is typed

    async def plain(port: int) -> None:
        await Plain(Launch("join", name="Ana", port=port), out, keyboard).run()

    async def runner(port: int) -> None:
        await BotRunner("127.0.0.1", port, make("random", 1), name="bo",
                        seating=Seating(create=6), reconnect_for=60).run()

    try:
        for client in (plain, runner):
            assert 5 <= await _against(client, 60, AlwaysRestarting()) <= 15
    finally:
        os.close(keyboard)
        os.close(typist)
    assert ("Connection lost: The server is restarting; seats are kept for their players to "
            "come back to. — reconnecting…") in out.getvalue().splitlines()
