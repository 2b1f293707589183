"""The trio game server: lobbies, tables with clocks and bots, reconnects, limits.

The one public entry point is `serve(config)` (or a `Server` for those who need to stop it
cleanly); `coup serve` runs it from the command line with `main`.
"""

from .app import Server, serve
from .cli import main
from .config import ServerConfig

__all__ = ["Server", "ServerConfig", "main", "serve"]
