"""benchmarks.engine measures Reformation self-play as well as the base game's (issue 35)."""

from __future__ import annotations

import json

from benchmarks import engine as bench


def test_the_engine_benchmark_plays_reformation_tables(capsys) -> None:
    bench.main(["--games", "5", "--repeat", "1", "--players", "6", "--reformation", "--json"])
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 5 and figures["decisions"] > 5 * 6
    bench.main(["--games", "5", "--repeat", "1", "--reformation"])
    assert "base with Reformation" in capsys.readouterr().out
