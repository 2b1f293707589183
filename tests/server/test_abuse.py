"""Hostile and broken clients: garbage, oversized frames, floods, a half-sent frame left
hanging, a client that never reads, too many connections, silence — each while another
table plays on, undisturbed, and finishes. And the limits of the handshake and a clean
shutdown."""

from __future__ import annotations

import argparse
import random
from contextlib import asynccontextmanager

import msgpack
import pytest
import trio
import trio.testing

from protocol import Hello, Join, ListTables, Ping, Rematch
from server import cli
from tests.server.helpers import eventually, seat_table
from tests.server.peer import Peer, new_id

#: The slowest answer to a move the other table may see while a client misbehaves.
UNDISTURBED = 1.0


@asynccontextmanager
async def another_table(connect):
    """Two people at a table who play game after game (rematch) while the body runs, then
    finish the game in progress: every game must end, both must see the same winners, and
    no move may wait long for its answer."""
    peers = await seat_table(connect, ["calm", "quiet"], two_player_draft=False)
    body_done = trio.Event()
    stop_after: dict[int, bool] = {}  # game number -> no rematch after it (both agree)
    winners: dict[str, list[int]] = {peer.name: [] for peer in peers}

    async def player(peer, rng):
        game = 0
        while True:
            await peer.play_random(rng, delay=0.001)
            assert peer.view.over
            winners[peer.name].append(peer.view.winner)
            if stop_after.setdefault(game, body_done.is_set()):
                return
            while (reply := await peer.request(Rematch(id=new_id()))).TYPE == "error":
                assert reply.code == "rate_limited"  # they play fast: wait, ask again
                await trio.sleep(0.1)
            assert reply.TYPE == "ok"
            await peer.expect("snapshot")
            game += 1

    with trio.fail_after(25):
        async with trio.open_nursery() as nursery:
            for i, peer in enumerate(peers):
                nursery.start_soon(player, peer, random.Random(i))
            try:
                yield peers
            finally:
                body_done.set()
    calm, quiet = winners.values()
    assert calm == quiet and len(calm) >= 1
    latencies = [t for peer in peers for t in peer.latencies]
    assert latencies and max(latencies) < UNDISTURBED


async def closed_with(peer) -> list[dict]:
    """The frames a peer gets until the server has closed its connection."""
    with trio.fail_after(5):
        return await peer.raw_until_closed()


def last_words(frames) -> tuple[str, str]:
    last = frames[-1]
    return last["t"], last.get("code") or last.get("reason")


# ------------------------------------------------------------------ broken bytes


@pytest.mark.parametrize("data, code", [
    (b"\xc1", "bad_frame"),                                      # never used in msgpack
    (msgpack.packb([1, 2, 3]), "bad_frame"),                     # not a map
    (msgpack.packb({"id": 1}), "bad_frame"),                     # no t
    (msgpack.packb({"t": 5}), "bad_frame"),                      # t not a string
    (msgpack.packb({"t": "ping", "id": msgpack.ExtType(1, b"x")}), "bad_frame"),
    (msgpack.packb({1: "x", "t": "ping", "id": 1}), "bad_frame"),  # a non-string key
    (msgpack.packb({"t": "say", "id": 1, "text": "x" * 70_000}), "frame_too_large"),
    # Two strings each within limits, together over 64 KiB, and the frame never finished.
    (msgpack.packb({"t": "say", "id": 1, "text": "x" * 60_000, "more": "y" * 10_000})[:66_000],
     "frame_too_large"),
])
async def test_garbage_closes_the_connection_and_nothing_else(connect, data, code):
    async with another_table(connect):
        vandal = await connect("vandal")
        await vandal.send_raw(data)
        frames = await closed_with(vandal)
        assert last_words(frames) == ("error", code)
        bystander = await connect("bystander")
        assert (await bystander.request(ListTables(id=new_id()))).TYPE == "tables"


@pytest.mark.parametrize("frame, code", [
    ({"t": "dance", "id": 3}, "unknown_type"),
    ({"t": "snapshot", "id": 3}, "unknown_type"),                 # a server's message
    ({"t": "join", "id": 3, "seat": "one"}, "bad_message"),
    ({"t": "hello", "versions": [1], "client": "again"}, "bad_message"),
    ({"t": "move", "id": 3, "state_id": 0, "move": {"kind": "income"}, "x": 1},
     "not_at_table"),                                           # unknown fields: ignored
])
async def test_invalid_messages_are_refused_and_the_connection_goes_on(connect, frame, code):
    peer = await connect("clumsy")
    await peer.send_map(frame)
    error = await peer.expect("error")
    assert error.code == code
    if "id" in frame:
        assert error.re == frame["id"]
    assert (await peer.request(Ping(id=new_id()))).TYPE == "pong"


@pytest.mark.parametrize("first, code", [
    (b"\xc1", "bad_frame"),
    (msgpack.packb({"t": "list_tables", "id": 1}), "handshake_required"),
    (msgpack.packb({"t": "hello", "versions": [1]}), "handshake_required"),  # no client
    (msgpack.packb({"t": "hello", "versions": [7, 9], "client": "future"}),
     "unsupported_version"),
])
async def test_a_bad_handshake_is_answered_and_closed(connect, first, code):
    peer = await connect("stranger", handshake=False)
    await peer.send_raw(first)
    frames = await closed_with(peer)
    assert last_words(frames) == ("error", code)
    if code == "unsupported_version":
        assert frames[-1]["versions"] == [1, 2]


@pytest.mark.parametrize("name", ["bell\x07", "\u202eana", "\u3164", "ana\u034f"])
async def test_a_name_that_cannot_be_printed_is_replaced(connect, name):
    peer = await connect(name)
    assert peer.name.startswith("guest-")
    error = await peer.expect("error")
    assert error.code == "bad_message" and peer.name in error.message


# ------------------------------------------------------------------ floods and stalls


async def test_a_flood_is_rate_limited_then_cut_off(connect, config):
    async with another_table(connect):
        flood = await connect("flood")
        pings = b"".join(msgpack.packb({"t": "ping", "id": i}) for i in range(1000))
        await flood.send_raw(pings)
        frames = await closed_with(flood)
        pongs = [f for f in frames if f["t"] == "pong"]
        limited = [f for f in frames if f.get("code") == "rate_limited"]
        # The burst is served (a token or two may come back meanwhile), the next ones are
        # refused, and then the connection ends.
        assert config.burst <= len(pongs) <= config.burst + 2
        assert config.burst - 2 <= len(limited) <= config.burst
        assert last_words(frames) == ("bye", "rate_limited")


@pytest.mark.server_config(ping_interval=0.3)
async def test_a_half_sent_frame_left_hanging_ends_in_an_idle_timeout(connect):
    async with another_table(connect):
        hanging = await connect("hanging")
        hanging.auto_pong = False
        frame = msgpack.packb({"t": "say", "id": 1, "text": "never finished"})
        await hanging.send_raw(frame[:7])
        start = trio.current_time()
        frames = await closed_with(hanging)
        assert [f["t"] for f in frames] == ["welcome", "ping", "bye"]
        assert last_words(frames) == ("bye", "idle_timeout")
        assert 0.5 <= trio.current_time() - start < 2


@pytest.mark.server_config(outbox_bytes=16 * 1024)
async def test_a_client_that_never_reads_is_cut_off(connect, server, port, caplog):
    async with another_table(connect) as (calm, _):
        sleeper = await Peer.connect(port, "sleeper", rcvbuf=2048)
        try:
            await sleeper.request(Join(id=new_id(), table=calm.table, spectate=True))
            before = len(server.sessions)
            # It reads nothing more: the games it watches fill its socket, then its outbox.
            await eventually(lambda: len(server.sessions) == before - 1, seconds=20)
        finally:
            await sleeper.aclose()
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == [
        "slow_consumer"]


@pytest.mark.server_config(ping_interval=0.2)
async def test_silence_is_pinged_then_closed(connect):
    quiet, lively = await connect("quiet"), await connect("lively")
    quiet.auto_pong = False

    async def keep_talking():  # reading, so answering the server's pings too
        while True:
            assert (await lively.request(ListTables(id=new_id()))).TYPE == "tables"
            await trio.sleep(0.25)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(keep_talking)
        start = trio.current_time()
        frames = await closed_with(quiet)
        assert [f["t"] for f in frames] == ["welcome", "ping", "bye"]
        assert last_words(frames) == ("bye", "idle_timeout")
        assert 0.35 <= trio.current_time() - start < 1.5
        await trio.sleep(1)  # five pings' time: the one who answers stays
        nursery.cancel_scope.cancel()
    assert (await lively.request(Ping(id=new_id()))).TYPE == "pong"


@pytest.mark.server_config(ping_interval=0.2)
async def test_a_client_that_only_answers_pings_stays_connected(connect):
    silent = await connect("silent")

    async def answer_pings():  # reading answers each ping; it says nothing else
        while await silent.next() is not None:
            pass

    async with trio.open_nursery() as nursery:
        nursery.start_soon(answer_pings)
        await trio.sleep(1.5)  # seven intervals: pinged every other one or so
        nursery.cancel_scope.cancel()
    assert not silent.closed
    assert sum(f["t"] == "ping" for f in silent.frames) >= 2
    assert (await silent.request(Ping(id=new_id()))).TYPE == "pong"


@pytest.mark.parametrize("flag", ["--ping-interval", "--late-write"])
@pytest.mark.parametrize("seconds", ["0", "-1", "nan"])
async def test_a_time_that_is_not_seconds_above_0_is_refused_at_start(flag, seconds, capsys):
    """--ping-interval and --late-write must be seconds above 0. Else the sweep of the
    sessions' pings would run without a pause, every session pinged and closed at once; a
    late write of 0 would pause every table at every write, and a negative one stop the
    store's writer at its first."""
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    assert cli.main(parser.parse_args([flag, seconds, "--db", ":memory:"])) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"coup serve: {flag}:")


@pytest.mark.server_config(handshake_timeout=0.3)
async def test_no_hello_in_time_is_a_handshake_timeout(connect):
    start = trio.current_time()  # before the server's clock starts, at its accept
    peer = await connect("mute", handshake=False)
    frames = await closed_with(peer)
    assert last_words(frames) == ("error", "handshake_timeout")
    assert 0.25 <= trio.current_time() - start < 2


# ------------------------------------------------------------------ connection limits


@pytest.mark.server_config(max_connections=4)
async def test_too_many_connections_in_all(connect, server):
    async with another_table(connect):  # two of the four
        one = await connect("one")
        await connect("two")
        extra = await connect("extra", handshake=False)
        frames = await closed_with(extra)
        assert last_words(frames) == ("error", "too_many_connections")
        await one.aclose()
        await eventually(lambda: len(server.sessions) == 3)
        assert (await connect("three")).name == "three"


@pytest.mark.server_config(max_per_address=2)
async def test_too_many_connections_from_one_address(connect):
    await connect("one")
    await connect("two")
    extra = await connect("extra", handshake=False)
    assert last_words(await closed_with(extra)) == ("error", "too_many_connections")
    elsewhere = await connect("elsewhere", source="127.0.0.2")
    assert (await elsewhere.request(ListTables(id=new_id()))).TYPE == "tables"


# ------------------------------------------------------------------ shutdown


async def test_shutdown_says_bye_to_everyone_and_closes(connect, server, port):
    playing = await seat_table(connect, ["ana", "bruno"])
    watcher = await connect("watcher")
    await watcher.request(Join(id=new_id(), table=playing[0].table, spectate=True))
    lobby = await connect("lobby")
    await lobby.request(ListTables(id=new_id()))
    shy = await connect("shy", handshake=False)
    start = trio.current_time()
    with trio.fail_after(2):
        await server.shutdown()
    assert trio.current_time() - start < 1  # nobody had to be waited for
    for peer in playing + [watcher, lobby, shy]:
        frames = await closed_with(peer)
        assert last_words(frames) == ("bye", "server_shutdown"), peer.name
    await trio.testing.wait_all_tasks_blocked()
    with pytest.raises(OSError):  # the server no longer listens
        await Peer.connect(port, "late")


async def test_a_connection_that_comes_while_the_server_stops_is_turned_away(connect, server):
    # While the server stops, it still listens for a moment (the others' last words go out);
    # a client that comes then, a bot reconnecting say, is told so at once and not served.
    server.stopping = True
    late = await connect("late", handshake=False)
    await late.send(Hello(versions=[1], client="test/1", name="late"))
    frames = await closed_with(late)
    assert [f["t"] for f in frames] == ["bye"]
    assert last_words(frames) == ("bye", "server_shutdown")
    assert not server.sessions
