"""A hostile server for the clients' tests: it speaks the protocol correctly, but every
string it can choose is a stranger's (escape sequences, a clipboard write, bells, carriage
returns, bidi overrides, zero-width characters, Rich/Textual markup), in its name, the
player's name, a table's name and seats, chat, errors and its goodbye.

`HostileServer` listens on loopback in a thread of its own (plain blocking sockets and the
sans-I/O Connection), so a client under test connects to it as to any server. `unsafe`
says what a client's output must never hold.
"""

from __future__ import annotations

import socket
import threading

from protocol import Chat, Connection, Error, NEED_DATA, Role, Tables, Welcome

#: A window title, a cleared screen, red, a bell, a carriage return over the line, a new
#: line, and a bidi override: what a terminal obeys if it is written raw.
ESCAPES = "\x1b]0;PWNED\x07\x1b[2J\x1b[31mRED\rX\nFAKE\u202eLINE"
#: A clipboard write (OSC 52), bidi isolates and marks, zero-width and filler characters.
CLIPBOARD = "\x1b]52;c;cHduZWQ=\x07\u2066\u200f\u200b\u200d\u2060\ufeff\u3164\x9b2J\x00\x7f"
#: Markup that a widget parsing markup would obey (or choke on).
MARKUP = "[b]bold[/b] [link=https://x.example]click[/link] [/i]"

#: Bidi controls: none may reach a client's output.
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
#: Characters that draw nothing: none may reach a client's output either.
INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff\u3164\u00ad")


def unsafe(text: str, newlines: bool = False) -> set[str]:
    """The characters of `text` that a terminal would obey or that hide or turn text:
    controls (but newlines, with `newlines`), DEL and C1, bidi controls, invisibles."""
    return {c for c in text
            if (ord(c) < 0x20 and not (newlines and c == "\n")) or 0x7f <= ord(c) <= 0x9f
            or c in BIDI or c in INVISIBLE}


def summary(table: str = "t1") -> dict:
    """A table as the lobby lists it, named and seated by strangers."""
    seat = {"ready": False, "away": False, "bot": None}
    return {"table": table, "name": ESCAPES[:32], "options": {"seats": 2},
            "status": "waiting", "spectators": 0, "creator": CLIPBOARD[:32],
            "seats": [dict(seat, seat=0, name=CLIPBOARD[:32]), dict(seat, seat=1, name=None)]}


class HostileServer:
    """Answers hello with a welcome whose names are hostile, then tells lobby chat and an
    error; `list_tables` gets a hostile table, and anything else a hostile chat line and
    error. `stop` closes it."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def stop(self) -> None:
        self._stopped = True
        self._listener.close()

    def _accept(self) -> None:
        while not self._stopped:
            try:
                sock, _address = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(sock,), daemon=True).start()

    def _serve(self, sock: socket.socket) -> None:
        conn = Connection(Role.SERVER)
        with sock:
            try:
                while data := sock.recv(65536):
                    conn.receive_data(data)
                    while (msg := conn.next_message()) is not NEED_DATA:
                        if not hasattr(msg, "TYPE"):
                            return
                        for reply in self._answers(msg):
                            sock.sendall(conn.send(reply))
            except OSError:
                return

    def _answers(self, msg) -> list:
        said = [Chat(scope="lobby", name=CLIPBOARD[:32], text=ESCAPES + MARKUP),
                Error(code="\x1b[2J" + "\u202e", message=ESCAPES + CLIPBOARD + MARKUP)]
        if msg.TYPE == "hello":
            return [Welcome(version=1, server=(ESCAPES + MARKUP)[:64], name=MARKUP[:32]), *said]
        if msg.TYPE == "list_tables":
            return [Tables(tables=[summary()], re=msg.id), *said]
        return said
