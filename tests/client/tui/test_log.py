"""The table's log read from the keyboard and rewrapped to the terminal (issue 13): PageUp,
PageDown, Home and End scroll it wherever the focus is but in the chat input, and a terminal made
wider or narrower wraps every line again at the new width, cutting none, staying at the end
when it was there.

Each test waits for its turn at a practice table with no clocks, so nothing else writes to
the log while it reads it.
"""

from __future__ import annotations

from rich.text import Text

from client.tui.widgets.log import WrappingLog

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
