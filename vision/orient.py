"""Which side of a card is the long one, when the outline cannot tell.

Seen straight down, a card's outline is 63 × 88: its long side is plain. Seen at an angle, the
side that points away from the camera is foreshortened: a card lying lengthwise away from a low
camera can look square, or even wider than tall, and the outline's longer side is then the card's
short one. Straightened that way, the reader's index crops fall on the middle of the long sides
and read nothing (or the card model takes the card for a back). So the outline's shape only
proposes; reading decides (:class:`vision.stages.Orient`): a card whose outline is nearly square in
the image, or whose reading is unsure, is read turned a quarter as well.
"""

from __future__ import annotations

import numpy as np

AMBIGUOUS = 0.8
"""Short / long side of an outline in the image above which the long side is in doubt. Straight
down a card is 0.716 (63/88); a slight tilt or a loose outline moves that by a few hundredths, and
a tilt that foreshortens the long side by a tenth brings it to 0.8."""


def side_ratio(quads: np.ndarray) -> np.ndarray:
    """Short / long of each outline (N, 4, 2), from the means of its opposite sides."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    sides = np.linalg.norm(q - np.roll(q, -1, axis=1), axis=2)  # (N, 4): top, right, bottom, left
    across, along = (sides[:, 0] + sides[:, 2]) / 2, (sides[:, 1] + sides[:, 3]) / 2
    out: np.ndarray = np.minimum(across, along) / np.maximum(np.maximum(across, along), 1e-9)
    return out


def ambiguous(quads: np.ndarray) -> np.ndarray:
    """Which outlines (N, 4, 2) are too nearly square for their shape to say which side is long."""
    out: np.ndarray = side_ratio(quads) >= AMBIGUOUS
    return out


def turned(quads: np.ndarray) -> np.ndarray:
    """The outlines (N, 4, 2, in the reader's order) read a quarter turn the other way: the sides
    taken for the short ones become the long ones. Of the two ways up (a half turn apart, both read
    alike since both index corners are read), the one whose top left is nearer the image's top left
    is returned, as :func:`vision.rectify.order_corners` does."""
    out = np.roll(np.asarray(quads, np.float64).reshape(-1, 4, 2), -1, axis=1)
    flip = out[:, 2].sum(axis=1) < out[:, 0].sum(axis=1)
    out[flip] = np.roll(out[flip], 2, axis=1)
    return out

