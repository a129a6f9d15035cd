"""Scripted hands for the lens tests (worker, API, browser, screenshot): a six-handed Tock hand
street by street with every mark read, and a Hold'em all-in. Seats and players are those of
``tests.web.helpers`` (Ann, Bob, Cleo, Dan, Eve, Finn; Cleo has 400 chips, the others 1,000);
button seat 0, so Bob (1) posts the small blind, Cleo (2) the big blind and Dan (3) acts first."""

from __future__ import annotations

from typing import Any

from table.cards import Card
from table.tock import mark_of
from tocktable.steps import Act, ChooseButton, DealBoard, MarkRead, Show

TOCK_HOLES = {0: ("Ah", "Qh"), 1: ("7c", "2d"), 2: ("Kc", "Kd"), 3: ("9s", "8s"), 4: ("Jc", "4c"), 5: ("Td", "3s")}
"""The true hole cards (the table sees only their marks until the showdown)."""
TOCK_BOARD = ("Kh", "9h", "5s", "2h", "Js")


def mark(card: str) -> str:
    return str(mark_of(Card.parse(card)))


def tock_marks(holes: dict[int, tuple[str, str]] = TOCK_HOLES, board: tuple[str, ...] = TOCK_BOARD) -> list[Any]:
    """The camera reading every back: each seat's two marks, then the five board marks."""
    steps: list[Any] = [MarkRead(seat, i, mark(c)) for seat, cards in holes.items() for i, c in enumerate(cards)]
    return steps + [MarkRead(None, i, mark(c)) for i, c in enumerate(board)]


TOCK_PREFLOP = [Act(3, "call"), Act(4, "fold"), Act(5, "call"), Act(0, "call"), Act(1, "call"), Act(2, "check")]
TOCK_FLOP = [DealBoard(TOCK_BOARD[:3]), Act(1, "check"), Act(2, "check"), Act(3, "bet", 20), Act(5, "fold"),
             Act(0, "call"), Act(1, "fold"), Act(2, "call")]  # fmt: skip
TOCK_TURN = [DealBoard(TOCK_BOARD[3:4]), Act(2, "check"), Act(3, "check"), Act(0, "check")]
TOCK_RIVER = [DealBoard(TOCK_BOARD[4:]), Act(2, "check"), Act(3, "check"), Act(0, "check")]
TOCK_SHOWDOWN = [Show(2, TOCK_HOLES[2]), Show(3, TOCK_HOLES[3]), Show(0, TOCK_HOLES[0])]
TOCK_HAND = [ChooseButton(seat=0), *tock_marks(), *TOCK_PREFLOP, *TOCK_FLOP, *TOCK_TURN, *TOCK_RIVER, *TOCK_SHOWDOWN]
"""Ann's ace-high flush beats Cleo's three kings; Eve folds pre-flop, Finn and Bob on the flop."""

ALLIN_HOLES = {2: ("Qs", "Qd"), 3: ("Ah", "Kh")}
ALLIN_BOARD = ("Qh", "7h", "2c", "3d", "Th")
ALLIN_PREFLOP = [Act(3, "all_in"), Act(4, "fold"), Act(5, "fold"), Act(0, "fold"), Act(1, "fold"), Act(2, "call")]
ALLIN_HAND = [ChooseButton(seat=0), *ALLIN_PREFLOP, DealBoard(ALLIN_BOARD[:3]), DealBoard(ALLIN_BOARD[3:4]),
              DealBoard(ALLIN_BOARD[4:])]  # fmt: skip
"""Hold'em: Dan all in pre-flop with AhKh, Cleo calls all in with QsQd; the board runs out (Dan
rivers a flush); the hands are turned at the showdown (``ALLIN_SHOW``)."""
ALLIN_SHOW = [Show(2, ALLIN_HOLES[2]), Show(3, ALLIN_HOLES[3])]
