"""Text from the other side: what a server takes as a name or a line of chat, and how a
client shows any string that came from outside (a server, a record, a file, the network).

A terminal obeys some characters instead of drawing them: ESC starts a sequence that can
set the window's title, clear the screen or write the clipboard (OSC 52); BEL, CR and DEL
act too; bidi controls turn the rest of a line around; zero-width and filler characters draw
nothing, so a name can pass for another. `printable` is the server's one check for text it
stores or relays (player names, table names, chat), and `shown` is the clients' one way to
put outside text on a screen: each such character is written as a visible escape (`\\x1b`,
`\\u202e`), never sent raw, and a newline too, so a one-line field stays one line.
What `printable` takes, `shown` leaves exactly as it is, so a name a client shows is the
name it can send back (variation selectors included: they pick how the character before
them is drawn, as in the emoji "❤️", never what it is). Nothing here knows of terminals'
libraries or of markup: a front end that parses markup must still show these strings as
plain text.
"""

from __future__ import annotations

from typing import Any

#: Characters that draw nothing although Python calls them printable (Unicode's
#: Default_Ignorable_Code_Point, less what `isprintable` already refuses and the variation
#: selectors, Mongolian's included): the combining grapheme joiner, Hangul fillers, Khmer
#: inherent vowels.
INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0")


def _escaped(c: str) -> bool:
    """Whether `shown` writes `c` as an escape: controls (C0, C1, DEL), line and paragraph
    separators, spaces other than the plain one, format characters (bidi, zero-width),
    private, unassigned and surrogate code points, and the invisible ones."""
    return not c.isprintable() or c in INVISIBLE


def _escape(c: str) -> str:
    code = ord(c)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def printable(text: str) -> bool:
    """Whether `text` is shown as it is, every character drawn and none obeyed: what a
    server takes in a name or a line of chat."""
    return not any(map(_escaped, text))


def name_or_none(text: str) -> str | None:
    """`text` as a name (a player's, a table's): trimmed of spaces, or None when it is
    blank or not `printable`. The server checks every name it stores with this."""
    name = text.strip()
    return name if name and printable(name) else None


def shown(text: str) -> str:
    """`text` safe for a terminal, on one line: every character `printable` refuses is
    written as a visible escape, the rest as it is."""
    if text.isascii() and text.isprintable():  # nearly every string: nothing to do
        return text
    return "".join(_escape(c) if _escaped(c) else c for c in text)


def shown_in(value: Any) -> Any:
    """`value` with every string in it (in nested dicts, lists and tuples, keys included)
    passed through `shown`; other values as they are."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, dict):
        return {shown_in(k): shown_in(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(shown_in(v) for v in value)
    return value


def whole_number(text: str, most: int) -> int | None:
    """The whole number from 0 to `most` that `text` writes in ASCII digits, or None: a
    typed line or an argument may be "²" or "٣" (digits to `str.isdigit`, which `int`
    refuses or reads as another script's), or thousands of digits (more than `int` reads
    from text)."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(most)):
        return None
    value = int(text)
    return value if value <= most else None
