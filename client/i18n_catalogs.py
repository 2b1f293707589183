"""The translators' tool: extract the client's messages, update the .po catalogs, compile the .mo.

`python -m client.i18n_catalogs` reads every `_("...")`, `ngettext("...", "...", n)` and
`pgettext("ctx", "...")` and `N_("...")` in client/**/*.py (the messages must be string literals;
only `_(name)` or `_(obj.attr)` may translate a text marked with `N_` elsewhere), brings each
language's `client/locale/<lang>/LC_MESSAGES/coup.po` up to date with them (new messages in,
gone ones out, translations kept, English filled in from the code) and compiles each into the
GNU `.mo` that client.i18n loads, with no need for GNU gettext's programs. With `--check` it
writes nothing and exits 1 listing what is out of date or untranslated, for CI. It is a
development tool: the game never imports it.
"""

from __future__ import annotations

import argparse
import ast
import re
import struct
import sys
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from client.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

CLIENT_DIR = Path(__file__).resolve().parent
#: The language the messages are written in: its catalog copies them from the code.
SOURCE_LANGUAGE = LANGUAGES[0]
#: Each language's gettext plural rule: (number of forms, C expression choosing the form for n).
PLURALS: dict[str, tuple[int, str]] = {
    "en": (2, "n != 1"),
    "pt_BR": (2, "n > 1"),
}
#: The translation functions and how many of their leading arguments are message literals.
_FUNCTIONS = {"_": (1, 1), "N_": (1, 1), "ngettext": (3, 2), "pgettext": (2, 2)}

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}
_UNESCAPES = {escaped[1]: char for char, escaped in _ESCAPES.items()}
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_KEYWORD = re.compile(r"msgctxt|msgid|msgid_plural|msgstr|msgstr\[\d+\]")


class PoError(ValueError):
    """A .po file this tool cannot read, with the file and line."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One message of a catalog: what the code asks for, and its translation."""

    msgid: str
    context: str | None = None
    plural: str | None = None
    #: One string, or one per plural form; empty strings are untranslated.
    msgstr: tuple[str, ...] = ()
    #: The source files using the message (file only, so moving code changes nothing).
    references: tuple[str, ...] = ()
    #: Translators' comments ("# ...") and flags ("#, fuzzy"), kept as they wrote them.
    comments: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str]:
        return (self.context or "", self.msgid)

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr) and "fuzzy" not in self.flags


# Extraction


def _function_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    # i18n._("...") as well as _("..."), for modules that import the module itself.
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.attr if func.value.id == "i18n" else None
    return None


def extract(client_dir: Path = CLIENT_DIR) -> tuple[list[Entry], list[str]]:
    """Every message the client's sources use, sorted, and the calls that could not be read."""
    found: dict[tuple[str, str], Entry] = {}
    errors: list[tuple[str, int, str]] = []
    for path in sorted(client_dir.rglob("*.py")):
        where = path.relative_to(client_dir.parent).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=where)):
            if not isinstance(node, ast.Call):
                continue
            name = _function_name(node.func)
            if name not in _FUNCTIONS:
                continue
            count, literals = _FUNCTIONS[name]
            if len(node.args) != count or node.keywords:
                errors.append((where, node.lineno, f"{name}() takes {count} positional arguments"))
                continue
            if name == "_" and isinstance(node.args[0], (ast.Name, ast.Attribute)):
                continue  # a text marked with N_("...") where it was written
            values = [a.value for a in node.args[:literals]
                      if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if len(values) != literals:
                errors.append((where, node.lineno, f"{name}() needs string literals, or the "
                               "message cannot be extracted (mark a text kept for later with N_)"))
                continue
            context = values.pop(0) if name == "pgettext" else None
            entry = Entry(values[0], context, values[1] if name == "ngettext" else None)
            if not entry.msgid:
                errors.append((where, node.lineno, f"{name}() of an empty message"))
                continue
            known = found.setdefault(entry.key, entry)
            if known.plural != entry.plural:
                errors.append((where, node.lineno, f"{entry.msgid!r} is used with two plurals"))
                continue
            found[entry.key] = replace(known, references=tuple(sorted({*known.references, where})))
    messages = sorted(found.values(), key=lambda e: e.key)
    return messages, [f"{where}:{line}: {text}" for where, line, text in sorted(errors)]


# The .po format


def _unquote(text: str, where: str) -> str:
    match = _QUOTED.fullmatch(text)
    if match is None:
        raise PoError(f"{where}: expected a quoted string, found {text!r}")
    try:
        return re.sub(r"\\(.)", lambda m: _UNESCAPES[m.group(1)], match.group(1))
    except KeyError as error:
        raise PoError(f"{where}: unknown escape \\{error.args[0]}") from None


def parse_po(text: str, origin: str = "<po>") -> list[Entry]:
    """The entries of a .po file, the header (msgid "") included."""
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    comments: list[str] = []
    flags: list[str] = []
    last: str | None = None
    start = 0

    def finish() -> None:
        nonlocal last
        where = f"{origin}:{start}"
        if "msgid" not in fields:
            if fields:
                raise PoError(f"{where}: an entry without msgid")
        else:
            plural = fields.get("msgid_plural")
            stored = [key for key in fields if key.startswith("msgstr")]
            keys = ["msgstr"] if plural is None else [f"msgstr[{i}]" for i in range(len(stored))]
            if not stored or set(keys) != set(stored):
                raise PoError(f"{where}: the msgstr lines do not match the msgid")
            msgstr = tuple(fields[key] for key in keys)
            entries.append(Entry(fields["msgid"], fields.get("msgctxt"), plural, msgstr,
                                 comments=tuple(comments), flags=tuple(flags)))
        fields.clear()
        comments.clear()
        flags.clear()
        last = None

    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        where = f"{origin}:{number}"
        if not line:
            continue
        keyword, rest = line.partition(" ")[::2]
        starts_entry = line.startswith("#") or keyword in ("msgctxt", "msgid")
        if starts_entry and any(k.startswith("msgstr") for k in fields):
            finish()
        if not fields and not comments and not flags:
            start = number
        if line.startswith("#,"):
            flags.extend(flag.strip() for flag in line[2:].split(",") if flag.strip())
        elif line == "#" or line.startswith("# "):
            comments.append(line[2:])
        elif line.startswith("#"):
            continue  # references and obsolete entries: the tool writes its own
        elif line.startswith('"'):
            if last is None:
                raise PoError(f"{where}: a string continues nothing")
            fields[last] += _unquote(line, where)
        elif _KEYWORD.fullmatch(keyword) and keyword not in fields:
            fields[keyword] = _unquote(rest.strip(), where)
            last = keyword
        else:
            raise PoError(f"{where}: unexpected {line!r}")
    finish()
    return entries


def _quote(text: str) -> str:
    return '"' + "".join(_ESCAPES.get(char, char) for char in text) + '"'


def _field(keyword: str, text: str) -> list[str]:
    lines = re.findall(r"[^\n]*\n|[^\n]+", text)
    if len(lines) <= 1:
        return [f"{keyword} {_quote(text)}"]
    return [f'{keyword} ""', *map(_quote, lines)]


def render_po(entries: Iterable[Entry]) -> str:
    """The text of a .po file holding `entries`, in their order."""
    blocks = []
    for entry in entries:
        lines = [f"# {c}".rstrip() for c in entry.comments]
        if entry.references:
            lines.append("#: " + " ".join(entry.references))
        if entry.flags:
            lines.append("#, " + ", ".join(entry.flags))
        if entry.context is not None:
            lines += _field("msgctxt", entry.context)
        lines += _field("msgid", entry.msgid)
        if entry.plural is None:
            lines += _field("msgstr", entry.msgstr[0])
        else:
            lines += _field("msgid_plural", entry.plural)
            for i, form in enumerate(entry.msgstr):
                lines += _field(f"msgstr[{i}]", form)
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def header(lang: str) -> Entry:
    """The catalog's first entry, which tells gettext its encoding and plural rule."""
    forms, rule = PLURALS[lang]
    return Entry("", msgstr=(
        "Project-Id-Version: coup-tui\n"
        f"Language: {lang}\n"
        "MIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=UTF-8\n"
        "Content-Transfer-Encoding: 8bit\n"
        f"Plural-Forms: nplurals={forms}; plural=({rule});\n",
    ))


def update(lang: str, messages: Iterable[Entry], existing: Iterable[Entry]) -> list[Entry]:
    """The catalog of `lang` for the code's `messages`, keeping the `existing` translations."""
    old = {entry.key: entry for entry in existing if entry.msgid}
    forms = PLURALS[lang][0]
    catalog = [header(lang)]
    for message in messages:
        count = 1 if message.plural is None else forms
        previous = old.get(message.key)
        if previous and previous.plural == message.plural and len(previous.msgstr) == count:
            entry = replace(message, msgstr=previous.msgstr, comments=previous.comments,
                            flags=previous.flags)
        else:
            entry = replace(message, msgstr=("",) * count)
        if lang == SOURCE_LANGUAGE:
            source = (message.msgid,) + (message.plural or message.msgid,) * (count - 1)
            entry = replace(entry, msgstr=tuple(t or s for t, s in zip(entry.msgstr, source)))
        catalog.append(entry)
    return catalog


# The .mo format

_MAGIC = 0x950412DE


def compile_mo(entries: Iterable[Entry]) -> bytes:
    """The GNU .mo file of the translated `entries` (untranslated and fuzzy ones are left out)."""
    pairs = []
    for entry in entries:
        if not entry.translated:
            continue
        key = entry.msgid if entry.plural is None else f"{entry.msgid}\0{entry.plural}"
        if entry.context is not None:
            key = f"{entry.context}\x04{key}"
        pairs.append((key.encode(), "\0".join(entry.msgstr).encode()))
    pairs.sort()  # gettext looks originals up by binary search
    count = len(pairs)
    data_at = 28 + 16 * count
    tables = [bytearray(), bytearray()]
    data = bytearray()
    for column in (0, 1):
        for pair in pairs:
            tables[column] += struct.pack("<2I", len(pair[column]), data_at + len(data))
            data += pair[column] + b"\0"
    head = struct.pack("<7I", _MAGIC, 0, count, 28, 28 + 8 * count, 0, data_at)
    return head + bytes(tables[0]) + bytes(tables[1]) + bytes(data)


# The catalogs on disk


def catalog_path(lang: str, suffix: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.exists() else None


def _name(path: Path) -> str:
    return path.relative_to(CLIENT_DIR.parent).as_posix()


def untranslated(lang: str, entries: Iterable[Entry]) -> list[str]:
    """One line for each message `lang` has no translation for."""
    return [f"{lang}: untranslated: {e.msgid!r}" + (f" ({e.context})" if e.context else "")
            for e in entries if e.msgid and not e.translated]


def check() -> list[str]:
    """Everything out of date or missing in the catalogs; empty when they are complete."""
    messages, problems = extract()
    for lang in LANGUAGES:
        po_path, mo_path = catalog_path(lang, ".po"), catalog_path(lang, ".mo")
        text = _read(po_path)
        current = parse_po(text, _name(po_path)) if text is not None else []
        wanted = update(lang, messages, current)
        if render_po(wanted) != text:
            problems.append(f"{_name(po_path)}: out of date with the code")
        if not mo_path.exists() or mo_path.read_bytes() != compile_mo(current):
            problems.append(f"{_name(mo_path)}: out of date with its .po")
        problems += untranslated(lang, wanted)
    return problems


def write(messages: list[Entry]) -> list[str]:
    """Update and compile every catalog for the code's `messages`; what remains untranslated."""
    remaining = []
    for lang in LANGUAGES:
        po_path, mo_path = catalog_path(lang, ".po"), catalog_path(lang, ".mo")
        text = _read(po_path)
        catalog = update(lang, messages, parse_po(text, _name(po_path)) if text is not None else [])
        po_path.parent.mkdir(parents=True, exist_ok=True)
        po_path.write_text(render_po(catalog), encoding="utf-8")
        mo_path.write_bytes(compile_mo(catalog))
        remaining += untranslated(lang, catalog)
        print(f"{_name(po_path)}: {len(catalog) - 1} messages")
    return remaining


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m client.i18n_catalogs",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 listing what is out of date or untranslated")
    args = parser.parse_args(argv)
    missing = [lang for lang in LANGUAGES if lang not in PLURALS]
    if missing:
        print(f"no plural rule for {', '.join(missing)}: add it to PLURALS", file=sys.stderr)
        return 1
    try:
        if args.check:
            problems = check()
            print("\n".join(problems) or "the catalogs are up to date",
                  file=sys.stderr if problems else sys.stdout)
            return 1 if problems else 0
        messages, errors = extract()
        if errors:
            print("\n".join(errors), file=sys.stderr)
            return 1
        for line in write(messages):
            print(line, file=sys.stderr)
    except PoError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
