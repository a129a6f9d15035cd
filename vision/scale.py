"""The scale the card detector looks at: cards about the size the learned segmenter was trained on.

The segmenter (:mod:`vision.segment`) learned cards on copies of 1280×720 tables 320 pixels wide,
where a card is 35–45 pixels tall (:data:`TRAINED_HEIGHT`). Far from that size it fails in two
ways: a card several times taller shows pips as large as the cards it learned, and breaks into
card-like pieces; cards much shorter and packed close show no gap between them and run together
into one patch. What it does get right at any size is *which pixels are card*.

So the detector looks at the frame once at its usual work scale, and then judges each patch of card
pixels (:func:`looks_again`): a patch explained by the outlines found in it (they cover it, do
not overlap, and are of one size, as the cards of a deck are) is done, if those cards are of a size
the look can be sure of (:data:`SURE`). Otherwise its size says where to look again, on a crop
around the patch:

- a patch explained by cards too small to be sure of (a card 40 pixels tall in a 2304-pixel-wide
  frame is 6 pixels tall in the first look; two cards touching or a coin look the same there) is
  looked at where they would be the trained size, and what that look sees replaces them
  (:func:`look_closer`); explained by several cards far too large, side by side (blocks of a grid
  whose cards ran together), twice as closely;
- a card-shaped patch much taller than :data:`TRAINED_HEIGHT` is one large card: look at a scale
  where it is :data:`FAR_HEIGHT` tall;
- a card-shaped patch much shorter is one small card: look where it is :data:`TRAINED_HEIGHT` tall;
- a patch of another shape is several cards together: look at the scale where the cards found in
  it (if any; else its narrow side) would be :data:`TRAINED_HEIGHT` tall, and at least twice as
  closely; and, if it is large, also further away, as one large card whose plain middle the
  network took for table.

Between the looks at a patch the detector keeps the cards that explain it best
(:func:`explanation`): an outline of one look that the smaller cards of another tile
(:func:`tiles`) is several cards run together and explains nothing; cards seen near the trained
size are believed before cards seen far from it. A look further away does not see the cards
already explained around the patch (they are painted over), lest they run together with a large
card there. The frame is only shrunk, never enlarged: the finest look is the frame itself. The
smallest card looked for is :data:`SMALLEST` frame pixels tall, whatever the frame's size.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.quads import quad_from_blob

TRAINED_HEIGHT = 40.0
"""Height in work pixels of the cards the segmenter was trained on (35–45 pixels)."""

FAR_HEIGHT = 64.0
"""Height in work pixels a large card is looked at again at: within the range the segmenter finds
cards whole (25–150 pixels), and large enough that small cards beside it stay apart from it."""

_TOO_TALL = 1.6  # a card-shaped patch taller than this many trained heights is looked at again, smaller
_TOO_SHORT = 0.6  # ... shorter than this many, larger
_CLOSER = 2.0  # a patch of several cards not explained is looked at least this much closer
_MARGIN = 0.25  # a crop reaches this share of the patch's size beyond it on each side (the table around)
SMALLEST = 36.0
"""Height in frame pixels of the smallest card looked for (an index is then about 5 pixels tall)
whatever the frame's size."""

SURE = (0.6, 2.0)
"""Card heights, in trained heights, a look is sure of: smaller ones may be a coin or two cards as
one, larger ones a block of cards run together (or one large card)."""

MIN_LOOK = 64
"""A look's shorter side in pixels at least: a crop smaller than this at its scale is widened."""


@dataclass(frozen=True)
class Look:
    """Where and how closely to look: ``box`` (x0, y0, x1, y1 frame pixels, end exclusive) and
    ``scale`` (work pixels per frame pixel, at most 1)."""

    box: tuple[int, int, int, int]
    scale: float


def shrink(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` resized to ``size`` (width, height), each pixel the mean of the pixels it covers.

    Shrinking a large frame by area is slow (a 4608-pixel-wide frame to 320: about 35 ms); a
    bilinear step down to four times the size first (which averages 2×2 of every cell it samples)
    then the area step is about a tenth of that and looks the same to the detector.
    """
    h, w = image.shape[:2]
    tw, th = size
    if w > 4 * tw and h > 4 * th:
        image = cv2.resize(image, (4 * tw, 4 * th), interpolation=cv2.INTER_LINEAR)
    out: np.ndarray = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return out


def crop_box(patch: tuple[float, float, float, float], scale: float, frame: tuple[int, int]
             ) -> tuple[int, int, int, int]:  # fmt: skip
    """The frame box (x0, y0, x1, y1) to look at a patch (x0, y0, x1, y1 frame pixels) at ``scale``:
    the patch with a margin of table around it, at least :data:`MIN_LOOK` work pixels a side,
    within the frame of (height, width) ``frame``."""
    h, w = frame
    x0, y0, x1, y1 = patch
    margin = _MARGIN * max(x1 - x0, y1 - y0) + 2 / scale
    half_w = max((x1 - x0) / 2 + margin, 0.5 * MIN_LOOK / scale)
    half_h = max((y1 - y0) / 2 + margin, 0.5 * MIN_LOOK / scale)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return (max(int(cx - half_w), 0), max(int(cy - half_h), 0), min(int(np.ceil(cx + half_w)), w),
            min(int(np.ceil(cy + half_h)), h))  # fmt: skip


@dataclass(frozen=True)
class Patch:
    """A patch of card pixels in a look: its mask (uint8, 1 = card, look pixels) and box there."""

    label: int
    box: tuple[int, int, int, int]
    area: int


def patches(card: np.ndarray, threshold: float, min_area: float) -> tuple[np.ndarray, list[Patch]]:
    """The labelled map of connected card pixels (probability above ``threshold``) and its patches of
    at least ``min_area`` pixels."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats((card > threshold).astype(np.uint8), connectivity=8)
    out = []
    for k in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[k])
        if area >= min_area:
            out.append(Patch(k, (x, y, x + w, y + h), area))
    return labels, out


_SPOTS = np.linspace(0.1, 0.9, 5)
_U, _V = (a.ravel()[None, :, None] for a in np.meshgrid(_SPOTS, _SPOTS))
_AT = ((1 - _U) * (1 - _V), _U * (1 - _V), _U * _V, (1 - _U) * _V)
"""The weights of a quad's four corners at each of the 5×5 spots (1, 25, 1 each)."""


def owners(labels: np.ndarray, quads: list[np.ndarray]) -> list[int]:
    """The label of the patch most of each quad (look pixels) lies on, 0 for none: the most common
    patch under 5×5 spots spread over the quad (its centre alone may fall on a big pip)."""
    if not quads:
        return []
    h, w = labels.shape
    q = np.stack([np.asarray(quad, np.float64) for quad in quads])  # (N, 4, 2)
    spots = _AT[0] * q[:, None, 0] + _AT[1] * q[:, None, 1] + _AT[2] * q[:, None, 2] + _AT[3] * q[:, None, 3]
    xs = np.clip(np.round(spots[..., 0]).astype(np.int64), 0, w - 1)
    ys = np.clip(np.round(spots[..., 1]).astype(np.int64), 0, h - 1)
    under = labels[ys, xs].astype(np.int64)  # (N, 25)
    # How many spots of each quad lie on each label; the most (the lowest label of a tie), 0 for none.
    top = int(under.max()) + 1
    counts = np.bincount((np.arange(len(q))[:, None] * top + under).ravel(), minlength=len(q) * top).reshape(-1, top)
    counts[:, 0] = 0
    return [int(v) for v in counts.argmax(axis=1)]


def explanation(labels: np.ndarray, patch: Patch, quads: list[np.ndarray]) -> tuple[float, bool]:
    """How well card quads (look pixels) explain a patch: the share of its pixels they cover, and
    whether they tile it as cards of one deck do (:func:`one_deck`)."""
    if len(quads) == 1:  # one card's outline: it covers the patch as far as its area can
        return min(float(cv2.contourArea(np.asarray(quads[0], np.float32))) / max(patch.area, 1), 1.0), True
    x0, y0, x1, y1 = patch.box
    own = labels[y0:y1, x0:x1] == patch.label
    cover = np.zeros(own.shape, np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(cover, np.round(np.asarray(quad) - (x0, y0)).astype(np.int32), 1)
    covered = float(np.count_nonzero(own & (cover > 0))) / max(patch.area, 1)
    return covered, one_deck(quads)


def one_deck(quads: list[np.ndarray], spare: int | None = None) -> bool:
    """Whether card quads lie as cards of one deck do: no two overlapping much (a fifth of the
    smaller), none more than twice another's area. ``spare`` of them may not (by default a tenth,
    among ten or more: a card taken with a sliver of its neighbour does not make the others wrong)."""
    if not quads:
        return False
    parts = [np.asarray(q, np.float32) for q in quads]
    areas = np.array([float(cv2.contourArea(q)) for q in parts])
    n = len(parts)
    spare = n // 10 if spare is None else spare
    if spare == 0:
        if areas.max() > 2.0 * max(areas.min(), 1e-6):
            return False
        odd = np.zeros(n, bool)
    else:
        middle = float(np.median(areas))
        odd = (areas > 1.45 * middle) | (areas < middle / 1.45)
    boxes = np.stack([np.concatenate([p.min(axis=0), p.max(axis=0)]) for p in parts])
    meet = ((boxes[:, None, 0] < boxes[None, :, 2]) & (boxes[None, :, 0] < boxes[:, None, 2])
            & (boxes[:, None, 1] < boxes[None, :, 3]) & (boxes[None, :, 1] < boxes[:, None, 3]))  # fmt: skip
    for i, j in zip(*np.nonzero(np.triu(meet, 1)), strict=True):
        if not (odd[i] or odd[j]) and cv2.intersectConvexConvex(parts[i], parts[j])[0] > 0.2 * min(areas[i], areas[j]):
            odd[i] = True
            if spare == 0:
                return False
    return int(odd.sum()) <= spare


def tiles(outer: np.ndarray, inner: list[np.ndarray], *, loose: bool = False) -> bool:
    """Whether quads ``inner`` cover most (0.8) of quad ``outer`` the way cards of one deck do
    (:func:`one_deck`). ``loose``: among five or more, a fifth may be of another size or overlap
    (halves and pairs of a grid looked at closer), where the pips or the picture of one large card
    are fewer, or cover less of it."""
    a = np.asarray(outer, np.float64)
    area = float(cv2.contourArea(a.astype(np.float32)))
    if not inner or area <= 0 or not one_deck(inner, len(inner) // 5 if loose else None):
        return False
    # The share of the outer quad covered, drawn at about 100 pixels across.
    x0, y0 = a.min(axis=0)
    step = max(float(np.ptp(a[:, 0])), float(np.ptp(a[:, 1])), 1.0) / 100
    canvas = np.zeros((104, 104), np.uint8)
    cv2.fillConvexPoly(canvas, np.round((a - (x0, y0)) / step).astype(np.int32), 1)
    covered = np.zeros_like(canvas)
    for q in inner:
        cv2.fillConvexPoly(covered, np.round((np.asarray(q, np.float64) - (x0, y0)) / step).astype(np.int32), 1)
    return bool(np.count_nonzero(canvas & covered) >= 0.8 * np.count_nonzero(canvas))


def explained(covered: float, tiled: bool) -> bool:
    """Whether a patch so covered and tiled needs no second look."""
    return tiled and covered >= 0.8


def off_size(quads: list[np.ndarray]) -> int:
    """Whether card quads (look pixels) that explain a patch are of a size the look cannot be sure
    of: -1 too small (a few pixels: a coin, or two cards seen as one), 1 too large (blocks of
    many cards run together, each card-shaped), 0 neither."""
    if not quads:
        return 0
    height = float(np.median([_long_side(q) for q in quads]))
    if height < SURE[0] * TRAINED_HEIGHT:
        return -1
    # One large card explaining its patch is believed (the network finds such cards whole); several
    # side by side may be blocks of cards run together.
    return 1 if height > SURE[1] * TRAINED_HEIGHT and len(quads) > 1 else 0


def look_closer(patch: Patch, quads: list[np.ndarray], scale: float, offset: tuple[int, int],
                frame: tuple[int, int]) -> Look | None:  # fmt: skip
    """Where to look closer at a patch explained by cards of a size the look cannot be sure of
    (:func:`off_size`): where small cards would be the trained size, or large ones twice as large
    (their parts, if they are several cards, near the trained size). None when the frame's own
    pixels are no closer."""
    height = float(np.median([_long_side(q) for q in quads]))
    factor = TRAINED_HEIGHT / height if height < TRAINED_HEIGHT else _CLOSER
    new_scale = min(scale * factor, 1.0)
    if new_scale <= scale * 1.2:
        return None
    ox, oy = offset
    x0, y0, x1, y1 = patch.box
    return Look(crop_box((x0 / scale + ox, y0 / scale + oy, x1 / scale + ox, y1 / scale + oy), new_scale, frame),
                new_scale)


def looks_again(labels: np.ndarray, patch: Patch, quads: list[np.ndarray], scale: float, offset: tuple[int, int],
                frame: tuple[int, int]) -> list[Look]:  # fmt: skip
    """Where to look again at a patch the quads found in it (look pixels) do not explain.

    ``scale`` and ``offset`` place the look in the frame (frame = look / scale + offset);
    ``frame`` is the frame's (height, width).
    """
    x0, y0, x1, y1 = patch.box
    mask = (labels[y0:y1, x0:x1] == patch.label).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    shape = quad_from_blob(contour)
    factors = []
    if shape is not None:  # one card, or two side by side: its height tells the scale
        height = _long_side(shape[0])
        if height > _TOO_TALL * TRAINED_HEIGHT:
            factors.append(FAR_HEIGHT / height)
        elif height < _TOO_SHORT * TRAINED_HEIGHT:
            factors.append(TRAINED_HEIGHT / height)
        elif not quads:
            # One card at a size the network knows, yet no card was kept in it: a card far larger
            # than the others of its frame (near the camera under a steep tilt) is dropped as
            # several run together. Alone, at the trained size, the cards found are hidden from it.
            factors.append(TRAINED_HEIGHT / height if height > TRAINED_HEIGHT else max(TRAINED_HEIGHT / height, 1.25))
    else:
        # Several cards run together: closer, to where the cards found would be the trained size
        # (none found: the patch's narrow side is at most a card's height).
        heights = [_long_side(q) for q in quads]
        sides = cv2.minAreaRect(contour)[1]
        typical = float(np.median(heights)) if heights else max(min(sides), 1.0)
        factors.append(max(_CLOSER, TRAINED_HEIGHT / typical))
        # Or one large card whose plain middle the network took for table (a pale card on a pale
        # cloth): further, to where the patch would be a card of the trained size.
        extent = max(sides)
        if extent > _TOO_TALL * TRAINED_HEIGHT:
            factors.append(FAR_HEIGHT / extent)
    ox, oy = offset
    box = (x0 / scale + ox, y0 / scale + oy, x1 / scale + ox, y1 / scale + oy)
    out = []
    for factor in factors:
        new_scale = min(scale * factor, 1.0)
        if factor < 1 or new_scale > scale * 1.2:  # closer than the frame's own pixels is no closer
            out.append(Look(crop_box(box, new_scale, frame), new_scale))
    return out


def _long_side(quad: np.ndarray) -> float:
    sides = np.linalg.norm(quad - quad[[1, 2, 3, 0]], axis=1)
    return float(max(sides[0] + sides[2], sides[1] + sides[3]) / 2)
