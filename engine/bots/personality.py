"""Personalities: the heuristic's knobs, gathered in one frozen value per character.

A personality changes how often the heuristic lies, how readily it calls a lie, whom it
aims at and what it does with its coins; it never adds a way of playing. `DEFAULT` is the
plain `heuristic`; the others are registered as strategies of their own names.
"""

from __future__ import annotations

from dataclasses import dataclass

from .beliefs import SUSPICION

THREAT = "threat"  # aim at the most threatening opponent
VENGEANCE = "vengeance"  # aim at whoever last cost it an influence or coins


@dataclass(frozen=True, slots=True)
class Personality:
    """Knobs of the heuristic. Bluff rates are the chance, per turn, of claiming a
    character it does not hold for that action; block rates the chance of a bluffed block
    when it is the target."""

    tax: float = 0.15
    steal: float = 0.09
    assassinate: float = 0.13
    exchange: float = 0.0
    #: A Contessa bluff against an Assassin while it still has two influences.
    contessa: float = 0.05
    #: A Contessa bluff on its last influence, where not lying loses the game anyway.
    contessa_when_doomed: bool = True
    #: A Captain or Ambassador bluff against a Steal.
    steal_block: float = 0.08
    #: The bluff rate it assumes of an opponent before it has caught or cleared one.
    suspicion: float = SUSPICION
    #: Multiplies what a caught bluff is worth to it: above 1 calls more lies, below 1
    #: fewer.
    challenge: float = 1.0
    #: With VENGEANCE targeting, multiplies that again against its grudge.
    grudge_calls: float = 1.0
    #: With VENGEANCE targeting, the least chance of bluffing a block of its grudge's
    #: Assassination or Steal aimed at it.
    grudge_blocks: float = 0.0
    #: THREAT or VENGEANCE.
    targeting: str = THREAT
    #: Saves for a Coup: never pays for an Assassinate, takes Foreign Aid more readily.
    banker: bool = False
    #: The chance, on a turn where a big Almshouse would pay for the risk, of an
    #: Embezzlement while holding a Duke (R12.11: a bluff, since it claims to hold none).
    embezzle: float = 0.5


DEFAULT = Personality()
#: Lies on a third of its turns and blocks whatever it can; expects others to lie as it does,
#: so it believes their claims less and calls them more.
BLUFFER = Personality(tax=0.45, steal=0.3, assassinate=0.35, exchange=0.2, contessa=0.3,
                      steal_block=0.4, suspicion=0.4, challenge=1.3, embezzle=0.9)
#: Never claims a card it does not hold, even to survive; believes others as it would be
#: believed, and calls a lie only when sure.
CAUTIOUS = Personality(tax=0.0, steal=0.0, assassinate=0.0, contessa=0.0,
                       contessa_when_doomed=False, steal_block=0.0, suspicion=0.06,
                       challenge=0.6, embezzle=0.0)
#: Aims at whoever last cost it an influence or coins, calls that seat's claims far more
#: readily, and bluffs a block of its attacks on it one time in three.
VENGEFUL = Personality(targeting=VENGEANCE, grudge_calls=3.0, grudge_blocks=0.35)
#: Races to Coup: Tax, Steal and Foreign Aid, never an Assassinate; keeps its cards for the
#: race, so it calls others' claims less.
BANKER = Personality(tax=0.2, assassinate=0.0, banker=True, challenge=0.7)
