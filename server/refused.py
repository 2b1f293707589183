"""The error a request is turned down with: a lobby error code and a sentence for people.

Raised by the table, the lobby and the parts they ask (options, history, identities), and
answered to the sender as an `error` with that code. This module holds the exception, and
the one refusal that several of them make alike (`too_old`); it decides nothing.
"""

from __future__ import annotations

from protocol import REFORMATION_VERSION


class Refused(Exception):
    """A request turned down, with its lobby error code (`code`) and why (`message`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def too_old(version: int) -> Refused:
    """The refusal of a Reformation table (or its game's record) to a session that agreed
    on protocol `version`, older than REFORMATION_VERSION."""
    return Refused("needs_version", f"Reformation tables need protocol version "
                   f"{REFORMATION_VERSION}; your client speaks version {version}: update it "
                   "to play or watch them.")
