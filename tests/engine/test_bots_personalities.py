"""The heuristic calls likely bluffs (R6.1) and lets plausible claims stand, and each
personality's knobs make the difference its character promises."""

from __future__ import annotations

from engine import Game, Options, visible_to
from engine.bots import STRATEGIES, make
from engine.bots.heuristic import PERSONALITIES
from engine.cards import CLAIMS_IN
from engine.events import Event
from engine.moves import Move


def answer(action: Move, hands, revealed=None, coins=None, claims=(), proofs=0) -> str:
    """Seat 1 declares `action` (R4); what seat 0's default heuristic answers in the
    challenge window (R5 step 2), having seen seat 1 claim `claims` before, and prove
    `proofs` claims when challenged (R6.3)."""
    g = Game.arrange(hands=hands, revealed=revealed, coins=coins, actor=1)
    bot = make("heuristic", 1)
    for _ in range(proofs):
        bot.observe(g.view(0), [Event("prove", seat=1, card="ambassador")])
    for card in claims:
        bot.observe(g.view(0), [Event("block", seat=1, target=2, card=card)])
    g.apply(1, action)
    moves = g.legal_moves(0)
    assert Move("challenge") in moves
    return bot.choose(g.view(0), moves).kind


HANDS = [["duke", "contessa"], ["assassin", "captain"], ["ambassador", "assassin"]]


def test_a_first_claim_from_a_player_with_two_cards_is_let_stand() -> None:
    """R6.1: nothing makes these claims unlikely: three copies unseen, no other claims."""
    assert answer(Move("steal", target=0), HANDS) == "pass"
    assert answer(Move("tax"), [["captain", "contessa"]] + HANDS[1:]) == "pass"


def test_a_claim_after_claiming_every_other_character_is_challenged() -> None:
    """R6.1: a Steal from the viewer by a player with two cards who has claimed the Duke,
    the Contessa, the Ambassador and the Assassin before: most of its claims are lies."""
    steal = Move("steal", target=0)
    assert answer(steal, HANDS, claims=("duke", "contessa")) == "pass"
    assert answer(steal, HANDS, claims=("duke", "contessa", "ambassador", "assassin")) \
        == "challenge"


#: Heads-up: the viewer holds a Duke, the claimant's face-up card is another, so one Duke is
#: left among the claimant's one card and the deck's.
DUEL = [["duke", "contessa"], ["captain"]]
DUEL_UP = [[], ["duke"]]


def test_a_likely_bluff_on_a_last_card_is_challenged_heads_up() -> None:
    """R6.1, R2.2: a right call ends the game; the Tax is more likely a lie than not."""
    assert answer(Move("tax"), DUEL, DUEL_UP, coins=[2, 2]) == "challenge"


def test_a_claimant_whose_claims_kept_proving_true_is_believed() -> None:
    """R6.3: the same Tax from a player that proved the claim challenged before: its record
    makes a lie less likely, and it is let stand."""
    assert answer(Move("tax"), DUEL, DUEL_UP, coins=[2, 2], proofs=1) == "pass"


def test_a_tax_that_arms_a_coup_is_challenged_where_a_smaller_one_is_let_stand() -> None:
    """R6.1, R3.3: the same trusted claimant at 5 coins: its Tax would give it a Coup next
    turn, so calling is worth the card it risks."""
    assert answer(Move("tax"), DUEL, DUEL_UP, coins=[2, 5], proofs=1) == "challenge"


def test_an_impossible_claim_is_always_challenged() -> None:
    """R1.1, R6.1: the viewer holds two Dukes and the third is face up."""
    hands = [["duke", "duke"]] + HANDS[1:]
    assert answer(Move("tax"), hands, [[], [], ["duke"]]) == "challenge"


def play(names: list[str], seed: int, check) -> None:
    g = Game.new(Options(players=len(names)), seed)
    bots = [make(n, seed * 31 + s) for s, n in enumerate(names)]
    while not g.over:
        seat = g.waiting[0]
        view = g.view(seat)
        move = bots[seat].choose(view, g.legal_moves(seat))
        check(names[seat], view, move)
        events = g.apply(seat, move)
        for s, bot in enumerate(bots):
            bot.observe(g.view(s), visible_to(events, s))


def test_the_personalities_are_strategies_with_a_character() -> None:
    assert set(PERSONALITIES) == {"bluffer", "cautious", "vengeful", "banker"}
    for name, cls in PERSONALITIES.items():
        assert STRATEGIES[name] is cls and cls.__doc__


def test_the_cautious_one_never_claims_a_card_it_does_not_hold() -> None:
    """R4, R7: every action claim and every block of `cautious` is true."""
    claims = []

    def check(name: str, view, move: Move) -> None:
        if name != "cautious":
            return
        claim = move.card if move.kind == "block" else CLAIMS_IN["base"].get(move.kind)
        if claim is not None:
            claims.append(claim)
            assert claim in view.hands[view.seat]

    for seed in range(30):
        play(["cautious", "bluffer", "heuristic", "cautious"], seed, check)
    assert claims


def test_the_bluffer_lies_where_the_default_mostly_tells_the_truth() -> None:
    """R4: the same seats and seeds; the bluffer's claims are false far more often."""
    lies = {"bluffer": [0, 0], "heuristic": [0, 0]}

    def check(name: str, view, move: Move) -> None:
        claim = CLAIMS_IN["base"].get(move.kind)
        if claim is not None and name in lies:
            lies[name][0] += claim not in view.hands[view.seat]
            lies[name][1] += 1

    for seed in range(30):
        play(["bluffer", "heuristic", "heuristic", "heuristic"], seed, check)
    rate = {n: false / made for n, (false, made) in lies.items()}
    assert rate["bluffer"] > 2 * rate["heuristic"]


def test_the_banker_never_pays_for_an_assassination() -> None:
    """R4.1: the banker keeps its coins for a Coup."""
    def check(name: str, view, move: Move) -> None:
        assert not (name == "banker" and move.kind == "assassinate")

    for seed in range(30):
        play(["banker", "heuristic", "banker", "heuristic"], seed, check)


def test_the_vengeful_one_coups_whoever_last_hurt_it() -> None:
    """R4 Coup: seat 1 is the bigger threat, but seat 2 stole from the vengeful seat; the
    default aims at seat 1, the vengeful one at seat 2."""
    g = Game.arrange(hands=[["duke", "contessa"], ["assassin", "captain"], ["ambassador"]],
                     coins=[7, 6, 2], actor=0)
    stolen = [Event("action", seat=2, action="steal", target=0, card="captain"),
              Event("steal", seat=2, target=0, amount=2)]
    for name, aimed in (("heuristic", 1), ("vengeful", 2)):
        bot = make(name, 1)
        bot.observe(g.view(0), stolen)
        assert bot.choose(g.view(0), g.legal_moves(0)) == Move("coup", target=aimed)


def called(name: str, history: list[Event]) -> str:
    """What `name` at seat 0, holding two Dukes, answers seat 1's Tax (R4, R6.1) at a
    three-seat table, having seen `history`."""
    g = Game.arrange(hands=[["duke", "duke"], ["assassin", "captain"], ["ambassador", "assassin"]],
                     actor=1)
    bot = make(name, 1)
    bot.observe(g.view(0), history)
    g.apply(1, Move("tax"))
    return bot.choose(g.view(0), g.legal_moves(0)).kind


STOLEN = [Event("action", seat=1, action="steal", target=0, card="captain"),
          Event("steal", seat=1, target=0, amount=2)]


def test_the_vengeful_one_calls_its_grudge_where_the_default_lets_it_stand() -> None:
    """Seat 1 stole from seat 0 (R4 Steal): its grudge. One Duke is left unseen."""
    assert called("heuristic", STOLEN) == "pass"
    assert called("vengeful", STOLEN) == "challenge"


def test_the_bluffer_suspects_a_claim_the_default_and_the_cautious_believe() -> None:
    """It expects others to lie as it does: the same first Tax, no history."""
    assert called("heuristic", []) == "pass"
    assert called("cautious", []) == "pass"
    assert called("bluffer", []) == "challenge"


def test_the_vengeful_one_bluffs_blocks_of_its_grudge_far_more_often() -> None:
    """R7: seat 1, which stole from seat 0 before, Steals from it again; seat 0 holds no
    Captain or Ambassador. Over 60 seeds the vengeful one blocks it anyway at least a
    third of the time; the default seldom."""
    blocked = {}
    for name in ("heuristic", "vengeful"):
        blocked[name] = 0
        for seed in range(60):
            g = Game.arrange(hands=[["duke", "contessa"], ["assassin", "captain"],
                                    ["ambassador", "assassin"]], actor=1)
            bot = make(name, seed)
            bot.observe(g.view(0), STOLEN)
            g.apply(1, Move("steal", target=0))
            while g.phase == "respond" and g.step != "block":
                g.apply(g.waiting[0], Move("pass"))
            blocked[name] += bot.choose(g.view(0), g.legal_moves(0)).kind == "block"
    assert blocked["heuristic"] < 12
    assert blocked["vengeful"] >= 20
