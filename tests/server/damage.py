"""Damage done for real to a store file, as a failing disk or a stray write does it: whole
pages overwritten with random bytes (from a fixed seed, so each test damages the same
bytes every run), or the file cut short.

`moves_pages` finds the pages that hold the moves a write added, by the page's kind (a
leaf of a WITHOUT ROWID table, as `moves` is) and its content (a move's JSON): the pages
to overwrite to damage one game's record and nothing else. `games_on_pages` reads which
games have moves on each such page (from its cells, as SQLite lays them out), to damage
a game in the middle of a file and know which records that takes with it. `pages_of`
asks SQLite (its dbstat table) for the pages of a table or an index.
"""

from __future__ import annotations

import os
import random
import sqlite3
from collections.abc import Callable

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


def pages_of(path: str, name: str) -> list[int]:
    """The pages of the table or index `name`."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [n for (n,) in conn.execute("SELECT pageno FROM dbstat WHERE name = ?", (name,))]
    finally:
        conn.close()


def rowids_on_page(path: str, number: int) -> set[int]:
    """The row ids of the rows on page `number`, a leaf of a table with row ids."""
    size = page_size(path)
    with open(path, "rb") as f:
        f.seek((number - 1) * size)
        page = f.read(size)
    rowids = set()
    for cell in _cells(page):
        _, at = _varint(page, cell)  # the payload's size; the row id follows
        rowids.add(_varint(page, at)[0])
    return rowids


def games_on_pages(path: str) -> dict[int, set[int]]:
    """The games whose moves each page of moves holds, by page number."""
    size = page_size(path)
    found = {}
    with open(path, "rb") as f:
        for number in range(1, os.path.getsize(path) // size + 1):
            f.seek((number - 1) * size)
            page = f.read(size)
            if number > 1 and page[0] == INDEX_LEAF and b'{"kind":' in page:
                found[number] = {_first_column(page, cell) for cell in _cells(page)}
    return found


def _cells(page: bytes) -> list[int]:
    """Where each cell of a leaf page starts (its header: kind, first free block, cells)."""
    count = int.from_bytes(page[3:5], "big")
    return [int.from_bytes(page[8 + 2 * i:10 + 2 * i], "big") for i in range(count)]


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's variable-length integer at `at`: its value and where the next field starts."""
    value = 0
    for i in range(8):
        byte = data[at + i]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    return (value << 8) | data[at + 8], at + 9


def _first_column(page: bytes, cell: int) -> int:
    """The first column of the record in the cell at `cell`: an integer (a game id)."""
    _, record = _varint(page, cell)  # the payload's size
    header_size, at = _varint(page, record)
    kind, _ = _varint(page, at)
    body = record + header_size
    width = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}.get(kind)
    if width is None:  # 8 and 9: the integers 0 and 1, kept in the header alone
        return kind - 8
    return int.from_bytes(page[body:body + width], "big", signed=True)


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
