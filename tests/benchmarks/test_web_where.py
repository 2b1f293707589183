"""benchmarks.web --where reads a browser session's screen from its stdout as the door does
(issue 32): Textual's web driver writes a line, then packets of a type byte, a 4-byte size
and a payload; only the data packets are the screen, however the pipe cuts them."""

import os
import time

from benchmarks.web import PRELUDE, Pipe


def packet(kind: bytes, payload: bytes) -> bytes:
    return kind + len(payload).to_bytes(4, "big") + payload


def test_the_screen_is_the_data_packets_however_the_pipe_cuts_them():
    written = (PRELUDE + packet(b"D", b"\x1b[?1049h") + packet(b"M", b'{"type": "exit"}')
               + packet(b"D", "you are p0 \u25b2".encode()) + packet(b"P", b"\x00\x01"))
    for cut in range(1, len(written)):
        screen = Pipe(-1)
        screen.feed(written[:cut])
        screen.feed(written[cut:])
        assert screen.seen == "\x1b[?1049hyou are p0 \u25b2".encode()
        assert screen.unread == b""


def test_nothing_before_the_prelude_is_read_as_a_packet():
    screen = Pipe(-1)
    screen.feed(b"Dstray words")  # a warning printed before the driver starts
    screen.feed(PRELUDE + packet(b"D", b"lobby"))
    assert screen.seen == b"lobby"


def test_until_reads_the_pipe_to_what_is_wanted():
    read, write = os.pipe()
    try:
        os.write(write, PRELUDE + packet(b"D", b"you ") + packet(b"D", b"are here"))
        screen = Pipe(read)
        screen.until(b"you are here", time.monotonic() + 10)
        assert screen.seen == b"you are here"
    finally:
        os.close(read)
        os.close(write)
