"""The worked positions of docs/examples/positions build, the shipped strategies play there
what docs/BOTS.md says they do, and `choose_at` asks a strategy for its move at a position
the way a table would (engine.bots.positions)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Options, move
from engine.bots import Honest, Strategy, choose_at
from engine.position import Decision, Position, PositionError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples" / "positions"
BOTS_MD = (ROOT / "docs" / "BOTS.md").read_text()

#: What docs/BOTS.md says `heuristic` and `honest` both choose in each worked position,
#: as the docs write it and as the move it is.
DOCUMENTED = {
    "contessa_twice.toml": ('move("tax")', move("tax")),
    "block_the_assassin.toml": ('move("block", card="contessa")',
                                move("block", card="contessa")),
    "exchange_keep.toml": ('move("keep", cards=("duke", "assassin"))',
                           move("keep", cards=("duke", "assassin"))),
    "divided_forced_coup.toml": ('move("coup", target=1)', move("coup", target=1)),  # R12.6
}


class Recorder(Strategy):
    """Plays the first legal move and remembers the seat it was asked for."""

    name = "recorder"

    def choose(self, view, moves):
        self.seat = view.seat
        return moves[0]


class Cheat(Strategy):
    """Answers every decision with Income, legal or not."""

    name = "cheat"

    def choose(self, view, moves):
        return move("income")


def _worked(name: str) -> str:
    """The paragraph of docs/BOTS.md about one worked position: from its link to the next."""
    start = BOTS_MD.index(f"**[{name}]")
    end = BOTS_MD.find("**[", start + 1)
    return BOTS_MD[start:end if end != -1 else BOTS_MD.index("### In your bot's tests")]


def _respond_window() -> Position:
    """Seat 0 taxes at a table of three; seats 1 and 2 may both challenge (R6.1)."""
    return Position(Options(players=3),
                    hands=(("duke", "captain"), ("contessa", "assassin"), ("duke", "ambassador")),
                    decision=Decision("respond", action="tax", step="challenge_action"))


# ------------------------------------------------------------------ the worked positions


def test_every_example_is_documented_and_builds():
    assert sorted(p.name for p in EXAMPLES.glob("*.toml")) == sorted(DOCUMENTED)
    for name in DOCUMENTED:
        game = Position.load(str(EXAMPLES / name)).game()
        assert game.waiting == (0,)  # each asks seat 0, "me", for its decision


@pytest.mark.parametrize("name", sorted(DOCUMENTED))
@pytest.mark.parametrize("strategy", ["heuristic", "honest"])
def test_the_shipped_strategies_choose_what_the_docs_say(name, strategy):
    written, chosen = DOCUMENTED[name]
    assert written in _worked(name)
    assert choose_at(strategy, str(EXAMPLES / name)) == chosen


def test_the_stated_draw_is_the_card_a_challenged_block_proves_with():
    """block_the_assassin.toml: the Contessa blocks, the assassin challenges, the block is
    proved (R6.3) and `draws` gives the Duke in its place."""
    game = Position.load(str(EXAMPLES / "block_the_assassin.toml")).game()
    game.apply(0, move("block", card="contessa"))
    game.apply(1, move("challenge"))
    game.apply(0, move("prove"))
    assert sorted(game.hands[0]) == ["captain", "duke"]


# ------------------------------------------------------------------ choose_at


def test_a_strategy_is_a_name_a_level_or_an_instance_and_a_position_a_value_or_a_path():
    path = EXAMPLES / "block_the_assassin.toml"
    block = move("block", card="contessa")
    assert choose_at("honest", str(path)) == block
    assert choose_at("hard", path, seed=3) == block
    assert choose_at(Honest(seed=1), Position.load(str(path))) == block


def test_the_seat_is_the_first_that_owes_the_decision_unless_given():
    recorder = Recorder()
    choose_at(recorder, _respond_window())
    assert recorder.seat == 1
    choose_at(recorder, _respond_window(), seat=2)
    assert recorder.seat == 2


def test_a_seat_that_owes_nothing_is_refused_with_who_does():
    with pytest.raises(ValueError, match="Seat 0 owes no decision in this position; seats "
                                         "1, 2 owe the respond decision."):
        choose_at("honest", _respond_window(), seat=0)
    with pytest.raises(ValueError, match="Seat 1 owes no decision in this position; seat 0 "
                                         "owes the respond decision."):
        choose_at("honest", str(EXAMPLES / "block_the_assassin.toml"), seat=1)
    over = Position(Options(players=2, two_player_draft=False),
                    hands=(("duke", "captain"), ()), revealed=((), ("contessa", "assassin")),
                    coins=(3, 0), decision=Decision("over"))
    with pytest.raises(ValueError, match="the game is over"):
        choose_at("honest", over)


def test_a_strategy_that_answers_with_an_illegal_move_fails_loudly():
    """A table would play R10's default in its place; a test must see the fault."""
    with pytest.raises(ValueError, match=r"cheat chose Move\(kind='income'.* for seat 0, which "
                                         r"is not one of its 2 legal moves"):
        choose_at(Cheat(), str(EXAMPLES / "block_the_assassin.toml"))


def test_a_position_the_rules_refuse_is_a_position_error():
    with pytest.raises(PositionError, match="every seat has 2 in all"):
        choose_at("honest", Position(Options(players=3),
                                     hands=(("duke",), ("contessa", "assassin"), ("duke", "duke"))))



def test_the_strategy_observes_the_history_before_it_chooses():
    """As at a table: the events every seat saw, then the decision (the heuristic counts
    the Contessa blocks against its seat from them)."""
    seen = []

    class Memory(Strategy):
        name = "memory"

        def observe(self, view, events):
            seen.append(("observe", [e.kind for e in events]))

        def choose(self, view, moves):
            seen.append(("choose", view.seat))
            return moves[0]

    choose_at(Memory(), str(EXAMPLES / "contessa_twice.toml"))
    assert seen == [("observe", ["action", "block", "action", "block"]), ("choose", 0)]
    heuristic = make_heuristic()
    choose_at(heuristic, str(EXAMPLES / "contessa_twice.toml"))
    assert heuristic.blocks[1, "contessa"] == 2


def make_heuristic():
    from engine.bots import make

    return make("heuristic", 0)
