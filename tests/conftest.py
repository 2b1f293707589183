"""Every test keeps its files to itself: the user's data directory (where `coup serve` and
`coup play` keep their records) and config directory (where the clients keep their keys)
are fresh temporary ones for each test, and for the programs a test starts. And no test
announces or looks for servers by mDNS on the machine's network: LAN discovery is off
(COUP_DISCOVERY=off) unless a test makes a network of its own and turns it on there.
Everything the tests' servers and clients send is checked against the protocol's specs
(COUP_CHECK_SENT=1, set before any test imports the protocol): a frame our code builds
wrong fails the test that made it.

The suite runs in parallel (pytest-xdist, `-n auto` in pyproject.toml), two workers a core:
most of it waits (on loopback servers, threads, subprocesses and clocks) rather than
computes, so one worker a core leaves the cores half idle."""

from __future__ import annotations

import os

import pytest

os.environ["COUP_CHECK_SENT"] = "1"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """The workers of `-n auto`: two a core, unless PYTEST_XDIST_AUTO_NUM_WORKERS says (then
    pytest-xdist's own rule reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return 2 * (os.cpu_count() or 1)


@pytest.fixture(autouse=True)
def own_data_directory(tmp_path_factory, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    monkeypatch.setenv("COUP_DISCOVERY", "off")
