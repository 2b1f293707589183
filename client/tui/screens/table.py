"""The table: players, your hand, the log and chat, the decision with its countdown, and the
action bar offering exactly the moves the engine says are legal, each on one key; on a tall
terminal, under the players, the cards face up and the actions card (`?` shows the rules
card, the actions with it, at any size).

Before the game it is the waiting room (seats, ready marks, start); when the game ends the
results open over it. Every key that names a move is checked on your own view before
anything is sent: a move that is not legal now is explained at once, in the engine's terms.

A key answers only the prompt on screen when it was pressed: every move goes with the
decision it was offered for (the client core sends nothing once another has replaced it),
and for KEY_GRACE after a prompt of yours gave way, unanswered, to another decision, keys
are taken as meant for the prompt replaced: they do nothing, and the new prompt flashes.

The screen is made for one table, the app's TableState (`table`), which the app changes in
place; it hands it to its panels by data binding through `state`, which updates at every
assignment (`always_update`: equality would never see a change), made at each `TableChanged`.
"""

from __future__ import annotations

from functools import partial
from time import monotonic

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.reactive import reactive
from textual.widgets import Input, Static

from engine import IllegalMove, Move, View, move
from engine.cards import CONVERT, DENIED, EMBEZZLE, OTHER_FACTION, TARGETED

from ...i18n import N_, _, action_name, card_name, ngettext
from ..messages import ChatSaid, PresenceChanged, PromptReplaced, TableChanged
from ...core.aims import Aim, aims
from ...core.table import TableState
from ...narrate import choice_title, game_label, move_label, move_refused_text
from ..widgets.footer import Footer
from ..widgets.actions import ActionBar, Item
from ..widgets.decision import DecisionPanel
from ..widgets.faceup import FaceUpPanel
from ..widgets.hand import HandPanel
from ..widgets.log import TableLog
from ..widgets.players import PlayersPanel, faction_text
from ..widgets.reference import ActionsCard
from .base import CoupScreen
from .dialogs import ChooseDialog, ConfirmDialog
from .results import ResultsScreen
from .rules import RulesScreen

#: The key of each action on your turn. Reformation's two (R12.9, R12.11) take letters of
#: their names that no other move, no answer and none of the table's keys use: cOnvert and
#: eMbezzle (c and e are Coup's and Exchange's).
ACTION_KEYS = {"income": "i", "foreign_aid": "f", "coup": "c", "tax": "t",
               "assassinate": "a", "steal": "s", "exchange": "e", "examine": "x",
               "convert": "o", "embezzle": "m"}
#: The key of each answer to a claim that needs no choosing. Proving and conceding have keys
#: that no action and no other answer uses: a reflex key from the step before never gives up
#: a claim (nor shows a card).
RESPONSE_KEYS = {"challenge": "c", "block": "b", "pass": "p", "prove": "v", "concede": "g"}
#: Phases whose choice is made in a dialog (opened by itself, or with enter).
DIALOG_PHASES = ("draft", "lose", "keep", "show", "examine_decision")
#: Seconds after a prompt of ours gave way, unanswered, to another decision during which a
#: key is taken as meant for the prompt replaced: a player's reaction takes about this long,
#: so a key pressed sooner was aimed at what was on screen before.
KEY_GRACE = 0.3
#: Seats past which the players panel needs the actions card's rows on a tall terminal: at
#: 120x40 four seats have a line each for their claims counted, their latest claims and
#: the air between them, with the actions card under them.
CROWDED = 4


def rules_line(options: dict | None) -> str:
    """The variant in play (with Reformation, if on) and the table's clocks, e.g.
    "Inquisitor · 20 s to answer, 60 s a turn" ("no clocks" when neither runs); "" before
    the table is known."""
    if not options:
        return ""
    answer, turn = options.get("response_clock", 0), options.get("turn_clock", 0)
    if answer or turn:
        clocks = _("{answer} to answer, {turn} a turn").format(
            answer=_("{n} s").format(n=answer) if answer else _("no clock"),
            turn=_("{n} s").format(n=turn) if turn else _("no clock"))
    else:
        clocks = _("no clocks")
    return f"{game_label(options)} · {clocks}"


def by_dialog(view: View) -> bool:
    """Whether the open decision is made in a dialog: a choice of DIALOG_PHASES, or the
    answer to a challenged Embezzlement, which shows every face-down card (R12.12)."""
    return view.phase in DIALOG_PHASES or (view.phase == "prove" and view.action == EMBEZZLE)


def asked_of_us(state: TableState) -> int | None:
    """The decision we owe and have not answered yet (its View.opened), None if none."""
    view = state.view
    if view is None or view.over or view.seat not in view.waiting or state.pending is not None:
        return None
    return view.opened


class TableScreen(CoupScreen):
    #: From this width the log, where the game is read, gets half the screen.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    #: From this height the left column has rows to spare under the players (about thirty
    #: empty at 120x40): the cards face up and the actions card take them (coup.tcss).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]
    BINDINGS = [
        Binding("question_mark", "rules", N_("Rules")),
        Binding("slash", "chat", N_("Chat")),
        Binding("q", "leave", N_("Leave")),
        Binding("escape", "table_keys", show=False),
        Binding("pageup", "read_log('page_up')", show=False),
        Binding("pagedown", "read_log('page_down')", show=False),
        Binding("home", "read_log('home')", show=False),
        Binding("end", "read_log('end')", show=False),
    ]

    #: The table shown, bound to the panels; every assignment draws it again.
    state: reactive[TableState | None] = reactive(None, always_update=True, repaint=False)

    def __init__(self, table: TableState) -> None:
        super().__init__()
        #: The app's table while this screen is shown (a new table gets a new screen).
        self.table = table
        self._dialog_for: int | None = None
        self._results_for: int | None = None
        #: The decision drawn (its View.opened); the one of ours drawn unanswered, if any;
        #: and when (on `monotonic`) such a prompt last gave way to another unanswered.
        self._shown: int | None = None
        self._asking: int | None = None
        self._replaced_at = float("-inf")

    def compose(self) -> ComposeResult:
        yield Static(id="table-header")
        yield Static(id="banner")
        with Horizontal(id="table-main"):
            with Vertical(id="table-left"):
                yield PlayersPanel(id="players").data_bind(TableScreen.state)
                yield FaceUpPanel(id="face-up").data_bind(TableScreen.state)
                yield ActionsCard(id="actions-card").data_bind(TableScreen.state)
                yield HandPanel(id="hand").data_bind(TableScreen.state)
            yield TableLog(id="log", max_lines=2000)
        yield DecisionPanel(id="decision").data_bind(TableScreen.state)
        yield ActionBar(id="actions")
        yield Input(placeholder=_("Chat, or /kick /mute /ban /close (/help): / to write, "
                                  "⏎ to send, esc to return") if self.coup.operator
                    else _("Chat: / to write, ⏎ to send, esc to return"),
                    id="chat-input", max_length=500, compact=True)
        yield Footer()

    def on_mount(self) -> None:
        if not self.built:
            return
        self.query_one(TableLog).border_title = _("Log")
        self._read_model()

    @property
    def game_view(self) -> View:
        """The game's view, for what is only offered while a game is on (its moves and their
        dialogs): asked for before the game, it is a bug, said as such."""
        view = self.table.view
        if view is None:
            raise RuntimeError("no game at this table: nothing to play yet")
        return view

    # ------------------------------------------------------------------ drawing

    def _read_model(self) -> None:
        self.state = self.table

    @property
    def connected(self) -> bool:
        """Connected to the server: else the banner says so and the action bar is disabled."""
        return self.coup.connected

    def watch_state(self) -> None:
        if not self.built:
            return
        state = self.table
        self._banner()
        # The cards face up and the actions card are the game's; past CROWDED seats the
        # players' rows need the actions card's (it stays on `?`).
        self.set_class(state.view is not None, "-dealt")
        self.set_class(len(state.seats) > CROWDED, "-crowded")
        info = state.info or {}
        parts = [info.get("name") or _("Table {id}").format(id=state.table)]
        if state.code:
            parts.append(_("code {code}").format(code=state.code))
        if state.seat is None:  # (a player finds "(you)" in the players panel)
            parts.append(_("spectating"))
        # The table's name and code are what a player reads out to a friend: the rules line
        # gives way to them (in Portuguese it is long enough to cut the code at 80 columns).
        header = Table.grid(expand=True, padding=(0, 2))
        header.add_column(no_wrap=True, overflow="ellipsis")
        header.add_column(ratio=1, no_wrap=True, overflow="ellipsis", justify="right")
        header.add_row(Text(" · ".join(parts)), Text(rules_line(info.get("options"))))
        self.query_one("#table-header", Static).update(header)
        self._note_prompt()
        self._offer()

    def _note_prompt(self) -> None:
        """Note when a prompt of ours gives way to another decision unanswered (one we
        answered gives way as it should, even when its move pending was never drawn)."""
        view = self.table.view
        asking = asked_of_us(self.table)
        if self._asking not in (None, asking, self.table.answered):
            self._replaced_at = monotonic()
        self._shown = view.opened if view is not None else None
        self._asking = asking

    def _banner(self) -> None:
        """Across the screen while play cannot go on: the connection is lost, or the server
        cannot save the game (play paused, clocks stopped)."""
        banner = self.query_one("#banner", Static)
        paused = self.table.paused_at is not None
        if not self.connected:
            banner.update(_("Connection lost — reconnecting…"))
        elif paused:
            banner.update(_("Play is paused: the server cannot save the game. Clocks stopped."))
        banner.display = not self.connected or paused

    @on(TableChanged)
    def _changed(self, change: TableChanged) -> None:
        """Draw the model anew; a new view's log lines first: `events`, what just happened,
        after `earlier`, what happened before the view came and the log lacks, under a
        heading."""
        if not self.built or self.coup.table is not self.table:
            return  # (the table was left: this screen is on its way out)
        state = self.table
        if change.new_view:
            self._write_log(state, change)
        self._read_model()
        view = state.view
        if view is None or not change.new_view:
            return
        if view.over and self._results_for != view.state_id and state.reveal is not None:
            self._results_for = view.state_id
            self.app.push_screen(ResultsScreen(state))
        elif (view.seat in view.waiting and by_dialog(view)
              and self._dialog_for != view.opened and state.pending is None
              and self.app.screen is self):
            self.action_choose()

    def _write_log(self, state: TableState, change: TableChanged) -> None:
        if change.new_game:  # the notices of the game before (a rematch asked…) are stale now
            self.app.clear_notifications()
        self.query_one(TableLog).tell(change.events, state.name, state.seat,
                                      new_game=change.new_game, earlier=change.earlier)

    @on(PresenceChanged)
    def _presence(self, msg: PresenceChanged) -> None:
        if self.built:
            self.query_one(TableLog).came_or_went(msg.status,
                                                  msg.name or self.table.name(msg.seat))

    @on(ChatSaid)
    def _chat(self, msg: ChatSaid) -> None:
        if msg.scope == "table" and self.built:  # at a table, only spectators speak seatless
            self.query_one(TableLog).said(msg.name, msg.text, spectator=msg.seat is None)

    @on(PromptReplaced)
    def _replaced(self) -> None:
        if self.built:
            self.query_one(DecisionPanel).flash()

    # ------------------------------------------------------------------ what may be done

    def _offer(self) -> None:
        state = self.table
        bar = self.query_one(ActionBar)
        view = state.view
        if view is None or view.over:
            bar.items = tuple(self._table_items())
            bar.disabled = not self.connected
            return
        items: list[Item] = []
        if view.seat is not None and view.seat in view.waiting:
            moves = view.legal_moves()
            if view.phase == "action":
                items.extend(Item(ACTION_KEYS[kind], action_name(kind),
                                  partial(self.declare, kind, view.opened))
                             for kind in dict.fromkeys(mv.kind for mv in moves))
            elif by_dialog(view):
                items.append(Item("enter", _("Choose…"), self.action_choose))
            else:
                items.extend(self._response_items(moves, view.opened))
        bar.items = tuple(items)
        bar.disabled = state.pending is not None or not self.connected

    def _response_items(self, moves, opened: int) -> list[Item]:
        """The answers to the decision opened at `opened`, each sent as answering it."""
        play = self.coup.play_move
        items = [Item(RESPONSE_KEYS[mv.kind], move_label(mv, self.table.name),
                      partial(play, mv, opened))
                 for mv in moves if mv.kind in ("challenge", "prove")]
        blocks = [mv for mv in moves if mv.kind == "block"]
        if len(blocks) == 1:
            items.append(Item(RESPONSE_KEYS["block"], move_label(blocks[0], self.table.name),
                              partial(play, blocks[0], opened)))
        elif blocks:
            items.append(Item(RESPONSE_KEYS["block"], _("Block…"),
                              partial(self._choose_block, blocks, opened)))
        if move("concede") in moves:
            items.append(Item(RESPONSE_KEYS["concede"], _("Concede"),
                              partial(self.concede, opened)))
        if move("pass") in moves:
            items.append(Item(RESPONSE_KEYS["pass"], _("Pass"),
                              partial(play, move("pass"), opened)))
        return items

    def concede(self, opened: int) -> None:
        """Give up the challenged claim of the decision opened at `opened`; asked first when
        the card is in your hand, since conceding then loses an influence that showing it
        would have kept (R6.3, R6.4)."""
        view = self.game_view
        hand = view.hands[view.seat] if view.seat is not None else None
        if view.claim is None or view.claim not in (hand or ()):
            self.coup.play_move(move("concede"), opened)
            return
        self.app.push_screen(
            ConfirmDialog(_("You hold the {card}: concede all the same, and lose an "
                            "influence?").format(card=card_name(view.claim)), opened),
            partial(self._concede_if, opened))

    def _concede_if(self, opened: int, yes: bool | None) -> None:
        if yes:
            self.coup.play_move(move("concede"), opened)

    def _table_items(self) -> list[Item]:
        """Before the game (ready, start) and after it (rematch, results)."""
        state = self.table
        items: list[Item] = []
        if state.view is not None and state.view.over:
            if state.seat is not None:
                items.append(Item("r", _("Rematch"), self.coup.rematch))
            items.append(Item("enter", _("Results"),
                              lambda: self.app.push_screen(ResultsScreen(state))))
            return items
        if state.seat is None:
            return items
        mine = next((s for s in state.seats if s["seat"] == state.seat), None)
        ready = bool(mine and mine.get("ready"))
        items.append(Item("r", _("Not ready") if ready else _("Ready"),
                          lambda: self.coup.ready(not ready)))
        # The creator is a seat, never a name: a player of the same name may sit later in
        # the seat the creator left, and is not the creator.
        if state.info and state.info.get("creator_seat") == state.seat:
            items.append(Item("s", _("Start the game"), self.coup.start_game))
        return items

    # ------------------------------------------------------------------ doing it

    def action_read_log(self, where: str) -> None:
        """PageUp, PageDown, Home and End scroll the log whatever has the focus, except the
        chat input while you type (it keeps Home and End for its own line)."""
        self.query_one(TableLog).scroll_for_key(where)

    def on_key(self, event: Key) -> None:
        if isinstance(self.focused, Input):
            return
        bar = self.query_one(ActionBar)
        offered = bar.offered(event.key)
        # A move the bar does not offer now is played all the same, for the core to say why
        # it is not legal.
        mv = None if offered else self._move_for_key(event.key)
        if offered is None and mv is None:
            return
        event.stop()
        if self.holding_keys:
            self.query_one(DecisionPanel).flash()
        elif offered is not None:
            offered.run()
        elif mv is not None:
            self.coup.play_move(mv, self._shown)

    @property
    def holding_keys(self) -> bool:
        """A prompt of ours gave way, unanswered, less than KEY_GRACE ago: a key now was
        meant for it, and answers nothing."""
        return monotonic() - self._replaced_at < KEY_GRACE

    def _move_for_key(self, key: str) -> Move | None:
        state = self.table
        view = state.view if state is not None else None
        if view is None or view.over or state.seat is None:
            return None
        if view.phase == "action" or view.seat not in view.waiting:
            kind = next((k for k, v in ACTION_KEYS.items() if v == key), None)
            if kind is None:
                return None
            if kind in TARGETED:
                others = [s for s in range(len(view.alive))
                          if view.alive[s] and s != state.seat]
                return move(kind, target=others[0] if others else None)
            if kind == CONVERT:  # the cheaper Conversion, of oneself, for the core to judge
                return move(kind, target=state.seat)
            return move(kind)
        return None

    def declare(self, kind: str, opened: int) -> None:
        """Your action, on your turn opened at `opened`; a targeted one (or a Conversion)
        asks whom it aims at first, unless only one player can be its target and no other
        is refused. The seats the rules refuse now are listed too, each with the reason
        (R12.6: one's own faction on a divided table; R12.9: a cost one cannot pay)."""
        view = self.game_view
        if kind not in TARGETED and kind != CONVERT:
            self.coup.play_move(move(kind), opened)
            return
        found = aims(view, kind)
        allowed = [aim for aim in found if aim.refused is None]
        refused = [(aim, aim.refused) for aim in found if aim.refused is not None]
        if len(allowed) == 1 and not refused:
            self.coup.play_move(allowed[0].move, opened)
            return
        label = self._conversion_line if kind == CONVERT else self._target_line
        self.app.push_screen(
            ChooseDialog(_("{action}: choose the target").format(action=action_name(kind)),
                         [(label(aim), aim.move) for aim in allowed], opened,
                         refused=[(label(aim), move_refused_text(code, kind))
                                  for aim, code in refused]),
            partial(self._chosen, opened))

    def _target_line(self, aim: Aim) -> str:
        """A target as its picker lists it: "Bruno — 4¢, 2 cards", and its faction at a
        Reformation table."""
        view = self.game_view
        seat = aim.seat
        cards = view.influence[seat]
        line = ngettext("{name} — {coins}¢, {cards} card", "{name} — {coins}¢, {cards} cards",
                        cards).format(name=self.table.name(seat), coins=view.coins[seat],
                                      cards=cards)
        if view.factions:
            line += " · " + faction_text(view.factions[seat]).plain
        return line

    def _conversion_line(self, aim: Aim) -> str:
        """A Conversion's target with what it costs and the faction it makes them (R12.9):
        "Ana (you) — 1¢: ◇ Reformist becomes ◆ Loyalist"."""
        view = self.game_view
        name = self.table.name(aim.seat)
        if aim.seat == view.seat:
            name = _("{name} (you)").format(name=name)
        faction = view.factions[aim.seat]
        return _("{name} — {cost}¢: {faction} becomes {new}").format(
            name=name, cost=aim.cost,
            faction=faction_text(faction).plain,
            new=faction_text(OTHER_FACTION[faction]).plain)

    def _choose_block(self, blocks, opened: int) -> None:
        self.app.push_screen(
            ChooseDialog(_("Block as which character?"),
                         [(move_label(mv, self.table.name), mv) for mv in blocks], opened),
            partial(self._chosen, opened))

    def action_choose(self) -> None:
        """The dialog for a decision made by choosing: a card, cards to keep, keep or swap."""
        state = self.table
        view = state.view
        if view is None or view.seat not in view.waiting or not by_dialog(view):
            return
        self._dialog_for = view.opened
        moves = view.legal_moves()
        if view.phase == "prove":
            self._answer_embezzlement_challenge(view, moves)
            return
        self.app.push_screen(
            ChooseDialog(choice_title(view, state.name),
                         [(move_label(mv, state.name), mv) for mv in moves], view.opened),
            partial(self._chosen, view.opened))

    def _answer_embezzlement_challenge(self, view: View, moves: tuple[Move, ...]) -> None:
        """Prove by showing every face-down card, or concede (R12.12). Holding a Duke, only
        conceding is offered: showing is listed as refused, with the engine's reason."""
        hand = view.hands[view.seat] if view.seat is not None else None
        show = _("{label}: {cards}").format(
            label=move_label(move("prove"), self.table.name, view),
            cards=", ".join(card_name(card) for card in hand or ()))
        options: list[tuple[str, object]] = []
        refused: list[tuple[str, str]] = []
        if move("prove") in moves:
            options.append((show, move("prove")))
        else:
            try:
                view.check(move("prove"))
            except IllegalMove as refusal:
                refused.append((show, move_refused_text(refusal.code, "prove")))
        options.append((_("Concede: lose an influence, the Almshouse keeps its coins"),
                         move("concede")))
        self.app.push_screen(
            ChooseDialog(_("{name} challenges your Embezzlement: you claimed to hold no "
                           "{card}").format(name=self.table.name(view.challenger),
                                            card=card_name(DENIED)),
                         options, view.opened, refused=refused),
            partial(self._chosen, view.opened))

    def _chosen(self, opened: int, mv: Move | None) -> None:
        """The dialog about the decision opened at `opened` chose `mv` (None: nothing)."""
        if mv is not None:
            self.coup.play_move(mv, opened)

    def action_chat(self) -> None:
        self.query_one("#chat-input", Input).focus()

    def action_table_keys(self) -> None:
        """Leave the chat line: keys play moves again."""
        self.set_focus(None)

    @on(Input.Submitted, "#chat-input")
    def _say(self, event: Input.Submitted) -> None:
        self.coup.say(event.value, "table")
        event.input.value = ""
        self.set_focus(None)

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen())

    def action_leave(self) -> None:
        state = self.table
        if state.playing:
            question = (_("Leave the game? Your seat will be played for you.")
                        if state.others_are_people
                        else _("Leave the game? Only bots play with you: the game ends."))
            self.app.push_screen(ConfirmDialog(question),
                                 lambda yes: self.coup.leave_table() if yes else None)
        else:
            self.coup.leave_table()
