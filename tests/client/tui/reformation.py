"""A Reformation table (R12) as a server would send it, with no network: the messages that
seat Ana (seat 0), or a spectator, at four players split into two factions with coins in the
Almshouse, for the snapshots and the table's tests to feed an app (`from_server`).

Bruno and Carla are Loyalist, Ana and Bot 3 Reformist (as dealt when Bruno, seat 1, plays
first: R12.3); the table is divided. The Almshouse holds 3 coins. Ana is to act.
"""

from __future__ import annotations

from engine import Game, Options, move, visible_to
from protocol import Joined, Snapshot, TableInfo, Update

TABLE = "f00d42"

PLAYERS = [
    {"seat": 0, "name": "Ana", "bot": None, "ready": True, "away": False},
    {"seat": 1, "name": "Bruno", "bot": None, "ready": True, "away": False},
    {"seat": 2, "name": None, "bot": "heuristic", "ready": True, "away": False},
    {"seat": 3, "name": "Carla", "bot": None, "ready": True, "away": False},
]


def info() -> dict:
    return {"table": TABLE, "name": "Reform club", "status": "playing", "seats": PLAYERS,
            "spectators": 1, "creator": "Ana", "creator_seat": 0,
            "options": {"seats": 4, "variant": "base", "reformation": True,
                        "two_player_draft": True, "treasury": 50, "response_clock": 0,
                        "turn_clock": 0, "private": False, "on_disconnect": "bot",
                        "name": "Reform club"}}


def position(hand: tuple[str, str] = ("captain", "contessa"), coins: int = 3,
             almshouse: int = 3) -> Game:
    """Ana (Reformist, seat 0) to act with `coins` and `hand`; Bruno (seat 1) and Carla
    (seat 3) Loyalist, Bot 3 (seat 2) Reformist and down to a card; the Almshouse holds
    `almshouse` coins."""
    return Game.arrange(Options(players=4, reformation=True),
                        hands=[list(hand), ["assassin", "duke"], ["ambassador"],
                               ["duke", "contessa"]],
                        revealed=[[], [], ["captain"], []], coins=[coins, 4, 2, 5], actor=0,
                        seed=1, almshouse=almshouse,
                        factions=["reformist", "loyalist", "reformist", "loyalist"])


def update(game: Game, viewer: int | None, seat: int, mv) -> Update:
    """What `viewer` receives when `seat` plays `mv`."""
    events = game.apply(seat, mv)
    return Update(table=TABLE, view=game.view(viewer).to_dict(), deadlines=[], reveal=None,
                  events=[e.to_dict() for e in visible_to(events, viewer)])


def seated(game: Game, viewer: int | None = 0) -> list:
    """What the server sends `viewer` (None: a spectator) who comes to `game`."""
    return [Joined(table=TABLE, seat=viewer, token="t" * 32), TableInfo(info=info()),
            Snapshot(table=TABLE, view=game.view(viewer).to_dict(), players=PLAYERS,
                     deadlines=[], reveal=None, summary=None)]


def a_round() -> list:
    """Ana converts herself (1 coin into the Almshouse: she is Loyalist now, the table
    still divided), the others take Income, and it is Ana's turn again: what a player
    sees at a Reformation table in play."""
    game = position()
    return seated(game) + [update(game, 0, 0, move("convert", target=0)),
                           *(update(game, 0, seat, move("income")) for seat in (1, 2, 3))]
