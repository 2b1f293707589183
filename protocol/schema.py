"""Value specs: what a field on the wire may hold, compiled into fast checking functions.

A spec describes one value (an int or a number in a range, a string up to a length, a list
of at most so many items, a map with known fields…). `compile_spec` turns it into a function that returns
the value when it is valid and raises `Invalid` (with the path to the bad part) when it is
not. This module knows nothing of messages or sockets.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable
from typing import Any

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
class Float:
    """A number with a fraction (msgpack's float), from lo to hi: never NaN or infinite."""

    lo: float = -1e9
    hi: float = 1e9


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
class OneOf:
    """A value that meets one of `options` (tried in order): an int or a map, say."""

    options: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a map: its name, spec, and whether it must be present."""

    name: str
    spec: Any
    required: bool = True


@dataclass(frozen=True, slots=True)
class Map:
    fields: tuple[Field, ...]


def compile_spec(spec: Any, path: str = "", *, strict: bool = False) -> Check:
    """A function checking values against `spec`, returning the value itself.

    Not strict (decoding what a peer sent): a map's unknown keys are deleted from the value
    in place — the value was just unpacked and belongs to us — so a newer peer's additions
    are ignored. Strict (checking what we send): an unknown key is an error.

    The checks are generated as Python source and compiled once: a nested message is then
    checked by straight-line code, with no function call per field, which is what keeps
    validating a large update cheaper than packing it.
    """
    gen = _Generator(strict)
    body = gen.check(spec, "value", path, 1)
    source = "def check(value):\n" + "\n".join(body) + "\n    return value\n"
    namespace = dict(gen.constants, Invalid=Invalid, _MISSING=_MISSING, _drop=_drop_unknown)
    exec(compile(source, f"<spec {path or 'value'}>", "exec"), namespace)  # noqa: S102
    check: Check = namespace["check"]
    return check


_MISSING = object()


def _drop_unknown(value: dict[str, Any], known: frozenset[str]) -> None:
    for key in [k for k in value if k not in known]:
        del value[key]


class _Generator:
    """Writes the source of a check, one spec node at a time."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.constants: dict[str, Any] = {}
        self.count = 0

    def name(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def constant(self, value: Any) -> str:
        name = self.name("K")
        self.constants[name] = value
        return name

    def fail(self, path: str, problem: str, indent: int) -> str:
        return "    " * indent + f"raise Invalid({path!r}, {problem!r})"

    def check(self, spec: Any, var: str, path: str, indent: int) -> list[str]:
        pad = "    " * indent
        if isinstance(spec, Int):
            return [f"{pad}if type({var}) is not int or not {spec.lo} <= {var} <= {spec.hi}:",
                    self.fail(path, f"must be an int from {spec.lo} to {spec.hi}", indent + 1)]
        if isinstance(spec, Float):
            return [f"{pad}if type({var}) is not float or not {spec.lo!r} <= {var} <= {spec.hi!r}:",
                    self.fail(path, f"must be a number from {spec.lo:g} to {spec.hi:g}",
                              indent + 1)]
        if isinstance(spec, Str):
            lo, hi = spec.min_len, spec.max_len
            return [f"{pad}if type({var}) is not str or not {lo} <= len({var}) <= {hi}:",
                    self.fail(path, f"must be a string of {lo} to {hi} characters", indent + 1)]
        if isinstance(spec, Bool):
            return [f"{pad}if type({var}) is not bool:",
                    self.fail(path, "must be true or false", indent + 1)]
        if isinstance(spec, Enum):
            values = self.constant(frozenset(spec.values))
            return [f"{pad}if type({var}) is not str or {var} not in {values}:",
                    self.fail(path, f"must be one of {', '.join(spec.values)}", indent + 1)]
        if isinstance(spec, Nullable):
            return [f"{pad}if {var} is not None:"] + self.check(spec.inner, var, path, indent + 1)
        if isinstance(spec, List):
            item = self.name("i")
            lo, hi = spec.min_len, spec.max_len
            return [f"{pad}if type({var}) is not list or not {lo} <= len({var}) <= {hi}:",
                    self.fail(path, f"must be a list of {lo} to {hi} items", indent + 1),
                    f"{pad}for {item} in {var}:",
                    *self.check(spec.item, item, path + "[]", indent + 1)]
        if isinstance(spec, Map):
            return self.map(spec, var, path, indent)
        if isinstance(spec, OneOf):
            return self.one_of(spec, var, path, indent)
        raise TypeError(f"not a spec: {spec!r}")

    def one_of(self, spec: OneOf, var: str, path: str, indent: int) -> list[str]:
        """Each option in turn, each tried only if those before it failed. If none fits, the
        error is the one that got deepest into the value (the first of those): the option
        the value was meant for, most likely."""
        lines: list[str] = []
        errors = [self.name("e") for _ in spec.options]
        for depth, (option, error) in enumerate(zip(spec.options, errors)):
            pad = "    " * (indent + depth)
            lines += [f"{pad}try:", *self.check(option, var, path, indent + depth + 1),
                      f"{pad}except Invalid as {error}:"]
        pad = "    " * (indent + len(spec.options))
        lines.append(f"{pad}raise max(({', '.join(errors)},), key=lambda e: len(e.path))")
        return lines

    def map(self, spec: Map, var: str, path: str, indent: int) -> list[str]:
        pad = "    " * indent
        prefix = path + "." if path else ""
        seen = self.name("n")
        lines = [f"{pad}if type({var}) is not dict:", self.fail(path, "must be a map", indent + 1),
                 f"{pad}{seen} = 0"]
        for f in spec.fields:
            x = self.name("x")
            lines.append(f"{pad}{x} = {var}.get({f.name!r}, _MISSING)")
            if f.required:
                lines += [f"{pad}if {x} is _MISSING:",
                          self.fail(prefix + f.name, "is required", indent + 1),
                          f"{pad}{seen} += 1"]
                lines += self.check(f.spec, x, prefix + f.name, indent)
            elif self.strict:  # a sender leaves an optional field out rather than send nil
                lines += [f"{pad}if {x} is not _MISSING:",
                          f"{pad}    {seen} += 1"]
                lines += self.check(f.spec, x, prefix + f.name, indent + 1)
            else:  # a receiver takes an optional field sent as nil for an absent one
                lines += [f"{pad}if {x} is None and {f.name!r} in {var}:",
                          f"{pad}    del {var}[{f.name!r}]",
                          f"{pad}elif {x} is not _MISSING:",
                          f"{pad}    {seen} += 1"]
                lines += self.check(f.spec, x, prefix + f.name, indent + 1)
        known = self.constant(frozenset(f.name for f in spec.fields))
        lines.append(f"{pad}if {seen} != len({var}):")
        if self.strict:
            lines.append(self.fail(path, "has a field the protocol does not define", indent + 1))
        else:  # a newer peer's additions: ignored
            lines.append(f"{pad}    _drop({var}, {known})")
        return lines
