"""Finding cards in a frame: model the table, keep what differs from it, fit card outlines.

1. **Table model.** On a small copy of the frame (Lab colour), fit the table's colour as a smooth
   surface that follows uneven room light: a quadratic fitted by least trimmed squares, then a
   few rounds of a large blur over the pixels that still look like table (normalised
   convolution). Cards, a minority of compact outliers, drop out of the fit. Nothing assumes a
   dark or a green table.
2. **Foreground.** Pixels further from the table model than a multiple of the table's own noise
   (measured on the frame, not fixed; Otsu's split when the table is busy) are "not table", with
   hysteresis so that faint paper joins clear ink; cast shadows (same hue, darker) are table.
   Patterned backs that average to the table's colour are found in a second look, by texture.
3. **Outlines.** A blob that is a convex quadrilateral of card proportions is a card. A blob of
   touching or overlapping cards is explained by card-sized quads grown from its right-angled
   corners and checked against the blob and the image edges (the hidden part of a card under
   another is completed from the frame's typical card size).
4. **Refinement.** At full resolution each side moves onto the card's rim (the outermost clear
   edge near it) and the corners become the intersections of the fitted sides.
5. **Cards apart.** An outline much larger than the frame's typical card whose paper falls apart
   into several card-shaped pieces (two cards a few pixels apart, run together when seen small)
   is split into them (:mod:`vision.gap_split`).
6. **A rim round every large card.** An outline whose long side is 30 % of the frame's shorter
   side or more must show a rim: the colours just inside its sides differ from those just
   outside (:mod:`vision.rim`). A striped, checked or paisley cloth seen from far away looks like
   a card's back, and a stretch of it taken for one card shows the same pattern on both hands of
   its sides: it is dropped, not reported as a back.

Steps 1-3 run on a copy about 320 pixels wide; steps 4 to 6 look at the full frame.

With the learned segmenter (:mod:`vision.segment`, used by the card reader) steps 1-3 are its
card and core maps instead, and the scale is chosen from the frame (:mod:`vision.scale`): a first
look at the copy about 320 pixels wide, where the cards of a table seen whole are about the size
the network learned; then each patch of card pixels that look does not explain, or explains with
cards too small or too large to be sure of, is looked at again, on a crop around it, at the scale
where its cards would be that size (further away for a card that fills much of the frame, closer
for small cards and for cards packed together). A patch explained at the first look costs nothing
more. The looks again at a look's patches, each with its outline work, are shared between this
thread and a worker thread (the worker takes them from the first on, this thread from the last
back); what each finds does not depend on where it was made, and they are judged in their own
order. Steps 4 and 5 are the same for all, every outline in one pass.
"""

from __future__ import annotations

import functools
import math
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.gap_split import looked_at, pieces
from vision.grid_holes import GRID, holes, pairs
from vision.learned_outlines import segmented
from vision.paper import Paper, cloth_taken_for_card
from vision.quads import card_shaped_many, holds_many
from vision.quads import intersect as _intersect
from vision.quads import quad_from_blob as _quad_from_blob
from vision.rectify import CARD_ASPECT, grey_near, order_corners_many
from vision.rim import rim_contrast
from vision.scale import (
    MIN_LOOK,
    SMALLEST,
    SURE,
    TRAINED_HEIGHT,
    Patch,
    explained,
    explanation,
    look_closer,
    looks_again,
    off_size,
    owners,
    patches,
    shrink,
    tiles,
)
from vision.segment import CardSegmenter

WORK_WIDTH = 320
"""Width in pixels of the copy the detector works on."""

_THUMB_WIDTH = 48
_NOISE_MULTIPLE = 5.0
_MIN_CONTRAST = 8.0  # Lab units: below this a pixel is table whatever the noise estimate


@dataclass(frozen=True)
class Outline:
    """A card outline found in a frame: corners (4×2, frame pixels, upright clockwise order)."""

    corners: np.ndarray
    partial: bool  # completed from a visible corner: part of the card is hidden
    fit: float  # 0..1, how well the outline matches the blob it came from
    face_only: bool = False  # found as a face's paper on a cloth taken for card (vision.paper): no back


def _quantile(values: np.ndarray, q: float) -> float:
    """Approximate quantile of an array (on at most ~4000 evenly strided samples: fast)."""
    flat = values.ravel()
    flat = flat[:: max(len(flat) // 4096, 1)]
    k = min(int(len(flat) * q), len(flat) - 1)
    return float(np.partition(flat, k)[k])


@functools.lru_cache(maxsize=8)
def _poly_basis(h: int, w: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    x, y = xx.ravel() / max(w - 1, 1) * 2 - 1, yy.ravel() / max(h - 1, 1) * 2 - 1
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=1)


def table_model(lab: np.ndarray) -> tuple[np.ndarray, float]:
    """The table's colour at every pixel of ``lab`` (float32 Lab) and the table's noise level.

    Robust as long as the table fills more than about half of the frame.
    """
    h, w = lab.shape[:2]
    tw = min(_THUMB_WIDTH, w)
    th = max(round(h * tw / w), 4)
    thumb = cv2.resize(lab, (tw, th), interpolation=cv2.INTER_AREA)
    pixels = thumb.reshape(-1, 3)
    basis = _poly_basis(th, tw)
    keep = np.ones(len(pixels), bool)
    for _ in range(3):  # least trimmed squares: refit to the 55 % of pixels that fit best
        a = basis[keep]
        coef = np.linalg.solve(a.T @ a + 1e-6 * np.eye(a.shape[1]), a.T @ pixels[keep])
        residual = np.linalg.norm(pixels - basis @ coef, axis=1)
        keep = residual <= np.partition(residual, len(residual) * 55 // 100)[len(residual) * 55 // 100]
    scale = 1.4826 * float(np.median(residual)) + 0.5
    surface = (basis @ coef).reshape(th, tw, 3).astype(np.float32)
    sigma = tw / 24
    for _ in range(3):  # let the surface follow light the quadratic cannot
        residual = np.linalg.norm(thumb - surface, axis=2)
        inlier = (residual < 3.0 * scale).astype(np.float32)
        num = cv2.GaussianBlur(thumb * inlier[:, :, None], (0, 0), sigma, borderType=cv2.BORDER_REFLECT)
        den = cv2.GaussianBlur(inlier, (0, 0), sigma, borderType=cv2.BORDER_REFLECT)
        filled = den > 0.05
        surface = np.where(filled[:, :, None], num / np.maximum(den, 1e-3)[:, :, None], surface).astype(np.float32)
        residual = np.linalg.norm(thumb - surface, axis=2)
        scale = 1.4826 * float(np.median(residual[inlier > 0])) + 0.5 if inlier.any() else scale
    return cv2.resize(surface, (w, h), interpolation=cv2.INTER_LINEAR), scale


def foreground(small_bgr: np.ndarray) -> np.ndarray:
    """uint8 mask (255 = not table) of a small BGR frame."""
    lab = cv2.cvtColor(small_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    surface, noise = table_model(lab)
    diff = cv2.subtract(lab, surface)
    square = diff * diff
    chroma2 = square[:, :, 1] + square[:, :, 2]
    distance = np.sqrt(chroma2 + square[:, :, 0])
    # Where the table itself is busy (wood grain, glare) the noise bar can rise above the cards;
    # then the split of the distance histogram between table and cards (Otsu) takes over.
    level = cv2.convertScaleAbs(distance, alpha=2.0)
    otsu = cv2.threshold(level, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0] / 2
    threshold = max(min(_NOISE_MULTIPLE * noise, otsu), 3.0 * noise, _MIN_CONTRAST)
    # A cast shadow is the table, only darker: same hue, not too dark. It is not a card.
    darker = -diff[:, :, 0]
    same_hue = chroma2 < np.maximum(threshold, 0.3 * darker) ** 2
    shadow = (darker > 0) & (lab[:, :, 0] > 0.55 * surface[:, :, 0]) & same_hue
    # Hysteresis: faint pixels (a card's paper under dim light) join the blobs of clear ones.
    strong = ((distance > threshold) & ~shadow).astype(np.uint8)
    weak = ((distance > max(0.5 * threshold, 2.5 * noise, _MIN_CONTRAST * 0.75)) & ~shadow).astype(np.uint8)
    count, labels = cv2.connectedComponents(weak, connectivity=4)
    keep = np.bincount(labels[strong > 0], minlength=count) > 0
    keep[0] = False
    mask: np.ndarray = cv2.morphologyEx(keep[labels].astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return mask


def textured(small_bgr: np.ndarray, table: np.ndarray) -> np.ndarray:
    """uint8 mask of pixels much busier than the table (patterned backs that average to its colour).

    ``table`` marks pixels known to be table (nonzero); their texture sets the bar.
    """
    gray = cv2.cvtColor(small_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mean = cv2.blur(gray, (3, 3))
    spread = np.sqrt(np.maximum(cv2.blur(gray * gray, (3, 3)) - mean * mean, 0))
    reference = spread[table > 0]
    if reference.size > 100:
        bar = float(np.partition(reference, int(reference.size * 0.995))[int(reference.size * 0.995)])
    else:
        bar = 4 * float(np.median(spread))
    busy = (spread > max(bar * 1.5, 6.0)).astype(np.uint8) * 255
    closed = cv2.morphologyEx(busy, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    out: np.ndarray = cv2.morphologyEx(closed, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    return out


Corner = tuple[np.ndarray, np.ndarray, np.ndarray, float, float]


def _corner_candidates(contour: np.ndarray, min_edge: float) -> list[Corner]:
    """Right-ish convex corners along a blob's outline: (apex, dir1, dir2, visible1, visible2).

    dir1 and dir2 point from the apex along the two sides; visible* are the lengths of the straight
    runs seen along each side.
    """
    poly = cv2.approxPolyDP(contour, 1.5, True).reshape(-1, 2).astype(np.float64)
    n = len(poly)
    if n < 3:
        return []
    orientation = np.sign(cv2.contourArea(poly.astype(np.float32), oriented=True)) or 1.0
    edges = [(poly[i], poly[(i + 1) % n]) for i in range(n)]
    lengths = [float(np.linalg.norm(b - a)) for a, b in edges]
    long_edges = [i for i in range(n) if lengths[i] >= min_edge]
    out = []
    for k, i in enumerate(long_edges):
        j = long_edges[(k + 1) % len(long_edges)]
        gap = sum(lengths[m % n] for m in range(i + 1, j if j > i else j + n))
        if gap > min_edge * 0.8 or i == j:
            continue
        a0, a1 = edges[i]
        b0, b1 = edges[j]
        d1, d2 = (a1 - a0) / lengths[i], (b1 - b0) / lengths[j]
        cross = d1[0] * d2[1] - d1[1] * d2[0]
        angle = math.degrees(math.acos(float(np.clip(np.dot(d1, d2), -1, 1))))
        if not 60 <= angle <= 120 or np.sign(cross) != orientation:
            continue
        apex = _intersect(a0, d1, b0, d2)
        if apex is None:
            continue
        out.append((apex, -d1, d2, lengths[i], lengths[j]))
    return out


def _support(quad: np.ndarray, edges: np.ndarray) -> float:
    """Fraction of points along the quad's sides (away from its corners) that lie on an edge."""
    h, w = edges.shape
    hits = total = 0
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        for t in np.linspace(0.15, 0.85, 12):
            x, y = (a + (b - a) * t).round().astype(int)
            total += 1
            if 0 <= x < w and 0 <= y < h and edges[y, x]:
                hits += 1
    return hits / total


def _hypotheses(mask: np.ndarray, edges: np.ndarray, contour: np.ndarray, heights: list[float],
                taken: np.ndarray) -> list[tuple[np.ndarray, float, bool]]:  # fmt: skip
    """Card outlines explaining a blob that is not one clean card: built from its corners, checked."""
    min_edge = 0.2 * min(heights)
    candidates: list[tuple[float, np.ndarray]] = []
    for apex, u, v, seen_u, seen_v in _corner_candidates(contour, min_edge):
        for height in heights:
            width = height * CARD_ASPECT
            for a, b in ((width, height), (height, width)):
                if seen_u > a * 1.12 or seen_v > b * 1.12:
                    continue
                quad = np.array([apex, apex + a * u, apex + a * u + b * v, apex + b * v])
                region = np.zeros(mask.shape, np.uint8)
                cv2.fillConvexPoly(region, np.round(quad).astype(np.int32), 255)
                area = max(int((region > 0).sum()), 1)
                inside = float((mask[region > 0] > 0).sum()) / area
                if inside < 0.9:
                    continue
                candidates.append((_support(quad, edges) * inside, quad))
    candidates.sort(key=lambda c: -c[0])
    accepted: list[tuple[np.ndarray, float, bool]] = []
    for score, quad in candidates:
        if score < 0.55:
            break
        region = np.zeros(mask.shape, np.uint8)
        cv2.fillConvexPoly(region, np.round(quad).astype(np.int32), 255)
        covered = region > 0
        new = float((~taken[covered]).sum()) / max(int(covered.sum()), 1)
        if new < 0.45:
            continue
        taken |= covered
        accepted.append((quad, score, new < 0.97))
    return accepted


def _cut_along_edges(mask: np.ndarray, gray: np.ndarray, contour: np.ndarray, min_area: float) -> list[np.ndarray]:
    """The pieces of a blob once the strong edges inside it are removed (the rims between cards)."""
    x, y, w, h = cv2.boundingRect(contour)
    region = np.zeros((h, w), np.uint8)
    cv2.drawContours(region, [contour - np.array([x, y])], -1, 255, -1)
    region &= mask[y : y + h, x : x + w]
    patch = gray[y : y + h, x : x + w]
    magnitude = cv2.magnitude(cv2.Sobel(patch, cv2.CV_32F, 1, 0), cv2.Sobel(patch, cv2.CV_32F, 0, 1))
    inner = magnitude[region > 0]
    high = max(_quantile(inner, 0.7) if inner.size else 0.0, 30.0)
    edges = cv2.Canny(patch, high * 0.4, high, L2gradient=True)
    cut = cv2.bitwise_and(region, cv2.bitwise_not(edges))
    cut = cv2.morphologyEx(cut, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    pieces, _ = cv2.findContours(cut, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return [p + np.array([x, y]) for p in pieces if cv2.contourArea(p) >= min_area * 0.5]


def _outlines_in(mask: np.ndarray, small: np.ndarray, min_area: float, side: float,
                 known: list[tuple[np.ndarray, float, bool]]) -> list[tuple[np.ndarray, float, bool]]:  # fmt: skip
    """Card quads (work pixels) explained by the blobs of ``mask``: clean ones, then split clusters."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    found, rest = _single_cards(contours, min_area)
    clusters = []
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    for contour in rest:
        # Touching cards: cut the blob along the rims inside it, then look at the pieces.
        for piece in _cut_along_edges(mask, gray, contour, min_area):
            part = _quad_from_blob(piece)
            if part is not None:
                found.append((part[0], part[1], False))
            else:
                clusters.append(piece)
    if not clusters:
        return found
    sized = found + known
    heights = [float(np.median([_long_side(q) for q, _, _ in sized]))] if sized else []
    if not heights:  # no clean card to measure: try the sizes the blobs' straight sides suggest
        corners = [corner for c in clusters for corner in _corner_candidates(c, side)]
        sides = sorted({round(length) for *_, a, b in corners for length in (a, b)})
        heights = sorted({max(s, s / CARD_ASPECT) for s in sides[-3:]}) if sides else []
    if heights:
        rims = cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        lines = cv2.bitwise_or(cv2.Canny(gray, 20, 50, L2gradient=True), rims)
        edges = cv2.dilate(lines, np.ones((3, 3), np.uint8)) > 0
        taken = np.zeros(mask.shape, bool)
        for quad, _, _ in sized:
            cv2.fillConvexPoly(taken.view(np.uint8), np.round(quad).astype(np.int32), 1)
        for contour in clusters:
            found.extend(_hypotheses(mask, edges, contour, heights, taken))
    return found


def edge_quads(gray: np.ndarray, min_area: float) -> list[tuple[np.ndarray, float, bool]]:
    """Card quads outlined by closed loops of edges (low-contrast cards that the colour mask misses).

    The Canny thresholds follow the frame's own gradient statistics.
    """
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1)
    magnitude = cv2.magnitude(gx, gy)
    high = max(_quantile(magnitude, 0.92), 40.0)
    edges = cv2.Canny(gray, high * 0.4, high, L2gradient=True)
    edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    return _single_cards(contours, min_area)[0]


def _single_cards(contours: Sequence[np.ndarray], min_area: float
                  ) -> tuple[list[tuple[np.ndarray, float, bool]], list[np.ndarray]]:  # fmt: skip
    """Outlines of at least ``min_area`` that are one card each (quad, fit, partial), and the others."""
    found: list[tuple[np.ndarray, float, bool]] = []
    rest = []
    for contour in contours:
        if cv2.contourArea(contour) < min_area:
            continue
        result = _quad_from_blob(contour)
        if result is not None:
            found.append((result[0], result[1], False))
        else:
            rest.append(contour)
    return found, rest


def _overlaps(quad: np.ndarray, others: list[tuple[np.ndarray, float, bool]]) -> bool:
    """Whether ``quad`` shares more than a fifth of the smaller area with any of ``others``."""
    q = quad.astype(np.float32)
    for other, _, _ in others:
        o = other.astype(np.float32)
        inter, _ = cv2.intersectConvexConvex(q, o)
        if inter > 0.2 * min(cv2.contourArea(q), cv2.contourArea(o)):
            return True
    return False


def find_cards(frame: np.ndarray, *, min_height: float = SMALLEST, segmenter: CardSegmenter | None = None,
               gray: Callable[[], np.ndarray] | None = None, ahead: bool = True) -> list[Outline]:
    """Every card outline in a BGR frame; cards shorter than ``min_height`` frame pixels are ignored.

    With a ``segmenter`` (the learned model, :mod:`vision.segment`) the cards are found by it, each
    at a scale near the one it was trained on (:mod:`vision.scale`); without one, by the classical
    steps of this module's docstring. ``gray``, when given, answers the frame in grey; without it
    only the frame round the outlines found is made grey (:func:`vision.rectify.grey_near`).
    ``ahead``: the looks again are shared with a worker thread, and a look's patches of card pixels
    labelled there while its outlines are made here (the same outlines as without, found sooner on
    two cores).
    """
    h, w = frame.shape[:2]
    width = segmenter.settings.work_width if segmenter is not None else WORK_WIDTH
    scale = min(1.0, width / w)
    min_side = min_height
    if segmenter is None:
        small = shrink(frame, (max(round(w * scale), 1), max(round(h * scale), 1)))
        side = min_side * min(small.shape[:2]) / min(h, w)
        rough = [(_to_frame(quad, scale, (0, 0)), fit, partial, scale)
                 for quad, fit, partial in _classical(small, side * side * CARD_ASPECT, side)]  # fmt: skip
        return _outlines(frame, rough, gray)
    card: list[np.ndarray] = []
    looked = _look(frame, segmenter, (0, 0, w, h), scale, min_side, 0, ahead=ahead, card_map=card)
    found = _outlines(frame, looked, gray)
    # A patterned cloth the network took for card: the faces on it are sought by their paper.
    covered = sum(_area(o.corners) for o in found) / (h * w)
    if card and cloth_taken_for_card(card[0], covered):
        paper = Paper(frame)
        faces = [replace(o, face_only=True) for o in _paper_cards(frame, paper, min_height, gray)
                 if paper.face(o.corners)]  # fmt: skip
        found, faces = _tightened(frame, found, faces)
        found += _others(found, faces)
    if len(found) < GRID:
        return found
    # Two cards of a grid run together are two of its places: split.
    split = pairs(frame, np.stack([o.corners for o in found]))
    if split:
        halves = _outlines(frame, [_rough(quad) for k in sorted(split) for quad in split[k]], gray)
        found = [o for k, o in enumerate(found) if k not in split]
        found += _others(found, halves)
    # A grid of cards has no holes: a place all of whose neighbours hold cards holds one too.
    missing = holes(frame, np.stack([o.corners for o in found]))
    if missing:
        found += _others(found, _outlines(frame, [_rough(quad) for quad in missing], gray))
    return found


def _rough(quad: np.ndarray) -> tuple[np.ndarray, float, bool, float]:
    """An outline placed from a grid's layout, as a look gives it: sought on the card's rim
    :data:`_HOLE_REACH` of its width away."""
    return quad, 1.0, False, 2.5 / max(_HOLE_REACH * _short_side(quad), 1.0)


_HOLE_REACH = 0.06
"""An outline moved into a grid's hole is sought on the card's rim this share of its width away."""


def _tightened(frame: np.ndarray, found: list[Outline], faces: list[Outline]) -> tuple[list[Outline], list[Outline]]:
    """On a cloth taken for card, the network's outlines reach into the cloth round a card or lie
    askew on it: an outline of ``found`` that shows the same card as faces' outlines (found by
    their paper; one holds the other's centre) is replaced by them when they lie on a rim more
    plainly (:func:`_rim`). Answers the outlines found so and the faces left."""
    if not found or not faces:
        return found, faces
    quads, face_quads = [o.corners for o in found], [f.corners for f in faces]
    same = holds_many(quads, face_quads) | holds_many(face_quads, quads).T  # (F, P)
    rims = [_rim(frame, f.corners) for f in faces]
    used: set[int] = set()
    out: list[Outline] = []
    for k, outline in enumerate(found):
        mine = [j for j in np.flatnonzero(same[k]).tolist() if j not in used]
        if mine and min(rims[j] for j in mine) > _rim(frame, outline.corners):
            used.update(mine)
            out += [faces[j] for j in mine]
        else:
            out.append(outline)
    return out, [f for j, f in enumerate(faces) if j not in used]


def _rim(frame: np.ndarray, quad: np.ndarray) -> float:
    """How plainly ``quad`` lies on a card's rim: the weakest of its sides' contrasts
    (:func:`vision.rim.rim_contrast`, a few pixels either side; 0 when none can be measured)."""
    offset = max(3.0, 0.03 * _short_side(quad))
    sides = rim_contrast(frame, quad, offset)
    return float(np.nanmin(sides)) if np.isfinite(sides).any() else 0.0


def _outlines(frame: np.ndarray, looked: Looked, gray: Callable[[], np.ndarray] | None) -> list[Outline]:
    """The rough outlines ``looked`` moved onto the cards' rims at full resolution; those of no card
    dropped, those of several cards split."""
    h, w = frame.shape[:2]
    # No card covers most of the frame: what does is the cloth or the picture itself, kept by a look
    # so far away that the table's colour padding it (to MIN_LOOK) made it one card among table.
    looked = [item for item in looked if _area(item[0]) <= _FRAME_SHARE * w * h]
    if not looked:
        return []
    rough = np.stack([quad for quad, _, _, _ in looked])
    # Each look's outlines are as rough as its pixels are coarse: the rim is sought that far.
    reach = np.array([max(4.0, 2.5 / float(look_scale)) for _, _, _, look_scale in looked])
    # The two passes below sample within twice the reach of the rough outlines (and a pixel more for
    # the bilinear neighbour): only that much of the frame is made grey.
    grey = gray() if gray is not None else grey_near(frame, rough, 2 * reach + 3)
    quads = refine(grey, rough, reach)
    # A quad that had far to go gets a second, closer look.
    far = np.abs(quads - rough).max(axis=(1, 2)) > 0.4 * reach
    if far.any():
        quads[far] = refine(grey, quads[far], reach[far] / 2)
    ordered = order_corners_many(quads)
    outlines = [Outline(q, partial, fit) for q, (_, fit, partial, _) in zip(ordered, looked, strict=True)]
    # A large outline whose sides are no rim is a patterned cloth taken for a card from far away.
    rim = np.array([_on_a_rim(frame, o.corners) for o in outlines])
    if not rim.any():
        return []
    return _apart(frame, grey, [o for o, kept in zip(outlines, rim, strict=True) if kept], reach[rim])


def _others(found: list[Outline], more: list[Outline]) -> list[Outline]:
    """The outlines of ``more`` that show other cards than ``found`` and each other (none holds the
    centre of another), the first of each kept."""
    known = [o.corners for o in found]
    out: list[Outline] = []
    for outline in more:
        if known and (holds_many(known, [outline.corners]).any() or holds_many([outline.corners], known).any()):
            continue
        out.append(outline)
        known.append(outline.corners)
    return out


def _paper_cards(frame: np.ndarray, paper: Paper, min_height: float, gray: Callable[[], np.ndarray] | None
                 ) -> list[Outline]:  # fmt: skip
    """The cards whose paper shows whole and card-shaped (:class:`vision.paper.Paper`)."""
    side = min_height * paper.scale
    quads = _outlines_in(paper.mask(), paper.small, side * side * CARD_ASPECT, side, [])
    rough = [(_to_frame(quad, paper.scale, (0, 0)), fit, partial, paper.scale) for quad, fit, partial in quads]
    return _outlines(frame, rough, gray)


def _on_a_rim(frame: np.ndarray, quad: np.ndarray) -> bool:
    """Whether a large outline lies on a card's rim rather than on a patterned cloth seen as a card
    (:mod:`vision.rim`). Outlines shorter than :data:`_LARGE` of the frame's shorter side are not
    judged: the cloth is taken for one card only when seen from far away, as a large card is (and
    small cards touching in a grid have other cards round them). Each side is measured a few
    pixels either side of it, and again further off (a rough outline); its larger contrast
    counts, and the median of the sides measured must reach :data:`_RIM`. An outline none of whose sides can be
    measured is kept."""
    short = min(frame.shape[:2])
    if _long_side(quad) < _LARGE * short:
        return True
    near, far = (rim_contrast(frame, quad, max(floor, share * short)) for floor, share in ((4.0, 0.006), (12.0, 0.02)))
    best = np.fmax(near, far)
    measured = best[np.isfinite(best)]
    return not len(measured) or float(np.median(measured)) >= _RIM


_LARGE = 0.3
"""Outlines whose long side is at least this share of the frame's shorter side are checked by their rim."""

_RIM = 0.75
"""The contrast (:func:`vision.rim.rim_contrast`) a large outline's sides must reach, the median of
those measured. On bench.vision's hard tables the cards at least :data:`_LARGE` of the frame
measure 0.87-27 (a borderless striped back on dark wood about 1.1, face-up cards on wood and felt
3-27), the stretches of striped, checked and paisley cloth taken for a card 0.04-0.62."""

_FRAME_SHARE = 0.6
"""The largest share of the frame's area an outline may cover (a card 0.75 of a portrait frame's
height covers 0.54 of it; a phone's close-up of one card a third to two thirds of the height,
under 0.3)."""

_PIECE_REACH = 3.0
"""How far (frame pixels) the outline of a card found apart from another is moved onto its rim: the
gap beside it may be narrower than an outline's usual reach, and the rim beyond it the other card's."""


def _apart(frame: np.ndarray, grey: np.ndarray, outlines: list[Outline], reach: np.ndarray) -> list[Outline]:
    """``outlines`` with each that holds several cards lying apart (:mod:`vision.gap_split`) replaced
    by theirs, moved onto their rims as the others were."""
    out: list[Outline] = []
    for outline, asked, near in zip(outlines, looked_at(np.stack([o.corners for o in outlines])), reach, strict=True):
        found = pieces(frame, outline.corners) if asked else []
        if not found:
            out.append(outline)
            continue
        moved = order_corners_many(refine(grey, np.stack(found), min(near, _PIECE_REACH)))
        out += [Outline(q, outline.partial, outline.fit) for q in moved]
    return out


_LOOKS_DEEP = 2
"""How many times a patch of card pixels may be looked at again, at another scale."""

_TINY = SURE[0] * TRAINED_HEIGHT
"""A patch of card pixels shorter than this (look pixels) is too small for a look to be sure of."""

_DECK = 52
"""More tiny patches than this in one look are a pattern, not cards."""

Looked = list[tuple[np.ndarray, float, bool, float]]
"""Rough outlines in frame pixels, each with its fit, whether part of it is hidden, and the scale
of the look that found it."""


def _to_frame(quad: np.ndarray, scale: float, origin: tuple[int, int]) -> np.ndarray:
    """Work pixels of a look at ``scale`` whose box starts at ``origin`` → frame pixels."""
    out: np.ndarray = (quad + 0.5) / scale - 0.5 + np.asarray(origin, np.float64)
    return out


def _to_look(quad: np.ndarray, scale: float, origin: tuple[int, int]) -> np.ndarray:
    """Frame pixels → work pixels of a look at ``scale`` whose box starts at ``origin``."""
    out: np.ndarray = (quad - np.asarray(origin, np.float64) + 0.5) * scale - 0.5
    return out


def _small(frame: np.ndarray, box: tuple[int, int, int, int], scale: float, hide: Sequence[np.ndarray]) -> np.ndarray:
    """``box`` of the frame as a look at ``scale`` sees it: shrunk, the outlines ``hide`` (frame
    pixels) painted over with the table's colour, widened with table to :data:`MIN_LOOK` a side."""
    x0, y0, x1, y1 = box
    crop = frame[y0:y1, x0:x1]
    size = (max(round((x1 - x0) * scale), 1), max(round((y1 - y0) * scale), 1))
    small = shrink(crop, size) if scale < 1.0 else crop
    if len(hide) or min(small.shape[:2]) < MIN_LOOK:
        # The table's colour, as the look's edges show it.
        table = tuple(float(v) for v in np.median(np.concatenate([small[0], small[-1], small[:, 0], small[:, -1]]),
                                                  axis=0))  # fmt: skip
        if len(hide):
            small = small.copy()
            for quad in hide:
                corners = np.round(_to_look(quad, scale, (x0, y0))).astype(np.int32)
                cv2.fillConvexPoly(small, corners, table, cv2.LINE_AA)
        if min(small.shape[:2]) < MIN_LOOK:  # a tiny look: the network wants some table around the cards
            small = cv2.copyMakeBorder(small, 0, max(MIN_LOOK - small.shape[0], 0), 0,
                                       max(MIN_LOOK - small.shape[1], 0), cv2.BORDER_CONSTANT, value=table)  # fmt: skip
    return small


Seen = tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]
"""A look's small image and the segmenter's card and core maps of it."""


def _see(frame: np.ndarray, segmenter: CardSegmenter, box: tuple[int, int, int, int], scale: float,
         hide: Sequence[np.ndarray] = ()) -> Seen:  # fmt: skip
    """``box`` of the frame shrunk to ``scale`` (with ``hide``'s outlines painted over, widened to
    :data:`MIN_LOOK`), and the segmenter's maps of it."""
    small = _small(frame, box, scale, hide)
    return small, segmenter.probabilities(small)


class _Ahead:
    """The worker thread that makes looks again beside this one (:func:`_looks_again`): of the looks
    again at a look's patches it takes them from the first on, this thread from the last back, until
    they meet. What a look finds depends only on where and how closely it looks, never on the
    thread or the order: the outlines are those of the looks made one by one."""

    _lock = threading.Lock()
    _pool: ThreadPoolExecutor | None = None
    _pid = 0

    @classmethod
    def pool(cls) -> ThreadPoolExecutor:
        """The worker (made again in a forked child, where the parent's thread does not exist)."""
        with cls._lock:
            if cls._pool is None or cls._pid != os.getpid():
                cls._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tocktable-looks")
                cls._pid = os.getpid()
            return cls._pool


Again = tuple[tuple[int, int, int, int], float, int, Sequence[np.ndarray]]
"""A look again: its box, its scale, its depth and the outlines it hides (as :func:`_look` takes them)."""


def _looks_again(frame: np.ndarray, segmenter: CardSegmenter, looks: list[Again], min_side: float, *,
                 ahead: bool) -> list[Looked]:  # fmt: skip
    """What each of ``looks`` finds (:func:`_look`), in their order. ``ahead``: the worker thread
    (:class:`_Ahead`) makes them from the first on while this thread makes them from the last back;
    a look the worker has not begun when this thread reaches it is made here (this thread never
    waits for a look the worker has not begun). The worker makes the looks again inside its looks
    itself; this thread has the worker share those of its own."""
    if not ahead or len(looks) < 2:
        return [_look(frame, segmenter, box, scale, min_side, depth, hide, ahead=ahead)
                for box, scale, depth, hide in looks]  # fmt: skip
    pool = _Ahead.pool()
    jobs = [pool.submit(_look, frame, segmenter, box, scale, min_side, depth, hide)
            for box, scale, depth, hide in looks]  # fmt: skip
    here: dict[int, Looked] = {}
    for k in range(len(looks) - 1, -1, -1):
        if not jobs[k].cancel():  # begun (or done) by the worker, and so are those before it
            break
        box, scale, depth, hide = looks[k]
        here[k] = _look(frame, segmenter, box, scale, min_side, depth, hide, ahead=True)
    return [here[k] if k in here else job.result() for k, job in enumerate(jobs)]


def _look(frame: np.ndarray, segmenter: CardSegmenter, box: tuple[int, int, int, int], scale: float,
          min_side: float, depth: int, hide: Sequence[np.ndarray] = (), *, ahead: bool = False,
          card_map: list[np.ndarray] | None = None) -> Looked:  # fmt: skip
    """The cards the segmenter finds in ``box`` of the frame seen at ``scale`` (work pixels per frame
    pixel), with each patch of card pixels they do not explain looked at again at the scale its size
    asks for (:mod:`vision.scale`); the second look's cards replace the first's there when they
    explain the patch better. ``min_side``: the shortest card, in frame pixels; ``hide``: outlines
    (frame pixels) of cards already found, painted over with the table's colour. ``ahead``: the
    looks again are shared with the worker thread (:func:`_looks_again`), and the look's patches
    of card pixels are labelled there while this thread makes its outlines. ``card_map``, when
    given, is handed the look's own card probabilities."""
    small, maps = _see(frame, segmenter, box, scale, hide)
    if card_map is not None:
        card_map.append(maps[0])
    x0, y0 = box[:2]
    side = min_side * scale
    min_area = side * side * CARD_ASPECT
    # The patches of card pixels, which a look that may look again judges its outlines by, are
    # labelled on the worker meanwhile (made here if it has not begun them by then).
    labelled = (_Ahead.pool().submit(patches, maps[0], segmenter.settings.card_threshold, min_area)
                if ahead and depth < _LOOKS_DEEP else None)  # fmt: skip
    found = segmented(segmenter, small, min_area, maps=maps,
                      explain=lambda mask, known: _outlines_in(mask, small, min_area, side, known))  # fmt: skip
    origin = (x0, y0)
    looked: Looked = [(_to_frame(quad, scale, origin), fit, partial, scale) for quad, fit, partial in found]
    if depth >= _LOOKS_DEEP:
        return looked
    labels, card_patches = (labelled.result() if labelled is not None and not labelled.cancel()
                            else patches(maps[0], segmenter.settings.card_threshold, min_area))  # fmt: skip
    first = owners(labels, [quad for quad, _, _ in found])
    initial = list(looked)
    judged = []
    for patch in card_patches:
        mine = [quad for (quad, _, _), label in zip(found, first, strict=True) if label == patch.label]
        judged.append((patch, mine, *explanation(labels, patch, mine)))
    # Cards explained where they are are hidden from a look further away, where they would run
    # together with a large card beside them. Cards too small to be sure of are looked at closer,
    # and what that look sees there replaces them.
    done = {patch.label for patch, mine, covered, tiled in judged if explained(covered, tiled) and not off_size(mine)}
    settled = [item[0] for item, label in zip(initial, first, strict=True) if label in done]
    # More patches too small to be sure of than a deck has cards: the cloth's own pattern, taken for
    # cards far away. They are neither looked at closer nor kept.
    tiny = {patch.label for patch in card_patches
            if patch.label not in done and max(patch.box[2] - patch.box[0], patch.box[3] - patch.box[1]) < _TINY}
    if scale < 1.0 and len(tiny) > _DECK:
        looked = [item for item, label in zip(initial, first, strict=True) if label not in tiny]
        done |= tiny
    # Where to look again at each patch not done (what those looks find does not change it).
    plans: list[tuple[Patch, float, bool, int, int]] = []
    again: list[Again] = []
    for patch, mine, covered, tiled in judged:
        if patch.label in done:
            continue
        off = off_size(mine) if explained(covered, tiled) else 0
        if off:  # explained, but by cards too small or too large to be sure of: look closer
            closer = look_closer(patch, mine, scale, origin, frame.shape[:2])
            looks = [] if closer is None else [closer]
        else:
            looks = looks_again(labels, patch, mine, scale, origin, frame.shape[:2])
        # A look at small cards sees them at the trained size: it is not looked again.
        deeper = _LOOKS_DEEP if off < 0 or patch.label in tiny else depth + 1
        again += [(look.box, look.scale, deeper, settled if look.scale < scale else ()) for look in looks]
        plans.append((patch, covered, tiled, off, len(looks)))
    seen_again = iter(_looks_again(frame, segmenter, again, min_side, ahead=ahead))
    for patch, covered, tiled, off, count in plans:
        mine_looked = [item for item, label in zip(initial, first, strict=True) if label == patch.label]
        candidates: list[Looked] = []
        for _ in range(count):
            second = next(seen_again)
            on = owners(labels, [_to_look(item[0], scale, origin) for item in second])
            candidates.append([item for item, label in zip(second, on, strict=True) if label == patch.label])
        if off < 0 and candidates:  # the closer look sees the small cards: what it sees replaces them
            mine_ids = {id(item) for item in mine_looked}
            looked = [item for item in looked if id(item) not in mine_ids] + candidates[0]
            continue
        # A card of one look that the smaller cards of another tile is several cards run together:
        # it explains nothing.
        everyone = [item[0] for other in candidates for item in other]
        valid = [item for item in mine_looked if not _run_together(item[0], everyone)]
        if len(valid) < len(mine_looked):
            covered, tiled = explanation(labels, patch, [_to_look(item[0], scale, origin) for item in valid])
        unsure = not _seen_near_trained(valid)  # the first look's cards were too small or too large to be sure of
        best: tuple[tuple[bool, bool, float], Looked] | None = None
        for k, theirs in enumerate(candidates):
            others = [item[0] for j, other in enumerate(candidates) if j != k for item in other]
            theirs = [item for item in theirs if not _run_together(item[0], others + [i[0] for i in valid])]
            merged = [_to_look(item[0], scale, origin) for item in _merge(valid, theirs)]
            covered2, tiled2 = explanation(labels, patch, merged)
            better = (covered2 >= covered + 0.15 or (tiled2 and not tiled and covered2 >= max(0.8, covered - 0.05))
                      or (unsure and _seen_near_trained(theirs) and covered2 >= covered - 0.05))
            # Cards seen near the size the network learned are believed before others.
            rank = (explained(covered2, tiled2), _seen_near_trained(theirs), covered2)
            if better and (best is None or rank > best[0]):
                best = (rank, theirs)
        if best is not None:
            gone = {id(item) for item in mine_looked} - {id(item) for item in valid}
            looked = _merge([item for item in looked if id(item) not in gone], best[1])
    return looked


def _seen_near_trained(items: Looked) -> bool:
    """Whether the outlines were seen, most of their area, at a size where the network finds cards
    whole and apart."""
    areas = np.array([_area(quad) for quad, _, _, _ in items])
    near = np.array([SURE[0] <= _long_side(quad) * look_scale / TRAINED_HEIGHT <= SURE[1]
                     for quad, _, _, look_scale in items])  # fmt: skip
    return bool(len(items)) and 2 * float(areas[near].sum()) >= float(areas.sum())


def _run_together(quad: np.ndarray, others: list[np.ndarray]) -> bool:
    """Whether the smaller quads ``others`` whose centres lie in ``quad`` tile it as cards of one deck
    do: then ``quad`` is several cards run together, seen too far away."""
    if len(others) < 2:
        return False
    area = _area(quad)
    held = holds_many([quad], others)[0]
    inner = [other for other, inside in zip(others, held, strict=True) if inside and _area(other) < 0.6 * area]
    return len(inner) >= 2 and tiles(quad, inner, loose=True)


def _merge(first: Looked, second: Looked) -> Looked:
    """The outlines of a second look at a patch with those of the first that it leaves alone.

    Where one look's outline holds the other's centre, they show the same card or one shows a
    piece of the other's card (a large card's pip). The second look's outline is kept, unless the
    first look's smaller outlines inside it tile it as cards of one deck do (then it is several
    small cards run together, seen too far away).
    """
    if not second:
        return list(first)
    if not first:
        return list(second)
    quads_first, quads_second = [item[0] for item in first], [item[0] for item in second]
    second_holds = holds_many(quads_second, quads_first)  # (S, F): the second's outline holds the first's centre
    first_holds = holds_many(quads_first, quads_second)  # (F, S)
    areas_first = np.array([_area(q) for q in quads_first])
    kept = []
    for k, item in enumerate(second):
        small = second_holds[k] & (areas_first < 0.6 * _area(item[0]))
        if np.count_nonzero(small) < 2 or not tiles(item[0], [q for q, s in zip(quads_first, small, strict=True) if s]):
            kept.append(k)
    clash = np.logical_or(second_holds[kept].any(axis=0), first_holds[:, kept].any(axis=1))
    return [item for item, gone in zip(first, np.asarray(clash).tolist(), strict=True) if not gone] + [
        second[k] for k in kept]


def _area(quad: np.ndarray) -> float:
    return float(cv2.contourArea(quad.astype(np.float32)))


def _classical(small: np.ndarray, min_area: float, side: float) -> list[tuple[np.ndarray, float, bool]]:
    """Rough quads (work pixels) found by the table model, texture and edge loops (no model)."""
    mask = foreground(small)
    found = _outlines_in(mask, small, min_area, side, [])
    # Second look, for cards that hardly differ from the table in colour but do in texture.
    covered = np.zeros(mask.shape, np.uint8)
    for quad, _, _ in found:
        cv2.fillConvexPoly(covered, np.round(quad).astype(np.int32), 255)
    table = cv2.bitwise_not(cv2.dilate(mask, np.ones((7, 7), np.uint8)))
    rest = cv2.bitwise_and(cv2.bitwise_or(textured(small, table), mask),
                           cv2.bitwise_not(cv2.dilate(covered, np.ones((5, 5), np.uint8))))  # fmt: skip
    found += _outlines_in(rest, small, min_area, side, found)
    # Third look: closed rims in the edge map (a white card on a white cloth, a card in a glare).
    # Only card-sized loops count: the frame's typical card, or a large share of the frame.
    areas = [cv2.contourArea(q.astype(np.float32)) for q, _, _ in found]
    low, high = (0.5 * float(np.median(areas)), 2.0 * float(np.median(areas))) if areas else (min_area * 4, np.inf)
    for loop in edge_quads(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), low):
        if cv2.contourArea(loop[0].astype(np.float32)) <= high and not _overlaps(loop[0], found):
            found.append(loop)
    return found


_NEXT = [1, 2, 3, 0]
_PREVIOUS = [3, 0, 1, 2]
"""Each corner's next and previous corner (indexing is cheaper than numpy's roll on 4 rows)."""


def refine(gray: np.ndarray, quads: np.ndarray, reach: float | np.ndarray) -> np.ndarray:
    """Move each side of every quad (N×4×2 frame pixels) onto the card's rim within ``reach`` pixels
    (one for all, or one per quad).

    Each side is sampled away from the rounded corners; along each sample's normal the rim is the
    outermost clear step in brightness (an index's ink can be stronger, but lies inside). A line
    is fitted through the rim points (twice, the second time without the points far from the
    first line) and the corners become the intersections of the four lines. A quad whose sides
    find no clear rim, or that would stop being card-shaped, is left as it was. All cards are
    sampled in one pass (quads of different reaches too: each samples its own offsets, the shorter
    rows padded and their padding never taken for a rim).
    """
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    n = len(quads)
    if n == 0:
        return quads
    reaches = np.broadcast_to(np.asarray(reach, np.float64), (n,))
    ends = quads[:, _NEXT]
    along = ends - quads
    direction = along / np.maximum(np.linalg.norm(along, axis=2, keepdims=True), 1e-9)
    normal = np.stack([-direction[..., 1], direction[..., 0]], axis=2)
    outward = (((quads + ends) / 2 - quads.mean(axis=1, keepdims=True)) * normal).sum(axis=2, keepdims=True)
    normal *= np.where(outward < 0, -1.0, 1.0)
    ts = np.linspace(0.14, 0.86, 14)
    # Each quad's offsets along the normal (N, O), the shorter rows padded with their last offset.
    distinct, which = np.unique(reaches, return_inverse=True)
    rows = [np.arange(-r, r + 0.25, 0.75) for r in distinct.tolist()]
    longest = max(len(row) for row in rows)
    offsets = np.stack([np.concatenate([row, np.full(longest - len(row), row[-1])]) for row in rows])[which]
    counts = np.array([len(row) for row in rows])[which]
    base = quads[:, :, None, :] + along[:, :, None, :] * ts[None, None, :, None]  # (N, 4, T, 2)
    # The sample points (N, 4, T, O, 2) in float32, as remap takes them.
    along_normal = offsets.astype(np.float32)[:, None, None, :, None]
    points = base.astype(np.float32)[:, :, :, None, :] + normal.astype(np.float32)[:, :, None, None, :] * along_normal
    flat = points.reshape(-1, offsets.shape[1], 2)
    samples = cv2.remap(gray, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    step = np.abs(np.diff(samples.astype(np.float32), axis=1))
    last = np.repeat(counts - 2, 4 * len(ts))  # each row's last step of its own
    if (counts < offsets.shape[1]).any():
        step[np.arange(step.shape[1])[None, :] > last[:, None]] = 0.0
    clear = step >= np.maximum(0.4 * step.max(axis=1, keepdims=True), 4.0)
    best = np.where(clear.any(axis=1), step.shape[1] - 1 - np.argmax(clear[:, ::-1], axis=1), last)
    row_offsets = np.repeat(offsets, 4 * len(ts), axis=0)
    rows_at = np.arange(len(best))
    where = ((row_offsets[rows_at, best] + row_offsets[rows_at, best + 1]) / 2).reshape(n, 4, len(ts))
    weight = (step[rows_at, best] >= 4.0).reshape(n, 4, len(ts)).astype(np.float64)
    rim = base + normal[:, :, None, :] * where[..., None]
    centre, unit = _fit_lines(rim, weight)
    residual = np.abs(((rim - centre[:, :, None, :]) * np.stack([-unit[..., 1], unit[..., 0]], -1)[:, :, None]).sum(-1))
    spread = (residual * weight).sum(axis=2) / np.maximum(weight.sum(axis=2), 1)
    weight *= residual <= np.maximum(1.0, 2.5 * spread)[..., None]
    centre, unit = _fit_lines(rim, weight)
    enough = weight.sum(axis=2) >= 6
    centre = np.where(enough[..., None], centre, quads)
    unit = np.where(enough[..., None], unit, direction)
    # Corner i is where side i-1 meets side i: p + s·d = q + t·e.
    p, d = centre[:, _PREVIOUS], unit[:, _PREVIOUS]
    det = d[..., 0] * -unit[..., 1] + d[..., 1] * unit[..., 0]
    safe = np.where(np.abs(det) < 1e-6, 1.0, det)
    gap = centre - p
    s_ = (gap[..., 0] * -unit[..., 1] + gap[..., 1] * unit[..., 0]) / safe
    refined = p + s_[..., None] * d
    out = quads.copy()
    moved = np.linalg.norm(refined - quads, axis=2).max(axis=1)
    good = (np.abs(det).min(axis=1) >= 1e-6) & (moved <= reaches * 1.5) & card_shaped_many(refined)
    out[good] = refined[good]
    return out


def _fit_lines(points: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted total-least-squares lines through (…, T, 2) points: centre and unit direction (…, 2)."""
    total = np.maximum(weight.sum(axis=-1, keepdims=True), 1e-9)
    centre = (points * weight[..., None]).sum(axis=-2) / total
    d = points - centre[..., None, :]
    cxx = (weight * d[..., 0] ** 2).sum(-1)
    cyy = (weight * d[..., 1] ** 2).sum(-1)
    cxy = (weight * d[..., 0] * d[..., 1]).sum(-1)
    angle = 0.5 * np.arctan2(2 * cxy, cxx - cyy)
    return centre, np.stack([np.cos(angle), np.sin(angle)], axis=-1)


def _long_side(quad: np.ndarray) -> float:
    sides = np.linalg.norm(quad - quad[_NEXT], axis=1)
    return float(max(sides[0] + sides[2], sides[1] + sides[3]) / 2)


def _short_side(quad: np.ndarray) -> float:
    sides = np.linalg.norm(quad - quad[_NEXT], axis=1)
    return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quadrilaterals."""
    pa, pb = np.asarray(a, np.float32), np.asarray(b, np.float32)
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    union = cv2.contourArea(pa) + cv2.contourArea(pb) - inter
    return float(inter / union) if union > 0 else 0.0
