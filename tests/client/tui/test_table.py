"""The table: the waiting room (ready, start by the creator's seat, never by a name), a
table that fails on the server (back to the lobby, told why), the game in play (the action
bar offers exactly the engine's legal moves, each on its key; a targeted action opens the
target picker; no countdown without clocks), moves refused at once on the client's own view
and nothing sent, a move the server refuses, chat at the table, leaving (`q` asks first
during a game), and the results (winner, every hand, rematch where the winner starts).

Practice tables run on the app's own server (`coup play`, inside its trio run); the waiting
room and the server's refusal use the `server` fixture's server in a background thread.
"""

from __future__ import annotations

from dataclasses import replace

from client.i18n import set_language
from client.tui.app import Launch
from client.tui.messages import Received
from client.tui.screens.dialogs import ConfirmDialog
from client.tui.screens.lobby import LobbyScreen
from client.tui.screens.menu import MenuScreen
from client.tui.screens.results import ResultsScreen
from client.tui.screens.table import ACTION_KEYS, TableScreen
from protocol import Join, Joined, Leave, MoveRequest, Ready, TableInfo
from server.table import Table

from .helpers import (
    bar_keys,
    bar_text,
    create_table,
    dialog,
    dialog_labels,
    log_lines,
    my_turn,
    new_id,
    notes,
    play_to_the_end,
    practice,
    run_app,
    sent_by,
    shown,
    sit,
    until,
)


def test_the_waiting_room_ready_and_start_by_the_creator(server):
    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        app.create_table({"seats": 2, "name": "Duel", "two_player_draft": False})
        screen = await until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and app.table.info and app.screen, "the waiting room")
        players = screen.query_one("#players")
        assert "not ready" in shown(players)
        assert "Waiting for" in shown(screen.query_one("#prompt"))
        await pilot.press("s")  # alone at the table
        await until(pilot, lambda: "A game needs at least two players." in notes(app),
                    "the refusal to start alone")
        await pilot.press("r")
        await until(pilot, lambda: "Not ready" in bar_text(app),
                    "our ready mark")
        assert "not ready" not in shown(players) and "ready" in shown(players)
        await pilot.press("r")  # not ready after all: the game then waits for the creator
        await until(pilot, lambda: "not ready" in shown(players), "not ready again")
        bruno = await server.peer("Bruno")
        await server.run(sit, bruno, app.table.table, ready=False)
        await until(pilot, lambda: "Bruno" in shown(players), "Bruno's seat")
        await pilot.press("s")
        await until(pilot, lambda: "Not every player is ready." in notes(app),
                    "the refusal to start before Bruno is ready")
        await server.run(bruno.request, Ready(id=new_id(), ready=True))
        await until(pilot, lambda: shown(players).count("not ready") == 1, "Bruno ready")
        assert app.table.view is None
        await pilot.press("s")
        await until(pilot, lambda: app.table.view is not None, "the game")
        assert len(app.table.view.alive) == 2 and "Ana (you)" in shown(players)

    run_app(Launch(mode="join", port=server.port, name="Ana"), body)


def test_start_is_offered_to_the_creator_s_seat_not_to_a_namesake_in_it(server):
    """Ana makes a table and leaves it; once her name is free, the app takes it and her
    old seat 0: the seat is not the creator's (`creator_seat` is absent), so there is no
    Start. At a table of its own the app, at seat 0, is offered Start."""
    async def body(app, pilot):
        ana, bruno = await server.peer("Ana"), await server.peer("Bruno")
        table = (await server.run(create_table, ana, seats=3)).table
        await server.run(sit, bruno, table)
        await server.run(ana.request, Leave(id=new_id()))
        await server.run(ana.aclose)
        while app.me != "Ana":  # the server frees the name once it has seen Ana go
            app.me = ""
            app.join_server("127.0.0.1", server.port, "Ana")
            await until(pilot, lambda: app.me, "the welcome")
        app.request(Join(id=new_id(), table=table, seat=0))
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info
                    and app.table.info["seats"][0]["name"] == "Ana", "seat 0")
        assert app.table.seat == 0 and app.table.info["creator"] is None
        assert bar_keys(app) == ["r"]

        app.leave_table()
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        # (the lobby refuses a new table, already_at_table, until the table has seen us go)
        seats = server.server.lobby.tables[table].seats
        await until(pilot, lambda: seats[0].name is None, "our seat freed")
        app.create_table({"seats": 2})
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info,
                    "our own table")
        assert app.table.info["creator_seat"] == app.table.seat == 0
        assert bar_keys(app) == ["r", "s"]

    run_app(Launch(), body)


def test_the_creator_is_told_by_seat_whatever_the_names(server):
    """A server whose names are not unique (the spec allows it): the table's creator is
    named Ana like the app, but sits at seat 1. The app, at seat 0, is not offered Start;
    once the table says seat 0 is the creator's, it is."""
    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        seats = [{"seat": 0, "name": "Ana", "bot": None, "ready": False, "away": False},
                 {"seat": 1, "name": "Ana", "bot": None, "ready": False, "away": False}]
        info = {"table": "t1", "name": "Twins", "status": "waiting", "seats": seats,
                "spectators": 0, "creator": "Ana", "creator_seat": 1,
                "options": {"seats": 2, "variant": "base", "two_player_draft": True,
                            "treasury": 50, "response_clock": 0, "turn_clock": 0,
                            "private": False, "on_disconnect": "bot", "name": "Twins"}}
        app.post_message(Received(Joined(table="t1", seat=0, token="t" * 32)))
        app.post_message(Received(TableInfo(info=info)))
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info,
                    "the table")
        assert bar_keys(app) == ["r"]
        app.post_message(Received(TableInfo(info=dict(info, creator_seat=0))))
        await until(pilot, lambda: bar_keys(app) == ["r", "s"], "Start for seat 0")

    run_app(Launch(mode="join", port=server.port, name="Ana"), body)


def test_a_table_that_fails_on_the_server_sends_its_players_back_to_the_lobby(
        server, monkeypatch):
    """The server closes a table that failed and tells its players (`table_failed`, with
    no `re`): the app leaves the table for the lobby, says why in the player's language,
    and plays on there."""
    set_language("pt_BR")
    tell = Table._tell_changes

    def fail_if_doomed(table):
        if table.name == "doomed":
            raise RuntimeError("injected failure")
        tell(table)

    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        app.create_table({"seats": 2, "name": "doomed"})
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info,
                    "the table")
        monkeypatch.setattr(Table, "_tell_changes", fail_if_doomed)
        app.ready(True)
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
        assert app.table is None and app.net.token is None
        await until(pilot, lambda: "Sua mesa falhou no servidor e foi fechada." in notes(app),
                    "why, in Portuguese")
        monkeypatch.setattr(Table, "_tell_changes", tell)
        app.create_table({"seats": 2, "name": "healthy"})
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info,
                    "a new table")
        assert app.table.info["name"] == "healthy"

    run_app(Launch(mode="join", port=server.port, name="Ana"), body)


def test_the_action_bar_offers_exactly_the_legal_moves_on_their_keys():
    async def body(app, pilot):
        view = await my_turn(app, pilot)
        screen = app.screen
        legal = dict.fromkeys(mv.kind for mv in view.legal_moves())
        assert bar_keys(app) == [ACTION_KEYS[kind] for kind in legal]
        bar = bar_text(app)
        for key, name in zip(bar_keys(app), ("Income", "Foreign Aid", "Tax", "Steal",
                                             "Exchange")):
            assert f"{key} {name}" in bar
        assert "Your turn: choose an action" in shown(screen.query_one("#prompt"))
        assert not screen.query_one("#countdown").display  # no clocks at this table
        hand = shown(screen.query_one("#hand"))
        for card in view.hands[view.seat]:
            assert card.capitalize() in hand

    run_app(practice(bots=2, strategy="honest"), body)


def test_a_targeted_action_opens_the_target_picker():
    async def body(app, pilot):
        view = await my_turn(app, pilot)
        sent = sent_by(app)
        await pilot.press("s")
        picker = await until(pilot, lambda: dialog(app), "the target picker")
        assert picker.title_text == "Steal: choose the target"
        targets = [app.table.name(seat) for seat in (1, 2) if seat != view.seat]
        labels = dialog_labels(app)
        assert len(labels) == 2 and all(name in label for name, label in zip(targets, labels))
        for seat, label in zip([s for s in (1, 2) if s != view.seat], labels):
            cards = app.table.view.influence[seat]
            assert label.endswith(f", {cards} card" + ("s" if cards != 1 else ""))
        await pilot.press("escape")  # back to the table: nothing is sent
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        assert sent == []
        await pilot.press("s")
        await until(pilot, lambda: dialog(app), "the target picker again")
        await pilot.press("2")
        await until(pilot, lambda: app.table.view.state_id != view.state_id, "the steal")
        [request] = sent
        assert isinstance(request, MoveRequest)
        assert request.move["kind"] == "steal"
        assert app.table.name(request.move["target"]) in labels[1]

    run_app(practice(bots=2, strategy="honest"), body)


def test_a_move_that_is_not_legal_now_is_explained_at_once_and_not_sent():
    async def body(app, pilot):
        view = await my_turn(app, pilot)
        assert view.coins[view.seat] < 3
        sent = sent_by(app)
        await pilot.press("a")  # Assassinate without 3 coins
        assert notes(app) == ["You do not have enough coins."]
        await pilot.press("c")  # nor a Coup
        assert notes(app)[-1] == "You do not have enough coins."
        assert sent == [] and app.table.pending is None
        assert app.table.view is view

    run_app(practice(bots=2, strategy="honest"), body)


def test_a_move_the_server_refuses_is_shown(server):
    """The client's view is made one move old, as when an update crosses the move on the
    wire: the move is legal on that view, the server refuses it as stale."""
    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        app.create_table({"seats": 2, "two_player_draft": False, "bots": "honest"})
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table.info,
                    "the table")
        app.start_game()
        view = await my_turn(app, pilot)
        app.table.view = replace(view, state_id=view.state_id - 1)
        sent = sent_by(app)
        await pilot.press("i")
        assert [msg.state_id for msg in sent] == [view.state_id - 1]
        await until(pilot, lambda: "Too late: the game has moved on." in notes(app),
                    "the server's refusal")
        assert app.table.pending is None
        assert any(n.title == "Move refused" for n in app._notifications)

    run_app(Launch(mode="join", port=server.port, name="Ana"), body)


def test_chat_at_the_table():
    async def body(app, pilot):
        await my_turn(app, pilot)
        screen = app.screen
        await pilot.press("slash", *"good game", "enter")
        log = screen.query_one("#log")
        await until(pilot, lambda: "Ana: good game" in log_lines(log), "our line in the log")
        # Back from the chat line, keys play moves again.
        state = app.table.view.state_id
        await pilot.press("i")
        await until(pilot, lambda: app.table.view.state_id != state, "Income")

    run_app(practice(bots=2, strategy="honest"), body)


def test_q_asks_before_leaving_a_running_game():
    async def body(app, pilot):
        await my_turn(app, pilot)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        assert app.table is not None
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        assert app.table is None

    run_app(practice(bots=2, strategy="honest"), body)


def test_the_results_reveal_every_hand_and_a_rematch_starts_with_the_winner():
    async def body(app, pilot):
        await play_to_the_end(app, pilot)
        results = await until(pilot, lambda: isinstance(app.screen, ResultsScreen)
                              and app.screen, "the results")
        state = app.table
        winner = state.view.winner
        title = shown(results.query_one("#winner"))
        assert ("You win!" if winner == state.seat else
                f"{state.name(winner)} wins the game!") in title
        hands = shown(results.query_one("#hands"))
        for seat, cards in enumerate(state.reveal.hands):
            assert state.name(seat) in hands
            for card in [*cards, *state.reveal.revealed[seat]]:
                assert card.capitalize() in hands
        assert "Rematch" in str(results.query_one("#rematch").label)
        await pilot.press("escape")  # back to the finished table, and to the results again
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        assert bar_keys(app) == ["r", "enter"]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen), "the results")
        await pilot.press("r")
        await until(pilot, lambda: not app.table.view.over, "the rematch")
        assert not isinstance(app.screen, ResultsScreen)
        assert app.table.view.first_seat == winner
        assert "A new game begins." in log_lines(app.screen_stack[2].query_one("#log"))

    run_app(practice(), body)
