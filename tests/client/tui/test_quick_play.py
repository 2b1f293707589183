"""Quick play from the lobby: q (Play now) asks for the seats and the variant, queues, and
shows the wait with a live count until the server seats the player at a rated table (the
table screen), or esc stops the wait; both languages.

The other players are scripted peers in the server's thread (`server.run`).
"""

from __future__ import annotations

from textual.widgets import Label, Select

from client.i18n import set_language
from client.tui.app import Launch
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.quick import QuickPlayForm, WaitingScreen
from client.tui.screens.table import TableScreen
from protocol import Queue

from .helpers import new_id, notes, run_app, shown, until
from .test_lobby import footer_keys


def join(server) -> Launch:
    return Launch(mode="join", host="127.0.0.1", port=server.port, name="Ana")


async def queue(peer, seats) -> None:
    answer = await peer.request(Queue(id=new_id(), seats=seats))
    assert answer.TYPE == "queued", answer


async def waiting(app, pilot, seats: int) -> WaitingScreen:
    """From the lobby: q, the form's seats set to `seats`, OK; the wait that follows."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    await pilot.press("q")
    form = await until(pilot, lambda: isinstance(app.screen, QuickPlayForm) and app.screen,
                       "the quick play form")
    form.query_one("#quick-seats", Select).value = seats
    await pilot.click("#ok")
    return await until(pilot, lambda: isinstance(app.screen, WaitingScreen) and app.screen,
                       "the wait")


def wait_line(app) -> str:
    return shown(app.screen.query_one("#queue-wait", Label))


def test_play_now_waits_with_a_live_count_then_seats_the_player(server):
    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await until(pilot, lambda: "q Play now" in [k for k, _end in footer_keys(app.screen)],
                    "q in the footer")
        await waiting(app, pilot, 3)
        assert wait_line(app) == "Waiting for a table: 1 of 3 · esc to stop"
        bruno = await server.peer("Bruno")
        await server.run(queue, bruno, {"min": 2, "max": 3})
        await until(pilot, lambda: "2 of 3" in wait_line(app), "the count going up")
        carla = await server.peer("Carla")
        await server.run(queue, carla, 3)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.view,
                    "the table the queue formed")
        assert app.table.seat == 0 and app.table.view.options.players == 3
        assert app.table.info["options"]["rated"] is True

    run_app(join(server), body)


def test_esc_stops_waiting_and_the_server_forgets_the_wish(server):
    async def body(app, pilot):
        await waiting(app, pilot, 2)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
        # Had the app stayed in the queue, Bruno's wish for 2 would seat them both.
        bruno = await server.peer("Bruno")
        await server.run(queue, bruno, 2)
        await pilot.pause(0.3)
        assert isinstance(app.screen, LobbyScreen)

    run_app(join(server), body)


def test_play_now_in_portuguese(server):
    set_language("pt_BR")

    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await until(pilot, lambda: "q Jogar já" in [k for k, _end in footer_keys(app.screen)],
                    "q in the footer")
        await waiting(app, pilot, 4)
        assert wait_line(app) == "Esperando uma mesa: 1 de 4 · esc para parar"
        await pilot.press("escape")
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, QuickPlayForm), "the form again")
        await pilot.click("#ok")  # any seats, 2 to 6
        await until(pilot, lambda: isinstance(app.screen, WaitingScreen), "the wait")
        assert wait_line(app) == ("Esperando uma mesa de 2 a 6: 1 esperando · esc para "
                                  "parar")
        assert not notes(app)

    run_app(join(server), body)
