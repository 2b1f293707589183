"""Retention: how long the store keeps finished games, and the task that prunes the rest.

`--keep-guest-games DAYS` (30 by default) removes unrated finished games in which no
identified player sat, once they are that old; `--keep-games DAYS` (0: forever, the default)
removes every finished game once it is that old, rated and identified players' included.
Only games of closed tables go (a table still open replays its last game when resumed), and
a closed table goes with its last game. Ratings stay: they are totals, not games.

The pruning is a change like any other, written by the recorder's one worker thread, a
batch of at most PRUNE_BATCH games every PRUNE_EVERY seconds: no transaction holds the
tables' moves up for long, and a store of 8,000 old games is pruned in under an hour.
"""

from __future__ import annotations

import math
import time

import trio

from .changes import Prune
from .config import ServerConfig
from .recorder import Recorder

#: Games removed in one write at the most (each is a few rows of its own and its moves').
PRUNE_BATCH = 200
#: Seconds between two prunes, the first as the server starts.
PRUNE_EVERY = 60.0


def check(config: ServerConfig) -> None:
    """Raise ValueError, naming the flag, if a keep time makes no sense."""
    for flag, days in (("--keep-guest-games", config.keep_guest_games),
                       ("--keep-games", config.keep_games)):
        if not (math.isfinite(days) and days >= 0):
            raise ValueError(flag, "days must be 0 (forever) or more")


async def run(recorder: Recorder, config: ServerConfig) -> None:
    """Prune on the policy of `config` until cancelled (nothing to do if it keeps all)."""
    if not (config.keep_guest_games or config.keep_games):
        return
    while True:
        await recorder.commit([Prune(now=time.time(), guest_days=config.keep_guest_games,
                                     all_days=config.keep_games, most=PRUNE_BATCH)])
        await trio.sleep(PRUNE_EVERY)
