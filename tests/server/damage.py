"""Damage done for real to a store file, as a failing disk or a stray write does it: whole
pages overwritten with random bytes (from a fixed seed, so each test damages the same
bytes every run), or the file cut short.

`moves_pages` finds the pages that hold the moves a write added, by the page's kind (a
leaf of a WITHOUT ROWID table, as `moves` is) and its content (a move's JSON): the pages
to overwrite to damage one game's record and nothing else.
"""

from __future__ import annotations

import os
import random
from typing import Callable

from server.store import Store

#: The first byte of a page that is a leaf of an index or WITHOUT ROWID table.
INDEX_LEAF = 0x0A


def page_size(path: str) -> int:
    """The file's page size, from its header."""
    with open(path, "rb") as f:
        header = f.read(18)
    size = int.from_bytes(header[16:18], "big")
    return 65536 if size == 1 else size


def moves_pages(path: str, write: Callable[[Store], object]) -> list[int]:
    """Run `write` on the store at `path` (its one writer, closed after, so every page is in
    the file), and return the numbers (from 1) of the pages it added that hold moves."""
    size = page_size(path)
    before = os.path.getsize(path) // size
    store = Store(path)
    try:
        write(store)
    finally:
        store.close()
    found = []
    with open(path, "rb") as f:
        for number in range(before + 1, os.path.getsize(path) // size + 1):
            f.seek((number - 1) * size)
            page = f.read(size)
            if page[0] == INDEX_LEAF and b'{"kind":' in page:
                found.append(number)
    return found


def overwrite(path: str, pages: list[int], seed: int) -> None:
    """Random bytes over each of `pages` (numbered from 1), as `dd conv=notrunc` would."""
    size = page_size(path)
    rng = random.Random(seed)
    with open(path, "r+b") as f:
        for number in pages:
            f.seek((number - 1) * size)
            f.write(rng.randbytes(size))


def truncate(path: str, fraction: float) -> None:
    """Cut the file to `fraction` of its pages, as a copy that stopped half way leaves it."""
    size = page_size(path)
    os.truncate(path, int(os.path.getsize(path) // size * fraction) * size)
