"""`coup ssh`: run the SSH door (server/door.py) from the command line, beside `coup serve`.

Only the flags and the start live here, so that the `coup` command (and every client the door
starts) reads its flags without loading the SSH library; the door is loaded when it runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from protocol import DEFAULT_PORT

from . import log
from .doorkey import DoorKeyError, default_secret_path, load_secret
from .hosting import add_host_arguments

#: The port the door listens on unless told.
PORT = 2222


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of `coup ssh`."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on: 127.0.0.1 is this machine only, 0.0.0.0 "
                        "every interface, as coup serve's --host (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=PORT,
                        help=f"the port SSH clients connect to (0: any free port; default "
                        f"{PORT})")
    parser.add_argument("--server", default=f"127.0.0.1:{DEFAULT_PORT}", metavar="HOST:PORT",
                        help="the game server the players' clients join; it must share the "
                        f"door's secret (default 127.0.0.1:{DEFAULT_PORT})")
    parser.add_argument("--door-secret", metavar="PATH",
                        help="the secret the door vouches for its players with, shared with "
                        "coup serve and made by whichever starts first (default: door.secret "
                        "in the user's data directory, as coup serve's)")
    parser.add_argument("--host-key", metavar="PATH",
                        help="the door's Ed25519 host key, made on first use (default: "
                        "ssh_host_ed25519_key in the user's data directory)")
    parser.add_argument("--fingerprint", action="store_true",
                        help="print the host key's fingerprint, as ssh-keygen -lf does, and "
                        "exit")
    parser.add_argument("--max-sessions", type=int, default=50, metavar="N",
                        help="sessions at once, in all: each a client forked from the "
                        "session host, of about 25-30 MB of its own (default 50)")
    parser.add_argument("--max-per-address", type=int, default=5, metavar="N",
                        help="sessions at once from one address; an IPv6 address counts as "
                        "its /64, here and in --connections-per-minute (default 5)")
    parser.add_argument("--connections-per-minute", type=int, default=20, metavar="N",
                        help="new connections one address may open in a minute (default 20)")
    parser.add_argument("--max-unauthenticated", type=int, default=3, metavar="N",
                        help="connections from one address that have not logged in yet; "
                        "one more is closed at once (default 3)")
    parser.add_argument("--login-seconds", type=float, default=10.0, metavar="S",
                        help="seconds a connection has to log in before it is closed "
                        "(default 10)")
    parser.add_argument("--idle-minutes", type=float, default=30.0, metavar="M",
                        help="minutes without input that end a session (default 30)")
    parser.add_argument("--max-columns", type=int, default=500, metavar="N",
                        help="the widest terminal a session is given, whatever its client "
                        "asks for: the client's memory grows with its screen (default 500)")
    parser.add_argument("--max-rows", type=int, default=200, metavar="N",
                        help="the tallest terminal a session is given (default 200)")
    add_host_arguments(parser)
    parser.add_argument("--log-json", action="store_true", help="log one JSON object per line")


def main(args: argparse.Namespace) -> int:
    """`coup ssh` with the parsed flags; returns the exit status."""
    from .door import HOST_KEY_FILE, data_dir, fingerprint_line, host_key, serve

    try:
        key = host_key(args.host_key or os.path.join(data_dir(), HOST_KEY_FILE))
    except ValueError as exc:
        print(f"coup ssh: --host-key: {exc}", file=sys.stderr)
        return 2
    if args.fingerprint:
        print(fingerprint_line(key))
        return 0
    host, _, port = args.server.rpartition(":")
    if not host or not port.isdigit():
        print(f"coup ssh: --server: {args.server!r} is not HOST:PORT", file=sys.stderr)
        return 2
    try:
        secret = load_secret(args.door_secret or default_secret_path())
    except DoorKeyError as exc:
        print(f"coup ssh: --door-secret: {exc}", file=sys.stderr)
        return 2
    if args.session_memory < 1:
        print("coup ssh: --session-memory must be 1 or more", file=sys.stderr)
        return 2
    log.setup(args.log_json)
    try:
        asyncio.run(serve(args, key, secret))
    except OSError as exc:
        print(f"coup ssh: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    return 0
