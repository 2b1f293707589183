"""A Coup bot in Python that imports nothing of this project: docs/BOTS.md, "A bot in any
language". Run it with `coup arena --strategies exec:'python3 coup_bot.py',heuristic`."""
import json
import random
import sys

# The moves it likes, best first: Coup when it can, Tax (Duke or not), Steal, then the rest.
TASTE = ["coup", "tax", "steal", "foreign_aid", "income", "prove", "pass"]


def rank(move, hand):
    if move["kind"] == "challenge":
        return 0 if random.random() < 0.05 else 50  # challenge rarely
    if move["kind"] == "block":
        return 1 if move["card"] in hand else 40  # block only with the card in hand
    return TASTE.index(move["kind"]) if move["kind"] in TASTE else 20


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"ready": True, "name": "pybot"}), flush=True)
    elif message["type"] == "decide":
        view, moves = message["view"], message["moves"]
        hand = view["hands"][view["seat"]] or []
        ranks = [rank(m, hand) for m in moves]
        print(json.dumps({"id": message["id"], "move": ranks.index(min(ranks))}), flush=True)
    elif message["type"] == "goodbye":
        break
