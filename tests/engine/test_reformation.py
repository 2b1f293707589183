"""Scenarios for the Reformation expansion (rules.md R12): the option, factions, the
Almshouse, Conversion and Embezzlement, and how they change targeting, blocking, clocks
and views.

Each test deals a game with a fixed seed or arranges a position, plays the moves the rule
is about, and checks what R12 says must follow.
"""

from __future__ import annotations

import random

import pytest

from engine import (
    Game, Options, OptionsError, View, default_move, legal_moves, move, visible_to,
)
from engine.legality import divided
from engine.position import Decision, Position, PositionError
from engine.record import replay as replay_record
from tests.engine.helpers import kinds, only, pass_window, refused


# ------------------------------------------------------------------ R12.1 the option


def test_R12_1_reformation_is_off_by_default_and_validated():
    """R12.1: the option is off by default, a boolean, and refused as anything else."""
    assert Options().reformation is False
    assert Options(reformation=True).reformation is True
    with pytest.raises(OptionsError):
        Options(reformation=1)  # type: ignore[arg-type]
    with pytest.raises(OptionsError):
        Options.from_dict({"players": 4, "reformation": "yes"})


@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.parametrize("variant", ["base", "inquisitor"])
@pytest.mark.parametrize("draft", [True, False])
def test_R12_1_reformation_combines_with_every_variant_size_and_draft(players, variant, draft):
    """R12.1, R12.14-R12.16: every table size, both decks, with and without the draft."""
    o = Options(players=players, variant=variant, two_player_draft=draft, reformation=True)
    assert Options.from_dict(o.to_dict()) == o
    assert o.to_dict()["reformation"] is True


def test_R12_1_an_old_record_without_the_option_reads_as_base_coup():
    """R12.1: data written before Reformation (no key) reads as the option off, and a table
    without it writes no key, so its data is as it was."""
    old = {"players": 3, "variant": "base", "two_player_draft": True, "treasury": 50,
           "first_seat": None}
    assert Options.from_dict(old).reformation is False
    assert "reformation" not in Options.from_dict(old).to_dict()
    assert Options.from_dict(old).to_dict() == old


# ------------------------------------------------------------------ helpers

REF3 = Options(players=3, reformation=True)
REF4 = Options(players=4, reformation=True)
L, R = "loyalist", "reformist"
PASS = move("pass")
CHALLENGE = move("challenge")
PROVE = move("prove")
CONCEDE = move("concede")


def four(**kw) -> Game:
    """Four seats, seat 0 to act: by R12.3 seats 0 and 2 are Loyalist, 1 and 3 Reformist."""
    return Game.arrange(
        REF4,
        hands=kw.pop("hands", [["captain", "assassin"], ["contessa", "duke"],
                               ["duke", "ambassador"], ["contessa", "captain"]]),
        **kw,
    )


def coins_held(g: Game) -> int:
    """R12.10.4: the treasury, the Almshouse and the seats' coins."""
    return g.treasury + g.almshouse + sum(g.coins)


# ------------------------------------------------------------------ R12.2-R12.5 factions


@pytest.mark.parametrize("players", range(2, 11))
def test_R12_3_factions_alternate_from_the_first_player(players):
    """R12.2, R12.3, R12.15: the first player is Loyalist, then the factions alternate
    clockwise around the whole table; with an odd count the Loyalists have one more."""
    first = players - 1
    g = Game.new(Options(players=players, reformation=True, first_seat=first,
                         two_player_draft=False), seed=3)
    for i in range(players):
        assert g.factions[(first + i) % players] == (L if i % 2 == 0 else R)
    assert g.factions.count(L) - g.factions.count(R) == players % 2


def test_R12_3_a_rematch_deals_factions_from_its_first_player():
    """R12.3: a rematch's first player (the previous winner, R1.6) is Loyalist."""
    for first in range(4):
        g = Game.new(Options(players=4, reformation=True, first_seat=first), seed=first)
        assert g.factions[first] == L and g.factions[(first + 1) % 4] == R


def test_R12_14_two_players_with_the_draft_first_is_loyalist():
    """R12.14: with the R1.7 draft the first player is Loyalist and the other Reformist."""
    g = Game.new(Options(players=2, reformation=True, first_seat=1), seed=5)
    assert g.phase == "draft" and g.factions == [R, L]


def test_R12_1_a_base_game_has_no_factions_and_no_almshouse():
    """R12.1: without the option the deal is the base game's: no faction, no Almshouse."""
    g = Game.new(Options(players=4), seed=1)
    assert g.factions == [] and g.almshouse == 0 and not divided(g)
    assert [m.kind for m in g.legal_moves(g.actor)].count("convert") == 0


def test_R12_5_divided_and_unified_are_judged_from_factions_and_exiles():
    """R12.5: divided while players with influence include both factions; an exile or a
    Conversion may unify the table, and a Conversion may divide it again."""
    g = Game.arrange(REF3, hands=[["duke", "captain"], ["contessa"], ["duke", "assassin"]],
                     revealed=[[], ["captain"], []], coins=[7, 2, 2])
    assert g.factions == [L, R, L] and divided(g)
    g.apply(0, move("coup", target=1))  # seat 1's last card: exiled
    assert not g.alive[1] and not divided(g)  # seats 0 and 2 are both Loyalist
    assert g.view(None).unified is True
    assert g.factions[1] == R  # R12.4: an exile's last faction stays shown
    g.apply(2, move("convert", target=2))
    assert g.factions[2] == R and divided(g) and g.view(None).unified is False


# ------------------------------------------------------------------ R12.6 targeting


def test_R12_6_a_divided_table_targets_only_the_other_faction():
    """R12.6: Coup, Assassinate and Steal name only players of the other faction; one of
    one's own faction is refused with same_faction."""
    g = four(coins=[7, 2, 2, 2])
    targeted = {(m.kind, m.target) for m in g.legal_moves(0)
                if m.kind in ("coup", "assassinate", "steal")}
    assert targeted == {(k, t) for k in ("coup", "assassinate", "steal") for t in (1, 3)}
    for kind in ("coup", "assassinate", "steal"):
        assert refused(g, 0, move(kind, target=2)) == "same_faction"


def test_R12_6_a_forced_coup_names_the_other_faction():
    """R12.6 with R3.4: with 10 coins the only moves are Coups on the other faction."""
    g = four(coins=[10, 2, 2, 2])
    assert g.legal_moves(0) == (move("coup", target=1), move("coup", target=3))
    assert refused(g, 0, move("coup", target=2)) == "same_faction"


def test_R12_13_a_unified_table_targets_anyone():
    """R12.13: on a unified table R12.6 does not apply."""
    g = four(coins=[7, 2, 2, 2], factions=[L, L, L, L])
    assert not divided(g)
    assert {m.target for m in g.legal_moves(0) if m.kind == "coup"} == {1, 2, 3}
    g.apply(0, move("coup", target=2))
    assert g.phase == "lose" and g.waiting == (2,)


def test_R12_16_examine_is_a_targeted_action_under_R12_6():
    """R12.16: with the Inquisitor, Examine names only the other faction on a divided table;
    the Inquisitor still blocks Steal."""
    g = Game.arrange(Options(players=3, variant="inquisitor", reformation=True),
                     hands=[["inquisitor", "duke"], ["inquisitor", "captain"],
                            ["captain", "duke"]])
    assert {m.target for m in g.legal_moves(0) if m.kind == "examine"} == {1}
    assert refused(g, 0, move("examine", target=2)) == "same_faction"
    g.apply(0, move("steal", target=1))
    pass_window(g)
    assert move("block", card="inquisitor") in g.legal_moves(1)


# ------------------------------------------------------------------ R12.7 blocking


def test_R12_7_only_the_other_faction_may_block_foreign_aid():
    """R12.7: the block window of a Foreign Aid holds only the other faction; a seat of
    the actor's faction is not asked to pass and its block is refused."""
    g = four()
    g.apply(0, move("foreign_aid"))
    assert g.phase == "respond" and g.waiting == (1, 3)
    assert refused(g, 2, move("block", card="duke")) == "same_faction"
    ev = pass_window(g)
    assert [e.seat for e in ev if e.kind == "pass"] == [1, 3]
    assert g.coins[0] == 4


def test_R12_7_a_unified_table_lets_anyone_block():
    """R12.7 with R12.13: on a unified table every other player may block Foreign Aid."""
    g = four(factions=[L, L, L, L])
    g.apply(0, move("foreign_aid"))
    assert g.waiting == (1, 2, 3)


# ------------------------------------------------------------------ R12.8 challenges


def test_R12_8_challenges_ignore_factions():
    """R12.8: a claim is open to every other player with influence, whatever the faction."""
    g = four()
    g.apply(0, move("tax"))
    assert g.waiting == (1, 2, 3)
    g.apply(2, CHALLENGE)  # seat 2 is seat 0's fellow Loyalist
    assert g.phase == "prove" and g.challenger == 2


# ------------------------------------------------------------------ R12.9 Conversion


def test_R12_9_converting_oneself_costs_one_coin_into_the_almshouse():
    """R12.9, R12.10.1: a self-Conversion costs 1, paid into the Almshouse; no window; the
    faction flips at once and the turn ends."""
    g = four()
    ev = g.apply(0, move("convert", target=0))
    assert g.factions[0] == R and g.coins[0] == 1 and g.almshouse == 1
    e = only(ev, "convert")
    assert (e.seat, e.target, e.amount, e.faction, e.to) == (0, 0, 1, R, None)
    assert g.phase == "action" and g.actor == 1
    assert coins_held(g) == 50


def test_R12_9_converting_another_costs_two_and_may_name_either_faction():
    """R12.9.1: another player of either faction, for 2 coins."""
    g = four(coins=[4, 2, 2, 2])
    g.apply(0, move("convert", target=2))  # a fellow Loyalist
    assert g.factions == [L, R, R, R] and g.coins[0] == 2 and g.almshouse == 2
    g.apply(1, move("convert", target=0))  # a Loyalist, by a Reformist
    assert g.factions == [R, R, R, R] and g.almshouse == 4 and not divided(g)


def test_R12_9_conversion_refusals():
    """R12.9.4: refused with 10 coins or more, without the coins, naming an exiled player or
    no player; R12.1: without the option it is not in the variant."""
    g = four(coins=[10, 2, 2, 2])
    assert refused(g, 0, move("convert", target=0)) == "must_coup"
    g = four(coins=[1, 2, 2, 2])
    assert move("convert", target=0) in g.legal_moves(0)
    assert refused(g, 0, move("convert", target=1)) == "cannot_afford"
    g = four(coins=[0, 2, 2, 2])
    assert refused(g, 0, move("convert", target=0)) == "cannot_afford"
    g = four(hands=[["duke", "captain"], [], ["duke", "assassin"], ["contessa", "captain"]],
             revealed=[[], ["contessa", "duke"], [], []], coins=[2, 0, 2, 2])
    assert refused(g, 0, move("convert", target=1)) == "bad_target"
    assert refused(g, 0, move("convert")) == "bad_target"
    base = Game.arrange(Options(players=3), hands=[["duke", "captain"]] * 3)
    assert refused(base, 0, move("convert", target=0)) == "not_in_variant"
    assert refused(base, 0, move("embezzle")) == "not_in_variant"


# ------------------------------------------------------------------ R12.10 the Almshouse


def test_R12_10_income_and_tax_never_take_from_the_almshouse():
    """R12.10.2: the treasury alone pays, even when short; R12.10.4 the total holds."""
    g = Game.arrange(Options(players=2, two_player_draft=False, reformation=True,
                             treasury=10),
                     hands=[["duke", "captain"], ["contessa", "assassin"]], coins=[4, 2],
                     almshouse=4)
    assert g.treasury == 0 and coins_held(g) == 10
    g.apply(0, move("tax"))
    g.apply(1, PASS)
    assert g.coins[0] == 4 and g.almshouse == 4  # the treasury was empty: Tax yields 0


def test_R12_10_payments_and_exiles_go_to_the_treasury():
    """R12.10.3: Coup pays the treasury, an exile's coins go to the treasury."""
    g = Game.arrange(REF3, hands=[["duke", "captain"], ["contessa"], ["duke", "assassin"]],
                     revealed=[[], ["captain"], []], coins=[7, 3, 2], almshouse=2)
    before = g.treasury
    g.apply(0, move("coup", target=1))
    assert g.treasury == before + 7 + 3 and g.almshouse == 2 and coins_held(g) == 50


# ------------------------------------------------------------------ R12.11 Embezzlement


def test_R12_11_embezzlement_needs_coins_in_the_almshouse():
    """R12.11.2: refused with an empty Almshouse (almshouse_empty) and with 10 coins."""
    g = four()
    assert move("embezzle") not in g.legal_moves(0)
    assert refused(g, 0, move("embezzle")) == "almshouse_empty"
    g = four(coins=[10, 2, 2, 2], almshouse=3)
    assert refused(g, 0, move("embezzle")) == "must_coup"


def test_R12_11_an_unchallenged_embezzlement_takes_the_whole_almshouse():
    """R12.11.3, R12.11.4: every other player may challenge, nobody blocks; if it stands
    the actor takes every coin of the Almshouse."""
    g = four(almshouse=5)
    ev = g.apply(0, move("embezzle"))
    assert only(ev, "action").action == "embezzle"
    assert g.phase == "respond" and g.step == "challenge_action" and g.waiting == (1, 2, 3)
    assert g.legal_moves(1) == (CHALLENGE, PASS)
    ev = pass_window(g)
    e = only(ev, "embezzle")
    assert (e.seat, e.amount) == (0, 5)
    assert g.coins[0] == 7 and g.almshouse == 0 and coins_held(g) == 50
    assert g.phase == "action" and g.actor == 1


# ------------------------------------------------------------------ R12.12 its challenge


def test_R12_12_proving_shows_every_card_and_redraws_them():
    """R12.12.1: the prover shows all face-down cards (no Duke), the challenger loses 1,
    the shown cards go back and as many are drawn; then the Embezzlement resolves."""
    g = four(almshouse=3, deck=["duke", "contessa", "ambassador"],
             hands=[["captain", "assassin"], ["contessa", "duke"], ["duke", "ambassador"],
                    ["contessa", "captain"]])
    g.apply(0, move("embezzle"))
    g.apply(1, CHALLENGE)
    assert g.legal_moves(0) == (PROVE, CONCEDE)
    ev = g.apply(0, PROVE)
    shown = only(ev, "disprove")
    assert shown.seat == 0 and sorted(shown.cards) == ["assassin", "captain"]
    assert shown.to is None
    assert kinds(ev).count("redraw") == 2
    drew = only(ev, "drew")
    assert drew.to == (0,) and len(drew.cards) == 2 and sorted(g.hands[0]) == sorted(drew.cards)
    assert visible_to(ev, 1) == [e for e in ev if e.kind != "drew"]
    assert g.phase == "lose" and g.waiting == (1,)
    ev = g.apply(1, move("lose", card="duke"))
    assert only(ev, "embezzle").amount == 3
    assert g.coins[0] == 5 and g.almshouse == 0 and coins_held(g) == 50


def test_R12_12_a_duke_holder_cannot_prove():
    """R12.12.1: a player holding a Duke face down can only concede (holds_duke)."""
    g = four(almshouse=3, hands=[["duke", "assassin"], ["contessa", "duke"],
                                 ["duke", "ambassador"], ["contessa", "captain"]])
    g.apply(0, move("embezzle"))
    g.apply(3, CHALLENGE)
    assert g.legal_moves(0) == (CONCEDE,)
    assert refused(g, 0, PROVE) == "holds_duke"


def test_R12_12_conceding_loses_a_card_of_choice_and_keeps_the_almshouse():
    """R12.12.2: the actor loses one influence of its choice (not necessarily the Duke); the
    Embezzlement fails; the Almshouse keeps its coins; nothing is refunded."""
    g = four(almshouse=3, hands=[["duke", "assassin"], ["contessa", "duke"],
                                 ["duke", "ambassador"], ["contessa", "captain"]])
    g.apply(0, move("embezzle"))
    g.apply(2, CHALLENGE)  # a fellow Loyalist may challenge (R12.8)
    ev = g.apply(0, CONCEDE)
    assert "refund" not in kinds(ev)
    ev = g.apply(0, move("lose", card="assassin"))
    fail = only(ev, "fail")
    assert (fail.action, fail.reason) == ("embezzle", "conceded")
    assert g.hands[0] == ["duke"] and g.almshouse == 3 and g.coins[0] == 2
    assert g.actor == 1


def test_R12_12_a_loss_that_ends_the_game_ends_it_before_the_embezzlement():
    """R12.12.3 with R2.3: the challenger's last influence lost to a proof ends the game;
    the Embezzlement never resolves."""
    g = Game.arrange(Options(players=2, two_player_draft=False, reformation=True),
                     hands=[["captain", "assassin"], ["contessa"]],
                     revealed=[[], ["duke"]], almshouse=4)
    g.apply(0, move("embezzle"))
    g.apply(1, CHALLENGE)
    ev = g.apply(0, PROVE)
    assert g.over and g.winner == 0 and "embezzle" not in kinds(ev)
    assert g.almshouse == 4 and g.coins[0] == 2


# ------------------------------------------------------------------ R12.17 clocks


def test_R12_17_a_silent_turn_takes_income_never_convert_or_embezzle():
    """R12.17.1: the server never converts or embezzles for anyone."""
    g = four(almshouse=5)
    assert default_move(g, 0, random.Random(1)) == move("income")


def test_R12_17_a_silent_forced_coup_names_the_next_allowed_seat():
    """R12.17.2: the next player in turn order that R12.6 allows: seat 1 is Reformist, so
    seat 2 (Loyalist) skips it and Coups seat 3."""
    g = four(coins=[2, 2, 10, 2], actor=2, factions=[R, L, L, R])
    assert default_move(g, 2, random.Random(1)) == move("coup", target=3)


def test_R12_17_a_silent_challenged_embezzler_proves_unless_holding_a_duke():
    """R12.17.3, R10: proved when the seat can, conceded otherwise."""
    g = four(almshouse=2)
    g.apply(0, move("embezzle"))
    g.apply(1, CHALLENGE)
    assert default_move(g, 0, random.Random(1)) == PROVE
    g = four(almshouse=2, hands=[["duke", "assassin"], ["contessa", "duke"],
                                 ["duke", "ambassador"], ["contessa", "captain"]])
    g.apply(0, move("embezzle"))
    g.apply(1, CHALLENGE)
    assert default_move(g, 0, random.Random(1)) == CONCEDE


def test_R12_17_a_silent_loser_loses_a_card_at_random():
    """R12.17.4: after a conceded Embezzlement the card lost is drawn at random."""
    picked = set()
    for seed in range(20):
        g = four(almshouse=2, hands=[["duke", "assassin"], ["contessa", "duke"],
                                     ["duke", "ambassador"], ["contessa", "captain"]])
        g.apply(0, move("embezzle"))
        g.apply(1, CHALLENGE)
        g.apply(0, CONCEDE)
        picked.add(default_move(g, 0, random.Random(seed)))
    assert picked == {move("lose", card="duke"), move("lose", card="assassin")}


# ------------------------------------------------------------------ R12.18 views


def test_R12_18_every_view_shows_factions_the_almshouse_and_the_status():
    """R12.18, R12.4: every seat and every spectator sees the factions, the Almshouse and
    whether the table is divided; a client's legality equals the server's."""
    g = four(almshouse=3)
    for viewer in (None, 0, 1, 2, 3):
        v = g.view(viewer)
        assert v.factions == (L, R, L, R) and v.almshouse == 3 and v.unified is False
        data = v.to_dict()
        assert data["factions"] == [L, R, L, R] and data["almshouse"] == 3
        assert View.from_dict(data) == v
        if viewer is not None:
            assert legal_moves(v, viewer) == g.legal_moves(viewer)


def test_R12_18_a_conversion_is_public():
    """R12.18: a Conversion, its payer, target, cost and the new faction are public."""
    g = four()
    ev = g.apply(0, move("convert", target=1))
    assert all(e.to is None for e in ev)
    assert only(ev, "convert").to_dict() == {"kind": "convert", "seat": 0, "target": 1,
                                            "amount": 2, "faction": L}


# ------------------------------------------------------------------ records


def test_R12_1_a_reformation_game_replays_from_its_record():
    """R12.1: a record carries the option, and its moves replay to the same game."""
    options = Options(players=4, reformation=True)
    g = Game.new(options, seed=9)
    rng = random.Random(9)
    while not g.over:
        seat = rng.choice(g.waiting)
        g.apply(seat, rng.choice(g.legal_moves(seat)), g.state_id)
    record = {"format": "coup-record", "version": 1, "options": options.to_dict(),
              "seed": 9, "moves": [{"seat": s, "move": m.to_dict(), "state_id": None}
                                   for s, m in g.history]}
    again = replay_record(record)
    assert again.reveal() == g.reveal() and again.factions == g.factions
    assert again.almshouse == g.almshouse


# ------------------------------------------------------------------ positions


def test_R12_10_a_position_holds_factions_and_the_almshouse_and_round_trips():
    """R12.2, R12.10: a position states each seat's faction and the Almshouse; the game it
    builds has them, and its text form reads back the same."""
    p = Position(REF3, hands=(("duke", "captain"), ("contessa", "assassin"), ("duke", "captain")),
                 coins=(3, 2, 2), factions=(R, R, L), almshouse=4)
    g = p.game()
    assert g.factions == [R, R, L] and g.almshouse == 4 and g.treasury == 50 - 7 - 4
    read = Position.from_dict(p.to_dict())
    assert (read.factions, read.almshouse) == ((R, R, L), 4)
    assert read.to_dict() == p.to_dict()
    again = Position.of(g)
    assert again.factions == (R, R, L) and again.almshouse == 4
    assert Position.from_dict(again.to_dict()).game().almshouse == 4
    dealt = Position(REF3, hands=p.hands, turn=1).game()
    assert dealt.factions == [L, L, R]  # R12.3 from the turn's seat when none are stated


def test_R12_10_positions_are_refused_where_the_rules_forbid_them():
    """Factions and an Almshouse only with the option; factions by name, one a seat; the
    coin total holds (R12.10.4)."""
    hands = (("duke", "captain"), ("contessa", "assassin"), ("duke", "captain"))
    wrong = [
        (Position(Options(players=3), hands=hands, factions=(L, R, L)), "reformation"),
        (Position(Options(players=3), hands=hands, almshouse=2), "reformation"),
        (Position(REF3, hands=hands, factions=(L, R)), "one faction a seat"),
        (Position(REF3, hands=hands, factions=(L, R, "heretic")), "loyalist"),
        (Position(REF3, hands=hands, almshouse=-1), "Almshouse"),
        (Position(REF3, hands=hands, coins=(20, 20, 2), almshouse=9), "Almshouse 9"),
        (Position(REF3, hands=hands, almshouse=4, treasury=44), "R12.10"),
        (Position(REF3, hands=hands, decision=Decision("respond", action="embezzle",
                                                       step="challenge_action")), "Almshouse"),
    ]
    for position, words in wrong:
        with pytest.raises(PositionError) as info:
            position.game()
        assert words in str(info.value), (position, info.value)


def test_R12_12_a_position_can_open_a_challenged_embezzlement():
    """R12.12: a position at the challenged Embezzler's answer plays on by the rules."""
    p = Position(REF3, hands=(("captain", "assassin"), ("contessa", "duke"), ("duke", "captain")),
                 almshouse=3, decision=Decision("prove", action="embezzle",
                                                step="challenge_action", challenger=2))
    g = p.game()
    assert g.waiting == (0,) and g.legal_moves(0) == (PROVE, CONCEDE)
    g.apply(0, PROVE)
    g.apply(2, move("lose", card="captain"))
    assert g.coins[0] == 5 and g.almshouse == 0


def test_R12_7_a_position_opens_the_block_window_to_the_other_faction_only():
    """R12.7: a position's Foreign Aid block window on a divided table waits only for the
    other faction, and naming a seat of the actor's faction in it is refused."""
    hands = (("duke", "captain"), ("contessa", "assassin"), ("duke", "captain"),
             ("ambassador", "contessa"))
    window = Decision("respond", action="foreign_aid", step="block")
    g = Position(REF4, hands=hands, decision=window).game()
    assert g.waiting == (1, 3)
    with pytest.raises(PositionError):
        Position(REF4, hands=hands, decision=Decision("respond", action="foreign_aid",
                                                      step="block", waiting=(2,))).game()
    steal = Decision("respond", action="steal", target=2, step="challenge_action")
    with pytest.raises(PositionError) as info:
        Position(REF4, hands=hands, decision=steal).game()  # R12.6: seat 2 is a Loyalist
    assert "R12.6" in str(info.value)
