"""The static checks, run by the suite so that CI enforces them: mypy (types) and ruff (lint),
each as configured in pyproject.toml, report nothing.

Each runs in its own process from this interpreter's environment, where the `test` extra
installed it. mypy's cache goes to a temporary directory: the run is cold, as in CI, and a
stale cache from another checkout can never hide an error (11-14 s of wall time, 6 s of
CPU, on the 2-core machine under load; a warm run is under 1 s).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Far above either tool's time, even on a loaded machine: a hang fails rather than blocks.
TIMEOUT = 600


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True,
                          text=True, timeout=TIMEOUT)


def test_mypy_finds_no_error(tmp_path: Path) -> None:
    """Every package type-checks: engine, protocol and the client core strictly, the rest
    checked (pyproject.toml's [tool.mypy] says which and why)."""
    result = _run("mypy", "--cache-dir", str(tmp_path / "mypy"))
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_finds_nothing() -> None:
    """The tree passes the lint's rule set (pyproject.toml's [tool.ruff.lint])."""
    result = _run("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert result.returncode == 0, result.stdout + result.stderr
