"""The `coup` command: the single entry point, dispatching to each part of the product."""

from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="coup", description="Coup, the bluffing card game, in the terminal."
    )
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("play", help="play against bots on this machine (coming soon)")
    serve = sub.add_parser("serve", help="run a game server")
    from server.cli import add_arguments

    add_arguments(serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        from server.cli import main as serve

        return serve(args)
    if args.command in (None, "play"):
        print(
            "The terminal client is coming soon. Until then the rules engine is ready:\n"
            "  python -m benchmarks.engine   plays random games at full speed.",
        )
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
