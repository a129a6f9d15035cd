"""Poker dice ("Poker au dé") referee: rolls, combinations, announcements, challenges.

Pure logic for the bluffing game played with five poker dice and a cup, following the rules in
the project's seed text: rank any roll, read and order any announcement (French forms, with
the relative ones), say what "Supérieur" means now, settle a challenge, count the throws of a
Tour de Poker, keep the loss tally.

>>> from table.dice import Announcement, Roll, challenge
>>> Roll.parse("N N D D A").combination()
Combination('Double Paire de Dames et de Noirs')
>>> Announcement.parse("Double Paire Rois Dames") < Announcement.parse("Double Paire As Noirs")
True
>>> Announcement.parse("Full Dames As") == Announcement.parse("Full As Dames")
False
>>> challenge("Paire de Rois", "K K N R V").lie   # the dice show exactly that: no lie
False
"""

from table.dice.announce import (
    Announcement,
    Completion,
    Relative,
    all_announcements,
    complete,
    highest,
    lowest,
    next_above,
)
from table.dice.combination import Category, Combination, all_combinations
from table.dice.errors import AnnouncementError, DiceError, IllegalTurnError, RollError, ThrowError
from table.dice.faces import Face
from table.dice.referee import (
    ChallengeOutcome,
    ChallengeResult,
    DiceReferee,
    Direction,
    Side,
    Throw,
    ThrowingPhase,
    Turn,
    challenge,
    roll_off,
    tour_de_poker_throws,
)
from table.dice.roll import Roll

__all__ = [
    "Announcement",
    "AnnouncementError",
    "Category",
    "ChallengeOutcome",
    "ChallengeResult",
    "Combination",
    "Completion",
    "DiceError",
    "DiceReferee",
    "Direction",
    "Face",
    "IllegalTurnError",
    "Relative",
    "Roll",
    "RollError",
    "Side",
    "Throw",
    "ThrowError",
    "ThrowingPhase",
    "Turn",
    "all_announcements",
    "all_combinations",
    "challenge",
    "complete",
    "highest",
    "lowest",
    "next_above",
    "roll_off",
    "tour_de_poker_throws",
]
