"""The `coup` command: the single entry point, dispatching to each part of the product."""

from __future__ import annotations

import argparse
import functools
import json
import logging
import math
import os
import sys


def build_parser() -> argparse.ArgumentParser:
    from engine.bots import STRATEGIES
    from engine.bots.ismcts import PLAYOUTS
    from engine.bots.levels import DEFAULT_LEVEL, LEVELS
    from protocol import DEFAULT_PORT

    from .botproc import SECONDS

    from .launch import CLOCKS, Launch
    from .narrate import LEVEL_DESCRIPTIONS

    parser = argparse.ArgumentParser(
        prog="coup", description="Coup, the bluffing card game, in the terminal."
    )
    parser.add_argument("--lang", help="language of the terminal client: en or pt_BR "
                        "(default: from the environment's locale)")
    bell = "do not ring the terminal's bell when a decision becomes yours (default: ring)"
    parser.add_argument("--no-bell", dest="bell", action="store_false", help=bell)
    identity = ("the file of your key, who you are on servers (default: identity.pem in your "
                "config directory, made on first use)")
    parser.add_argument("--identity", metavar="FILE", help=identity)
    profile = ("play as the player of profile NAME, its own key and name kept apart in your "
               "config directory: two players on one machine each take a profile (the first "
               "run of each asks its name)")
    parser.add_argument("--profile", metavar="NAME", help=profile)
    guest = "play as a guest: no key is read or made, and your games are unrated"
    parser.add_argument("--guest", action="store_true", help=guest)
    plain = ("plain mode: the game as lines of text, numbered choices typed back, for screen "
             "readers and transcripts (default when TERM=dumb or stdin or stdout is no "
             "terminal; docs/PLAIN.md)")
    parser.add_argument("--plain", action="store_true", help=plain)
    sub = parser.add_subparsers(dest="command")
    client = argparse.ArgumentParser(add_help=False)  # the client's flags after the command
    client.add_argument("--lang", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    client.add_argument("--no-bell", dest="bell", action="store_false",
                        default=argparse.SUPPRESS, help=bell)
    client.add_argument("--identity", metavar="FILE", default=argparse.SUPPRESS, help=identity)
    client.add_argument("--profile", metavar="NAME", default=argparse.SUPPRESS, help=profile)
    client.add_argument("--guest", action="store_true", default=argparse.SUPPRESS, help=guest)
    client.add_argument("--plain", action="store_true", default=argparse.SUPPRESS, help=plain)
    strategies = ", ".join(sorted(STRATEGIES)) + "; or a level: " + ", ".join(LEVELS)
    playouts = (f"playouts per searched decision, for ismcts: more plays stronger and slower "
                f"(default {PLAYOUTS})")
    # What a practice table against bots asks, for `coup play` and `coup position`.
    practice = argparse.ArgumentParser(add_help=False)
    levels = ", ".join(f"{name} ({LEVEL_DESCRIPTIONS[name]})" for name in LEVELS)
    practice.add_argument("--level", default=DEFAULT_LEVEL, choices=list(LEVELS),
                          help=f"how well the bots play: {levels} (default {DEFAULT_LEVEL})")
    practice.add_argument("--strategy", metavar="NAME",
                          help=f"the bots' strategy by name, instead of a level: {strategies}")
    practice.add_argument("--name", help="your name at the table, this once (default: the name "
                          "you kept on first run)")
    practice.add_argument("--bot-delay", type=float, metavar="SECONDS",
                          help="seconds each bot waits before it moves, time to read its move "
                          f"(default {Launch.bot_delay})")
    practice.add_argument("--clock", default="relaxed", choices=list(CLOCKS), help=(
        "the table's clocks, seconds to answer / for a turn: " + ", ".join(
            f"{name} {answer} s / {turn} s" if answer else f"{name} (none)"
            for name, (answer, turn) in CLOCKS.items())
        + "; relaxed is three times the server's, time to read a claim and the rules card "
        "while you learn (default relaxed)"))
    play = sub.add_parser(
        "play", help="play against bots on this machine, no setup", parents=[client, practice],
        description="Play against bots on this machine: the game starts its own server on "
        "loopback, seats you and the bots at a private table, and deals when you press s. Nothing "
        "is reachable from the network.")
    play.add_argument("--bots", type=int, default=3, choices=range(1, 10), metavar="N",
                      help="bots at the table, 1-9 (default 3)")
    play.add_argument("--variant", default="base", choices=["base", "inquisitor"],
                      help="base, or inquisitor: the Inquisitor replaces the Ambassador "
                      "(default base)")
    play.add_argument("--reformation", action="store_true",
                      help="play the Reformation expansion: factions, Conversion, the Almshouse "
                      "and Embezzlement (docs/RULES.md), with either variant")
    play.add_argument("--seed", type=int,
                      help="deal the games from this seed (default: a new deal each time)")
    position = sub.add_parser(
        "position", help="play a position against bots, or ask a bot its move there",
        parents=[client, practice],
        description="Open a position (a TOML file, see docs/BOTS.md) as a practice table "
        "against bots, on this machine: you are seat 0, bots the others, and each game starts "
        "from the position when you press s. With --bot, print the move that strategy makes "
        "there instead, as JSON, and exit.")
    position.add_argument("file", metavar="FILE", help="the position")
    position.add_argument("--bot", metavar="NAME",
                          help=f"print the move this strategy or level makes: {strategies}; or "
                          "exec:COMMAND, a bot program speaking the line protocol (docs/BOTS.md, "
                          "\"A bot in any language\")")
    position.add_argument("--time", type=_bot_time, default=SECONDS, metavar="SECONDS",
                          help=f"with --bot exec:, the seconds the bot has to answer (default "
                          f"{SECONDS:g})")
    position.add_argument("--seat", type=int, metavar="N",
                          help="with --bot, the seat it plays (default: the first that owes "
                          "the open decision)")
    join = sub.add_parser("join", help="the lobby of a server", parents=[client])
    join.add_argument("address", metavar="HOST[:PORT]", nargs="?",
                      help="the server (default: choose among those found on this network)")
    join.add_argument("--name", help="your name on the server, this once (default: the name "
                      "you kept on first run; a server that knows your key keeps its name)")
    join.add_argument("--lobby-only", action="store_true",
                      help="the app is this server's lobby and nothing else: no menu, no game "
                      "on this machine, no other server; leaving the lobby quits (the SSH and "
                      "browser doors start their players' clients so)")
    bot = sub.add_parser(
        "bot", help="play a bot strategy, or a bot program in any language, on a server",
        description="Play a bot strategy on a server, as a player of its own, or with --exec "
        "a bot program in any language (JSON lines on stdin and stdout: docs/BOTS.md, \"A bot "
        "in any language\"). Without --table, --code or --create the bot joins the first "
        "public table waiting for players, and waits for one if there is none.")
    bot.add_argument("address", metavar="HOST[:PORT]",
                     help=f"the server (default port {DEFAULT_PORT})")
    bot.add_argument("--strategy", default="heuristic", metavar="NAME",
                     help=f"how the bot plays: {strategies} (default heuristic); with --exec, "
                     "who plays the seat on if the program breaks")
    bot.add_argument("--exec", metavar="\"CMD ARGS\"", dest="program",
                     help="play this program's moves: it is run without a shell, in this "
                     "directory, and told the seat's view, events and legal moves as JSON "
                     "lines; its stderr is kept in a file (the line saying it broke names it)")
    bot.add_argument("--time", type=_bot_time, default=SECONDS, metavar="SECONDS",
                     help=f"with --exec, the most seconds the program has for a decision "
                     f"(default {SECONDS:g}; a table's clock may give it less)")
    bot.add_argument("--name", help="the bot's name at the table (default: STRATEGY-bot)")
    bot.add_argument("--identity", metavar="FILE",
                     help="the file of the bot's key, who it is on servers, made on first use "
                     "(default: one per bot name in your config directory); give each bot its "
                     "own")
    where = bot.add_mutually_exclusive_group()
    where.add_argument("--table", metavar="ID_OR_NAME",
                       help="join the table with this id, or else the public table with this "
                       "name as the lobby shows it, in any case (default: the first public "
                       "table waiting for players)")
    where.add_argument("--code", help="join the private table with this code")
    where.add_argument("--create", type=int, metavar="SEATS",
                       help="create a table of SEATS seats and sit at it")
    where.add_argument("--queue", action="store_true",
                       help="wait in the server's quick-play queue for a rated table, and "
                       "queue again after each game")
    where.add_argument("--tournament", action="store_true",
                       help="enter the server's open tournament (the bot's key is its "
                       "entry), play every game the server seats it at, and print the "
                       "standings once the tournament is over; exit 1 if the server no "
                       "longer has it (a restart forgets a tournament)")
    bot.add_argument("--seats", type=_seats, metavar="N|A-B",
                     help="with --queue: the tables to sit at, N seats or A to B (2 to 6; "
                     "default 2-6)")
    bot.add_argument("--games", type=int, default=1,
                     help="games to play, asking for a rematch after each (default 1)")
    bot.add_argument("--playouts", type=int, help=playouts)
    bot.add_argument("-v", "--verbose", action="store_true",
                     help="log the seat taken, refused moves and each game's end")
    arena = sub.add_parser(
        "arena", help="strategies against each other, in-process",
        description="Play bot strategies against each other in this process, with no "
        "server, and print each one's win rate with a 95% interval. The seats rotate so "
        "that every strategy sits in every seat equally often. To compare figures taken at "
        "different times, measure against baseline: the heuristic frozen as it played "
        "when the bots learnt to read people, which never changes.")
    arena.add_argument("--strategies", required=True, metavar="NAME,NAME,...",
                       help=f"2 to 10 strategies, comma-separated, one per seat (a name may "
                       f"repeat): {strategies}; or exec:COMMAND, a bot program in any "
                       "language (docs/BOTS.md), e.g. exec:'python3 bot.py'")
    arena.add_argument("--time", type=_bot_time, default=SECONDS, metavar="SECONDS",
                       help=f"the seconds an exec: bot has for each decision (default "
                       f"{SECONDS:g}); one that takes longer forfeits the game")
    arena.add_argument("--games", type=int, help="games to play (default 1000); with "
                       "--tournament, how many times each lineup plays (default 10)")
    arena.add_argument("--seed", type=int, default=0,
                       help="the seed the games' deals derive from (default 0)")
    arena.add_argument("--variant", default="base", choices=["base", "inquisitor"],
                       help="(default base)")
    arena.add_argument("--reformation", action="store_true",
                       help="play every game at a Reformation table, with either variant, "
                       "--tournament's too")
    arena.add_argument("--jobs", type=int,
                       help="processes to play in (default 1; with --tournament, one a core)")
    arena.add_argument("--playouts", type=int, help=playouts)
    arena.add_argument("--table", action="store_true",
                       help="a round-robin of the names (strategies or levels, each once): "
                       "every pair heads-up and each alone against three of every other, "
                       "--games games a line, printed as two matrices of win rates")
    arena.add_argument("--tournament", action="store_true",
                       help="a tournament of the names (each once): every ordered lineup of "
                       "every size in --sizes, --games times, printed as standings (win rate, "
                       "mean place, openskill rating) and a crosstable (docs/BOTS.md)")
    arena.add_argument("--sizes", metavar="K,K,...",
                       help="with --tournament, the table sizes to play (default 2 to 4, as "
                       "far as the names fill them)")
    arena.add_argument("--json", action="store_true",
                       help="print the win rates as JSON instead of a table")
    key = sub.add_parser(
        "key", help="print the key servers know you by",
        description="Print your identity's public key as servers know it (key:HEX, as their "
        "logs show it): what an operator is named by, coup serve --operators KEY. The key is "
        "made on first use, as every client makes it.")
    key.add_argument("--identity", metavar="FILE", help=identity)
    key.add_argument("--profile", metavar="NAME", default=argparse.SUPPRESS, help=profile)
    export = sub.add_parser(
        "export", help="print the records of finished games, one JSON line each",
        description="Print the record of every finished game in a store, oldest first, one "
        "JSON object a line (docs/RECORDS.md describes the format): coup export > games.jsonl. "
        "Without --db it reads your own games (coup play, LAN hosting), or else coup serve's, "
        "and says on stderr which file it read.")
    export.add_argument("--db", metavar="PATH",
                        help="the store to read, such as a server's (default: your own "
                        "games, from coup play and LAN hosting, or else coup serve's, in your "
                        "data directory)")
    export.add_argument("--since", type=_since, metavar="DATE",
                        help="only the games that finished at or after DATE: YYYY-MM-DD or an "
                        "ISO 8601 time, in UTC unless it names its offset")
    backup = sub.add_parser(
        "backup", help="copy a server's store, while it runs",
        description="Copy a store to DEST as it is at one moment, without stopping the server "
        "that writes it (SQLite's online backup); the copy is readable by you alone, as the "
        "store. To restore, stop the server and copy the backup over the store "
        "(docs/SERVER.md, Backups).")
    backup.add_argument("dest", metavar="DEST", help="the file to write")
    backup.add_argument("--db", metavar="PATH",
                        help="the store to copy (default: coup serve's, in your data directory)")
    backup.add_argument("--force", action="store_true", help="replace DEST if it exists")
    replay = sub.add_parser(
        "replay", help="step through a finished game", parents=[client],
        description="Step through a finished game, move by move, with every card face up or "
        "as one seat saw it. ID is a game's number in a store (by default the games you played "
        "with coup play or hosted on your LAN); FILE is a JSON record, or a file of them, one "
        "a line (coup export's), of which the first is shown.")
    replay.add_argument("game", metavar="ID|FILE")
    replay.add_argument("--db", metavar="PATH",
                        help="the store that holds game ID (default: your own games', in your "
                        "data directory; coup serve's is another file: name it here)")
    replay.add_argument("--as", dest="view_as", type=int, metavar="SEAT",
                        help="start with the game as seat SEAT saw it, counting from 1 "
                        "(default: every card face up)")
    review = sub.add_parser(
        "review", help="a finished game judged move by move by the expert",
        description="Review a finished game for one seat: each decision it made, judged by "
        "the expert's search from what the seat knew then (every option's estimated win "
        "chance, the marked inaccuracies, mistakes and blunders), then every seat's claims, "
        "bluffs, challenges and blocks in numbers (docs/REVIEW.md). ID|FILE as coup replay "
        "takes them.")
    review.add_argument("game", metavar="ID|FILE")
    review.add_argument("--db", metavar="PATH",
                        help="the store that holds game ID (default: your own games')")
    review.add_argument("--as", dest="view_as", type=int, metavar="SEAT",
                        help="the seat to review, counting from 1 (default: the first seat a "
                        "person played)")
    review.add_argument("--json", action="store_true",
                        help="print the review as JSON for tools (docs/REVIEW.md)")
    review.add_argument("--quick", action="store_true",
                        help="a quick look: a smaller search, rougher figures")
    review.add_argument("--lang", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    web = sub.add_parser(
        "web", help="serve the client to web browsers",
        description="Serve the terminal client to web browsers (the web extra: pip install "
        "'coup-tui[web]'). Each browser session runs its own client, a guest on servers. "
        "Loopback only by default: put a reverse proxy with TLS and a login in front before "
        "opening it to others (docs/SERVER.md).")
    from . import web as door

    door.add_arguments(web)
    serve = sub.add_parser(
        "serve", help="run a game server",
        description="Run a game server until a signal: SIGTERM restarts (the store keeps "
                    "the tables, and the players come back to them at the next start), "
                    "SIGINT (Ctrl+C) shuts down and ends the games.")
    from server.cli import add_arguments

    add_arguments(serve)
    ssh = sub.add_parser(
        "ssh", help="let players in over SSH, beside coup serve",
        description="The SSH door: players connect with ssh and get this client, on the "
        "server beside it, with their SSH key as who they are (docs/SERVER.md).")
    from server.ssh import add_arguments as ssh_arguments

    ssh_arguments(ssh)
    return parser


@functools.cache
def parser() -> argparse.ArgumentParser:
    """The parser `main` reads its command line with, built once a process: the session
    host (client/host.py) builds it before it forks, and its sessions share it."""
    return build_parser()


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "serve":
        from server.cli import main as serve

        return serve(args)
    if args.command == "ssh":
        from server.ssh import main as door

        return door(args)
    if args.command == "web":
        from .web import main as web

        return web(args)
    if args.command == "bot":
        return _bot(args)
    if args.command == "export":
        return _export(args)
    if args.command == "backup":
        return _backup(args)
    if args.command == "key":
        return _key(args)
    if args.command == "review":
        return _review(args)
    if args.command == "position" and args.bot is not None:
        return _position_move(args)
    if args.command == "arena" and (args.tournament or args.sizes is not None):
        return _tournament(args)
    if args.command == "arena":
        from .arena import run, table

        arena = table if args.table else run
        return arena(_entrants(args.strategies), 1000 if args.games is None else args.games,
                     args.seed, args.variant, args.jobs or 1, args.playouts, args.json,
                     args.time, reformation=args.reformation)
    return _client(args)


def _tournament(args) -> int:
    """`coup arena --tournament`, its own flags checked first."""
    from .tournament import run

    if not args.tournament:
        print("coup arena: --sizes goes with --tournament", file=sys.stderr)
        return 2
    if args.table:
        print("coup arena: --tournament or --table, not both", file=sys.stderr)
        return 2
    return run(_entrants(args.strategies), args.sizes, args.games, args.seed, args.variant,
               args.jobs, args.playouts, args.json, args.reformation)


def _entrants(text: str) -> list[str]:
    """--strategies: names split at commas, but not at those inside an exec: command's
    quotes (exec:'bot --a,b' is one name)."""
    names: list[str] = []
    quote = None
    start = 0
    for i, c in enumerate(text):
        if quote is not None:
            quote = None if c == quote else quote
        elif c in "'\"" and text.startswith("exec:", start):
            quote = c
        elif c == ",":
            names.append(text[start:i])
            start = i + 1
    return [*names, text[start:]]


def _position_move(args) -> int:
    """`coup position FILE --bot NAME`: the move the strategy makes there, as JSON."""
    from engine.bots import Withdrawn, choose_at
    from engine.position import PositionError
    from protocol.text import shown

    from .botproc import entrant, strategy_for

    if not entrant(args.bot):
        print(f"coup position: no strategy or level {shown(args.bot)!r}, nor exec:COMMAND",
              file=sys.stderr)
        return 2
    strategy = strategy_for(args.bot, 0, seconds=args.time)
    try:
        chosen = choose_at(strategy, args.file, args.seat)
    except (PositionError, ValueError) as exc:  # its sentence may quote the file
        print(f"coup position: {shown(str(exc))}", file=sys.stderr)
        return 2
    except Withdrawn:
        return 1  # the bot broke, and its line on stderr said how
    finally:
        strategy.close()
    print(json.dumps(chosen.to_dict()))
    return 0


def _practice_launch(args):
    """The launch of `coup play` or `coup position FILE`: a practice table against bots (of
    the position's size and rules); None, said why, for an unknown strategy or a file that
    is no position the rules allow."""
    from engine.bots import STRATEGIES, known
    from engine.position import Position, PositionError
    from protocol.text import shown

    from .launch import CLOCKS, Launch

    strategy = args.strategy or args.level
    if not known(strategy):
        print(f"coup {args.command}: no strategy {strategy!r}; there are "
              f"{', '.join(sorted(STRATEGIES))}", file=sys.stderr)
        return None
    answer, turn = CLOCKS[args.clock]
    launch = Launch("play", name=args.name, strategy=strategy, response_clock=answer,
                    turn_clock=turn, bell=args.bell)
    if args.bot_delay is not None:
        launch.bot_delay = max(0.0, args.bot_delay)
    if args.command == "play":
        launch.bots, launch.variant, launch.seed = args.bots, args.variant, args.seed
        launch.reformation = args.reformation
        return launch
    try:
        rules = Position.load(args.file)
    except PositionError as exc:  # its sentence may quote the file
        print(f"coup position: {shown(str(exc))}", file=sys.stderr)
        return None
    launch.bots, launch.variant = rules.options.players - 1, rules.options.variant
    launch.reformation = rules.options.reformation
    launch.position = os.path.abspath(args.file)
    return launch


def _client(args) -> int:
    """The terminal client: the menu (`coup`), a table against bots, or a server's lobby."""
    from .i18n import _, set_language
    from .identity import Identity, IdentityError
    from .net import LinkError, parse_address

    try:
        set_language(args.lang)
    except ValueError as exc:
        print(f"coup: {exc}", file=sys.stderr)
        return 2
    from .launch import Launch

    try:
        identity = _identity(args)
        via = _door_address()
    except IdentityError as exc:
        print(f"coup: {exc}", file=sys.stderr)
        return 2
    if isinstance(identity, Identity) and identity.warning:
        print(f"coup: warning: {identity.warning}", file=sys.stderr)
    launch = Launch(bell=args.bell)
    if args.command in ("play", "position"):
        launch = _practice_launch(args)
        if launch is None:
            return 2
    elif args.command == "join" and args.address is None:
        if args.lobby_only:
            print("coup join: --lobby-only needs the server's address", file=sys.stderr)
            return 2
        launch = Launch("find", name=args.name, bell=args.bell)
    elif args.command == "join":
        try:
            host, port = parse_address(args.address)
        except LinkError as exc:
            print(f"coup join: {exc}", file=sys.stderr)
            return 2
        launch = Launch("join", name=args.name, host=host, port=port, bell=args.bell,
                        lobby_only=args.lobby_only)
    elif args.command == "replay":
        try:
            record = _record(args.game, args.db, args.view_as)
        except Refused as exc:
            print(f"coup replay: {exc}", file=sys.stderr)
            return 2
        seat = None if args.view_as is None else args.view_as - 1
        launch = Launch("replay", record=record, view_as=seat, bell=args.bell)
    launch.identity = identity
    launch.via = via
    plain = _plain(args) and launch.mode != "replay"
    if plain and launch.mode == "menu":  # no menu in lines of text: the practice table
        print(_("Plain mode has no menu: a table against bots follows (coup play). "
                "coup join HOST joins a server."))
        launch = Launch("play", bell=args.bell)
        launch.identity = identity
    if launch.mode != "replay":
        _named(launch, identity, getattr(args, "name", None))
    # A server inside the client stays quiet while the app runs: its log lines would
    # scribble over the screen, or into the lines of plain mode. Logging is left as it was
    # found afterwards.
    quiet, null = logging.getLogger("coup.server"), logging.NullHandler()
    propagate = quiet.propagate
    quiet.addHandler(null)
    quiet.propagate = False
    try:
        if plain:
            from .plain import run

            return run(launch)
        from .tui.app import CoupApp

        app = CoupApp(launch)
        app.run()
    finally:
        quiet.removeHandler(null)
        quiet.propagate = propagate
    return app.return_code or 0


def _plain(args) -> bool:
    """Plain mode: asked for, or a terminal that cannot take the full-screen app (TERM=dumb,
    or stdin or stdout that is no terminal: a pipe, a file). A client the browser door
    started talks to its page over pipes through Textual's web driver: it stays the app."""
    import os

    if args.plain or os.environ.get("TERM") == "dumb":
        return True
    if "TEXTUAL_DRIVER" in os.environ:
        return False
    return not (sys.stdin.isatty() and sys.stdout.isatty())


def _key(args) -> int:
    """`coup key`: the identity's public key, as servers name it."""
    from .identity import IdentityError, load

    try:
        print(f"key:{load(_key_path(args)).key}")
    except IdentityError as exc:
        print(f"coup key: {exc}", file=sys.stderr)
        return 2
    return 0


def _identity(args):
    """Who the player is on servers: nobody with --guest; the identity the SSH door vouches
    for in the environment, in a client it started; else the key in the identity file."""
    import os

    from .identity import DOOR_VARIABLE, load, vouched

    if args.guest:
        return None
    if DOOR_VARIABLE in os.environ:
        return vouched(os.environ[DOOR_VARIABLE])
    return load(_key_path(args))


def _key_path(args) -> str | None:
    """The file of the player's key: --identity's, else --profile's, else None (the default
    file); IdentityError for a profile name that cannot name a directory."""
    from .identity import profile_path

    if args.identity is None and args.profile is not None:
        return profile_path(args.profile)
    return args.identity


def _named(launch, identity, asked: str | None) -> None:
    """Give `launch` the player's name: `asked` (--name) this once, else the one kept beside
    the key, else the default, asked for first (launch.ask_name) on a first run at a
    terminal, where someone can answer. A guest, a door's player and a run without a
    terminal (a pipe, a test) take the default without a question."""
    from .identity import Identity
    from .launch import default_name

    kept = identity.kept_name() if isinstance(identity, Identity) else None
    launch.name = asked or kept or default_name()
    launch.ask_name = (asked is None and kept is None and isinstance(identity, Identity)
                       and not launch.lobby_only and sys.stdin.isatty())


def _door_address():
    """Where the player is, in a client a door started: the address the door gives in the
    environment, with its proof; else None."""
    import os

    from .identity import ADDRESS_VARIABLE, door_address

    value = os.environ.get(ADDRESS_VARIABLE)
    return door_address(value) if value is not None else None


class Refused(Exception):
    """A command's argument that cannot be used; the message says why, in one line."""


def _since(text: str) -> float:
    """A date or ISO 8601 time (UTC unless it says otherwise) as a POSIX time."""
    from datetime import UTC, datetime

    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not YYYY-MM-DD nor an ISO 8601 time") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


def _store(path: str | None, kind: str):
    """The store at `path` (default: the data directory's for `kind`), opened only to read:
    a server may be writing it, and reading never makes an empty one."""
    from server import Store, StoreError, default_path

    try:
        return Store(path or default_path(kind), writer=False)
    except StoreError as exc:
        raise Refused(str(exc)) from None


def _export(args) -> int:
    """`coup export`: every finished game's record, oldest first, one JSON line each; a
    record that cannot be read is skipped with a line on stderr saying why, and makes the
    exit status 1."""
    from server import StoreError

    try:
        store = _store(args.db or _export_default(), "server")
    except Refused as exc:
        print(f"coup export: {exc}", file=sys.stderr)
        return 2
    skipped = []

    def skip(game: int, why: str) -> None:
        skipped.append(game)
        print(f"coup export: skipped game {game}: {why}", file=sys.stderr)

    try:
        for record in store.export(args.since, skipped=skip):
            print(_json_line(record))
    except StoreError as exc:
        print(f"coup export: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    return 1 if skipped else 0


def _export_default() -> str:
    """The store `coup export` reads when no --db names one: the player's own games (what
    coup play and a hosted LAN game keep), or else coup serve's; the line on stderr says
    which, since the user did not choose it. Refused when there is neither."""
    from server import default_path

    own, served = default_path("play"), default_path("server")
    if os.path.exists(own):
        where = f"coup export: your own games (coup play, LAN hosting), from {own}"
        # An operator who also plays here must learn that the server's games are elsewhere.
        if os.path.exists(served):
            where += f"; coup serve's are in {served}: coup export --db {served}"
        print(where, file=sys.stderr)
        return own
    if os.path.exists(served):
        print(f"coup export: coup serve's games, from {served}", file=sys.stderr)
        return served
    raise Refused(f"no games to export: none played with coup play here yet (no {own}) and "
                  f"no coup serve store (no {served}); name a store with --db PATH")


def _backup(args) -> int:
    """`coup backup`: a consistent copy of a store, taken while its server runs."""
    from protocol.text import shown
    from server import StoreError

    try:
        store = _store(args.db, "server")
    except Refused as exc:
        print(f"coup backup: {exc}", file=sys.stderr)
        return 2
    try:
        store.backup(args.dest, args.force)
    except StoreError as exc:
        print(f"coup backup: {shown(str(exc))}", file=sys.stderr)
        return 2
    finally:
        store.close()
    return 0


def _json_line(value) -> str:
    """`value` as one line of JSON that is safe for a terminal and exact: what
    protocol.text would not show as it is (a name's U+202E, DEL) is written as a JSON
    escape, the rest as it is."""
    import json

    from protocol.text import printable

    def escaped(c: str) -> str:
        # json.dumps escapes every control but DEL, and a character past U+FFFF as the
        # pair of escapes JSON wants.
        return "\\u007f" if c == "\x7f" else json.dumps(c)[1:-1]

    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if text.isascii() and text.isprintable():
        return text
    return "".join(c if printable(c) else escaped(c) for c in text)


def _record(game: str, db: str | None, view_as: int | None) -> dict:
    """The record `coup replay` shows: game number `game` in the store (`db`, by default
    the player's own), or else the file `game` names (a record, or JSON lines of them: the
    first); Refused unless it replays to its result and has seat `view_as` (from 1). Its
    strings are made safe for a terminal (protocol.text.shown) as it is read: anyone can
    write a record file, and the store's names may be older than the server's checks."""
    import os

    from engine.record import RecordError, check
    from protocol.text import shown_in, whole_number

    from .record_file import load

    number = whole_number(game, 2**63 - 1)  # SQLite's largest row id
    if number is not None and not os.path.exists(game):
        from server import StoreError

        store = _store(db, "play")
        try:
            record = store.record(number)
        except StoreError as exc:
            raise Refused(str(exc)) from None
        finally:
            store.close()
        if record is None:
            raise Refused(f"no finished game {game} in {store.path}")
        try:
            check(record)
        except RecordError as exc:
            raise Refused(f"game {game}: {exc}") from None
    else:
        try:
            record = load(game)  # its sentence names the file
        except RecordError as exc:
            raise Refused(str(exc)) from None
    record = shown_in(record)
    seats = len(record["players"])
    if view_as is not None and not 1 <= view_as <= seats:
        raise Refused(f"--as {view_as}: the game has seats 1 to {seats}")
    return record


def _review(args) -> int:
    """`coup review`: the record as `coup replay` reads it, reviewed for one seat."""
    from .i18n import set_language
    from .review import run

    try:
        set_language(args.lang)
        record = _record(args.game, args.db, args.view_as)
    except (Refused, ValueError) as exc:
        print(f"coup review: {exc}", file=sys.stderr)
        return 2
    return run(record, None if args.view_as is None else args.view_as - 1,
               quick=args.quick, as_json=args.json)


def _bot_time(text: str) -> float:
    """--time: the seconds an exec: bot has, above 0 and finite (nan and inf would reach
    the poll of its pipe, which raises on them)."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds < math.inf:
        raise argparse.ArgumentTypeError(f"seconds above 0, not {text!r}")
    return seconds


def _seats(text: str) -> int | dict:
    """--seats: N, or A-B, each from 2 to 6 (a quick-play table's sizes)."""
    ends = text.split("-")
    try:
        if len(ends) > 2:
            raise ValueError
        lo, hi = int(ends[0]), int(ends[-1])
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not N or A-B") from None
    if not 2 <= lo <= hi <= 6:
        raise argparse.ArgumentTypeError(f"{text!r}: seats go from 2 to 6, the smaller first")
    return lo if lo == hi else {"min": lo, "max": hi}


def _bot(args) -> int:
    import trio

    from engine.bots import STRATEGIES, known, make

    from .botproc import ExecStrategy, entrant
    from .identity import IdentityError, bot_path, load
    from .net import LinkError, parse_address
    from .runner import BotRunner, Seating
    from .standings import standings_lines

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(message)s")
    if not known(args.strategy):
        print(f"coup bot: no strategy {args.strategy!r}; there are "
              f"{', '.join(sorted(STRATEGIES))}", file=sys.stderr)
        return 2
    if args.seats and not args.queue:
        print("coup bot: --seats goes with --queue", file=sys.stderr)
        return 2
    settings = {"playouts": args.playouts} if args.playouts is not None else {}
    queue = (args.seats or {"min": 2, "max": 6}) if args.queue else None
    if args.program is not None and not entrant(f"exec:{args.program}"):
        print("coup bot: --exec needs a command, e.g. --exec 'python3 bot.py'", file=sys.stderr)
        return 2
    strategy = make(args.strategy, **settings)
    fallback = None
    if args.program is not None:
        fallback, strategy = strategy, ExecStrategy(args.program, seconds=args.time)
    try:
        host, port = parse_address(args.address)
        runner = BotRunner(host, port, strategy, name=args.name,
                           seating=Seating(args.table, args.code, args.create, queue,
                                           args.tournament),
                           games=args.games, fallback=fallback)
        # A bot's key is its own, never its owner's: a bot signing as its owner would take
        # the owner's seat back from them.
        runner.identity = load(args.identity or bot_path(runner.name))
        if runner.identity.warning:
            print(f"coup bot: warning: {runner.identity.warning}", file=sys.stderr)
        wins = trio.run(runner.run)
    except IdentityError as exc:
        print(f"coup bot: {exc}", file=sys.stderr)
        return 2
    except LinkError as exc:
        print(f"coup bot: {exc}", file=sys.stderr)
        return 1
    finally:
        strategy.close()
    print(f"{runner.name}: {runner.played} games, {wins} won")
    if runner.core.tournament is not None:
        print("\n".join(standings_lines(runner.core.tournament)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
