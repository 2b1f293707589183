"""Table options: one immutable, validated object that fixes how a game is played.

Options are checked once, when made; a game never sees invalid options. Clocks, bots and
other server matters are not here: this is only what the rules need.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .cards import VARIANTS
from .errors import OptionsError

MIN_PLAYERS = 2
MAX_PLAYERS = 10


@dataclass(frozen=True, slots=True)
class Options:
    """How a game is played.

    players: seats at the table, 2 to 10 (R1.1, R1.2).
    variant: "base", or "inquisitor" for the Inquisitor in place of the Ambassador (R1.3).
    two_player_draft: with exactly 2 players, deal by the seed's draft (R1.7); ignored otherwise.
    treasury: coins in the game in all, dealt coins included (R1.5).
    first_seat: who starts (R1.6); None draws it at random from the seed.
    reformation: play the Reformation expansion (R12): factions, the Almshouse, Conversion
    and Embezzlement. Written by to_dict only when on, so a table without it has the data
    it had before the expansion, and data without it reads as off (R12.1).
    """

    players: int = 4
    variant: str = "base"
    two_player_draft: bool = True
    treasury: int = 50
    first_seat: int | None = None
    reformation: bool = False

    def __post_init__(self) -> None:
        if type(self.players) is not int or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise OptionsError(
                f"A table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players!r}."
            )
        if self.variant not in VARIANTS:
            raise OptionsError(
                f"The variant must be one of {', '.join(VARIANTS)}, not {self.variant!r}."
            )
        if type(self.two_player_draft) is not bool:
            raise OptionsError("two_player_draft must be true or false.")
        if type(self.treasury) is not int or not 2 * self.players <= self.treasury <= 1000:
            raise OptionsError(
                f"The treasury must hold between {2 * self.players} (two coins a player) "
                f"and 1000 coins, not {self.treasury!r}."
            )
        if self.first_seat is not None and (
            type(self.first_seat) is not int or not 0 <= self.first_seat < self.players
        ):
            raise OptionsError(
                f"The first seat must be a seat from 0 to {self.players - 1}, "
                f"not {self.first_seat!r}."
            )
        if type(self.reformation) is not bool:
            raise OptionsError("reformation must be true or false.")

    @property
    def draft(self) -> bool:
        """Whether this game deals by the two-player draft (R1.7)."""
        return self.players == 2 and self.two_player_draft

    def to_dict(self) -> dict[str, Any]:
        """The options as plain data, for the wire and for records."""
        data: dict[str, Any] = {
            "players": self.players,
            "variant": self.variant,
            "two_player_draft": self.two_player_draft,
            "treasury": self.treasury,
            "first_seat": self.first_seat,
        }
        if self.reformation:
            data["reformation"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Options:
        """Options from plain data; unknown keys and bad values raise OptionsError."""
        if not isinstance(data, dict):
            raise OptionsError("Table options must be a map.")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise OptionsError(f"Unknown table option(s): {', '.join(unknown)}.")
        return cls(**data)
