"""Straightening cards: corner order, the card's homography, index-corner crops, thumbnails.

A card is described by its four corners in the frame, ordered clockwise from the top left of
the card *held upright* (portrait, long side vertical). Which of the two upright orientations
is not known from the outline alone (a card turned 180° has the same outline); the reader reads
both index corners, so it does not matter.

Crops are cut straight from the frame with one perspective warp each (no full-card warp in
between), from a pyramid level close to the crop's resolution so that small crops of big cards
do not alias.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.errors import FrameError

CARD_ASPECT = 63 / 88
"""Width / height of a poker-size card (63 × 88 mm)."""

INDEX_BOX = (0.0, 0.0, 0.28, 0.44)
"""The top-left index region of an upright card: x0, y0, x1, y1 as fractions of width and height."""

CROP_W, CROP_H = 32, 64
"""Size in pixels of an index crop fed to the corner model."""

THUMB_W, THUMB_H = 36, 50
"""Size in pixels of a whole-card thumbnail fed to the card model."""


def order_corners(points: np.ndarray) -> np.ndarray:
    """Four corners in any order → clockwise from an upright top left (long side vertical).

    Of the two orders that satisfy this (a half turn apart) the one whose top left is nearer
    the image's top left is returned, so the result is deterministic.
    """
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if pts.shape != (4, 2) or not np.all(np.isfinite(pts)):
        raise FrameError(f"a card needs 4 finite (x, y) corners, got an array of shape {np.shape(points)}")
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen (y points down)
    side01 = np.linalg.norm(pts[0] - pts[1]) + np.linalg.norm(pts[2] - pts[3])
    side12 = np.linalg.norm(pts[1] - pts[2]) + np.linalg.norm(pts[3] - pts[0])
    if side01 > side12:  # the first side is a long one: start one corner later
        pts = np.roll(pts, -1, axis=0)
    if pts[2].sum() < pts[0].sum():
        pts = np.roll(pts, 2, axis=0)
    return pts


def card_homography(corners: np.ndarray) -> np.ndarray:
    """The 3×3 map from unit card coordinates (u, v in 0..1, upright) to frame pixels."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    return cv2.getPerspectiveTransform(unit, np.asarray(corners, np.float32)).astype(np.float64)


def card_height(corners: np.ndarray) -> float:
    """Mean length in pixels of the card's two long sides."""
    c = np.asarray(corners, np.float64)
    return float((np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2)


class Pyramid:
    """A frame and its successive half-size copies, made on demand."""

    def __init__(self, frame: np.ndarray) -> None:
        self.levels = [frame]

    def level_for(self, shrink: float) -> tuple[np.ndarray, float]:
        """The level to sample from when the output is ``shrink`` times smaller than the frame."""
        index = 0
        while shrink >= 2.8 ** (index + 1) / 1.4 and self.levels[-1].shape[0] > 16 and index < 5:
            index += 1
            if index == len(self.levels):
                self.levels.append(cv2.pyrDown(self.levels[-1]))
        return self.levels[index], 0.5**index


def _warp(pyramid: Pyramid, homography: np.ndarray, box: tuple[float, float, float, float],
          size: tuple[int, int], flip: bool) -> np.ndarray:  # fmt: skip
    """Sample the card region ``box`` (unit coords) into ``size`` pixels, turned 180° if ``flip``."""
    x0, y0, x1, y1 = box
    out_w, out_h = size
    if flip:
        x0, y0, x1, y1 = 1 - x0, 1 - y0, 1 - x1, 1 - y1
    # Output pixel (i, j) has its centre at (i + 0.5, j + 0.5) in output units.
    to_unit = np.array([[(x1 - x0) / out_w, 0, x0], [0, (y1 - y0) / out_h, y0], [0, 0, 1]])
    to_unit = to_unit @ np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    to_frame = homography @ to_unit
    top, bottom = to_frame @ np.array([0, 0, 1.0]), to_frame @ np.array([0, out_h, 1.0])
    span = float(np.hypot(*(bottom[:2] / bottom[2] - top[:2] / top[2])))
    image, scale = pyramid.level_for(span / out_h)
    # A level pixel with centre i sits at frame coordinate (i + 0.5) / scale - 0.5.
    offset = 0.5 * scale - 0.5
    full = np.array([[scale, 0, offset], [0, scale, offset], [0, 0, 1]]) @ to_frame
    return cv2.warpPerspective(image, full, (out_w, out_h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)  # fmt: skip


def index_crops(frame: np.ndarray, cards: list[np.ndarray], *, pyramid: Pyramid | None = None) -> np.ndarray:
    """Both index corners of every card: array (2·N, CROP_H, CROP_W, 3) uint8 BGR.

    Crop ``2k`` is card k's top-left corner, crop ``2k+1`` its bottom-right corner turned upright.
    """
    pyramid = pyramid or Pyramid(frame)
    out = np.empty((2 * len(cards), CROP_H, CROP_W, 3), np.uint8)
    for k, corners in enumerate(cards):
        homography = card_homography(corners)
        out[2 * k] = _warp(pyramid, homography, INDEX_BOX, (CROP_W, CROP_H), False)
        out[2 * k + 1] = _warp(pyramid, homography, INDEX_BOX, (CROP_W, CROP_H), True)
    return out


def thumbnails(frame: np.ndarray, cards: list[np.ndarray], *, pyramid: Pyramid | None = None) -> np.ndarray:
    """Every card straightened to a small (THUMB_H, THUMB_W) BGR thumbnail: array (N, H, W, 3)."""
    pyramid = pyramid or Pyramid(frame)
    out = np.empty((len(cards), THUMB_H, THUMB_W, 3), np.uint8)
    for k, corners in enumerate(cards):
        out[k] = _warp(pyramid, card_homography(corners), (0.0, 0.0, 1.0, 1.0), (THUMB_W, THUMB_H), False)
    return out


def rectify(frame: np.ndarray, corners: np.ndarray, *, height: int = 336) -> np.ndarray:
    """The whole card straightened to ``height`` pixels tall (upright, BGR)."""
    width = round(height * CARD_ASPECT)
    return _warp(Pyramid(frame), card_homography(order_corners(corners)), (0.0, 0.0, 1.0, 1.0),
                 (width, height), False)  # fmt: skip


def crop_index_box(image: np.ndarray, box: tuple[float, float, float, float], *, turn: int = 0,
                   zoom: float = 1.0, tilt: float = 0.0) -> np.ndarray:  # fmt: skip
    """An index crop framed around a tight box (x0, y0, x1, y1) drawn around a corner index.

    The crop is framed as the reader frames an index (a standard index spans about 0.14 of the
    card's width and 0.26 of its height, from (0.03, 0.04)); ``turn`` (quarter turns) and ``tilt``
    (degrees) say which way the index stands, ``zoom`` scales the framing. Returns a 128×64 BGR
    crop, index upright.
    """
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    long_side, short_side = max(x1 - x0, y1 - y0), min(x1 - x0, y1 - y0)
    height = long_side * INDEX_BOX[3] / 0.26 * zoom
    width = max(height * (INDEX_BOX[2] * CARD_ASPECT) / INDEX_BOX[3], short_side * 1.6)
    down = np.array([[0, 1], [-1, 0], [0, -1], [1, 0]][turn % 4], np.float64)
    c, s = np.cos(np.radians(tilt)), np.sin(np.radians(tilt))
    down = np.array([c * down[0] - s * down[1], s * down[0] + c * down[1]])
    right = np.array([down[1], -down[0]])  # a turn, never a mirror
    shift = down * height * (0.5 - 0.17 / INDEX_BOX[3]) + right * width * (0.5 - 0.1 / INDEX_BOX[2])
    centre = np.array([cx, cy]) + shift
    top_left = centre - down * height / 2 - right * width / 2
    src = np.array([top_left, top_left + right * width, top_left + right * width + down * height], np.float32)
    matrix = cv2.getAffineTransform(src, np.array([[0, 0], [64, 0], [64, 128]], np.float32))
    return cv2.warpAffine(image, matrix, (64, 128), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
