"""Cards told by their paper, for the frames where the cloth defeats the learned detector.

On checked, striped and some patterned cloths the learned detector (:mod:`vision.segment`) takes
most of the frame for card: its small copy of the frame turns a pattern of a card's own size into
something card-like everywhere, and the cards on it are lost in it (a table on checked cloth under
a tilted camera: one of seven cards found). Such a frame shows itself: the network calls most of it
card, yet the outlines it gives explain little of that (:func:`cloth_taken_for_card`). A dense
grid of cards also covers most of a frame, but its outlines explain it; a table of ordinary cards
never comes near.

There the cards are sought by their paper (:class:`Paper`, :func:`vision.detect.find_cards`). A
card's face is printed on card stock, the most neutral of the light things on a table, and as
light as the lightest: a cloth's pale squares or stripes are tinted, and its dark ones dark. Where
the paper is, whole and card-shaped, a card may lie; it is kept if it shows a face (a margin of
paper round some print, a card's proportions), and such an outline is never reported as a back
(:mod:`vision.evidence`, rule 7): on such a cloth a "back" is mostly a stretch of the cloth. The
thresholds are relative to the frame's own lightest pixels, so they follow the exposure and the
room's light as long as the paper is near the top of what the frame shows (a card in a deep
shadow beside a lit one is not found this way). Backs on such a cloth are not sought.
"""

from __future__ import annotations

import cv2
import numpy as np

PAPER_WIDTH = 640
"""The paper is sought on a copy of the frame this wide (cards 40 px tall at 2304×1296 stay 11 px)."""

LIGHTEST = 0.995
"""The frame's lightest pixels: this quantile of its lightness (L*) (a few glints above it do not count)."""

BELOW_LIGHTEST = 15.0
"""Paper is at most this far below the frame's lightest (L*, 0-100)."""

NEUTRAL = 10.0
"""Paper's chroma (the distance from grey in a*, b*) is at most this: a pale cloth is tinted more."""

SQUAREST = 0.85
"""On such a cloth an outline whose short sides are more than this share of its long ones is no card."""

PRINT_SPREAD = 12.0
"""Grey levels' standard deviation inside a face at least (a blank square of cloth: its noise)."""

FACE_SIZE = (40, 56)
"""An outline is straightened to this size (width, height) to be judged a face."""

MARGIN = 4
"""A face's margin: the outer pixels of the straightened card (its rim's own pixel left out)."""

FACE_PAPER = 0.6
"""A face is paper over at least this share of its margin (its index the rest)."""

SOLID = 0.6
"""A patch of paper covering this share of its convex hull is taken as its hull (one card's)."""

_SMOOTH = 1.0  # σ, in pixels of the image measured, of the smoothing before it is

CLOTH_SHARE = 0.6
"""The first look calls at least this share of the frame card ..."""

CLOTH_EXPLAINED = 0.3
"""... and the outlines found cover less than this share of those card pixels: the cloth was
taken for card. (Hard hold-out tables on checked and striped cloth: 0.71-0.96 of the frame card,
0-0.15 explained; grids of 52: up to 0.67, explained 0.87-1.0; real close-ups up to 0.48.)"""


def cloth_taken_for_card(card: np.ndarray, covered: float) -> bool:
    """Whether a frame's cloth was taken for card: ``card`` the first look's card probabilities,
    ``covered`` the share of the frame the outlines found cover."""
    share = float(np.count_nonzero(card > 0.5)) / max(card.size, 1)
    return share >= CLOTH_SHARE and covered < CLOTH_EXPLAINED * share


class Paper:
    """Where a frame shows card paper, seen on a copy of it :data:`PAPER_WIDTH` wide."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame
        h, w = frame.shape[:2]
        self.scale = min(1.0, PAPER_WIDTH / w)
        size = (max(round(w * self.scale), 1), max(round(h * self.scale), 1))
        self.small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA) if self.scale < 1.0 else frame
        light, chroma = _light_and_chroma(self.small)
        self.top = float(np.quantile(light, LIGHTEST))
        """The frame's lightest (L*)."""
        self.pixels = np.where((light > self.top - BELOW_LIGHTEST) & (chroma < NEUTRAL), 255, 0).astype(np.uint8)
        """Light and neutral pixels (uint8, 255), as they are."""

    def mask(self) -> np.ndarray:
        """The patches of paper as cards make them (uint8, 255): specks opened away, frayed rims
        closed, and the print inside a card (pips, index, picture) filled."""
        closed = cv2.morphologyEx(self.pixels, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        # A lit cloth's palest squares reach paper's colour here and there: specks, not shapes.
        opened = cv2.morphologyEx(closed, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        # A card is convex: its print (an index at the rim, a picture's frame close to it) may bite
        # into its paper's outline, and a patch of paper most of its hull is taken whole. Several
        # cards touching in an L are not: they keep their outline, for the detector to split.
        shapes = []
        for contour in contours:
            hull = cv2.convexHull(contour)
            shapes.append(hull if cv2.contourArea(contour) >= SOLID * cv2.contourArea(hull) else contour)
        filled: np.ndarray = cv2.drawContours(np.zeros_like(opened), shapes, -1, 255, -1)
        return filled

    def face(self, quad: np.ndarray) -> bool:
        """Whether an outline (4×2 frame pixels) found on such a cloth shows a card's face: a card's
        proportions (a cloth's square is not one; a card foreshortened to a square is lost with
        it), a margin of paper round its print (every face has one, a court card's picture inside
        it; a stretch of cloth taken for card has not), and print (a blank square of pale cloth has
        none). Judged on the outline straightened to :data:`FACE_SIZE` from the frame itself,
        whatever the card's size in it."""
        quad = np.asarray(quad, np.float32)
        sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
        a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
        if min(a, b) > SQUAREST * max(a, b):
            return False
        if a > b:  # straightened upright, the long sides vertical
            quad = np.roll(quad, -1, axis=0)
        w, h = FACE_SIZE
        target = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        matrix = cv2.getPerspectiveTransform(quad, target)
        card = cv2.warpPerspective(self.frame, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        light, chroma = _light_and_chroma(card)
        paper = (light > self.top - BELOW_LIGHTEST) & (chroma < NEUTRAL)
        m = MARGIN
        grey = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)[m : h - m, m : w - m]
        return float(paper[_MARGIN_MASK].mean()) >= FACE_PAPER and float(grey.std()) >= PRINT_SPREAD


def _margin_mask() -> np.ndarray:
    """The straightened face's margin (:data:`FACE_SIZE`, :data:`MARGIN`), its outermost pixel left
    out: the rim itself, which the outline may miss by a pixel."""
    w, h = FACE_SIZE
    m = MARGIN
    margin = np.ones((h, w), bool)
    margin[m : h - m, m : w - m] = False
    margin[:1, :] = margin[-1:, :] = False
    margin[:, :1] = margin[:, -1:] = False
    return margin


_MARGIN_MASK = _margin_mask()


def _light_and_chroma(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """L* (0-100) and chroma of a BGR image, lightly smoothed first (a sensor's or a renderer's noise
    scatters paper's chroma about the bound)."""
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), _SMOOTH), cv2.COLOR_BGR2Lab)
    light = lab[..., 0].astype(np.float32) * (100 / 255)
    chroma = np.hypot(lab[..., 1].astype(np.float32) - 128, lab[..., 2].astype(np.float32) - 128)
    return light, chroma
