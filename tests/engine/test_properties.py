"""Properties over thousands of random complete games, every table size and both variants.

After every move: the coins add up (R1.5; with the Almshouse, R12.10.4), every card is in exactly one place with the right
count of each character (R1.1–R1.3, R1.7), no exiled seat owes a decision or can be
targeted (R2.2, R3.5), no view holds what its viewer may not see (R11), and legality on a
seat's view equals legality on the game. Every game ends with exactly one winner (R2.3) and
replays identically from its seed and moves. Reformation games (R12) hold the same, and
after every move the faction rules: one faction a seat (R12.2), no targeted action or
Foreign Aid block window against one's own faction while the table is divided (R12.6,
R12.7), Conversion and Embezzlement only as R12.9 and R12.11 allow.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, Options, View, legal_moves, visible_to
from engine.cards import CAST, FACTIONS, TARGETED, convert_cost, copies_for
from engine.legality import divided
from engine.views import public_dict, view_dict

CONFIGS = [(p, v) for p in range(2, 11) for v in ("base", "inquisitor")]
#: Reformation at every size, both decks, with and without the draft (which only 2 use).
REFORMATION = [(p, v, d) for p in range(2, 11) for v in ("base", "inquisitor")
               for d in ((True, False) if p == 2 else (True,))]
PRIVATE_TO_SELF = {"drew", "kept", "picked"}


def expected_cards(options: Options) -> Counter:
    cast = CAST[options.variant]
    if options.draft:
        return Counter({c: 3 for c in cast})  # three sets of one of each (R1.7)
    return Counter({c: copies_for(options.players) for c in cast})


def all_cards(g: Game) -> Counter:
    places = [g.deck, g.removed, g.drawn, *g.hands, *g.revealed]
    if g.phase == "draft":
        places += [s for s in g.draft_sets if s is not None]
    return Counter(c for place in places for c in place)


def check_invariants(g: Game, total: Counter) -> None:
    n = g.options.players
    assert g.treasury >= 0 and all(c >= 0 for c in g.coins)
    assert g.almshouse >= 0
    assert g.treasury + g.almshouse + sum(g.coins) == g.options.treasury  # R1.5, R12.10.4
    if g.phase != "draft":
        assert all_cards(g) == total  # every card in exactly one place
    for s in range(n):
        # (a draft ended by a forfeit may leave its winner without a card: the game is over)
        assert g.alive[s] == bool(g.hands[s]) or g.phase == "draft" or s == g.winner
        if not g.alive[s]:
            assert g.coins[s] == 0  # R2.2
            assert s not in g.waiting
        for m in g.legal_moves(s):
            if m.kind in TARGETED:
                assert m.target != s and g.alive[m.target]  # R3.5
    assert set(g.exiled) == {s for s in range(n) if not g.alive[s]}
    if g.options.reformation:
        check_factions(g)
    else:
        assert g.factions == [] and g.almshouse == 0


def check_factions(g: Game) -> None:
    """R12.2, R12.6, R12.7, R12.9, R12.11 on the open decision."""
    n = g.options.players
    assert len(g.factions) == n and set(g.factions) <= set(FACTIONS)  # R12.2
    split = divided(g)
    assert split == (len({g.factions[s] for s in range(n) if g.alive[s]}) == 2)  # R12.5
    if g.phase == "action":
        actor = g.actor
        for m in g.legal_moves(actor):
            if m.kind in TARGETED and split:
                assert g.factions[m.target] != g.factions[actor]  # R12.6
            if m.kind == "convert":
                assert g.alive[m.target] and g.coins[actor] < 10  # R12.9.4
                assert convert_cost(actor, m.target) <= g.coins[actor]
            if m.kind == "embezzle":
                assert g.almshouse >= 1 and g.coins[actor] < 10  # R12.11.2
    if g.phase == "respond" and g.step == "block" and g.action == "foreign_aid" and split:
        assert all(g.factions[s] != g.factions[g.actor] for s in g.waiting)  # R12.7


def check_views(g: Game) -> None:
    n = g.options.players
    for viewer in [None, *range(n)]:
        v = g.view(viewer)
        data = v.to_dict()
        assert "deck" not in data and "rng" not in data and "removed" not in data
        for s in range(n):
            if s != viewer:
                assert v.hands[s] is None and v.draft_sets[s] is None  # R11
        assert v.factions == tuple(g.factions) and v.almshouse == g.almshouse  # R12.18
        assert v.unified is not divided(g)
        if viewer is None:
            assert v.drawn == () and v.shown is None
        else:
            assert list(v.hands[viewer]) == g.hands[viewer]
            if v.drawn:
                assert viewer == g.actor and g.phase == "keep"
            if v.shown is not None:
                assert viewer in (g.actor, g.target)
            assert legal_moves(v, viewer) == g.legal_moves(viewer)
        assert view_dict(g, viewer, public_dict(g)) == data  # the server's fast path
        assert View.from_dict(data) == v  # what a client reads is what was sent


def check_events(events, seat: int) -> None:
    for e in events:
        if e.kind in PRIVATE_TO_SELF:
            assert e.to == (e.seat,)
        elif e.kind == "shown":
            assert set(e.to) == {e.seat, e.target}
        else:
            assert e.to is None
    for viewer in range(8):
        for e in visible_to(events, viewer):
            assert e.to is None or viewer in e.to


def play_random_game(options: Options, seed: int, views: bool) -> Game:
    g = Game.new(options, seed)
    rng = random.Random(seed)
    total = expected_cards(options)
    check_invariants(g, total)
    while not g.over:
        seat = rng.choice(g.waiting)
        moves = g.legal_moves(seat)
        assert moves, "a waiting seat always has a legal move"
        events = g.apply(seat, rng.choice(moves), g.state_id)
        check_events(events, seat)
        check_invariants(g, total)
        if views:
            check_views(g)
    return g


@pytest.mark.parametrize("players,variant", CONFIGS)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(players: int, variant: str, seed: int) -> None:
    """R1.5, R2.2, R2.3, R3.5 and card conservation over random complete games."""
    options = Options(players=players, variant=variant)
    g = play_random_game(options, seed, views=False)
    assert sum(g.alive) == 1 and g.winner == g.alive.index(True)  # R2.3
    assert len(g.exiled) == players - 1
    assert g.waiting == ()
    replayed = Game.replay(options, seed, g.history)
    assert replayed.reveal() == g.reveal()
    assert replayed.deck == g.deck and replayed.rng.getstate() == g.rng.getstate()


@pytest.mark.parametrize("players,variant", CONFIGS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_views_never_hold_another_seats_secrets(players: int, variant: str, seed: int) -> None:
    """R11 after every move of random games, and one legality on both sides."""
    play_random_game(Options(players=players, variant=variant), seed, views=True)


@pytest.mark.parametrize("players,variant,draft", REFORMATION)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_reformation_games_keep_every_invariant(players: int, variant: str, draft: bool,
                                                seed: int) -> None:
    """R12.2-R12.12 and R12.10.4 over random complete Reformation games; each ends with one
    winner (R12.13) and replays from its seed and moves."""
    options = Options(players=players, variant=variant, two_player_draft=draft,
                      reformation=True)
    g = play_random_game(options, seed, views=False)
    assert sum(g.alive) == 1 and g.winner == g.alive.index(True)  # R2.3, R12.13
    replayed = Game.replay(options, seed, g.history)
    assert replayed.reveal() == g.reveal() and replayed.almshouse == g.almshouse


@pytest.mark.parametrize("players,variant,draft", REFORMATION)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_reformation_views_and_legality_agree(players: int, variant: str, draft: bool,
                                             seed: int) -> None:
    """R12.18 and R11 after every move; legality on each seat's view equals the game's."""
    play_random_game(Options(players=players, variant=variant, two_player_draft=draft,
                             reformation=True), seed, views=True)


@pytest.mark.parametrize("players", [2, 4])
def test_first_seat_is_kept_for_rematches(players: int) -> None:
    """R1.6: a given first seat starts, in every variant and with the draft."""
    for first in range(players):
        g = Game.new(Options(players=players, first_seat=first), seed=first)
        assert g.first_seat == first
        if not g.options.draft:
            assert g.waiting == (first,) and g.actor == first


@pytest.mark.parametrize("players,variant,reformation", [
    (2, "base", False), (4, "inquisitor", False), (6, "base", False), (9, "base", False),
    (2, "base", True), (5, "inquisitor", True), (8, "base", True),
])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_forfeits_keep_every_invariant_and_replay(players: int, variant: str,
                                                  reformation: bool, seed: int) -> None:
    """A seat that forfeits at any moment is exiled (R2.2) and play goes on by R5.2: the
    invariants hold, the game still ends with one winner, and the replay matches (at
    Reformation tables too, R12.12.3)."""
    options = Options(players=players, variant=variant, reformation=reformation)
    g = Game.new(options, seed)
    rng = random.Random(seed)
    total = expected_cards(options)
    while not g.over:
        if rng.random() < 0.04:
            seat = rng.choice([s for s in range(players) if g.alive[s]])
            events = g.forfeit(seat)
            assert events[0].kind == "forfeit" and not g.alive[seat]
        else:
            seat = rng.choice(g.waiting)
            g.apply(seat, rng.choice(g.legal_moves(seat)), g.state_id)
        if g.phase != "draft":
            check_invariants(g, total)
    assert sum(g.alive) == 1
    assert Game.replay(options, seed, g.history).reveal() == g.reveal()
