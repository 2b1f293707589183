"""The words of a game's review (engine/review.py): the marks, the options as buttons say
them, a few plain sentences about a seat's game, and the review as `coup review` prints it,
in lines of text or as JSON for tools.

Every word goes through the translation catalog (client.i18n); every name comes from the
record, which anyone can write, and is made safe for a terminal (protocol.text.shown) before
it is shown. It never judges anything itself: the figures are the engine's.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from engine import Move, View
from engine.review import Budget, Judged, Mark, Numbers, Option, decisions, numbers, review
from protocol.text import shown

from .core.table import TableState
from .i18n import _, card_name, ngettext
from .narrate import move_label

#: The version of `as_json_data`'s shape (docs/REVIEW.md): a tool checks it before reading on.
JSON_VERSION = 1


def names_of(record: dict[str, Any]) -> list[str]:
    """Each seat's name as the replay shows it (a person's name, else "Bot 2"), safe for a
    terminal."""
    players = [dict(p) for p in record["players"]]
    name = TableState(str(record.get("table", "")), None, players=players).name
    return [shown(name(seat)) for seat in range(len(players))]


def option_label(move: Move, names: Sequence[str], view: View | None = None) -> str:
    """An option as its button says it: "Steal from Bruno", translated; said from `view`,
    the decision's (a Judged's), where the words depend on it."""
    return move_label(move, lambda seat: "?" if seat is None else names[seat], view)


def mark_label(mark: Mark | None) -> str:
    """A decision's mark in words: "blunder", "erro grave"; "" for an unmarked decision."""
    if mark is Mark.BLUNDER:
        return _("blunder")
    if mark is Mark.MISTAKE:
        return _("mistake")
    if mark is Mark.INACCURACY:
        return _("inaccuracy")
    return ""


def percent(chance: float) -> str:
    """A chance as a whole percentage: "62%"."""
    return f"{round(chance * 100)}%"


def chance_text(option: Option) -> str:
    """An option's chance with its uncertainty: "62% ±4"."""
    return f"{percent(option.win)} ±{round(option.spread * 100)}"


def summary(record: dict[str, Any], seat: int, numbers: Sequence[Numbers]) -> list[str]:
    """A few plain sentences about the seat's game ("you bluffed Duke 4 times, caught once;
    ...")."""
    names = names_of(record)
    mine = numbers[seat]
    lines = [_result(record, seat, names)]
    lines += _bluffs(mine)
    if mine.blocks:
        lines.append(ngettext("You blocked {n} time ({bluffs} without the card).",
                              "You blocked {n} times ({bluffs} without the card).",
                              mine.blocks).format(n=mine.blocks, bluffs=mine.block_bluffs))
    lines += _challenges(mine, names)
    others = sum(n.bluffs for n in numbers if n.seat != seat)
    if others:
        caught = sum(1 for call in mine.calls if call.right)
        lines.append(ngettext("The others bluffed {n} time; your challenges caught {caught}.",
                              "The others bluffed {n} times; your challenges caught {caught}.",
                              others).format(n=others, caught=caught))
    return lines


def _result(record: dict[str, Any], seat: int, names: Sequence[str]) -> str:
    result = record.get("result") or {}
    winner = result.get("winner")
    if winner == seat:
        return _("You won.")
    out = list(result.get("out") or ())
    place = len(record["players"]) - out.index(seat) if seat in out else None
    if place is None:
        return _("{name} won.").format(name=names[winner]) if winner is not None else ""
    return _("{name} won; you finished in place {place} of {seats}.").format(
        name=names[winner] if winner is not None else "?", place=place,
        seats=len(record["players"]))


def _bluffs(mine: Numbers) -> list[str]:
    if not mine.claims:
        return [_("You claimed no character.")]
    if not mine.bluffs:
        return [ngettext("Your {n} claim was true.", "All {n} of your claims were true.",
                         mine.claims).format(n=mine.claims)]
    lines = []
    for claimed in mine.by_card:
        if not claimed.bluffs:
            continue
        bluffed = ngettext("You bluffed {card} {n} time", "You bluffed {card} {n} times",
                           claimed.bluffs).format(card=card_name(claimed.card),
                                                  n=claimed.bluffs)
        if claimed.caught:
            caught = ngettext("caught {n} time", "caught {n} times",
                              claimed.caught).format(n=claimed.caught)
        else:
            caught = _("never caught")
        lines.append(_("{bluffed}, {caught}.").format(bluffed=bluffed, caught=caught))
    return lines


def _challenges(mine: Numbers, names: Sequence[str]) -> list[str]:
    if not mine.challenges:
        return [_("You challenged no claim.")]
    lines = [ngettext("You challenged {n} time: {right} right.",
                      "You challenged {n} times: {right} right.",
                      mine.challenges).format(n=mine.challenges, right=mine.challenges_right)]
    wrong: dict[int, list[str]] = {}
    for call in mine.calls:
        if call.right is False:
            wrong.setdefault(call.target, []).append(call.card)
    for target, cards in wrong.items():
        told = Counter(cards)
        shown_cards = ", ".join(card_name(c) + (f" ×{n}" if n > 1 else "")
                                for c, n in told.items())
        lines.append(ngettext(
            "Your {n} challenge of {name} was wrong: they had {cards}.",
            "Your {n} challenges of {name} were wrong: they had {cards}.",
            len(cards)).format(n=len(cards), name=names[target], cards=shown_cards))
    return lines


def text(record: dict[str, Any], seat: int, judged: Sequence[Judged],
         numbers: Sequence[Numbers]) -> list[str]:
    """The review as `coup review` prints it: each marked decision (its step, what was
    played, the best option, both chances, the mark), then the numbers and the summary."""
    names = names_of(record)
    lines = [_("Review of game {game} for {name} (seat {seat}): {n} decisions judged.").format(
        game=record.get("game", "?"), name=names[seat], seat=seat + 1, n=len(judged))]
    marked = [j for j in judged if j.mark is not None]
    if not marked:
        lines.append(_("No decision was marked."))
    for j in marked:
        best = j.options[0]
        lines.append(_("Move {step}: {played} ({played_chance}); best {best} ({best_chance}): "
                       "{mark}, {cost} points.").format(
            step=j.step, played=option_label(j.played.move, names, j.view),
            played_chance=chance_text(j.played), best=option_label(best.move, names, j.view),
            best_chance=chance_text(best), mark=mark_label(j.mark),
            cost=round(j.cost * 100)))
    mine = numbers[seat]
    lines.append("")
    lines.append(_("Claims {claims}, bluffs {bluffs} (caught {caught}); challenges {calls} "
                   "({right} right); blocks {blocks} ({block_bluffs} bluffed).").format(
        claims=mine.claims, bluffs=mine.bluffs, caught=mine.bluffs_caught,
        calls=mine.challenges, right=mine.challenges_right, blocks=mine.blocks,
        block_bluffs=mine.block_bluffs))
    lines.append(_("Coins as they changed: {coins}.").format(coins=", ".join(
        str(c) for i, c in enumerate(mine.coins) if i == 0 or c != mine.coins[i - 1])))
    lines.append("")
    lines += summary(record, seat, numbers)
    return lines


def as_json_data(record: dict[str, Any], seat: int, budget: Budget, seed: int,
            judged: Sequence[Judged], numbers: Sequence[Numbers]) -> dict[str, Any]:
    """The review as plain data for tools (`coup review --json`; docs/REVIEW.md documents
    the shape): no words but the names, chances as numbers from 0 to 1."""
    return {
        "version": JSON_VERSION,
        "game": record.get("game"),
        "seat": seat,
        "budget": budget.value,
        "seed": seed,
        "decisions": [{
            "step": j.step,
            "played": j.played.move.to_dict(),
            "cost": j.cost,
            "cost_spread": j.cost_spread,
            "mark": j.mark.value if j.mark else None,
            "options": [{"move": o.move.to_dict(), "win": o.win, "spread": o.spread,
                         "samples": o.samples} for o in j.options],
        } for j in judged],
        "numbers": [{
            "seat": n.seat, "name": name, "claims": n.claims, "bluffs": n.bluffs,
            "bluffs_caught": n.bluffs_caught, "challenges": n.challenges,
            "challenges_right": n.challenges_right, "blocks": n.blocks,
            "block_bluffs": n.block_bluffs, "coins": list(n.coins),
        } for n, name in zip(numbers, names_of(record))],
    }


def default_seat(record: dict[str, Any]) -> int:
    """The seat `coup review` judges unless told: the first a person played, else the
    first."""
    return next((p["seat"] for p in record["players"] if p.get("name") and not p.get("bot")),
                0)


def run(record: dict[str, Any], seat: int | None, *, quick: bool = False,
        as_json: bool = False, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """`coup review`: judges `record` for `seat` (None: default_seat) and prints the review
    on `out`, with a progress line on `err` while it thinks, when `err` is a terminal."""
    out = out or sys.stdout
    err = err or sys.stderr
    if seat is None:
        seat = default_seat(record)
    budget = Budget.QUICK if quick else Budget.DEFAULT
    total = len(decisions(record, seat))
    progress = err.isatty()
    shown_line = ""
    judged = []
    try:
        for judgement in review(record, seat, budget=budget):
            judged.append(judgement)
            if progress:
                shown_line = _("Reviewing: decision {n} of {total}").format(
                    n=len(judged), total=total)
                err.write("\r" + shown_line)
                err.flush()
    except KeyboardInterrupt:
        return 130  # as a shell reports SIGINT; the progress line is wiped below
    finally:
        if shown_line:  # spaces, not an escape: a plain terminal obeys none
            err.write("\r" + " " * len(shown_line) + "\r")
            err.flush()
    every = numbers(record)
    if as_json:
        out.write(json.dumps(as_json_data(record, seat, budget, 0, judged, every)) + "\n")
    else:
        out.write("\n".join(text(record, seat, judged, every)) + "\n")
    return 0
