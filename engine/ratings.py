"""Ratings: openskill's Plackett-Luce model over the finishing order of one game.

The one rating function of the project: the server rates its rated games with it
(server/ratings.py decides which games count and who each seat is) and `coup arena
--tournament` rates its entrants with it, so a rating means the same thing in both. The
finishing order puts the winner first, then the others in the reverse order of their
departure (the last one out second). A player with several seats in one game moves by the
mean of what each seat's result would move it. A game with fewer than two rated players
changes nothing.

The leaderboard orders players by their ordinal, mu - 3 sigma: what the model is fairly sure
a player is at least, so a newcomer with one lucky win does not top it.

Pure: no I/O, no clock; it must never decide which games count, which is its callers' rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: The model, with openskill's defaults (mu 25, sigma 25/3).
MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating and record."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        """What the leaderboard sorts by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def finishing_order(winner: int, out: Sequence[int]) -> list[int]:
    """Seats from first to last as a record's result gives them: the winner, then the
    exiled, last out first (the order of a game no one left)."""
    return [winner, *reversed(out)]


def rate(ratings: dict[str, Rating], players: Sequence[str | None], order: Sequence[int],
         winner: int | None, places: Sequence[int] | None = None) -> dict[str, Rating]:
    """The new ratings of the players of one finished game (`players[seat]`, None for a
    guest) from their current `ratings` (absent: a newcomer), given its finishing `order`
    of seats (first to last) and the seat credited with the win (None: no one). `places`
    gives each seat's place (1 is first; seats that share a place tie), for a game that
    ended without a strict order; without it the order is strict."""
    named = {seat: player for seat in order if (player := players[seat]) is not None}
    order = [seat for seat in order if seat in named]
    if len(set(named.values())) < 2:
        return {}
    before = {p: ratings.get(p, Rating()) for p in set(named.values())}
    teams = [[MODEL.rating(mu=before[named[s]].mu, sigma=before[named[s]].sigma)]
             for s in order]
    ranks = [float(places[s] if places else i) for i, s in enumerate(order, 1)]
    moved = MODEL.rate(teams, ranks=ranks)
    seats_of: dict[str, list[int]] = {}
    for place, seat in enumerate(order):
        seats_of.setdefault(named[seat], []).append(place)
    after = {}
    for player, at in seats_of.items():
        old = before[player]
        mu = sum(moved[i][0].mu for i in at) / len(at)
        sigma = sum(moved[i][0].sigma for i in at) / len(at)
        won = winner is not None and players[winner] == player
        after[player] = Rating(mu, sigma, old.games + 1, old.wins + won)
    return after
