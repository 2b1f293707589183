"""The client core: the client side of the protocol, written once for every front end.

`machine.Core` takes the server's messages and the player's intents (intents.py) and
returns typed events (events.py); `table.TableState` is what it knows of its table;
`aims` says whom an action may name and why not the others; `policy` says when to connect
again after a drop. The terminal app, plain mode and the bot
runner only render its events and forward intents; client/transport.py drives it over a
connection. Nothing in this package imports trio, asyncio, Textual or a front end, or
touches a socket or a clock.
"""

from __future__ import annotations

from .machine import ACTS, OVER, TABLE_GONE, Comeback, Core
from .table import Arrival, Pending, TableState

__all__ = ["ACTS", "OVER", "TABLE_GONE", "Arrival", "Comeback", "Core", "Pending", "TableState"]
