"""A server's tournament in words: the one line that says where it is, and its standings a
line an entrant, best first, as plain mode, the terminal app's lobby and `coup bot
--tournament` show them.

It only writes text from the `tournament` message the client core keeps (whose names the
link has made terminal-safe already); it must never decide anything about a tournament.
"""

from __future__ import annotations

from typing import Any

from protocol import Tournament

from .i18n import _, ngettext, pgettext


def status_word(status: str) -> str:
    return {"open": pgettext("tournament", "open for entries"),
            "running": pgettext("tournament", "running"),
            "done": pgettext("tournament", "over"),
            "stopped": pgettext("tournament", "stopped")}.get(status, status)


def tournament_line(tournament: Tournament) -> str:
    """Where the tournament is, on one line: "Tournament Cup: running, 3 of 6 games
    played; leading: ana." (while open: who entered)."""
    where = _("Tournament {name}: {status}").format(name=tournament.name,
                                                   status=status_word(tournament.status))
    if tournament.status == "open":
        entrants = ", ".join(tournament.entrants) or _("no one yet")
        return where + ". " + ngettext("{n} entrant: {names}.", "{n} entrants: {names}.",
                                       len(tournament.entrants)).format(
            n=len(tournament.entrants), names=entrants)
    played = ngettext("{played} of {scheduled} game played",
                      "{played} of {scheduled} games played", tournament.scheduled).format(
        played=tournament.played, scheduled=tournament.scheduled)
    line = f"{where}, {played}"
    if tournament.standings and tournament.played:
        line += "; " + _("leading: {name}").format(name=tournament.standings[0]["name"])
    return line + "."


def standing_line(place: int, row: dict[str, Any]) -> str:
    """One entrant's standing, short enough for 80 columns: "1. ana: 3 of 4 won (75%),
    mean place 1.3, rating 2.10" (and ", 1 forfeit" when it has forfeits)."""
    forfeits = (", " + ngettext("{n} forfeit", "{n} forfeits", row["forfeits"]).format(
        n=row["forfeits"]) if row["forfeits"] else "")
    return _("{place}. {name}: {wins} of {games} won ({rate:.0%}), mean place {mean:.1f}, "
             "rating {rating:.2f}{forfeits}").format(
        place=place, name=row["name"], games=row["games"], wins=row["wins"],
        rate=row["win_rate"], mean=row["mean_place"], rating=row["ordinal"],
        forfeits=forfeits)


def standings_lines(tournament: Tournament) -> list[str]:
    """The tournament's line, then its standings, a line an entrant, best first."""
    return [tournament_line(tournament)] + [
        standing_line(place, row) for place, row in enumerate(tournament.standings, 1)]
