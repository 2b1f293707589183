"""What a server's message must agree with inside itself, past what each field's spec says.

A field's spec (messages.py) bounds it alone: a list of at most 10 coin counts, a seat from
0 to 9. A view is more: one table of `options.players` seats, so every per-seat list has
exactly that many entries, every seat it names is one of them, every card is a character of
its variant and every action one of its actions, and a hand the viewer knows holds as many
cards as the seat has influence. Clients index by seat everywhere, so a frame that breaks
this (a hostile or broken server's) is refused where it is decoded, as the server refuses a
client's bad frame: `CHECKS` maps a message type to its check, which the codec runs on what
it decoded; each raises schema.Invalid with the path to the fault.

It checks, and never repairs or fills in anything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import VIEW_FIELDS
from engine.cards import ALLOWED, CAST

from .schema import Invalid


def _by_kind() -> dict[str, list[str]]:
    """The view's fields by the kind of value they hold (engine.View declares them)."""
    kinds: dict[str, list[str]] = {}
    for field in VIEW_FIELDS:
        kinds.setdefault(field.kind, []).append(field.name)
    return kinds


_KINDS = _by_kind()
_PER_SEAT = [name for kind, names in _KINDS.items() if kind.endswith("_by_seat")
             for name in names]
_CARD_LISTS = ("face_up_by_seat", "hand_by_seat", "draft_set_by_seat")


def view(value: dict[str, Any], path: str = "view") -> None:
    """Invalid unless the view (its spec already checked) is one table's (see above)."""
    options = value["options"]
    seats, variant = options["players"], options["variant"]
    reformation = options.get("reformation", False)
    for name in _PER_SEAT:
        if len(value[name]) != seats:
            raise Invalid(f"{path}.{name}", f"must have one entry a seat ({seats})")
    if len(value["factions"]) != (seats if reformation else 0):
        raise Invalid(f"{path}.factions", f"must have one entry a seat ({seats}) with "
                      f"Reformation, none without (R12.2)")
    _seat(options["first_seat"], seats, f"{path}.options.first_seat")
    for name in _KINDS["seat"]:
        _seat(value[name], seats, f"{path}.{name}")
    for name in _KINDS["seats"]:
        _seats(value[name], seats, f"{path}.{name}")
    cast, actions = CAST[variant], ALLOWED[variant, reformation]
    for name in _KINDS["card"]:
        if value[name] is not None and value[name] not in cast:
            raise Invalid(f"{path}.{name}", f"must be a card of the {variant} game")
    for name in _KINDS["action"]:
        if value[name] is not None and value[name] not in actions:
            raise Invalid(f"{path}.{name}", f"must be an action of the {variant} game")
    for kind in _CARD_LISTS:
        for name in _KINDS[kind]:
            for cards in value[name]:
                if cards is not None and not set(cards) <= set(cast):
                    raise Invalid(f"{path}.{name}", f"must hold cards of the {variant} game")
    for name in _KINDS["drawn"]:
        if not set(value[name]) <= set(cast):
            raise Invalid(f"{path}.{name}", f"must hold cards of the {variant} game")
    for seat, hand in enumerate(value["hands"]):
        if hand is not None and len(hand) != value["influence"][seat]:
            raise Invalid(f"{path}.hands", f"seat {seat}'s hand must hold as many cards as "
                          f"its influence")
    for seat, up in enumerate(value["revealed"]):
        if len(up) + value["influence"][seat] > 2:
            raise Invalid(f"{path}.revealed", f"seat {seat} has more than two cards")


def _seat(seat: int | None, seats: int, path: str) -> None:
    if seat is not None and seat >= seats:
        raise Invalid(path, f"must be a seat of the table, 0 to {seats - 1}")


def _seats(numbers: list[Any], seats: int, path: str, each: str | None = None) -> None:
    """The seat numbers at `path` (each at `each`: by default path[]), each once."""
    for seat in numbers:
        _seat(seat, seats, each or path + "[]")
    if len(set(numbers)) != len(numbers):
        raise Invalid(path, "must name each seat once")


def _game(message: dict[str, Any]) -> None:
    """A snapshot or an update: its view and reveal, and the seats its other fields name."""
    view(message["view"])
    seats = message["view"]["options"]["players"]
    reveal = message.get("reveal")
    if reveal is not None:
        view(reveal, "reveal")
        if reveal["options"] != message["view"]["options"]:
            raise Invalid("reveal.options", "must be the view's")
    for n, event in enumerate(message.get("events") or ()):
        for name in ("seat", "target"):
            _seat(event.get(name), seats, f"events[{n}].{name}")
    _seats([d["seat"] for d in message["deadlines"]], seats, "deadlines", "deadlines[].seat")
    summary = message.get("summary")
    if summary is not None:
        if len(summary["seats"]) != seats:
            raise Invalid("summary.seats", f"must have one entry a seat ({seats})")
        _seats(summary["out"], seats, "summary.out")
    players = message.get("players")
    if players is not None:
        _seats([p["seat"] for p in players], seats, "players", "players[].seat")


def table_summary(info: dict[str, Any], path: str = "info") -> None:
    """A table as the lobby shows it: its seats within its size, each once."""
    seats = info["options"]["seats"]
    if len(info["seats"]) > seats:
        raise Invalid(f"{path}.seats", f"must list at most the table's {seats} seats")
    _seats([s["seat"] for s in info["seats"]], seats, f"{path}.seats",
           f"{path}.seats[].seat")
    _seat(info.get("creator_seat"), seats, f"{path}.creator_seat")


def _table(message: dict[str, Any]) -> None:
    table_summary(message["info"])


def _tables(message: dict[str, Any]) -> None:
    for n, info in enumerate(message["tables"]):
        table_summary(info, f"tables[{n}]")


#: The check of each message type that has one, run on the frame's checked map.
CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "snapshot": _game,
    "update": _game,
    "table": _table,
    "tables": _tables,
}
