"""The expert's review in the replay screen (issue 34), driven by its keys with the real
search at the quick budget: r reviews the seat the replay is seen as, in the background, its
pane filling decision by decision while the arrows still step the game; n and p go to the
marked decisions; s stops the review, and so does leaving the replay; the results of a game
just played open its replay with the player's own review running.

Where a test must catch the review mid-way, the real review is paced (`Paced`): it judges
the next decision only when the test lets it, so that what a key meets is certain.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field

import pytest
from textual import events
from textual.widgets import Button

import client.tui.screens.replay as replay_screen
from client.review import option_label, summary
from client.tui.app import Launch
from client.tui.screens.menu import MenuScreen
from client.tui.screens.replay import ReplayScreen
from client.tui.screens.results import ResultsScreen
from client.tui.widgets.log import WrappingLog
from client.tui.widgets.review import Progress, ReviewPane
from engine.bots import ismcts
from engine.bots.ismcts import playout
from engine.review import Budget, decisions, numbers, review
from tests.client.records import played, record

from .helpers import WAIT, notes, play_to_the_end, practice, run_app, shown, until
from .test_replay import open_replay


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    """The screen's reviews at the quick budget: the same search, fewer iterations."""
    monkeypatch.setattr(replay_screen, "BUDGET", Budget.QUICK)


@dataclass
class Paced:
    """The real `review`, put in the screen's place, judging each decision after the first
    only once the test says `go`; it counts the decisions it handed over and says when the
    screen let go of it (`closed`)."""

    go: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))
    handed: int = 0
    closed: threading.Event = field(default_factory=threading.Event)

    def __call__(self, *args, **kwargs):
        try:
            for judged in review(*args, **kwargs):
                if self.handed and not self.go.acquire(timeout=WAIT):
                    raise AssertionError("the test never let the review go on")
                self.handed += 1
                yield judged
        finally:
            self.closed.set()


@dataclass
class Playouts:
    """The expert's `playout`, counting each game it plays out (in the review's thread):
    the search's work, in units far finer than a decision."""

    played: int = 0

    def __call__(self, *args, **kwargs):
        self.played += 1
        return playout(*args, **kwargs)


def running(screen: ReplayScreen) -> bool:
    return screen.review is not None and screen.review.progress is Progress.RUNNING


def finished(screen: ReplayScreen) -> bool:
    return screen.review is not None and screen.review.progress is Progress.DONE


def pane_text(screen: ReplayScreen) -> str:
    """What the review pane says, as one run of words."""
    pane = screen.query_one(ReviewPane)
    parts = [str(pane.border_title), *(shown(part) for part in pane.query("Static")
                                       if part.display)]
    return " ".join(" ".join(parts).split())


def test_r_reviews_the_seat_shown_and_its_pane_shows_the_whole_review():
    """As Ana saw the game, r opens the pane and reviews her decisions: when it is done the
    screen holds exactly what the engine's review judges for her at that budget and seed,
    and the pane shows her numbers and the summary in words."""
    expected = list(review(record(), 0, budget=Budget.QUICK, seed=replay_screen.SEED))
    counted = numbers(record())

    async def body(app, pilot, screen):
        assert not screen.query_one(ReviewPane).display
        await pilot.press("r")
        await until(pilot, lambda: finished(screen), "the review's end")
        assert screen.query_one(ReviewPane).display
        assert list(screen.review.judged) == expected
        assert [j.step for j in expected] == decisions(record(), 0)
        assert screen.review.numbers == counted[0]
        text = pane_text(screen)
        marked = sum(j.mark is not None for j in expected)
        assert f"{len(expected)} decisions reviewed, {marked} marked" in text
        assert f"Claims {counted[0].claims} · bluffs {counted[0].bluffs}" in text
        assert all(" ".join(line.split()) in text
                   for line in summary(record(), 0, counted))

    open_replay(body, seat=0, size=(120, 40))


def test_n_and_p_go_to_the_marked_decisions_and_show_their_options():
    """n goes to each marked decision in turn (the replay moves to the step it was made
    at), the pane showing its options with the one played; p comes back; past the last, a
    notice and the replay stays."""
    async def body(app, pilot, screen):
        await pilot.press("r")
        await until(pilot, lambda: finished(screen), "the review's end")
        marked = [j for j in screen.review.marked if j.step > screen.at]
        assert marked, "this game has a decision the review marks"
        names = screen.review.names
        for judged in marked:
            await pilot.press("n")
            await pilot.pause()
            assert screen.at == judged.step
            assert f"Move {judged.step} of" in shown(screen.query_one("#replay-step"))
            text = pane_text(screen)
            assert f"Move {judged.step}: Ana's options" in text
            assert option_label(judged.played.move, names) in text
        await pilot.press("n")
        await pilot.pause()
        assert screen.at == marked[-1].step
        assert notes(app)[-1] == "No marked decision after this move."
        if len(marked) > 1:
            await pilot.press("p")
            await pilot.pause()
            assert screen.at == marked[-2].step

    open_replay(body, seat=0, size=(120, 40))


def test_s_stops_the_review_and_no_decision_is_judged_after(monkeypatch):
    """s while the review runs: it stops where it was, the search is let go of before it
    hands over another decision, and r starts it again from the first."""
    paced = Paced()
    monkeypatch.setattr(replay_screen, "review", paced)

    async def body(app, pilot, screen):
        await pilot.press("r")
        await until(pilot, lambda: len(screen.review.judged) == 1, "the first decision")
        assert running(screen) and "s stops" in pane_text(screen)
        assert "s" in screen.active_bindings  # the footer offers Stop while it runs
        await pilot.press("s")
        await pilot.pause()
        assert screen.review.progress is Progress.STOPPED
        assert "s" not in screen.active_bindings
        assert "Stopped after 1 of" in pane_text(screen)
        paced.go.release()  # the search would go on: the screen no longer wants it
        assert await asyncio.to_thread(paced.closed.wait, WAIT)
        await pilot.pause()
        assert len(screen.review.judged) == 1 and paced.handed <= 2
        await pilot.press("s")  # nothing to stop
        assert screen.review.progress is Progress.STOPPED
        # r reviews again, from the first decision, to the end.
        total = len(decisions(record(), 0))
        paced.go.release(total)
        await pilot.press("r")
        await until(pilot, lambda: finished(screen), "the second review's end")
        assert [j.step for j in screen.review.judged] == decisions(record(), 0)

    open_replay(body, seat=0)


def test_leaving_the_replay_stops_its_review(monkeypatch):
    """q closes the replay (over the menu, here) while its review runs: the review is let
    go of, with the rest of the game's decisions not judged."""
    paced = Paced()
    monkeypatch.setattr(replay_screen, "review", paced)
    total = len(decisions(record(), 1))

    async def body(app, pilot):
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        screen = ReplayScreen(record(), 1, review=True)
        app.push_screen(screen)
        await until(pilot, lambda: app.screen is screen and screen.review is not None
                    and len(screen.review.judged) == 1, "the first decision")
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu again")
        paced.go.release()
        assert await asyncio.to_thread(paced.closed.wait, WAIT)
        assert paced.handed <= 2 < total

    run_app(Launch(), body)


def test_the_arrows_answer_while_the_review_runs(monkeypatch):
    """The search runs in a thread, not between the screen's own steps: each key that
    steps the game is answered while the search has played out less than a quarter of one
    decision's games (counted as the worker plays them, when the screen is seen to have
    moved). This one review runs at the default budget, the screen's own, whose decisions
    each take hundreds of playouts (a search on the screen's side would hold a key for up
    to a whole decision); over a long game, still being reviewed after every key. (Pilot's
    `press` would wait for the process to idle, which a search never lets it: the keys
    are posted as a terminal's driver posts them.)"""
    game, moves = played(seed=13, players=6, strategy="heuristic")
    long = dict(record(), options=game.options.to_dict(), seed=13, moves=moves,
                players=[{"seat": s, "name": f"P{s}", "bot": None} for s in range(6)],
                result={"winner": game.winner, "out": list(game.exiled)})
    seat = max(range(6), key=lambda s: len(decisions(long, s)))
    counted = Playouts()
    monkeypatch.setattr(replay_screen, "BUDGET", Budget.DEFAULT)
    monkeypatch.setattr(ismcts, "playout", counted)

    async def body(app, pilot, screen):
        app.post_message(events.Key("r", "r"))
        await until(pilot, lambda: screen.review is not None and screen.review.judged,
                    "the first decision", settle=False)
        for n in range(1, 6):
            before, seen = counted.played, []

            def moved(n=n, seen=seen) -> bool:
                if screen.at == n and not seen:
                    seen.append(counted.played)
                return bool(seen)

            app.post_message(events.Key("right", None))
            await until(pilot, moved, f"step {n}", settle=False)
            judged = screen.review.judged
            decision = counted.played / len(judged)  # the games a decision takes, so far
            assert seen[0] - before < decision / 4, \
                f"key {n} waited for {seen[0] - before} games; a decision takes {decision:.0f}"
            assert running(screen)
        app.post_message(events.Key("s", "s"))
        await until(pilot, lambda: not running(screen), "the review stopped", settle=False)

    open_replay(body, seat=seat, shown_record=long)


def test_r_as_another_seat_reviews_that_seat_instead():
    """The review is of one seat: seen as Bruno (v), r reviews Bruno's decisions in place
    of Ana's, and nothing of Ana's review is left in it."""
    async def body(app, pilot, screen):
        await pilot.press("r", "v", "r")
        await until(pilot, lambda: screen.review.seat == 1 and finished(screen),
                    "Bruno's review")
        assert [j.step for j in screen.review.judged] == decisions(record(), 1)
        assert all(j.seat == 1 for j in screen.review.judged)
        assert "Review · Bruno" in pane_text(screen)

    open_replay(body, seat=0)


def test_a_review_that_fails_says_so_and_stops(monkeypatch):
    def failing(*args, **kwargs):
        raise ValueError("no such seat")
        yield

    monkeypatch.setattr(replay_screen, "review", failing)

    async def body(app, pilot, screen):
        await pilot.press("r")
        await until(pilot, lambda: screen.review.progress is Progress.STOPPED, "the failure")
        assert notes(app)[-1] == "The review failed: no such seat"
        assert "Stopped after 0 of" in pane_text(screen)

    open_replay(body, seat=0)


def test_face_up_r_asks_whose_game_to_review():
    async def body(app, pilot, screen):
        await pilot.press("r")
        await pilot.pause()
        assert screen.review is None and not screen.query_one(ReviewPane).display
        assert notes(app)[-1] == "Whose game? Press v to see it as one player, then r."

    open_replay(body)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_pane_takes_the_logs_place_under_120_columns(size):
    """At 80 columns the pane shows in the log's place and r gives the log back (the review
    goes on); from 120 both show."""
    wide = size[0] >= 120

    async def body(app, pilot, screen):
        log, pane = screen.query_one(WrappingLog), screen.query_one(ReviewPane)
        await pilot.press("r")
        await until(pilot, lambda: finished(screen), "the review's end")
        assert pane.display and log.display == wide
        assert pane.region.width >= 38
        if not wide:  # the page keys read the pane where it hides the log
            assert pane.max_scroll_y > 0
            await pilot.press("pagedown")
            await pilot.pause()
            assert pane.scroll_y > 0
        await pilot.press("r")
        await pilot.pause()
        assert log.display and not pane.display
        await pilot.press("r")  # the review done: the pane again, not a new review
        await pilot.pause()
        assert pane.display and finished(screen)

    open_replay(body, seat=0, size=size)


def test_the_results_review_opens_the_replay_as_the_player_reviewing_them():
    """At the end of a game of `coup play`, v on the results fetches its record and opens
    its replay as the player saw it, with the review of the player's decisions running."""
    async def body(app, pilot):
        await play_to_the_end(app, pilot)
        results = await until(pilot, lambda: isinstance(app.screen, ResultsScreen)
                              and app.screen, "the results")
        buttons = list(results.query(Button))
        assert [b.id for b in buttons] == ["rematch", "replay", "review", "leave", "close"]
        assert all(b.region.right <= 80 and b.region.width for b in buttons)  # all five fit
        game, seat = app.table.info["game"], app.table.seat
        await pilot.press("v")
        screen = await until(pilot, lambda: isinstance(app.screen, ReplayScreen)
                             and app.screen.review is not None and app.screen, "the replay")
        assert screen.record["game"] == game and screen.seat == seat
        assert screen.review.seat == seat and screen.query_one(ReviewPane).display
        await until(pilot, lambda: finished(screen), "the review's end")
        assert len(screen.review.judged) == len(decisions(screen.record, seat))

    run_app(practice(), body, size=(80, 24))
