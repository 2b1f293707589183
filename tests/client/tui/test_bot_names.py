"""A bot seat is named for its personality, in both languages, short enough for the players
panel at 80 columns; other bots and people keep their names."""

from __future__ import annotations

from client.i18n import set_language
from client.core.table import TableState
from client.narrate import strategy_label
from engine.bots.heuristic import PERSONALITIES

from .helpers import practice, run_app, shown, start_practice

SEATS = [{"seat": 0, "name": "Ana"}, {"seat": 1, "bot": "bluffer"},
         {"seat": 2, "bot": "heuristic"}, {"seat": 3, "bot": "vengeful"}]


def table() -> TableState:
    state = TableState("t1", 0)
    state.players = SEATS
    return state


def test_a_personality_names_its_bot_seat_in_english_and_portuguese() -> None:
    state = table()
    assert [state.name(s) for s in range(4)] == [
        "Ana", "Bot 2 (Bluffer)", "Bot 3", "Bot 4 (Vengeful)"]
    set_language("pt_BR")
    assert [state.name(s) for s in range(4)] == [
        "Ana", "Bot 2 (Blefador)", "Bot 3", "Bot 4 (Vingativo)"]


def test_every_personality_has_a_short_name_and_a_label_in_both_languages() -> None:
    for lang in ("en", "pt_BR"):
        set_language(lang)
        for seat, personality in enumerate(PERSONALITIES):
            state = TableState("t1", 0)
            state.players = [{"seat": seat, "bot": personality}]
            name = state.name(seat)
            assert name != f"Bot {seat + 1}" and len(name) <= 18
            assert strategy_label(personality) != personality


def test_the_players_panel_shows_whole_personality_names_at_80_columns() -> None:
    """A practice table with three vengeful bots, in Portuguese (the longer names), on an
    80x24 terminal: each bot's line names it in full."""
    async def body(app, pilot):
        await start_practice(app, pilot)
        panel = shown(app.screen.query_one("#players"))
        for seat in (2, 3, 4):
            assert f"Bot {seat} (Vingativo)" in panel

    set_language("pt_BR")
    run_app(practice(bots=3, strategy="vengeful"), body, size=(80, 24))
