"""Which Ed25519 public keys may be an identity: canonical encodings of points of large order.

RFC 8032 lets a verifier accept keys that prove nothing. A point of small order (the eight
points P with [8]P the identity) turns the verification equation into one that a trivial
signature meets, and `cryptography` (OpenSSL) accepts them: the key `01` then 31 zero bytes,
with the signature `01` then 63 zero bytes, verifies for any message, so anyone could be that
player. And a y coordinate of p or more, or a sign bit set on x = 0, encodes a point that has
a canonical encoding too: one key, two identities. So each key is decoded here and refused
before any signature is checked.

Plain integer arithmetic on the curve (RFC 8032, section 5.1.3 for the decoding): a few
modular exponentiations a key, run once per `identify`. It checks; it never signs.
"""

from __future__ import annotations

#: The field's prime, and the curve's d: -x^2 + y^2 = 1 + d x^2 y^2.
P = 2**255 - 19
D = -121665 * pow(121666, -1, P) % P
#: A square root of -1, for square roots modulo P (P = 5 mod 8).
SQRT_M1 = pow(2, (P - 1) // 4, P)


def refusal(key: bytes) -> str | None:
    """Why the 32 bytes `key` are no identity (a sentence), or None if they may be one."""
    y = int.from_bytes(key, "little") & ((1 << 255) - 1)
    sign = key[31] >> 7
    if y >= P:
        return "That key is not in canonical form (its y coordinate is not below p)."
    x = _x_of(y)
    if x is None:
        return "That key is not a point of the curve."
    if x == 0 and sign:
        return "That key is not in canonical form (x is 0 and its sign bit is set)."
    if x & 1 != sign:
        x = P - x
    point = (x, y)
    for _ in range(3):
        point = _add(point, point)
    if point == (0, 1):
        return "That key is a point of small order: any signature would do for it."
    return None


def _x_of(y: int) -> int | None:
    """A square root x of (y^2 - 1) / (d y^2 + 1), or None if there is none."""
    u = (y * y - 1) * pow(D * y * y + 1, -1, P) % P
    x = pow(u, (P + 3) // 8, P)
    if x * x % P != u:
        x = x * SQRT_M1 % P
    return x if x * x % P == u else None


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """The sum of two points in affine coordinates (complete on this curve)."""
    (x1, y1), (x2, y2) = a, b
    t = D * x1 * x2 * y1 * y2 % P
    return ((x1 * y2 + x2 * y1) * pow(1 + t, -1, P) % P,
            (y1 * y2 + x1 * x2) * pow(1 - t, -1, P) % P)
