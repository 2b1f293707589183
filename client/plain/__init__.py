"""Plain mode: the whole game as lines of text, for screen readers, dumb terminals and
transcripts (`coup play --plain`, `coup join HOST --plain`, and whenever the terminal cannot
take the full-screen app).

`text` holds plain mode's own words (the prompt line, status, hand, lobby and results lines,
what a typed line names); `session` is the trio program that plays them over the network.
The game's sentences are the terminal app's (client/narrate.py), never a copy.
"""

from __future__ import annotations

import io
import os
import sys

import trio

from ..i18n import _
from ..identity import Identity, IdentityError, NAME_LENGTH
from ..launch import Launch
from .session import Plain


def run(launch: Launch) -> int:
    """Play the session `launch` asks for on stdin and stdout; returns the exit status."""
    # A character the terminal's encoding lacks is shown as "?" rather than ending the game
    # (a stdout that is no text file on a terminal, a test's capture say, is left as given).
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="replace")
    try:
        if launch.ask_name:
            _ask_name(launch)
        return trio.run(Plain(launch, sys.stdout).run)
    except KeyboardInterrupt:  # ctrl+c: the seat waits on the server, as after a drop
        return 130


def _ask_name(launch: Launch) -> None:
    """A first run's question, one line: the name to play under (an empty answer: the one
    offered), kept beside the key for the runs to come."""
    print(_("Your name, kept for the next games (Enter: {name}):").format(name=launch.name),
          flush=True)
    # Byte by byte from the descriptor, up to the line's end: a buffered read would take the
    # lines typed after it from the session, which reads the same descriptor. Past a name's
    # worth of bytes the rest of the line is read and dropped.
    typed = bytearray()
    while (byte := os.read(0, 1)) not in (b"", b"\n"):
        if len(typed) < 4 * NAME_LENGTH:
            typed += byte
    name = typed.decode("utf-8", errors="replace").strip()[:NAME_LENGTH]
    if not name:
        return
    launch.name = name
    if isinstance(launch.identity, Identity):
        try:
            launch.identity.keep_name(name)
        except IdentityError as exc:
            print(f"coup: warning: {exc}", file=sys.stderr)
