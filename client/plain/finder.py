"""Plain mode's way to a server when `coup join` is given no address: the servers that
announce themselves on this network (client.discovery), a numbered line each as it is heard
of, and the typed line, a number or an address, that chooses where to go.

A number, once given, stays its server's: a server gone is said, and its number is never
given to another, so a number read a minute ago still means what it meant. A server's
changing counts are not printed as they change (they would flood a screen reader every few
seconds); `list` says them as they are now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import trio

from protocol.text import whole_number

from ..discovery import Found
from ..i18n import _
from ..net import LinkError, parse_address
from .text import command_names


class Browsing(Protocol):
    """A search for servers under way (discovery.Browser): `close` ends it."""

    def close(self) -> None: ...

#: The largest number a typed line names a server by: a larger one is no server's.
MOST_SERVERS = 9999


class Finder:
    """Finds where to connect. `discover` starts a browser (client.discovery.Browser's
    signature), None when discovery is off; `say` prints a line."""

    def __init__(self, say: Callable[[str], None],
                 discover: Callable[[Callable[[str, Found | None], object]], Browsing] | None
                 ) -> None:
        self.say = say
        self.discover = discover
        self.browsing = False
        #: Every server heard of, the last word of each, in the order of their numbers;
        #: and those on the network now.
        self.heard: dict[str, Found] = {}
        self.present: set[str] = set()
        self.where: tuple[str, int] | None = None
        self._chosen = trio.Event()

    async def run(self) -> tuple[str, int]:
        """Look until the player chooses (`typed`); returns the host and port chosen."""
        browser = None
        if self.discover is not None:
            token = trio.lowlevel.current_trio_token()

            def heard(key: str, found: Found | None) -> None:  # in the browser's thread
                try:
                    trio.from_thread.run_sync(self._heard, key, found, trio_token=token)
                except trio.RunFinishedError:
                    pass

            try:
                browser = self.discover(heard)
            except OSError as exc:
                self.say(_("Cannot look for servers on this network: {reason}").format(
                    reason=exc))
        self.browsing = browser is not None
        self.say(self._how())
        try:
            await self._chosen.wait()
        finally:
            if browser is not None:
                with trio.CancelScope(shield=True):  # it waits for the browser's threads
                    await trio.to_thread.run_sync(browser.close)
        assert self.where is not None  # chosen with it
        return self.where

    def _how(self) -> str:
        if self.browsing:
            return _("Looking for servers on this network: type a server's number to join "
                     "it, or its address (host or host:port).")
        return _("Type the address of the server to join (host or host:port).")

    def _heard(self, key: str, found: Found | None) -> None:
        if self._chosen.is_set():
            return
        if found is None:
            if key in self.present:
                self.present.discard(key)
                self.say(self._gone(key))
            return
        self.heard[key] = found
        if key not in self.present:
            self.present.add(key)
            self.say(self._line(key))

    def _number(self, key: str) -> int:
        return list(self.heard).index(key) + 1

    def _line(self, key: str) -> str:
        return f"{self._number(key)}: " + ", ".join(self.heard[key].said())

    def _gone(self, key: str) -> str:
        return _("{number}: {name} is gone.").format(number=self._number(key),
                                                     name=self.heard[key].name)

    def typed(self, line: str, command: str | None) -> None:
        """A line the player typed (`command`: the command it names, if any)."""
        words = command_names()
        if command == "list":
            if not self.browsing:
                self.say(_("Looking for servers on this network is off (COUP_DISCOVERY=off).")
                         if self.discover is None else self._how())
            for key in self.heard:
                if key in self.present:
                    self.say(self._line(key))
            if self.browsing and not self.present:
                self.say(_("Looking for servers…"))
        elif command == "help":
            self.say(self._how())
            self.say(_("{list}: the servers found; {quit}: quit").format(
                list=words["list"], quit=words["quit"]))
        elif (number := whole_number(line, MOST_SERVERS)) is not None:
            keys = list(self.heard)
            if not 1 <= number <= len(keys):
                self.say(_("There is no server {number}.").format(number=number))
            elif (key := keys[number - 1]) not in self.present:
                self.say(self._gone(key))
            else:
                found = self.heard[key]
                self.say(_("Joining {name} at {address}…").format(name=found.name,
                                                                 address=found.where))
                self._choose((found.address, found.port))
        else:
            try:
                self._choose(parse_address(line))
            except LinkError:
                self.say(_("That is not an address: write host or host:port."))

    def _choose(self, where: tuple[str, int]) -> None:
        self.where = where
        self._chosen.set()
