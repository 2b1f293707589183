"""When a client connects again after a drop, and whether it does at all: the reconnect
policy every front end shares (the terminal app, plain mode, the bot runner).

Sans-I/O: nothing here sleeps or reads a clock. The caller passes the present (its own
monotonic clock, in seconds) and does the waiting; the back-off only says how long.
It must never import trio, Textual or a socket.
"""

from __future__ import annotations

import random
from collections.abc import Callable

#: Goodbyes after which reconnecting is no use: the server is going away (and its seats with
#: it), or the seat was taken up by a newer connection with the same token, or we are banned.
FINAL_GOODBYES = frozenset({"server_shutdown", "replaced", "banned"})
#: The goodbye of a server that stops to start again at once: worth coming back to even
#: without a seat (its lobby is there again).
RESTART = "server_restart"
#: Seconds between tries to connect again: the first pause's ceiling, doubled after each
#: try up to the last. Each pause is drawn between 0 and its ceiling (full jitter), so that
#: the clients of a server that dropped them all do not all come back at once.
FIRST_PAUSE, LAST_PAUSE = 0.5, 30.0
#: Seconds a connection must have stayed up for the pauses to start again from the first:
#: a server that drops every connection at once (or sends a bad frame on each) sees the
#: pauses grow, not a client trying thousands of times a minute.
STEADY = 30.0
#: Seconds a player's client keeps trying to get its seat back (the server's default grace).
RECONNECT_FOR = 120.0


class Backoff:
    """When to try to connect again: exponential back-off with full jitter, started again
    after a connection that stayed up STEADY seconds. One per client session, handed to
    every reopen it makes."""

    def __init__(self, rng: Callable[[], float] = random.random) -> None:
        #: Draws a number in [0, 1): the jitter (a test gives its own).
        self.rng = rng
        self.tries = 0
        self._up_since: float | None = None

    def pause(self) -> float:
        """Seconds to wait before the next try; each ceiling is twice the last's."""
        ceiling = min(LAST_PAUSE, FIRST_PAUSE * 2.0 ** min(self.tries, 16))
        self.tries += 1
        return self.rng() * ceiling

    def connected(self, now: float) -> None:
        """A connection is up since `now`."""
        self._up_since = now

    def dropped(self, now: float) -> None:
        """The connection made last is gone at `now`: if it lasted, the pauses start again."""
        if self._up_since is not None and now - self._up_since >= STEADY:
            self.tries = 0
        self._up_since = None


def worth_coming_back(said: str | None, seated: bool, queued: bool) -> bool:
    """Whether to reconnect after a drop: never after a final goodbye (`said`, the reason of
    the server's bye, if it said one); else for a seat held (its token takes it back), for
    a place in the quick-play queue when the session wants it kept, or for a restarting
    server's lobby."""
    if said in FINAL_GOODBYES:
        return False
    return seated or queued or said == RESTART
