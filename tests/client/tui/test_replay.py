"""The replay screen, driven by its keys: a finished game's record (three seeded bots' game,
tests/client/records.py) stepped forward and back, jumped to a turn, seen with every card
face up or as one seat saw it (R11: that seat's view hides the others' face-down cards and
their private events), the log following every step."""

from __future__ import annotations

import time

import pytest

from client.i18n import card_name
from client.tui.app import Launch
from client.narrate import event_text, face_up_text
from client.tui.screens.replay import ReplayScreen, returned, steps
from client.tui.widgets.log import WrappingLog
from client.tui.widgets.seats import SeatsPanel
from engine import visible_to
from engine.record import replay
from tests.client.records import played, record

from .helpers import log_lines, run_app, shown, until

NAMES = {0: "Ana", 1: "Bruno", 2: "Bot 3"}


def open_replay(body, seat=None, size=(100, 30), shown_record=None):
    """Run `body(app, pilot, screen)` on the replay screen of `shown_record` (by default
    `record()`), as `coup replay` opens it."""
    async def main(app, pilot):
        screen = await until(pilot, lambda: isinstance(app.screen, ReplayScreen)
                             and app.screen, "the replay screen")
        await body(app, pilot, screen)

    return run_app(Launch("replay", record=shown_record or record(), view_as=seat), main,
                   size=size)


def narrated(upto: int, seat=None) -> list[str]:
    """The log's lines at step `upto`, as `seat` saw the game (None: every card face up,
    each seat's private events told by name)."""
    made = steps(record())
    lines = []
    for n, step in enumerate(made[:upto + 1]):
        for e in step.events if seat is None else visible_to(step.events, seat):
            if seat is None and e.to is not None:
                back = returned(made[n - 1].full, e) if e.kind == "kept" else []
                text = face_up_text(e, NAMES.get, back)
            else:
                text = event_text(e, NAMES.get, seat)
            if text:
                lines.append(text)
    return lines


def words(lines: list[str]) -> str:
    """Lines as one run of words: the log wraps its lines at its width."""
    return " ".join(" ".join(lines).split())


def log_text(screen) -> str:
    return words(log_lines(screen.query_one("#replay-log", WrappingLog)))


def step_line(screen) -> str:
    return shown(screen.query_one("#replay-step"))


def test_arrows_step_forward_and_back_and_the_log_follows():
    async def body(app, pilot, screen):
        assert "Move 0 of" in step_line(screen)
        assert log_text(screen) == words(narrated(0))
        await pilot.press("right", "right", "l")
        await pilot.pause()
        assert screen.at == 3 and "Move 3 of" in step_line(screen)
        assert log_text(screen) == words(narrated(3))
        await pilot.press("left", "h")
        await pilot.pause()
        assert screen.at == 1
        assert log_text(screen) == words(narrated(1))
        await pilot.press("end")
        await pilot.pause()
        assert screen.at == len(record()["moves"])
        assert log_text(screen) == words(narrated(screen.at))
        assert log_text(screen).endswith("wins the game!")
        await pilot.press("right")  # past the end: it stays there
        await pilot.press("home")
        await pilot.pause()
        assert screen.at == 0 and log_text(screen) == words(narrated(0))

    open_replay(body)


def test_g_jumps_to_the_start_of_a_turn():
    made = steps(record())
    start = next(n for n, step in enumerate(made) if step.turn == 4)

    async def body(app, pilot, screen):
        await pilot.press("g", "4", "enter")
        await pilot.pause()
        assert screen.at == start
        assert "Turn 4" in step_line(screen)
        assert log_text(screen).endswith(narrated(start)[-1])
        # A turn the game never reached is refused, and the replay stays where it was.
        for typed in (["9", "9"], ["-"], ["0"]):
            await pilot.press("g", *typed, "enter")
            await pilot.pause()
            assert screen.at == start
        # esc closes the input, not the replay; the keys step again.
        await pilot.press("g", "escape", "right")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and screen.at == start + 1

    open_replay(body)


def test_v_shows_the_game_as_one_seat_saw_it_hiding_the_others_cards():
    """R11: as Ana saw it, the others' face-down cards are not shown, hers are."""
    deal = replay(record(), upto=0)
    mine = {card_name(c) for c in deal.hands[0]}
    theirs = {card_name(c) for s in (1, 2) for c in deal.hands[s]} - mine

    async def body(app, pilot, screen):
        seats = shown(screen.query_one(SeatsPanel))
        assert all(name in seats for name in mine | theirs)
        assert "All cards face up" in shown(screen.query_one("#replay-header"))
        await pilot.press("v")
        await pilot.pause()
        seats = shown(screen.query_one(SeatsPanel))
        assert all(name in seats for name in mine)
        assert not any(name in seats for name in theirs)
        assert seats.count("▮") == 4  # two face-down cards each for Bruno and the bot
        assert "As Ana saw it" in shown(screen.query_one("#replay-header"))
        await pilot.press("v", "v", "v")  # Bruno, the bot, and round to every card again
        await pilot.pause()
        assert screen.seat is None and "All cards face up" in shown(
            screen.query_one("#replay-header"))

    open_replay(body)


def test_a_seats_private_events_are_in_its_log_only():
    """R4.3: the cards an Exchange draws are told to the exchanger alone."""
    made = steps(record())
    at, seat = next((n, e.seat) for n, step in enumerate(made) for e in step.events
                    if e.kind == "drew")
    drew = next(e for e in made[at].events if e.kind == "drew")
    told = "You draw: " + ", ".join(card_name(c) for c in drew.cards)

    async def body(app, pilot, screen):
        for _ in range(at):
            await pilot.press("right")
        await pilot.pause()
        assert told not in log_text(screen)  # every card face up: the public log
        await pilot.press(*["v"] * (seat + 1))
        await pilot.pause()
        assert screen.seat == seat and told in log_text(screen)
        assert log_text(screen) == words(narrated(at, seat))
        await pilot.press("v")
        await pilot.pause()
        assert told not in log_text(screen)

    open_replay(body)


def test_face_up_an_exchange_shows_the_cards_drawn_and_those_returned():
    """R4.3 with every card face up: the log tells which cards an Exchange drew, then which
    it kept and which went back to the deck; as another seat saw it, none of that (R11)."""
    made = steps(record())
    at = next(n for n, step in enumerate(made) for e in step.events if e.kind == "exchange")
    seat = next(e.seat for e in made[at].events if e.kind == "exchange")
    drawn = next(e.cards for e in made[at].events if e.kind == "drew")
    kept = next(e.cards for e in made[at + 1].events if e.kind == "kept")
    back = list(made[at].full.hands[seat]) + list(drawn)
    for card in kept:
        back.remove(card)
    assert len(back) == len(drawn)

    def cards(named) -> str:
        return ", ".join(card_name(c) for c in named)

    drew_line = f"{NAMES[seat]} draws: {cards(drawn)}"
    kept_line = f"{NAMES[seat]} keeps: {cards(kept)}; returns: {cards(back)}"

    async def body(app, pilot, screen):
        for _ in range(at):
            await pilot.press("right")
        await pilot.pause()
        assert log_text(screen).endswith(drew_line)
        await pilot.press("right")
        await pilot.pause()
        assert drew_line in log_text(screen)
        assert f"returns 2 cards to the deck {kept_line} —" in log_text(screen)
        other = next(s for s in NAMES if s != seat)
        await pilot.press(*["v"] * (other + 1))
        await pilot.pause()
        assert screen.seat == other
        assert cards(drawn) not in log_text(screen) and "returns:" not in log_text(screen)

    open_replay(body)


def test_replay_opens_as_a_seat_and_q_closes_the_app():
    async def body(app, pilot, screen):
        assert screen.seat == 1
        assert "As Bruno saw it" in shown(screen.query_one("#replay-header"))
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "the app to close")

    open_replay(body, seat=1)


def test_every_step_of_a_long_game_is_at_hand_at_once():
    """A game of some hundreds of moves steps without waiting: its steps are made once, when
    the replay opens (measured: 40 ms for this game's 298 moves; a step back, which writes
    the log again, about 70 ms)."""
    game, moves = played(seed=13, players=6, strategy="heuristic")
    assert len(moves) >= 250
    rec = dict(record(), options=game.options.to_dict(), seed=13, moves=moves,
               players=[{"seat": s, "name": f"P{s}", "bot": None} for s in range(6)],
               result={"winner": game.winner, "out": list(game.exiled)})
    began = time.perf_counter()
    made = steps(rec)
    assert len(made) == len(moves) + 1
    assert time.perf_counter() - began < 1.0


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_log_opens_on_the_first_turn_told_once(size):
    async def body(app, pilot, screen):
        await pilot.pause()
        assert log_lines(screen.query_one("#replay-log", WrappingLog)) == narrated(0)

    open_replay(body, size=size)


def test_the_clocks_moves_and_a_bots_take_over_are_told():
    """R10: a move the clock made says so on the step line; a bot taking a seat over is in
    the log after the move it came after."""
    told = record()
    told["moves"][2]["by"] = "clock"
    told["takeovers"] = [{"seat": 1, "bot": "heuristic", "after": 4, "ms": 7000}]

    async def body(app, pilot, screen):
        await pilot.press("right", "right")
        await pilot.pause()
        assert "played by the clock" not in step_line(screen)
        await pilot.press("right")
        await pilot.pause()
        assert "Move 3 of" in step_line(screen) and "played by the clock" in step_line(screen)
        assert "A bot plays for Bruno" not in log_text(screen)
        await pilot.press("right")
        await pilot.pause()
        assert "played by the clock" not in step_line(screen)
        assert log_text(screen).endswith("A bot plays for Bruno from here on")

    open_replay(body, shown_record=told)
