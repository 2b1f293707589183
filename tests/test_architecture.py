"""The packages' layering, checked by import-linter from the contracts in pyproject.toml:
client -> server -> protocol -> engine and never upwards, the client reaching the server
only through its public entry point (every other module of the server forbidden to it), the
client core free of UI and I/O, plain mode and the terminal app apart, and no import circle
among the server's modules."""

from __future__ import annotations

import logging
import pkgutil
import tomllib
from pathlib import Path

from importlinter.cli import EXIT_STATUS_SUCCESS, lint_imports

ROOT = Path(__file__).resolve().parent.parent
#: The server's modules the client may import: the package (its public entry point),
#: server.cli, which `coup serve` is, and server.ssh, which `coup ssh` is.
PUBLIC_SERVER_MODULES = {"server", "server.cli", "server.ssh"}


def test_every_import_contract_is_kept(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    # import-linter configures logging with every logger that exists disabled: the tests that
    # run after this one read the server's log lines, so each logger is left as it was.
    loggers = [logger for logger in logging.Logger.manager.loggerDict.values()
               if isinstance(logger, logging.Logger)]
    for logger in loggers:
        monkeypatch.setattr(logger, "disabled", logger.disabled)
    status = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True,
                          no_logo=True)
    report = capsys.readouterr().out
    assert status == EXIT_STATUS_SUCCESS, report
    assert "5 kept, 0 broken" in report


def test_the_client_is_kept_out_of_every_module_of_the_server_but_its_public_ones():
    """A module added to server/ is the server's own until the contract says otherwise."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    contract = next(c for c in config["contracts"] if c["type"] == "forbidden"
                    and c["source_modules"] == ["client"])
    modules = {f"server.{module.name}" for module in pkgutil.iter_modules([str(ROOT / "server")])}
    assert set(contract["forbidden_modules"]) == modules - PUBLIC_SERVER_MODULES
