"""What the table's log tells beyond the moves seen live (issue 13): a spectator who arrives
mid-game reads the game so far under "Earlier in this game:" rather than "A new game
begins."; a player whose connection drops and comes back reads no line twice; and table chat
from someone without a seat is marked as a spectator's, in both languages."""

from __future__ import annotations

import socket

from client.i18n import set_language
from client.tui.app import Launch
from client.core.table import TableState
from client.tui.screens.table import TableScreen
from engine import Event
from protocol import Join, Ready, Say
from tests.server.helpers import catch_up, play

from .helpers import create_table, log_lines, my_turn, new_id, practice, run_app, sit, until


def join(server) -> Launch:
    return Launch(mode="join", host="127.0.0.1", port=server.port, name="Ana")


async def tax_and_income(bruno, carla) -> None:
    """Bruno and Carla sit at a two-seat table (no draft) and play two turns: the first to
    act takes Tax, which the other lets stand, then the other takes Income."""
    table = (await create_table(bruno, seats=2, two_player_draft=False)).table
    await sit(carla, table)
    await bruno.request(Ready(id=new_id()))
    await catch_up(bruno, 0)
    await catch_up(carla, 0)
    first, second = (bruno, carla) if bruno.view.actor == bruno.seat else (carla, bruno)
    await play(first, "tax")
    await catch_up(second, 1)
    await play(second, "pass")
    await catch_up(second, 2)
    await play(second, "income")
    await catch_up(first, 3)


async def watch_mid_game(app, pilot, server) -> TableScreen:
    bruno, carla = await server.peer("Bruno"), await server.peer("Carla")
    await server.run(tax_and_income, bruno, carla)
    app.join_table(bruno.table, spectate=True)
    return await until(pilot, lambda: isinstance(app.screen, TableScreen)
                       and app.table.view and app.screen, "the game, spectated")


def test_a_spectator_arriving_mid_game_reads_the_game_so_far(server):
    async def body(app, pilot):
        screen = await watch_mid_game(app, pilot, server)
        log = screen.query_one("#log")
        lines = await until(pilot, lambda: (lines := log_lines(log)) and any(
            "Income" in line for line in lines) and lines, "the earlier events")
        assert "Earlier in this game:" in lines
        assert "A new game begins." not in lines
        earlier = lines[lines.index("Earlier in this game:") + 1:]
        assert any("Tax" in line for line in earlier)
        assert any("Income" in line for line in earlier)

    run_app(join(server), body)


def test_a_spectators_chat_is_marked_as_such(server):
    async def body(app, pilot):
        screen = await watch_mid_game(app, pilot, server)
        bruno = server.peers[0]
        dara = await server.peer("Dara")
        await server.run(dara.request, Join(id=new_id(), table=bruno.table, spectate=True))
        await server.run(dara.request, Say(id=new_id(), text="hi", scope="table"))
        await server.run(bruno.request, Say(id=new_id(), text="hello", scope="table"))
        log = screen.query_one("#log")
        await until(pilot, lambda: "Bruno: hello" in log_lines(log), "Bruno's line")
        assert "Dara (spectator): hi" in log_lines(log)
        app.say("me too", "table")
        await until(pilot, lambda: "Ana (spectator): me too" in log_lines(log), "our line")

    run_app(join(server), body)


def test_a_spectators_chat_is_marked_in_portuguese(server):
    set_language("pt_BR")

    async def body(app, pilot):
        screen = await watch_mid_game(app, pilot, server)
        log = screen.query_one("#log")
        assert "Até agora nesta partida:" in await until(
            pilot, lambda: log_lines(log), "the log")
        app.say("oi", "table")
        await until(pilot, lambda: "Ana (espectador): oi" in log_lines(log), "our line")

    run_app(join(server), body)


def test_a_player_back_after_a_dropped_connection_reads_no_line_twice():
    async def body(app, pilot):
        view = await my_turn(app, pilot)
        log = app.screen.query_one("#log")
        before = log_lines(log)
        app.net.link.stream.socket.shutdown(socket.SHUT_RDWR)
        await until(pilot, lambda: app.table.view is not view, "the fresh snapshot")
        assert app.table.view.state_id == view.state_id  # the bots wait for our move
        await until(pilot, lambda: "Ana is back" in log_lines(log), "our presence")
        assert [line for line in log_lines(log) if line != "Ana is back"] == before

    run_app(practice(bots=2, strategy="honest"), body)


def test_a_snapshot_retelling_the_game_adds_to_the_log_only_what_it_lacks():
    """The log shows a b c; a reconnect's snapshot retells b c d e: d and e are new. A game
    new to the log takes all it retells; an update's events are all new."""
    a, b, c, d, e = (Event("turn", seat) for seat in range(5))
    table = TableState("t1", 0)
    assert table.to_log([a, b, c], new_game=True, retold=False) == [a, b, c]
    assert table.to_log([b, c, d, e], new_game=False, retold=True) == [d, e]
    assert table.to_log([d, e], new_game=False, retold=True) == []
    assert table.logged == [a, b, c, d, e]
    assert table.to_log([c, d], new_game=True, retold=True) == [c, d]
