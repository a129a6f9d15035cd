"""Whether a card's body shows a picture: a witness that tells a court card from a number card.

Some decks print a queen whose Q looks like a 9, a king whose K looks like an R; both index corners
share the font, so they agree on the wrong rank. The body says it another way: a number card's
body holds pips in its suit's one ink (black, red; blue or green in four-colour decks), while a
court card's body is a picture in several inks (gold, blue, red, black).

So the body's inner part (between the indices) is measured in hue families: red, yellow, green and
blue, each counted when more than :data:`_SHARE` of the part is saturated in it. A number card
shows at most one; two or more is a picture. Measured with :func:`hue_families` on 600 number cards
and 186 court cards of hold-out decks and on the cards read in the real photos (200 number, 60
court): no number card showed two families; 88 % and 93 % of court cards did.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.mark_reader import card_regions
from vision.rectify import Pyramid

BODY_BOX = (0.2, 0.15, 0.8, 0.85)
"""The inner part of an upright card (x0, y0, x1, y1 as fractions): pips or picture, no index."""

BODY_SIZE = (60, 84)
"""Width and height in pixels the inner part is measured at."""

_SHARE = 0.02
"""A hue family is present when more than this share of the inner part is saturated in it."""

_FAMILIES = ((0, 10), (160, 180), (15, 40), (40, 85), (85, 140))
"""OpenCV hue ranges (0..180): red (both ends of the circle), yellow, green, blue."""


def hue_families(bodies: np.ndarray) -> np.ndarray:
    """How many hue families each inner part (N, H, W, 3 BGR) shows plainly: (N,) ints 0..4."""
    if not len(bodies):
        return np.zeros(0, np.int64)
    n, h, w = bodies.shape[:3]
    hsv = cv2.cvtColor(np.ascontiguousarray(bodies).reshape(n * h, w, 3), cv2.COLOR_BGR2HSV).reshape(n, h * w, 3)
    hue = hsv[..., 0]
    saturated = (hsv[..., 1] > 90) & (hsv[..., 2] > 70)
    inside = [(hue >= lo) & (hue < hi) for lo, hi in _FAMILIES]
    shares = [((saturated & (inside[0] | inside[1])).sum(axis=1))] + [(saturated & m).sum(axis=1) for m in inside[2:]]
    out: np.ndarray = (np.stack(shares, axis=1) > _SHARE * h * w).sum(axis=1)
    return out


def pictures(pyramid: Pyramid, corners: Sequence[np.ndarray]) -> np.ndarray:
    """Which cards (corners in the reader's order) show a picture in their body: (N,) bool."""
    bodies = card_regions(pyramid, list(corners), BODY_BOX, BODY_SIZE, ordered=True)
    out: np.ndarray = hue_families(np.asarray(bodies)) >= 2
    return out
