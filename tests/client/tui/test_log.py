"""The table's log read from the keyboard and rewrapped to the terminal (issue 13): PageUp,
PageDown, Home and End scroll it wherever the focus is but in the chat input, and a terminal made
wider or narrower wraps every line again at the new width, cutting none, staying at the end
when it was there.

Each test waits for its turn at a practice table with no clocks, so nothing else writes to
the log while it reads it.
"""

from __future__ import annotations

import pytest
from rich.text import Text

from client.i18n import set_language
from client.tui.widgets.log import TableLog, WrappingLog
from engine import Event

from .helpers import log_lines, my_turn, practice, run_app

#: A long line of words, as a chat line or a log sentence can be.
LONG = " ".join(f"word{i}" for i in range(60))


def test_page_up_page_down_home_and_end_scroll_the_log():
    async def body(app, pilot):
        await my_turn(app, pilot)
        log = app.screen.query_one(WrappingLog)
        for i in range(80):
            log.write(Text(f"line {i}"))
        await pilot.press("tab")  # the focus on the action bar, as after a click there
        assert app.focused is not log
        assert log.is_vertical_scroll_end
        await pilot.press("pageup")
        assert 0 < log.scroll_y < log.max_scroll_y
        await pilot.press("home")
        assert log.scroll_y == 0
        await pilot.press("pagedown")
        assert log.scroll_y > 0
        await pilot.press("end")
        assert log.is_vertical_scroll_end

        await pilot.press("slash")  # typing in the chat: Home and End move in the line
        await pilot.press("home")
        assert log.is_vertical_scroll_end

    run_app(practice(bots=2), body, size=(100, 30))


def test_the_log_rewraps_its_lines_when_the_terminal_is_resized():
    async def body(app, pilot):
        await my_turn(app, pilot)
        log = app.screen.query_one(WrappingLog)
        for _ in range(30):
            log.write(Text(LONG))
        await pilot.pause()

        def fits() -> bool:
            """Every line within the log's width, and every word of every line whole."""
            width = log.scrollable_content_region.width
            words = " ".join(log_lines(log)).split()
            return (all(strip.cell_length <= width for strip in log.lines)
                    and words[-60:] == LONG.split())

        assert fits()
        narrow = len(log.lines)
        await pilot.resize_terminal(160, 40)
        await pilot.pause()
        assert fits() and len(log.lines) < narrow  # wider: fewer, longer lines
        assert log.is_vertical_scroll_end
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert fits() and len(log.lines) > narrow
        assert log.is_vertical_scroll_end

    run_app(practice(bots=2), body, size=(120, 40))


def test_lines_written_before_the_log_has_a_size_are_kept_once():
    """RichLog holds back what is written before its first size and writes it then, through
    `write` again: those lines must not be kept twice, or the next resize shows them twice."""
    import asyncio

    from textual.app import App, ComposeResult

    class OneLog(App):
        def compose(self) -> ComposeResult:
            log = WrappingLog(max_lines=100)
            for i in range(3):
                log.write(Text(f"early {i}"))  # no size yet: held back
            yield log

    async def main() -> None:
        app = OneLog()
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            log = app.query_one(WrappingLog)
            log.write(Text("late"))
            await pilot.resize_terminal(90, 20)
            await pilot.pause()
            assert " ".join(log_lines(log)).split() == [
                "early", "0", "early", "1", "early", "2", "late"]

    asyncio.run(main())


#: Five seats: Ana (seat 0, the viewer) and four bots.
NAMES = ["Ana", "Bot 2", "Bot 3", "Bot 4", "Bot 5"]


def _named(seat: int | None) -> str:
    return NAMES[seat] if seat is not None else "?"


def _told(batches: list[list[Event]], lang: str) -> list[str]:
    """The lines of a table's log 30 columns wide (its width at 80x24), told `batches`, one
    view's events each, in `lang`."""
    import asyncio

    from textual.app import App, ComposeResult

    set_language(lang)

    class OneLog(App):
        def compose(self) -> ComposeResult:
            yield TableLog(max_lines=100)

    got: list[str] = []

    async def main() -> None:
        app = OneLog()
        async with app.run_test(size=(30, 20)) as pilot:
            await pilot.pause()
            log = app.query_one(TableLog)
            for batch in batches:
                log.tell(batch, _named, 0)
            await pilot.pause()
            got.extend(line.rstrip() for line in log_lines(log))

    asyncio.run(main())
    return got


def _claim_passes(passers: list[int]) -> list[list[Event]]:
    """Bot 3 claims the Duke for Tax, and `passers` let it stand, each in a view of its own."""
    return [[Event("action", 2, action="tax", card="duke")],
            *[[Event("pass", seat, 2, "duke")] for seat in passers]]


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_passes_on_a_claim_fold_into_one_line_when_everyone_passed(lang):
    """Issue 30, item 5 (R6.1): four seats let Bot 3's Duke stand, one line says so, not four
    lines each wrapped to two; the claim stays in view above it."""
    lines = _told([*_claim_passes([3, 4, 0, 1]), [Event("gain", 2, amount=3)]], lang)
    no_one = {"en": "No one challenges", "pt_BR": "Ninguém contesta"}[lang]
    assert lines.count(no_one) == 1
    assert not [line for line in lines if "does not" in line or "não contesta" in line]
    assert len(lines) <= 5  # the claim (two lines), the fold, the gain


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_passes_before_a_challenge_name_who_passed(lang):
    """Issue 30, item 5 (R6.1): Bot 4 and Bot 5 pass, then Ana challenges: the passers are
    named on one line, before the challenge."""
    lines = _told([*_claim_passes([3, 4]),
                   [Event("challenge", 0, 2, "duke")]], lang)
    text = " ".join(" ".join(lines).split())
    passed = {"en": "Bot 4 and Bot 5 do not challenge",
              "pt_BR": "Bot 4 e Bot 5 não contestam"}[lang]
    assert passed in text
    assert text.index(passed) < text.index({"en": "challenges", "pt_BR": "contesta Bot"}[lang])


def test_passes_wait_while_the_window_is_open():
    """While others may still challenge, the claim is the log's last line: the passes are
    told together once the window closes."""
    lines = _told(_claim_passes([3, 4]), "en")
    assert " ".join(" ".join(lines).split()) == "Bot 3 claims Duke to collect Tax"


def test_one_pass_reads_as_before():
    """A duel: the one seat that may answer passes, and its line names the claim as before."""
    lines = _told([*_claim_passes([0]), [Event("gain", 2, amount=3)]], "en")
    assert "Ana does not challenge Bot 3's Duke" in " ".join(" ".join(lines).split())


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_passes_on_a_block_window_fold_too(lang):
    """Foreign Aid: three seats do not block as Duke (R7), one line says so."""
    lines = _told([[Event("action", 1, action="foreign_aid")],
                   *[[Event("pass", seat, 1, action="foreign_aid")] for seat in (2, 3, 0)],
                   [Event("gain", 1, amount=2)]], lang)
    assert {"en": "No one blocks", "pt_BR": "Ninguém bloqueia"}[lang] in lines
    assert not [line for line in lines if "does not" in line or "não bloqueia" in line]


def test_a_block_after_everyone_let_the_claim_stand_says_no_one_challenged():
    """Bot 4 claims the Captain to steal from Bot 3 (R6.1, then R7): everyone lets the claim
    stand, Bot 3 among them, and only then does Bot 3 block; a block made before every answer
    came names the passers instead."""
    steal = Event("action", 3, 2, "captain", action="steal")
    passes = [Event("pass", seat, 3, "captain") for seat in (4, 1, 2, 0)]
    block = Event("block", 2, 3, "contessa")
    assert "No one challenges" in _told([[steal], *[[p] for p in passes], [block]], "en")
    lines = _told([[steal], *[[p] for p in passes[:2]], [block]], "en")
    assert "Bot 5 and Bot 2 do not challenge" in " ".join(" ".join(lines).split())


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_a_proof_of_an_embezzlement_is_one_line_not_one_a_card(lang):
    """R12.12.1: Ana shows both her cards and draws two new ones: one line tells it, not one
    line a redrawn card; a proof of a claim (R6.3) still tells its one redraw."""
    lines = _told([[Event("disprove", 0, cards=("assassin", "captain")),
                    Event("redraw", 0), Event("redraw", 0)],
                   [Event("prove", 2, card="duke"), Event("redraw", 2)]], lang)
    text = " ".join(" ".join(lines).split())
    drew = {"en": "and draws as many new ones from the deck",
            "pt_BR": "e compra outras tantas do baralho"}[lang]
    again = {"en": "shuffles it into the deck", "pt_BR": "devolve a carta ao baralho"}[lang]
    assert text.count(drew) == 1
    assert text.count(again) == 1 and text.index(drew) < text.index(again)
