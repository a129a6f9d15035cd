"""Reading Tock marks on face-down cards: a classical reader for a design we draw ourselves.

The Tock mark (``docs/tock-marks.md``) is a white disc in the middle of the back holding the
suit pip at one of three heights (12, 20, 30 % of the card's height), the ace's pip inside a
black ring. Because the design is exactly known, the reader measures it instead of learning it:

1. **Patch.** The middle of the card is straightened into a square patch (the card's own outline
   gives the scale, so the camera's distance does not matter).
2. **White and ink.** The patch is divided by the brightest near-neutral light around its centre
   (the disc's white), so the room's light and tint drop out; "ink" is what is darker than that.
3. **Pip.** The pip is the ink blob near the centre that white surrounds on every side (the
   search is in :mod:`vision.mark_pips`); its colour (red or black, against the disc's white) and
   its shape, matched against the design's own suit shapes turned every few degrees (a sticker
   can sit at any angle), give the suit.
4. **Size.** Two measurements, each against the design's: the pip's height (from its area and
   the suit's shape) against the card's, and where the disc's white ends round the pip, in pip
   heights (the disc is the pip's half height plus a fixed margin, so a small pip sits in a
   relatively wider disc; the ace's ring ends the white sooner). The second does not depend on
   the card's outline, which the detector may draw 10-30 % too large: the first then only
   needs to tell the large pip from the ace's (1.5 times apart), helped by the ace's ring (on a
   light back, a dark band past the white with lighter back beyond it).
5. **Squeeze.** An outline too long or too wide squeezes the sticker in the patch one way, and a
   squeezed club looks like a spade. The disc is round: where its white ends along the card
   against across it shows the squeeze, and a black pip squeezed by more than 5 % is matched
   again, straightened.

The reference values of every measurement are taken from the design itself (16 marks drawn by
:func:`vision.render.faces.draw_tock_mark` and measured once), so a change of design is followed.
Each decision keeps its margin; the confidence is the product of the margins' calibrated
probabilities, and below ``threshold`` the mark is None ("unsure"). A back with no white disc and
pip in its middle reads ``"plain"``.

This module holds the reader itself (:class:`MarkReader`), cutting the patches, the design's
reference values and templates, dividing by the white and working out ink, white and light (for a
frame's patches at once), measuring each candidate pip (colour, size, where the white ends),
serving the shape matches and deciding; :mod:`vision.mark_pips` holds the patch's geometry, the
search for candidate pips in a patch and the shape vectors they are matched by.

>>> reader = MarkReader()
>>> from vision.render.faces import deck_style, render_back
>>> back = render_back(deck_style(3, "holdout"), "h:large")[:, :, :3]
>>> reading = reader.read_back(back)
>>> reading.mark, reading.confidence > 0.9
('h:large', True)
>>> reader.read_back(render_back(deck_style(3, "holdout"))[:, :, :3]).mark
'plain'
"""

from __future__ import annotations

import functools
import math
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from table.cards import Suit
from table.tock import ALL_MARKS, Mark, SizeClass
from vision.errors import FrameError, VisionError
from vision.frame_check import check_frame
from vision.mark_disc import ring as _ring
from vision.mark_disc import stretch as _stretch
from vision.mark_disc import white_end as _white_end

# Names imported "as" themselves are re-exported: the patch's geometry (public API) and the parts
# of the pip search that tests reach through this module.
from vision.mark_pips import (
    _CENTRE,
    _DISK3,
    _DISK7,
    _NEAR_CENTRE,
    _SHAPE_GRID,
    _XX,
    _YY,
    _normalised_shape,
    _Parts,
    _pip_candidates,
    _quantile,
    _with_stem,
)
from vision.mark_pips import _DISK5 as _DISK5
from vision.mark_pips import _DISK9 as _DISK9
from vision.mark_pips import _MAX_PIP as _MAX_PIP
from vision.mark_pips import PATCH as PATCH
from vision.mark_pips import PX_PER_HEIGHT as PX_PER_HEIGHT
from vision.mark_pips import SPAN as SPAN
from vision.mark_pips import _central_blob as _central_blob
from vision.mark_pips import _components as _components
from vision.rectify import CARD_ASPECT, Pyramid, card_homography, order_corners
from vision.render.faces import FACE_H, TOCK_HEIGHTS, draw_tock_mark
from vision.render.suits import SuitShape, suit_mask

PLAIN = "plain"
"""The reading of an unmarked back."""


class MarkReaderError(VisionError, ValueError):
    """A setting the mark reader refuses."""


_PLAINLY_A_SUIT = 0.97  # a shape correlation that ends the search for the pip
_ROTATIONS = 72  # templates every 5 degrees
_RAYS = 64  # rays cast from the pip to find the disc's edge


@dataclass(frozen=True)
class MarkReading:
    """What one back says.

    ``mark`` is ``"h:large"``, ``"s:ace"``..., ``"plain"`` for an unmarked back, or None when the
    reader is not sure; ``guess`` is its best guess anyway; ``confidence`` the probability that
    the guess is right (calibrated on rendered backs).
    """

    mark: str | None
    guess: str
    confidence: float


@dataclass(frozen=True)
class MarkFeatures:
    """The measurements of one patch (for tuning and tests); zeros where nothing was found."""

    found: bool  # a pip surrounded by white near the middle
    red: float  # redness of the pip against the disc's white, relative to its contrast (~0.75 red, ~0 black)
    suit_scores: tuple[float, float, float, float]  # shape match per suit (clubs, diamonds, hearts, spades);
    # only the two suits of the pip's colour are matched, the other two are 0
    height: float  # the pip's height as a fraction of the card's height (from its area)
    white_end: float  # where the white around the pip ends, in pip heights from the disc's centre
    contrast: float  # how much darker it is past that point than on the disc (0..1)
    white_level: float  # brightness of the reference white (0..255)
    white_middle: float = 0.0  # share of white within 0.1 card heights of the middle, less that beyond 0.22
    ring: float = 0.0  # past the white's end, how much lighter it gets again after its darkest (the ace's ring)

    @property
    def shape_score(self) -> float:
        """How well the pip fits the better suit of its colour."""
        pair = (Suit.HEARTS, Suit.DIAMONDS) if self.red > _RED_CUT else (Suit.SPADES, Suit.CLUBS)
        return max(self.suit_scores[s] for s in pair)


# ---------------------------------------------------------------------------------- geometry
def card_region(pyramid: Pyramid, corners: np.ndarray, box: tuple[float, float, float, float],
                size: tuple[int, int]) -> np.ndarray:  # fmt: skip
    """The ``box`` (u0, v0, u1, v1 in unit card coordinates, upright) of a card straightened into
    ``size`` (width, height) pixels, sampled from the pyramid level nearest its scale."""
    region: np.ndarray = card_regions(pyramid, [corners], box, size)[0]
    return region


def card_regions(pyramid: Pyramid, cards: Sequence[np.ndarray], box: tuple[float, float, float, float],
                 size: tuple[int, int], *, ordered: bool = False) -> np.ndarray:  # fmt: skip
    """:func:`card_region` of each card (4×2 corners): (N, height, width, 3), the maps made for
    all cards at once. ``ordered``: the corners are already in :func:`order_corners`' order (as
    the card reader's observations are), so they are not ordered again (it gives them back as
    they are)."""
    u0, v0, u1, v1 = box
    w, h = size
    if not len(cards):
        return np.empty((0, h, w, 3), np.uint8)
    homographies = np.stack([card_homography(c if ordered else order_corners(np.asarray(c))) for c in cards])
    # Output pixel (i, j) has its centre at (i + 0.5, j + 0.5).
    step_u, step_v = (u1 - u0) / w, (v1 - v0) / h
    to_unit = np.array([[step_u, 0, u0 + step_u / 2], [0, step_v, v0 + step_v / 2], [0, 0, 1]])
    to_frames = homographies @ to_unit
    top, bottom = to_frames @ np.array([w / 2, 0, 1.0]), to_frames @ np.array([w / 2, h, 1.0])
    step = bottom[:, :2] / bottom[:, 2:] - top[:, :2] / top[:, 2:]
    return np.stack(pyramid.warp_many(to_frames, (np.hypot(step[:, 0], step[:, 1]) / h).tolist(), size))


def centre_patch(frame: np.ndarray, corners: np.ndarray, *, pyramid: Pyramid | None = None) -> np.ndarray:
    """The middle of a card straightened into a PATCH × PATCH BGR square (SPAN of its height)."""
    return card_region(pyramid or Pyramid(frame), corners, CENTRE_BOX, (PATCH, PATCH))


CENTRE_BOX = (0.5 - SPAN / CARD_ASPECT / 2, 0.5 - SPAN / 2, 0.5 + SPAN / CARD_ASPECT / 2, 0.5 + SPAN / 2)
"""The middle of an upright card where a mark sits (x0, y0, x1, y1 as fractions of the card)."""


# ---------------------------------------------------------------------------------- design
@functools.cache
def _design() -> _Design:
    return _Design.measure()


@dataclass(frozen=True)
class _Design:
    """The Tock design measured once: suit templates and the reference value of each feature."""

    templates: np.ndarray  # (4, _ROTATIONS, grid²) unit vectors
    offsets: np.ndarray  # (4, _ROTATIONS, 2) pip centroid → disc centre, in pip heights
    area_per_height2: tuple[float, float, float, float]  # pip area / pip height², per suit
    heights: dict[str, float]  # size class → pip height / card height
    white_end: dict[str, float]  # size class → where the white ends, in pip heights, as measured

    @functools.cached_property
    def colour_templates(self) -> tuple[np.ndarray, np.ndarray]:
        """The templates of the black suits (spades, clubs) and of the red ones (hearts,
        diamonds), each (2, _ROTATIONS, grid²) and contiguous: a pip is matched to its colour's."""
        black = np.ascontiguousarray(self.templates[[Suit.SPADES, Suit.CLUBS]])
        red = np.ascontiguousarray(self.templates[[Suit.HEARTS, Suit.DIAMONDS]])
        return black, red

    @staticmethod
    def measure() -> _Design:
        shape = SuitShape()
        templates = np.zeros((4, _ROTATIONS, _SHAPE_GRID * _SHAPE_GRID), np.float32)
        offsets = np.zeros((4, _ROTATIONS, 2), np.float64)
        ratios = []
        for suit in Suit:
            big = suit_mask(shape, suit, 240)
            ratios.append(float(big.sum() / big.shape[0] ** 2))
            padded = cv2.copyMakeBorder(big, 80, 80, 80, 80, cv2.BORDER_CONSTANT, value=0)
            moments = cv2.moments(padded)
            centroid = np.array([moments["m10"], moments["m01"]]) / moments["m00"]
            box_centre = np.array([80 + (big.shape[1] - 1) / 2, 80 + (big.shape[0] - 1) / 2])
            offset = (box_centre - centroid) / big.shape[0]
            for k in range(_ROTATIONS):
                angle = 360.0 * k / _ROTATIONS
                templates[suit, k] = _normalised_shape(padded, angle)
                turn = cv2.getRotationMatrix2D((0.0, 0.0), angle, 1.0)[:, :2]
                offsets[suit, k] = turn @ offset
        heights = {size: TOCK_HEIGHTS[size] for size in ("small", "medium", "large", "ace")}
        partial = _Design(templates, offsets, (ratios[0], ratios[1], ratios[2], ratios[3]), heights, {})
        # Where the white ends for each size (the disc's edge; the ace's ring), as the reader
        # measures it on a clean card with a dark back.
        ends: dict[str, list[float]] = {}
        for mark in ALL_MARKS:
            canvas = np.full((FACE_H, round(FACE_H * CARD_ASPECT), 3), 60.0, np.float32)
            draw_tock_mark(canvas, str(mark))
            image = np.clip(canvas, 0, 255).astype(np.uint8)
            features = _measure(centre_patch(image, _card_box(image)), partial)
            ends.setdefault(mark.size.value, []).append(features.white_end)
        return _Design(templates, offsets, partial.area_per_height2, heights,
                       {k: float(np.mean(v)) for k, v in ends.items()})  # fmt: skip


def _card_box(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) - 0.5


# ---------------------------------------------------------------------------------- measuring
_NEAR_INDEX = np.flatnonzero(_NEAR_CENTRE)
_MIDDLE_INDEX = np.flatnonzero(((_XX - _CENTRE) ** 2 + (_YY - _CENTRE) ** 2) <= (0.1 * PX_PER_HEIGHT) ** 2)
_OUTSIDE_INDEX = np.flatnonzero(((_XX - _CENTRE) ** 2 + (_YY - _CENTRE) ** 2) >= (0.22 * PX_PER_HEIGHT) ** 2)


def _byte_quantile(values: np.ndarray, q: float) -> np.ndarray:
    """``_quantile(values[i].astype(np.float32), q)`` for each i of (N, M, C) uint8 values, by
    counting (exact: the values are bytes): (N, C) float32."""
    n, m, c = values.shape
    k = min(max(round(q * (m - 1)), 0), m - 1)
    rows = np.arange(n * c).reshape(n, 1, c) * 256  # every (image, channel) its own 256 bins
    counts = np.bincount((values + rows).reshape(-1), minlength=n * c * 256).reshape(n, c, 256)
    # The k-th smallest value (from 0) is the first whose running count passes k.
    out: np.ndarray = (counts.cumsum(axis=2) > k).argmax(axis=2).astype(np.float32)
    return out


def _median(values: np.ndarray) -> float:
    """np.median of a 1-D float32 array, to the last bit, without its overhead."""
    n = len(values)
    k = n // 2
    if n % 2:
        return float(np.partition(values, k)[k])
    return float(np.mean(np.partition(values, (k - 1, k))[k - 1 : k + 1]))


def _nothing(white_level: float, white_middle: float = 0.0) -> MarkFeatures:
    return MarkFeatures(False, 0.0, (0.0, 0.0, 0.0, 0.0), 0.0, 0.0, 0.0, white_level, white_middle)


def _measure(patch: np.ndarray, design: _Design) -> MarkFeatures:
    """Every measurement of one centre patch (see the module docstring)."""
    return _measure_many(patch[None], design)[0]


def _measure_many(patches: np.ndarray, design: _Design) -> list[MarkFeatures]:
    """Every measurement of each centre patch of an (N, PATCH, PATCH, 3) stack.

    The per-pixel normalisation is done for the whole stack at once; the pip search, which
    branches on what it finds, card by card, except that the shape matches the cards wait for
    are served together, a colour at a time: the templates of a colour (about 1 MB) are then read
    from memory once and stay in cache for the next pip (the same products, in another order).
    """
    n = len(patches)
    # Colour planes apart (N, 3, pixels): numpy's loops then run along whole planes.
    pixels = np.ascontiguousarray(patches.reshape(n, PATCH * PATCH, 3).transpose(0, 2, 1), np.float32)
    reference = _byte_quantile(patches.reshape(n, PATCH * PATCH, 3)[:, _NEAR_INDEX], 0.95)  # (N, 3)
    norm = pixels / np.maximum(reference, 4.0)[:, :, None]
    b, g, r = norm[:, 0], norm[:, 1], norm[:, 2]
    lows = np.minimum(np.minimum(b, g), r)
    chromas = np.maximum(np.maximum(b, g), r) - lows
    rednesses = r - np.maximum(b, g)
    darkests = _quantile(lows[:, _NEAR_INDEX], 0.02, axis=1)
    white_levels = reference.mean(axis=1)
    # Ink is what lies nearer the darkest than the white: glare on a pip lifts both. (The cuts
    # are worked out in float64 and compared in float32, as Python floats against float32 are.)
    cuts = (1.0 + darkests.astype(np.float64)) / 2
    neutral = chromas < 0.35
    inks = lows < cuts.astype(np.float32)[:, None]
    whites = (lows > ((1.0 + cuts) / 2).astype(np.float32)[:, None]) & neutral
    # Round a pip, blur leaves a band that is lighter than ink but not yet white: "light" counts.
    lights = (lows > (cuts + (1.0 - cuts) / 4).astype(np.float32)[:, None]) & neutral
    # White in the middle and not round it: a sticker's disc (kept for when no pip is found).
    white_middles = (np.count_nonzero(whites[:, _MIDDLE_INDEX], axis=1) / len(_MIDDLE_INDEX)
                     - np.count_nonzero(whites[:, _OUTSIDE_INDEX], axis=1) / len(_OUTSIDE_INDEX))  # fmt: skip
    out: list[MarkFeatures] = []
    waiting: dict[int, tuple[_Search, _Match]] = {}
    for i in range(n):
        white_level = float(white_levels[i])
        out.append(_nothing(white_level))
        if white_level < 12 or float(darkests[i]) > 0.8:
            continue
        planes = (lows, chromas, rednesses, inks, whites, lights)
        low, chroma, redness, ink, white, light = (a[i].reshape(PATCH, PATCH) for a in planes)
        search = _measure_normalised(low, chroma, redness, ink, white, light, float(white_middles[i]), white_level,
                                     design)  # fmt: skip
        _advance(i, search, None, out, waiting)
    while waiting:
        queue = sorted(waiting.items(), key=lambda item: item[1][1][0])  # black pips, then red ones
        served = [(i, search, design.colour_templates[colour] @ shape) for i, (search, (colour, shape)) in queue]
        waiting.clear()
        for i, search, scores in served:
            _advance(i, search, scores, out, waiting)
    return out


_Match = tuple[int, np.ndarray]  # a shape match a pip waits for: colour (0 black, 1 red), shape vector
_Search = Generator[_Match, np.ndarray, MarkFeatures]  # a patch's measurement, waiting for its matches


def _advance(i: int, search: _Search, scores: np.ndarray | None, out: list[MarkFeatures],
             waiting: dict[int, tuple[_Search, _Match]]) -> None:  # fmt: skip
    """Run card ``i``'s measurement on (with the ``scores`` it waited for) to its next wait or end."""
    try:
        match = next(search) if scores is None else search.send(scores)
    except StopIteration as done:
        out[i] = done.value
    else:
        waiting[i] = (search, match)


def _measure_normalised(low: np.ndarray, chroma: np.ndarray, redness: np.ndarray, ink: np.ndarray,
                        white: np.ndarray, light: np.ndarray, white_middle: float, white_level: float,
                        design: _Design) -> _Search:  # fmt: skip
    """The pip search and measurements of one patch divided by its white, with its ink, white
    and light pixels (see _measure_many); yields the shape matches it needs, is sent their scores."""
    # Each way of finding the pip is tried in turn; the first whose shape is plainly a suit
    # wins, else the best-shaped one (a pip merged with a bit of the back still looks like a suit,
    # only less so).
    best: MarkFeatures | None = None
    for blob, within, ink_parts in _pip_candidates(ink, white, light, redness, chroma, design):
        features = yield from _measure_pip(blob, within, ink, low, redness, design, white_level, white_middle,
                                           ink_parts, chroma)  # fmt: skip
        if best is None or features.shape_score > best.shape_score:
            best = features
        if features.shape_score >= _PLAINLY_A_SUIT:
            break
    return best if best is not None else _nothing(white_level, white_middle)


def _measure_pip(blob: np.ndarray, within: np.ndarray, ink: np.ndarray, low: np.ndarray, redness: np.ndarray,
                 design: _Design, white_level: float, white_middle: float,
                 ink_parts: _Parts | None = None, chroma: np.ndarray | None = None) -> _Search:  # fmt: skip
    """The measurements of one pip found in a patch (``ink_parts``: the components of
    ``ink & within`` when already known; ``chroma``: to look for the ace's ring); yields its
    shape match, is sent the scores."""
    core = cv2.erode(blob, _DISK3) > 0
    if core.sum() < 4:
        core = blob > 0
    ink_low = float(_quantile(low[core], 0.75))  # the light side of the pip: shading must not shrink it
    contrast_ink = max(1.0 - ink_low, 0.15)
    red = _median(redness[core]) / contrast_ink
    if red <= _RED_CUT:  # only spades and clubs have stems
        blob = _with_stem(blob, ink & within, ink_parts)
    region = (cv2.dilate(blob, _DISK7) > 0) & within
    soft = np.where(region, np.clip((1.0 - low) / contrast_ink, 0.0, 1.0), 0.0).astype(np.float32)
    # Only the suits of the pip's colour are ever compared (see _decide): the other two are
    # not matched (half the work; their scores stay 0).
    pair = (Suit.HEARTS, Suit.DIAMONDS) if red > _RED_CUT else (Suit.SPADES, Suit.CLUBS)
    scores = np.zeros((4, _ROTATIONS), np.float32)
    scores[list(pair)] = yield int(red > _RED_CUT), _normalised_shape(soft)  # (2, rotations)
    suit_scores = scores.max(axis=1)
    # The suit whose outline places the disc's centre: the better of the pip's colour.
    suit = int(max(pair, key=lambda s: suit_scores[s]))
    turn = int(np.argmax(scores[suit]))
    area = float(soft.sum())
    height_px = math.sqrt(area / design.area_per_height2[suit])
    moments = cv2.moments(soft)
    centroid = np.array([moments["m10"], moments["m01"]]) / moments["m00"]
    centre = centroid + design.offsets[suit, turn] * height_px
    white_end, contrast = _white_end(low, soft, centre, height_px)
    close = abs(float(suit_scores[Suit.SPADES] - suit_scores[Suit.CLUBS])) < _SQUEEZE_LOOK
    if red <= _RED_CUT and contrast >= 0.2 and close:
        # A club and a spade differ little, and an outline too long or too wide bends the pip's
        # shape: the round disc shows by how much; the pip is matched again, straightened.
        squeeze = _stretch(low, soft, centre, height_px)
        if abs(math.log(squeeze)) > _UNSQUEEZE:
            fixed = cv2.resize(soft, (PATCH, max(round(PATCH / squeeze), 1)), interpolation=cv2.INTER_LINEAR)
            scores[list(pair)] = yield 0, _normalised_shape(fixed)
            suit_scores = scores.max(axis=1)
    # Only a white that ends about where the ace's ring is can be the ace's: look for the ring then.
    # The ring is dark in every channel, a coloured back is not (its darkest channel may be).
    look = contrast >= 0.2 and white_end < _RING_LOOK and height_px < _RING_HEIGHT * PX_PER_HEIGHT
    ring = _ring(low + chroma, soft, centre, height_px) if look and chroma is not None else 0.0
    return MarkFeatures(True, red, (float(suit_scores[0]), float(suit_scores[1]), float(suit_scores[2]),
                                    float(suit_scores[3])), height_px / PX_PER_HEIGHT, white_end, contrast,
                        white_level, white_middle, ring)  # fmt: skip


_RING_LOOK = 0.68  # pip heights: a white ending further out is a medium's or a small's disc
_RING_HEIGHT = 0.27  # card heights: a pip taller than this is a large one's, outline too large or not
_UNSQUEEZE = 0.05  # log of the disc's squeeze past which a black pip is matched again, straightened
_SQUEEZE_LOOK = 0.012  # a club/spade margin past this is plain whatever the squeeze (squeezed: under 0.006)


# ---------------------------------------------------------------------------------- deciding
class MarkReader:
    """Reads the Tock mark of face-down cards (see the module docstring).

    ``threshold``: below this confidence the mark is None ("unsure").
    """

    def __init__(self, *, threshold: float = 0.9) -> None:
        if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not 0.0 < threshold < 1.0:
            raise MarkReaderError(f"mark threshold must be a number between 0 and 1 (exclusive), got {threshold!r}")
        self.threshold = threshold
        self._design = _design()

    def features(self, patch: np.ndarray) -> MarkFeatures:
        """The measurements of one centre patch (PATCH × PATCH BGR uint8)."""
        if patch.shape != (PATCH, PATCH, 3):
            raise FrameError(f"a centre patch must be {PATCH}×{PATCH}×3 BGR, got shape {patch.shape}")
        return _measure(patch, self._design)

    def decide(self, features: MarkFeatures) -> MarkReading:
        """A reading from measurements."""
        return _decide(features, self._design, self.threshold)

    def read(
        self, frame: np.ndarray, cards: Sequence[np.ndarray], *, pyramid: Pyramid | None = None, ordered: bool = False
    ) -> list[MarkReading]:
        """The mark of each card (4×2 corners in ``frame``) of a BGR frame (``ordered``: see
        :func:`card_regions`)."""
        frame = check_frame(frame)
        if not len(cards):
            return []
        pyramid = pyramid or Pyramid(frame)
        patches = card_regions(pyramid, cards, CENTRE_BOX, (PATCH, PATCH), ordered=ordered)
        return [self.decide(features) for features in _measure_many(patches, self._design)]

    def read_back(self, rectified: Any) -> MarkReading:
        """The mark of one card already straightened (its back, upright or on its side)."""
        image = check_frame(rectified, what="rectified card")
        h, w = image.shape[:2]
        if min(h, w) < 16:
            raise FrameError(f"rectified card is too small ({w}×{h} pixels); give at least 16 pixels a side")
        return self.read(image, [_card_box(image)])[0]


def _sure(z: float) -> float:
    """The logistic of a margin measured in its own scale (0.5 on the boundary)."""
    return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))


# Scales of each margin (how far past its boundary a measurement must be to count as sure),
# set from the spread of the measurements on rendered backs of the training deck styles.
_RED_CUT, _RED_SCALE = 0.3, 0.04  # redness: red marks 0.63..1.1, black ones -0.06..0.05
_SHAPE_CUT, _SHAPE_STEP = 0.93, 0.01  # best shape correlation of a real pip: 0.97..1.0
_SUIT_SCALE = 0.0015  # in-colour margin: clubs/spades 0.006..0.03, hearts/diamonds 0.03..0.1
_WHITE_MIDDLE = 0.3  # more white in the middle than round it: "no pip found" is not "plain"
# The size is judged on two measurements. The pip's height against the card's depends on the
# card's outline, which the detector may draw 10-30 % too large or small (a blurred edge, a
# neighbour's shadow); where the disc's white ends, in pip heights, does not (the sticker's disc
# is the pip's half height plus a fixed margin: 0.86, 0.71, 0.64 of the pip for small, medium,
# large; the ace's ring ends it at 0.62).
_OUTLINE_SPREAD = 0.12  # log of how far off a card's outline may be (its scale), one sigma
_SIZE_FIT = 0.45  # a pip's log height further than this from every class's: not sure what it is
_END_SPREAD = (0.08, 0.008)  # spread of the white's end: this share of (end - 0.5), plus this
_END_FIT = 4.0  # a white's end further than this many spreads from its class's: not sure
_NO_RING = math.log(0.05)  # no edge round the pip at all: the ace's ring would have shown
# A ring seen (lighter again past the darkest, in the brightest channel): 87-100 % of aces on
# rendered tuning backs, under 1 % of large pips; the odds used are milder (20 and 0.2).
_RING_CUT, _RING_SCALE, _RING_SEEN, _RING_UNSEEN = 0.15, 0.03, math.log(20.0), math.log(0.2)


def _size_scores(f: MarkFeatures, design: _Design) -> tuple[dict[str, float], bool]:
    """Log-likelihood of each size class from the pip's height and the white's end, and whether
    the measurements fit the best class at all."""
    log_h = math.log(max(f.height, 1e-4))
    edge = f.contrast >= 0.2  # an edge past the pip: the disc's, or the ace's ring
    scores, fits = {}, {}
    for size, height in design.heights.items():
        off = (log_h - math.log(height)) / _OUTLINE_SPREAD
        score, fit = -0.5 * off * off, abs(off) * _OUTLINE_SPREAD <= _SIZE_FIT
        if edge:
            end = design.white_end[size]
            miss = (f.white_end - end) / (_END_SPREAD[0] * (end - 0.5) + _END_SPREAD[1])
            score -= 0.5 * miss * miss
            fit = fit and abs(miss) <= _END_FIT
        elif size == "ace":
            score += _NO_RING
        if size == "ace" and edge:
            seen = _sure((f.ring - _RING_CUT) / _RING_SCALE)
            score += seen * _RING_SEEN + (1 - seen) * _RING_UNSEEN
        scores[size], fits[size] = score, fit
    return scores, fits[max(scores, key=lambda size: scores[size])]


def _decide(f: MarkFeatures, design: _Design, threshold: float) -> MarkReading:
    """Combine the measurements: colour, then suit by shape, then size (small, medium, large, ace).

    The colour is never in doubt on a real pip (red 0.63..1.1, black -0.06..0.05), so the shape
    only chooses within it: a black spade may well fit a heart's outline better than a club's.
    A pip whose shape is a suit's is never read "plain", whatever its size: at worst unsure.
    """
    if not f.found:
        # No pip; but white in the middle may be a sticker the reader could not make out.
        if f.white_middle > _WHITE_MIDDLE:
            return MarkReading(None, PLAIN, 0.5)
        return MarkReading(PLAIN, PLAIN, 0.99)
    red = f.red > _RED_CUT
    p_colour = _sure(abs(f.red - _RED_CUT) / _RED_SCALE)
    pair = (Suit.HEARTS, Suit.DIAMONDS) if red else (Suit.SPADES, Suit.CLUBS)
    first, second = sorted(pair, key=lambda suit: -f.suit_scores[suit])
    score = f.suit_scores[first]
    p_shape = _sure((score - _SHAPE_CUT) / _SHAPE_STEP)
    p_suit = _sure((score - f.suit_scores[second]) / _SUIT_SCALE)
    if p_shape < 0.5:
        return MarkReading(PLAIN if p_shape < 0.1 else None, PLAIN, 1.0 - p_shape)
    scores, fits = _size_scores(f, design)
    size = max(scores, key=lambda s: scores[s])
    top = scores[size]
    p_size = 1.0 / sum(math.exp(max(v - top, -60.0)) for v in scores.values())
    mark = str(Mark(first, SizeClass(size)))
    confidence = p_colour * p_shape * p_suit * p_size * (1.0 if fits else 0.5)
    return MarkReading(mark if confidence >= threshold else None, mark, confidence)
