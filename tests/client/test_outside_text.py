"""Text from outside never reaches a terminal raw: plain mode against a hostile server,
`coup replay` and `coup export` of a record whose names are a stranger's, and the LAN
finder hearing a hostile announcement. Each output is read whole and must hold no control
character (but plain mode's own newlines) and no bidi or invisible character; the hostile
strings are there, as visible escapes.
"""

from __future__ import annotations

from tests.client.hostile import CLIPBOARD, ESCAPES, HostileServer, unsafe
from tests.client.transcript import Transcript


def test_plain_mode_shows_a_hostile_servers_strings_as_visible_escapes():
    server = HostileServer()
    t = Transcript("join", f"127.0.0.1:{server.port}", "--plain", "--name", "Ana")
    try:
        t.until("Connected to")
        t.until("Table t1")
        t.send("say hi")
        t.until("says:")
        t.until("says:")
        t.send("quit")
        t.close()
    finally:
        t.close()
        server.stop()
    out = b"".join(t.raw).decode("utf-8")
    assert not unsafe(out, newlines=True)
    assert "\\x1b]0;PWNED\\x07\\x1b[2J" in out and "\\x1b]52;c;" in out
    assert "[b]bold[/b]" in out
    assert ESCAPES not in out and CLIPBOARD[:8] not in out
