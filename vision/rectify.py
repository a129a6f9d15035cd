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

import functools
from collections.abc import Sequence

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


def order_corners_many(quads: np.ndarray) -> np.ndarray:
    """:func:`order_corners` of every quad (N×4×2) at once: the same corners in the same order."""
    pts = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    if not np.all(np.isfinite(pts)):
        raise FrameError("every card needs 4 finite (x, y) corners")
    n = len(pts)
    rows = np.arange(n)[:, None]
    centre = pts.mean(axis=1, keepdims=True)
    angles = np.arctan2(pts[..., 1] - centre[..., 1], pts[..., 0] - centre[..., 0])
    pts = pts[rows, np.argsort(angles, axis=1)]  # clockwise on screen (y points down)
    side = np.linalg.norm(pts - np.roll(pts, -1, axis=1), axis=2)
    long_first = side[:, 0] + side[:, 2] > side[:, 1] + side[:, 3]
    pts = np.where(long_first[:, None, None], np.roll(pts, -1, axis=1), pts)
    turn = pts[:, 2].sum(axis=1) < pts[:, 0].sum(axis=1)
    out: np.ndarray = np.where(turn[:, None, None], np.roll(pts, 2, axis=1), pts)
    return out


def card_homography(corners: np.ndarray) -> np.ndarray:
    """The 3×3 map from unit card coordinates (u, v in 0..1, upright) to frame pixels."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    return cv2.getPerspectiveTransform(unit, np.asarray(corners, np.float32)).astype(np.float64)


def card_height(corners: np.ndarray) -> float:
    """Mean length in pixels of the card's two long sides."""
    return float(card_heights(np.asarray(corners, np.float64)[None])[0])


def card_heights(quads: np.ndarray) -> np.ndarray:
    """:func:`card_height` of every card (N, 4, 2 corners in the reader's order) at once."""
    c = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    out: np.ndarray = (np.linalg.norm(c[:, 3] - c[:, 0], axis=1) + np.linalg.norm(c[:, 2] - c[:, 1], axis=1)) / 2
    return out


def grey_near(frame: np.ndarray, quads: np.ndarray, margin: float | np.ndarray) -> np.ndarray:
    """``frame`` (BGR) in grey within ``margin`` pixels (one for all, or one per quad) of the box
    round each quad (N×4×2 frame pixels), zero elsewhere: what refining the outlines samples,
    without converting a large frame whole. Each pixel is what ``cv2.cvtColor`` of the whole frame
    gives; where the boxes cover much of the frame (or a quad is not finite) it is converted whole."""
    h, w = frame.shape[:2]
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    m = np.broadcast_to(np.asarray(margin, np.float64), (len(q),))
    if not len(q) or not (np.isfinite(q).all() and np.isfinite(m).all()):
        whole: np.ndarray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        return whole
    low = np.floor(q.min(axis=1) - m[:, None]).clip(0, [w, h]).astype(np.int64)
    high = np.ceil(q.max(axis=1) + m[:, None] + 1).clip(0, [w, h]).astype(np.int64)
    if np.prod(high - low, axis=1).sum() >= GREY_WHOLE * h * w:
        whole = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        return whole
    out = np.zeros((h, w), np.uint8)  # zero pages cost nothing until written
    for (x0, y0), (x1, y1) in zip(low.tolist(), high.tolist(), strict=True):
        if x1 > x0 and y1 > y0:
            out[y0:y1, x0:x1] = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    return out


GREY_WHOLE = 0.5
""":func:`grey_near` converts the whole frame when its boxes add up to this share of it."""


class Pyramid:
    """A frame and its successive half-size copies, made on demand and only where they are used.

    A level is filled tile by tile (``TILE`` level pixels a side) as warps sample it, each tile
    from the level above with enough margin that it is exactly what a ``cv2.pyrDown`` of the whole
    level gives: reading a few cards no longer halves the whole frame. :meth:`level_for` still
    gives a whole level (filling what is missing).
    """

    TILE = 16
    """Side in level pixels of the blocks a level is filled by."""

    WHOLE = 0.35
    """The box round all the samples of a batch is filled in one piece when they cover this share
    of it (one pyrDown beats many pieces), else each sample's box is."""

    def __init__(self, frame: np.ndarray) -> None:
        self.levels = [frame]
        self._done: list[np.ndarray] = [np.ones((1, 1), bool)]  # per level: which tiles are filled

    def _index(self, shrink: float) -> int:
        """The level for an output ``shrink`` times smaller than the frame (adding empty levels)."""
        index = 0
        while shrink >= 2.8 ** (index + 1) / 1.4 and self.levels[-1].shape[0] > 16 and index < 5:
            index += 1
            if index == len(self.levels):
                h, w = self.levels[-1].shape[:2]
                shape = ((h + 1) // 2, (w + 1) // 2, *self.levels[-1].shape[2:])
                self.levels.append(np.empty(shape, self.levels[-1].dtype))
                tiles = (-(-shape[0] // self.TILE), -(-shape[1] // self.TILE))
                self._done.append(np.zeros(tiles, bool))
        return index

    def _fill(self, index: int, y0: int, y1: int, x0: int, x1: int) -> None:
        """Make rows y0..y1 and columns x0..x1 (exclusive ends) of level ``index`` exact."""
        if index == 0 or y0 >= y1 or x0 >= x1:
            return
        t = self.TILE
        done = self._done[index]
        ty0, ty1, tx0, tx1 = y0 // t, -(-y1 // t), x0 // t, -(-x1 // t)
        missing = ~done[ty0:ty1, tx0:tx1]
        if not missing.any():
            return
        rows, cols = np.flatnonzero(missing.any(axis=1)), np.flatnonzero(missing.any(axis=0))
        ty0, ty1, tx0, tx1 = ty0 + rows[0], ty0 + rows[-1] + 1, tx0 + cols[0], tx0 + cols[-1] + 1
        level = self.levels[index]
        h, w = level.shape[:2]
        y0, y1, x0, x1 = ty0 * t, min(ty1 * t, h), tx0 * t, min(tx1 * t, w)
        if (y0, y1, x0, x1) == (0, h, 0, w) and not done.any():  # all of it: no piece to copy
            self._fill(index - 1, 0, 2 * h, 0, 2 * w)
            self.levels[index] = cv2.pyrDown(self.levels[index - 1])
            done[:] = True
            return
        # pyrDown's output pixel i is made of input pixels 2i-2..2i+2: take those and two more
        # (an even start keeps the parity; at the level's edge the border is the same as whole).
        above = self.levels[index - 1]
        sy0, sx0 = max(2 * y0 - 4, 0), max(2 * x0 - 4, 0)
        sy1, sx1 = min(2 * y1 + 4, above.shape[0]), min(2 * x1 + 4, above.shape[1])
        self._fill(index - 1, sy0, sy1, sx0, sx1)
        part = cv2.pyrDown(above[sy0:sy1, sx0:sx1])
        level[y0:y1, x0:x1] = part[y0 - sy0 // 2 : y1 - sy0 // 2, x0 - sx0 // 2 : x1 - sx0 // 2]
        done[ty0:ty1, tx0:tx1] = True

    def level_for(self, shrink: float) -> tuple[np.ndarray, float]:
        """The level to sample from when the output is ``shrink`` times smaller than the frame."""
        index = self._index(shrink)
        self._fill(index, 0, self.levels[index].shape[0], 0, self.levels[index].shape[1])
        return self.levels[index], 0.5**index

    def warp(self, to_frame: np.ndarray, size: tuple[int, int], shrink: float) -> np.ndarray:
        """``size`` (width, height) output pixels, pixel (i, j) sampled bilinearly at frame point
        ``to_frame @ (i, j, 1)``, from the level for ``shrink`` (filled only where sampled)."""
        return self.warp_many(np.asarray(to_frame, np.float64)[None], [shrink], size)[0]

    def warp_many(self, to_frames: np.ndarray, shrinks: Sequence[float], size: tuple[int, int]) -> list[np.ndarray]:
        """:meth:`warp` of each map of ``to_frames`` (N, 3, 3) with its ``shrinks``; where they
        sample most of the box round them all, that box is filled in one piece."""
        indices = np.array([self._index(shrink) for shrink in shrinks], np.int64)
        fulls = np.empty((len(indices), 3, 3))
        for index in np.unique(indices).tolist():
            at = indices == index
            scale = 0.5**index
            # A level pixel with centre i sits at frame coordinate (i + 0.5) / scale - 0.5.
            offset = 0.5 * scale - 0.5
            fulls[at] = np.array([[scale, 0, offset], [0, scale, offset], [0, 0, 1]]) @ to_frames[at]
            if not index or self._done[index].all():
                continue
            lh, lw = self.levels[index].shape[:2]
            boxes = self._boxes(fulls[at], size, (lh, lw))
            y0, x0 = boxes[:, [0, 2]].min(axis=0).tolist()
            y1, x1 = boxes[:, [1, 3]].max(axis=0).tolist()
            sampled = ((boxes[:, 1] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 2])).sum()
            if sampled >= self.WHOLE * (y1 - y0) * (x1 - x0):
                self._fill(index, y0, y1, x0, x1)  # the box round them all, in one piece
            else:
                for y0, y1, x0, x1 in boxes.tolist():
                    self._fill(index, y0, y1, x0, x1)
        flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
        return [cv2.warpPerspective(self.levels[index], full, size, flags=flags, borderMode=cv2.BORDER_REPLICATE)
                for index, full in zip(indices.tolist(), fulls, strict=True)]  # fmt: skip

    @staticmethod
    def _boxes(fulls: np.ndarray, size: tuple[int, int], shape: tuple[int, int]) -> np.ndarray:
        """Rows and columns (y0, y1, x0, x1) of a level of ``shape`` that warps by each of ``fulls``
        (N, 3, 3: output → level) into ``size`` sample: (N, 4) int64."""
        w, h = size
        lh, lw = shape
        corners = fulls @ np.array([[0, w - 1, w - 1, 0], [0, 0, h - 1, h - 1], [1, 1, 1, 1]], np.float64)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            xs, ys = corners[:, 0] / corners[:, 2], corners[:, 1] / corners[:, 2]
            # The pixels sampled lie in the box round the image of the output's outline (two
            # more for the bilinear neighbour and rounding; clipped, as the replicated border is).
            boxes = np.stack([np.floor(ys.min(axis=1)) - 2, np.ceil(ys.max(axis=1)) + 3,
                              np.floor(xs.min(axis=1)) - 2, np.ceil(xs.max(axis=1)) + 3], axis=1)  # fmt: skip
            sure = np.all(corners[:, 2] > 0, axis=1) & np.all(np.isfinite(boxes), axis=1)
        boxes = np.where(sure[:, None], boxes, [0, lh, 0, lw])  # a map that may sample anywhere: all of it
        low, high = np.array([0, 1, 0, 1]), np.array([lh - 1, lh, lw - 1, lw])
        out: np.ndarray = np.clip(boxes, low, high).astype(np.int64)
        return out


def _warp(pyramid: Pyramid, homography: np.ndarray, box: tuple[float, float, float, float],
          size: tuple[int, int], flip: bool) -> np.ndarray:  # fmt: skip
    """Sample the card region ``box`` (unit coords) into ``size`` pixels, turned 180° if ``flip``."""
    to_frames, shrinks = _samplings(np.asarray(homography, np.float64)[None], box, size, flip)
    return pyramid.warp_many(to_frames, shrinks, size)[0]


@functools.lru_cache(maxsize=64)
def _to_unit(box: tuple[float, float, float, float], size: tuple[int, int], flip: bool) -> np.ndarray:
    """Output pixel → unit card coordinates of ``box`` sampled into ``size`` (made once per kind)."""
    x0, y0, x1, y1 = box
    out_w, out_h = size
    if flip:
        x0, y0, x1, y1 = 1 - x0, 1 - y0, 1 - x1, 1 - y1
    # Output pixel (i, j) has its centre at (i + 0.5, j + 0.5) in output units.
    to_unit = np.array([[(x1 - x0) / out_w, 0, x0], [0, (y1 - y0) / out_h, y0], [0, 0, 1]])
    out: np.ndarray = to_unit @ np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    out.setflags(write=False)  # shared: nobody may change it
    return out


def _samplings(homographies: np.ndarray, box: tuple[float, float, float, float], size: tuple[int, int],
               flip: bool) -> tuple[np.ndarray, list[float]]:  # fmt: skip
    """The output pixel → frame maps of :func:`_warp` for each card homography (N, 3, 3), and how
    many times smaller than the frame each output is."""
    out_h = size[1]
    to_frames = homographies @ _to_unit(tuple(box), tuple(size), bool(flip))
    top, bottom = to_frames @ np.array([0, 0, 1.0]), to_frames @ np.array([0, out_h, 1.0])
    step = bottom[:, :2] / bottom[:, 2:] - top[:, :2] / top[:, 2:]
    return to_frames, (np.hypot(step[:, 0], step[:, 1]) / out_h).tolist()


def index_crops(frame: np.ndarray, cards: list[np.ndarray], *, pyramid: Pyramid | None = None) -> np.ndarray:
    """Both index corners of every card: array (2·N, CROP_H, CROP_W, 3) uint8 BGR.

    Crop ``2k`` is card k's top-left corner, crop ``2k+1`` its bottom-right corner turned upright.
    """
    if not len(cards):
        return np.empty((0, CROP_H, CROP_W, 3), np.uint8)
    pyramid = pyramid or Pyramid(frame)
    homographies = np.stack([card_homography(c) for c in cards])
    upright, turned = (_samplings(homographies, INDEX_BOX, (CROP_W, CROP_H), flip) for flip in (False, True))
    to_frames = np.stack([upright[0], turned[0]], axis=1).reshape(-1, 3, 3)  # 2k top left, 2k+1 bottom right
    shrinks = [s for pair in zip(upright[1], turned[1], strict=True) for s in pair]
    return np.stack(pyramid.warp_many(to_frames, shrinks, (CROP_W, CROP_H)))


def thumbnails(frame: np.ndarray, cards: list[np.ndarray], *, pyramid: Pyramid | None = None) -> np.ndarray:
    """Every card straightened to a small (THUMB_H, THUMB_W) BGR thumbnail: array (N, H, W, 3)."""
    if not len(cards):
        return np.empty((0, THUMB_H, THUMB_W, 3), np.uint8)
    pyramid = pyramid or Pyramid(frame)
    homographies = np.stack([card_homography(c) for c in cards])
    to_frames, shrinks = _samplings(homographies, (0.0, 0.0, 1.0, 1.0), (THUMB_W, THUMB_H), False)
    return np.stack(pyramid.warp_many(to_frames, shrinks, (THUMB_W, THUMB_H)))


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
