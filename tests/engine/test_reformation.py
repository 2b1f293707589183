"""Scenarios for the Reformation expansion (rules.md R12): the option, factions, the
Almshouse, Conversion and Embezzlement, and how they change targeting, blocking, clocks
and views.

Each test deals a game with a fixed seed or arranges a position, plays the moves the rule
is about, and checks what R12 says must follow.
"""

from __future__ import annotations

import pytest

from engine import Options, OptionsError


# ------------------------------------------------------------------ R12.1 the option


def test_R12_1_reformation_is_off_by_default_and_validated():
    """R12.1: the option is off by default, a boolean, and refused as anything else."""
    assert Options().reformation is False
    assert Options(reformation=True).reformation is True
    with pytest.raises(OptionsError):
        Options(reformation=1)  # type: ignore[arg-type]
    with pytest.raises(OptionsError):
        Options.from_dict({"players": 4, "reformation": "yes"})


@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.parametrize("variant", ["base", "inquisitor"])
@pytest.mark.parametrize("draft", [True, False])
def test_R12_1_reformation_combines_with_every_variant_size_and_draft(players, variant, draft):
    """R12.1, R12.14-R12.16: every table size, both decks, with and without the draft."""
    o = Options(players=players, variant=variant, two_player_draft=draft, reformation=True)
    assert Options.from_dict(o.to_dict()) == o
    assert o.to_dict()["reformation"] is True


def test_R12_1_an_old_record_without_the_option_reads_as_base_coup():
    """R12.1: data written before Reformation (no key) reads as the option off, and a table
    without it writes no key, so its data is as it was."""
    old = {"players": 3, "variant": "base", "two_player_draft": True, "treasury": 50,
           "first_seat": None}
    assert Options.from_dict(old).reformation is False
    assert "reformation" not in Options.from_dict(old).to_dict()
    assert Options.from_dict(old).to_dict() == old
