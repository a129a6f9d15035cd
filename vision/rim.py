"""Whether a large outline lies on a card's rim or on cloth: the colours just inside each side
against those just outside.

A card lies on the table: along each of its sides, what is just inside (the paper, or a back's
border or pattern) is another colour than the table just outside. A strongly patterned cloth
(stripes, checks, paisley) seen from far away looks like a card's back, and the detector can take
a stretch of it for one very large card. Along that outline's sides the same pattern lies on both
hands of the line: the colours inside and outside are drawn from the same mixture.

:func:`rim_contrast` measures, for each side, how far apart the mean colours (CIELAB) of a row of
points just inside and a row just outside lie, in units of their own spread: near 0 for one
pattern on both hands, several units for paper on cloth. Only a few hundred pixels are read, so it
costs nothing beside a read.
"""

from __future__ import annotations

import cv2
import numpy as np

SAMPLES = 32
"""Points along each side (away from its ends)."""

_NOISE = 4.0
"""A variance (Lab units squared) added to the spread, so that two flat colours a little apart do
not count as far apart."""


def rim_contrast(frame: np.ndarray, quad: np.ndarray, offset: float) -> np.ndarray:
    """For each side of ``quad`` (4×2 frame pixels, in order round the outline) of a BGR ``frame``:
    the distance between the mean colours of the points ``offset`` pixels inside the side and as
    far outside, over the root mean of the two rows' variances (4,). Points whose inside or
    outside lies beyond the frame are left out; a side with fewer than half its points left is NaN
    (the card runs past the frame's edge there: it cannot be measured)."""
    h, w = frame.shape[:2]
    q = np.asarray(quad, np.float64).reshape(4, 2)
    centre = q.mean(axis=0)
    t = (np.arange(SAMPLES) + 0.5) / SAMPLES * 0.8 + 0.1
    out = np.full(4, np.nan)
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        along = b - a
        length = float(np.hypot(*along))
        if length < 1e-6:
            continue
        normal = np.array([along[1], -along[0]]) / length
        if np.dot(normal, (a + b) / 2 - centre) < 0:  # pointing out of the outline
            normal = -normal
        points = a + t[:, None] * along
        inside, outside = points - offset * normal, points + offset * normal
        seen = _within(inside, h, w) & _within(outside, h, w)
        n = int(np.count_nonzero(seen))
        if n < SAMPLES // 2:
            continue
        lab = _lab_at(frame, np.concatenate([inside[seen], outside[seen]]))
        near, far = lab[:n], lab[n:]
        spread = np.sqrt((near.var(axis=0).sum() + far.var(axis=0).sum()) / 2 + _NOISE)
        out[i] = float(np.linalg.norm(near.mean(axis=0) - far.mean(axis=0)) / spread)
    return out


def _within(points: np.ndarray, h: int, w: int) -> np.ndarray:
    """Which points lie inside the frame with a pixel to spare round them."""
    x, y = points[:, 0], points[:, 1]
    return (x >= 1) & (y >= 1) & (x <= w - 2) & (y <= h - 2)


def _lab_at(frame: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The CIELAB colour (OpenCV's 8-bit scale) of the 3×3 pixels round each point (P, 3)."""
    x = np.clip(np.round(points[:, 0]).astype(np.int64), 1, frame.shape[1] - 2)
    y = np.clip(np.round(points[:, 1]).astype(np.int64), 1, frame.shape[0] - 2)
    total = np.zeros((len(points), 3))
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            total += frame[y + dy, x + dx]
    bgr = np.round(total / 9.0).astype(np.uint8).reshape(-1, 1, 3)
    lab: np.ndarray = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float64)
    return lab
