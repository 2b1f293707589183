"""Who is who on this server: its id, the checks of `identify`, and the name each key holds.

A client proves it holds an Ed25519 key by signing the nonce its connection's welcome gave,
together with this server's id (protocol.Identify.signed): a signature made for another
connection or another server proves nothing here. A client the SSH door started proves the
door vouched for its identity the same way, with an HMAC under the door's proof
(server/doorkey.py), and a client any door started proves where its player is (`via`).
A key is taken in one form only, lower-case hex, and a key that no
signature can vouch for (server/publickey.py) is refused. A verified key is a player ("key:<hex>");
the first key to use a name holds it on this server for good, and comes back to it: no
other key may take it nor a name a reader would take for it (server/names.py), and no key
may take a guest's or a bot's name. The
names are held in memory, loaded from the store at startup, and every new one is written
there; a server without a store knows its identities for as long as it runs.

It verifies and remembers; it never sends anything, and never keeps a secret key (it never
sees one).
"""

from __future__ import annotations

import ipaddress
import re
import secrets
import time

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from protocol import Identify, Via

from . import doorkey, publickey
from .changes import IdentitySeen
from .names import name_key, reserved
from .refused import Refused
from .store import Store


#: The one form of a key: its 32 bytes as lower-case hex.
_LOWER_HEX = re.compile(r"[0-9a-f]{64}")


def player_id(key: str) -> str:
    """The player an identity is, as seats, the store and ratings know it."""
    return f"key:{key}"


class Identities:
    """The server's id and its identities' names (see the module docstring)."""

    def __init__(self, store: Store | None, door_secret: bytes | None = None) -> None:
        #: 16 random bytes as hex: kept in the store, so the same server across restarts.
        self.server_id = store.server_id() if store else secrets.token_hex(16)
        #: The secret shared with the SSH door (server/doorkey.py); None: no door's word.
        self._door_secret = door_secret
        self._names: dict[str, str] = {}  # name_key(name) -> key
        self._keys: dict[str, str] = {}  # key -> name
        for key, name in store.identities() if store else ():
            self._hold(key, name)

    def _hold(self, key: str, name: str) -> None:
        self._names.setdefault(name_key(name), key)  # two names kept from before: the first
        self._keys[key] = name

    def holder(self, name: str) -> str | None:
        """The key that holds `name`, or a name a reader would take for it, if one does."""
        return self._names.get(name_key(name))

    def known(self, key: str) -> bool:
        """Whether `key` is an identity here already (it has its name)."""
        return key in self._keys

    def verify(self, msg: Identify, nonce: str, spend) -> None:
        """Refused (with its code) unless `msg` signs `nonce`, this connection's, for this
        server with its key. `spend()` uses the nonce up, False if it was already: one try
        per connection, so a signature cannot be fished for."""
        if msg.nonce != nonce:
            raise Refused("bad_nonce", "That nonce is not this connection's.")
        if msg.server_id != self.server_id:
            raise Refused("wrong_server", "That server id is not this server's.")
        if not spend():
            raise Refused("nonce_used", "This connection has identified already.")
        if not _LOWER_HEX.fullmatch(msg.key):
            # One key, one identity: the same bytes in upper case were a second player.
            raise Refused("bad_key", "A key is sent as 64 lower-case hex digits.")
        if msg.door is not None:
            if self._door_secret is None:
                raise Refused("no_door", "This server takes no door's word for an identity.")
            if not doorkey.check(self._door_secret, msg):
                raise Refused("bad_signature", "The door's proof does not verify for that "
                              "identity.")
            return
        refused = publickey.refusal(bytes.fromhex(msg.key))
        if refused is not None:
            raise Refused("bad_key", refused)
        try:
            Ed25519PublicKey.from_public_bytes(bytes.fromhex(msg.key)).verify(
                bytes.fromhex(msg.signature), Identify.signed(msg.server_id, msg.nonce))
        except (ValueError, InvalidSignature):
            raise Refused("bad_signature", "The signature does not verify with that key.") \
                from None

    def verify_via(self, msg: Via, nonce: str) -> str:
        """The address a door vouches `msg`'s connection (of `nonce`) comes from, in its
        canonical form; Refused (with its code) unless the door's HMAC is good for it, this
        connection and this server. The nonce is not spent: a door's client sends `via` and
        then `identify`, and a via again says nothing new."""
        if msg.nonce != nonce:
            raise Refused("bad_nonce", "That nonce is not this connection's.")
        if msg.server_id != self.server_id:
            raise Refused("wrong_server", "That server id is not this server's.")
        if self._door_secret is None:
            raise Refused("no_door", "This server takes no door's word for an address.")
        if not doorkey.check_via(self._door_secret, msg):
            raise Refused("bad_signature", "The door's proof does not verify for that "
                          "address.")
        try:
            return str(ipaddress.ip_address(msg.address))
        except ValueError:
            raise Refused("bad_message", "That address is no IP address.") from None

    def bind(self, key: str, asked: str | None, name: str) -> tuple[str, IdentitySeen]:
        """The name of identity `key` here, and the store's change that records its visit.
        A known key has its own name; a new one takes `name` (the one its session was
        given for `asked`) and holds it from now on, unless another key holds `asked` (or
        a lookalike): Refused name_taken; or `asked` (or `name`) is a guest's or a bot's:
        Refused name_reserved."""
        now = time.time()
        own = self._keys.get(key)
        if own is None:
            holder = self.holder(asked or name)
            if holder is not None and holder != key:
                raise Refused("name_taken", f"The name {asked or name} belongs to another "
                              "player on this server (or one that looks the same).")
            why = reserved(asked or name)
            if why is not None:
                raise Refused("name_reserved", f"{why} Choose another name.")
            own = name
            self._hold(key, own)
        return own, IdentitySeen(key=key, name=own, first_seen=now, last_seen=now)
