"""LAN discovery, the client's side: find the Coup servers that announce themselves on the
local network by mDNS/DNS-SD, as they come, change and go.

A `Browser` asks the network and listens until it is closed, in zeroconf's own threads; it
tells its `changed` callback, from one of those threads, about each server found or updated
(a `Found`) and each one gone (None). It sends mDNS queries on every IPv4 interface, which is
why nothing here runs while discovery is off: COUP_DISCOVERY=off (`enabled`), as the test
suite sets for every test but those that make a network of their own. zeroconf is loaded by
the first Browser, not with the client: a client that never looks starts without it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from protocol.discovery import SERVICE_TYPE, Announcement, enabled

from .i18n import ngettext

__all__ = ["Browser", "Found", "enabled"]

#: Milliseconds to wait for a server's details once it has been heard of.
DETAILS_WAIT = 3000


@dataclass(frozen=True, slots=True)
class Found:
    """A server on the LAN. `key` is its service's name on the network, unique there."""

    key: str
    name: str
    address: str
    port: int
    tables: int
    players: int

    @property
    def where(self) -> str:
        """Its address as `coup join` takes it."""
        return f"{self.address}:{self.port}"

    def said(self) -> list[str]:
        """What a list of servers says of it: name, address, tables, players."""
        return [self.name, self.where,
                ngettext("{n} table", "{n} tables", self.tables).format(n=self.tables),
                ngettext("{n} player", "{n} players", self.players).format(n=self.players)]


class Browser:
    """Looks for servers until `close` (which waits for zeroconf's threads: call it from a
    thread that may wait); OSError if it cannot. `changed(key, found)` hears of each change,
    found None when the server `key` is gone."""

    def __init__(self, changed: Callable[[str, Found | None], object]) -> None:
        if not enabled():
            raise RuntimeError("LAN discovery is off (COUP_DISCOVERY=off)")
        from zeroconf import Error as ZeroconfError
        from zeroconf import InterfaceChoice, IPVersion, ServiceBrowser, Zeroconf

        self._changed = changed
        self._v4 = IPVersion.V4Only
        try:
            self._zeroconf = Zeroconf(interfaces=InterfaceChoice.All,
                                      ip_version=IPVersion.V4Only, use_asyncio=False)
        except ZeroconfError as exc:  # one kind of failure for callers: the network's
            raise OSError(str(exc) or repr(exc)) from exc
        # zeroconf types its listener as its own class; this one has the three methods it
        # calls, and subclassing would import zeroconf with this module
        self._browser = ServiceBrowser(self._zeroconf, SERVICE_TYPE,
                                       listener=self)  # type: ignore[arg-type]

    def close(self) -> None:
        self._browser.cancel()
        self._zeroconf.close()

    # zeroconf's listener: it calls these in the browser's thread, where waiting is allowed.

    def add_service(self, zc, type_: str, name: str) -> None:
        info = zc.get_service_info(type_, name, timeout=DETAILS_WAIT)
        if info is None or info.port is None:
            return
        said = Announcement.read(info.properties)
        addresses = info.parsed_addresses(self._v4)
        if said is not None and addresses:
            self._changed(name, Found(name, said.name, addresses[0], info.port, said.tables,
                                      said.players))

    update_service = add_service

    def remove_service(self, zc, type_: str, name: str) -> None:
        self._changed(name, None)
