"""A server's tournament in plain mode (issue 33), through pipes as a transcript: an operator
opens and starts it, a player with a key enters and plays her games against a `coup bot
--tournament`, a guest's entry is refused, and every change comes as one line, the end
with the standings."""

from __future__ import annotations

import os
import subprocess
import sys

from client.identity import load
from server import ServerConfig
from tests.client.test_plain import leaves_cleanly
from tests.client.transcript import Transcript, choices_of
from tests.client.tui.helpers import ServerThread


def test_a_tournament_run_and_played_from_plain_mode(tmp_path):
    key = str(tmp_path / "op.pem")
    server = ServerThread(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                       operators=load(key).key)).start()
    address = f"127.0.0.1:{server.port}"
    op = Transcript("join", address, "--plain", "--name", "Op", identity=key)
    ana = Transcript("join", address, "--plain", "--name", "Ana",
                     identity=str(tmp_path / "ana.pem"))
    guest = Transcript("join", address, "--plain", "--name", "Gus")
    bot = None
    try:
        for t in (op, ana, guest):
            t.until("Connected to")
        ana.send("tournament")
        assert ana.until("tournament") == "This server has no tournament."
        op.send("tournament open")
        assert op.until("NAME") == ("tournament open NAME [sizes 2,3] [rounds N] | start | "
                                    "stop: run the server's tournament")
        op.send("tournament open Friday Cup sizes 2")
        op.until("Done.")
        assert op.line() == "Tournament Friday Cup: open for entries. 0 entrants: no one yet."
        ana.send("tournament enter")
        ana.until("Done.")
        # Ana follows the tournament from the lobby: she heard it open, and now her entry.
        assert ana.until("Ana.") == "Tournament Friday Cup: open for entries. 1 entrant: Ana."
        guest.send("tournament enter")
        assert guest.until("key") == ("Only a player with a key enters a tournament: connect "
                                      "with your identity, not as a guest.")
        bot = subprocess.Popen(
            [sys.executable, "-m", "client.cli", "bot", address, "--tournament",
             "--strategy", "random", "--name", "rando", "--identity",
             str(tmp_path / "bot.pem")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=os.environ | {"LANGUAGE": "en", "COUP_DISCOVERY": "off"})
        op.until("2 entrants: Ana, rando.")
        op.send("tournament start")
        op.until("Done.")
        # Ana plays both her games with the first choice of every prompt, until the end.
        over = "Tournament Friday Cup: over, 2 of 2 games played; leading: "
        games_over = 0
        while True:
            line = ana.line()
            if choices_of(line) is not None:
                ana.send("1")
            games_over += line == ("The tournament's game is over: you are in the lobby, "
                                   "for your next.")
            if line.startswith(over):
                break
        assert games_over == 2
        first, second = ana.line(), ana.line()
        assert {first.split(":")[0], second.split(":")[0]} in (
            {"1. Ana", "2. rando"}, {"1. rando", "2. Ana"})
        assert " of 2 won (" in first and "forfeit" not in first
        assert op.until(over).startswith(over)
        ana.send("tournament")
        assert ana.until(over).startswith(over)
        out, err = bot.communicate(timeout=30)
        assert bot.returncode == 0, err
        assert over.encode() in out
        for t in (op, ana, guest):
            leaves_cleanly(t, "quit")
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
            bot.wait()
        for t in (op, ana, guest):
            t.close()
        server.stop()
