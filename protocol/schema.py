"""Value specs: what a field on the wire may hold, compiled into fast checking functions.

A spec describes one value (an int in a range, a string up to a length, a list of at most so
many items, a map with known fields…). `compile` turns it into a function that returns the
value when it is valid and raises `Invalid` (with the path to the bad part) when it is not.
Maps drop the fields they do not know, so that a newer peer's additive fields are ignored;
when there are none the very same object comes back, so checking a large valid message
copies nothing. This module knows nothing of messages or sockets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

Check = Callable[[Any], Any]


class Invalid(Exception):
    """A value does not fit its spec. `path` says where (e.g. "view.coins[2]")."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}" if path else problem)
        self.path = path
        self.problem = problem


@dataclass(frozen=True, slots=True)
class Int:
    lo: int = 0
    hi: int = 2**31 - 1


@dataclass(frozen=True, slots=True)
class Str:
    max_len: int
    min_len: int = 0


@dataclass(frozen=True, slots=True)
class Bool:
    pass


@dataclass(frozen=True, slots=True)
class Enum:
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class List:
    item: Any
    max_len: int
    min_len: int = 0


@dataclass(frozen=True, slots=True)
class Nullable:
    inner: Any


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a map: its name, spec, and whether it must be present."""

    name: str
    spec: Any
    required: bool = True


@dataclass(frozen=True, slots=True)
class Map:
    fields: tuple[Field, ...]


def describe(spec: Any) -> str:
    """The spec in the words docs/PROTOCOL.md uses."""
    if isinstance(spec, Int):
        return f"int {spec.lo}..{spec.hi}"
    if isinstance(spec, Str):
        return f"string ≤ {spec.max_len}" + (f", ≥ {spec.min_len}" if spec.min_len else "")
    if isinstance(spec, Bool):
        return "bool"
    if isinstance(spec, Enum):
        return "one of " + ", ".join(f'"{v}"' for v in spec.values)
    if isinstance(spec, List):
        return f"list ≤ {spec.max_len} of ({describe(spec.item)})"
    if isinstance(spec, Nullable):
        return f"{describe(spec.inner)}, or nil"
    if isinstance(spec, Map):
        return "map"
    raise TypeError(spec)


def compile_spec(spec: Any, path: str = "") -> Check:
    """A function checking values against `spec` (see the module docstring)."""
    if isinstance(spec, Int):
        lo, hi = spec.lo, spec.hi

        def check_int(v: Any) -> Any:
            if type(v) is not int or not lo <= v <= hi:
                raise Invalid(path, f"must be an int from {lo} to {hi}")
            return v

        return check_int
    if isinstance(spec, Str):
        lo, hi = spec.min_len, spec.max_len

        def check_str(v: Any) -> Any:
            if type(v) is not str or not lo <= len(v) <= hi:
                raise Invalid(path, f"must be a string of {lo} to {hi} characters")
            return v

        return check_str
    if isinstance(spec, Bool):

        def check_bool(v: Any) -> Any:
            if type(v) is not bool:
                raise Invalid(path, "must be true or false")
            return v

        return check_bool
    if isinstance(spec, Enum):
        values = frozenset(spec.values)

        def check_enum(v: Any) -> Any:
            if type(v) is not str or v not in values:
                raise Invalid(path, f"must be one of {', '.join(spec.values)}")
            return v

        return check_enum
    if isinstance(spec, Nullable):
        inner = compile_spec(spec.inner, path)

        def check_nullable(v: Any) -> Any:
            return None if v is None else inner(v)

        return check_nullable
    if isinstance(spec, List):
        return _compile_list(spec, path)
    if isinstance(spec, Map):
        return _compile_map(spec, path)
    raise TypeError(f"not a spec: {spec!r}")


def _compile_list(spec: List, path: str) -> Check:
    item = compile_spec(spec.item, path + "[]")
    lo, hi = spec.min_len, spec.max_len

    def check_list(v: Any) -> Any:
        if type(v) is not list or not lo <= len(v) <= hi:
            raise Invalid(path, f"must be a list of {lo} to {hi} items")
        changed = False
        out = []
        for x in v:
            y = item(x)
            changed = changed or y is not x
            out.append(y)
        return out if changed else v

    return check_list


def _compile_map(spec: Map, path: str) -> Check:
    prefix = path + "." if path else ""
    checks = tuple((f.name, compile_spec(f.spec, prefix + f.name), f.required) for f in spec.fields)
    missing = object()

    def check_map(v: Any) -> Any:
        if type(v) is not dict:
            raise Invalid(path, "must be a map")
        known = 0
        changed = False
        out = {}
        for name, check, required in checks:
            x = v.get(name, missing)
            if x is missing or (x is None and not required):  # nil optional == absent
                if required:
                    raise Invalid(prefix + name, "is required")
                continue
            known += 1
            y = check(x)
            changed = changed or y is not x
            out[name] = y
        # Unknown fields are a newer peer's additions: dropped, never an error.
        return out if changed or known != len(v) else v

    return check_map
