"""Training data: index crops and card thumbnails cut from rendered cards under random cameras.

Each sample is one card of a random deck style drawn onto a patch of table at a random size,
angle and perspective, with neighbours, occluders, light, glare, blur, noise and JPEG; its
corners are then "detected" with a small random error and cut out with the very functions the
reader uses (:mod:`vision.rectify`, :mod:`vision.classify`), so training sees what the reader
sees. Labels are exact. No real photo is ever used.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from table.cards import Card, Rank
from vision.classify import NO_INDEX
from vision.rectify import CROP_H, CROP_W, INDEX_BOX, Pyramid, _warp, card_homography, index_crops, order_corners
from vision.rectify import thumbnails as cut_thumbnails
from vision.render.faces import DeckStyle, deck_style
from vision.render.fonts import Pool, index_fonts
from vision.render.scene import CARD_ASPECT, TABLES, _draw_card, _pyramid, _surface

BANK_SIZE = 720
_CORE_BOX = (0.02, 0.03, 0.2, 0.3)  # where the index ink is on most decks


@dataclass
class CornerData:
    """Index crops with labels. ``rank`` is 0..12 or NO_INDEX; ``weight`` 0 means "do not learn"."""

    crops: np.ndarray  # (N, CROP_H, CROP_W, 3) uint8 BGR
    rank: np.ndarray  # (N,) int64
    suit: np.ndarray  # (N,) int64, meaningless where rank == NO_INDEX
    weight: np.ndarray  # (N,) float32
    family: np.ndarray  # (N,) int64: index of the deck's font family (for ensemble splits)
    pairs: np.ndarray  # (M, 2) int64: rows of each card's top-left and bottom-right crops
    card_id: np.ndarray  # (M,) int64: the card's id, -1 when it lies face down
    readable: np.ndarray  # (M,) bool: face up with at least one index corner in view


@dataclass
class ThumbData:
    """Whole-card thumbnails labelled face up (1) or face down (0)."""

    thumbs: np.ndarray  # (N, THUMB_H, THUMB_W, 3) uint8 BGR
    face_up: np.ndarray  # (N,) int64
    family: np.ndarray  # (N,) int64


class _Bank:
    """A few big table surfaces to cut backgrounds from (drawing one per sample would be slow)."""

    def __init__(self, rng: np.random.Generator, count: int = 20) -> None:
        names = sorted(TABLES)
        self.surfaces = [
            _surface(names[i % len(names)], (BANK_SIZE, BANK_SIZE), int(rng.integers(1 << 30))).copy()
            for i in range(count)
        ]

    def patch(self, rng: np.random.Generator, size: int) -> np.ndarray:
        surface = self.surfaces[int(rng.integers(len(self.surfaces)))]
        if size > BANK_SIZE:
            return cv2.resize(surface, (size, size), interpolation=cv2.INTER_LINEAR)
        x, y = rng.integers(0, BANK_SIZE - size + 1, 2)
        patch = surface[y : y + size, x : x + size].copy()
        if rng.random() < 0.5:
            patch = patch[:, ::-1].copy()
        tint = rng.uniform(0.75, 1.25, 3)
        return np.clip(patch * tint, 0, 255).astype(np.uint8)


def _corners(centre: np.ndarray, height: float, angle: float, warp: float, rng: np.random.Generator) -> np.ndarray:
    width = height * CARD_ASPECT
    local = np.array([[-width / 2, -height / 2], [width / 2, -height / 2], [width / 2, height / 2],
                      [-width / 2, height / 2]])  # fmt: skip
    a = math.radians(angle)
    rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    out: np.ndarray = local @ rot.T + centre + rng.normal(0, warp * height, (4, 2))
    return out


_NOISE = np.random.default_rng(5).standard_normal((1024, 1024, 3)).astype(np.float32)


def _smooth(rng: np.random.Generator, w: int, h: int, fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """A smooth field evaluated on a coarse grid (x, y in 0..1) and resized to w × h."""
    yy, xx = np.mgrid[0:17, 0:17].astype(np.float32) / 16
    field: np.ndarray = cv2.resize(fn(xx, yy).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return field


def _camera(image: np.ndarray, rng: np.random.Generator, card_height: float) -> np.ndarray:
    """Room light, glare, blur, sensor noise and JPEG, in place of a real camera."""
    h, w = image.shape[:2]
    direction = rng.uniform(0, 2 * np.pi)
    level, slope = rng.uniform(0.45, 1.25), rng.uniform(0, 0.6)
    gain = _smooth(rng, w, h, lambda x, y: level * (1 + slope * ((x - 0.5) * np.cos(direction)
                                                                 + (y - 0.5) * np.sin(direction))))  # fmt: skip
    tint = np.array([rng.uniform(0.75, 1.1), rng.uniform(0.9, 1.05), rng.uniform(0.9, 1.2)], np.float32)
    out = image.astype(np.float32) * gain[:, :, None] * tint
    if rng.random() < 0.3:
        gx, gy, radius = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.1, 0.6) * card_height / w
        strength = rng.uniform(30, 160)
        spot = _smooth(rng, w, h, lambda x, y: np.exp(-((x - gx) ** 2 + (y - gy) ** 2) / (2 * radius**2)))
        out += spot[:, :, None] * strength
    if rng.random() < 0.3:  # low-contrast, washed-out exposure
        out = out * rng.uniform(0.5, 0.85) + rng.uniform(20, 90)
    sigma = rng.choice([0.0, rng.uniform(0.3, 1.0), rng.uniform(0.8, 2.0)], p=[0.2, 0.55, 0.25])
    if sigma > 0:
        out = cv2.GaussianBlur(out, (0, 0), float(sigma))
    if rng.random() < 0.08:  # motion blur
        k = int(rng.integers(3, 7))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        turned = cv2.warpAffine(kernel, rot, (k, k))
        out = cv2.filter2D(out, -1, (turned / max(float(turned.sum()), 1e-6)).astype(np.float32))
    if h <= 1024 and w <= 1024:
        y0, x0 = rng.integers(0, 1024 - h + 1), rng.integers(0, 1024 - w + 1)
        out += _NOISE[y0 : y0 + h, x0 : x0 + w] * np.float32(rng.uniform(0.5, 7.0))
    result: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.75:
        ok, data = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            result = decoded
    return result


def _skin(mask_canvas: np.ndarray, canvas: np.ndarray, rng: np.random.Generator, at: np.ndarray, size: float) -> None:
    tones = [(60, 90, 150), (95, 135, 200), (120, 160, 225), (45, 65, 105), (80, 115, 170)]
    color = tuple(int(c * rng.uniform(0.8, 1.15)) for c in tones[int(rng.integers(len(tones)))])
    axes = (int(size * rng.uniform(0.15, 0.3)), int(size * rng.uniform(0.1, 0.2)))
    centre = (int(at[0]), int(at[1]))
    angle = float(rng.uniform(0, 180))
    cv2.ellipse(canvas, centre, axes, angle, 0, 360, color, -1, cv2.LINE_AA)
    cv2.ellipse(mask_canvas, centre, axes, angle, 0, 360, 255, -1)


def _coverage(mask: np.ndarray, homography: np.ndarray, flip: bool) -> float:
    """Fraction of the index ink region (of the corner, turned if ``flip``) covered in ``mask``."""
    x0, y0, x1, y1 = _CORE_BOX
    if flip:
        x0, y0, x1, y1 = 1 - x1, 1 - y1, 1 - x0, 1 - y0
    box = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
    poly = cv2.perspectiveTransform(box, homography)[0]
    region = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(region, np.round(poly).astype(np.int32), 255)
    inside = region > 0
    total = int(inside.sum())
    return float((mask[inside] > 0).sum() / total) if total else 0.0


def _levels(style: DeckStyle, card: Card | str, face_up: bool, back: str) -> tuple[np.ndarray, ...]:
    return _pyramid((style, str(card), face_up, back))


FOCUS_HEIGHTS = (110.0, 215.0)
"""Card heights in pixels of the "focus" samples: a table seen whole by the camera (the bench's and
the demo's scenes draw cards 0.19-0.25 of a 720-pixel frame), where index suits are 6-10 px."""


def _row_neighbour(true: np.ndarray, height: float, angle: float, rng: np.random.Generator
                   ) -> tuple[np.ndarray, float]:  # fmt: skip
    """Corners and turn of a card lying on top of ``true``'s side (or end), as in a crowded row."""
    across, down = (true[1] - true[0]) / max(height * CARD_ASPECT, 1e-6), (true[3] - true[0]) / max(height, 1e-6)
    centre = true.mean(axis=0)
    if rng.random() < 0.8:  # beside it, overlapping up to a quarter of its width
        spot = centre + across * height * CARD_ASPECT * rng.choice([-1, 1]) * rng.uniform(0.72, 1.0)
        spot = spot + down * height * rng.uniform(-0.12, 0.12)
    else:  # above or below it
        spot = centre + down * height * rng.choice([-1, 1]) * rng.uniform(0.8, 1.0)
        spot = spot + across * height * CARD_ASPECT * rng.uniform(-0.15, 0.15)
    turn = angle + float(rng.uniform(-14, 14)) + (180.0 if rng.random() < 0.5 else 0.0)
    return _corners(spot, height * rng.uniform(0.97, 1.03), turn, 0.008, rng), turn


def draw_sample(rng: np.random.Generator, bank: _Bank, style: DeckStyle, card: Card | str, face_up: bool,
                back: str, height: float, *, focus: bool = False
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """One card of ``style`` ``height`` px tall on a patch of table under a random camera, as
    :func:`make_samples` draws it: the image, the card's corners "detected" with a small error,
    its true corners, and a mask of what lies on top of it. ``card`` is a Card, or a scene's text
    of a joker (``"Jk"``, ``"Jk2"``: :data:`vision.render.joker_faces.SCENE_TEXTS`)."""
    size = int(height * 1.4) + 8
    canvas = bank.patch(rng, size)
    shadow = (float(rng.uniform(-0.03, 0.03)), float(rng.uniform(-0.03, 0.03)), float(rng.uniform(0.05, 0.4)))
    centre = np.array([size / 2, size / 2]) + rng.normal(0, 0.03 * height, 2)
    for _ in range(int(rng.choice([0, 0, 1, 2]))):  # neighbours underneath
        neighbour = Card.from_id(int(rng.integers(52)))
        spot = centre + rng.uniform(-0.9, 0.9, 2) * height
        _draw_card(canvas, _levels(style, neighbour, bool(rng.random() < 0.6), "plain"),
                   _corners(spot, height, float(rng.uniform(0, 360)), 0.01, rng), shadow)  # fmt: skip
    angle = float(rng.uniform(0, 360))
    true = _corners(centre, height, angle, float(rng.uniform(0, 0.03)), rng)
    if focus and rng.random() < 0.3:  # a neighbour in the row, underneath this card
        under, _ = _row_neighbour(true, height, angle, rng)
        _draw_card(canvas, _levels(style, Card.from_id(int(rng.integers(52))), bool(rng.random() < 0.7),
                                   "plain"), under, shadow)  # fmt: skip
    _draw_card(canvas, _levels(style, card, face_up, back), true, shadow)
    occluded = np.zeros(canvas.shape[:2], np.uint8)
    if focus and rng.random() < 0.55:  # a neighbour in the row on top of one side or end
        over, _ = _row_neighbour(true, height, angle, rng)
        _draw_card(canvas, _levels(style, Card.from_id(int(rng.integers(52))), bool(rng.random() < 0.75),
                                   "plain"), over, shadow)  # fmt: skip
        cv2.fillConvexPoly(occluded, np.round(over).astype(np.int32), 255)
    if rng.random() < (0.12 if focus else 0.25):  # fanned: cards on top that leave the top-left index in view
        across, down = true[1] - true[0], true[3] - true[0]
        for _ in range(int(rng.integers(1, 3))):
            spot = true.mean(axis=0) + across * rng.uniform(0.3, 0.8) + down * rng.uniform(0.0, 0.45)
            over = _corners(spot, height, angle + float(rng.uniform(-15, 15)), 0.01, rng)
            fan = Card.from_id(int(rng.integers(52)))
            _draw_card(canvas, _levels(style, fan, bool(rng.random() < 0.7), "plain"), over, shadow)
            cv2.fillConvexPoly(occluded, np.round(over).astype(np.int32), 255)
    if rng.random() < 0.12:  # a card or a thumb over one corner
        target = true[int(rng.choice([0, 2]))]
        if rng.random() < 0.5:
            spot = target + rng.normal(0, 0.35, 2) * height
            over = _corners(spot, height, float(rng.uniform(0, 360)), 0.01, rng)
            _draw_card(canvas, _levels(style, Card.from_id(int(rng.integers(52))), False, "plain"), over, shadow)
            cv2.fillConvexPoly(occluded, np.round(over).astype(np.int32), 255)
        else:
            _skin(occluded, canvas, rng, target + rng.normal(0, 0.1, 2) * height, height)
    image = _camera(canvas, rng, height)
    detected = order_corners(true + rng.normal(0, rng.uniform(0.002, 0.014) * height, (4, 2)))
    return image, detected, true, occluded


LETTER_MIX: dict[str, float] = {"en": 0.4, "fr": 0.2, "fr1": 0.1, "de": 0.3}
"""The index sets of the training decks when several are mixed (``letters="mix"``): the English,
French (the ace an A or a 1) and German letters the reader knows with no setting
(:data:`vision.render.faces.INDEX_SETS`). Dutch letters are never trained on: Dutch V is a queen."""

LETTERED_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
"""The ranks whose index is a letter (or a 1), which differ between languages."""

LETTER_CARDS = 0.35
"""In a deck printing French or German letters, this share of the cards is redrawn as an ace or a
court card (a card of 4 ranks in 13 otherwise): those letters (R D V B, a 1 for the ace) are what
such a deck adds, and at 4 in 13 a rendered set holds few of each (a 1 only on the aces of one
deck in ten)."""

RESHAPED = 0.5
"""The share of training deck styles whose index glyphs are slanted and bent
(:func:`vision.render.faces.reshaped_glyph`): letter and digit shapes between and beyond the
training fonts' own, so that the models learn the letter rather than the font."""

SHEAR = 0.12
WARP = (0.01, 0.045)
"""The slant (up to this either way) and the bend (a share of the glyph's height, in this range)
of a reshaped deck's glyphs."""


def reshape_index(style: DeckStyle, rng: np.random.Generator) -> DeckStyle:
    """``style`` with its index glyphs slanted and bent at random, one deck in ``1 / RESHAPED``
    (the draws come from ``rng`` whether or not the deck is reshaped)."""
    reshaped, shear, warp = rng.random() < RESHAPED, float(rng.uniform(-SHEAR, SHEAR)), float(rng.uniform(*WARP))
    seed = int(rng.integers(1 << 30))
    if not reshaped:
        return style
    return replace(style, index=replace(style.index, shear=shear, warp=warp, warp_seed=seed))


def make_samples(count: int, *, pool: Pool, seed: int, cards_per_style: int = 16, focus: bool = False,
                 letters: str = "en", progress: Callable[[int], None] | None = None
                 ) -> tuple[CornerData, ThumbData]:  # fmt: skip
    """``count`` card samples from deck styles of ``pool``, reproducible from ``seed``.

    Returns the index crops (two per card, plus extra "no index" crops) and one thumbnail per card.
    ``focus`` draws what limits the reader on whole-table scenes: cards 110-215 px tall (small,
    blurred index suits), neighbours lying on top of a corner as in touching rows (often of a
    four-index deck, whose own index then sits where the covered one was: "no index"), fewer
    fanned hands. ``letters`` is the index set of every deck (a key of
    :data:`vision.render.faces.INDEX_SETS`), or ``"mix"``: each deck's drawn from :data:`LETTER_MIX`,
    or ``"varied"``: as ``"mix"``, and in the ``"train"`` pool half the deck styles reshape their
    index glyphs (:func:`reshape_index`) and French and German decks hold more aces and court
    cards (:data:`LETTER_CARDS`).
    """
    varied = letters == "varied" and pool == "train"  # the hold-out decks stay as their fonts draw them
    mix = np.random.default_rng([seed, 17])  # its own stream: the decks' other draws do not move
    shapes = np.random.default_rng([seed, 23])  # glyph shapes and letter cards: their own stream too
    rng = np.random.default_rng([seed, 11])
    bank = _Bank(rng)
    family_of = {face.path: zlib.crc32(face.family.encode()) % 10007 for face in index_fonts("all")}
    crops: list[np.ndarray] = []
    ranks: list[int] = []
    suits: list[int] = []
    weights: list[float] = []
    fams: list[int] = []
    thumbs: list[np.ndarray] = []
    faces: list[int] = []
    thumb_fams: list[int] = []
    pairs: list[tuple[int, int]] = []
    card_ids: list[int] = []
    readable: list[bool] = []
    style = deck_style(0, pool)
    for i in range(count):
        if i % cards_per_style == 0:
            mixed = letters in ("mix", "varied")
            chosen = str(mix.choice(list(LETTER_MIX), p=list(LETTER_MIX.values()))) if mixed else letters
            style = deck_style(int(rng.integers(1 << 30)), pool, chosen)
            if focus and rng.random() < 0.35:
                style = replace(style, index=replace(style.index, four_corners=True))
            if varied:
                style = reshape_index(style, shapes)
        family = family_of.get(style.index.font, 0)
        card = Card.from_id(int(rng.integers(52)))
        lettered, rank = shapes.random() < LETTER_CARDS, LETTERED_RANKS[int(shapes.integers(len(LETTERED_RANKS)))]
        if varied and style.index.letters != "en" and lettered:
            card = Card(rank, card.suit)
        face_up = rng.random() < 0.78
        back = str(rng.choice(["plain", "tock", "plain"]))
        height = (float(rng.uniform(*FOCUS_HEIGHTS)) if focus
                  else float(np.exp(rng.uniform(np.log(75), np.log(360)))))  # fmt: skip
        image, detected, _, occluded = draw_sample(rng, bank, style, card, face_up, back, height, focus=focus)
        pyramid = Pyramid(image)
        pair = index_crops(image, [detected], pyramid=pyramid)
        homography = card_homography(detected)
        pairs.append((len(crops), len(crops) + 1))
        card_ids.append(card.id if face_up else -1)
        for k, flip in ((0, False), (1, True)):
            cover = _coverage(occluded, homography, flip)
            label, weight = (card.rank, 1.0) if face_up else (NO_INDEX, 1.0)
            if face_up and cover > 0.5:
                label = NO_INDEX
            elif face_up and cover > 0.08:
                weight = 0.0
            crops.append(pair[k])
            ranks.append(int(label))
            suits.append(int(card.suit))
            weights.append(weight)
            fams.append(family)
        in_view = [r != NO_INDEX and w > 0 for r, w in zip(ranks[-2:], weights[-2:], strict=True)]
        readable.append(face_up and any(in_view))
        if face_up and rng.random() < 0.35:  # the other two corners: an index only on four-index decks
            flip = bool(rng.random() < 0.5)
            other = _warp(pyramid, homography, (1 - INDEX_BOX[2], 0.0, 1.0, INDEX_BOX[3]), (CROP_W, CROP_H), flip)
            crops.append(other)
            ranks.append(int(card.rank) if style.index.four_corners else NO_INDEX)
            suits.append(int(card.suit))
            weights.append(0.0 if _coverage(occluded, homography, not flip) > 0.08 else 1.0)
            fams.append(family)
        if face_up and rng.random() < 0.08:  # an index upside down is not an index
            crops.append(pair[0][::-1, ::-1].copy())
            ranks.append(NO_INDEX)
            suits.append(0)
            weights.append(1.0)
            fams.append(family)
        thumbs.append(cut_thumbnails(image, [detected], pyramid=pyramid)[0])
        faces.append(int(face_up))
        thumb_fams.append(family)
        if progress is not None:
            progress(i + 1)
    corner = CornerData(
        crops=np.stack(crops),
        rank=np.array(ranks, np.int64),
        suit=np.array(suits, np.int64),
        weight=np.array(weights, np.float32),
        family=np.array(fams, np.int64),
        pairs=np.array(pairs, np.int64),
        card_id=np.array(card_ids, np.int64),
        readable=np.array(readable, bool),
    )
    thumb = ThumbData(thumbs=np.stack(thumbs), face_up=np.array(faces, np.int64), family=np.array(thumb_fams))
    return corner, thumb


CHUNK = 1000
"""Cards per independently seeded chunk: the data do not depend on how many processes render them."""


def _chunk(job: tuple[int, str, int, bool, str]) -> tuple[CornerData, ThumbData]:
    count, pool, seed, focus, letters = job
    return make_samples(count, pool=pool, seed=seed, focus=focus, letters=letters)  # type: ignore[arg-type]


def render_dataset(count: int, *, pool: Pool, seed: int, jobs: int = 1, focus: bool = False, letters: str = "en",
                   progress: Callable[[int], None] | None = None) -> tuple[CornerData, ThumbData]:  # fmt: skip
    """``count`` cards rendered in chunks of CHUNK (each seeded from ``seed`` and its number), in
    parallel; ``focus`` and ``letters``: see :func:`make_samples`."""
    work = [(min(CHUNK, count - start), pool, seed * 100003 + i, focus, letters)
            for i, start in enumerate(range(0, count, CHUNK))]  # fmt: skip
    parts: list[tuple[CornerData, ThumbData]] = []
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as workers:
            for part in workers.imap(_chunk, work):
                parts.append(part)
                if progress is not None:
                    progress(sum(len(p[1].face_up) for p in parts))
    else:
        for job in work:
            parts.append(_chunk(job))
            if progress is not None:
                progress(sum(len(p[1].face_up) for p in parts))
    return concat(parts)


def concat(parts: list[tuple[CornerData, ThumbData]]) -> tuple[CornerData, ThumbData]:
    """Datasets one after the other (card pairs renumbered)."""
    offsets = np.cumsum([0] + [len(c.rank) for c, _ in parts[:-1]])
    corner = CornerData(
        crops=np.concatenate([c.crops for c, _ in parts]),
        rank=np.concatenate([c.rank for c, _ in parts]),
        suit=np.concatenate([c.suit for c, _ in parts]),
        weight=np.concatenate([c.weight for c, _ in parts]),
        family=np.concatenate([c.family for c, _ in parts]),
        pairs=np.concatenate([c.pairs + off for (c, _), off in zip(parts, offsets, strict=True)]),
        card_id=np.concatenate([c.card_id for c, _ in parts]),
        readable=np.concatenate([c.readable for c, _ in parts]),
    )
    thumb = ThumbData(
        thumbs=np.concatenate([t.thumbs for _, t in parts]),
        face_up=np.concatenate([t.face_up for _, t in parts]),
        family=np.concatenate([t.family for _, t in parts]),
    )
    return corner, thumb
