"""A complete Coup bot with nothing but the standard library's socket and msgpack.

Written from docs/PROTOCOL.md alone (no import from this project), to show what a bot in any
language needs: it connects, says hello, creates a table, waits for the other seats to
fill, says ready, plays legal moves (computed here from the rules, as the spec explains)
until the game ends, and exits 0.

    python docs/examples/raw_bot.py --port 7654 --create 4 --name raw
"""

import argparse
import itertools
import random
import socket
import sys
import time

import msgpack

CARDS_OF_VARIANT = {
    "base": ["duke", "assassin", "captain", "ambassador", "contessa"],
    "inquisitor": ["duke", "assassin", "captain", "inquisitor", "contessa"],
}
TARGETED = {"coup", "assassinate", "steal", "examine"}


class Wire:
    """Frames over a socket: msgpack maps, one after another."""

    def __init__(self, host, port):
        self.sock = socket.create_connection((host, port))
        self.unpacker = msgpack.Unpacker(raw=False)
        self.ids = itertools.count(1)

    def send(self, message):
        self.sock.sendall(msgpack.packb(message, use_bin_type=True))

    def request(self, message):
        message["id"] = next(self.ids)
        self.send(message)
        return message["id"]

    def receive(self):
        while True:
            for message in self.unpacker:
                return message
            data = self.sock.recv(65536)
            if not data:
                return None
            self.unpacker.feed(data)


def legal_moves(view):
    """Every move my seat may make now, by the phase of the view (PROTOCOL.md, How to play)."""
    me = view["seat"]
    phase = view["phase"]
    hand = view["hands"][me]
    others = [s for s, alive in enumerate(view["alive"]) if alive and s != me]
    if phase == "action":
        coins = view["coins"][me]
        coups = [{"kind": "coup", "target": t} for t in others]
        if coins >= 10:
            return coups
        moves = [{"kind": "income"}, {"kind": "foreign_aid"}, {"kind": "tax"},
                 {"kind": "exchange"}]
        if coins >= 7:
            moves += coups
        if coins >= 3:
            moves += [{"kind": "assassinate", "target": t} for t in others]
        moves += [{"kind": "steal", "target": t} for t in others]
        if view["options"]["variant"] == "inquisitor":
            moves += [{"kind": "examine", "target": t} for t in others]
        return moves
    if phase == "respond":
        if view["step"] == "block":
            blockers = {"foreign_aid": ["duke"], "assassinate": ["contessa"],
                        "steal": ["captain", "inquisitor" if view["options"]["variant"]
                                  == "inquisitor" else "ambassador"]}[view["action"]]
            return [{"kind": "block", "card": c} for c in blockers] + [{"kind": "pass"}]
        return [{"kind": "challenge"}, {"kind": "pass"}]
    if phase == "prove":
        return ([{"kind": "prove"}] if view["claim"] in hand else []) + [{"kind": "concede"}]
    if phase in ("lose", "show"):
        return [{"kind": phase, "card": c} for c in sorted(set(hand))]
    if phase == "keep":
        pool = hand + view["drawn"]
        combos = {tuple(sorted(c)) for c in itertools.combinations(pool, view["keep_count"])}
        return [{"kind": "keep", "cards": list(c)} for c in sorted(combos)]
    if phase == "examine_decision":
        return [{"kind": "examine_decision", "swap": False},
                {"kind": "examine_decision", "swap": True}]
    if phase == "draft":
        return [{"kind": "draft_pick", "card": c} for c in view["draft_sets"][me]]
    return []


def main():
    parser = argparse.ArgumentParser(description="A Coup bot on bare sockets.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7654)
    parser.add_argument("--create", type=int, default=4, metavar="SEATS")
    parser.add_argument("--name", default="raw-bot")
    args = parser.parse_args()
    rng = random.Random()
    wire = Wire(args.host, args.port)

    wire.send({"t": "hello", "versions": [1], "client": "raw-bot/1", "name": args.name})
    welcome = wire.receive()
    if welcome is None or welcome["t"] != "welcome":
        sys.exit(f"no welcome: {welcome}")

    wire.request({"t": "create_table", "options": {"seats": args.create}})
    answered = None
    view = None
    while True:
        message = wire.receive()
        if message is None:
            sys.exit("the server closed the connection")
        kind = message["t"]
        if kind == "joined":
            print(f"seat {message['seat']} at table {message['table']}")
        elif kind == "table":
            info = message["info"]
            filled = all(s["name"] is not None for s in info["seats"])
            mine = info["seats"][0]
            if info["status"] == "waiting" and filled and not mine["ready"]:
                wire.request({"t": "ready", "ready": True})
        elif kind == "ping":
            wire.send({"t": "pong", "re": message["id"]})
        elif kind == "error":
            print(f"error: {message['code']}: {message['message']}", file=sys.stderr)
            if message["code"] == "rate_limited" and view and view["seat"] in view["waiting"]:
                time.sleep(0.5)  # the server asked us to slow down: try again
                move = rng.choice(legal_moves(view))
                wire.request({"t": "move", "state_id": view["state_id"], "move": move})
        elif kind in ("snapshot", "update"):
            view = message["view"]
            if view["phase"] == "over":
                print(f"game over: seat {view['winner']} won")
                wire.request({"t": "leave"})
                wire.send({"t": "bye", "reason": "client_quit"})
                return
            if view["seat"] in view["waiting"] and answered != view["opened"]:
                answered = view["opened"]
                move = rng.choice(legal_moves(view))
                wire.request({"t": "move", "state_id": view["state_id"], "move": move})
        elif kind == "move_rejected" and message["code"] != "stale_state":
            print(f"move refused: {message['code']}: {message['message']}", file=sys.stderr)
            if view is not None and view["seat"] in view["waiting"]:
                move = rng.choice(legal_moves(view))
                wire.request({"t": "move", "state_id": view["state_id"], "move": move})


if __name__ == "__main__":
    main()
