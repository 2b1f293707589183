"""Every rule id of docs/RULES.md (the project's copy of the rules) is named by a test."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def rule_ids() -> set[str]:
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    return set(re.findall(r"\*\*(R\d+(?:\.\d+)?)\b", text)) | set(
        re.findall(r"^## (R\d+)\b", text, flags=re.M)
    )


def test_every_rule_id_is_named_by_an_engine_test() -> None:
    ids = rule_ids()
    assert {"R1.1", "R1.7", "R5.2", "R8", "R11"} <= ids  # the parse found the ids
    here = Path(__file__)
    tests = "".join(
        p.read_text(encoding="utf-8") for p in here.parent.glob("test_*.py") if p != here
    )
    missing = sorted(
        i for i in ids
        if not re.search(rf"\b{re.escape(i)}\b|\b{i.replace('.', '_')}(?!\d)", tests)
    )
    assert not missing, f"rule ids no test names: {missing}"
