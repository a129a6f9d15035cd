"""From the learned segmenter's maps to card outlines (work pixels): quads, halves, strays, sizes.

:func:`segmented` is the learned path of :func:`vision.detect.find_cards`: each instance of
:func:`vision.segment.instances` becomes a quad with its sides fitted as lines, a card partly
hidden is grown into the covered side, and the fact that all cards of a deck are one size is
used to join halves, give stray cores back and drop cards run together.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.quads import card_shaped, intersect, quad_from_blob
from vision.rectify import CARD_ASPECT
from vision.segment import CardSegmenter, instances

_OVERSIZE = 1.45  # an outline more than this many times the frame's typical card's area is dropped


def segmented(segmenter: CardSegmenter, small: np.ndarray, min_area: float) -> list[tuple[np.ndarray, float, bool]]:
    """Rough quads (work pixels) of the cards the learned segmenter separates.

    The cards of one deck are all the same size: a "card" well inside a card more than twice its
    area is a stray core (a court card's busy picture), and its pixels go back to the card around it.
    """
    settings = segmenter.settings
    card, core = segmenter.probabilities(small)
    cards = card > settings.card_threshold
    for _ in range(2):
        found, masks = [], []
        for mask in instances(card, core, card_threshold=settings.card_threshold,
                              core_threshold=settings.core_threshold, min_area=min_area):  # fmt: skip
            found.append(_quad_of_instance(mask, cards))
            masks.append(mask)
        stray = _inside_larger([quad for quad, _, _ in found], [partial for _, _, partial in found])
        if not stray:
            break
        core = core.copy()
        for i in stray:
            core[masks[i] > 0] = 0.0
    # Noise or a busy cloth can look like one card filling the frame: no card covers most of it.
    frame_area = float(cards.shape[0] * cards.shape[1])
    keep = [k for k, (quad, _, _) in enumerate(found) if cv2.contourArea(quad.astype(np.float32)) <= 0.6 * frame_area]
    found, masks = [found[k] for k in keep], [masks[k] for k in keep]
    if len(found) < 3:  # too few cards to know the typical size
        return found
    # The cards of one deck are one size. The typical card is measured high in the range of sizes
    # (halves of split cards must not set it). Two neighbours that are each much smaller than it and
    # together make one card-shaped card of its size are one card split in two (a sticker or a big
    # pip in its middle); an outline far bigger than it is several cards run together (or cloth
    # taken for card): better unseen than read wrong.
    areas = [cv2.contourArea(q.astype(np.float32)) for q, _, _ in found]
    typical = float(np.percentile(areas, 75))
    found, masks, areas = _join_halves(found, masks, areas, typical, cards)
    # What is still far smaller than a card shows only part of one, whatever its shape.
    kept = [(f, area) for f, area in zip(found, areas, strict=True) if area <= _OVERSIZE * typical]
    return [(quad, fit, partial or area < 0.7 * typical) for (quad, fit, partial), area in kept]


def _join_halves(found: list[tuple[np.ndarray, float, bool]], masks: list[np.ndarray], areas: list[float],
                 typical: float, cards: np.ndarray
                 ) -> tuple[list[tuple[np.ndarray, float, bool]], list[np.ndarray], list[float]]:  # fmt: skip
    small = [i for i, area in enumerate(areas) if area < 0.8 * typical]
    grown = [cv2.dilate(masks[i], np.ones((3, 3), np.uint8)) for i in small]
    joined: set[int] = set()
    for a_pos, i in enumerate(small):
        for b_pos in range(a_pos + 1, len(small)):
            j = small[b_pos]
            if i in joined or j in joined or not (grown[a_pos] & masks[j]).any():
                continue
            if not 0.75 * typical <= areas[i] + areas[j] <= 1.3 * typical:
                continue
            union = masks[i] | masks[j]
            quad, fit, partial = _quad_of_instance(union, cards)
            area = cv2.contourArea(quad.astype(np.float32))
            if partial or not 0.8 * typical <= area <= 1.3 * typical:
                continue
            found[i], masks[i], areas[i] = (quad, fit, False), union, area
            joined.add(j)
    keep = [k for k in range(len(found)) if k not in joined]
    return [found[k] for k in keep], [masks[k] for k in keep], [areas[k] for k in keep]


def _quad_of_instance(mask: np.ndarray, cards: np.ndarray) -> tuple[np.ndarray, float, bool]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    whole = quad_from_blob(contour)
    if whole is not None:
        return fit_sides(contour, whole[0]), whole[1], False
    # Part of the card is hidden (under another, under a hand, past the frame's edge).
    rect = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float64)
    area = cv2.contourArea(rect.astype(np.float32))
    fit = cv2.contourArea(contour) / area if area > 0 else 0.0
    return complete_hidden(rect, cards, mask), float(fit), True


def _inside_larger(quads: list[np.ndarray], partial: list[bool]) -> list[int]:
    """Which quads have their centre inside another, whole (not completed) quad of more than twice
    their area. A completed quad is partly a guess: a card's sliver in a fan may lie inside it."""
    areas = [cv2.contourArea(q.astype(np.float32)) for q in quads]
    out = []
    for i, quad in enumerate(quads):
        centre = tuple(float(v) for v in quad.mean(axis=0))
        for j, other in enumerate(quads):
            if (
                j != i
                and not partial[j]
                and areas[j] > 2.0 * areas[i]
                and cv2.pointPolygonTest(other.astype(np.float32), centre, False) >= 0
            ):
                out.append(i)
                break
    return out


def fit_sides(contour: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` (4×2) with each side replaced by the line that best fits the outline's points along
    it, and the corners by the lines' intersections. A polygon fitted to a blob cuts the card's
    rounded (and, on a probability map, blurred) corners: the sides' lines do not."""
    points = contour.reshape(-1, 2).astype(np.float64)
    ends = np.roll(quad, -1, axis=0)
    along = ends - quad
    length = np.linalg.norm(along, axis=1)
    unit = along / np.maximum(length, 1e-9)[:, None]
    rel = points[:, None, :] - quad[None]  # (P, 4, 2)
    t = (rel * unit[None]).sum(-1) / np.maximum(length, 1e-9)[None]
    off = np.abs(rel[..., 0] * unit[None, :, 1] - rel[..., 1] * unit[None, :, 0])
    nearest = np.argmin(np.where((t >= 0) & (t <= 1), off, np.inf), axis=1)
    lines = []
    for i in range(4):
        on = points[(nearest == i) & (t[np.arange(len(points)), i] > 0.15) & (t[np.arange(len(points)), i] < 0.85)]
        if len(on) < 4:
            return quad
        # Huber's loss: points far from the line (a bump, a neighbour's corner) count for little.
        vx, vy, x0, y0 = cv2.fitLine(on.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    out = np.empty_like(quad)
    for i in range(4):
        corner = intersect(lines[i - 1][0], lines[i - 1][1], lines[i][0], lines[i][1])
        if corner is None:
            return quad
        out[i] = corner
    moved = float(np.linalg.norm(out - quad, axis=1).max())
    return out if moved < max(3.0, 0.08 * float(length.min())) and card_shaped(out) else quad


_PUSHED = {(True, True): [1, 2], (True, False): [0, 3], (False, True): [3, 2], (False, False): [0, 1]}
"""Which corners of a boxPoints rectangle move when side 0-1's direction (True) or side 0-3's is
pushed forwards (True) or backwards."""


def complete_hidden(rect: np.ndarray, cards: np.ndarray, own: np.ndarray) -> np.ndarray:
    """A rectangle (4×2) of a card's visible part grown to a whole card where its hidden part is.

    When the sides do not have a card's proportions, one side is pushed out (the least that gives
    them) into pixels that are covered: by another card (``cards`` but not ``own``) or beyond the
    frame's edge. If no side can be, the rectangle is returned as it was.
    """
    a, b = rect[1] - rect[0], rect[3] - rect[0]
    la, lb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if min(la, lb) < 2 or abs(min(la, lb) / max(la, lb) - CARD_ASPECT) < 0.06:
        return rect
    h, w = cards.shape
    hidden = cards & (own == 0)
    best: tuple[float, np.ndarray] | None = None
    for axis, length, other in ((a, la, lb), (b, lb, la)):
        unit = axis / length
        for target in (other / CARD_ASPECT, other * CARD_ASPECT):
            grow = target - length
            if grow < 0.08 * length:
                continue
            for sign in (1.0, -1.0):
                base = rect[0] if sign < 0 else rect[0] + axis
                span = b if axis is a else a
                added = np.array([base, base + span, base + span + sign * unit * grow, base + sign * unit * grow])
                region = np.zeros((h, w), np.uint8)
                cv2.fillConvexPoly(region, np.round(added).astype(np.int32), 1)
                inside = int(region.sum())
                total = max(float(np.linalg.norm(span)) * grow, 1.0)
                covered = (int(hidden[region > 0].sum()) + max(total - inside, 0.0)) / total
                if covered >= 0.8 and (best is None or grow < best[0]):
                    quad = rect.copy()  # the corners on the pushed side move
                    quad[_PUSHED[(axis is a, sign > 0)]] += sign * unit * grow
                    best = (grow, quad)
    return rect if best is None else best[1]
