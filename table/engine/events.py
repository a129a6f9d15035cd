"""Everything that happens in a hand, as frozen events appended to the hand's log."""

from __future__ import annotations

from dataclasses import dataclass

from table.cards import Card
from table.engine.rules import ActionKind, Street
from table.tock_marks import Mark


@dataclass(frozen=True)
class BlindPosted:
    seat: int
    kind: str
    """"small", "big" or "ante"."""
    amount: int
    all_in: bool


@dataclass(frozen=True)
class ActionTaken:
    seat: int
    action: ActionKind
    to: int
    """The seat's total bet on this street after the action."""
    added: int
    """Chips moved from the stack by this action."""
    all_in: bool


@dataclass(frozen=True)
class BetReturned:
    """An uncalled part of a bet went back to the bettor."""

    seat: int
    amount: int


@dataclass(frozen=True)
class StreetStarted:
    street: Street


@dataclass(frozen=True)
class BoardDealt:
    cards: tuple[Card, ...]
    """Cards turned face up, left to right."""
    street: Street


@dataclass(frozen=True)
class HoleDealt:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class MarkSeen:
    """A Tock mark read on a face-down card: a hole card (seat, index) or a board position."""

    seat: int | None
    index: int
    mark: Mark


@dataclass(frozen=True)
class HandMucked:
    seat: int


@dataclass(frozen=True)
class PotAwarded:
    pot: int
    """0 for the main pot, 1.. for side pots."""
    seat: int
    amount: int
    hand: str | None
    """The winning hand in words, or None when everyone else folded."""


@dataclass(frozen=True)
class HandEnded:
    stacks: tuple[int, ...]


Event = (
    BlindPosted | ActionTaken | BetReturned | StreetStarted | BoardDealt | HoleDealt | MarkSeen | HandMucked
    | PotAwarded | HandEnded
)  # fmt: skip
