"""The terminal client's speed as a player feels it.

1. Cold start: `coup play --bots 3` is launched in a fresh process on a pseudo-terminal
   (80×24 unless --size says otherwise); the moment the practice table waits for its player
   (its seats drawn), s is pressed, as the player does to deal, and the clock stops when the
   table's game — the treasury line under the players, drawn only once a game's view
   arrived — is on the screen. Each
   run is a new interpreter, so imports, the embedded server, the handshake and the first
   snapshot all count. The median of --runs starts is reported.
2. Local validation: the engine's check of a move on the client's own view, exactly what the
   client does before sending, timed over every decision of random games.

    python -m benchmarks.client [--runs N] [--size 80x24] [--json]
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import pty
import random
import re
import select
import signal
import statistics
import struct
import sys
import termios
import time

from engine import Game, Options, check

#: Drawn only when the table shows a game: the players' panel's treasury line.
MARKER = "Treasury"
#: Drawn when the practice table waits for its player to deal (press s).
WAITING = "not ready"
#: Terminal escape sequences: CSI, OSC, DCS/SOS/PM/APC strings, and two-byte escapes.
_ESCAPES = re.compile(rb"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)"
                      rb"|[PX^_][^\x1b]*\x1b\\|[@-Z\\-_])")


def cold_start(columns: int, rows: int, timeout: float = 30.0) -> float:
    """Seconds from launching `coup play --bots 3` to its game on the screen, s pressed as
    soon as the table waits for it."""
    command = [sys.executable, "-m", "client.cli", "--lang", "en", "play", "--bots", "3"]
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: a terminal of the size asked for, then the client
        os.environ["TERM"] = "xterm-256color"
        os.execv(sys.executable, command)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    screen = b""
    dealt = False
    try:
        while time.perf_counter() - start < timeout:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            screen += chunk
            seen = _ESCAPES.sub(b"", screen[-8192:])
            if MARKER.encode() in seen:
                return time.perf_counter() - start
            if not dealt and WAITING.encode() in seen:
                os.write(fd, b"s")  # deal, as the player does
                dealt = True
        raise RuntimeError("the table never appeared; the client wrote:\n"
                           + _ESCAPES.sub(b"", screen).decode(errors="replace")[-2000:])
    finally:
        _stop(pid, fd)


def _stop(pid: int, fd: int) -> None:
    """Quit the client as a player would (ctrl+c), and make sure it is gone."""
    try:
        os.write(fd, b"\x03")
        deadline = time.perf_counter() + 5
        while time.perf_counter() < deadline:
            if os.waitpid(pid, os.WNOHANG) != (0, 0):
                return
            try:
                if select.select([fd], [], [], 0.05)[0]:
                    os.read(fd, 65536)
            except OSError:
                pass
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    finally:
        os.close(fd)


def validation(games: int, seed: int) -> list[float]:
    """Seconds per local check of a move, over every decision of random 4-player games."""
    rng = random.Random(seed)
    times = []
    for n in range(games):
        game = Game.new(Options(players=4), seed + n)
        while game.phase != "over":
            seat = rng.choice(game.waiting)
            view = game.view(seat)
            mv = rng.choice(game.legal_moves(seat))
            t0 = time.perf_counter()
            check(view, seat, mv, view.state_id)  # legal: a refusal would raise, a bug
            times.append(time.perf_counter() - t0)
            game.apply(seat, mv)
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="cold starts; the median counts")
    parser.add_argument("--size", default="80x24", help="terminal COLUMNSxROWS")
    parser.add_argument("--games", type=int, default=200, help="games for the validation")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    columns, rows = (int(n) for n in args.size.lower().split("x"))
    starts = [cold_start(columns, rows) for _ in range(args.runs)]
    checks = sorted(validation(args.games, 1))
    result = {
        "cold_starts_s": [round(s, 3) for s in starts],
        "table_on_screen_s": round(statistics.median(starts), 3),
        "validations": len(checks),
        "validate_ms_median": round(1000 * statistics.median(checks), 4),
        "validate_ms_p99": round(1000 * checks[int(0.99 * (len(checks) - 1))], 4),
        "validate_ms_max": round(1000 * checks[-1], 4),
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"table on screen (median of {args.runs} cold starts at {args.size}): "
          f"{result['table_on_screen_s']} s  {result['cold_starts_s']}")
    print(f"local validation of a move: median {result['validate_ms_median']} ms, "
          f"p99 {result['validate_ms_p99']} ms, max {result['validate_ms_max']} ms "
          f"over {len(checks)} decisions")


if __name__ == "__main__":
    main()
