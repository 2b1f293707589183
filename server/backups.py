"""Scheduled backups: `coup serve --backup-dir DIR` copies its store into DIR every
`--backup-every` hours and keeps the newest `--backup-keep` of them.

Each copy is Store.backup's (consistent, 0600, checked), taken in a worker thread so the
event loop never waits on the disk, and named for its store and the time it was taken in
UTC, `STORE-YYYYMMDDTHHMMSSZ.db`: the names sort by age, and only files named so are ever
removed. The schedule counts from the newest backup already in DIR, so a server restarted
more often than the period still takes them.
"""

from __future__ import annotations

import math
import os
import re
import time

import trio

from . import log
from .config import ServerConfig
from .store import Store, StoreError

#: Seconds in an hour, as --backup-every counts them.
HOUR = 3600.0
#: Seconds before a backup that failed is tried again (or at its period, if sooner).
RETRY = 600.0


def check(config: ServerConfig) -> None:
    """Raise ValueError, naming the flag, if the schedule makes no sense or its folder is
    not one the server may write in."""
    folder = config.backup_dir
    assert folder is not None  # checked only when backups are asked for
    if not os.path.isdir(folder):
        raise ValueError("--backup-dir", f"{folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError("--backup-dir", f"{folder} cannot be written")
    if not (math.isfinite(config.backup_every) and config.backup_every > 0):
        raise ValueError("--backup-every", "the hours between backups must be more than 0")
    if config.backup_keep < 1:
        raise ValueError("--backup-keep", "keep at least 1 backup")


def stem(store: str) -> str:
    """The part of a backup's name that says whose it is: its store file's name, less .db."""
    name = os.path.basename(store)
    return name[:-3] if name.endswith(".db") else name


def _ours(folder: str, prefix: str) -> list[str]:
    """The backups of the store named `prefix` in `folder`, oldest first."""
    pattern = re.compile(re.escape(prefix) + r"-\d{8}T\d{6}Z\.db")
    return sorted(name for name in os.listdir(folder) if pattern.fullmatch(name))


def due(folder: str, prefix: str, every: float, now: float) -> float:
    """When the next backup is due: `every` seconds after the newest one, or `now`."""
    names = _ours(folder, prefix)
    if not names:
        return now
    return os.stat(os.path.join(folder, names[-1])).st_mtime + every


def take(store: Store, folder: str, keep: int) -> str:
    """Back `store` up into `folder` now, then remove its backups beyond the newest `keep`;
    returns the new backup's path. Blocking: for a worker thread."""
    prefix = stem(store.path)
    path = os.path.join(folder, time.strftime(f"{prefix}-%Y%m%dT%H%M%SZ.db", time.gmtime()))
    # A second backup within the same second is the same moment's: it replaces the first.
    store.backup(path, force=True)
    for name in _ours(folder, prefix)[:-keep]:
        os.unlink(os.path.join(folder, name))
    return path


async def run(store: Store, config: ServerConfig) -> None:
    """Take backups on the schedule of `config` until cancelled."""
    every = config.backup_every * HOUR
    folder = config.backup_dir
    assert folder is not None  # run only when backups are asked for
    while True:
        try:
            when = due(folder, stem(store.path), every, time.time())
        except OSError as exc:
            when = time.time() + min(RETRY, every)
            log.error("backup_failed", folder=folder, error=str(exc))
        await trio.sleep(max(0.0, when - time.time()))
        started = time.monotonic()
        try:
            path = await trio.to_thread.run_sync(take, store, folder, config.backup_keep)
        except (StoreError, OSError) as exc:
            log.error("backup_failed", folder=folder, error=str(exc))
            # the folder's newest backup stays the last good one: try again sooner
            await trio.sleep(min(RETRY, every))
            continue
        log.info("backup_taken", path=path, seconds=round(time.monotonic() - started, 3))
