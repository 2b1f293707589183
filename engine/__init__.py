"""The rules of Coup as a pure library, shared by the server, the client and bots.

Everything here is deterministic given a seed and does no I/O. The public API:

    game = Game.new(Options(players=4), seed=7)   # deal (R1)
    game.waiting                                  # seats that owe a decision now
    game.legal_moves(seat)                        # every move that seat may make
    events = game.apply(seat, move, state_id)     # play; IllegalMove(code, message) if not
    visible_to(events, seat)                      # the events a viewer may see (R11)
    view = game.view(seat)                        # what a seat (None: spectator) may see
    legal_moves(view, view.seat)                  # the same legality, on a client's view
    Game.replay(options, seed, game.history)      # the same game again
    summarize(game)                               # once it is over: claims, bluffs, who went out

Moves are shared immutable values made with `move(kind, target=…, card=…, cards=…, swap=…)` or read
with `Move.from_dict`; cards and actions are the ids of rules.md (see `cards`).
"""

from .cards import ACTIONS, CHARACTERS, FACTIONS, VARIANTS
from .errors import MOVE_ERRORS, IllegalMove, OptionsError
from .events import FAIL_REASONS, Event, visible_to
from .game import Game
from .legality import PHASES, STEPS, check, default_move, legal_moves
from .moves import KINDS, Move, move
from .options import Options
from .summary import summarize
from .views import FIELDS as VIEW_FIELDS, View, ViewField

__all__ = [
    "ACTIONS", "CHARACTERS", "FACTIONS", "FAIL_REASONS", "KINDS", "MOVE_ERRORS", "PHASES", "STEPS", "VARIANTS",
    "VIEW_FIELDS", "Event", "Game", "IllegalMove", "Move", "Options", "OptionsError", "View",
    "ViewField",
    "check", "default_move", "legal_moves", "move", "summarize", "visible_to",
]
