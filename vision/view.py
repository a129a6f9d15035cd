"""What the camera tells the game: a stable view of the table, made by the tracker.

This is the contract between ``vision`` (which produces it) and the service (which turns it into
game steps). It holds only what has been read the same way over several frames; anything in doubt
is either left out or listed as a conflict, never guessed.

Zones are named ``"board"`` and ``"seat:N"`` (N = seat index from 0); a card outside every zone is
in zone ``""``. Corners are normalised image coordinates (0..1, origin top left), clockwise from
the card's top left.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Point = tuple[float, float]

BOARD = "board"


def seat_zone(seat: int) -> str:
    """The zone name of a seat: ``seat_zone(3) == "seat:3"``."""
    return f"seat:{seat}"


@dataclass(frozen=True)
class SeenCard:
    """One card the tracker is sure of.

    ``card`` is the face ("Ah") when the card lies face up and was read; None when it lies face
    down, or face up but not readable (a face-up card is still reported then, so that the board's
    order stays right and :meth:`TableView.face_up_board` stops there). ``mark`` is the Tock mark
    on a face-down card ("h:large", "s:ace"), ``"plain"`` for an unmarked back, None when the
    card is face up or the mark could not be read.
    """

    card: str | None
    face_up: bool
    mark: str | None
    zone: str
    confidence: float
    corners: tuple[Point, Point, Point, Point]
    first_frame: int = 0


@dataclass(frozen=True)
class Conflict:
    """Something the tracker refuses to apply: the same card seen twice, a card that changed face."""

    kind: str  # "duplicate" | "changed" | "outside" ...
    message: str
    zone: str = ""
    card: str | None = None
    corners: tuple[Point, Point, Point, Point] | None = None
    """Where the card that is not applied lies (normalised), when the tracker knows."""


@dataclass(frozen=True)
class TableView:
    """The stable table at one frame: board cards left to right, each seat's cards, conflicts."""

    frame_index: int
    timestamp: float
    board: tuple[SeenCard, ...] = ()
    seats: Mapping[int, tuple[SeenCard, ...]] = field(default_factory=dict)
    conflicts: tuple[Conflict, ...] = ()
    loose: tuple[SeenCard, ...] = ()
    """Cards the tracker is sure of that lie in no zone (zone ``""``): not part of the game."""

    def face_up_board(self) -> tuple[str, ...]:
        """The read faces of the board, left to right, stopping at the first card not face up."""
        faces: list[str] = []
        for seen in self.board:
            if not seen.face_up or seen.card is None:
                break
            faces.append(seen.card)
        return tuple(faces)

    def seat_cards(self, seat: int) -> tuple[SeenCard, ...]:
        """The cards seen in a seat's zone (empty when none)."""
        return tuple(self.seats.get(seat, ()))
