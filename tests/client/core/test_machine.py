"""The client core alone: the server's messages and the player's intents in, typed events
out, with no socket, no task and no clock (as tests/protocol/test_connection.py tests the
wire's Connection). Scenarios play a real game on the engine for the views a server would
send, and include the orderings a hostile or slow server can make: an `ok` nobody asked
for, a view for another table, a bad_token while a leave is in flight, a drop mid-leave.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from client.core import Core
from client.core import events as ev
from client.core import intents as do
from client.core import table as table_state
from client.core.policy import FIRST_PAUSE, LAST_PAUSE, STEADY, Backoff
from engine import Game, Options, move
from protocol import messages as wire

TABLE, OTHER, TOKEN = "t1", "t2", "tok-1"


def connected(**kwargs: object) -> Core:
    core = Core(**kwargs)  # type: ignore[arg-type]
    assert core.opened("ana", "coupd", False, False, 0.0) == [
        ev.Connected("ana", "coupd", False, False)]
    return core


def sent(events: list[ev.Event]) -> list[wire.Message]:
    return [e.msg for e in events if isinstance(e, ev.Send)]


def told(events: list[ev.Event]) -> list[ev.Event]:
    return [e for e in events if not isinstance(e, ev.Send)]


def seated(game: Game, seat: int = 0, **kwargs: object) -> Core:
    """A core seated at TABLE with the game's snapshot taken in."""
    core = connected(**kwargs)
    core.receive(wire.Joined(table=TABLE, re=None, seat=seat, token=TOKEN))
    core.receive(snapshot(game, seat))
    return core


def snapshot(game: Game, seat: int, table: str = TABLE) -> wire.Snapshot:
    return wire.Snapshot(table=table, view=game.view(seat).to_dict(), players=[],
                         deadlines=[])


def update(game: Game, seat: int, events: list[dict[str, object]]) -> wire.Update:
    return wire.Update(table=TABLE, view=game.view(seat).to_dict(), events=events,
                       deadlines=[])


def new_game() -> Game:
    """Three players (no draft), seat 0 to act first."""
    return Game.new(Options(players=3, first_seat=0), 5)


# ---------------------------------------------------------------------------- moves


def test_a_move_is_pending_until_a_view_shows_its_decision_closed() -> None:
    game = new_game()
    core = seated(game)
    income = move("income")
    out = core.intend(do.Play(income))
    [request] = sent(out)
    assert isinstance(request, wire.MoveRequest) and request.move == income.to_dict()
    assert told(out) == [ev.PendingChanged()]
    assert core.table is not None and core.table.pending is not None
    # The server accepts it before the view that shows it: the old view still asks.
    assert core.receive(wire.MoveAccepted(re=request.id, state_id=1)) == []
    assert core.table.pending is not None
    applied = game.apply(0, income)
    [changed] = core.receive(update(game, 0, [e.to_dict() for e in applied]))
    assert isinstance(changed, ev.ViewChanged) and not changed.decision_opened
    assert core.table.pending is None


def test_a_second_move_waits_for_the_first_and_an_illegal_one_is_refused_here() -> None:
    game = new_game()
    core = seated(game)
    assert told(core.intend(do.Play(move("coup", target=1)))) == [
        ev.MoveRefused("cannot_afford", local=True, kind="coup")]
    core.intend(do.Play(move("income")))
    assert core.intend(do.Play(move("income"))) == [ev.MoveWaits()]


def test_a_move_for_a_decision_no_longer_open_is_not_sent() -> None:
    """A front end says which decision its move answers (the one it showed): when the view
    has moved on to another decision of ours since, the move would answer a prompt the
    player never saw, so nothing goes and the front end is told to show the new one."""
    game = new_game()
    core = seated(game)
    assert core.table is not None and core.table.view is not None
    shown = core.table.view.opened
    for seat in range(3):  # a round of Income: seat 0's turn again, a new decision
        core.receive(update(game, 0, [e.to_dict() for e in game.apply(seat, move("income"))]))
    assert core.table.view.opened != shown
    assert core.intend(do.Play(move("income"), answers=shown)) == [ev.MoveStale()]
    assert core.table.pending is None
    [request] = sent(core.intend(do.Play(move("income"), answers=core.table.view.opened)))
    assert request.move == move("income").to_dict()


def test_a_rejected_move_is_pending_no_more() -> None:
    core = seated(new_game())
    [request] = sent(core.intend(do.Play(move("income"))))
    out = core.receive(wire.MoveRejected(re=request.id, code="stale_state", message="",
                                         state_id=3))
    assert out == [ev.PendingChanged(), ev.MoveRefused("stale_state", re=request.id)]
    assert core.table is not None and core.table.pending is None


def test_a_decision_of_ours_opening_is_said_once() -> None:
    game = new_game()
    core = seated(game, seat=1)
    applied = game.apply(0, move("income"))  # seat 1's turn now
    [changed] = core.receive(update(game, 1, [e.to_dict() for e in applied]))
    assert isinstance(changed, ev.ViewChanged) and changed.decision_opened
    [again] = core.receive(update(game, 1, []))
    assert isinstance(again, ev.ViewChanged) and not again.decision_opened


def test_a_view_for_another_table_changes_nothing() -> None:
    game = new_game()
    core = seated(game)
    assert core.table is not None
    before = core.table.view
    game.apply(0, move("income"))
    assert core.receive(snapshot(game, 0, table=OTHER)) == []
    assert core.table.view is before


def test_the_seat_given_back_after_a_reconnect_forgets_the_pending_move() -> None:
    core = seated(new_game())
    core.intend(do.Play(move("income")))
    assert core.receive(wire.Joined(table=TABLE, re=None, seat=0, token=TOKEN)) == [
        ev.SeatBack()]
    assert core.table is not None and core.table.pending is None


def test_a_clock_restarted_for_a_seat_back_shows_in_full(monkeypatch) -> None:
    # Issue 30: a player back within the grace has the open decision's whole clock again.
    # They learn it from their snapshot, the others from an update with no events (the
    # same view); either way the countdown of that same decision shows the whole clock
    # again, out of the whole clock, and a move in flight stays pending.
    now = [100.0]
    monkeypatch.setattr(table_state, "time", SimpleNamespace(monotonic=lambda: now[0]))
    game = new_game()
    applied = [e.to_dict() for e in game.apply(0, move("tax"))]  # seats 1 and 2 may answer
    back, other = seated(game, seat=1), seated(game, seat=2)
    for seat, core in ((1, back), (2, other)):
        core.receive(replace(update(game, seat, applied), deadlines=[
            {"seat": 1, "ms": 20_000}, {"seat": 2, "ms": 20_000}]))
    assert sent(other.intend(do.Play(move("pass"))))
    now[0] += 18
    assert back.table is not None and other.table is not None
    assert back.table.time_left(1) == other.table.time_left(1) == (2, 20)
    fresh = [{"seat": 1, "ms": 20_000}, {"seat": 2, "ms": 2_000}]
    back.receive(replace(snapshot(game, 1), deadlines=fresh))
    assert back.table.time_left(1) == (pytest.approx(20), 20)
    [changed] = other.receive(replace(update(game, 2, []), deadlines=fresh))
    assert isinstance(changed, ev.ViewChanged) and not changed.decision_opened
    assert other.table.time_left(1) == (pytest.approx(20), 20)
    assert other.table.time_left(2) == (pytest.approx(2), 20)
    assert other.table.pending is not None


def test_a_seat_a_bot_took_over_in_play_shows_the_bot() -> None:
    # Issue 30: a player who leaves a running game at a table whose seats a bot plays on is
    # said to have "left", and the table's seats that follow show the bot in the seat:
    # the seats read from then on are those, not the snapshot's.
    game = new_game()
    core = seated(game)
    people = [{"seat": n, "name": name, "bot": None, "ready": True, "away": False}
              for n, name in enumerate(["ana", "bruno", "chen"])]
    core.receive(replace(snapshot(game, 0), players=people))
    assert core.table is not None and core.table.name(1) == "bruno"
    core.receive(wire.Presence(table=TABLE, seat=1, status="left", name="bruno"))
    seats = [dict(people[0]), {"seat": 1, "name": None, "bot": "heuristic", "ready": True,
                               "away": False}, dict(people[2])]
    info = {"table": TABLE, "name": "ana's table", "options": {"on_disconnect": "bot"},
            "status": "playing", "seats": seats, "spectators": 0, "creator": "ana"}
    assert core.receive(wire.TableInfo(info=info)) == [ev.TableChanged()]
    assert core.table.name(1) == "Bot 2" and core.table.seats[1]["bot"] == "heuristic"
    assert [s["name"] for s in core.table.seats] == ["ana", None, "chen"]


def test_a_finished_game_keeps_the_names_it_was_played_under() -> None:
    # A bot takes the seat of whoever leaves the results too (for a rematch); the results
    # still name the person who played it.
    game = Game.arrange(Options(players=2, two_player_draft=False), hands=[
        ["duke", "duke"], ["captain"]], revealed=[[], ["contessa"]], coins=[7, 2])
    core = seated(game)
    people = [{"seat": n, "name": name, "bot": None, "ready": True, "away": False}
              for n, name in enumerate(["ana", "bruno"])]
    core.receive(replace(snapshot(game, 0), players=people))
    core.receive(update(game, 0, [e.to_dict() for e in game.apply(0, move("coup", target=1))]))
    assert core.table is not None and core.table.view is not None and core.table.view.over
    core.receive(wire.Presence(table=TABLE, seat=1, status="left", name="bruno"))
    info = {"table": TABLE, "name": "ana's table", "options": {"on_disconnect": "bot"},
            "status": "over", "spectators": 0, "creator": "ana", "seats": [
                dict(people[0]), {"seat": 1, "name": None, "bot": "heuristic", "ready": True,
                                  "away": False}]}
    core.receive(wire.TableInfo(info=info))
    assert core.table.name(1) == "bruno"


# ---------------------------------------------------------------------------- leaving


def test_what_follows_a_leave_waits_for_the_servers_ok() -> None:
    core = seated(new_game())
    [leave] = sent(core.intend(do.Leave()))
    assert core.leaving
    assert core.intend(do.JoinTable(table=OTHER, spectate=True)) == []
    assert core.receive(wire.Ok(re=leave.id + 100)) == []  # an ok for nobody's request
    assert core.table is not None  # still seated until the server says so
    out = core.receive(wire.Ok(re=leave.id))
    assert told(out) == [ev.TableLeft(), ev.LeaveSettled()]
    [join] = sent(out)
    assert isinstance(join, wire.Join) and join.table == OTHER and join.spectate
    assert core.table is None and not core.leaving


def test_a_refused_leave_leaves_us_seated_and_lets_what_waited_go() -> None:
    core = seated(new_game())
    [leave] = sent(core.intend(do.Leave()))
    core.intend(do.SayText("still here?"))
    out = core.receive(wire.Error(code="rate_limited", message="slow down", re=leave.id))
    assert told(out) == [ev.Refused("rate_limited", leave.id, message="slow down"),
                         ev.LeaveSettled()]
    [say] = sent(out)
    assert isinstance(say, wire.Say) and say.scope == "table"  # where we are: still seated
    assert core.table is not None


def test_a_bad_token_while_leaving_takes_the_table_once() -> None:
    core = seated(new_game())
    [leave] = sent(core.intend(do.Leave()))
    core.intend(do.ListTables())
    out = core.receive(wire.Error(code="bad_token", message="gone", re=None))
    assert out == [ev.TableGone("bad_token", message="gone"), ev.TableLeft()]
    assert core.leaving  # the leave's own answer is still to come
    out = core.receive(wire.Ok(re=leave.id))
    assert told(out) == [ev.LeaveSettled()]
    assert [type(m) for m in sent(out)] == [wire.ListTables]


def test_a_drop_mid_leave_settles_it_and_what_waited_finds_no_connection() -> None:
    core = seated(new_game())
    core.intend(do.Leave())
    core.intend(do.JoinTable(table=OTHER))
    out, comeback = core.closed("the connection broke")
    assert out[:2] == [ev.LeaveSettled(), ev.NotConnected()]
    assert out[2] == ev.ConnectionLost("the connection broke", None, None)
    assert comeback is not None and comeback.seated


def test_leaving_no_table_is_refused_without_asking() -> None:
    core = connected()
    assert core.intend(do.Leave()) == [ev.Refused("not_at_table", None)]
    assert not core.leaving


def test_a_table_gone_error_answering_a_request_is_only_a_refusal() -> None:
    core = seated(new_game())
    out = core.receive(wire.Error(code="kicked", message="by ana: spam", re=7))
    assert out == [ev.Refused("kicked", 7, "by ana: spam", "by ana: spam")]
    assert core.table is not None


def test_a_kick_takes_the_table_with_the_servers_sentence() -> None:
    core = seated(new_game())
    out = core.receive(wire.Error(code="kicked", message="by ana: spam"))
    assert out == [ev.TableGone("kicked", "by ana: spam", "by ana: spam"), ev.TableLeft()]
    assert core.table is None and core.token is None


# ---------------------------------------------------------------------------- the lobby


def test_only_our_own_list_is_asked_and_a_seat_leaves_the_queue() -> None:
    core = connected()
    [listed] = sent(core.intend(do.ListTables()))
    assert core.receive(wire.Tables(tables=[], re=None)) == [ev.TablesListed([], False)]
    assert core.receive(wire.Tables(tables=[], re=listed.id)) == [ev.TablesListed([], True)]
    [queue] = sent(core.intend(do.JoinQueue(seats=4)))
    core.receive(wire.Queued(re=queue.id, waiting=2))
    assert core.queued
    [joined] = core.receive(wire.Joined(table=TABLE, re=None, seat=2, token=TOKEN))
    assert isinstance(joined, ev.TableJoined) and joined.table.seat == 2
    assert not core.queued and core.token == TOKEN


def test_the_lobby_chat_keeps_its_last_lines() -> None:
    core = connected()
    for n in range(205):
        core.receive(wire.Chat(scope="lobby", name="bo", text=str(n)))
    assert len(core.lobby_chat) == 200 and core.lobby_chat[0] == ("bo", "5")


def test_our_rating_is_asked_only_when_identified_and_a_refusal_is_silent() -> None:
    assert connected().intend(do.OwnRating()) == []
    core = Core()
    core.opened("ana", "coupd", True, False, 0.0)
    [ask] = sent(core.intend(do.OwnRating()))
    assert isinstance(ask, wire.GetProfile) and ask.name == "ana"
    assert core.receive(wire.Error(code="not_rated", message="", re=ask.id)) == []
    [ask] = sent(core.intend(do.OwnRating()))
    assert core.receive(wire.Profile(re=ask.id, profile={"ordinal": 12.5})) == [
        ev.RatingChanged()]
    assert core.rating == 12.5


def test_a_moderation_command_is_read_here_and_its_ok_is_done() -> None:
    core = connected()
    [refused] = core.intend(do.Moderate("mute", "bo"))
    assert isinstance(refused, ev.CommandRefused)
    [kick] = sent(core.intend(do.Moderate("kick", "bo")))
    assert core.receive(wire.Ok(re=kick.id)) == [ev.Done()]


def test_intents_without_a_connection_send_nothing() -> None:
    core = Core()
    assert core.intend(do.ListTables()) == [ev.NotConnected()]
    core = connected()
    core.closed(None)
    assert core.intend(do.SayText("hi")) == [ev.NotConnected()]
    assert core.intend(do.SayText("   ")) == [ev.NotConnected()]


# ---------------------------------------------------------------------------- reconnecting


def test_a_seat_is_worth_coming_back_to_and_its_token_is_kept() -> None:
    core = seated(new_game())
    out, comeback = core.closed(None)
    assert out == [ev.ConnectionLost(None, None, None)]
    assert comeback is not None and comeback.seated and core.token == TOKEN
    out = core.opened("ana", "coupd", False, False, 5.0)
    assert out == [ev.ConnectionBack("ana", False, False)]  # the seat comes with `joined`


def test_the_lobby_is_not_come_back_to_unless_the_server_restarts() -> None:
    core = connected()
    out, comeback = core.closed("reset")
    assert out == [ev.Disconnected("reset", None, None)] and comeback is None
    core = connected()
    core.receive(wire.Bye(reason="server_restart", message="back soon"))
    out, comeback = core.closed(None)
    assert out == [ev.ConnectionLost(None, "server_restart", "back soon")]
    assert comeback is not None and not comeback.seated
    out = core.opened("ana", "coupd", False, False, 9.0)
    assert told(out) == [ev.ConnectionBack("ana", False, False)]
    assert [type(m) for m in sent(out)] == [wire.ListTables]  # its tables again


def test_a_final_goodbye_is_final_even_with_a_seat() -> None:
    core = seated(new_game())
    assert core.receive(wire.Bye(reason="banned", message="until May")) == [
        ev.Goodbye("banned", "until May")]
    out, comeback = core.closed(None)
    assert out == [ev.Disconnected(None, "banned", "until May")] and comeback is None


def test_the_queue_is_come_back_to_only_when_the_session_keeps_it() -> None:
    for keep in (False, True):
        core = connected(keep_queue=keep)
        [queue] = sent(core.intend(do.JoinQueue(seats=2)))
        core.receive(wire.Queued(re=queue.id, waiting=1))
        _out, comeback = core.closed(None)
        assert (comeback is not None) is keep and not (comeback and comeback.seated)


def test_a_queue_request_dropped_before_its_answer_is_still_come_back_to() -> None:
    core = connected(keep_queue=True)
    core.intend(do.JoinQueue(seats=2))
    _out, comeback = core.closed("reset")
    assert comeback is not None
    core.opened("ana", "coupd", False, False, 1.0)
    assert not core.queued  # the server's queue forgot that connection


def test_a_refused_queue_request_is_no_place_in_the_queue() -> None:
    core = connected(keep_queue=True)
    [queue] = sent(core.intend(do.JoinQueue(seats=2)))
    core.receive(wire.Error(code="already_at_table", message="no", re=queue.id))
    assert not core.queued


def tournament(status: str) -> wire.Tournament:
    return wire.Tournament(name="Cup", status=status, entrants=["ana"], played=0,
                           scheduled=0, standings=[])


def entered_again(copy: str) -> tuple[Core, wire.EnterTournament]:
    """A bot's core that entered the tournament, heard it `copy` (its status), lost its
    connection and came back: its entry sent again, unanswered."""
    core = connected(keep_queue=True)
    [entry] = sent(core.intend(do.EnterTournament()))
    core.receive(wire.Ok(re=entry.id))
    core.receive(tournament(copy))
    _out, comeback = core.closed("reset")
    assert comeback is not None  # the tournament seats it between drops
    core.opened("ana", "coupd", True, False, 1.0)
    [again] = sent(core.intend(do.EnterTournament()))
    assert isinstance(again, wire.EnterTournament)
    return core, again


@pytest.mark.parametrize("copy", ["open", "running"])
def test_an_entry_refused_no_tournament_takes_a_copy_in_play_away(copy: str) -> None:
    """no_tournament: the server has none open or running (a restart forgot ours). A copy
    still saying open or running would have a bot wait for ever for its next game."""
    core, again = entered_again(copy)
    gone = wire.Error(code="no_tournament", message="There is no tournament open.",
                      re=again.id)
    assert core.receive(gone) == [
        ev.TournamentChanged(), ev.Refused("no_tournament", again.id, None, gone.message)]
    assert core.tournament is None and not core.entered
    _out, comeback = core.closed("reset")
    assert comeback is None  # nothing left to come back for


@pytest.mark.parametrize("copy", ["done", "stopped"])
def test_an_entry_refused_no_tournament_keeps_a_copy_that_is_over(copy: str) -> None:
    """A tournament over while we were away: its standings stay ours to show."""
    core, again = entered_again(copy)
    out = core.receive(wire.Error(code="no_tournament", message="", re=again.id))
    assert out == [ev.Refused("no_tournament", again.id, None, "")]
    assert core.tournament is not None and core.tournament.status == copy
    assert not core.entered


def test_an_entry_refused_as_started_is_still_an_entry() -> None:
    """tournament_started answers an entrant's entry made again: it is in, as it was; any
    other refusal is no entry (as a refused queue request is no place in the queue)."""
    core, again = entered_again("running")
    core.receive(wire.Error(code="tournament_started", message="", re=again.id))
    assert core.entered and core.tournament is not None
    [entry] = sent(core.intend(do.EnterTournament()))
    core.receive(wire.Error(code="tournament_full", message="", re=entry.id))
    assert not core.entered


def test_the_backoff_grows_and_starts_again_after_a_steady_connection() -> None:
    backoff = Backoff(rng=lambda: 1.0)
    assert [backoff.pause() for _ in range(3)] == [FIRST_PAUSE, 2 * FIRST_PAUSE,
                                                   4 * FIRST_PAUSE]
    for _ in range(20):
        backoff.pause()
    assert backoff.pause() == LAST_PAUSE
    backoff.connected(100.0)
    backoff.dropped(100.0 + STEADY - 1)  # too short: the pauses stay long
    assert backoff.pause() == LAST_PAUSE
    backoff.connected(200.0)
    backoff.dropped(200.0 + STEADY)
    assert backoff.pause() == FIRST_PAUSE


def test_a_name_the_server_keeps_for_our_key_over_the_one_asked_is_said_once():
    """A key keeps the name it first played under: the first connection says which name
    asked for was not used (any case of the same name is the same), and a guest's never."""
    def connected(identified: bool, asked: str | None) -> ev.Event:
        return Core().opened("Ana", "coupd", identified, False, 0.0, asked=asked)[0]

    assert connected(True, "Bia") == ev.Connected("Ana", "coupd", True, False, renamed="Bia")
    assert connected(True, "ana") == ev.Connected("Ana", "coupd", True, False)
    assert connected(False, "Bia") == ev.Connected("Ana", "coupd", False, False)
    assert connected(True, None) == ev.Connected("Ana", "coupd", True, False)
