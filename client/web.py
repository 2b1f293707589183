"""`coup web`, the browser door: the terminal client served to web browsers by textual-serve.

Each browser session (one websocket) runs the client as its own process, forked by the
session host (server/hosting.py) onto three pipes that textual-serve relays as it relays a
process it spawned (with --spawn, or while no host can be had, it spawns one): the menu, or
with --join a server's lobby and nothing else (`coup join --lobby-only`), or with --play a
table against bots; one that used up its --session-memory is told so in the page. The menu and --play are for the user's own browser: a door that others reach
(any address but loopback, or behind a proxy with --public-url) must be --join's. Every
session is a guest with a home of its own, a temporary directory for its settings and
records removed when the session ends: what the user running the door keeps (its key above
all) is no browser's. The door listens on loopback unless told otherwise, and it never runs
more sessions at once than its caps (in all, and from one address): a session over a cap is
refused with a sentence; one without input for --idle-minutes ends with one. What a browser
states is bounded: a terminal's size (`fit`), and its websocket's Origin, which must be the
door's own (`origins`): any page a visitor opens elsewhere could otherwise drive a session.
Every URL the page names comes from the configured address (--host and --port, or
--public-url), never from the request. With --join the door vouches to the server for each
player's address (`client.identity.DoorAddress`), with the secret it shares with the server,
so that the server's limits per address count the person, not the door; behind a reverse
proxy (--behind-proxy) that address is the last one the proxy put in X-Forwarded-For. The
page asks nothing of any other site: its font is served by the door (`own_font`). It has no
TLS and no login of its own; docs/SERVER.md says how to put both in front of it.
textual-serve (and aiohttp) are the optional extra `web`, imported only when the door
opens, so the rest of the client never needs them.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import ipaddress
import json
import os
import re
import shlex
import shutil
import signal
import sys
import tempfile

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from server import Hosted, Order, SessionHost

DEFAULT_PORT = 7680
DEFAULT_SESSIONS = 20
DEFAULT_PER_ADDRESS = 3
DEFAULT_IDLE_MINUTES = 30.0
#: The largest terminal a session is given, whatever the browser says: the client's memory
#: grows with its screen (a 65535x65535 resize took one to 3 GB in 45 s).
MAX_COLUMNS = 500
MAX_ROWS = 200
MISSING = ("coup web: the browser door needs the web extra: pip install 'coup-tui[web]' "
           "(or pip install -e '.[web]' in a checkout)")

#: textual-serve's page fetches its font from this site, which would hear of every visit.
FONT_LINK = re.compile(r"<link\b[^>]*fonts\.googleapis\.com[^>]*>")
#: The same font's files, as textual-serve ships them (under the door's static/fonts/).
FONT_FILES = (("normal", "RobotoMono-VariableFont_wght.ttf"),
              ("italic", "RobotoMono-Italic-VariableFont_wght.ttf"))

#: Why a door that others reach serves one server's lobby only.
#: What a websocket from another site's page is told (with 403).
FOREIGN = "This door plays only from its own page."
#: Addresses that listen on every interface: no browser can use them in a URL.
WILDCARDS = ("0.0.0.0", "::")
WILDCARD_URL = ("a door on every interface needs --public-url, the address browsers reach it "
                "at (http://192.168.1.5:7680, https://coup.example.org): the page's URLs are "
                "made from it")

OPEN_MENU = ("a door others reach (--host other than loopback, or --public-url) serves one "
             "server's lobby: add --join HOST:PORT. The menu, and the practice table's way "
             "back to it, would let every visitor start servers on this machine and reach any "
             "address from it")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of `coup web`."""
    from server import add_host_arguments

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
    parser.add_argument("--max-per-address", type=int, default=DEFAULT_PER_ADDRESS,
                        metavar="N", help="browser sessions at once from one address (an "
                        f"IPv6 address counts as its /64; default {DEFAULT_PER_ADDRESS})")
    parser.add_argument("--idle-minutes", type=float, default=DEFAULT_IDLE_MINUTES,
                        metavar="M", help="minutes without input that end a session "
                        f"(default {DEFAULT_IDLE_MINUTES:g})")
    parser.add_argument("--max-columns", type=int, default=MAX_COLUMNS, metavar="N",
                        help=f"the widest terminal a session is given (default {MAX_COLUMNS})")
    parser.add_argument("--max-rows", type=int, default=MAX_ROWS, metavar="N",
                        help=f"the tallest terminal a session is given (default {MAX_ROWS})")
    add_host_arguments(parser)
    parser.add_argument("--public-url", metavar="URL",
                        help="the address browsers reach the door at, when it is behind a "
                        "reverse proxy or listens on every interface: https://coup.example.org "
                        "(default: http://HOST:PORT as --host and --port say); the page's "
                        "URLs are made from it, and a websocket from any other origin is "
                        "refused")
    parser.add_argument("--behind-proxy", action="store_true",
                        help="the door is reached through a reverse proxy that puts each "
                        "browser's address last in X-Forwarded-For: the per-address limits "
                        "(here and, with --join, the server's) count that address, not the "
                        "proxy's. Without a proxy in front, anyone could write that header")
    parser.add_argument("--door-secret", metavar="PATH",
                        help="with --join: the secret the door vouches for each player's "
                        "address with, shared with coup serve (default: door.secret in the "
                        "user's data directory, as coup serve's)")
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


def arguments(args: argparse.Namespace) -> list[str]:
    """What `coup` is told for each session: a guest, as the door's flags say."""
    argv = ["--guest"]
    if getattr(args, "lang", None):
        argv += ["--lang", args.lang]
    if args.join:
        argv += ["join", args.join, "--lobby-only"]
    elif args.play:
        argv += ["play"]
    return argv


def command(args: argparse.Namespace) -> str:
    """The shell command a session runs with --spawn (or without a session host): this
    Python's `coup` with the session's `arguments` (exec'd, so that each session is one
    process)."""
    return "exec " + shlex.join([sys.executable, "-m", "client.cli", *arguments(args)])


#: What a session's process keeps of the door's environment: what runs Python and the
#: client, and the language; none of the door's other variables (a secret among them).
PASSED = ("PATH", "PYTHONPATH", "LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES",
          "COUP_DISCOVERY")


def environment(given: dict[str, str], home: str, via: str | None = None) -> dict[str, str]:
    """A session's environment, from the one textual-serve `given` it: its own variables
    (TEXTUAL_*, the terminal's size), those of PASSED, and a home of its own, the client's
    config and data directories in it, under the name guest; and `via`, the door's word for
    the player's address ("<proof>:<address>"), if it vouches for one."""
    from .identity import ADDRESS_VARIABLE

    kept = {name: value for name, value in given.items()
            if name in PASSED or name.startswith(("TEXTUAL", "TERM_PROGRAM"))
            or name in ("COLUMNS", "ROWS")}
    own = {"HOME": home, "USER": "guest", "LOGNAME": "guest",
           "XDG_CONFIG_HOME": os.path.join(home, "config"),
           "XDG_DATA_HOME": os.path.join(home, "data")}
    if via is not None:
        own[ADDRESS_VARIABLE] = via
    return kept | own


def fit(width: object, height: object, most: tuple[int, int]) -> tuple[int, int]:
    """The terminal size a browser states (any JSON: a resize message is the browser's to
    write), as the session gets it: whole numbers within 1..`most` (columns, rows); what is
    not a number is the default 80x24."""
    def within(value: object, default: int, top: int) -> int:
        if isinstance(value, str):  # a query's: ASCII digits, and not the 4,300 int() refuses
            value = int(value) if value.isascii() and value.isdigit() and len(
                value) < 10 else default
        if not isinstance(value, int) or isinstance(value, bool):
            value = default
        return max(1, min(top, value))

    return within(width, 80, most[0]), within(height, 24, most[1])


def origins(public_url: str | None, host: str, port: int) -> frozenset[str]:
    """The origins a session's websocket may come from: the door's own. That of
    --public-url, else http://HOST:PORT, and on loopback the other names of loopback at
    that port (a page at http://localhost:PORT opens the websocket the page names)."""
    if public_url is not None:
        parts = urlsplit(public_url.lower())
        default = {"http": 80, "https": 443}.get(parts.scheme)
        # A browser names no port that is its scheme's own: https://host, not :443.
        shown = "" if parts.port in (None, default) else f":{parts.port}"
        return frozenset({f"{parts.scheme}://{_bracketed(parts.hostname or '')}{shown}"})
    names = [host] + (["localhost", "127.0.0.1", "::1"] if _loopback(host) else [])
    return frozenset(f"http://{_bracketed(name)}:{port}".lower() for name in names)


def too_many(cap: int) -> str:
    """The sentence a session over the per-address cap is refused with (at most 123 bytes:
    it is also the websocket's close reason)."""
    return f"Too many sessions from your address: {cap} at most. Close one and try again."


def idle(minutes: float) -> str:
    """The line a session without input ends with."""
    return f"No input for {minutes:g} minutes; goodbye."


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
    for flag in ("max_sessions", "max_per_address", "max_columns", "max_rows",
                 "session_memory"):
        if getattr(args, flag) < 1:
            print(f"coup web: --{flag.replace('_', '-')} must be 1 or more", file=sys.stderr)
            return 2
    try:
        import textual_serve.server  # noqa: F401  (the extra's presence is the question)
    except ImportError:
        print(MISSING, file=sys.stderr)
        return 2
    if not args.join and (args.public_url or not _loopback(args.host)):
        print(f"coup web: {OPEN_MENU}", file=sys.stderr)
        return 2
    if args.public_url is not None and not _is_url(args.public_url):
        print(f"coup web: --public-url: {args.public_url!r} is not an http:// or https:// "
              "address", file=sys.stderr)
        return 2
    if args.host in WILDCARDS and args.public_url is None:
        print(f"coup web: {WILDCARD_URL}", file=sys.stderr)
        return 2
    secret = None
    if args.join:
        from server import DoorKeyError, default_secret_path, load_secret

        try:
            secret = load_secret(args.door_secret or default_secret_path())
        except DoorKeyError as exc:
            print(f"coup web: --door-secret: {exc}", file=sys.stderr)
            return 2
    if not _loopback(args.host):
        print(f"coup web: warning: listening on {args.host}, unencrypted and without a "
              "login: anyone who reaches it can play as a guest and read what is typed. "
              "Put a reverse proxy with TLS and a login in front (docs/SERVER.md)",
              file=sys.stderr)
    try:
        asyncio.run(_serve(args, secret))
    except OSError as exc:
        print(f"coup web: cannot listen on {args.host} port {args.port}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


async def _serve(args: argparse.Namespace, secret: bytes | None) -> None:
    """Start the session host (unless --spawn), listen, say where, and serve until SIGINT or
    SIGTERM; then end every session, and the host."""
    from server import HostUnavailable, SessionHost

    host = None
    if not args.spawn:
        host = SessionHost(args.session_memory, _say)
        try:
            await host.start()  # the first session need not wait for it
        except HostUnavailable as exc:
            print(f"coup web: {exc}; sessions are spawned until it can be had", flush=True)
    try:
        await _listen(args, _door(args, secret, host), host)
    finally:
        if host is not None:
            await host.close()


@dataclass(frozen=True, slots=True)
class Piped:
    """A session the host forked, as textual-serve reads its process: the host's news of it
    and the door's ends of its three pipes."""

    hosted: Hosted
    stdin: asyncio.StreamWriter
    stdout: asyncio.StreamReader
    stderr: asyncio.StreamReader


async def _hosted(host: SessionHost, order: Order) -> Piped:
    """Have `host` fork the session `order` onto three new pipes; HostUnavailable if it
    cannot."""
    loop = asyncio.get_running_loop()
    (in_read, in_write), (out_read, out_write), (err_read, err_write) = (
        os.pipe(), os.pipe(), os.pipe())
    theirs = [in_read, out_write, err_write]
    try:
        hosted = await host.run(order, theirs)
    except BaseException:
        for fd in (in_write, out_read, err_read):
            os.close(fd)
        raise
    finally:
        for fd in theirs:  # the session has its own copies now
            os.close(fd)
    readers = []
    for fd in (out_read, err_read):
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(partial(asyncio.StreamReaderProtocol, reader),
                                     os.fdopen(fd, "rb", buffering=0))
        readers.append(reader)
    transport, protocol = await loop.connect_write_pipe(
        lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader()),
        os.fdopen(in_write, "wb", buffering=0))
    return Piped(hosted, asyncio.StreamWriter(transport, protocol, None, loop), *readers)


def _say(event: str, fields: dict[str, object]) -> None:
    """A line of the session host's news, as the door prints its own: the first host's
    start is in the line that says where the door serves."""
    if event == "session_host_started" and fields.get("started") == 1:
        return
    print(f"coup web: {event} " + " ".join(f"{k}={v}" for k, v in fields.items()), flush=True)


async def _listen(args: argparse.Namespace, door, host: SessionHost | None) -> None:
    """Serve `door` (`_door`'s, its sessions forked by `host`) where the flags say until
    SIGINT or SIGTERM."""
    from aiohttp import web

    # Stopping, the door closes the sessions' websockets and each session ends its process;
    # one whose process will not end is cancelled after shutdown_timeout.
    runner = web.AppRunner(await door._make_app(), handle_signals=False, shutdown_timeout=5)
    await runner.setup()
    try:
        await web.TCPSite(runner, args.host, args.port).start()
        port = runner.addresses[0][1]
        door.settle(port)
        what = f"the lobby of {args.join}" if args.join else (
            "tables against bots" if args.play else "the menu")
        listening = f"http://{_bracketed(args.host)}:{port}/"
        where = f"{args.public_url} (listening on {listening})" if args.public_url else listening
        forked = (f", each forked from the session host (pid {host.pid})"
                  if host is not None and host.pid is not None else ", each a program of its own")
        print(f"coup web: serving {what} on {where}, at most {args.max_sessions} sessions "
              f"at once{forked}", flush=True)
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


def _is_url(text: str) -> bool:
    """Whether `text` is an http:// or https:// address with a host (and a port, if any, that
    is one)."""
    parts = urlsplit(text)
    try:
        parts.port  # noqa: B018 — read for the ValueError a bad port raises
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _door(args: argparse.Namespace, secret: bytes | None, host: SessionHost | None):
    """textual-serve's Server, with the caps on sessions, the Origin check, a home for each
    session, its size bounded, its player's address vouched for (given `secret`), and its
    process forked by the session `host` (given one)."""
    from aiohttp import WSCloseCode, WSMsgType, web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    from server import OUT_OF_MEMORY, HostUnavailable, Order, out_of_memory, sharer, vouch_address

    most = (args.max_columns, args.max_rows)

    class Session(AppService):
        """textual-serve's session, in a home of its own, its size bounded, forked by the
        session host on three pipes (or spawned, as textual-serve does, without one)."""

        def __init__(self, home: str, via: str | None, **kwargs) -> None:
            super().__init__(command(args), **kwargs)
            self.home = home
            self.via = via
            self.last_input = asyncio.get_running_loop().time()
            self.hosted: Hosted | None = None

        async def _open_app_process(  # type: ignore[override]
                self, width: int = 80, height: int = 24) -> object:
            """The client's process: forked by the host, its ends of the pipes made the
            streams textual-serve reads and writes; spawned as textual-serve does if there
            is no host to be had."""
            if host is not None:
                order = Order(tuple(arguments(args)), self._build_environment(width, height),
                              self.home, False)
                try:
                    piped = await _hosted(host, order)
                except HostUnavailable as exc:
                    print(f"coup web: a session spawned: {exc}", flush=True)
                else:
                    self.hosted, self._stdin = piped.hosted, piped.stdin
                    # textual-serve reads its process's stdout and stderr, no more
                    self._process = piped  # type: ignore[assignment]
                    return piped
            return await super()._open_app_process(width, height)

        async def run(self) -> None:
            """textual-serve's relay until the client's output ends; then, for a client that
            used up its memory, the line that says so."""
            await super().run()
            if self.hosted is None:
                return
            self.stdin.close()
            if await self.hosted.wait() == OUT_OF_MEMORY:
                line = out_of_memory(args.session_memory)
                print(f"coup web: a session used up its memory ({args.session_memory} MB)",
                      flush=True)
                await self.remote_write_bytes(f"\r\ncoup: {line}\r\n".encode())
                await self.remote_close()

        def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
            return environment(super()._build_environment(width, height), self.home,
                               self.via)

        async def start(self, width: object, height: object) -> None:
            await super().start(*fit(width, height, most))

        async def set_terminal_size(self, width: object, height: object) -> None:
            await super().set_terminal_size(*fit(width, height, most))

    class Door(Server):
        def __init__(self) -> None:
            super().__init__("coup", host=args.host, port=args.port, title="Coup",
                             public_url=args.public_url)
            self.cap = args.max_sessions
            self.per_address = args.max_per_address
            self.idle = args.idle_minutes * 60
            #: The sessions open now, by their websockets, and how many per address.
            self.sessions: set[web.WebSocketResponse] = set()
            self.by_address: collections.Counter[str] = collections.Counter()
            self.origins: frozenset[str] = frozenset()

        def settle(self, port: int) -> None:
            """The door listens on `port`: its own URL and origins are known."""
            self.port = port
            self.public_url = args.public_url or f"http://{_bracketed(args.host)}:{port}"
            self.origins = origins(args.public_url, args.host, port)

        def address_of(self, request: web.Request) -> str:
            """Where the browser is: its peer's address, or behind a proxy the address the
            proxy put last in X-Forwarded-For (the ones before it are the browser's to
            write)."""
            forwarded = request.headers.getall("X-Forwarded-For", [])
            if args.behind_proxy and forwarded:
                return forwarded[-1].rsplit(",", 1)[-1].strip()
            return request.remote or "?"

        def refusal(self, address: str) -> str | None:
            if len(self.sessions) >= self.cap:
                return full(self.cap)
            if self.by_address[sharer(address)] >= self.per_address:
                return too_many(self.per_address)
            return None

        async def on_startup(self, app: web.Application) -> None:
            pass  # textual-serve's banner: _serve says where the door listens, once it does

        async def on_shutdown(self, app: web.Application) -> None:
            # aiohttp waits for every handler before it stops: each session's ends once its
            # websocket is closed, having ended its process.
            for websocket in list(self.sessions):
                await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"coup web stopped")

        async def handle_index(self, request: web.Request):
            refused = self.refusal(self.address_of(request))
            if refused is not None:
                return web.Response(status=503, text=refused)
            # textual-serve makes the page's URLs from public_url, set by `settle` from the
            # configured address: the request's Host is the browser's to write.
            response = await super().handle_index(request)
            assert isinstance(response, web.Response) and response.text is not None  # the page
            static = request.app.router["static"].url_for(filename="/")
            response.text = own_font(response.text, f"{self.public_url}{static}")
            return response

        # aiohttp takes any response from a handler: a refused origin gets a 403, no socket
        async def handle_websocket(  # type: ignore[override]
                self, request: web.Request) -> web.StreamResponse:
            """A session: its own client process while the browser stays, as textual-serve
            runs one (but in a home of its own), if it comes from the door's own page."""
            origin = request.headers.get("Origin", "")
            if origin.lower() not in self.origins:
                print(f"coup web: refused a websocket from {request.remote} with origin "
                      f"{origin[:100]!r}", flush=True)
                return web.Response(status=403, text=FOREIGN)
            websocket = web.WebSocketResponse(heartbeat=15)
            await websocket.prepare(request)
            address = self.address_of(request)
            refused = self.refusal(address)
            if refused is not None:
                print(f"coup web: refused a session from {address}: {refused}", flush=True)
                await websocket.send_bytes(refused.encode())  # the browser's terminal
                await websocket.close(code=WSCloseCode.TRY_AGAIN_LATER,
                                      message=refused.encode())
                return websocket
            self.sessions.add(websocket)
            self.by_address[sharer(address)] += 1
            home = tempfile.mkdtemp(prefix="coup-web-")
            via = f"{vouch_address(secret, address)}:{address}" if secret else None
            try:
                session = Session(home, via, write_bytes=websocket.send_bytes,
                                  write_str=websocket.send_str, close=websocket.close,
                                  download_manager=self.download_manager)
                await session.start(request.query.get("width"), request.query.get("height"))
                watch = asyncio.create_task(self._end_when_idle(websocket, session))
                try:
                    await self._process_messages(websocket, session)
                finally:
                    watch.cancel()
                    await session.stop()  # asks the client to quit, and waits until it has
            finally:
                self.sessions.discard(websocket)
                self.by_address[sharer(address)] -= 1
                if not self.by_address[sharer(address)]:
                    del self.by_address[sharer(address)]
                shutil.rmtree(home, ignore_errors=True)
            return websocket

        # Only our handle_websocket calls it, with our Session (its last_input is read here)
        async def _process_messages(  # type: ignore[override]
                self, websocket: web.WebSocketResponse, session: Session) -> None:
            """What the page sends: ["stdin", text], ["resize", {width, height}],
            ["ping", data], ["blur"], ["focus"]. Anything else, or any of them malformed,
            is the browser's mistake and is let go (textual-serve's own raises on it)."""
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    envelope = json.loads(message.data)
                except ValueError:
                    continue
                if not isinstance(envelope, list) or not envelope:
                    continue
                kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
                if kind == "stdin" and isinstance(data, str):
                    session.last_input = asyncio.get_running_loop().time()
                    await session.send_bytes(data.encode("utf-8", "replace"))
                elif kind == "resize" and isinstance(data, dict):
                    await session.set_terminal_size(data.get("width"), data.get("height"))
                elif kind == "ping" and isinstance(data, str):
                    await websocket.send_json(["pong", data])
                elif kind == "blur":
                    await session.blur()
                elif kind == "focus":
                    await session.focus()

        async def _end_when_idle(self, websocket: web.WebSocketResponse,
                                 session: Session) -> None:
            """Close the session once nothing was typed for --idle-minutes, with a line."""
            loop = asyncio.get_running_loop()
            # a sleep to the deadline, which typing moves on: no event to wait for
            while (left := session.last_input + self.idle - loop.time()) > 0:  # noqa: ASYNC110
                await asyncio.sleep(left)
            line = idle(args.idle_minutes)
            await websocket.send_bytes(f"\r\ncoup: {line}\r\n".encode())
            await websocket.close(code=WSCloseCode.GOING_AWAY, message=line.encode()[:123])

    return Door()
