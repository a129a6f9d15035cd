"""Jokers drawn in a deck's style: a picture in the middle and "JOKER" or a star in two corners.

A deck holds two jokers, and they often differ: here the first is printed in colour (its corner
in the deck's red, a coloured picture) and the second in black alone. What marks a joker where
the index of another card would be is one of :data:`CORNERS`: the letters J O K E R stacked one
under another, the word written down the side, a star, or the stacked letters with a star under
them. The picture is one of :data:`PICTURES`: a jester's head and hat, the word across the card,
or a big star. Everything else comes from the deck (its paper, inks, index font and the place of
its index column, its rounded corners and edge), so the jokers of a hold-out deck are written in
a hold-out font; a hold-out deck's stars may also be fatter (a wider inner radius) than any
training deck's.

:func:`render_joker` draws one at the renderer's native size (:data:`vision.render.faces.FACE_SIZE`) as
BGRA, like :func:`vision.render.faces.render_face`; :func:`joker_design` says what a deck's joker shows.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from vision.errors import SceneError
from vision.render.faces import FACE_H, FACE_W, Color, DeckStyle, _blend, _finish, _fit, _text_bitmap
from vision.render.fonts import index_fonts

Corner = Literal["stacked", "sideways", "star", "stacked-star"]
CORNERS: tuple[Corner, ...] = ("stacked", "sideways", "star", "stacked-star")
Picture = Literal["jester", "word", "star"]
PICTURES: tuple[Picture, ...] = ("jester", "word", "star")
JOKERS = 2
"""Jokers a deck holds: ``which`` 0 (in colour) and 1 (in black)."""

_WORD = "JOKER"

SCENE_TEXTS = {"Jk": 0, "Jk2": 1}
"""How a scene (:class:`vision.render.scene.PlacedCard`) names a deck's jokers: ``"Jk"`` the first, in
colour, ``"Jk2"`` the second, in black. Both are the card ``"Jk"`` in the scene's truth."""


def scene_joker(text: str) -> int | None:
    """Which joker a scene's card text names (0 or 1), or None for any other card."""
    return SCENE_TEXTS.get(text.strip()) if isinstance(text, str) else None


@dataclass(frozen=True)
class JokerDesign:
    """What one joker of a deck shows: its corner mark, picture, ink and star."""

    corner: Corner
    picture: Picture
    ink: Color
    coloured: bool
    star_points: int
    outline_star: bool
    star_inner: float
    """The star's inner radius, of its outer one."""


def _holdout_deck(style: DeckStyle) -> bool:
    return any(face.path == style.index.font for face in index_fonts("holdout"))


def joker_design(style: DeckStyle, which: int) -> JokerDesign:
    """The design of joker ``which`` (0 or 1) of a deck: both jokers share the corner mark and
    picture kind (one deck, one design), the first in colour, the second in black."""
    if which not in range(JOKERS):
        raise SceneError(f"a deck has jokers 0 and 1, not {which!r}")
    rng = np.random.default_rng([style.seed, 4111])
    corner = CORNERS[int(rng.integers(len(CORNERS)))]
    picture = PICTURES[int(rng.integers(len(PICTURES)))]
    points = int(rng.choice([5, 5, 5, 6]))
    outline = bool(rng.random() < 0.3)
    fat = _holdout_deck(style) and rng.random() < 0.5  # (a training deck draws no number here)
    fatter = (1.2, 1.35) if points == 5 else (1.12, 1.22)  # a six-pointed star's stays a star, not a hexagon
    inner = (0.4 if points == 5 else 0.5) * float(rng.uniform(*fatter) if fat else rng.uniform(0.85, 1.15))
    coloured = which == 0
    return JokerDesign(corner, picture, style.red if coloured else style.black, coloured, points, outline, inner)


def _star(size: int, points: int, *, outline: bool, inner: float = 0.4) -> np.ndarray:
    """A star ``size`` px tall as a coverage mask (float32 0..1), point up; ``inner``: its inner
    radius, of the outer one."""
    big = size * 4
    angles = np.pi / 2 + np.arange(2 * points) * np.pi / points
    radii = np.where(np.arange(2 * points) % 2 == 0, 0.5, 0.5 * inner) * big
    pts = np.stack([big / 2 + radii * np.cos(angles), big / 2 - radii * np.sin(angles) + big * 0.04], axis=1)
    canvas = np.zeros((big, big), np.uint8)
    poly = np.round(pts).astype(np.int32)
    if outline:
        cv2.polylines(canvas, [poly], True, 255, max(big // 14, 2), cv2.LINE_AA)
    else:
        cv2.fillPoly(canvas, [poly], 255, cv2.LINE_AA)
    mask = cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    ys, xs = np.nonzero(mask > 0.05)
    return np.ascontiguousarray(mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def _letter(style: DeckStyle, char: str, height: int) -> np.ndarray:
    bitmap = _text_bitmap(style.index.font, char, style.index.stroke)
    width = round(bitmap.shape[1] * height / bitmap.shape[0] * style.index.condense)
    return _fit(bitmap, height, width)


def _corner_block(style: DeckStyle, design: JokerDesign) -> tuple[np.ndarray, int]:
    """The top-left corner mark as a mask from the card's top edge, and its left edge in pixels."""
    idx = style.index
    top = round(idx.top * FACE_H * 0.8)
    centre = idx.center_x * FACE_W
    parts: list[np.ndarray] = []
    if design.corner in ("stacked", "stacked-star"):
        letter_h = max(round(min(idx.rank_height * 0.55, 0.3 / (len(_WORD) * 1.15)) * FACE_H), 7)
        parts += [_letter(style, char, letter_h) for char in _WORD]
    elif design.corner == "sideways":
        height = max(round(min(idx.rank_height * 0.6, 0.075) * FACE_H), 8)
        word = _text_bitmap(style.index.font, _WORD, style.index.stroke)
        width = min(round(word.shape[1] * height / word.shape[0] * idx.condense), round(0.36 * FACE_H))
        parts.append(np.ascontiguousarray(np.rot90(_fit(word, height, width), -1)))
    if design.corner in ("star", "stacked-star"):
        size = round(idx.rank_height * FACE_H * (1.0 if design.corner == "star" else 0.6))
        parts.append(_star(max(size, 8), design.star_points, outline=design.outline_star,
                      inner=design.star_inner))
    gap = max(round(0.008 * FACE_H), 1)
    width = max(p.shape[1] for p in parts)
    height = top + sum(p.shape[0] for p in parts) + gap * (len(parts) - 1)
    left = max(round(centre - width / 2), 3)
    block = np.zeros((height, left + width), np.float32)
    y = top
    for part in parts:
        x = left + (width - part.shape[1]) // 2
        block[y : y + part.shape[0], x : x + part.shape[1]] = part
        y += part.shape[0] + gap
    return block, left


def _picture(canvas: np.ndarray, style: DeckStyle, design: JokerDesign, which: int, left: float) -> None:
    """The picture in the middle of the card, clear of the corner marks."""
    x0, x1 = round(max(left, 0.2) * FACE_W), round((1 - max(left, 0.2)) * FACE_W)
    y0, y1 = round(0.16 * FACE_H), round(0.84 * FACE_H)
    w, h = x1 - x0, y1 - y0
    rng = np.random.default_rng([style.seed, which, 4127])
    palette = list(style.court_palette) if design.coloured else [style.black]
    art = np.empty((h, w, 3), np.float32)
    art[:] = style.paper
    if design.picture == "word":
        word = _text_bitmap(style.index.font, _WORD, style.index.stroke)
        length = min(round(h * 0.62), round(w * 0.85 * word.shape[1] / word.shape[0]))  # along the card
        mask = np.rot90(_fit(word, max(round(word.shape[0] * length / word.shape[1]), 8), length))
        mask = np.ascontiguousarray(mask if rng.random() < 0.5 else mask[::-1, ::-1])
        _blend(art, mask, design.ink, (w - mask.shape[1]) // 2, round(h * 0.04))
        star = _star(min(round(w * 0.45), round(h * 0.28)), design.star_points, outline=design.outline_star,
                      inner=design.star_inner)
        _blend(art, star, palette[int(rng.integers(len(palette)))], (w - star.shape[1]) // 2, h - star.shape[0] - 4)
    elif design.picture == "star":
        star = _star(round(w * 0.85), design.star_points, outline=design.outline_star,
                      inner=design.star_inner)
        _blend(art, star, design.ink, (w - star.shape[1]) // 2, (h - star.shape[0]) // 2)
        for _ in range(int(rng.integers(4, 10))):
            small = _star(int(rng.integers(10, 26)), design.star_points, outline=False)
            colour = palette[int(rng.integers(len(palette)))]
            x, y = int(rng.integers(0, w - small.shape[1])), int(rng.integers(0, h - small.shape[0]))
            _blend(art, small, colour, x, y)
    else:
        _jester(art, palette, design.ink, rng)
    canvas[y0:y1, x0:x1] = art
    cv2.rectangle(canvas, (x0, y0), (x1 - 1, y1 - 1), tuple(float(c) for c in design.ink), 2)


def _jester(art: np.ndarray, palette: list[Color], ink: Color, rng: np.random.Generator) -> None:
    """A jester: a three-pointed hat with bells over a face and a ruffled collar."""
    h, w = art.shape[:2]
    cx, face_y, r = w // 2, int(h * rng.uniform(0.45, 0.55)), int(w * rng.uniform(0.16, 0.22))
    dark = tuple(float(c) for c in ink)
    for k, tip in enumerate((-0.45, 0.0, 0.45)):  # the hat's three points, each with a bell
        colour = tuple(float(c) for c in palette[(k + int(rng.integers(3))) % len(palette)])
        tip_xy = (int(cx + tip * w), int(face_y - r - h * rng.uniform(0.18, 0.3)))
        hat = np.array([(cx - r, face_y - r // 2), (cx + r, face_y - r // 2), tip_xy], np.int32)
        cv2.fillPoly(art, [hat], colour, cv2.LINE_AA)
        cv2.polylines(art, [hat], True, dark, 1, cv2.LINE_AA)
        cv2.circle(art, tip_xy, max(r // 4, 3), dark, -1, cv2.LINE_AA)
    cv2.circle(art, (cx, face_y), r, (215.0, 225.0, 245.0), -1, cv2.LINE_AA)
    cv2.circle(art, (cx, face_y), r, dark, 2, cv2.LINE_AA)
    for dx in (-r // 3, r // 3):
        cv2.circle(art, (cx + dx, face_y - r // 5), max(r // 8, 2), dark, -1, cv2.LINE_AA)
    cv2.ellipse(art, (cx, face_y + r // 4), (r // 2, r // 4), 0, 10, 170, dark, 2, cv2.LINE_AA)
    collar_y = face_y + r + 2
    teeth = int(rng.integers(5, 9))
    for k in range(teeth):  # the ruffled collar
        colour = tuple(float(c) for c in palette[k % len(palette)])
        xa = int(cx - 1.6 * r + k * 3.2 * r / teeth)
        tri = np.array([(xa, collar_y), (int(xa + 3.2 * r / teeth), collar_y),
                        (int(xa + 1.6 * r / teeth), int(collar_y + r * 0.8))], np.int32)  # fmt: skip
        cv2.fillPoly(art, [tri], colour, cv2.LINE_AA)
    body = np.array([(cx - int(1.4 * r), collar_y + int(0.6 * r)), (cx + int(1.4 * r), collar_y + int(0.6 * r)),
                     (cx + int(2.0 * r), h - 1), (cx - int(2.0 * r), h - 1)], np.int32)  # fmt: skip
    cv2.fillPoly(art, [body], tuple(float(c) for c in palette[int(rng.integers(len(palette)))]), cv2.LINE_AA)
    cv2.polylines(art, [body], True, dark, 1, cv2.LINE_AA)


@functools.lru_cache(maxsize=64)
def render_joker(style: DeckStyle, which: int = 0) -> np.ndarray:
    """Joker ``which`` (0: in colour, 1: in black) of ``style``: FACE_H × FACE_W × 4 BGRA uint8
    (read-only, cached); its corner mark in the top-left corner and, turned, the bottom-right."""
    design = joker_design(style, which)
    canvas = np.empty((FACE_H, FACE_W, 3), np.float32)
    canvas[:] = style.paper
    block, _ = _corner_block(style, design)
    _picture(canvas, style, design, which, block.shape[1] / FACE_W + 0.03)
    bh, bw = block.shape
    _blend(canvas, block, design.ink, 0, 0)
    _blend(canvas, np.ascontiguousarray(block[::-1, ::-1]), design.ink, FACE_W - bw, FACE_H - bh)
    out = _finish(canvas, style)
    out.flags.writeable = False
    return out
