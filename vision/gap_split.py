"""Two cards taken for one: an outline split where its paper falls apart into several cards.

Two cards lying side by side with a narrow gap between them, seen small (a five-card hand spread
in front of a player at 1280×720, the cards about 80 px tall), run together in the detector's
maps. The pair of two upright cards is as card-shaped as one card lying on its side (2 × 63 mm
by 88 mm against 88 mm by 63 mm), so nothing in the outline's shape tells them apart. The pixels
inside it do: a card's paper runs all round its rim, so whatever it prints (pips, a picture) it
is one piece of paper, while two cards are two pieces with table (or the shadow between them) in
between.

So an outline is straightened (its long side at most :data:`LOOK` pixels) with a margin of
table round it, whose mean colour is the table's there; the paper's colour is that of the
outline's brightest tenth; a pixel is paper when it is much nearer that colour than the table
is. When the paper's outer contours fall into two or more large pieces, each card-shaped and
filling its own rectangle, the rectangles side by side (not overlapping) and together covering
most of the outline, each piece's rectangle is a card. A piece lying in another's hole (the
paper inside a frame printed round a card's middle) is part of that card.

Only outlines much larger than the frame's typical card (:data:`LARGER`; every outline when the
frame has fewer than three) are looked at: a pair run together is about twice a card's area, and
the look costs a few tenths of a millisecond an outline.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.rectify import CARD_ASPECT

LOOK = 160
"""Longest side, in pixels, of the straightened outline (a smaller outline is straightened at its
own size: the pieces' rectangles are the cards' outlines, as sharp as the frame shows them)."""

MARGIN = 0.12
"""The table round an outline, as a share of its short side, straightened with it."""

PAPER = 0.4
"""A pixel is paper when its distance to the paper's colour is under this share of the distance
between the paper's and the table's colours."""

PIECE = 0.15
"""A piece of paper whose outer contour holds this share of the outline's area or more may be a
card of its own."""

FILLED = 0.8
"""A piece is card-like when its outer contour fills at least this share of its rectangle."""

SHAPE = 0.2
"""A piece's rectangle is card-shaped when its short side over its long side is within this share
of a card's."""

COVERED = 0.6
"""The pieces' rectangles together cover at least this share of the outline."""

OVERLAP = 0.1
"""Two pieces whose rectangles share more than this share of the smaller are not two cards."""

LARGER = 1.3
"""An outline is looked at when its area is at least this many times the frame's typical card's
(the median of its outlines)."""


def _straightened(frame: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray, int, int, int]:
    """The outline ``quad`` (4×2, corners in order round it) with a margin round it, straightened:
    (BGR image, the homography from the frame to it, the outline's width and height in it, margin)."""
    q = np.asarray(quad, np.float64)
    width, height = float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0]))
    scale = min(1.0, LOOK / max(width, height, 1.0))
    w, h = max(round(width * scale), 8), max(round(height * scale), 8)
    m = max(round(MARGIN * min(w, h)), 2)
    target = np.array([[m, m], [m + w - 1, m], [m + w - 1, m + h - 1], [m, m + h - 1]], np.float32)
    homography = cv2.getPerspectiveTransform(q.astype(np.float32), target)
    image = cv2.warpPerspective(frame, homography, (w + 2 * m, h + 2 * m), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)  # fmt: skip
    return image, homography, w, h, m


def paper(image: np.ndarray, w: int, h: int, m: int) -> np.ndarray:
    """(h, w) uint8, 1 where the straightened outline (``image``, the outline ``w`` × ``h`` at
    ``m`` from its edges) shows the paper of a card rather than the table round it."""
    ring = np.full(image.shape[:2], 255, np.uint8)
    ring[m : m + h, m : m + w] = 0
    table = np.array(cv2.mean(image, mask=ring)[:3])
    inside = image[m : m + h, m : m + w].reshape(-1, 3).astype(np.int32)
    bright = inside.sum(axis=1)
    k = int(0.9 * (len(bright) - 1))
    colour = inside[bright >= np.partition(bright, k)[k]].mean(axis=0)
    contrast = float(((colour - table) ** 2).sum())
    near = ((inside - colour) ** 2).sum(axis=1) < PAPER * PAPER * contrast
    out: np.ndarray = near.reshape(h, w).astype(np.uint8)
    return out


def _card_shaped(a: float, b: float) -> bool:
    ratio = min(a, b) / max(a, b, 1e-9)
    return abs(ratio - CARD_ASPECT) <= SHAPE * CARD_ASPECT


def pieces(frame: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
    """The cards the outline ``quad`` holds when its paper falls into several card-shaped pieces
    (each a 4×2 outline in frame pixels, corners round it); [] when it is one card (or unclear).
    A piece is taken whole, holes and all (a back's paper is its border round the pattern, a face's
    is round its pips and picture), and a piece lying in another's hole is part of that card."""
    image, homography, w, h, m = _straightened(frame, quad)
    contours, _ = cv2.findContours(paper(image, w, h, m), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < PIECE * w * h:
            continue
        rect = cv2.minAreaRect(contour)
        (_, _), (rw, rh), _ = rect
        if rw * rh <= 0 or area < FILLED * rw * rh or not _card_shaped(rw, rh):
            return []  # a large piece that is no card: not several cards
        found.append(cv2.boxPoints(rect))
    if len(found) < 2 or sum(cv2.contourArea(b) for b in found) < COVERED * w * h or _overlap(found, (w, h)):
        return []
    back = np.linalg.inv(homography)
    return [cv2.perspectiveTransform((box + m)[None].astype(np.float64), back)[0] for box in found]


def _overlap(boxes: list[np.ndarray], size: tuple[int, int]) -> bool:
    """Whether any two of the rectangles overlap by more than :data:`OVERLAP` of the smaller: a
    card printing a frame round its middle has its paper in two pieces, one inside the other."""
    masks = []
    for box in boxes:
        mask = np.zeros((size[1], size[0]), np.uint8)
        cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 1)
        masks.append(mask)
    for i in range(len(masks)):
        for j in range(i + 1, len(masks)):
            shared = int(np.count_nonzero(masks[i] & masks[j]))
            if shared > OVERLAP * min(int(masks[i].sum()), int(masks[j].sum())):
                return True
    return False


def looked_at(quads: np.ndarray) -> np.ndarray:
    """Which outlines (N×4×2) are worth the look: much larger than the frame's typical card (every
    one when there are fewer than three)."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    x, y = quads[..., 0], quads[..., 1]
    areas = 0.5 * np.abs((x * np.roll(y, -1, axis=1)).sum(axis=1) - (y * np.roll(x, -1, axis=1)).sum(axis=1))
    if len(quads) < 3:
        return np.ones(len(quads), bool)
    out: np.ndarray = areas >= LARGER * float(np.median(areas))
    return out
