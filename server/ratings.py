"""Ratings: openskill's Plackett-Luce model over the finishing order of rated games.

A rated game ranks its seats by how they finished: the winner first, then the others in the
reverse order of their exile (the last one out second). Each seat counts for its player as
the ratings know it: "key:<hex>" for an identified person, "bot:<strategy>" for a server
bot, nobody for a guest (its seat is left out, and the others are ranked among themselves).
A player with several seats in one game (three server bots of one strategy) moves by the
mean of what each seat's result would move it. A game with fewer than two rated players
changes nothing.

The leaderboard orders players by their ordinal, mu - 3 sigma: what the model is fairly sure
a player is at least, so a newcomer with one lucky win does not top it.

Pure: no SQL, no trio. The store calls `rate` inside the transaction that records a game's
result, so a rating never moves without the result that moved it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from openskill.models import PlackettLuce

#: The model, with openskill's defaults (mu 25, sigma 25/3).
MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating and record on one server."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        """What the leaderboard sorts by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def finishing_order(winner: int, out: Sequence[int]) -> list[int]:
    """Seats from first to last: the winner, then the exiled, last out first."""
    return [winner, *reversed(out)]


def rate(ratings: dict[str, Rating], players: Sequence[str | None], winner: int,
         out: Sequence[int]) -> dict[str, Rating]:
    """The new ratings of the players of one finished game (`players[seat]`, None for a
    guest), from their current `ratings` (absent: a newcomer)."""
    order = [seat for seat in finishing_order(winner, out) if players[seat] is not None]
    if len({players[seat] for seat in order}) < 2:
        return {}
    before = {p: ratings.get(p, Rating()) for p in {players[s] for s in order}}
    teams = [[MODEL.rating(mu=before[players[s]].mu, sigma=before[players[s]].sigma)]
             for s in order]
    moved = MODEL.rate(teams, ranks=list(range(1, len(order) + 1)))
    seats_of: dict[str, list[int]] = {}
    for place, seat in enumerate(order):
        seats_of.setdefault(players[seat], []).append(place)
    after = {}
    for player, places in seats_of.items():
        old = before[player]
        mu = sum(moved[i][0].mu for i in places) / len(places)
        sigma = sum(moved[i][0].sigma for i in places) / len(places)
        after[player] = Rating(mu, sigma, old.games + 1, old.wins + (players[winner] == player))
    return after
