"""A server's frame must agree with itself, not only field by field (issue 27, section 7):
the full-screen client crashed with an IndexError on a snapshot whose per-seat lists were
short. Every view of real games passes; each way of breaking one is refused as the peer's
bad_message, with the path to the fault, where the client decodes it."""

from __future__ import annotations

import copy
import random

import pytest

from engine import Game, Options
from engine.views import FIELDS
from protocol import RemoteProtocolError, decode
from protocol.codec import SERVER_SENDS

from .helpers import TABLE, deadlines, mid_game_view, seat_infos, table_summary


def snapshot(view: dict, **more) -> dict:
    return {"t": "snapshot", "table": TABLE, "view": view, "players": seat_infos(),
            "deadlines": deadlines(view["waiting"])} | more


def test_every_view_of_random_games_agrees_with_itself_R11() -> None:
    """Each seat's view, a spectator's and the reveal, at every state of games of 2 to 10
    seats in both variants, as the server would send them."""
    rnd = random.Random(5)
    for players in range(2, 11):
        for variant in ("base", "inquisitor"):
            game = Game.new(Options(players=players, variant=variant), players)
            while True:
                for seat in [*range(players), None]:
                    view = game.view(seat).to_dict()
                    decode(snapshot(view, players=seat_infos(players),
                                    reveal=game.reveal().to_dict() if game.over else None),
                           SERVER_SENDS)
                if game.over:
                    break
                seat = rnd.choice(game.waiting)
                game.apply(seat, rnd.choice(game.legal_moves(seat)))


def _short_coins(v):
    v["coins"].pop()


def _long_alive(v):
    v["alive"].append(True)


def _own_seat_out(v):
    v["seat"] = 6


def _actor_out(v):
    v["actor"] = 9


def _waiting_out(v):
    v["waiting"] = [7]


def _waiting_twice(v):
    v["waiting"] = [1, 1]


def _inquisitor_in_base(v):
    v["revealed"][1] = ["inquisitor"]


def _examine_in_base(v):
    v["action"] = "examine"


def _hand_of_three(v):
    v["hands"][0] = ["duke", "duke"]
    v["influence"][0] = 1


def _three_cards(v):
    v["revealed"][0] = ["duke", "captain"]


def _first_seat_out(v):
    v["options"]["first_seat"] = 8


BROKEN = [
    (_short_coins, "view.coins: must have one entry a seat (6)"),
    (_long_alive, "view.alive: must have one entry a seat (6)"),
    (_own_seat_out, "view.seat: must be a seat of the table, 0 to 5"),
    (_actor_out, "view.actor: must be a seat of the table"),
    (_waiting_out, "view.waiting[]: must be a seat of the table"),
    (_waiting_twice, "view.waiting: must name each seat once"),
    (_inquisitor_in_base, "view.revealed: must hold cards of the base game"),
    (_examine_in_base, "view.action: must be an action of the base game"),
    (_hand_of_three, "view.hands: seat 0's hand must hold as many cards as its influence"),
    (_three_cards, "view.revealed: seat 0 has more than two cards"),
    (_first_seat_out, "view.options.first_seat: must be a seat of the table"),
]


@pytest.mark.parametrize("breaks, says", BROKEN, ids=[b.__name__[1:] for b, _ in BROKEN])
def test_a_view_that_disagrees_with_itself_is_the_servers_bad_message(breaks, says) -> None:
    view = mid_game_view()
    view["revealed"][0] = []
    view["hands"][0] = view["hands"][0][:view["influence"][0]]
    decode(snapshot(copy.deepcopy(view)), SERVER_SENDS)  # as it was, it passes
    breaks(view)
    with pytest.raises(RemoteProtocolError) as info:
        decode(snapshot(view), SERVER_SENDS)
    assert info.value.code == "bad_message"
    assert info.value.message.startswith(f"snapshot: {says}")


@pytest.mark.parametrize("more, says", [
    ({"deadlines": [{"seat": 6, "ms": 1000}]}, "deadlines[].seat: must be a seat"),
    ({"players": seat_infos(7)}, "players[].seat: must be a seat"),
    ({"events": [{"kind": "turn", "seat": 8}]}, "events[0].seat: must be a seat"),
    ({"summary": {"out": [], "seats": []}}, "summary.seats: must have one entry a seat"),
], ids=["deadline", "player", "event", "summary"])
def test_the_seats_a_snapshot_names_beside_its_view_are_the_tables(more, says) -> None:
    with pytest.raises(RemoteProtocolError) as info:
        decode(snapshot(mid_game_view(), **more), SERVER_SENDS)
    assert info.value.message.startswith(f"snapshot: {says}")


def test_an_update_and_a_tables_list_are_checked_too() -> None:
    view = mid_game_view()
    view["coins"] = view["coins"][:2]
    update = {"t": "update", "table": TABLE, "view": view, "events": [], "deadlines": []}
    with pytest.raises(RemoteProtocolError, match="update: view.coins"):
        decode(update, SERVER_SENDS)
    crowded = table_summary(players=2) | {"seats": seat_infos(3)}
    with pytest.raises(RemoteProtocolError, match=r"tables: tables\[0\].seats: must list at"):
        decode({"t": "tables", "tables": [crowded]}, SERVER_SENDS)
    with pytest.raises(RemoteProtocolError, match="table: info.seats"):
        decode({"t": "table", "info": crowded}, SERVER_SENDS)


def test_every_per_seat_field_of_a_view_is_checked() -> None:
    """A field added to engine.View with a per-seat kind is checked without more code."""
    for field in FIELDS:
        if not field.kind.endswith("_by_seat"):
            continue
        view = mid_game_view()
        view[field.name] = view[field.name][:-1]
        with pytest.raises(RemoteProtocolError, match=f"view.{field.name}: must have one"):
            decode(snapshot(view), SERVER_SENDS)
