"""The replay's review pane alone (issue 34): mounted in a tiny app of its own and given a
review's state by hand (a few decisions judged as a search might have), it draws where the
review stands, the options of the decision at the replay's step with their chances, the
marked decisions with the one shown pointed at, and the seat's numbers and summary. No
search runs here: what the pane shows depends only on what it is given.
"""

from __future__ import annotations

from dataclasses import replace

from textual.pilot import Pilot
from textual.widgets import ProgressBar, Static

from client.i18n import set_language
from client.review import option_label
from client.tui.widgets.review import Progress, ReviewPane, ReviewState
from engine import move
from engine.review import Judged, Mark, Numbers, Option

from .helpers import shown
from .test_widgets import run_alone

NAMES = ("Ana", "Bruno", "Bot 3")


def judged(step: int, played: int, *wins: float, mark: Mark | None = None) -> Judged:
    """Ana's decision at `step` between Income, Tax and stealing from Bruno, with these
    chances, best first as the review lists them; she played the option at `played`."""
    moves = [move("income"), move("tax"), move("steal", target=1)]
    options = tuple(Option(mv, win, 0.04, 400) for mv, win in zip(moves, wins))
    return Judged(step, 0, options, options[played], wins[0] - wins[played], mark)


GAME = (judged(0, 0, 0.40, 0.38, 0.30),
        judged(3, 2, 0.55, 0.50, 0.21, mark=Mark.BLUNDER),
        judged(6, 1, 0.47, 0.41, 0.40, mark=Mark.INACCURACY))
ANA = Numbers(seat=0, claims=5, bluffs=3, bluffs_caught=1, challenges=2, challenges_right=1,
              blocks=1, block_bluffs=0, coins=(2, 3, 3, 5, 7, 4, 6))


def drawn(pane: ReviewPane) -> str:
    """The pane's title and the text of each of its parts that shows, top to bottom."""
    return "\n".join([str(pane.border_title), *(shown(part) for part in pane.query(Static)
                                                  if part.display)])


def said(pane: ReviewPane) -> str:
    """What the pane says, as one run of words (its lines wrap at its width)."""
    return " ".join(drawn(pane).split())


def review(**fields) -> ReviewState:
    state = ReviewState(0, NAMES, (0, 3, 6, 9), judged=GAME[:2], at=3)
    return replace(state, **fields)


def test_a_running_review_shows_its_bar_and_the_options_of_the_decision_shown() -> None:
    """Two of four decisions judged: a bar at two of four, the line saying the third is
    being judged, and at move 3 Ana's three options best first with their chances and
    uncertainty, the Steal she played pointed at and the decision's mark and cost."""
    pane = ReviewPane()

    async def body(pilot: Pilot[None]) -> None:
        pane.review = review()
        await pilot.pause()
        bar = pane.query_one(ProgressBar)
        assert bar.display and (bar.progress, bar.total) == (2, 4)
        text = drawn(pane)
        assert "Review · Ana" in text
        assert "Reviewing decision 3 of 4 · s stops" in text
        assert "Move 3: Ana's options · blunder, −34 points" in said(pane)
        lines = text.splitlines()
        rows = [next(line for line in lines if option_label(option.move, NAMES) in line)
                for option in GAME[1].options]
        assert [lines.index(row) for row in rows] == sorted(lines.index(row) for row in rows)
        assert "55% ±4" in rows[0] and "50% ±4" in rows[1] and "21% ±4" in rows[2]
        assert "▸" in rows[2] and "▸" not in rows[0] + rows[1]
        assert "The game in numbers" not in text  # not counted yet

    run_alone(pane, body, size=(44, 30))


def test_at_40_columns_the_option_names_give_way_not_the_chances() -> None:
    """Eight options, some with long names, in a pane 40 columns wide (the replay's at 80):
    every chance shows whole, and the names are cut where they must be."""
    moves = [move("income"), move("foreign_aid"), move("tax"), move("exchange"),
             move("steal", target=1), move("steal", target=2),
             move("assassinate", target=1), move("assassinate", target=2)]
    options = tuple(Option(mv, 0.7 - n / 20, 0.13, 16) for n, mv in enumerate(moves))
    wide = Judged(5, 0, options, options[-1], 0.35, Mark.BLUNDER)
    pane = ReviewPane()

    async def body(pilot: Pilot[None]) -> None:
        pane.review = ReviewState(0, ("Ana", "Bruno the Bold", "Bot 3"), (5,), (wide,),
                                  progress=Progress.DONE, at=5)
        await pilot.pause()
        text = drawn(pane)
        assert all(f"{round(100 * o.win)}% ±13" in text for o in options)

    run_alone(pane, body, size=(40, 30))


def test_the_marked_decisions_are_listed_with_the_one_shown_pointed_at() -> None:
    """Only the marked decisions are listed, in the game's order, each with its mark and
    cost; the one at the replay's step is pointed at. A step where Ana did not choose says
    so, with the keys that go to the marked ones."""
    pane = ReviewPane()

    async def body(pilot: Pilot[None]) -> None:
        pane.review = review(judged=GAME, progress=Progress.DONE, at=6)
        await pilot.pause()
        text = drawn(pane)
        assert "4 decisions reviewed, 2 marked" in text
        assert not pane.query_one(ProgressBar).display
        listed = [line for line in text.splitlines() if "Move " in line and "−" in line
                  and "options" not in line]
        assert len(listed) == 2
        assert "Move 3" in listed[0] and "blunder" in listed[0] and "−34" in listed[0]
        assert "Move 6" in listed[1] and "inaccuracy" in listed[1] and "−6" in listed[1]
        assert "▶" in listed[1] and "▶" not in listed[0]
        pane.review = review(judged=GAME, progress=Progress.DONE, at=4)
        await pilot.pause()
        text = said(pane)
        assert "Ana did not choose at move 4 · n, p: the marked decisions" in text
        assert "▶" not in text

    run_alone(pane, body, size=(44, 30))


def test_the_numbers_and_the_summary_show_once_counted() -> None:
    pane = ReviewPane()
    words = ("You bluffed 3 times; Bruno caught you once.",)

    async def body(pilot: Pilot[None]) -> None:
        pane.review = review(numbers=ANA, summary=words, progress=Progress.STOPPED)
        await pilot.pause()
        text = said(pane)
        assert "Stopped after 2 of 4 decisions · r reviews again" in text
        assert "Claims 5 · bluffs 3, caught 1" in text
        assert "Challenges 2, right 1" in text
        assert "Blocks 1, bluffed 0" in text
        assert "Coins: 2 at the start, 6 at the end, 7 at most" in text
        assert words[0] in text

    run_alone(pane, body, size=(44, 40))


def test_a_seat_with_no_choice_to_make_says_so() -> None:
    pane = ReviewPane()

    async def body(pilot: Pilot[None]) -> None:
        pane.review = ReviewState(1, NAMES, (), progress=Progress.DONE)
        await pilot.pause()
        assert "Bruno had no choice to make in this game." in said(pane)
        assert "options" not in said(pane) and "Marked" not in said(pane)

    run_alone(pane, body, size=(44, 20))


def test_the_pane_speaks_portuguese() -> None:
    set_language("pt_BR")
    pane = ReviewPane()

    async def body(pilot: Pilot[None]) -> None:
        pane.review = review(numbers=ANA)
        await pilot.pause()
        text = said(pane)
        assert "Análise · Ana" in text
        assert "Analisando a decisão 3 de 4 · s para" in text
        assert "Jogada 3: as opções de Ana · erro grave, −34 pontos" in text
        assert option_label(move("steal", target=1), NAMES) in text
        assert "Declarações 5 · blefes 3, pegos 1" in text

    try:
        run_alone(pane, body, size=(44, 40))
    finally:
        set_language("en")


def test_names_are_shown_as_plain_text_never_as_markup() -> None:
    """A record is anyone's to write, and a name may look like markup: "[b]Ana[/b]" shows
    as typed, in the pane's title and its options alike, and "[/x] Bruno", which is no
    valid markup, shows as typed too instead of breaking the pane."""
    names = ("[b]Ana[/b]", "[/x] Bruno", "Bot 3")
    pane = ReviewPane()

    async def body(pilot: Pilot[None]) -> None:
        pane.review = ReviewState(0, names, (0, 3, 6, 9), judged=GAME, at=3)
        await pilot.pause()
        text = shown(pane)
        assert "Review · [b]Ana[/b]" in text
        assert option_label(move("steal", target=1), names) in said(pane)
        assert "Move 3: [b]Ana[/b]'s options" in said(pane)

    run_alone(pane, body, size=(60, 40))
