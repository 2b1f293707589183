"""LAN discovery, the server's side: announce the server by mDNS/DNS-SD while it serves.

Only when asked (`coup serve --announce`, or the "Announce on this network" box of the
client's "Host a LAN game"): mDNS is plain multicast on the local network, heard by every
machine there. The announcement (protocol/discovery.py) names the server, the protocol
versions it speaks, and how many tables are open and players connected; those counts are
looked at every REFRESH seconds and announced again when they changed. When the server stops,
it says goodbye, so browsers drop it at once.

The addresses announced are those the server listens on: for 0.0.0.0, every IPv4 address of
the machine but loopback; for one IPv4 address, that one. A server on loopback (or on IPv6
alone) is not announced: no other machine could reach it, so `addresses` refuses it with a
sentence, which `coup serve --announce` prints before it starts.

zeroconf runs its own thread and asyncio loop; every call to it that waits is made here in a
worker thread, so the trio loop never waits for the network. A failure to announce is logged
and the server plays on unannounced. This module must never announce on its own account.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable
from functools import partial

import ifaddr
import trio
from zeroconf import Error as ZeroconfError, ServiceInfo, Zeroconf

from protocol.discovery import SERVICE_TYPE, Announcement, enabled

from . import log

#: Seconds between two looks at the counts: an announcement changes at most this often.
REFRESH = 2.0


def addresses(host: str) -> list[str]:
    """The IPv4 addresses to announce a server listening on `host` at; ValueError, with a
    sentence, when no other machine could reach it there."""
    if host == "0.0.0.0":
        found = sorted({ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
                        # IPv4 only: ifaddr gives an IPv6 address as a tuple
                        if isinstance(ip.ip, str)
                        and not ipaddress.ip_address(ip.ip).is_loopback})
        if not found:
            raise ValueError("this machine has no network address but loopback")
        return found
    try:
        ip = ipaddress.ip_address(socket.gethostbyname(host))
    except (OSError, UnicodeError):
        raise ValueError(f"{host} is not an IPv4 address of this machine") from None
    if ip.is_loopback:
        raise ValueError(f"{host} is this machine only, and no other machine could join it: "
                         "serve on 0.0.0.0 or on this machine's address on the network")
    return [str(ip)]


def _label(text: str) -> str:
    """`text` as one DNS label of letters, digits and hyphens."""
    return re.sub(r"[^A-Za-z0-9-]+", "-", text).strip("-")[:40] or "coup"


def _info(service: str, host: str, port: int, ips: list[str],
          now: Announcement) -> ServiceInfo:
    return ServiceInfo(SERVICE_TYPE, service, port=port, properties=now.properties(),
                       server=f"{host}.local.", parsed_addresses=ips)


async def run(name: str, address: tuple[str, int],
              counts: Callable[[], tuple[int, int]]) -> None:
    """Announce the server `name` listening at `address` until cancelled, then say goodbye;
    `counts()` says how many (tables, players) it has now. Logs why if it cannot."""
    if not enabled():
        log.warning("not_announced", reason="COUP_DISCOVERY is off")
        return
    try:
        ips = await trio.to_thread.run_sync(addresses, address[0])
        zeroconf = await trio.to_thread.run_sync(
            partial(Zeroconf, interfaces=ips, use_asyncio=False))
    except (ValueError, OSError, ZeroconfError) as exc:
        log.error("not_announced", reason=str(exc) or repr(exc))
        return
    try:
        await _announce(zeroconf, name, address[1], ips, counts)
    except (OSError, ZeroconfError) as exc:
        log.error("not_announced", reason=str(exc) or repr(exc))
    finally:
        with trio.CancelScope(shield=True):  # the goodbye is sent even as the server stops
            await trio.to_thread.run_sync(zeroconf.close)


async def _announce(zeroconf: Zeroconf, name: str, port: int, ips: list[str],
                    counts: Callable[[], tuple[int, int]]) -> None:
    machine = _label(socket.gethostname())
    host = f"{machine}-coup-{port}"
    shown = counts()
    info = _info(f"Coup on {machine} {port}.{SERVICE_TYPE}", host, port, ips,
                 Announcement(name, *shown))
    # Another server of the same name on the network makes this one "... (2)".
    await trio.to_thread.run_sync(partial(zeroconf.register_service, info,
                                          allow_name_change=True))
    log.info("announced", service=info.name, addresses=",".join(ips), port=port)
    while True:
        await trio.sleep(REFRESH)
        now = counts()
        if now != shown:
            shown = now
            info = _info(info.name, host, port, ips, Announcement(name, *now))
            await trio.to_thread.run_sync(zeroconf.update_service, info)
