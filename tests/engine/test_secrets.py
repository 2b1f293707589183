"""Scenarios for who sees what (R11): views, spectators, the end-of-game reveal, the
audiences of secret events, and the same legality on a client's view as on the server."""

from __future__ import annotations

import json
import random
from dataclasses import fields

import pytest

from engine import (
    Event, Game, IllegalMove, Options, View, check, legal_moves, move, visible_to,
)

PUBLIC = ("state_id", "phase", "waiting", "opened", "coins", "alive", "influence", "revealed",
          "treasury", "deck_size", "first_seat", "actor", "action", "target", "step",
          "claimant", "claim", "challenger", "blocker", "block_card", "reason", "keep_count",
          "exiled", "winner")


def public(v: View) -> tuple:
    return tuple(getattr(v, name) for name in PUBLIC)


def all_card_mentions(events) -> set[str]:
    out = set()
    for e in events:
        if e.card is not None:
            out.add(e.card)
        out.update(e.cards or ())
    return out


def three_seats(**kw) -> Game:
    return Game.arrange(hands=[["duke", "ambassador"], ["contessa", "assassin"],
                               ["duke", "captain"]], **kw)


# ------------------------------------------------------------------ views


def test_R11_a_seat_sees_its_own_cards_and_the_public_table():
    """R11: own face-down cards; everyone's coins, face-up cards, face-down counts; the deck
    size; the treasury. Nobody else's face-down cards."""
    g = Game.arrange(hands=[["duke", "ambassador"], ["contessa"], ["duke", "captain"]],
                     revealed=[[], ["assassin"], []], coins=[3, 5, 1])
    v = g.view(0)
    assert v.seat == 0
    assert v.hands == (("duke", "ambassador"), None, None)
    assert v.coins == (3, 5, 1)
    assert v.revealed == ((), ("assassin",), ())
    assert v.influence == (2, 1, 2)
    assert v.deck_size == len(g.deck) == 15 - 6
    assert v.treasury == 50 - 9
    assert g.view(1).hands == (None, ("contessa",), None)


def test_R11_spectators_see_only_what_everyone_sees():
    """R11: a spectator (view None) sees no face-down card, draw, shown card or draft set;
    its public part equals every seat's."""
    g = three_seats()
    g.apply(0, move("exchange"))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    spec = g.view(None)
    assert spec.seat is None
    assert spec.hands == (None, None, None)
    assert spec.drawn == () and spec.shown is None and spec.draft_sets == (None, None, None)
    for s in range(3):
        assert public(g.view(s)) == public(spec)
    assert spec.legal_moves() == ()
    with pytest.raises(IllegalMove) as err:
        spec.check(move("pass"))
    assert err.value.code == "not_your_turn"


def test_R11_reveal_only_after_the_game_is_over():
    """R11: all cards may be shown to all only when the game is over."""
    g = Game.arrange(Options(players=2, two_player_draft=False),
                     hands=[["duke", "captain"], ["assassin"]], revealed=[[], ["contessa"]],
                     coins=[7, 1])
    with pytest.raises(ValueError):
        g.reveal()
    g.apply(0, move("coup", target=1))
    assert g.over
    r = g.reveal()
    assert r.hands == (("duke", "captain"), ())
    assert r.revealed == ((), ("contessa", "assassin"))
    assert r.winner == 0 and r.seat is None
    assert "deck" not in r.to_dict() and r.deck_size == len(g.deck)


def test_R11_deck_order_and_rng_are_in_no_view():
    """R11: the deck order and the random generator's state are never sent: no View field
    holds them, to_dict has no such key, and views of two games that differ only in deck
    order and seed are identical for every viewer."""
    names = {f.name for f in fields(View)}
    assert not names & {"deck", "rng", "seed", "removed", "history"}
    hands = [["duke", "ambassador"], ["contessa", "assassin"], ["duke", "captain"]]
    rest = ["captain", "captain", "assassin", "assassin", "ambassador", "ambassador",
            "contessa", "contessa", "duke"]
    a = Game.arrange(hands=hands, deck=rest, seed=1)
    b = Game.arrange(hands=hands, deck=list(reversed(rest)), seed=999)
    assert a.deck != b.deck
    for viewer in (None, 0, 1, 2):
        va, vb = a.view(viewer), b.view(viewer)
        assert va == vb
        assert set(va.to_dict()) == names
        text = json.dumps(va.to_dict())
        assert "rng" not in text and "seed" not in text
    for game in (a, b):
        game.apply(0, move("income"))
    assert a.view(1) == b.view(1)


def test_R11_draft_sets_and_removed_cards_stay_private():
    """R11 with R1.7: a seat sees its own draft set only; the cards out of the game are in
    no view."""
    g = Game.new(Options(players=2), seed=5)
    assert g.view(0).draft_sets[0] is not None and g.view(0).draft_sets[1] is None
    assert g.view(1).draft_sets[0] is None and g.view(1).draft_sets[1] is not None
    assert g.view(None).draft_sets == (None, None)
    g.apply(0, move("draft_pick", card="duke"))
    g.apply(1, move("draft_pick", card="captain"))
    assert len(g.removed) == 8
    for viewer in (None, 0, 1):
        assert "removed" not in g.view(viewer).to_dict()
        assert g.view(viewer).deck_size == 3


# ------------------------------------------------------------------ secret events


def test_R11_exchange_draw_is_seen_only_by_the_exchanger():
    """R11, R4.3: the drawn and kept cards are private to the exchanger: the others learn
    only how many were drawn and returned, in events and in views."""
    g = three_seats(deck=["contessa", "captain", "assassin"])
    g.apply(0, move("exchange"))
    g.apply(1, move("pass"))
    events = g.apply(2, move("pass"))
    drew = [e for e in events if e.kind == "drew"]
    assert len(drew) == 1 and drew[0].to == (0,) and sorted(drew[0].cards) == [
        "captain", "contessa"]
    for other in (None, 1, 2):
        seen = visible_to(events, other)
        assert all(e.kind != "drew" for e in seen)
        assert all(e.cards is None and e.card is None for e in seen if e.kind == "exchange")
        assert g.view(other).drawn == ()
    assert [e.amount for e in visible_to(events, 1) if e.kind == "exchange"] == [2]
    assert sorted(g.view(0).drawn) == ["captain", "contessa"]
    events = g.apply(0, move("keep", cards=("captain", "contessa")))
    kept = [e for e in events if e.kind == "kept"]
    assert len(kept) == 1 and kept[0].to == (0,)
    for other in (None, 1, 2):
        seen = visible_to(events, other)
        assert all(e.kind != "kept" for e in seen)
        assert all_card_mentions(seen) == set()
        assert g.view(other).hands[0] is None
    assert [e.amount for e in visible_to(events, 2) if e.kind == "keep"] == [2]
    assert sorted(g.view(0).hands[0]) == ["captain", "contessa"] and g.view(0).drawn == ()


def test_R11_examine_shown_card_only_to_the_two_and_new_card_only_to_the_target():
    """R11, R4.4: the shown card goes to the Inquisitor and the target only; after a swap,
    the new card goes to the target only."""
    opts = Options(players=3, variant="inquisitor")
    g = Game.arrange(opts, hands=[["inquisitor", "captain"], ["duke", "contessa"],
                                  ["duke", "captain"]],
                     deck=["assassin", "duke", "contessa", "captain"])
    g.apply(0, move("examine", target=1))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    assert g.phase == "show" and g.waiting == (1,)
    events = g.apply(1, move("show", card="duke"))
    shown = [e for e in events if e.kind == "shown"]
    assert len(shown) == 1 and set(shown[0].to) == {0, 1} and shown[0].card == "duke"
    assert all_card_mentions(visible_to(events, 2)) == set()
    assert all_card_mentions(visible_to(events, None)) == set()
    assert g.view(0).shown == "duke" and g.view(1).shown == "duke"
    assert g.view(2).shown is None and g.view(None).shown is None
    assert g.view(0).hands[1] is None  # the examiner sees the shown card, not the hand
    events = g.apply(0, move("examine_decision", swap=True))
    drew = [e for e in events if e.kind == "drew"]
    assert len(drew) == 1 and drew[0].to == (1,) and drew[0].seat == 1
    new_card = drew[0].cards[0]
    assert sorted(g.hands[1]) == sorted(["contessa", new_card])
    for other in (None, 0, 2):
        assert all(e.kind != "drew" for e in visible_to(events, other))
        assert all_card_mentions(visible_to(events, other)) == set()
        assert g.view(other).hands[1] is None
        assert g.view(other).shown is None
    assert [e.kind for e in visible_to(events, 2)] == ["examine_swap", "turn"]


def test_R11_examine_of_a_one_card_target_still_shows_only_to_the_two():
    """R11, R4.4: a target with one face-down card shows it without choosing; still private."""
    opts = Options(players=3, variant="inquisitor")
    g = Game.arrange(opts, hands=[["inquisitor", "captain"], ["contessa"], ["duke", "captain"]],
                     revealed=[[], ["duke"], []])
    g.apply(0, move("examine", target=1))
    g.apply(1, move("pass"))
    events = g.apply(2, move("pass"))
    assert g.phase == "examine_decision"
    assert [e.to for e in events if e.kind == "shown"] == [(1, 0)]
    assert "contessa" not in all_card_mentions(visible_to(events, 2))
    assert g.view(2).shown is None and g.view(0).shown == "contessa"


def test_R11_replacement_card_only_to_its_drawer():
    """R11, R6.3: the proved card is public; the replacement is seen by the prover only."""
    g = three_seats(deck=["assassin", "contessa", "captain"])
    g.apply(0, move("tax"))
    g.apply(1, move("challenge"))
    events = g.apply(0, move("prove"))
    assert [(e.kind, e.card) for e in events if e.kind == "prove"] == [("prove", "duke")]
    assert [e for e in events if e.kind == "prove"][0].to is None
    drew = [e for e in events if e.kind == "drew"]
    assert len(drew) == 1 and drew[0].to == (0,) and drew[0].seat == 0
    assert "redraw" in [e.kind for e in visible_to(events, 1)]
    for other in (None, 1, 2):
        seen = visible_to(events, other)
        assert all(e.kind != "drew" for e in seen)
        assert all_card_mentions(seen) <= {"duke"}
        assert g.view(other).hands[0] is None
    assert sorted(g.view(0).hands[0]) == sorted(g.hands[0])


def test_R11_draft_picks_are_private():
    """R11 with R1.7: a pick is seen by its picker only; the second cards are drawn
    privately too; the opponent and spectators learn no card."""
    g = Game.new(Options(players=2), seed=12)
    e1 = g.apply(0, move("draft_pick", card="contessa"))
    e2 = g.apply(1, move("draft_pick", card="duke"))
    events = e1 + e2
    assert [e.to for e in events if e.kind == "picked"] == [(0,), (1,)]
    for seat, other in ((0, 1), (1, 0)):
        theirs = [e for e in visible_to(events, other) if e.seat == seat]
        assert all(e.card is None and e.cards is None for e in theirs)
    assert all_card_mentions(visible_to(events, None)) == set()
    assert g.view(0).hands[1] is None and g.view(1).hands[0] is None


def test_R11_visible_to_filters_by_audience():
    """R11: visible_to gives public events to all, a private one to its audience only."""
    evs = [Event("turn", 0), Event("drew", 0, cards=("duke",), to=(0,)),
           Event("shown", 1, 0, "captain", to=(1, 0))]
    assert visible_to(evs, None) == [evs[0]]
    assert visible_to(evs, 0) == evs
    assert visible_to(evs, 1) == [evs[0], evs[2]]
    assert visible_to(evs, 2) == [evs[0]]
    assert "to" not in evs[1].to_dict() and evs[1].to_dict()["cards"] == ["duke"]


# ------------------------------------------------------------------ one legality


CANDIDATES = [
    move("income"), move("foreign_aid"), move("tax"), move("exchange"),
    move("coup", target=1), move("assassinate", target=0), move("steal", target=2),
    move("examine", target=1), move("pass"), move("challenge"), move("prove"),
    move("concede"), move("block", card="duke"), move("block", card="captain"),
    move("block", card="ambassador"), move("lose", card="duke"),
    move("lose", card="contessa"), move("show", card="captain"),
    move("keep", cards=("duke", "captain")), move("keep", cards=("contessa",)),
    move("examine_decision", swap=True), move("draft_pick", card="assassin"),
    move("draft_pick", card="inquisitor"),
]


def code_of(table, seat, m):
    try:
        check(table, seat, m)
    except IllegalMove as err:
        return err.code
    return None


@pytest.mark.parametrize("players,variant,seed", [(2, "base", 1), (2, "inquisitor", 2),
                                                  (3, "inquisitor", 3), (4, "base", 4),
                                                  (5, "inquisitor", 5), (7, "base", 6)])
def test_R11_legality_on_a_view_equals_legality_on_the_game(players, variant, seed):
    """R11: legal_moves(view, seat) == game.legal_moves(seat) for the viewer at every state
    of a random game, and an illegal move is refused with the same code on both sides."""
    g = Game.new(Options(players=players, variant=variant), seed=seed)
    rng = random.Random(seed)
    while True:
        for s in range(players):
            v = g.view(s)
            assert legal_moves(v, s) == g.legal_moves(s) == v.legal_moves()
            for m in CANDIDATES:
                assert code_of(v, s, m) == code_of(g, s, m), (g.phase, s, m)
        if g.over:
            break
        seat = rng.choice(g.waiting)
        g.apply(seat, rng.choice(g.legal_moves(seat)), g.state_id)


# ------------------------------------------------------------------ round trip


def views_in_every_phase():
    """Views taken in each phase: draft, action, respond, prove, lose, keep, show,
    examine_decision, over (and the reveal)."""
    out = []
    g = Game.new(Options(players=2, variant="inquisitor"), seed=1)
    out += [g.view(0), g.view(None)]
    g.apply(0, move("draft_pick", card="inquisitor"))
    out.append(g.view(0))
    opts = Options(players=3, variant="inquisitor")
    g = Game.arrange(opts, hands=[["inquisitor", "captain"], ["duke", "contessa"],
                                  ["duke", "captain"]])
    out.append(g.view(0))
    g.apply(0, move("examine", target=1))
    out.append(g.view(1))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    out.append(g.view(1))
    g.apply(1, move("show", card="contessa"))
    out += [g.view(0), g.view(1), g.view(2)]
    g.apply(0, move("examine_decision", swap=False))
    g.apply(1, move("exchange"))
    g.apply(2, move("challenge"))
    out.append(g.view(1))
    g.apply(1, move("concede"))
    out.append(g.view(1))
    g = Game.arrange(hands=[["duke", "ambassador"], ["contessa", "assassin"],
                            ["duke", "captain"]])
    g.apply(0, move("exchange"))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    out += [g.view(0), g.view(1)]
    g = Game.arrange(Options(players=2, two_player_draft=False),
                     hands=[["duke", "captain"], ["assassin"]], revealed=[[], ["contessa"]],
                     coins=[7, 1])
    g.apply(0, move("coup", target=1))
    out += [g.view(0), g.view(1), g.view(None), g.reveal()]
    return out


def test_R11_view_to_dict_from_dict_round_trip():
    """R11: a view survives to_dict -> JSON -> from_dict unchanged, in every phase."""
    views = views_in_every_phase()
    assert {v.phase for v in views} >= {"draft", "action", "respond", "show",
                                         "examine_decision", "prove", "lose", "keep", "over"}
    for v in views:
        data = json.loads(json.dumps(v.to_dict()))
        back = View.from_dict(data)
        assert back == v
        assert back.legal_moves() == v.legal_moves()


def test_R11_from_dict_refuses_a_view_missing_a_field():
    """R11: View.from_dict needs every field."""
    data = Game.new(Options(players=3), seed=1).view(0).to_dict()
    del data["coins"]
    with pytest.raises(KeyError):
        View.from_dict(data)
