"""Card-shaped quadrilaterals (vision.quads): the shape test, and a blob fitted as one card."""

from __future__ import annotations

import cv2
import numpy as np

from vision.quads import SQUAREST, card_shaped, card_shaped_many, quad_from_blob


def _seen_tilted(tilt_degrees: float, *, width: float = 63.0, height: float = 88.0) -> np.ndarray:
    """A card's outline seen by a camera tilted ``tilt_degrees`` from straight down, the card's
    long side pointing away: that side is foreshortened, and the far side is narrower."""
    shrink = np.cos(np.radians(tilt_degrees))
    far = 1.0 - 0.1 * np.sin(np.radians(tilt_degrees))  # perspective: the far side a little narrower
    return np.array([[100 - far * width / 2, 100.0], [100 + far * width / 2, 100.0],
                     [100 + width / 2, 100 + shrink * height], [100 - width / 2, 100 + shrink * height]])  # fmt: skip


def _blob(quad: np.ndarray, shape: tuple[int, int] = (240, 240)) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(quad).astype(np.int32)], 255)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=cv2.contourArea)


def test_a_card_foreshortened_to_a_square_by_a_tilted_camera_is_card_shaped() -> None:
    quads = np.stack([_seen_tilted(t) for t in (0, 20, 35, 45)])
    sides = np.linalg.norm(quads - quads[:, [1, 2, 3, 0]], axis=2)
    ratios = np.minimum(sides[:, ::2].mean(axis=1), sides[:, 1::2].mean(axis=1)) / np.maximum(
        sides[:, ::2].mean(axis=1), sides[:, 1::2].mean(axis=1))  # fmt: skip
    assert ratios[-1] > 0.92  # at 45° the outline is nearly square
    assert all(card_shaped(q) for q in quads) and card_shaped_many(quads).all()
    assert ratios.max() <= SQUAREST


def test_shapes_that_are_not_one_card_are_not_card_shaped() -> None:
    row_of_three = np.array([[0, 0], [189, 0], [189, 88], [0, 88]], np.float64)
    wedge = np.array([[0, 0], [100, 0], [80, 60], [20, 60]], np.float64)  # opposite sides far unalike
    bow_tie = np.array([[0, 0], [63, 88], [63, 0], [0, 88]], np.float64)  # not convex
    quads = np.stack([row_of_three, wedge, bow_tie])
    assert not any(card_shaped(q) for q in quads) and not card_shaped_many(quads).any()


def test_the_blob_of_a_card_seen_at_45_degrees_is_one_whole_card_at_its_corners() -> None:
    quad = _seen_tilted(45, width=126, height=176)
    found = quad_from_blob(_blob(quad))
    assert found is not None
    corners, fit = found
    assert fit > 0.95
    # each true corner has a found corner within two pixels
    distances = np.linalg.norm(quad[:, None] - corners[None], axis=2)
    assert distances.min(axis=1).max() < 2.5
