"""The player's identity: an Ed25519 key pair, made on first use and kept in a file.

The file is the private key in PEM (PKCS #8, unencrypted), readable and writable by its owner
only (0600; a file others can read is used with a warning, as ssh warns of one): by default
`identity.pem` in the user's config directory, or any file named with `--identity` (one per
bot, say). The public key (hex) is who the player is on every server;
the private key never leaves this module but as signatures: `sign` answers a server's
welcome with a signature bound to that server's id and that connection's nonce, so it opens
no other connection and no other server. The crypto is the `cryptography` package's.

Beside the key is kept the name the player chose on first run (`identity.name` beside
`identity.pem`), offered to every server; a server that knows the key keeps the name it first
played under. Two players on one machine keep apart by profile (`coup --profile NAME`): each
profile is a directory of its own key and name.

A client the SSH door starts has no key file of its own: it is the identity the door vouches
for (`Vouched`), from the environment. A client any door starts is told there, too, where its
player really is (`DoorAddress`), which it says to the server with the door's proof.
"""

from __future__ import annotations

import ipaddress
import os
import stat
from dataclasses import dataclass, field

import platformdirs
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from protocol import Identify, Via
from protocol.messages import NAME
from protocol.text import name_or_none

#: The key file's name in the user's config directory.
FILE_NAME = "identity.pem"
#: The most characters of a kept name (the servers' longest name).
NAME_LENGTH = NAME.max_len
#: The most of a key file that is read: an Ed25519 key in PEM is 119 bytes, and a file
#: without end (/dev/zero) must not be read until memory runs out.
MAX_FILE = 64 * 1024


class IdentityError(Exception):
    """The key file cannot be read, made, or is not a key; the message says why, in one line."""


@dataclass(frozen=True)
class Identity:
    """A key pair: `key` is the public key as hex (who the player is), the secret stays here."""

    path: str
    _secret: Ed25519PrivateKey = field(repr=False)  # never shown, never sent
    #: What the player should know of the file before using it (others can read it), if
    #: anything: the commands print it.
    warning: str | None = None

    @property
    def key(self) -> str:
        return self._secret.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()

    def identify(self, request_id: int, server_id: str, nonce: str) -> Identify:
        """The `identify` answering a welcome that gave `server_id` and `nonce`."""
        signature = self._secret.sign(Identify.signed(server_id, nonce))
        return Identify(id=request_id, key=self.key, nonce=nonce, server_id=server_id,
                        signature=signature.hex())

    @property
    def name_path(self) -> str:
        """The file of the name kept beside the key: the key file's, ending in .name."""
        return os.path.splitext(self.path)[0] + ".name"

    def kept_name(self) -> str | None:
        """The name the player chose for this key, if one was kept (and can be read)."""
        try:
            with open(self.name_path, encoding="utf-8") as file:
                # A line, not the file: a file of any size must not be read whole.
                line = file.readline(4 * NAME_LENGTH).strip()[:NAME_LENGTH]
        except (OSError, UnicodeDecodeError):  # none kept, or none usable: ask again
            return None
        # The file may have been edited: a name a terminal would obey is none (asked again).
        return name_or_none(line)

    def keep_name(self, name: str) -> None:
        """Keep `name` beside the key for the runs to come; IdentityError if it cannot be
        written."""
        try:
            with open(self.name_path, "w", encoding="utf-8") as file:
                file.write(name.strip()[:NAME_LENGTH] + "\n")
        except OSError as exc:
            raise IdentityError(f"cannot keep the name in {self.name_path}: "
                                f"{exc.strerror or exc}") from None


@dataclass(frozen=True)
class Vouched:
    """An identity the SSH door vouches for: the door authenticated the player's SSH key and
    started this client with the identity's `key` and a `proof` that only the door and the
    server can make (server/doorkey.py), given in the environment as DOOR_VARIABLE."""

    key: str
    _proof: str = field(repr=False)  # never shown, never sent

    def identify(self, request_id: int, server_id: str, nonce: str) -> Identify:
        """The `identify` answering a welcome that gave `server_id` and `nonce`."""
        return Identify(id=request_id, key=self.key, nonce=nonce, server_id=server_id,
                        signature=Identify.vouched(self._proof, server_id, nonce), door="ssh")


#: Who a client says it is on servers: its own key, or the identity the SSH door vouches for.
Credential = Identity | Vouched

#: The environment variable in which the SSH door gives its client "<key>:<proof>".
DOOR_VARIABLE = "COUP_DOOR_IDENTITY"


def vouched(value: str) -> Vouched:
    """The identity DOOR_VARIABLE's `value` gives; IdentityError if it is not "<key>:<proof>"
    of 64 hex digits each."""
    key, _, proof = value.partition(":")
    try:
        if len(key) != 64 or len(proof) != 64:
            raise ValueError
        bytes.fromhex(key), bytes.fromhex(proof)
    except ValueError:
        raise IdentityError(f"{DOOR_VARIABLE} is not <key>:<proof> in hex") from None
    return Vouched(key, proof)


@dataclass(frozen=True)
class DoorAddress:
    """Where the player of a door's client is: the IP `address` the door saw, and the
    `proof` the door gave for it (server/doorkey.py), given in the environment as
    ADDRESS_VARIABLE. The client's own connection comes from the door's machine."""

    address: str
    _proof: str = field(repr=False)  # never shown, never sent

    def via(self, request_id: int, server_id: str, nonce: str) -> Via:
        """The `via` answering a welcome that gave `server_id` and `nonce`."""
        return Via(id=request_id, address=self.address, nonce=nonce, server_id=server_id,
                   signature=Via.vouched(self._proof, server_id, nonce))


#: The environment variable in which a door gives its client "<proof>:<address>".
ADDRESS_VARIABLE = "COUP_DOOR_ADDRESS"


def door_address(value: str) -> DoorAddress:
    """The address ADDRESS_VARIABLE's `value` gives; IdentityError if it is not
    "<proof>:<address>", a proof of 64 hex digits and an IP address."""
    proof, _, address = value.partition(":")
    try:
        if len(proof) != 64:
            raise ValueError
        bytes.fromhex(proof)
        ipaddress.ip_address(address)
    except ValueError:
        raise IdentityError(f"{ADDRESS_VARIABLE} is not <proof>:<address>") from None
    return DoorAddress(address, proof)


def default_path() -> str:
    """Where the player's key is kept unless told: in the user's config directory."""
    return os.path.join(platformdirs.user_config_dir("coup", appauthor=False), FILE_NAME)


def profile_path(profile: str) -> str:
    """Where the key of `profile` is kept (`coup --profile NAME`): a directory of its own in
    the config directory, its name beside it; IdentityError for a profile name that is not
    letters, digits, - and _ (it names a directory)."""
    if not profile or not all(c.isalnum() or c in "-_" for c in profile):
        raise IdentityError(f"no profile {profile!r}: a profile is named with letters, "
                            "digits, - and _")
    return os.path.join(os.path.dirname(default_path()), "profiles", profile, FILE_NAME)


def bot_path(name: str) -> str:
    """Where `coup bot` keeps the key of the bot named `name` unless told: one key per bot
    name, apart from the player's own."""
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
    return os.path.join(os.path.dirname(default_path()), f"bot-{safe}.pem")


def load(path: str | None = None) -> Identity:
    """The identity kept in `path` (default_path() if None), made there (0600) if the file
    does not exist; IdentityError if it cannot be read or made, or is not a key."""
    path = path or default_path()
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FILE + 1)
            mode = os.fstat(file.fileno()).st_mode
    except FileNotFoundError:
        return _make(path)
    except OSError as exc:
        raise IdentityError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE:
        raise IdentityError(f"{path} is not a coup identity (it is larger than "
                            f"{MAX_FILE // 1024} KiB; a key is a few hundred bytes)")
    try:
        secret = serialization.load_pem_private_key(data, password=None)
    except TypeError:  # what cryptography raises for a key that needs a password
        raise IdentityError(f"{path} is encrypted: coup needs an unencrypted Ed25519 key "
                            "(decrypt a copy with: openssl pkey -in FILE -out NEW.pem, "
                            "or name a file that does not exist and coup makes a key "
                            "there)") from None
    except ValueError:
        secret = None
    if not isinstance(secret, Ed25519PrivateKey):
        raise IdentityError(f"{path} is not a coup identity (an Ed25519 private key in PEM)")
    warning = None
    if stat.S_IMODE(mode) & 0o077 and stat.S_ISREG(mode):
        # As ssh says of a private key that is too open; coup uses it still, since the key
        # is the player's identity and refusing it would lock them out of it.
        warning = (f"{path} can be read by other users (mode {stat.S_IMODE(mode):o}): anyone "
                   f"who reads it can play as you; run chmod 600 {path}")
    return Identity(path, secret, warning)


def _make(path: str) -> Identity:
    """A new key pair, written to `path` with no one but its owner able to read it: the file
    is created 0600, never widened after."""
    secret = Ed25519PrivateKey.generate()
    data = secret.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    try:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:  # another coup made it meanwhile: use that one
        return load(path)
    except OSError as exc:
        raise IdentityError(f"cannot make {path}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "wb") as file:
        file.write(data)
    return Identity(path, secret)
