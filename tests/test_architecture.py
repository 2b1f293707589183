"""The packages' layering, checked by import-linter from the contracts in pyproject.toml:
client -> server -> protocol -> engine and never upwards, the client reaching the server
only through its public entry point, and no import circle among the server's modules."""

from __future__ import annotations

from pathlib import Path

from importlinter.cli import EXIT_STATUS_SUCCESS, lint_imports

ROOT = Path(__file__).resolve().parent.parent


def test_every_import_contract_is_kept(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    status = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True,
                          no_logo=True)
    report = capsys.readouterr().out
    assert status == EXIT_STATUS_SUCCESS, report
    assert "3 kept, 0 broken" in report
