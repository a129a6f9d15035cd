"""Card-shaped quadrilaterals: the shape test and the blob-to-quad fit both detectors use."""

from __future__ import annotations

import math

import cv2
import numpy as np


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
    return 0.52 < ratio < 0.92 and parallel < 1.5


def card_shaped_many(quads: np.ndarray) -> np.ndarray:
    """:func:`card_shaped` of every quad (N×4×2) at once (bool per quad). Both are kept: for one
    quad the plain-Python test is faster than numpy's per-call overhead (calling this for one quad
    at a time made a read 0.7 ms slower); ``tests/vision/test_read_speedups.py`` checks they agree."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    nxt, after = np.roll(q, -1, axis=1), np.roll(q, -2, axis=1)
    d1, d2 = nxt - q, after - nxt
    sides = np.hypot(d1[..., 0], d1[..., 1])  # (N, 4)
    turns = d1[..., 0] * d2[..., 1] - d1[..., 1] * d2[..., 0]
    convex = np.all(turns > 0, axis=1) | np.all(turns < 0, axis=1)
    a, b = (sides[:, 0] + sides[:, 2]) / 2, (sides[:, 1] + sides[:, 3]) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.minimum(a, b) / np.maximum(a, b)
        parallel = np.maximum(np.maximum(sides[:, 0], sides[:, 2]) / np.minimum(sides[:, 0], sides[:, 2]),
                              np.maximum(sides[:, 1], sides[:, 3]) / np.minimum(sides[:, 1], sides[:, 3]))  # fmt: skip
    out: np.ndarray = (sides.min(axis=1) >= 6) & convex & (ratio > 0.52) & (ratio < 0.92) & (parallel < 1.5)
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


def intersect(p: np.ndarray, d: np.ndarray, q: np.ndarray, e: np.ndarray) -> np.ndarray | None:
    det = d[0] * (-e[1]) + d[1] * e[0]
    if abs(det) < 1e-9:
        return None
    s = ((q - p)[0] * (-e[1]) + (q - p)[1] * e[0]) / det
    out: np.ndarray = p + s * d
    return out
