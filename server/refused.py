"""The error a request is turned down with: a lobby error code and a sentence for people.

Raised by the table, the lobby and the parts they ask (options, history, identities), and
answered to the sender as an `error` with that code. This module holds the exception only.
"""

from __future__ import annotations


class Refused(Exception):
    """A request turned down, with its lobby error code (`code`) and why (`message`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
