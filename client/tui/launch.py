"""How the app starts: at the menu, at a practice table against bots, or in a server's lobby.

`coup`, `coup play` and `coup join` each make one `Launch`; the menu's forms make them too.
"""

from __future__ import annotations

import getpass
from dataclasses import dataclass

from protocol import DEFAULT_PORT


@dataclass
class Launch:
    """How the app starts. mode: "menu", "play" (against bots) or "join" (a server's lobby)."""

    mode: str = "menu"
    name: str | None = None
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    bots: int = 3
    strategy: str = "heuristic"
    variant: str = "base"
    seed: int | None = None
    #: Seconds a bot seat waits before it moves (the embedded server's setting).
    bot_delay: float = 0.6
    #: Seconds for answers and turns at the embedded table (0: no clock).
    response_clock: int = 20
    turn_clock: int = 60


def default_name() -> str:
    try:
        return getpass.getuser()[:32] or "player"
    except Exception:  # noqa: BLE001 — no user name on this system
        return "player"
