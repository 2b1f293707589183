"""Reading a file that came from outside: a record for `coup replay`, a position for `coup
position` and `coup serve --position`.

Such a file may be anything: empty, binary, a device that never ends, a sparse file of
gigabytes, JSON nested a hundred thousand deep, a number of five thousand digits. The
readers here take at most a stated number of bytes (a bounded read: never the whole of a
huge file), decode them as UTF-8, parse them with limits, and check the plain data that
comes out (how deep it nests, how large its numbers are, that its strings are text), so
that whatever is wrong is one `FileError` with a sentence, never an exception from the
parser. What the data means (a record's fields, a position's rules) is the caller's to
check.

This is the one place in the engine that opens files; it never writes one.
"""

from __future__ import annotations

import json
import math
import tomllib
from typing import Any

#: How deep plain data from a file may nest (lists and maps within each other). A record
#: nests 4 deep (record, moves, a move, its cards) and a position 3: what goes past this is
#: not one, and would cost the parsers their recursion.
MAX_DEPTH = 16
#: The largest whole number a file may hold: a 64-bit seed is the largest any field wants.
MAX_INT = 2**64 - 1
#: Digits a number may have before it is refused unread (2**64 has 20).
_MAX_DIGITS = 20


class FileError(ValueError):
    """A file that cannot be read as the data it should hold; the message says why."""


def head(path: str, limit: int) -> tuple[bytes, bool]:
    """The first `limit` bytes of the file at `path`, and whether it holds more: at most
    limit + 1 bytes are read, whatever the file is (a device, a pipe, a sparse file)."""
    try:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    except OSError as exc:
        raise FileError(f"{path} cannot be read: {exc.strerror or exc}") from None
    return data[:limit], len(data) > limit


def read(path: str, limit: int) -> bytes:
    """The bytes of the file at `path`; FileError if it holds more than `limit`."""
    data, more = head(path, limit)
    if more:
        raise FileError(f"{path} is larger than {size(limit)}, the most coup reads of it")
    return data


def size(limit: int) -> str:
    """A byte count as people read it: "2 MiB", "256 KiB"."""
    for unit, scale in (("MiB", 2**20), ("KiB", 2**10)):
        if limit >= scale and limit % scale == 0:
            return f"{limit // scale} {unit}"
    return f"{limit} bytes"


def text(data: bytes, path: str) -> str:
    """`data` decoded as UTF-8; FileError, naming the first bad byte's offset, if it is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileError(f"{path} is not UTF-8 text (byte {exc.start} is not)") from None


def parse_json(source: str, path: str) -> Any:
    """The JSON value of `source`, checked as `check_plain` does; FileError if it is not
    JSON, or breaks a limit. NaN and Infinity, which Python's parser takes, are refused."""
    try:
        value = json.loads(source, parse_int=_json_int, parse_float=_json_float,
                           parse_constant=_json_constant)
    except json.JSONDecodeError as exc:
        raise FileError(f"{path} is not JSON: {exc.msg} (line {exc.lineno}, column "
                        f"{exc.colno})") from None
    except _Refused as exc:
        raise FileError(f"{path} holds {exc}") from None
    except RecursionError:
        raise FileError(f"{path} nests lists or maps deeper than {MAX_DEPTH}") from None
    check_plain(value, path)
    return value


def parse_toml(source: str, path: str) -> dict[str, Any]:
    """The TOML table of `source`, checked as `check_plain` does; FileError if it is not
    TOML, or breaks a limit."""
    try:
        value = tomllib.loads(source, parse_float=_toml_float)
    except tomllib.TOMLDecodeError as exc:
        raise FileError(f"{path} is not TOML: {exc}") from None
    except _Refused as exc:
        raise FileError(f"{path} holds {exc}") from None
    except RecursionError:
        raise FileError(f"{path} nests lists or tables deeper than {MAX_DEPTH}") from None
    except ValueError:  # a whole number past Python's 4,300 digits, which tomllib converts
        raise FileError(f"{path} holds a number larger than {MAX_INT}") from None
    check_plain(value, path)
    return value


def check_plain(value: Any, path: str) -> None:
    """FileError unless `value` nests at most MAX_DEPTH deep, its whole numbers are within
    ±MAX_INT, its other numbers finite, and its strings (keys too) text that can be written
    out (no lone surrogate, which JSON's escapes can make). Walked without recursion: a
    TOML file's table headers make maps of any depth without the parser recursing."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth == MAX_DEPTH:
                raise FileError(f"{path} nests lists or maps deeper than {MAX_DEPTH}")
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
                item = item.values()
            stack.extend((inner, depth + 1) for inner in item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise FileError(f"{path} holds a string that is not text (a lone "
                                f"surrogate, {item[:20]!r})") from None
        elif type(item) is int and not -MAX_INT <= item <= MAX_INT:
            raise FileError(f"{path} holds a number larger than {MAX_INT}")
        elif isinstance(item, float) and not math.isfinite(item):
            raise FileError(f"{path} holds {item}, which is no number")


class _Refused(Exception):
    """Raised by the parsers' hooks: a number refused before it is made."""


def _json_int(digits: str) -> int:
    if len(digits.lstrip("-")) > _MAX_DIGITS:
        raise _Refused(f"a number of {len(digits.lstrip('-'))} digits; the largest is "
                       f"{MAX_INT}")
    return int(digits)


def _json_float(digits: str) -> float:
    number = float(digits)
    if not math.isfinite(number):
        raise _Refused(f"{digits[:20]}, a number too large to be one")
    return number


def _json_constant(name: str) -> float:
    raise _Refused(f"{name}, which is no number")


def _toml_float(digits: str) -> float:
    number = float(digits)
    if not math.isfinite(number):
        raise _Refused(f"{digits}, which is no number")
    return number
