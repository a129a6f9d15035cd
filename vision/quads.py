"""Card-shaped quadrilaterals: the shape test and the blob-to-quad fit both detectors use."""

from __future__ import annotations

import math

import cv2
import numpy as np

SQUAREST = 1.0
"""The squarest a card's outline may be (short sides over long): a card whose long side points
away from a tilted camera is foreshortened, at 45° from straight down to about its width, and
which side is long is then decided by reading it (:mod:`vision.orient`)."""


def card_shaped(quad: np.ndarray) -> bool:
    """Convex, with opposite sides alike and a card's proportions (allowing some perspective)."""
    pts = [(float(x), float(y)) for x, y in quad]
    sides, turns = [], []
    for i in range(4):
        (x0, y0), (x1, y1), (x2, y2) = pts[i], pts[(i + 1) % 4], pts[(i + 2) % 4]
        sides.append(math.hypot(x1 - x0, y1 - y0))
        turns.append((x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1))
    if min(sides) < 6 or not (all(t > 0 for t in turns) or all(t < 0 for t in turns)):
        return False
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    ratio = min(a, b) / max(a, b)
    parallel = max(max(sides[0], sides[2]) / min(sides[0], sides[2]), max(sides[1], sides[3]) / min(sides[1], sides[3]))
    return 0.52 < ratio <= SQUAREST and parallel < 1.5


def card_shaped_many(quads: np.ndarray) -> np.ndarray:
    """:func:`card_shaped` of every quad (N×4×2) at once (bool per quad). Both are kept: for one
    quad the plain-Python test is faster than numpy's per-call overhead (calling this for one quad
    at a time made a read 0.7 ms slower); ``tests/vision/test_read_speedups.py`` checks they agree."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    nxt, after = q[:, [1, 2, 3, 0]], q[:, [2, 3, 0, 1]]
    d1, d2 = nxt - q, after - nxt
    sides = np.hypot(d1[..., 0], d1[..., 1])  # (N, 4)
    turns = d1[..., 0] * d2[..., 1] - d1[..., 1] * d2[..., 0]
    convex = np.all(turns > 0, axis=1) | np.all(turns < 0, axis=1)
    a, b = (sides[:, 0] + sides[:, 2]) / 2, (sides[:, 1] + sides[:, 3]) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.minimum(a, b) / np.maximum(a, b)
        parallel = np.maximum(np.maximum(sides[:, 0], sides[:, 2]) / np.minimum(sides[:, 0], sides[:, 2]),
                              np.maximum(sides[:, 1], sides[:, 3]) / np.minimum(sides[:, 1], sides[:, 3]))  # fmt: skip
    out: np.ndarray = (sides.min(axis=1) >= 6) & convex & (ratio > 0.52) & (ratio <= SQUAREST) & (parallel < 1.5)
    return out


def quad_from_blob(contour: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The rough quad (work pixels) a blob is, if it is one card: its hull's four corners, or else
    its tightest rectangle (a ragged outline). Refinement at full resolution makes it exact."""
    hull = cv2.convexHull(contour)
    area, hull_area = cv2.contourArea(contour), cv2.contourArea(hull)
    if hull_area <= 0 or area / hull_area < 0.85:
        return None
    perimeter = cv2.arcLength(hull, True)
    quad = None
    for eps in (0.02, 0.035, 0.05):
        rough = cv2.approxPolyDP(hull, eps * perimeter, True).reshape(-1, 2).astype(np.float64)
        if len(rough) == 4:
            quad = rough
            break
    if quad is None or not card_shaped(quad):
        quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
        if not card_shaped(quad):
            return None
    quad_area = cv2.contourArea(quad.astype(np.float32))
    fit = min(area / quad_area, quad_area / area) if quad_area > 0 else 0.0
    return (quad, float(fit)) if fit >= 0.82 else None


def holds_many(outer: list[np.ndarray] | np.ndarray, inner: list[np.ndarray] | np.ndarray) -> np.ndarray:
    """(M, N) bool: whether the centre of quad ``inner[n]`` lies inside or on quad ``outer[m]``.

    The same answer as ``cv2.pointPolygonTest(outer[m] as float32, centre as float32, False) >= 0``
    (its crossing count, in the same arithmetic), for all pairs at once: a call per pair costs far
    more than the test itself."""
    m, n = len(outer), len(inner)
    if m == 0 or n == 0:
        return np.zeros((m, n), bool)
    o = np.asarray(outer, np.float64).reshape(m, 4, 2).astype(np.float32)
    c = np.asarray(inner, np.float64).reshape(n, 4, 2).mean(axis=1).astype(np.float32)
    v0, v = o[:, None, [3, 0, 1, 2]], o[:, None]  # each side from its previous corner (M, 1, 4, 2)
    px, py = c[None, :, None, 0], c[None, :, None, 1]
    x0, y0, x1, y1 = v0[..., 0], v0[..., 1], v[..., 0], v[..., 1]
    # A side wholly above, below or left of the point does not cross the ray to its right ...
    skip = ((y0 <= py) & (y1 <= py)) | ((y0 > py) & (y1 > py)) | ((x0 < px) & (x1 < px))
    # ... unless the point is its end, or lies on it (a level side).
    on = skip & (py == y1) & ((px == x1) | ((py == y0) & (((x0 <= px) & (px <= x1)) | ((x1 <= px) & (px <= x0)))))
    # Differences in float32, their products in float64, as OpenCV computes them.
    side = (py - y0).astype(np.float64) * (x1 - x0) - (px - x0).astype(np.float64) * (y1 - y0)
    on |= ~skip & (side == 0)
    crossings = (~skip & (np.where(y1 < y0, -side, side) > 0)).sum(axis=-1)
    out: np.ndarray = (crossings % 2 == 1) | on.any(axis=-1)
    return out


def intersect(p: np.ndarray, d: np.ndarray, q: np.ndarray, e: np.ndarray) -> np.ndarray | None:
    det = d[0] * (-e[1]) + d[1] * e[0]
    if abs(det) < 1e-9:
        return None
    s = ((q - p)[0] * (-e[1]) + (q - p)[1] * e[0]) / det
    out: np.ndarray = p + s * d
    return out
