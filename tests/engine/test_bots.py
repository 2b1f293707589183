"""The strategies that ship with the engine: random and honest play whole games, and honest
keeps its word: it never claims, blocks or proves a character it does not hold, and
challenges only claims the visible cards prove false."""

from __future__ import annotations

import pytest

from engine import Game, Options, visible_to
from engine.bots import STRATEGIES, make
from engine.bots.honest import impossible_claim
from engine.cards import CLAIMS_IN


#: Settings that keep a strategy quick enough for tests: ismcts's smallest search.
QUICK = {"ismcts": {"playouts": 1}}


def play(options: Options, names: list[str], seed: int, check=None) -> Game:
    g = Game.new(options, seed)
    bots = [make(name, seed * 31 + s, **QUICK.get(name, {})) for s, name in enumerate(names)]
    for _ in range(10_000):
        if g.over:
            break
        seat = g.waiting[0]
        view = g.view(seat)
        m = bots[seat].choose(view, g.legal_moves(seat))
        assert m in g.legal_moves(seat)
        if check:
            check(names[seat], view, m)
        events = g.apply(seat, m)
        for s, bot in enumerate(bots):
            bot.observe(g.view(s), visible_to(events, s))
    assert g.over, "the game must end"
    return g


@pytest.mark.parametrize("name", sorted(STRATEGIES))
@pytest.mark.parametrize("players,variant", [(2, "base"), (4, "inquisitor"), (6, "base")])
def test_every_strategy_finishes_games(name: str, players: int, variant: str) -> None:
    for seed in range(3 if name == "ismcts" else 20):
        g = play(Options(players=players, variant=variant), [name] * players, seed)
        assert sum(g.alive) == 1


def test_honest_never_claims_what_it_does_not_hold_and_challenges_only_the_impossible() -> None:
    """R4 claims, R6 challenges: the honest strategy's word is always true."""
    def check(name: str, view, m) -> None:
        if name != "honest":
            return
        hand = view.hands[view.seat]
        claim = CLAIMS_IN[view.options.variant].get(m.kind)
        if claim is not None:
            assert claim in hand
        if m.kind == "block":
            assert m.card in hand
        if m.kind == "challenge":
            assert impossible_claim(view, view.claim)

    for seed in range(40):
        play(Options(players=4), ["honest", "random", "honest", "random"], seed, check)


def test_honest_beats_random() -> None:
    wins = sum(
        play(Options(players=2, two_player_draft=False), ["honest", "random"], seed).winner == 0
        for seed in range(100)
    )
    assert wins >= 70


@pytest.mark.parametrize("players,variant", [(2, "base"), (4, "inquisitor"), (6, "base")])
def test_a_world_built_from_a_view_and_the_true_secrets_is_the_game(players, variant) -> None:
    """Game.from_view (what ismcts samples) gives back the very game when it is handed the
    real hidden cards: the public state it copies, and the loss's resume stage it derives."""
    import random

    skip = {"rng", "history", "seed", "offer", "offer_id", "options", "draft_sets"}
    for seed in range(40):
        g = Game.new(Options(players=players, variant=variant), seed)
        rng = random.Random(seed)
        while not g.over:
            if g.phase != "draft":
                world = Game.from_view(g.view(g.waiting[0]), g.hands, g.deck, drawn=g.drawn,
                                       shown=g.shown, removed=g.removed)
                for name in set(Game.__slots__) - skip:
                    if name == "resume" and g.phase != "lose":
                        continue  # only meaningful while a loss is being chosen
                    mine, theirs = getattr(g, name), getattr(world, name)
                    assert (tuple(mine) if name == "waiting" else mine) == (
                        tuple(theirs) if name == "waiting" else theirs), name
            seat = rng.choice(g.waiting)
            g.apply(seat, rng.choice(g.legal_moves(seat)))


@pytest.mark.parametrize("players,variant", [(2, "base"), (4, "inquisitor")])
def test_a_copy_is_the_same_position_and_plays_on_alone(players, variant) -> None:
    """Game.copy (ismcts tries each move from one world): every field equal, and playing
    the copy to its end leaves the original exactly as it was."""
    import random

    for seed in range(20):
        g = Game.new(Options(players=players, variant=variant), seed)
        rng = random.Random(seed)
        while not g.over:
            twin = g.copy(seed)
            for name in set(Game.__slots__) - {"rng", "history", "seed", "offer", "offer_id"}:
                assert getattr(twin, name) == getattr(g, name), name
            before = {name: repr(getattr(g, name)) for name in ("coins", "hands", "deck",
                      "revealed", "alive", "exiled", "drawn", "removed", "draft_sets")}
            while not twin.over:
                seat = rng.choice(twin.waiting)
                twin.apply(seat, rng.choice(twin.legal_moves(seat)))
            assert {name: repr(getattr(g, name)) for name in before} == before
            seat = rng.choice(g.waiting)
            g.apply(seat, rng.choice(g.legal_moves(seat)))


def test_heuristic_counts_no_more_unseen_copies_than_places_in_a_draft_game() -> None:
    """R1.7: the draft's removed cards are unseen but out of play. Late in a two-player
    draft game there can be more unseen copies of a character than places left for them;
    counting must not fail there (it used to, on an Exchange)."""
    options = Options(players=2)
    assert options.draft
    g = Game.arrange(options, hands=[["ambassador"], ["contessa"]],
                     revealed=[["duke"], ["duke"]], deck=["captain"], phase="keep",
                     waiting=(0,), action="exchange", drawn=["contessa", "ambassador"],
                     keep_count=1)
    moves = g.legal_moves(0)
    assert {m.cards for m in moves} == {("ambassador",), ("contessa",)}
    for name in ("heuristic", "ismcts"):
        assert make(name, 1, **QUICK.get(name, {})).choose(g.view(0), moves) in moves


def searched_position() -> tuple:
    """A four-seat game some turns in, at ismcts's own turn with many moves to weigh."""
    g = Game.new(Options(players=4), 11)
    heuristic = make("heuristic", 3)
    while not (g.phase == "action" and g.waiting == (0,) and g.state_id > 10):
        seat = g.waiting[0]
        g.apply(seat, heuristic.choose(g.view(seat), g.legal_moves(seat)))
    return g.view(0), g.legal_moves(0)


def test_ismcts_with_the_same_seed_and_view_chooses_the_same_move() -> None:
    """The engine is deterministic given a seed (design: no clocks), bots included: the
    search's budget is in playouts, so a machine's speed or load cannot change its move."""
    view, moves = searched_position()
    assert len(moves) > 5
    for seed in range(4):
        first = make("ismcts", seed, playouts=60).choose(view, moves)
        assert make("ismcts", seed, playouts=60).choose(view, moves) == first


def test_ismcts_reads_no_clock(monkeypatch) -> None:
    """A search with its default budget never looks at the time (it used to search for
    0.2 s by the clock)."""
    import time

    def clock() -> float:
        raise AssertionError("the search read a clock")

    for name in ("perf_counter", "monotonic", "time", "process_time"):
        monkeypatch.setattr(time, name, clock)
    view, moves = searched_position()
    assert make("ismcts", 1).choose(view, moves) in moves
