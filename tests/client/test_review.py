"""`coup review` and the review's words (client/review.py): each marked decision as a line
(step, what was played, the best option, both chances, the mark), the numbers and the
summary after it, in English and Portuguese; JSON for tools; a record's names made safe for
a terminal; a progress line on stderr only when it is a terminal; a bad ID, FILE or seat
refused with exit status 2."""

from __future__ import annotations

import io
import json

import pytest

from client.cli import main
from client.i18n import set_language
from client.review import mark_label, names_of, option_label, run, summary
from engine import Game, Options, move
from engine.views import view_of
from engine.review import WORLDS, Budget, Mark, decisions, judge, numbers, review
from tests.client.records import keep
from tests.engine.test_review import records_md_example, three_seats


@pytest.fixture(autouse=True)
def english():
    set_language("en")
    yield
    set_language("en")


@pytest.fixture
def example(tmp_path):
    """docs/RECORDS.md's example record (Ana and Bruno), as a file."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(records_md_example()))
    return str(path)


def reviewed(argv, capsys) -> tuple[int, list[str], str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_review_prints_each_marked_decision_then_the_numbers_and_the_summary(example, capsys):
    """Ana (seat 1): every decision the engine's review marks is a line with its move
    number (from 1), the played and the best option with their chances, and the mark."""
    code, lines, err = reviewed(["review", example, "--as", "1"], capsys)
    assert code == 0 and err == ""  # stderr is no terminal: no progress line
    judged = list(review(records_md_example(), 0))
    marked = [j for j in judged if j.mark is not None]
    assert marked  # Ana lost: the expert finds fault
    assert lines[0] == f"Review of game 7 for Ana (seat 1): {len(judged)} decisions judged."
    names = ["Ana", "Bruno"]
    for line, j in zip(lines[1:], marked):
        best = j.options[0]
        assert line == (
            f"Move {j.step}: {option_label(j.played.move, names)} "
            f"({round(j.played.win * 100)}% ±{round(j.played.spread * 100)}); best "
            f"{option_label(best.move, names)} ({round(best.win * 100)}% "
            f"±{round(best.spread * 100)}): {mark_label(j.mark)}, {round(j.cost * 100)} points.")
    rest = lines[1 + len(marked):]
    assert rest == [
        "",
        "Claims 3, bluffs 1 (caught 1); challenges 0 (0 right); blocks 0 (0 bluffed).",
        "Coins as they changed: 1, 4, 7, 0.",
        "",
        "Bruno won; you finished in place 2 of 2.",
        "You bluffed Duke 1 time, caught 1 time.",
        "You challenged no claim.",
    ]


def test_the_default_seat_is_the_first_a_person_played(tmp_path, capsys):
    record = three_seats()
    record["players"][0].update(name=None, bot="heuristic")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    code, lines, _ = reviewed(["review", str(path), "--quick"], capsys)
    assert code == 0
    assert lines[0].startswith("Review of game 1 for P1 (seat 2):")


def test_review_in_portuguese(example, capsys):
    code, lines, _ = reviewed(["--lang", "pt_BR", "review", example, "--as", "2"], capsys)
    assert code == 0
    assert lines[0].startswith("Análise da partida 7 para Bruno (lugar 2):")
    assert "Você venceu." in lines
    assert "Você contestou 1 vez: 1 certa." in lines


def test_review_as_json_for_tools(example, capsys):
    code, lines, _ = reviewed(["review", example, "--as", "1", "--json", "--quick"], capsys)
    assert code == 0 and len(lines) == 1
    data = json.loads(lines[0])
    assert (data["version"], data["game"], data["seat"], data["budget"], data["seed"]) == (
        1, 7, 0, "quick", 0)
    assert [d["step"] for d in data["decisions"]] == decisions(records_md_example(), 0)
    for d, j in zip(data["decisions"], review(records_md_example(), 0, budget=Budget.QUICK)):
        assert d["played"] == j.played.move.to_dict()
        assert d["mark"] == (j.mark.value if j.mark else None)
        assert d["cost"] == j.cost and d["cost_spread"] == j.cost_spread
        assert [o["move"] for o in d["options"]] == [o.move.to_dict() for o in j.options]
        assert all(o["samples"] == WORLDS[Budget.QUICK] for o in d["options"])
    ana, bruno = data["numbers"]
    assert ana == {"seat": 0, "name": "Ana", "claims": 3, "bluffs": 1, "bluffs_caught": 1,
                   "challenges": 0, "challenges_right": 0, "blocks": 0, "block_bluffs": 0,
                   "coins": [1, 1, 1, 4, 4, 4, 4, 7, 7, 7, 0, 0, 0, 0, 0, 0, 0]}
    assert (bruno["name"], bruno["challenges"], bruno["challenges_right"]) == ("Bruno", 1, 1)


def test_a_game_in_the_store_is_reviewed_by_its_id(tmp_path, capsys):
    from server.store import Store

    db = str(tmp_path / "games.db")
    store = Store(db)
    game = keep(store, seed=3)
    store.close()
    code, lines, _ = reviewed(["review", str(game), "--db", db, "--quick"], capsys)
    assert code == 0
    assert lines[0].startswith(f"Review of game {game} for Ana (seat 1):")


@pytest.mark.parametrize("argv,said", [
    (["review", "{example}", "--as", "3"], "coup review: --as 3: the game has seats 1 to 2"),
    (["review", "{example}", "--as", "0"], "coup review: --as 0: the game has seats 1 to 2"),
    (["review", "{missing}"], "cannot be read"),
    (["review", "{bad}"], "is not JSON"),
    (["review", "9", "--db", "{db}"], "no finished game 9"),
])
def test_a_bad_game_or_seat_is_refused_with_exit_status_2(argv, said, example, tmp_path,
                                                          capsys):
    from server.store import Store

    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    db = str(tmp_path / "games.db")
    Store(db).close()
    where = {"example": example, "missing": str(tmp_path / "gone.json"), "bad": str(bad),
             "db": db}
    code, lines, err = reviewed([a.format(**where) for a in argv], capsys)
    assert code == 2 and lines == []
    assert said in err


def test_names_from_the_record_are_made_safe_for_a_terminal(tmp_path, capsys):
    record = records_md_example()
    record["players"][1]["name"] = "Bru\x1b]0;owned\x07no\u202e"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    code, lines, _ = reviewed(["review", str(path), "--as", "1", "--quick"], capsys)
    text = "\n".join(lines)
    assert code == 0
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "Bru\\x1b]0;owned\\x07no\\u202e won" in text


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_goes_to_stderr_only_when_it_is_a_terminal():
    record = records_md_example()
    total = len(decisions(record, 0))
    out, err = io.StringIO(), Terminal()
    assert run(record, 0, quick=True, out=out, err=err) == 0
    progress = err.getvalue()
    assert f"\rReviewing: decision 1 of {total}" in progress
    assert f"\rReviewing: decision {total} of {total}" in progress
    # The line is wiped before the review is printed, with spaces: a plain terminal
    # (TERM=dumb, a screen reader's) obeys no escape sequence.
    last = f"Reviewing: decision {total} of {total}"
    assert progress.endswith(f"\r{last}\r{' ' * len(last)}\r")
    assert "\x1b" not in progress
    assert "Reviewing" not in out.getvalue()
    quiet = io.StringIO()
    run(record, 0, quick=True, out=io.StringIO(), err=quiet)
    assert quiet.getvalue() == ""


def test_ctrl_c_stops_the_review_wipes_the_progress_and_prints_nothing(monkeypatch):
    """A caller stops a review by no longer iterating: Ctrl+C does, and exits 130 as a
    shell expects of SIGINT."""
    import client.review

    def stopped(*args, **kwargs):
        yield from list(review(records_md_example(), 0, budget=Budget.QUICK))[:2]
        raise KeyboardInterrupt

    monkeypatch.setattr(client.review, "review", stopped)
    out, err = io.StringIO(), Terminal()
    assert run(records_md_example(), 0, quick=True, out=out, err=err) == 130
    assert out.getvalue() == ""
    assert err.getvalue().endswith(f"\r{' ' * len('Reviewing: decision 2 of 7')}\r")


# ------------------------------------------------------------------ the words


def test_the_summary_of_three_seats_says_what_the_numbers_say():
    record = three_seats()
    every = numbers(record)
    assert summary(record, 2, every) == [
        "P0 won; you finished in place 2 of 3.",
        "You bluffed Captain 1 time, never caught.",
        "You challenged 2 times: 1 right.",
        "Your 1 challenge of P0 was wrong: they had Captain.",
        "The others bluffed 2 times; your challenges caught 1.",
    ]
    assert summary(record, 1, every) == [
        "P0 won; you finished in place 3 of 3.",
        "You bluffed Duke 2 times, caught 1 time.",
        "You blocked 1 time (1 without the card).",
        "You challenged no claim.",
        "The others bluffed 1 time; your challenges caught 0.",
    ]
    assert summary(record, 0, every)[:2] == ["You won.", "Your 1 claim was true."]


def test_two_wrong_challenges_of_one_seat_say_what_it_had_each_time():
    """The issue's example: two challenges of a seat that had the Captain both times."""
    from engine.review import Call, Numbers

    record = three_seats()
    every = list(numbers(record))
    every[0] = Numbers(seat=0, claims=0, bluffs=0, bluffs_caught=0, challenges=2,
                       challenges_right=0, blocks=0, block_bluffs=0, coins=(2,),
                       calls=(Call(2, "captain", False), Call(2, "captain", False)))
    assert "Your 2 challenges of P2 were wrong: they had Captain ×2." in summary(
        record, 0, every)


def test_labels_in_both_languages():
    names = names_of(three_seats())
    assert names == ["P0", "P1", "P2"]
    assert option_label(move("steal", target=1), names) == "Steal from P1"
    assert [mark_label(m) for m in (Mark.INACCURACY, Mark.MISTAKE, Mark.BLUNDER, None)] == [
        "inaccuracy", "mistake", "blunder", ""]
    set_language("pt_BR")
    assert option_label(move("block", card="duke"), names) == "Bloquear como Duque"
    assert [mark_label(m) for m in (Mark.INACCURACY, Mark.MISTAKE, Mark.BLUNDER)] == [
        "imprecisão", "erro", "erro grave"]


def test_a_proof_of_an_embezzlement_is_said_as_showing_every_card():
    """R12.12.1: the review judges the decision from the seat's view, and says its options
    from it: proving an Embezzlement shows every face-down card, not one."""
    game = Game.arrange(Options(players=4, reformation=True), almshouse=3,
                        hands=[["captain", "assassin"], ["contessa", "duke"],
                               ["duke", "ambassador"], ["contessa", "captain"]])
    game.apply(0, move("embezzle"))
    game.apply(1, move("challenge"))
    judged = judge(view_of(game, 0), [], move("prove"), budget=Budget.QUICK)
    assert judged.view == view_of(game, 0)
    names = ["Ana", "Bruno", "Cy", "Di"]
    labels = {option_label(o.move, names, judged.view) for o in judged.options}
    assert labels == {"Show all your cards", "Concede"}
