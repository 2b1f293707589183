"""The server's settings: every limit with its default, in one immutable object.

`coup serve` makes one from its flags; tests and the embedded server of `coup play` make
their own. Nothing here does anything: it only says how much is allowed and how long to wait.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 7654
    name: str = "coup-server/0.1"
    #: Largest frame a client may send (bytes).
    max_frame: int = 64 * 1024
    #: Seconds a new connection has to send hello.
    handshake_timeout: float = 5.0
    #: Seconds of silence before the server pings; silence for twice that ends the connection.
    ping_interval: float = 15.0
    #: Messages a connection may send per second on average, and in one burst.
    rate: float = 20.0
    burst: int = 40
    #: Chat messages a connection may send per minute.
    chat_per_minute: int = 20
    #: Connections in total, and from one address.
    max_connections: int = 4096
    max_per_address: int = 2048
    #: Messages waiting to be written to one client; a client that lets more pile up is
    #: disconnected (slow_consumer) so that its table never waits for it.
    outbox: int = 256
    #: Tables at once.
    max_tables: int = 2000
    #: Seconds a disconnected player keeps the seat.
    grace: float = 120.0
    #: Seconds a bot seat waits before it moves (so people can follow); 0 in tests.
    bot_delay: float = 0.6
    #: Clocks a table gets when create_table does not say (seconds; 0 = no clock).
    response_clock: int = 20
    turn_clock: int = 60
    #: Log lines as JSON objects.
    log_json: bool = False
