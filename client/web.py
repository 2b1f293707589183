"""`coup web`, the browser door: the terminal client served to web browsers by textual-serve.

Each browser session (one websocket) runs the client as its own process: the menu, or with
--join a server's lobby and nothing else (`coup join --lobby-only`), or with --play a table
against bots. The menu and --play are for the user's own browser: a door that others reach
(any address but loopback, or behind a proxy with --public-url) must be --join's. Every
session is a guest with a home of its own, a temporary directory for its settings and
records removed when the session ends: what the user running the door keeps (its key above
all) is no browser's. The door listens on loopback unless told otherwise, and it never runs
more sessions at once than its cap: a session over the cap is refused with a sentence. The
page asks nothing of any other site: its font is served by the door (`own_font`). It has no
TLS and no login of its own; docs/SERVER.md says how to put both in front of it.
textual-serve (and aiohttp) are the optional extra `web`, imported only when the door
opens, so the rest of the client never needs them.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import os
import re
import shlex
import shutil
import signal
import sys
import tempfile

DEFAULT_PORT = 7680
DEFAULT_SESSIONS = 20
MISSING = ("coup web: the browser door needs the web extra: pip install 'coup-tui[web]' "
           "(or pip install -e '.[web]' in a checkout)")

#: textual-serve's page fetches its font from this site, which would hear of every visit.
FONT_LINK = re.compile(r"<link\b[^>]*fonts\.googleapis\.com[^>]*>")
#: The same font's files, as textual-serve ships them (under the door's static/fonts/).
FONT_FILES = (("normal", "RobotoMono-VariableFont_wght.ttf"),
              ("italic", "RobotoMono-Italic-VariableFont_wght.ttf"))

#: Why a door that others reach serves one server's lobby only.
OPEN_MENU = ("a door others reach (--host other than loopback, or --public-url) serves one "
             "server's lobby: add --join HOST:PORT. The menu, and the practice table's way "
             "back to it, would let every visitor start servers on this machine and reach any "
             "address from it")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of `coup web`."""
    parser.add_argument("--lang", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this machine only; "
                        "anything else is unencrypted and open to anyone who reaches it, and "
                        "needs --join)")
    parser.add_argument("--port", type=_port, default=DEFAULT_PORT,
                        help=f"the port to listen on (default {DEFAULT_PORT})")
    parser.add_argument("--max-sessions", type=int, default=DEFAULT_SESSIONS, metavar="N",
                        help="browser sessions at once, each a client process; one more is "
                        f"refused with a sentence (default {DEFAULT_SESSIONS})")
    parser.add_argument("--public-url", metavar="URL",
                        help="the address browsers reach the door at, when it is behind a "
                        "reverse proxy: https://coup.example.org (default: the address each "
                        "browser asked for)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--join", metavar="HOST[:PORT]",
                      help="make every session this server's lobby and nothing else, as a "
                      "door that others reach must (default: the menu)")
    what.add_argument("--play", action="store_true",
                      help="open every session at a table against bots, as coup play does")


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port, 0 to 65535")
    return int(text)


def command(args: argparse.Namespace) -> str:
    """The shell command a session runs: this Python's `coup` as a guest, as the flags say
    (exec'd, so that each session is one process)."""
    argv = [sys.executable, "-m", "client.cli", "--guest"]
    if getattr(args, "lang", None):
        argv += ["--lang", args.lang]
    if args.join:
        argv += ["join", args.join, "--lobby-only"]
    elif args.play:
        argv += ["play"]
    return "exec " + shlex.join(argv)


#: What a session's process keeps of the door's environment: what runs Python and the
#: client, and the language; none of the door's other variables (a secret among them).
PASSED = ("PATH", "PYTHONPATH", "LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES",
          "COUP_DISCOVERY")


def environment(given: dict[str, str], home: str) -> dict[str, str]:
    """A session's environment, from the one textual-serve `given` it: its own variables
    (TEXTUAL_*, the terminal's size), those of PASSED, and a home of its own, the client's
    config and data directories in it, under the name guest."""
    kept = {name: value for name, value in given.items()
            if name in PASSED or name.startswith(("TEXTUAL", "TERM_PROGRAM"))
            or name in ("COLUMNS", "ROWS")}
    return kept | {"HOME": home, "USER": "guest", "LOGNAME": "guest",
                   "XDG_CONFIG_HOME": os.path.join(home, "config"),
                   "XDG_DATA_HOME": os.path.join(home, "data")}


def full(cap: int) -> str:
    """The sentence a session over the cap is refused with (at most 123 bytes: it is also
    the websocket's close reason)."""
    return (f"This game door is full: it seats no more than {cap} at once. "
            "Please try again in a little while.")


def main(args: argparse.Namespace) -> int:
    """Serve the client to browsers until SIGINT or SIGTERM; returns the exit status."""
    from .i18n import set_language
    from .net import LinkError, parse_address

    try:
        set_language(getattr(args, "lang", None))
        if args.join:
            parse_address(args.join)
    except (ValueError, LinkError) as exc:
        print(f"coup web: {exc}", file=sys.stderr)
        return 2
    if args.max_sessions < 1:
        print("coup web: --max-sessions must be 1 or more", file=sys.stderr)
        return 2
    try:
        import textual_serve.server  # noqa: F401  (the extra's presence is the question)
    except ImportError:
        print(MISSING, file=sys.stderr)
        return 2
    if not args.join and (args.public_url or not _loopback(args.host)):
        print(f"coup web: {OPEN_MENU}", file=sys.stderr)
        return 2
    if not _loopback(args.host):
        print(f"coup web: warning: listening on {args.host}, unencrypted and without a "
              "login: anyone who reaches it can play as a guest and read what is typed. "
              "Put a reverse proxy with TLS and a login in front (docs/SERVER.md)",
              file=sys.stderr)
    try:
        asyncio.run(_serve(args))
    except OSError as exc:
        print(f"coup web: cannot listen on {args.host} port {args.port}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


async def _serve(args: argparse.Namespace) -> None:
    """Listen, say where, and serve until SIGINT or SIGTERM; then end every session."""
    from aiohttp import web

    door = _door(args)
    # Stopping, the door closes the sessions' websockets and each session ends its process;
    # one whose process will not end is cancelled after shutdown_timeout.
    runner = web.AppRunner(await door._make_app(), handle_signals=False, shutdown_timeout=5)
    await runner.setup()
    try:
        await web.TCPSite(runner, args.host, args.port).start()
        host, port = runner.addresses[0][:2]
        what = f"the lobby of {args.join}" if args.join else (
            "tables against bots" if args.play else "the menu")
        where = args.public_url or f"http://{_bracketed(host)}:{port}/"
        print(f"coup web: serving {what} on {where}, at most {args.max_sessions} sessions "
              "at once", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
    finally:
        await runner.cleanup()


def own_font(page: str, static: str) -> str:
    """textual-serve's page with its font from the door (its files at `static`), not from
    Google."""
    faces = "".join(
        f'@font-face {{ font-family: "Roboto Mono"; font-style: {style}; font-weight: 100 700; '
        f'src: url("{static}fonts/{file}") format("truetype"); }}' for style, file in FONT_FILES)
    return FONT_LINK.sub(lambda _link: f"<style>{faces}</style>", page)


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _door(args: argparse.Namespace):
    """textual-serve's Server, with the cap on sessions and a home for each."""
    from aiohttp import WSCloseCode, web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server, to_int

    class Session(AppService):
        """textual-serve's session, in a home of its own."""

        def __init__(self, home: str, **kwargs) -> None:
            super().__init__(command(args), **kwargs)
            self.home = home

        def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
            return environment(super()._build_environment(width, height), self.home)

    class Door(Server):
        def __init__(self) -> None:
            super().__init__("coup", host=args.host, port=args.port, title="Coup",
                             public_url=args.public_url)
            self.cap = args.max_sessions
            #: The sessions open now, by their websockets.
            self.sessions: set[web.WebSocketResponse] = set()

        async def on_startup(self, app: web.Application) -> None:
            pass  # textual-serve's banner: _serve says where the door listens, once it does

        async def on_shutdown(self, app: web.Application) -> None:
            # aiohttp waits for every handler before it stops: each session's ends once its
            # websocket is closed, having ended its process.
            for websocket in list(self.sessions):
                await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"coup web stopped")

        async def handle_index(self, request: web.Request):
            if len(self.sessions) >= self.cap:
                return web.Response(status=503, text=full(self.cap))
            if args.public_url is None:
                # The page tells the browser where the session's websocket is: where the
                # browser found the page (textual-serve would say the listening address,
                # which is no use for 0.0.0.0).
                self.public_url = f"{request.scheme}://{request.host}"
            response = await super().handle_index(request)
            static = request.app.router["static"].url_for(filename="/")
            response.text = own_font(response.text, f"{self.public_url}{static}")
            return response

        async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
            """A session: its own client process while the browser stays, as textual-serve
            runs one (but in a home of its own)."""
            websocket = web.WebSocketResponse(heartbeat=15)
            await websocket.prepare(request)
            if len(self.sessions) >= self.cap:
                print(f"coup web: refused a session from {request.remote}: "
                      f"{self.cap} open, the most", flush=True)
                await websocket.send_bytes(full(self.cap).encode())  # the browser's terminal
                await websocket.close(code=WSCloseCode.TRY_AGAIN_LATER,
                                      message=full(self.cap).encode())
                return websocket
            self.sessions.add(websocket)
            home = tempfile.mkdtemp(prefix="coup-web-")
            try:
                session = Session(home, write_bytes=websocket.send_bytes,
                                  write_str=websocket.send_str, close=websocket.close,
                                  download_manager=self.download_manager)
                await session.start(to_int(request.query.get("width", "80"), 80),
                                    to_int(request.query.get("height", "24"), 24))
                try:
                    await self._process_messages(websocket, session)
                finally:
                    await session.stop()  # asks the client to quit, and waits until it has
            finally:
                self.sessions.discard(websocket)
                shutil.rmtree(home, ignore_errors=True)
            return websocket

    return Door()
