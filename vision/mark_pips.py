"""Finding the pip of a Tock mark in a card's centre patch, and the shape vectors it is matched by.

The patch (``PATCH`` pixels a side, ``SPAN`` of the card's height) is the middle of a card
straightened by :mod:`vision.mark_reader`, which divides it by the disc's white and works out its
ink, white and light pixels. This module holds the part of the reading that searches that patch:

- :func:`_pip_candidates` gives the possible pips, best first: the largest ink blob near the
  middle that white surrounds, else the same looked for again where blur joins the pip to the
  ace's ring or the back (ink thinned by a pixel, red ink apart from the ring's neutral black,
  inside the convex hull of the white round it);
- :func:`_with_stem` adds back a spade's or club's stem that blur cut off;
- :func:`_normalised_shape` turns a pip (or a drawn suit, turned) into the unit vector whose dot
  products with the design's suit templates are the shape matches.

The reader (:mod:`vision.mark_reader`) measures each candidate, matches it and decides.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Protocol

import cv2
import numpy as np


class _Design(Protocol):
    """What the pip search reads of the measured Tock design (:class:`vision.mark_reader._Design`)."""

    @property
    def area_per_height2(self) -> tuple[float, float, float, float]: ...

    @property
    def heights(self) -> dict[str, float]: ...


PATCH = 72
"""Side in pixels of the square patch cut from the middle of a card: the smallest tried that keeps
every figure of bench/marks.py (96 read the same; at 64 one of 720 hold-out backs was unsure)."""

SPAN = 0.56
"""Side of the patch as a fraction of the card's height (the large disc is 0.39; the rest is
room for a sticker stuck a little off centre)."""

PX_PER_HEIGHT = PATCH / SPAN
"""Patch pixels per card height."""

_SHAPE_GRID = 56  # side of the grid a pip is resampled into for shape matching
_SHAPE_SCALE = 20.0  # sqrt(area) of a pip in that grid, pixels
_SHAPE_BLUR = 0.8  # Gaussian blur (grid pixels) of both sides of a shape comparison

# ---------------------------------------------------------------------------------- patch grid
_YY, _XX = np.mgrid[0:PATCH, 0:PATCH].astype(np.float32)
_CENTRE = (PATCH - 1) / 2
_NEAR_CENTRE = ((_XX - _CENTRE) ** 2 + (_YY - _CENTRE) ** 2) <= (0.2 * PX_PER_HEIGHT) ** 2
_DISK3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
_DISK5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_DISK7 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
_DISK9 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
_MAX_PIP = 0.36 * PX_PER_HEIGHT  # no pip is wider or taller than this (the large one is 0.30)


# ---------------------------------------------------------------------------------- helpers (the reader's too)
def _quantile(values: np.ndarray, q: float, *, axis: int = 0) -> np.ndarray:
    """The ``q`` quantile along ``axis`` (nearest rank: cheaper than np.percentile)."""
    n = values.shape[axis]
    k = min(max(round(q * (n - 1)), 0), n - 1)
    out: np.ndarray = np.take(np.partition(values, k, axis=axis), k, axis=axis)
    return out.astype(np.float32)


def _share(mask: np.ndarray, where: np.ndarray | None = None) -> float:
    """``mask[where].mean()`` (a bool mask's share of True) without np.mean's overhead."""
    picked = mask if where is None else mask[where]
    return np.count_nonzero(picked) / picked.size


_Parts = tuple[int, np.ndarray, np.ndarray, np.ndarray]  # connected components: count, labels, stats, centroids


def _components(mask: np.ndarray, connectivity: int) -> _Parts:
    """Connected components with their statistics (one thread: the patches are small)."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask.astype(np.uint8), connectivity, cv2.CV_32S, cv2.CCL_SPAGHETTI
    )
    return int(count), labels, stats, centroids


# ---------------------------------------------------------------------------------- shapes
def _normalised_shape(mask: np.ndarray, angle: float = 0.0) -> np.ndarray:
    """A soft mask moved to its centroid, scaled to a fixed sqrt(area), turned by ``angle``
    degrees and slightly blurred: (_SHAPE_GRID²,) float32, zero mean and unit norm (so a dot
    product of two is their correlation)."""
    source: np.ndarray = mask.astype(np.float32)
    moments = cv2.moments(source)
    if moments["m00"] <= 1e-6:
        return np.zeros(_SHAPE_GRID * _SHAPE_GRID, np.float32)
    scale = _SHAPE_SCALE / math.sqrt(moments["m00"])
    if scale < 0.5:  # a big drawing: shrink it by area first, so that nothing aliases
        source = cv2.resize(source, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        moments = cv2.moments(source)
        scale = _SHAPE_SCALE / math.sqrt(max(moments["m00"], 1e-6))
    cx, cy = moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    matrix[:, 2] += np.array([_SHAPE_GRID / 2 - cx, _SHAPE_GRID / 2 - cy])
    out = cv2.warpAffine(source, matrix, (_SHAPE_GRID, _SHAPE_GRID), flags=cv2.INTER_LINEAR)
    flat = cv2.GaussianBlur(out, (0, 0), _SHAPE_BLUR).reshape(-1)
    flat = flat - flat.mean()
    result: np.ndarray = flat / max(float(np.linalg.norm(flat)), 1e-6)
    return result


# ---------------------------------------------------------------------------------- pip search
def _pip_candidates(ink: np.ndarray, white: np.ndarray, light: np.ndarray, redness: np.ndarray, chroma: np.ndarray,
                    design: _Design) -> Iterator[tuple[np.ndarray, np.ndarray, _Parts | None]]:  # fmt: skip
    """Possible pips (uint8 mask) with the region their ink may be taken from (bool) and the
    components of the ink in that region when they are already known, best first.

    The pip is the largest ink blob near the middle that white surrounds. Where it touches the
    ace's ring or the back at the disc's edge (a heart's lobes come close to both, and blur
    closes the gap), it is looked for again: in the ink thinned by a pixel; as red ink apart
    from the ring's neutral black; inside the convex hull of the white around it.
    """
    everywhere = np.ones(ink.shape, bool)
    ink_parts = _components(ink, 8)
    blob = _central_blob(ink, light, everywhere, design, parts=ink_parts)
    if blob is not None:
        yield blob, everywhere, ink_parts
    # A thin bridge of blur between the pip and the ring: cut it, grow the pip back.
    core = _central_blob(cv2.erode(ink.astype(np.uint8), _DISK3) > 0, light, everywhere, design, grow=1)
    if core is not None:
        yield cv2.dilate(core, _DISK3) & ink.astype(np.uint8), everywhere, ink_parts
    # A red pip touching the ace's black ring: red ink, with white or the ring's neutral dark
    # all round it.
    top = float(_quantile(redness[_NEAR_CENTRE], 0.98))
    if top >= 0.3:
        blob = _central_blob(redness > top / 2, light | (ink & (chroma < 0.3)), everywhere, design)
        if blob is not None:
            yield blob, everywhere, ink_parts
    _, labels, stats, centroids = _components(white, 4)
    x, y, w, h, area = stats.T
    inner = (area >= 12) & (x > 0) & (y > 0) & (x + w < PATCH) & (y + h < PATCH)
    inner[0] = False  # the background
    keep = [k for k in np.flatnonzero(inner).tolist()
            if math.hypot(centroids[k][0] - _CENTRE, centroids[k][1] - _CENTRE) <= 0.22 * PX_PER_HEIGHT]  # fmt: skip
    if keep:
        points = np.column_stack(np.nonzero(np.isin(labels, keep)))[:, ::-1].astype(np.int32)
        hull = np.zeros(ink.shape, np.uint8)
        cv2.fillConvexPoly(hull, cv2.convexHull(points), 1)
        disc = cv2.erode(hull, _DISK3) > 0
        # Blur leaves no white where the pip meets the hull's edge: the hull's rim counts as white.
        rim = disc & (cv2.erode(hull, _DISK9) == 0)
        blob = _central_blob(ink & disc, light | rim, disc, design, surround=0.7)
        if blob is not None:
            yield blob, hull > 0, None


def _with_stem(blob: np.ndarray, ink: np.ndarray, parts: _Parts | None = None) -> np.ndarray:
    """The pip with the small ink pieces just beside it: a spade's or club's stem hangs on by a
    neck thinner than a pixel, and the pip's size is read from its area. ``parts``: the 8-connected
    components of ``ink`` when already known."""
    _, labels, stats, _ = parts or _components(ink, 8)
    area = int(blob.sum())
    reach = max(2, round(0.12 * math.sqrt(area)))  # the neck's gap grows with the pip
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    near = np.unique(labels[(cv2.dilate(blob, kernel) > 0) & (blob == 0) & ink])
    out = blob.copy()
    for k in near:
        x, y, w, h, size = stats[k]
        if k == 0 or size > 0.2 * area or x == 0 or y == 0 or x + w == PATCH or y + h == PATCH:
            continue
        out[labels == k] = 1
    return out


def _central_blob(ink: np.ndarray, white: np.ndarray, within: np.ndarray, design: _Design, *,
                  grow: int = 0, surround: float = 0.8, parts: _Parts | None = None) -> np.ndarray | None:  # fmt: skip
    """The largest ink blob near the middle, of a pip's size, with white round at least
    ``surround`` of it (inside ``within``), looking ``grow`` pixels further out for the white.
    Of equally large ones, the first in label order. ``parts``: the 8-connected components of
    ``ink`` when already known."""
    min_area = 0.3 * design.area_per_height2[1] * (design.heights["small"] * PX_PER_HEIGHT) ** 2
    _, labels, stats, centroids = parts or _components(ink, 8)
    areas = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    sized = (areas >= min_area) & (np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) <= _MAX_PIP)
    sized[0] = False  # the background
    # Largest first (a stable sort keeps label order among equals): the first that passes wins.
    for k in sorted(np.flatnonzero(sized).tolist(), key=lambda k: -areas[k]):
        cx, cy = centroids[k]
        if math.hypot(cx - _CENTRE, cy - _CENTRE) > 0.12 * PX_PER_HEIGHT:
            continue
        near, far = (_DISK3, _DISK7) if not grow else (_DISK5, _DISK9)
        # The ring round the blob lies within its box grown by the larger disc's radius.
        x, y, w, h = stats[k, :4].tolist()
        reach = far.shape[0] // 2
        box = (slice(max(y - reach, 0), y + h + reach), slice(max(x - reach, 0), x + w + reach))
        part = (labels[box] == k).astype(np.uint8)
        around = (cv2.dilate(part, far) > 0) & (cv2.dilate(part, near) == 0)
        inside = around & within[box]
        if np.count_nonzero(inside) < 0.5 * np.count_nonzero(around) or _share(white[box], inside) < surround:
            continue
        blob: np.ndarray = (labels == k).astype(np.uint8)
        return blob
    return None
