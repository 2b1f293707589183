"""`coup serve`: run the server from the command line until SIGTERM (a restart: the tables
are kept) or SIGINT (a shutdown that ends the games)."""

from __future__ import annotations

import argparse
import dataclasses
import gc
import signal
import sys

import trio

from engine.position import PositionError
from protocol.text import shown

from . import backups, log, retention
from .app import Server
from .config import ServerConfig
from .doorkey import DoorKeyError, default_secret_path
from .moderation import operator_ids
from .store import StoreError, default_path
from .thinking import allowed_strategies


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of `coup serve`: one per setting of ServerConfig, with its help."""
    for f in dataclasses.fields(ServerConfig):
        flag = "--" + f.name.replace("_", "-")
        text = f.metadata["help"]
        if isinstance(f.default, bool):
            parser.add_argument(flag, action="store_true", help=text)
        else:
            parser.add_argument(flag, type=f.metadata["kind"], default=f.default,
                                help=f"{text} (default {f.default})")


def config_from(args: argparse.Namespace) -> ServerConfig:
    """The settings the flags say; `coup serve` keeps records unless told --db :memory:."""
    config = ServerConfig(**{f.name: getattr(args, f.name)
                             for f in dataclasses.fields(ServerConfig)})
    db = default_path("server") if config.db is None else config.db
    door = default_secret_path() if config.door_secret is None else config.door_secret
    return dataclasses.replace(config, db=None if db == ":memory:" else db,
                               door_secret=None if door == "none" else door)


def tune_gc() -> None:
    """Look for reference cycles every 10,000 new containers instead of Python's 700. A busy
    server makes and drops many thousands a second, nearly all freed at once by reference
    counting; at 2,000 connections the default spent about a tenth of the server's CPU in
    the collector, and its full collections stopped every table for over 100 ms. This is
    the process's policy, so it is set here, where `coup serve` owns the process."""
    gc.set_threshold(10_000)


def tune_switching() -> None:
    """Let the event loop take the interpreter back from a thinking bot within 1 ms instead
    of Python's 5. A searching bot (ismcts) thinks in a worker thread; each time the loop
    wakes for a socket it waits for the thread to let go, up to the switch interval, and a
    ping or a move waits for several such wakes. With 20 tables of ismcts on two cores,
    ping p99 went from 35-39 ms to 5-9 ms and other tables' move gaps from 49-53 ms to 7 ms
    (benchmarks.abuse search), the bots' own pace unchanged. Also the process's policy."""
    sys.setswitchinterval(0.001)


def _seconds(seconds: float) -> None:
    if not seconds > 0:  # nan too: the writer, or the sweep of pings, sleeps this long
        raise ValueError(f"{seconds} is not a number of seconds above 0")


def _announced(host: str) -> None:
    from .announce import addresses  # zeroconf, only for a server that announces

    addresses(host)


def _kept(config) -> None:
    """Retention and backups: ValueError(flag, why) for the first flag that will not do."""
    retention.check(config)
    if config.backup_dir:
        backups.check(config)


def _refused_flag(config) -> tuple[str, str] | None:
    """The first flag the server cannot start with, and why; None when all will do."""
    checks = [("--bot-strategies", lambda: allowed_strategies(config.bot_strategies)),
              ("--operators", lambda: operator_ids(config.operators)),
              (None, lambda: _kept(config)),  # names its own flag
              ("--late-write", lambda: _seconds(config.late_write)),
              ("--ping-interval", lambda: _seconds(config.ping_interval))]
    if config.announce:
        checks.append(("--announce", lambda: _announced(config.host)))
    for flag, check in checks:
        try:
            check()
        except ValueError as exc:
            return exc.args if flag is None else (flag, str(exc))
    return None


def main(args: argparse.Namespace) -> int:
    """Serve with the parsed flags; returns the exit status."""
    config = config_from(args)
    refused = _refused_flag(config)
    if refused is not None:
        print("coup serve: {}: {}".format(*refused), file=sys.stderr)
        return 2
    log.setup(config.log_json)
    tune_gc()
    tune_switching()
    try:
        server = Server(config)
    except StoreError as exc:
        print(f"coup serve: --db: {exc}", file=sys.stderr)
        return 2
    except DoorKeyError as exc:
        print(f"coup serve: --door-secret: {exc}", file=sys.stderr)
        return 2
    except PositionError as exc:  # its sentence may quote the file
        print(f"coup serve: --position: {shown(str(exc))}", file=sys.stderr)
        return 2

    async def run() -> None:
        # The signals are caught before the server says it listens: whoever starts it and
        # stops it as soon as it listens gets a clean stop, not a process killed by SIGTERM.
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async with trio.open_nursery() as nursery:
                host, port = await nursery.start(server.serve)
                scope = "every interface: reachable from other machines" if host in (
                    "0.0.0.0", "::") else "this machine only" if host.startswith(
                    ("127.", "::1", "localhost")) else "this address"
                log.info("listening", host=host, port=port, reach=scope)
                async for signum in signals:
                    log.info("signal", signal=signal.Signals(signum).name)
                    # SIGTERM, what a service manager stops and restarts with, keeps the
                    # tables for the next start; SIGINT (Ctrl+C, or kill -INT) ends them.
                    await server.shutdown(restart=signum == signal.SIGTERM)
                    break
                nursery.cancel_scope.cancel()

    trio.run(run)
    return 0
