"""The expert (ismcts) reads the table: the same view and seed give the same move, it stops
lying where every claim is called (R6.1: anyone may challenge any claim), and it calls a
seat that keeps claiming the Duke it was caught without, or, heads-up, the Assassin.

Each scenario is an arranged position (Game.arrange) and the record the expert saw before
it (the events `observe` was given); behaviour is asked over a few seeds, never by playing
games out.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Game, Move, Options
from engine.bots import make
from engine.events import Event

#: The claims a hand of two Contessas can only bluff.
BLUFFS = ("tax", "steal", "assassinate", "exchange")
SEEDS = range(16)


def decide(game: Game, seat: int, history: Sequence[Event], seed: int) -> Move:
    """A fresh expert's move at `seat` after it observed `history`."""
    bot = make("expert", seed)
    view = game.view(seat)
    if history:
        bot.observe(view, history)
    return bot.choose(view, game.legal_moves(seat))


def called_every_claim(times: int) -> list[Event]:
    """A record in which seat 1 challenged each of `times` Duke claims, seat 2's and the
    expert's (seat 0's) in turn, and each claimant proved it. Only who called what is
    written down: what seat 1 lost for it does not bear on how readily it calls."""
    record: list[Event] = []
    for i in range(times):
        claimant = 2 if i % 2 else 0
        record += [Event("action", claimant, card="duke", action="tax"),
                   Event("challenge", 1, claimant, "duke"),
                   Event("prove", claimant, card="duke")]
    return record


def rich_table(seed: int) -> Game:
    """Three seats: the expert holds two Contessas and 5 coins, so a Tax, a Steal, an
    Assassination or an Exchange would each be a bluff; seat 2 has 6 coins."""
    return Game.arrange(Options(players=3), hands=[["contessa", "contessa"],
                                                  ["assassin", "captain"], ["duke", "captain"]],
                        coins=[5, 4, 6], seed=seed)


def test_the_same_view_and_seed_give_the_same_move() -> None:
    """Two experts with one seed, shown one record and one view, play one move, whatever
    else ran between (the search reads no clock)."""
    history = called_every_claim(3)
    for seed in (0, 7):
        first = decide(rich_table(seed), 0, history, seed)
        decide(rich_table(seed + 1), 0, (), seed + 1)
        assert decide(rich_table(seed), 0, history, seed) == first


def test_it_stops_bluffing_a_table_where_every_claim_is_called() -> None:
    """At a fresh table the expert bluffs on a good share of seeds (an Assassination of
    the rich seat, a Tax); once seat 1 has challenged every claim it saw, the search's
    playouts call its lies as often, and it takes Income or Foreign Aid instead."""
    fresh = [decide(rich_table(seed), 0, (), seed).kind for seed in SEEDS]
    called = [decide(rich_table(seed), 0, called_every_claim(8), seed).kind
              for seed in SEEDS]
    assert sum(kind in BLUFFS for kind in fresh) >= 4
    assert sum(kind in BLUFFS for kind in called) <= 1


def caught_taxing() -> list[Event]:
    """Seat 1 takes Tax three times unchallenged, then is challenged on a fourth, concedes
    the Duke and loses a Captain."""
    record: list[Event] = []
    for _ in range(3):
        record += [Event("action", 1, card="duke", action="tax"),
                   Event("pass", 0, 1, "duke"), Event("pass", 2, 1, "duke"),
                   Event("gain", 1, amount=3),
                   Event("action", 2, action="income"), Event("action", 0, action="income")]
    return record + [Event("action", 1, card="duke", action="tax"),
                     Event("challenge", 2, 1, "duke"), Event("concede", 1, card="duke"),
                     Event("lose", 1, card="captain")]


def test_it_calls_a_duke_claim_the_claimant_was_caught_without() -> None:
    """Seat 1 took Tax on each of its turns; challenged on its last one, it conceded the
    Duke (it lacked it) and lost a Captain. It claims the Duke again with its one card and
    no new card since: the expert challenges, on every seed."""
    record = caught_taxing()
    for seed in range(4):
        game = Game.arrange(Options(players=3),
                            hands=[["duke", "contessa"], ["assassin"], ["captain", "ambassador"]],
                            revealed=[[], ["captain"], []], coins=[4, 4, 4], actor=1, seed=seed,
                            phase="respond", step="challenge_action", action="tax",
                            claim="duke", claimant=1, waiting=(0, 2))
        assert decide(game, 0, record, seed).kind == "challenge"


def test_it_calls_a_caught_bluffer_even_where_counting_makes_the_duke_likely() -> None:
    """As above, but the expert holds no Duke and has one card left, so three Dukes are
    unseen and losing a challenge would cost it the game: counting alone lets the Tax
    stand. Seat 1 was caught without the Duke and has drawn no card since: the Reader
    judges it by what it conceded, not by counting, and challenges on every seed (R6.1)."""
    record = caught_taxing()
    for seed in range(4):
        game = Game.arrange(Options(players=3),
                            hands=[["contessa"], ["assassin"], ["captain", "ambassador"]],
                            revealed=[["ambassador"], ["captain"], []], coins=[4, 4, 4], actor=1, seed=seed,
                            phase="respond", step="challenge_action", action="tax",
                            claim="duke", claimant=1, waiting=(0, 2))
        assert decide(game, 0, record, seed).kind == "challenge"


def test_heads_up_it_calls_an_assassination_by_a_seat_caught_lying() -> None:
    """Heads-up, one card each. Seat 1 claimed the Duke, was caught bluffing an Assassin
    and conceded, then claimed the Duke again; now it claims the Assassin on the expert's
    last card. Counting alone, with the Duke and the Assassin claimed on one card, gives the
    claim a fair chance and the baseline's bar lets it stand; the Reader judges a seat
    caught lying by its beliefs, which know it conceded the Assassin with this hand, and
    challenges on every seed (R6.1)."""
    record = [Event("action", 1, card="duke", action="tax"), Event("pass", 0, 1, "duke"),
              Event("gain", 1, amount=3), Event("action", 0, action="income"),
              Event("action", 1, 0, "assassin", action="assassinate"),
              Event("challenge", 0, 1, "assassin"), Event("concede", 1, card="assassin"),
              Event("lose", 1, card="captain"), Event("action", 0, action="income"),
              Event("action", 1, card="duke", action="tax"), Event("pass", 0, 1, "duke"),
              Event("gain", 1, amount=3), Event("action", 0, 1, "captain", action="steal")]
    for seed in range(4):
        game = Game.arrange(Options(players=2, two_player_draft=False),
                            hands=[["duke"], ["contessa"]],
                            revealed=[["ambassador"], ["captain"]], coins=[2, 3], actor=1,
                            seed=seed, phase="respond", step="challenge_action",
                            action="assassinate", target=0, claim="assassin", claimant=1,
                            waiting=(0,))
        assert decide(game, 0, record, seed).kind == "challenge"
