"""The secret a door shares with the game server, and the identities the door vouches for.

A door (the SSH door, `coup ssh`) lets people in with keys the game server never sees: an SSH
key of any type. The door authenticates them, names each key's identity (`ssh_key`), and
gives the client process it starts for them a proof for that identity alone (`vouch`): an
HMAC of the identity under the secret the door and the server share. The client answers
the server's welcome with `protocol.Identify.vouched(proof, ...)`, an HMAC of that
connection's nonce, which the server checks by deriving the same proof (`check`). Without
the secret no one can make a proof, so no plain TCP client can claim someone's key; a proof
that leaks opens no identity but its own, and no connection without a fresh HMAC.

Guests have no key, and every door's client reaches the server from the door's machine, so a
door also vouches for where each player is: the proof for an address (`vouch_address`), with
which the client answers the nonce in a `protocol.Via`, checked the same way
(`check_via`). The server then counts that player at that address in every per-address limit.

The secret is 32 random bytes in a file only its owner reads (0600), made by whichever of
the server and the door starts first; both find it in the user's data directory unless told.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import secrets

import platformdirs

from protocol import Identify, Via

#: The secret's file name in the user's data directory.
FILE_NAME = "door.secret"
#: What a proof is an HMAC of, with the identity: a proof is good for nothing else.
_VOUCH_CONTEXT = b"coup-door-vouch\0"
#: What a proof for an address is an HMAC of, with the address: it is no identity's proof.
_ADDRESS_CONTEXT = b"coup-door-address\0"


class DoorKeyError(Exception):
    """The secret file cannot be read or made, or holds no secret; the message says why."""


def default_secret_path() -> str:
    """Where the server and the door keep their secret unless told."""
    folder = platformdirs.user_data_dir("coup", appauthor=False, ensure_exists=True)
    return os.path.join(folder, FILE_NAME)


def load_secret(path: str) -> bytes:
    """The secret kept at `path`, made there (0600, never widened) if there is none yet;
    DoorKeyError if it cannot be read or made or is not 32 bytes."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        try:
            with open(path, "rb") as file:
                secret = file.read()
        except OSError as exc:
            raise DoorKeyError(f"cannot read {path}: {exc.strerror or exc}") from None
        if len(secret) != 32:
            raise DoorKeyError(f"{path} is not a door secret (32 bytes)") from None
        return secret
    except OSError as exc:
        raise DoorKeyError(f"cannot make {path}: {exc.strerror or exc}") from None
    secret = secrets.token_bytes(32)
    with os.fdopen(fd, "wb") as file:
        file.write(secret)
    return secret


def ssh_key(blob: bytes) -> str:
    """The identity of an SSH public key: the SHA-256 of its wire-format blob, as hex (the
    digest its `SHA256:` fingerprint shows in base64)."""
    return hashlib.sha256(blob).hexdigest()


def vouch(secret: bytes, key: str) -> str:
    """The proof, hex, that the door vouches for identity `key`."""
    return hmac.new(secret, _VOUCH_CONTEXT + key.encode(), hashlib.sha256).hexdigest()


def check(secret: bytes, msg: Identify) -> bool:
    """Whether `msg`'s signature is the HMAC that the door's proof for `msg.key` makes of
    the nonce and server id it names."""
    expected = Identify.vouched(vouch(secret, msg.key), msg.server_id, msg.nonce)
    return hmac.compare_digest(expected, msg.signature)


def sharer(address: str) -> str:
    """What the per-address limits count `address` as: an IPv4 address alone, an IPv6 one
    as its /64 (a home or a host is given a whole /64, and could take a new address for
    each session), an IPv4 address mapped into IPv6 as that IPv4 address."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 4:
        return address
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip, 64), strict=False))


def vouch_address(secret: bytes, address: str) -> str:
    """The proof, hex, that the door vouches for a player at IP `address`."""
    return hmac.new(secret, _ADDRESS_CONTEXT + address.encode(), hashlib.sha256).hexdigest()


def check_via(secret: bytes, msg: Via) -> bool:
    """Whether `msg`'s signature is the HMAC that the door's proof for `msg.address` makes
    of the nonce and server id it names."""
    expected = Via.vouched(vouch_address(secret, msg.address), msg.server_id, msg.nonce)
    return hmac.compare_digest(expected, msg.signature)
