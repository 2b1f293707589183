"""Which of the session host's pages a forked session copied, and whose objects are on them:
the by-module half of `python -m benchmarks.ssh --where` (issue 32).

A session forked from the host shares the host's pages until one of the two writes to one;
then the writer gets a copy of its own. Python writes to an object whenever it takes or
drops a reference to it (its count), and 3.11's specialising interpreter writes into the
bytecode it runs, so a session copies every page that holds an object it used.

`write_map(path)`, called in the host before it forks sessions, forks a throwaway child of
the host (the same addresses, so the host itself is not disturbed) that files every object
it can find under the package that owns it and its kind, page by page of its address:
everything the collector tracks (thawed in that child only), the objects they refer to
(strings, numbers), and each code object's constants and names. The owner is a module's
own for its module, its dictionary, its classes and functions (their `__module__`) and
their code; any other object belongs to the module that reaches it first, breadth first
from those; what no module reaches is filed under its class's module, or "unreached".
`copied(session, host)` compares the two processes' /proc/PID/pagemap entries (physical
page numbers, which the kernel shows to root only) at the same addresses, and
`attribute()` splits each copied page among the objects on it by their bytes there (what
no object known covers is free room, malloc's own data, or C objects such as pymalloc's
pool headers). It cannot tell which object on a page was written: a page copied for one
count is shared among all its objects.

`host_main` is a session host for the benchmark: client.host's preload, a map, then one
session forked as client.host forks a door's. Nothing here is imported by the client or
the server, and none of it runs in a door's session.
"""

from __future__ import annotations

import collections
import ctypes
import gc
import os
import pickle
import signal
import socket
import struct
import subprocess
import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass

from server import SESSION_MEMORY_MB, Order

PAGE = os.sysconf("SC_PAGE_SIZE")
#: The physical page number's bits in a /proc/PID/pagemap entry, and its "present" bit.
PFN = (1 << 55) - 1
PRESENT = 1 << 63
#: The collector's header before each object it tracks (two pointers, CPython 3.11).
GC_HEAD = 16
#: The type flag of objects that have that header (Py_TPFLAGS_HAVE_GC).
HAVE_GC = 1 << 14
#: Where CPython 3.11 keeps a container's separate table: a dict's keys and values, a
#: list's items, a set's table (offsets into the object), and the object's own size.
DICT_KEYS, DICT_VALUES, DICT_SIZE = 32, 40, 48
LIST_ITEMS, LIST_SIZE = 24, 40
SET_TABLE, SET_SIZE = 40, 200
#: Who owns a page's bytes that no object known covers.
UNKNOWN = "free room, malloc and C data"
#: A session's map: page number -> {(package, kind): bytes of the page}.
PageMap = dict[int, dict[tuple[str, str], int]]


def package(module: str | None) -> str:
    """The top-level package a module is filed under: the standard library as one."""
    if not module:
        return "unreached"
    top = module.partition(".")[0]
    if top in sys.stdlib_module_names or top in sys.builtin_module_names:
        return "stdlib"
    return top


def kind(thing: object) -> str:
    """What an object is counted as: code, functions, dicts, strings, types, tuples or
    other."""
    if isinstance(thing, types.CodeType):
        return "code"
    if isinstance(thing, types.FunctionType | types.BuiltinFunctionType | types.MethodType
                  | classmethod | staticmethod | property):
        return "functions"
    for name, cls in (("dicts", dict), ("strings", str), ("types", type), ("tuples", tuple)):
        if isinstance(thing, cls):
            return name
    return "other"


def _referents(thing: object) -> list[object]:
    if isinstance(thing, types.CodeType):  # not a container the collector visits
        return [thing.co_consts, thing.co_names, thing.co_filename, thing.co_name,
                thing.co_qualname, thing.co_linetable, thing.co_exceptiontable]
    return gc.get_referents(thing)


def _files() -> dict[str, str]:
    """Each loaded module's file, to its name: whose a code object is."""
    files = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str):
            files[path] = name
    return files


def _own_module(thing: object, files: dict[str, str]) -> str | None:
    """The module that owns `thing` by what it is, or None if only who refers to it says."""
    if isinstance(thing, types.ModuleType):
        return thing.__name__
    if isinstance(thing, types.CodeType):
        frozen = thing.co_filename.startswith("<frozen ")  # "<frozen importlib._bootstrap>"
        return thing.co_filename[8:-1] if frozen else files.get(thing.co_filename)
    if isinstance(thing, type | types.FunctionType):
        # Not a module's name (a namedtuple's methods say "namedtuple_Name"): who refers
        # to it says.
        module = getattr(thing, "__module__", None)
        return module if isinstance(module, str) and module in sys.modules else None
    return None


def owners() -> dict[int, tuple[object, str]]:
    """Every object found (by id), with the package it is filed under."""
    files = _files()
    found: dict[int, tuple[object, str]] = {}
    queue: collections.deque[object] = collections.deque()
    tracked = gc.get_objects()
    for thing in tracked:
        module = _own_module(thing, files)
        if module is not None:
            found[id(thing)] = (thing, package(module))
            queue.append(thing)
            if isinstance(thing, types.FunctionType):  # its code is where it was written
                code = thing.__code__
                found.setdefault(id(code), (code, package(files.get(code.co_filename,
                                                                     module))))
                queue.append(code)
    for name, loaded in list(sys.modules.items()):  # their dicts are the modules' own
        space = getattr(loaded, "__dict__", None)
        if space is not None:
            found.setdefault(id(space), (space, package(name)))
    while queue:
        thing = queue.popleft()
        owner = found[id(thing)][1]
        for referent in _referents(thing):
            if id(referent) not in found:
                found[id(referent)] = (referent, owner)
                queue.append(referent)
    for thing in tracked:
        if id(thing) not in found:
            module = type(thing).__module__
            found[id(thing)] = (thing, "unreached" if module == "builtins" else package(module))
    return found


def _pointer(address: int) -> int:
    return ctypes.c_void_p.from_address(address).value or 0


def extents(thing: object) -> list[tuple[int, int]]:
    """Where `thing` lies in memory: (address, bytes) for the object, and for a dict's,
    a list's or a set's table, which is allocated apart from it."""
    size = sys.getsizeof(thing)
    start = id(thing)
    if type(thing).__flags__ & HAVE_GC:
        # The collector's header sits before the object (tracked or not), and getsizeof
        # counts it.
        start -= GC_HEAD
    for cls, own, table in ((dict, DICT_SIZE, (DICT_VALUES, DICT_KEYS)), (list, LIST_SIZE,
                            (LIST_ITEMS,)), (set, SET_SIZE, (SET_TABLE,)),
                            (frozenset, SET_SIZE, (SET_TABLE,))):
        if type(thing) is cls:
            rest = size - own - GC_HEAD
            apart = next((p for p in (_pointer(id(thing) + t) for t in table) if p), 0)
            if rest > 0 and apart and not id(thing) <= apart < id(thing) + own:
                return [(start, own + GC_HEAD), (apart, rest)]
    return [(start, size)]


def build_map() -> tuple[PageMap, dict[tuple[str, str], int]]:
    """The objects of this process by page, and their bytes in all, by (package, kind)."""
    pages: PageMap = collections.defaultdict(lambda: collections.defaultdict(int))
    totals: dict[tuple[str, str], int] = collections.defaultdict(int)
    for thing, owner in owners().values():
        label = (owner, kind(thing))
        for start, size in extents(thing):
            totals[label] += size
            address, end = start, start + size
            while address < end:
                page_end = (address // PAGE + 1) * PAGE
                pages[address // PAGE][label] += min(end, page_end) - address
                address = page_end
    return ({page: dict(labels) for page, labels in pages.items()}, dict(totals))


def write_map(path: str) -> None:
    """File this process's objects by page into `path`, from a child forked for it (this
    process's own pages stay as they are)."""
    child = os.fork()
    if child == 0:
        status = 1
        try:
            gc.unfreeze()  # in the child only: its frozen objects are the host's
            pages, totals = build_map()
            with open(path, "wb") as out:
                pickle.dump((pages, totals), out)
            status = 0
        finally:
            os._exit(status)
    _, status = os.waitpid(child, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError("the map of the host's objects could not be made")


def read_map(path: str) -> tuple[PageMap, dict[tuple[str, str], int]]:
    with open(path, "rb") as f:
        pages, totals = pickle.load(f)
    return pages, totals


def anonymous(pid: int) -> list[tuple[int, int]]:
    """A process's heap and anonymous mappings (where Python's objects are): (low, high)."""
    ranges = []
    with open(f"/proc/{pid}/maps") as f:
        for line in f:
            parts = line.split()
            if len(parts) < 6 or parts[5] == "[heap]":
                low, high = (int(x, 16) for x in parts[0].split("-"))
                ranges.append((low, high))
    return ranges


@dataclass(frozen=True, slots=True)
class Copied:
    """A forked process's private anonymous pages: the page numbers of those at an address
    where its parent has a page too (copied on write from it), and how many it has where
    its parent has none (its own)."""

    pages: list[int]
    own: int


def copied(pid: int, parent: int) -> Copied:
    """Which of `pid`'s anonymous pages are no longer `parent`'s (root only: others read
    every physical page number as 0, and this says so rather than count nothing)."""
    pages: list[int] = []
    own = seen = 0
    with open(f"/proc/{pid}/pagemap", "rb") as mine, open(f"/proc/{parent}/pagemap",
                                                          "rb") as its:
        for low, high in anonymous(pid):
            count = (high - low) // PAGE
            mine.seek(low // PAGE * 8)
            its.seek(low // PAGE * 8)
            theirs = its.read(count * 8)
            theirs += bytes(count * 8 - len(theirs))  # past the parent's own mappings
            for n, (a, b) in enumerate(zip(struct.iter_unpack("Q", mine.read(count * 8)),
                                           struct.iter_unpack("Q", theirs), strict=True)):
                frame = a[0] & PFN
                if not a[0] & PRESENT or not frame:
                    continue
                seen += 1
                if b[0] & PRESENT and b[0] & PFN == frame:
                    continue  # still the parent's page, shared
                if b[0] & PRESENT:
                    pages.append(low // PAGE + n)
                else:
                    own += 1
    if not seen and any(anonymous(pid)):
        raise PermissionError("no physical page numbers in /proc/PID/pagemap: run as root")
    return Copied(pages, own)


def attribute(pages: list[int], page_map: PageMap) -> dict[tuple[str, str], int]:
    """The bytes of the copied `pages`, by (package, kind) of the objects on them."""
    shares: dict[tuple[str, str], int] = collections.defaultdict(int)
    for page in pages:
        labels = page_map.get(page, {})
        for label, size in labels.items():
            shares[label] += size
        shares[(UNKNOWN, "")] += max(0, PAGE - sum(labels.values()))
    return dict(shares)


def summary(shares: dict[tuple[str, str], int], own: int,
            totals: dict[tuple[str, str], int]) -> dict[str, object]:
    """MB copied by package and by kind (largest first), the session's own pages, and the
    MB of the host's objects by package (`totals`, from its map), for scale."""
    def ranked(table: dict[tuple[str, str], int], by: int) -> list[tuple[str, float]]:
        sums: dict[str, float] = collections.defaultdict(float)
        for label, size in table.items():
            if label[by]:
                sums[label[by]] += size / 2**20
        return [(k, round(v, 2)) for k, v in sorted(sums.items(), key=lambda kv: -kv[1])
                if v >= 0.01]  # not the dozens of a few kB each

    return {"copied_mb": round(sum(shares.values()) / 2**20, 1),
            "own_mb": round(own * PAGE / 2**20, 1),
            "copied_by_package": ranked(shares, 0), "copied_by_kind": ranked(shares, 1),
            "host_by_package": ranked(totals, 0)}


def host_main(order: str, fds: str, path: str) -> None:
    """A session host as client.host is (imported first: the collector off before the
    rest), with one session: preloaded, its objects filed in `path`, then the session
    `order` (an encoded Order) forked on `fds` as a door's is: its fds 0, 1 and 2 ("0,1,2"),
    a terminal's three times for the SSH door's, three pipes for the browser door's. Says
    the session's pid on stdout and waits, changing nothing, until its input ends."""
    from client import host

    given = [int(fd) for fd in fds.split(",")]
    host.preload()
    write_map(path)
    link, theirs = socket.socketpair()
    sys.stdout.flush()
    session = os.fork()
    if session == 0:
        link.close()
        host._session(Order.decode(order.encode()), given, theirs,
                      SESSION_MEMORY_MB * 2**20)
    theirs.close()
    for fd in set(given):
        os.close(fd)
    sys.stdout.write(f"{session}\n")
    sys.stdout.flush()
    sys.stdin.buffer.read()
    os.kill(session, signal.SIGKILL)
    os.waitpid(session, 0)


class Host:
    """A benchmark's session host (`host_main` in a process of its own) with its one
    session, `order`, on `fds` (its fds 0, 1 and 2): started and ended with `with`."""

    def __init__(self, order: Order, fds: Sequence[int], path: str) -> None:
        code = ("import client.host, sys, benchmarks.pages as p; "
                "p.host_main(sys.argv[1], sys.argv[2], sys.argv[3])")
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, order.encode().decode(), ",".join(map(str, fds)),
             path], pass_fds=fds, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.process.stdout is not None
        said = self.process.stdout.readline()
        if not said.strip().isdigit():
            self.close()
            raise RuntimeError(f"the benchmark's session host did not start: {said!r}")
        self.pid = self.process.pid
        self.session = int(said)
        self.path = path

    def figures(self) -> dict[str, object]:
        """Where the session's memory goes, by package and kind of the host's objects."""
        pages, totals = read_map(self.path)
        found = copied(self.session, self.pid)
        return summary(attribute(found.pages, pages), found.own, totals)

    def close(self) -> None:
        self.process.communicate(timeout=30)  # its input closed: it ends its session

    def __enter__(self) -> Host:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
