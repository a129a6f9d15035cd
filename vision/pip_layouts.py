"""The rank a number card's pips show where a neighbour hides part of the card.

Cards laid in a touching row hide each other's corners and some of each other's pips, so the
body's count (:mod:`vision.pip_check`) is cut or short and the corners have one index to read
from. The pips still tell the rank when the part of the card left visible fits one number card's
layout and no other's. The layouts are the ones Anglo-American and French decks print (two, three
or four rows on the outer columns, the middle column's pips between them); a deck places its
columns and rows a little differently, so each layout is tried with its outer columns, top row
and bottom row anywhere in :data:`COLUMNS`, :data:`TOP_ROWS` and :data:`BOTTOM_ROWS`.

Which part of a card is hidden is known from the frame: every other card's outline that overlaps
it (whichever of the two lies on top) and whatever falls outside the frame. A place of a layout
there may hold a pip or not; every place left visible must hold one, and every whole pip seen must
sit on a place. A rank is named only when exactly one number card's layout (at some placing) fits
what is seen: a seven whose extra pip is hidden fits the six too, and then nothing is named.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.rectify import card_homography

COLUMNS = np.arange(0.22, 0.425, 0.02)
"""Where a deck's outer pip columns may lie (x of the left column, as a share of the card's width)."""

TOP_ROWS = np.arange(0.13, 0.285, 0.02)
"""Where a deck's top pip row may lie (y, as a share of the card's height)."""

BOTTOM_ROWS = 1.0 - TOP_ROWS
"""Where a deck's bottom pip row may lie."""

TOLERANCE = (0.07, 0.04)
"""How far (x of the card's width, y of its height) a pip's centre may lie from its place."""

PIP_REACH = (0.08, 0.06)
"""Half a pip's extent round its place (x, y shares of the card): a place counts as visible when
all of that box is."""

MIN_SEEN = 2
"""A fit needs at least this many whole pips on their places."""

LOOKED_AT = (0.2, 0.02, 0.8, 0.98)
"""The part of a straightened card (x0, y0, x1, y1 shares) whose ink is matched to a layout: the
pip columns, and the card's height but a sliver at each end (the indices lie left and right of
it), so that pips above a layout's top row or below its bottom row are seen and break its fit."""


_LEFT, _MIDDLE, _RIGHT = 0, 1, 2


def _structure(count: int, upside_down: bool) -> tuple[np.ndarray, np.ndarray]:
    """A layout's places as (column (K,): left, middle or right; row (K,): where between the top
    row (0) and the bottom row (1))."""
    def sides(n: int) -> list[tuple[int, float]]:
        return [(x, i / (n - 1)) for x in (_LEFT, _RIGHT) for i in range(n)]

    places = {
        2: [(_MIDDLE, 0.0), (_MIDDLE, 1.0)],
        3: [(_MIDDLE, 0.0), (_MIDDLE, 0.5), (_MIDDLE, 1.0)],
        4: sides(2),
        5: [*sides(2), (_MIDDLE, 0.5)],
        6: sides(3),
        7: [*sides(3), (_MIDDLE, 0.75 if upside_down else 0.25)],
        8: [*sides(3), (_MIDDLE, 0.25), (_MIDDLE, 0.75)],
        9: [*sides(4), (_MIDDLE, 0.5)],
        10: [*sides(4), (_MIDDLE, 1 / 6), (_MIDDLE, 5 / 6)],
    }.get(count)
    if places is None:
        raise ValueError(f"a number card has 2 to 10 pips, not {count}")
    return np.array([c for c, _ in places]), np.array([r for _, r in places], np.float64)


def _xs(columns: np.ndarray, column: np.ndarray) -> np.ndarray:
    """The x of each place (K,) for each outer column (C,): (C, K)."""
    c = np.asarray(column, np.float64)[:, None]
    return np.where(columns == _LEFT, c, np.where(columns == _MIDDLE, 0.5, 1.0 - c))


def _ys(rows: np.ndarray, top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    """The y of each place (K,) for each pair of outer rows (R,): (R, K)."""
    t, b = (np.asarray(v, np.float64)[:, None] for v in (top, bottom))
    out: np.ndarray = t + (b - t) * rows
    return out


def layout(count: int, column: float, top: float, bottom: float, *, upside_down: bool = False) -> np.ndarray:
    """The pip centres (K, 2; x, y shares of the card) of a number card of ``count`` pips with its
    outer columns at ``column`` and ``1 - column`` and its outer rows at ``top`` and ``bottom``;
    ``upside_down`` turns a seven's extra pip to the lower half (every other layout is the same
    turned)."""
    columns, rows = _structure(count, upside_down)
    return np.stack([_xs(columns, np.array([column]))[0], _ys(rows, np.array([top]), np.array([bottom]))[0]], axis=1)


_TOPS, _BOTTOMS = (g.ravel() for g in np.meshgrid(TOP_ROWS, BOTTOM_ROWS, indexing="ij"))

_TEMPLATES = [(count, _xs(columns, COLUMNS), _ys(rows, _TOPS, _BOTTOMS))
              for count in range(2, 11) for upside_down in ((False, True) if count == 7 else (False,))
              for columns, rows in [_structure(count, upside_down)]]  # fmt: skip
"""Every layout at every placing: (count, x (C, K), y (R, K)) per count and turn."""


@dataclass(frozen=True)
class SeenPips:
    """What a straightened card shows of its pips: ``whole`` the centres (P, 2) of pips wholly in
    sight, ``cut`` those of pips touching a hidden part (Q, 2), ``edge`` those of ink running out of
    the part looked at at its top or bottom (a pip the part's edge cuts; R, 2) and ``side`` at its
    left or right (an index, or such a pip; S, 2), all as shares of the card, and ``hidden`` a mask
    (the body's pixels) of the card's parts not in sight."""

    whole: np.ndarray
    cut: np.ndarray
    edge: np.ndarray
    side: np.ndarray
    hidden: np.ndarray


def hidden_mask(corners: np.ndarray, others: np.ndarray, frame_size: tuple[int, int], size: tuple[int, int],
                *, margin: int = 3) -> np.ndarray:  # fmt: skip
    """The parts (True) of a card (``corners`` 4×2 in the reader's order) straightened to ``size``
    (width, height) pixels that another card's outline (``others`` (N, 4, 2)) covers or that fall
    outside a frame of ``frame_size`` (width, height), grown by ``margin`` pixels for outlines a
    few pixels off."""
    w, h = size
    to_unit = np.linalg.inv(card_homography(corners))
    mask: np.ndarray = np.zeros((h, w), np.uint8)
    fw, fh = frame_size
    frame = np.array([[0, 0], [fw - 1, 0], [fw - 1, fh - 1], [0, fh - 1]], np.float64)
    inside = np.zeros((h, w), np.uint8)
    cv2.fillPoly(inside, [_to_pixels(frame, to_unit, size)], 1)
    mask[inside == 0] = 1
    for quad in others:
        cv2.fillPoly(mask, [_to_pixels(np.asarray(quad, np.float64), to_unit, size)], 1)
    if margin:
        mask = cv2.dilate(mask, np.ones((2 * margin + 1, 2 * margin + 1), np.uint8))
    return mask.astype(bool)


def _to_pixels(points: np.ndarray, to_unit: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Frame points mapped into a straightened card's pixels (int32, for cv2.fillPoly), clipped far
    outside so a point behind the camera's horizon cannot overflow."""
    mapped = cv2.perspectiveTransform(points.reshape(-1, 1, 2), to_unit).reshape(-1, 2) * size
    return np.clip(np.round(mapped), -10_000, 10_000).astype(np.int32)


def seen_pips(body_bgr: np.ndarray, hidden: np.ndarray,
              box: tuple[float, float, float, float] = LOOKED_AT) -> SeenPips | None:  # fmt: skip
    """The pips of a straightened card (BGR) in the part ``box`` (x0, y0, x1, y1 shares) where pips
    lie, with its ``hidden`` parts left out: ink split from the paper by Otsu's threshold over the
    visible part, blobs at least a quarter of the largest. None when the whole pips are not alike in
    size (more than twice apart: not pips of one card) or the part is mostly hidden."""
    grey = cv2.cvtColor(body_bgr, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    x0, y0, x1, y1 = (int(f * n) for f, n in zip(box, (w, h, w, h), strict=True))
    part, gone = grey[y0:y1, x0:x1], hidden[y0:y1, x0:x1]
    if gone.mean() > 0.6:
        return None
    level, _ = cv2.threshold(part[~gone].reshape(1, -1), 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    ink = ((part <= level) & ~gone).astype(np.uint8)
    _, labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    stats, centres = stats[1:], centres[1:]
    areas = stats[:, cv2.CC_STAT_AREA]
    if not len(areas):
        none = np.empty((0, 2))
        return SeenPips(none, none, none, none, hidden)
    big = np.flatnonzero(areas > 0.25 * areas.max())
    near_hidden = cv2.dilate(gone.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    whole: list[int] = []
    cut: list[int] = []
    at_edge: list[int] = []
    at_side: list[int] = []
    for k in big.tolist():
        blob = labels == k + 1
        if (blob & near_hidden).any():
            cut.append(k)
        elif blob[:, 0].any() or blob[:, -1].any():
            at_side.append(k)
        elif blob[0].any() or blob[-1].any():
            at_edge.append(k)
        else:
            whole.append(k)
    if whole and (areas[whole].max() > 2.0 * areas[whole].min() or not _one_symbol(labels, stats, whole)):
        return None
    scale = np.array([w, h], np.float64)
    at = (centres + np.array([x0, y0])) / scale
    return SeenPips(at[whole].reshape(-1, 2), at[cut].reshape(-1, 2), at[at_edge].reshape(-1, 2),
                    at[at_side].reshape(-1, 2), hidden)  # fmt: skip


def counts_in_sight(body_bgr: np.ndarray, corners: np.ndarray, k: int, frame_size: tuple[int, int]) -> list[int]:
    """The pip counts whose layouts fit what card ``k`` (of the outlines ``corners`` (N, 4, 2) in the
    reader's order, ``body_bgr`` its straightened card) shows where the other outlines and the edge
    of a frame of ``frame_size`` (width, height) leave it in sight (:func:`fitting_counts`)."""
    size = (body_bgr.shape[1], body_bgr.shape[0])
    hidden = hidden_mask(corners[k], np.delete(corners, k, axis=0), frame_size, size)
    seen = seen_pips(body_bgr, hidden)
    return fitting_counts(seen) if seen is not None else []


SHAPE = 16
"""Side in pixels of the square a pip's shape is compared at."""

ALIKE_SHAPE = 0.55
"""The whole pips are one symbol printed again when each one's shape overlaps the largest's (as it
is or turned half round) at least this much (intersection over union of the shapes scaled to one
square): ink of other shapes left in sight (a neighbour's index, a stain) is no set of pips. A
court card's two heads are one shape turned, and pass: the corners keep those from being named."""


def _one_symbol(labels: np.ndarray, stats: np.ndarray, blobs: list[int]) -> bool:
    """Whether the blobs (indices into ``stats``, labels ``k + 1``) are one symbol printed again."""
    shapes = []
    for k in blobs:
        x, y, w, h = stats[k, :4]
        mask = (labels[y : y + h, x : x + w] == k + 1).astype(np.float32)
        shapes.append(cv2.resize(mask, (SHAPE, SHAPE), interpolation=cv2.INTER_AREA))
    reference = shapes[int(np.argmax(stats[blobs, cv2.CC_STAT_AREA]))]
    for shape in shapes:
        overlap = max(np.minimum(shape, r).sum() / max(np.maximum(shape, r).sum(), 1e-6)
                      for r in (reference, reference[::-1, ::-1]))  # fmt: skip
        if overlap < ALIKE_SHAPE:
            return False
    return True


def fitting_counts(seen: SeenPips) -> list[int]:
    """The pip counts (2-10) whose layout, at some placing, fits what is seen: every whole pip near
    one place alone and no place near two, every place in sight taken by a pip (a cut one, or ink
    the part's edges cut, may take it from further), every pip a hidden part or the part's top or
    bottom cuts near some place; and at least :data:`MIN_SEEN` whole pips. A placing is one outer
    column (C) and one pair of outer rows (R): x and y are matched apart, (C, R, pips, places) at
    once."""
    if len(seen.whole) < MIN_SEEN:
        return []
    h, w = seen.hidden.shape
    integral = cv2.integral(seen.hidden.astype(np.uint8))
    fits = []
    for count, xs, ys in _TEMPLATES:
        if count in fits:
            continue
        near = _near(seen.whole, xs, ys, 1.0)
        # Each whole pip near one place alone, each place near one whole pip at most.
        ok = (near.sum(axis=3) == 1).all(axis=2) & (near.sum(axis=2) <= 1).all(axis=2)
        if not ok.any():
            continue
        taken = near.any(axis=2)
        for cut in (seen.cut, seen.edge):  # a pip a hidden part or the part's top or bottom cuts lies near a place
            if len(cut):
                near_cut = _near(cut, xs, ys, 2.0)
                ok &= np.all(near_cut.any(axis=3), axis=2)
                taken |= near_cut.any(axis=2)
        if len(seen.side):  # ink the part's left or right edge cuts may be a pip of a place near it
            taken |= _near(seen.side, xs, ys, 2.0).any(axis=2)
        ok &= (taken | ~_in_sight(xs, ys, integral, (w, h))).all(axis=2)
        if ok.any():
            fits.append(count)
    return fits


def _near(points: np.ndarray, xs: np.ndarray, ys: np.ndarray, reach: float) -> np.ndarray:
    """Whether each point (P, 2) lies within ``reach`` times :data:`TOLERANCE` of each place, for
    every placing: (C, R, P, K) from the places' x (C, K) and y (R, K)."""
    tx, ty = TOLERANCE
    near_x = np.abs(points[None, :, 0, None] - xs[:, None, :]) <= reach * tx  # (C, P, K)
    near_y = np.abs(points[None, :, 1, None] - ys[:, None, :]) <= reach * ty  # (R, P, K)
    out: np.ndarray = near_x[:, None] & near_y[None, :]
    return out


def _in_sight(xs: np.ndarray, ys: np.ndarray, integral: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Whether each place's pip box (:data:`PIP_REACH`) lies wholly in sight, for every placing:
    (C, R, K), from the integral image of the hidden mask."""
    w, h = size
    rx, ry = PIP_REACH
    x0 = np.clip(((xs - rx) * w).astype(int), 0, w)[:, None]
    x1 = np.clip(((xs + rx) * w).astype(int) + 1, 0, w)[:, None]
    y0 = np.clip(((ys - ry) * h).astype(int), 0, h)[None]
    y1 = np.clip(((ys + ry) * h).astype(int) + 1, 0, h)[None]
    covered = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    result: np.ndarray = covered == 0
    return result
