"""Plain mode's operator commands (issue 27, section 6), through pipes as a transcript: the
table's creator removes a seat before the start; an operator (identified with a key the
server names) mutes, closes a table and bans; a guest's help shows only the creator's
command, and its ban is refused. Each act is answered "Done." or with a sentence, and the
acted-on player is told in its own words, the server's sentence after them.
"""

from __future__ import annotations

from client.identity import load
from server import ServerConfig
from tests.client.test_plain import leaves_cleanly
from tests.client.transcript import Transcript
from tests.client.tui.helpers import ServerThread


def test_a_creator_and_an_operator_act_from_plain_mode(tmp_path):
    key = str(tmp_path / "op.pem")
    server = ServerThread(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0,
                                       operators=load(key).key)).start()
    address = f"127.0.0.1:{server.port}"
    ana = Transcript("join", address, "--plain", "--name", "Ana")
    bruno = Transcript("join", address, "--plain", "--name", "Bruno",
                       identity=str(tmp_path / "bruno.pem"))
    op = Transcript("join", address, "--plain", "--name", "Op", identity=key)
    try:
        for t in (ana, bruno, op):
            t.until("Connected to")
        ana.send("help")
        ana.until("kick NAME [REASON]")
        op.send("help")
        op.until("ban NAME MINUTES [REASON]")
        ana.send("create 3")
        table = ana.until("You sit at table").removeprefix("You sit at table ").rstrip(".")
        bruno.send("list")
        bruno.until(f"Table {table}:")
        bruno.send(f"join {table}")
        bruno.until("You sit at table")
        ana.until("Seats: Ana, Bruno, empty")
        ana.send("kick bruno idle")
        ana.until("Done.")
        assert bruno.until("removed") == "You were removed from the table: you are in the lobby."
        assert bruno.line() == "Ana removed you from the table Ana's table: you are in the " \
                               "lobby. Reason: idle"
        assert bruno.line() == "You are in the lobby."
        ana.until("Seats: Ana, empty, empty")
        bruno.send(f"spectate {table}")
        assert bruno.until("You may not").startswith("You may not do that")
        ana.send("ban Bruno 5")
        assert ana.until("You may not").startswith("You may not do that")
        op.send("mute bruno 10")
        op.until("Done.")
        bruno.send("say hello?")
        assert bruno.until("muted") == "An operator muted you in chat for a while."
        op.send("mute bruno")
        assert op.line() == "MINUTES is a number from 0 to 525600."
        op.send(f"close {table} closing time")
        op.until("Done.")
        assert ana.until("closed") == "An operator closed your table: you are in the lobby."
        assert ana.line() == "Op closed the table Ana's table: you are in the lobby. Reason: " \
                             "closing time"
        op.send("ban bruno 60 cheating")
        op.until("Done.")
        bruno.until("The server says goodbye: You are banned from this server for a while.")
        assert bruno.line().endswith("UTC: cheating")
        for t in (ana, op):
            leaves_cleanly(t, "quit")
    finally:
        for t in (ana, bruno, op):
            t.close()
        server.stop()
