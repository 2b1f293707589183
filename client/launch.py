"""How the app starts: at the menu, at a practice table against bots, in a server's lobby, or
on a finished game's replay.

`coup`, `coup play`, `coup join` and `coup replay` each make one `Launch`; the menu's forms
make them too.
"""

from __future__ import annotations

import getpass
from dataclasses import dataclass

from engine.bots.levels import DEFAULT_LEVEL
from protocol import DEFAULT_PORT
from protocol.text import name_or_none
from server import ServerConfig, default_path

from .i18n import _
from .identity import NAME_LENGTH, Credential, DoorAddress

_SERVER = ServerConfig()

#: The clocks a practice table can keep, by name: (seconds to answer, seconds for a turn), 0
#: for no clock. "relaxed" gives three times the server's clocks: enough for someone new to
#: read the claim, open the rules card and still decide, while a table left alone moves on.
CLOCKS: dict[str, tuple[int, int]] = {
    "relaxed": (60, 180),
    "off": (0, 0),
    "server": (_SERVER.response_clock, _SERVER.turn_clock),
}


@dataclass
class Launch:
    """How the app starts. mode: "menu", "play" (against bots), "join" (a server's lobby),
    "find" (the join form, listing the servers on the LAN) or "replay" (a finished game's
    record, shown until the replay closes)."""

    mode: str = "menu"
    name: str | None = None
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    bots: int = 3
    #: The bots' difficulty level, or a strategy's name (both are a table's `bots` option).
    strategy: str = DEFAULT_LEVEL
    variant: str = "base"
    #: The Reformation expansion at the practice table (R12.1), with either variant.
    reformation: bool = False
    seed: int | None = None
    #: Seconds a bot seat waits before it moves (the embedded server's setting).
    bot_delay: float = 0.6
    #: Seconds for answers and turns at the practice table (0: no clock); see CLOCKS.
    response_clock: int = CLOCKS["relaxed"][0]
    turn_clock: int = CLOCKS["relaxed"][1]
    #: Ring the terminal's bell when a decision becomes yours (`--no-bell`: never).
    bell: bool = True
    #: The record a "replay" launch shows, and the seat whose view it starts with (None:
    #: every card face up).
    record: dict | None = None
    view_as: int | None = None
    #: The app is the lobby of this one server and nothing else (`coup join --lobby-only`,
    #: as the SSH and browser doors start it): no menu, so no game of its own, no other
    #: server; leaving the lobby, or losing it, ends the app.
    lobby_only: bool = False
    #: Who the player is on servers (client/identity.py: a key, or the SSH door's word);
    #: None: a guest everywhere.
    identity: Credential | None = None
    #: Where the player is, in the word of the door that started this client (None: not a
    #: door's client); said to the server it joins.
    via: DoorAddress | None = None
    #: A first run (no name kept beside the key, none given): the app asks the player's
    #: name before the first table or lobby, offering `name`, and keeps the answer.
    ask_name: bool = False
    #: A "play" launch from a position file (`coup position`): every game starts from it,
    #: and none is kept.
    position: str | None = None


def practice_server(launch: Launch) -> ServerConfig:
    """The server `coup play` starts in the client: on loopback, dealing from the launch's
    seed (or from its position: then no game is kept), its bots pausing as the launch says,
    its games kept with the player's own, for good (a guest's among them: they are the
    player's history, not a public server's load)."""
    return ServerConfig(host="127.0.0.1", port=0, seed=launch.seed, bot_delay=launch.bot_delay,
                        db=None if launch.position else default_path("play"),
                        forget_tables=True, position=launch.position, keep_guest_games=0)


def practice_table(launch: Launch) -> dict:
    """The options of the private table `coup play` creates: the player and the bots."""
    options = {
        "seats": launch.bots + 1, "variant": launch.variant, "bots": launch.strategy,
        "name": _("Practice"), "private": True,
        # On the table, not the server: the practice server outlives one launch.
        "response_clock": launch.response_clock, "turn_clock": launch.turn_clock,
    }
    if launch.reformation:  # asked only when on, as the table's options write it (R12.1)
        options["reformation"] = True
    return options


#: Login names that name an account's role, not a person: no one wants "root (you)".
ROLE_ACCOUNTS = frozenset({"root", "admin", "administrator", "user", "ubuntu", "pi"})


def default_name() -> str:
    """The name offered when the player kept none: their login name, unless it is a role's."""
    try:
        # From the environment (LOGNAME, USER): held to the server's rule for names.
        login = name_or_none(getpass.getuser()[:NAME_LENGTH])
    except Exception:  # noqa: BLE001 — no user name on this system
        return "player"
    return login if login and login.casefold() not in ROLE_ACCOUNTS else "player"
