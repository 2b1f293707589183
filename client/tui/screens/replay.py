"""A finished game's replay: its record played through the engine, one move at a time,
forward and back, with every hand face up or as one seat saw it at each step, and the log
in sync, narrated as the table's log narrates a game. Face up, the log also tells every
seat's secrets (an Exchange's draw, the cards it put back); as one seat saw it, that seat's
own and no one else's (R11).

`ReplayScreen(record)` opens anywhere (`coup replay`, or over any screen); it refuses, with
RecordError, a record that does not replay to the result it claims. It never shows a game
that is not over: a record is only made of a finished game, and `check` wants its result.

Beside the board, a review pane (widgets/review.py) shows one seat's game judged by the
expert (engine/review.py): r starts it for the seat the replay is seen as, and the review
runs in a worker thread, a decision at a time, while the keys keep stepping the game; s
stops it, and so does leaving the screen. n and p go to the next and the previous decision
it marked. The review only ever sees what its seat saw (R11): it is the engine's, not this
screen's, to keep so.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Input, Static
from textual.worker import Worker, WorkerState, get_current_worker

from engine import Event, View, visible_to
from engine.record import check, play
from engine.review import Budget, Judged, Numbers, decisions, numbers, review

from ...i18n import N_, _
from ...core.table import TableState
from ...narrate import face_up_text, prompt
from ...review import names_of, summary
from ..widgets.footer import Footer
from ..widgets.log import WrappingLog, event_line
from ..widgets.review import Progress, ReviewPane, ReviewState
from ..widgets.seats import SeatsPanel
from .base import CoupScreen

#: The search's budget for a review started here: the default one, whose estimates are
#: the docs' (docs/REVIEW.md); the pane shows each decision as soon as it is judged.
BUDGET = Budget.DEFAULT
#: The seed of every review: the same game reviewed twice reads the same.
SEED = 0


@dataclass(frozen=True, slots=True)
class Step:
    """The game after a number of moves: what the last move made happen (every audience's
    events), the table with every hand face up, each seat's own view, and the turn number
    (0 during a two-player draft)."""

    events: tuple[Event, ...]
    full: View
    views: tuple[View, ...]
    turn: int


def steps(record: dict) -> list[Step]:
    """Every step of a finished record's game, from the deal (step 0) to its end; raises
    RecordError if the record does not replay to its result."""
    check(record)
    made: list[Step] = []
    turn = 0
    for game, played in play(record):
        # The deal opens the first turn without an event; the log starts with it all the
        # same.
        events = ([Event("turn", seat=game.actor)] if not made and game.actor is not None
                  else played)
        turn += sum(e.kind == "turn" for e in events)
        seats = range(game.options.players)
        full = replace(game.view(None), hands=tuple(tuple(h) for h in game.hands),
                       drawn=tuple(game.drawn))
        made.append(Step(tuple(events), full, tuple(game.view(s) for s in seats), turn))
    return made


def returned(before: View, kept: Event) -> list[str]:
    """The cards an Exchange put back in the deck when its seat kept `kept.cards`: its hand
    and the cards it drew, as `before` (every card face up, the step before) shows them,
    less those kept."""
    hand = before.hands[kept.seat] if kept.seat is not None else None
    if hand is None or kept.cards is None:
        raise ValueError("a kept event names its seat, whose hand is face up, and its cards")
    back = [*hand, *before.drawn]
    for card in kept.cards:
        back.remove(card)
    return back


class ReplayScreen(CoupScreen):
    """One finished game, stepped through from the keyboard; `seat` starts the view as
    that seat saw it (None: every card face up)."""

    #: Nothing has the focus: every key is the replay's, until g asks for a turn.
    AUTO_FOCUS = ""
    #: Under 120 columns the review pane takes the log's place while it shows.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    BINDINGS = [
        Binding("right,l", "step(1)", N_("Next")),
        Binding("left,h", "step(-1)", N_("Back")),
        Binding("home", "first", N_("Start"), show=False),
        Binding("end", "last", N_("End"), show=False),
        Binding("g", "ask_turn", N_("Go to turn")),
        Binding("v", "cycle_view", N_("View")),
        Binding("r", "review", N_("Review")),
        Binding("s", "stop_review", N_("Stop")),
        Binding("n", "mark(1)", N_("Next mark"), show=False),
        Binding("p", "mark(-1)", N_("Previous mark"), show=False),
        Binding("q,escape", "close", N_("Close")),
        Binding("pageup", "read_log('page_up')", show=False),
        Binding("pagedown", "read_log('page_down')", show=False),
    ]

    #: The review the pane draws (None: none started).
    review: reactive[ReviewState | None] = reactive(None, always_update=True, repaint=False)
    #: Whether the review pane shows.
    reviewing: reactive[bool] = reactive(False, init=False)

    @dataclass
    class Counted(Message):
        """A review's seat in numbers, and in words (from the review's worker)."""

        worker: Worker[None]
        numbers: Numbers
        summary: tuple[str, ...]

    @dataclass
    class Reviewed(Message):
        """A review judged one more decision (from the review's worker)."""

        worker: Worker[None]
        judged: Judged

    def __init__(self, record: dict, seat: int | None = None, *,
                 review: bool = False) -> None:
        """The replay of `record`, seen as `seat` saw it (None: every card face up); with
        `review`, the review of that seat starts as it opens."""
        super().__init__()
        self.record = record
        self.steps = steps(record)
        players = [dict(p) for p in record["players"]]
        self.names = TableState(record["table"], None, players=players).name
        self.bots = {p["seat"] for p in players if p.get("bot")}
        self.at = 0
        self.seat = seat
        #: The step the log's lines reach (-1: the log is empty).
        self._logged = -1
        self._review_at_start = review
        #: The worker of the latest review started: news of an earlier one is dropped.
        self._reviewer: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="replay-header")
        with Horizontal(id="replay-main"):
            yield SeatsPanel(id="replay-seats")
            # Room for every line of the longest games (ten seats, some 800 moves), wrapped.
            log = WrappingLog(id="replay-log", max_lines=20000)
            log.can_focus = False  # the arrows and home/end step the game; page keys scroll it
            yield log
            pane = ReviewPane(id="replay-review").data_bind(ReplayScreen.review)
            pane.can_focus = False  # as the log: the keys are the replay's
            yield pane
        yield Static(id="replay-step")
        yield Input(id="turn-input", type="integer", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#replay-log", WrappingLog).border_title = _("Log")
        self.show()
        if self._review_at_start:
            self.action_review()

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def view(self, step: Step) -> View:
        return step.full if self.seat is None else step.views[self.seat]

    # ------------------------------------------------------------------ drawing

    def show(self) -> None:
        step = self.steps[self.at]
        view = self.view(step)
        started = self.record["started"][:16].replace("T", " ")
        title = _("Game {id} · {table} · {date}").format(
            id=self.record["game"], table=self.record["table_name"], date=started + " UTC")
        header = Table.grid(expand=True, padding=(0, 2))
        header.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        header.add_column(no_wrap=True, justify="right")
        header.add_row(Text(title), Text(self.view_label(), style="bold"))
        self.query_one("#replay-header", Static).update(header)
        self.query_one(SeatsPanel).show(view, self.names, self.bots)
        self._write_log()
        where = [_("Move {n} of {total}").format(n=self.at, total=self.last),
                 _("Turn {n}").format(n=step.turn) if step.turn else _("The draft")]
        if self.at and self.record["moves"][self.at - 1]["by"] == "clock":
            where.append(_("played by the clock"))
        line = Text(" · ".join(where), style="bold")
        line.append("  " + prompt(view, self.names))
        self.query_one("#replay-step", Static).update(line)
        if self.review is not None and self.review.at != self.at:
            self.review = replace(self.review, at=self.at)

    def view_label(self) -> str:
        if self.seat is None:
            return _("All cards face up")
        return _("As {name} saw it").format(name=self.names(self.seat))

    def _write_log(self) -> None:
        """The log of steps 0 to the current one: one step forward adds that step's lines,
        any other move writes the log again."""
        log = self.query_one("#replay-log", WrappingLog)
        if self.at != self._logged + 1:
            log.clear()
            self._logged = -1
        lines = [line for n in range(self._logged + 1, self.at + 1) for line in self._lines(n)]
        if lines:  # in one piece: a long game's hundreds of lines are laid out at once
            log.write(Text("\n").join(lines))
        self._logged = self.at

    def _lines(self, n: int) -> list[Text]:
        """Step `n` in the log, as the view's seat saw it: its own secrets and no one
        else's (R11); with every card face up, every seat's, named."""
        events = self.steps[n].events
        if self.seat is None:
            told = [self._face_up_line(n, e) for e in events]
        else:
            told = [event_line(e, self.names, self.seat) for e in visible_to(events, self.seat)]
        lines = [line for line in told if line is not None]
        lines.extend(Text(_("A bot plays for {name} from here on").format(
                          name=self.names(takeover["seat"])), style="italic")
                     for takeover in self.record.get("takeovers") or ()
                     if takeover["after"] == n)
        return lines

    def _face_up_line(self, n: int, e: Event) -> Text | None:
        """Event `e` of step `n` with every card face up: a private one in the third person,
        the cards an Exchange put back with the cards it kept."""
        if e.to is None:
            return event_line(e, self.names, None)
        back = returned(self.steps[n - 1].full, e) if e.kind == "kept" else []
        text = face_up_text(e, self.names, back)
        return Text(text) if text else None

    # ------------------------------------------------------------------ keys

    def go(self, at: int) -> None:
        self.at = max(0, min(self.last, at))
        self.show()

    def action_step(self, by: int) -> None:
        self.go(self.at + by)

    def action_first(self) -> None:
        self.go(0)

    def action_last(self) -> None:
        self.go(self.last)

    def action_read_log(self, where: str) -> None:
        """Page through the log, or through the review pane where it hides the log."""
        log = self.query_one("#replay-log", WrappingLog)
        if log.display:
            log.scroll_for_key(where)
        elif where == "page_up":
            self.query_one(ReviewPane).scroll_page_up(animate=False)
        else:
            self.query_one(ReviewPane).scroll_page_down(animate=False)

    def action_cycle_view(self) -> None:
        """Every card face up, then as each seat saw it, in seat order, and round again."""
        seats = len(self.steps[0].views)
        order = [None, *range(seats)]
        self.seat = order[(order.index(self.seat) + 1) % len(order)]
        self._logged = -1  # another viewer's log: written again
        self.go(self.at)

    def action_ask_turn(self) -> None:
        box = self.query_one("#turn-input", Input)
        box.placeholder = _("Go to turn (1–{last}): ⏎ to go, esc to cancel").format(
            last=self.steps[-1].turn)
        box.value = ""
        box.display = True
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._close_input()
        if not event.value:
            return
        try:
            turn = int(event.value)
        except ValueError:  # a sign alone (an integer input takes one)
            turn = 0
        at = next((n for n, step in enumerate(self.steps) if turn and step.turn == turn), None)
        if at is None:
            self.notify(_("There is no turn {n}: this game has turns 1 to {last}.").format(
                n=event.value, last=self.steps[-1].turn), severity="warning")
            return
        self.go(at)

    def _close_input(self) -> None:
        box = self.query_one("#turn-input", Input)
        box.display = False
        self.set_focus(None)

    # ------------------------------------------------------------------ the review

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Stop shows while a review runs, the marks' keys while there is a review."""
        if action == "stop_review":
            return self.review is not None and self.review.progress is Progress.RUNNING
        if action == "mark":
            return self.review is not None
        return True

    def watch_reviewing(self, reviewing: bool) -> None:
        self.set_class(reviewing, "-reviewing")

    def watch_review(self) -> None:
        self.refresh_bindings()

    def action_review(self) -> None:
        """Show the pane with the review of the seat the replay is seen as, starting it
        unless it runs or ran to its end; hide the pane if it shows that review already."""
        if self.seat is None:
            self.notify(_("Whose game? Press v to see it as one player, then r."),
                        severity="warning")
            return
        current = self.review
        if current is not None and current.seat == self.seat \
                and current.progress is not Progress.STOPPED:
            self.reviewing = not self.reviewing
            return
        self._start_review(self.seat)

    def _start_review(self, seat: int) -> None:
        self.review = ReviewState(seat, tuple(names_of(self.record)),
                                  tuple(decisions(self.record, seat)),
                                  at=self.at)
        self.reviewing = True
        # A thread: the search is plain Python, and the key that comes meanwhile is handled
        # between two of its GIL switches (tests/client/tui/test_review.py counts them).
        self._reviewer = self.run_worker(partial(self._judge, seat, BUDGET), name="review",
                                         group="review", exclusive=True, thread=True,
                                         exit_on_error=False)

    def _judge(self, seat: int, budget: Budget) -> None:
        """The review's worker: the seat's numbers, then its decisions judged one by one,
        each posted to the screen as it comes, until the last or until it is cancelled."""
        worker = get_current_worker()
        counted = numbers(self.record)
        told = tuple(summary(self.record, seat, counted))
        if worker.is_cancelled:
            return
        self.post_message(self.Counted(worker, counted[seat], told))
        for judged in review(self.record, seat, budget=budget, seed=SEED):
            if worker.is_cancelled:
                return
            self.post_message(self.Reviewed(worker, judged))

    @on(Counted)
    def _counted(self, message: Counted) -> None:
        if self.review is not None and message.worker is self._reviewer:
            self.review = replace(self.review, numbers=message.numbers,
                                  summary=message.summary)

    @on(Reviewed)
    def _reviewed(self, message: Reviewed) -> None:
        if self.review is not None and message.worker is self._reviewer:
            self.review = replace(self.review, judged=(*self.review.judged, message.judged))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The review's end: ran through, stopped, or failed (said, never silently)."""
        if event.worker is not self._reviewer or self.review is None \
                or self.review.progress is not Progress.RUNNING:
            return
        if event.state is WorkerState.SUCCESS:
            self.review = replace(self.review, progress=Progress.DONE)
        elif event.state is WorkerState.ERROR:
            self.review = replace(self.review, progress=Progress.STOPPED)
            self.notify(_("The review failed: {reason}").format(reason=event.worker.error),
                        severity="error", timeout=10)

    def action_stop_review(self) -> None:
        if self.review is None or self.review.progress is not Progress.RUNNING:
            return
        self.workers.cancel_group(self, "review")
        self.review = replace(self.review, progress=Progress.STOPPED)

    def action_mark(self, by: int) -> None:
        """Go to the next (1) or the previous (-1) marked decision from the step shown."""
        if self.review is None:
            return
        steps = [j.step for j in self.review.marked]
        ahead = [n for n in steps if n > self.at] if by > 0 else \
            [n for n in reversed(steps) if n < self.at]
        if not ahead:
            self.notify(_("No marked decision after this move.") if by > 0
                        else _("No marked decision before this move."))
            return
        self.reviewing = True
        self.go(ahead[0])

    def action_close(self) -> None:
        """Close the replay (from the turn's input: close the input only)."""
        if self.query_one("#turn-input", Input).display:
            self._close_input()
            return
        self.dismiss(None)
