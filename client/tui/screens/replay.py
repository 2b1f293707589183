"""A finished game's replay: its record played through the engine, one move at a time,
forward and back, with every hand face up or as one seat saw it at each step, and the log
in sync, narrated as the table's log narrates a game. Face up, the log also tells every
seat's secrets (an Exchange's draw, the cards it put back); as one seat saw it, that seat's
own and no one else's (R11).

`ReplayScreen(record)` opens anywhere (`coup replay`, or over any screen); it refuses, with
RecordError, a record that does not replay to the result it claims. It never shows a game
that is not over: a record is only made of a finished game, and `check` wants its result.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Input, Static

from engine import Event, View, visible_to
from engine.record import check, play

from ...i18n import N_, _
from ...core.table import TableState
from ...narrate import face_up_text, prompt
from ..widgets.footer import Footer
from ..widgets.log import WrappingLog, event_line
from ..widgets.seats import SeatsPanel
from .base import CoupScreen


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
    BINDINGS = [
        Binding("right,l", "step(1)", N_("Next")),
        Binding("left,h", "step(-1)", N_("Back")),
        Binding("home", "first", N_("Start"), show=False),
        Binding("end", "last", N_("End"), show=False),
        Binding("g", "ask_turn", N_("Go to turn")),
        Binding("v", "cycle_view", N_("View")),
        Binding("q,escape", "close", N_("Close")),
        Binding("pageup", "read_log('page_up')", show=False),
        Binding("pagedown", "read_log('page_down')", show=False),
    ]

    def __init__(self, record: dict, seat: int | None = None) -> None:
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

    def compose(self) -> ComposeResult:
        yield Static(id="replay-header")
        with Horizontal(id="replay-main"):
            yield SeatsPanel(id="replay-seats")
            # Room for every line of the longest games (ten seats, some 800 moves), wrapped.
            log = WrappingLog(id="replay-log", max_lines=20000)
            log.can_focus = False  # the arrows and home/end step the game; page keys scroll it
            yield log
        yield Static(id="replay-step")
        yield Input(id="turn-input", type="integer", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#replay-log", WrappingLog).border_title = _("Log")
        self.show()

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
        self.query_one("#replay-log", WrappingLog).scroll_for_key(where)

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

    def action_close(self) -> None:
        """Close the replay (from the turn's input: close the input only)."""
        if self.query_one("#turn-input", Input).display:
            self._close_input()
            return
        self.dismiss(None)
