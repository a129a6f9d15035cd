"""Suit symbols drawn from parameters, so every deck style can have its own hearts and clubs.

A :class:`SuitShape` holds the few numbers that make one deck's suits look different from
another's (plumpness of a heart, concavity of a diamond, size of a club's leaves, the stem of a
spade); :func:`suit_mask` draws one suit as an anti-aliased coverage mask of a given size. A shape
may instead take its suits from a font's ♠♥♦♣ glyphs.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from table.cards import Suit

FloatImage = np.ndarray
_SUPER = 4  # supersampling factor for anti-aliased edges
_GLYPHS = "♣♦♥♠"


@dataclass(frozen=True)
class SuitShape:
    """The look of one deck's four suits. All values are fractions of the symbol's box."""

    heart_plump: float = 1.0  # exponent on the heart's width profile (<1 rounder, >1 slimmer)
    heart_depth: float = 1.0  # depth of the notch between the lobes
    diamond_aspect: float = 0.72  # width / height
    diamond_curve: float = 0.9  # superellipse exponent: 1 = straight sides, <1 = concave
    club_leaf: float = 0.245  # leaf radius
    club_spread: float = 1.7  # distance between leaf centres, in leaf radii
    stem_width: float = 0.18  # width of a spade's or club's stem at its foot
    stem_height: float = 0.24  # height of the stem
    glyph_font: str | None = None  # draw the font's ♠♥♦♣ instead of the shapes above

    @staticmethod
    def random(rng: np.random.Generator, glyph_fonts: tuple[str, ...] = ()) -> SuitShape:
        """A random plausible suit design; ``glyph_fonts`` allows font glyphs (1 in 4)."""
        if glyph_fonts:
            glyph = str(rng.choice(list(glyph_fonts))) if rng.random() < 0.25 else None
        else:
            # The same draws as with fonts to choose from, so that the rest of a deck's look (its
            # layout, colours and back) does not depend on which fonts are installed.
            glyph = None
            if rng.random() < 0.25:
                rng.integers(2)
        return SuitShape(
            heart_plump=float(rng.uniform(0.8, 1.25)),
            heart_depth=float(rng.uniform(0.6, 1.4)),
            diamond_aspect=float(rng.uniform(0.6, 0.86)),
            diamond_curve=float(rng.uniform(0.72, 1.05)),
            club_leaf=float(rng.uniform(0.22, 0.27)),
            club_spread=float(rng.uniform(1.5, 1.85)),
            stem_width=float(rng.uniform(0.1, 0.3)),
            stem_height=float(rng.uniform(0.18, 0.3)),
            glyph_font=glyph,
        )

    def aspect(self, suit: Suit) -> float:
        """Width / height of the suit's box."""
        if self.glyph_font is not None:
            mask = _glyph_bitmap(self.glyph_font, _GLYPHS[suit])
            return float(mask.shape[1] / mask.shape[0])
        return {Suit.CLUBS: 0.95, Suit.DIAMONDS: self.diamond_aspect, Suit.HEARTS: 1.0, Suit.SPADES: 0.9}[suit]


def _heart_outline(plump: float, depth: float, n: int = 96) -> np.ndarray:
    """A heart in the unit box, point at the bottom (x right, y down)."""
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    x = np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * depth * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)) / 16
    x = np.sign(x) * np.abs(x) ** plump
    pts = np.stack([x, y], axis=1)
    pts -= pts.min(axis=0)
    pts /= pts.max(axis=0)
    return pts


def _stem(width: float, height: float, top: float) -> np.ndarray:
    """A flared stem whose foot sits on the box's bottom edge."""
    half_top, half_foot = width * 0.12, width / 2
    ys = np.linspace(top, 1.0, 8)
    flare = ((ys - top) / (1.0 - top)) ** 2
    halves = half_top + (half_foot - half_top) * flare
    left = np.stack([0.5 - halves, ys], axis=1)
    right = np.stack([0.5 + halves, ys], axis=1)[::-1]
    return np.concatenate([left, right])


def _polygons(shape: SuitShape, suit: Suit) -> tuple[list[np.ndarray], list[tuple[float, float, float]]]:
    """Polygons and circles (cx, cy, r) of a suit in the unit box."""
    if suit == Suit.HEARTS:
        return [_heart_outline(shape.heart_plump, shape.heart_depth)], []
    if suit == Suit.DIAMONDS:
        t = np.linspace(0, 2 * np.pi, 64, endpoint=False)
        c, s = np.cos(t), np.sin(t)
        p = shape.diamond_curve
        x = np.sign(c) * np.abs(c) ** (2 / p) / 2 + 0.5
        y = np.sign(s) * np.abs(s) ** (2 / p) / 2 + 0.5
        return [np.stack([x, y], axis=1)], []
    stem_top = 1.0 - shape.stem_height
    stem = _stem(shape.stem_width, shape.stem_height, stem_top - 0.1)
    if suit == Suit.SPADES:
        body = _heart_outline(shape.heart_plump, shape.heart_depth)
        body[:, 1] = 1.0 - body[:, 1]
        body[:, 1] *= stem_top + 0.04
        return [body, stem], []
    r = shape.club_leaf
    dx = 0.5 - r
    dy = float(np.sqrt(max((shape.club_spread * r) ** 2 - dx**2, (0.6 * r) ** 2)))
    circles = [(0.5, r, r), (r, r + dy, r), (1.0 - r, r + dy, r), (0.5, r + dy * 0.8, r * 0.6)]
    return [stem], circles


@functools.cache
def _glyph_bitmap(font_path: str, glyph: str) -> np.ndarray:
    font = ImageFont.truetype(font_path, 128)
    image = Image.new("L", (200, 200), 0)
    ImageDraw.Draw(image).text((30, 20), glyph, font=font, fill=255)
    arr = np.asarray(image, dtype=np.float32) / 255.0
    ys, xs = np.nonzero(arr > 0.05)
    if len(ys) == 0:
        return np.ones((8, 8), np.float32)
    return np.ascontiguousarray(arr[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


@functools.lru_cache(maxsize=4096)
def suit_mask(shape: SuitShape, suit: Suit, height: int) -> FloatImage:
    """Coverage mask (float32, 0..1) of ``suit`` drawn ``height`` pixels tall."""
    height = max(int(height), 3)
    width = max(round(height * shape.aspect(suit)), 3)
    if shape.glyph_font is not None:
        glyph = _glyph_bitmap(shape.glyph_font, _GLYPHS[suit])
        return cv2.resize(glyph, (width, height), interpolation=cv2.INTER_AREA)
    big_w, big_h = width * _SUPER, height * _SUPER
    canvas = np.zeros((big_h, big_w), np.uint8)
    polygons, circles = _polygons(shape, suit)
    scale = np.array([big_w - 1, big_h - 1], dtype=np.float64)
    for poly in polygons:
        cv2.fillPoly(canvas, [np.round(poly * scale).astype(np.int32)], 255, lineType=cv2.LINE_8)
    for cx, cy, r in circles:
        center = (round(cx * (big_w - 1)), round(cy * (big_h - 1)))
        cv2.circle(canvas, center, round(r * big_h), 255, -1, lineType=cv2.LINE_8)
    small = cv2.resize(canvas, (width, height), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32) / 255.0
