"""The game engine: rules, one hand at a time, pots and showdown.

>>> from table.engine import Hand, Rules
>>> hand = Hand(Rules(small_blind=5, big_blind=10), stacks=[500, 500], button=0)
>>> hand.act(0, "call"); hand.act(1, "check")
>>> hand.street.name
'PREFLOP'
"""

from table.engine.blinds import BlindLevel, BlindStructure, LevelClock
from table.engine.events import (
    ActionTaken,
    BetReturned,
    BlindPosted,
    BoardDealt,
    Event,
    HandEnded,
    HandMucked,
    HoleDealt,
    MarkSeen,
    PotAwarded,
    StreetStarted,
)
from table.engine.hand import Hand, LegalAction
from table.engine.pots import Pot, build_pots, split_pot
from table.engine.rules import ActionKind, Rules, Street
from table.engine.showdown import PotResult, award_pots

__all__ = [
    "ActionKind",
    "ActionTaken",
    "BetReturned",
    "BlindLevel",
    "BlindPosted",
    "BlindStructure",
    "BoardDealt",
    "Event",
    "Hand",
    "HandEnded",
    "HandMucked",
    "HoleDealt",
    "LegalAction",
    "LevelClock",
    "MarkSeen",
    "Pot",
    "PotAwarded",
    "PotResult",
    "Rules",
    "Street",
    "StreetStarted",
    "award_pots",
    "build_pots",
    "split_pot",
]
