"""Cards missing from a grid: a place every neighbour of which holds a card holds one too.

A whole deck laid out in rows (a 4 × 13 grid, cards touching) is the densest table the reader
sees. There the detector now and then leaves one card out: a back whose fine pattern it takes for
table between faces, a face whose rims run together with its neighbours'. The grid itself says
where such a card lies. Its cards stand at regular steps along two directions, each card's own
width and height apart, so a place one step from a card that no outline holds, whose neighbours
one step further on hold cards on at least three of its four sides, is a hole in the grid; and
when its pixels are not the table's it is a card the detector left out. The card is outlined as
its neighbour is, moved by the step between them, and the caller moves that outline onto the
card's rim like any other.

Only frames with at least :data:`GRID` outlines of one size are looked at, and a hole is kept only
when most of its pixels are far from the table's colour: a grid with a card taken away shows the
table there.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.quads import holds_many

GRID = 8
"""Outlines of about one size (:data:`ALIKE`) a frame must hold for its holes to be sought."""

ALIKE = (0.7, 1.4)
"""An outline's area over the frame's median outline area, for it to count as one of the grid's."""

NEAR = 0.3
"""A neighbour's centre lies within this share of the step from where the step leads."""

SURROUNDED = 3
"""A hole's four neighbouring places of which at least this many hold a card."""

NOT_TABLE = 0.6
"""A hole is a card when at least this share of its pixels is far from the table's colour..."""

FAR = 3.0
"""... far meaning this many of the table's own spreads (per channel, BGR) away from its median."""


def holes(frame: np.ndarray, quads: np.ndarray) -> list[np.ndarray]:
    """Outlines (4×2 frame pixels, the order of the outline they were moved from) of the cards a
    grid of ``quads`` (N×4×2, clockwise from the card's upright top left) leaves out in ``frame``
    (BGR)."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    if len(q) < GRID:
        return []
    areas = np.array([_area(quad) for quad in q])
    ratio = areas / max(float(np.median(areas)), 1e-9)
    grid = q[(ratio >= ALIKE[0]) & (ratio <= ALIKE[1])]
    if len(grid) < GRID:
        return []
    centres = grid.mean(axis=1)
    h, w = frame.shape[:2]
    table = _table(frame, q)
    if table is None:
        return []
    found: list[np.ndarray] = []
    for quad, centre in zip(grid, centres, strict=True):
        across = (quad[1] - quad[0] + quad[2] - quad[3]) / 2  # the card's width, as a step
        down = (quad[3] - quad[0] + quad[2] - quad[1]) / 2  # its height
        for step in (across, -across, down, -down):
            place = centre + step
            if not (0 <= place[0] < w and 0 <= place[1] < h):
                continue
            if _near(centres, place, step) or holds_many(q, place[None, None].repeat(4, axis=1)).any():
                continue
            if any(np.linalg.norm(place - other.mean(axis=0)) < NEAR * np.linalg.norm(step) for other in found):
                continue
            other = across if abs(float(np.dot(step, across))) < abs(float(np.dot(step, down))) else down
            sides = sum(_near(centres, place + s, s) for s in (step, other, -other))
            if sides + 1 < SURROUNDED:  # the card it was moved from is its fourth side
                continue
            hole = quad + step
            if _not_table(frame, hole, table) >= NOT_TABLE:
                found.append(hole)
    return found


def pairs(frame: np.ndarray, quads: np.ndarray) -> dict[int, list[np.ndarray]]:
    """The outlines of ``quads`` (as :func:`holes` takes them) that hold two places of the grid, each
    with the two cards' outlines: two cards side by side run together are as card-shaped as one
    card on its side, but twice the grid's cards' area, and their middle lies a step and a half
    from a card of the grid. Each half must lie inside the outline and not show the table."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    if len(q) < GRID:
        return {}
    areas = np.array([_area(quad) for quad in q])
    ratio = areas / max(float(np.median(areas)), 1e-9)
    alike = (ratio >= ALIKE[0]) & (ratio <= ALIKE[1])
    if np.count_nonzero(alike) < GRID:
        return {}
    table = _table(frame, q)
    if table is None:
        return {}
    out: dict[int, list[np.ndarray]] = {}
    for i in np.flatnonzero((ratio >= PAIR[0]) & (ratio <= PAIR[1])).tolist():
        middle = q[i].mean(axis=0)
        for quad in q[alike]:
            halves = _halves(quad, middle)
            if halves and all(_inside(half, q[i]) >= INSIDE and _not_table(frame, half, table) >= NOT_TABLE
                              for half in halves):  # fmt: skip
                out[i] = halves
                break
    return out


PAIR = (1.6, 2.5)
"""An outline's area over the frame's median outline area, for it to be looked at as two cards."""

INSIDE = 0.8
"""Each of the two cards lies inside the outline over at least this share of its area."""


def _halves(quad: np.ndarray, middle: np.ndarray) -> list[np.ndarray]:
    """The two places a step and two steps from the card ``quad`` whose middle is ``middle``, when
    ``middle`` lies a step and a half from the card in one of its four directions; else none."""
    centre = quad.mean(axis=0)
    across = (quad[1] - quad[0] + quad[2] - quad[3]) / 2
    down = (quad[3] - quad[0] + quad[2] - quad[1]) / 2
    for step in (across, -across, down, -down):
        if np.linalg.norm(centre + 1.5 * step - middle) < NEAR * np.linalg.norm(step):
            return [quad + step, quad + 2 * step]
    return []


def _inside(quad: np.ndarray, outer: np.ndarray) -> float:
    """The share of ``quad``'s area inside the convex quad ``outer``."""
    inter, _ = cv2.intersectConvexConvex(quad.astype(np.float32), outer.astype(np.float32))
    return float(inter) / max(_area(quad), 1e-9)


def _near(centres: np.ndarray, place: np.ndarray, step: np.ndarray) -> bool:
    """Whether a card's centre lies near ``place`` (within :data:`NEAR` of the step's length)."""
    return bool((np.linalg.norm(centres - place, axis=1) < NEAR * np.linalg.norm(step)).any())


def _area(quad: np.ndarray) -> float:
    """A quad's area (the shoelace formula)."""
    x, y = quad[:, 0], quad[:, 1]
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)


def _mask(shape: tuple[int, ...], quads: np.ndarray) -> np.ndarray:
    """The pixels inside any of ``quads``."""
    mask = np.zeros(shape[:2], np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
    return mask.astype(bool)


def _table(frame: np.ndarray, quads: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The table's colour (median, BGR) and spread (per channel) round the grid: the pixels of the
    frame's border band no outline covers. None when too few such pixels are left."""
    h, w = frame.shape[:2]
    band = np.zeros((h, w), bool)
    edge = max(2, min(h, w) // 20)
    band[:edge], band[-edge:], band[:, :edge], band[:, -edge:] = True, True, True, True
    band &= ~_mask(frame.shape, quads)
    pixels = frame[band].astype(np.float64)
    if len(pixels) < 100:
        return None
    median = np.median(pixels, axis=0)
    spread = np.maximum(np.median(np.abs(pixels - median), axis=0) * 1.4826, 2.0)
    return median, spread


def _not_table(frame: np.ndarray, quad: np.ndarray, table: tuple[np.ndarray, np.ndarray]) -> float:
    """The share of the pixels inside ``quad`` far from the table's colour (:data:`FAR`)."""
    inside = _mask(frame.shape, quad[None])
    pixels = frame[inside].astype(np.float64)
    if not len(pixels):
        return 0.0
    median, spread = table
    far = (np.abs(pixels - median) / spread).max(axis=1) > FAR
    return float(far.mean())
