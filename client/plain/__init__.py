"""Plain mode: the whole game as lines of text, for screen readers, dumb terminals and
transcripts (`coup play --plain`, `coup join HOST --plain`, and whenever the terminal cannot
take the full-screen app).

`text` holds plain mode's own words (the prompt line, status, hand, lobby and results lines,
what a typed line names); `session` is the trio program that plays them over the network.
The game's sentences are the terminal app's (client/narrate.py), never a copy.
"""

from __future__ import annotations

import io
import sys

import trio

from ..launch import Launch
from .session import Plain


def run(launch: Launch) -> int:
    """Play the session `launch` asks for on stdin and stdout; returns the exit status."""
    # A character the terminal's encoding lacks is shown as "?" rather than ending the game
    # (a stdout that is no text file on a terminal, a test's capture say, is left as given).
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="replace")
    try:
        return trio.run(Plain(launch, sys.stdout).run)
    except KeyboardInterrupt:  # ctrl+c: the seat waits on the server, as after a drop
        return 130
