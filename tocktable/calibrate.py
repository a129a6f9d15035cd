"""Zones made from cards laid on the table: the host lays one card face up in front of every
seat and one in the middle of the board, and the zones are drawn round them.

:func:`propose` is a pure function of the card outlines found on a frame: the card nearest the
middle of them all is the board's; the others are the seats', taken clockwise on the picture
round the board card, starting with the one nearest straight below it (the host then says which
is seat 1 by tapping it: the numbering turns round the ring, :func:`number_from`).

Each seat's zone is a rectangle centred on its card, 2.8 card widths across and 1.6 card heights
deep (two hole cards side by side, and room to spare), turned to face the board card, made
narrower when a neighbour's card is close; the board's zone is 6 card widths by 1.6 card
heights, level, centred on its card (five cards in a row). Every point is kept inside the picture.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from table.errors import TocktableError

CARD_ASPECT = 63 / 88
SEAT_ACROSS, SEAT_DEEP = 2.8, 1.6
"""A seat zone's size, in card widths across and card heights deep."""
BOARD_ACROSS, BOARD_DEEP = 6.0, 1.6


class CalibrationError(TocktableError, ValueError):
    """The cards on the table do not make zones (the message says what to lay down)."""


def _clip(points: np.ndarray) -> list[list[float]]:
    return [[round(float(min(max(x, 0.0), 1.0)), 5), round(float(min(max(y, 0.0), 1.0)), 5)] for x, y in points]


def _rectangle(centre: np.ndarray, across: float, deep: float, angle: float) -> np.ndarray:
    """Corners (pixels) of a rectangle ``across`` x ``deep`` turned by ``angle`` radians."""
    ux, uy = math.cos(angle), math.sin(angle)
    vx, vy = -uy, ux
    a, d = across / 2, deep / 2
    return np.array([centre + s * a * np.array([ux, uy]) + t * d * np.array([vx, vy])
                     for s, t in ((-1, -1), (1, -1), (1, 1), (-1, 1))])  # fmt: skip


def propose(outlines: Sequence[Any], size: tuple[int, int], seats: int) -> dict[str, Any]:
    """The zones for ``seats`` seats from ``outlines`` (4 x 2 pixel corners each) on a picture of
    ``size`` = (width, height): ``{"board": polygon, "ring": [seat polygons clockwise], "cards":
    [normalised centres, board first, then clockwise]}``; :class:`CalibrationError` unless there
    are exactly ``seats`` + 1 cards."""
    width, height = size
    quads = [np.asarray(q, np.float64).reshape(4, 2) for q in outlines]
    if len(quads) != seats + 1:
        raise CalibrationError(
            f"{len(quads)} card{'s' if len(quads) != 1 else ''} seen: lay exactly one card face up in front of each "
            f"of the {seats} seats and one in the middle of the board ({seats + 1} cards), then calibrate again"
        )
    centres = np.array([q.mean(axis=0) for q in quads])
    sides = np.linalg.norm(np.stack(quads) - np.roll(np.stack(quads), -1, axis=1), axis=2)
    card_h = float(np.median(np.maximum((sides[:, 0] + sides[:, 2]) / 2, (sides[:, 1] + sides[:, 3]) / 2)))
    card_w = card_h * CARD_ASPECT
    middle = centres.mean(axis=0)
    board_index = int(np.argmin(np.linalg.norm(centres - middle, axis=1)))
    board = centres[board_index]
    others = [i for i in range(len(centres)) if i != board_index]
    # clockwise on the picture (y grows downwards), starting straight below the board card
    def turn(i: int) -> float:
        dx, dy = centres[i] - board
        return (math.atan2(dy, dx) - math.pi / 2) % (2 * math.pi)

    ring = sorted(others, key=turn)
    scale = np.array([width, height], np.float64)
    polygons = []
    for i in ring:
        toward = board - centres[i]
        facing = math.atan2(toward[1], toward[0]) + math.pi / 2  # the long side square to the board
        nearest = min((float(np.linalg.norm(centres[j] - centres[i])) for j in ring if j != i), default=math.inf)
        across = min(SEAT_ACROSS * card_w, 0.9 * nearest)
        deep = min(SEAT_DEEP * card_h, 0.9 * float(np.linalg.norm(toward)))
        polygons.append(_clip(_rectangle(centres[i], across, deep, facing) / scale))
    board_zone = _clip(_rectangle(board, BOARD_ACROSS * card_w, BOARD_DEEP * card_h, 0.0) / scale)
    return {"board": board_zone, "ring": polygons,
            "cards": [_clip((centres[i] / scale)[None])[0] for i in [board_index, *ring]]}  # fmt: skip


def number_from(proposal: dict[str, Any], first: int) -> dict[str, list[list[float]]]:
    """The zones with the ``first``-th seat of the clockwise ring as seat 1 (``"seat:0"``)."""
    ring = proposal["ring"]
    if not 0 <= first < len(ring):
        raise CalibrationError(f"seat {first + 1} of the ring does not exist: there are {len(ring)}")
    zones = {"board": proposal["board"]}
    for k in range(len(ring)):
        zones[f"seat:{k}"] = ring[(first + k) % len(ring)]
    return zones
