"""From the learned segmenter's maps to card outlines (work pixels): quads, halves, strays, sizes.

:func:`segmented` is the learned path of :func:`vision.detect.find_cards`: each instance of
:func:`vision.segment.instances` becomes a quad with its sides fitted as lines, a card partly
hidden is grown into the covered side, and the fact that all cards of a deck are one size is
used to join halves, give stray cores back and drop cards run together. An outline that is not one
whole card's (completed, or far larger than the typical card) is replaced by the cards its core
splits into where the network is surer, when they cover it (the cores of cards packed close run
together where the network is only fairly sure).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.quads import card_shaped, card_shaped_many, quad_from_blob
from vision.rectify import CARD_ASPECT
from vision.segment import CardSegmenter, Cores, Instance, cores, instances, split_cores

_OVERSIZE = 1.45  # an outline more than this many times the frame's typical card's area is dropped


Quads = list[tuple[np.ndarray, float, bool]]
"""Rough outlines (4×2 work pixels), each with its fit and whether part of the card is hidden."""


def segmented(segmenter: CardSegmenter, small: np.ndarray, min_area: float, *,
              explain: Callable[[np.ndarray, Quads], Quads] | None = None,
              maps: tuple[np.ndarray, np.ndarray] | None = None) -> Quads:  # fmt: skip
    """Rough quads (work pixels) of the cards the learned segmenter separates.

    The cards of one deck are all the same size: a "card" well inside a card more than twice its
    area is a stray core (a court card's busy picture), and its pixels go back to the card around it.
    ``explain`` (the classical detector's blob explainer: a uint8 mask and the cards already
    known → card quads) is asked about outlines of several cards run together: the whole cards
    of the typical size it finds in them are kept. ``maps`` are the segmenter's card and core
    probabilities for ``small`` when the caller has them already.
    """
    settings = segmenter.settings
    card, core = maps if maps is not None else segmenter.probabilities(small)
    cards = card > settings.card_threshold
    unsplit: Cores | None = None  # the cores of ``core`` the masks were made from
    for _ in range(2):
        unsplit = cores(core, core_threshold=settings.core_threshold, min_area=min_area)
        masks = instances(card, core, card_threshold=settings.card_threshold, core_threshold=settings.core_threshold,
                          min_area=min_area, found=unsplit)  # fmt: skip
        found = _quads_of_instances(masks, cards)
        stray = _inside_larger([quad for quad, _, _ in found], [partial for _, _, partial in found])
        if not stray:
            break
        core = core.copy()
        for i in stray:
            core[masks[i].full(core.shape) > 0] = 0.0
        unsplit = None
    # Cores of cards packed close can run together into one outline that is not a card's (or is
    # several cards' together): there the cores are split where the network is surer.
    split = _split_run_together(found, masks, card, core, min_area, (settings.card_threshold, settings.core_threshold),
                                unsplit)  # fmt: skip
    if split[0] is not found:  # a court card's picture split off as a card of its own goes
        strays = set(_inside_larger([quad for quad, _, _ in split[0]], [partial for _, _, partial in split[0]]))
        found = [f for k, f in enumerate(split[0]) if k not in strays]
        masks = [m for k, m in enumerate(split[1]) if k not in strays]
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
    kept = [(f, area) for f, area in zip(found, areas, strict=True) if area <= _OVERSIZE * typical]
    if explain is not None:
        known = [f for f, _ in kept]
        for inst, area in zip(masks, areas, strict=True):
            if area > _OVERSIZE * typical:
                kept += _whole_cards_in(inst.full(cards.shape) * 255, known, typical, explain)
    # What is still far smaller than a card shows only part of one, whatever its shape: a half is at
    # most about 0.55 of a card, while whole cards of one table differ by up to 1.5 times in area
    # (distance, tilt) and the map may fit inside a white-bordered card, so a whole card can
    # measure 0.65 of the typical one (0.7 made such plain backs partial, their "plain" unsure).
    return [(quad, fit, partial or area < 0.6 * typical) for (quad, fit, partial), area in kept]


def _whole_cards_in(mask: np.ndarray, known: Quads, typical: float, explain: Callable[[np.ndarray, Quads], Quads]
                    ) -> list[tuple[tuple[np.ndarray, float, bool], float]]:  # fmt: skip
    """The whole cards of the typical size that ``explain`` finds in a blob of several cards run
    together (the network saw no gap between them; the edges between them may still show).
    Only whole ones: a piece of a card cut along its own index would be read from the wrong place."""
    out: list[tuple[tuple[np.ndarray, float, bool], float]] = []
    known = list(known)
    for _ in range(2):  # what is left once the cards found are taken away is looked at once more
        found = []
        for quad, fit, partial in explain(mask, known):
            area = cv2.contourArea(quad.astype(np.float32))
            centre = tuple(float(v) for v in quad.mean(axis=0))
            inside_known = any(cv2.pointPolygonTest(q.astype(np.float32), centre, False) >= 0 for q, _, _ in known)
            if not partial and 0.8 * typical <= area <= 1.3 * typical and card_shaped(quad) and not inside_known:
                found.append(((quad, fit, False), area))
        if not found:
            break
        out += found
        known += [f for f, _ in found]
        taken = np.zeros_like(mask)
        for (quad, _, _), _ in found:
            cv2.fillConvexPoly(taken, np.round(quad).astype(np.int32), 255)
        mask = cv2.morphologyEx(cv2.bitwise_and(mask, cv2.bitwise_not(cv2.dilate(taken, np.ones((5, 5), np.uint8)))),
                                cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))  # fmt: skip
    return out


def _join_halves(found: Quads, instances: list[Instance], areas: list[float], typical: float, cards: np.ndarray
                 ) -> tuple[Quads, list[Instance], list[float]]:  # fmt: skip
    small = [i for i, area in enumerate(areas) if area < 0.8 * typical]
    masks = {i: instances[i].full(cards.shape) for i in small}
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
            (quad, fit, partial), = _quads_of_instances([Instance(0, 0, union)], cards)
            area = cv2.contourArea(quad.astype(np.float32))
            if partial or not 0.8 * typical <= area <= 1.3 * typical:
                continue
            found[i], masks[i], areas[i] = (quad, fit, False), union, area
            instances[i] = Instance(0, 0, union)
            joined.add(j)
    keep = [k for k in range(len(found)) if k not in joined]
    return [found[k] for k in keep], [instances[k] for k in keep], [areas[k] for k in keep]


def _quads_of_instances(instances: list[Instance], cards: np.ndarray) -> Quads:
    """Each instance's quad (work pixels), its fit, and whether part of the card is hidden."""
    out: list[tuple[np.ndarray, float, bool] | None] = []
    contours, wholes = [], []
    for inst in instances:
        found, _ = cv2.findContours(inst.mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE, offset=(inst.x, inst.y))
        contour = max(found, key=cv2.contourArea)
        whole = quad_from_blob(contour)
        if whole is not None:
            contours.append(contour)
            wholes.append((len(out), whole))
            out.append(None)
            continue
        # Part of the card is hidden (under another, under a hand, past the frame's edge).
        rect = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float64)
        area = cv2.contourArea(rect.astype(np.float32))
        fit = cv2.contourArea(contour) / area if area > 0 else 0.0
        out.append((complete_hidden(rect, cards, inst.full(cards.shape)), float(fit), True))
    fitted = fit_sides_many(contours, [quad for _, (quad, _) in wholes])
    for (k, (_, fit)), quad in zip(wholes, fitted, strict=True):
        out[k] = (quad, fit, False)
    return [o for o in out if o is not None]


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
    it, and the corners by the lines' intersections (one card of :func:`fit_sides_many`)."""
    return fit_sides_many([contour], [quad])[0]


_HUBER = 1.345  # pixels: a point further from the line than this counts less and less
_ROUNDS = 3


def fit_sides_many(contours: list[np.ndarray], quads: list[np.ndarray]) -> list[np.ndarray]:
    """Each quad (4×2) with its sides replaced by the lines that best fit its outline's points
    along them, and its corners by the lines' intersections; all cards at once.

    A polygon fitted to a blob cuts the card's rounded (and, on a probability map, blurred) corners:
    the sides' lines do not. Each side takes the outline points nearest to it, away from its ends,
    and its line is a total-least-squares fit reweighted with Huber's loss (a bump or a neighbour's
    corner counts for little). A quad whose side has too few points, or whose fitted corners
    move too far or stop being card-shaped, is returned as it was.
    """
    n = len(quads)
    if n == 0:
        return []
    quad = np.stack([np.asarray(q, np.float64) for q in quads])  # (N, 4, 2)
    points = np.concatenate([c.reshape(-1, 2) for c in contours]).astype(np.float64)
    owner = np.repeat(np.arange(n), [len(c.reshape(-1, 2)) for c in contours])
    along = quad[:, [1, 2, 3, 0]] - quad  # each side, from its corner to the next
    length = np.maximum(np.linalg.norm(along, axis=2), 1e-9)  # (N, 4)
    unit = along / length[..., None]
    corner, towards = quad[owner], unit[owner]  # each point's card's corners and sides (P, 4, 2)
    rx, ry = points[:, None, 0] - corner[..., 0], points[:, None, 1] - corner[..., 1]
    ux, uy = towards[..., 0], towards[..., 1]
    t = (rx * ux + ry * uy) / length[owner]
    off = np.abs(rx * uy - ry * ux)
    side = np.argmin(np.where((t >= 0) & (t <= 1), off, np.inf), axis=1)
    t_side = t[np.arange(len(points)), side]
    use = (t_side > 0.15) & (t_side < 0.85)
    group = (owner * 4 + side)[use]
    px, py = points[use, 0], points[use, 1]
    groups = 4 * n
    enough = np.bincount(group, minlength=groups).reshape(n, 4).min(axis=1) >= 4
    weight = np.ones(len(px))
    for round_ in range(_ROUNDS):
        total = np.maximum(np.bincount(group, weight, groups), 1e-9)
        cx, cy = np.bincount(group, weight * px, groups) / total, np.bincount(group, weight * py, groups) / total
        dx, dy = px - cx[group], py - cy[group]
        cxx = np.bincount(group, weight * dx**2, groups)
        cyy = np.bincount(group, weight * dy**2, groups)
        cxy = np.bincount(group, weight * dx * dy, groups)
        angle = 0.5 * np.arctan2(2 * cxy, cxx - cyy)
        cos, sin = np.cos(angle), np.sin(angle)
        if round_ < _ROUNDS - 1:  # the weights of the next round
            residual = np.abs(dx * sin[group] - dy * cos[group])
            weight = np.where(residual <= _HUBER, 1.0, _HUBER / np.maximum(residual, 1e-9))
    centre, direction = np.stack([cx, cy], axis=1), np.stack([cos, sin], axis=1)
    centre, direction = centre.reshape(n, 4, 2), direction.reshape(n, 4, 2)
    # Corner i is where side i-1 meets side i.
    c0, d0 = centre[:, [3, 0, 1, 2]], direction[:, [3, 0, 1, 2]]
    det = d0[..., 0] * -direction[..., 1] + d0[..., 1] * direction[..., 0]
    gap = centre - c0
    s_ = (gap[..., 0] * -direction[..., 1] + gap[..., 1] * direction[..., 0]) / np.where(np.abs(det) < 1e-9, 1.0, det)
    corners = c0 + s_[..., None] * d0
    moved = np.linalg.norm(corners - quad, axis=2).max(axis=1)
    good = enough & (np.abs(det).min(axis=1) >= 1e-9) & (moved < np.maximum(3.0, 0.08 * length.min(axis=1)))
    good &= card_shaped_many(np.where(np.isfinite(corners), corners, 0.0))
    return [corners[k] if good[k] else quad[k] for k in range(n)]


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


def _split_run_together(found: Quads, masks: list[Instance], card: np.ndarray, core: np.ndarray, min_area: float,
                        thresholds: tuple[float, float], unsplit: Cores | None = None
                        ) -> tuple[Quads, list[Instance]]:  # fmt: skip
    """``found`` and its instances with each outline that is not one whole card's (completed, or
    more than :data:`_OVERSIZE` times the typical card's area) replaced by the instances its core
    splits into (:func:`vision.segment.instances` with ``split``), when it splits. ``unsplit``:
    the cores of ``core`` that ``masks`` were made from, if they were: when none of them splits,
    the split instances are those, and are not made again."""
    areas = [cv2.contourArea(q.astype(np.float32)) for q, _, _ in found]
    whole = [area for area, (_, _, partial) in zip(areas, found, strict=True) if not partial]
    typical = float(np.percentile(whole, 75)) if len(whole) >= 3 else np.inf
    odd = [k for k, ((_, _, partial), area) in enumerate(zip(found, areas, strict=True))
           if partial or area > _OVERSIZE * typical]  # fmt: skip
    if not odd:
        return found, masks
    plain = unsplit if unsplit is not None else cores(core, core_threshold=thresholds[1], min_area=min_area)
    parted = split_cores(core, plain, min_area)
    if unsplit is not None and parted[0] == unsplit[0]:  # no core splits: the parts are the instances
        return found, masks
    parts = instances(card, core, card_threshold=thresholds[0], core_threshold=thresholds[1], min_area=min_area,
                      split=True, found=parted)  # fmt: skip
    if len(parts) <= len(masks):
        return found, masks
    full = [part.full(card.shape) for part in parts]
    out, out_masks = [], []
    for k, (item, inst) in enumerate(zip(found, masks, strict=True)):
        if k in odd:
            own = inst.full(card.shape)
            inside = [p for p, m in zip(parts, full, strict=True) if (m & own).sum() > 0.5 * m.sum()]
            quads = _quads_of_instances(inside, card > thresholds[0]) if len(inside) >= 2 else []
            drawn = np.zeros_like(own)
            for quad, _, _ in quads:
                cv2.fillConvexPoly(drawn, np.round(quad).astype(np.int32), 1)
            # Cards the outline was made of cover it; a large card's pips, split apart, do not.
            if quads and np.count_nonzero(drawn & own) >= 0.7 * np.count_nonzero(own):
                # A part completed as a card hidden under its neighbour is a piece of a card that
                # parted across its picture (a court card), not a card.
                keep = [j for j, (quad, _, partial) in enumerate(quads)
                        if not partial or not _overlapped(quad, [q for i, (q, _, _) in enumerate(quads) if i != j])]
                out += [quads[j] for j in keep]
                out_masks += [inside[j] for j in keep]
                continue
        out.append(item)
        out_masks.append(inst)
    return out, out_masks


def _overlapped(quad: np.ndarray, others: list[np.ndarray]) -> bool:
    """Whether another quad covers more than a third of ``quad``."""
    a = quad.astype(np.float32)
    area = max(float(cv2.contourArea(a)), 1e-6)
    return any(cv2.intersectConvexConvex(a, o.astype(np.float32))[0] > area / 3 for o in others)
