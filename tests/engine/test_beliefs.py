"""The belief model (engine/bots/beliefs.py): card counting, claims, proofs and caught
bluffs, the passes that tell, and worlds sampled from it that agree with everything known.

Scenarios are played move by move on a real game from a position, seat 0 watching as a table
shows it (its view and the events it may see, R11); the properties play random games."""

from __future__ import annotations

import random
from collections import Counter
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, Options, move, visible_to
from engine.bots import make
from engine.bots.beliefs import PASSED_BLOCK, SUSPICION, Beliefs
from engine.cards import CAST, copies_in_game
from engine.events import Event
from engine.moves import Move
from engine.position import Position

DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA = (
    "duke", "assassin", "captain", "ambassador", "contessa")
PASS, CHALLENGE = move("pass"), move("challenge")


class Watch:
    """A game with seat 0's beliefs kept up to date, as the arena keeps a strategy's."""

    def __init__(self, position: Position, me: int = 0) -> None:
        self.game = position.game()
        self.me = me
        self.beliefs = Beliefs()

    @property
    def view(self):  # type: ignore[no-untyped-def]
        return self.game.view(self.me)

    def play(self, seat: int, m: Move) -> None:
        events = self.game.apply(seat, m)
        self.beliefs.observe(self.view, visible_to(events, self.me))

    def everyone_passes(self) -> None:
        for seat in tuple(self.game.waiting):
            self.play(seat, PASS)


def counted(unseen_copies: int, pool: int, held: int) -> float:
    """The chance a hand of `held` cards dealt from `pool` has one of `unseen_copies`."""
    return 1 - comb(pool - unseen_copies, held) / comb(pool, held)


def four(**fields) -> Position:  # type: ignore[no-untyped-def]
    """Four seats of two cards, base game (15 cards): I hold Captain and Ambassador."""
    base = dict(options=Options(players=4),
                hands=((CAPTAIN, AMBASSADOR), (CONTESSA, ASSASSIN), (DUKE, CAPTAIN),
                       (CONTESSA, AMBASSADOR)),
                coins=(2, 2, 2, 2))
    return Position(**(base | fields))


# ------------------------------------------------------------------ card counting


def test_with_no_evidence_a_hand_is_as_likely_as_counting_makes_it() -> None:
    """R1.1: 15 cards, 3 of each; I see my 2, so 13 are unseen and all 3 Dukes among them."""
    watch = Watch(four())
    assert watch.beliefs.holds(watch.view, 1, DUKE) == pytest.approx(counted(3, 13, 2))
    assert watch.beliefs.holds(watch.view, 1, CAPTAIN) == pytest.approx(counted(2, 13, 2))
    cards = watch.beliefs.cards(watch.view, 1)
    assert sum(cards.values()) == pytest.approx(1)
    assert cards[DUKE] == pytest.approx(3 / 13)


def test_a_character_whose_every_copy_is_seen_is_held_by_nobody() -> None:
    """All three Dukes accounted for (two in my hand, one face up): no one holds one, and a
    Duke claim is a bluff for certain."""
    watch = Watch(Position(Options(players=3), hands=((DUKE, DUKE), (CAPTAIN, CONTESSA),
                                                      (ASSASSIN,)),
                           revealed=((), (), (DUKE,)), turn=1))
    watch.play(1, move("tax"))
    for seat in (1, 2):
        assert watch.beliefs.holds(watch.view, seat, DUKE) == 0
        assert watch.beliefs.bluff_chance(watch.view, seat, DUKE) == 1
    assert watch.beliefs.cards(watch.view, 2)[DUKE] == 0


def test_a_claim_raises_the_chance_by_bayes_at_the_seats_lie_rate() -> None:
    watch = Watch(four(turn=1))
    before = watch.beliefs.holds(watch.view, 1, DUKE)
    assert watch.beliefs.bluff_chance(watch.view, 1, DUKE) == pytest.approx(
        (1 - before) * SUSPICION / (before + (1 - before) * SUSPICION))
    watch.play(1, move("tax"))  # seat 1 claims a Duke it lacks (R4)
    after = watch.beliefs.holds(watch.view, 1, DUKE)
    assert after == pytest.approx(before / (before + (1 - before) * SUSPICION))
    assert watch.beliefs.claimed(1) == (DUKE,)
    assert watch.beliefs.holds(watch.view, 2, DUKE) == pytest.approx(before)  # others unmoved


# ------------------------------------------------------------------ challenges


def test_a_proof_earns_trust_and_resets_what_was_known_of_the_card() -> None:
    """R6.3: seat 2 proves its Duke, shuffles it back and draws another: its Duke claim is
    spent (it may or may not hold a Duke now: counting says), and its record improves."""
    watch = Watch(four(turn=2))
    watch.play(2, move("tax"))
    watch.play(0, CHALLENGE)
    watch.play(2, move("prove"))
    assert watch.beliefs.claimed(2) == ()
    assert watch.beliefs.record(2) == (1, 0)
    assert watch.beliefs.lie_rate(2) == pytest.approx(2 * SUSPICION / 3)
    assert watch.beliefs.trust(2) > 1 - SUSPICION
    assert watch.beliefs.holds(watch.view, 2, DUKE) == pytest.approx(counted(3, 13, 2))


def test_claims_that_keep_proving_true_earn_more_and_more_trust() -> None:
    """Each proof (R6.3) lowers the seat's lie rate: a prior worth two claims, then its
    record."""
    beliefs, view = Beliefs(), Watch(four()).view
    rates = [beliefs.lie_rate(1)]
    for _ in range(3):
        beliefs.observe(view, [Event("prove", 1, card=CONTESSA)])
        rates.append(beliefs.lie_rate(1))
    assert rates == sorted(rates, reverse=True) and len(set(rates)) == 4
    assert rates[-1] == pytest.approx(2 * SUSPICION / 5)
    assert beliefs.lie_rate(2) == SUSPICION


def test_a_caught_bluff_loses_trust_and_the_seat_lacks_the_card() -> None:
    """R6.4: seat 1 (Contessa, Assassin) claims a Duke, is challenged and concedes."""
    watch = Watch(four(turn=1))
    watch.play(1, move("tax"))
    watch.play(0, CHALLENGE)
    watch.play(1, move("concede"))
    watch.play(1, move("lose", card=CONTESSA))
    assert watch.beliefs.record(1) == (0, 1)
    assert watch.beliefs.lie_rate(1) == pytest.approx((2 * SUSPICION + 1) / 3)
    assert watch.beliefs.trust(1) < 1 - SUSPICION
    # It all but said it has none by conceding (the rules would let it concede one it has).
    assert watch.beliefs.holds(watch.view, 1, DUKE) < 0.02
    # Its next claim is likelier a bluff than the same claim from a seat never caught.
    fresh = Beliefs()
    assert (watch.beliefs.bluff_chance(watch.view, 1, CAPTAIN)
            > fresh.bluff_chance(watch.view, 1, CAPTAIN))


def test_a_record_of_truth_also_grows_from_cards_shown_true_and_bluffs_declined() -> None:
    """A claimed card that is lost face up (R2.1) was a true claim; a turn of Income (R4)
    where a Tax bluff was there to take counts for half a proof; naming more characters
    than it holds cards gives lies away."""
    view = Watch(four()).view
    honest, declining, overclaiming = Beliefs(), Beliefs(), Beliefs()
    honest.observe(view, [Event("action", 1, action="tax", card=DUKE)])
    honest.observe(view, [Event("lose", 1, card=DUKE)])
    assert honest.record(1) == (1, 0) and honest.claimed(1) == ()
    declining.observe(view, [Event("action", 1, action="income")])
    assert SUSPICION > declining.lie_rate(1) > honest.lie_rate(1)
    for card in (DUKE, CAPTAIN, CONTESSA):
        overclaiming.observe(view, [Event("block", 1, target=2, card=card)])
    assert overclaiming.lie_rate(1) == pytest.approx((2 * SUSPICION + 1) / 3)


def test_a_target_that_lets_an_assassination_through_seldom_holds_a_contessa() -> None:
    """R7: only the target may block an Assassination, with a Contessa."""
    watch = Watch(four(turn=3, coins=(2, 2, 2, 3)))
    before = watch.beliefs.holds(watch.view, 2, CONTESSA)
    watch.play(3, move("assassinate", target=2))
    watch.everyone_passes()  # no challenge
    bystander = watch.beliefs.holds(watch.view, 1, CONTESSA)
    watch.play(2, PASS)  # seat 2 (Duke, Captain) does not block
    factor = PASSED_BLOCK["assassinate"]
    assert watch.beliefs.holds(watch.view, 2, CONTESSA) == pytest.approx(
        before * factor / (before * factor + 1 - before))
    assert watch.beliefs.holds(watch.view, 1, CONTESSA) == pytest.approx(bystander)


def test_a_seat_that_challenges_often_is_known_for_it() -> None:
    """R6.1: seat 2 calls seat 1's Tax, seat 3 lets it pass: seat 2's share of calls rises
    above the prior, seat 3's falls below."""
    watch = Watch(four(turn=1))
    prior = watch.beliefs.calls(2)
    watch.play(1, move("tax"))
    watch.play(3, PASS)
    watch.play(0, PASS)
    watch.play(2, CHALLENGE)
    assert watch.beliefs.calls(2) > prior > watch.beliefs.calls(3)
    assert watch.beliefs.calls(1) == prior


def test_after_the_draft_the_opponent_likely_chose_a_duke_and_my_set_is_out() -> None:
    """R1.7: I chose one card of a full set, the other four left the game; the opponent
    chose from its own full set, most likely the Duke."""
    game = Game.new(Options(players=2), seed=3)
    beliefs = Beliefs()
    pick = {0: DUKE, 1: CAPTAIN}
    while game.phase == "draft":
        seat = game.waiting[0]
        events = game.apply(seat, move("draft_pick", card=pick[seat]))
        beliefs.observe(game.view(0), visible_to(events, 0))
    view = game.view(0)
    unseen = 15 - 4 - 2  # three sets of five, less my set's four and my two cards
    dukes = 2 - list(view.hands[0]).count(DUKE) + 1  # the opponent's set's and the third's
    assert beliefs.holds(view, 1, DUKE) > counted(dukes, unseen, 2)
    assert beliefs.holds(view, 1, DUKE) > 0.6
    deal = beliefs.sample_hands(random.Random(1), view)
    set_aside = Counter(CAST["base"]) - Counter([DUKE])
    assert not set_aside - Counter(deal.removed)


# ------------------------------------------------------------------ sampling


def test_a_sampled_world_deals_exactly_the_unseen_cards_and_keeps_what_is_known() -> None:
    """Seat 1 conceded a Duke: hardly a world gives it one; my hand and the face-up cards
    are as they are; no character is dealt more often than the game has it."""
    watch = Watch(four(turn=1))
    watch.play(1, move("tax"))
    watch.play(0, CHALLENGE)
    watch.play(1, move("concede"))
    watch.play(1, move("lose", card=CONTESSA))
    view = watch.view
    rng = random.Random(7)
    dukes = 0
    for _ in range(300):
        deal = watch.beliefs.sample_hands(rng, view)
        assert deal.hands[0] == view.hands[0]
        dukes += DUKE in deal.hands[1]
        assert [len(h) for h in deal.hands] == list(view.influence)
        assert len(deal.deck) == view.deck_size
        dealt = Counter(c for place in (*deal.hands, deal.deck, deal.removed, *view.revealed)
                        for c in place)
        assert dealt == Counter({c: 3 for c in CAST["base"]})
    assert dukes < 10


def test_sampling_is_deterministic_for_a_generator_seed() -> None:
    watch = Watch(four(turn=1))
    watch.play(1, move("tax"))
    one = [watch.beliefs.sample_hands(random.Random(3), watch.view) for _ in range(2)]
    assert one[0] == one[1]


def test_worlds_follow_the_beliefs() -> None:
    """A claimed Duke is dealt to its claimant about as often as `holds` says."""
    watch = Watch(four(turn=1))
    watch.play(1, move("tax"))
    rng = random.Random(11)
    share = sum(DUKE in watch.beliefs.sample_hands(rng, watch.view).hands[1]
                for _ in range(2000)) / 2000
    assert share == pytest.approx(watch.beliefs.holds(watch.view, 1, DUKE), abs=0.04)


# ------------------------------------------------------------------ random games


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6),
       variant=st.sampled_from(("base", "inquisitor")), draft=st.booleans(),
       strategy=st.sampled_from(("random", "heuristic", "bluffer", "honest")))
def test_beliefs_never_rule_out_the_truth_and_worlds_always_add_up(
        seed: int, players: int, variant: str, draft: bool, strategy: str) -> None:
    """Over random games: every card a seat truly holds keeps a chance above 0 (the evidence
    never contradicts the truth), every chance is a probability, and every sampled world
    deals the game's exact cards (R1.1-R1.3, R1.7) in agreement with the watcher's view."""
    options = Options(players=players, variant=variant, two_player_draft=draft)
    game = Game.new(options, seed)
    bots = [make(strategy, seed + s) for s in range(players)]
    watchers = [Beliefs() for _ in range(players)]
    order = random.Random(seed)
    total = Counter({c: copies_in_game(players, options.draft) for c in CAST[variant]})
    for _ in range(400):
        if game.over:
            break
        seat = game.waiting[order.randrange(len(game.waiting))]
        events = game.apply(seat, bots[seat].choose(game.view(seat), game.legal_moves(seat)))
        for me, beliefs in enumerate(watchers):
            if not game.alive[me]:
                continue
            view = game.view(me)
            beliefs.observe(view, visible_to(events, me))
            if game.phase == "draft":
                continue
            for other in range(players):
                if other == me or not game.alive[other]:
                    continue
                for card in CAST[variant]:
                    chance = beliefs.holds(view, other, card)
                    assert 0 <= chance <= 1
                    if card in game.hands[other]:
                        assert chance > 0, (other, card, game.hands[other])
            deal = beliefs.sample_hands(order, view)
            assert deal.hands[me] == tuple(game.hands[me])
            assert [len(h) for h in deal.hands] == list(view.influence)
            assert len(deal.deck) == view.deck_size
            places = (*deal.hands, deal.deck, deal.removed, deal.drawn, *view.revealed)
            if game.phase == "examine_decision" and game.actor == me != game.target:
                assert deal.shown in deal.hands[game.target]
            assert Counter(c for place in places for c in place) == total
