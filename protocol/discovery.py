"""What a server says about itself on the LAN, and how a client reads it back: the DNS-SD
service type and the TXT properties of an announcement (docs/SERVER.md, "LAN discovery").

Both sides share this module so that they agree on the words; it sends nothing and knows
nothing of zeroconf. `enabled` is the one switch that keeps every announcement and every
search off (COUP_DISCOVERY=off): the test suite sets it, so that no test multicasts on the
machine's real network unless it makes a network of its own.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .messages import VERSIONS
from .text import shown

#: The DNS-SD service type of a Coup server.
SERVICE_TYPE = "_coup._tcp.local."
#: The environment variable that turns discovery off when it says "off".
SWITCH = "COUP_DISCOVERY"
#: The longest server name a TXT property carries, in characters (a property holds 255 bytes).
NAME_CHARS = 60


def enabled() -> bool:
    """Whether this process may announce or search by mDNS (COUP_DISCOVERY is not "off")."""
    return os.environ.get(SWITCH, "").strip().lower() != "off"


@dataclass(frozen=True, slots=True)
class Announcement:
    """What a server's TXT record says: its name, the protocol versions it speaks, and how
    many tables are open and players connected there."""

    name: str
    tables: int
    players: int
    versions: tuple[int, ...] = VERSIONS

    def properties(self) -> dict[str, str]:
        return {"name": self.name[:NAME_CHARS], "versions": ",".join(map(str, self.versions)),
                "tables": str(self.tables), "players": str(self.players)}

    @classmethod
    def read(cls, properties: dict[bytes, bytes | None]) -> Announcement | None:
        """The announcement in a TXT record's properties; None if they are not one. Anyone
        on the network may announce: the name is cut to NAME_CHARS and made safe for a
        terminal (text.shown)."""
        try:
            text = {key.decode(): (value or b"").decode() for key, value in properties.items()}
            return cls(name=shown(text["name"][:NAME_CHARS]), tables=int(text["tables"]),
                       players=int(text["players"]),
                       versions=tuple(int(v) for v in text["versions"].split(",")))
        except (KeyError, ValueError, UnicodeDecodeError):
            return None
