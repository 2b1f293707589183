"""The trio game server: lobbies, tables with clocks and bots, reconnects, limits.

The one public entry point is `serve(config)` (or a `Server` for those who need to stop it
cleanly); `coup serve` runs it from the command line with `main`. The client also reads the
records a store keeps on this computer (`Store`, at `default_path`, failing with
`StoreError`) for `coup export`, `coup replay` and its list of recent games, and the browser
door (client/web.py) vouches for its players' addresses with the door secret (`load_secret`,
`vouch_address`); both doors start their sessions from the session host (`SessionHost`,
whose process, client/host.py, reads the door's `Order`s). Every other module here is the
server's own: the import contracts in pyproject.toml keep the client out.
"""

from .app import Server, serve
from .cli import main
from .config import ServerConfig
from .doorkey import DoorKeyError, default_secret_path, load_secret, sharer, vouch_address
from .hosting import (ORDER_BYTES, OUT_OF_MEMORY, READY, SESSION_MEMORY_MB, Hosted,
                      HostUnavailable, Order, SessionHost, add_host_arguments,
                      out_of_memory)
from .store import Store, StoreError, default_path

__all__ = ["ORDER_BYTES", "OUT_OF_MEMORY", "READY", "SESSION_MEMORY_MB", "DoorKeyError",
           "HostUnavailable", "Hosted", "Order", "Server", "ServerConfig", "SessionHost", "Store",
           "StoreError", "add_host_arguments", "default_path", "default_secret_path",
           "load_secret", "main", "out_of_memory", "serve", "sharer", "vouch_address"]
