"""Scenarios for the setup of a table (rules.md R1) and the validation of table Options.

Each test deals a game with a fixed seed (or arranges a position) and checks what the rule
says the table must look like.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import Game, IllegalMove, Options, OptionsError, move, visible_to
from engine.cards import CAST

BASE_CAST = ("duke", "assassin", "captain", "ambassador", "contessa")
INQ_CAST = ("duke", "assassin", "captain", "inquisitor", "contessa")


def cards_in_play(g: Game) -> Counter:
    """Every card in a dealt (non-draft) game: the hands and the Court deck."""
    return Counter([c for h in g.hands for c in h] + list(g.deck))


def snapshot(g: Game) -> tuple:
    return (g.state_id, list(g.coins), [list(h) for h in g.hands], list(g.deck),
            g.phase, tuple(g.waiting), g.treasury)


# ------------------------------------------------------------------ R1.1 / R1.2 deck


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_R1_1_court_deck_has_three_of_each_of_five_characters(players):
    """R1.1: with 2-6 players, 15 cards, 3 copies of each of the five characters."""
    g = Game.new(Options(players=players), seed=11)
    assert cards_in_play(g) == Counter({c: 3 for c in BASE_CAST})
    assert sum(cards_in_play(g).values()) == 15


def test_R1_1_two_players_without_draft_use_the_fifteen_card_deck():
    """R1.1 (R1.7 turned off): 2 players get a standard deal from 15 cards."""
    g = Game.new(Options(players=2, two_player_draft=False), seed=3)
    assert cards_in_play(g) == Counter({c: 3 for c in BASE_CAST})


@pytest.mark.parametrize("players,copies", [(7, 4), (8, 4), (9, 5), (10, 5)])
def test_R1_2_large_tables_use_more_copies(players, copies):
    """R1.2: 7-8 players: 4 copies of each character; 9-10 players: 5 copies."""
    g = Game.new(Options(players=players), seed=5)
    assert cards_in_play(g) == Counter({c: copies for c in BASE_CAST})
    assert len(g.deck) == 5 * copies - 2 * players


@pytest.mark.parametrize("players", [11, 12, 100])
def test_R1_2_more_than_ten_players_is_refused(players):
    """R1.2: more than 10 players is refused, by Options and by Options.from_dict."""
    with pytest.raises(OptionsError, match="2 to 10"):
        Options(players=players)
    with pytest.raises(OptionsError, match="2 to 10"):
        Options.from_dict({"players": players})


# ------------------------------------------------------------------ R1.3 Inquisitor


@pytest.mark.parametrize("players,copies", [(3, 3), (6, 3), (8, 4), (10, 5)])
def test_R1_3_inquisitor_replaces_every_ambassador(players, copies):
    """R1.3: every Ambassador becomes an Inquisitor, same count."""
    g = Game.new(Options(players=players, variant="inquisitor"), seed=9)
    assert cards_in_play(g) == Counter({c: copies for c in INQ_CAST})
    assert "ambassador" not in cards_in_play(g)


def test_R1_3_ambassador_claims_are_illegal_in_the_inquisitor_variant():
    """R1.3: no Ambassador claim with the Inquisitor: the Exchange claims the Inquisitor,
    and a Steal may be blocked as Captain or Inquisitor but not as Ambassador."""
    opts = Options(players=3, variant="inquisitor")
    g = Game.arrange(opts, hands=[["duke", "captain"], ["inquisitor", "contessa"],
                                  ["duke", "assassin"]])
    events = g.apply(0, move("exchange"))
    assert [e for e in events if e.kind == "action"][0].card == "inquisitor"
    assert g.claim == "inquisitor"

    g = Game.arrange(opts, hands=[["duke", "captain"], ["inquisitor", "contessa"],
                                  ["duke", "assassin"]])
    g.apply(0, move("steal", target=1))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    assert g.step == "block" and g.waiting == (1,)
    assert set(g.legal_moves(1)) == {move("block", card="captain"),
                                     move("block", card="inquisitor"), move("pass")}
    with pytest.raises(IllegalMove) as err:
        g.apply(1, move("block", card="ambassador"))
    assert err.value.code == "not_in_variant"


def test_R1_3_inquisitor_claims_are_illegal_in_the_base_game():
    """R1.3: no Examine and no Inquisitor block in the base game."""
    g = Game.arrange(Options(players=3), hands=[["duke", "captain"], ["ambassador", "contessa"],
                                                ["duke", "assassin"]])
    assert all(m.kind != "examine" for m in g.legal_moves(0))
    with pytest.raises(IllegalMove) as err:
        g.apply(0, move("examine", target=1))
    assert err.value.code == "not_in_variant"
    g.apply(0, move("steal", target=1))
    g.apply(1, move("pass"))
    g.apply(2, move("pass"))
    assert set(g.legal_moves(1)) == {move("block", card="captain"),
                                     move("block", card="ambassador"), move("pass")}
    with pytest.raises(IllegalMove) as err:
        g.apply(1, move("block", card="inquisitor"))
    assert err.value.code == "not_in_variant"


# ------------------------------------------------------------------ R1.4 deal


@pytest.mark.parametrize("players", [2, 3, 6, 10])
def test_R1_4_each_player_gets_two_cards_and_two_coins(players):
    """R1.4: 2 face-down cards and 2 coins each, the rest is the Court deck."""
    opts = Options(players=players, two_player_draft=False)
    g = Game.new(opts, seed=21)
    assert all(len(h) == 2 for h in g.hands)
    assert g.coins == [2] * players
    assert all(r == [] for r in g.revealed)
    assert len(g.deck) == 5 * (3 if players <= 6 else 5) - 2 * players
    assert g.phase == "action" and g.waiting == (g.first_seat,)


def test_R1_4_the_deal_is_shuffled_and_reproducible_from_the_seed():
    """R1.4: shuffled: different seeds deal differently; one seed always deals the same."""
    deals = {tuple(map(tuple, Game.new(Options(players=4), seed=s).hands)) for s in range(12)}
    assert len(deals) > 6
    a, b = Game.new(Options(players=4), seed=42), Game.new(Options(players=4), seed=42)
    assert a.hands == b.hands and a.deck == b.deck and a.first_seat == b.first_seat


def test_R1_4_only_the_deck_size_is_public():
    """R1.4: the Court deck is face down: a view gives its size and nothing of its order."""
    g = Game.new(Options(players=4), seed=8)
    for viewer in (None, 0, 1, 2, 3):
        v = g.view(viewer)
        assert v.deck_size == len(g.deck) == 7
        assert not hasattr(v, "deck")
        assert "deck" not in v.to_dict()


# ------------------------------------------------------------------ R1.5 treasury


@pytest.mark.parametrize("players", [2, 4, 10])
def test_R1_5_treasury_holds_fifty_less_what_is_dealt(players):
    """R1.5: 50 coins in all; the treasury holds what is not dealt."""
    g = Game.new(Options(players=players, two_player_draft=False), seed=1)
    assert g.treasury == 50 - 2 * players
    assert g.treasury + sum(g.coins) == 50
    assert g.view(None).treasury == g.treasury


def test_R1_5_table_may_choose_another_total():
    """R1.5: the table may choose another total; it is kept through play."""
    g = Game.new(Options(players=3, treasury=20, first_seat=0), seed=1)
    assert g.treasury == 14
    g.apply(0, move("income"))
    g.apply(1, move("foreign_aid"))
    g.apply(0, move("pass"))
    g.apply(2, move("pass"))
    assert g.treasury + sum(g.coins) == 20
    assert g.coins == [3, 4, 2] and g.treasury == 11


def test_R1_5_tax_takes_only_what_the_treasury_holds():
    """R1.5: a Tax with 2 coins left in the treasury yields 2."""
    opts = Options(players=2, two_player_draft=False, treasury=10)
    g = Game.arrange(opts, hands=[["duke", "captain"], ["contessa", "assassin"]], coins=[4, 4])
    assert g.treasury == 2
    g.apply(0, move("tax"))
    events = g.apply(1, move("pass"))
    assert [e.amount for e in events if e.kind == "gain"] == [2]
    assert g.coins == [6, 4] and g.treasury == 0


def test_R1_5_income_and_foreign_aid_with_an_empty_or_short_treasury():
    """R1.5: never more than the treasury holds: Foreign Aid with 1 left yields 1, and
    Income with nothing left yields nothing (but is still an allowed action, R3.2)."""
    opts = Options(players=2, two_player_draft=False, treasury=10)
    g = Game.arrange(opts, hands=[["duke", "captain"], ["contessa", "assassin"]], coins=[5, 4])
    assert g.treasury == 1
    g.apply(0, move("foreign_aid"))
    g.apply(1, move("pass"))
    assert g.coins == [6, 4] and g.treasury == 0
    assert move("income") in g.legal_moves(1)
    events = g.apply(1, move("income"))
    assert [e.amount for e in events if e.kind == "gain"] == [0]
    assert g.coins == [6, 4] and g.treasury == 0


def test_R1_5_payments_go_back_to_the_treasury():
    """R1.5 with R4.1: Coup's 7 and Assassinate's 3 return to the treasury."""
    g = Game.arrange(Options(players=3), hands=[["duke", "assassin"], ["contessa", "captain"],
                                                ["duke", "captain"]], coins=[10, 2, 2])
    before = g.treasury
    g.apply(0, move("coup", target=1))
    assert g.coins[0] == 3 and g.treasury == before + 7
    g.apply(1, move("lose", card="captain"))
    g.apply(1, move("income"))
    g.apply(2, move("income"))
    g.apply(0, move("assassinate", target=2))
    assert g.coins[0] == 0 and g.treasury == before + 7 + 3 - 2
    assert g.treasury + sum(g.coins) == 50


# ------------------------------------------------------------------ R1.6 first player


def test_R1_6_first_player_is_random_for_a_new_table():
    """R1.6: with no first seat given, each seat starts some of the time."""
    firsts = Counter(Game.new(Options(players=4), seed=s).first_seat for s in range(60))
    assert set(firsts) == {0, 1, 2, 3}
    g = Game.new(Options(players=4), seed=7)
    assert g.waiting == (g.first_seat,) and g.actor == g.first_seat


def test_R1_6_rematch_previous_winner_starts():
    """R1.6: a game is won; the rematch at the same table is dealt with the winner first."""
    g = Game.arrange(Options(players=3), hands=[["duke"], ["captain"], []],
                     revealed=[["assassin"], ["contessa"], ["duke", "duke"]],
                     coins=[1, 7, 0], actor=1)
    g.apply(1, move("coup", target=0))
    assert g.over and g.winner == 1
    for seed in range(5):
        rematch = Game.new(Options(players=3, first_seat=g.winner), seed=seed)
        assert rematch.first_seat == 1 and rematch.waiting == (1,) and rematch.actor == 1


# ------------------------------------------------------------------ R1.7 two-player draft


def test_R1_7_draft_is_the_default_for_two_players():
    """R1.7: with exactly 2 players the game opens with the draft: both seats owe a pick
    from a full set, nobody has a card yet, and the third set (5 cards) waits as the deck."""
    g = Game.new(Options(players=2), seed=4)
    assert g.options.draft
    assert g.phase == "draft" and set(g.waiting) == {0, 1}
    assert g.hands == [[], []]
    assert Counter(g.deck) == Counter(BASE_CAST)
    for s in (0, 1):
        assert sorted(m.card for m in g.legal_moves(s)) == sorted(BASE_CAST)
        assert {m.kind for m in g.legal_moves(s)} == {"draft_pick"}
        assert sorted(g.draft_sets[s]) == sorted(BASE_CAST)


@pytest.mark.parametrize("first", [0, 1])
def test_R1_7_1_starting_player_gets_one_coin(first):
    """R1.7.1: the starting player gets 1 coin instead of 2 (treasury: 50 - 3)."""
    g = Game.new(Options(players=2, first_seat=first), seed=2)
    assert g.coins[first] == 1 and g.coins[1 - first] == 2
    assert g.treasury == 47


def test_R1_7_1_random_starting_player_gets_one_coin():
    """R1.7.1 with R1.6: whoever the seed makes first has 1 coin."""
    for seed in range(10):
        g = Game.new(Options(players=2), seed=seed)
        assert g.coins[g.first_seat] == 1 and g.coins[1 - g.first_seat] == 2


def test_R1_7_2_picks_are_simultaneous_and_secret():
    """R1.7.2: both picks answer the same decision (made against the same state), and a pick
    is seen only by its picker: the opponent learns only that a pick was made."""
    g = Game.new(Options(players=2, first_seat=0), seed=6)
    sid = g.state_id
    ev1 = g.apply(1, move("draft_pick", card="assassin"), sid)
    # The game has not started: seat 0 still owes its pick and nobody has a turn.
    assert g.phase == "draft" and g.waiting == (0,)
    assert g.legal_moves(1) == ()
    assert [e.kind for e in visible_to(ev1, 0)] == ["drafted"]
    assert all(e.card is None and e.cards is None for e in visible_to(ev1, 0))
    assert [(e.kind, e.card) for e in visible_to(ev1, 1) if e.kind == "picked"] == [
        ("picked", "assassin")]
    assert g.view(0).hands[1] is None
    assert g.view(None).hands == (None, None)
    # Seat 0 picks against the state it saw before seat 1's pick: still accepted.
    ev0 = g.apply(0, move("draft_pick", card="assassin"), sid)
    assert all(e.card != "assassin" and "assassin" not in (e.cards or ())
               for e in visible_to(ev0, 1) if e.seat == 0)
    assert g.hands[0][0] == "assassin" and g.hands[1][0] == "assassin"


def test_R1_7_2_a_seat_picks_only_once():
    """R1.7.2: each player chooses one card; a second pick is refused, state unchanged."""
    g = Game.new(Options(players=2), seed=6)
    g.apply(0, move("draft_pick", card="duke"))
    before = snapshot(g)
    with pytest.raises(IllegalMove) as err:
        g.apply(0, move("draft_pick", card="captain"))
    assert err.value.code == "not_your_turn"
    assert snapshot(g) == before


def test_R1_7_2_no_turn_can_be_taken_before_both_picks():
    """R1.7: the picks come before the first turn: no action is legal in the draft."""
    g = Game.new(Options(players=2, first_seat=0), seed=6)
    with pytest.raises(IllegalMove) as err:
        g.apply(0, move("income"))
    assert err.value.code == "not_allowed_now"
    assert g.phase == "draft" and g.coins == [1, 2]


@pytest.mark.parametrize("seed", range(6))
def test_R1_7_3_second_card_from_third_set_and_deck_of_three(seed):
    """R1.7.2-3: after both picks, each player draws 1 card of the third set as second
    influence; the 3 cards left form the deck; the 4 unpicked cards of each chosen set are
    out of the game (in no deck, no hand); then the starting player's first turn begins."""
    g = Game.new(Options(players=2), seed=seed)
    third_set = Counter(g.deck)
    assert third_set == Counter(BASE_CAST)
    picks = ["captain", "contessa"]
    g.apply(0, move("draft_pick", card=picks[0]))
    assert len(g.deck) == 5 and g.hands[0] == ["captain"]  # nothing drawn after one pick
    events = g.apply(1, move("draft_pick", card=picks[1]))
    assert [h[0] for h in g.hands] == picks
    assert all(len(h) == 2 for h in g.hands)
    assert len(g.deck) == 3
    assert Counter([g.hands[0][1], g.hands[1][1]] + g.deck) == third_set
    assert Counter(g.removed) == (Counter(BASE_CAST) - Counter(["captain"])) + (
        Counter(BASE_CAST) - Counter(["contessa"]))
    assert len(g.removed) == 8
    # Each second card is seen only by its drawer.
    for s in (0, 1):
        drew = [e for e in events if e.kind == "drew" and e.seat == s]
        assert len(drew) == 1 and drew[0].to == (s,) and drew[0].cards == (g.hands[s][1],)
        assert all(e.kind != "drew" or e.seat == s for e in visible_to(events, s))
    assert g.phase == "action" and g.waiting == (g.first_seat,) and g.actor == g.first_seat
    assert g.coins[g.first_seat] == 1
    assert g.treasury + sum(g.coins) == 50
    for viewer in (None, 0, 1):
        v = g.view(viewer)
        assert v.deck_size == 3 and "removed" not in v.to_dict()
        assert v.draft_sets == (None, None)


def test_R1_7_draft_in_the_inquisitor_variant_uses_inquisitor_sets():
    """R1.7 with R1.3: the three sets hold the Inquisitor, not the Ambassador."""
    g = Game.new(Options(players=2, variant="inquisitor"), seed=3)
    assert Counter(g.deck) == Counter(INQ_CAST)
    assert sorted(m.card for m in g.legal_moves(0)) == sorted(INQ_CAST)
    with pytest.raises(IllegalMove) as err:
        g.apply(0, move("draft_pick", card="ambassador"))
    assert err.value.code == "not_in_variant"
    g.apply(0, move("draft_pick", card="inquisitor"))
    g.apply(1, move("draft_pick", card="inquisitor"))
    assert Counter(c for h in g.hands for c in h) + Counter(g.deck) + Counter(g.removed) == \
        Counter({c: 3 for c in INQ_CAST})


def test_R1_7_option_turns_the_draft_off_for_a_standard_deal():
    """R1.7: a table option turns the draft off: a standard R1.4 deal for 2 players."""
    g = Game.new(Options(players=2, two_player_draft=False, first_seat=0), seed=5)
    assert not g.options.draft
    assert g.phase == "action" and g.waiting == (0,)
    assert g.coins == [2, 2] and g.treasury == 46
    assert all(len(h) == 2 for h in g.hands) and len(g.deck) == 11
    assert g.removed == []


@pytest.mark.parametrize("players", [3, 4, 6])
def test_R1_7_draft_only_applies_to_exactly_two_players(players):
    """R1.7: the draft is for exactly 2 players; the option is ignored otherwise."""
    g = Game.new(Options(players=players, two_player_draft=True, first_seat=0), seed=5)
    assert not g.options.draft
    assert g.phase == "action" and g.coins == [2] * players


# ------------------------------------------------------------------ Options validation


def test_options_defaults_and_round_trip():
    """Options: the defaults are a 4-player base game with 50 coins; to_dict/from_dict."""
    o = Options()
    assert (o.players, o.variant, o.treasury, o.first_seat, o.two_player_draft) == (
        4, "base", 50, None, True)
    o = Options(players=2, variant="inquisitor", two_player_draft=False, treasury=30,
                first_seat=1)
    assert Options.from_dict(o.to_dict()) == o


@pytest.mark.parametrize("players", [0, 1, 11, -3, "4", 4.0, None, True])
def test_options_bad_players(players):
    """R1.2: players must be an int from 2 to 10; the message says so and names the value."""
    with pytest.raises(OptionsError) as err:
        Options.from_dict({"players": players})
    assert "2 to 10 players" in str(err.value) and repr(players) in str(err.value)


@pytest.mark.parametrize("variant", ["expansion", "Inquisitor", "", None, 3])
def test_options_bad_variant(variant):
    """R1.3: the variant is base or inquisitor."""
    with pytest.raises(OptionsError) as err:
        Options.from_dict({"variant": variant})
    msg = str(err.value)
    assert "variant" in msg and "base" in msg and "inquisitor" in msg and repr(variant) in msg


@pytest.mark.parametrize("players,treasury", [(4, 7), (10, 19), (2, 1001), (4, -1),
                                              (4, "50"), (4, 50.0), (4, None)])
def test_options_bad_treasury(players, treasury):
    """R1.5: the total must cover two coins a player (and be a sane whole number)."""
    with pytest.raises(OptionsError) as err:
        Options.from_dict({"players": players, "treasury": treasury})
    msg = str(err.value)
    assert "treasury" in msg and str(2 * players) in msg and repr(treasury) in msg


def test_options_smallest_treasury_is_allowed():
    """R1.5: exactly two coins a player is enough."""
    g = Game.new(Options(players=4, treasury=8), seed=1)
    assert g.treasury == 0 and g.coins == [2, 2, 2, 2]


@pytest.mark.parametrize("players,first", [(4, 4), (4, -1), (2, 2), (4, "0"), (4, 1.0),
                                           (4, True)])
def test_options_bad_first_seat(players, first):
    """R1.6: the first seat, if given, is one of the table's seats."""
    with pytest.raises(OptionsError) as err:
        Options.from_dict({"players": players, "first_seat": first})
    msg = str(err.value)
    assert "first seat" in msg and f"0 to {players - 1}" in msg and repr(first) in msg


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_options_bad_two_player_draft(value):
    """R1.7: the draft option is true or false."""
    with pytest.raises(OptionsError, match="two_player_draft"):
        Options.from_dict({"players": 2, "two_player_draft": value})


def test_options_unknown_keys_are_refused_by_name():
    """Options.from_dict refuses unknown keys, naming them all."""
    with pytest.raises(OptionsError) as err:
        Options.from_dict({"players": 4, "colour": "red", "clock": 30})
    assert "Unknown" in str(err.value)
    assert "colour" in str(err.value) and "clock" in str(err.value)


@pytest.mark.parametrize("data", [None, [("players", 4)], "players=4", 4])
def test_options_must_be_a_map(data):
    """Options.from_dict refuses anything but a map."""
    with pytest.raises(OptionsError, match="map"):
        Options.from_dict(data)


def test_options_error_is_a_value_error():
    """OptionsError is a ValueError, so callers that catch ValueError see it."""
    assert issubclass(OptionsError, ValueError)
    assert CAST["base"] == BASE_CAST and CAST["inquisitor"] == INQ_CAST
