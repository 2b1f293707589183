"""Positions: any state the rules allow can be set up, read back and played on; anything
else is refused with a sentence naming what is wrong (engine.position)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import Game, Move, Options, OptionsError, move
from engine.position import Decision, Position, PositionError

DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA, INQUISITOR = (
    "duke", "assassin", "captain", "ambassador", "contessa", "inquisitor")


def three(**fields) -> Position:
    """Three seats: Duke+Captain (6 coins), Contessa+Assassin (6), Duke+Ambassador (2)."""
    base = dict(options=Options(players=3),
                hands=((DUKE, CAPTAIN), (CONTESSA, ASSASSIN), (DUKE, AMBASSADOR)),
                coins=(6, 6, 2))
    return Position(**(base | fields))


def comparable(view) -> dict:
    """A view's fields but the state ids (a position's game starts at state 0)."""
    data = view.to_dict()
    del data["state_id"], data["opened"]
    return data


# ------------------------------------------------------------------ reading back


@pytest.mark.parametrize("players, variant, draft", [
    (2, "base", True), (2, "inquisitor", False), (3, "base", False), (4, "inquisitor", False),
    (6, "base", False), (7, "inquisitor", False),
])
def test_every_state_of_random_games_reads_back_into_the_same_game(players, variant, draft):
    """Position.of(game).game() is the same game at every state of a game (R1 to R11): the
    same full state, every seat's view and legal moves. So no state the rules reach is
    refused, and the accessor misses nothing a view shows."""
    rng = random.Random(players * 7 + draft)
    options = Options(players=players, variant=variant, two_player_draft=draft)
    for game_number in range(6):
        game = Game.new(options, seed=rng.randrange(2**32))
        while True:
            position = Position.of(game)
            rebuilt = position.game()
            assert Position.of(rebuilt) == position
            for seat in list(range(players)) + [None]:
                assert comparable(rebuilt.view(seat)) == comparable(game.view(seat))
            for seat in game.waiting:
                assert rebuilt.legal_moves(seat) == game.legal_moves(seat)
            if game.over:
                break
            seat = rng.choice(game.waiting)
            game.apply(seat, rng.choice(game.legal_moves(seat)))


def test_the_accessor_is_a_copy_that_changes_nothing():
    game = three().game()
    position = Position.of(game)
    game.apply(0, move("tax"))
    assert position.coins == (6, 6, 2) and position.decision is None
    with pytest.raises(AttributeError):
        position.coins = (1, 1, 1)  # frozen


# ------------------------------------------------------------------ building


def test_a_position_plays_on_from_where_it_stands():
    """Seat 0 taxes with a Duke it holds; seat 2 challenges; seat 0 proves (R6.3) and the
    challenger loses."""
    game = three().game()
    game.apply(0, move("tax"))
    game.apply(1, move("pass"))
    game.apply(2, move("challenge"))
    assert game.waiting == (0,) and game.phase == "prove"
    game.apply(0, move("prove"))
    assert game.phase == "lose" and game.waiting == (2,)


def test_a_pending_challenge_block_and_loss_are_positions_too():
    """A Contessa's block of an Assassination, open to challenge by the assassin (R7), and
    the loss that a conceded block brings (R6.4)."""
    blocked = three(turn=1, coins=(6, 3, 2), decision=Decision(
        "respond", action="assassinate", target=0, step="challenge_block", blocker=0,
        block_card=CONTESSA))
    game = blocked.game()
    assert game.waiting == (1, 2) and game.claimant == 0 and game.claim == CONTESSA
    game.apply(1, move("challenge"))
    game.apply(0, move("concede"))
    assert game.phase == "lose" and game.waiting == (0,)
    loss = three(turn=1, coins=(6, 3, 2), decision=Decision(
        "lose", action="assassinate", target=0, step="challenge_block", blocker=0,
        block_card=CONTESSA, challenger=1, seat=0, reason="challenge"))
    rebuilt = loss.game()
    assert Position.of(rebuilt) == Position.of(game)


def test_stated_draws_fix_a_proofs_replacement_an_exchange_and_a_swap():
    """R6.3: the proved card goes back, the deck is shuffled, a replacement is drawn; R4.3,
    R4.4: an Exchange's draw and an Examine's swap. `draws` states each card."""
    proof = three(decision=Decision("prove", action="tax", step="challenge_action",
                                    challenger=2), draws=(CONTESSA,)).game()
    proof.apply(0, move("prove"))
    assert sorted(proof.hands[0]) == [CAPTAIN, CONTESSA]
    for seed in range(5):  # whatever the shuffle
        exchange = three(hands=((AMBASSADOR, CAPTAIN), (CONTESSA, ASSASSIN), (DUKE, DUKE)),
                         decision=Decision("respond", action="exchange",
                                           step="challenge_action"),
                         draws=(DUKE, ASSASSIN), seed=seed).game()
        exchange.apply(1, move("pass"))
        exchange.apply(2, move("pass"))
        assert exchange.drawn == [DUKE, ASSASSIN]
    swap = Position(Options(players=2, variant="inquisitor", two_player_draft=False),
                    hands=((INQUISITOR, DUKE), (CONTESSA, CAPTAIN)), removed=(),
                    decision=Decision("examine_decision", action="examine", target=1,
                                      step="challenge_action", shown=CAPTAIN),
                    draws=(ASSASSIN,)).game()
    swap.apply(0, Move("examine_decision", swap=True))
    assert sorted(swap.hands[1]) == [ASSASSIN, CONTESSA]


def test_the_deck_is_the_rest_shuffled_by_the_seed_or_as_given_top_first():
    rest = three(seed=4).game()
    assert sorted(rest.deck) == sorted([DUKE] + [ASSASSIN] * 2 + [CAPTAIN] * 2
                                       + [AMBASSADOR] * 2 + [CONTESSA] * 2)
    assert three(seed=4).game().deck == rest.deck
    order = (CONTESSA, DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, ASSASSIN, CAPTAIN, AMBASSADOR,
             CONTESSA)
    assert Position.of(three(deck=order).game()).deck == order


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize("fields, says", [
    (dict(hands=((DUKE, DUKE), (DUKE, DUKE), (CONTESSA, ASSASSIN))),
     "4 duke without the deck; a game of 3 players has 3 of each character"),
    (dict(deck=(DUKE,) * 9), "with the deck; a game of 3 players has 3 of each"),
    (dict(hands=((DUKE, CAPTAIN), (), (DUKE, AMBASSADOR)),
          revealed=((), (CONTESSA, ASSASSIN), ()), coins=(6, 5, 2)),
     "Seat 1 is exiled (no face-down card) and holds 5 coins"),
    (dict(hands=((DUKE,), (CONTESSA, ASSASSIN), (DUKE, AMBASSADOR))),
     "Seat 0 has 1 face-down and 0 face-up cards; every seat has 2 in all (R2.1)"),
    (dict(hands=((DUKE, "jester"), (CONTESSA, ASSASSIN), (DUKE, AMBASSADOR))),
     "'jester' is not a character of the base game"),
    (dict(hands=((DUKE, INQUISITOR), (CONTESSA, ASSASSIN), (DUKE, AMBASSADOR))),
     "'inquisitor' is not a character of the base game"),
    (dict(coins=(30, 20, 2)), "The seats hold 52 coins; the game has 50 in all (R1.5)"),
    (dict(coins=(6, -1, 2)), "Seat 1's coins must be a whole number of 0 or more"),
    (dict(treasury=40), "The treasury holds 40 coins and the seats 14: the game has 50 in all "
                        "(R1.5), so the treasury holds 36."),
    (dict(hands=((DUKE, CAPTAIN), (CONTESSA, ASSASSIN))), "hands has 2 entries; the table has 3"),
    (dict(turn=3), "turn must be a seat from 0 to 2"),
    (dict(removed=(DUKE,)), "removed must be empty"),
])
def test_a_position_the_rules_do_not_allow_is_refused_naming_what_is_wrong(fields, says):
    with pytest.raises(PositionError) as refused:
        three(**fields).game()
    assert says in str(refused.value)


@pytest.mark.parametrize("decision, says", [
    (Decision("respond", action="tax", step="block"), "tax cannot be blocked (R4)"),
    (Decision("respond", action="income", step="challenge_action"), "Income opens no decision"),
    (Decision("respond", action="foreign_aid", step="challenge_action"),
     "foreign_aid claims no character"),
    (Decision("respond", action="tax", step="challenge_action", waiting=(0, 1)),
     "The seats that may answer this window are [1, 2]"),
    (Decision("respond", action="steal", target=1, step="block", waiting=(2,)),
     "The seats that may answer this window are [1]"),
    (Decision("respond", action="steal", target=1, step="challenge_block", blocker=1,
              block_card=CONTESSA), "steal is blocked by captain, ambassador"),
    (Decision("respond", action="steal", target=1, step="challenge_block", blocker=2,
              block_card=CAPTAIN), "steal may be blocked by its target (R4), not by seat 2"),
    (Decision("respond", action="steal", step="block"), "steal needs a target"),
    (Decision("prove", action="tax", step="challenge_action"), "A challenge needs its challenger"),
    (Decision("lose", action="coup", target=1, reason="coup", seat=2),
     "A loss to coup is the target's of a coup"),
    (Decision("lose", action="tax", step="challenge_action", challenger=2, reason="challenge",
              seat=1), "the challenger (seat 2) or the claimant (seat 0) loses, not seat 1"),
    (Decision("keep", action="exchange", step="challenge_action", drawn=(DUKE,)),
     "An Exchange draws 2 cards in this variant (R4.3); drawn holds 1"),
    (Decision("show", action="examine", target=1), "must be one of"),
    (Decision("draft"), "Only a two-player game dealt by the draft"),
    (Decision("over"), "A game is over when one seat has influence; 3 have"),
    (Decision("bargain"), "The decision's phase must be one of"),
])
def test_an_open_decision_the_state_could_not_have_opened_is_refused(decision, says):
    with pytest.raises(PositionError) as refused:
        three(decision=decision).game()
    assert says in str(refused.value)


def test_a_position_error_is_an_options_error():
    """Whoever catches the options' refusals catches the position's."""
    with pytest.raises(OptionsError):
        three(coins=(99, 0, 0)).game()


# ------------------------------------------------------------------ the text form


POSITION_TOML = """\
# Seat 0 holds Duke and Captain; seat 1 has claimed Contessa twice. 6 coins each.
turn = 0
draws = ["contessa"]

[options]
players = 2
two_player_draft = false

[[seats]]
hand = ["duke", "captain"]
coins = 6

[[seats]]
hand = ["contessa"]
revealed = ["assassin"]
coins = 6
"""


def test_a_toml_file_is_a_position(tmp_path):
    path = tmp_path / "duel.toml"
    path.write_text(POSITION_TOML)
    position = Position.load(str(path))
    game = position.game()
    assert game.hands == [[DUKE, CAPTAIN], [CONTESSA]] and game.revealed[1] == [ASSASSIN]
    assert game.waiting == (0,) and game.coins == [6, 6] and game.treasury == 38
    assert replace(position, treasury=38).game().treasury == 38
    assert Position.from_dict(position.to_dict()) == position


def test_a_history_is_public_events_read_and_written_back(tmp_path):
    path = tmp_path / "story.toml"
    path.write_text(POSITION_TOML + '[[history]]\nkind = "block"\nseat = 1\ntarget = 0\n'
                    'card = "contessa"\n')
    position = Position.load(str(path))
    assert [e.to_dict() for e in position.history] == [
        {"kind": "block", "seat": 1, "target": 0, "card": "contessa"}]
    assert Position.from_dict(position.to_dict()) == position
    position.game()
    assert Position.of(position.game()).history == ()  # a game keeps moves, not events


@pytest.mark.parametrize("event, says", [
    ({"kind": "drew", "seat": 0, "cards": ["duke"]}, "one of the public kinds"),
    ({"kind": "block", "seat": 1, "target": 0, "card": "jester"}, "its cards must be"),
    ({"kind": "block", "seat": 5, "target": 0, "card": "contessa"}, "seat must be a seat"),
    ({"kind": "gain", "seat": 0, "amount": -2}, "amount must be a whole number"),
    ({"kind": "fail", "seat": 0, "action": "tax", "reason": "bored"}, "reason must be one of"),
    ({"seat": 0}, "needs its kind"),
    ({"kind": "turn", "seat": 0, "when": 3}, "Unknown key(s) in the history's event 0: when"),
])
def test_a_history_event_of_the_wrong_form_is_refused(event, says):
    data = {"seats": [{"hand": [DUKE, CAPTAIN]}, {"hand": [CONTESSA, ASSASSIN]}],
            "options": {"two_player_draft": False}, "history": [event]}
    with pytest.raises(PositionError) as refused:
        Position.from_dict(data).game()
    assert says in str(refused.value)


@pytest.mark.parametrize("text, says", [
    ("turn = 0\nseats = 3\n", "seats must be a list of tables"),
    ("color = 'red'\n[[seats]]\nhand = []\n", "Unknown key(s) in the position: color"),
    ("[[seats]]\nhand = ['duke']\nmoney = 3\n", "Unknown key(s) in the seat 0: money"),
    ("[[seats]]\nhand = 'duke'\n", "seat 0's hand must be a list of card names"),
    ("[decision]\nphase = 'prove'\nwho = 1\n[[seats]]\n", "Unknown key(s) in the decision: who"),
    ("turn = [\n", "is not TOML"),
    # read, and then checked against the rules before any use (R1.1, R1.2)
    ("[[seats]]\nhand = ['duke', 'duke']\n[[seats]]\nhand = ['duke', 'duke']\n",
     "The cards count 4 duke"),
])
def test_a_file_that_is_not_a_position_says_why(tmp_path, text, says):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(PositionError) as refused:
        Position.load(str(path))
    assert says in str(refused.value)


def test_every_position_reads_back_from_its_plain_form():
    rng = random.Random(5)
    game = Game.new(Options(players=4, variant="inquisitor"), seed=9)
    while not game.over:
        position = Position.of(game)
        assert Position.from_dict(position.to_dict()) == position
        seat = rng.choice(game.waiting)
        game.apply(seat, rng.choice(game.legal_moves(seat)))


def test_a_position_replaces_fields_like_any_dataclass():
    """Bot writers vary one thing at a time."""
    richer = replace(three(), coins=(10, 6, 2)).game()
    assert richer.legal_moves(0) == (move("coup", target=1), move("coup", target=2))


def test_no_input_raises_anything_but_a_position_error_and_what_builds_plays():
    """Positions come from files people write: whatever a field holds, the answer is a
    PositionError (or the options' OptionsError), and a position that builds plays on."""
    rng = random.Random(11)
    values = [None, 1, -1, "x", DUKE, [], [DUKE], [1, 2], {}, {"a": 1}, 2.5, True, [[DUKE]],
              0, 2, 11, "tax", "steal", "assassinate", "block", "challenge_action",
              "challenge_block", CONTESSA, "coup", "challenge"]
    phases = ["respond", "prove", "lose", "keep", "show", "examine_decision", "draft", "over"]
    built = 0
    for _ in range(3000):
        data = {"seats": [{"hand": [DUKE, CAPTAIN]}, {"hand": [CONTESSA, ASSASSIN]},
                          {"hand": [DUKE, AMBASSADOR]}]}
        for _ in range(rng.randint(1, 4)):
            where = rng.choice(["top", "decision", "decision", "decision", "seat"])
            if where == "decision":
                decision = data.setdefault("decision", {"phase": rng.choice(phases)})
                decision[rng.choice([f for f in Decision.__dataclass_fields__])] = (
                    rng.choice(values + phases))
            elif where == "seat":
                data["seats"][rng.randrange(3)][rng.choice(["hand", "revealed", "coins"])] = (
                    rng.choice(values))
            else:
                data[rng.choice(["options", "treasury", "deck", "removed", "exiled", "turn",
                                 "first_seat", "draws", "seed"])] = rng.choice(values)
        try:
            game = Position.from_dict(data).game()
        except OptionsError:  # PositionError is one
            continue
        built += 1
        for _ in range(20):
            if game.over:
                break
            seat = rng.choice(game.waiting)
            game.apply(seat, rng.choice(game.legal_moves(seat)))
    assert built > 20
