"""The `coup` command's own checks for the terminal client: a bad language, strategy or
address is refused with a sentence and exit code 2, before any screen is drawn."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

from client.cli import build_parser, main, parser
from engine.bots import STRATEGIES
from engine.bots.ismcts import PLAYOUTS
from client.i18n import language, set_language


@pytest.fixture(autouse=True)
def english():
    yield
    set_language("en")


@pytest.mark.parametrize("argv,said", [
    (["--lang", "klingon", "play"], "no 'klingon' translation"),
    (["play", "--lang", "klingon"], "no 'klingon' translation"),
    (["play", "--strategy", "psychic"], "no strategy 'psychic'"),
    (["join", "host:port"], "is not HOST or HOST:PORT"),
])
def test_bad_arguments_are_refused_with_a_sentence(argv, said, capsys):
    assert main(argv) == 2
    assert said in capsys.readouterr().err


def test_the_command_line_parser_is_built_once_a_process(monkeypatch):
    """The session host builds it before it forks (client/host.py): a door's session
    parses its command line with the host's, and builds none of its own (a parser of every
    command is 3-4 ms of CPU, a twentieth of a session's to its lobby)."""
    parser()  # as the session host's preload does
    built: list[argparse.ArgumentParser] = []
    init = argparse.ArgumentParser.__init__

    def counted(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        built.append(self)
        init(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(argparse.ArgumentParser, "__init__", counted)
    with pytest.raises(SystemExit):
        main(["join", "--no-such-flag"])
    assert built == []


#: The example bots of docs/BOTS.md.
EXAMPLES = Path(__file__).parents[2] / "docs" / "examples" / "bots"


def test_the_language_may_come_before_or_after_the_command():
    parser = build_parser()
    assert parser.parse_args(["--lang", "pt", "play"]).lang == "pt"
    assert parser.parse_args(["play", "--lang", "pt"]).lang == "pt"
    assert parser.parse_args(["join", "h", "--lang", "pt_BR"]).lang == "pt_BR"
    assert parser.parse_args(["play"]).lang is None


def test_play_options_reach_the_launch():
    args = build_parser().parse_args(["play", "--bots", "5", "--strategy", "honest",
                                      "--variant", "inquisitor", "--seed", "9", "--name", "Ana"])
    assert (args.bots, args.strategy, args.variant, args.seed, args.name) == (
        5, "honest", "inquisitor", 9, "Ana")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--bots", "10"])  # a table seats at most 10


def launched(argv, monkeypatch):
    """The Launch that `coup ARGV` starts the app with (the app itself stubbed out)."""
    import client.tui.app

    started = []

    class App:
        return_code = 0

        def __init__(self, launch):
            started.append(launch)

        def run(self):
            pass

    monkeypatch.setattr(client.tui.app, "CoupApp", App)
    monkeypatch.setattr(client.cli, "_plain", lambda args: False)  # pytest's stdout is no tty
    assert main(argv) == 0
    return started[0]


@pytest.mark.parametrize("argv,bots", [
    (["play"], "medium"),  # what a new player meets
    (["play", "--level", "expert"], "expert"),
    (["play", "--level", "easy", "--strategy", "honest"], "honest"),  # a name over a level
])
def test_play_level_chooses_the_bots(argv, bots, monkeypatch):
    assert launched(argv, monkeypatch).strategy == bots


def test_play_level_refuses_other_names():
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--level", "impossible"])


def test_arena_table_prints_a_round_robin_of_strategies_and_levels(capsys):
    assert main(["arena", "--table", "--strategies", "random,honest,easy", "--games", "6",
                 "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["games"] == 6
    assert set(table["heads_up"]["honest"]) == {"random", "easy"}
    assert set(table["one_against_three"]["easy"]) == {"random", "honest"}
    rate, low, high = table["heads_up"]["random"]["honest"]
    assert low <= rate <= high
    assert main(["arena", "--table", "--strategies", "random,honest", "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "heads-up" in out and "one against 3" in out and "—" in out


def test_arena_measures_against_the_frozen_baseline(capsys):
    """Issue 31: `baseline` (the heuristic frozen as it was) is a strategy the arena seats,
    and its help says what it is for."""
    assert main(["arena", "--strategies", "heuristic,baseline", "--games", "4", "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["win_rate"]) == {"heuristic", "baseline"}
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "measure against baseline" in text


def test_arena_standings_fit_long_names_and_draw_no_bar_off_a_terminal(capsys):
    """A long entrant (an exec: bot's command line) is shortened in the table, the columns
    stay aligned, and the names are listed in full below; on a pipe (capsys is not a
    terminal) stderr gets no progress bar."""
    long = "exec:" + sys.executable + " " + str(EXAMPLES / "coup_bot.py")
    assert main(["arena", "--strategies", f"random,{long}", "--games", "4"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    rows = [line for line in out.splitlines() if line.startswith(("random", "exec"))]
    assert len(rows) == 2 and len({line.index("%") for line in rows}) == 1
    assert long not in rows[0] + rows[1] and "…" in rows[0] + rows[1]
    assert out.splitlines()[-1].strip() == long and "Names in full:" in out


def test_arena_reformation_plays_and_says_reformation_tables(capsys):
    """R12.1: `coup arena --reformation` plays its games (and --table's) at Reformation
    tables and says so in its heading, and so does --tournament's (its JSON too)."""
    assert main(["arena", "--strategies", "random,random,random", "--games", "3",
                 "--reformation"]) == 0
    assert "3 games, 3 players, base with Reformation, seed 0" in capsys.readouterr().out
    assert main(["arena", "--table", "--strategies", "random,honest", "--games", "2",
                 "--reformation"]) == 0
    assert "2 games a line, base with Reformation, seed 0" in capsys.readouterr().out
    assert main(["arena", "--tournament", "--strategies", "random,honest", "--games", "1",
                 "--jobs", "1", "--reformation"]) == 0
    assert "base with Reformation rules" in capsys.readouterr().out
    assert main(["arena", "--tournament", "--strategies", "random,honest", "--games", "1",
                 "--jobs", "1", "--reformation", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["reformation"] is True


def test_arena_table_refuses_a_name_twice(capsys):
    assert main(["arena", "--table", "--strategies", "random,random", "--games", "2"]) == 2
    assert "distinct" in capsys.readouterr().err


def test_an_explicit_language_is_chosen(capsys):
    assert main(["--lang", "pt_BR", "play", "--strategy", "psychic"]) == 2
    assert language() == "pt_BR"


@pytest.mark.parametrize("argv,clocks", [
    (["play"], (60, 180)),  # relaxed: a first game is not lost to the clock
    (["play", "--clock", "relaxed"], (60, 180)),
    (["play", "--clock", "off"], (0, 0)),
    (["play", "--clock", "server"], (20, 60)),  # the server's own defaults
])
def test_play_clock_chooses_the_practice_tables_clocks(argv, clocks, monkeypatch):
    launch = launched(argv, monkeypatch)
    assert (launch.response_clock, launch.turn_clock) == clocks


@pytest.mark.parametrize("argv,reformation", [
    (["play"], None),
    (["play", "--reformation"], True),
    (["play", "--reformation", "--variant", "inquisitor"], True),
])
def test_play_reformation_asks_the_practice_table_for_it(argv, reformation, monkeypatch):
    """R12.1: `coup play --reformation` creates the practice table with the option, beside
    either variant; without the flag the table is asked nothing about it (off)."""
    from client.launch import practice_table

    launch = launched(argv, monkeypatch)
    options = practice_table(launch)
    assert options.get("reformation") == reformation
    assert options["variant"] == ("inquisitor" if "inquisitor" in argv else "base")


def test_play_clock_refuses_other_names():
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--clock", "slow"])


@pytest.mark.parametrize("command,says", [
    ("play", ["starts its own server on loopback", "(default 3)", "(default medium)",
              "(default relaxed)"]),
    ("bot", ["joins the first public table waiting", "(default heuristic)", "(default 1)",
             f"(default {PLAYOUTS})", "--table ID_OR_NAME", "the public table with this name"]),
    ("arena", ["against each other in this process", "(default 1000)", "(default 0)"]),
])
def test_help_describes_the_command_its_defaults_and_the_strategies(command, says, capsys):
    """Like `coup serve --help`: a description, each flag's default, every strategy named."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps at the terminal's width
    for said in says:
        assert said in text
    for strategy in STRATEGIES:
        assert strategy in text


def test_the_app_quiets_the_embedded_servers_log_only_while_it_runs(monkeypatch):
    import logging

    import client.tui.app

    server_log = logging.getLogger("coup.server")
    seen = []

    class App:
        return_code = 0

        def __init__(self, launch):
            pass

        def run(self):
            seen.append((server_log.propagate, list(server_log.handlers)))

    monkeypatch.setattr(client.tui.app, "CoupApp", App)
    monkeypatch.setattr(client.cli, "_plain", lambda args: False)
    before = (server_log.propagate, list(server_log.handlers))
    assert main(["play"]) == 0
    assert seen[0][0] is False and len(seen[0][1]) == len(before[1]) + 1
    assert (server_log.propagate, list(server_log.handlers)) == before


@pytest.mark.parametrize("text,seats", [("4", 4), ("2-6", {"min": 2, "max": 6}), ("3-3", 3)])
def test_bot_queue_takes_seats_as_a_number_or_a_range(text, seats):
    args = build_parser().parse_args(["bot", "127.0.0.1", "--queue", "--seats", text])
    assert args.queue and args.seats == seats


@pytest.mark.parametrize("text", ["7", "1-3", "5-3", "two", "2-"])
def test_bot_queue_refuses_seats_no_quick_play_table_has(text):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["bot", "127.0.0.1", "--queue", "--seats", text])


def test_bot_seats_go_with_queue(capsys):
    assert main(["bot", "127.0.0.1", "--seats", "4"]) == 2
    assert "--seats goes with --queue" in capsys.readouterr().err
