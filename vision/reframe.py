"""A second outline for a card whose outline came out too narrow: where cards touch.

Where a card touches its neighbour, the detector's outline often lies a few pixels inside the
card on that side (the seam between two cards of the same paper is faint), so the card comes out
10-20 % too narrow and the index in that corner is cut: the corners then read nothing sure. Every
card of a deck has the same shape, and the cards of one frame are seen alike (the same camera, the
same tilt), so a card much narrower than the frame's typical card has one long side misplaced.
Which one is not known: the reader reads the card again from two outlines, each widened to the
typical shape on one side, and keeps the better reading.

Measured on touching rows, asking only face-up cards the reader is unsure of: of 8 such
narrow cards in the bench's 40 hold-out scenes 5 became right; on 240 other scenes (hold-out and
training fonts, other seeds) 24 of 42 became right, none wrong. With cards apart it is seldom
asked (1 card in 280 scenes).
"""

from __future__ import annotations

import numpy as np

NARROW = 0.93
"""A card is narrow when its width / height is below this share of the frame's typical card's."""

MIN_CARDS = 3
"""The typical card's shape is the median of the frame's cards: at least this many are needed."""


def aspects(quads: np.ndarray) -> np.ndarray:
    """Width / height of each card (N, 4, 2 corners in the reader's order: clockwise from the
    card's upright top left), from the means of its opposite sides."""
    width = np.linalg.norm((quads[:, 1] - quads[:, 0] + quads[:, 2] - quads[:, 3]) / 2, axis=1)
    height = np.linalg.norm((quads[:, 3] - quads[:, 0] + quads[:, 2] - quads[:, 1]) / 2, axis=1)
    out: np.ndarray = width / np.maximum(height, 1e-9)
    return out


def narrow_cards(quads: np.ndarray) -> tuple[np.ndarray, float]:
    """Which cards are narrow (bool per card) and the frame's typical width / height (0.0, and no
    card narrow, when the frame has fewer than :data:`MIN_CARDS` cards)."""
    if len(quads) < MIN_CARDS:
        return np.zeros(len(quads), bool), 0.0
    shape = aspects(quads)
    typical = float(np.median(shape))
    return shape < NARROW * typical, typical


def widened(quad: np.ndarray, typical: float) -> tuple[np.ndarray, np.ndarray]:
    """Two outlines of a card (4, 2 in the reader's order) made ``typical`` wide for their height:
    its left side moved out, and its right side moved out (the other three sides stay)."""
    across = (quad[1] - quad[0] + quad[2] - quad[3]) / 2
    down = (quad[3] - quad[0] + quad[2] - quad[1]) / 2
    width = float(np.linalg.norm(across))
    grow = (typical * float(np.linalg.norm(down)) - width) * across / max(width, 1e-9)
    left, right = quad.astype(np.float64), quad.astype(np.float64)
    left[[0, 3]] -= grow
    right[[1, 2]] += grow
    return left, right
