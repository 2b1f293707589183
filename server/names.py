"""Names as the server tells them apart: one key for names a reader would take for one, and
the names no person may take.

Two names are one here when their keys are equal: the key is the Unicode TR39 skeleton of
the casefolded name (NFD, each character mapped to its prototype by the standard's
confusables data, NFD again), casefolded. So `аlice` with a Cyrillic а, `ALICE` and `alice`
are one name, as are `paypal` and `pаypal`; the data is Unicode 13's confusables.txt, kept
beside this module (confusables.txt). The names of guests (`guest-7`, as sessions are
named) and of bots (every strategy and level, and `<strategy> bot <n>` as bot seats are
named) are reserved, and so is every name whose key is theirs.

Pure: no I/O but reading the data once, no trio.
"""

from __future__ import annotations

import functools
import unicodedata
from importlib import resources

from engine.bots import LEVELS, STRATEGIES


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character and its prototype, from confusables.txt."""
    table = {}
    text = resources.files(__package__).joinpath("confusables.txt").read_text("utf-8")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            source, prototype = line.split(";")
            table[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in prototype.split())
    return table


def skeleton(text: str) -> str:
    """TR39's skeleton of `text`: NFD, every character mapped to its prototype, NFD."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """What two names must share to be one name here (see the module docstring). Case is
    folded first, as the prototypes of a letter's two cases differ (I is l, i is i)."""
    return skeleton(name.casefold()).casefold()


@functools.cache
def _bot_names() -> frozenset[str]:
    return frozenset(name_key(name) for name in (*STRATEGIES, *LEVELS))


@functools.cache
def _digits() -> frozenset[str]:
    """The characters a digit's key is made of (0's is o, 1's is l)."""
    return frozenset("".join(name_key(d) for d in "0123456789"))


def _numbered(key: str, prefix: str) -> bool:
    """`key` is the key of `prefix` followed by a number."""
    head = name_key(prefix)
    return (key.startswith(head) and len(key) > len(head)
            and all(c in _digits() for c in key[len(head):]))


def reserved(name: str) -> str | None:
    """Whose `name` is (or looks like), if no person may take it: a sentence; else None."""
    key = name_key(name)
    if _numbered(key, "guest-"):
        return f"The name {name} is how the server names its guests."
    if key in _bot_names() or any(_numbered(key, f"{bot} bot ") for bot in _bot_names()):
        return f"The name {name} is a bot's on this server."
    return None
