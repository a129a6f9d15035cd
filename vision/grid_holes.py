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

Two cards of a grid run together into one outline (two backs side by side) are as card-shaped as
one card on its side; the grid tells them apart as well (:func:`pairs`): the outline is about
twice its cards' area and its middle lies a step and a half from one of them.

Only frames with at least :data:`GRID` outlines of one size, enough of them a step from another,
are looked at, and a card is kept only where most of its pixels are far from the table's colour:
a grid with a card taken away shows the table there.
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class _Layout:
    """A frame's outlines seen as a grid: ``quads`` (N×4×2) all of them, their areas over the
    median's (``ratio``), the ``grid``'s cards (G×4×2: those of about one size), their
    ``centres``, the four ``steps`` from each to its neighbours' places (G×4×2: across, back,
    down, up), how far from a place a neighbour's centre may lie (``reach``, G×4), and which
    places a card holds (``neighbours``, G×4)."""

    quads: np.ndarray
    ratio: np.ndarray
    grid: np.ndarray
    centres: np.ndarray
    steps: np.ndarray
    reach: np.ndarray
    neighbours: np.ndarray


def _layout(quads: np.ndarray) -> _Layout | None:
    """The grid ``quads`` (N×4×2, clockwise from the card's upright top left) make, or None: fewer
    than :data:`GRID` of about one size, or too few of them a step from another (cards lying apart)."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    if len(q) < GRID:
        return None
    areas = _areas(q)
    ratio = areas / max(float(np.median(areas)), 1e-9)
    grid = q[(ratio >= ALIKE[0]) & (ratio <= ALIKE[1])]
    if len(grid) < GRID:
        return None
    centres = grid.mean(axis=1)
    across = (grid[:, 1] - grid[:, 0] + grid[:, 2] - grid[:, 3]) / 2  # each card's width, as a step
    down = (grid[:, 3] - grid[:, 0] + grid[:, 2] - grid[:, 1]) / 2  # its height
    steps = np.stack([across, -across, down, -down], axis=1)
    reach = NEAR * np.linalg.norm(steps, axis=2)
    neighbours = _taken(centres, centres[:, None] + steps, reach)
    if np.count_nonzero(neighbours) < GRID:
        return None
    return _Layout(q, ratio, grid, centres, steps, reach, neighbours)


def holes(frame: np.ndarray, quads: np.ndarray) -> list[np.ndarray]:
    """Outlines (4×2 frame pixels, the order of the outline they were moved from) of the cards a
    grid of ``quads`` (N×4×2, clockwise from the card's upright top left) leaves out in ``frame``
    (BGR)."""
    lay = _layout(quads)
    if lay is None:
        return []
    centres, steps, reach = lay.centres, lay.steps, lay.reach
    others = steps[:, [2, 2, 0, 0]]  # the steps across each one
    places = centres[:, None] + steps
    h, w = frame.shape[:2]
    inside = (places[..., 0] >= 0) & (places[..., 0] < w) & (places[..., 1] >= 0) & (places[..., 1] < h)
    # The card it was moved from is one side of a hole; the three others are looked for.
    sides = 1 + _taken(centres, places + steps, reach).astype(int)
    sides += _taken(centres, places + others, reach) + _taken(centres, places - others, reach)
    g, k = np.nonzero(inside & ~lay.neighbours & (sides >= SURROUNDED))
    if not len(g):
        return []
    # nor may any outline (a card of another size) hold the place
    held = holds_many(lay.quads, np.repeat(places[g, k][:, None], 4, axis=1)).any(axis=0)
    found: list[np.ndarray] = []
    for g1, k1 in zip(g[~held], k[~held], strict=True):
        place = places[g1, k1]
        if not any(np.linalg.norm(place - hole.mean(axis=0)) < reach[g1, k1] for hole in found):
            found.append(lay.grid[g1] + steps[g1, k1])
    if not found:
        return []
    table = _table(frame, lay.quads)
    return [] if table is None else [hole for hole in found if _not_table(frame, hole, table) >= NOT_TABLE]


def pairs(frame: np.ndarray, quads: np.ndarray) -> dict[int, list[np.ndarray]]:
    """The outlines of ``quads`` (as :func:`holes` takes them) that hold two places of the grid, each
    with the two cards' outlines: two cards side by side run together are as card-shaped as one
    card on its side, but twice the grid's cards' area, and their middle lies a step and a half
    from a card of the grid. Each half must lie inside the outline and not show the table."""
    lay = _layout(quads)
    if lay is None:
        return {}
    q, grid, steps = lay.quads, lay.grid, lay.steps
    shaped: dict[int, list[np.ndarray]] = {}
    for i in np.flatnonzero((lay.ratio >= PAIR[0]) & (lay.ratio <= PAIR[1])).tolist():
        # a step and a half from a card of the grid: the middle of the two places beyond it
        off = np.linalg.norm(lay.centres[:, None] + 1.5 * steps - q[i].mean(axis=0), axis=2)
        for g, k in zip(*np.nonzero(off < lay.reach), strict=True):
            halves = [grid[g] + steps[g, k], grid[g] + 2 * steps[g, k]]
            if all(_inside(half, q[i]) >= INSIDE for half in halves):
                shaped[i] = halves
                break
    table = _table(frame, q) if shaped else None
    if table is None:
        return {}
    return {i: halves for i, halves in shaped.items()
            if all(_not_table(frame, half, table) >= NOT_TABLE for half in halves)}  # fmt: skip


PAIR = (1.6, 2.5)
"""An outline's area over the frame's median outline area, for it to be looked at as two cards."""

INSIDE = 0.8
"""Each of the two cards lies inside the outline over at least this share of its area."""


def _inside(quad: np.ndarray, outer: np.ndarray) -> float:
    """The share of ``quad``'s area inside the convex quad ``outer``."""
    inter, _ = cv2.intersectConvexConvex(quad.astype(np.float32), outer.astype(np.float32))
    return float(inter) / max(float(_areas(quad)), 1e-9)


def _taken(centres: np.ndarray, places: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """Which ``places`` (G, 4, 2) have a card's centre within ``reach`` (G, 4) of them."""
    distances = np.linalg.norm(places[:, :, None, :] - centres[None, None], axis=3)  # (G, 4, G)
    out: np.ndarray = (distances < reach[..., None]).any(axis=2)
    return out


def _areas(quads: np.ndarray) -> np.ndarray:
    """The quads' (N×4×2) areas (the shoelace formula)."""
    x, y = quads[..., 0], quads[..., 1]
    out: np.ndarray = np.abs((x * y[..., _NEXT] - y * x[..., _NEXT]).sum(axis=-1)) / 2
    return out


_NEXT = [1, 2, 3, 0]


def _table(frame: np.ndarray, quads: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The table's colour (median, BGR) and spread (per channel) round the grid: the frame's border
    band outside every outline, seen on a copy at most :data:`TABLE_WIDTH` wide. None when too few
    such pixels are left."""
    w = frame.shape[1]
    step = max(1, -(-w // TABLE_WIDTH))
    small = frame[::step, ::step]
    sh, sw = small.shape[:2]
    band = np.zeros((sh, sw), np.uint8)
    edge = max(2, min(sh, sw) // 20)
    band[:edge], band[-edge:], band[:, :edge], band[:, -edge:] = 1, 1, 1, 1
    for quad in quads:
        cv2.fillConvexPoly(band, np.round(quad / step).astype(np.int32), 0)
    pixels = small[band.astype(bool)].astype(np.float64)
    if len(pixels) < 100:
        return None
    median = np.median(pixels, axis=0)
    spread = np.maximum(np.median(np.abs(pixels - median), axis=0) * 1.4826, 2.0)
    return median, spread


TABLE_WIDTH = 320
"""The table's colour is measured on a copy of the frame at most this wide (every n-th pixel)."""


def _not_table(frame: np.ndarray, quad: np.ndarray, table: tuple[np.ndarray, np.ndarray]) -> float:
    """The share of the pixels inside ``quad`` far from the table's colour (:data:`FAR`)."""
    h, w = frame.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).clip(0, [w, h]).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0) + 1).clip(0, [w, h]).astype(int)
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, np.round(quad - [x0, y0]).astype(np.int32), 1)
    pixels = frame[y0:y1, x0:x1][inside.astype(bool)].astype(np.float64)
    if not len(pixels):
        return 0.0
    median, spread = table
    far = (np.abs(pixels - median) / spread).max(axis=1) > FAR
    return float(far.mean())
