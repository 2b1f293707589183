"""benchmarks/botproc.py (issue 33): a short run times every decision of its bot process on
both sides, pairs them, and reports the overhead with the target (no figure is asserted:
the times are the machine's)."""

from __future__ import annotations

import json

from benchmarks import bots, botproc


def test_a_short_run_pairs_the_hosts_times_with_the_bots_own(capsys) -> None:  # type: ignore[no-untyped-def]
    botproc.main(["--decisions", "60", "--json"])
    figures = json.loads(capsys.readouterr().out)
    assert figures["decisions"] >= 60 and figures["games"] >= 1
    for part in ("overhead_ms", "bot_ms", "decision_ms", "observe_ms"):
        assert set(figures[part]) == {"p50", "p99"}
        assert figures[part]["p50"] <= figures[part]["p99"]
    assert figures["target_ms"] == botproc.TARGET_MS and isinstance(figures["met"], bool)


def test_benchmarks_bots_prints_the_host_alone(capsys) -> None:  # type: ignore[no-untyped-def]
    bots.main(["--quick", "--skip", "ladder,bluffs,search"])
    out = capsys.readouterr().out
    assert out.startswith("exec bot host: ") and "overhead above the bot's own time" in out
